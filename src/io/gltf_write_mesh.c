/* gltf_write_mesh.c — meshes and skins (gltf_writer_meshes_and_skins): one glTF mesh with one primitive per
 * Mesh, one skin per skinned Mesh (joints = its bone list, inverseBindMatrices = Mesh.inverse_bind). Rules:
 *   - WEIGHTS_0 (and WEIGHTS_1 with --max-influences 8) sum to 1 in float; a slot with weight 0 has joint 0; a
 *     joint twice in one vertex is merged (the validator refuses duplicates);
 *   - TEXCOORD_n are written as glTF wants them, v' = 1 - v (the reader flips them back);
 *   - NORMAL / TANGENT xyz are unit length (normalised; a zero vector becomes +Y / +X). */
#include "gltf_write_internal.h"
#include "../anim/anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool any_nonzero(const float *values, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (values[i] != 0.0f) return true;
    return false;
}

/* unit xyz (a zero or non-finite vector becomes `fallback`) */
static void unit3(const float *in, float *out, const float *fallback)
{
    double x = in[0], y = in[1], z = in[2], length = sqrt(x * x + y * y + z * z);
    if (!(length > 1e-20) || !isfinite(length)) {
        memcpy(out, fallback, sizeof(float) * 3);
        return;
    }
    out[0] = (float)(x / length), out[1] = (float)(y / length), out[2] = (float)(z / length);
}



static int write_indices(GltfWriter *w, const Mesh *mesh)
{
    bool small = mesh->vertex_count <= 65535;
    GltfViewKind kind = mesh->primitive == MESH_TRIANGLES ? GW_VIEW_TRIANGLES : GW_VIEW_INDICES;
    size_t count = (size_t)mesh->index_count;
    int view;
    if (small) {
        uint16_t *shorts = malloc(sizeof(uint16_t) * (count + 1));
        if (!shorts) return gltf_writer_fail(w, "out of memory"), -1;
        for (size_t i = 0; i < count; i++) shorts[i] = (uint16_t)mesh->indices[i];
        view = gltf_writer_view(w, shorts, count, 2, kind, mesh->indices);
        free(shorts);
    } else
        view = gltf_writer_view(w, mesh->indices, count, 4, kind, mesh->indices);
    return gltf_writer_accessor(w, view, small ? GW_UNSIGNED_SHORT : GW_UNSIGNED_INT, (int)count, "SCALAR", 1, NULL, false);
}

/* glTF UVs: v' = 1 - v */
static int write_uvs(GltfWriter *w, const vec2 *uvs, int count)
{
    float *flipped = malloc(sizeof(float) * 2 * (size_t)(count + 1));
    if (!flipped) return gltf_writer_fail(w, "out of memory"), -1;
    for (int v = 0; v < count; v++) flipped[2 * v] = uvs[v][0], flipped[2 * v + 1] = 1.0f - uvs[v][1];
    int accessor = gltf_writer_floats(w, flipped, count, 2, GW_VIEW_VERTEX, false);
    free(flipped);
    return accessor;
}

