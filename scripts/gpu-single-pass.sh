#!/usr/bin/env bash
# PMPP sec. 11.7's single-pass scan (scan-single-pass) on a CUDA device, against the
# simulator. Builds tilescope-cli (Release, no app), then:
#   - gpu-run (3 runs each) at lengths 1, a block plus one (17 at 16 threads, 1025 at 1024),
#     ragged lengths, a million and 2^21: how many runs' Y differs from the reference, bit for
#     bit (every prefix of inputs 1..8 is exact in float);
#   - the same with the __threadfence() dropped (--drop-barrier fence), 20 runs at a million:
#     whether this GPU shows the missing fence (the simulator reports it, docs/design.md);
#   - Nsight Compute's thread-level FADD count against the simulator's scan.adds (equal), and
#     its global atomic instructions (each thread 0's alone, so one a warp) against the
#     simulator's (at least as many: a GPU's wait may look at a flag more than once), at 64,
#     1025 and 100000 elements;
#   - compute-sanitizer --tool memcheck at 100000 elements.
#
#   scripts/gpu-single-pass.sh [PART...]    # runs, nofence, ncu, memcheck (default: all)
#
# Logs and the table go to $OUT (default out/gpu-single-pass). Exit 0 when every GPU run with
# the fence was bit-exact and every counter equal.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-single-pass}
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
  echo "gpu-single-pass.sh: the build failed; see $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 2
fi

status=0
k="--kernel scan-single-pass"
parts=" ${*:-runs nofence ncu memcheck} "
want() { [[ "$parts" == *" $1 "* ]]; }
say() { echo "$*" | tee -a "$out/table.txt"; }
: >"$out/table.txt"
if want runs; then
say "gpu-run, 3 runs each (runs whose Y differs from the reference):"
for c in "1 16" "16 16" "17 16" "1000 16" "1 1024" "1025 1024" "3077 1024" "99999 256" "1000000 1024" "2097152 1024"; do
  set -- $c
  log=$out/gpu-run-$1-t$2.txt
  # shellcheck disable=SC2086
  "$cli" gpu-run $k --width "$1" --tile "$2" --runs 3 --yes >"$log" 2>&1
  rc=$?
  say "  N $1, BLOCK_DIM $2: exit $rc; $(grep -Eo '[0-9]+ of [0-9]+ runs[^.]*' "$log" | head -1)"
  [ $rc -eq 0 ] || status=1
done
fi

if want nofence; then
say "without the fence (--drop-barrier fence), 20 runs at a million:"
# shellcheck disable=SC2086
"$cli" gpu-run $k --width 1000000 --tile 1024 --drop-barrier fence --runs 20 --yes >"$out/nofence.txt" 2>&1
say "  exit $?; $(grep -Eo '[0-9]+ of [0-9]+ runs[^.]*' "$out/nofence.txt" | head -1)"
# shellcheck disable=SC2086
"$cli" simulate $k --width 100000 --tile 1024 --drop-barrier fence --json --quiet >"$out/nofence.sim.json" 2>"$out/nofence.sim.err"
say "  simulator at 100000: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hand_overs"])' "$out/nofence.sim.json")"

fi

if want ncu; then
metrics=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_inst_executed_op_global_atom.sum
say "Nsight Compute against the simulator:"
for c in "1025 1024" "100000 1024" "64 16"; do
  set -- $c
  # shellcheck disable=SC2086
  "$cli" simulate $k --width "$1" --tile "$2" --json --quiet >"$out/sim-$1.json" 2>"$out/sim-$1.err"
  # shellcheck disable=SC2086
  ncu --csv --page raw --print-units base --metrics "$metrics" --kernel-name-base mangled -k regex:DeviceContext -c 1 \
      "$cli" gpu-run $k --width "$1" --tile "$2" --runs 1 --yes >"$out/ncu-$1.csv" 2>"$out/ncu-$1.err"
  line=$(python3 - "$out/sim-$1.json" "$out/ncu-$1.csv" <<'PY'
import csv, io, json, sys
s = json.load(open(sys.argv[1]))
text = open(sys.argv[2], errors="replace").read()
rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
if len(rows) < 3:
    print("no ncu figures"); sys.exit(1)
head, vals = rows[0], rows[2]
def get(k):
    try: return int(float(vals[head.index(k)].replace(",", "")))
    except (ValueError, IndexError): return None
fadd = get("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum")
# Every atomic of the kernel is thread 0's alone, so the warp-level count is the thread count.
atoms = get("smsp__sass_inst_executed_op_global_atom.sum")
sim_atoms = s["warps"]["global_atomics"] if "warps" in s else None
ok = fadd == s["scan"]["adds"]
# Atomics: the simulator's waits end at their first look; a GPU's may spin, so its count is at
# least the simulator's and the difference is the extra looks at a flag.
extra = None if atoms is None or sim_atoms is None else atoms - sim_atoms
print(f"fadd sim {s['scan']['adds']} ncu {fadd} ({'equal' if ok else 'DIFFER'}); thread global atomics sim {sim_atoms} ncu {atoms} (extra looks at flags {extra})")
ok = ok and extra is not None and extra >= 0
sys.exit(0 if ok else 1)
PY
)
  [ $? -eq 0 ] || status=1
  say "  N $1, BLOCK_DIM $2: $line"
done

fi

if want memcheck; then
# shellcheck disable=SC2086
compute-sanitizer --tool memcheck "$cli" gpu-run $k --width 100000 --tile 1024 --runs 1 >"$out/memcheck.txt" 2>&1
say "memcheck at 100000: exit $?; $(grep -E 'ERROR SUMMARY' "$out/memcheck.txt" | head -1)"
fi
exit $status
