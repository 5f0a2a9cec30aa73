#!/usr/bin/env python3
"""Headless Chromium driven over the DevTools protocol, for the web build's tests (issue 28).

Debian's chromium-headless-shell is started with --remote-debugging-pipe: it reads commands
on its fd 3 and writes replies and events on its fd 4, one JSON message per NUL-terminated
record, so no WebSocket and no package beyond Python's standard library is needed. A Page
opens a URL at a given size in CSS pixels (device scale factor 1), waits until the app has
drawn (window.tilescopeFrames >= 3, the web contract's ready signal), presses keys and
clicks, reads location.hash, evaluates JavaScript, takes a PNG and measures the first-frame
time. StaticServer serves a folder on 127.0.0.1 on a free port, as `python3 -m http.server`.

Run as a script it does one visit (docs/web-tests.md):
  browser.py --site DIR [--hash 'preset=tiled-4x4&step=2'] [--size 1280x720]
             [--keys right,right,p] [--click X,Y] [--screenshot OUT.png] [--print-hash]
             [--print-first-frame] [--eval JS] [--isolated]
"""
import argparse
import base64
import fcntl
import functools
import http.server
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-gpu-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--force-device-scale-factor=1", "--hide-scrollbars",
    "--remote-debugging-pipe",
]

# DOM key values and Windows virtual-key codes of the keys the app knows (Emscripten's GLFW
# maps keyCode to GLFW keys, so the code must be right, not only the key name).
NAMED_KEYS = {
    "right": ("ArrowRight", 39), "left": ("ArrowLeft", 37), "up": ("ArrowUp", 38),
    "down": ("ArrowDown", 40), "pagedown": ("PageDown", 34), "pageup": ("PageUp", 33),
    "home": ("Home", 36), "end": ("End", 35), "enter": ("Enter", 13),
    "escape": ("Escape", 27), "backspace": ("Backspace", 8), "f5": ("F5", 116),
    "space": (" ", 32), "tab": ("Tab", 9),
}


class BrowserError(RuntimeError):
    """A failure of the browser or of a page, said in one sentence."""


