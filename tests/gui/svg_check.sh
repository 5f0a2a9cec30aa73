#!/bin/sh
# The SVG export against the panel as drawn: exports steps 0..6 of one panel of the default
# scenario as PNG and as SVG, renders SVGs with headless Chromium at the panel's size and
# compares them with png_compare: each SVG must show its own step's picture (SVG of step 6
# vs PNG of step 6, the same for step 0) and not another's (SVG of step 0 vs PNG of step 6,
# the negative control). Also checks the SVG is vector: text as <text>, no raster <image>.
# Usage: svg_check.sh TILESCOPE PNG_COMPARE CHROMIUM OUT_DIR PANEL   (under xvfb-run)
set -eu
tilescope=$1 compare=$2 chromium=$3 out=$4 panel=$5
rm -rf "$out"
mkdir -p "$out/png" "$out/svg"
export LIBGL_ALWAYS_SOFTWARE=1
"$tilescope" --export-steps 0..6 --out "$out/png" --panel "$panel" --window 1600x900
"$tilescope" --export-steps 0..6 --out "$out/svg" --panel "$panel" --window 1600x900 --format svg
for f in "$out"/svg/step-000[06].svg; do
  grep -q '<text ' "$f" || { echo "svg_check: $f has no <text> elements"; exit 1; }
  if grep -q '<image' "$f"; then echo "svg_check: $f embeds a raster image"; exit 1; fi
done
render() {   # render SVG PNG: Chromium at the SVG's own width and height
  size=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1,\2/p' "$1" | head -n 1)
  [ -n "$size" ] || { echo "svg_check: no width and height in $1"; exit 1; }
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --user-data-dir="$out/chromium-profile" --window-size="$size" --screenshot="$2" "file://$1" \
    > "$out/chromium.log" 2>&1 || { cat "$out/chromium.log"; exit 1; }
  echo "rendered $1 at $size"
}
render "$(cd "$out/svg" && pwd)/step-0006.svg" "$out/chromium-6.png"
render "$(cd "$out/svg" && pwd)/step-0000.svg" "$out/chromium-0.png"
strict="--max-mean 4 --min-close 0.98"
echo "SVG step 6 vs PNG step 6:"; "$compare" "$out/chromium-6.png" "$out/png/step-0006.png" $strict
echo "SVG step 0 vs PNG step 0:"; "$compare" "$out/chromium-0.png" "$out/png/step-0000.png" $strict
echo "SVG step 0 vs PNG step 6 (must differ):"
"$compare" "$out/chromium-0.png" "$out/png/step-0006.png" $strict --expect-different
echo "svg_check: $panel passed"
