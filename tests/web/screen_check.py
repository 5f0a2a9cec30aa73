#!/usr/bin/env python3
"""The page's canvas against the desktop app (issue 28, docs/web-tests.md): the desktop app
takes a screenshot of a preset at a step (`tilescope --scenario P --window WxH --step N
[--keys K] --screenshot`, under Xvfb), headless Chromium opens the page at the same view
(`index.html#preset=P&step=N`, the same window size, the same keys pressed once it is ready)
and takes its own; the two must match within compare.BROWSER_VS_DESKTOP. The negative control:
the browser's picture against the desktop's at another step (--negative-step) or with other
keys (--negative-keys) must NOT match at that tolerance, so the comparison can fail.

Usage: screen_check.py --site build-web/site --tilescope build/bin/tilescope
         --compare build/bin/png_compare --preset tiled-4x4 --step 6 --negative-step 7
         [--keys p,right] [--negative-keys -] [--size 1280x720] [--out DIR]
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True    # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError, StaticServer, parse_size  # noqa: E402
from compare import BROWSER_VS_DESKTOP, png_compare  # noqa: E402


def desktop_screenshot(tilescope, out_png, preset, step, size, keys, config_dir):
    """The desktop app's picture under Xvfb (Mesa's software OpenGL, as the GUI tests), with
    settings from an empty folder so that no earlier session's theme or panels count."""
    shutil.rmtree(config_dir, ignore_errors=True)
    os.makedirs(config_dir)
    xvfb = shutil.which("xvfb-run")
    if not xvfb:
        raise SystemExit("screen_check: xvfb-run is not installed (scripts/install-deps.sh installs it).")
    cmd = [xvfb, "-a", "-s", "-screen 0 1920x1080x24", tilescope, "--scenario", preset,
           "--window", size, "--step", str(step), "--screenshot", out_png]
    if keys:
        cmd += ["--keys", keys]
    env = {**os.environ, "LIBGL_ALWAYS_SOFTWARE": "1", "XDG_CONFIG_HOME": config_dir}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0 or not os.path.exists(out_png):
        raise SystemExit(f"screen_check: the desktop app failed (status {p.returncode}): {(p.stdout + p.stderr).strip()}")


def say(line):
    """Prints a line and keeps it in OUT/report.txt, which scripts/web-test.sh prints."""
    print(line, flush=True)
    with open(REPORT, "a") as f:
        f.write(line + "\n")


REPORT = os.devnull


def main():
    global REPORT
    ap = argparse.ArgumentParser(description="The page's canvas against the desktop app's screenshot.")
    ap.add_argument("--site", required=True)
    ap.add_argument("--tilescope", required=True, help="the desktop app")
    ap.add_argument("--compare", required=True, help="png_compare")
    ap.add_argument("--preset", required=True)
    ap.add_argument("--step", type=int, required=True)
    ap.add_argument("--keys", default="", help="keys pressed after opening, comma-separated, as tilescope --keys ('-': none)")
    ap.add_argument("--negative-step", type=int, help="the negative control's step (default --step)")
    ap.add_argument("--negative-keys", help="the negative control's keys (default --keys; '-': none)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--out", default="screen_check_out")
    ap.add_argument("--timeout", type=float, default=90)
    a = ap.parse_args()
    neg_step = a.step if a.negative_step is None else a.negative_step
    neg_keys = a.keys if a.negative_keys is None else a.negative_keys
    a.keys, neg_keys = ("" if k == "-" else k for k in (a.keys, neg_keys))
    if (neg_step, neg_keys) == (a.step, a.keys):
        raise SystemExit("screen_check: the negative control needs another --negative-step or other --negative-keys.")
    try:
        w, h = parse_size(a.size)
    except BrowserError as e:
        raise SystemExit(f"screen_check: {e}")
    os.makedirs(a.out, exist_ok=True)
    REPORT = os.path.join(a.out, "report.txt")
    open(REPORT, "w").close()
    view = f"preset={a.preset}&step={a.step}"
    desk, neg, web = (os.path.join(a.out, n) for n in ("desktop.png", "desktop-negative.png", "browser.png"))

    # The desktop's two pictures are taken while the browser starts (most of their time is
    # Xvfb's start-up, not the CPU).
    t0 = time.monotonic()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    desktop = pool.submit(lambda: [desktop_screenshot(a.tilescope, png, a.preset, step, a.size, keys,
                                                      png[:-4] + "-config")
                                   for png, step, keys in ((desk, a.step, a.keys), (neg, neg_step, neg_keys))])
    try:
        with StaticServer(a.site) as server, Browser(timeout=a.timeout) as browser:
            page = browser.new_page(w, h)
            page.navigate(server.url("index.html", view))
            page.wait_ready()
            first = page.first_frame_ms()
            if a.keys:      # the keys go to the view as opened, once it has settled
                page.screenshot_settled(os.path.join(a.out, "browser-before-keys.png"))
            for k in filter(None, a.keys.split(",")):
                page.key(k.strip())
            settled, shots = page.screenshot_settled(web)
            shown = page.hash()
    except BrowserError as e:
        say(f"screen_check: {e}")
        return 1
    finally:
        t1 = time.monotonic()
        desktop.result()        # raises SystemExit with the desktop app's failure
        pool.shutdown()
    t2 = time.monotonic()
    say(f"{a.preset} step {a.step}{' keys ' + a.keys if a.keys else ''}: browser {t1 - t0:.1f} s "
          f"(first frame {first:.0f} ms), the desktop's 2 shots meanwhile and {t2 - t1:.1f} s after; "
          f"the page's view afterwards: {shown}; its picture "
          + (f"settled after {shots} shots" if settled else f"still changing after {shots} shots (the last is compared)"))

    same, said = png_compare(a.compare, web, desk, BROWSER_VS_DESKTOP)
    say(f"browser vs desktop ({' '.join(BROWSER_VS_DESKTOP)}): {said}")
    differ, said_neg = png_compare(a.compare, web, neg, BROWSER_VS_DESKTOP, expect_different=True)
    neg_what = f"step {neg_step}" + (f" keys {neg_keys or '(none)'}" if neg_keys != a.keys else "")
    say(f"negative control, browser vs desktop at {neg_what} (must differ): {said_neg}")
    if not same:
        say(f"screen_check: FAILED: the page does not show what the desktop app shows; see {web} and {desk}")
    if not differ:
        say(f"screen_check: FAILED: the negative control matched, so this comparison cannot tell the views apart")
    if same and differ:
        say(f"screen_check: {a.preset} passed")
    return 0 if same and differ else 1


if __name__ == "__main__":
    sys.exit(main())
