// tilescope-cli's command line as an object: the CLI11 app with every subcommand and its
// options (docs/cli.md). main() parses and runs; the argument fuzzer
// (fuzz/cli_args_fuzz.cpp) only parses.
#pragma once
#include <CLI/CLI.hpp>
#include <iostream>
#include <ostream>

#include "commands.hpp"
#include "narrate_command.hpp"
#include "questions_command.hpp"

namespace ts::cli {

/// The parser of tilescope-cli's arguments and the subcommands it runs.
class CommandLine {
public:
    CommandLine();

    /// Reads the arguments (argv[0] is the program's name) and runs nothing. Returns -1 when
    /// a subcommand is ready for run(); otherwise the exit status to end with: 0 after
    /// --help or --help-all (the help written to `out`), kBadInput (2) for bad arguments
    /// (one sentence written to `err`).
    int parse(int argc, const char* const* argv, std::ostream& out = std::cout, std::ostream& err = std::cerr);

    /// Runs the subcommand parse() read; returns its exit status (docs/cli.md).
    int run()
    {
        if (questions_->parsed()) return runQuestions(questionsOpt_);
        if (narrate_->parsed()) return runNarrate(narrateOpt_);
        return commands_.run();
    }

private:
    CLI::App app_;
    Commands commands_;
    QuestionsOptions questionsOpt_;
    CLI::App* questions_;   ///< `questions` (app/cli/questions_command.hpp)
    NarrateOptions narrateOpt_;
    CLI::App* narrate_;     ///< `narrate` (app/cli/narrate_command.hpp)
};

}  // namespace ts::cli
