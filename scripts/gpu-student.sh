#!/usr/bin/env bash
# A student's kernel files on the GPU machine (issue 27, point 5), in one go: builds (Release,
# no app, no libclang there: the translations come from the carried .student-translations/,
# written here by scripts/student-translations.sh), runs the GPU tests of the student path,
# then for every file in tests/student/kernels, tests/student/solutions and tests/student/naming
# `tilescope-cli verify --kernel-file` (compiled by NVRTC, GPU P against the simulator's, bit
# for bit, at a square and a ragged size; a solution at its exercise's hidden sizes, with
# its launch) and `bench --kernel-file` (timed beside the
# built-in kernel of its kind, and cuBLAS for a matrix multiplication). Logs go to
# $OUT/student.log (default out/gpu-student); a summary line per file goes to
# $OUT/files.txt as each file finishes and is printed last with the tests' results.
# Needs beforehand, on the Debian machine: scripts/device-deps.sh (.deps/) and
# scripts/student-translations.sh (.student-translations/); carry both.
#   scripts/gpu-student.sh            # TILESCOPE_CUDA_ARCHITECTURES=90-real by default
set -uo pipefail
# The GPU machine has neither bubblewrap nor libseccomp-dev: the files run here are the
# project's own, so they may run without the sandbox (docs/security.md). Also lets the
# runner built there without the system-call filter go on.
export TILESCOPE_ALLOW_UNCONFINED=1
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-student}
build=${TILESCOPE_BUILD_DIR:-$root/build-gpu}
arches=${TILESCOPE_CUDA_ARCHITECTURES:-90-real}
jobs=$(nproc)
mkdir -p "$out"
cd "$root" || exit 2
export PATH=$PATH:/usr/local/cuda/bin
export TILESCOPE_REQUIRE_GPU=1
export TILESCOPE_TRANSLATIONS=${TILESCOPE_TRANSLATIONS:-$root/.student-translations}
export TILESCOPE_CACHE_DIR=$build/student-cache
log=$out/student.log
summary=$out/summary.txt
: >"$log"
: >"$out/files.txt"
if [ ! -d "$TILESCOPE_TRANSLATIONS" ]; then
  echo "gpu-student: $TILESCOPE_TRANSLATIONS is missing: run scripts/student-translations.sh on a machine with libclang and carry .student-translations/." | tee "$summary"
  exit 2
fi

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -1
  gcc --version | head -1
  ls /usr/local/cuda/lib64/libnvrtc.so* 2>&1 | head -1
  echo "translations: $(ls "$TILESCOPE_TRANSLATIONS" | wc -l) in $TILESCOPE_TRANSLATIONS"
} >"$summary"

