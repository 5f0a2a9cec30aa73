// The app: the GLFW window with its OpenGL 3.3 context, the ImGui frame, the worker jobs
// (simulation, GPU, export), the keys, the panels, and the interactive loop. The
// command-line modes (--screenshot, --export-steps, --frames, --keys) drive the same frame
// from headless.hpp.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "export_job.hpp"
#include "file_watch.hpp"
#include "frame_timer.hpp"
#include "job.hpp"
#include "options.hpp"
#include "panels/panels.hpp"
#include "settings.hpp"
#include "state.hpp"
#include "student_kernel.hpp"
#include "web_platform.hpp"

struct GLFWwindow;

namespace ts::app {

/// A simulation handed back by the worker.
struct SimOutcome {
    sim::Preset preset;
    std::shared_ptr<const sim::Simulation> sim;
    std::vector<uint8_t> wrongReads;   ///< see Loaded::wrongReads
    /// A student's kernel that the guarded child process stopped or saw crash: why, one
    /// sentence; then `sim` is not run and the previous simulation stays.
    std::string refused;
    /// A student's kernel: its file's text when the run started (Loaded::kernelText).
    std::shared_ptr<const std::string> kernelText;
};

/// What a GPU job hands back: the device (and its occupancy limits), timings, or why it
/// stopped.
struct GpuOutcome {
    std::optional<gpu::DeviceInfo> device;
    std::optional<sim::DeviceLimits> limits;
    std::string limitsError;
    std::vector<gpu::BenchResult> timings;
    std::string error;
    bool cancelled = false;   ///< Cancel stopped the timings; the earlier ones stay shown
};

class App {
public:
    explicit App(Options o);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Opens the window (hidden for --screenshot and --export-steps), starts simulating the
    /// command line's scenario and querying the GPU. Throws RunError when no window with
    /// an OpenGL 3.3 context opens.
    void open();
    /// The interactive loop: frames until the window is closed, then saves the settings.
    /// Throws UsageError when the command line's --step is past the scenario's last step.
    void run();

    // One frame, in two halves, for the interactive loop and the headless driver.
    /// Events, finished jobs, the look (fonts, full screen) and the slide layout. Throws
    /// UsageError when the command line's --step is past the scenario's last step.
    void prepareFrame();
    /// Builds the UI at `display` pixels (the window's own size when empty), renders it into
    /// the window's framebuffer and carries out the panels' requests. Returns the frame's CPU
    /// time in milliseconds, from prepareFrame() to the end of ImGui::Render().
    double renderFrame(std::optional<ImVec2> display);
    void swapBuffers();
    bool closeRequested() const;

