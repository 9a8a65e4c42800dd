/* inspect.c — one vertex through the skinning formula, every number kept (see inspect.h). */
#include "inspect.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int skin_heaviest_slot(const float weights[SV_MAX_INFLUENCES])
{
    int heaviest = 0;
    for (int k = 1; k < SV_MAX_INFLUENCES; k++)
        if (weights[k] > weights[heaviest]) heaviest = k;   /* strict: the first of equal weights wins */
    return heaviest;
}

const char *vertex_inspect_formula(void)
{
    return "column vectors (cglm): p' = M * p, matrices apply right to left\n"
           "p         = p_stored + sum_t w_t * delta_t      (morph targets, mesh space)\n"
           "p_bone_k  = B_k^-1 * p                          (offset matrix: mesh -> bone space)\n"
           "palette_k = M_j(k) * B_k^-1                     (skin matrix; M_j = joint's model-space matrix now)\n"
           "p'        = sum_k w_k * (palette_k * p)         (linear blend skinning, scene space)";
}

const char *vertex_inspect_formula_short(void)
{
    return "column vectors: p' = M p (right to left)\n"
           "p = p_stored + sum_t w_t delta_t   (morph)\n"
           "p_bone_k = B_k^-1 p   (bone space)\n"
           "palette_k = M_j(k) B_k^-1   (skin matrix)\n"
           "p' = sum_k w_k palette_k p   (LBS)";
}

