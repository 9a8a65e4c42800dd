# Renderer and GL command tests (src/gfx, src/app/gl_commands.c, src/app/glcontext.c).
# scripts/test.sh runs CTest under xvfb-run; without DISPLAY the offscreen context is
# EGL surfaceless, and test_gfx_screenshot also runs the binary with DISPLAY unset.
set(GFX_TESTS renderer verify screenshot)
foreach(name ${GFX_TESTS})
  if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_gfx_${name}.c)
    continue()
  endif()
  add_executable(test_gfx_${name} test_gfx_${name}.c)
  target_link_libraries(test_gfx_${name} PRIVATE skinview_app skinview_testutil)
  target_include_directories(test_gfx_${name} SYSTEM PRIVATE /usr/include/stb)
  if(NOT name STREQUAL "renderer")
    add_dependencies(test_gfx_${name} skinview)   # they run the real binary
  endif()
  add_test(NAME gfx_${name} COMMAND test_gfx_${name})
  set_tests_properties(gfx_${name} PROPERTIES LABELS "gfx" SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
# Under SKINVIEW_SANITIZE, tests/CMakeLists.txt turns leak detection off for GL tests (Mesa).

# test_materials: PBR materials, alpha MASK / BLEND (sorted), normal maps, vertex colours, emissive,
# KHR_texture_transform, read back from renders of small glTF files the test writes.
add_executable(test_materials test_materials.c)
target_link_libraries(test_materials PRIVATE skinview_app skinview_testutil)
add_test(NAME gfx_materials COMMAND test_materials)
set_tests_properties(gfx_materials PROPERTIES LABELS "gfx" SKIP_RETURN_CODE 77 TIMEOUT 120)
