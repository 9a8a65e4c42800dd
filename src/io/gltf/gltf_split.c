/* gltf_split.c — step 5 of the glTF reader: --max-bones, meshes with too many bones split.
 *
 * Rules of this step (what Assimp's SplitByBoneCount did for the other formats; trap 5 in
 * docs/skinning.md):
 *   - Only with a limit (--max-bones N > 0) and only skinned meshes with more than N bones (the
 *     extra bone of unweighted vertices included: the palette uploaded for a mesh is its bone list).
 *   - Elements (triangles; segments and points of line and point meshes) are taken in order; an
 *     element joins the current piece if the bones its vertices use (weight > 0) still fit N, else
 *     it starts the next piece. A triangle that alone uses more than N bones cannot be split: the
 *     import fails with one line (raise --max-bones).
 *   - Each piece is a Mesh of its own: only the vertices its elements use (in first-use order),
 *     its bones renumbered in first-use order with their inverse binds, morph targets kept (the
 *     deltas of its vertices), the name, node, material and bind matrix of the whole. The pieces
 *     replace the mesh where it was; stats.meshes_split_by_bones counts the extra meshes.
 */
#include "gltf_internal.h"

#include <stdlib.h>
#include <string.h>

/* The distinct bones (weight > 0) of element t (corners indices each); returns their count (<= 12). */
static int element_bones(const Mesh *mesh, int t, int corners, int bones[12])
{
    int n = 0;
    for (int c = 0; c < corners; c++) {
        uint32_t v = mesh->indices[corners * t + c];
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            if (!(mesh->weights[v][k] > 0.0f)) continue;
            int bone = mesh->joint_indices[v][k];
            bool seen = false;
            for (int i = 0; i < n && !seen; i++) seen = bones[i] == bone;
            if (!seen) bones[n++] = bone;
        }
    }
    return n;
}

/* Piece [first, end) of mesh's elements as a new Mesh. */
static bool make_piece(Gltf *g, const Mesh *mesh, int first, int end, Mesh *piece, int *vertex_map, int *bone_map)
{
    memset(piece, 0, sizeof *piece);
    memcpy(piece->name, mesh->name, sizeof piece->name);
    piece->node_joint = mesh->node_joint;
    piece->material = mesh->material;
    piece->skinned = true;
    piece->primitive = mesh->primitive;
    int corners = mesh_primitive_corners(mesh->primitive);
    glm_mat4_copy((vec4 *)mesh->bind_matrix, piece->bind_matrix);
    int elements = end - first;
    int vertices = 0, bones = 0;
    for (int i = corners * first; i < corners * end; i++) {
        uint32_t v = mesh->indices[i];
        if (vertex_map[v] < 0) vertex_map[v] = vertices++;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            int bone = mesh->joint_indices[v][k];
            if (mesh->weights[v][k] > 0.0f && bone_map[bone] < 0) bone_map[bone] = bones++;
        }
    }
    piece->vertex_count = vertices;
    piece->index_count = corners * elements;
    piece->bone_count = bones;
    size_t nv = (size_t)vertices + 1, targets = (size_t)mesh->morph_target_count;
    piece->positions = malloc(sizeof(vec3) * nv);
    piece->normals = malloc(sizeof(vec3) * nv);
    piece->uvs = malloc(sizeof(vec2) * nv);
    piece->uvs2 = mesh->uvs2 ? malloc(sizeof(vec2) * nv) : NULL;
    piece->colors = mesh->colors ? malloc(sizeof(vec4) * nv) : NULL;
    piece->tangents = mesh->tangents ? malloc(sizeof(vec4) * nv) : NULL;
    piece->indices = malloc(sizeof(uint32_t) * (size_t)piece->index_count);
    piece->bone_joint = malloc(sizeof(int) * ((size_t)bones + 1));
    piece->inverse_bind = malloc(sizeof(mat4) * ((size_t)bones + 1));
    piece->joint_indices = calloc(nv, sizeof *piece->joint_indices);
    piece->weights = calloc(nv, sizeof *piece->weights);
    piece->influences_in_file = mesh->influences_in_file ? malloc(nv) : NULL;
    if (targets > 0) {
        piece->morph_target_count = (int)targets;
        piece->morph_target_names = malloc(sizeof *piece->morph_target_names * targets);
        piece->morph_default_weights = malloc(sizeof(float) * targets);
        piece->morph_position_deltas = calloc(targets * nv, sizeof(vec3));
        piece->morph_normal_deltas = calloc(targets * nv, sizeof(vec3));
    }
    if (!piece->positions || !piece->normals || !piece->uvs || (mesh->uvs2 && !piece->uvs2) || (mesh->colors && !piece->colors) ||
        (mesh->tangents && !piece->tangents) || !piece->indices ||
        !piece->bone_joint || !piece->inverse_bind || !piece->joint_indices || !piece->weights ||
        (mesh->influences_in_file && !piece->influences_in_file) ||
        (targets > 0 && (!piece->morph_target_names || !piece->morph_default_weights || !piece->morph_position_deltas ||
                         !piece->morph_normal_deltas)))
        return gltf_fail(g, "out of memory");
    for (int b = 0; b < mesh->bone_count; b++)
        if (bone_map[b] >= 0) {
            piece->bone_joint[bone_map[b]] = mesh->bone_joint[b];
            glm_mat4_copy(mesh->inverse_bind[b], piece->inverse_bind[bone_map[b]]);
        }
    if (targets > 0) {
        memcpy(piece->morph_target_names, mesh->morph_target_names, sizeof *piece->morph_target_names * targets);
        memcpy(piece->morph_default_weights, mesh->morph_default_weights, sizeof(float) * targets);
    }
    for (int i = corners * first; i < corners * end; i++) {
        uint32_t v = mesh->indices[i];
        int u = vertex_map[v];
        piece->indices[i - corners * first] = (uint32_t)u;
        glm_vec3_copy(mesh->positions[v], piece->positions[u]);
        glm_vec3_copy(mesh->normals[v], piece->normals[u]);
        glm_vec2_copy(mesh->uvs[v], piece->uvs[u]);
        if (piece->uvs2) glm_vec2_copy(mesh->uvs2[v], piece->uvs2[u]);
        if (piece->colors) glm_vec4_copy(mesh->colors[v], piece->colors[u]);
        if (piece->tangents) glm_vec4_copy(mesh->tangents[v], piece->tangents[u]);
        if (piece->influences_in_file) piece->influences_in_file[u] = mesh->influences_in_file[v];
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            piece->weights[u][k] = mesh->weights[v][k];
            piece->joint_indices[u][k] = mesh->weights[v][k] > 0.0f ? (uint16_t)bone_map[mesh->joint_indices[v][k]] : 0;
        }
        for (size_t t = 0; t < targets; t++) {
            glm_vec3_copy(mesh->morph_position_deltas[t * (size_t)mesh->vertex_count + v],
                          piece->morph_position_deltas[t * (size_t)vertices + (size_t)u]);
            glm_vec3_copy(mesh->morph_normal_deltas[t * (size_t)mesh->vertex_count + v],
                          piece->morph_normal_deltas[t * (size_t)vertices + (size_t)u]);
        }
    }
    /* clear the maps for the next piece */
    for (int i = corners * first; i < corners * end; i++) {
        uint32_t v = mesh->indices[i];
        vertex_map[v] = -1;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) bone_map[mesh->joint_indices[v][k]] = -1;
    }
    return true;
}

