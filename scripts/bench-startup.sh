#!/usr/bin/env bash
# Start-up benchmark: how long the CLI and the app take from exec to exit (the app: to its
# first frame, then exit) and how much memory they hold, for commands that do no GPU work.
# Scripts and graders call tilescope-cli thousands of times, so this is its per-call cost.
#
#   bash scripts/bench-startup.sh [BUILD_DIR] [RUNS]     (defaults: build/, 20 runs)
#   TILESCOPE_CLI=/path/to/another/tilescope-cli bash scripts/bench-startup.sh   (compare)
#
# A build with libclang also times `translate` of one kernel file, the first (and only) use
# of the front end, which every other command here must not load.
#
# Prints, per command: median and fastest wall time (ms), the median processor time (user +
# system, ms: steadier than the wall time on a busy machine), peak resident set (MB, the child's
# ru_maxrss) and the exit status. The app runs under Xvfb when there is no display.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${TILESCOPE_BUILD_DIR:-$root/build}}
runs=${2:-20}
bench=$build/bin/tilescope-startup-bench
cli=${TILESCOPE_CLI:-$build/bin/tilescope-cli}
app=${TILESCOPE_APP:-$build/bin/tilescope}
[ -x "$bench" ] || { echo "bench-startup.sh: $bench is not built (cmake --build $build --target tilescope-startup-bench)." >&2; exit 2; }
if [ -z "${DISPLAY:-}" ] && [ -x "$app" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" bash "$0" "$build" "$runs"
fi
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
export XDG_CONFIG_HOME=$config   # the app's remembered layout must not vary between runs
cases=(
  "cli --help" -- "$cli" --help ";;"
  "cli list-kernels" -- "$cli" list-kernels ";;"
  "cli bad argument (exit 2)" -- "$cli" simulate --kernel no-such-kernel --width 4 ";;"
  "cli simulate 16x16 tiled" -- "$cli" simulate --kernel matmul-tiled --width 16 --tile 4 ";;"
  "cli occupancy, sm_90" -- "$cli" occupancy --device sm_90 --block-threads 256 --regs-per-thread 32 --smem-per-block 2048
)
# The first use of libclang's front end, which only a kernel file's commands load
# (frontend/frontend_loader.hpp): a translation alone, no module built.
kernel=$root/tests/student/kernels/matmul_tiled.cu
if "$cli" translate --kernel-file "$kernel" --out "$config/translations" >/dev/null 2>&1; then
  cases+=(";;" "cli translate (loads libclang)" -- "$cli" translate --kernel-file "$kernel" --out "$config/translations")
fi
[ -x "$app" ] && cases+=(";;" "app: first frame, exit" -- "$app" --frames 1 --window 1280x720)
"$bench" "$runs" "${cases[@]}"
