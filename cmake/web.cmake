# The web build's settings (included by CMakeLists.txt when EMSCRIPTEN is set; scripts/web.sh,
# docs/web.md). Debian's emscripten 3.1.6 (clang 14, its own libc++) on the same sources:
# the simulator's fibers on Emscripten's fiber API with Asyncify (sim/engine/fiber.hpp),
# oneTBB's serial stand-in (web/serial_tbb), no CUDA, no libclang, no tests or benchmarks.
set(TILESCOPE_CUDA OFF CACHE STRING "" FORCE)
set(TILESCOPE_STUDENT OFF CACHE STRING "" FORCE)
set(TILESCOPE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(TILESCOPE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
# Dear ImGui 1.86's sources (imgui*.cpp, backends/): Debian's source package, unpacked by
# scripts/web.sh into build-web/deps/imgui (libimgui-dev ships the headers only).
set(TILESCOPE_IMGUI_SOURCE "${CMAKE_BINARY_DIR}/deps/imgui" CACHE PATH "Dear ImGui 1.86's unpacked source package")

# The header-only libraries come from the host's Debian packages. Emscripten must not see the
# host's /usr/include (glibc's headers), so a folder of links names only these four.
set(TILESCOPE_WEB_INCLUDE ${CMAKE_BINARY_DIR}/web-include)
file(MAKE_DIRECTORY ${TILESCOPE_WEB_INCLUDE})
foreach(dir nlohmann toml++ CLI stb)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "/usr/include/${dir} is missing: scripts/web.sh installs the packages that hold it.")
  endif()
  if(NOT EXISTS ${TILESCOPE_WEB_INCLUDE}/${dir})
    file(CREATE_LINK /usr/include/${dir} ${TILESCOPE_WEB_INCLUDE}/${dir} SYMBOLIC)
  endif()
endforeach()
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${TILESCOPE_WEB_INCLUDE})
set(TOMLPP_INCLUDE ${TILESCOPE_WEB_INCLUDE} CACHE PATH "" FORCE)
set(CLI11_INCLUDE ${TILESCOPE_WEB_INCLUDE} CACHE PATH "" FORCE)

# C++ exceptions as JavaScript exceptions: the simulator's faults are exceptions, and
# -fwasm-exceptions together with Asyncify crashes Debian's Binaryen.
add_compile_options(-fexceptions)
# <source_location>: an empty stand-in (web/compat/source_location says why).
include_directories(SYSTEM ${CMAKE_SOURCE_DIR}/web/compat)
add_link_options(-fexceptions)
# Linker flags both executables share: Asyncify for the fibers, a heap that grows (a block of
# 1024 threads holds 1024 fiber stacks of 96 KiB).
set(TILESCOPE_WEB_LINK -sASYNCIFY=1 -sALLOW_MEMORY_GROWTH=1 -sDISABLE_EXCEPTION_CATCHING=0)

# What Emscripten's libc declares but the browser cannot do (web/compat/no_processes.cpp).
add_library(tilescope_web_compat STATIC ${CMAKE_SOURCE_DIR}/web/compat/no_processes.cpp)

# The CLI for Node: reads and writes the real file system (NODERAWFS), exits when main returns.
function(tilescope_web_cli target)
  target_link_options(${target} PRIVATE ${TILESCOPE_WEB_LINK} -sENVIRONMENT=node -sNODERAWFS=1
                      -sEXIT_RUNTIME=1)
  target_link_libraries(${target} PRIVATE tilescope_web_compat)
endfunction()
