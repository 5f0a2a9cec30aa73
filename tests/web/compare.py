"""The tolerances of the web tests' picture comparisons and the call of png_compare
(tests/gui/png_compare.cpp: per pixel the largest difference over R, G and B; two pictures
are close when the mean difference is at most --max-mean and at least --min-close of the
pixels differ by at most --tol).
"""
import os
import re
import subprocess

# Browser (ANGLE on SwiftShader, WebGL2) against desktop (Mesa llvmpipe, OpenGL 3.3) at the
# same preset, step and window size: the same Dear ImGui draw lists and the same font atlas,
# so the same layout and colours, but two rasterisers that may cover anti-aliased edges and
# round blended colours differently by a level or two. How far apart may two renderers be?
# The SVG export drawn by Chromium's Skia, with its own text, against the app's PNG of the
# Matrices panel (tests/gui/svg_check.sh) is 1.2-1.3 mean and 99.6-99.7% of the pixels within
# 48 levels. How close are two views that must be told apart? On the desktop at 1280x720,
# the nearest pairs of the six presets here are tiled-4x4 step 6 vs 7 (mean 5.26, 96.25%
# close), occupancy-seed004 step 1 vs 2 (5.37, 97.03%) and practice's question vs no
# practice mode (6.69, 95.77%); other presets' neighbouring steps differ by far more (12-29).
# png_compare's default (mean 6, 97%) would take occupancy's step 2 for step 1, so the limit
# sits between the two: mean <= 3 and 98.5% within 48 levels, each of the two criteria alone
# rejecting every neighbouring step above. The test's negative control checks it again on
# the page itself. $TILESCOPE_WEB_TOLERANCE ("--max-mean M --min-close F --tol T") overrides
# it, to measure.
BROWSER_VS_DESKTOP = os.environ.get("TILESCOPE_WEB_TOLERANCE", "--max-mean 3 --min-close 0.985 --tol 48").split()

# Two pages of the same browser at the same view (the shared-link round trip): the same
# renderer draws the same frame, so only a nearly exact match passes: mean <= 1 and 99.5% of
# the pixels within 8 levels (room for a cursor or a hover highlight, not for another step).
BROWSER_VS_BROWSER = "--max-mean 1 --min-close 0.995 --tol 8".split()


def png_compare(tool, a, b, tolerance, expect_different=False):
    """Runs png_compare on two PNGs; returns (passed, its output in one line)."""
    cmd = [tool, a, b, *tolerance] + (["--expect-different"] if expect_different else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 2:
        raise SystemExit(f"png_compare refused its arguments: {p.stderr.strip()}")
    # Without png_compare's first line, which names both files and their sizes, when the sizes agree.
    lines = [ln for ln in (p.stdout + p.stderr).splitlines()
             if not re.fullmatch(r"png_compare: .* is (\d+x\d+), .* is \1", ln)]
    return p.returncode == 0, " ".join(" ".join(lines).split())
