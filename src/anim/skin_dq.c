/* skin_dq.c — palette -> unit dual quaternions, and dual quaternion skinning on the CPU
 * (see skin_dq.h). */
#include "skin_dq.h"
#include "anim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *skinning_method_label(SkinningMethod method)
{
    switch (method) {
    case SKINNING_GPU_LBS: return "GPU LBS";
    case SKINNING_CPU_LBS: return "CPU LBS";
    case SKINNING_GPU_DQ: return "GPU DQS";
    case SKINNING_RIGID: return "GPU rigid";
    case SKINNING_METHOD_COUNT: break;
    }
    return "?";
}

const char *skin_dq_status_text(SkinDqStatus status)
{
    switch (status) {
    case SKIN_DQ_OK: return "rigid bones (uniform scale)";
    case SKIN_DQ_NON_UNIFORM_SCALE: return "non-uniform scale or shear on a bone";
    case SKIN_DQ_MIXED_SCALE: return "bones scaled by different amounts";
    case SKIN_DQ_MIRROR: return "a mirrored bone (negative determinant)";
    }
    return "?";
}

/* Unit quaternion (x, y, z, w) of a rotation matrix (Shepperd's method: divide by the largest
 * of 4w^2, 4x^2, 4y^2, 4z^2 for accuracy). m[c][r] = column c, row r. */
static void quat_from_rotation(const float m[3][3], versor out)
{
    double xx = m[0][0], yy = m[1][1], zz = m[2][2];
    double trace = xx + yy + zz;
    double x, y, z, w;
    if (trace > 0.0) {
        double s = 2.0 * sqrt(trace + 1.0);                  /* s = 4w */
        w = 0.25 * s;
        x = (m[1][2] - m[2][1]) / s;
        y = (m[2][0] - m[0][2]) / s;
        z = (m[0][1] - m[1][0]) / s;
    } else if (xx > yy && xx > zz) {
        double s = 2.0 * sqrt(1.0 + xx - yy - zz);           /* s = 4x */
        w = (m[1][2] - m[2][1]) / s;
        x = 0.25 * s;
        y = (m[1][0] + m[0][1]) / s;
        z = (m[2][0] + m[0][2]) / s;
    } else if (yy > zz) {
        double s = 2.0 * sqrt(1.0 + yy - xx - zz);           /* s = 4y */
        w = (m[2][0] - m[0][2]) / s;
        x = (m[1][0] + m[0][1]) / s;
        y = 0.25 * s;
        z = (m[2][1] + m[1][2]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + zz - xx - yy);           /* s = 4z */
        w = (m[0][1] - m[1][0]) / s;
        x = (m[2][0] + m[0][2]) / s;
        y = (m[2][1] + m[1][2]) / s;
        z = 0.25 * s;
    }
    double length = sqrt(x * x + y * y + z * z + w * w);
    out[0] = (float)(x / length);
    out[1] = (float)(y / length);
    out[2] = (float)(z / length);
    out[3] = (float)(w / length);
}

/* Hamilton product a * b, cglm order (x, y, z, w). */
static void quat_multiply(const versor a, const versor b, versor out)
{
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* Rotation part only: mat3 of m divided by `scale` (m = D * S(scale)). */
static void dq_from_scaled_matrix(const mat4 m, float scale, DualQuat *out)
{
    float rotation[3][3];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) rotation[c][r] = m[c][r] / scale;
    quat_from_rotation(rotation, out->real);
    /* d = 1/2 * (t, 0) * r */
    versor t = {m[3][0], m[3][1], m[3][2], 0.0f};
    quat_multiply(t, out->real, out->dual);
    for (int i = 0; i < 4; i++) out->dual[i] *= 0.5f;
}

void dq_from_rigid_matrix(const mat4 m, DualQuat *out)
{
    dq_from_scaled_matrix(m, 1.0f, out);
}

/* p' = p + 2 r.xyz x (r.xyz x p + r.w p) + 2 (r.w d.xyz - d.w r.xyz + r.xyz x d.xyz)
 * for a unit dual quaternion (r, d): the rotation r p r*, then the translation t = 2 d r*. */
static void dq_move(const versor r, const versor d, const vec3 p, vec3 out)
{
    vec3 axis = {r[0], r[1], r[2]}, inner, outer, dual = {d[0], d[1], d[2]}, cross_rd, point = {p[0], p[1], p[2]};
    glm_vec3_cross(axis, point, inner);
    glm_vec3_muladds(point, r[3], inner);
    glm_vec3_cross(axis, inner, outer);
    glm_vec3_cross(axis, dual, cross_rd);
    for (int i = 0; i < 3; i++)
        out[i] = p[i] + 2.0f * outer[i] + 2.0f * (r[3] * dual[i] - d[3] * axis[i] + cross_rd[i]);
}

