#!/usr/bin/env python3
"""The web tests' harness on its own fixture page (tests/web/fixture/index.html), so that it is
known to work before there is a web build (docs/web-tests.md):
  - browser.py: the page opens at the size asked in CSS pixels at device scale factor 1, the
    first frame's time is recorded, keys reach the page with the DOM key and keyCode that
    Emscripten's GLFW reads and are held long enough for a page that reads its keys once a
    frame (Right twice moves the fixture's step from 2 to 4 and its location.hash says so),
    a click lands where it was aimed, the PNG has the page's size and shows what was drawn,
    and a page that never counts its frames ends in the time-out message;
  - link_check.py on the fixture (round trip, picture comparison, negative control);
  - json_check.py with the native CLI on both sides (equal), and against a CLI that drops a
    barrier (must fail, naming the field);
  - with --glfw-site, the keys, a letter and a click through Emscripten's GLFW port
    (fixture_glfw/main.c, built by hand with emcc: its header says how).
Usage: harness_check.py --compare png_compare --cli tilescope-cli [--out DIR] [--glfw-site DIR]
"""
import argparse
import os
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True    # no __pycache__ in the source tree
sys.path.insert(0, HERE)
from browser import Browser, BrowserError, StaticServer  # noqa: E402

FIXTURE = os.path.join(HERE, "fixture")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def png_pixel(path, x, y):
    """The RGB of pixel (x, y) of an 8-bit RGB or RGBA PNG, and its size (a second, independent
    reading of Chromium's PNG: the PNG format's own filters undone here)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"{path}: not 8-bit RGB or RGBA")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for r in range(y + 1):
        ftype, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
    return tuple(prev[x * bpp:x * bpp + 3]), (w, h)


def browser_checks(out):
    w, h = 480, 270
    with StaticServer(FIXTURE) as server, Browser(timeout=60) as browser:
        page = browser.new_page(w, h)
        page.navigate(server.url("index.html", "preset=tiled-4x4&step=2"))
        page.wait_ready()
        first = page.first_frame_ms()
        check(0 < first < 30000, f"first frame recorded at {first:.0f} ms after the navigation started")
        size = page.evaluate("[innerWidth, innerHeight, devicePixelRatio, canvas.width, canvas.height]")
        check(size == [w, h, 1, w, h], f"window, scale and canvas {size} are [{w}, {h}, 1, {w}, {h}]")
        before = os.path.join(out, "fixture-step2.png")
        page.screenshot(before)
        for _ in range(2):
            page.key("right")
        check(page.hash() == "preset=tiled-4x4&step=4", f"Right twice from step 2: #{page.hash()}")
        page.key("left")
        page.key("p")
        keys = page.evaluate("window.fixtureKeys")
        check(keys == [["ArrowRight", 39], ["ArrowRight", 39], ["ArrowLeft", 37], ["p", 80]],
              f"the page saw the keys with their keyCodes: {keys}")
        check(page.hash().endswith("step=3"), f"Left: #{page.hash()}")
        page.click(100, 50)
        check(page.evaluate("window.fixtureClicks") == [[100, 50]], "the click landed at (100, 50)")
        shot = os.path.join(out, "fixture-step3-click.png")
        page.screenshot(shot)
        # The fixture's drawing: bar i at x from (2i+1)*bar, bar = w/24 = 20 px, rows h/4..3h/4;
        # step 3 draws bars 0..3; the click a 20 px green square centred on it.
        px = {name: png_pixel(shot, x, y)[0] for name, x, y in
              (("bar 3", 7 * 20 + 10, h // 2), ("gap", 8 * 20 + 10, h // 2), ("bar 4", 9 * 20 + 10, h // 2),
               ("click", 100, 50))}
        check(png_pixel(shot, 0, 0)[1] == (w, h), f"the PNG is {w}x{h}")
        amber, dark, green = (230, 158, 0), (26, 31, 41), (0, 158, 115)
        near = lambda a, b: max(abs(x - y) for x, y in zip(a, b)) <= 3  # noqa: E731
        check(near(px["bar 3"], amber) and near(px["gap"], dark) and near(px["bar 4"], dark)
              and near(px["click"], green), f"the PNG shows step 3's four bars and the click: {px}")
        page.close()

        stalled = browser.new_page(w, h)
        stalled.navigate(server.url("index.html", "stall=1"))
        t0 = time.monotonic()
        try:
            stalled.wait_ready(timeout=2)
            check(False, "a page that never counts its frames times out")
        except BrowserError as e:
            check("window.tilescopeFrames is 0 after 2 s" in str(e) and time.monotonic() - t0 < 10,
                  f"a page that never counts its frames times out: {str(e).splitlines()[0]}")


def glfw_checks(site):
    """The Emscripten GLFW fixture (fixture_glfw/main.c, built by hand into `site`): keys read
    with glfwGetKey once a frame, a letter through the char callback, a click and the cursor."""
    with StaticServer(site) as server, Browser(timeout=60) as browser:
        page = browser.new_page(480, 270)
        page.navigate(server.url("index.html", "step=2"))
        page.wait_ready()
        page.key("right")
        page.key("right")
        check(page.hash() == "step=4", f"Emscripten GLFW: Right twice from step 2: #{page.hash()}")
        page.key("left")
        page.key("p")
        page.click(100, 50)
        state = page.evaluate("window.glfwState")
        check(state == {"step": 3, "clicks": 1, "chars": 1, "x": 100, "y": 50},
              f"Emscripten GLFW: Left, a letter and a click at (100, 50): {state}")


def script_checks(compare, cli, out):
    py = sys.executable
    r = subprocess.run([py, os.path.join(HERE, "link_check.py"), "--site", FIXTURE, "--compare", compare,
                        "--size", "480x270", "--out", os.path.join(out, "link")], capture_output=True, text=True)
    check(r.returncode == 0 and "link_check: passed" in r.stdout, "link_check.py passes on the fixture")
    if r.returncode:
        print(r.stdout + r.stderr)
    base = [py, os.path.join(HERE, "json_check.py"), "--native", cli, "--out", os.path.join(out, "json"),
            "--kernels", "matmul-tiled,conv1d-tiled"]
    r = subprocess.run(base + ["--other", cli], capture_output=True, text=True)
    check(r.returncode == 0 and "4 of 4 runs equal" in r.stdout, "json_check.py: the native CLI equals itself")
    dropped = f"sh -c 'exec \"$0\" \"$@\" --drop-barrier after-load' {cli}"
    r = subprocess.run(base[:-1] + ["matmul-tiled", "--other", dropped], capture_output=True, text=True)
    check(r.returncode == 1 and "$.totals.barriers: 2 against 1" in r.stdout,
          "json_check.py fails on a CLI that drops a barrier, naming $.totals.barriers")


def main():
    ap = argparse.ArgumentParser(description="The web tests' harness on its fixture page.")
    ap.add_argument("--compare", required=True, help="png_compare")
    ap.add_argument("--cli", required=True, help="the native tilescope-cli")
    ap.add_argument("--out", default="harness_check_out")
    ap.add_argument("--glfw-site", help="a folder with the Emscripten GLFW fixture built (fixture_glfw/main.c)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    t0 = time.monotonic()
    try:
        browser_checks(a.out)
        if a.glfw_site:
            glfw_checks(a.glfw_site)
    except BrowserError as e:
        check(False, f"the browser: {e}")
    script_checks(os.path.abspath(a.compare), os.path.abspath(a.cli), a.out)
    print(f"harness_check: {time.monotonic() - t0:.1f} s, "
          + ("passed" if not failures else f"FAILED: {len(failures)} checks"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
