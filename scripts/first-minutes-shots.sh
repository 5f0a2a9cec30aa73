#!/usr/bin/env bash
# The screenshots of issue 37's "done when" (docs/design.md, "The mistake on screen" and
# "Slides"): eight views, each at the desk (1280x720) and on a slide (1920x1080, presentation
# mode), in both themes: 32 PNGs with, beside each, what --print-caption printed (the caption,
# the diagnosis and whether the caption bar drew it).
#   bash scripts/first-minutes-shots.sh OUT_DIR [BUILD_DIR]
# Each run starts from an empty settings folder (the first-run welcome, no remembered layout).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: first-minutes-shots.sh OUT_DIR [BUILD_DIR]}
app=${2:-$root/build}/bin/tilescope
mkdir -p "$out"
cd "$root"
shot() {
    local name=$1 mode theme size cfg
    shift
    for mode in desk slide; do
        for theme in dark light; do
            if [ "$mode" = desk ]; then size=(--window 1280x720); else size=(--window 1920x1080 --presentation); fi
            cfg=$(mktemp -d)
            XDG_CONFIG_HOME=$cfg LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1920x1080x24" "$app" "${size[@]}" \
                --theme "$theme" "$@" --screenshot "$out/$name-$mode-$theme.png" --print-caption \
                >"$out/$name-$mode-$theme.txt" 2>&1
            rm -rf "$cfg"
        done
    done
}
shot welcome --keys f1
shot race --kernel-file tests/student/wrong/missing_barrier_after_load.cu --width 8 --tile 4
shot wrong-index --kernel-file tests/student/wrong/swapped_mds_index.cu --width 8 --tile 4
shot tiled-4x4-reveal --scenario tiled-4x4 --step 5 --keys "p,right,click:M[0][2],click:M[0][3],click:M[1][2],click:M[0][0],enter"
shot ragged-zero-fill --scenario ragged-100x37x51-tile16 --step 0
shot conv2d --scenario conv2d-tiled-tile8-mask5
shot roofline --results assets/results/ladder-4096-h100.json
shot missing-barrier --scenario missing-barrier-after-load --step 3
echo "first-minutes-shots: $(ls "$out"/*.png | wc -l) screenshots in $out"
