#!/usr/bin/env bash
# Saves the translations of every kernel file the GPU machine runs, for a build there
# without libclang: tests/student/kernels, tests/student/solutions, tests/student/naming,
# assets/exercises and the wrong histogram whose race gpu-run shows on the GPU
# (tests/student/wrong/histogram_increment_race.cu),
# each translated by this machine's tilescope-cli (libclang) into .student-translations/
# (git-ignored), which the device run carries and names in $TILESCOPE_TRANSLATIONS
# (scripts/gpu-student.sh). A file that does not translate (an exercise's starter with
# gaps) is listed with its first error and skipped.
#   scripts/student-translations.sh            # uses build/bin/tilescope-cli
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
cli=$build/bin/tilescope-cli
out=$root/.student-translations
if [ ! -x "$cli" ]; then
  echo "student-translations: $cli is missing; build it first (cmake --build $build --target tilescope-cli)." >&2
  exit 2
fi
rm -rf "$out"
saved=0 skipped=0
cd "$root" || exit 2
for f in tests/student/kernels/*.cu tests/student/solutions/*.cu tests/student/naming/*.cu assets/exercises/*.cu \
         tests/student/wrong/histogram_increment_race.cu; do
  [ -e "$f" ] || continue
  if log=$("$cli" translate --kernel-file "$f" --out "$out" 2>&1); then
    saved=$((saved + 1))
  else
    skipped=$((skipped + 1))
    echo "not saved: $(echo "$log" | head -1)"
  fi
done
echo "$saved translations saved in $out ($skipped files skipped)"
