#!/usr/bin/env python3
"""The web Platform's page side (app/gui/web_platform.cpp, EM_JS) in a real browser.

Builds platform_stub.cpp with em++ (Debian's Emscripten), serves it from a local static
server, opens it in headless Chromium at an address with a view link after '#', changes the
address as a user would, and checks what the page and the program saw: the link read at
start, history.replaceState's address, the typed link (and not the app's own), the
download offered (window.tilescopeDownloads), localStorage read back, and a file from the
chooser copied into the page's memory file system.
Usage: web_platform_check.py EMXX CHROMIUM SOURCE_DIR OUT_DIR
"""
import functools, http.server, json, os, re, shutil, socketserver, subprocess, sys, threading

emxx, chromium, src, out = sys.argv[1:5]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
gui = os.path.join(src, "app", "gui")
subprocess.run([emxx, "-std=c++20", "-O1", "-I" + gui, "-I/usr/include/imgui",
                os.path.join(src, "tests", "weblink", "platform_stub.cpp"), os.path.join(gui, "web_platform.cpp"),
                "-sUSE_GLFW=3", "-o", os.path.join(out, "stub.js")], check=True, env=env, cwd=out)
page = """<!doctype html><html><body><canvas id="canvas"></canvas><script>
var Module = {canvas: document.getElementById('canvas'), print: function(t) {
  console.log('OUT ' + t);
  if (t == 'done') console.log('PAGE ' + JSON.stringify({hash: location.hash, downloads: window.tilescopeDownloads || []}));
}, printErr: function(t) { console.log('ERR ' + t); }};
setTimeout(function() { location.hash = 'preset=naive-4x4&step=2'; }, 300);
// What the chooser's change handler leaves once the user's file is read (ts_web_pick).
setTimeout(function() { Module.tilescopePicked = {kind: 1, name: 'dir/my results.json',
  data: new TextEncoder().encode('{"results": []}'), error: ''}; }, 400);
</script><script src="stub.js"></script></body></html>"""
with open(os.path.join(out, "index.html"), "w") as f:
    f.write(page)

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


handler = functools.partial(Quiet, directory=out)
server = socketserver.TCPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/index.html#preset=tiled-4x4&step=6" % server.server_address[1]
run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + os.path.join(out, "profile"),
                      "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--dump-dom", url],
                     capture_output=True, text=True, timeout=120)
server.shutdown()
said = [m.group(1) for m in re.finditer(r'CONSOLE[^"]*"(.*)", source', run.stderr)]
lines = [s[4:] for s in said if s.startswith("OUT ")]
print("\n".join(said))
pages = [json.loads(s[5:].replace('\\"', '"')) for s in said if s.startswith("PAGE ")]

def need(ok, what):
    if not ok:
        print("web_platform_check: " + what)
        sys.exit(1)

need("start preset=tiled-4x4&step=6" in lines, "the link in the address was not read at start")
need("picks 1 stores 1" in lines, "the web platform does not pick files or store on change")
need(any(l.startswith("share http://127.0.0.1:") and l.endswith("/index.html#preset=tiled-4x4&step=7") for l in lines),
     "the shareable link is not the page's address with the link")
need("write []" in lines and 'stored theme = "light"' in lines, "localStorage did not give the settings back")
need("typed preset=naive-4x4&step=2" in lines, "the link typed into the address was not seen")
need(not any(l == "typed preset=tiled-4x4&step=7" for l in lines), "the app's own address change came back as typed")
need('picked 1 /tmp/tilescope-opened/my results.json [{"results": []}] []' in lines,
     "the chosen file did not arrive in the page's memory file system")
need(any(l.startswith("offer Downloaded shot.png") for l in lines), "offerFile did not say it downloaded")
need(len(pages) == 1, "the page's state was not reported")
# "\x89PNG not a picture": 18 bytes.
need(pages[0]["downloads"] == [{"name": "shot.png", "bytes": 18}], "the download was not offered: %s" % pages[0])
need(pages[0]["hash"] == "#preset=naive-4x4&step=2", "the address is %s" % pages[0]["hash"])
print("web_platform_check passed")
