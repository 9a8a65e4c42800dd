/* test_skin.c — the skin palette and linear blend skinning (src/anim/skin.c),
 * and the Animator that runs the whole per-frame pipeline (src/anim/animator.c),
 * on a hand-built model: 5 joints, a skinned mesh with 3 bones, a static mesh, 2 clips.
 *
 *   test_skin            both parts
 *   test_skin skin       palette + LBS only
 *   test_skin animator   Animator only
 */
#include "anim/animator.h"
#include "testutil.h"
#include "skin_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- skin palette and LBS ------------------------------------------------ */

static void test_palette(const Model *m)
{
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3], expect;
    posed_model_matrices(&m->skeleton, model, true);
    skin_palette(mesh, model, palette);
    for (int b = 0; b < 3; b++) {
        test_naive_mat4_mul(model[bone_joints[b]], mesh->inverse_bind[b], expect);
        CHECK(mat4_near(palette[b], expect, 1e-5f), "palette[%d] = model[joint %d] * inverse_bind[%d]", b,
              bone_joints[b], b);
    }
    /* Not model[b] * inverse_bind[b] (bone index used as a joint index). */
    test_naive_mat4_mul(model[0], mesh->inverse_bind[0], expect);
    CHECK(!mat4_near(palette[0], expect, 1e-3f), "the palette looks up the bone's joint, not joint = bone index");

    skin_palette_bind(mesh, palette);
    for (int b = 0; b < 3; b++) CHECK(mat4_is_identity(palette[b], 0.0f), "bind palette %d is N = the identity", b);

    /* A static mesh has no palette: nothing is written. */
    Mesh static_mesh = m->meshes[1];
    mat4 untouched;
    memset(untouched, 0x3c, sizeof untouched);
    memcpy(palette[0], untouched, sizeof untouched);
    skin_palette(&static_mesh, model, palette);
    CHECK(memcmp(palette[0], untouched, sizeof untouched) == 0, "skin_palette writes nothing for a static mesh");
}

static void test_bind_pose_reproduces_vertices(const Model *m)
{
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3], node;
    pose_local_to_model(&m->skeleton, (const mat4 *)m->skeleton.rest_local, model);
    skin_palette(mesh, model, palette);
    for (int b = 0; b < 3; b++)
        CHECK(mat4_is_identity(palette[b], 1e-5f), "rest pose = bind pose: palette[%d] is the identity", b);
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    glm_mat4_identity(node);
    skin_vertices_lbs(mesh, (const mat4 *)palette, node, positions, normals);
    for (int v = 0; v < SKIN_VERTICES; v++) {
        CHECK(vec3_near(positions[v], mesh->positions[v], 1e-5f), "bind pose: vertex %d at (%g %g %g), want (%g %g %g)",
              v, positions[v][0], positions[v][1], positions[v][2], mesh->positions[v][0], mesh->positions[v][1],
              mesh->positions[v][2]);
        CHECK(vec3_near(normals[v], mesh->normals[v], 1e-5f), "bind pose: normal %d unchanged", v);
    }
}

/* The skinned mesh in the test pose (`scaled`: with the hip's non-uniform scale), skinned by the
 * reference: its joints' model matrices, palette, and the posed vertices and normals. */
static void skin_posed(const Model *m, bool scaled, mat4 model[JOINTS], mat4 palette[3],
                       vec3 positions[SKIN_VERTICES], vec3 normals[SKIN_VERTICES])
{
    mat4 node;
    posed_model_matrices(&m->skeleton, model, scaled);
    skin_palette(&m->meshes[0], model, palette);
    glm_mat4_identity(node);
    memset(normals, 0, sizeof(vec3) * SKIN_VERTICES);
    skin_vertices_lbs(&m->meshes[0], (const mat4 *)palette, node, positions, normals);
}

