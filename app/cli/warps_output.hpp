// simulate's figures of warps at branches and of atomics (docs/cli.md, the `warps` object and
// the table after the memory table): what the warp model counted at the lines a kernel marks
// with x.branch, and its atomics, beside what nvcc compiles (docs/design.md, "Warps at
// branches, atomics").
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "sim/engine/simulate.hpp"

namespace ts::cli {

/// Does the simulation have branches or atomics to report (a kernel that marks branches with
/// x.branch or makes atomics)? Other kernels' output has neither the object nor the table.
bool hasWarpFigures(const sim::Simulation& r);

/// The `warps` object of simulate --json: whole grid and per source line.
nlohmann::ordered_json warpsJson(const sim::Simulation& r);

/// The text table of branches and atomics, one row per line; `statement(line)` is the
/// kernel's source line, trimmed.
void printWarpTable(std::ostream& out, const sim::Simulation& r, const std::function<std::string(unsigned)>& statement);

}  // namespace ts::cli
