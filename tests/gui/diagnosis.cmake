# A run's mistake on screen: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
# Issue 37 parts 1, 6 and 7 (the missing barrier). The wrong-kernel corpus's checks of the
# caption bar, the open panels and the Code panel's line are in student_wrong_check.sh
# (gui.student_wrong.*, defined in CMakeLists.txt).

# No name cut across two rows of the Code panel, for every preset at 1280x720 (and with the
# Code panel opened where the preset leaves it folded).
set(DIAGNOSIS_DIR ${CMAKE_CURRENT_BINARY_DIR}/diagnosis)
add_test(NAME gui.code_no_split_names
         COMMAND ${XVFB} sh ${CMAKE_CURRENT_SOURCE_DIR}/code_split_check.sh $<TARGET_FILE:tilescope> 1280x720
                 ${DIAGNOSIS_DIR}/split)
set_tests_properties(gui.code_no_split_names PROPERTIES LABELS gui TIMEOUT 600
                     PASS_REGULAR_EXPRESSION "PASS: no name split" FAIL_REGULAR_EXPRESSION "FAIL")

# The missing-barrier presets at their first race (key G): the diagnosis in the caption bar,
# Code and Hazards open, the struck-out barrier and the diagnosis line in view, CUDA's
# __syncthreads(); at the desk, dark at 1280x720 and light at 1920x1080 (a lecture preset's
# slide keeps its hand-written narration: caption_bar.cpp says why; a student's kernel's slide
# is gui.student_wrong_slide.*).
foreach(view "after-load|1|1280x720|desk" "after-compute|2|1280x720|desk"
             "after-load|1|1920x1080|desk_light" "after-compute|2|1920x1080|desk_light")
  string(REPLACE "|" ";" parts "${view}")
  list(GET parts 0 which)
  list(GET parts 1 nth)
  list(GET parts 2 size)
  list(GET parts 3 mode)
  set(extra)
  set(screen)
  if(mode STREQUAL "desk_light")
    set(extra --theme light)
    set(screen -s "-screen 0 1920x1080x24")
  endif()
  add_test(NAME gui.missing_barrier_${which}_${mode}
           COMMAND ${XVFB} ${screen} sh ${CMAKE_CURRENT_SOURCE_DIR}/missing_barrier_check.sh $<TARGET_FILE:tilescope>
                   missing-barrier-${which} ${CMAKE_SOURCE_DIR}/kernels/matmul_tiled.cuh ${nth} ${size} ${extra})
  set_tests_properties(gui.missing_barrier_${which}_${mode} PROPERTIES LABELS gui
                       PASS_REGULAR_EXPRESSION "PASS: step" FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
