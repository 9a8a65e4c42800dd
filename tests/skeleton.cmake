# Skeleton overlay (src/anim/skeleton_lines.c): which parent -> child segments are drawn, and
# their endpoints, on a hand-built scene; counts on real files. No window, no GL.
add_executable(test_skeleton_lines test_skeleton_lines.c)
target_link_libraries(test_skeleton_lines PRIVATE skinview_io skinview_testutil)
add_test(NAME anim_skeleton_lines COMMAND test_skeleton_lines)
set_tests_properties(anim_skeleton_lines PROPERTIES LABELS "anim" SKIP_RETURN_CODE 77)
