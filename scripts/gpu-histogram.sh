#!/usr/bin/env bash
# PMPP ch. 9's histograms: the simulator's counts against the hardware's. On a machine with a
# CUDA device and Nsight Compute (run as root): builds tilescope-cli (Release, no app), then
# for each histogram kernel at several texts (the book's phrase, random letters with a skew,
# ragged lengths) runs one launch under ncu (tilescope-cli gpu-run --runs 1) and the same
# problem in the simulator (simulate --json), and prints side by side, each of which must be
# equal (the script fails otherwise):
#   - global atomic requests and their passes: warps.global_atom_requests / _passes against
#     l1tex__t_requests_pipe_lsu_mem_global_op_{red,atom}.sum and
#     l1tex__t_set_accesses_pipe_lsu_mem_global_op_{red,atom}.sum;
#   - shared atomic instructions: warps.shared_atom_requests against
#     smsp__inst_executed_op_shared_atom.sum;
#   - global load requests and sectors: memory.global_ld_requests / _sectors against
#     l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum and l1tex__t_sectors_..._op_ld.sum
#     (contiguous against interleaved coarsening).
# Then `verify`'s own check: every bin equal on the GPU at ragged lengths (gpu-run, 3 runs).
#
#   scripts/gpu-histogram.sh [CASE_FILTER]    # a grep -E pattern over case names
#
# Logs and the table go to $OUT (default out/gpu-histogram).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-histogram}
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
  echo "gpu-histogram.sh: the build failed; see $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 2
fi

metrics=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
metrics+=,l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum,l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum
metrics+=,smsp__inst_executed_op_shared_atom.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum

# name | tilescope-cli problem options
cases=()
for k in histogram-basic histogram-private-global histogram-private-shared histogram-contiguous \
         histogram-interleaved histogram-aggregated; do
  cases+=("$k-phrase-65536-t256|--kernel $k --width 65536 --tile 256")
  cases+=("$k-phrase-100001-t256|--kernel $k --width 100001 --tile 256")
  cases+=("$k-skew80-4099-t256|--kernel $k --width 4099 --tile 256 --text-skew 80")
  cases+=("$k-skew0-70001-t256|--kernel $k --width 70001 --tile 256 --text-skew 0")
  # Another block size, ragged (Fig. 9.9's description fixes 256 threads a block).
  [ "$k" != histogram-private-global ] && cases+=("$k-phrase-30001-t32|--kernel $k --width 30001 --tile 32")
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
  # shellcheck disable=SC2086
  "$cli" gpu-run $opts --runs 3 >"$out/cases/$name.gpu-run.txt" 2>&1
done

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

def both(hw, a, b):
    return (hw.get(a) or 0) + (hw.get(b) or 0)

# Differences understood and left (docs/design.md, "Histograms"): a case whose only
# difference is in these columns is reported KNOWN, not counted as differing.
known = {
    "histogram-contiguous": ({2, 3, 4}, "nvcc's remainder loop at a ragged end: one request more"),
    "histogram-aggregated": ({2}, "Fig. 9.15's conditional atomics at different iterations"),
}
bad = 0; missing = 0; explained = 0
cols = ["atom req", "passes", "shd atom", "ld req", "ld sect"]
say(f"{'case':44s} " + " ".join(f"{c:>17s}" for c in cols) + "  GPU runs")
for name in cases:
    try:
        sim = json.load(open(os.path.join(out, "cases", name + ".sim.json")))
        w = sim.get("warps", {}); m = sim.get("memory", {})
    except Exception as e:
        say(f"{name}: no simulator figures ({e})"); missing += 1; continue
    hw = ncu_values(os.path.join(out, "cases", name + ".ncu.csv"))
    if hw is None:
        say(f"{name}: no Nsight Compute figures"); missing += 1; continue
    pairs = [
        (w.get("global_atom_requests", 0), both(hw, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")),
        (w.get("global_atom_passes", 0), both(hw, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum", "l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum")),
        (w.get("shared_atom_requests", 0), hw.get("smsp__inst_executed_op_shared_atom.sum") or 0),
        (m.get("global_ld_requests", 0), hw.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
        (m.get("global_ld_sectors", 0), hw.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")),
    ]
    mark = ""
    differ = {i for i, (a, b) in enumerate(pairs) if a != b}
    kernel = next((k for k in known if name.startswith(k + "-")), None)
    if differ and kernel and differ <= known[kernel][0] and all(abs(pairs[i][0] - pairs[i][1]) <= 2 for i in differ):
        explained += 1; mark = "  KNOWN: " + known[kernel][1]
    elif differ:
        bad += 1; mark = "  DIFFERS"
    if not sim.get("matches_reference"):
        bad += 1; mark += "  (simulator output differs from the reference)"
    runs = open(os.path.join(out, "cases", name + ".gpu-run.txt"), errors="replace").read()
    g = re.search(r": (\d+) of (\d+) runs gave a wrong P", runs)
    gpu = f"{g.group(1)}/{g.group(2)} wrong" if g else "no result"
    if not g or g.group(1) != "0":
        bad += 1; mark += "  (GPU bins wrong)"
    say(f"{name:44s} " + " ".join(f"{str(a) + '/' + str(b):>17s}" for a, b in pairs) + f"  {gpu}{mark}")
say(f"\ngpu-histogram: {len(cases)} cases, {bad} differing, {explained} known differences, {missing} without figures (each cell: simulator/Nsight Compute)")
sys.exit(1 if bad or missing else 0)
PY
