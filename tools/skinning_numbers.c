/* skinning_numbers.c — the numbers of docs/skinning.md's worked example, printed by the
 * animation core itself (src/anim), so that the text cannot disagree with the code.
 *
 *   skinning_numbers                     print every block
 *   skinning_numbers --update DOC.md     rewrite each block of DOC.md in place
 *   skinning_numbers --svg OUT.svg       write the offset-matrix diagram, to scale
 *
 * The example is a two-bone arm built in memory: joint 0 `upper_arm` at (1, 0, 0), joint 1
 * `forearm` 2 units further along +x (the elbow at (3, 0, 0)), bound in that straight pose, one
 * skinned mesh (mesh space = model space: N = identity, as in glTF). Its few vertices are pushed
 * through the real jobs: joint_transform_to_matrix (L = T * R * S), pose_local_to_model
 * (M = M_parent * L), skin_palette (palette = M * B^-1), skin_vertices_lbs, skin_palette_to_dq and
 * skin_vertices_dq, skin_vertices_rigid (each vertex on its heaviest bone only). One vertex of the
 * demo is taken from `skinview --inspect-vertex ... --json` (and checked against the same jobs).
 *
 * In the doc a block is the text between the lines "<!-- numbers: NAME -->" and
 * "<!-- /numbers -->"; tests/docs/test_doc_numbers.c regenerates every block (and the SVG) and fails
 * when the committed text differs. */
#include "anim/anim.h"
#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "io/import.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_model.h"
#include "skinning_numbers.h"

/* ---------------------------------------------------------------- the arm */

static char *run_command(const char *command);
static bool json_floats(const cJSON *array, int n, float *out);

/* the arm itself (joints, the five vertices the doc follows, their weights, the clips): arm_model.h,
 * the same definition tools/make_arm_model.c writes as assets/arm.gltf */

typedef struct Arm {
    Model          model;
    Mesh           mesh;
    char           names[ARM_JOINTS][SV_NAME_MAX];
    int            parent[ARM_JOINTS];
    mat4           rest_local[ARM_JOINTS];
    JointTransform rest_trs[ARM_JOINTS];
    bool           is_bone[ARM_JOINTS];
    int            bone_joint[ARM_JOINTS];
    mat4           inverse_bind[ARM_JOINTS];
    vec3           positions[ARM_VERTICES], normals[ARM_VERTICES];
    vec2           uvs[ARM_VERTICES];
    uint16_t       joint_indices[ARM_VERTICES][SV_MAX_INFLUENCES];
    float          weights[ARM_VERTICES][SV_MAX_INFLUENCES];
    mat4           bind_model[ARM_JOINTS];   /* M_j at bind time = B_j (mesh space = model space) */
} Arm;

/* A pose of the arm: the forearm's local rotation, angle about axis (the upper arm stays). */
typedef struct ArmPose {
    mat4     local[ARM_JOINTS];
    mat4     model[ARM_JOINTS];
    mat4     palette[ARM_JOINTS];
    DualQuat dq[ARM_JOINTS];
    DqStretch dq_stretch[ARM_JOINTS];
    vec3     lbs[ARM_VERTICES], dqs[ARM_VERTICES], rigid[ARM_VERTICES];
} ArmPose;

static void joint_trs(float tx, float degrees, const float *axis, JointTransform *out)
{
    memset(out, 0, sizeof *out);
    out->translation[0] = tx;
    glm_quatv(out->rotation, glm_rad(degrees), (float *)axis);
    glm_vec3_one(out->scale);
}

static void arm_build(Arm *arm)
{
    memset(arm, 0, sizeof *arm);
    vec3 z = {0.0f, 0.0f, 1.0f};
    strcpy(arm->names[0], "upper_arm");
    strcpy(arm->names[1], "forearm");
    arm->parent[0] = -1;
    arm->parent[1] = 0;
    joint_trs(1.0f, 0.0f, z, &arm->rest_trs[0]);   /* the shoulder at x = 1 */
    joint_trs(2.0f, 0.0f, z, &arm->rest_trs[1]);   /* the elbow 2 units further */
    for (int j = 0; j < ARM_JOINTS; j++) {
        joint_transform_to_matrix(&arm->rest_trs[j], arm->rest_local[j]);
        arm->is_bone[j] = true;
        arm->bone_joint[j] = j;
    }
    Skeleton *skeleton = &arm->model.skeleton;
    skeleton->joint_count = ARM_JOINTS;
    skeleton->names = arm->names;
    skeleton->parent = arm->parent;
    skeleton->rest_local = arm->rest_local;
    skeleton->rest_trs = arm->rest_trs;
    skeleton->is_bone = arm->is_bone;
    /* bound in the rest pose: B_j = M_j(rest), the file would store B_j^-1 */
    pose_local_to_model(skeleton, (const mat4 *)arm->rest_local, arm->bind_model);
    for (int j = 0; j < ARM_JOINTS; j++) glm_mat4_inv(arm->bind_model[j], arm->inverse_bind[j]);

    for (int v = 0; v < ARM_VERTICES; v++) {
        glm_vec3_copy((float *)ARM_POSITIONS[v], arm->positions[v]);
        arm->normals[v][1] = ARM_POSITIONS[v][1] > 0.0f ? 1.0f : -1.0f;   /* up on top, down below */
        arm->joint_indices[v][0] = 0;
        arm->joint_indices[v][1] = 1;
        arm->weights[v][0] = ARM_WEIGHTS[v][0];
        arm->weights[v][1] = ARM_WEIGHTS[v][1];
    }
    Mesh *mesh = &arm->mesh;
    strcpy(mesh->name, "arm");
    mesh->vertex_count = ARM_VERTICES;
    mesh->positions = arm->positions;
    mesh->normals = arm->normals;
    mesh->uvs = arm->uvs;
    mesh->bone_count = ARM_JOINTS;
    mesh->bone_joint = arm->bone_joint;
    mesh->inverse_bind = arm->inverse_bind;
    mesh->joint_indices = arm->joint_indices;
    mesh->weights = arm->weights;
    glm_mat4_identity(mesh->bind_matrix);   /* N: mesh space = model space */
    mesh->skinned = true;
    mesh->node_joint = -1;
    mesh->material = -1;
    arm->model.mesh_count = 1;
    arm->model.meshes = mesh;
}

/* Poses the arm: the forearm turned `degrees` about `axis` in its own frame, then every job. */
static void arm_pose(const Arm *arm, float degrees, const float *axis, ArmPose *pose)
{
    memset(pose, 0, sizeof *pose);
    const Skeleton *skeleton = &arm->model.skeleton;
    pose_set_rest(skeleton, pose->local);
    JointTransform forearm;
    joint_trs(2.0f, degrees, axis, &forearm);
    joint_transform_to_matrix(&forearm, pose->local[1]);
    pose_local_to_model(skeleton, (const mat4 *)pose->local, pose->model);
    skin_palette(&arm->mesh, (const mat4 *)pose->model, pose->palette);
    mat4 unused = GLM_MAT4_IDENTITY_INIT;
    skin_vertices_lbs(&arm->mesh, (const mat4 *)pose->palette, unused, pose->lbs, NULL);
    skin_palette_to_dq(&arm->mesh, (const mat4 *)pose->palette, pose->dq, pose->dq_stretch);
    skin_vertices_dq(&arm->mesh, pose->dq, pose->dq_stretch, unused, pose->dqs, NULL);
    skin_vertices_rigid(&arm->mesh, (const mat4 *)pose->palette, unused, pose->rigid, NULL);   /* heaviest bone only */
}

