#!/usr/bin/env bash
# PMPP ch. 11's scans: the simulator's counts against the hardware's. On a machine with a CUDA
# device, Nsight Compute and compute-sanitizer (run as root): builds tilescope-cli (Release,
# no app), then for each scan kernel at several lengths (a power of two, ragged, 1) runs one
# launch under ncu (tilescope-cli gpu-run --runs 1) and the same problem in the simulator
# (simulate --json), and prints side by side, each of which must be equal:
#   - float adds: scan.adds (Totals::fadds) against
#     smsp__sass_thread_inst_executed_op_fadd_pred_on.sum;
#   - shared loads and stores: memory.shared_{ld,st}_requests / _wavefronts / _bank_conflicts
#     against smsp__inst_executed_op_shared_{ld,st}.sum,
#     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum and
#     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum;
#   - global requests and sectors: memory.global_{ld,st}_{requests,sectors} against
#     l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum;
#   - divergent and uniform branches: warps.branch_divergent_compiled / _uniform_compiled
#     against smsp__sass_branch_targets_threads_divergent.sum / _uniform.sum.
# Then the GPU's scan against the CPU's, bit for bit (gpu-run, 3 runs), and Kogge-Stone with
# its second barrier dropped in the simulator and under compute-sanitizer --tool racecheck.
#
#   scripts/gpu-scan.sh [CASE_FILTER]    # a grep -E pattern over case names
#
# Logs and the table go to $OUT (default out/gpu-scan).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-scan}
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
  echo "gpu-scan.sh: the build failed; see $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 2
fi

metrics=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum

# name | tilescope-cli problem options
cases=()
for k in scan-kogge-stone scan-kogge-stone-exclusive scan-kogge-stone-double-buffer; do
  cases+=("$k-1024-t1024|--kernel $k --width 1024 --tile 1024")
  cases+=("$k-1000-t1024|--kernel $k --width 1000 --tile 1024")
  cases+=("$k-16-t16|--kernel $k --width 16 --tile 16")
  cases+=("$k-200-t256|--kernel $k --width 200 --tile 256")
done
cases+=("scan-brent-kung-2048-t1024|--kernel scan-brent-kung --width 2048 --tile 1024")
cases+=("scan-brent-kung-1999-t1024|--kernel scan-brent-kung --width 1999 --tile 1024")
cases+=("scan-brent-kung-16-t8|--kernel scan-brent-kung --width 16 --tile 8")
cases+=("scan-brent-kung-1-t256|--kernel scan-brent-kung --width 1 --tile 256")
cases+=("scan-coarsened-4096-t1024|--kernel scan-coarsened --width 4096 --tile 1024")
cases+=("scan-coarsened-3001-t1024|--kernel scan-coarsened --width 3001 --tile 1024")
cases+=("scan-coarsened-64-t16|--kernel scan-coarsened --width 64 --tile 16")
cases+=("scan-sequential-2048|--kernel scan-sequential --width 2048 --tile 1")
cases+=("scan-sequential-1|--kernel scan-sequential --width 1 --tile 1")
cases+=("scan-sequential-1000001|--kernel scan-sequential --width 1000001 --tile 1")

