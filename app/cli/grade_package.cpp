// `tilescope-cli grade --package gradescope|prairielearn` (grade_class.hpp): writes a ready
// autograder for a course platform. The scripts it writes are the ones docs/grading.md
// explains; scripts/grading-platforms.sh runs them in CI against stand-in /autograder and
// /grade folders.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "grade_class.hpp"

namespace ts::cli {
namespace fs = std::filesystem;

namespace {

/// Gradescope runs setup.sh once, as root, when it builds the autograder's image (its Ubuntu
/// base): TileScope's .deb when one lies beside it and installs on that release, else a
/// build from the source archive beside it, without the app.
const char* const kGradescopeSetup = R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (docs/grading.md).
# It installs TileScope: the .deb beside it where it installs on this release, else a build
# from tilescope-source.tar.gz beside it (without the desktop app).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get update
shopt -s nullglob
debs=("$here"/tilescope_*.deb)
if [ ${#debs[@]} -eq 1 ] && apt-get install -y "${debs[0]}"; then
  tilescope-cli --version
  exit 0
fi
if [ ! -f "$here/tilescope-source.tar.gz" ]; then
  echo "setup.sh: no tilescope_*.deb installs here and there is no tilescope-source.tar.gz to build from; put one of them beside setup.sh" >&2
  exit 1
fi
apt-get install -y cmake ninja-build g++ libclang-14-dev libseccomp-dev bubblewrap libtomlplusplus-dev \
    nlohmann-json3-dev libcli11-dev libtbb-dev libboost-context-dev
src=$(mktemp -d)
tar -xzf "$here/tilescope-source.tar.gz" -C "$src" --strip-components=1
cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr/local \
      -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_TESTS=OFF -DTILESCOPE_BUILD_BENCH=OFF
cmake --build "$src/build"
cmake --install "$src/build"
tilescope-cli --version
)SH";

/// Gradescope runs run_autograder for each submission, in /autograder.
const char* const kGradescopeRun = R"SH(#!/usr/bin/env bash
# Gradescope runs this for each submission (docs/grading.md): it grades the one .cu file of
# /autograder/submission on the exercise in source/exercise/ and writes
# /autograder/results/results.json in Gradescope's format. AUTOGRADER_ROOT and TILESCOPE_CLI
# stand in for /autograder and the installed tilescope-cli when it is tried elsewhere.
set -uo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
cli=${TILESCOPE_CLI:-tilescope-cli}
exercise="$root/source/exercise/@EXERCISE@.toml"
mkdir -p "$root/results"
"$cli" grade --exercise "$exercise" --kernel-file "$root/submission" --format gradescope > "$root/results/results.json.part"
status=$?
if [ $status -le 2 ] && [ -s "$root/results/results.json.part" ]; then
  mv "$root/results/results.json.part" "$root/results/results.json"
  exit 0
fi
# The grader itself could not run: the student still gets a results file that says so.
printf '{"score": 0, "output": "The autograder could not grade this submission (tilescope-cli exit status %s); please tell your instructor.", "tests": []}\n' "$status" > "$root/results/results.json"
exit 0
)SH";

/// PrairieLearn's grading image: Debian 12 with TileScope's .deb (built there).
const char* const kPrairieLearnDockerfile = R"SH(# PrairieLearn's external grader for TileScope exercise @EXERCISE@ (docs/grading.md).
# Build it beside tilescope_<version>_amd64.deb (cpack -G DEB on Debian 12):
#   docker build -t my-course/tilescope-grader .
FROM debian:12
COPY tilescope_*.deb /tmp/
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/tilescope_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/tilescope_*.deb
COPY exercise/ /tilescope-grader/exercise/
COPY run.sh /tilescope-grader/run.sh
RUN chmod +x /tilescope-grader/run.sh
ENTRYPOINT ["/tilescope-grader/run.sh"]
)SH";

/// PrairieLearn's entry point: /grade/student in, /grade/results/results.json out.
const char* const kPrairieLearnRun = R"SH(#!/usr/bin/env bash
# PrairieLearn's entry point (docs/grading.md): grades the one .cu file of /grade/student on
# the exercise beside this script and writes /grade/results/results.json in PrairieLearn's
# format. GRADE_ROOT and TILESCOPE_CLI stand in for /grade and the installed tilescope-cli
# when it is tried elsewhere.
set -uo pipefail
root=${GRADE_ROOT:-/grade}
cli=${TILESCOPE_CLI:-tilescope-cli}
here=$(cd "$(dirname "$0")" && pwd)
exercise="$here/exercise/@EXERCISE@.toml"
mkdir -p "$root/results"
"$cli" grade --exercise "$exercise" --kernel-file "$root/student" --format prairielearn > "$root/results/results.json.part"
status=$?
if [ $status -le 2 ] && [ -s "$root/results/results.json.part" ]; then
  mv "$root/results/results.json.part" "$root/results/results.json"
  exit 0
fi
printf '{"gradable": false, "score": 0, "message": "The autograder could not grade this submission (tilescope-cli exit status %s).", "format_errors": ["The autograder could not run."], "tests": []}\n' "$status" > "$root/results/results.json"
exit 0
)SH";

