#!/bin/sh
# One wrong student kernel of tests/student/wrong/ in the app (gui.student_wrong.*):
#   student_wrong_check.sh TILESCOPE GOOD.cu WRONG.cu OUT_DIR
# The app opens a good kernel (GOOD.cu, copied under WRONG.cu's file name into a scratch
# folder) on the problem of WRONG.cu's `// run:` line, and once it is shown the wrong
# kernel's text is saved over it (--reload-from), as a student's editor would. The app must
# end normally (status 0: no crash, no hang; the time limit of an endless loop is the
# guarded child process's) and say the `// expect:` line's diagnosis, with its line, in the
# caption, the notice or the Code panel's diagnosis (--print-caption prints all three).
# A screenshot of what the student sees is kept in OUT_DIR.
set -u
app=$1 good=$2 wrong=$3 out=$4
name=$(basename "$wrong" .cu)
scratch="$out/$name"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
cp "$good" "$scratch/$name.cu" || exit 1
run=$(sed -n 's|^// run: *||p' "$wrong" | head -n 1)
expect=$(sed -n 's|^// expect: *||p' "$wrong" | head -n 1)
[ -n "$expect" ] || { echo "$wrong has no // expect: line"; exit 1; }
# The app's options from the CLI's run line: --width, --tile and --schedule.
set --
prev=""
for a in $run; do
    case "$prev" in --width|--tile|--schedule) set -- "$@" "$prev" "$a" ;; esac
    prev=$a
done
output=$(timeout 240 "$app" --kernel-file "$scratch/$name.cu" "$@" --reload-from "$wrong" --window 1600x900 \
         --step 4 --print-caption --screenshot "$out/$name.png" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then echo "FAIL: the app ended with status $status (124: it hung)"; exit 1; fi
# The CLI's wording of a P that differs from the reference, in the app's words; a sentence
# the app starts with a capital letter.
case "$expect" in
    *"P vs reference"*DIFFERS*) expect="P differs from the CPU reference" ;;
esac
tail=${expect#?}
if printf '%s\n' "$output" | grep -qiF -- "$expect" && printf '%s\n' "$output" | grep -qF -- "$tail"; then
    echo "PASS: the app says '$expect'"
    exit 0
fi
echo "FAIL: the app does not say '$expect'"
exit 1