/* n' = r n r* (rotation only). */
static void dq_rotate(const versor r, const vec3 n, vec3 out)
{
    vec3 axis = {r[0], r[1], r[2]}, inner, outer, normal = {n[0], n[1], n[2]};
    glm_vec3_cross(axis, normal, inner);
    glm_vec3_muladds(normal, r[3], inner);
    glm_vec3_cross(axis, inner, outer);
    for (int i = 0; i < 3; i++) out[i] = n[i] + 2.0f * outer[i];
}

void dq_transform_point(const DualQuat *q, const vec3 p, vec3 out)
{
    dq_move(q->real, q->dual, p, out);
}

SkinDqStatus skin_palette_to_dq(const Mesh *mesh, const mat4 *palette, DualQuat *out, float *out_scale)
{
    *out_scale = 1.0f;
    if (!mesh->skinned || mesh->bone_count == 0) return SKIN_DQ_OK;
    /* 1. each bone's scale: the lengths of the columns of mat3(palette_i) must agree, the
     *    columns be orthogonal and the determinant positive (a rotation times a uniform scale) */
    double scale_sum = 0.0, scale_min = INFINITY, scale_max = 0.0;
    for (int i = 0; i < mesh->bone_count; i++) {
        const vec4 *m = palette[i];
        double length[3];
        for (int c = 0; c < 3; c++) length[c] = sqrt((double)glm_vec3_dot((float *)m[c], (float *)m[c]));
        double lo = fmin(length[0], fmin(length[1], length[2])), hi = fmax(length[0], fmax(length[1], length[2]));
        if (!(lo > 0.0) || !isfinite(hi) || hi - lo > SKIN_DQ_SCALE_TOLERANCE * hi) return SKIN_DQ_NON_UNIFORM_SCALE;
        for (int a = 0; a < 3; a++) {
            int b = (a + 1) % 3;
            double cosine = glm_vec3_dot((float *)m[a], (float *)m[b]) / (length[a] * length[b]);
            if (fabs(cosine) > SKIN_DQ_SCALE_TOLERANCE) return SKIN_DQ_NON_UNIFORM_SCALE;
        }
        vec3 cross;
        glm_vec3_cross((float *)m[0], (float *)m[1], cross);
        if (glm_vec3_dot(cross, (float *)m[2]) < 0.0f) return SKIN_DQ_MIRROR;
        double s = (length[0] + length[1] + length[2]) / 3.0;
        scale_sum += s;
        scale_min = fmin(scale_min, s);
        scale_max = fmax(scale_max, s);
    }
    /* 2. one scale for the whole mesh: palette_i = D_i * S(s), D_i rigid */
    if (scale_max - scale_min > SKIN_DQ_SCALE_TOLERANCE * scale_max) return SKIN_DQ_MIXED_SCALE;
    float scale = (float)(scale_sum / mesh->bone_count);
    for (int i = 0; i < mesh->bone_count; i++) dq_from_scaled_matrix(palette[i], scale, &out[i]);
    *out_scale = scale;
    return SKIN_DQ_OK;
}

void skin_vertices_dq(const Mesh *mesh, const DualQuat *dq, float scale, const mat4 node_model,
                      vec3 *out_positions, vec3 *out_normals)
{
    if (!mesh->skinned) {   /* static meshes: their node matrix, exactly as LBS does */
        skin_vertices_lbs(mesh, NULL, node_model, out_positions, out_normals);
        return;
    }
    for (int v = 0; v < mesh->vertex_count; v++) {
        const float *weights = mesh->weights[v];
        const uint16_t *bones = mesh->joint_indices[v];
        /* the first influence with a weight sets the hemisphere (bone index 0 is a real bone) */
        const DualQuat *first = NULL;
        for (int k = 0; k < SV_MAX_INFLUENCES && !first; k++)
            if (weights[k] != 0.0f) first = &dq[bones[k]];
        versor real = {0.0f, 0.0f, 0.0f, 0.0f}, dual = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int k = 0; k < SV_MAX_INFLUENCES && first; k++) {
            if (weights[k] == 0.0f) continue;
            const DualQuat *q = &dq[bones[k]];
            /* b += w_k * sign_k * q_k,  sign_k = sign(dot(r_k, r_first)) */
            float w = glm_vec4_dot((float *)q->real, (float *)first->real) < 0.0f ? -weights[k] : weights[k];
            for (int i = 0; i < 4; i++) {
                real[i] += w * q->real[i];
                dual[i] += w * q->dual[i];
            }
        }
        /* b /= |b.real|: back to a unit dual quaternion (a rigid transform) */
        float length = sqrtf(glm_vec4_dot(real, real));
        if (!(length > 1e-12f)) {   /* no weight at all: leave the vertex where it was stored */
            glm_vec3_scale((float *)mesh->positions[v], scale, out_positions[v]);
            if (out_normals) glm_vec3_copy((float *)mesh->normals[v], out_normals[v]);
            continue;
        }
        glm_vec4_scale(real, 1.0f / length, real);
        glm_vec4_scale(dual, 1.0f / length, dual);
        vec3 scaled;
        glm_vec3_scale((float *)mesh->positions[v], scale, scaled);   /* S(s) first, then D */
        dq_move(real, dual, scaled, out_positions[v]);
        if (out_normals) {
            dq_rotate(real, mesh->normals[v], out_normals[v]);
            glm_vec3_normalize(out_normals[v]);
        }
    }
}

