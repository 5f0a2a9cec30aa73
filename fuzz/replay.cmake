# The fuzz harnesses' committed corpora replayed in the main build (included by
# tests/CMakeLists.txt): each harness of fuzz/ with this build's compiler and a main() of its
# own (fuzz/replay_main.cpp) instead of libFuzzer, linked against the libraries the programs
# use, so nothing of TileScope is compiled a second time. CTest's fuzz.replay_<target>
# (label fuzz) runs every input of fuzz/corpus/<target>/ once through the harness's checks.
# Fuzzing proper, with clang's libFuzzer, ASan and UBSan in a tree of its own, is
# scripts/fuzz.sh (and the label fuzz-long in tests/CMakeLists.txt).
set(FUZZ_DIR ${CMAKE_SOURCE_DIR}/fuzz)
set(FUZZ_REPLAYS "")
add_library(tilescope_fuzz_replay_main OBJECT ${FUZZ_DIR}/replay_main.cpp)
target_compile_options(tilescope_fuzz_replay_main PRIVATE -Wall -Wextra)

# `target` from its harness fuzz/<target>.cpp, linked with the libraries named after it.
function(tilescope_fuzz_replay target)
  add_executable(${target}_replay ${FUZZ_DIR}/${target}.cpp $<TARGET_OBJECTS:tilescope_fuzz_replay_main>)
  target_include_directories(${target}_replay PRIVATE ${FUZZ_DIR})
  target_link_libraries(${target}_replay PRIVATE ${ARGN})
  target_compile_options(${target}_replay PRIVATE -Wall -Wextra)
  set(FUZZ_REPLAYS ${FUZZ_REPLAYS} ${target} PARENT_SCOPE)
endfunction()

tilescope_fuzz_replay(scenario_file_fuzz tilescope_sim)
tilescope_fuzz_replay(simulation_wire_fuzz tilescope_sim)
# tilescope-cli's objects but main() (the object library tilescope_cli).
tilescope_fuzz_replay(cli_args_fuzz tilescope_cli)
# The settings parser is in the app's library, which exists with the app only; the linker
# takes its settings_text.o (and what that needs), no window or GL code.
if(TILESCOPE_BUILD_APP)
  tilescope_fuzz_replay(settings_fuzz tilescope_gui)
else()
  message(STATUS "TileScope: no app (TILESCOPE_BUILD_APP=OFF), so no replay of the settings fuzzer's corpus")
endif()
# The kernel-file front end linked in, as libtilescope-frontend.so has it.
if(TILESCOPE_HAVE_LIBCLANG)
  tilescope_fuzz_replay(kernel_file_fuzz tilescope_frontend_objects)
else()
  message(STATUS "TileScope: no libclang, so no replay of the kernel-file fuzzer's corpus")
endif()

foreach(t IN LISTS FUZZ_REPLAYS)
  add_test(NAME fuzz.replay_${t} COMMAND ${t}_replay ${FUZZ_DIR}/corpus/${t})
  set_tests_properties(fuzz.replay_${t} PROPERTIES LABELS fuzz TIMEOUT 300)
endforeach()
# An empty corpus must fail the replay, not pass it.
set(FUZZ_EMPTY ${CMAKE_CURRENT_BINARY_DIR}/fuzz-empty-corpus)
file(MAKE_DIRECTORY ${FUZZ_EMPTY})
add_test(NAME fuzz.replay_no_inputs_fails
         COMMAND sh -c "\"$1\" \"$2\"; echo exit status $?" sh $<TARGET_FILE:scenario_file_fuzz_replay> ${FUZZ_EMPTY})
set_tests_properties(fuzz.replay_no_inputs_fails PROPERTIES LABELS fuzz TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "no inputs to replay[^\n]*\nexit status 1")
