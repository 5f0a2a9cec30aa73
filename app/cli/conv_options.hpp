// The convolution kernels' problem options on the command line (spec: docs/cli.md,
// "Kernels"): --width W [--height H] --mask-width MW --tile T, the scenario they make and
// how simulate and bench print them.
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::cli {

/// Adds --height and --mask-width to a subcommand (--width and --tile are shared with the
/// matrix multiplication).
void addConvOptions(CLI::App* c, ProblemOptions& o);

/// Builds a convolution scenario from the options: width (and height for 2D kernels),
/// Mask_Width (default 5, as in the examples), tile (default 16) and seed. Returns "" or one
/// sentence naming the option that does not apply or is missing. Values are checked later
/// by sim::validate().
std::string toConvScenario(const ProblemOptions& o, const std::string& kernel, sim::Scenario& s);

/// `params` of the JSON output: {width, mask_width, tile} for 1D kernels,
/// {height, width, mask_width, tile} for 2D kernels.
nlohmann::ordered_json convParamsJson(const sim::Scenario& s);

/// One line describing the problem for the plain-text output, e.g. "conv1d-tiled  N 64
/// elements, Mask_Width 5, TILE_SIZE 8".
std::string convProblemLine(const sim::Scenario& s);

}  // namespace ts::cli
