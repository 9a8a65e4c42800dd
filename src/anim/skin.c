/* skin.c — the skin palette and linear blend skinning on the CPU. */
#include "anim.h"

#include <string.h>

void skin_palette(const Mesh *mesh, const mat4 *model, mat4 *palette)
{
    for (int i = 0; i < mesh->bone_count; i++)
        /* palette_i = M_joint(now) * inverse_bind_i: mesh space -> bone space -> scene space.
         * inverse_bind_i = B_i^-1 is the file's: B_i is where the joint sat relative to the MESH when it
         * was bound, not its scene matrix then (that is N * B_i, N = bind_matrix; docs/skinning.md) */
        glm_mat4_mul((vec4 *)model[mesh->bone_joint[i]], mesh->inverse_bind[i], palette[i]);
}

void skin_palette_bind(const Mesh *mesh, mat4 *palette)
{
    for (int i = 0; i < mesh->bone_count; i++)
        /* palette_i = (N * inverse(B_i^-1)) * B_i^-1 = N: the stored vertices, placed by N */
        glm_mat4_copy((vec4 *)mesh->bind_matrix, palette[i]);
}

void skin_palette_follow_node(const Mesh *mesh, const mat4 *model, mat4 *palette)
{
    if (!mesh->skin_follows_node || mesh->node_joint < 0) return;
    mat4 follow, identity = GLM_MAT4_IDENTITY_INIT;
    /* F = M_node(now) * inverse(M_node(bind)): the node's motion since binding */
    glm_mat4_mul((vec4 *)model[mesh->node_joint], (vec4 *)mesh->skin_bind_node_inverse, follow);
    for (int i = 0; i < mesh->bone_count; i++) {
        bool unweighted = mesh->bone_joint[i] == mesh->node_joint && memcmp(mesh->inverse_bind[i], identity, sizeof identity) == 0;
        if (!unweighted) glm_mat4_mul(follow, palette[i], palette[i]);
    }
}

void skin_vertices_lbs(const Mesh *mesh, const mat4 *palette, const mat4 node_model,
                       vec3 *out_positions, vec3 *out_normals)
{
    if (!mesh->skinned) {
        mat3 normal_matrix;
        glm_mat4_pick3((vec4 *)node_model, normal_matrix);
        for (int v = 0; v < mesh->vertex_count; v++) {
            glm_mat4_mulv3((vec4 *)node_model, mesh->positions[v], 1.0f, out_positions[v]);
            if (out_normals) {
                glm_mat3_mulv(normal_matrix, mesh->normals[v], out_normals[v]);
                glm_vec3_normalize(out_normals[v]);
            }
        }
        return;
    }
    for (int v = 0; v < mesh->vertex_count; v++) {
        /* p' = sum_k w_k * palette[j_k] * (p, 1);  n' = normalize(sum_k w_k * mat3(palette[j_k]) * n) */
        vec3 p = {0.0f, 0.0f, 0.0f}, n = {0.0f, 0.0f, 0.0f};
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            float w = mesh->weights[v][k];
            if (w == 0.0f) continue;     /* unused slot; note: bone index 0 is a real bone */
            const vec4 *m = palette[mesh->joint_indices[v][k]];
            vec3 pk, nk;
            glm_mat4_mulv3((vec4 *)m, mesh->positions[v], 1.0f, pk);
            glm_vec3_muladds(pk, w, p);
            if (out_normals) {
                glm_mat4_mulv3((vec4 *)m, mesh->normals[v], 0.0f, nk);
                glm_vec3_muladds(nk, w, n);
            }
        }
        glm_vec3_copy(p, out_positions[v]);
        if (out_normals) {
            glm_vec3_normalize(n);
            glm_vec3_copy(n, out_normals[v]);
        }
    }
}

void skin_vertices_rigid(const Mesh *mesh, const mat4 *palette, const mat4 node_model, vec3 *out_positions,
                         vec3 *out_normals)
{
    if (!mesh->skinned) {   /* a static mesh is rigid already: its node moves it */
        skin_vertices_lbs(mesh, palette, node_model, out_positions, out_normals);
        return;
    }
    for (int v = 0; v < mesh->vertex_count; v++) {
        /* rigid: p' = palette[j_h] * (p, 1), h = the slot with the largest weight (the first of equals) */
        int h = 0;
        for (int k = 1; k < SV_MAX_INFLUENCES; k++)
            if (mesh->weights[v][k] > mesh->weights[v][h]) h = k;
        const vec4 *m = palette[mesh->joint_indices[v][h]];
        glm_mat4_mulv3((vec4 *)m, mesh->positions[v], 1.0f, out_positions[v]);
        if (out_normals) {
            glm_mat4_mulv3((vec4 *)m, mesh->normals[v], 0.0f, out_normals[v]);
            glm_vec3_normalize(out_normals[v]);
        }
    }
}
