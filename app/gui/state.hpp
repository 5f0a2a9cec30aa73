// The app's state, explicit (docs/design.md, "Data flow"): what is loaded, how it is viewed, and
// what the panels ask the app to do. Panels read Loaded and change only View and Requests.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu.hpp"
#include "panels/panel_table.hpp"
#include "practice.hpp"
#include "sim/engine/replay.hpp"
#include "sim/teaching/roofline.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"
#include "student_kernel.hpp"
#include "theme.hpp"
#include "web_platform.hpp"

namespace ts::app {

/// What the Ladder and Roofline panels take from the simulator, computed on a worker (one
/// small simulation per kernel, sim::countRung): the counts of every rung of the ladder and
/// of the results file's kernels, and the textbook profile's points.
struct LadderModel {
    std::vector<sim::RungCounts> counts;   ///< for sim::rungsToCount(results)
    sim::Roofline textbook;                ///< sim::textbookRoofline()
    uint64_t resultsGeneration = 0;        ///< the Loaded::resultsGeneration they were made for
};

/// What is loaded: the preset (scenario, title, narration), its simulation (trace and
/// counters), the CUDA device, the last GPU timings and a results file measured elsewhere.
struct Loaded {
    sim::Preset preset = sim::Preset{};
    std::shared_ptr<const sim::Simulation> sim;   ///< null until the first simulation ends
    uint64_t generation = 0;                      ///< bumped by every new simulation
    /// With a dropped barrier: per event of sim->trace, 1 for a shared read that got a
    /// different value than with every barrier in place (sim::wrongReads); else empty.
    std::vector<uint8_t> wrongReads;
    std::optional<gpu::DeviceInfo> device;        ///< empty until the query has finished
    std::vector<gpu::BenchResult> timings;        ///< the last timing run, in request order
    std::string timingError;                      ///< why the last timing run stopped, if it did
    std::vector<sim::Preset> presets;             ///< the lecture presets (sim::listPresets)
    std::string presetsError;                     ///< why they could not be listed, if so
    std::optional<sim::DeviceLimits> deviceLimits;   ///< the GPU's occupancy limits, if any
    std::string deviceLimitsError;                ///< why there are none ("" while querying)
    /// The results file of the Ladder and Roofline panels (File > Open results...,
    /// --results); null: none, the panels show the textbook's A100 profile.
    std::shared_ptr<const sim::ResultsFile> results;
    uint64_t resultsGeneration = 0;               ///< bumped by every results file opened
    /// The simulator's side of those panels; null until first counted (the app counts
    /// while either panel is shown); kept while the counts of a newer file are made.
    std::shared_ptr<const LadderModel> ladder;
    /// A student's kernel file the app has opened and watches (--kernel-file, File > Open
    /// kernel...); "" for none.
    std::string kernelFile;
    /// The errors of its last build, each FILE:LINE:COL: error: ... (empty after a good
    /// build); the last good run stays shown beside them.
    std::vector<std::string> kernelErrors;
    /// Why its last run was not shown, one sentence: the guarded child process found an
    /// endless loop, a crash or too much memory ("" when the last run ended normally).
    std::string kernelProblem;
    /// The text of the student's file as it was when `sim` was made: a later save that
    /// built replaces the registry's text (sim::kernelSource) even when its run is refused
    /// and this one stays shown. Null for a built-in kernel.
    std::shared_ptr<const std::string> kernelText;
    /// What went wrong in `sim` and where (diagnose(*sim)), made when it arrived; Kind::None
    /// for a run without a fault, race or wrong output. The layout never folds the panels
    /// that explain it (Code, and Hazards for a race) unless folded by hand.
    Diagnosis diagnosis;
};

/// "matmul-tiled, M 4x4 times N 4x4, TILE_WIDTH 2": a scenario in words, for titles.
std::string describe(const sim::Scenario& s);

/// The preset to load for scenario `s` run with `schedule` (and `scheduleSeed`): the loaded
/// preset when that is its scenario and schedule, otherwise a custom one titled by
/// describe(s), without narration (narration belongs to the preset's own scenario, block,
/// barriers and schedule).
sim::Preset presetFor(const Loaded& loaded, const sim::Scenario& s, sim::Schedule schedule,
                      uint64_t scheduleSeed);
/// presetFor with the loaded preset's schedule.
sim::Preset presetFor(const Loaded& loaded, const sim::Scenario& s);

/// Whether scenarios `a` and `b` are the same problem: every field that changes the
/// simulation (kernel, j, k, l, height, width, maskWidth, tile, seed, dropBarriers) is
/// equal. The traced block may differ: another block of the same problem keeps the step.
bool sameProblem(const sim::Scenario& a, const sim::Scenario& b);

/// The Scenario panel's form: the scenario being edited before Apply.
struct ScenarioForm {
    sim::Scenario draft;
    bool square = true;          ///< edit Width (j = k = l) instead of j, k, l
    std::string file;            ///< path typed into "Open file"
    sim::Schedule schedule = sim::Schedule::InOrder;   ///< which warp runs ahead
    uint64_t scheduleSeed = 1;                         ///< for the random schedule
    std::string error;           ///< the last refusal, one sentence (shown in red)
    uint64_t syncedGeneration = ~0ull;   ///< draft was last copied from this simulation
    uint64_t syncedRun = 0;              ///< or from this run while it simulated (Busy::simulatingRun)
};

/// The Occupancy panel's inputs (PMPP sec. 4.7): a block size, registers per thread and shared
/// memory per block on a profile's SM, or those of the loaded kernel as compiled.
struct OccupancyForm {
    std::string profile = "textbook";   ///< sim::occupancyProfiles() name, or "current"
    sim::OccupancyInput input{256, 10, 0, std::nullopt};
    bool thisKernel = false;     ///< take the loaded kernel's block, registers and shared memory
};

/// The hazard shown (chosen in the Hazards panel, or the cursor step's first): index into
/// Simulation::hazards.traced of the simulation with that generation, -1 for none.
struct HazardFocus {
    int index = -1;
    uint64_t generation = ~0ull;
};

/// The GPU panel's form: the size to time.
struct GpuForm {
    int width = 1024;
    int tile = 16;
    int reps = 20;
    std::string error;           ///< the last refusal, one sentence
};

/// The File > Export dialog: the command line's --export-steps choices.
struct ExportForm {
    int format = 0;              ///< 0 png, 1 gif, 2 svg
    int panel = -1;              ///< a PanelId, or -1 for the whole window
    int scale = 0;               ///< 0: 1x, 1: 2x, 2: 4x
    int from = 0, to = 0;        ///< steps A..B
    std::string dir = "tilescope-export";
};

/// The screen height whose UI scale the presentation setting is: a 1080p projector.
inline constexpr float kPresentationScreenHeight = 1080.0f;

/// The UI scale presentation mode draws at on a screen `height` pixels high (screen
/// coordinates) for the user's setting `setting`, which is the scale at 1080 pixels: setting
/// x height / 1080, rounded to hundredths (2 at 1080p is 1.33 at 720p and 2.67 at 1440p), so
/// a slide keeps its proportions on any projector and text of 18 px at 1080p is 12 px at
/// 720p. A height of 0 or less counts as 1080.
float presentationScaleFor(float setting, float height);

/// How the loaded state is viewed.
struct View {
    int cursor = 0;              ///< step of the trace; the views show the state after it
    int thread = 0;              ///< selected thread of the traced block, ty * blockDim.x + tx
    int warp = 0;                ///< Memory: the warp of the traced block shown ([ and ] step it)
    int warpThread = -1;         ///< the selected thread `warp` last followed (-1: none yet)
    bool codeMemory = true;      ///< Code: per-line memory columns (requests, sectors, wavefronts) at the desk
    bool playing = false;
    float speed = 2.0f;          ///< steps per second while playing
    double playClock = 0;        ///< seconds gathered toward the next step
    bool heatmap = false;        ///< Matrices: colour M and N by global loads (whole grid)
    bool values = false;         ///< Matrices: colour elements by their value (unless heatmap)
    float zoom = 1.0f;           ///< Matrices: cell size factor (1: the matrices fit the panel)
    float panX = 0, panY = 0;    ///< Matrices: screen pixels the zoomed canvas is moved left and up
    bool vectorOnly = false;     ///< drawing an SVG export: shapes only, no shader pictures
    PanelFlags open = defaultPanels();   ///< which panels are shown (panelTable() order)
    bool caption = true;         ///< the caption bar under the menu
    bool presentation = false;   ///< presentation mode: full screen at presentationScale
    ThemeKind themeKind = ThemeKind::Dark;
    float uiScale = 1.0f;        ///< UI scale outside presentation mode, 1..3
    /// UI scale in presentation mode on a screen 1080 pixels high, 1.5..3: a slide is drawn at
    /// presentationScaleFor(presentationScale, its height), so that it looks the same on a
    /// 720p and a 1080p projector.
    float presentationScale = 2.0f;
    /// The UI scale presentation mode draws at in this window (presentationScaleFor), and the
    /// window's height in screen pixels it follows; set by the app every frame.
    float presentationDrawn = 2.0f;
    float screenHeight = 1080.0f;
    /// Worker threads a simulation uses (sim::SimOptions::threads): 0 one per core, else
    /// 1..limits::kMaxSimThreads; View > Simulation threads, kept in settings.toml.
    int simThreads = 0;
    bool resetLayout = false;    ///< place every panel at its default rectangle next frame
    PanelId keepOpen = -1;       ///< a panel the layout never folds (the one --panel exports), or -1
    /// Panels the app opened for what the user loaded (the Ladder and Roofline panels for a
    /// results file): at the desk they fold last, with the preset's slide panels (layout.hpp).
    PanelFlags subject = PanelFlags(panelCount(), false);
    bool showKeys = false, showAbout = false, showScreenshot = false, showOpen = false, showSave = false;
    bool showExport = false;
    /// Help > Getting started (welcome.hpp): the lessons in chapter order. Shown at the first
    /// start (settings.toml has no welcome_seen) and with --welcome.
    bool showWelcome = false;
    bool welcomeSeen = false;       ///< the welcome has been shown once (kept in settings.toml)
    bool showGlossary = false;      ///< Help > Glossary (glossary.hpp)
    std::string glossaryTerm;       ///< the glossary's entry asked for ("" for none)
    bool showOpenResults = false;   ///< File > Open results...
    /// File > Open scenario and Open results use the browser's file chooser (the web build,
    /// Platform::picksFiles) instead of a path dialog; set by the app.
    bool browserFiles = false;
    std::string resultsPath = "results.json";   ///< the path typed into it
    bool showOpenKernel = false;    ///< File > Open kernel...
    std::string kernelPath;         ///< the path typed into it (the last opened, from settings.toml)
    std::string kernelOpenError;    ///< why the last kernel opened from it did not build, one sentence
    ExportForm exportForm;
    std::string screenshotPath = "tilescope.png";
    std::string scenarioPath = "my-scenario.toml";
    std::string notice;          ///< last message for the caption bar (saved screenshot, ...)
    bool noticeIsError = false;
    ScenarioForm form;
    GpuForm gpuForm;
    OccupancyForm occupancy;
    int focusOccupancy = 0;      ///< frames left in which to bring the Occupancy panel to the
                                 ///< front (2: a window first drawn after it would cover it)
    HazardFocus hazard;
    Practice practice;           ///< practice mode: the question asked, the answer, the score
};

/// The source the Code panel lists for the loaded simulation's kernel `info`: a student's
/// file as it was when that run was made (Loaded::kernelText), else sim::kernelSource.
const std::string& sourceShown(const Loaded& loaded, const sim::KernelInfo& info);

/// The hazard chosen in the Hazards panel, if it belongs to the loaded simulation.
const sim::Hazard* focusedHazard(const Loaded& loaded, const View& view);

/// What the panels ask the app to do; the app carries the requests out after the frame.
struct Requests {
    std::optional<sim::Preset> load;            ///< simulate this preset and show it
    std::optional<std::string> open;            ///< a preset name or scenario file path
    std::optional<std::vector<gpu::BenchRequest>> bench;   ///< time these on the GPU
    std::optional<std::string> screenshot;      ///< save the window as this PNG
    std::optional<std::string> saveScenario;    ///< save the state on screen as this scenario file
    std::optional<ExportForm> exportSteps;      ///< export these steps (File > Export)
    std::optional<std::string> openResults;     ///< open this results file (File > Open results...)
    std::optional<std::string> openKernel;      ///< build and open this kernel file (File > Open kernel...)
    std::optional<PickKind> pickFile;           ///< open the browser's file chooser (View::browserFiles)
    bool copyViewLink = false;                  ///< File > Copy view link (Ctrl+L)
    bool quit = false;
};

/// Slow work in progress, for progress bars.
struct Busy {
    bool simulating = false;
    double simulatingSeconds = 0;
    /// While simulating: the scenario being simulated (the views still show the one before),
    /// and which run of the app's it is (a new number for each simulation started).
    sim::Scenario simulatingScenario;
    sim::Schedule simulatingSchedule = sim::Schedule::InOrder;
    uint64_t simulatingScheduleSeed = 1;
    uint64_t simulatingRun = 0;
    bool timing = false;
    float timingProgress = 0;    ///< 0..1
    std::string timingStage;     ///< "matmul-tiled (2 of 3)"
    bool exporting = false;
    bool compiling = false;      ///< a student's kernel file is being built (after a save or File > Open kernel)
    bool probing = false;        ///< the simulation runs a student's kernel in its sandbox (student/confined_run.hpp)
};

/// Everything a panel gets for one frame.
struct Frame {
    const Loaded& loaded;
    const sim::ReplayState& replay;   ///< the traced block after step view.cursor
    const Busy& busy;
    const Theme& theme;
    View& view;
    Requests& requests;
    float top = 0;                    ///< pixels the menu and caption bars take at the top
};

}  // namespace ts::app
