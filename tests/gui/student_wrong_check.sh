#!/bin/sh
# One wrong student kernel of tests/student/wrong/ in the app (gui.student_wrong.*):
#   student_wrong_check.sh TILESCOPE GOOD_DIR WRONG.cu OUT_DIR [slide]
# (slide: on a 1920x1080 slide in presentation mode, where the caption says the mistake in
# the narration's place; else at the desk, 1600x900.)
# The app opens a good kernel of the same family (GOOD_DIR/missing_barrier_fixed.cu for a
# matmul, tests/student/kernels' conv1d_tiled.cu or conv2d_tiled.cu for a convolution, with
# the run's tile as its TILE_WIDTH or TILE_SIZE), copied under WRONG.cu's file name into a
# scratch folder, on the problem of WRONG.cu's `// run:` line; once it is shown the wrong
# kernel's text is saved over it (--reload-from), as a student's editor would. The app must
# end normally (status 0: no crash, no hang; the time limit of an endless loop is the
# guarded child process's) and say the `// expect:` line's diagnosis, with its line, in the
# caption, the notice or the Code panel's diagnosis (--print-caption prints all three); a
# kernel whose P is expected right must get no diagnosis. A run the app diagnoses (a fault,
# a race, a wrong P) must show it (issue 37, "the mistake on screen"): the sentence in the
# caption bar (--print-caption's "diagnosis-in-caption: step S line L"), the Code panel open
# and not folded (--print-layout) and scrolled so that line L is in view (--print-code's
# "code-lines FIRST LAST"), and for a race or a read of a never-written slot the Hazards panel
# open and not folded. A screenshot of what the student sees is kept in OUT_DIR.
set -u
app=$1 goodDir=$2 wrong=$3 out=$4 mode=${5:-desk}
name=$(basename "$wrong" .cu)
window="--window 1600x900"
[ "$mode" = slide ] && window="--window 1920x1080 --presentation" && out="$out/slide"
scratch="$out/$name"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
run=$(sed -n 's|^// run: *||p' "$wrong" | head -n 1)
kernels=$(dirname "$0")/../student/kernels
case "$run" in
    *--height*) good=$kernels/conv2d_tiled.cu ;;
    *--mask-width*) good=$kernels/conv1d_tiled.cu ;;
    *) good=$goodDir/missing_barrier_fixed.cu ;;
esac
tile=$(printf '%s\n' "$run" | sed -n 's|.*--tile \([0-9]*\).*|\1|p')
if [ -n "$tile" ]; then
    sed -e "s|^#define TILE_WIDTH .*|#define TILE_WIDTH $tile|" -e "s|^#define TILE_SIZE .*|#define TILE_SIZE $tile|" \
        "$good" > "$scratch/$name.cu" || exit 1
else
    cp "$good" "$scratch/$name.cu" || exit 1
fi
expect=$(sed -n 's|^// expect: *||p' "$wrong" | head -n 1)
[ -n "$expect" ] || { echo "$wrong has no // expect: line"; exit 1; }
# The app's options from the CLI's run line: the sizes, the tile and the schedule.
set --
prev=""
for a in $run; do
    case "$prev" in --width|--j|--k|--l|--height|--mask-width|--tile|--schedule) set -- "$@" "$prev" "$a" ;; esac
    prev=$a
done
output=$(timeout 240 "$app" --kernel-file "$scratch/$name.cu" "$@" --reload-from "$wrong" $window \
         --step 4 --print-caption --print-layout --print-code --screenshot "$out/$name.png" 2>&1)
