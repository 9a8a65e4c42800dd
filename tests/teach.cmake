# Teaching aids (issue 8): dual quaternion skinning (src/anim/skin_dq.c, shaders/skinned_dq.vert),
# the scene's aids (src/app/scene.c) and every flag of them in screenshots.
add_executable(test_skin_dq test_skin_dq.c)
target_link_libraries(test_skin_dq PRIVATE skinview_io skinview_testutil)
add_test(NAME anim_skin_dq COMMAND test_skin_dq)
set_tests_properties(anim_skin_dq PROPERTIES LABELS "anim" TIMEOUT 300)

# --verify with the DQ shader against the CPU DQS reference, and with CPU LBS, on every model
# (test_gfx_verify is built by gfx.cmake).
add_test(NAME gfx_verify_dq COMMAND test_gfx_verify --skinning dq)
add_test(NAME gfx_verify_cpu COMMAND test_gfx_verify --skinning cpu)
set_tests_properties(gfx_verify_dq gfx_verify_cpu PROPERTIES LABELS "gfx" SKIP_RETURN_CODE 77 TIMEOUT 600)