/* ---------------------------------------------------------------- text */

typedef struct Text {
    char  *out;
    size_t size, length;
    bool   overflow;
} Text;

static void put(Text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    size_t room = text->size > text->length ? text->size - text->length : 0;
    int n = vsnprintf(text->out + text->length, room, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= room) {
        text->overflow = true;
        text->length = text->size > 0 ? text->size - 1 : 0;
    } else {
        text->length += (size_t)n;
    }
}

/* A number as the doc shows it: 4 significant digits, never "-0", and 0 below 5e-7 (float noise). */
static void number(float value, char out[16])
{
    double v = fabs((double)value) < 5e-7 ? 0.0 : (double)value;
    snprintf(out, 16, "%.4g", v);
    if (strcmp(out, "-0") == 0) strcpy(out, "0");
}

static void put_vec3(Text *text, const float *v)
{
    char a[16], b[16], c[16];
    number(v[0], a), number(v[1], b), number(v[2], c);
    put(text, "(%s, %s, %s)", a, b, c);
}

static void put_quat(Text *text, const float *q)
{
    char a[16], b[16], c[16], d[16];
    number(q[0], a), number(q[1], b), number(q[2], c), number(q[3], d);
    put(text, "(%s, %s, %s, %s)", a, b, c, d);
}

/* Up to three 4x4 matrices side by side, written as in a maths text: row r lists m[0][r] .. m[3][r]
 * (cglm stores columns: m[3] is the translation). Each matrix's cells are as wide as its widest
 * number, plus one space (at least 7). */
static void put_matrices(Text *text, int count, const char *const *names, const mat4 *const *matrices)
{
    int cell[3], width[3];
    for (int i = 0; i < count; i++) {
        cell[i] = 7;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                char value[16];
                number((*matrices[i])[c][r], value);
                if ((int)strlen(value) + 1 > cell[i]) cell[i] = (int)strlen(value) + 1;
            }
        width[i] = 4 * cell[i] + 4;
    }
    for (int i = 0; i < count; i++) {
        int chars = 0;   /* characters, not bytes: the names hold UTF-8 (·, ⁻¹) */
        for (const char *c = names[i]; *c; c++) chars += ((unsigned char)*c & 0xC0) != 0x80;
        int pad = i + 1 < count ? width[i] + 4 - chars : 0;
        put(text, "%s%*s", names[i], pad > 1 ? pad : (i + 1 < count ? 1 : 0), "");
    }
    put(text, "\n");
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < count; i++) {
            put(text, "| ");
            for (int c = 0; c < 4; c++) {
                char value[16];
                number((*matrices[i])[c][r], value);
                put(text, "%*s", cell[i], value);
            }
            put(text, " |%s", i + 1 < count ? "    " : "\n");
        }
    }
}

static float radius_about_x(const float *p) { return sqrtf(p[1] * p[1] + p[2] * p[2]); }

/* ---------------------------------------------------------------- the arm as a file */

/* assets/arm.gltf imported, and the file's index of each of the five vertices (found by position:
 * the import sorts a skinned mesh's vertices by influence count, so the file's order is not kept). */
typedef struct ArmFile {
    Model model;
    int   index[ARM_VERTICES];
    int   forearm;   /* joint index */
} ArmFile;

static bool arm_file_open(ArmFile *file, Text *text)
{
    memset(file, 0, sizeof *file);
    ImportOptions options = {0};
    options.quiet = true;
    char error[512];
    if (!import_model(SKINNING_NUMBERS_ARM, &options, &file->model, error, sizeof error)) {
        put(text, "cannot import %s: %s\n", SKINNING_NUMBERS_ARM, error);
        return false;
    }
    const Mesh *mesh = file->model.mesh_count == 1 ? &file->model.meshes[0] : NULL;
    file->forearm = -1;
    for (int j = 0; j < file->model.skeleton.joint_count; j++)
        if (strcmp(file->model.skeleton.names[j], "forearm") == 0) file->forearm = j;
    bool ok = mesh && mesh->skinned && file->forearm >= 0;
    for (int v = 0; ok && v < ARM_VERTICES; v++) {
        file->index[v] = -1;
        for (int i = 0; i < mesh->vertex_count && file->index[v] < 0; i++)
            if (glm_vec3_distance(mesh->positions[i], (float *)ARM_POSITIONS[v]) < 1e-6f) file->index[v] = i;
        ok = file->index[v] >= 0;
        /* its weights as the file stores them: the same as the doc's */
        float weight[ARM_JOINTS] = {0.0f, 0.0f};
        for (int k = 0; ok && k < SV_MAX_INFLUENCES; k++)
            weight[strcmp(file->model.skeleton.names[mesh->bone_joint[mesh->joint_indices[file->index[v]][k]]], "forearm") == 0] +=
                mesh->weights[file->index[v]][k];
        ok = ok && fabsf(weight[0] - ARM_WEIGHTS[v][0]) < 1e-6f && fabsf(weight[1] - ARM_WEIGHTS[v][1]) < 1e-6f;
    }
    if (!ok) {
        put(text, "%s is not the arm of tools/arm_model.h (rebuild it: cmake --build build --target arm_asset)\n",
            SKINNING_NUMBERS_ARM);
        model_free(&file->model);
    }
    return ok;
}

/* `skinview assets/arm.gltf --clip CLIP --time T --inspect-vertex 0:N --json`'s "final" into out;
 * false (with a line in the block) when it fails or is farther than 1e-5 from `expected`. The line
 * it prints shows the command with the path relative to the source tree. */
static bool arm_inspect(Text *text, const ArmFile *file, const char *clip, float time, int v, const float *expected)
{
    char command[2048];
    snprintf(command, sizeof command, "'%s' '%s' --clip %s --time %g --inspect-vertex 0:%d --json", SKINNING_NUMBERS_SKINVIEW,
             SKINNING_NUMBERS_ARM, clip, (double)time, file->index[v]);
    char *json = run_command(command);
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    vec3 final;
    bool ok = root && json_floats(cJSON_GetObjectItem(root, "final"), 3, final);
    cJSON_Delete(root);
    free(json);
    if (!ok || glm_vec3_distance(final, (float *)expected) > 1e-5f) {
        put(text, "%s: %s\n", command, ok ? "disagrees with skin_vertices_lbs" : "printed no \"final\"");
        return false;
    }
    put(text, "$ skinview assets/arm.gltf --clip %s --time %g --inspect-vertex 0:%d   final ", clip, (double)time,
        file->index[v]);
    put_vec3(text, final);
    put(text, "\n");
    return true;
}