static bool write_mesh(GltfWriter *w, cJSON *meshes, int mesh_index)
{
    const Mesh *mesh = &w->model->meshes[mesh_index];
    int n = mesh->vertex_count;
    cJSON *json = cJSON_CreateObject(), *primitives = cJSON_CreateArray(), *primitive = cJSON_CreateObject(),
          *attributes = cJSON_CreateObject();
    if (!json || !primitives || !primitive || !attributes) {
        cJSON_Delete(json), cJSON_Delete(primitives), cJSON_Delete(primitive), cJSON_Delete(attributes);
        return gltf_writer_fail(w, "out of memory");
    }
    cJSON_AddItemToArray(meshes, json);
    gltf_writer_name(json, mesh->name);
    cJSON_AddItemToObject(json, "primitives", primitives);
    cJSON_AddItemToArray(primitives, primitive);
    cJSON_AddItemToObject(primitive, "attributes", attributes);
    cJSON_AddNumberToObject(attributes, "POSITION",
                            gltf_writer_floats(w, (const float *)mesh->positions, n, 3, GW_VIEW_VERTEX, true));
    float *scratch = malloc(sizeof(float) * 4 * (size_t)(n + 1));
    if (!scratch) return gltf_writer_fail(w, "out of memory");
    static const float up[3] = {0, 1, 0}, along_x[3] = {1, 0, 0};
    if (mesh->normals) {
        for (int v = 0; v < n; v++) unit3(mesh->normals[v], &scratch[3 * v], up);
        cJSON_AddNumberToObject(attributes, "NORMAL", gltf_writer_floats(w, scratch, n, 3, GW_VIEW_VERTEX, false));
    }
    if (mesh->tangents) {
        for (int v = 0; v < n; v++) {
            unit3(mesh->tangents[v], &scratch[4 * v], along_x);
            scratch[4 * v + 3] = mesh->tangents[v][3] < 0 ? -1.0f : 1.0f;
        }
        cJSON_AddNumberToObject(attributes, "TANGENT", gltf_writer_floats(w, scratch, n, 4, GW_VIEW_VERTEX, false));
    }
    if (mesh->uvs && any_nonzero((const float *)mesh->uvs, 2 * (size_t)n))
        cJSON_AddNumberToObject(attributes, "TEXCOORD_0", write_uvs(w, mesh->uvs, n));
    if (mesh->uvs2) cJSON_AddNumberToObject(attributes, "TEXCOORD_1", write_uvs(w, mesh->uvs2, n));
    if (mesh->colors)
        cJSON_AddNumberToObject(attributes, "COLOR_0",
                                gltf_writer_floats(w, (const float *)mesh->colors, n, 4, GW_VIEW_VERTEX, false));
    if (mesh_is_skinned(mesh)) {
        /* --max-influences 8 and a vertex with a 5th influence (Mesh.weights_more): JOINTS_1 / WEIGHTS_1 too, the 8
         * weights normalised together (glTF: the sum over every set is 1) */
        int slots = gltf_writer_influence_slots(w, mesh);
        uint16_t *joints = malloc(sizeof(uint16_t) * 8 * (size_t)(n + 1));
        float *weights = malloc(sizeof(float) * 8 * (size_t)(n + 1));
        if (!joints || !weights) {
            free(scratch), free(joints), free(weights);
            return gltf_writer_fail(w, "out of memory");
        }
        for (int v = 0; v < n; v++) {
            uint16_t joints_in[SV_MAX_INFLUENCES_KEPT], joints_out[SV_MAX_INFLUENCES_KEPT];
            float weights_in[SV_MAX_INFLUENCES_KEPT], weights_out[SV_MAX_INFLUENCES_KEPT];
            memcpy(joints_in, mesh->joint_indices[v], sizeof mesh->joint_indices[v]);
            memcpy(weights_in, mesh->weights[v], sizeof mesh->weights[v]);
            if (slots > SV_MAX_INFLUENCES) {
                memcpy(joints_in + 4, mesh->joint_indices_more[v], sizeof mesh->joint_indices_more[v]);
                memcpy(weights_in + 4, mesh->weights_more[v], sizeof mesh->weights_more[v]);
            }
            gltf_writer_clean_influences(joints_in, weights_in, slots, joints_out, weights_out);
            for (int set = 0; set < slots / 4; set++) {   /* set s: slots 4s .. 4s+3, at [set][v] */
                memcpy(&joints[4 * ((size_t)set * (size_t)n + (size_t)v)], joints_out + 4 * set, sizeof(uint16_t) * 4);
                memcpy(&weights[4 * ((size_t)set * (size_t)n + (size_t)v)], weights_out + 4 * set, sizeof(float) * 4);
            }
        }
        for (int set = 0; set < slots / 4; set++) {
            char joints_name[24], weights_name[24];   /* room for any int: the compiler cannot see slots <= 8 */
            snprintf(joints_name, sizeof joints_name, "JOINTS_%d", set);
            snprintf(weights_name, sizeof weights_name, "WEIGHTS_%d", set);
            int view = gltf_writer_view(w, &joints[4 * (size_t)set * (size_t)n], (size_t)n, 8, GW_VIEW_VERTEX, NULL);
            cJSON_AddNumberToObject(attributes, joints_name,
                                    gltf_writer_accessor(w, view, GW_UNSIGNED_SHORT, n, "VEC4", 4, NULL, false));
            cJSON_AddNumberToObject(attributes, weights_name,
                                    gltf_writer_floats(w, &weights[4 * (size_t)set * (size_t)n], n, 4, GW_VIEW_VERTEX, false));
        }
        if (slots > SV_MAX_INFLUENCES) w->report->meshes_eight_influences++;
        free(joints), free(weights);
    }
    free(scratch);
    if (mesh->index_count > 0) cJSON_AddNumberToObject(primitive, "indices", write_indices(w, mesh));
    if (mesh->primitive != MESH_TRIANGLES) cJSON_AddNumberToObject(primitive, "mode", mesh->primitive == MESH_LINES ? 1 : 0);
    if (mesh->material >= 0 && mesh->material < w->model->material_count)
        cJSON_AddNumberToObject(primitive, "material", mesh->material);
    const MeshCorrectives *correctives = w->correctives ? &w->correctives->meshes[mesh_index] : NULL;
    int own = mesh->morph_target_count, total = gltf_writer_target_count(w, mesh_index);
    if (total > 0) {
        cJSON *targets = cJSON_AddArrayToObject(primitive, "targets");
        /* every target has the same attributes: NORMAL on all when the file's or the corrections have normal deltas
         * (a target without gets an all-zero accessor) */
        bool normals = (own > 0 && mesh->morph_normal_deltas &&
                        any_nonzero((const float *)mesh->morph_normal_deltas, 3 * (size_t)n * (size_t)own)) ||
                       (total > own && mesh->normals);
        cJSON *names = cJSON_CreateArray();
        for (int t = 0; t < own; t++) {
            cJSON *target = cJSON_CreateObject();
            cJSON_AddItemToArray(targets, target);
            cJSON_AddNumberToObject(target, "POSITION",
                                    gltf_writer_floats(w, (const float *)&mesh->morph_position_deltas[(size_t)t * (size_t)n], n,
                                                       3, GW_VIEW_VERTEX, true));
            if (normals && mesh->morph_normal_deltas)
                cJSON_AddNumberToObject(target, "NORMAL",
                                        gltf_writer_floats(w, (const float *)&mesh->morph_normal_deltas[(size_t)t * (size_t)n],
                                                           n, 3, GW_VIEW_VERTEX, false));
            else if (normals)
                cJSON_AddNumberToObject(target, "NORMAL", gltf_writer_zero_floats(w, n, 3, false));
            char valid[4 * SV_NAME_MAX];
            const char *name = mesh->morph_target_names ? mesh->morph_target_names[t] : "";
            utf8_copy_valid(valid, sizeof valid, name, strlen(name));
            cJSON_AddItemToArray(names, cJSON_CreateString(valid));
        }
        for (int j = 0; j < total - own; j++) {   /* the corrections (gltf_write_dq.c): sparse, only the vertices they move */
            const CorrectiveTarget *c = &correctives->targets[j];
            cJSON *target = cJSON_CreateObject();
            cJSON_AddItemToArray(targets, target);
            cJSON_AddNumberToObject(target, "POSITION", gltf_writer_sparse_floats(w, n, 3, c->count, c->vertices, c->positions, true));
            if (normals && c->normals)
                cJSON_AddNumberToObject(target, "NORMAL", gltf_writer_sparse_floats(w, n, 3, c->count, c->vertices, c->normals, false));
            else if (normals)
                cJSON_AddNumberToObject(target, "NORMAL", gltf_writer_zero_floats(w, n, 3, false));
            char valid[4 * SV_NAME_MAX + 160];
            utf8_copy_valid(valid, sizeof valid, c->name, strlen(c->name));
            cJSON_AddItemToArray(names, cJSON_CreateString(valid));
        }
        if (mesh->morph_default_weights || total > own) {   /* the rest pose's correction is on by default */
            float *defaults = malloc(sizeof(float) * (size_t)total);
            if (!defaults) return gltf_writer_fail(w, "out of memory");
            for (int t = 0; t < total; t++)
                defaults[t] = t < own ? (mesh->morph_default_weights ? mesh->morph_default_weights[t] : 0.0f)
                                      : (t - own == correctives->rest ? 1.0f : 0.0f);
            cJSON_AddItemToObject(json, "weights", cJSON_CreateFloatArray(defaults, total));
            free(defaults);
        }
        cJSON *extras = cJSON_AddObjectToObject(json, "extras");
        cJSON_AddItemToObject(extras, "targetNames", names);
    }
    return !w->failed;
}

