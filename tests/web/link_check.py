#!/usr/bin/env python3
"""A shared link's round trip in the browser (issue 28, docs/web-tests.md): open the page at a
view (`#preset=tiled-4x4&step=2`), press Right twice, read location.hash back (its step must
be 4 and its preset the same), open that address in a new page and compare the two pages'
pictures within compare.BROWSER_VS_BROWSER. The negative control: the first page's picture
before the keys (step 2) must differ from it at that tolerance.

Usage: link_check.py --site build-web/site --compare build/bin/png_compare
         [--preset tiled-4x4] [--step 2] [--presses 2] [--size 1280x720] [--out DIR]
"""
import argparse
import os
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True    # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError, StaticServer, parse_size  # noqa: E402
from compare import BROWSER_VS_BROWSER, png_compare  # noqa: E402


def say(line):
    """Prints a line and keeps it in OUT/report.txt, which scripts/web-test.sh prints."""
    print(line, flush=True)
    with open(REPORT, "a") as f:
        f.write(line + "\n")


REPORT = os.devnull


def main():
    global REPORT
    ap = argparse.ArgumentParser(description="A view link's round trip through the page.")
    ap.add_argument("--site", required=True)
    ap.add_argument("--compare", required=True, help="png_compare")
    ap.add_argument("--preset", default="tiled-4x4")
    ap.add_argument("--step", type=int, default=2)
    ap.add_argument("--presses", type=int, default=2, help="Right presses (default 2)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--out", default="link_check_out")
    ap.add_argument("--timeout", type=float, default=90)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    REPORT = os.path.join(a.out, "report.txt")
    open(REPORT, "w").close()
    before, stepped, reopened = (os.path.join(a.out, n) for n in ("before.png", "stepped.png", "reopened.png"))
    want = a.step + a.presses
    t0 = time.monotonic()
    try:
        w, h = parse_size(a.size)
        with StaticServer(a.site) as server, Browser(timeout=a.timeout) as browser:
            first = browser.new_page(w, h)
            first.navigate(server.url("index.html", f"preset={a.preset}&step={a.step}"))
            first.wait_ready()
            first.screenshot_settled(before)
            for _ in range(a.presses):
                first.key("right")
            link = first.hash()
            first.screenshot_settled(stepped)
            say(f"opened #preset={a.preset}&step={a.step}, pressed Right {a.presses} times: #{link}")
            fields = urllib.parse.parse_qs(link, keep_blank_values=True)
            problems = []
            if fields.get("step") != [str(want)]:
                problems.append(f"its step is {fields.get('step')}, not ['{want}']")
            if fields.get("preset") != [a.preset]:
                problems.append(f"its preset is {fields.get('preset')}, not ['{a.preset}']")
            if problems:
                say(f"link_check: FAILED: the page's location.hash does not follow the steps: {'; '.join(problems)}")
                return 1
            first.close()
            second = browser.new_page(w, h)
            second.navigate(server.url("index.html", link))
            second.wait_ready()
            second.screenshot_settled(reopened)
            again = second.hash()
    except BrowserError as e:
        say(f"link_check: {e}")
        return 1
    say(f"the new page's location.hash: #{again}; browser {time.monotonic() - t0:.1f} s")
    same, said = png_compare(a.compare, stepped, reopened, BROWSER_VS_BROWSER)
    say(f"stepped page vs reopened link ({' '.join(BROWSER_VS_BROWSER)}): {said}")
    differ, said_neg = png_compare(a.compare, before, reopened, BROWSER_VS_BROWSER, expect_different=True)
    say(f"negative control, step {a.step} vs the reopened step {want} (must differ): {said_neg}")
    ok = same and differ and again == link
    if again != link:
        say(f"link_check: FAILED: the reopened page changed its link to #{again}")
    if not same:
        say(f"link_check: FAILED: the reopened link does not show the same picture; see {stepped} and {reopened}")
    if not differ:
        say("link_check: FAILED: the negative control matched, so the comparison cannot tell the steps apart")
    if ok:
        say("link_check: passed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
