#!/bin/sh
# gui.memory_panel_warp_key: the Memory panel's warp keys, read from the text the window
# shows (--print-text). On memory-tiled-64-tile16.toml (a 16x16 block, 8 warps, thread (0,0)
# selected) the panel opens on warp 0; ] shows warp 1 and ] ] warp 2; [ from warp 0 stays on
# warp 0 or wraps to warp 7 (either is a choice, said here: it must not be warp 1); and the
# warp follows the selected thread: the same scenario with thread (0,2), thread 32, opens on
# warp 1, where [ goes back to warp 0.
#   memory_warp_check.sh TILESCOPE SCENARIO.toml OUT_DIR
set -u
app=$1 scenario=$2 out=$3
mkdir -p "$out" || exit 1
sed 's/^block = \[0, 0\]$/block = [0, 0]\nthread = [0, 2]/' "$scenario" > "$out/thread32.toml" || exit 1
grep -q '^thread = \[0, 2\]$' "$out/thread32.toml" || { echo "FAIL: could not make the thread (0,2) scenario"; exit 1; }
fails=0
# expect NAME SCENARIO WARP [KEYS]: the panel says "warp WARP of 8".
expect() {
    name=$1 file=$2 warp=$3
    shift 3
    text=$(LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x1024x24" "$app" --window 1280x720 --scenario "$file" \
           "$@" --screenshot "$out/$name.png" --print-text 2>&1)
    shown=$(printf '%s\n' "$text" | grep -o 'warp [0-9]* of [0-9]*' | head -n 1)
    if [ "$shown" = "warp $warp of 8" ]; then
        echo "PASS: $name shows '$shown'"
    else
        echo "FAIL: $name shows '${shown:-no warp}', not 'warp $warp of 8'"
        printf '%s\n' "$text" | sed -n '/== Memory ==/,/== /p' | head -n 20
        fails=$((fails + 1))
    fi
}
expect opened "$scenario" 0
expect right "$scenario" 1 --keys ]
expect right2 "$scenario" 2 --keys ],]
expect right_left "$scenario" 0 --keys ],[
expect thread32 "$out/thread32.toml" 1
expect thread32_left "$out/thread32.toml" 0 --keys [
left=$(LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x1024x24" "$app" --window 1280x720 --scenario "$scenario" \
       --keys [ --screenshot "$out/left.png" --print-text 2>&1 | grep -o 'warp [0-9]* of [0-9]*' | head -n 1)
case "$left" in
    "warp 0 of 8"|"warp 7 of 8") echo "PASS: [ on warp 0 shows '$left'" ;;
    *) echo "FAIL: [ on warp 0 shows '${left:-no warp}'"; fails=$((fails + 1)) ;;
esac
[ "$fails" -eq 0 ] || exit 1
echo "memory_warp_check: all passed"
