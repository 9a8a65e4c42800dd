# Name binding (src/io/import_skeleton.c, DESIGN.md trap 10): a glTF written by the test with
# mesh nodes named like their bones; bones and channels must bind to the armature's nodes.
add_executable(test_same_names test_same_names.c)
target_link_libraries(test_same_names PRIVATE skinview_io skinview_testutil)
add_test(NAME io_same_names COMMAND test_same_names)
set_tests_properties(io_same_names PROPERTIES LABELS "io" SKIP_RETURN_CODE 77)