/// `text` with every @EXERCISE@ replaced by `name`.
std::string withExercise(std::string text, const std::string& name)
{
    for (size_t at; (at = text.find("@EXERCISE@")) != std::string::npos;) text.replace(at, 10, name);
    return text;
}

bool writeText(const fs::path& path, const std::string& text, bool executable)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) return false;
    if (executable) chmod(path.c_str(), 0755);
    return true;
}

}  // namespace

int runGradePackage(const GradeOptions& o)
{
#ifdef TILESCOPE_HAVE_STUDENT
    const std::optional<student::Exercise> found = exerciseOrSay(o.exercise);
    if (!found) return kBadInput;
    const student::Exercise& x = *found;
    const fs::path out(o.out), ex = out / "exercise";
    std::error_code ec;
    fs::create_directories(ex, ec);
    if (ec) {
        std::cerr << "tilescope-cli: cannot create the folder " << ex.string() << ": " << ec.message() << ".\n";
        return kBadInput;
    }
    // The exercise as the grader reads it: its file, the starter and the grading file.
    const fs::path from = fs::path(x.path).parent_path();
    std::vector<std::pair<fs::path, fs::path>> copies = {{x.path, ex / (x.name + ".toml")},
                                                         {x.starter, ex / fs::path(x.starter).filename()}};
    if (!x.gradingFile.empty()) copies.emplace_back(x.gradingFile, ex / fs::path(x.gradingFile).lexically_relative(from));
    for (const auto& [src, dst] : copies) {
        fs::create_directories(dst.parent_path(), ec);
        fs::copy_file(src, dst, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            std::cerr << "tilescope-cli: cannot copy " << src.string() << " to " << dst.string() << ": " << ec.message() << ".\n";
            return kBadInput;
        }
    }
    bool ok = true;
    if (o.package == "gradescope") {
        ok = writeText(out / "setup.sh", kGradescopeSetup, true) &&
             writeText(out / "run_autograder", withExercise(kGradescopeRun, x.name), true);
    } else {
        ok = writeText(out / "Dockerfile", withExercise(kPrairieLearnDockerfile, x.name), false) &&
             writeText(out / "run.sh", withExercise(kPrairieLearnRun, x.name), true);
    }
    if (!ok) {
        std::cerr << "tilescope-cli: cannot write the autograder's scripts into " << out.string() << ".\n";
        return kBadInput;
    }
    if (o.package == "gradescope")
        std::cout << "wrote a Gradescope autograder for " << x.name << " into " << out.string()
                  << ": setup.sh, run_autograder, exercise/. Put tilescope_<version>_amd64.deb (or tilescope-source.tar.gz) beside "
                     "setup.sh, zip the folder's contents and upload the zip (docs/grading.md).\n";
    else
        std::cout << "wrote a PrairieLearn grader for " << x.name << " into " << out.string()
                  << ": Dockerfile, run.sh, exercise/. Put tilescope_<version>_amd64.deb beside the Dockerfile, build the image "
                     "and name it with entrypoint /tilescope-grader/run.sh in the question's info.json (docs/grading.md).\n";
    return kOk;
#else
    (void)o;
    std::cerr << "tilescope-cli: this build cannot grade kernel files: it was built without libclang.\n";
    return kBadInput;
#endif
}

}  // namespace ts::cli
