// An array problem's options on the command line (a student's file with
// `// tilescope: family = array`, docs/student-kernels.md): its sizes come from the file's
// defaults, --width replaces the last one and --height the first of two.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::cli {

/// Builds the scenario of loaded array kernel `kernel`: the sizes' defaults, with --width
/// for the last size and --height for the first of a 2D problem, and the seed. Returns ""
/// or one sentence naming the option that does not apply. Values are checked later by
/// sim::validate().
std::string toArrayScenario(const ProblemOptions& o, const std::string& kernel, sim::Scenario& s);

/// `params` of the JSON output: each size under the file's name, e.g. {"n": 1000}.
nlohmann::ordered_json arrayParamsJson(const sim::Scenario& s);

}  // namespace ts::cli
