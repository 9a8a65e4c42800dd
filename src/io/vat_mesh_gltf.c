/* vat_mesh_gltf.c — what mesh.glb carries beyond Assimp's glTF 2 exporter (vat_mesh_gltf.h): each
 * textureInfo's texCoord and KHR_texture_transform, written into the GLB's JSON chunk after the
 * export (and KHR_materials_unlit on the unlit materials), and read back after skinview's glTF reader has read the file (the texCoord numbers
 * back to the Material convention, TEXCOORD_2 = the model's second UV set, by vertex id).
 *
 * UV sets of mesh.glb: TEXCOORD_0 = Mesh.uvs, TEXCOORD_1 = (vertex id, 1) (the exporter writes
 * 1 - v), TEXCOORD_2 = Mesh.uvs2 when the mesh has one. A map of the model that samples its
 * second set (MaterialMap.texcoord 1) names texCoord 2 in the file, so that any glTF viewer
 * samples the right set; the reader turns 2 back into 1.
 */
#include "vat_mesh_gltf.h"
#include "base/whole_file.h"
#include "gltf/gltf_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLB_HEADER_BYTES 12
#define GLB_CHUNK_HEADER_BYTES 8
#define GLB_CHUNK_JSON 0x4E4F534Au   /* "JSON" as a little-endian uint32 */

static uint32_t read_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void write_u32(unsigned char *p, uint32_t value)
{
    for (int k = 0; k < 4; k++) p[k] = (unsigned char)(value >> (8 * k));
}

/* The five maps of a material with where glTF keeps their textureInfo: in the material object
 * itself, or (in_pbr) in its pbrMetallicRoughness member. */
typedef struct MapSlot {
    const MaterialMap *map;
    bool               in_pbr;
    const char        *key;
} MapSlot;

static void material_slots(const Material *m, MapSlot slots[5])
{
    slots[0] = (MapSlot){&m->diffuse_map, true, "baseColorTexture"};
    slots[1] = (MapSlot){&m->metallic_roughness_map, true, "metallicRoughnessTexture"};
    slots[2] = (MapSlot){&m->normal_map, false, "normalTexture"};
    slots[3] = (MapSlot){&m->occlusion_map, false, "occlusionTexture"};
    slots[4] = (MapSlot){&m->emissive_map, false, "emissiveTexture"};
}

/* Whether a map asks for more than Assimp writes: a transform, or the second UV set. */
static bool map_needs_info(const MaterialMap *map) { return map->texture >= 0 && (map->has_transform || map->texcoord == 1); }

/* Whether some mesh of material m carries a second UV set (TEXCOORD_2 in the file). */
static bool material_has_uv1(const Model *model, int m)
{
    for (int k = 0; k < model->mesh_count; k++)
        if (model->meshes[k].material == m && model->meshes[k].uvs2) return true;
    return false;
}

/* The object member `key` of `parent`, made (or replacing a non-object) when absent. */
static cJSON *object_member(cJSON *parent, const char *key)
{
    cJSON *member = cJSON_GetObjectItemCaseSensitive(parent, key);
    if (cJSON_IsObject(member)) return member;
    cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
    return cJSON_AddObjectToObject(parent, key);
}

/* texCoord and KHR_texture_transform on every textureInfo of `json` that needs them, and
 * KHR_materials_unlit on the unlit materials; used[0] / used[1] are set when a transform / an
 * unlit material was written. False when the JSON's materials do not match the model's. */
