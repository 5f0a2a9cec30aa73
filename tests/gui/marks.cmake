# marks: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
#
# Marks beside the numbers, zoom to the lesson, P before it is computed (issue 37, parts 4,
# 5 and 7): marks_check renders the practice reveal of tiled-4x4 step 6 (negative values under
# the right, wrong and missed marks and this step's outline) at the desk and on a slide in
# both themes, and step 7's "loaded this phase" outline, and reads the picture where the
# panels say they drew each value: no pixel of a mark's colour on a value, every minus sign
# showing, every glyph showing, the Practice panel and its "Why:" line on the slide. It also
# checks that no P value shows before the blocks store it, that ragged-100x37x51 opens
# zoomed to its zero-filled tile at a readable cell size, and that conv2d's 24 x 24 input
# and its 16 x 16 N_ds in the Shared memory panel have one outline round the loaded tile, not
# a frame on each cell (marks_check.cpp).
add_executable(marks_check marks_check.cpp)
target_link_libraries(marks_check PRIVATE tilescope_gui_for_tests)
target_compile_options(marks_check PRIVATE -Wall -Wextra)
add_test(NAME gui.marks_beside_values COMMAND ${XVFB} $<TARGET_FILE:marks_check>)
set_tests_properties(gui.marks_beside_values PROPERTIES LABELS gui TIMEOUT 300
                     PASS_REGULAR_EXPRESSION "marks_check: [0-9]+ checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
