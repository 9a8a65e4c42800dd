# Stage gfx (src/gfx/, shaders/): what the GPU draws and computes, read back. CTest names start
# with gfx_.

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
skinview_test(gfx_materials test_materials.c LINK skinview_app LABELS gfx SKIP TIMEOUT 120)
# the same program, one case each: --shadow's ground shadow, --environment's image-based light
# (a .hdr written by the test), an OBJ's opacity map (MASK) and bump map (normal map), a VAT
# bake's mesh.glb keeping the material's maps
foreach(case shadow environment opacity vat_materials)
    string(REPLACE "_materials" "" argument ${case})
    add_test(NAME gfx_${case} COMMAND test_materials ${argument})
    set_tests_properties(gfx_${case} PROPERTIES LABELS "gfx" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# GPU skinning (shader) against the CPU reference over every clip of the demo
# (needs GL: scripts/test.sh runs CTest under xvfb-run).
add_test(NAME gfx_verify_demo COMMAND skinview ${CMAKE_SOURCE_DIR}/assets/demo.fbx --verify)
set_tests_properties(gfx_verify_demo PROPERTIES LABELS "demo;gl" TIMEOUT 300)

# --verify with the DQ shader against the CPU DQS reference, and with CPU LBS, on every model
# (test_gfx_verify is built above).
add_test(NAME gfx_verify_dq COMMAND test_gfx_verify --skinning dq)
add_test(NAME gfx_verify_cpu COMMAND test_gfx_verify --skinning cpu)
# --reference: the shader against the lesson's own functions (clip_sample ... skin_vertices_lbs)
add_test(NAME gfx_verify_reference COMMAND test_gfx_verify --reference)
set_tests_properties(gfx_verify_dq gfx_verify_cpu gfx_verify_reference PROPERTIES LABELS "gfx" SKIP_RETURN_CODE 77 TIMEOUT 600)

# --gl-debug: the KHR_debug callback and the glGetError fallback catch a deliberate GL error.
add_executable(test_gl_debug test_gl_debug.c)
target_link_libraries(test_gl_debug PRIVATE skinview_app skinview_testutil)
add_test(NAME gfx_gl_debug_callback COMMAND test_gl_debug 1)
add_test(NAME gfx_gl_debug_poll COMMAND test_gl_debug poll)
set_tests_properties(gfx_gl_debug_callback gfx_gl_debug_poll PROPERTIES
  LABELS "robust;gl;gl_debug_selftest" SKIP_RETURN_CODE 77 TIMEOUT 60)

# The aids read back from renders: heat-map colours follow the weights (and sum to 1 over the
# joints), overlay joints land on the projected CPU joints (clip, bind, rest), CPU == GPU LBS.
skinview_test(gfx_teach_aids test_teach_aids.c LINK skinview_app LABELS gl SKIP TIMEOUT 600)

# Every flag of the aids through the real binary's --screenshot, with pixel statistics.
skinview_test(gfx_teach_flags test_teach_flags.c STB BINARY LABELS gl TIMEOUT 600)

# The influence view marks vertices whose 5th+ influences the import cut: a glTF written by the
# test (up to 6 influences a vertex), imported whole and split, rendered, and through the binary.
skinview_test(gfx_teach_influences_cut test_influences_cut.c LINK skinview_app STB BINARY LABELS gl TIMEOUT 300)

# The VAT player against the skinned viewer on a transformed texture through TEXCOORD_1, a LINES
# square and POINTS (test_vat_texture.c, built in tests/io.cmake).
add_test(NAME gfx_vat_texture_lines COMMAND test_vat_texture gfx)
set_tests_properties(gfx_vat_texture_lines PROPERTIES LABELS "gfx;gl" SKIP_RETURN_CODE 77 TIMEOUT 120)
