#!/bin/sh
# Hostile kernel files in the app (gui.student_hostile, issue 36):
#   student_hostile_check.sh TILESCOPE PNG_CHECK GOOD.cu OUT_DIR HOSTILE.cu...
# The app first opens GOOD.cu alone at step 4: its caption is the view a student has on
# screen. Then, for each HOSTILE.cu in turn, the app opens a fresh copy of GOOD.cu and, once
# that run is shown, the hostile text is saved over it (--reload-from), as a student's editor
# (or a classmate's file) would. For each, the app must:
#   - end normally (status 0 within the time limit: it kept drawing and answering; no crash,
#     no hang, whatever the child that builds and runs the file did);
#   - still show the good run, unchanged: the same caption line as GOOD.cu alone (kernel,
#     step, label and narration) and no diagnosis of it, unless the file's run ended in a
#     fault the simulator names (a loop stopped by its read budget), whose diagnosis must
#     name the file's `// expect-line:`;
#   - say why the new text was not shown, with the hostile file's `// expect-line:` (as
#     k.cu:N: or "line N") or its `// expect-limit:` word, in what --print-caption prints (the
#     caption, the notice, the Code panel's diagnosis) or on its error output;
#   - not create the marker the file tries to create, leave a canary folder as it was, and
#     put no text of a secret file (random letters, at the path the file names) in its output.
# As in tests/student/hostile_test.cpp, the prefix /tmp/tilescope-hostile- of the paths the
# file names is replaced by the run's own folder. A screenshot of each is kept in OUT_DIR
# (OUT_DIR/NAME/view.png): the refusal in the Code panel, the good run beside it.
set -u
app=$1 pngCheck=$2 good=$3 out=$4
shift 4
rm -rf "$out" && mkdir -p "$out/home" || exit 1
out=$(cd "$out" && pwd)
# The app's settings and caches stay in the test's folder.
export HOME="$out/home" XDG_CONFIG_HOME="$out/home/.config" XDG_CACHE_HOME="$out/home/.cache"

mkdir -p "$out/base" && cp "$good" "$out/base/k.cu" || exit 1
base=$(timeout 240 "$app" --kernel-file "$out/base/k.cu" --window 1600x900 --step 4 --print-caption \
       --screenshot "$out/base/view.png" 2>&1)
rc=$?
printf '%s\n' "$base"
[ "$rc" -eq 0 ] || { echo "FAIL: the good kernel alone ended the app with status $rc"; exit 1; }
caption=$(printf '%s\n' "$base" | grep -m 1 '^your kernel ')
case "$caption" in
    "your kernel "*" | step 4 of "*) ;;
    *) echo "FAIL: no caption of the good kernel at step 4"; exit 1 ;;
esac

passed=0 total=0
for hostile in "$@"; do
    total=$((total + 1))
    name=$(basename "$hostile" .cu)
    dir="$out/$name"
    ok=1
    fail() { echo "FAIL: $name: $*"; ok=0; }
    mkdir -p "$dir/canary/sub" || exit 1
    printf 'this file must stay as it is\n' > "$dir/canary/keep.txt"
    printf 'and so must this one\n' > "$dir/canary/sub/also.txt"
    canary=$(cd "$dir/canary" && find . -type f -exec cat {} + | cksum; find . | sort)
    secret=$(head -c 65536 /dev/urandom | tr -dc 'a-z' | head -c 48)
    printf '%s\n' "$secret" > "$dir/secret.txt"
    sed "s|/tmp/tilescope-hostile-|$dir/|g" "$hostile" > "$dir/hostile.cu" || exit 1
    cp "$good" "$dir/k.cu" || exit 1
    lines=$(sed -n 's|^// expect-line: *||p' "$hostile" | head -n 1)
    limits=$(sed -n 's|^// expect-limit: *||p' "$hostile" | head -n 1)
    echo "== $name: $(sed -n 's|^// hostile: *||p' "$hostile" | head -n 1)"
    output=$(timeout 240 "$app" --kernel-file "$dir/k.cu" --reload-from "$dir/hostile.cu" --window 1600x900 \
             --step 4 --print-caption --screenshot "$dir/view.png" 2>&1)
    rc=$?
    printf '%s\n' "$output" | cut -c 1-400
    [ "$rc" -eq 0 ] || fail "the app ended with status $rc (124: it hung; 1 or more: it gave up on the good run)"
    now=$(printf '%s\n' "$output" | grep -m 1 '^your kernel ')
    [ "$now" = "$caption" ] || fail "the view changed: the caption is '$now', it was '$caption'"
    # A file whose run ends in a fault of its own (a loop the simulator stops by its read
    # budget) is shown with that fault, as any fault is: then the diagnosis must name the
    # file's expect-line. Anything else must leave the good run without a diagnosis.
    if printf '%s\n' "$output" | grep -q '^diagnosis:'; then
        if [ -z "$lines" ] || ! printf '%s\n' "$output" | grep -Eq "^diagnosis: .*line $lines([^0-9]|\$)"; then
            fail "the good run shown got a diagnosis"
        fi
    fi
    if [ -n "$lines" ]; then
        printf '%s\n' "$output" | grep -Eq "k\.cu:($lines):|line ($lines)([^0-9]|\$)" ||
            fail "the refusal does not name line $lines of the file"
    fi
    if [ -n "$limits" ]; then
        printf '%s\n' "$output" | grep -Eiq "($limits)" || fail "the output does not say the limit ($limits)"
    fi
    for at in 0 12 24 36; do
        piece=$(printf '%s' "$secret" | cut -c $((at + 1))-$((at + 12)))
        printf '%s\n' "$output" | grep -qF -- "$piece" && { fail "text of the secret file is in the output"; break; }
    done
    [ -e "$dir/marker" ] && fail "the file created its marker $dir/marker"
    [ "$(cd "$dir/canary" && find . -type f -exec cat {} + | cksum; find . | sort)" = "$canary" ] ||
        fail "the canary folder changed"
    "$pngCheck" "$dir/view.png" 1600 900 > /dev/null || fail "the screenshot is missing or blank"
    [ "$ok" -eq 1 ] && passed=$((passed + 1)) && echo "PASS: $name"
done
echo "student_hostile_check: $passed of $total passed"
[ "$passed" -eq "$total" ]
