#!/usr/bin/env bash
# The autograders `tilescope-cli grade --package` writes, run as the platforms run them but
# in a temporary root (issue 38): Gradescope's run_autograder against a stand-in
# /autograder (source/, submission/, results/), PrairieLearn's entry point against a
# stand-in /grade (student/, results/). Each results.json is checked field by field
# (tests/grading/check_results.py): a right kernel gets every point, a wrong one some, an
# empty submission a results file that says why. CTest runs it as grading.platforms:
# platforms_check.sh CLI
set -euo pipefail
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
check="python3 $root/tests/grading/check_results.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exercise=tiled-matmul-boundary
right=$root/tests/student/solutions/$exercise.cu
wrong=$root/tests/student/wrong/no_boundary_check_ragged.cu

# Gradescope: the zip's contents are extracted into /autograder/source and run_autograder
# is copied to /autograder/run_autograder; the submission lands in /autograder/submission.
"$cli" grade --package gradescope --exercise $exercise --out "$work/gradescope-package"
test -x "$work/gradescope-package/setup.sh"
test -x "$work/gradescope-package/run_autograder"
test -f "$work/gradescope-package/exercise/$exercise.toml"
test -f "$work/gradescope-package/exercise/grading/$exercise.toml"
bash -n "$work/gradescope-package/setup.sh"
gradescope() {   # gradescope NAME SUBMISSION-FILE-OR-EMPTY EXPECT
  local ag=$work/$1/autograder
  mkdir -p "$ag/source" "$ag/submission"
  cp -r "$work/gradescope-package/." "$ag/source/"
  cp "$ag/source/run_autograder" "$ag/run_autograder"
  [ -n "$2" ] && mkdir -p "$ag/submission/src" && cp "$2" "$ag/submission/src/kernel.cu"
  (cd "$ag" && AUTOGRADER_ROOT="$ag" TILESCOPE_CLI="$cli" ./run_autograder)
  $check gradescope "$ag/results/results.json" "--$3"
}
gradescope gs-right "$right" full
gradescope gs-wrong "$wrong" partial
gradescope gs-empty "" zero
grep -q "holds no .cu file" "$work/gs-empty/autograder/results/results.json"

# PrairieLearn: the grader's image runs the entry point with /grade/student holding the
# student's files; it writes /grade/results/results.json.
"$cli" grade --package prairielearn --exercise $exercise --out "$work/prairielearn-package"
test -f "$work/prairielearn-package/Dockerfile"
test -x "$work/prairielearn-package/run.sh"
grep -q '^ENTRYPOINT \["/tilescope-grader/run.sh"\]' "$work/prairielearn-package/Dockerfile"
prairielearn() {   # prairielearn NAME SUBMISSION-FILE-OR-EMPTY EXPECT
  local g=$work/$1/grade
  mkdir -p "$g/student"
  [ -n "$2" ] && cp "$2" "$g/student/kernel.cu"
  GRADE_ROOT="$g" TILESCOPE_CLI="$cli" "$work/prairielearn-package/run.sh"
  $check prairielearn "$g/results/results.json" "--$3"
}
prairielearn pl-right "$right" full
prairielearn pl-wrong "$wrong" partial
prairielearn pl-empty "" ungradable
echo "grading.platforms: Gradescope's run_autograder and PrairieLearn's entry point wrote valid results for a right, a wrong and an empty submission"
