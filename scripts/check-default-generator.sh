#!/usr/bin/env bash
# Proves that the project configures and builds with CMake's default generator (Unix
# Makefiles), not only with Ninja, and that `cmake --install` gives an app and a CLI that run
# from the install prefix. CI runs it after the tests; with CUDA it narrows the GPU
# architectures to one (90-real) to stay quick; set TILESCOPE_CUDA_ARCHITECTURES to change it.
# Then, from the same build, the Debian package (cmake/package.cmake): `cpack -G DEB`, an
# install with apt-get (root, or sudo), a grade of an exercise's solution and list-kernels
# with the installed /usr/bin/tilescope-cli, and its removal (also when a check fails).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
package_installed=
cleanup() {
  if [ -n "$package_installed" ]; then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q tilescope >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
bash "$root/scripts/install-deps.sh"
# Unoptimised (-O0): what is proved here is the generator and the install, not the code's
# speed, and CI builds the whole app a second time for it (7 min 53 s here at -O0 with the
# CUDA path, beside a test run).
cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0 -DTILESCOPE_BUILD_TESTS=OFF \
      -DTILESCOPE_BUILD_BENCH=OFF -DTILESCOPE_BUILD_TOOLS=OFF -DTILESCOPE_CUDA_ARCHITECTURES="${TILESCOPE_CUDA_ARCHITECTURES:-90-real}"
grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$work/build/CMakeCache.txt"
cmake --build "$work/build" -j"$(nproc)"
cmake --install "$work/build" --prefix "$work/prefix"
# Run from somewhere else, so that nothing is found through the working directory.
cd /
"$work/prefix/bin/tilescope-cli" list-kernels >/dev/null
# With libclang, a kernel file goes through the installed front end, which the CLI opens on
# first use from the prefix's lib/.../tilescope/ (frontend/frontend_loader.hpp).
if [ -n "$(find "$work/prefix" -name libtilescope-frontend.so)" ]; then
  "$work/prefix/bin/tilescope-cli" translate --kernel-file "$root/tests/student/kernels/matmul_tiled.cu" \
      --out "$work/translations" >/dev/null
fi
env -u TILESCOPE_ASSETS xvfb-run -a "$work/prefix/bin/tilescope" --scenario tiled-4x4 --step 6 \
    --screenshot "$work/installed.png" --print-caption
test -s "$work/installed.png"
echo "default generator (Unix Makefiles): build, install and an installed screenshot of preset tiled-4x4 work"

# ---- the Debian package, from the build above (README, "Install on a lab machine") ----------
# About 20 s more here (cpack 10 s, apt-get install and purge, one module compiled).
packaged=$SECONDS
if [ -e /usr/bin/tilescope-cli ] && ! dpkg -S /usr/bin/tilescope-cli >/dev/null 2>&1; then
  echo "/usr/bin/tilescope-cli exists but is not the tilescope package's: not installing the package over it" >&2
  exit 1
fi
(cd "$work/build" && cpack -G DEB >/dev/null)
deb=$(echo "$work"/build/tilescope_*.deb)
test -f "$deb"
dpkg-deb -f "$deb" Package Version Depends
dpkg-deb -c "$deb" >"$work/deb-files"
for f in ./usr/bin/tilescope ./usr/bin/tilescope-cli ./usr/bin/tilescope-runner \
         ./usr/share/tilescope/assets/exercises/tiled-matmul.toml \
         ./usr/share/tilescope/include/student/module_abi.hpp; do
  grep -q " $f\$" "$work/deb-files" || { echo "the package lacks $f" >&2; exit 1; }
done
if [ -n "$(find "$work/prefix" -name libtilescope-frontend.so)" ]; then
  grep -q ' ./usr/lib/tilescope/libtilescope-frontend.so$' "$work/deb-files" \
      || { echo "the package lacks usr/lib/tilescope/libtilescope-frontend.so" >&2; exit 1; }
fi
package_installed=1
# Every dependency is installed by scripts/install-deps.sh already, so nothing is downloaded.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >/dev/null
# The installed copy alone: its exercises from /usr/share/tilescope/assets, and the module built
# against the headers in the package (a binary uses the source tree it was built from while
# that exists, as here, so TILESCOPE_INCLUDE_DIR names the package's).
# No TILESCOPE_* variable but that one, and an empty cache, so the module is compiled here.
installed=(env -i PATH=/usr/bin:/bin HOME="$work/home" TILESCOPE_INCLUDE_DIR=/usr/share/tilescope/include)
"${installed[@]}" /usr/bin/tilescope-cli grade --exercise tiled-matmul \
    --kernel-file "$root/tests/student/solutions/tiled-matmul.cu" | tee "$work/grade.txt"
grep -q '^verdict: PASS' "$work/grade.txt"
"${installed[@]}" /usr/bin/tilescope-cli list-kernels >"$work/kernels.txt"
grep -q '^matmul-tiled ' "$work/kernels.txt"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q tilescope >/dev/null
package_installed=
test ! -e /usr/bin/tilescope-cli
echo "Debian package: $(basename "$deb") built, installed, graded tiled-matmul (PASS) and removed in $((SECONDS - packaged)) s"
