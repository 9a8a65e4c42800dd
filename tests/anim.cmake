# Stage anim (src/anim/): the animation core, pure functions on hand-built data and on imported
# models — no window, no GL. CTest names start with anim_.
skinview_test(anim_sampling anim/test_sampling.c LINK skinview_anim LABELS anim SKIP)
skinview_test(anim_pose anim/test_pose.c LINK skinview_anim LABELS anim SKIP)
# test_skin counts malloc/calloc/realloc calls to show that animator_evaluate()
# and the jobs it runs never allocate (GNU ld / lld: -Wl,--wrap=SYMBOL).
skinview_test(anim_skin anim/test_skin.c SOURCES anim/test_skin_fast.c anim/test_skin_animator.c anim/skin_fixture.c
              LINK skinview_anim WRAP_MALLOC ARGS skin LABELS anim SKIP)
skinview_test(anim_animator anim/test_skin.c ARGS animator LABELS anim SKIP)

# Generated tangent frames for normal maps (src/anim/tangents.c).
skinview_test(anim_tangents anim/test_tangents.c LINK skinview_anim)

# Skeleton overlay (src/anim/skeleton_lines.c): which parent -> child segments are drawn, and
# their endpoints, on a hand-built scene; counts on real files. No window, no GL.
skinview_test(anim_skeleton_lines anim/test_skeleton_lines.c LINK skinview_testio LABELS anim SKIP)

# The fast paths (src/anim/skin_fast.c, skin_threads.c) against the scalar references on real
# models. Speed itself is measured by bench/bench_anim, never by a test.
skinview_test(anim_skin_fast_models anim/test_skin_fast_models.c LINK skinview_testio LABELS anim io SKIP TIMEOUT 300)
# The same with the baseline (SSE2) kernels forced: on an AVX2 machine the run above takes the
# AVX2 + FMA kernels (src/anim/simd.c), so both are checked against the scalar reference.
skinview_test(anim_skin_fast_models_sse2 anim/test_skin_fast_models.c LABELS anim io SKIP TIMEOUT 300
              ENVIRONMENT SKINVIEW_SIMD=sse2)

# The fast pose path (src/anim/pose_fast.c) against clip_sample / pose_local_to_model / skin_palette
# on hand-built clips (every interpolation kind, missing and one-key channels, sign flips, wide arcs).
skinview_test(anim_pose_fast anim/test_pose_fast.c LINK skinview_anim LABELS anim SKIP)

# Skinned meshes sorted by influence count at import (src/anim/mesh_layout.c): same triangles,
# same data per corner, same skinned surface, at most 4 influence runs per mesh.
skinview_test(anim_mesh_layout anim/test_mesh_layout.c LINK skinview_io LABELS anim io SKIP TIMEOUT 300)

# The key-frame optimiser (src/anim/key_reduce.c, --optimize-keys): hand-built channels of every
# kind, then every animated test model at the default tolerance: worst pose change <= 1e-4 of the
# bbox diagonal, measured by resampling.
skinview_test(anim_key_reduce anim/test_key_reduce.c LINK skinview_io LABELS anim io SKIP TIMEOUT 300)

# Dual quaternion skinning (src/anim/skin_dq.c) against its references (the shader: gfx_verify_dq).
skinview_test(anim_skin_dq anim/test_skin_dq.c LINK skinview_testio LABELS anim TIMEOUT 300)

# Issue 19: the vertex inspector (every number recomputed in double), rigid mode, the difference
# view, the three spaces, morph weights by hand (src/anim/inspect.c, morph_override.c).
skinview_test(anim_inspect anim/test_inspect.c LINK skinview_io LABELS anim TIMEOUT 300)

# Vertex animation textures (docs/vat.md): the pure math (src/anim/vat.c).
skinview_test(anim_vat anim/test_vat.c LINK skinview_anim LABELS anim SKIP)

# --reference: the functions docs/skinning.md teaches (Animator.reference) and the fast path give the
# same pose (joints, skinned vertices, morph weights) on every skinned test model, every clip.
skinview_test(anim_reference_mode anim/test_reference_mode.c LINK skinview_testio LABELS anim io SKIP TIMEOUT 300)
# Issue 28: clips of other files on a character (src/anim/retarget*.c, docs/retargeting.md): every
# test model's clips retargeted onto itself (on and off) within 1e-6 of the diagonal; an A-pose rig
# onto a T-pose rig written by the test (arm up within 1e-4 rad, feet on the ground, world rotation
# deltas); mixamo.fbx <-> Xbot.glb and the CMU BVH takes on Xbot (every limb, feet within 2 % of the
# leg at contacts, travel); renamed copies of Xbot's rig (prefixes, Unreal, Rigify, bone map); refusals.
skinview_test(anim_retarget anim/test_retarget.c SOURCES anim/test_retarget_real.c anim/retarget_fixture.c LINK skinview_testio LABELS anim io TIMEOUT 300)
# Issue 28: morph-weight tracks of an animation file carried to the character's targets of the same
# name (src/anim/retarget_morph.c): other order, other meshes, duplicates, unnamed and missing names,
# tangents copied, and the weight played through the Animator.
skinview_test(anim_retarget_morph anim/test_retarget_morph.c LINK skinview_anim LABELS anim)
