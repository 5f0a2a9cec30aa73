#!/bin/sh
# The view link against the options it stands for (docs/view-links.md): tilescope --view
# 'preset=tiled-4x4&step=6' draws the same picture as --scenario tiled-4x4 --step 6 (and not
# that of step 5, the negative control); a link with block, thread, panels and theme prints
# itself back with --print-view, and the link printed opens the same picture again.
# Usage: view_link_check.sh TILESCOPE PNG_COMPARE OUT_DIR   (under xvfb-run)
set -eu
tilescope=$1 compare=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
export LIBGL_ALWAYS_SOFTWARE=1
shot() {   # shot NAME ARGS...: a 1280x720 screenshot, the view link printed into NAME.view
  name=$1
  shift
  "$tilescope" --window 1280x720 --print-view --screenshot "$out/$name.png" "$@" > "$out/$name.view"
  echo "$name: $(cat "$out/$name.view")"
}
shot link --view 'preset=tiled-4x4&step=6'
shot options --scenario tiled-4x4 --step 6
shot step5 --scenario tiled-4x4 --step 5
[ "$(cat "$out/link.view")" = "preset=tiled-4x4&step=6" ] || { echo "view_link_check: --view printed another link"; exit 1; }
[ "$(cat "$out/options.view")" = "preset=tiled-4x4&step=6" ] || { echo "view_link_check: the options printed another link"; exit 1; }
strict="--max-mean 0.5 --min-close 0.999"
echo "--view vs --scenario/--step:"; "$compare" "$out/link.png" "$out/options.png" $strict
echo "--view step 6 vs step 5 (must differ):"; "$compare" "$out/link.png" "$out/step5.png" $strict --expect-different
# Everything a link carries, spelled messily: printed back canonical, and that opens the same view.
shot rich --view 'theme=light&panels=shared-memory%2Cmatrices,code&thread=1,01&block=1,0&step=9&preset=tiled-4x4'
want='preset=tiled-4x4&step=9&block=1,0&thread=1,1&panels=matrices,code,shared-memory&theme=light'
[ "$(cat "$out/rich.view")" = "$want" ] || { echo "view_link_check: printed '$(cat "$out/rich.view")', not '$want'"; exit 1; }
shot again --view "$(cat "$out/rich.view")"
[ "$(cat "$out/again.view")" = "$want" ] || { echo "view_link_check: the printed link did not open itself"; exit 1; }
echo "printed link vs the link it came from:"; "$compare" "$out/rich.png" "$out/again.png" $strict
echo "rich view vs the plain step 6 (must differ):"; "$compare" "$out/rich.png" "$out/link.png" $strict --expect-different
echo "view_link_check passed"
