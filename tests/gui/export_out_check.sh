#!/bin/sh
# --export-steps --out: a folder that does not exist is made, with its parents, and said; every
# file written is named on stdout (one line each, or first and last of a long run); an export
# that would overwrite a file of an earlier one is refused with status 2, naming that file and
# rewriting nothing, unless --force; a file where the folder should be is refused.
# Usage: export_out_check.sh TILESCOPE OUT_DIR   (under xvfb-run)
set -u
tilescope=$1 out=$2
rm -rf "$out"
mkdir -p "$out"
export LIBGL_ALWAYS_SOFTWARE=1
fail() { echo "export_out_check: $*"; echo "--- stdout:"; cat "$out/stdout"; echo "--- stderr:"; cat "$out/stderr"; exit 1; }
run() {   # run ARGS...: the app's stdout, stderr and exit status into $out
  "$tilescope" "$@" > "$out/stdout" 2> "$out/stderr"
  echo $? > "$out/status"
}
status_is() { [ "$(cat "$out/status")" = "$1" ] || fail "exit status $(cat "$out/status"), expected $1"; }
stdout_is() { [ "$(cat "$out/stdout")" = "$1" ] || fail "stdout is not: $1"; }
mtime() { stat -c %Y "$1"; }

# A folder two levels below one that exists: made, and each file named.
dir="$out/new/deeper"
run --export-steps 3..4 --out "$dir" --window 800x500
status_is 0
stdout_is "created folder $dir
wrote $dir/step-0003.png
wrote $dir/step-0004.png"
[ -s "$dir/step-0003.png" ] && [ -s "$dir/step-0004.png" ] || fail "step-0003.png and step-0004.png not written"

# Again over step 4: refused, naming it; step 4 untouched, step 5 not written.
touch -d 2001-01-01 "$dir/step-0003.png" "$dir/step-0004.png"
old=$(mtime "$dir/step-0004.png")
run --export-steps 4..5 --out "$dir" --window 800x500
status_is 2
stdout_is ""
grep -qF "would overwrite $dir/step-0004.png" "$out/stderr" || fail "the file in the way is not named"
grep -qF -- "--force" "$out/stderr" || fail "--force is not mentioned"
[ "$(wc -l < "$out/stderr")" = 1 ] || fail "more than one line on stderr"
[ "$(mtime "$dir/step-0004.png")" = "$old" ] || fail "step-0004.png was rewritten"
[ ! -e "$dir/step-0005.png" ] || fail "step-0005.png was written"

# With --force: written again, and said.
run --export-steps 4..5 --out "$dir" --window 800x500 --force
status_is 0
stdout_is "wrote $dir/step-0004.png
wrote $dir/step-0005.png"
[ "$(mtime "$dir/step-0004.png")" != "$old" ] || fail "--force did not rewrite step-0004.png"

# The GIF is one file beside the PNGs; a second GIF export over it is refused.
run --export-steps 3..4 --out "$dir" --window 800x500 --format gif
status_is 0
stdout_is "wrote $dir/steps-3-4.gif"
run --export-steps 3..4 --out "$dir" --window 800x500 --format gif
status_is 2
grep -qF "would overwrite $dir/steps-3-4.gif" "$out/stderr" || fail "the GIF in the way is not named"

# A long run: the count, the first and the last file.
run --export-steps 0..12 --out "$out/svg" --window 800x500 --format svg
status_is 0
stdout_is "created folder $out/svg
wrote 13 files, one per step: $out/svg/step-0000.svg to $out/svg/step-0012.svg"
[ "$(ls "$out/svg" | grep -c '^step-00[01][0-9]\.svg$')" = 13 ] || fail "not 13 SVG files"

# A file where the folder should be; --force without --export-steps.
run --export-steps 0..0 --out "$dir/step-0003.png"
status_is 2
grep -qF "is a file, not a folder" "$out/stderr" || fail "a file given as --out is not refused as one"
run --force
status_is 2
echo "export_out_check: all passed"
