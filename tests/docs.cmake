# Stage docs: the documentation agrees with the code. CTest names start with docs_.

# --help, the README and the man page list the same options; README and man page the same keys.
add_executable(test_docs test_docs.c ${CMAKE_SOURCE_DIR}/src/view/keys.c)
target_include_directories(test_docs PRIVATE ${CMAKE_SOURCE_DIR}/src ${GLFW_INCLUDE_DIRS})
target_link_libraries(test_docs PRIVATE skinview_testutil)
add_dependencies(test_docs skinview skinview_man)
add_test(NAME docs_flags_agree COMMAND test_docs ${CMAKE_BINARY_DIR}/man/skinview.1)

# docs/skinning.md cannot disagree with the code: its worked-example numbers (the demo vertex's
# from `skinview --inspect-vertex ... --json`, checked against the reference jobs) and
# images/offset_matrix.svg are what tools/skinning_numbers.c computes with src/anim today, and
# every "trap N" / "section N" / "Name" reference to it (in the doc and the sources) resolves.
add_executable(test_doc_numbers test_doc_numbers.c ${CMAKE_SOURCE_DIR}/tools/skinning_numbers.c)
target_compile_definitions(test_doc_numbers PRIVATE SKINNING_NUMBERS_NO_MAIN SKINNING_NUMBERS_DEMO="${CMAKE_SOURCE_DIR}/assets/demo.fbx"
  SKINNING_NUMBERS_ARM="${CMAKE_SOURCE_DIR}/assets/arm.gltf"
  SKINNING_NUMBERS_SKINVIEW="$<TARGET_FILE:skinview>")
target_include_directories(test_doc_numbers PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/tools)
target_link_libraries(test_doc_numbers PRIVATE skinview_io skinview_testutil PkgConfig::CJSON)
add_dependencies(test_doc_numbers skinview)
add_test(NAME docs_numbers COMMAND test_doc_numbers)
set_tests_properties(docs_numbers PROPERTIES LABELS "docs" TIMEOUT 60)

# README.md and docs/skinning.md point at code that exists: every path a file or folder of the tree,
# every "`name` (src/file.c)" a name in that file (test_doc_pointers.c).
skinview_test(docs_code_pointers test_doc_pointers.c LABELS docs)
