# Review findings (importer, --info): each test builds the file shape that showed a bug
# from assimp-testmodels files, in a temp folder. No window, no GL.
foreach(name review_import)
  add_executable(test_${name} test_${name}.c)
  target_link_libraries(test_${name} PRIVATE skinview_io skinview_testutil PkgConfig::CJSON)
  add_dependencies(test_${name} skinview)   # runs the real binary for --info --json
  add_test(NAME ${name} COMMAND test_${name})
  set_tests_properties(${name} PROPERTIES LABELS "io" SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