static bool add_infos(cJSON *json, const Model *model, bool used[2])
{
    cJSON *materials = cJSON_GetObjectItemCaseSensitive(json, "materials");
    /* the exporter writes the scene's materials in order: the model's, then the default one */
    if (!cJSON_IsArray(materials) || cJSON_GetArraySize(materials) < model->material_count) return false;
    int m = 0;
    cJSON *material;
    cJSON_ArrayForEach(material, materials) {
        if (m >= model->material_count) break;
        MapSlot slots[5];
        material_slots(&model->materials[m], slots);
        bool uv1 = material_has_uv1(model, m);
        if (model->materials[m].unlit) {   /* Assimp's exporter does not write the extension */
            cJSON *extensions = object_member(material, "extensions");
            cJSON_DeleteItemFromObjectCaseSensitive(extensions, "KHR_materials_unlit");
            cJSON_AddObjectToObject(extensions, "KHR_materials_unlit");
            used[1] = true;
        }
        for (int s = 0; s < 5; s++) {
            const MaterialMap *map = slots[s].map;
            if (!map_needs_info(map)) continue;
            cJSON *parent = slots[s].in_pbr ? cJSON_GetObjectItemCaseSensitive(material, "pbrMetallicRoughness") : material;
            cJSON *info = cJSON_GetObjectItemCaseSensitive(parent, slots[s].key);
            if (!cJSON_IsObject(info)) continue;   /* the exporter dropped the texture: nothing to place */
            cJSON_DeleteItemFromObjectCaseSensitive(info, "texCoord");
            cJSON_AddNumberToObject(info, "texCoord", map->texcoord == 1 && uv1 ? 2 : 0);
            if (!map->has_transform) continue;
            cJSON *extensions = object_member(info, "extensions");
            cJSON *transform = cJSON_CreateObject();
            const float offset[2] = {map->offset[0], map->offset[1]}, scale[2] = {map->scale[0], map->scale[1]};
            cJSON_AddItemToObject(transform, "offset", cJSON_CreateFloatArray(offset, 2));
            cJSON_AddNumberToObject(transform, "rotation", (double)map->rotation);
            cJSON_AddItemToObject(transform, "scale", cJSON_CreateFloatArray(scale, 2));
            cJSON_DeleteItemFromObjectCaseSensitive(extensions, "KHR_texture_transform");
            cJSON_AddItemToObject(extensions, "KHR_texture_transform", transform);
            used[0] = true;
        }
        m++;
    }
    return true;
}

/* `name` in extensionsUsed (once). */
static void list_extension(cJSON *json, const char *name)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(json, "extensionsUsed");
    if (!cJSON_IsArray(list)) {
        cJSON_DeleteItemFromObjectCaseSensitive(json, "extensionsUsed");
        list = cJSON_AddArrayToObject(json, "extensionsUsed");
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
        if (cJSON_IsString(item) && strcmp(item->valuestring, name) == 0) return;
    cJSON_AddItemToArray(list, cJSON_CreateString(name));
}

/* The GLB at `path` with its JSON chunk replaced by `text` (padded with spaces to 4 bytes, as the
 * GLB format asks), every chunk after it kept byte for byte. */
static bool rewrite_glb(const char *path, const unsigned char *glb, size_t size, size_t json_end, const char *text,
                        char *error, size_t error_size)
{
    size_t text_length = strlen(text), padded = (text_length + 3) & ~(size_t)3, rest = size - json_end;
    size_t total = GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES + padded + rest;
    if (total > UINT32_MAX) {
        snprintf(error, error_size, "%s: over 4 GiB, too large for a GLB", path);
        return false;
    }
    unsigned char *out = malloc(total);
    if (!out) {
        snprintf(error, error_size, "out of memory rewriting %s", path);
        return false;
    }
    memcpy(out, glb, 8);   /* magic, version */
    write_u32(out + 8, (uint32_t)total);
    write_u32(out + 12, (uint32_t)padded);
    write_u32(out + 16, GLB_CHUNK_JSON);
    memcpy(out + 20, text, text_length);
    memset(out + 20 + text_length, ' ', padded - text_length);
    memcpy(out + 20 + padded, glb + json_end, rest);
    FILE *file = fopen(path, "wb");
    bool ok = file && fwrite(out, 1, total, file) == total;
    if (file && fclose(file) != 0) ok = false;
    free(out);
    if (!ok) snprintf(error, error_size, "cannot rewrite %s", path);
    return ok;
}

bool vat_mesh_add_texture_infos(const char *path, const Model *model, char *error, size_t error_size)
{
    bool needed = false;
    for (int m = 0; m < model->material_count && !needed; m++) {
        needed = model->materials[m].unlit;
        MapSlot slots[5];
        material_slots(&model->materials[m], slots);
        for (int s = 0; s < 5; s++) needed = needed || map_needs_info(slots[s].map);
    }
    if (!needed) return true;   /* Assimp's file says everything already (texCoord 0, no transform) */
    size_t size = 0;
    unsigned char *glb = whole_file_read(path, (size_t)UINT32_MAX, &size, NULL);
    uint32_t json_length = glb && size >= GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES ? read_u32(glb + 12) : 0;
    if (!glb || memcmp(glb, "glTF", 4) != 0 || read_u32(glb + 16) != GLB_CHUNK_JSON ||
        json_length > size - GLB_HEADER_BYTES - GLB_CHUNK_HEADER_BYTES) {
        snprintf(error, error_size, "%s: Assimp's exporter wrote no readable GLB", path);
        free(glb);
        return false;
    }
    cJSON *json = cJSON_ParseWithLength((const char *)glb + 20, json_length);
    bool used[2] = {false, false}, ok = json && add_infos(json, model, used);
    if (ok && used[0]) list_extension(json, "KHR_texture_transform");
    if (ok && used[1]) list_extension(json, "KHR_materials_unlit");
    char *text = ok ? cJSON_PrintUnformatted(json) : NULL;
    if (!text) snprintf(error, error_size, "%s: the exported JSON does not list the model's materials", path);
    ok = text && rewrite_glb(path, glb, size, GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES + json_length, text, error,
                             error_size);
    free(text);
    cJSON_Delete(json);
    free(glb);
    return ok;
}

