// Lecture presets and scenario files (TOML, under assets/scenarios/).
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/teaching/narration_anchor.hpp"
#include "sim/teaching/occupancy.hpp"
#include "sim/teaching/question_spec.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::sim {

/// `text` on one line: control characters (a newline inside a quoted TOML value, say) are
/// written as escapes (\n, \r, \t, \xNN); everything else, UTF-8 included, is kept. For
/// messages that quote what a file or an argument says.
std::string oneLine(std::string_view text);

/// A malformed scenario file. what() is one sentence on one line naming the file, the line
/// and the problem ("assets/scenarios/x.toml, line 4: tile must be ..."); whatever the file
/// brings into it passes through oneLine.
struct ScenarioFileError : std::runtime_error {
    explicit ScenarioFileError(const std::string& message);
};

/// The Occupancy panel's inputs a preset opens it with (the scenario file's [occupancy]
/// table): a block of `input.blockThreads` threads with `input.regsPerThread` registers per
/// thread and `input.smemPerBlock` bytes of shared memory, on the SM of `profile`
/// ("textbook", "sm_75" ... "sm_90", or "current", the GPU of the machine). PMPP sec. 4.7.
struct OccupancyQuestion {
    std::string profile = "textbook";
    OccupancyInput input;
};

/// A scenario as a lecture uses it: the problem plus where to start and what to say.
struct Preset {
    std::string name;          ///< file stem, used by --scenario NAME
    std::string title;         ///< shown in the caption bar and --list-scenarios
    std::string file;          ///< path it was read from ("" for the built-in default)
    /// The PMPP section (4th edition) the example comes from, "5.4" (chapter 5, section 4) or
    /// "7" (a chapter); "" for none. The welcome, the Lessons menu and the Scenario panel list
    /// the presets in this order (sim/teaching/lessons.hpp).
    std::string chapter;
    /// Among the presets of the same `chapter`: the place of this one (smaller first; then by
    /// name). The file's `order` key, default 0.
    int order = 0;
    /// What the lesson shows, one sentence for the welcome's list; "" for none.
    std::string summary;
    Scenario scenario;
    Schedule schedule = Schedule::InOrder;   ///< which warp runs ahead between barriers
    uint64_t scheduleSeed = 1;               ///< for Schedule::Random
    int step = 0;              ///< starting step; -1 means the last step
    std::optional<Uint3> thread;         ///< selected thread (tx, ty) in the traced block
    std::vector<std::string> panels;     ///< panels shown (the app's names); empty: keep the user's
    /// The panels that carry the lesson (the app's names), most important first: the app opens
    /// them and gives them room before the others; the first is the preset's main figure.
    /// Each is one of `panels` when that is given. Empty: the picture of the kernel's family.
    std::vector<std::string> lesson;
    /// The simple form of narration: line i for step i (may be shorter than the trace).
    std::vector<std::string> narration;
    /// The file's [[narrate]] tables: lines tied to the step of an event (sim/teaching/narration.hpp
    /// places both forms on a trace's steps).
    std::vector<NarrationAnchor> narrate;
    std::optional<OccupancyQuestion> occupancy;   ///< open the Occupancy panel with these
    /// The file's [[question]] tables that are well formed, in file order: an instructor's
    /// practice questions, answered from the simulation (sim/teaching/questions.hpp).
    std::vector<QuestionSpec> questions;
    /// One sentence per malformed [[question]] table, "FILE, line N: problem."; the rest of
    /// the file loads all the same.
    std::vector<std::string> questionProblems;
};

/// The names a scenario file's `panels` list may use ("matrices", "shared-memory", ...):
/// the app's panel table supplies them. Empty: any name is kept unchecked (a caller that
/// shows no panels, such as the CLI).
using PanelNames = std::vector<std::string>;

/// "in-order", "reverse", "random": a schedule as scenario files and the CLI name it.
const char* scheduleName(Schedule s);

/// The built-in default: 4x4 tiled matrix multiplication with TILE_WIDTH 2 (preset tiled-4x4).
/// `panels`: as for loadScenarioFile.
Preset defaultPreset(const PanelNames& panels = {});

/// Reads a scenario file. Throws ScenarioFileError, also for a name in its `panels` list
/// that is not one of `panels` (unless `panels` is empty).
Preset loadScenarioFile(const std::string& path, const PanelNames& panels = {});

/// Reads a scenario file's text: `content` is the TOML, `path` the file it stands for (it
/// names the file in messages and gives the preset's name). Throws ScenarioFileError, one
/// sentence, for anything malformed, exactly as loadScenarioFile; reads nothing from disk.
Preset parseScenarioText(std::string_view content, const std::string& path, const PanelNames& panels = {});

/// Writes `p` as a scenario file that loadScenarioFile reads back. Throws
/// ScenarioFileError if the file cannot be written.
void saveScenarioFile(const Preset& p, const std::string& path);

/// The folder with the lecture presets: $TILESCOPE_ASSETS/scenarios if set, else
/// share/tilescope/assets/scenarios beside an installed binary (PREFIX/bin/..), else the
/// source tree's assets/scenarios.
std::string presetDirectory();

/// Every preset in presetDirectory(), sorted by name. A malformed preset throws.
/// `panels`: as for loadScenarioFile.
std::vector<Preset> listPresets(const PanelNames& panels = {});

/// A preset by name, or a file path; throws ScenarioFileError if neither exists or it
/// does not parse. `panels`: as for loadScenarioFile.
Preset findPreset(const std::string& nameOrPath, const PanelNames& panels = {});

}  // namespace ts::sim
