#!/usr/bin/env bash
# README command 2 (and CI's): set up, build, and run every test but the GPU ones (CTest
# label gpu; run those with `ctest -L gpu` on a machine with a CUDA device) and the gaps
# recorded but not yet closed (label known; `ctest -L known` runs them), and the libFuzzer
# runs, which build a clang tree of their own (label fuzz-long; `ctest -L fuzz-long` or
# scripts/fuzz.sh runs them; the label fuzz, which is run, replays their corpora in this
# build). The GUI tests start their own Xvfb server, so no display is needed. Tests run as
# many at a time as there are cores (TILESCOPE_JOBS to change it): xvfb-run -a tries the
# next display when two GUI tests start at once.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh"
echo "test.sh: set-up and build took $SECONDS s"
cd "$build"
ctest --output-on-failure --label-exclude 'gpu|known|fuzz-long' --parallel "${TILESCOPE_JOBS:-$(nproc)}"
