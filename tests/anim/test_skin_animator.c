/* test_skin_animator.c — the Animator that runs the whole per-frame pipeline (src/anim/animator.c)
 * against the pipeline by hand on the hand-built model, clip switches, and no allocation per frame.
 * Part of the program test_skin (skin_fixture.h). */
#include "skin_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Animator -------------------------------------------------------------- */

/* The pipeline by hand, with fresh cursors. */
static void reference_evaluate(const Model *m, int clip, float time, mat4 *joint_model, mat4 palettes[][3])
{
    mat4 local[JOINTS];
    TrackCursor cursors[8];
    memset(cursors, 0, sizeof cursors);
    pose_set_rest(&m->skeleton, local);
    if (clip >= 0) clip_sample(&m->clips[clip], &m->skeleton, time, cursors, local);
    pose_local_to_model(&m->skeleton, local, joint_model);
    skin_palette(&m->meshes[0], joint_model, palettes[0]);
}

static bool animator_matches(const Animator *a, const Model *m, int clip, float time)
{
    mat4 joint_model[JOINTS], palettes[1][3];
    reference_evaluate(m, clip, time, joint_model, palettes);
    for (int j = 0; j < JOINTS; j++)
        if (!mat4_near(a->joint_model[j], joint_model[j], 1e-6f)) return false;
    for (int b = 0; b < 3; b++)
        if (!mat4_near(a->palettes[0][b], palettes[0][b], 1e-6f)) return false;
    return true;
}

