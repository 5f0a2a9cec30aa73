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
# Asyncify instruments every function that might be on the stack when a fiber swaps; its
# analysis counts every allocation (operator new may call a new_handler, an indirect call)
# and every string or stream. The remove-list names what never reaches a swap: allocation,
# the simulator's recording (Machine, WarpMemory), strings and streams. Every pattern is
# anchored at the start of the name: a pattern with a leading '*' also matches a kernel or
# a body whose parameter list names the type, and removing those breaks the swaps (it did:
# the Roofline's counting, docs/web.md). Binaryen 108 rejects patterns with an unbalanced
# '<' or '(', hence no template names.
# ts_webfiber_run is the loop that starts and rewinds the fibers (sim/engine/fiber_emscripten.cpp):
# it must never be instrumented itself.
set(TILESCOPE_ASYNCIFY_REMOVE "operator new*" "operator delete*" "ts::sim::Machine::*" "ts::sim::WarpMemory::*"
    "std::__2::basic_string*" "std::__2::basic_ostream*" "ts_webfiber_run")
list(JOIN TILESCOPE_ASYNCIFY_REMOVE "\",\"" TILESCOPE_ASYNCIFY_REMOVE_JSON)
set(TILESCOPE_WEB_LINK -sASYNCIFY=1 "SHELL:'-sASYNCIFY_REMOVE=[\"${TILESCOPE_ASYNCIFY_REMOVE_JSON}\"]'"
    -sALLOW_MEMORY_GROWTH=1 -sDISABLE_EXCEPTION_CATCHING=0
    "SHELL:--js-library ${CMAKE_SOURCE_DIR}/web/asyncify_intrinsics.js")

# What Emscripten's libc declares but the browser cannot do (web/compat/no_processes.cpp).
add_library(tilescope_web_compat STATIC ${CMAKE_SOURCE_DIR}/web/compat/no_processes.cpp)

# The CLI for Node: reads and writes the real file system (NODERAWFS), exits when main returns.
function(tilescope_web_cli target)
  target_link_options(${target} PRIVATE ${TILESCOPE_WEB_LINK} -sENVIRONMENT=node -sNODERAWFS=1
                      -sEXIT_RUNTIME=1)
  target_link_libraries(${target} PRIVATE tilescope_web_compat)
endfunction()

# The app's libraries in the browser: ImGui 1.86 from its source package (core, std::string
# helpers, GLFW and OpenGL 3 backends; the latter uses GLES 3 under Emscripten), stb, and no
# GL loader (web/compat/gl/glad/gl.h).
function(tilescope_web_libraries)
  set(src ${TILESCOPE_IMGUI_SOURCE})
  if(NOT EXISTS ${src}/imgui.cpp)
    message(FATAL_ERROR "Dear ImGui's sources are not in ${src}: scripts/web.sh unpacks them (apt-get source imgui).")
  endif()
  add_library(tilescope_imgui STATIC ${src}/imgui.cpp ${src}/imgui_draw.cpp ${src}/imgui_tables.cpp
              ${src}/imgui_widgets.cpp ${src}/imgui_demo.cpp ${src}/misc/cpp/imgui_stdlib.cpp
              ${src}/backends/imgui_impl_glfw.cpp ${src}/backends/imgui_impl_opengl3.cpp
              ${CMAKE_SOURCE_DIR}/web/compat/stb_impl.c)
  target_include_directories(tilescope_imgui SYSTEM PUBLIC ${src} ${src}/misc/cpp ${TILESCOPE_WEB_INCLUDE}/stb)
  add_library(tilescope_glad INTERFACE)
  target_include_directories(tilescope_glad INTERFACE ${CMAKE_SOURCE_DIR}/web/compat/gl)
endfunction()

# The app as the static folder build-web/site/: tilescope.js, tilescope.wasm, tilescope.data
# (the DejaVu fonts at /fonts, assets/ at /assets, packed with --preload-file) and the
# project's own index.html (web/index.html).
function(tilescope_web_app target)
  set(site ${CMAKE_BINARY_DIR}/site)
  set(fonts /usr/share/fonts/truetype/dejavu)
  set(packed)
  foreach(f DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf)
    if(NOT EXISTS ${fonts}/${f})
      message(FATAL_ERROR "${fonts}/${f} is missing: install Debian's fonts-dejavu-core (scripts/web.sh does).")
    endif()
    list(APPEND packed "SHELL:--preload-file ${fonts}/${f}@/fonts/${f}")   # SHELL: CMake would merge repeated options
  endforeach()
  file(GLOB_RECURSE assets CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/assets/*)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${site} LINK_DEPENDS "${assets}")
  target_link_options(${target} PRIVATE ${TILESCOPE_WEB_LINK} -sENVIRONMENT=web -sUSE_GLFW=3
                      -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sFULL_ES3=1 -sINITIAL_MEMORY=67108864
                      ${packed} "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets@/assets")
  target_link_libraries(${target} PRIVATE tilescope_web_compat)
  add_custom_command(OUTPUT ${site}/index.html
                     COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/index.html ${site}/index.html
                     DEPENDS ${CMAKE_SOURCE_DIR}/web/index.html COMMENT "The page: web/index.html" VERBATIM)
  add_custom_target(${target}_page ALL DEPENDS ${site}/index.html)
  add_dependencies(${target} ${target}_page)
endfunction()
