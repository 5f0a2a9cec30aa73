#!/usr/bin/env bash
# slides_check: reads what `tilescope --print-layout` says of one view (layout.hpp's
# layoutReport and textReport: where each panel is, the smallest font each role of a slide was
# drawn in with the drawn height of its capital H, the Roofline's plot box) and checks it
# against the sizes a lecture hall needs (issue 37).
#
#   slides_check.sh TILESCOPE XVFB_RUN OUTDIR NAME [CHECK...] -- [tilescope arguments]
#
# CHECKs (each optional):
#   caption=PX        the caption bar's capitals at least PX pixels high
#   code=PX           the Code panel's source listing drawn, its capitals at least PX
#   values=PX         every value in a cell of Matrices or Convolution at least PX (where drawn)
#   values-shown      and some value drawn there
#   unfolded=A,B      panels A and B shown and not folded
#   plot=PX           the Roofline's plot at least PX pixels high
# Prints "slides_check: NAME passed" or a line for each failure and "slides_check: NAME FAILED".
set -u
tilescope=$1 xvfb=$2 outdir=$3 name=$4
shift 4
checks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do checks+=("$1"); shift; done
[ $# -gt 0 ] && shift
mkdir -p "$outdir"
out=$("$xvfb" -a -s "-screen 0 1920x1080x24" "$tilescope" --screenshot "$outdir/$name.png" --print-layout "$@" 2>"$outdir/$name.err")
rc=$?
echo "$out"
fail=0
bad() { echo "slides_check: $name: $*"; fail=1; }
[ $rc -eq 0 ] || bad "tilescope exited with $rc: $(head -c 400 "$outdir/$name.err")"
# The capital's height on a role's line: "text ROLE PANEL SIZE px cap CAP px in N texts".
cap() { echo "$out" | awk -v r="$1" -v p="$2" '$1 == "text" && $2 == r && $3 == p { print ($4 == "none" ? "none" : $7) }'; }
values_shown=0
for c in "${checks[@]}"; do
  key=${c%%=*} val=${c#*=}
  case $key in
    caption|code)
      panel=$([ "$key" = caption ] && echo caption-bar || echo code)
      got=$(cap "$key" "$panel")
      if [ -z "$got" ] || [ "$got" = none ]; then bad "no $key text drawn (the $panel's line: '${got:-missing}')"
      elif [ "$got" -lt "$val" ]; then bad "$key capitals $got px, the least is $val px"; fi ;;
    values)
      for panel in matrices convolution; do
        got=$(cap values "$panel")
        [ -z "$got" ] || [ "$got" = none ] && continue
        values_shown=1
        [ "$got" -lt "$val" ] && bad "values in $panel have capitals of $got px, the least is $val px"
      done ;;
    values-shown) ;;
    unfolded)
      for panel in ${val//,/ }; do
        line=$(echo "$out" | awk -v p="$panel" '$1 == p && NF >= 5')
        if [ -z "$line" ]; then bad "$panel is not shown"
        elif [[ $line == *folded ]]; then bad "$panel is folded: $line"; fi
      done ;;
    plot)
      got=$(echo "$out" | awk '$1 == "plot" && $2 == "roofline" { print $5 }')
      if [ -z "$got" ]; then bad "the Roofline drew no plot"
      elif [ "$got" -lt "$val" ]; then bad "the Roofline's plot is $got px high, the least is $val px"; fi ;;
    *) bad "unknown check '$c'" ;;
  esac
done
for c in "${checks[@]}"; do
  [ "$c" = values-shown ] && [ $values_shown -eq 0 ] && bad "no value drawn in Matrices or Convolution"
done
if [ $fail -eq 0 ]; then echo "slides_check: $name passed"; else echo "slides_check: $name FAILED"; fi
