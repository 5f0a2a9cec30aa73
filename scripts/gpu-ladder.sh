#!/usr/bin/env bash
# The optimisation ladder on the GPU (docs/ladder.md), in one go, on a machine with a CUDA
# device (bring .deps/ from scripts/device-deps.sh to the GPU machine): builds tilescope-cli
# (Release, no app), prints the registers and shared memory ptxas gives each rung's
# instances, checks every rung bit for bit against the simulator (`verify`, the rungs'
# lines), runs compute-sanitizer memcheck and racecheck on each rung at a ragged size, and
# times the ladder with cuBLAS (`bench --kernel ladder`) at each width given. Logs under
# $OUT (default out/gpu-ladder); a summary last.
#   scripts/gpu-ladder.sh [WIDTH...]      (default 1024 2048 4096)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-ladder}
build=${TILESCOPE_BUILD_DIR:-$root/build}
arches=${TILESCOPE_CUDA_ARCHITECTURES:-90-real}
widths=("$@")
[ ${#widths[@]} -eq 0 ] && widths=(1024 2048 4096)
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
cli=$build/bin/tilescope-cli
rungs="matmul-coarsened matmul-regtile-1d matmul-regtile-2d matmul-vectorized matmul-double-buffered matmul-conflict-free matmul-tuned matmul-warptiled"

deps=()
[ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${deps[@]}" -DTILESCOPE_BUILD_APP=OFF \
    -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA=ON -DTILESCOPE_CUDA_ARCHITECTURES="$arches" >/dev/null
  ninja -C "$build" tilescope-cli
} >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 2; }

{
  echo "== ptxas (sm_90) of the ladder's kernels: registers, shared memory"
  awk "/Compiling entry function .*Matmul.*for 'sm_90'/ { n = \$0; sub(/.*function '/, \"\", n); sub(/' for.*/, \"\", n); f = n }
       /Used [0-9]+ registers/ && f != \"\" { print f \"\t\" \$0; f = \"\" }" "$out/build.log" | c++filt |
    sed -E 's/ts::gpu::detail::\(anonymous namespace\):://; s/ts::gpu::detail::deviceKernel</</; s/\(ts::sim::MatmulArgs<[^)]*\)//; s/ptxas info +: //' |
    grep -E "Coarsened|Regtile|Vectorized|DoubleBuffered|ConflictFree|Tuned|Warptiled|MatmulTiled,|MatmulNaive," | grep -v Counting
} >"$out/ptxas.txt" 2>&1
cat "$out/ptxas.txt"

"$cli" verify --seed 7 >"$out/verify.log" 2>&1
echo "verify: $(tail -1 "$out/verify.log")"
grep -E "coarsened|regtile|vectorized|double-buffered|conflict-free|tuned|warptiled" "$out/verify.log" | grep -v "pass (" | head
echo "verify lines of the rungs: $(grep -cE "coarsened|regtile|vectorized|double-buffered|conflict-free|tuned|warptiled" "$out/verify.log"), passed: $(grep -E "coarsened|regtile|vectorized|double-buffered|conflict-free|tuned|warptiled" "$out/verify.log" | grep -c "pass (")"

for k in $rungs; do
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$cli" gpu-run --kernel $k --j 197 --k 45 --l 133 --quiet \
      >"$out/sanitizer-$k-$tool.log" 2>&1
    echo "compute-sanitizer $tool $k 197x45x133: exit $? ($(grep -m1 -E "(ERROR|RACECHECK) SUMMARY" "$out/sanitizer-$k-$tool.log"))"
  done
done

for w in "${widths[@]}"; do
  echo "== bench --kernel ladder --width $w"
  "$cli" bench --kernel ladder --width "$w" | tee "$out/bench-$w.txt"
  "$cli" bench --kernel ladder --width "$w" --json >"$out/bench-$w.json"
done