def find_chromium():
    """The headless Chromium to run: $TILESCOPE_CHROMIUM, else the first on PATH."""
    path = os.environ.get("TILESCOPE_CHROMIUM")
    if path:
        return path
    for name in ("chromium-headless-shell", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError("no headless Chromium found: install chromium-headless-shell "
                       "(scripts/install-deps.sh) or set TILESCOPE_CHROMIUM")


class StaticServer:
    """Serves folder `root` on http://127.0.0.1:PORT/ (a free port) from a thread until
    stop(); the files as they are, like `python3 -m http.server`, without its request log.
    With isolated (default: $TILESCOPE_WEB_ISOLATED=1) every answer also carries the
    cross-origin-isolation headers (COOP same-origin, COEP require-corp) under which a page
    may use SharedArrayBuffer, so threads."""

    def __init__(self, root, isolated=None):
        if not os.path.isdir(root):
            raise BrowserError(f"the site folder {root} does not exist")
        if isolated is None:
            isolated = os.environ.get("TILESCOPE_WEB_ISOLATED") == "1"

        class QuietHandler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".wasm": "application/wasm", ".js": "text/javascript"}

            def end_headers(self):
                if isolated:
                    self.send_header("Cross-Origin-Opener-Policy", "same-origin")
                    self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
                super().end_headers()

            def log_message(self, *args):
                pass

        handler = functools.partial(QuietHandler, directory=root)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path="index.html", hash_=""):
        """The address of `path`, with `#hash_` when it is not empty."""
        return f"http://127.0.0.1:{self.port}/{path}" + (f"#{hash_.lstrip('#')}" if hash_ else "")

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Browser:
    """One headless Chromium with a fresh profile, spoken to over the DevTools pipe.
    Use as a context manager; pages come from new_page()."""

    def __init__(self, chromium=None, timeout=60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="tilescope-chromium-")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Move the child's ends to 10 and above, so that bash's redirections onto 3 and 4
        # cannot overwrite one another (bash, not sh: dash takes fds 0 to 9 only).
        child_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
        child_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        args = [find_chromium() if chromium is None else chromium, *CHROMIUM_FLAGS,
                f"--user-data-dir={self.profile}", "about:blank"]
        self.log = open(os.path.join(self.profile, "chromium.log"), "w+b")
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{child_r} 4>&{child_w} {child_r}<&- {child_w}>&-', "bash", *args],
            pass_fds=(child_r, child_w), stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        os.close(child_r)
        os.close(child_w)
        self.out = os.fdopen(to_chrome_w, "wb", buffering=0)
        self.inbox = queue.Queue()
        self.events = []            # (sessionId, method, params), oldest first
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, args=(from_chrome_r,), daemon=True)
        self.reader.start()
        self.version = self.send("Browser.getVersion")["product"]

    def _read(self, fd):
        buf = b""
        with os.fdopen(fd, "rb", buffering=0) as f:
            while True:
                chunk = f.read(1 << 16)
                if not chunk:
                    self.inbox.put(None)
                    return
                buf += chunk
                while b"\0" in buf:
                    record, buf = buf.split(b"\0", 1)
                    self.inbox.put(json.loads(record))

    def _chromium_log(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def send(self, method, params=None, session=None, timeout=None):
        """Sends one command and returns its result; events that come meanwhile are kept in
        self.events. Raises BrowserError with the protocol's message on an error reply."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        try:
            self.out.write(json.dumps(msg).encode() + b"\0")
        except BrokenPipeError:
            raise BrowserError(f"Chromium has exited (status {self.proc.poll()}): {self._chromium_log()}")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            try:
                reply = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise BrowserError(f"Chromium did not answer {method} within {timeout or self.timeout:.0f} s")
            if reply is None:
                raise BrowserError(f"Chromium has exited (status {self.proc.poll()}): {self._chromium_log()}")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method} failed: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def pump(self, seconds):
        """Lets `seconds` pass while collecting events."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = self.inbox.get(timeout=left)
            except queue.Empty:
                return
            if reply is None:
                raise BrowserError(f"Chromium has exited (status {self.proc.poll()}): {self._chromium_log()}")
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def new_page(self, width, height):
        """A new tab of width x height CSS pixels at device scale factor 1."""
        return Page(self, width, height)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except BrowserError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# Recorded in the page before any of its own script runs: performance.now() (milliseconds
# since the navigation started) when window.tilescopeFrames first becomes >= 1. The property
# starts at 0, so that a page's `window.tilescopeFrames++` or `(window.tilescopeFrames || 0) + 1`
# both count from there.
FIRST_FRAME_PROBE = """
(() => {
  let frames = 0;
  Object.defineProperty(window, "tilescopeFrames", {
    configurable: true, enumerable: true,
    get() { return frames; },
    set(v) {
      frames = v;
      if (v >= 1 && window.__tilescopeFirstFrameMs === undefined)
        window.__tilescopeFirstFrameMs = performance.now();
    },
  });
})();
"""


class Page:
    """One tab: navigate(), wait_ready(), key(), click(), hash(), evaluate(), screenshot()."""

    def __init__(self, browser, width, height):
        self.b = browser
        self.width, self.height = width, height
        target = browser.send("Target.createTarget", {"url": "about:blank", "width": width, "height": height})
        self.target = target["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        for method in ("Page.enable", "Runtime.enable"):
            self.send(method)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_FRAME_PROBE})
        self.url = "about:blank"

    def send(self, method, params=None, timeout=None):
        return self.b.send(method, params, session=self.session, timeout=timeout)

    def messages(self, last=8):
        """The page's last console messages and uncaught exceptions, one a line."""
        lines = []
        for session, method, p in self.b.events:
            if session != self.session:
                continue
            if method == "Runtime.consoleAPICalled":
                lines.append(f"console.{p.get('type')}: " + " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                lines.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        return "\n".join(lines[-last:]) or "(no console output)"

    def evaluate(self, expression, timeout=None):
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError(f"the page threw on `{expression}`: "
                               + d.get("exception", {}).get("description", d.get("text", "")))
        return r.get("result", {}).get("value")

    def navigate(self, url):
        """Opens url and waits for its load event."""
        self.url = url
        count = len(self.b.events)
        r = self.send("Page.navigate", {"url": url})
        if r.get("errorText"):
            raise BrowserError(f"{url} did not open: {r['errorText']}")
        deadline = time.monotonic() + self.b.timeout
        while not any(s == self.session and m == "Page.loadEventFired" for s, m, _ in self.b.events[count:]):
            if time.monotonic() > deadline:
                raise BrowserError(f"{url} did not finish loading within {self.b.timeout:.0f} s")
            self.b.pump(0.05)

    def frames(self):
        """window.tilescopeFrames now (0 before the app's first frame)."""
        return int(self.evaluate("Number(window.tilescopeFrames) || 0"))

    def wait_frames(self, at_least, timeout=None):
        """Waits until window.tilescopeFrames >= at_least; on a timeout says how far it got."""
        timeout = self.b.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while (n := self.frames()) < at_least:
            if time.monotonic() > deadline:
                raise BrowserError(
                    f"{self.url}: window.tilescopeFrames is {n} after {timeout:.0f} s, not the "
                    f"{at_least} frames the page must draw (is the web build's main loop counting "
                    f"its frames?); the page said:\n{self.messages()}")
            self.b.pump(0.03)
        return n

    def wait_ready(self, timeout=None):
        """Waits until the page has drawn 3 frames (the contract's ready signal)."""
        return self.wait_frames(3, timeout)

    def first_frame_ms(self):
        """Milliseconds from the start of the navigation to the first frame drawn
        (window.tilescopeFrames >= 1), measured in the page by performance.now()."""
        ms = self.evaluate("window.__tilescopeFirstFrameMs")
        if ms is None:
            raise BrowserError(f"{self.url}: the first frame's time was not recorded (window.tilescopeFrames "
                               f"was never set to 1 or more through window's property)")
        return float(ms)

    def _after_frames(self, n=1):
        """Waits until the app has drawn n more frames, so that it has seen an input event
        (the app reads its keys and buttons once a frame)."""
        self.wait_frames(self.frames() + n, timeout=30)

    def key(self, name):
        """Presses and releases one key: a name of NAMED_KEYS or one letter or digit. The key is
        held until the app has drawn a frame after the press, and the next frame is awaited
        after the release, so that an app which reads its keys once a frame sees both."""
        if name.lower() in NAMED_KEYS:
            key, code = NAMED_KEYS[name.lower()]
            text = "\r" if key == "Enter" else (" " if key == " " else "")
            dom_code = {"ArrowRight": "ArrowRight", "ArrowLeft": "ArrowLeft", "ArrowUp": "ArrowUp",
                        "ArrowDown": "ArrowDown", " ": "Space"}.get(key, key)
        elif len(name) == 1 and name.isalnum():
            key, text = name, name
            code = ord(name.upper())
            dom_code = f"Key{name.upper()}" if name.isalpha() else f"Digit{name}"
        else:
            raise BrowserError(f"unknown key '{name}': use one of {', '.join(NAMED_KEYS)}, a letter or a digit")
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": dom_code,
                "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        if text:
            down.update(text=text, unmodifiedText=text)
        self.send("Input.dispatchKeyEvent", down)
        self._after_frames()
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": dom_code,
                                             "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})
        self._after_frames()

    def click(self, x, y, button="left"):
        """Clicks at (x, y) in CSS pixels from the top left: moves there, presses, waits a
        frame, releases, waits a frame."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self._after_frames()
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y,
                                               "button": button, "buttons": 1, "clickCount": 1})
        self._after_frames()
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y,
                                               "button": button, "buttons": 0, "clickCount": 1})
        self._after_frames()

    def hash(self):
        """location.hash without its '#'."""
        return self.evaluate("location.hash").lstrip("#")

    def screenshot(self, path):
        """Saves a PNG of the page's viewport (width x height pixels) after one more frame."""
        self._after_frames()
        r = self.send("Page.captureScreenshot", {"format": "png", "fromSurface": True,
                                                 "captureBeyondViewport": False})
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def screenshot_settled(self, path, timeout=6.0):
        """Saves a PNG once the picture has stopped changing: two shots a frame apart with the
        same pixels (a page may draw its first frames while the simulation still runs, where
        the desktop's --screenshot waits for it). Returns (settled, shots); after `timeout`
        seconds of change (a blinking text cursor) the last shot is kept and settled is False."""
        deadline = time.monotonic() + timeout
        last, shots = None, 0
        while True:
            self._after_frames()
            data = self.send("Page.captureScreenshot", {"format": "png", "fromSurface": True})["data"]
            shots += 1
            if data == last or time.monotonic() > deadline:
                with open(path, "wb") as f:
                    f.write(base64.b64decode(data))
                return data == last, shots
            last = data

    def close(self):
        self.b.send("Target.closeTarget", {"targetId": self.target})


def parse_size(text):
    """'WxH' as (W, H); raises BrowserError on anything else."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w > 0 and h > 0:
            return w, h
    except ValueError:
        pass
    raise BrowserError(f"--size must be WIDTHxHEIGHT in pixels, such as 1280x720; got '{text}'")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Open the web build's page in headless Chromium and drive it.")
    ap.add_argument("--site", required=True, help="the static folder to serve (build-web/site)")
    ap.add_argument("--page", default="index.html", help="the page in the folder (default index.html)")
    ap.add_argument("--hash", default="", help="the view link, e.g. 'preset=tiled-4x4&step=2'")
    ap.add_argument("--size", default="1280x720", help="window size WxH in CSS pixels (default 1280x720)")
    ap.add_argument("--keys", default="", help="keys to press once ready, comma-separated (right,left,p,...)")
    ap.add_argument("--click", action="append", default=[], help="X,Y to click once ready (repeatable)")
    ap.add_argument("--screenshot", help="save a PNG of the page here")
    ap.add_argument("--print-hash", action="store_true", help="print location.hash (without '#') at the end")
    ap.add_argument("--print-first-frame", action="store_true", help="print the first frame's time in ms")
    ap.add_argument("--eval", action="append", default=[], help="print the JSON value of this expression")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for anything (default 60)")
    ap.add_argument("--isolated", action="store_true",
                    help="serve with the cross-origin-isolation headers (threads; also $TILESCOPE_WEB_ISOLATED=1)")
    a = ap.parse_args(argv)
    try:
        w, h = parse_size(a.size)
        t0 = time.monotonic()
        with StaticServer(a.site, a.isolated or None) as server, Browser(timeout=a.timeout) as browser:
            page = browser.new_page(w, h)
            page.navigate(server.url(a.page, a.hash))
            page.wait_ready()
            if a.print_first_frame:
                print(f"first_frame_ms {page.first_frame_ms():.0f}")
            for k in filter(None, a.keys.split(",")):
                page.key(k.strip())
            for c in a.click:
                x, y = (float(v) for v in c.split(","))
                page.click(x, y)
            for expr in a.eval:
                print(json.dumps(page.evaluate(expr)))
            if a.screenshot:
                page.screenshot(a.screenshot)
            if a.print_hash:
                print(page.hash())
        print(f"browser.py: done in {time.monotonic() - t0:.1f} s", file=sys.stderr)
    except BrowserError as e:
        print(f"browser.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
