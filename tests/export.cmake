# glTF export (--export-gltf, src/io/gltf_write*.c, src/app/export_gltf_cmd.c; docs/export.md):
#   io_export_gltf_dcc        every ufbx-dcc row exported, the GLB posed by skinview's glTF reader against the
#                             authoring tool's OBJ (io_fbx_dcc's rule, dcc_common.c)
#   io_export_gltf_roundtrip  animated models of ../shared and assimp-testmodels: export, read back, every clip
#                             at 0, 1/3, 2/3, the end and between keys within 1e-4 of the diagonal, morph weights,
#                             clip names and lengths; GLB, meshopt GLB and .gltf; --check-export from the CLI
#   io_export_gltf_validator  the Khronos glTF-Validator (npm, tools/web) on the exports: 0 errors, 0 warnings
#                             (skipped without node or the validator)
#   io_export_gltf_errors     bad use: one line, non-zero exit, nothing left behind
skinview_test(io_export_gltf_dcc io/test_export_gltf_dcc.c SOURCES util/dcc_common.c util/export_glb.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 900)
#   io_export_gltf_three      the same GLBs posed by three.js's GLTFLoader (the oracle's pose.mjs), a second reader, by
#                             the same rule (skipped without node, ../shared or an installed copy of the oracle)
skinview_test(io_export_gltf_three io/test_export_gltf_three.c SOURCES util/dcc_common.c util/export_glb.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 1200)
skinview_test(io_export_gltf_roundtrip io/test_export_gltf_roundtrip.c LINK skinview_io BINARY LABELS io SKIP TIMEOUT 600)
skinview_test(io_export_gltf_validator io/test_export_gltf_validator.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 600)
skinview_test(io_export_gltf_errors io/test_export_gltf_errors.c BINARY LABELS io TIMEOUT 120)
#   io_export_gltf_dq         a candy-wrapper DQ skin built in memory: the export's corrective morph targets give
#                             skinview's DQ pose at every key (1e-6 of the diagonal), a stated bound between keys;
#                             a plain-LBS export is off by exactly LBS's collapse
skinview_test(io_export_gltf_dq io/test_export_gltf_dq.c LINK skinview_io LABELS io TIMEOUT 120)
#   io_export_gltf_screenshot the same --screenshot from MODEL and from its GLB (<= 0.5 % of the pixels differ;
#                             needs GL: xvfb-run or EGL)
skinview_test(io_export_gltf_screenshot io/test_export_gltf_screenshot.c LINK skinview_io STB BINARY LABELS io gl SKIP TIMEOUT 300)
#   io_export_gltf_influences --max-influences 8: the 5th..8th influences kept at import only when asked (the first four
#                             unchanged), written as JOINTS_1 / WEIGHTS_1, read back equal (1e-6); --check-export holds
skinview_test(io_export_gltf_influences io/test_export_gltf_influences.c LINK skinview_io BINARY LABELS io TIMEOUT 300)
#   io_export_gltf_textures   images: the file's PNG / JPEG bytes copied byte for byte (GLB, .gltf beside, FBX-embedded
#                             extracted from the FBX's bytes), another format (TGA) re-encoded as lossless PNG
skinview_test(io_export_gltf_textures io/test_export_gltf_textures.c LINK skinview_io LABELS io TIMEOUT 300)
#   view_export_gltf_window   Ctrl+E in the running viewer (xdotool): NAME-export-001.glb next to the model, read back,
#                             the worst distance per clip on stdout and in the message line (skipped without a display)
find_package(X11)
if(X11_FOUND)   # the message line grabbed with Xlib
  skinview_test(view_export_gltf_window view/test_export_gltf_window.c SOURCES util/testx11.c LINK ${X11_LIBRARIES} DEFINES SKINVIEW_TEST_X11=1
                INCLUDES ${X11_INCLUDE_DIR} BINARY LABELS gl window SKIP TIMEOUT 300 PROPERTIES RUN_SERIAL TRUE)
else()
  skinview_test(view_export_gltf_window view/test_export_gltf_window.c BINARY LABELS gl window SKIP TIMEOUT 300
                PROPERTIES RUN_SERIAL TRUE)
endif()
