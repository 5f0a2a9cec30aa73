// The app: the GLFW window with its OpenGL 3.3 context, the ImGui frame loop, the worker
// jobs (simulation, GPU), the keys, and the command-line modes (--screenshot, --frames).
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export_job.hpp"
#include "gif_writer.hpp"
#include "job.hpp"
#include "state.hpp"

struct GLFWwindow;
struct ImDrawData;

namespace ts::app {

/// --export-steps' picture formats.
enum class ExportFormat { Png, Gif, Svg };

/// What the command line asked for (spec/cli.md, `tilescope`).
struct Options {
    sim::Preset preset;                 ///< the scenario to open
    std::optional<int> step;            ///< starting step (-1: last); default the preset's
    int width = 1600, height = 900;     ///< window size in pixels
    std::string screenshot;             ///< save this PNG and exit
    float scale = 1.0f;                 ///< screenshot pixel scale (UI rendered at that size)
    int frames = 0;                     ///< run this many frames, print timings, exit
    bool presentation = false;          ///< start in presentation mode
    std::optional<float> uiScale;       ///< UI scale to start with (presentation's if given)
    std::optional<ThemeKind> theme;     ///< theme to start with
    int exportFrom = -1, exportTo = -1; ///< --export-steps A..B (-1: not exporting)
    std::string exportDir;              ///< --out: folder of the numbered files or the GIF
    ExportFormat exportFormat = ExportFormat::Png;   ///< --format
    int exportPanel = -1;               ///< --panel: a Panel, or -1 for the whole window
    int gifDelayMs = 1500;              ///< --delay-ms: how long a GIF shows each step
    bool printCaption = false;          ///< --print-caption: the caption shown, on stdout
    std::vector<int> keys;              ///< --keys: GLFW key codes pressed before --screenshot
};

/// A simulation handed back by the worker.
struct SimOutcome {
    sim::Preset preset;
    std::shared_ptr<const sim::Simulation> sim;
    std::vector<uint8_t> wrongReads;   ///< see Loaded::wrongReads
};

/// What a GPU job hands back: the device (and its occupancy limits), timings, or why it
/// stopped.
struct GpuOutcome {
    std::optional<gpu::DeviceInfo> device;
    std::optional<sim::DeviceLimits> limits;
    std::string limitsError;
    std::vector<gpu::BenchResult> timings;
    std::string error;
};

class App {
public:
    explicit App(Options o);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Opens the window and runs until it is closed (or the command-line mode is done).
    /// Returns the process exit status (spec/cli.md: 0 ok, 2 bad arguments).
    int run();

private:
    bool openWindow(std::string& error);
    void startSimulation(const sim::Preset& p, std::optional<int> step, bool keepCursor);
    /// Simulates `p` and applies what it says about the view: the Occupancy question, the
    /// panels shown, the selected thread.
    void openPreset(const sim::Preset& p, std::optional<int> step);
    /// Writes the state on screen (problem, traced block, step, thread, panels) as a
    /// scenario file; the result goes to the caption bar's notice.
    void saveScenario(const std::string& path);
    /// The state on screen as a preset: problem, traced block, step, thread, panels.
    sim::Preset currentPreset() const;
    /// Starts File > Export in a child process (export_job.hpp).
    void startExport(const ExportForm& e);
    void openOccupancy(const sim::Preset& p);
    void collectJobs();
    void handleKeys();
    void play(double dt);
    void updateReplay();
    void drawUi();
    void carryOut();
    void applyLook();
    /// Entering presentation mode shows the slide's panels in two columns; leaving it
    /// brings back the panels and arrangement of the desk.
    void followPresentation();
    void setFullScreen(bool on);
    bool offscreen() const { return !opt_.screenshot.empty() || opt_.exportFrom >= 0; }
    float wantedScale() const;
    /// Writes the frame just drawn as step `step` of --export-steps (a numbered PNG or SVG,
    /// or the next GIF frame) at `w` x `h` pixels. Returns "" or one sentence.
    std::string exportStep(ImDrawData* data, int step, int w, int h);

    Options opt_;
    GLFWwindow* window_ = nullptr;
    Theme theme_;
    Loaded loaded_;
    View view_;
    Requests requests_;
    Busy busy_;
    sim::ReplayState replay_;
    uint64_t replayGeneration_ = ~0ull;
    std::string ini_;
    std::string settingsPath_;          ///< settings.toml beside imgui.ini ("" in CLI modes)
    bool fullScreen_ = false;
    int windowedX_ = 0, windowedY_ = 0, windowedW_ = 0, windowedH_ = 0;
    int exportNext_ = -1;               ///< next step --export-steps writes
    size_t keyNext_ = 0;                ///< next of opt_.keys to press
    bool keyHeld_ = false;              ///< opt_.keys[keyNext_] is down this frame
    bool slideLayout_ = false;          ///< the panels are in presentation mode's arrangement
    std::array<bool, kPanelCount> deskPanels_{};   ///< panels shown before presentation mode
    int relayoutFrames_ = 0;            ///< frames left that place every panel at its default
    std::unique_ptr<GifWriter> gif_;    ///< --format gif: the file being written

    Job<SimOutcome> simJob_;
    std::optional<int> pendingStep_;    ///< step to go to when the running simulation ends
    bool pendingKeepCursor_ = false;
    std::optional<int> pendingThread_;  ///< thread to select when the running simulation ends
    bool firstLoad_ = true;             ///< the scenario of the command line is loading
    Job<GpuOutcome> gpuJob_;
    Job<ExportOutcome> exportJob_;

    std::string pendingScreenshot_;     ///< path of a screenshot asked for from the menu
    int screenshotDelay_ = 0;
    std::string fatal_;                 ///< a command-line error found after start (bad --step)
};

}  // namespace ts::app
