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
    case SKIN_DQ_OK: return "every bone splits into rotation, translation and stretch";
    case SKIN_DQ_DEGENERATE: return "a bone scaled to zero (or not finite)";
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

/* The dual quaternion of rotation matrix `rotation` (m[c][r]) and translation t = m[3]:
 * d = 1/2 * (t, 0) * r. */
static void dq_from_rotation_translation(const float rotation[3][3], const mat4 m, DualQuat *out)
{
    quat_from_rotation(rotation, out->real);
    versor t = {m[3][0], m[3][1], m[3][2], 0.0f};
    quat_multiply(t, out->real, out->dual);
    for (int i = 0; i < 4; i++) out->dual[i] *= 0.5f;
}

void dq_from_rigid_matrix(const mat4 m, DualQuat *out)
{
    float rotation[3][3];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) rotation[c][r] = m[c][r];
    dq_from_rotation_translation(rotation, m, out);
}

static double det3(const double a[3][3])
{
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[1][0] * (a[0][1] * a[2][2] - a[0][2] * a[2][1]) +
           a[2][0] * (a[0][1] * a[1][2] - a[0][2] * a[1][1]);
}

/* Polar decomposition of a 3x3 matrix with a positive determinant (a[c][r], column c):
 *   A = Q * P,  Q the rotation nearest to A,  P = Q^T A symmetric positive definite.
 * Q by the scaled Newton iteration Q <- (g Q + Q^-T / g) / 2, g = |det Q|^(-1/3) (Higham), from
 * Q = A; the columns of Q^-T are the cross products of Q's columns over det Q. */
static void polar_decompose(const double a[3][3], double q[3][3], double p[3][3])
{
    memcpy(q, a, sizeof(double) * 9);
    for (int iteration = 0; iteration < 40; iteration++) {
        double det = det3(q), g = pow(fabs(det), -1.0 / 3.0), next[3][3], change = 0.0;
        for (int c = 0; c < 3; c++) {
            const double *u = q[(c + 1) % 3], *v = q[(c + 2) % 3];
            double cross[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
            for (int r = 0; r < 3; r++) {
                next[c][r] = 0.5 * (g * q[c][r] + cross[r] / (det * g));
                change = fmax(change, fabs(next[c][r] - q[c][r]));
            }
        }
        memcpy(q, next, sizeof next);
        if (change < 1e-14) break;
    }
    for (int c = 0; c < 3; c++)   /* P = Q^T A: p[c][r] = dot(column r of Q, column c of A) */
        for (int r = 0; r < 3; r++) p[c][r] = q[r][0] * a[c][0] + q[r][1] * a[c][1] + q[r][2] * a[c][2];
    for (int c = 0; c < 3; c++)   /* exactly symmetric */
        for (int r = c + 1; r < 3; r++) p[c][r] = p[r][c] = 0.5 * (p[c][r] + p[r][c]);
}

/* P * v for a packed symmetric stretch. */
static void stretch_apply(const float *p, const vec3 v, vec3 out)
{
    /* p = (p00, p11, p22, p01, p02, p12, -, -) */
    float x = p[0] * v[0] + p[3] * v[1] + p[4] * v[2];
    float y = p[3] * v[0] + p[1] * v[1] + p[5] * v[2];
    float z = p[4] * v[0] + p[5] * v[1] + p[2] * v[2];
    out[0] = x, out[1] = y, out[2] = z;
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

SkinDqStatus skin_palette_to_dq(const Mesh *mesh, const mat4 *palette, DualQuat *out, DqStretch *out_stretch)
{
    if (!mesh->skinned || mesh->bone_count == 0) return SKIN_DQ_OK;
    for (int i = 0; i < mesh->bone_count; i++) {
        const vec4 *m = palette[i];
        double a[3][3], q[3][3], p[3][3];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) a[c][r] = m[c][r];
        double det = det3(a), size = 0.0;
        for (int c = 0; c < 3; c++) size = fmax(size, fabs(a[c][0]) + fabs(a[c][1]) + fabs(a[c][2]));
        if (!isfinite(det) || !(fabs(det) > 1e-12 * size * size * size)) return SKIN_DQ_DEGENERATE;
        if (det < 0.0) return SKIN_DQ_MIRROR;
        /* mat3(M_i) = Q_i P_i: Q_i and t_i the dual quaternion, P_i the stretch */
        polar_decompose(a, q, p);
        float rotation[3][3];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) rotation[c][r] = (float)q[c][r];
        dq_from_rotation_translation(rotation, palette[i], &out[i]);
        float *packed = out_stretch[i].v[0];   /* v[0], v[1] are contiguous */
        packed[0] = (float)p[0][0], packed[1] = (float)p[1][1], packed[2] = (float)p[2][2], packed[3] = (float)p[0][1];
        packed[4] = (float)p[0][2], packed[5] = (float)p[1][2], packed[6] = 0.0f, packed[7] = 0.0f;
    }
    return SKIN_DQ_OK;
}

