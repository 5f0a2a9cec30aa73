#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang with ASan and UBSan) and runs each for a
# number of executions over its committed seed corpus (fuzz/corpus/<target>/), then prints
# executions, seconds and libFuzzer's final coverage figures (cov: edges, ft: features).
#
#   bash scripts/fuzz.sh [options] [TARGET...]     # targets: scenario_file_fuzz settings_fuzz cli_args_fuzz simulation_wire_fuzz kernel_file_fuzz
#     --runs N        executions per target (default 1000000)
#     --max-time S    stop a target after S seconds even if N is not reached (default: no limit)
#     --build-dir D   the clang tree (default: $TILESCOPE_FUZZ_BUILD_DIR, else build-fuzz)
#     --no-build      use the fuzzers already built in D
#     --build-only    configure and build, run nothing
#     --merge         afterwards, minimise each committed corpus with what the run found
#                     (libFuzzer -merge=1: the smallest set of inputs with the same coverage)
#
# A crash, a hang (-timeout=5: one input running 5 s), a sanitizer report or a failed check
# in a harness stops that target; the input is saved as D/artifacts/<target>-crash-...
# (reproduce: D/bin/<target> FILE) and the script exits with status 1. New inputs the run
# finds go to D/corpus/<target>/, never into the repository unless --merge.
# TILESCOPE_JOBS sets the build's parallel jobs (default: nproc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}
runs=1000000
max_time=0
do_build=1
do_run=1
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --max-time) max_time=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --build-only) do_run=0; shift ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see scripts/fuzz.sh --help)." >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(scenario_file_fuzz settings_fuzz cli_args_fuzz simulation_wire_fuzz kernel_file_fuzz)
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  case " ${all[*]} " in *" $t "*) ;; *) echo "fuzz.sh: no fuzz target named $t; the targets are ${all[*]}." >&2; exit 2 ;; esac
done

if [ $do_build -eq 1 ]; then
  if ! command -v clang++ >/dev/null; then
    bash "$root/scripts/install-deps.sh"
  fi
  # -O1 with line tables only (reports keep their file:line stacks; cheaper to build than
  # RelWithDebInfo's -O2 -g) and NDEBUG as RelWithDebInfo had it: without it toml++'s own
  # internal assertions fire on the seed corpus (parser.inl's parse_key).
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
    "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only -DNDEBUG" \
    -DTILESCOPE_FUZZ=ON -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_TESTS=OFF \
    -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=OFF >/dev/null
  cmake --build "$build" --target "${targets[@]}" --parallel "${TILESCOPE_JOBS:-$(nproc)}"
fi
[ $do_run -eq 1 ] || exit 0

# halt_on_error: the first report ends the run; leaks are reported too (at exit).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:print_stacktrace=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
printf '%-20s %10s %8s %7s %7s %8s\n' target executions seconds cov ft corpus
summary=()
for t in "${targets[@]}"; do
  seeds=$root/fuzz/corpus/$t
  work=$build/corpus/$t
  mkdir -p "$work" "$build/artifacts"
  log=$build/$t.log
  dict=()
  [ -f "$root/fuzz/$t.dict" ] && dict=(-dict="$root/fuzz/$t.dict")
  start=$(date +%s%N)
  rc=0
  "$build/bin/$t" -runs="$runs" -max_total_time="$max_time" -timeout=5 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 "${dict[@]}" -artifact_prefix="$build/artifacts/$t-" \
    "$work" "$seeds" >"$log" 2>&1 || rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  seconds=$((ms / 1000)).$((ms % 1000 / 100))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  line=$(printf '%-20s %10s %8s %7s %7s %8s' "$t" "${execs:-?}" "$seconds" "${cov:-?}" "${ft:-?}" "${corp:-?}")
  echo "$line"
  summary+=("$line")
  if [ $rc -ne 0 ]; then
    echo "fuzz.sh: $t failed (exit status $rc); the end of its log ($log):" >&2
    tail -40 "$log" >&2
    status=1
    continue
  fi
  if [ $merge -eq 1 ]; then
    fresh=$build/merged/$t
    rm -rf "$fresh" && mkdir -p "$fresh"
    "$build/bin/$t" -merge=1 -timeout=5 -max_len=4096 "$fresh" "$seeds" "$work" >"$build/$t.merge.log" 2>&1
    rm -rf "$seeds" && mkdir -p "$seeds" && cp "$fresh"/* "$seeds"/
    echo "fuzz.sh: $t: the corpus fuzz/corpus/$t now holds $(ls "$seeds" | wc -l) inputs ($(du -sh "$seeds" | cut -f1))"
  fi
done
exit $status
