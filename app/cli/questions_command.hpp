// `tilescope-cli questions` (spec: docs/cli.md): practice questions about a scenario with
// their answers, computed from its simulation (sim/teaching/questions.hpp), the same for a seed.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ts::cli {

/// The options of `questions`.
struct QuestionsOptions {
    std::string scenario;              ///< a preset's name or a scenario file's path
    int count = 10;                    ///< questions in all: the file's fixed ones, then generated
    unsigned long long seed = 1;       ///< the generator's seed, 0 to 2^64 - 1
    std::string kinds;                 ///< K[,K...]; empty: every kind that applies
    bool json = false;
    bool yes = false;                  ///< --yes: simulate a scenario estimated above 10 s
};

/// Registers the `questions` subcommand on `app`, writing into `o`; returns it.
CLI::App* addQuestionsCommand(CLI::App& app, QuestionsOptions& o);

/// Runs `questions`: prints the questions (one JSON object with json, else text) and returns
/// the exit status: 0, or 2 with one sentence on stderr for an unknown scenario, a bad scenario
/// file, an unknown kind or one that does not apply to the scenario's kernel. A malformed
/// [[question]] of the file is reported on stderr ("FILE, line N: problem.") and left out;
/// the rest still runs.
int runQuestions(const QuestionsOptions& o);

}  // namespace ts::cli