    const Options& options() const { return opt_; }
    const Loaded& loaded() const { return loaded_; }
    View& view() { return view_; }
    const Theme& theme() const { return theme_; }
    /// The scenario has been simulated and no simulation or GPU job is running.
    bool ready() const;
    bool simulating() const { return busy_.simulating; }
    /// Tests: called in every frame once the window's input has been read and before ImGui
    /// starts the frame, to give the mouse a place, buttons and wheel (a hidden window has
    /// none of its own). Empty in the app.
    std::function<void(ImGuiIO&)> inputHook;
    /// The CPU time the app's thread used for the last frame, in milliseconds, over the same
    /// span as renderFrame()'s result (which is wall time, and grows when other processes
    /// take the CPU).
    double lastFrameThreadMs() const { return lastFrameThreadMs_; }
    /// Frames rendered so far (renderFrame() counts them from 1).
    uint64_t frameNumber() const { return frameCount_; }
    /// With --frames: GPU milliseconds of frames [first, last] (GL timer queries, frame_timer.hpp).
    std::vector<double> gpuFrameMs(uint64_t first, uint64_t last) { return gpuTimer_.millis(first, last); }
    /// File > Open results...: reads the results file `path` (or the name of a committed one)
    /// and shows it in the Ladder and Roofline panels, opening both; a malformed file leaves a
    /// one-sentence notice and the results shown before.
    void openResults(const std::string& path);
    /// --reload-from (tests): writes the text of file `from` over the watched kernel file,
    /// as an editor's save does; the next frame sees the change and rebuilds. Throws
    /// RunError when either file cannot be read or written.
    void rewriteKernelFile(const std::string& from);
    /// The view link of the view shown (view_link.hpp, canonical): the lecture preset or the
    /// problem spelled out, the step, and the block, thread, panels, presentation mode, theme
    /// and colours where they are not the preset's own or the defaults. "" before the first
    /// simulation and for a student's kernel file (a link cannot carry a file).
    std::string viewLink() const;
    /// Opens the view that link `text` names while the app runs (the web page's address
    /// changed by the user): the link's scenario, or the one shown, with its block, thread,
    /// panels and step, and its theme, presentation mode and colours. A bad link leaves the
    /// view as it is, with one sentence in the caption bar.
    void openViewLink(const std::string& text);
    /// Seconds the running simulation has taken so far (0 when none runs).
    double simulatingSeconds() const { return simJob_.running() ? simJob_.seconds() : 0.0; }

private:
    void openWindow();
    /// Starts simulating `p` on the worker. First its work is estimated (sim/engine/work_estimate.hpp):
    /// more memory than the machine has free is refused with a notice (on the command line's
    /// scenario: exit status 2); longer than sim::kAskAboveSeconds asks first (a modal),
    /// unless `confirmed` or --yes (headless without --yes: exit status 2). Returns whether
    /// the simulation started now.
    bool startSimulation(const sim::Preset& p, std::optional<int> step, bool keepCursor, bool confirmed = false,
                         bool opening = false);
    /// Simulates `p` and applies what it says about the view: the Occupancy question, the
    /// panels shown, the selected thread (once the simulation has started).
    void openPreset(const sim::Preset& p, std::optional<int> step, bool confirmed = false);
    /// A refusal of the simulation to start: fatal on the command line's scenario in the
    /// headless modes (and for memory in any mode), a notice otherwise.
    void refuseSimulation(const std::string& sentence, bool fatal);
    /// The modal that asks before a long simulation, and the progress window with Cancel.
    void drawSimulationControls();
    /// Writes the state on screen (problem, traced block, step, thread, panels) as a
    /// scenario file; the result goes to the caption bar's notice.
    void saveScenario(const std::string& path);
    /// The state on screen as a preset: problem, traced block, step, thread, panels.
    sim::Preset currentPreset() const;
    /// Starts File > Export in a child process (export_job.hpp).
    void startExport(const ExportForm& e);
    void openOccupancy(const sim::Preset& p);
    /// Shows results file `f` in the Ladder and Roofline panels; `showPanels` opens both.
    void setResults(std::shared_ptr<const sim::ResultsFile> f, bool showPanels);
    /// Whether the Ladder or the Roofline panel is shown (then the rungs are counted).
    bool ladderWanted() const;
    /// Whether the panels wait for counts of the loaded results that are not made yet.
    bool ladderPending() const;
    /// Collects the counting job's model and starts it again when the results changed.
    void updateLadder();
    void collectJobs();
    /// A student's kernel file: collects a finished build, and starts one when the watched
    /// file changed (or File > Open kernel... asked for one).
    void updateKernelFile();
    /// Builds kernel file `path` on a worker; `reload`: the watched file was saved (keep the
    /// step, block and thread), else a newly opened file (start at step 0).
    void startKernelBuild(const std::string& path, bool reload);
    /// Shows a finished build: its errors beside the last good run, or the new kernel run.
    void finishKernelBuild(const KernelBuild& b, bool reload);
    void handleKeys();
    void play(double dt);
    void updateReplay();
    void drawUi();
    void carryOut();
    /// Saves the window as the PNG asked for from the menu, two frames later (once the
    /// dialog has gone); `fbw` x `fbh`: the framebuffer's pixels.
    void menuScreenshot(int fbw, int fbh);
    void applyLook();
    /// Entering presentation mode shows the slide's panels in two columns; leaving it
    /// brings back the panels and arrangement of the desk.
    void followPresentation();
    /// Whether a results file's panels are the subject (View::subject: Ladder, Roofline).
    bool resultsOnSlide() const;
    /// The height in screen pixels of the display the UI is laid out at (the window's, or an
    /// offscreen picture's --window height).
    float screenHeight() const;
    float wantedScale() const;
    /// The settings to keep: the desk's panels (not the slide's), theme, scales, files.
    Settings currentSettings() const;
    /// Stores the settings (and, where the platform stores on every change, imgui.ini's
    /// layout) if they changed since last stored; `atExit`: the app is ending.
    void storeSettings(bool atExit);
    /// Copies the view link (File > Copy view link, Ctrl+L) and says so in the caption bar.
    void copyViewLink();