void test_animator_basics(const Model *m)
{
    Animator a;
    CHECK(animator_init(&a, m), "animator_init");
    CHECK(a.playback.clip == ANIMATOR_REST_POSE && animator_matches(&a, m, ANIMATOR_REST_POSE, 0.0f),
          "after init: the rest pose");

    animator_evaluate(&a, ANIMATOR_BIND_POSE, 0.0f);
    for (int b = 0; b < 3; b++) CHECK(mat4_is_identity(a.palettes[0][b], 0.0f), "bind pose, N = I: palette %d = identity", b);
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    animator_skin_mesh(&a, 0, positions, normals);
    bool same = true;
    for (int v = 0; v < SKIN_VERTICES; v++) same = same && vec3_near(positions[v], m->meshes[0].positions[v], 1e-6f);
    CHECK(same, "bind pose, N = I: skinned vertices are the mesh's own");
    animator_free(&a);

    /* An FBX-like N (0.01 unit scale, Z-up -> Y-up turn, an offset): the bind pose is the stored
     * vertices placed by N, each bone's joint at N * inverse(inverse_bind), the joints that no mesh
     * binds hang off their parent at rest (the static mesh on "prop" follows "hip"). */
    Model fbx_like = *m;
    Mesh meshes[2] = {m->meshes[0], m->meshes[1]};
    fbx_like.meshes = meshes;
    mat4 n;
    glm_mat4_identity(n);
    glm_translate(n, (vec3){0.5f, -2.0f, 3.0f});
    glm_rotate(n, -1.5707963f, (vec3){1, 0, 0});
    glm_scale_uni(n, 0.01f);
    glm_mat4_copy(n, meshes[0].bind_matrix);
    CHECK(animator_init(&a, &fbx_like), "animator_init (N != I)");
    animator_evaluate(&a, ANIMATOR_BIND_POSE, 0.0f);
    for (int b = 0; b < 3; b++) {
        mat4 joint_bind, want;
        glm_mat4_inv(meshes[0].inverse_bind[b], joint_bind);
        test_naive_mat4_mul(n, joint_bind, want);
        CHECK(mat4_near(a.joint_model[bone_joints[b]], want, 1e-5f), "bind pose: joint %d at N * inverse(offset)",
              bone_joints[b]);
        CHECK(mat4_near(a.palettes[0][b], n, 1e-6f), "bind pose: palette %d = N", b);
    }
    CHECK(mat4_near(a.joint_model[0], m->skeleton.rest_local[0], 1e-6f), "bind pose: the unbound root stays at rest");
    mat4 prop_want;
    test_naive_mat4_mul(a.joint_model[1], m->skeleton.rest_local[4], prop_want);
    CHECK(mat4_near(a.joint_model[4], prop_want, 1e-6f), "bind pose: an unbound joint follows its bound parent");
    mat4 static_matrix;
    animator_mesh_matrix(&a, 1, static_matrix);
    CHECK(mat4_near(static_matrix, prop_want, 1e-6f), "bind pose: the static mesh follows its joint");
    /* local[] agrees with joint_model[]: local -> model gives the same bind pose */
    mat4 again[JOINTS];
    pose_local_to_model(&m->skeleton, (const mat4 *)a.local, again);
    bool agree = true;
    for (int j = 0; j < JOINTS; j++) agree = agree && mat4_near(again[j], a.joint_model[j], 1e-5f);
    CHECK(agree, "bind pose: local[] composes to joint_model[]");
    animator_skin_mesh(&a, 0, positions, normals);
    same = true;
    for (int v = 0; v < SKIN_VERTICES; v++) {
        vec3 want;
        transform_point(n, m->meshes[0].positions[v], want);
        same = same && vec3_near(positions[v], want, 1e-6f);
    }
    CHECK(same, "bind pose: skinned vertices = N * stored");
    animator_free(&a);
    CHECK(animator_init(&a, m), "animator_init");

    /* Forward playback equals fresh evaluation at every frame, in both clips. */
    for (int clip = 0; clip < 2; clip++) {
        int wrong = 0;
        for (int frame = 0; frame <= 130; frame++) {
            float t = (float)frame / 60.0f;
            animator_evaluate(&a, clip, t);
            if (!animator_matches(&a, m, clip, t)) wrong++;
        }
        CHECK(wrong == 0, "clip %d forward playback: %d frames differ from a fresh evaluation", clip, wrong);
    }

    /* Skinned mesh: drawn with identity (the palette lands in scene space); static: its node. */
    mat4 matrix;
    animator_evaluate(&a, 0, 1.5f);
    animator_mesh_matrix(&a, 0, matrix);
    CHECK(mat4_is_identity(matrix, 0.0f), "skinned mesh matrix is the identity (trap 2)");
    animator_mesh_matrix(&a, 1, matrix);
    CHECK(mat4_near(matrix, a.joint_model[4], 0.0f), "static mesh matrix = its node's model matrix");
    mat4 rest_matrix;
    animator_evaluate(&a, ANIMATOR_REST_POSE, 0.0f);
    animator_mesh_matrix(&a, 1, rest_matrix);
    CHECK(!mat4_near(matrix, rest_matrix, 1e-3f), "the static mesh moves with its animated node");
    animator_evaluate(&a, 0, 1.5f);
    vec3 static_positions[STATIC_VERTICES];
    animator_skin_mesh(&a, 1, static_positions, NULL);
    vec3 want;
    transform_point(a.joint_model[4], m->meshes[1].positions[1], want);
    CHECK(vec3_near(static_positions[1], want, 1e-5f), "animator_skin_mesh: static vertex follows its node");

    /* animator_skin_mesh (the fast path) = skin_vertices_lbs (the reference) at a posed frame. */
    vec3 fast[SKIN_VERTICES], fast_normals[SKIN_VERTICES], reference[SKIN_VERTICES], reference_normals[SKIN_VERTICES];
    animator_skin_mesh(&a, 0, fast, fast_normals);
    skin_vertices_lbs(&m->meshes[0], (const mat4 *)a.palettes[0], matrix, reference, reference_normals);
    CHECK(vec3_max_difference(fast, reference, SKIN_VERTICES) <= 1e-6 &&
              vec3_max_difference(fast_normals, reference_normals, SKIN_VERTICES) <= 1e-6,
          "animator_skin_mesh = skin_vertices_lbs within 1e-6 (positions %.2g, normals %.2g)",
          vec3_max_difference(fast, reference, SKIN_VERTICES), vec3_max_difference(fast_normals, reference_normals, SKIN_VERTICES));

    /* Out-of-range clip index = rest pose. */
    animator_evaluate(&a, 7, 0.5f);
    CHECK(animator_matches(&a, m, ANIMATOR_REST_POSE, 0.0f), "clip index past the end gives the rest pose");
    animator_free(&a);
    CHECK(a.local == NULL && a.palettes == NULL, "animator_free clears the struct");
}

