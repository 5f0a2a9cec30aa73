// `tilescope-cli narrate` (spec: docs/cli.md): every step of a scenario with its caption
// line, hand-written (the scenario file's) or generated from the trace (sim/teaching/narration.hpp),
// to review a preset's narration in bulk.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ts::cli {

/// The options of `narrate`.
struct NarrateOptions {
    std::string scenario;   ///< a preset's name or a scenario file's path
    bool json = false;
    bool yes = false;       ///< --yes: simulate a scenario estimated above 10 s
};

/// Registers the `narrate` subcommand on `app`, writing into `o`; returns it.
CLI::App* addNarrateCommand(CLI::App& app, NarrateOptions& o);

/// Runs `narrate`: prints one line per step (text, or one JSON object with json) and
/// returns 0; 1 when a hand-written line lands on no step (each such line named on stderr,
/// "FILE, line N: ...", the steps still printed); 2 with one sentence on stderr for an
/// unknown scenario, a bad scenario file, a refused or failed simulation.
int runNarrate(const NarrateOptions& o);

}  // namespace ts::cli
