# The web tests' harness on its own fixture page (tests/web/harness_check.py), in the native
# suite: the browser driver, the link round trip and the JSON comparison are known to work
# before there is a web build. About 15 s; needs headless Chromium and png_compare.
find_package(Python3 COMPONENTS Interpreter)
find_program(HARNESS_CHROMIUM NAMES chromium-headless-shell chromium chromium-browser)
if(Python3_Interpreter_FOUND AND HARNESS_CHROMIUM AND TARGET png_compare)
  add_test(NAME gui.web_harness
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/harness_check.py
                   --compare $<TARGET_FILE:png_compare> --cli $<TARGET_FILE:tilescope-cli>
                   --out ${CMAKE_CURRENT_BINARY_DIR}/web_harness)
  set_tests_properties(gui.web_harness PROPERTIES LABELS gui TIMEOUT 120
                       ENVIRONMENT "TILESCOPE_CHROMIUM=${HARNESS_CHROMIUM}"
                       PASS_REGULAR_EXPRESSION "harness_check: [0-9.]+ s, passed")
else()
  message(STATUS "TileScope: Python 3, headless Chromium or png_compare missing; gui.web_harness skipped")
endif()
