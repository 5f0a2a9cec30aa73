#!/usr/bin/env bash
# Prepares .deps/: the header-only and static dependencies that the GPU machine lacks (it
# has CUDA, GCC, CMake and ninja, but no apt, no network and none of Debian's -dev
# packages). Run it HERE, on the Debian machine: it downloads Debian's own .debs
# (apt-get download, no install), unpacks them with dpkg -x and keeps only what the build
# needs (well under the 64 MiB a device call may carry). Then, on the device:
#   cmake -DTILESCOPE_DEPS_PREFIX=$PWD/.deps -DTILESCOPE_BUILD_APP=OFF -DTILESCOPE_BUILD_BENCH=OFF ...
# (scripts/gpu-check.sh does exactly that).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.deps
arch=x86_64-linux-gnu
packages=(
  libboost1.74-dev          # Boost headers and Boost's CMake config (BoostConfig, boost_headers)
  libboost-context1.74-dev  # libboost_context.a and its CMake config
  nlohmann-json3-dev
  libcli11-dev
  libtomlplusplus-dev       # used header-only
  libgtest-dev              # libgtest.a, libgtest_main.a, GTestConfig
  libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5   # oneTBB: headers, TBBConfig, the shared libraries
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "${packages[@]}")
rm -rf "$dest"
mkdir -p "$work/root"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done
src=$work/root/usr

# Boost: the headers <boost/context/fiber.hpp> includes, as the compiler resolves them here,
# plus the whole of boost/config and boost/context (their choices depend on the compiler,
# and the device has GCC 13, this machine GCC 12).
keep_boost=$(echo '#include <boost/context/fiber.hpp>' |
  g++ -std=c++20 -M -x c++ -isystem "$src/include" - |
  tr ' \\' '\n\n' | grep "^$src/include/boost/" | sed "s|^$src/include/||" | sort -u)
mkdir -p "$dest/usr/include/boost"
for h in $keep_boost; do install -D -m 644 "$src/include/$h" "$dest/usr/include/$h"; done
cp -r "$src/include/boost/config" "$src/include/boost/context" "$dest/usr/include/boost/"

# The other header-only libraries, whole.
for d in nlohmann CLI toml++ gtest; do cp -r "$src/include/$d" "$dest/usr/include/"; done

# Static libraries and CMake configs. Only the static variant of Boost.Context is kept, so
# its config picks libboost_context.a (the shared library's runtime package is not here).
mkdir -p "$dest/usr/lib/$arch/cmake" "$dest/usr/share/cmake"
cp "$src/lib/$arch"/{libboost_context.a,libgtest.a,libgtest_main.a} "$dest/usr/lib/$arch/"
cp -r "$src/lib/$arch/cmake"/{Boost-1.74.0,BoostDetectToolset-1.74.0.cmake,boost_headers-1.74.0,boost_context-1.74.0,GTest} \
  "$dest/usr/lib/$arch/cmake/"
rm "$dest/usr/lib/$arch/cmake/boost_context-1.74.0/libboost_context-variant-shared.cmake"
cp -r "$src/share/cmake"/{nlohmann_json,CLI11} "$dest/usr/share/cmake/"

# oneTBB (the simulator's worker threads): Debian ships it only as shared libraries. All
# four that TBBConfig names must exist; the executables find them through their RUNPATH
# (CMake sets it to this folder), so the device needs no libtbb12 of its own.
cp -r "$src/include"/{tbb,oneapi} "$dest/usr/include/"
cp -a "$src/lib/$arch"/libtbb*.so* "$dest/usr/lib/$arch/"
cp -r "$src/lib/$arch/cmake/TBB" "$dest/usr/lib/$arch/cmake/"

# Keep .deps out of git in this checkout (it is also in .gitignore).
exclude=$(git -C "$root" rev-parse --git-path info/exclude)
case $exclude in /*) ;; *) exclude=$root/$exclude ;; esac
mkdir -p "$(dirname "$exclude")"
grep -qx '/.deps/' "$exclude" 2>/dev/null || echo '/.deps/' >>"$exclude"

echo "device dependencies in $dest: $(du -sh "$dest" | cut -f1), $(find "$dest" -type f | wc -l) files"
