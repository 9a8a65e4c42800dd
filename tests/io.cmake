# Import / --info tests (src/io/import*.c, src/app/info.c): real models from
# assimp-testmodels (required) and ../shared/models (when present). No window, no GL.
# The Assimp reference import (skinview's flags, none of its code) shared by the tests that
# compare the importer or --info with Assimp.
add_library(skinview_assimp_reference STATIC assimp_reference.c)
target_include_directories(skinview_assimp_reference PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(skinview_assimp_reference PUBLIC PkgConfig::ASSIMP)

set(IO_TESTS import_bindpose import_reference import_static import_split import_clips hierarchy info_json errors validate)
foreach(name ${IO_TESTS})
  if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_${name}.c)
    continue()
  endif()
  add_executable(test_${name} test_${name}.c)
  target_link_libraries(test_${name} PRIVATE skinview_io skinview_testutil PkgConfig::ASSIMP PkgConfig::CJSON)
  if(name MATCHES "^(import_reference|import_split|info_json)$")
    target_link_libraries(test_${name} PRIVATE skinview_assimp_reference)
  endif()
  if(name MATCHES "^(info_json|errors|import_static)$")
    add_dependencies(test_${name} skinview)   # they run the real binary
  endif()
  add_test(NAME io_${name} COMMAND test_${name})
  set_tests_properties(io_${name} PROPERTIES LABELS "io" SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# The FBX transform and curves (src/io/fbx/fbx_transform.c, fbx_curve.c): pure functions against
# values worked out by hand. No files, no window.
foreach(name fbx_transform fbx_curve)
  add_executable(test_${name} test_${name}.c)
  target_link_libraries(test_${name} PRIVATE skinview_io skinview_testutil)
  add_test(NAME io_${name} COMMAND test_${name})
  set_tests_properties(io_${name} PROPERTIES LABELS "io")
endforeach()
