// Lecture presets and scenario files (TOML, under assets/scenarios/).
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace ts::sim {

/// A malformed scenario file. what() is one sentence naming the file, the line and the
/// problem ("assets/scenarios/x.toml, line 4: tile must be ...").
struct ScenarioFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A scenario as a lecture uses it: the problem plus where to start and what to say.
struct Preset {
    std::string name;          ///< file stem, used by --scenario NAME
    std::string title;         ///< shown in the caption bar and --list-scenarios
    std::string file;          ///< path it was read from ("" for the built-in default)
    Scenario scenario;
    int step = 0;              ///< starting step; -1 means the last step
    std::vector<std::string> narration;  ///< per step (may be shorter than the trace)
};

/// The built-in default: 4x4 tiled matrix multiplication with TILE_WIDTH 2 (seed 000).
Preset defaultPreset();

/// Reads a scenario file. Throws ScenarioFileError.
Preset loadScenarioFile(const std::string& path);

/// Writes `p` as a scenario file that loadScenarioFile reads back. Throws
/// ScenarioFileError if the file cannot be written.
void saveScenarioFile(const Preset& p, const std::string& path);

/// The folder with the lecture presets: $TILESCOPE_ASSETS/scenarios if set, else the
/// build's assets folder.
std::string presetDirectory();

/// Every preset in presetDirectory(), sorted by name. A malformed preset throws.
std::vector<Preset> listPresets();

/// A preset by name, or a file path; throws ScenarioFileError if neither exists or it
/// does not parse.
Preset findPreset(const std::string& nameOrPath);

}  // namespace ts::sim
