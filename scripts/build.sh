#!/usr/bin/env bash
# Installs what is missing, configures (Release, Ninja) and builds TileScope into build/
# (or $TILESCOPE_BUILD_DIR). The GPU path is built when /usr/local/cuda is there, for every
# architecture of CMakeLists.txt unless TILESCOPE_CUDA_ARCHITECTURES names others (CMake's
# list, e.g. 90-real; CI sets it, as it has no GPU to run them on). It is a cache variable:
# once set, a build folder keeps it until it is set again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
archs=()
[ -n "${TILESCOPE_CUDA_ARCHITECTURES:-}" ] && archs=("-DTILESCOPE_CUDA_ARCHITECTURES=$TILESCOPE_CUDA_ARCHITECTURES")
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${archs[@]}"
cmake --build "$build" --parallel "${TILESCOPE_JOBS:-$(nproc)}"
