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

# The aids read back from renders: heat-map colours follow the weights (and sum to 1 over the
# joints), overlay joints land on the projected CPU joints (clip, bind, rest), CPU == GPU LBS.
add_executable(test_teach_aids test_teach_aids.c)
target_link_libraries(test_teach_aids PRIVATE skinview_app skinview_testutil)
add_test(NAME teach_aids COMMAND test_teach_aids)
set_tests_properties(teach_aids PROPERTIES LABELS "gl" SKIP_RETURN_CODE 77 TIMEOUT 600)

# Every flag of the aids through the real binary's --screenshot, with pixel statistics.
add_executable(test_teach_flags test_teach_flags.c)
target_link_libraries(test_teach_flags PRIVATE skinview_testutil)
target_include_directories(test_teach_flags SYSTEM PRIVATE /usr/include/stb)
add_dependencies(test_teach_flags skinview)
add_test(NAME teach_flags COMMAND test_teach_flags)
set_tests_properties(teach_flags PROPERTIES LABELS "gl" TIMEOUT 600)

# The influence view marks vertices whose 5th+ influences the import cut: a glTF written by the
# test (up to 6 influences a vertex), imported whole and split, rendered, and through the binary.
add_executable(test_influences_cut test_influences_cut.c)
target_link_libraries(test_influences_cut PRIVATE skinview_app skinview_testutil)
target_include_directories(test_influences_cut SYSTEM PRIVATE /usr/include/stb)
add_dependencies(test_influences_cut skinview)
add_test(NAME teach_influences_cut COMMAND test_influences_cut)
set_tests_properties(teach_influences_cut PROPERTIES LABELS "gl" TIMEOUT 300)

# Click-to-select a joint dot (scene_click_joint, the viewer's mouse callback) against the test's
# own projection of the joints: the demo and Xbot, a clip and the bind pose, a HiDPI window.
add_executable(test_joint_click test_joint_click.c)
target_link_libraries(test_joint_click PRIVATE skinview_app skinview_testutil)
add_test(NAME teach_joint_click COMMAND test_joint_click)
set_tests_properties(teach_joint_click PROPERTIES LABELS "gl" SKIP_RETURN_CODE 77 TIMEOUT 300)

# Joint names (J) never overlap: scene_place_names on the demo and two dense rigs, four window
# sizes, bind pose and mid-clip, with and without a selected joint.
add_executable(test_name_labels test_name_labels.c)
target_link_libraries(test_name_labels PRIVATE skinview_app skinview_testutil)
add_test(NAME teach_name_labels COMMAND test_name_labels)
set_tests_properties(teach_name_labels PROPERTIES LABELS "gl" SKIP_RETURN_CODE 77 TIMEOUT 300)

# Issue 19: the vertex inspector (every number recomputed in double), rigid mode, the difference
# view, the three spaces, morph weights by hand (src/anim/inspect.c, morph_override.c).
add_executable(test_inspect test_inspect.c)
target_link_libraries(test_inspect PRIVATE skinview_io skinview_testutil)
add_test(NAME teach_inspect COMMAND test_inspect)
set_tests_properties(teach_inspect PROPERTIES LABELS "anim" TIMEOUT 300)

# Issue 19 in the window layer and the binary: each aid from its key and its flag (D E Y Z /
# Backspace; --compare, --skinning rigid, --inspect-vertex, --show-bone-space, --show-morphs,
# --morph, --isolate-joint, --hide-joints), a click inspecting the vertex under it, the morph sliders.
add_executable(test_teach_formula test_teach_formula.c)
target_link_libraries(test_teach_formula PRIVATE skinview_app skinview_testutil)
target_include_directories(test_teach_formula SYSTEM PRIVATE /usr/include/stb)
add_dependencies(test_teach_formula skinview)
add_test(NAME teach_formula COMMAND test_teach_formula)
set_tests_properties(teach_formula PROPERTIES LABELS "gl" TIMEOUT 300)