bool vertex_inspect(const Animator *animator, const SkinDqPose *dq, int mesh_index, int vertex, VertexInspection *out)
{
    const Model *model = animator->model;
    if (mesh_index < 0 || mesh_index >= model->mesh_count) return false;
    const Mesh *mesh = &model->meshes[mesh_index];
    if (vertex < 0 || vertex >= mesh->vertex_count) return false;
    memset(out, 0, sizeof *out);
    out->mesh = mesh_index;
    out->vertex = vertex;
    out->mesh_name = mesh->name;
    out->skinned = mesh->skinned;
    out->follows_node = mesh->skinned && mesh->skin_follows_node && mesh->node_joint >= 0;
    out->heaviest = -1;
    glm_vec3_copy(mesh->positions[vertex], out->stored_position);
    if (mesh->normals) glm_vec3_copy(mesh->normals[vertex], out->stored_normal);

    /* morph: p = p_stored + sum_t w_t * delta_t (the animator's active targets of this pose) */
    glm_vec3_copy(out->stored_position, out->position);
    glm_vec3_copy(out->stored_normal, out->normal);
    const MeshMorph *morph = &animator->morph.meshes[mesh_index];
    if (mesh->morph_target_count > 0) {
        out->morph_count = morph->active_count;
        for (int i = 0; i < morph->active_count; i++) {
            int target = morph->active_targets[i];
            float w = morph->active_weights[i];
            size_t entry = (size_t)target * (size_t)mesh->vertex_count + (size_t)vertex;
            vec3 weighted;
            glm_vec3_scale(mesh->morph_position_deltas[entry], w, weighted);
            glm_vec3_add(out->position, weighted, out->position);
            if (mesh->morph_normal_deltas) glm_vec3_muladds(mesh->morph_normal_deltas[entry], w, out->normal);
            if (i < INSPECT_MAX_MORPHS) {
                InspectMorph *step = &out->morphs[out->morph_listed++];
                step->target = target;
                step->name = mesh->morph_target_names ? mesh->morph_target_names[target] : "";
                step->weight = w;
                glm_vec3_copy(mesh->morph_position_deltas[entry], step->delta);
                glm_vec3_copy(weighted, step->weighted);
            } else {
                glm_vec3_add(out->morph_other, weighted, out->morph_other);
            }
        }
    }

    glm_mat4_identity(out->node_model);
    if (!mesh->skinned) {   /* a static mesh follows its node: p' = M_node * p */
        animator_mesh_matrix(animator, mesh_index, out->node_model);
        glm_mat4_mulv3(out->node_model, out->position, 1.0f, out->lbs);
        glm_vec3_copy(out->lbs, out->sum);
        glm_vec3_copy(out->lbs, out->rigid);
        glm_vec3_copy(out->lbs, out->dq);
        mat3 normal_matrix;
        glm_mat4_pick3(out->node_model, normal_matrix);
        glm_mat3_mulv(normal_matrix, out->normal, out->sum_normal);
        glm_vec3_normalize(out->sum_normal);
        return true;
    }

    /* p' = sum_k w_k * (palette_k * p), palette_k = M_j(k) * B_k^-1 */
    const mat4 *palette = (const mat4 *)animator->palettes[mesh_index];
    const float *weights = mesh->weights[vertex];
    int heaviest_slot = skin_heaviest_slot(weights);
    vec3 normal_sum = {0.0f, 0.0f, 0.0f};
    for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
        float w = weights[k];
        if (w == 0.0f) continue;   /* unused slot (bone index 0 is a real bone) */
        InspectInfluence *influence = &out->influences[out->influence_count];
        if (k == heaviest_slot) out->heaviest = out->influence_count;
        out->influence_count++;
        int bone = mesh->joint_indices[vertex][k];
        influence->slot = k;
        influence->bone = bone;
        influence->joint = mesh->bone_joint[bone];
        influence->joint_name = model->skeleton.names[influence->joint];
        influence->weight = w;
        glm_mat4_copy(animator->joint_model[influence->joint], influence->joint_model);
        glm_mat4_copy(mesh->inverse_bind[bone], influence->offset);
        glm_mat4_copy((vec4 *)palette[bone], influence->palette);
        glm_mat4_mulv3(influence->offset, out->position, 1.0f, influence->bone_space);   /* B_k^-1 * p */
        glm_mat4_mulv3(influence->palette, out->position, 1.0f, influence->moved);       /* palette_k * p */
        glm_vec3_scale(influence->moved, w, influence->term);                            /* w_k * ... */
        glm_vec3_add(out->sum, influence->term, out->sum);
        vec3 moved_normal;
        glm_mat4_mulv3(influence->palette, out->normal, 0.0f, moved_normal);
        glm_vec3_muladds(moved_normal, w, normal_sum);
    }
    glm_vec3_normalize_to(normal_sum, out->sum_normal);
    glm_vec3_copy(out->sum, out->lbs);
    if (out->heaviest >= 0) glm_vec3_copy(out->influences[out->heaviest].moved, out->rigid);   /* palette_h * p */
    glm_vec3_copy(out->lbs, out->dq);

    /* DQS of this one vertex: the reference skin_vertices_dq on a one-vertex view of the mesh */
    if (dq && mesh_index < dq->mesh_count && dq->status[mesh_index] == SKIN_DQ_OK) {
        Mesh one = *mesh;
        one.vertex_count = 1;
        one.positions = &out->position;
        one.normals = &out->normal;
        one.joint_indices = mesh->joint_indices + vertex;
        one.weights = mesh->weights + vertex;
        one.dq_weight = mesh->dq_weight ? mesh->dq_weight + vertex : NULL;   /* SkinningType Blend */
        vec3 normal;
        skin_vertices_dq(&one, dq->dq[mesh_index], dq->stretch[mesh_index], out->node_model, &out->dq, &normal);
        out->dq_valid = true;
    }
    return true;
}

/* Appends to out at *length (clamped): printf-style. */
static void append(char *out, size_t out_size, int *length, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *out, size_t out_size, int *length, const char *format, ...)
{
    if (*length < 0 || (size_t)*length >= out_size) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(out + *length, out_size - (size_t)*length, format, args);
    va_end(args);
    if (n < 0) return;
    *length += n;
    if ((size_t)*length >= out_size) *length = (int)out_size - 1;
}

/* For reading: a float-rounding remnant below 5e-7 prints as 0 (the JSON keeps every digit). */
static double shown(float value)
{
    return fabsf(value) < 5e-7f ? 0.0 : (double)value;
}

/* v as printed with `decimals` digits after the point, without a "-0.000" for a tiny negative. */
static double printable(float value, int decimals)
{
    return fabs(value) < 0.5 * pow(10.0, -decimals) ? 0.0 : (double)value;
}