void test_animator_switch_resets_cursors(const Model *m)
{
    Animator played, fresh;
    CHECK(animator_init(&played, m) && animator_init(&fresh, m), "two animators");
    for (int frame = 0; frame <= 118; frame++) animator_evaluate(&played, 0, (float)frame / 60.0f); /* near the end */
    animator_evaluate(&played, 1, 0.3f);
    animator_evaluate(&fresh, 1, 0.3f);
    CHECK(memcmp(played.joint_model, fresh.joint_model, sizeof(mat4) * JOINTS) == 0 &&
              memcmp(played.palettes[0], fresh.palettes[0], sizeof(mat4) * 3) == 0,
          "Walk then Wave: same pose as a fresh Wave");
    CHECK(memcmp(played.playback.cursors, fresh.playback.cursors, sizeof(TrackCursor) * 3) == 0,
          "switching clip resets every cursor (the tracks Wave does not have too)");
    /* And back to the first clip at an earlier time (a backward jump). */
    animator_evaluate(&played, 0, 0.2f);
    CHECK(animator_matches(&played, m, 0, 0.2f), "back to Walk at 0.2 s equals a fresh evaluation");
    animator_free(&played);
    animator_free(&fresh);
}

void test_animator_no_allocation(const Model *m)
{
    Animator a;
    long at_start = test_allocations;
    CHECK(animator_init(&a, m), "animator_init");
#ifdef TEST_WRAP_MALLOC
    CHECK(test_allocations > at_start, "allocation counting works (animator_init allocated %ld times)",
          test_allocations - at_start);
#else
    (void)at_start;
#endif
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    SkinThreads *pool = skin_threads_create(3);   /* created once, before counting */
    RandomSkin big;
    random_skin_build(&big, 3 * SKIN_THREADS_MIN_SHARE + 5, 5, 3u);
    vec3 *big_out = test_calloc((size_t)big.vertex_count, sizeof(vec3));
    SkinJob big_job = random_skin_job(&big, NULL, 0, big_out, NULL);
    float checksum = 0.0f;
    long before = test_allocations;
    unsigned int state = 99u;
    for (int i = 0; i < 10000; i++) {
        state = state * 1664525u + 1013904223u;
        int clip = (int)(state >> 28) % 4 - 2;       /* -2 .. 1: bind, rest, Walk, Wave */
        float t = (float)(state >> 8) / 16777216.0f * 2.5f - 0.2f;
        if (i % 1000 == 999) t = NAN;
        animator_evaluate(&a, clip, t);
        animator_skin_mesh(&a, 0, positions, normals);
        animator_skin_mesh(&a, 1, positions, normals);
        if (i % 100 == 0) skin_threads_run(pool, &big_job, 1);   /* the threaded path, 3 threads */
        checksum += positions[0][0] + big_out[big.vertex_count - 1][0];
    }
#ifdef TEST_WRAP_MALLOC
    CHECK(test_allocations - before == 0, "10000 evaluations + skinning (100 of them on 3 threads) allocated %ld times",
          test_allocations - before);
#else
    (void)before;
    printf("note: allocation counting needs -Wl,--wrap (not available here)\n");
#endif
    CHECK(isfinite(checksum), "10000 evaluations give finite vertices");
    skin_threads_destroy(pool);
    free(big_out);
    random_skin_free(&big);
    animator_free(&a);
}

void test_animator_static_model(void)
{
    /* trap 9 in docs/skinning.md: no bones, no clips, not even a joint — still a model. */
    Model m;
    memset(&m, 0, sizeof m);
    m.mesh_count = 1;
    m.meshes = test_calloc(1, sizeof(Mesh));
    build_static_mesh(&m.meshes[0], -1);
    Animator a;
    CHECK(animator_init(&a, &m), "animator_init on a model without joints");
    animator_evaluate(&a, 0, 1.0f);
    animator_evaluate(&a, ANIMATOR_BIND_POSE, 0.0f);
    mat4 matrix;
    animator_mesh_matrix(&a, 0, matrix);
    CHECK(mat4_is_identity(matrix, 0.0f), "a mesh without a node is drawn as it is");
    vec3 positions[STATIC_VERTICES];
    animator_skin_mesh(&a, 0, positions, NULL);
    bool same = true;
    for (int v = 0; v < STATIC_VERTICES; v++) same = same && vec3_near(positions[v], m.meshes[0].positions[v], 0.0f);
    CHECK(same, "static model: vertices unchanged");
    animator_free(&a);
    model_free(&m);
    CHECK(m.meshes == NULL && m.mesh_count == 0, "model_free zeroes the model");
}