bool gltf_writer_meshes_and_skins(GltfWriter *w, const NodeTree *t, int *mesh_index, int *skin_index)
{
    const Model *model = w->model;
    if (model->mesh_count == 0) return true;
    cJSON *meshes = cJSON_AddArrayToObject(w->root, "meshes");
    cJSON *skins = NULL;
    for (int m = 0; m < model->mesh_count && !w->failed; m++) {
        const Mesh *mesh = &model->meshes[m];
        mesh_index[m] = m;
        skin_index[m] = -1;
        if (!write_mesh(w, meshes, m)) return false;
        if (mesh_is_skinned(mesh) && mesh->skin_follows_node) w->report->meshes_follow_node++;
        if (!mesh_is_skinned(mesh)) continue;
        if (!skins) skins = cJSON_AddArrayToObject(w->root, "skins");
        cJSON *skin = cJSON_CreateObject();
        if (!skin) return gltf_writer_fail(w, "out of memory");
        cJSON_AddItemToArray(skins, skin);
        char name[SV_NAME_MAX + 8];
        snprintf(name, sizeof name, "%s skin", mesh->name);
        gltf_writer_name(skin, name);
        /* glTF: vertex = sum w * jointWorld * IBM * v = skinview's palette model[joint] * inverse_bind */
        cJSON_AddNumberToObject(skin, "inverseBindMatrices",
                                gltf_writer_floats(w, (const float *)mesh->inverse_bind, mesh->bone_count, 16, GW_VIEW_DATA,
                                                   false));
        cJSON *joints = cJSON_AddArrayToObject(skin, "joints");
        for (int b = 0; b < mesh->bone_count; b++)
            cJSON_AddItemToArray(joints, cJSON_CreateNumber(t->nodes[t->skin_joint_node[t->skin_offset[m] + b]].final));
        skin_index[m] = w->report->skins++;
    }
    w->report->meshes = model->mesh_count;
    return !w->failed;
}
