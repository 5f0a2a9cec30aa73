#!/usr/bin/env bash
# The layout is a function of the view (docs/design.md, "Panel layout"): for preset P, each of
# STEPS opened directly (--step S) and reached with keys (--keys right,left,...) must place the
# panels alike (tilescope --print-layout), and with --stable every step must place them as
# step 0 does (stepping moves no panel; the report's text and plot lines, which say what was
# drawn inside the panels, are left out of that comparison). Each run starts with an empty
# settings folder.
#   layout_same_check.sh TILESCOPE XVFB_RUN PRESET WINDOW "STEPS" [--stable]
# Prints "layout_same: PRESET passed" or one line per difference with both layouts.
set -u
app=$1 xvfb=$2 preset=$3 window=$4 steps=$5 stable=${6:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
layout() {   # layout OUT ARGS...: the layout printed with a screenshot
  local out=$1; shift
  mkdir -p "$work/config-$out"
  XDG_CONFIG_HOME="$work/config-$out" LIBGL_ALWAYS_SOFTWARE=1 "$xvfb" -a -s "-screen 0 2000x1200x24" \
    "$app" --scenario "$preset" --window "$window" --screenshot "$work/$out.png" --print-layout "$@" \
    > "$work/$out.txt" 2> "$work/$out.err" || { echo "layout_same: FAIL: tilescope $* exited $?: $(cat "$work/$out.err")"; exit 1; }
  [ -s "$work/$out.txt" ] || { echo "layout_same: FAIL: tilescope $* printed no layout"; exit 1; }
}
failed=0
for s in $steps; do
  layout "direct-$s" --step "$s"
  # Reached from the step before it (or after it, at step 0), through a step on either side
  # (a step past the last would stay at the last, so the keys never go beyond s).
  if [ "$s" -gt 0 ]; then layout "keys-$s" --step $((s - 1)) --keys right,left,right
  else layout "keys-$s" --step 1 --keys left,right,left; fi
  if ! cmp -s "$work/direct-$s.txt" "$work/keys-$s.txt"; then
    echo "layout_same: FAIL: $preset step $s opened directly and reached with keys differ:"
    diff "$work/direct-$s.txt" "$work/keys-$s.txt" | sed 's/^/  /'
    failed=1
  fi
  first=$(echo $steps | cut -d' ' -f1)
  grep -v -e '^text ' -e '^plot ' "$work/direct-$s.txt" > "$work/panels-$s.txt"
  if [ -n "$stable" ] && ! cmp -s "$work/panels-$first.txt" "$work/panels-$s.txt"; then
    echo "layout_same: FAIL: $preset step $s places the panels otherwise than step $first:"
    diff "$work/panels-$first.txt" "$work/panels-$s.txt" | sed 's/^/  /'
    failed=1
  fi
done
[ $failed -eq 0 ] && echo "layout_same: $preset passed ($(wc -l < "$work/panels-$first.txt") panels placed alike at steps $steps)"
exit $failed
