// `tilescope-cli reduction-table` (spec: docs/cli.md): the textbook's bandwidth-reduction
// tables for tiled 1D and 2D convolution, formula beside simulation.
#pragma once
#include <CLI/CLI.hpp>

namespace ts::cli {

/// The options of `reduction-table`.
struct ReductionTableOptions {
    int dims = 1;        ///< 1 or 2
    bool json = false;
};

/// Registers the `reduction-table` subcommand on `app`, writing into `o`; returns it.
CLI::App* addReductionTableCommand(CLI::App& app, ReductionTableOptions& o);

/// Runs `reduction-table`: prints the table (one JSON object with json) and returns the
/// exit status (0; 2 with one sentence on stderr for a bad --dims).
int runReductionTable(const ReductionTableOptions& o);

}  // namespace ts::cli