static void append_matrix(char *out, size_t out_size, int *length, const char *name, const mat4 m)
{
    /* row r, column c = m[c][r] (cglm stores columns) */
    for (int r = 0; r < 4; r++)
        append(out, out_size, length, "    %-9s [% 11.6g % 11.6g % 11.6g % 11.6g]\n", r == 0 ? name : "", shown(m[0][r]),
               shown(m[1][r]), shown(m[2][r]), shown(m[3][r]));
}

int vertex_inspect_format(const VertexInspection *info, InspectTextLayout layout, char *out, size_t out_size)
{
    int length = 0;
    if (out_size == 0) return 0;
    out[0] = '\0';
    append(out, out_size, &length, "vertex %d of mesh %d \"%s\"%s\n%s\n", info->vertex, info->mesh, info->mesh_name,
           info->skinned ? "" : " (static: p' = M_node * p)",
           layout == INSPECT_TEXT_STACKED ? vertex_inspect_formula() : vertex_inspect_formula_short());
    append(out, out_size, &length, "p_stored  (% .5f, % .5f, % .5f)   n (% .3f, % .3f, % .3f)\n",
           printable(info->stored_position[0], 5), printable(info->stored_position[1], 5),
           printable(info->stored_position[2], 5), printable(info->stored_normal[0], 3),
           printable(info->stored_normal[1], 3), printable(info->stored_normal[2], 3));
    for (int i = 0; i < info->morph_listed; i++) {
        const InspectMorph *m = &info->morphs[i];
        append(out, out_size, &length, "  + %.4f * delta[%d \"%s\"] (% .5f, % .5f, % .5f)\n", m->weight, m->target,
               m->name, printable(m->delta[0], 5), printable(m->delta[1], 5), printable(m->delta[2], 5));
    }
    if (info->morph_count > info->morph_listed)
        append(out, out_size, &length, "  + %d more targets (% .5f, % .5f, % .5f)\n", info->morph_count - info->morph_listed,
               printable(info->morph_other[0], 5), printable(info->morph_other[1], 5), printable(info->morph_other[2], 5));
    if (info->morph_count > 0)
        append(out, out_size, &length, "p         (% .5f, % .5f, % .5f)   (morphed)\n", printable(info->position[0], 5),
               printable(info->position[1], 5), printable(info->position[2], 5));
    if (!info->skinned && layout != INSPECT_TEXT_NO_MATRICES)
        append_matrix(out, out_size, &length, "M_node", info->node_model);
    for (int i = 0; i < info->influence_count; i++) {
        const InspectInfluence *k = &info->influences[i];
        append(out, out_size, &length, "bone%dinfo = (%d, %.4f): joint %d \"%s\"%s\n", k->slot, k->bone, k->weight,
               k->joint, k->joint_name, i == info->heaviest ? "  (heaviest)" : "");
        if (layout == INSPECT_TEXT_STACKED) {
            append_matrix(out, out_size, &length, "M_j", k->joint_model);
            append_matrix(out, out_size, &length, "B^-1", k->offset);
            append_matrix(out, out_size, &length, info->follows_node ? "F*M*B^-1" : "palette", k->palette);
        }
        append(out, out_size, &length, "    p_bone (% .5f, % .5f, % .5f)   palette*p (% .5f, % .5f, % .5f)\n",
               printable(k->bone_space[0], 5), printable(k->bone_space[1], 5), printable(k->bone_space[2], 5),
               printable(k->moved[0], 5), printable(k->moved[1], 5), printable(k->moved[2], 5));
        append(out, out_size, &length, "    w*palette*p = %.4f * ... = (% .5f, % .5f, % .5f)\n", k->weight,
               printable(k->term[0], 5), printable(k->term[1], 5), printable(k->term[2], 5));
    }
    append(out, out_size, &length, "p' = sum  (% .5f, % .5f, % .5f)   scene space (LBS)\n", printable(info->lbs[0], 5),
           printable(info->lbs[1], 5), printable(info->lbs[2], 5));
    if (info->skinned)
        append(out, out_size, &length, "rigid     (% .5f, % .5f, % .5f)   DQS (% .5f, % .5f, % .5f)%s\n",
               printable(info->rigid[0], 5), printable(info->rigid[1], 5), printable(info->rigid[2], 5),
               printable(info->dq[0], 5), printable(info->dq[1], 5), printable(info->dq[2], 5),
               info->dq_valid ? "" : " (LBS)");
    return length;
}
