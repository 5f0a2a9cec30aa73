#!/usr/bin/env bash
# Parallel simulation benchmark: a WIDTH^3 matmul-tiled product (default 1024^3, TILE_WIDTH
# 32) with every counter on (trace of block (0, 0), hazard detector, warp memory model),
# simulated on one thread and on every core (sim::SimOptions::threads 1 and 0). Prints the
# machine's core count and load, then bench/parallel_sim_bench.cpp's lines: simulate() as a
# whole and the grid alone (sim::runGrid), each with both wall times, the CPU time of all
# threads, the ratio and whether both runs gave the same results, and the parts of
# simulate() around the grid (inputs and CPU reference; trace grouping, on one thread).
#
#   bash scripts/bench-parallel.sh [BUILD_DIR [WIDTH [TILE [RUNS [THREADS]]]]]
#        (defaults: build/, 1024, 32, 1, 0 = one per core)
#
# Builds tilescope-parallel-bench first when BUILD_DIR lacks it (configuring BUILD_DIR with
# TILESCOPE_BUILD_BENCH=ON, Release, no app, no CUDA when it is a new folder). On the GPU
# machine (no -dev packages) bring .deps/ from scripts/device-deps.sh: it is used when present.
# Run it on a quiet machine: the load average before and after is printed to judge that.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${TILESCOPE_BUILD_DIR:-$root/build}}
width=${2:-1024}
tile=${3:-32}
runs=${4:-1}
threads=${5:-0}
bench=$build/bin/tilescope-parallel-bench

if [ ! -x "$bench" ]; then
  deps=()
  [ -d "$root/.deps" ] && deps=(-DTILESCOPE_DEPS_PREFIX="$root/.deps")
  if [ -f "$build/CMakeCache.txt" ]; then
    cmake "${deps[@]}" -DTILESCOPE_BUILD_BENCH=ON "$build" >/dev/null
  else
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${deps[@]}" \
      -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_TESTS=OFF -DTILESCOPE_BUILD_BENCH=ON -DTILESCOPE_CUDA=OFF >/dev/null
  fi
  cmake --build "$build" --target tilescope-parallel-bench -j "$(nproc)"
fi

model=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
echo "machine: $(nproc) cores online to this process (nproc)${model:+, $model}"
echo "uptime: $(uptime)"
"$bench" "$width" "$tile" "$runs" "$threads"
