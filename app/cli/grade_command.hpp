// `tilescope-cli grade` (spec: docs/cli.md, docs/exercises.md): grades a student's kernel
// file on an exercise (student/grade.hpp) and prints one verdict per check.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ts::cli {

/// The options of `grade`.
struct GradeOptions {
    std::string exercise;      ///< a shipped exercise's name, or the path of a .toml file
    std::string kernelFile;    ///< the student's .cu file
    bool list = false;         ///< --list: the shipped exercises and their titles
    bool json = false;
    /// --format gradescope|prairielearn: the platform's results.json on stdout (one file),
    /// or text (the default).
    std::string format;
    std::string submissions;   ///< --submissions DIR: grade a class (grade_class.hpp)
    std::string out;           ///< --out DIR: where a class's grades, or a --package, go
    int jobs = 0;              ///< --jobs N: submissions graded at a time (0: the cores)
    std::string package;       ///< --package gradescope|prairielearn
};

/// Registers the `grade` subcommand on `app`, writing into `o`; returns it.
CLI::App* addGradeCommand(CLI::App& app, GradeOptions& o);

/// Runs `grade`: `PASS name` / `FAIL name: diagnosis` per check and a verdict line (one
/// JSON object with --json). Returns 0 when every check passed, 1 (kCheckFailed) when one
/// failed, 2 (kBadInput) with one sentence on stderr for a bad exercise or missing options,
/// or in a build without the student-kernel path.
int runGrade(const GradeOptions& o);

}  // namespace ts::cli