static void test_lbs_posed(const Model *m)
{
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3];
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    skin_posed(m, false, model, palette, positions, normals);

    /* Vertex 0 and 5: 100 % on bone 0 (slot 0 and slot 3) follow bone 0 rigidly
     * (the `if (index > 0)` bug of SEEDS.md would leave them at the origin). */
    const int on_bone0[2] = {0, 5};
    for (int i = 0; i < 2; i++) {
        int v = on_bone0[i];
        vec3 want;
        transform_point(palette[0], mesh->positions[v], want);
        CHECK(vec3_near(positions[v], want, 1e-5f), "vertex %d (100%% bone 0) follows bone 0: (%g %g %g) want (%g %g %g)",
              v, positions[v][0], positions[v][1], positions[v][2], want[0], want[1], want[2]);
        CHECK(glm_vec3_norm(positions[v]) > 0.5f && !vec3_near(positions[v], mesh->positions[v], 1e-2f),
              "vertex %d moved with the pose (not collapsed, not left at bind)", v);
        /* Its normal is bone 0's rotation applied to the bind normal. */
        vec3 n;
        glm_mat4_mulv3(palette[0], mesh->normals[v], 0.0f, n);
        glm_vec3_normalize(n);
        CHECK(vec3_near(normals[v], n, 1e-5f), "vertex %d normal turned by bone 0", v);
    }
    /* Vertex 1 and 4: 100 % on bone 1 / bone 2. */
    vec3 want;
    transform_point(palette[1], mesh->positions[1], want);
    CHECK(vec3_near(positions[1], want, 1e-5f), "vertex 1 follows bone 1 (joint 1)");
    transform_point(palette[2], mesh->positions[4], want);
    CHECK(vec3_near(positions[4], want, 1e-5f), "vertex 4 follows bone 2 (joint 3)");

    /* Vertex 2: 0.5 bone 0 + 0.5 bone 2 = the midpoint of the two rigid results. */
    vec3 a, b, mid;
    transform_point(palette[0], mesh->positions[2], a);
    transform_point(palette[2], mesh->positions[2], b);
    glm_vec3_center(a, b, mid);
    CHECK(glm_vec3_distance(a, b) > 0.1f, "test setup: bones 0 and 2 disagree on vertex 2");
    CHECK(vec3_near(positions[2], mid, 1e-5f), "vertex 2 (0.5/0.5) at the midpoint: (%g %g %g) want (%g %g %g)",
          positions[2][0], positions[2][1], positions[2][2], mid[0], mid[1], mid[2]);
    /* Vertex 6: the same with bone 0 in slot 1. */
    transform_point(palette[1], mesh->positions[6], a);
    transform_point(palette[0], mesh->positions[6], b);
    glm_vec3_center(a, b, mid);
    CHECK(vec3_near(positions[6], mid, 1e-5f), "vertex 6 (0.5 bone 1 / 0.5 bone 0) at the midpoint");

    /* Vertex 3: 0.25 bone 1 + 0.25 bone 2 + 0.5 bone 0. */
    vec3 p1, p2, p0, blend = {0, 0, 0};
    transform_point(palette[1], mesh->positions[3], p1);
    transform_point(palette[2], mesh->positions[3], p2);
    transform_point(palette[0], mesh->positions[3], p0);
    glm_vec3_muladds(p1, 0.25f, blend);
    glm_vec3_muladds(p2, 0.25f, blend);
    glm_vec3_muladds(p0, 0.5f, blend);
    CHECK(vec3_near(positions[3], blend, 1e-5f), "vertex 3: weighted sum over three bones");

    for (int v = 0; v < SKIN_VERTICES; v++)
        CHECK(fabsf(glm_vec3_norm(normals[v]) - 1.0f) < 1e-5f, "normal %d has length 1 (%g)", v,
              glm_vec3_norm(normals[v]));

    /* out_normals may be NULL; positions are the same. */
    vec3 positions2[SKIN_VERTICES];
    mat4 node;
    glm_mat4_identity(node);
    skin_vertices_lbs(mesh, (const mat4 *)palette, node, positions2, NULL);
    CHECK(memcmp(positions, positions2, sizeof positions) == 0, "positions do not depend on out_normals");
}

static void test_normals_under_scale(const Model *m)
{
    /* A (non-uniform) scale on the hip: normals are still unit length after skinning. */
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3];
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    skin_posed(m, true, model, palette, positions, normals);
    for (int v = 0; v < SKIN_VERTICES; v++)
        CHECK(fabsf(glm_vec3_norm(normals[v]) - 1.0f) < 1e-5f, "scaled pose: normal %d has length 1 (%g)", v,
              glm_vec3_norm(normals[v]));
    /* Documented behaviour (docs/skinning.md): the normal is mat3(palette) * n, renormalised. */
    vec3 n;
    glm_mat4_mulv3(palette[1], mesh->normals[1], 0.0f, n);
    glm_vec3_normalize(n);
    CHECK(vec3_near(normals[1], n, 1e-5f), "normal = normalize(mat3(palette) * n)");
}

