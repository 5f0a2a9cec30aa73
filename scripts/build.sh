#!/usr/bin/env bash
# Installs what is missing, configures (Release, Ninja) and builds TileScope into build/
# (or $TILESCOPE_BUILD_DIR). The GPU path is built when /usr/local/cuda is there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --parallel "${TILESCOPE_JOBS:-$(nproc)}"
