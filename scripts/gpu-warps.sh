#!/usr/bin/env bash
# The simulator's warps against the hardware's counters, for the kernels that mark their
# branches (x.branch) or make atomics: PMPP ch. 10's reductions. On a machine with a CUDA
# device, Nsight Compute and compute-sanitizer (run as root): builds tilescope-cli (Release,
# no app), then for each reduction kernel at several block sizes runs one launch under ncu
# (tilescope-cli gpu-run --runs 1) and the same problem in the simulator (simulate --json),
# and prints side by side:
#   - divergent and uniform branch executions over the lines nvcc compiles to a branch
#     (warps.branch_divergent_compiled / _uniform_compiled: a line the registry notes as
#     predicated is left out) against smsp__sass_branch_targets_threads_divergent.sum and
#     ..._uniform.sum (must be equal: the script fails otherwise); the source-level counts,
#     predicated lines included, beside them;
#   - global atomic requests: warps.global_atom_requests against the RED and ATOM requests
#     (l1tex__t_requests_pipe_lsu_mem_global_op_red.sum + ..._op_atom.sum; must be equal).
# Then the shared-memory tree without its barrier (reduction-shared, --drop-barrier
# after-load): the simulator's hazards beside compute-sanitizer --tool racecheck's report.
#
#   scripts/gpu-warps.sh [CASE_FILTER]    # a grep -E pattern over case names
#
# Logs and the table go to $OUT (default out/gpu-warps).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-warps}
build=${TILESCOPE_BUILD_DIR:-$root/build}
arches=${TILESCOPE_CUDA_ARCHITECTURES:-90-real}
filter=${1:-.}
mkdir -p "$out/cases"
export PATH=$PATH:/usr/local/cuda/bin
cli=$build/bin/tilescope-cli

