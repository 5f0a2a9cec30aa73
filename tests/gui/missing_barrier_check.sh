#!/bin/sh
# A preset that drops a barrier, at the step of its first race (issue 37 parts 1, 6, 7):
#   missing_barrier_check.sh TILESCOPE PRESET KERNEL.cuh NTH WxH [OPTION...]
# Opens PRESET at WxH (with the OPTIONs: --presentation, --theme light) and presses G, which
# must move to the step of the diagnosis the caption bar names ("diagnosis-in-caption: step
# S line L"). Then: Code and Hazards open and not folded (--print-layout); the Code panel in
# CUDA's words (no row with x.syncthreads); and the NTH barrier of KERNEL.cuh, the one the
# preset drops (struck out), shown as __syncthreads(); and in view
# (--print-code's "code-lines FIRST LAST"), with the step's line where both fit.
set -u
app=$1 preset=$2 source=$3 nth=$4 size=$5
shift 5
output=$("$app" --scenario "$preset" --window "$size" "$@" --keys g --print-caption --print-layout --print-code \
         --screenshot /dev/null 2>&1)
status=$?
printf '%s\n' "$output" | grep -v '^code-row '
[ "$status" -eq 0 ] || { echo "FAIL: the app ended with status $status"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
# The picture went into the null device: it must still be one (a rename over it once made it
# a file, and the machine's every later `> /dev/null` wrote into that file).
[ -c /dev/null ] || fail "--screenshot /dev/null replaced the null device with a file"
where=$(printf '%s\n' "$output" | sed -n 's|^diagnosis-in-caption: step \([0-9]*\) line \([0-9]*\)$|\1 \2|p')
[ -n "$where" ] || fail "no diagnosis in the caption bar"
step=${where% *} line=${where#* }
printf '%s\n' "$output" | grep -q "^.* | step $step of " || fail "G did not move to step $step"
for p in code hazards; do
    row=$(printf '%s\n' "$output" | grep -E "^$p -?[0-9]+ -?[0-9]+ [0-9]+ [0-9]+( folded)?\$")
    [ -n "$row" ] || fail "the panel $p is not shown"
    case "$row" in *folded) fail "the panel $p is folded: $row" ;; esac
done
rows=$(printf '%s\n' "$output" | grep '^code-row ')
printf '%s\n' "$rows" | grep -q 'x\.syncthreads' && fail "the Code panel shows x.syncthreads, not CUDA's __syncthreads()"
barrier=$(grep -n 'syncthreads(' "$source" | sed -n "${nth}p" | cut -d: -f1)
[ -n "$barrier" ] || fail "$source has no barrier number $nth"
printf '%s\n' "$rows" | grep -q "^code-row $barrier|__syncthreads();" ||
    fail "the Code panel does not show line $barrier as __syncthreads();"
seen=$(printf '%s\n' "$output" | sed -n 's|^code-lines \([0-9]*\) \([0-9]*\)$|\1 \2|p')
[ -n "$seen" ] || fail "the Code panel drew no listing"
if [ "$barrier" -lt "${seen% *}" ] || [ "$barrier" -gt "${seen#* }" ]; then
    fail "the dropped barrier's line $barrier is not in view in the Code panel (lines $seen)"
fi
echo "PASS: step $step (diagnosis line $line), the dropped barrier's line $barrier in view (lines $seen), Code and Hazards open"
