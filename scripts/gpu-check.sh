#!/usr/bin/env bash
# The GPU path's acceptance run, in one go, on a machine with a CUDA device (the GPU
# machine has CUDA 13, GCC, CMake and ninja but no -dev packages: run
# scripts/device-deps.sh beforehand on a Debian machine and bring .deps/ along).
# Builds (Release, no app), runs the GPU tests, `tilescope-cli verify`, and `bench` at
# 4096 for naive, tiled 16 / 32 and cuBLAS; writes every log under $OUT (default
# out/gpu-check) and prints a short summary table last.
#   scripts/gpu-check.sh            # TILESCOPE_CUDA_ARCHITECTURES=90-real by default
set -uo pipefail
# The GPU machine has neither bubblewrap nor libseccomp-dev: the files run here are the
# project's own, so they may run without the sandbox (docs/security.md). Also lets the
# runner built there without the system-call filter go on.
export TILESCOPE_ALLOW_UNCONFINED=1
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-check}
build=${TILESCOPE_BUILD_DIR:-$root/build}
arches=${TILESCOPE_CUDA_ARCHITECTURES:-90-real}
jobs=$(nproc)
mkdir -p "$out"
cd "$root" || exit 2
export PATH=$PATH:/usr/local/cuda/bin
export TILESCOPE_REQUIRE_GPU=1   # a missing device fails the GPU tests instead of skipping them
# A student's kernel files (no libclang there): the translations scripts/student-translations.sh saved.
[ -d "$root/.student-translations" ] && export TILESCOPE_TRANSLATIONS=${TILESCOPE_TRANSLATIONS:-$root/.student-translations}

results=()
# run NAME LOG SECONDS CMD...: runs CMD with a time limit, appending to LOG; records the exit status.
run() {
  local name=$1 log=$2 limit=$3
  shift 3
  echo "### $name: $*" >>"$log"
  local t0=$SECONDS
  timeout "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  results+=("$(printf '%-22s exit %-3s %4ss' "$name" "$rc" $((SECONDS - t0)))")
  return $rc
}

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -1
  gcc --version | head -1
  cmake --version | head -1
  echo "ninja $(ninja --version)"
  ls /usr/local/cuda/lib64/libcublas.so* 2>&1 | head -1
} >"$out/summary.txt"

deps=()
[ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
run configure "$out/build.log" 120 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "${deps[@]}" -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=ON \
  -DTILESCOPE_CUDA_ARCHITECTURES="$arches"
run build "$out/build.log" 300 ninja -C "$build" -k 0 -j "$jobs" tilescope-cli tilescope-runner tilescope_gpu_tests tilescope_gpu_student_tests tilescope_unit_tests startup_links_cublas

# Registers and shared memory of each kernel instance (ptxas -v), and the SASS check that
# nvcc fused every `Pvalue += a * b` into an FFMA in both instantiations (no FMUL/FADD).
{
  echo "== ptxas (sm_90): kernel, registers, shared memory"
  awk "/Compiling entry function .*matmul.*for 'sm_90'/ { n = \$0; sub(/.*function '/, \"\", n); sub(/' for.*/, \"\", n); f = n }
       /Used [0-9]+ registers/ && f != \"\" { print f \"\t\" \$0; f = \"\" }" "$out/build.log" |
    c++filt | sed -E 's/ts::gpu::detail::\(anonymous namespace\):://; s/\(ts::gpu::[A-Za-z]+::GlobalPtr.*\)//; s/ptxas info +: //'
  echo "== SASS (sm_90): FFMA / FMUL / FADD per kernel"
  cuobjdump -sass "$build/bin/tilescope-cli" 2>&1 |
    awk '/Function :/ { if (f != "") print f, ffma, fmul, fadd; f = $3; ffma = fmul = fadd = 0 }
         /FFMA/ { ffma++ } /FMUL/ { fmul++ } /FADD/ { fadd++ }
         END { if (f != "") print f, ffma, fmul, fadd }' | grep -i matmul | c++filt |
    sed -E 's/ts::gpu::detail::\(anonymous namespace\):://; s/\(ts::gpu::[A-Za-z]+::GlobalPtr[^)]*\)//'
} >"$out/sass.txt" 2>&1

cd "$build" || exit 2
run "ctest -L gpu" "$out/ctest-gpu.log" 300 ctest -L gpu --output-on-failure -j 8
run "verify" "$out/verify.log" 300 ./bin/tilescope-cli verify
for t in 16 32; do
  run "bench 4096 tile $t" "$out/bench.txt" 180 ./bin/tilescope-cli bench --kernel matmul-naive,matmul-tiled,cublas --width 4096 --tile "$t"
  run "bench 4096 tile $t json" "$out/bench.json" 180 ./bin/tilescope-cli bench --kernel matmul-naive,matmul-tiled,cublas --width 4096 --tile "$t" --json
done
[ -z "${TILESCOPE_SKIP_UNIT:-}" ] && run "ctest -L unit" "$out/unit.log" 240 ctest -L unit --output-on-failure -j 8
cd "$root" || exit 2

{
  echo
  echo "== steps"
  printf '%s\n' "${results[@]}"
  echo "== GPU tests"
  grep -E "tests passed|tests failed" "$out/ctest-gpu.log" | tail -1
  echo "== unit tests (simulator, built by this machine's GCC)"
  grep -E "tests passed|tests failed" "$out/unit.log" | tail -1
  echo "== verify"
  grep -E "^verify on|passed, .* failed" "$out/verify.log"
  echo "== bench at 4096 (from bench.json)"
  python3 - "$out/bench.json" <<'PY'
import json, sys
print(f"{'kernel':14} {'tile':>4} {'ms median':>10} {'ms min':>9} {'GFLOPS':>9} {'max|err|':>9}")
dev = "none (bench did not run)"
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    for r in d["results"]:
        print(f"{r['kernel']:14} {r['params']['tile']:>4} {r['ms_median']:>10.3f} {r['ms_min']:>9.3f} "
              f"{r['gflops']:>9.1f} {r['max_abs_err']:>9.2e}")
    dev = d["device"] + " (cc " + d["compute_capability"] + ")"
print("device:", dev)
PY
  echo "== ptxas / SASS"
  cat "$out/sass.txt"
} >>"$out/summary.txt" 2>&1
cat "$out/summary.txt"
