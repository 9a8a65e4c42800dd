# --export-pose: OBJ vertex count, bind pose, animated pose, unwritable output (real models).
add_executable(test_export test_export.c)
target_link_libraries(test_export PRIVATE skinview_testutil skinview_io)
add_dependencies(test_export skinview)
add_test(NAME export_pose COMMAND test_export)
set_tests_properties(export_pose PROPERTIES LABELS "io;export" TIMEOUT 300)
