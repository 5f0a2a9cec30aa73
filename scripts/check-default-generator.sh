#!/usr/bin/env bash
# Proves that the project configures and builds with CMake's default generator (Unix
# Makefiles), not only with Ninja, and that `cmake --install` gives an app and a CLI that run
# from the install prefix. CI runs it after the tests; with CUDA it narrows the GPU
# architectures to one (90-real) to stay quick; set TILESCOPE_CUDA_ARCHITECTURES to change it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/install-deps.sh"
# Unoptimised (-O0): what is proved here is the generator and the install, not the code's
# speed, and CI builds the whole app a second time for it (7 min 53 s here at -O0 with the
# CUDA path, beside a test run).
cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0 -DTILESCOPE_BUILD_TESTS=OFF \
      -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_CUDA_ARCHITECTURES="${TILESCOPE_CUDA_ARCHITECTURES:-90-real}"
grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$work/build/CMakeCache.txt"
cmake --build "$work/build" -j"$(nproc)"
cmake --install "$work/build" --prefix "$work/prefix"
# Run from somewhere else, so that nothing is found through the working directory.
cd /
"$work/prefix/bin/tilescope-cli" list-kernels >/dev/null
# With libclang, a kernel file goes through the installed front end, which the CLI opens on
# first use from the prefix's lib/.../tilescope/ (student/frontend_loader.hpp).
if [ -n "$(find "$work/prefix" -name libtilescope-frontend.so)" ]; then
  "$work/prefix/bin/tilescope-cli" translate --kernel-file "$root/tests/student/kernels/matmul_tiled.cu" \
      --out "$work/translations" >/dev/null
fi
env -u TILESCOPE_ASSETS xvfb-run -a "$work/prefix/bin/tilescope" --scenario tiled-4x4 --step 6 \
    --screenshot "$work/installed.png" --print-caption
test -s "$work/installed.png"
echo "default generator (Unix Makefiles): build, install and an installed screenshot of preset tiled-4x4 work"