static void test_static_mesh(const Model *m)
{
    const Mesh *mesh = &m->meshes[1];
    JointTransform trs;
    trs_set(&trs, 1, 2, 3, 1.0f, 0, 1, 1, 2.0f);
    mat4 node;
    joint_transform_to_matrix(&trs, node);
    vec3 positions[STATIC_VERTICES], normals[STATIC_VERTICES];
    skin_vertices_lbs(mesh, NULL, node, positions, normals);   /* the palette is not read */
    for (int v = 0; v < STATIC_VERTICES; v++) {
        vec3 want, n;
        transform_point(node, mesh->positions[v], want);
        glm_quat_rotatev(trs.rotation, mesh->normals[v], n);
        CHECK(vec3_near(positions[v], want, 1e-5f), "static vertex %d = node matrix * p: (%g %g %g) want (%g %g %g)", v,
              positions[v][0], positions[v][1], positions[v][2], want[0], want[1], want[2]);
        CHECK(vec3_near(normals[v], n, 1e-5f), "static normal %d turned by the node and unit length", v);
    }
}

/* The candy-wrapper effect (docs/skinning.md): LBS averages matrices, so a vertex half
 * on an untwisted bone and half on a bone twisted by θ about the same axis lands at
 * radius cos(θ/2) from the axis — 0.26 of its radius at 150°. A property of LBS that
 * the docs quote; this pins it down (dual-quaternion skinning would keep radius 1). */
static void test_lbs_twist_collapse(void)
{
    mat4 palette[2];
    glm_mat4_identity(palette[0]);
    glm_rotate_make(palette[1], 150.0f * GLM_PIf / 180.0f, (vec3){1, 0, 0});
    vec3 positions[3] = {{0.5f, 1, 0}, {0.5f, 0, 1}, {0.5f, 1, 0}};
    vec3 normals[3] = {{0, 1, 0}, {0, 0, 1}, {0, 1, 0}};
    uint16_t indices[3][4] = {{0, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    float weights[3][4] = {{0.5f, 0.5f, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
    int bone_joint[2] = {0, 1};
    Mesh mesh = {.vertex_count = 3, .positions = positions, .normals = normals, .bone_count = 2,
                 .bone_joint = bone_joint, .joint_indices = indices, .weights = weights, .skinned = true};
    vec3 out[3], out_normals[3];
    mat4 node;
    glm_mat4_identity(node);
    skin_vertices_lbs(&mesh, (const mat4 *)palette, node, out, out_normals);
    float want = cosf(75.0f * GLM_PIf / 180.0f);
    for (int v = 0; v < 2; v++) {
        float radius = sqrtf(out[v][1] * out[v][1] + out[v][2] * out[v][2]);
        CHECK(fabsf(radius - want) < 1e-5f && fabsf(out[v][0] - 0.5f) < 1e-6f,
              "150 deg twist, 0.5/0.5: radius %g, want cos(75 deg) = %g", radius, want);
    }
    float rigid = sqrtf(out[2][1] * out[2][1] + out[2][2] * out[2][2]);
    CHECK(fabsf(rigid - 1.0f) < 1e-5f, "a vertex on one bone keeps its radius (%g)", rigid);
}

int main(int argc, char **argv)
{
    bool skin = argc < 2 || strcmp(argv[1], "skin") == 0;
    bool animator = argc < 2 || strcmp(argv[1], "animator") == 0;
    if (!skin && !animator) {
        fprintf(stderr, "usage: test_skin [skin|animator]\n");
        return 2;
    }
    Model m;
    build_model(&m);
    if (skin) {
        test_palette(&m);
        test_bind_pose_reproduces_vertices(&m);
        test_lbs_posed(&m);
        test_normals_under_scale(&m);
        test_static_mesh(&m);
        test_lbs_twist_collapse();
        test_skin_runs();
        /* every kernel this CPU has (SKINVIEW_SIMD=sse2 limits it to the baseline) */
        int best = anim_simd_level();
        for (int level = ANIM_SIMD_BASELINE; level <= best; level++) {
            anim_simd_set(level);
            printf("  kernel: %s\n", anim_simd_name(level));
            test_fast_matches_reference();
            test_renormalized_normals(anim_simd_name(level));
            test_threads_match_one_thread();
        }
        anim_simd_set(best);
        if (best == ANIM_SIMD_AVX2) test_kernels_agree();
    }
    if (animator) {
        test_animator_basics(&m);
        test_animator_switch_resets_cursors(&m);
        test_animator_no_allocation(&m);
        test_animator_static_model();
    }
    model_free(&m);
    return test_finish();
}
