// What the command line asks the app for (`tilescope --help`), the limits of its values,
// and the errors that end the app with an exit status.
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/files/results_file.hpp"
#include "sim/files/scenario_file.hpp"
#include "student_kernel.hpp"
#include "theme.hpp"

namespace ts::app {

/// The limits of the command line's values, in one place: main()'s validators, the app's
/// File > Export and the settings use them.
namespace limits {
inline constexpr int kMinWindowWidth = 640, kMinWindowHeight = 400;     ///< pixels
inline constexpr int kMaxWindowWidth = 7680, kMaxWindowHeight = 4320;   ///< pixels
inline constexpr float kMinPixelScale = 1.0f, kMaxPixelScale = 4.0f;    ///< --scale
inline constexpr float kMinUiScale = 1.0f, kMaxUiScale = 3.0f;          ///< --ui-scale at the desk
inline constexpr int kMaxSimThreads = 1024;   ///< simulation_threads in settings.toml (as tilescope-cli --threads)
inline constexpr float kMinPresentationScale = 1.5f;                    ///< --ui-scale in presentation mode
inline constexpr int kMinFrames = 1, kMaxFrames = 1000000;              ///< --frames
inline constexpr int kMinGifDelayMs = 20, kMaxGifDelayMs = 60000;       ///< --delay-ms
}  // namespace limits

/// A bad command-line argument or scenario (also found after start, such as a --step past
/// the last step or a --panel the scenario does not show). Exit status 2; what() is one
/// sentence.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Something the app could not do: open a window, write a picture. Exit status 1; what()
/// is one sentence.
struct RunError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The exit status for an error that ended the app: 2 for a UsageError (and a
/// sim::ScenarioFileError), 1 for anything else.
int exitStatus(const std::exception& e);

/// --export-steps' picture formats.
enum class ExportFormat { Png, Gif, Svg };

/// One entry of --keys, in the order given: a key pressed for one frame, a click on a cell
/// that a panel draws (`click:M[1][2]`, practice mode's answers), or text typed as practice
/// mode's answer (`type:7`).
struct ScriptedInput {
    int key = 0;                        ///< a GLFW key code, or 0
    bool ctrl = false;                  ///< the key is pressed with Ctrl held (ctrl+k)
    std::string click;                  ///< the cell to click, as parseCellRef reads it ("M[1][2]")
    std::optional<std::string> type;    ///< the answer's text
};

/// What the command line asked for.
struct Options {
    sim::Preset preset;                 ///< the scenario to open
    std::optional<int> step;            ///< starting step (-1: last); default the preset's
    int width = 1600, height = 900;     ///< window size in pixels
    std::string screenshot;             ///< save this PNG and exit
    float scale = 1.0f;                 ///< screenshot pixel scale (UI rendered at that size)
    int frames = 0;                     ///< run this many frames, print timings, exit
    bool pan = false;                   ///< --pan: with --frames, pan the Matrices view every frame
    std::string heatmap;                ///< --heatmap: "loads" or "values" ("": state colours)
    bool presentation = false;          ///< start in presentation mode
    std::optional<float> uiScale;       ///< UI scale to start with (presentation's if given)
    std::optional<ThemeKind> theme;     ///< theme to start with
    int exportFrom = -1, exportTo = -1; ///< --export-steps A..B (-1: not exporting)
    std::string exportDir;              ///< --out: folder of the numbered files or the GIF
    bool exportDirCreated = false;      ///< --out did not exist and was made (said when done)
    ExportFormat exportFormat = ExportFormat::Png;   ///< --format
    int exportPanel = -1;               ///< --panel: a PanelId, or -1 for the whole window
    int gifDelayMs = 1500;              ///< --delay-ms: how long a GIF shows each step
    bool printCaption = false;          ///< --print-caption: the caption shown, on stdout
    bool printLayout = false;           ///< --print-layout: where each panel is (layoutReport), on stdout
    /// Opened from a view link (--view, or the web page's address): the link says what to
    /// show, so the first start's welcome waits for a start without one.
    bool linked = false;
    bool welcome = false;               ///< --welcome: show the welcome window (Help > Getting started)
    bool printCode = false;             ///< --print-code: the Code panel's rows and lines in view (codeReport), on stdout
    /// --print-text: the text the picture shows, as Dear ImGui's log takes it down (shown_text.hpp), on stdout.
    bool printText = false;
    bool printView = false;             ///< --print-view: the view link of the view shown, on stdout
    /// A sentence for the caption bar at start (a bad view link in the web page's address,
    /// applyStartupViewLink); "" for none.
    std::string startNotice;
    /// --screenshot-while-simulating: the screenshot is taken one second into the simulation,
    /// with its progress bar, instead of once it is done.
    bool shotWhileSimulating = false;
    std::vector<ScriptedInput> keys;    ///< --keys: keys, clicks and typing before --screenshot
    bool yes = false;                   ///< --yes: simulate a long scenario without asking
    /// --results FILE, read and checked (a malformed file ends the app with status 2 before
    /// any window opens); null without the option.
    std::shared_ptr<const sim::ResultsFile> results;
    /// --kernel-file: the student's kernel the preset runs, watched for saves; "" for none.
    std::string kernelFile;
    /// --width, --j, --k, --l, --height, --mask-width, --tile: the problem it runs on.
    KernelProblem kernelProblem;
    /// --kernel-file in the interactive app when the file did not build: its errors (the
    /// app opens on the default scenario, shows them and builds the file again on a save).
    std::vector<std::string> kernelErrors;
    /// --reload-from (tests): once the first run is shown, this file's text is written over
    /// the kernel file, as an editor's save would, and the app reloads it.
    std::string reloadFrom;

    /// Drawn into an offscreen picture (--screenshot, --export-steps), not shown.
    bool offscreen() const { return !screenshot.empty() || exportFrom >= 0; }
    /// Run by the headless driver (headless.hpp) rather than the interactive loop.
    bool headless() const { return offscreen() || frames > 0; }
};

}  // namespace ts::app
