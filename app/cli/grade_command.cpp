#include "grade_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "grade_class.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/exercise.hpp"
#include "student/grade.hpp"
#endif

namespace ts::cli {

CLI::App* addGradeCommand(CLI::App& app, GradeOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "grade", "Grade your kernel file on an exercise: compiles, runs, correct P on the hidden sizes, no races, "
                 "the exercise's own checks (docs/exercises.md); or a whole class's folder, or write a course "
                 "platform's autograder (docs/grading.md)");
    CLI::Option* exercise = c->add_option("--exercise", o.exercise,
                                          "The exercise: a name from --list, or the path of an exercise .toml file");
    CLI::Option* file = c->add_option("--kernel-file", o.kernelFile, "Your kernel: a plain CUDA file (docs/student-kernels.md)");
    CLI::Option* list = c->add_flag("--list", o.list, "List the exercises with their titles");
    CLI::Option* json = c->add_flag("--json", o.json, "Print one JSON object: exercise, kernel_file, passed, score, max_score, seconds, checks");
    CLI::Option* format = c->add_option("--format", o.format,
                                        "Print the course platform's results.json instead of text: gradescope or prairielearn")
                              ->check(CLI::IsMember({"gradescope", "prairielearn"}));
    CLI::Option* submissions = c->add_option("--submissions", o.submissions,
                                             "Grade a class: every .cu file of this folder, and every folder in it holding one "
                                             "(needs --out)");
    CLI::Option* out = c->add_option("--out", o.out,
                                     "With --submissions: the folder for grades.csv, grades.json and each submission's "
                                     "gradescope/ and prairielearn/ results; with --package: the autograder's folder");
    CLI::Option* jobs = c->add_option("--jobs", o.jobs, "With --submissions: how many submissions are graded at a time (default: the cores)")
                            ->check(CLI::Range(1, 256));
    CLI::Option* package = c->add_option("--package", o.package,
                                         "Write a ready autograder for a course platform into --out: gradescope (setup.sh, "
                                         "run_autograder) or prairielearn (Dockerfile, entry point)")
                               ->check(CLI::IsMember({"gradescope", "prairielearn"}));
    addUnconfinedFlag(c);
    list->excludes(exercise);
    list->excludes(file);
    list->excludes(submissions);
    list->excludes(package);
    submissions->excludes(file);
    submissions->excludes(json);
    submissions->excludes(format);
    package->excludes(file);
    package->excludes(submissions);
    package->excludes(json);
    package->excludes(format);
    json->excludes(format);
    jobs->needs(submissions);
    c->callback([exercise, file, list, submissions, out, package] {
        if (list->count()) return;
        if (submissions->count() || package->count()) {
            if (exercise->count() == 0 || out->count() == 0)
                throw CLI::RequiredError(submissions->count() ? "--submissions DIR needs --exercise NAME and --out DIR"
                                                              : "--package needs --exercise NAME and --out DIR");
            return;
        }
        if (out->count()) throw CLI::ValidationError("--out", "--out goes with --submissions or --package");
        if (exercise->count() == 0 || file->count() == 0)
            throw CLI::RequiredError("--exercise NAME and --kernel-file FILE (or --submissions DIR, --package, --list)");
    });
    return c;
}

int runGrade(const GradeOptions& o)
{
    if (!o.submissions.empty()) return runGradeClass(o);
    if (!o.package.empty()) return runGradePackage(o);
#ifdef TILESCOPE_HAVE_STUDENT
    if (o.list) {
        try {
            const std::vector<student::Exercise> all = student::listExercises();
            size_t width = 0;
            for (const student::Exercise& x : all) width = std::max(width, x.name.size());
            for (const student::Exercise& x : all)
                std::cout << x.name << std::string(width + 2 - x.name.size(), ' ') << x.title << " (PMPP sec. "
                          << x.section << ")\n";
        } catch (const student::ExerciseError& e) {
            std::cerr << "tilescope-cli: " << e.what() << "\n";
            return kBadInput;
        }
        return kOk;
    }
    const std::optional<student::Exercise> found = exerciseOrSay(o.exercise);
    if (!found) return kBadInput;
    const student::Exercise& x = *found;
    // A file, or a submission's folder holding one (a course platform's upload).
    std::string problem;
    const std::string kernelFile = submissionKernel(o.kernelFile, problem);
    if (kernelFile.empty()) {
        // A platform gets its results file all the same, saying why nothing was graded.
        if (!o.format.empty()) std::cout << ungradableResults(x, o.format, problem).dump(2) << "\n";
        std::cerr << "tilescope-cli: " << problem << ".\n";
        return kBadInput;
    }
    const student::Grade g = student::grade(x, kernelFile);
    if (o.json) {
        std::cout << gradeJson(g).dump() << "\n";
    } else if (o.format == "gradescope") {
        std::cout << gradescopeResults(g, x.title).dump(2) << "\n";
    } else if (o.format == "prairielearn") {
        std::cout << prairielearnResults(g, x.title).dump(2) << "\n";
    } else {
        size_t failed = 0;
        for (const student::Check& c : g.checks) {
            if (c.skipped)
                std::cout << "SKIP " << c.name << ": "
                          << (c.diagnosis.rfind("skipped: ", 0) == 0 ? c.diagnosis.substr(9) : c.diagnosis) << "\n";
            else if (c.passed) std::cout << "PASS " << c.name << (c.name == "gpu" ? ": " + c.diagnosis : std::string()) << "\n";
            else std::cout << "FAIL " << c.name << ": " << c.diagnosis << "\n";
            failed += !c.passed && !c.skipped;
        }
        std::ostringstream score;
        score << g.score() << " of " << g.maxScore() << " points";
        if (failed == 0)
            std::cout << "verdict: PASS, all " << g.checks.size() << " checks of " << x.name << " (" << x.title << "), "
                      << score.str() << "\n";
        else
            std::cout << "verdict: FAIL, " << failed << " of " << g.checks.size() << " checks of " << x.name << " failed, "
                      << score.str() << "\n";
    }
    return g.passed() ? kOk : kCheckFailed;
#else
    (void)o;
    std::cerr << "tilescope-cli: this build cannot grade a kernel file: it was built without libclang "
                 "(install libclang-14-dev and rebuild).\n";
    return kBadInput;
#endif
}

}  // namespace ts::cli
