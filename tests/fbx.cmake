# The FBX reader (issue 16, src/io/fbx/): the record tree and object graph on files the test
# writes (binary and ASCII, damaged ones), then on every FBX of ../shared/models and assets/.
add_executable(test_fbx_doc test_fbx_doc.c)
target_link_libraries(test_fbx_doc PRIVATE skinview_io skinview_testutil PkgConfig::ZLIB)
add_test(NAME io_fbx_doc_tokens COMMAND test_fbx_doc tokens)
add_test(NAME io_fbx_doc_files COMMAND test_fbx_doc files)
set_tests_properties(io_fbx_doc_tokens io_fbx_doc_files PROPERTIES LABELS "io;fbx" SKIP_RETURN_CODE 77 TIMEOUT 300)

# Blend-shape channels with in-between targets (fbx_blend.c): the weight rule by hand, a small
# scene written by the test, Maya's in-between file from ../shared (skipped when absent).
add_executable(test_fbx_blend test_fbx_blend.c)
target_link_libraries(test_fbx_blend PRIVATE skinview_io skinview_testutil)
add_test(NAME io_fbx_blend COMMAND test_fbx_blend)
set_tests_properties(io_fbx_blend PROPERTIES LABELS "io;fbx" TIMEOUT 120)

# FBX older than 7.1 built without Assimp (fbx_legacy.c): a written FBX 6.1 scene, then every
# legacy FBX of ../shared/models through import_model and the real binary (--info, --export-pose).
add_executable(test_fbx_legacy test_fbx_legacy.c)
target_link_libraries(test_fbx_legacy PRIVATE skinview_io skinview_testutil)
add_dependencies(test_fbx_legacy skinview)
add_test(NAME io_fbx_legacy_scene COMMAND test_fbx_legacy scene)
add_test(NAME io_fbx_legacy_files COMMAND test_fbx_legacy files)
set_tests_properties(io_fbx_legacy_scene io_fbx_legacy_files PROPERTIES LABELS "io;fbx" TIMEOUT 300)

# The FBX reader's own libFuzzer target (clang, -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh runs it).
if(SKINVIEW_FUZZ)
  add_executable(fuzz_fbx fuzz/fuzz_fbx.c)
  target_link_libraries(fuzz_fbx PRIVATE skinview_io)
  target_link_options(fuzz_fbx PRIVATE -fsanitize=fuzzer,address,undefined)
endif()
