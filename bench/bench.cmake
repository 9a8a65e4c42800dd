# bench_anim: per-frame cost of each animation-core job (not a test: prints numbers).
#   build-anim/bench_anim                      synthetic character built in code
#   build-anim/bench_anim MODEL [--clip NAME|INDEX] [--json]   a real file (docs/performance.md)
add_executable(bench_anim ${CMAKE_CURRENT_LIST_DIR}/bench_anim.c)
target_link_libraries(bench_anim PRIVATE skinview_io skinview_anim)

# bench_vat: vertex animation textures — bake cost, texture bytes per second of animation, and
# the frame time of a skinned crowd (a pose + palette + draw per instance) vs a VAT crowd (one
# instanced draw per mesh) at N = 1, 100, 1000, 10000 (not a test: prints numbers).
#   build/bench_vat [MODEL] [--fps N] [--frames K] [--size WxH] [--counts 1,100,1000,10000]
add_executable(bench_vat ${CMAKE_CURRENT_LIST_DIR}/bench_vat.c)
target_link_libraries(bench_vat PRIVATE skinview_app glad)   # it reads GL back itself
add_dependencies(bench_vat skinview_data)

# bench_import: import time of the largest glTF/GLB files at hand and of a generated 1 M-vertex
# GLB, median of N runs (not a test: prints numbers; docs/performance.md "Import").
#   build/bench_import [MODEL ...] [--runs N] [--vertices N] [--no-generated | --generated-only] [--json]
add_executable(bench_import ${CMAKE_CURRENT_LIST_DIR}/bench_import.c)
target_link_libraries(bench_import PRIVATE skinview_io)
target_compile_definitions(bench_import PRIVATE SKINVIEW_SOURCE_DIR="${CMAKE_SOURCE_DIR}")

# bench_render: frame time of the skinned model's draw, off-screen (not a test: prints numbers;
# docs/performance.md "Rendering").
#   build/bench_render [MODEL] [--frames K] [--size WxH] [--samples N] [--clip INDEX] [--lighting flat|default] [--json]
add_executable(bench_render ${CMAKE_CURRENT_LIST_DIR}/bench_render.c)
target_link_libraries(bench_render PRIVATE skinview_app glad)   # it reads GL back itself
add_dependencies(bench_render skinview_data)

# bench_export: --export-gltf cost (import, GLB, meshopt GLB: median of N runs) and file sizes, beside
# FBX2glTF's when given its path (not a test: prints numbers; docs/export.md "Cost").
#   build/bench_export MODEL... [--runs N] [--fbx2gltf PATH] [--json]
add_executable(bench_export ${CMAKE_CURRENT_LIST_DIR}/bench_export.c)
target_link_libraries(bench_export PRIVATE skinview_io)
