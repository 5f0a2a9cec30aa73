#!/usr/bin/env bash
# Proves the web tests' passing path before there is a web build (docs/web-tests.md): makes a
# stand-in web build in OUT_DIR whose page (tests/web/fixture_pictures/index.html) shows the
# desktop app's own screenshots through WebGL2 and whose Node CLI runs the native CLI, then runs
# scripts/web-test.sh on it. Every web test must pass: the pictures are the desktop's, so the
# screens match exactly and the negative controls still differ; the link's steps follow the
# keys; the JSON is the native CLI's. The shots below are those the web tests ask for
# (WEB_SCREENS in tests/web/CMakeLists.txt, their negative controls, the link test's steps 2-4).
# Usage: bash tests/web/prove_on_pictures.sh OUT_DIR    (after building tilescope, tilescope-cli)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${TILESCOPE_BUILD_DIR:-$root/build}/bin
out=$(mkdir -p "$1" && cd "$1" && pwd)
rm -rf "$out/site" "$out/bin"
mkdir -p "$out/site/shots" "$out/bin" "$out/config"
cp "$root/tests/web/fixture_pictures/index.html" "$out/site/"
cat > "$out/bin/tilescope-cli.js" <<EOF
// Stand-in for the web build's Node CLI (prove_on_pictures.sh): the native CLI, same arguments.
const r = require("child_process").spawnSync("$bin/tilescope-cli", process.argv.slice(2), {stdio: "inherit"});
process.exit(r.status === null ? 1 : r.status);
EOF
shot() {   # PRESET STEP [KEYS]: shots/PRESET-STEP[-KEYS].png from the desktop app
  name="$1-$2${3:+-$3}"
  XDG_CONFIG_HOME="$out/config" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$bin/tilescope" --scenario "$1" --step "$2" --window 1280x720 ${3:+--keys "$3"} \
    --screenshot "$out/site/shots/$name.png"
}
t0=$(date +%s)
for s in 2 3 4 5 6 7; do shot tiled-4x4 $s; done
shot tiled-4x4 5 p,right
for s in 5 6; do shot boundary-3x3 $s; done
for s in 0 1; do shot conv2d-tiled-tile8-mask5 $s; done
for s in 1 2; do shot nds-transposed-64-tile16 $s; done
for s in 1 2; do shot occupancy-seed004 $s; done
echo "prove_on_pictures.sh: $(ls "$out/site/shots" | wc -l) desktop shots in $(( $(date +%s) - t0 )) s"
TILESCOPE_WEB_DIR="$out" bash "$root/scripts/web-test.sh"