/* One frame of Bend at ARM_FRAME_TIME, step by step, in the order the frame computes it. */
#define ARM_FRAME_TIME 0.25f
static bool block_frame(Text *text)
{
    ArmFile file;
    if (!arm_file_open(&file, text)) return false;
    const Model *model = &file.model;
    const Skeleton *skeleton = &model->skeleton;
    const Mesh *mesh = &model->meshes[0];
    int clip = model_find_clip(model, "Bend");
    const JointTrack *track = NULL;
    for (int i = 0; clip >= 0 && i < model->clips[clip].track_count; i++)
        if (model->clips[clip].tracks[i].joint == file.forearm) track = &model->clips[clip].tracks[i];
    if (!track || track->rotation_count != ARM_BEND_KEYS) {
        put(text, "%s: no clip Bend with a rotation track of the forearm\n", SKINNING_NUMBERS_ARM);
        model_free(&file.model);
        return false;
    }
    const float t = ARM_FRAME_TIME;
    put(text, "clip Bend, t = %g s; the forearm's rotation track (x, y, z, w):\n", (double)t);
    for (int k = 0; k < track->rotation_count; k++) {
        put(text, "  key %d  time %g  q_%d = ", k, (double)track->rotation_times[k], k);
        put_quat(text, track->rotation_values[k]);
        put(text, "\n");
    }
    /* 1-3: the channel, as sample_quat computes it */
    int cursor = 0;
    int k = key_find(track->rotation_times, track->rotation_count, t, &cursor);
    float a = key_alpha(track->rotation_times, track->rotation_count, k, t);
    versor q;
    quat_slerp_shortest(track->rotation_values[k], track->rotation_values[k + 1], a, q);
    float dot = glm_quat_dot(track->rotation_values[k], track->rotation_values[k + 1]);
    char ta[16], tb[16], alpha[16], d[16], theta[16], w0[16], w1[16];
    number(track->rotation_times[k], ta), number(track->rotation_times[k + 1], tb), number(a, alpha), number(dot, d);
    number(glm_deg(acosf(dot)), theta);
    number(sinf((1.0f - a) * acosf(dot)) / sinf(acosf(dot)), w0), number(sinf(a * acosf(dot)) / sinf(acosf(dot)), w1);
    put(text, "\n1. key_find(times, %d, %g, &cursor) = %d        times[%d] = %s <= %g < times[%d] = %s\n",
        track->rotation_count, (double)t, k, k, ta, (double)t, k + 1, tb);
    put(text, "2. key_alpha: a = (%g - %s) / (%s - %s) = %s\n", (double)t, ta, tb, ta, alpha);
    put(text, "3. quat_slerp_shortest(q_%d, q_%d, %s): q_%d · q_%d = %s >= 0 (the short way), θ = acos(%s) = %s°\n", k,
        k + 1, alpha, k, k + 1, d, d, theta);
    put(text, "   q = sin((1-a)θ)/sin θ · q_%d + sin(aθ)/sin θ · q_%d = %s · q_%d + %s · q_%d = ", k, k + 1, w0, k, w1, k + 1);
    put_quat(text, q);
    char angle[16];
    number(2.0f * glm_deg(acosf(q[3])), angle);
    put(text, "\n   (a turn of %s° about z: the angle 2 · acos(w))\n", angle);

    /* 4-6: the reference jobs on the whole pose */
    /* the file's skeleton also holds its scene's nodes (the root, the mesh node `arm`) */
    enum { MAX_JOINTS = 8 };
    mat4 local[MAX_JOINTS], joint_model[MAX_JOINTS], palette[ARM_JOINTS];
    TrackCursor cursors[4] = {{0}};
    int upper = skeleton->parent[file.forearm];
    if (skeleton->joint_count > MAX_JOINTS || model->clips[clip].track_count > 4 || mesh->bone_count != ARM_JOINTS ||
        upper < 0 || mesh->bone_joint[0] != upper || mesh->bone_joint[1] != file.forearm) {
        put(text, "%s: not the arm's skeleton\n", SKINNING_NUMBERS_ARM);
        model_free(&file.model);
        return false;
    }
    pose_set_rest(skeleton, local);
    clip_sample(&model->clips[clip], skeleton, t, cursors, local);
    pose_local_to_model(skeleton, (const mat4 *)local, joint_model);
    skin_palette(mesh, (const mat4 *)joint_model, palette);
    JointTransform trs = skeleton->rest_trs[file.forearm];
    glm_quat_copy(q, trs.rotation);
    mat4 by_hand;
    joint_transform_to_matrix(&trs, by_hand);
    bool same = true;
    for (int c = 0; c < 4; c++) same = same && glm_vec4_distance(by_hand[c], local[file.forearm][c]) < 1e-6f;
    if (!same) put(text, "clip_sample's L_1 differs from T * R(q) * S\n");
    put(text, "\n4. L_1 = T · R · S = T(2,0,0) · R(q) · S(1,1,1)  (joint_transform_to_matrix, inside clip_sample)\n");
    put(text, "   L_0 = T(1,0,0): upper_arm has no track, it keeps its rest transform (pose_set_rest)\n\n");
    const mat4 *m[3] = {&local[file.forearm], &joint_model[upper], &joint_model[file.forearm]};
    /* glTF: the scene's nodes sit above the joints, all at the identity */
    const char *names[3] = {"L_1", skeleton->parent[upper] < 0 ? "M_0 = L_0 (a root)" : "M_0 = M_parent · L_0 = L_0",
                            "M_1 = M_0 · L_1"};
    put(text, "5. pose_local_to_model: M_j = M_parent(j) · L_j, parents first\n");
    put_matrices(text, 3, names, m);
    put(text, "\n6. skin_palette: palette_i = M_j · B_i⁻¹ (B_0⁻¹ = T(-1,0,0), B_1⁻¹ = T(-3,0,0): the file's inverseBindMatrices)\n");
    const mat4 *pm[2] = {&palette[0], &palette[1]};
    const char *pnames[2] = {"palette_0 = M_0 · B_0⁻¹", "palette_1 = M_1 · B_1⁻¹"};
    put_matrices(text, 2, pnames, pm);
    put(text, "\n7. glUniformMatrix4fv(bonesMatrices, 2, GL_FALSE, palette): 2 × 16 floats, column after column\n");
    put(text, "   (cglm's layout is GLSL's: no transpose); palette_1 arrives as\n  ");
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 4; r++) {
            char e[16];
            number(palette[1][c][r], e);
            put(text, " %s", e);
        }
        put(text, c < 3 ? "  |" : "\n");
    }
    /* 8: the shader's lines on vertex 0 */
    int v = file.index[0];
    vec4 position = {mesh->positions[v][0], mesh->positions[v][1], mesh->positions[v][2], 1.0f}, moved;
    mat4 skin = GLM_MAT4_ZERO_INIT;
    put(text, "\n8. shaders/skinned.vert on vertex 0 (file index %d): position = ", v);
    put_vec3(text, mesh->positions[v]);
    for (int s = 0; s < SV_MAX_INFLUENCES; s++) {
        if (mesh->weights[v][s] == 0.0f) continue;
        char w[16];
        number(mesh->weights[v][s], w);
        put(text, ", bone%dinfo = (%d, %s)", s, mesh->joint_indices[v][s], w);
        for (int c = 0; c < 4; c++) glm_vec4_muladds(palette[mesh->joint_indices[v][s]][c], mesh->weights[v][s], skin[c]);
    }
    put(text, "\n   mat4 skin = bone0info.y * bonesMatrices[int(bone0info.x)] + ... + bone3info.y * bonesMatrices[...]\n");
    const mat4 *sm[1] = {&skin};
    const char *snames[1] = {"   skin"};
    put_matrices(text, 1, snames, sm);
    glm_mat4_mulv(skin, position, moved);
    put(text, "   skinnedPosition = skin * vec4(position, 1.0) = ");
    put_vec3(text, moved);
    put(text, "\n   scenePosition = (model * skinnedPosition).xyz, model = identity for a skinned mesh\n");
    put(text, "   gl_Position = projection * view * sceneSpace\n\n");
    vec3 *lbs = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    bool ok = same && lbs;
    if (ok) {
        skin_vertices_lbs(mesh, (const mat4 *)palette, identity, lbs, NULL);
        ok = glm_vec3_distance(lbs[v], moved) < 1e-6f && arm_inspect(text, &file, "Bend", t, 0, lbs[v]);
    }
    free(lbs);
    model_free(&file.model);
    return ok;
}

