# The fast paths (src/anim/skin_fast.c, skin_threads.c) against the scalar references on real
# models. Speed itself is measured by bench/bench_anim, never by a test.
add_executable(test_skin_fast_models test_skin_fast_models.c)
target_link_libraries(test_skin_fast_models PRIVATE skinview_io skinview_testutil)
add_test(NAME speed_skin_fast_models COMMAND test_skin_fast_models)
set_tests_properties(speed_skin_fast_models PROPERTIES LABELS "anim;io" SKIP_RETURN_CODE 77 TIMEOUT 300)
# The same with the baseline (SSE2) kernels forced: on an AVX2 machine the run above takes the
# AVX2 + FMA kernels (src/anim/simd.c), so both are checked against the scalar reference.
add_test(NAME speed_skin_fast_models_sse2 COMMAND test_skin_fast_models)
set_tests_properties(speed_skin_fast_models_sse2 PROPERTIES LABELS "anim;io" SKIP_RETURN_CODE 77 TIMEOUT 300
                     ENVIRONMENT "SKINVIEW_SIMD=sse2")

# The fast pose path (src/anim/pose_fast.c) against clip_sample / pose_local_to_model / skin_palette
# on hand-built clips (every interpolation kind, missing and one-key channels, sign flips, wide arcs).
add_executable(test_pose_fast test_pose_fast.c)
target_link_libraries(test_pose_fast PRIVATE skinview_anim skinview_testutil)
add_test(NAME anim_pose_fast COMMAND test_pose_fast)
set_tests_properties(anim_pose_fast PROPERTIES LABELS "anim" SKIP_RETURN_CODE 77)

# Skinned meshes sorted by influence count at import (src/anim/mesh_layout.c): same triangles,
# same data per corner, same skinned surface, at most 4 influence runs per mesh.
add_executable(test_mesh_layout test_mesh_layout.c)
target_link_libraries(test_mesh_layout PRIVATE skinview_io skinview_testutil)
add_test(NAME speed_mesh_layout COMMAND test_mesh_layout)
set_tests_properties(speed_mesh_layout PROPERTIES LABELS "anim;io" SKIP_RETURN_CODE 77 TIMEOUT 300)

# The key-frame optimiser (src/anim/key_reduce.c, --optimize-keys): hand-built channels of every
# kind, then every animated test model at the default tolerance: worst pose change <= 1e-4 of the
# bbox diagonal, measured by resampling.
add_executable(test_key_reduce test_key_reduce.c)
target_link_libraries(test_key_reduce PRIVATE skinview_io skinview_testutil)
add_test(NAME speed_key_reduce COMMAND test_key_reduce)
set_tests_properties(speed_key_reduce PROPERTIES LABELS "anim;io" SKIP_RETURN_CODE 77 TIMEOUT 300)