deps=()
[ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${deps[@]}" \
         -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=ON \
         -DTILESCOPE_CUDA_ARCHITECTURES="$arches" && ninja -C "$build" tilescope-cli; } >"$out/build.log" 2>&1; then
  echo "gpu-warps.sh: the build failed; see $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 2
fi

metrics=smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum

# name | tilescope-cli problem options
cases=()
for t in 8 16 64 256 1024; do
  n=$((2 * t))
  cases+=("reduction-simple-$t|--kernel reduction-simple --width $n")
  cases+=("reduction-convergent-$t|--kernel reduction-convergent --width $n")
  cases+=("reduction-shared-$t|--kernel reduction-shared --width $n --tile $t")
done
for t in 32 256 1024; do
  for n in 100001 4097; do
    cases+=("reduction-segmented-$n-t$t|--kernel reduction-segmented --width $n --tile $t")
    cases+=("reduction-coarsened-$n-t$t|--kernel reduction-coarsened --width $n --tile $t")
    cases+=("reduction-shuffle-$n-t$t|--kernel reduction-shuffle --width $n --tile $t")
  done
done

for c in "${cases[@]}"; do
  name=${c%%|*}
  opts=${c#*|}
  printf '%s\n' "$name" | grep -Eq "$filter" || continue
  # shellcheck disable=SC2086
  "$cli" simulate $opts --json >"$out/cases/$name.sim.json" 2>"$out/cases/$name.sim.err"
  # shellcheck disable=SC2086
  ncu --csv --page raw --print-units base --metrics "$metrics" --kernel-name-base mangled -k regex:DeviceContext -c 1 \
      "$cli" gpu-run $opts --runs 1 >"$out/cases/$name.ncu.csv" 2>"$out/cases/$name.ncu.err"
done

# The race: the shared tree with its barrier dropped, in the simulator and under racecheck.
race="--kernel reduction-shared --width 2048 --tile 1024 --drop-barrier after-load"
# shellcheck disable=SC2086
"$cli" simulate $race --json >"$out/race.sim.json" 2>"$out/race.sim.err"
# shellcheck disable=SC2086
compute-sanitizer --tool racecheck --racecheck-report all "$cli" gpu-run $race --runs 1 >"$out/race.racecheck.txt" 2>&1
# shellcheck disable=SC2086
compute-sanitizer --tool racecheck "$cli" gpu-run ${race% --drop-barrier*} --runs 1 >"$out/norace.racecheck.txt" 2>&1

python3 - "$out" <<'PY'
import csv, io, json, os, re, sys
out = sys.argv[1]
cases = sorted(f[:-9] for f in os.listdir(os.path.join(out, "cases")) if f.endswith(".sim.json"))
table = open(os.path.join(out, "table.txt"), "w")
def say(s=""):
    print(s); table.write(s + "\n")

def ncu_values(path):
    text = open(path, errors="replace").read()
    rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
    if len(rows) < 3: return None
    head, vals = rows[0], rows[2]
    def get(k):
        try: return int(float(vals[head.index(k)].replace(",", "")))
        except (ValueError, IndexError): return None
    return {k: get(k) for k in head}

bad = 0; missing = 0
say(f"{'case':34s} {'divergent':>10s} {'Nsight':>8s} {'uniform':>9s} {'Nsight':>8s} {'atomics':>8s} {'Nsight':>8s}   source-level div/uni")
for name in cases:
    try:
        sim = json.load(open(os.path.join(out, "cases", name + ".sim.json")))
        w = sim.get("warps", {})
    except Exception as e:
        say(f"{name}: no simulator figures ({e})"); missing += 1; continue
    hw = ncu_values(os.path.join(out, "cases", name + ".ncu.csv"))
    if hw is None:
        say(f"{name}: no Nsight Compute figures"); missing += 1; continue
    div, hdiv = w.get("branch_divergent_compiled", 0), hw.get("smsp__sass_branch_targets_threads_divergent.sum")
    uni, huni = w.get("branch_uniform_compiled", 0), hw.get("smsp__sass_branch_targets_threads_uniform.sum")
    src = f"{w.get('branch_divergent', 0)}/{w.get('branch_uniform', 0)}"
    atom = w.get("global_atom_requests", 0)
    hatom = (hw.get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") or 0) + (hw.get("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") or 0)
    mark = ""
    if div != hdiv or uni != huni or atom != hatom:
        bad += 1; mark = "  DIFFERS"
    if not sim.get("matches_reference"):
        bad += 1; mark += "  (simulator output differs from the reference)"
    say(f"{name:34s} {div!s:>10s} {hdiv!s:>8s} {uni!s:>9s} {huni!s:>8s} {atom!s:>8s} {hatom!s:>8s}   {src}{mark}")

say()
try:
    race = json.load(open(os.path.join(out, "race.sim.json")))
    hz = race.get("hazards", {})
    say(f"race (reduction-shared 2048, barrier after-load dropped): simulator hazards {json.dumps(hz)[:300]}")
except Exception as e:
    say(f"race: no simulator figures ({e})"); bad += 1
rc = open(os.path.join(out, "race.racecheck.txt"), errors="replace").read()
m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", rc)
say("racecheck with the barrier dropped: " + (m.group(0) if m else "no summary (see race.racecheck.txt)"))
lines = sorted(set(re.findall(r"reduction_shared\.cuh:(\d+)", rc)))
say("racecheck names lines of reduction_shared.cuh: " + (", ".join(lines) if lines else "none"))
nr = open(os.path.join(out, "norace.racecheck.txt"), errors="replace").read()
m2 = re.search(r"RACECHECK SUMMARY: (\d+) hazards?", nr)
say("racecheck with the barrier: " + (m2.group(0) if m2 else "no summary (see norace.racecheck.txt)"))
if not m or int(m.group(1)) == 0: bad += 1
if m2 and int(m2.group(1)) != 0: bad += 1
say(f"\ngpu-warps: {len(cases)} cases, {bad} differing, {missing} without figures")
sys.exit(1 if bad or missing else 0)
PY
