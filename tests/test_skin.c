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

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting allocations (tests/anim.cmake links with -Wl,--wrap=malloc,...) --- */
static long allocations;
#ifdef TEST_WRAP_MALLOC
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size) { allocations++; return __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { allocations++; return __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { allocations++; return __real_realloc(p, size); }
#endif

/* ---- helpers ------------------------------------------------------------- */

static bool vec3_near(const vec3 a, const vec3 b, float eps)
{
    return fabsf(a[0] - b[0]) <= eps && fabsf(a[1] - b[1]) <= eps && fabsf(a[2] - b[2]) <= eps;
}

static bool mat4_near(const mat4 a, const mat4 b, float eps)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (fabsf(a[c][r] - b[c][r]) > eps) return false;
    return true;
}

static bool mat4_is_identity(const mat4 m, float eps)
{
    mat4 identity;
    glm_mat4_identity(identity);
    return mat4_near(m, identity, eps);
}


static void transform_point(const mat4 m, const vec3 p, vec3 out)
{
    for (int r = 0; r < 3; r++) out[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void trs_set(JointTransform *trs, float tx, float ty, float tz, float angle, float ax, float ay, float az,
                    float scale)
{
    vec3 axis = {ax, ay, az};
    glm_vec3_normalize(axis);
    glm_vec3_copy((vec3){tx, ty, tz}, trs->translation);
    glm_quatv(trs->rotation, angle, axis);
    glm_vec3_fill(trs->scale, scale);
}

/* ---- the hand-built model -------------------------------------------------
 *
 *   joint 0 root        rest: translate (0,0,0), turn 0.3 rad about y
 *   joint 1 hip         parent 0, translate (0,1,0)
 *   joint 2 knee        parent 1, translate (0,1,0), turn 0.2 about x
 *   joint 3 foot        parent 2, translate (0,1,0)
 *   joint 4 prop        parent 1, translate (1,0,0)   (holds the static mesh)
 *
 * Mesh 0 (skinned, its node is joint 0): bones in a deliberately different order
 * than the joints: bone 0 = knee (joint 2), bone 1 = hip (joint 1), bone 2 = foot (joint 3).
 * Mesh 1 (static, node joint 4): a triangle. */
enum { JOINTS = 5, SKIN_VERTICES = 7, STATIC_VERTICES = 3 };
static const int bone_joints[3] = {2, 1, 3};

static const float skin_positions[SKIN_VERTICES][3] = {
    {0.2f, 2.1f, 0.1f},   /* 0: 100 % bone 0 (slot 0) */
    {-0.3f, 1.2f, 0.0f},  /* 1: 100 % bone 1 */
    {0.0f, 2.6f, -0.2f},  /* 2: 0.5 bone 0 + 0.5 bone 2 */
    {0.1f, 1.9f, 0.3f},   /* 3: three bones, bone 0 in slot 2 */
    {0.0f, 3.2f, 0.4f},   /* 4: 100 % bone 2 */
    {0.4f, 2.4f, -0.1f},  /* 5: 100 % bone 0, in slot 3 */
    {-0.1f, 1.5f, 0.2f},  /* 6: 0.5 bone 1 + 0.5 bone 0 */
};
static const uint16_t skin_indices[SKIN_VERTICES][4] = {
    {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}, {1, 2, 1, 0}, {1, 0, 0, 0},
};
static const float skin_weights[SKIN_VERTICES][4] = {
    {1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.25f, 0.25f, 0.5f, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0.5f, 0.5f, 0, 0},
};

static void build_skeleton(Skeleton *s)
{
    static const int parent[JOINTS] = {-1, 0, 1, 2, 1};
    static const char *names[JOINTS] = {"root", "hip", "knee", "foot", "prop"};
    s->joint_count = JOINTS;
    s->names = xcalloc(JOINTS, sizeof *s->names);
    s->parent = xcalloc(JOINTS, sizeof *s->parent);
    s->rest_local = xcalloc(JOINTS, sizeof *s->rest_local);
    s->rest_trs = xcalloc(JOINTS, sizeof *s->rest_trs);
    s->is_bone = xcalloc(JOINTS, sizeof *s->is_bone);
    trs_set(&s->rest_trs[0], 0, 0, 0, 0.3f, 0, 1, 0, 1.0f);
    trs_set(&s->rest_trs[1], 0, 1, 0, 0.0f, 0, 0, 1, 1.0f);
    trs_set(&s->rest_trs[2], 0, 1, 0, 0.2f, 1, 0, 0, 1.0f);
    trs_set(&s->rest_trs[3], 0, 1, 0, 0.0f, 0, 0, 1, 1.0f);
    trs_set(&s->rest_trs[4], 1, 0, 0, 0.0f, 0, 0, 1, 1.0f);
    for (int j = 0; j < JOINTS; j++) {
        snprintf(s->names[j], SV_NAME_MAX, "%s", names[j]);
        s->parent[j] = parent[j];
        joint_transform_to_matrix(&s->rest_trs[j], s->rest_local[j]);
    }
    for (int b = 0; b < 3; b++) s->is_bone[bone_joints[b]] = true;
}

static void build_skinned_mesh(Mesh *mesh, const Skeleton *skeleton)
{
    snprintf(mesh->name, sizeof mesh->name, "body");
    mesh->vertex_count = SKIN_VERTICES;
    mesh->positions = xcalloc(SKIN_VERTICES, sizeof(vec3));
    mesh->normals = xcalloc(SKIN_VERTICES, sizeof(vec3));
    mesh->uvs = xcalloc(SKIN_VERTICES, sizeof(vec2));
    mesh->joint_indices = xcalloc(SKIN_VERTICES, sizeof *mesh->joint_indices);
    mesh->weights = xcalloc(SKIN_VERTICES, sizeof *mesh->weights);
    for (int v = 0; v < SKIN_VERTICES; v++) {
        glm_vec3_copy((float *)skin_positions[v], mesh->positions[v]);
        vec3 n = {sinf((float)v), 0.5f, cosf((float)v)};
        glm_vec3_normalize(n);
        glm_vec3_copy(n, mesh->normals[v]);
        memcpy(mesh->joint_indices[v], skin_indices[v], sizeof skin_indices[v]);
        memcpy(mesh->weights[v], skin_weights[v], sizeof skin_weights[v]);
    }
    mesh->index_count = 3;
    mesh->indices = xcalloc(3, sizeof(uint32_t));
    mesh->indices[0] = 0, mesh->indices[1] = 1, mesh->indices[2] = 2;
    mesh->skinned = true;
    mesh->node_joint = 0;
    mesh->material = -1;
    mesh->bone_count = 3;
    glm_mat4_identity(mesh->bind_matrix);   /* N: bound with mesh space = scene space (as glTF) */
    mesh->bone_joint = xcalloc(3, sizeof(int));
    mesh->inverse_bind = xcalloc(3, sizeof(mat4));
    /* The mesh was bound in the rest pose, with mesh space = scene space:
     * inverse_bind_i = inverse(model_rest[joint of bone i]). */
    mat4 model[JOINTS];
    pose_local_to_model(skeleton, (const mat4 *)skeleton->rest_local, model);
    for (int b = 0; b < 3; b++) {
        mesh->bone_joint[b] = bone_joints[b];
        glm_mat4_inv(model[bone_joints[b]], mesh->inverse_bind[b]);
    }
}

static void build_static_mesh(Mesh *mesh, int node_joint)
{
    snprintf(mesh->name, sizeof mesh->name, "sword");
    mesh->vertex_count = STATIC_VERTICES;
    mesh->positions = xcalloc(STATIC_VERTICES, sizeof(vec3));
    mesh->normals = xcalloc(STATIC_VERTICES, sizeof(vec3));
    mesh->uvs = xcalloc(STATIC_VERTICES, sizeof(vec2));
    const float p[3][3] = {{0, 0, 0}, {0.5f, 0, 0}, {0, 0.5f, 0.1f}};
    for (int v = 0; v < STATIC_VERTICES; v++) {
        glm_vec3_copy((float *)p[v], mesh->positions[v]);
        glm_vec3_copy((vec3){0, 0, 1}, mesh->normals[v]);
    }
    mesh->index_count = 3;
    mesh->indices = xcalloc(3, sizeof(uint32_t));
    mesh->indices[0] = 0, mesh->indices[1] = 1, mesh->indices[2] = 2;
    mesh->node_joint = node_joint;
    mesh->material = -1;
}

static void track_rotation(JointTrack *t, int count, float duration, float axis_x, float axis_y, float axis_z,
                           float amplitude)
{
    t->rotation_count = count;
    t->rotation_times = xcalloc((size_t)count, sizeof(float));
    t->rotation_values = xcalloc((size_t)count, sizeof(versor));
    vec3 axis = {axis_x, axis_y, axis_z};
    glm_vec3_normalize(axis);
    for (int k = 0; k < count; k++) {
        float u = (float)k / (float)(count - 1);
        t->rotation_times[k] = duration * u * u * (3.0f - 2.0f * u);   /* irregular spacing */
        glm_quatv(t->rotation_values[k], amplitude * sinf(6.0f * u), axis);
    }
}

static void track_translation(JointTrack *t, int count, float duration, float x, float y, float z)
{
    t->translation_count = count;
    t->translation_times = xcalloc((size_t)count, sizeof(float));
    t->translation_values = xcalloc((size_t)count, sizeof(vec3));
    for (int k = 0; k < count; k++) {
        float u = (float)k / (float)(count - 1);
        t->translation_times[k] = duration * u;
        glm_vec3_copy((vec3){x * u, y * u * u, z * (1.0f - u)}, t->translation_values[k]);
    }
}

/* Skeleton + skinned mesh + static mesh + clip "Walk" (3 tracks) and "Wave" (1 track). */
static void build_model(Model *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->source_path, sizeof m->source_path, "(built in test_skin.c)");
    build_skeleton(&m->skeleton);
    m->mesh_count = 2;
    m->meshes = xcalloc(2, sizeof(Mesh));
    build_skinned_mesh(&m->meshes[0], &m->skeleton);
    build_static_mesh(&m->meshes[1], 4);

    m->clip_count = 2;
    m->clips = xcalloc(2, sizeof(Clip));
    Clip *walk = &m->clips[0];
    snprintf(walk->name, sizeof walk->name, "Walk");
    walk->duration = 2.0f;
    walk->track_count = 3;
    walk->tracks = xcalloc(3, sizeof(JointTrack));
    walk->tracks[0].joint = 1;
    track_rotation(&walk->tracks[0], 9, 2.0f, 1, 0, 0, 0.8f);
    walk->tracks[1].joint = 2;
    track_rotation(&walk->tracks[1], 5, 2.0f, 1, 0.2f, 0, 1.2f);
    track_translation(&walk->tracks[1], 3, 2.0f, 0.1f, 0.2f, 0.3f);
    walk->tracks[2].joint = 4;
    track_translation(&walk->tracks[2], 2, 2.0f, 0.0f, 2.0f, 0.0f);
    Clip *wave = &m->clips[1];
    snprintf(wave->name, sizeof wave->name, "Wave");
    wave->duration = 1.0f;
    wave->track_count = 1;
    wave->tracks = xcalloc(1, sizeof(JointTrack));
    wave->tracks[0].joint = 3;
    track_rotation(&wave->tracks[0], 4, 1.0f, 0, 0, 1, 1.5f);
}

/* Any pose: local = T*R*S with varied values, including a non-uniform scale on the hip. */
static void posed_model_matrices(const Skeleton *s, mat4 *model, bool scaled)
{
    mat4 local[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        JointTransform trs = s->rest_trs[j];
        vec3 axis = {0.3f, 1.0f - 0.2f * (float)j, 0.5f};
        glm_vec3_normalize(axis);
        glm_quatv(trs.rotation, 0.4f + 0.35f * (float)j, axis);
        trs.translation[0] += 0.1f * (float)j;
        if (scaled && j == 1) glm_vec3_copy((vec3){1.5f, 0.7f, 2.0f}, trs.scale);
        joint_transform_to_matrix(&trs, local[j]);
    }
    pose_local_to_model(s, local, model);
}

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

static void test_lbs_posed(const Model *m)
{
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3], node;
    posed_model_matrices(&m->skeleton, model, false);
    skin_palette(mesh, model, palette);
    glm_mat4_identity(node);
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    memset(normals, 0, sizeof normals);
    skin_vertices_lbs(mesh, (const mat4 *)palette, node, positions, normals);

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
    skin_vertices_lbs(mesh, (const mat4 *)palette, node, positions2, NULL);
    CHECK(memcmp(positions, positions2, sizeof positions) == 0, "positions do not depend on out_normals");
}

static void test_normals_under_scale(const Model *m)
{
    /* A (non-uniform) scale on the hip: normals are still unit length after skinning. */
    const Mesh *mesh = &m->meshes[0];
    mat4 model[JOINTS], palette[3], node;
    posed_model_matrices(&m->skeleton, model, true);
    skin_palette(mesh, model, palette);
    glm_mat4_identity(node);
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    skin_vertices_lbs(mesh, (const mat4 *)palette, node, positions, normals);
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

/* ---- fast skinning (skin_fast.c, skin_threads.c) against the reference ---------- */

/* Largest |a - b| over n vec3, divided by max(1, largest |a|): a relative difference. */
static double vec3_max_difference(const vec3 *a, const vec3 *b, int n)
{
    double worst = 0.0, size = 1.0;
    for (int v = 0; v < n; v++)
        for (int i = 0; i < 3; i++) {
            worst = fmax(worst, fabs((double)a[v][i] - (double)b[v][i]));
            size = fmax(size, fabs((double)a[v][i]));
        }
    return worst / size;
}

static void test_skin_runs(void)
{
    const float weights[7][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.2f, 0.3f, 0.1f, 0.4f},
                                 {0, 0, 0, 1}, {0.5f, 0, 0.5f, 0}, {0.5f, 0, 0.5f, 0}};
    SkinRun runs[7];
    int count = skin_runs_build(weights, 7, NULL);
    CHECK(count == 4, "runs counted: %d, want 4 (1 1 | 2 | 4 4 | 3 3)", count);
    CHECK(skin_runs_build(weights, 7, runs) == count, "runs built = runs counted");
    const SkinRun want[4] = {{0, 2, 1}, {2, 1, 2}, {3, 2, 4}, {5, 2, 3}};
    for (int r = 0; r < 4 && r < count; r++)
        CHECK(runs[r].first == want[r].first && runs[r].count == want[r].count && runs[r].influences == want[r].influences,
              "run %d = (first %d, count %d, influences %d), want (%d, %d, %d)", r, runs[r].first, runs[r].count,
              runs[r].influences, want[r].first, want[r].count, want[r].influences);
    CHECK(skin_runs_build(weights, 0, runs) == 0, "no vertices, no runs");
}

/* A random skinned mesh: 1 to 4 influences in runs of random length (and some zero slots
 * in the middle), posed with a random palette that has non-uniform scale. */
typedef struct RandomSkin {
    int       vertex_count, bone_count;
    vec3     *positions, *normals;
    uint16_t (*indices)[4];
    float    (*weights)[4];
    mat4     *palette;
} RandomSkin;

static float random_unit(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

static void random_skin_build(RandomSkin *r, int vertex_count, int bone_count, unsigned int seed)
{
    r->vertex_count = vertex_count;
    r->bone_count = bone_count;
    r->positions = xcalloc((size_t)vertex_count, sizeof(vec3));
    r->normals = xcalloc((size_t)vertex_count, sizeof(vec3));
    r->indices = xcalloc((size_t)vertex_count, sizeof *r->indices);
    r->weights = xcalloc((size_t)vertex_count, sizeof *r->weights);
    r->palette = xcalloc((size_t)bone_count, sizeof(mat4));
    unsigned int state = seed;
    for (int b = 0; b < bone_count; b++) {
        vec3 axis = {random_unit(&state) - 0.5f, random_unit(&state) - 0.5f, random_unit(&state) + 0.1f};
        glm_vec3_normalize(axis);
        glm_rotate_make(r->palette[b], 6.0f * random_unit(&state), axis);
        glm_scale(r->palette[b], (vec3){0.5f + random_unit(&state), 0.5f + random_unit(&state), 1.0f});
        glm_vec3_copy((vec3){random_unit(&state) * 4 - 2, random_unit(&state) * 4, random_unit(&state) - 0.5f},
                      r->palette[b][3]);
    }
    int influences = 1, left = 0;
    for (int v = 0; v < vertex_count; v++) {
        if (left-- <= 0) {   /* a new run */
            influences = 1 + (int)(random_unit(&state) * 4.0f) % 4;
            left = (int)(random_unit(&state) * 40.0f);
        }
        for (int i = 0; i < 3; i++) r->positions[v][i] = random_unit(&state) * 2.0f - 1.0f;
        for (int i = 0; i < 3; i++) r->normals[v][i] = random_unit(&state) * 2.0f - 1.0f;
        glm_vec3_normalize(r->normals[v]);
        float sum = 0.0f;
        for (int k = 0; k < influences; k++) {
            r->indices[v][k] = (uint16_t)(random_unit(&state) * (float)bone_count) % bone_count;
            r->weights[v][k] = (k == 1 && influences > 2 && v % 3 == 0) ? 0.0f : 0.05f + random_unit(&state);
            sum += r->weights[v][k];
        }
        for (int k = 0; k < influences; k++) r->weights[v][k] /= sum;
    }
}

static void random_skin_free(RandomSkin *r)
{
    free(r->positions);
    free(r->normals);
    free(r->indices);
    free(r->weights);
    free(r->palette);
}

static Mesh random_skin_mesh(const RandomSkin *r)
{
    return (Mesh){.vertex_count = r->vertex_count, .positions = r->positions, .normals = r->normals,
                  .joint_indices = r->indices, .weights = r->weights, .bone_count = r->bone_count, .skinned = true};
}

static SkinJob random_skin_job(const RandomSkin *r, const SkinRun *runs, int run_count, vec3 *out, vec3 *out_normals)
{
    return (SkinJob){.vertex_count = r->vertex_count, .palette = (const mat4 *)r->palette,
                     .joint_indices = (const uint16_t (*)[4])r->indices, .weights = (const float (*)[4])r->weights,
                     .runs = runs, .run_count = run_count, .positions = (const vec3 *)r->positions,
                     .normals = (const vec3 *)r->normals, .out_positions = out, .out_normals = out_normals,
                     .normalize_normals = true};
}

static void test_fast_matches_reference(void)
{
    enum { N = 5000 };
    RandomSkin r;
    random_skin_build(&r, N, 40, 7u);
    Mesh mesh = random_skin_mesh(&r);
    vec3 *want = xcalloc(N, sizeof(vec3)), *want_normals = xcalloc(N, sizeof(vec3));
    vec3 *got = xcalloc(N + 1, sizeof(vec3)), *got_normals = xcalloc(N + 1, sizeof(vec3));
    mat4 identity;
    glm_mat4_identity(identity);
    skin_vertices_lbs(&mesh, (const mat4 *)r.palette, identity, want, want_normals);

    int run_count = skin_runs_build((const float (*)[4])r.weights, N, NULL);
    SkinRun *runs = xcalloc((size_t)run_count, sizeof(SkinRun));
    skin_runs_build((const float (*)[4])r.weights, N, runs);
    int by_count[5] = {0};
    for (int i = 0; i < run_count; i++) by_count[runs[i].influences] += runs[i].count;
    CHECK(by_count[1] > 0 && by_count[2] > 0 && by_count[3] > 0 && by_count[4] > 0,
          "test setup: runs of 1, 2, 3 and 4 influences (%d %d %d %d vertices)", by_count[1], by_count[2], by_count[3],
          by_count[4]);

    /* With runs, and without (every vertex as 4 influences). The sentinel after the last
     * vertex shows that nothing past the array is written. */
    for (int with_runs = 0; with_runs < 2; with_runs++) {
        memset(got, 0x7f, sizeof(vec3) * (N + 1));
        memset(got_normals, 0x7f, sizeof(vec3) * (N + 1));
        SkinJob job = random_skin_job(&r, with_runs ? runs : NULL, with_runs ? run_count : 0, got, got_normals);
        skin_job_run(&job, 0, N);
        double dp = vec3_max_difference(want, got, N), dn = vec3_max_difference(want_normals, got_normals, N);
        CHECK(dp <= 1e-6 && dn <= 1e-6, "fast path (%s runs) = reference: positions within %.2g, normals %.2g",
              with_runs ? "with" : "without", dp, dn);
        CHECK(((unsigned char *)got[N])[0] == 0x7f &&
                  ((unsigned char *)got_normals[N])[11] == 0x7f,
              "nothing written past the last vertex");
        float longest = 0.0f, shortest = 2.0f;
        for (int v = 0; v < N; v++) {
            float length = glm_vec3_norm(got_normals[v]);
            longest = fmaxf(longest, length), shortest = fminf(shortest, length);
        }
        CHECK(shortest > 1.0f - 1e-6f && longest < 1.0f + 1e-6f, "renormalised normals: lengths in [%.8f, %.8f]",
              shortest, longest);
    }

    /* Ranges: skinning [a, b) writes exactly those vertices. */
    memset(got, 0, sizeof(vec3) * N);
    SkinJob job = random_skin_job(&r, runs, run_count, got, NULL);
    skin_job_run(&job, 1234, 3210);
    bool outside_untouched = true, inside_right = true;
    for (int v = 0; v < N; v++) {
        bool inside = v >= 1234 && v < 3210;
        if (!inside && (got[v][0] != 0.0f || got[v][1] != 0.0f || got[v][2] != 0.0f)) outside_untouched = false;
        if (inside && vec3_max_difference(&want[v], &got[v], 1) > 1e-6) inside_right = false;
    }
    CHECK(outside_untouched && inside_right, "a range [1234, 3210) writes only those vertices, right");

    /* Without renormalisation the normal is mat3(blended palette) * n, exactly what the
     * reference blends before it normalises: same direction. */
    job = random_skin_job(&r, runs, run_count, got, got_normals);
    job.normalize_normals = false;
    skin_job_run(&job, 0, N);
    double worst_direction = 0.0;
    for (int v = 0; v < N; v++) {
        vec3 n;
        glm_vec3_normalize_to(got_normals[v], n);
        worst_direction = fmax(worst_direction, glm_vec3_distance(n, want_normals[v]));
    }
    CHECK(worst_direction < 1e-5, "unnormalised normals point the reference's way (%.2g)", worst_direction);

    /* A vertex whose blended normal is 0 gets 0, as glm_vec3_normalize does (no NaN). */
    vec3 zero_normal = {0, 0, 0}, out_p, out_n = {1, 1, 1};
    uint16_t one_index[1][4] = {{0, 0, 0, 0}};
    float one_weight[1][4] = {{1, 0, 0, 0}};
    SkinJob tiny = {.vertex_count = 1, .palette = (const mat4 *)r.palette, .joint_indices = (const uint16_t (*)[4])one_index,
                    .weights = (const float (*)[4])one_weight, .positions = (const vec3 *)&r.positions[0],
                    .normals = (const vec3 *)&zero_normal, .out_positions = &out_p, .out_normals = &out_n,
                    .normalize_normals = true};
    skin_job_run(&tiny, 0, 1);
    CHECK(out_n[0] == 0.0f && out_n[1] == 0.0f && out_n[2] == 0.0f, "zero normal stays zero (%g %g %g)", out_n[0],
          out_n[1], out_n[2]);

    free(runs);
    free(want), free(want_normals), free(got), free(got_normals);
    random_skin_free(&r);
}

/* Renormalised normals (four at a time through rsqrt + one Newton step, normalize3_x4 in
 * skin_fast.c, and one at a time at the end of a run) against the scalar reference (sqrt and a
 * division): within 1e-6 on every vertex, for every run length 1..9 (so that every split of a
 * run into groups of four and a tail is covered), on the kernel in use. Zero normals and those
 * shorter than FLT_EPSILON become 0. */
static void test_renormalized_normals(const char *kernel)
{
    enum { N = 2000 };
    RandomSkin r;
    random_skin_build(&r, N, 16, 21u);
    for (int v = 0; v < N; v += 97) glm_vec3_scale(r.normals[v], 1e-4f, r.normals[v]);   /* short, still normalised */
    Mesh mesh = random_skin_mesh(&r);
    vec3 *want = xcalloc(N, sizeof(vec3)), *want_normals = xcalloc(N, sizeof(vec3));
    vec3 *got = xcalloc(N, sizeof(vec3)), *got_normals = xcalloc(N, sizeof(vec3));
    mat4 identity;
    glm_mat4_identity(identity);
    skin_vertices_lbs(&mesh, (const mat4 *)r.palette, identity, want, want_normals);
    SkinRun *runs = xcalloc(N, sizeof(SkinRun));
    double worst = 0.0;
    for (int length = 1; length <= 9; length++) {   /* runs of `length` vertices, influence count cycling */
        int run_count = 0;
        for (int first = 0; first < N; first += length, run_count++)
            runs[run_count] = (SkinRun){first, first + length <= N ? length : N - first, 4};
        SkinJob job = random_skin_job(&r, runs, run_count, got, got_normals);
        skin_job_run(&job, 0, N);
        worst = fmax(worst, vec3_max_difference(want_normals, got_normals, N));
    }
    CHECK(worst <= 1e-6, "%s: renormalised normals = scalar reference within %.2g (runs of 1..9 vertices)", kernel, worst);

    vec3 tiny[5] = {{0, 0, 0}, {1e-9f, 0, 0}, {0, 3e-7f, 0}, {0, 0, 2e-7f}, {0.6f, 0.8f, 0}};
    uint16_t index[5][4] = {{0}};
    float weight[5][4] = {{1}, {1}, {1}, {1}, {1}};
    mat4 one = GLM_MAT4_IDENTITY_INIT;
    vec3 out[5], out_n[5];
    SkinRun all = {0, 5, 1};
    SkinJob small = {.vertex_count = 5, .palette = (const mat4 *)&one, .joint_indices = (const uint16_t (*)[4])index,
                     .weights = (const float (*)[4])weight, .runs = &all, .run_count = 1, .positions = (const vec3 *)tiny,
                     .normals = (const vec3 *)tiny, .out_positions = out, .out_normals = out_n, .normalize_normals = true};
    skin_job_run(&small, 0, 5);
    /* 0 -> 0 and |n| < FLT_EPSILON -> 0 (no NaN, no huge 1/|n|); above it, unit length */
    bool zeros = out_n[0][0] == 0.0f && out_n[0][1] == 0.0f && out_n[0][2] == 0.0f && out_n[1][0] == 0.0f;
    bool units = fabsf(out_n[2][1] - 1.0f) < 1e-6f && fabsf(out_n[3][2] - 1.0f) < 1e-6f &&
                 fabsf(out_n[4][0] - 0.6f) < 1e-6f && fabsf(out_n[4][1] - 0.8f) < 1e-6f;
    CHECK(zeros && units, "%s: zero and sub-epsilon normals give 0 (%g, %g), 3e-7 and 2e-7 give unit normals (%g %g)",
          kernel, out_n[0][0], out_n[1][0], out_n[2][1], out_n[3][2]);
    free(runs);
    free(want), free(want_normals), free(got), free(got_normals);
    random_skin_free(&r);
}

/* The AVX2 + FMA kernel and the SSE2 kernel compute the same vertices (float rounding apart). */
static void test_kernels_agree(void)
{
    int original = anim_simd_level();
    if (anim_simd_set(ANIM_SIMD_AVX2) != ANIM_SIMD_AVX2) {
        printf("  (this CPU or build has no AVX2 + FMA kernel: only the baseline is tested)\n");
        anim_simd_set(original);
        return;
    }
    enum { N = 3001 };
    RandomSkin r;
    random_skin_build(&r, N, 50, 31u);
    int run_count = skin_runs_build((const float (*)[4])r.weights, N, NULL);
    SkinRun *runs = xcalloc((size_t)run_count, sizeof(SkinRun));
    skin_runs_build((const float (*)[4])r.weights, N, runs);
    vec3 *wide = xcalloc(N, sizeof(vec3)), *wide_n = xcalloc(N, sizeof(vec3));
    vec3 *base = xcalloc(N, sizeof(vec3)), *base_n = xcalloc(N, sizeof(vec3));
    for (int renormalize = 0; renormalize < 2; renormalize++) {
        SkinJob job = random_skin_job(&r, runs, run_count, wide, wide_n);
        job.normalize_normals = renormalize;
        anim_simd_set(ANIM_SIMD_AVX2);
        skin_job_run(&job, 0, N);
        job.out_positions = base, job.out_normals = base_n;
        anim_simd_set(ANIM_SIMD_BASELINE);
        skin_job_run(&job, 0, N);
        double dp = vec3_max_difference(wide, base, N), dn = vec3_max_difference(wide_n, base_n, N);
        CHECK(dp <= 2e-6 && dn <= 2e-6 && memcmp(wide, base, sizeof(vec3) * N) != 0,
              "avx2+fma kernel = sse2 kernel (normals %s): positions within %.2g, normals %.2g (not the same code: "
              "some bits differ)",
              renormalize ? "renormalised" : "as blended", dp, dn);
    }
    anim_simd_set(original);
    free(runs), free(wide), free(wide_n), free(base), free(base_n);
    random_skin_free(&r);
}

static void test_threads_match_one_thread(void)
{
    enum { N = 30011 };
    RandomSkin a, b;
    random_skin_build(&a, N, 60, 11u);
    random_skin_build(&b, 9000, 7, 12u);
    SkinRun *runs_a = xcalloc(N, sizeof(SkinRun)), *runs_b = xcalloc(9000, sizeof(SkinRun));
    int count_a = skin_runs_build((const float (*)[4])a.weights, N, runs_a);
    int count_b = skin_runs_build((const float (*)[4])b.weights, 9000, runs_b);
    vec3 *one = xcalloc(N + 9000, sizeof(vec3)), *one_n = xcalloc(N + 9000, sizeof(vec3));
    vec3 *many = xcalloc(N + 9000, sizeof(vec3)), *many_n = xcalloc(N + 9000, sizeof(vec3));
    SkinJob jobs[2] = {random_skin_job(&a, runs_a, count_a, one, one_n),
                       random_skin_job(&b, runs_b, count_b, one + N, one_n + N)};
    skin_threads_run(NULL, jobs, 2);   /* no pool: the caller does it all */
    for (int threads = 1; threads <= 5; threads += 2) {
        SkinThreads *pool = skin_threads_create(threads);
        CHECK(pool && skin_threads_count(pool) == threads, "a pool of %d threads", threads);
        jobs[0].out_positions = many, jobs[0].out_normals = many_n;
        jobs[1].out_positions = many + N, jobs[1].out_normals = many_n + N;
        for (int repeat = 0; repeat < 3; repeat++) {
            memset(many, 0, sizeof(vec3) * (N + 9000));
            memset(many_n, 0, sizeof(vec3) * (N + 9000));
            skin_threads_run(pool, jobs, 2);
            CHECK(memcmp(one, many, sizeof(vec3) * (N + 9000)) == 0 &&
                      memcmp(one_n, many_n, sizeof(vec3) * (N + 9000)) == 0,
                  "%d threads (repeat %d): bit-identical to one thread, both meshes, every vertex", threads, repeat);
        }
        skin_threads_destroy(pool);
    }
    CHECK(skin_threads_create(0) == NULL, "a pool of 0 threads is refused");
    skin_threads_destroy(NULL);
    free(runs_a), free(runs_b), free(one), free(one_n), free(many), free(many_n);
    random_skin_free(&a);
    random_skin_free(&b);
}

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

static void test_animator_basics(const Model *m)
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

static void test_animator_switch_resets_cursors(const Model *m)
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

static void test_animator_no_allocation(const Model *m)
{
    Animator a;
    long at_start = allocations;
    CHECK(animator_init(&a, m), "animator_init");
#ifdef TEST_WRAP_MALLOC
    CHECK(allocations > at_start, "allocation counting works (animator_init allocated %ld times)",
          allocations - at_start);
#else
    (void)at_start;
#endif
    vec3 positions[SKIN_VERTICES], normals[SKIN_VERTICES];
    SkinThreads *pool = skin_threads_create(3);   /* created once, before counting */
    RandomSkin big;
    random_skin_build(&big, 3 * SKIN_THREADS_MIN_SHARE + 5, 5, 3u);
    vec3 *big_out = xcalloc((size_t)big.vertex_count, sizeof(vec3));
    SkinJob big_job = random_skin_job(&big, NULL, 0, big_out, NULL);
    float checksum = 0.0f;
    long before = allocations;
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
    CHECK(allocations - before == 0, "10000 evaluations + skinning (100 of them on 3 threads) allocated %ld times",
          allocations - before);
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

static void test_animator_static_model(void)
{
    /* trap 9 in docs/skinning.md: no bones, no clips, not even a joint — still a model. */
    Model m;
    memset(&m, 0, sizeof m);
    m.mesh_count = 1;
    m.meshes = xcalloc(1, sizeof(Mesh));
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
