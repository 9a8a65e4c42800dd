# Viewer UX (issue 11): clip browser, timeline, playback modes, cross-fade, framing, HUD, errors first.
# Pure logic is compiled straight into the test programs (no window, no GL).
add_executable(test_browser test_browser.c ${CMAKE_SOURCE_DIR}/src/view/browser.c ${CMAKE_SOURCE_DIR}/src/view/timeline.c)
target_include_directories(test_browser PRIVATE ${CMAKE_SOURCE_DIR}/src/app)
target_link_libraries(test_browser PRIVATE skinview_testutil ${MATH_LIBRARY})
add_test(NAME ux_browser_timeline COMMAND test_browser)

add_executable(test_blend test_blend.c)
target_link_libraries(test_blend PRIVATE skinview_app skinview_testutil)
add_test(NAME ux_blend_root_motion COMMAND test_blend)

add_executable(test_facing test_facing.c)
target_link_libraries(test_facing PRIVATE skinview_app skinview_testutil)
add_test(NAME ux_facing COMMAND test_facing)

# Screenshots of the first frame (framing) and of the HUD (browser, timeline, status line).
add_executable(test_ux_screens test_ux_screens.c)
target_link_libraries(test_ux_screens PRIVATE skinview_testutil)
target_include_directories(test_ux_screens SYSTEM PRIVATE /usr/include/stb)
add_dependencies(test_ux_screens skinview)
add_test(NAME ux_screens COMMAND test_ux_screens)
set_tests_properties(ux_screens PROPERTIES LABELS "gfx" TIMEOUT 600)

# Errors first: every bad flag and bad file ends before a window exists, with no display at all
# (DISPLAY and WAYLAND_DISPLAY unset): the message names the problem, never "cannot open a window".
add_executable(test_errors_first test_errors_first.c)
target_link_libraries(test_errors_first PRIVATE skinview_testutil)
add_dependencies(test_errors_first skinview)
add_test(NAME ux_errors_first COMMAND test_errors_first)
set_tests_properties(ux_errors_first PROPERTIES TIMEOUT 120)