/* Splits mesh m into pieces appended to *out (count *out_count). */
static bool split_mesh(Gltf *g, const Mesh *mesh, int limit, Mesh **out, int *out_count, int *out_capacity)
{
    int corners = mesh_primitive_corners(mesh->primitive);
    int elements = mesh->index_count / corners;
    int *vertex_map = malloc(sizeof(int) * ((size_t)mesh->vertex_count + 1));
    int *bone_map = malloc(sizeof(int) * ((size_t)mesh->bone_count + 1));
    bool *in_piece = calloc((size_t)mesh->bone_count + 1, 1);
    if (!vertex_map || !bone_map || !in_piece) {
        free(vertex_map), free(bone_map), free(in_piece);
        return gltf_fail(g, "out of memory");
    }
    for (int v = 0; v < mesh->vertex_count; v++) vertex_map[v] = -1;
    for (int b = 0; b < mesh->bone_count; b++) bone_map[b] = -1;
    bool ok = true;
    int first = 0, used = 0;
    for (int t = 0; ok && t <= elements; t++) {
        int bones[12], n = t < elements ? element_bones(mesh, t, corners, bones) : 0;
        if (n > limit) {
            ok = gltf_fail(g, "a triangle uses %d bones, more than the bones-per-mesh limit of %d allows: the mesh "
                              "cannot be split (raise --max-bones)", n, limit);
            break;
        }
        int added = 0;
        for (int i = 0; i < n; i++) added += !in_piece[bones[i]];
        if (t == elements || used + added > limit) {   /* close the piece [first, t) */
            if (t > first) {
                if (*out_count == *out_capacity) {
                    int grown = *out_capacity ? 2 * *out_capacity : 8;
                    Mesh *bigger = realloc(*out, sizeof *bigger * (size_t)grown);
                    if (!bigger) {
                        ok = gltf_fail(g, "out of memory");
                        break;
                    }
                    *out = bigger, *out_capacity = grown;
                }
                Mesh *piece = &(*out)[(*out_count)++];
                ok = make_piece(g, mesh, first, t, piece, vertex_map, bone_map);
            }
            memset(in_piece, 0, (size_t)mesh->bone_count + 1);
            first = t, used = 0, added = n;
        }
        for (int i = 0; i < n; i++) in_piece[bones[i]] = true;
        used += added;
    }
    free(vertex_map), free(bone_map), free(in_piece);
    return ok;
}

bool gltf_split_by_bones(Gltf *g)
{
    Model *model = g->model;
    int limit = g->max_bones;
    if (limit <= 0) return true;
    bool any = false;
    for (int m = 0; m < model->mesh_count; m++) any = any || (model->meshes[m].skinned && model->meshes[m].bone_count > limit);
    if (!any) return true;
    Mesh *meshes = NULL;
    int count = 0, capacity = 0;
    bool ok = true;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (ok && mesh->skinned && mesh->bone_count > limit) {
            int before = count;
            ok = split_mesh(g, mesh, limit, &meshes, &count, &capacity);
            model->stats.meshes_split_by_bones += count - before - 1;
            mesh_free(mesh);
            continue;
        }
        if (count == capacity) {
            int grown = capacity ? 2 * capacity : 8;
            Mesh *bigger = realloc(meshes, sizeof *bigger * (size_t)grown);
            if (!bigger) {
                ok = gltf_fail(g, "out of memory");
                mesh_free(mesh);
                continue;
            }
            meshes = bigger, capacity = grown;
        }
        meshes[count++] = *mesh;   /* moved */
        memset(mesh, 0, sizeof *mesh);
    }
    free(model->meshes);
    model->meshes = meshes;
    model->mesh_count = count;
    return ok;
}
