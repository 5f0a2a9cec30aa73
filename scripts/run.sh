#!/usr/bin/env bash
# README command 1: set up, build, and open the app on the default scenario (4x4,
# TILE_WIDTH 2). Arguments go to the app, e.g. --scenario boundary-3x3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh"
exec "$build/bin/tilescope" "$@"
