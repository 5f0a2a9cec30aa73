# slides: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
#
# Slides read from the back row (issue 37). slides_check.sh runs `tilescope --print-layout`
# on one view and reads the sizes it reports (layout.hpp's textReport: the smallest font each
# role was drawn in and the drawn height of its capital H).
set(SLIDES_DIR ${CMAKE_CURRENT_BINARY_DIR}/slides)
set(SLIDES_CHECK bash ${CMAKE_CURRENT_SOURCE_DIR}/slides_check.sh $<TARGET_FILE:tilescope> ${XVFB_RUN} ${SLIDES_DIR})
set(SLIDES_RESULTS ${CMAKE_SOURCE_DIR}/assets/results/ladder-4096-h100.json)

# In presentation mode at 1920x1080 (gui.slides_read_from_back_*): the caption's narration
# with capitals of at least 28 px for every preset here; the source listing's capitals at
# least 22 px where the Code panel has room for 40 columns in the slide's code font beside
# the figure (tiled-4x4, both themes, at step 6: the practice reveal's step, negative values).
# gui.slides_all_sizes_*: the whole demand, every value in a cell of Matrices or
# Convolution at least 28 px where one is drawn and some drawn for the small problems, the
# listing at least 22 px everywhere; these still fail (values are drawn at 28 px, capitals
# of 18, in cells that a 45 px font does not fit; the listing of conv1d, conv2d,
# missing-barrier and ragged falls back to 24 px where the Code panel's column is narrow) and
# carry the label known besides gui: a gap recorded, not yet closed, which scripts/test.sh (and
# so CI) leaves out and `ctest -L known` runs.
foreach(spec
    "tiled-4x4-dark|code|values-shown|--scenario|tiled-4x4|--step|6|--theme|dark"
    "tiled-4x4-light|code|values-shown|--scenario|tiled-4x4|--step|6|--theme|light"
    "conv1d|values-shown|--scenario|conv1d-tiled-tile8-mask5"
    "conv2d|--scenario|conv2d-tiled-tile8-mask5"
    "missing-barrier|values-shown|--scenario|missing-barrier-after-load|--step|3"
    "ragged|--scenario|ragged-100x37x51-tile16")
  string(REPLACE "|" ";" args "${spec}")
  list(GET args 0 name)
  list(SUBLIST args 1 -1 rest)
  set(checks caption=28)
  set(all caption=28 code=22 values=28)
  if("code" IN_LIST rest)
    list(APPEND checks code=22)
    list(REMOVE_ITEM rest code)
  endif()
  if("values-shown" IN_LIST rest)
    list(APPEND all values-shown)
    list(REMOVE_ITEM rest values-shown)
  endif()
  add_test(NAME gui.slides_read_from_back_${name}
           COMMAND ${SLIDES_CHECK} slides-${name} ${checks} -- --window 1920x1080 --presentation ${rest})
  set_tests_properties(gui.slides_read_from_back_${name} PROPERTIES LABELS gui TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "slides_check: slides-${name} passed")
  add_test(NAME gui.slides_all_sizes_${name}
           COMMAND ${SLIDES_CHECK} all-sizes-${name} ${all} -- --window 1920x1080 --presentation ${rest})
  set_tests_properties(gui.slides_all_sizes_${name} PROPERTIES LABELS "gui;known" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "slides_check: all-sizes-${name} passed")
endforeach()

# A results file opens the Ladder and Roofline unfolded (issue 37: they opened folded, so
# nothing new was visible), at the desk at 1280x720 and 1920x1080 with the default preset
# (they are the lesson then: the preset's picture folds first) and on a slide, where they
# are the slide.
foreach(size 1280x720 1920x1080)
  add_test(NAME gui.results_open_ladder_roofline_${size}
           COMMAND ${SLIDES_CHECK} results-${size} unfolded=ladder,roofline -- --window ${size} --results ${SLIDES_RESULTS})
  set_tests_properties(gui.results_open_ladder_roofline_${size} PROPERTIES LABELS gui TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "slides_check: results-${size} passed")
endforeach()
add_test(NAME gui.results_open_ladder_roofline_slide
         COMMAND ${SLIDES_CHECK} results-slide unfolded=ladder,roofline plot=300 caption=28 --
                 --window 1920x1080 --presentation --results ${SLIDES_RESULTS})
set_tests_properties(gui.results_open_ladder_roofline_slide PROPERTIES LABELS gui TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "slides_check: results-slide passed")

# On a slide the Roofline's plot keeps its height (issue 37: about 130 px): at least 300 px
# of 1080, both panels unfolded, the caption read from the back.
add_test(NAME gui.slides_roofline_height
         COMMAND ${SLIDES_CHECK} roofline-slide unfolded=ladder,roofline plot=300 caption=28 --
                 --window 1920x1080 --presentation --scenario ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/ladder-roofline.toml
                 --results ${SLIDES_RESULTS})
set_tests_properties(gui.slides_roofline_height PROPERTIES LABELS gui TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "slides_check: roofline-slide passed")
