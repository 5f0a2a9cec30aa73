#!/usr/bin/env bash
# PMPP sec. 11.6's hierarchical scan (scan-hierarchical, three launches) on a CUDA device,
# against the simulator. Builds tilescope-cli (Release, no app), then:
#   - gpu-run (3 runs each) at lengths 1, a block plus one (17 at 16 threads, 1025 at 1024),
#     ragged lengths, the longest a BLOCK_DIM allows (BLOCK_DIM x BLOCK_DIM), and a million:
#     how many runs' Y differs from the reference, bit for bit (every prefix of inputs 1..8
#     is exact in float);
#   - Nsight Compute's thread-level FADD count, summed over the three launches, against the
#     simulator's scan.adds (every launch's), at 64, 1025 and 100000 elements;
#   - compute-sanitizer --tool memcheck at 100000 elements, and racecheck at 1025.
#
#   scripts/gpu-hierarchical.sh [PART...]    # runs, ncu, sanitizer (default: all)
#
# Logs and the table go to $OUT (default out/gpu-hierarchical). Exit 0 when every GPU run was
# bit-exact and every count equal.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-hierarchical}
build=${TILESCOPE_BUILD_DIR:-$root/build}
arches=${TILESCOPE_CUDA_ARCHITECTURES:-90-real}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
cli=$build/bin/tilescope-cli

deps=()
[ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${deps[@]}" \
         -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=ON \
         -DTILESCOPE_CUDA_ARCHITECTURES="$arches" && ninja -C "$build" tilescope-cli; } >"$out/build.log" 2>&1; then
  echo "gpu-hierarchical.sh: the build failed; see $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 2
fi

status=0
k="--kernel scan-hierarchical"
parts=" ${*:-runs ncu sanitizer} "
want() { [[ "$parts" == *" $1 "* ]]; }
say() { echo "$*" | tee -a "$out/table.txt"; }
: >"$out/table.txt"
if want runs; then
say "gpu-run, 3 runs each (runs whose Y differs from the reference):"
for c in "1 16" "16 16" "17 16" "200 16" "256 16" "1 1024" "1025 1024" "40000 256" "65536 256" "1000000 1024" "1048576 1024"; do
  set -- $c
  log=$out/gpu-run-$1-t$2.txt
  # shellcheck disable=SC2086
  "$cli" gpu-run $k --width "$1" --tile "$2" --runs 3 --yes >"$log" 2>&1
  rc=$?
  say "  N $1, BLOCK_DIM $2: exit $rc; $(grep -Eo '[0-9]+ of [0-9]+ runs[^.]*' "$log" | head -1)"
  [ $rc -eq 0 ] || { status=1; tail -3 "$log"; }
done
fi

if want ncu; then
metric=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
say "Nsight Compute (FADD, the three launches summed) against the simulator:"
for c in "64 16" "1025 1024" "100000 1024"; do
  set -- $c
  # shellcheck disable=SC2086
  "$cli" simulate $k --width "$1" --tile "$2" --json --quiet >"$out/sim-$1.json" 2>"$out/sim-$1.err"
  # shellcheck disable=SC2086
  ncu --csv --page raw --print-units base --metrics "$metric" --kernel-name-base mangled -k regex:DeviceContext -c 3 \
      "$cli" gpu-run $k --width "$1" --tile "$2" --runs 1 --yes >"$out/ncu-$1.csv" 2>"$out/ncu-$1.err"
  line=$(python3 - "$out/sim-$1.json" "$out/ncu-$1.csv" "$metric" <<'PY'
import csv, io, json, sys
s = json.load(open(sys.argv[1]))
text = open(sys.argv[2], errors="replace").read()
rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
if len(rows) < 5:
    print(f"no ncu figures for three launches ({max(0, len(rows) - 2)} rows)"); sys.exit(1)
head = rows[0]
per = [int(float(r[head.index(sys.argv[3])].replace(",", ""))) for r in rows[2:]]
ok = sum(per) == s["scan"]["adds"]
print(f"fadd sim {s['scan']['adds']} ncu {sum(per)} = {' + '.join(map(str, per))} ({'equal' if ok else 'DIFFER'})")
sys.exit(0 if ok else 1)
PY
)
  [ $? -eq 0 ] || status=1
  say "  N $1, BLOCK_DIM $2: $line"
done
fi

if want sanitizer; then
# shellcheck disable=SC2086
compute-sanitizer --tool memcheck "$cli" gpu-run $k --width 100000 --tile 1024 --runs 1 >"$out/memcheck.txt" 2>&1
say "memcheck at 100000: exit $?; $(grep -E 'ERROR SUMMARY' "$out/memcheck.txt" | head -1)"
# shellcheck disable=SC2086
compute-sanitizer --tool racecheck "$cli" gpu-run $k --width 1025 --tile 1024 --runs 1 >"$out/racecheck.txt" 2>&1
say "racecheck at 1025: exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck.txt" | head -1)"
# shellcheck disable=SC2086
compute-sanitizer --tool racecheck "$cli" gpu-run $k --width 1025 --tile 1024 --drop-barrier after-compute --runs 1 \
    >"$out/racecheck-drop.txt" 2>&1
say "racecheck at 1025 without the second barrier: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-drop.txt" | head -1)"
fi
exit $status