deps=()
[ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
echo "### configure" >>"$log"
timeout 120 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${deps[@]}" \
  -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=ON \
  -DTILESCOPE_CUDA_ARCHITECTURES="$arches" >>"$log" 2>&1 || { echo "configure failed (see $log)" | tee -a "$summary"; exit 2; }
echo "### build" >>"$log"
timeout 400 ninja -C "$build" -j "$jobs" tilescope-cli tilescope_gpu_student_tests >>"$log" 2>&1 ||
  { echo "build failed (see $log)" | tee -a "$summary"; tail -30 "$log"; exit 2; }
cli=$build/bin/tilescope-cli

echo "### tilescope_gpu_student_tests" >>"$log"
timeout 300 "$build/bin/tilescope_gpu_student_tests" >>"$log" 2>&1
tests_rc=$?

# bench sizes by the file's family: a 2D __constant__ mask, a 1D one, or none (matmul).
bench_sizes() {
  if grep -qE '__constant__[^;]*\]\s*\[' "$1"; then echo "--width 2048 --height 2048 --mask-width 5"
  elif grep -q '__constant__' "$1"; then echo "--width 1048576 --mask-width 5"
  else echo "--width 1024"; fi
}

lines=()
# TILESCOPE_STUDENT_FILES names other files (a shell pattern), e.g. tests/student/naming/*.cu.
# shellcheck disable=SC2206
files=(${TILESCOPE_STUDENT_FILES:-tests/student/kernels/*.cu tests/student/solutions/*.cu tests/student/naming/*.cu})
for f in "${files[@]}"; do
  [ -e "$f" ] || continue
  # An exercise's reference solution gets its exercise's launch (and, in verify, its hidden
  # sizes); the naming schemes get tiled-matmul-boundary's, the header-less lab signature
  # the instructor's exercise that states its arguments.
  ex=()
  case $f in
    tests/student/solutions/*) ex=(--exercise "$(basename "$f" .cu)") ;;
    tests/student/naming/lab_no_header.cu) ex=(--exercise tests/student/naming/lab-signature.toml) ;;
    tests/student/naming/*) ex=(--exercise tiled-matmul-boundary) ;;
  esac
  echo "### verify --kernel-file $f ${ex[*]}" >>"$log"
  v=$(timeout 120 "$cli" verify --kernel-file "$f" "${ex[@]}" 2>&1); vrc=$?
  echo "$v" >>"$log"
  echo "### bench --kernel-file $f ${ex[*]} $(bench_sizes "$f")" >>"$log"
  # shellcheck disable=SC2046
  b=$(timeout 120 "$cli" bench --reps 10 --kernel-file "$f" "${ex[@]}" $(bench_sizes "$f") 2>&1); brc=$?
  echo "$b" >>"$log"
  cases=$(echo "$v" | grep -cE ': (pass|FAIL)')
  exact=$(echo "$v" | grep -cE 'pass \(GPU P bit-exact|GPU P bit-exact with the simulator')
  first=$(echo "$b" | grep -m1 -E ' median ' | sed -E 's/.* median ([0-9.]+) ms.*/\1/')
  rest=$(echo "$b" | grep -E ' median ' | tail -n +2 | sed -E 's/^([^ ]+) .* median ([0-9.]+) ms.*/\1 \2 ms/' | paste -sd, -)
  lines+=("$(printf '%-44s verify exit %s, %s of %s cases bit-exact | bench exit %s: %s ms; %s' \
    "$f" "$vrc" "$exact" "$cases" "$brc" "${first:--}" "${rest:--}")")
  echo "${lines[-1]}" >>"$out/files.txt"   # as it goes: kept if the run is stopped at its limit
done

# PMPP Fig. 9.6 with histo[b]++ in place of its atomicAdd, on the GPU: the counts come out short
# (the simulator names the race, tests/student/wrong/histogram_increment_race.cu); the
# exercise's solution beside it, right in every run.
races=()
for f in tests/student/wrong/histogram_increment_race.cu tests/student/solutions/histogram-basic.cu; do
  echo "### gpu-run --kernel-file $f --exercise histogram-basic --width 65536 --runs 10" >>"$log"
  g=$(timeout 120 "$cli" gpu-run --kernel-file "$f" --exercise histogram-basic --width 65536 --runs 10 --quiet 2>&1)
  echo "$g" >>"$log"
  races+=("$f: $(echo "$g" | grep -m1 'runs gave a wrong P' | sed -E 's/.*: ([0-9]+ of [0-9]+ runs gave a wrong P.*)/\1/')")
  while IFS= read -r l; do races+=("    $l"); done < <(echo "$g" | grep '^  element' | head -3)
done

{
  echo "== gpu-run of the histogram with histo[b]++ (a race) and with atomicAdd"
  printf '%s\n' "${races[@]}"
  echo "== tilescope_gpu_student_tests (exit $tests_rc)"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$log" | sort | uniq -c
  grep -E "NVRTC sm_90 in|on .*: .* ms \(NVRTC\)" "$log"
  echo "== per file: verify (GPU vs simulator, bit for bit) and bench (the file first, then the built-in ones)"
  printf '%s\n' "${lines[@]}"
} >>"$summary"
cat "$summary"