static void block_bind(const Arm *arm, Text *text)
{
    const mat4 *m[3];
    const char *names[3];
    names[0] = "L_0 = T(1,0,0)", names[1] = "L_1 = T(2,0,0)";
    m[0] = &arm->rest_local[0], m[1] = &arm->rest_local[1];
    put_matrices(text, 2, names, m);
    put(text, "\n");
    names[0] = "B_0 = M_0 = L_0", names[1] = "B_1 = M_1 = M_0 · L_1";
    m[0] = &arm->bind_model[0], m[1] = &arm->bind_model[1];
    put_matrices(text, 2, names, m);
    put(text, "\n");
    names[0] = "B_0⁻¹ (Mesh.inverse_bind[0])", names[1] = "B_1⁻¹ (Mesh.inverse_bind[1])";
    m[0] = &arm->inverse_bind[0], m[1] = &arm->inverse_bind[1];
    put_matrices(text, 2, names, m);
}

static bool block_vertex(const Arm *arm, Text *text)
{
    ArmFile file;
    if (!arm_file_open(&file, text)) return false;
    for (int v = 0; v < ARM_VERTICES; v++) {
        vec3 bone0, bone1;
        glm_mat4_mulv3((vec4 *)arm->inverse_bind[0], (float *)arm->positions[v], 1.0f, bone0);
        glm_mat4_mulv3((vec4 *)arm->inverse_bind[1], (float *)arm->positions[v], 1.0f, bone1);
        char w0[16], w1[16];
        number(arm->weights[v][0], w0), number(arm->weights[v][1], w1);
        put(text, "vertex %d  p = ", v);
        put_vec3(text, arm->positions[v]);
        put(text, "   weights: upper_arm %s, forearm %s   (assets/arm.gltf: vertex 0:%d)\n", w0, w1, file.index[v]);
        put(text, "  in bone space of upper_arm  B_0⁻¹·p = ");
        put_vec3(text, bone0);
        put(text, "\n  in bone space of forearm    B_1⁻¹·p = ");
        put_vec3(text, bone1);
        put(text, "\n");
    }
    model_free(&file.model);
    return true;
}

static void put_blend(const Arm *arm, const ArmPose *pose, int v, Text *text)
{
    vec3 term[2], bone;
    char w[2][16];
    put(text, "vertex %d, p = ", v);
    put_vec3(text, arm->positions[v]);
    put(text, ":\n");
    for (int k = 0; k < 2; k++) {
        glm_mat4_mulv3((vec4 *)pose->palette[k], (float *)arm->positions[v], 1.0f, term[k]);
        glm_mat4_mulv3((vec4 *)arm->inverse_bind[k], (float *)arm->positions[v], 1.0f, bone);
        number(arm->weights[v][k], w[k]);
        put(text, "  palette_%d · p = M_%d · (B_%d⁻¹·p) = M_%d · ", k, k, k, k);
        put_vec3(text, bone);
        put(text, " = ");
        put_vec3(text, term[k]);
        put(text, "\n");
    }
    put(text, "  LBS: %s · ", w[0]);
    put_vec3(text, term[0]);
    put(text, " + %s · ", w[1]);
    put_vec3(text, term[1]);
    put(text, " = ");
    put_vec3(text, pose->lbs[v]);
    put(text, "   (skin_vertices_lbs)\n");
}

static bool block_bend(const Arm *arm, Text *text)
{
    ArmPose pose;
    vec3 z = {0.0f, 0.0f, 1.0f};
    arm_pose(arm, 90.0f, z, &pose);
    const mat4 *m[3] = {&pose.local[1], &pose.model[1]};
    const char *names[3] = {"L_1 = T(2,0,0) · Rz(90°)", "M_1 = M_0 · L_1"};
    put_matrices(text, 2, names, m);
    put(text, "\n");
    names[0] = "palette_0 = M_0 · B_0⁻¹", names[1] = "palette_1 = M_1 · B_1⁻¹";
    m[0] = &pose.palette[0], m[1] = &pose.palette[1];
    put_matrices(text, 2, names, m);
    put(text, "\n");
    put_blend(arm, &pose, 0, text);
    put_blend(arm, &pose, 1, text);
    vec3 elbow = {3.0f, 0.0f, 0.0f};
    char r0[16], r1[16];
    number(glm_vec3_distance(pose.lbs[0], elbow), r0);
    number(glm_vec3_distance(pose.lbs[1], elbow), r1);
    put(text, "  distance from the elbow joint (3, 0, 0): vertex 0 %s, vertex 1 %s (bind: 0.5, 0.5)\n", r0, r1);
    put(text, "\nDQS (skin_palette_to_dq, skin_vertices_dq), quaternions (x, y, z, w):\n");
    for (int k = 0; k < 2; k++) {
        put(text, "  bone %d  r_%d = ", k, k);
        put_quat(text, pose.dq[k].real);
        put(text, "   d_%d = ½ (t_%d, 0) r_%d = ", k, k, k);
        put_quat(text, pose.dq[k].dual);
        put(text, "\n");
    }
    number(glm_vec3_distance(pose.dqs[0], elbow), r0);
    number(glm_vec3_distance(pose.dqs[1], elbow), r1);
    put(text, "  vertex 0 -> ");
    put_vec3(text, pose.dqs[0]);
    put(text, ", vertex 1 -> ");
    put_vec3(text, pose.dqs[1]);
    put(text, "   distance from the elbow: %s, %s\n", r0, r1);
    put(text, "\nrigid (skin_vertices_rigid: each vertex on its heaviest bone only), underneath the elbow:\n");
    for (int v = 2; v <= 3; v++) {
        put(text, "  vertex %d  p = ", v);
        put_vec3(text, arm->positions[v]);
        put(text, " on %-9s -> ", arm->weights[v][0] > arm->weights[v][1] ? "upper_arm" : "forearm");
        put_vec3(text, pose.rigid[v]);
        put(text, "   LBS -> ");
        put_vec3(text, pose.lbs[v]);
        put(text, "\n");
    }
    char bind_gap[16], rigid_gap[16], lbs_gap[16];
    number(glm_vec3_distance((float *)arm->positions[2], (float *)arm->positions[3]), bind_gap);
    number(glm_vec3_distance(pose.rigid[2], pose.rigid[3]), rigid_gap);
    number(glm_vec3_distance(pose.lbs[2], pose.lbs[3]), lbs_gap);
    put(text, "  distance between them: bind %s, rigid %s, LBS %s\n", bind_gap, rigid_gap, lbs_gap);
    /* the same LBS positions from the file, by the program */
    ArmFile file;
    if (!arm_file_open(&file, text)) return false;
    put(text, "\nthe same from assets/arm.gltf (Bend at 1 s = the last key, 90°), by the program:\n");
    bool ok = true;
    for (int v = 0; v < ARM_VERTICES && ok; v++) ok = arm_inspect(text, &file, "Bend", 1.0f, v, pose.lbs[v]);
    model_free(&file.model);
    return ok;
}

