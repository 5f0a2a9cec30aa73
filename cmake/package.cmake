# The Debian package of an installed TileScope (README, "Install on a lab machine"):
# `cmake --build build --target package` or `cd build && cpack -G DEB` writes
# tilescope_VERSION_ARCH.deb from the install() rules: tilescope, tilescope-cli,
# tilescope-runner, lib/tilescope/libtilescope-frontend.so, share/tilescope/assets and the
# headers a student's kernel is built against (share/tilescope/include), all under /usr.
# scripts/check-default-generator.sh builds it, installs it with apt-get and grades a
# solution with the installed CLI.
if(EMSCRIPTEN)   # the web build is a folder for a web server (docs/web.md), not a package
  return()
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "TileScope maintainers <maintainers@users.noreply.a-seed-3268c8bb.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see the tiled CUDA kernels of PMPP run, step by step")
# The summary above is the Description's first line (CPack puts it there); this is the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "TileScope makes the tiled CUDA kernels of Programming Massively Parallel
Processors (chapters 4 to 7) visible: an instrumented simulator runs one fiber
per CUDA thread and records every global and shared access and barrier. The
app (tilescope) steps through a block's trace as lecture slides do; the
command line (tilescope-cli) prints the counters as JSON and grades a
student's own kernel file, compiled with g++ and run inside a bubblewrap
sandbox (tilescope-runner).
.
Live GPU timings, the cuBLAS comparison and the GPU check of a student's
kernel need an NVIDIA driver and the CUDA 13 toolkit in /usr/local/cuda,
which are not Debian packages and are installed separately; without them
everything else works.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # tilescope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# The libraries the binaries are linked against (their NEEDED entries), from dpkg-shlibdeps.
# No CUDA library is among them, so it finds every one in a Debian package: the CUDA
# runtime is linked statically (CUDA::cudart_static), and cuBLAS, NVRTC and the driver's
# libcuda are opened with dlopen when a command first needs them (gpu/cublas_reference.cu,
# gpu/student_launch.cu); libclang is NEEDED by libtilescope-frontend.so alone, which the
# executables open with dlopen too. The binaries carry no RUNPATH once installed.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What shared-library scanning cannot see, because it is run or opened by path at run time:
# - the C++ compiler that builds a student's kernel into a module (TILESCOPE_CXX_COMPILER,
#   student/module.cpp) with the C++ library's headers: this build's compiler, by default
#   /usr/bin/c++, the alternative Debian's g++ package provides;
# - bubblewrap (/usr/bin/bwrap), the sandbox of that compiler and of tilescope-runner
#   (student/confine.cpp);
# - the DejaVu fonts the app and its SVG export find through fontconfig (app/gui/theme.cpp);
# - OpenGL: GLFW opens libGL.so.1 with dlopen (glad takes its functions through GLFW, so the
#   app has no NEEDED libGL), and libGL opens Mesa's drivers from their folder (software
#   rendering included).
set(TILESCOPE_PACKAGE_DEPENDS "g++")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  string(REGEX MATCH "^[0-9]+" TILESCOPE_GXX_MAJOR "${CMAKE_CXX_COMPILER_VERSION}")
  # A module must be built by a compiler whose C++ library is no older than the runner's.
  set(TILESCOPE_PACKAGE_DEPENDS "g++ (>= 4:${TILESCOPE_GXX_MAJOR}), g++-${TILESCOPE_GXX_MAJOR}, libstdc++-${TILESCOPE_GXX_MAJOR}-dev")
endif()
string(APPEND TILESCOPE_PACKAGE_DEPENDS ", bubblewrap, fonts-dejavu-core")
if(TILESCOPE_BUILD_APP)
  string(APPEND TILESCOPE_PACKAGE_DEPENDS ", libgl1, libgl1-mesa-dri")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${TILESCOPE_PACKAGE_DEPENDS}")

include(CPack)
