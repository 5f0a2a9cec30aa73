// Grading a class (`tilescope-cli grade --submissions DIR --out DIR`) and the results files
// of the course platforms (Gradescope's and PrairieLearn's results.json), and the
// autograders `grade --package` writes for them (docs/grading.md). Each submission is
// graded by a child tilescope-cli of its own (`grade --json`), whose kernel runs are
// confined as every grade's are (student/confined_run.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "grade_command.hpp"

#ifdef TILESCOPE_HAVE_STUDENT
#include "student/exercise.hpp"
#include "student/grade.hpp"

namespace ts::cli {

/// The exercise `nameOrPath` (student::findExercise), or nullopt after one sentence on
/// stderr saying why not (the caller exits kBadInput).
std::optional<student::Exercise> exerciseOrSay(const std::string& nameOrPath);

/// `g` as `grade --json` prints it: exercise, kernel_file, passed, score, max_score,
/// seconds, and each check's name, passed, [skipped], points, max_points, diagnosis, line.
nlohmann::ordered_json gradeJson(const student::Grade& g);

/// The inverse of gradeJson(); throws nlohmann::json::exception for a malformed object.
student::Grade gradeFromJson(const nlohmann::json& j);

/// Gradescope's results.json for `g` (Gradescope autograder specifications: score,
/// execution_time in whole seconds, output, tests with name, score, max_score, status
/// "passed" or "failed", output, visibility). A skipped check is passed with its points.
nlohmann::ordered_json gradescopeResults(const student::Grade& g, const std::string& title);

/// PrairieLearn's external-grader results.json for `g` (gradable, score from 0 to 1,
/// message, output, tests with name, points, max_points, message, output).
nlohmann::ordered_json prairielearnResults(const student::Grade& g, const std::string& title);

/// The results file of a submission that could not be graded at all (no .cu file, two of
/// them, an unreadable one): every check of `x` failed with `why`, in `format`
/// ("gradescope" or "prairielearn"; PrairieLearn's says gradable false).
nlohmann::ordered_json ungradableResults(const student::Exercise& x, const std::string& format, const std::string& why);

}  // namespace ts::cli
#endif

namespace ts::cli {

/// The kernel file of a submission at `path`: the file itself, or the one .cu file of a
/// folder (looked for at most 4 levels down, links never followed); "" with `problem` one
/// sentence when there is none, or several, or `path` is neither.
std::string submissionKernel(const std::string& path, std::string& problem);

/// `grade --submissions DIR --out DIR [--jobs N]`: every .cu file of DIR, and every folder
/// of DIR holding one, graded in a child process, N at a time, with a progress line on
/// stderr; writes OUT/grades.csv, OUT/grades.json and each submission's platform files
/// OUT/gradescope/NAME.json and OUT/prairielearn/NAME.json. Returns 0 when every
/// submission was graded (whatever its score), 2 with one sentence for a bad folder.
int runGradeClass(const GradeOptions& o);

/// `grade --package gradescope|prairielearn --exercise NAME --out DIR`: writes a ready
/// autograder for the platform into DIR (docs/grading.md). Returns 0, or 2 with one
/// sentence.
int runGradePackage(const GradeOptions& o);

}  // namespace ts::cli