static bool block_twist(const Arm *arm, Text *text)
{
    ArmPose pose;
    vec3 x = {1.0f, 0.0f, 0.0f};
    arm_pose(arm, 150.0f, x, &pose);
    const mat4 *m[3] = {&pose.local[1], &pose.palette[1]};
    const char *names[3] = {"L_1 = T(2,0,0) · Rx(150°)", "palette_1 = M_1 · B_1⁻¹"};
    put_matrices(text, 2, names, m);
    put(text, "\n");
    put_blend(arm, &pose, 0, text);
    char lbs[16], dqs[16], expected[16];
    number(radius_about_x(pose.lbs[0]), lbs);
    number(radius_about_x(pose.dqs[0]), dqs);
    number(0.5f * cosf(glm_rad(75.0f)), expected);
    put(text, "  radius about the arm's axis: LBS %s (= 0.5 · cos 75° = %s), bind 0.5\n", lbs, expected);
    put(text, "\nDQS (skin_palette_to_dq, skin_vertices_dq), quaternions (x, y, z, w):\n");
    for (int k = 0; k < 2; k++) {
        put(text, "  bone %d  r_%d = ", k, k);
        put_quat(text, pose.dq[k].real);
        put(text, "   d_%d = ½ (t_%d, 0) r_%d = ", k, k, k);
        put_quat(text, pose.dq[k].dual);
        put(text, "\n");
    }
    put(text, "  vertex 0 -> ");
    put_vec3(text, pose.dqs[0]);
    put(text, "   radius %s\n", dqs);
    ArmPose half;
    arm_pose(arm, 180.0f, x, &half);
    char collapsed[16], kept[16];
    number(radius_about_x(half.lbs[0]), collapsed);
    number(radius_about_x(half.dqs[0]), kept);
    put(text, "\nat Rx(180°): LBS radius %s, DQS radius %s\n", collapsed, kept);
    ArmFile file;
    if (!arm_file_open(&file, text)) return false;
    put(text, "\nthe same from assets/arm.gltf (Twist: 150° at 1 s, 180° at 2 s), by the program:\n");
    bool ok = arm_inspect(text, &file, "Twist", 1.0f, 0, pose.lbs[0]) && arm_inspect(text, &file, "Twist", 2.0f, 0, half.lbs[0]);
    model_free(&file.model);
    return ok;
}


/* ---------------------------------------------------------------- one vertex of the demo */

#define DEMO_CLIP "Twist"
#define DEMO_TIME 0.75f

/* The demo's vertex the doc follows: on mesh 0, weighted on exactly upper_arm.L and forearm.L,
 * the weights closest to half and half; of those the highest in the bind pose (on top of the
 * elbow). -1 when there is none. */
static int demo_vertex(const Mesh *mesh, const Skeleton *skeleton)
{
    int best = -1;
    float best_balance = 2.0f, best_height = -1e30f;
    for (int v = 0; v < mesh->vertex_count; v++) {
        int count = 0;
        bool upper = false, fore = false;
        float weight = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            if (mesh->weights[v][k] == 0.0f) continue;
            count++;
            const char *name = skeleton->names[mesh->bone_joint[mesh->joint_indices[v][k]]];
            if (strcmp(name, "upper_arm.L") == 0) upper = true, weight = mesh->weights[v][k];
            if (strcmp(name, "forearm.L") == 0) fore = true;
        }
        if (count != 2 || !upper || !fore) continue;
        vec3 placed;
        glm_mat4_mulv3((vec4 *)mesh->bind_matrix, mesh->positions[v], 1.0f, placed);
        float balance = roundf(fabsf(weight - 0.5f) * 1000.0f) / 1000.0f;
        if (balance < best_balance || (balance == best_balance && placed[1] > best_height)) {
            best = v, best_balance = balance, best_height = placed[1];
        }
    }
    return best;
}

/* The output of a command, read whole (NULL on failure). */
static char *run_command(const char *command)
{
    FILE *pipe = popen(command, "r");
    if (!pipe) return NULL;
    size_t capacity = 1 << 16, length = 0, n;
    char *out = malloc(capacity);
    while (out && (n = fread(out + length, 1, capacity - length - 1, pipe)) > 0) {
        length += n;
        if (length + 1 == capacity) {
            char *bigger = realloc(out, capacity *= 2);
            if (!bigger) free(out);
            out = bigger;
        }
    }
    int status = pclose(pipe);
    if (out) out[length] = '\0';
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* n numbers of a JSON array (false if it is not one of n numbers). */
static bool json_floats(const cJSON *array, int n, float *out)
{
    if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != n) return false;
    for (int i = 0; i < n; i++) {
        const cJSON *item = cJSON_GetArrayItem(array, i);
        if (!cJSON_IsNumber(item)) return false;
        out[i] = (float)item->valuedouble;
    }
    return true;
}

/* A 4x4 matrix written as 4 rows (row r = m[0][r] .. m[3][r]), back to cglm's columns. */
static bool json_matrix(const cJSON *rows, mat4 out)
{
    if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) != 4) return false;
    for (int r = 0; r < 4; r++) {
        float row[4];
        if (!json_floats(cJSON_GetArrayItem(rows, r), 4, row)) return false;
        for (int c = 0; c < 4; c++) out[c][r] = row[c];
    }
    return true;
}

static bool close_to(const float *a, const float *b, float scale)
{
    return glm_vec3_distance((float *)a, (float *)b) <= 1e-5f * scale;
}

