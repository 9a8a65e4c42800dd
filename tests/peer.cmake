# Where skinview and the three.js peer disagree (docs/accuracy.md), the authored data decides:
# each test reads the file's own numbers with its own parser and checks skinview's pose against
# them. Real files from assimp-testmodels (required) and ../shared/models (skipped when absent).
set(PEER_TESTS collada_full_turns collada_bind_shape fbx_take_edges)
foreach(name ${PEER_TESTS})
  add_executable(test_${name} test_${name}.c)
  target_link_libraries(test_${name} PRIVATE skinview_io skinview_testutil PkgConfig::ASSIMP PkgConfig::ZLIB)
  add_test(NAME peer_${name} COMMAND test_${name})
  set_tests_properties(peer_${name} PROPERTIES LABELS "io" SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# The authoring tool's own OBJ of each FBX at a given moment (../shared/models/ufbx-dcc, skipped
# when absent): skinview --export-pose against it, every row and FBX variant of its manifest.
add_executable(test_fbx_dcc test_fbx_dcc.c)
target_link_libraries(test_fbx_dcc PRIVATE skinview_testutil PkgConfig::CJSON)
add_dependencies(test_fbx_dcc skinview)   # it runs the real binary
add_test(NAME io_fbx_dcc COMMAND test_fbx_dcc)
set_tests_properties(io_fbx_dcc PROPERTIES LABELS "io" SKIP_RETURN_CODE 77 TIMEOUT 300)
