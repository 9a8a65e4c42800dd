/* mesh_layout.c — a skinned mesh's vertices laid out for the skinning loop (once, at import).
 *
 * skin_fast.c runs one specialised loop per run of consecutive vertices with the same influence
 * count (SkinRun). As stored by exporters, vertices with 1, 2, 3 and 4 influences alternate
 * (ozz-animation's arnaud mesh: 1 227 runs of 3.2 vertices on average), so the loop switches
 * often and rarely reaches its four-at-a-time normal path. Sorting the vertices by influence
 * count — stable, so neighbours stay neighbours within a count — leaves at most four runs.
 * The triangles are re-indexed, so the surface is the same; only the order of the vertex
 * arrays changes (no output of skinview promises the file's vertex order: exports write the
 * mesh as it is in memory, VAT bakes write their own mesh.glb in the same order as their
 * textures, peer checks compare point sets). */
#include "anim.h"

#include <stdlib.h>
#include <string.h>

/* 1 + index of the last non-zero weight (at least 1), as skin_runs_build counts. */
static int influence_count(const float weights[SV_MAX_INFLUENCES])
{
    int count = 1;
    for (int k = 1; k < SV_MAX_INFLUENCES; k++)
        if (weights[k] != 0.0f) count = k + 1;
    return count;
}

int mesh_influence_runs(const Mesh *mesh)
{
    if (!mesh->skinned || !mesh->weights || mesh->vertex_count <= 0) return 0;
    return skin_runs_build((const float (*)[SV_MAX_INFLUENCES])mesh->weights, mesh->vertex_count, NULL);
}

/* One per-vertex array of the mesh: where its pointer lives, bytes per vertex, and how many
 * blocks of vertex_count vertices it holds (morph deltas: one block per target). */
typedef struct VertexArray {
    void  **data;
    size_t  size;
    int     blocks;
    void   *sorted;
} VertexArray;

bool mesh_sort_by_influences(Mesh *mesh)
{
    int count = mesh->vertex_count;
    if (!mesh->skinned || !mesh->weights || count <= 1 || mesh_influence_runs(mesh) <= SV_MAX_INFLUENCES) return true;
    int targets = mesh->morph_target_count > 0 ? mesh->morph_target_count : 0;
    VertexArray arrays[] = {
        {(void **)&mesh->positions, sizeof(vec3), 1, NULL},
        {(void **)&mesh->normals, sizeof(vec3), 1, NULL},
        {(void **)&mesh->uvs, sizeof(vec2), 1, NULL},
        {(void **)&mesh->uvs2, sizeof(vec2), 1, NULL},
        {(void **)&mesh->colors, sizeof(vec4), 1, NULL},
        {(void **)&mesh->tangents, sizeof(vec4), 1, NULL},
        {(void **)&mesh->joint_indices, sizeof *mesh->joint_indices, 1, NULL},
        {(void **)&mesh->weights, sizeof *mesh->weights, 1, NULL},
        {(void **)&mesh->influences_in_file, sizeof *mesh->influences_in_file, 1, NULL},
        {(void **)&mesh->joint_indices_more, sizeof *mesh->joint_indices_more, 1, NULL},
        {(void **)&mesh->weights_more, sizeof *mesh->weights_more, 1, NULL},
        {(void **)&mesh->dq_weight, sizeof *mesh->dq_weight, 1, NULL},
        {(void **)&mesh->morph_position_deltas, sizeof(vec3), targets, NULL},
        {(void **)&mesh->morph_normal_deltas, sizeof(vec3), targets, NULL},
    };
    enum { ARRAYS = sizeof arrays / sizeof arrays[0] };
    int *order = malloc(sizeof(int) * (size_t)count), *new_index = malloc(sizeof(int) * (size_t)count);
    bool ok = order && new_index;
    for (int a = 0; ok && a < ARRAYS; a++)   /* every copy first: out of memory leaves the mesh as it was */
        if (*arrays[a].data && arrays[a].blocks > 0) {
            arrays[a].sorted = malloc(arrays[a].size * (size_t)count * (size_t)arrays[a].blocks);
            ok = arrays[a].sorted != NULL;
        }
    if (!ok) {
        for (int a = 0; a < ARRAYS; a++) free(arrays[a].sorted);
        free(order), free(new_index);
        return false;
    }
    /* counting sort by influence count (stable): first[c] = where the vertices with c influences start */
    int first[SV_MAX_INFLUENCES + 2] = {0};
    for (int v = 0; v < count; v++) first[influence_count(mesh->weights[v]) + 1]++;
    for (int c = 1; c <= SV_MAX_INFLUENCES; c++) first[c + 1] += first[c];
    for (int v = 0; v < count; v++) {
        int slot = first[influence_count(mesh->weights[v])]++;
        order[slot] = v;        /* new vertex `slot` is old vertex v */
        new_index[v] = slot;
    }
    /* sorted[b][new] = data[b][order[new]] for each block b */
    for (int a = 0; a < ARRAYS; a++) {
        if (!arrays[a].sorted) continue;
        const unsigned char *in = *arrays[a].data;
        unsigned char *out = arrays[a].sorted;
        size_t size = arrays[a].size, block = size * (size_t)count;
        for (int b = 0; b < arrays[a].blocks; b++)
            for (int v = 0; v < count; v++) memcpy(out + b * block + (size_t)v * size, in + b * block + (size_t)order[v] * size, size);
        free(*arrays[a].data);
        *arrays[a].data = out;
    }
    for (int i = 0; i < mesh->index_count; i++)   /* triangles: each index names the same vertex at its new place */
        if (mesh->indices[i] < (uint32_t)count) mesh->indices[i] = (uint32_t)new_index[mesh->indices[i]];
    free(order);
    free(new_index);
    return true;
}
