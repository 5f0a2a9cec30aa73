#!/usr/bin/env bash
# Builds the web version of TileScope (docs/web.md) into build-web/ (or $TILESCOPE_WEB_DIR):
#   build-web/site/               the static folder: index.html, tilescope.js/.wasm/.data
#   build-web/bin/tilescope-cli.js  the CLI's simulator commands, for Node
# Installs what is missing first (Debian 12: Debian's emscripten 3.1.6 and the header-only
# libraries; as root, or through sudo), and Dear ImGui 1.86's core sources, which
# libimgui-dev does not ship, from Debian's source package (a deb-src entry of our own).
# A second run rebuilds only what changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILESCOPE_WEB_DIR:-$root/build-web}
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

packages=(
  emscripten cmake ninja-build dpkg-dev                # the compiler (3.1.6, clang 14, binaryen), the build
  nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libstb-dev   # header-only libraries
  fonts-dejavu-core                                    # the fonts packed into the page
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Dear ImGui 1.86's core (imgui*.cpp) and its GLFW and OpenGL 3 backends: Debian's source
# package, unpacked once into build-web/deps/ (never into the repository).
imgui=$build/deps/imgui
if [ ! -f "$imgui/imgui.cpp" ]; then
  src=/etc/apt/sources.list.d/tilescope-src.sources
  if [ ! -f "$src" ]; then
    echo "Adding a deb-src entry for Debian's source packages: $src"
    "${as_root[@]}" tee "$src" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  fi
  rm -rf "$build/deps/src" && mkdir -p "$build/deps/src"
  # The entry may be there without its index (an update that failed before): update once more.
  if ! (cd "$build/deps/src" && apt-get source -q imgui); then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    (cd "$build/deps/src" && apt-get source -q imgui)
  fi
  rm -rf "$imgui" && mv "$build/deps/src"/imgui-*/ "$imgui" && rm -rf "$build/deps/src"
fi

# Debian's emcc runs under Node 20 with Debian's node modules on NODE_PATH.
export NODE_PATH=/usr/share/nodejs
export EMSDK_PYTHON=${EMSDK_PYTHON:-/usr/bin/python3}   # Debian's python3, whatever else is on PATH
emcmake cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_IMGUI_SOURCE="$imgui"
cmake --build "$build" --parallel "${TILESCOPE_JOBS:-2}"
echo "The static folder: $build/site (serve it with: cd $build/site && python3 -m http.server)"
