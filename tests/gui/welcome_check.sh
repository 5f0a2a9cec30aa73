#!/bin/sh
# The welcome window (Help > Getting started, issue 37): with --welcome, --print-layout
# prints its place and one line per lesson; the lessons are every preset of the scenario
# folder, in the order of PMPP's chapters, the first rows inside the window; a click on a
# lesson opens that preset and closes the welcome; F1 opens it; a screenshot without
# --welcome never shows it; a click on a legend's words opens the glossary at their term.
# Usage: welcome_check.sh TILESCOPE SCENARIO_DIR MODE [ARGS...]
#   MODE layout WxH [--presentation] [--theme T]: the layout checks at that size
#   MODE click: click:lesson[0] opens the first lesson (the naive kernel, PMPP ch. 3)
#   MODE f1: the F1 key opens the welcome
#   MODE absent: a plain screenshot has no welcome
#   MODE legend: a click on the Timeline legend's "barrier" opens the glossary at "barrier"
set -u
tilescope=$1 scenarios=$2 mode=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "welcome_check FAIL: $*"; exit 1; }
run() { "$tilescope" --screenshot "$out/shot.png" --print-layout "$@" > "$out/report" 2> "$out/err" || fail "exit status $?: $(cat "$out/err")"; }

case $mode in
layout)
  size=$1
  shift
  run --window "$size" --welcome "$@"
  W=${size%x*} H=${size#*x}
  grep -q '^welcome ' "$out/report" || fail "no welcome line in --print-layout"
  set -- $(grep '^welcome ' "$out/report")
  wx=$2 wy=$3 ww=$4 wh=$5
  [ "$wx" -ge 0 ] && [ "$wy" -ge 0 ] && [ $((wx + ww)) -le "$W" ] && [ $((wy + wh)) -le "$H" ] ||
    fail "the welcome ($wx $wy $ww $wh) leaves the $size window"
  [ $((ww * 2)) -ge "$W" ] && [ $((wh * 2)) -ge "$H" ] || fail "the welcome is under half the window ($ww x $wh)"
  # Every preset once, in chapter order (numbers: 5.10 after 5.4, 10.1 after 7.5).
  grep '^lesson ' "$out/report" | awk '{ print $4 }' | sort > "$out/listed"
  ls "$scenarios" | sed -n 's/\.toml$//p' | sort > "$out/presets"
  cmp -s "$out/listed" "$out/presets" || fail "the lessons are not the presets: $(diff "$out/listed" "$out/presets" | tr '\n' ' ')"
  grep '^lesson ' "$out/report" | awk '{ print $3 }' > "$out/chapters"
  sort -V -c "$out/chapters" 2> /dev/null || fail "lessons out of chapter order: $(tr '\n' ' ' < "$out/chapters")"
  [ "$(head -n 1 "$out/chapters")" = 3.4 ] || fail "the first lesson is not PMPP sec. 3.4's naive kernel"
  # The rows seen: at least two, each inside the welcome.
  visible=$(grep '^lesson ' "$out/report" | grep -vc ' hidden$')
  [ "$visible" -ge 2 ] || fail "only $visible lesson rows visible"
  grep '^lesson ' "$out/report" | grep -v ' hidden$' | while read -r _ i _ name x y w h; do
    [ "$x" -ge "$wx" ] && [ "$y" -ge "$wy" ] && [ $((x + w)) -le $((wx + ww)) ] && [ $((y + h)) -le $((wy + wh)) ] ||
      { echo "welcome_check FAIL: lesson $i ($name) at $x $y $w $h is outside the welcome"; exit 1; }
  done || exit 1
  echo "welcome_check: PASS layout $size $*: $(wc -l < "$out/listed") lessons in chapter order, $visible rows visible"
  ;;
click)
  run --window 1280x720 --welcome --keys 'click:lesson[0]' --print-caption
  grep -q '^welcome ' "$out/report" && fail "the welcome stayed open after a lesson was clicked"
  grep -q 'Naive matrix multiplication, 4x4 with 2x2 blocks' "$out/report" ||
    fail "clicking the first lesson did not open naive-4x4: $(head -n 3 "$out/report" | tr '\n' ' ')"
  echo "welcome_check: PASS click opens naive-4x4"
  ;;
f1)
  run --window 1280x720 --keys f1
  grep -q '^welcome ' "$out/report" || fail "F1 did not open the welcome"
  echo "welcome_check: PASS F1 opens the welcome"
  ;;
absent)
  run --window 1280x720
  grep -q '^welcome ' "$out/report" && fail "a screenshot without --welcome shows the welcome"
  grep -q '^matrices ' "$out/report" || fail "no layout printed"
  echo "welcome_check: PASS no welcome without --welcome"
  ;;
legend)
  # (home first: the legend is drawn from the frame after the simulation arrives.)
  run --window 1280x720 --keys 'home,click:timeline_legend[2]'
  grep -q '^glossary ' "$out/report" || fail "a click on the Timeline legend's third entry opened no glossary"
  grep -q '^glossary .* barrier$' "$out/report" || fail "the glossary opened at another term: $(grep '^glossary ' "$out/report")"
  echo "welcome_check: PASS the Timeline legend's barrier opens the glossary at barrier"
  ;;
*) fail "unknown mode $mode" ;;
esac
