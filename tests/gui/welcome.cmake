# welcome: GUI tests (included from tests/gui/CMakeLists.txt, label gui).
# The way in (issue 37): the welcome window's place and lessons from --print-layout, a click
# on a lesson, F1, no welcome in a plain screenshot, and a click on the Timeline legend's
# words opening the glossary at its term (tests/gui/welcome_check.sh). The
# ordering function, the glossary, the Keys table and the file chooser have unit tests in
# tests/app/welcome_test.cpp.
set(WELCOME_CHECK sh ${CMAKE_CURRENT_SOURCE_DIR}/welcome_check.sh $<TARGET_FILE:tilescope> ${CMAKE_SOURCE_DIR}/assets/scenarios)
add_test(NAME gui.welcome_lessons_desk COMMAND ${XVFB} ${WELCOME_CHECK} layout 1280x720)
add_test(NAME gui.welcome_lessons_slide_light
         COMMAND ${XVFB} -s "-screen 0 1920x1080x24" ${WELCOME_CHECK} layout 1920x1080 --presentation --theme light)
add_test(NAME gui.welcome_click_opens_lesson COMMAND ${XVFB} ${WELCOME_CHECK} click)
add_test(NAME gui.welcome_f1 COMMAND ${XVFB} ${WELCOME_CHECK} f1)
add_test(NAME gui.welcome_absent_from_screenshots COMMAND ${XVFB} ${WELCOME_CHECK} absent)
add_test(NAME gui.glossary_from_timeline_legend COMMAND ${XVFB} ${WELCOME_CHECK} legend)
set_tests_properties(gui.welcome_lessons_desk gui.welcome_lessons_slide_light gui.welcome_click_opens_lesson
                     gui.welcome_f1 gui.welcome_absent_from_screenshots gui.glossary_from_timeline_legend
                     PROPERTIES LABELS gui PASS_REGULAR_EXPRESSION "welcome_check: PASS" FAIL_REGULAR_EXPRESSION "FAIL")
