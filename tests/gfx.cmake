# Stage gfx (src/gfx/, shaders/): what the GPU draws and computes, read back. CTest names start
# with gfx_.

# Renderer and GL command tests (src/gfx, src/app/gl_commands.c, src/app/glcontext.c).
# scripts/test.sh runs CTest under xvfb-run; without DISPLAY the offscreen context is
# EGL surfaceless, and test_gfx_screenshot also runs the binary with DISPLAY unset.
skinview_test(gfx_renderer gfx/test_gfx_renderer.c LINK skinview_app STB LABELS gfx SKIP TIMEOUT 300)
# these two run the real binary
skinview_test(gfx_verify gfx/test_gfx_verify.c LINK skinview_app STB BINARY LABELS gfx SKIP TIMEOUT 300)
skinview_test(gfx_screenshot gfx/test_gfx_screenshot.c LINK skinview_app STB BINARY LABELS gfx SKIP TIMEOUT 300)
# Under SKINVIEW_SANITIZE, tests/CMakeLists.txt turns leak detection off for GL tests (Mesa).

# test_materials: PBR materials, alpha MASK / BLEND (sorted), normal maps, vertex colours, emissive,
# KHR_texture_transform, read back from renders of small glTF files the test writes.
skinview_test(gfx_materials gfx/test_materials.c SOURCES gfx/test_materials_light.c gfx/materials_fixture.c LINK skinview_app LABELS gfx SKIP TIMEOUT 120)
# the same program, one case each: --shadow's ground shadow, --environment's image-based light
# (a .hdr written by the test), an OBJ's opacity map (MASK) and bump map (normal map), a VAT
# bake's mesh.glb keeping the material's maps
foreach(case shadow environment opacity vat_materials)
  string(REPLACE "_materials" "" argument ${case})
  skinview_test(gfx_${case} gfx/test_materials.c ARGS ${argument} LABELS gfx SKIP TIMEOUT 120)
endforeach()

# GPU skinning (shader) against the CPU reference over every clip of the demo
# (needs GL: scripts/test.sh runs CTest under xvfb-run).
skinview_test(gfx_verify_demo COMMAND skinview ${CMAKE_SOURCE_DIR}/assets/demo.fbx --verify LABELS demo gl TIMEOUT 300)

# --verify with the DQ shader against the CPU DQS reference, and with CPU LBS, on every model
# (test_gfx_verify is built above).
skinview_test(gfx_verify_dq gfx/test_gfx_verify.c ARGS --skinning dq LABELS gfx SKIP TIMEOUT 600)
skinview_test(gfx_verify_cpu gfx/test_gfx_verify.c ARGS --skinning cpu LABELS gfx SKIP TIMEOUT 600)
# --reference: the shader against the lesson's own functions (clip_sample ... skin_vertices_lbs)
skinview_test(gfx_verify_reference gfx/test_gfx_verify.c ARGS --reference LABELS gfx SKIP TIMEOUT 600)

# --gl-debug: the KHR_debug callback and the glGetError fallback catch a deliberate GL error.
skinview_test(gfx_gl_debug_callback gfx/test_gl_debug.c LINK skinview_app ARGS 1
              LABELS robust gl gl_debug_selftest SKIP TIMEOUT 60)
skinview_test(gfx_gl_debug_poll gfx/test_gl_debug.c ARGS poll LABELS robust gl gl_debug_selftest SKIP TIMEOUT 60)

# The aids read back from renders: heat-map colours follow the weights (and sum to 1 over the
# joints), overlay joints land on the projected CPU joints (clip, bind, rest), CPU == GPU LBS.
skinview_test(gfx_teach_aids gfx/test_teach_aids.c LINK skinview_app LABELS gl SKIP TIMEOUT 600)

# Every flag of the aids through the real binary's --screenshot, with pixel statistics.
skinview_test(gfx_teach_flags gfx/test_teach_flags.c BINARY LABELS gl TIMEOUT 600)

# The influence view marks vertices whose 5th+ influences the import cut: a glTF written by the
# test (up to 6 influences a vertex), imported whole and split, rendered, and through the binary.
skinview_test(gfx_teach_influences_cut gfx/test_influences_cut.c LINK skinview_app STB BINARY LABELS gl TIMEOUT 300)

# The VAT player against the skinned viewer on a transformed texture through TEXCOORD_1, a LINES
# square and POINTS: gfx_vat_texture_lines, registered in tests/io.cmake with the program it shares
# (io/test_vat_texture.c).