void skin_vertices_dq(const Mesh *mesh, const DualQuat *dq, const DqStretch *stretch, const mat4 node_model,
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
        float blended_stretch[8] = {0.0f}, weight_sum = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES && first; k++) {
            if (weights[k] == 0.0f) continue;
            const DualQuat *q = &dq[bones[k]];
            /* b += w_k * sign_k * q_k,  sign_k = sign(dot(r_k, r_first)) */
            float w = glm_vec4_dot((float *)q->real, (float *)first->real) < 0.0f ? -weights[k] : weights[k];
            for (int i = 0; i < 4; i++) {
                real[i] += w * q->real[i];
                dual[i] += w * q->dual[i];
            }
            /* P += w_k P_k */
            const float *p = stretch[bones[k]].v[0];
            for (int i = 0; i < 8; i++) blended_stretch[i] += weights[k] * p[i];
            weight_sum += weights[k];
        }
        /* b /= |b.real|: back to a unit dual quaternion (a rigid transform) */
        float length = sqrtf(glm_vec4_dot(real, real));
        if (!(length > 1e-12f) || !(weight_sum != 0.0f)) {   /* no weight at all: leave the vertex where it was stored */
            glm_vec3_copy((float *)mesh->positions[v], out_positions[v]);
            if (out_normals) glm_vec3_copy((float *)mesh->normals[v], out_normals[v]);
            continue;
        }
        glm_vec4_scale(real, 1.0f / length, real);
        glm_vec4_scale(dual, 1.0f / length, dual);
        for (int i = 0; i < 8; i++) blended_stretch[i] /= weight_sum;
        vec3 stretched;
        stretch_apply(blended_stretch, mesh->positions[v], stretched);   /* P first, then D */
        dq_move(real, dual, stretched, out_positions[v]);
        vec3 normal = {0.0f, 0.0f, 0.0f};
        if (out_normals) {
            stretch_apply(blended_stretch, mesh->normals[v], stretched);
            dq_rotate(real, stretched, normal);
        }
        /* SkinningType Blend: p' = dq_weight p_dq + (1 - dq_weight) p_lbs, p_lbs = sum_k w_k D_k P_k p */
        float linear_share = mesh->dq_weight ? 1.0f - mesh->dq_weight[v] : 0.0f;
        if (linear_share != 0.0f) {
            vec3 lbs = {0.0f, 0.0f, 0.0f}, lbs_normal = {0.0f, 0.0f, 0.0f};
            for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                if (weights[k] == 0.0f) continue;
                const DualQuat *q = &dq[bones[k]];
                vec3 moved;
                stretch_apply(stretch[bones[k]].v[0], mesh->positions[v], stretched);
                dq_move(q->real, q->dual, stretched, moved);
                glm_vec3_muladds(moved, weights[k] / weight_sum, lbs);
                if (out_normals) {
                    stretch_apply(stretch[bones[k]].v[0], mesh->normals[v], stretched);
                    dq_rotate(q->real, stretched, moved);
                    glm_vec3_muladds(moved, weights[k] / weight_sum, lbs_normal);
                }
            }
            glm_vec3_lerp(out_positions[v], lbs, linear_share, out_positions[v]);
            glm_vec3_lerp(normal, lbs_normal, linear_share, normal);
        }
        if (out_normals) {
            glm_vec3_normalize(normal);
            glm_vec3_copy(normal, out_normals[v]);
        }
    }
}

bool skin_dq_pose_init(SkinDqPose *pose, const Model *model)
{
    memset(pose, 0, sizeof *pose);
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    pose->dq = calloc(meshes, sizeof *pose->dq);
    pose->stretch = calloc(meshes, sizeof *pose->stretch);
    pose->status = calloc(meshes, sizeof *pose->status);
    if (!pose->dq || !pose->stretch || !pose->status) {
        skin_dq_pose_free(pose);
        return false;
    }
    pose->mesh_count = model->mesh_count;
    for (int m = 0; m < model->mesh_count; m++) {
        int bones = model->meshes[m].bone_count > 0 ? model->meshes[m].bone_count : 1;
        pose->dq[m] = calloc((size_t)bones, sizeof(DualQuat));
        pose->stretch[m] = calloc((size_t)bones, sizeof(DqStretch));
        if (!pose->dq[m] || !pose->stretch[m]) {
            skin_dq_pose_free(pose);
            return false;
        }
    }
    return true;
}

void skin_dq_pose_free(SkinDqPose *pose)
{
    for (int m = 0; m < pose->mesh_count; m++) {
        if (pose->dq) free(pose->dq[m]);
        if (pose->stretch) free(pose->stretch[m]);
    }
    free(pose->dq);
    free(pose->stretch);
    free(pose->status);
    memset(pose, 0, sizeof *pose);
}

int skin_dq_pose_update(SkinDqPose *pose, const Animator *animator)
{
    const Model *model = animator->model;
    int fallbacks = 0;
    for (int m = 0; m < pose->mesh_count; m++) {
        pose->status[m] = skin_palette_to_dq(&model->meshes[m], (const mat4 *)animator->palettes[m], pose->dq[m],
                                             pose->stretch[m]);
        if (pose->status[m] != SKIN_DQ_OK) fallbacks++;
    }
    return fallbacks;
}

/* Mesh `mesh` as skinning reads it at the animator's pose: morph targets first, in mesh space
 * (the morphed vertices in the animator's scratch buffers, no allocation), else its own. */
static Mesh morphed_mesh(const Animator *animator, int mesh)
{
    Mesh morphed = animator->model->meshes[mesh];
    if (animator_morph_mesh(animator, mesh)) {
        morphed.positions = animator->morph.meshes[mesh].positions;
        morphed.normals = animator->morph.meshes[mesh].normals;
    }
    return morphed;
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
    Mesh morphed = morphed_mesh(animator, mesh);
    skin_vertices_dq(&morphed, pose->dq[mesh], pose->stretch[mesh], node_model, out_positions, out_normals);
}

void skin_mesh_by_method(SkinningMethod method, const SkinDqPose *pose, const Animator *animator, int mesh,
                         vec3 *out_positions, vec3 *out_normals)
{
    if (method == SKINNING_GPU_DQ && pose) {
        skin_dq_pose_skin_mesh(pose, animator, mesh, out_positions, out_normals);
    } else if (method == SKINNING_RIGID) {
        mat4 node_model;
        animator_mesh_matrix(animator, mesh, node_model);
        Mesh morphed = morphed_mesh(animator, mesh);
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