/* The block, from the JSON of `skinview --inspect-vertex` (checked against the anim core here). */
static bool put_demo_json(Text *text, const char *command, const cJSON *root, const Model *model, int v,
                          const vec3 reference_lbs, const vec3 reference_dq)
{
    const Mesh *mesh = &model->meshes[0];
    const cJSON *influences = cJSON_GetObjectItem(root, "influences");
    vec3 stored, sum, lbs, rigid, dq, final;
    if (!json_floats(cJSON_GetObjectItem(root, "stored_position"), 3, stored) ||
        !json_floats(cJSON_GetObjectItem(root, "sum"), 3, sum) || !json_floats(cJSON_GetObjectItem(root, "lbs"), 3, lbs) ||
        !json_floats(cJSON_GetObjectItem(root, "rigid"), 3, rigid) ||
        !json_floats(cJSON_GetObjectItem(root, "dq"), 3, dq) || !json_floats(cJSON_GetObjectItem(root, "final"), 3, final) ||
        !cJSON_IsArray(influences)) {
        put(text, "the JSON of %s lacks a field\n", command);
        return false;
    }
    /* the inspector's numbers against the anim core's own jobs */
    if (!close_to(sum, reference_lbs, 1.0f) || !close_to(dq, reference_dq, 1.0f) ||
        !close_to(stored, mesh->positions[v], 100.0f)) {
        put(text, "--inspect-vertex disagrees with skin_vertices_lbs / skin_vertices_dq\n");
        return false;
    }
    put(text, "$ %s\n\n", command);
    put(text, "stored position (mesh space)  p = ");
    put_vec3(text, stored);
    vec3 placed;
    glm_mat4_mulv3((vec4 *)mesh->bind_matrix, stored, 1.0f, placed);
    put(text, "\nin the bind pose, placed by N: N · p = ");
    put_vec3(text, placed);
    put(text, "\n\n");
    const mat4 *n_matrix[1] = {&mesh->bind_matrix};
    const char *n_name[1] = {"N = Mesh.bind_matrix (mesh space -> scene space; not in the JSON)"};
    put_matrices(text, 1, n_name, n_matrix);
    float forearm_bind = -1.0f;
    vec3 axis = {0}, origin = {0};
    for (int i = 0; i < cJSON_GetArraySize(influences); i++) {
        const cJSON *item = cJSON_GetArrayItem(influences, i);
        const cJSON *joint_name = cJSON_GetObjectItem(item, "joint");
        const cJSON *slot = cJSON_GetObjectItem(item, "slot"), *bone = cJSON_GetObjectItem(item, "bone");
        const cJSON *joint = cJSON_GetObjectItem(item, "joint_index");
        float weight_value;
        mat4 offset, joint_model, palette;
        vec3 bone_space, moved, term;
        const cJSON *weight_item = cJSON_GetObjectItem(item, "weight");
        if (!cJSON_IsString(joint_name) || !cJSON_IsNumber(slot) || !cJSON_IsNumber(bone) || !cJSON_IsNumber(joint) ||
            !cJSON_IsNumber(weight_item) || !json_matrix(cJSON_GetObjectItem(item, "offset"), offset) ||
            !json_matrix(cJSON_GetObjectItem(item, "joint_model"), joint_model) ||
            !json_matrix(cJSON_GetObjectItem(item, "palette"), palette) ||
            !json_floats(cJSON_GetObjectItem(item, "bone_space"), 3, bone_space) ||
            !json_floats(cJSON_GetObjectItem(item, "moved"), 3, moved) ||
            !json_floats(cJSON_GetObjectItem(item, "term"), 3, term)) {
            put(text, "an influence of the JSON lacks a field\n");
            return false;
        }
        weight_value = (float)weight_item->valuedouble;
        int b = bone->valueint, j = joint->valueint;
        char weight[16], heading[3][96];
        number(weight_value, weight);
        put(text, "\nslot %d: bone %d = joint %d \"%s\", weight %s\n", slot->valueint, b, j, joint_name->valuestring,
            weight);
        snprintf(heading[0], sizeof heading[0], "B_%d⁻¹ = offset (mesh -> bone)", b);
        snprintf(heading[1], sizeof heading[1], "M_%d = joint_model (joint -> scene)", j);
        snprintf(heading[2], sizeof heading[2], "palette_%d = M_%d · B_%d⁻¹", b, j, b);
        const char *names[3] = {heading[0], heading[1], heading[2]};
        const mat4 *matrices[3] = {&offset, &joint_model, &palette};
        put_matrices(text, 3, names, matrices);
        put(text, "  bone_space  B_%d⁻¹ · p = ", b);
        put_vec3(text, bone_space);
        put(text, "\n  moved       palette_%d · p = M_%d · (B_%d⁻¹ · p) = ", b, j, b);
        put_vec3(text, moved);
        put(text, "\n  term        %s · palette_%d · p = ", weight, b);
        put_vec3(text, term);
        put(text, "\n");
        if (strcmp(joint_name->valuestring, "forearm.L") == 0) {
            /* the bone-space distance from the forearm's axis (its x), in model units */
            forearm_bind = sqrtf(bone_space[1] * bone_space[1] + bone_space[2] * bone_space[2]) *
                           glm_vec3_norm(joint_model[0]);
            glm_vec3_normalize_to(joint_model[0], axis);
            glm_vec3_copy(joint_model[3], origin);
        }
    }
    put(text, "\nsum    Σ term = p' = ");
    put_vec3(text, sum);
    put(text, "      (linear blend skinning: \"lbs\", \"final\" with --skinning gpu)\nrigid  ");
    put_vec3(text, rigid);
    put(text, "    (heaviest bone only)\ndq     ");
    put_vec3(text, dq);
    put(text, "    (dual quaternion skinning)\n");
    if (forearm_bind > 0.0f) {
        float distance[2];
        for (int i = 0; i < 2; i++) {
            vec3 d, along;
            glm_vec3_sub(i == 0 ? lbs : dq, origin, d);
            glm_vec3_scale(axis, glm_vec3_dot(d, axis), along);
            glm_vec3_sub(d, along, d);
            distance[i] = glm_vec3_norm(d);
        }
        char a[16], b[16], c[16];
        number(forearm_bind, a), number(distance[0], b), number(distance[1], c);
        put(text, "distance from forearm.L's axis: bind %s, LBS %s, DQS %s\n", a, b, c);
    }
    return true;
}

static bool block_demo(Text *text)
{
    Model model;
    memset(&model, 0, sizeof model);
    ImportOptions options = {0};
    options.quiet = true;
    char error[512];
    if (!import_model(SKINNING_NUMBERS_DEMO, &options, &model, error, sizeof error)) {
        put(text, "cannot import %s: %s\n", SKINNING_NUMBERS_DEMO, error);
        return false;
    }
    int clip = model_find_clip(&model, DEMO_CLIP);
    const Mesh *mesh = model.mesh_count > 0 ? &model.meshes[0] : NULL;
    int v = mesh && mesh->skinned ? demo_vertex(mesh, &model.skeleton) : -1;
    Animator animator;
    if (clip < 0 || v < 0 || !animator_init(&animator, &model)) {
        put(text, "assets/demo.fbx has no clip %s or no elbow vertex\n", DEMO_CLIP);
        model_free(&model);
        return false;
    }
    /* the anim core's own results for the vertex: the reference jobs on the whole mesh */
    animator_evaluate(&animator, clip, DEMO_TIME);
    size_t vertices = (size_t)mesh->vertex_count, bones = mesh->bone_count > 0 ? (size_t)mesh->bone_count : 1;
    vec3 *lbs = malloc(sizeof(vec3) * vertices), *dqs = malloc(sizeof(vec3) * vertices);
    DualQuat *dq = calloc(bones, sizeof *dq);
    DqStretch *dq_stretch = calloc(bones, sizeof *dq_stretch);
    mat4 unused = GLM_MAT4_IDENTITY_INIT;
    bool ok = lbs && dqs && dq && dq_stretch &&
              skin_palette_to_dq(mesh, (const mat4 *)animator.palettes[0], dq, dq_stretch) == SKIN_DQ_OK;
    if (ok) {
        skin_vertices_lbs(mesh, (const mat4 *)animator.palettes[0], unused, lbs, NULL);
        skin_vertices_dq(mesh, dq, dq_stretch, unused, dqs, NULL);
    }
    /* the numbers themselves: what --inspect-vertex --json prints (the doc shows the command
     * with the path relative to the source tree) */
    char shown[256], command[2048];
    snprintf(shown, sizeof shown, "skinview assets/demo.fbx --clip %s --time %g --inspect-vertex 0:%d --json", DEMO_CLIP,
             (double)DEMO_TIME, v);
    snprintf(command, sizeof command, "'%s' '%s' --clip %s --time %g --inspect-vertex 0:%d --json", SKINNING_NUMBERS_SKINVIEW,
             SKINNING_NUMBERS_DEMO, DEMO_CLIP, (double)DEMO_TIME, v);
    char *json = ok ? run_command(command) : NULL;
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    if (!root) put(text, "%s printed no JSON\n", command);
    ok = root && put_demo_json(text, shown, root, &model, v, lbs[v], dqs[v]);
    cJSON_Delete(root);
    free(json);
    free(lbs), free(dqs), free(dq), free(dq_stretch);
    animator_free(&animator);
    model_free(&model);
    return ok;
}

