#!/usr/bin/env bash
# The web build in a real browser (CTest label web; docs/web-tests.md): on a web build made by
# `bash scripts/web.sh` (build-web/site/ and build-web/bin/tilescope-cli.js), configures the
# native build (build/, or $TILESCOPE_BUILD_DIR) with TILESCOPE_WEB_SITE, builds only what the
# tests need (the desktop app, the native CLI, png_compare) and runs `ctest -L web`: canvas
# against desktop for six presets, the simulator's JSON of every registry kernel in Node
# against the native CLI, and a shared link's round trip. Prints the time each part took.
# A test labelled known (a difference recorded, not yet fixed; none today) would be left out:
# `ctest -L known` runs such tests.
#   bash scripts/web-test.sh            # TILESCOPE_WEB_DIR=DIR for another web build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_BUILD_DIR:-$root/build}
web=$(cd "${TILESCOPE_WEB_DIR:-$root/build-web}" 2>/dev/null && pwd) || {
  echo "web-test.sh: there is no web build at ${TILESCOPE_WEB_DIR:-$root/build-web}: make it with 'bash scripts/web.sh'."; exit 1; }
for f in "$web/site/index.html" "$web/bin/tilescope-cli.js"; do
  [ -f "$f" ] || { echo "web-test.sh: $f is missing: make the web build with 'bash scripts/web.sh'."; exit 1; }
done
t0=$(date +%s)
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DTILESCOPE_WEB_SITE="$web/site" > "$build/web-test-configure.log"
else   # no native build yet: configured as scripts/build.sh does, built only for these tests
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_WEB_SITE="$web/site" \
    > "$build/web-test-configure.log"
fi
cmake --build "$build" --parallel "${TILESCOPE_JOBS:-$(nproc)}" --target tilescope tilescope-cli png_compare fiber_faults_native
t1=$(date +%s)
echo "web-test.sh: configured and built the native side in $((t1 - t0)) s"
cd "$build"
status=0
ctest -L web -LE known --no-tests=error --output-on-failure -j "${TILESCOPE_WEB_TEST_JOBS:-1}" || status=$?
t2=$(date +%s)
# What each test measured (first-frame times, differences), whether it passed or not.
for report in "$build"/tests/web/*/report.txt; do
  [ -f "$report" ] && sed -n '1p;/^browser vs\|^stepped page\|^negative/p' "$report"
done
echo "web-test.sh: the web tests took $((t2 - t1)) s (goal: under 300 s on a 2-core CI machine)"
exit $status
