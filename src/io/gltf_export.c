/* gltf_export.c — --export-gltf: gltf_export() runs the writer's steps in order and writes the container
 * (GLB, or .gltf + .bin), atomically (its header is gltf_write.h, the writer's public face). The steps, one file
 * each, sharing gltf_write_internal.h:
 *   gltf_write_buffer.c    the binary buffer, bufferViews (EXT_meshopt_compression), accessors (leaf helpers)
 *   gltf_write_nodes.c     the node tree: joints, mesh nodes, helpers; units and axes (gltf_export_axes)
 *   gltf_write_dq.c        corrective morph targets for meshes skinview skins by DQ (blended, rigid)
 *   gltf_write_mesh.c      meshes and skins
 *   gltf_write_material.c  materials and textures
 *   gltf_write_anim.c      clips
 * The mapping is described in gltf_write.h and docs/export.md; the Khronos glTF-Validator checks the output
 * (tests/io/test_export_gltf_validator.c). */
#include "gltf_write_internal.h"
#include "atomic_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static bool ends_with(const char *text, const char *suffix)
{
    size_t n = strlen(text), k = strlen(suffix);
    return n >= k && strcasecmp(text + n - k, suffix) == 0;
}

static bool write_bytes(AtomicFile *out, const void *data, size_t size)
{
    return size == 0 || fwrite(data, 1, size, out->file) == size;
}

static void put_u32(uint8_t *at, uint32_t value)
{
    at[0] = (uint8_t)value, at[1] = (uint8_t)(value >> 8), at[2] = (uint8_t)(value >> 16), at[3] = (uint8_t)(value >> 24);
}

/* The JSON chunk and the BIN chunk, each padded to 4 bytes (spaces / zeros), behind the 12-byte header. */
static bool write_glb(const char *path, const char *json, const uint8_t *bin, size_t bin_size, size_t *bytes, char *error,
                      size_t error_size)
{
    size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3, bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin_size > 0 ? 8 + bin_padded : 0);
    if (total > 0xFFFFFFFFu) {
        snprintf(error, error_size, "the GLB would be %zu bytes, over the 4 GiB a GLB can hold", total);
        return false;
    }
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    uint8_t header[20];
    memcpy(header, "glTF", 4);
    put_u32(header + 4, 2);
    put_u32(header + 8, (uint32_t)total);
    put_u32(header + 12, (uint32_t)json_padded);
    memcpy(header + 16, "JSON", 4);
    static const uint8_t spaces[4] = {' ', ' ', ' ', ' '}, zeros[4] = {0};
    bool ok = write_bytes(&out, header, 20) && write_bytes(&out, json, json_size) &&
              write_bytes(&out, spaces, json_padded - json_size);
    if (ok && bin_size > 0) {
        uint8_t chunk[8];
        put_u32(chunk, (uint32_t)bin_padded);
        memcpy(chunk + 4, "BIN\0", 4);
        ok = write_bytes(&out, chunk, 8) && write_bytes(&out, bin, bin_size) && write_bytes(&out, zeros, bin_padded - bin_size);
    }
    if (!ok) {
        atomic_file_abort(&out);
        snprintf(error, error_size, "cannot write the file");
        return false;
    }
    *bytes = total;
    return atomic_file_commit(&out, error, error_size);
}

static bool write_file(const char *path, const void *data, size_t size, char *error, size_t error_size)
{
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    if (!write_bytes(&out, data, size)) {
        atomic_file_abort(&out);
        snprintf(error, error_size, "cannot write the file");
        return false;
    }
    return atomic_file_commit(&out, error, error_size);
}