const char *const SKINNING_NUMBERS_BLOCKS[SKINNING_NUMBERS_BLOCK_COUNT] = {"arm-frame", "arm-bind", "arm-vertex",
                                                                          "arm-bend", "arm-twist", "demo-vertex"};

bool skinning_numbers_block(const char *name, char *out, size_t size)
{
    Arm arm;
    arm_build(&arm);
    Text text = {out, size, 0, false};
    if (size > 0) out[0] = '\0';
    put(&text, "```text\n");
    bool ok = true;
    if (strcmp(name, "arm-frame") == 0) ok = block_frame(&text);
    else if (strcmp(name, "arm-bind") == 0) block_bind(&arm, &text);
    else if (strcmp(name, "arm-vertex") == 0) ok = block_vertex(&arm, &text);
    else if (strcmp(name, "arm-bend") == 0) ok = block_bend(&arm, &text);
    else if (strcmp(name, "arm-twist") == 0) ok = block_twist(&arm, &text);
    else if (strcmp(name, "demo-vertex") == 0) ok = block_demo(&text);
    else return false;
    if (!ok) {   /* the reason is the block's last line */
        fprintf(stderr, "skinning_numbers: block %s: %s", name, out);
        return false;
    }
    put(&text, "```\n");
    return !text.overflow;
}

/* ---------------------------------------------------------------- the diagram */

/* Scene point -> SVG: `scale` pixels per unit, x right, y up, origin at (ox, oy). */
typedef struct Panel {
    float ox, oy, scale;
} Panel;

static float px(const Panel *p, float x) { return p->ox + p->scale * x; }
static float py(const Panel *p, float y) { return p->oy - p->scale * y; }

static void svg_segment(Text *t, const Panel *p, const float *a, const float *b, const char *style)
{
    put(t, "  <line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", px(p, a[0]), py(p, a[1]), px(p, b[0]),
        py(p, b[1]), style);
}

/* The joint's x and y axes (0.8 units long, red and green), from its model matrix m, and the
 * vertex's bone-space coordinates (bx, by) drawn along them (dashed): x first, then y. */
