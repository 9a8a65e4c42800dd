# The bundled demo character: regenerated == committed, FBX == GLB, clips move and loop, clean skin.
add_executable(test_demo test_demo.c)
target_link_libraries(test_demo PRIVATE skinview_testutil skinview_io)
target_compile_definitions(test_demo PRIVATE DEMO_GENERATOR="$<TARGET_FILE:make_demo_model>")
add_dependencies(test_demo make_demo_model)
add_test(NAME demo_assets COMMAND test_demo)
set_tests_properties(demo_assets PROPERTIES LABELS "demo" TIMEOUT 300)

# The viewer opens the bundled demo when no MODEL is given.
add_test(NAME demo_default_model COMMAND skinview --info --json)
set_tests_properties(demo_default_model PROPERTIES LABELS "demo" PASS_REGULAR_EXPRESSION "\"Twist\"")

# GPU skinning (shader) against the CPU reference over every clip of the demo
# (needs GL: scripts/test.sh runs CTest under xvfb-run).
add_test(NAME demo_verify COMMAND skinview ${CMAKE_SOURCE_DIR}/assets/demo.fbx --verify)
set_tests_properties(demo_verify PROPERTIES LABELS "demo;gl" TIMEOUT 300)
