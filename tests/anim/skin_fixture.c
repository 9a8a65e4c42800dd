/* skin_fixture.c — the hand-built model and the random skinned meshes of test_skin (skin_fixture.h). */
#include "skin_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool vec3_near(const vec3 a, const vec3 b, float eps)
{
    return fabsf(a[0] - b[0]) <= eps && fabsf(a[1] - b[1]) <= eps && fabsf(a[2] - b[2]) <= eps;
}

bool mat4_near(const mat4 a, const mat4 b, float eps)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (fabsf(a[c][r] - b[c][r]) > eps) return false;
    return true;
}

bool mat4_is_identity(const mat4 m, float eps)
{
    mat4 identity;
    glm_mat4_identity(identity);
    return mat4_near(m, identity, eps);
}

void transform_point(const mat4 m, const vec3 p, vec3 out)
{
    for (int r = 0; r < 3; r++) out[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
}

void trs_set(JointTransform *trs, float tx, float ty, float tz, float angle, float ax, float ay, float az,
             float scale)
{
    vec3 axis = {ax, ay, az};
    glm_vec3_normalize(axis);
    glm_vec3_copy((vec3){tx, ty, tz}, trs->translation);
    glm_quatv(trs->rotation, angle, axis);
    glm_vec3_fill(trs->scale, scale);
}

const int bone_joints[3] = {2, 1, 3};

const float skin_positions[SKIN_VERTICES][3] = {
    {0.2f, 2.1f, 0.1f},   /* 0: 100 % bone 0 (slot 0) */
    {-0.3f, 1.2f, 0.0f},  /* 1: 100 % bone 1 */
    {0.0f, 2.6f, -0.2f},  /* 2: 0.5 bone 0 + 0.5 bone 2 */
    {0.1f, 1.9f, 0.3f},   /* 3: three bones, bone 0 in slot 2 */
    {0.0f, 3.2f, 0.4f},   /* 4: 100 % bone 2 */
    {0.4f, 2.4f, -0.1f},  /* 5: 100 % bone 0, in slot 3 */
    {-0.1f, 1.5f, 0.2f},  /* 6: 0.5 bone 1 + 0.5 bone 0 */
};

const uint16_t skin_indices[SKIN_VERTICES][4] = {
    {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}, {1, 2, 1, 0}, {1, 0, 0, 0},
};

const float skin_weights[SKIN_VERTICES][4] = {
    {1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.25f, 0.25f, 0.5f, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0.5f, 0.5f, 0, 0},
};

void build_skeleton(Skeleton *s)
{
    static const int parent[JOINTS] = {-1, 0, 1, 2, 1};
    static const char *names[JOINTS] = {"root", "hip", "knee", "foot", "prop"};
    s->joint_count = JOINTS;
    s->names = test_calloc(JOINTS, sizeof *s->names);
    s->parent = test_calloc(JOINTS, sizeof *s->parent);
    s->rest_local = test_calloc(JOINTS, sizeof *s->rest_local);
    s->rest_trs = test_calloc(JOINTS, sizeof *s->rest_trs);
    s->is_bone = test_calloc(JOINTS, sizeof *s->is_bone);
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

void build_skinned_mesh(Mesh *mesh, const Skeleton *skeleton)
{
    snprintf(mesh->name, sizeof mesh->name, "body");
    mesh->vertex_count = SKIN_VERTICES;
    mesh->positions = test_calloc(SKIN_VERTICES, sizeof(vec3));
    mesh->normals = test_calloc(SKIN_VERTICES, sizeof(vec3));
    mesh->uvs = test_calloc(SKIN_VERTICES, sizeof(vec2));
    mesh->joint_indices = test_calloc(SKIN_VERTICES, sizeof *mesh->joint_indices);
    mesh->weights = test_calloc(SKIN_VERTICES, sizeof *mesh->weights);
    for (int v = 0; v < SKIN_VERTICES; v++) {
        glm_vec3_copy((float *)skin_positions[v], mesh->positions[v]);
        vec3 n = {sinf((float)v), 0.5f, cosf((float)v)};
        glm_vec3_normalize(n);
        glm_vec3_copy(n, mesh->normals[v]);
        memcpy(mesh->joint_indices[v], skin_indices[v], sizeof skin_indices[v]);
        memcpy(mesh->weights[v], skin_weights[v], sizeof skin_weights[v]);
    }
    mesh->index_count = 3;
    mesh->indices = test_calloc(3, sizeof(uint32_t));
    mesh->indices[0] = 0, mesh->indices[1] = 1, mesh->indices[2] = 2;
    mesh->skinned = true;
    mesh->node_joint = 0;
    mesh->material = -1;
    mesh->bone_count = 3;
    glm_mat4_identity(mesh->bind_matrix);   /* N: bound with mesh space = scene space (as glTF) */
    mesh->bone_joint = test_calloc(3, sizeof(int));
    mesh->inverse_bind = test_calloc(3, sizeof(mat4));
    /* The mesh was bound in the rest pose, with mesh space = scene space:
     * inverse_bind_i = inverse(model_rest[joint of bone i]). */
    mat4 model[JOINTS];
    pose_local_to_model(skeleton, (const mat4 *)skeleton->rest_local, model);
    for (int b = 0; b < 3; b++) {
        mesh->bone_joint[b] = bone_joints[b];
        glm_mat4_inv(model[bone_joints[b]], mesh->inverse_bind[b]);
    }
}

void build_static_mesh(Mesh *mesh, int node_joint)
{
    snprintf(mesh->name, sizeof mesh->name, "sword");
    mesh->vertex_count = STATIC_VERTICES;
    mesh->positions = test_calloc(STATIC_VERTICES, sizeof(vec3));
    mesh->normals = test_calloc(STATIC_VERTICES, sizeof(vec3));
    mesh->uvs = test_calloc(STATIC_VERTICES, sizeof(vec2));
    const float p[3][3] = {{0, 0, 0}, {0.5f, 0, 0}, {0, 0.5f, 0.1f}};
    for (int v = 0; v < STATIC_VERTICES; v++) {
        glm_vec3_copy((float *)p[v], mesh->positions[v]);
        glm_vec3_copy((vec3){0, 0, 1}, mesh->normals[v]);
    }
    mesh->index_count = 3;
    mesh->indices = test_calloc(3, sizeof(uint32_t));
    mesh->indices[0] = 0, mesh->indices[1] = 1, mesh->indices[2] = 2;
    mesh->node_joint = node_joint;
    mesh->material = -1;
}

void track_rotation(JointTrack *t, int count, float duration, float axis_x, float axis_y, float axis_z,
                    float amplitude)
{
    t->rotation_count = count;
    t->rotation_times = test_calloc((size_t)count, sizeof(float));
    t->rotation_values = test_calloc((size_t)count, sizeof(versor));
    vec3 axis = {axis_x, axis_y, axis_z};
    glm_vec3_normalize(axis);
    for (int k = 0; k < count; k++) {
        float u = (float)k / (float)(count - 1);
        t->rotation_times[k] = duration * u * u * (3.0f - 2.0f * u);   /* irregular spacing */
        glm_quatv(t->rotation_values[k], amplitude * sinf(6.0f * u), axis);
    }
}

void track_translation(JointTrack *t, int count, float duration, float x, float y, float z)
{
    t->translation_count = count;
    t->translation_times = test_calloc((size_t)count, sizeof(float));
    t->translation_values = test_calloc((size_t)count, sizeof(vec3));
    for (int k = 0; k < count; k++) {
        float u = (float)k / (float)(count - 1);
        t->translation_times[k] = duration * u;
        glm_vec3_copy((vec3){x * u, y * u * u, z * (1.0f - u)}, t->translation_values[k]);
    }
}

void build_model(Model *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->source_path, sizeof m->source_path, "(built in test_skin.c)");
    build_skeleton(&m->skeleton);
    m->mesh_count = 2;
    m->meshes = test_calloc(2, sizeof(Mesh));
    build_skinned_mesh(&m->meshes[0], &m->skeleton);
    build_static_mesh(&m->meshes[1], 4);

    test_add_clips(m, 2);
    Clip *walk = test_clip_init(&m->clips[0], "Walk", 2.0f, 3);
    walk->tracks[0].joint = 1;
    track_rotation(&walk->tracks[0], 9, 2.0f, 1, 0, 0, 0.8f);
    walk->tracks[1].joint = 2;
    track_rotation(&walk->tracks[1], 5, 2.0f, 1, 0.2f, 0, 1.2f);
    track_translation(&walk->tracks[1], 3, 2.0f, 0.1f, 0.2f, 0.3f);
    walk->tracks[2].joint = 4;
    track_translation(&walk->tracks[2], 2, 2.0f, 0.0f, 2.0f, 0.0f);
    Clip *wave = test_clip_init(&m->clips[1], "Wave", 1.0f, 1);
    wave->tracks[0].joint = 3;
    track_rotation(&wave->tracks[0], 4, 1.0f, 0, 0, 1, 1.5f);
}

void posed_model_matrices(const Skeleton *s, mat4 *model, bool scaled)
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

double vec3_max_difference(const vec3 *a, const vec3 *b, int n)
{
    double worst = 0.0, size = 1.0;
    for (int v = 0; v < n; v++)
        for (int i = 0; i < 3; i++) {
            worst = fmax(worst, fabs((double)a[v][i] - (double)b[v][i]));
            size = fmax(size, fabs((double)a[v][i]));
        }
    return worst / size;
}

float random_unit(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

void random_skin_build(RandomSkin *r, int vertex_count, int bone_count, unsigned int seed)
{
    r->vertex_count = vertex_count;
    r->bone_count = bone_count;
    r->positions = test_calloc((size_t)vertex_count, sizeof(vec3));
    r->normals = test_calloc((size_t)vertex_count, sizeof(vec3));
    r->indices = test_calloc((size_t)vertex_count, sizeof *r->indices);
    r->weights = test_calloc((size_t)vertex_count, sizeof *r->weights);
    r->palette = test_calloc((size_t)bone_count, sizeof(mat4));
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

void random_skin_free(RandomSkin *r)
{
    free(r->positions);
    free(r->normals);
    free(r->indices);
    free(r->weights);
    free(r->palette);
}

Mesh random_skin_mesh(const RandomSkin *r)
{
    return (Mesh){.vertex_count = r->vertex_count, .positions = r->positions, .normals = r->normals,
                  .joint_indices = r->indices, .weights = r->weights, .bone_count = r->bone_count, .skinned = true};
}

SkinJob random_skin_job(const RandomSkin *r, const SkinRun *runs, int run_count, vec3 *out, vec3 *out_normals)
{
    return (SkinJob){.vertex_count = r->vertex_count, .palette = (const mat4 *)r->palette,
                     .joint_indices = (const uint16_t (*)[4])r->indices, .weights = (const float (*)[4])r->weights,
                     .runs = runs, .run_count = run_count, .positions = (const vec3 *)r->positions,
                     .normals = (const vec3 *)r->normals, .out_positions = out, .out_normals = out_normals,
                     .normalize_normals = true};
}
