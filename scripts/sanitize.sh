#!/usr/bin/env bash
# Builds TileScope with AddressSanitizer and UndefinedBehaviorSanitizer and runs the unit,
# CLI and GUI tests (ctest -L 'unit|cli|gui'; the GUI ones under their own Xvfb, as in a
# normal run). Any sanitizer report stops the program that made it, so its test fails.
#
#   bash scripts/sanitize.sh [BUILD_DIR]      # default: $TILESCOPE_BUILD_DIR, else build-asan
#
# CXX=clang++ picks clang (default: the system's c++, gcc on Debian). CUDA is off: the GPU
# path is not sanitized (compute-sanitizer covers it, scripts/gpu-check.sh). The simulator's
# fiber switches are annotated for ASan (sim/engine/machine.cpp), so its stack checks stay on.
# TILESCOPE_JOBS sets the build's parallel jobs (default: nproc); TILESCOPE_SANITIZE_TESTS
# a ctest label regex other than 'unit|cli|gui'. The GUI tests run several times slower
# than in a Release build: TILESCOPE_TEST_TIMEOUT_FACTOR (here 4) scales their time limits.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${TILESCOPE_BUILD_DIR:-$root/build-asan}}
labels=${TILESCOPE_SANITIZE_TESTS:-unit|cli|gui}
bash "$root/scripts/install-deps.sh"

flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTILESCOPE_CUDA=OFF -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_TEST_TIMEOUT_FACTOR=4 \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build "$build" --parallel "${TILESCOPE_JOBS:-$(nproc)}"

# halt_on_error: the first report ends the program (exit status 1 for ASan, abort for
# UBSan). detect_leaks stays on; tests/sanitizers/lsan.supp names the leaks of system
# libraries that are not ours to fix, each with its reason.
asan=halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:print_stacktrace=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
start=$(date +%s)
status=0
# The GUI tests draw with Mesa, whose driver has no frame pointers: ASan's fast unwinder
# stops inside it and a leak there shows only as "calloc" with no caller, which no
# suppression can name. They run with the full (DWARF) unwinder instead, and with Mesa's
# softpipe rasterizer: llvmpipe compiles shaders with LLVM, whose thousands of allocations
# make the full unwinder take minutes per frame.
gui_labels=$(printf '%s' "$labels" | tr '|' '\n' | grep -x gui || true)
rest=$(printf '%s' "$labels" | tr '|' '\n' | grep -vx gui | paste -sd'|' || true)
if [ -n "$rest" ]; then
  (cd "$build" && ASAN_OPTIONS=$asan ctest --output-on-failure -L "$rest") || status=$?
fi
if [ -n "$gui_labels" ]; then
  (cd "$build" && ASAN_OPTIONS=$asan:fast_unwind_on_malloc=0 GALLIUM_DRIVER=softpipe \
     ctest --output-on-failure -L gui) || status=$?
fi
echo "sanitize.sh: ctest -L '$labels' under ASan+UBSan took $(($(date +%s) - start)) s, exit status $status"
exit $status