bool skin_dq_pose_init(SkinDqPose *pose, const Model *model)
{
    memset(pose, 0, sizeof *pose);
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    pose->dq = calloc(meshes, sizeof *pose->dq);
    pose->scale = calloc(meshes, sizeof *pose->scale);
    pose->status = calloc(meshes, sizeof *pose->status);
    if (!pose->dq || !pose->scale || !pose->status) {
        skin_dq_pose_free(pose);
        return false;
    }
    pose->mesh_count = model->mesh_count;
    for (int m = 0; m < model->mesh_count; m++) {
        int bones = model->meshes[m].bone_count > 0 ? model->meshes[m].bone_count : 1;
        pose->scale[m] = 1.0f;
        pose->dq[m] = calloc((size_t)bones, sizeof(DualQuat));
        if (!pose->dq[m]) {
            skin_dq_pose_free(pose);
            return false;
        }
    }
    return true;
}

void skin_dq_pose_free(SkinDqPose *pose)
{
    if (pose->dq)
        for (int m = 0; m < pose->mesh_count; m++) free(pose->dq[m]);
    free(pose->dq);
    free(pose->scale);
    free(pose->status);
    memset(pose, 0, sizeof *pose);
}

int skin_dq_pose_update(SkinDqPose *pose, const Animator *animator)
{
    const Model *model = animator->model;
    int fallbacks = 0;
    for (int m = 0; m < pose->mesh_count; m++) {
        pose->status[m] = skin_palette_to_dq(&model->meshes[m], (const mat4 *)animator->palettes[m], pose->dq[m],
                                             &pose->scale[m]);
        if (pose->status[m] != SKIN_DQ_OK) fallbacks++;
    }
    return fallbacks;
}

void skin_dq_pose_skin_mesh(const SkinDqPose *pose, const Animator *animator, int mesh, vec3 *out_positions,
                            vec3 *out_normals)
{
    if (pose->status[mesh] != SKIN_DQ_OK) {
        animator_skin_mesh(animator, mesh, out_positions, out_normals);
        return;
    }
    mat4 node_model;
    animator_mesh_matrix(animator, mesh, node_model);
    Mesh morphed = animator->model->meshes[mesh];   /* morph targets first, in mesh space (no allocation) */
    if (animator_morph_mesh(animator, mesh)) {
        morphed.positions = animator->morphs[mesh].positions;
        morphed.normals = animator->morphs[mesh].normals;
    }
    skin_vertices_dq(&morphed, pose->dq[mesh], pose->scale[mesh], node_model, out_positions, out_normals);
}

void skin_mesh_by_method(SkinningMethod method, const SkinDqPose *pose, const Animator *animator, int mesh,
                         vec3 *out_positions, vec3 *out_normals)
{
    if (method == SKINNING_GPU_DQ && pose) {
        skin_dq_pose_skin_mesh(pose, animator, mesh, out_positions, out_normals);
    } else if (method == SKINNING_RIGID) {
        mat4 node_model;
        animator_mesh_matrix(animator, mesh, node_model);
        Mesh morphed = animator->model->meshes[mesh];   /* morph targets first, in mesh space (no allocation) */
        if (animator_morph_mesh(animator, mesh)) {
            morphed.positions = animator->morphs[mesh].positions;
            morphed.normals = animator->morphs[mesh].normals;
        }
        skin_vertices_rigid(&morphed, (const mat4 *)animator->palettes[mesh], node_model, out_positions, out_normals);
    } else {
        animator_skin_mesh(animator, mesh, out_positions, out_normals);
    }
}

float skin_compare_mesh(SkinningMethod a, SkinningMethod b, const SkinDqPose *pose, const Animator *animator, int mesh,
                        vec3 *scratch_a, vec3 *scratch_b, float *distance)
{
    skin_mesh_by_method(a, pose, animator, mesh, scratch_a, NULL);
    skin_mesh_by_method(b, pose, animator, mesh, scratch_b, NULL);
    float largest = 0.0f;
    for (int v = 0; v < animator->model->meshes[mesh].vertex_count; v++) {
        distance[v] = glm_vec3_distance(scratch_a[v], scratch_b[v]);   /* |p_A - p_B|, scene units */
        if (distance[v] > largest) largest = distance[v];
    }
    return largest;
}
