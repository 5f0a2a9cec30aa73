#!/bin/sh
# No identifier split across rows in the Code panel (issue 37 part 6), for every lecture preset:
#   code_split_check.sh TILESCOPE WxH OUT_DIR
# Each preset is opened at WxH as the app opens it, and where that leaves the Code panel
# folded or closed, again with the Code panel and its picture (--view ...&panels=...). The
# Code panel's rows (--print-code: "code-row LINE|TEXT", a wrapped row keeping the spaces its
# break skipped) must never end in a letter, digit, '_' or '.' with the next row of the same
# line starting with one: that is a name (or number) cut in two. A preset whose listing is
# not drawn at all fails too. Screenshots of each view are kept in OUT_DIR.
set -u
app=$1 size=$2 out=$3
mkdir -p "$out" || exit 1
presets=$("$app" --list-scenarios | sed -n 's|^\([a-z0-9][a-z0-9.-]*\)  .*|\1|p')
[ -n "$presets" ] || { echo "FAIL: --list-scenarios listed no presets"; "$app" --list-scenarios; exit 1; }
fail=0 count=0
for p in $presets; do
    rows=$("$app" --scenario "$p" --window "$size" --print-code --screenshot "$out/$p.png" 2>&1 | grep '^code-row ')
    if [ -z "$rows" ]; then
        picture=matrices
        case "$p" in conv*) picture=convolution ;; esac
        rows=$("$app" --view "preset=$p&panels=$picture,code" --window "$size" --print-code \
               --screenshot "$out/$p-code.png" 2>&1 | grep '^code-row ')
    fi
    if [ -z "$rows" ]; then echo "FAIL: $p: the Code panel drew no listing"; fail=1; continue; fi
    count=$((count + 1))
    split=$(printf '%s\n' "$rows" | awk -F'|' '
        { n = substr($1, 10); t = substr($0, length($1) + 2) }
        n == pn && pt ~ /[A-Za-z0-9_.]$/ && t ~ /^[A-Za-z0-9_.]/ { print "line " n ": \"" pt "\" / \"" t "\"" }
        { pn = n; pt = t }')
    if [ -n "$split" ]; then echo "FAIL: $p: a name split across rows in the Code panel:"; printf '%s\n' "$split"; fail=1; fi
done
[ "$fail" -eq 0 ] && echo "PASS: no name split in the Code panel of $count presets at $size"
exit $fail
