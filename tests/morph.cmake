# Morph targets (src/io/import_morph.c, src/anim/morph.c, the shader's morph pass): glTF files
# written by the test, checked against hand-computed positions on the CPU, through
# --export-pose, and GPU = CPU through --verify (transform feedback).
add_executable(test_morph test_morph.c)
target_link_libraries(test_morph PRIVATE skinview_io skinview_testutil)
add_dependencies(test_morph skinview)   # it runs the real binary
# counts malloc/calloc/realloc to show the morph path allocates nothing per frame
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  target_link_options(test_morph PRIVATE -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc)
  target_compile_definitions(test_morph PRIVATE TEST_WRAP_MALLOC)
endif()
add_test(NAME morph_targets COMMAND test_morph)
set_tests_properties(morph_targets PROPERTIES LABELS "io;gl" SKIP_RETURN_CODE 77 TIMEOUT 300)

# glTF STEP / CUBICSPLINE morph-weight samplers and node.weights, read from the file
# (src/io/gltf/gltf_anim.c): sampled weights and positions against hand-computed values.
add_executable(test_morph_interpolation test_morph_interpolation.c)
target_link_libraries(test_morph_interpolation PRIVATE skinview_io skinview_testutil)
add_dependencies(test_morph_interpolation skinview)   # it runs the real binary
add_test(NAME morph_interpolation COMMAND test_morph_interpolation)
set_tests_properties(morph_interpolation PROPERTIES LABELS "io;gl" SKIP_RETURN_CODE 77 TIMEOUT 300)
