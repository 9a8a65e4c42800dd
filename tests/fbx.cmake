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