/* ---- reading back ------------------------------------------------------------------------ */

void vat_mesh_uv1_free(VatMeshUv1 *uv1)
{
    free(uv1->uv);
    free(uv1->present);
    memset(uv1, 0, sizeof *uv1);
}

/* TEXCOORD_1 (ids) and TEXCOORD_2 of one primitive into the table by id. */
static bool read_primitive_uv1(Gltf *g, const cJSON *primitive, VatMeshUv1 *uv1, int vertex_count)
{
    const cJSON *attributes = gltf_item(primitive, "attributes");
    int id_accessor = gltf_int(attributes, "TEXCOORD_1", -1), uv_accessor = gltf_int(attributes, "TEXCOORD_2", -1);
    if (id_accessor < 0 || uv_accessor < 0) return true;   /* no second set on this primitive */
    float *ids = NULL, *uvs = NULL;
    int id_count = 0, uv_count = 0;
    bool ok = gltf_read_floats(g, id_accessor, 2, &ids, &id_count, NULL) &&
              gltf_read_floats(g, uv_accessor, 2, &uvs, &uv_count, NULL);
    if (ok && id_count != uv_count) ok = gltf_fail(g, "TEXCOORD_2 has %d entries, TEXCOORD_1 %d", uv_count, id_count);
    if (ok && !uv1->uv) {
        uv1->uv = calloc((size_t)vertex_count, sizeof(vec2));
        uv1->present = calloc((size_t)vertex_count, 1);
        if (!uv1->uv || !uv1->present) ok = gltf_fail(g, "out of memory");
    }
    for (int v = 0; ok && v < id_count; v++) {
        float id = ids[2 * v];   /* range-checked before it becomes an index */
        if (!(id >= 0.0f && id < (float)vertex_count) || id != floorf(id)) {
            ok = gltf_fail(g, "TEXCOORD_1 entry %d is %g, not a vertex id below %d", v, (double)id, vertex_count);
            break;
        }
        int index = (int)id;
        uv1->uv[index][0] = uvs[2 * v];
        uv1->uv[index][1] = 1.0f - uvs[2 * v + 1];   /* glTF's v runs down, Mesh.uvs2's up (as the reader) */
        uv1->present[index] = 1;
    }
    free(ids);
    free(uvs);
    return ok;
}

bool vat_mesh_read_extras(const char *path, Model *mesh_model, int vertex_count, VatMeshUv1 *uv1, char *error,
                          size_t error_size)
{
    memset(uv1, 0, sizeof *uv1);
    /* texCoord of the file -> MaterialMap.texcoord: 2 (TEXCOORD_2) is the model's second set, 1
     * (the vertex ids) and anything else the first */
    for (int m = 0; m < mesh_model->material_count; m++) {
        Material *material = &mesh_model->materials[m];
        MaterialMap *maps[5] = {&material->diffuse_map, &material->metallic_roughness_map, &material->normal_map,
                                &material->occlusion_map, &material->emissive_map};
        for (int s = 0; s < 5; s++) maps[s]->texcoord = maps[s]->texcoord == 2 ? 1 : 0;
    }
    Gltf g = {0};
    Model scratch;
    memset(&scratch, 0, sizeof scratch);
    g.path = path;
    g.source = path;
    g.model = &scratch;   /* gltf_fail / gltf_warn count into it; nothing else is written */
    g.error = error;
    g.error_size = error_size;
    bool ok = gltf_open(&g);
    const cJSON *mesh, *meshes = ok ? gltf_list(g.meshes) : NULL;
    cJSON_ArrayForEach(mesh, meshes) {
        const cJSON *primitive;
        cJSON_ArrayForEach(primitive, gltf_list(gltf_item(mesh, "primitives"))) {
            ok = read_primitive_uv1(&g, primitive, uv1, vertex_count);
            if (!ok) break;
        }
        if (!ok) break;
    }
    gltf_close(&g);
    if (!ok) {
        char why[512];
        snprintf(why, sizeof why, "%s", error);
        snprintf(error, error_size, "%s: %s", path, why);
        vat_mesh_uv1_free(uv1);
    }
    return ok;
}
