# Vertex animation textures (docs/vat.md): the pure math (src/anim/vat.c) and, through the
# real binary, bake -> files -> playback on the demo and a real FBX (tests/test_vat_bake.c).
add_executable(test_vat test_vat.c)
target_link_libraries(test_vat PRIVATE skinview_anim skinview_testutil)
add_test(NAME anim_vat COMMAND test_vat)
set_tests_properties(anim_vat PROPERTIES LABELS "anim" SKIP_RETURN_CODE 77)

add_executable(test_vat_bake test_vat_bake.c)
target_link_libraries(test_vat_bake PRIVATE skinview_testutil skinview_io PkgConfig::CJSON PkgConfig::PNG)
add_dependencies(test_vat_bake skinview)
add_test(NAME vat_bake_playback COMMAND test_vat_bake)
set_tests_properties(vat_bake_playback PROPERTIES LABELS "gl;io" SKIP_RETURN_CODE 77 TIMEOUT 600)