bool gltf_export(const Model *model, const char *path, const GltfExportOptions *options, GltfExportReport *report,
                 char *error, size_t error_size)
{
    bool glb = ends_with(path, ".glb");
    if (!glb && !ends_with(path, ".gltf")) {
        snprintf(error, error_size, "the output must end in .glb or .gltf");
        return false;
    }
    if (model->mesh_count == 0 && model->skeleton.joint_count == 0) {
        snprintf(error, error_size, "nothing to export (no meshes, no nodes)");
        return false;
    }
    int *clip_animation = report->clip_animation, *mesh_order = report->mesh_order;
    memset(report, 0, sizeof *report);
    report->clip_animation = clip_animation;
    report->mesh_order = mesh_order;
    GltfExportOptions local_options = *options;
    GltfWriter w = {.model = model, .options = &local_options, .report = report, .error = error, .error_size = error_size};
    NodeTree tree = {0};
    ImageFiles files = {0};
    char bin_path[4096] = "";
    bool bin_written = false;
    w.root = cJSON_CreateObject();
    int *mesh_index = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    int *skin_index = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    w.joint_node = malloc(sizeof(int) * (size_t)(model->skeleton.joint_count + 1));
    w.mesh_node = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    files.paths = malloc(sizeof *files.paths * (size_t)(model->texture_count + 1));
    if (!w.root || !mesh_index || !skin_index || !w.joint_node || !w.mesh_node || !files.paths) {
        gltf_writer_fail(&w, "out of memory");
        goto done;
    }
    cJSON *asset = cJSON_AddObjectToObject(w.root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    char generator[1200];
    const char *slash = strrchr(model->source_path, '/');
    snprintf(generator, sizeof generator, "skinview --export-gltf (from %s)", slash ? slash + 1 : model->source_path);
    cJSON_AddStringToObject(asset, "generator", generator);
    cJSON *extensions_used = cJSON_CreateArray();
    w.buffer_views = cJSON_CreateArray();
    w.accessors = cJSON_CreateArray();
    if (!gltf_writer_correctives(&w)) goto done;   /* DQ / blended / rigid skins: corrective morph targets */
    if (!gltf_writer_build_tree(&w, &tree)) goto done;
    /* meshes first (their accessors), then the nodes that name them */
    for (int m = 0; m < model->mesh_count; m++) w.mesh_node[m] = -1;
    if (!gltf_writer_meshes_and_skins(&w, &tree, mesh_index, skin_index)) goto done;
    if (!gltf_writer_nodes(&w, &tree, mesh_index, skin_index)) goto done;
    if (!gltf_writer_materials(&w, glb, path, &files, extensions_used)) goto done;
    if (!gltf_write_animations(&w)) goto done;
    if (local_options.meshopt) {
        cJSON_AddItemToArray(extensions_used, cJSON_CreateString("EXT_meshopt_compression"));
        cJSON *required = cJSON_AddArrayToObject(w.root, "extensionsRequired");
        cJSON_AddItemToArray(required, cJSON_CreateString("EXT_meshopt_compression"));
    }
    if (cJSON_GetArraySize(extensions_used) > 0) {
        cJSON_AddItemToObject(w.root, "extensionsUsed", extensions_used);
        extensions_used = NULL;
    }
    cJSON_Delete(extensions_used);
    if (w.view_count > 0) {
        cJSON_AddItemToObject(w.root, "bufferViews", w.buffer_views);
        w.buffer_views = NULL;
        cJSON_AddItemToObject(w.root, "accessors", w.accessors);
        w.accessors = NULL;
        cJSON *buffers = cJSON_AddArrayToObject(w.root, "buffers"), *buffer = cJSON_CreateObject();
        cJSON_AddItemToArray(buffers, buffer);
        gltf_writer_align(&w);
        cJSON_AddNumberToObject(buffer, "byteLength", (double)w.bin_size);
        if (!glb) {
            size_t stem = strlen(path) - 5;
            snprintf(bin_path, sizeof bin_path, "%.*s.bin", (int)stem, path);
            const char *name = strrchr(bin_path, '/');
            cJSON_AddStringToObject(buffer, "uri", name ? name + 1 : bin_path);
        }
        if (local_options.meshopt) {
            cJSON *fallback = cJSON_CreateObject();
            cJSON_AddItemToArray(buffers, fallback);
            cJSON_AddNumberToObject(fallback, "byteLength", (double)(w.fallback_size > 0 ? w.fallback_size : 4));
            cJSON *ext = cJSON_AddObjectToObject(cJSON_AddObjectToObject(fallback, "extensions"), "EXT_meshopt_compression");
            cJSON_AddTrueToObject(ext, "fallback");
        }
    }
    char *json = cJSON_PrintUnformatted(w.root);
    if (!json) {
        gltf_writer_fail(&w, "out of memory");
        goto done;
    }
    if (glb) {
        size_t bytes = 0;
        if (!write_glb(path, json, w.bin, w.bin_size, &bytes, error, error_size)) w.failed = true;
        report->bytes = bytes;
    } else {
        if (bin_path[0]) {
            if (!write_file(bin_path, w.bin, w.bin_size, error, error_size)) w.failed = true;
            else bin_written = true;
            report->bytes += w.bin_size;
        }
        if (!w.failed && !write_file(path, json, strlen(json), error, error_size)) w.failed = true;
        report->bytes += strlen(json);
    }
    free(json);
done:
    if (w.failed) {   /* nothing left behind: the .gltf's companions written so far go too */
        for (int i = 0; i < files.count; i++) unlink(files.paths[i]);
        if (bin_written) unlink(bin_path);
    }
    cJSON_Delete(w.buffer_views);
    cJSON_Delete(w.accessors);
    cJSON_Delete(w.root);
    free(files.paths);
    gltf_writer_tree_free(&tree, model->mesh_count);
    gltf_writer_correctives_free(&w);
    free(w.copy_joint);
    free(w.copy_node);
    free(mesh_index);
    free(skin_index);
    free(w.joint_node);
    free(w.mesh_node);
    free(w.bin);
    return !w.failed;
}