    Options opt_;
    GLFWwindow* window_ = nullptr;
    Theme theme_;
    Loaded loaded_;
    View view_;
    Requests requests_;
    Busy busy_;
    sim::ReplayState replay_;
    uint64_t replayGeneration_ = ~0ull;
    std::vector<std::unique_ptr<Panel>> panels_ = makePanels();   ///< one per panelTable() row
    CaptionBar captionBar_;
    std::string ini_;
    std::string settingsPath_;          ///< settings.toml beside imgui.ini ("" in CLI modes)
    /// What differs in a browser (web_platform.hpp): the address's view link, stored
    /// settings, downloads, the file chooser, full screen.
    std::unique_ptr<Platform> platform_ = makePlatform();
    std::string lastLink_;              ///< the view link last handed to Platform::viewChanged
    std::string storedSettings_;        ///< settings.toml's text as last stored (Platform::storesOnChange)
    bool slideLayout_ = false;          ///< the panels are in presentation mode's arrangement
    PanelFlags deskPanels_;             ///< panels shown before presentation mode
    int relayoutFrames_ = 0;            ///< frames left that place every panel at its default
    std::chrono::steady_clock::time_point frameStart_, lastFrame_;   ///< of prepareFrame()
    double dt_ = 0;                     ///< seconds since the previous frame
    uint64_t frameCount_ = 0;           ///< frames rendered
    double frameThreadStart_ = 0;       ///< the thread's CPU milliseconds at prepareFrame()
    double lastFrameThreadMs_ = 0;      ///< see lastFrameThreadMs()
    GpuFrameTimer gpuTimer_;            ///< --frames: GPU time of each frame

    /// Set by the simulation's worker while it runs a student's kernel in its guarded child
    /// process (before the simulation itself).
    std::shared_ptr<std::atomic<bool>> probing_ = std::make_shared<std::atomic<bool>>(false);
    int probeLimit_ = 0;                ///< seconds after which a student's confined run is stopped
    FileWatch kernelWatch_;             ///< the student's kernel file, for saves
    Job<KernelBuild> buildJob_;         ///< a student's kernel file being built
    bool buildIsReload_ = false;        ///< the running build is of a save (keep the step)
    bool rebuildWanted_ = false;        ///< the file changed again while it was built
    std::optional<KernelBuild> builtWaiting_;   ///< a finished build waiting for the running simulation
    std::string reloadNote_;            ///< said once the reloaded kernel's run is shown
    std::string fatalRun_;              ///< the command line's student kernel could not be run (exit 1)
    Job<SimOutcome> simJob_;
    double simEstimate_ = 0;            ///< estimated seconds of the running simulation
    std::string simWhat_;               ///< the running simulation in words (sim::problemWords)
    /// A long simulation waiting for the user's answer in the modal.
    struct PendingRun {
        sim::Preset preset;
        std::optional<int> step;
        bool keepCursor = false;
        bool opening = false;           ///< asked by openPreset (apply its view changes too)
        std::string sentence;           ///< sim::durationSentence
        enum class Answer { None, Run, Cancel } answer = Answer::None;
    };
    std::optional<PendingRun> pendingRun_;
    std::optional<int> pendingStep_;    ///< step to go to when the running simulation ends
    bool pendingKeepCursor_ = false;
    std::optional<int> pendingThread_;  ///< thread to select when the running simulation ends
    bool firstLoad_ = true;             ///< the scenario of the command line is loading
    Job<GpuOutcome> gpuJob_;
    Job<ExportOutcome> exportJob_;
    std::optional<ExportRequest> lastExport_;   ///< the export started last (its files, once written)
    Job<LadderModel> ladderJob_;        ///< the rungs counted for the Ladder and Roofline panels
    std::string resultsFile_;           ///< the results file to remember in settings.toml ("" for none)

    std::string pendingScreenshot_;     ///< path of a screenshot asked for from the menu
    int screenshotDelay_ = 0;
    std::string fatal_;                 ///< a command-line error found after start (bad --step)
};

}  // namespace ts::app
