# Import rules checked on small files the tests write.
# Name binding (src/io/import_skeleton.c, trap 10 in docs/skinning.md): a glTF written by the test with
# mesh nodes named like their bones; bones and channels must bind to the armature's nodes.
add_executable(test_same_names test_same_names.c)
target_link_libraries(test_same_names PRIVATE skinview_io skinview_testutil)
add_test(NAME io_same_names COMMAND test_same_names)
set_tests_properties(io_same_names PROPERTIES LABELS "io" SKIP_RETURN_CODE 77)

# glTF STEP / CUBICSPLINE samplers (src/io/gltf/gltf_anim.c),
# a clip that starts after 0: a .gltf (data: URI) and a .glb written by the test.
add_executable(test_gltf_interpolation test_gltf_interpolation.c)
target_link_libraries(test_gltf_interpolation PRIVATE skinview_io skinview_testutil)
add_test(NAME io_gltf_interpolation COMMAND test_gltf_interpolation)
set_tests_properties(io_gltf_interpolation PROPERTIES LABELS "io" SKIP_RETURN_CODE 77)