for c in "${cases[@]}"; do
  name=${c%%|*}
  opts=${c#*|}
  printf '%s\n' "$name" | grep -Eq "$filter" || continue
  # shellcheck disable=SC2086
  "$cli" simulate $opts --json --quiet >"$out/cases/$name.sim.json" 2>"$out/cases/$name.sim.err"
  # shellcheck disable=SC2086
  ncu --csv --page raw --print-units base --metrics "$metrics" --kernel-name-base mangled -k regex:DeviceContext -c 1 \
      "$cli" gpu-run $opts --runs 1 >"$out/cases/$name.ncu.csv" 2>"$out/cases/$name.ncu.err"
  # shellcheck disable=SC2086
  "$cli" gpu-run $opts --runs 3 >"$out/cases/$name.gpu-run.txt" 2>&1
done

# The race: Kogge-Stone with its second barrier dropped, in the simulator and under racecheck.
race="--kernel scan-kogge-stone --width 1024 --tile 1024 --drop-barrier after-compute"
# shellcheck disable=SC2086
"$cli" simulate $race --json --quiet --hazard-report >"$out/race.sim.json" 2>"$out/race.sim.err"
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

cols = [("fadd", lambda s: s.get("scan", {}).get("adds"), "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"),
        ("lds req", lambda s: s["memory"]["shared_ld_requests"], "smsp__inst_executed_op_shared_ld.sum"),
        ("lds wave", lambda s: s["memory"]["shared_ld_wavefronts"], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        ("lds conf", lambda s: s["memory"]["shared_ld_bank_conflicts"], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        ("sts req", lambda s: s["memory"]["shared_st_requests"], "smsp__inst_executed_op_shared_st.sum"),
        ("sts wave", lambda s: s["memory"]["shared_st_wavefronts"], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        ("sts conf", lambda s: s["memory"]["shared_st_bank_conflicts"], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        ("ld req", lambda s: s["memory"]["global_ld_requests"], "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        ("ld sect", lambda s: s["memory"]["global_ld_sectors"], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        ("st req", lambda s: s["memory"]["global_st_requests"], "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        ("st sect", lambda s: s["memory"]["global_st_sectors"], "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
        ("br div", lambda s: s.get("warps", {}).get("branch_divergent_compiled", 0), "smsp__sass_branch_targets_threads_divergent.sum"),
        ("br uni", lambda s: s.get("warps", {}).get("branch_uniform_compiled", 0), "smsp__sass_branch_targets_threads_uniform.sum")]
bad = 0; missing = 0; differing_cells = 0
say(f"{'case':40s} " + " ".join(f"{c[0]:>13s}" for c in cols) + "  GPU runs")
for name in cases:
    try:
        sim = json.load(open(os.path.join(out, "cases", name + ".sim.json")))
    except Exception as e:
        say(f"{name}: no simulator figures ({e})"); missing += 1; continue
    hw = ncu_values(os.path.join(out, "cases", name + ".ncu.csv"))
    if hw is None:
        say(f"{name}: no Nsight Compute figures"); missing += 1; continue
    pairs = [(get(sim), hw.get(metric)) for _, get, metric in cols]
    cells = []
    for a, b in pairs:
        cell = f"{a}/{b}"
        if a != b: cell += "*"; differing_cells += 1
        cells.append(cell)
    mark = "  DIFFERS" if any(a != b for a, b in pairs) else ""
    if not sim.get("matches_reference"):
        bad += 1; mark += "  (simulator output differs from the reference)"
    runs = open(os.path.join(out, "cases", name + ".gpu-run.txt"), errors="replace").read()
    g = re.search(r": (\d+) of (\d+) runs gave a wrong P", runs)
    gpu = f"{g.group(1)}/{g.group(2)} wrong" if g else "no result"
    if not g or g.group(1) != "0":
        bad += 1; mark += "  (GPU scan wrong)"
    if mark.startswith("  DIFFERS"): bad += 1
    say(f"{name:40s} " + " ".join(f"{c:>13s}" for c in cells) + f"  {gpu}{mark}")
say()
try:
    race = json.load(open(os.path.join(out, "race.sim.json")))
    say(f"race (scan-kogge-stone 1024, barrier after-compute dropped): simulator hazards {json.dumps(race.get('hazards', {}))}")
except Exception as e:
    say(f"race: no simulator figures ({e})"); bad += 1
err = open(os.path.join(out, "race.sim.err"), errors="replace").read()
say("simulator's report: " + " | ".join(l.strip() for l in err.splitlines()[:4]))
rc = open(os.path.join(out, "race.racecheck.txt"), errors="replace").read()
m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", rc)
say("racecheck with the barrier dropped: " + (m.group(0) if m else "no summary (see race.racecheck.txt)"))
kinds = sorted(set(re.findall(r"(Write-after-Read|Read-after-Write|Write-after-Write|WAR|RAW|WAW) hazard", rc)))
say("racecheck's hazard kinds: " + (", ".join(kinds) if kinds else "none"))
lines = sorted(set(re.findall(r"scan_kogge_stone\.cuh:(\d+)", rc)), key=int)
say("racecheck names lines of scan_kogge_stone.cuh: " + (", ".join(lines) if lines else "none"))
nr = open(os.path.join(out, "norace.racecheck.txt"), errors="replace").read()
m2 = re.search(r"RACECHECK SUMMARY: (\d+) hazards?", nr)
say("racecheck with the barrier: " + (m2.group(0) if m2 else "no summary (see norace.racecheck.txt)"))
if not m or int(m.group(1)) == 0: bad += 1
if m2 and int(m2.group(1)) != 0: bad += 1
say(f"\ngpu-scan: {len(cases)} cases, {bad} failing, {differing_cells} differing cells, {missing} without figures (each cell: simulator/Nsight Compute; * marks a difference)")
sys.exit(1 if bad or missing else 0)
PY