static void svg_axes(Text *t, const Panel *p, const mat4 m, const float *bone)
{
    float origin[2] = {m[3][0], m[3][1]};
    float x_end[2] = {origin[0] + 0.8f * m[0][0], origin[1] + 0.8f * m[0][1]};
    float y_end[2] = {origin[0] + 0.8f * m[1][0], origin[1] + 0.8f * m[1][1]};
    float along_x[2] = {origin[0] + bone[0] * m[0][0], origin[1] + bone[0] * m[0][1]};
    float point[2] = {along_x[0] + bone[1] * m[1][0], along_x[1] + bone[1] * m[1][1]};
    svg_segment(t, p, origin, along_x, "stroke=\"#d62f2f\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"");
    svg_segment(t, p, along_x, point, "stroke=\"#2a9d2a\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"");
    svg_segment(t, p, origin, x_end, "stroke=\"#d62f2f\" stroke-width=\"2.5\" marker-end=\"url(#x)\"");
    svg_segment(t, p, origin, y_end, "stroke=\"#2a9d2a\" stroke-width=\"2.5\" marker-end=\"url(#y)\"");
}

static void svg_dot(Text *t, const Panel *p, const float *c, float r, const char *fill)
{
    put(t, "  <circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\" fill=\"%s\" stroke=\"#000\"/>\n", px(p, c[0]), py(p, c[1]), r,
        fill);
}

static void svg_label(Text *t, const Panel *p, const float *c, float dx, float dy, const char *fill, const char *label)
{
    put(t, "  <text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n", px(p, c[0]) + dx, py(p, c[1]) + dy, fill, label);
}

/* The arm's bones (shoulder -> elbow -> hand) and joints for the joint matrices m. */
static void svg_arm(Text *t, const Panel *p, const mat4 *m, const char *stroke)
{
    float shoulder[2] = {m[0][3][0], m[0][3][1]}, elbow[2] = {m[1][3][0], m[1][3][1]};
    float hand[2] = {elbow[0] + 2.0f * m[1][0][0], elbow[1] + 2.0f * m[1][0][1]};
    char style[96];
    snprintf(style, sizeof style, "stroke=\"%s\" stroke-width=\"6\" stroke-linecap=\"round\"", stroke);
    svg_segment(t, p, shoulder, elbow, style);
    svg_segment(t, p, elbow, hand, style);
    svg_dot(t, p, shoulder, 6, "#ff8c1a");
    svg_dot(t, p, elbow, 6, "#c7e03a");
}

bool skinning_numbers_svg(char *out, size_t size)
{
    Arm arm;
    arm_build(&arm);
    ArmPose bend;
    vec3 z = {0.0f, 0.0f, 1.0f};
    arm_pose(&arm, 90.0f, z, &bend);
    const int v = 4;   /* the vertex fully on the forearm */
    vec3 bone, posed;
    glm_mat4_mulv3(arm.inverse_bind[1], arm.positions[v], 1.0f, bone);
    glm_vec3_copy(bend.lbs[v], posed);
    Text t = {out, size, 0, false};
    if (size > 0) out[0] = '\0';
    put(&t, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"330\" viewBox=\"0 0 900 330\" "
            "font-family=\"DejaVu Sans, sans-serif\" font-size=\"13\">\n");
    put(&t, "  <!-- What the inverse bind (\"offset\") matrix B_1^-1 does to one vertex of the two-bone arm of "
            "docs/skinning.md, to scale (50 px per unit). Written by tools/skinning_numbers.c (its svg mode): do not edit. -->\n");
    put(&t, "  <defs>\n");
    for (int i = 0; i < 2; i++)
        put(&t, "    <marker id=\"%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" "
                "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n",
            i == 0 ? "x" : "y", i == 0 ? "#d62f2f" : "#2a9d2a");
    put(&t, "  </defs>\n");
    put(&t, "  <rect width=\"900\" height=\"330\" fill=\"#ffffff\"/>\n");
    char a[16], b[16], label[160];

    /* 1. mesh space at bind time */
    Panel p1 = {20.0f, 220.0f, 50.0f};
    put(&t, "  <text x=\"20\" y=\"26\" font-weight=\"bold\">1. bind time: mesh space</text>\n");
    float origin[2] = {0.0f, 0.0f}, x_axis[2] = {5.3f, 0.0f};
    svg_segment(&t, &p1, origin, x_axis, "stroke=\"#ccc\" stroke-width=\"1\"");
    svg_arm(&t, &p1, (const mat4 *)arm.bind_model, "#aaa");
    svg_axes(&t, &p1, arm.bind_model[1], bone);
    svg_dot(&t, &p1, arm.positions[v], 5, "#d62f2f");
    number(arm.positions[v][0], a), number(arm.positions[v][1], b);
    snprintf(label, sizeof label, "p = (%s, %s)", a, b);
    svg_label(&t, &p1, arm.positions[v], -20.0f, -12.0f, "#d62f2f", label);
    svg_label(&t, &p1, arm.bind_model[1][3], -30.0f, 30.0f, "#111", "forearm at B_1");
    svg_label(&t, &p1, origin, -4.0f, 18.0f, "#444", "0");

    /* 2. the forearm's bone space */
    Panel p2 = {370.0f, 220.0f, 50.0f};
    put(&t, "  <text x=\"330\" y=\"26\" font-weight=\"bold\">2. B_1⁻¹ · p: in the forearm's bone space</text>\n");
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    float hand[2] = {2.0f, 0.0f};
    svg_segment(&t, &p2, origin, hand, "stroke=\"#bbb\" stroke-width=\"6\" stroke-linecap=\"round\"");
    svg_dot(&t, &p2, origin, 6, "#c7e03a");
    svg_axes(&t, &p2, identity, bone);
    svg_dot(&t, &p2, bone, 5, "#d62f2f");
    number(bone[0], a), number(bone[1], b);
    snprintf(label, sizeof label, "(%s, %s)", a, b);
    svg_label(&t, &p2, bone, 8.0f, -8.0f, "#d62f2f", label);
    put(&t, "  <text x=\"330\" y=\"270\" font-size=\"12\">fixed coordinates: they ride with the joint</text>\n");

    /* 3. posed: the elbow bent 90 degrees */
    Panel p3 = {640.0f, 250.0f, 50.0f};
    put(&t, "  <text x=\"640\" y=\"26\" font-weight=\"bold\">3. M_1 · (B_1⁻¹ · p): posed</text>\n");
    float x_end[2] = {5.0f, 0.0f};
    svg_segment(&t, &p3, origin, x_end, "stroke=\"#ccc\" stroke-width=\"1\"");
    svg_arm(&t, &p3, (const mat4 *)bend.model, "#aaa");
    svg_axes(&t, &p3, bend.model[1], bone);
    svg_dot(&t, &p3, posed, 5, "#d62f2f");
    number(posed[0], a), number(posed[1], b);
    snprintf(label, sizeof label, "p′ = (%s, %s)", a, b);
    svg_label(&t, &p3, posed, -86.0f, 4.0f, "#d62f2f", label);
    svg_label(&t, &p3, bend.model[1][3], 8.0f, 18.0f, "#111", "forearm at M_1");
    svg_label(&t, &p3, origin, -4.0f, 18.0f, "#444", "0");

    put(&t, "  <text x=\"20\" y=\"296\" fill=\"#444\">p′ = M_1 · B_1⁻¹ · p = palette_1 · p.  In the bind pose M_1 = "
            "B_1, so palette_1 = identity and p′ = p.</text>\n");
    put(&t, "  <text x=\"20\" y=\"316\" fill=\"#444\" font-size=\"12\">The file stores B_1⁻¹ (Assimp "
            "aiBone::mOffsetMatrix, glTF inverseBindMatrices); skinview keeps it in Mesh.inverse_bind[1].</text>\n");
    put(&t, "  <text x=\"20\" y=\"50\" fill=\"#444\" font-size=\"12\">Red / green: the forearm joint's x / y "
            "axes; dashed: the vertex's bone-space coordinates along them. 50 px = 1 unit.</text>\n");
    put(&t, "</svg>\n");
    return !t.overflow;
}

/* ---------------------------------------------------------------- the program */

#ifndef SKINNING_NUMBERS_NO_MAIN

static char *read_file(const char *path, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *text = NULL;
    size_t capacity = 0;
    *length = 0;
    for (;;) {
        if (*length + 4096 + 1 > capacity) {
            capacity = 2 * capacity + 8192;
            char *bigger = realloc(text, capacity);
            if (!bigger) {
                free(text);
                fclose(file);
                return NULL;
            }
            text = bigger;
        }
        size_t n = fread(text + *length, 1, 4096, file);
        *length += n;
        if (n == 0) break;
    }
    fclose(file);
    text[*length] = '\0';
    return text;
}

/* Rewrites every "<!-- numbers: NAME -->" ... "<!-- /numbers -->" block of path. */
static int update(const char *path)
{
    size_t length;
    char *text = read_file(path, &length);
    if (!text) {
        fprintf(stderr, "skinning_numbers: %s: cannot read\n", path);
        return 1;
    }
    FILE *out = NULL;
    char *result = malloc(length + 65536);
    size_t used = 0;
    int replaced = 0;
    const char *cursor = text;
    static char block[SKINNING_NUMBERS_MAX_BLOCK];
    while (result) {
        const char *open = strstr(cursor, "<!-- numbers: ");
        if (!open) break;
        const char *name = open + strlen("<!-- numbers: ");
        const char *name_end = strstr(name, " -->");
        const char *close = name_end ? strstr(name_end, "<!-- /numbers -->") : NULL;
        if (!close) break;
        char block_name[64];
        size_t name_length = (size_t)(name_end - name);
        if (name_length >= sizeof block_name) break;
        memcpy(block_name, name, name_length);
        block_name[name_length] = '\0';
        if (!skinning_numbers_block(block_name, block, sizeof block)) {
            fprintf(stderr, "skinning_numbers: %s: unknown block \"%s\"\n", path, block_name);
            free(result);
            free(text);
            return 1;
        }
        const char *body = name_end + strlen(" -->\n");
        size_t head = (size_t)(body - cursor), body_length = strlen(block);
        if (used + head + body_length > length + 65536) break;
        memcpy(result + used, cursor, head), used += head;
        memcpy(result + used, block, body_length), used += body_length;
        cursor = close;
        replaced++;
    }
    if (result) {
        size_t tail = strlen(cursor);
        if (used + tail <= length + 65536) {
            memcpy(result + used, cursor, tail), used += tail;
            out = fopen(path, "wb");
        }
    }
    int status = 1;
    if (out) {
        status = fwrite(result, 1, used, out) == used ? 0 : 1;
        if (fclose(out) != 0) status = 1;
        if (status == 0) printf("%s: %d blocks rewritten\n", path, replaced);
    } else {
        fprintf(stderr, "skinning_numbers: %s: cannot rewrite\n", path);
    }
    free(result);
    free(text);
    return status;
}

int main(int argc, char **argv)
{
    static char block[SKINNING_NUMBERS_MAX_BLOCK];
    if (argc == 3 && strcmp(argv[1], "--update") == 0) return update(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--svg") == 0) {
        if (!skinning_numbers_svg(block, sizeof block)) return 1;
        FILE *file = fopen(argv[2], "wb");
        if (!file || fputs(block, file) < 0 || fclose(file) != 0) {
            fprintf(stderr, "skinning_numbers: %s: cannot write\n", argv[2]);
            return 1;
        }
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: skinning_numbers [--update DOC.md | --svg OUT.svg]\n");
        return 2;
    }
    for (int i = 0; i < SKINNING_NUMBERS_BLOCK_COUNT; i++) {
        if (!skinning_numbers_block(SKINNING_NUMBERS_BLOCKS[i], block, sizeof block)) return 1;
        printf("<!-- numbers: %s -->\n%s<!-- /numbers -->\n\n", SKINNING_NUMBERS_BLOCKS[i], block);
    }
    return 0;
}

#endif
