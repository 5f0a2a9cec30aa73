#include "grade_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/exercise.hpp"
#include "student/grade.hpp"
#endif

namespace ts::cli {

CLI::App* addGradeCommand(CLI::App& app, GradeOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "grade", "Grade your kernel file on an exercise: compiles, runs, correct P on the hidden sizes, no races, "
                 "the exercise's own checks (docs/exercises.md)");
    CLI::Option* exercise = c->add_option("--exercise", o.exercise,
                                          "The exercise: a name from --list, or the path of an exercise .toml file");
    CLI::Option* file = c->add_option("--kernel-file", o.kernelFile, "Your kernel: a plain CUDA file (docs/student-kernels.md)");
    CLI::Option* list = c->add_flag("--list", o.list, "List the exercises with their titles");
    c->add_flag("--json", o.json, "Print one JSON object: exercise, kernel_file, passed, checks");
    addUnconfinedFlag(c);
    list->excludes(exercise);
    list->excludes(file);
    c->callback([exercise, file, list] {
        if (list->count() == 0 && (exercise->count() == 0 || file->count() == 0))
            throw CLI::RequiredError("--exercise NAME and --kernel-file FILE (or --list)");
    });
    return c;
}

int runGrade(const GradeOptions& o)
{
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
    student::Exercise x;
    try {
        x = student::findExercise(o.exercise);
    } catch (const student::ExerciseError& e) {
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return kBadInput;
    }
    if (std::error_code ec; !std::filesystem::is_regular_file(o.kernelFile, ec)) {
        std::cerr << "tilescope-cli: the kernel file '" << o.kernelFile
                  << "' does not exist or is not a file; give the path of your .cu file.\n";
        return kBadInput;
    }
    const student::Grade g = student::grade(x, o.kernelFile);
    if (o.json) {
        nlohmann::ordered_json j;
        j["exercise"] = g.exercise;
        j["kernel_file"] = g.kernelFile;
        j["passed"] = g.passed();
        j["checks"] = nlohmann::ordered_json::array();
        for (const student::Check& c : g.checks) {
            nlohmann::ordered_json e;
            e["name"] = c.name;
            e["passed"] = c.passed;
            if (c.skipped) e["skipped"] = true;
            e["diagnosis"] = c.diagnosis;
            e["line"] = c.line;
            j["checks"].push_back(e);
        }
        std::cout << j.dump() << "\n";
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
        if (failed == 0)
            std::cout << "verdict: PASS, all " << g.checks.size() << " checks of " << x.name << " (" << x.title << ")\n";
        else
            std::cout << "verdict: FAIL, " << failed << " of " << g.checks.size() << " checks of " << x.name << " failed\n";
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
