#!/usr/bin/env bash
# Installs the Debian 12 packages that TileScope builds and tests with, if any is missing
# (non-interactive; as root, or through sudo). Nothing is downloaded when all are there.
# CUDA is not among them: CMake finds /usr/local/cuda by itself when it is installed.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config        # compilers and the build
  dpkg-dev                                            # dpkg-shlibdeps: the Depends of `cpack -G DEB` (build-essential brings it too)
  libimgui-dev libglfw3-dev python3-glad libstb-dev   # the app: Dear ImGui 1.86, GLFW, glad 2, stb
  libgif-dev                                          # the app: animated GIF export
  libgl-dev libgl1-mesa-dri fonts-dejavu-core libfontconfig-dev   # fonts found through fontconfig
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libboost-context-dev
  libtbb-dev                                          # oneTBB: the simulator's worker threads
  libgtest-dev libbenchmark-dev                       # tests and benchmarks
  clang libclang-rt-14-dev                            # the fuzzers (libFuzzer; scripts/fuzz.sh)
  libclang-14-dev                                     # a student's own kernel: the C++ front end (student/)
  bubblewrap libseccomp-dev                           # a student's own kernel: its sandbox and system-call filter (docs/security.md)
  xvfb xauth                                          # GUI tests without a display
  chromium-headless-shell                             # renders the SVG exports in the GUI tests
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "Installing Debian packages: ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
