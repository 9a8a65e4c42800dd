# glTF export (--export-gltf, src/io/gltf_write*.c, src/app/export_gltf_cmd.c; docs/export.md):
#   io_export_gltf_dcc        every ufbx-dcc row exported, the GLB posed by skinview's glTF reader against the
#                             authoring tool's OBJ (io_fbx_dcc's rule, dcc_common.c)
#   io_export_gltf_roundtrip  animated models of ../shared and assimp-testmodels: export, read back, every clip
#                             at 0, 1/3, 2/3, the end and between keys within 1e-4 of the diagonal, morph weights,
#                             clip names and lengths; GLB, meshopt GLB and .gltf; --check-export from the CLI
#   io_export_gltf_validator  the Khronos glTF-Validator (npm, tools/web) on the exports: 0 errors, 0 warnings
#                             (skipped without node or the validator)
#   io_export_gltf_errors     bad use: one line, non-zero exit, nothing left behind
skinview_test(io_export_gltf_dcc io/test_export_gltf_dcc.c SOURCES util/dcc_common.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 900)
skinview_test(io_export_gltf_roundtrip io/test_export_gltf_roundtrip.c LINK skinview_io BINARY LABELS io SKIP TIMEOUT 600)
skinview_test(io_export_gltf_validator io/test_export_gltf_validator.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 600)
skinview_test(io_export_gltf_errors io/test_export_gltf_errors.c BINARY LABELS io TIMEOUT 120)
#   io_export_gltf_screenshot the same --screenshot from MODEL and from its GLB (<= 0.5 % of the pixels differ;
#                             needs GL: xvfb-run or EGL)
skinview_test(io_export_gltf_screenshot io/test_export_gltf_screenshot.c LINK skinview_io STB BINARY LABELS io gl SKIP TIMEOUT 300)
