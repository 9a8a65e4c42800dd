# Viewer tests: the key -> action table / playback state machine and the orbit camera.
# Both are pure (no window, no GL): their sources are compiled straight into the test
# programs, so these tests do not depend on the rest of the app being built.
add_executable(test_input test_input.c ${CMAKE_SOURCE_DIR}/src/view/playback.c ${CMAKE_SOURCE_DIR}/src/view/keys.c ${CMAKE_SOURCE_DIR}/src/view/aids.c)
target_include_directories(test_input PRIVATE ${CMAKE_SOURCE_DIR}/src/app)
# GLFW for the key constants only (no glfw calls are linked).
target_compile_options(test_input PRIVATE ${GLFW_CFLAGS_OTHER})
target_include_directories(test_input PRIVATE ${GLFW_INCLUDE_DIRS})
target_link_libraries(test_input PRIVATE skinview_testutil ${MATH_LIBRARY})
add_test(NAME input COMMAND test_input)

add_executable(test_camera test_camera.c ${CMAKE_SOURCE_DIR}/src/view/camera.c)
target_include_directories(test_camera PRIVATE ${CMAKE_SOURCE_DIR}/src/app)
target_link_libraries(test_camera PRIVATE skinview_testutil ${MATH_LIBRARY})
add_test(NAME camera COMMAND test_camera)

# The window path end to end under a virtual X server: the viewer must still be running
# (drawing frames) when `timeout` stops it, i.e. exit code 124. The viewer's own exit code
# is written to a file, so xvfb-run's clean-up hiccups under parallel runs do not count.
# Skipped when xvfb-run is not installed.
find_program(XVFB_RUN_EXECUTABLE xvfb-run)
find_program(TIMEOUT_EXECUTABLE timeout)
if(XVFB_RUN_EXECUTABLE AND TIMEOUT_EXECUTABLE)
  add_test(NAME viewer_window_xvfb
    COMMAND sh -c [=[
rc_file="$PWD/viewer_window_xvfb.rc"; rm -f "$rc_file"
"$1" -a -s "-screen 0 800x600x24" sh -c '"$1" 4 "$2" "$3" --size 640x480; echo $? > "$4"' sh "$2" "$3" "$4" "$rc_file"
rc=$(cat "$rc_file" 2>/dev/null || echo none)
[ "$rc" = 124 ] || { echo "viewer exited with $rc before the timeout (124 expected)"; exit 1; }
echo "viewer ran until the timeout"]=]
            sh ${XVFB_RUN_EXECUTABLE} ${TIMEOUT_EXECUTABLE} $<TARGET_FILE:skinview>
            ${SKINVIEW_TESTMODELS_DIR}/glTF2/simple_skin/simple_skin.gltf)
  set_tests_properties(viewer_window_xvfb PROPERTIES TIMEOUT 60 LABELS "gl;window")
endif()

# The running viewer driven with xdotool: --watch reloads (and survives a damaged file), Ctrl+R,
# F11 fullscreen, Q quits (skipped without a display or xdotool).
add_executable(test_viewer_live test_viewer_live.c)
target_link_libraries(test_viewer_live PRIVATE skinview_testutil skinview_io)
target_include_directories(test_viewer_live SYSTEM PRIVATE /usr/include/stb)
find_package(X11)
if(X11_FOUND)   # the drag-and-drop part speaks XDND with Xlib
  target_compile_definitions(test_viewer_live PRIVATE SKINVIEW_TEST_X11=1)
  target_include_directories(test_viewer_live PRIVATE ${X11_INCLUDE_DIR})
  target_link_libraries(test_viewer_live PRIVATE ${X11_LIBRARIES})
endif()
add_dependencies(test_viewer_live skinview)
add_test(NAME viewer_live COMMAND test_viewer_live)
set_tests_properties(viewer_live PROPERTIES LABELS "gl;window" SKIP_RETURN_CODE 77 TIMEOUT 120 RUN_SERIAL TRUE)
