/* gltf_import.c — skinview's glTF 2.0 reader: the steps in order (gltf_internal.h lists them).
 *
 * Rules:
 *   - A .gltf / .glb never goes through Assimp: this reader produces the Model with the
 *     conventions of model.h (joints = the scene's node tree parents first; one Mesh per (node,
 *     primitive) use, each with that node's skin; bind_matrix = identity; clips in seconds).
 *   - The file is read and parsed once; buffers and images are read when first needed.
 *   - Every error is one line without the file name (the caller adds it); a repair is one warning
 *     line "skinview: warning: SOURCE: ..." counted in stats.repairs.
 *   - The file's extensionsUsed / extensionsRequired are kept in the Model for --info.
 */
#include "gltf_import.h"
#include "gltf_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool gltf_is_gltf_name(const char *name)
{
    if (!name) return false;
    const char *dot = strrchr(name, '.');
    const char *extension = dot ? dot + 1 : name;
    return strcasecmp(extension, "gltf") == 0 || strcasecmp(extension, "glb") == 0;
}

/* The names of a string array, comma-separated, into out. */
static void join_names(const cJSON *array, char *out, size_t out_size)
{
    out[0] = '\0';
    size_t n = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, gltf_list(array)) {
        if (!cJSON_IsString(item)) continue;
        size_t length = strlen(item->valuestring);
        if (n + length + 2 >= out_size) break;
        if (n > 0) out[n++] = ',';
        n += utf8_copy_valid(out + n, out_size - n, item->valuestring, length);
    }
}

bool gltf_import(const char *path, const void *data, size_t size, int max_bones, int max_influences, bool keep_image_bytes,
                 FILE *warnings, Model *model, bool *version_1, char *error, size_t error_size)
{
    *version_1 = false;
    Gltf g = {0};
    char source[1024];
    if (path) snprintf(source, sizeof source, "%s", path);
    else snprintf(source, sizeof source, "(memory).glb");
    g.path = path;
    g.source = source;
    g.warnings = warnings;
    g.model = model;
    g.error = error;
    g.error_size = error_size;
    g.max_bones = max_bones;
    g.keep_more_influences = max_influences == SV_MAX_INFLUENCES_KEPT;
    g.keep_image_bytes = keep_image_bytes;
    if (!path) {
        g.file_data = data;
        g.file_size = size;
    }
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (slash && (size_t)(slash - path + 1) < sizeof g.directory) {
        memcpy(g.directory, path, (size_t)(slash - path + 1));
        g.directory[slash - path + 1] = '\0';
    }
    bool ok = gltf_open(&g);
    if (ok) {
        join_names(gltf_item(g.json, "extensionsUsed"), model->extensions_used, sizeof model->extensions_used);
        join_names(gltf_item(g.json, "extensionsRequired"), model->extensions_required, sizeof model->extensions_required);
    }
    ok = ok && gltf_scene(&g) && gltf_materials(&g) && gltf_meshes(&g) && gltf_split_by_bones(&g) &&
         gltf_animations(&g);
    *version_1 = g.version_1;
    gltf_close(&g);
    return ok;
}
