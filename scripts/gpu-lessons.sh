#!/usr/bin/env bash
# The lessons' GPU runs (convolution, dropped barriers, occupancy), after
# scripts/gpu-check.sh has built $build:
#  - convolution: bench of the basic, tiled and tiled-cache kernels at 2^24 (1D) and
#    8192x8192 (2D), masks 5 and 9;
#  - dropped barriers: compute-sanitizer racecheck on each tiled kernel with each barrier
#    dropped and with none, beside the simulator's racecheck-style report of the same
#    configuration, and how many of 100 GPU runs gave a wrong P;
#  - occupancy: tools/occupancy_compare against cudaOccupancyMaxActiveBlocksPerMultiprocessor.
# Logs go under $OUT (default out/gpu-lessons); a summary is printed last.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu-lessons}
build=${TILESCOPE_BUILD_DIR:-$root/build}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
cli=$build/bin/tilescope-cli
ninja -C "$build" -j "$(nproc)" occupancy_compare >"$out/build-tools.log" 2>&1 || echo "occupancy_compare did not build (see build-tools.log)"

{
  for m in 5 9; do
    timeout 300 "$cli" bench --kernel conv1d-basic,conv1d-tiled,conv1d-tiled-cache --width 16777216 --tile 256 --mask-width $m
    timeout 300 "$cli" bench --kernel conv2d-basic,conv2d-tiled --height 8192 --width 8192 --tile 16 --mask-width $m
  done
} >"$out/conv-bench.txt" 2>&1

# kernel|size options|barriers it has
cases=(
  "matmul-tiled|--width 64 --tile 16|after-load after-compute"
  "conv1d-tiled|--width 1024 --tile 64 --mask-width 5|after-load"
  "conv1d-tiled-cache|--width 1024 --tile 64 --mask-width 5|after-load"
  "conv2d-tiled|--height 64 --width 64 --tile 8 --mask-width 5|after-load"
)
: >"$out/racecheck.txt"
for c in "${cases[@]}"; do
  IFS='|' read -r kernel size barriers <<<"$c"
  for drop in none $barriers; do
    flag=()
    [ "$drop" != none ] && flag=(--drop-barrier "$drop")
    {
      echo "=================== $kernel $size, dropped: $drop"
      echo "--- simulator (tilescope-cli simulate --hazard-report)"
      "$cli" simulate --kernel "$kernel" $size "${flag[@]}" --hazard-report | grep -E "hazard" 
      echo "--- compute-sanitizer --tool racecheck (one GPU run)"
      timeout 300 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 12 \
        "$cli" gpu-run --kernel "$kernel" $size "${flag[@]}" --runs 1 2>&1 |
        grep -E "Race reported|Write Thread|Read Thread|at .*\.cuh:|RACECHECK SUMMARY|hazard|runs gave" | head -40
      echo "--- 100 plain GPU runs"
      timeout 120 "$cli" gpu-run --kernel "$kernel" $size "${flag[@]}" --runs 100
    } >>"$out/racecheck.txt" 2>&1
  done
done

timeout 300 "$build/bin/occupancy_compare" >"$out/occupancy_compare.txt" 2>&1
echo "occupancy_compare exit $?" >>"$out/occupancy_compare.txt"

echo "== conv bench"; grep -vE "^device" "$out/conv-bench.txt" | cut -c1-160
echo "== racecheck (summaries)"; grep -E "^=====|RACECHECK SUMMARY|runs gave|^(RAW|WAR|WAW) hazard|hazards:" "$out/racecheck.txt" | cut -c1-200
echo "== occupancy"; tail -4 "$out/occupancy_compare.txt"
