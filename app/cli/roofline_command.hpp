// `tilescope-cli roofline` (spec: docs/cli.md, docs/roofline.md): the ceilings of a roofline
// and one point per timed kernel, from a results file, PMPP's A100, or this machine's GPU.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ts::cli {

/// The options of `roofline`.
struct RooflineOptions {
    std::string results;    ///< --results FILE ("" for none)
    std::string profile;    ///< --profile: "textbook-a100", "current", or "" (the file's own, else textbook-a100)
    bool json = false;
};

/// Registers the `roofline` subcommand on `app`, writing into `o`; returns it.
CLI::App* addRooflineCommand(CLI::App& app, RooflineOptions& o);

/// Runs `roofline`: prints the ceilings and points (one JSON object with json, a table
/// otherwise) and returns the exit status: 0, or 2 with one sentence on stderr for a bad
/// profile or results file. `current` throws gpu::Unavailable without a usable GPU (exit 3
/// in the caller); with one it measures the ceilings (gpu::measureCeilings) and takes the
/// points from --results, if given.
int runRoofline(const RooflineOptions& o);

}  // namespace ts::cli