status=$?
printf '%s\n' "$output" | grep -v '^code-row '
if [ "$status" -ne 0 ]; then echo "FAIL: the app ended with status $status (124: it hung)"; exit 1; fi
# The mistake on screen: wherever the app diagnoses the run, the caption bar says it and the
# panels that explain it are open, the Code panel at its line.
if printf '%s\n' "$output" | grep -q '^diagnosis: '; then
    where=$(printf '%s\n' "$output" | sed -n 's|^diagnosis-in-caption: step \(-*[0-9]*\) line \([0-9]*\)$|\1 \2|p')
    [ -n "$where" ] || { echo "FAIL: the diagnosis is not in the caption bar"; exit 1; }
    line=${where#* }
    panel() { printf '%s\n' "$output" | grep -E "^$1 -?[0-9]+ -?[0-9]+ [0-9]+ [0-9]+( folded)?\$"; }
    code=$(panel code)
    [ -n "$code" ] || { echo "FAIL: the Code panel is not shown"; exit 1; }
    case "$code" in *folded) echo "FAIL: the Code panel is folded: $code"; exit 1 ;; esac
    if printf '%s\n' "$output" | grep -Eq '^diagnosis: (RAW|WAR|WAW) hazard|^diagnosis: Uninitialised read'; then
        hazards=$(panel hazards)
        [ -n "$hazards" ] || { echo "FAIL: the Hazards panel is not shown for a race"; exit 1; }
        case "$hazards" in *folded) echo "FAIL: the Hazards panel is folded: $hazards"; exit 1 ;; esac
    fi
    if [ "$line" -gt 0 ]; then
        seen=$(printf '%s\n' "$output" | sed -n 's|^code-lines \([0-9]*\) \([0-9]*\)$|\1 \2|p')
        [ -n "$seen" ] || { echo "FAIL: the Code panel drew no listing"; exit 1; }
        if [ "$line" -lt "${seen% *}" ] || [ "$line" -gt "${seen#* }" ]; then
            echo "FAIL: line $line of the diagnosis is not in view in the Code panel (lines $seen)"; exit 1
        fi
    fi
    echo "PASS: the diagnosis is in the caption bar, Code (at line $line) and the panels that explain it are open"
fi
# The CLI's wording of a P that differs from the reference, in the app's words; a sentence
# the app starts with a capital letter.
case "$expect" in
    *"P vs reference"*DIFFERS*)
        # A wrong P: the app names what made it wrong with its line (a race, a read of a
        # shared slot no thread wrote), or, as tilescope-cli grade does, the first wrong
        # element: its value against the reference, the thread that stored it, and (where
        # the traced block stored it) the first product that differs from the reference's.
        if printf '%s\n' "$output" | grep -Eq "^diagnosis: (RAW|WAR|WAW) hazard .* at line [0-9]+|^diagnosis: Uninitialised read .* at line [0-9]+"; then
            echo "PASS: the app says why P is wrong"
            exit 0
        fi
        if printf '%s\n' "$output" | grep -Eq "^diagnosis: P\[[0-9]+\](\[[0-9]+\])? (is -?[0-9].* where the reference gives -?[0-9][^;:]*(: line [0-9]+ [^;]*; the reference's term [0-9]+ is [^;]*)?; thread \(tx=[0-9]+(, ty=[0-9]+)?\) of block \([0-9]+, [0-9]+\) stored it at line [0-9]+|was never written)"; then
            echo "PASS: the app names the first wrong element of P as the grader does"
            exit 0
        fi
        echo "FAIL: no diagnosis of the wrong P"
        exit 1 ;;
    *"P vs reference"*bit-identical*)
        # P right (what is wrong is for tilescope-cli grade's checks): nothing wrong to say.
        if printf '%s\n' "$output" | grep -q "^diagnosis:"; then echo "FAIL: a diagnosis for a right P"; exit 1; fi
        echo "PASS: no diagnosis, P right"
        exit 0 ;;
esac
tail=${expect#?}
if printf '%s\n' "$output" | grep -qiF -- "$expect" && printf '%s\n' "$output" | grep -qF -- "$tail"; then
    echo "PASS: the app says '$expect'"
    exit 0
fi
echo "FAIL: the app does not say '$expect'"
exit 1
