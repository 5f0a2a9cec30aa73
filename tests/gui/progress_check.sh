#!/bin/sh
# gui.progress_bar_while_simulating: a long simulation (1024^3, TILE_WIDTH 32) shows its
# progress while it runs. --screenshot-while-simulating takes the picture a second in;
# --print-text gives the text the window shows then, which must hold the progress window:
# what runs, a bar part done (between 1% and 99%: a bar at 0% or 100% shows no progress), the
# time left or the time so far, and a Cancel button.
#   progress_check.sh TILESCOPE SCENARIO.toml OUT.png
set -u
text=$(LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x1024x24" "$1" --scenario "$2" --yes --screenshot "$3" \
       --screenshot-while-simulating --print-text 2>&1)
status=$?
printf '%s\n' "$text"
[ "$status" -eq 0 ] || { echo "FAIL: the app ended with status $status"; exit 1; }
[ -s "$3" ] || { echo "FAIL: no picture $3"; exit 1; }
bar=$(printf '%s\n' "$text" | grep -Eo '(^|[^0-9])([1-9]|[1-9][0-9])%, (about .* left|almost done|.* to .* left)' | head -n 1)
[ -n "$bar" ] || { echo "FAIL: no progress bar between 1% and 99% with the time left in the window's text"; exit 1; }
printf '%s\n' "$text" | grep -q 'Cancel' || { echo "FAIL: no Cancel button beside the progress bar"; exit 1; }
echo "PASS: the window shows the progress bar:$bar, and Cancel"
