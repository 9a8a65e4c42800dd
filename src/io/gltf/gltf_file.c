/* gltf_file.c — step 1 of the glTF reader: the file, the GLB container, the JSON, the buffers.
 *
 * Rules of this step (glTF 2.0 sections 4 and 5.x, "GLB File Format Specification"):
 *   - The model file is read ONCE into memory (gltf_file_reads() counts it); everything after
 *     reads that copy. A file that starts with "glTF" is a GLB: a 12-byte header (magic,
 *     version 2, total length), then chunks of (length, type, data), each 4-byte aligned: the
 *     first is JSON, an optional BIN follows, unknown chunk types are skipped. A length that
 *     runs past the file, a header length larger than the file, a missing JSON chunk or a
 *     version other than 2 is "truncated or damaged glTF binary" with the detail. Anything else
 *     is JSON text (UTF-8, a BOM allowed).
 *   - extensionsRequired: every entry skinview does not implement refuses the file by name
 *     ("requires glTF extension 'X', which skinview does not support"); never draw garbage.
 *   - Buffers are loaded when a bufferView first needs them: no uri = the GLB's BIN chunk
 *     (buffer 0 only), "data:...;base64," = the decoded bytes, anything else = a file relative
 *     to the model's folder, tried as written, then percent-decoded ("My%20Character.bin").
 *     A buffer shorter than its byteLength is an error (the GLB chunk may carry up to 3 bytes of
 *     padding more). A buffer that only serves as an EXT_meshopt_compression fallback and has no
 *     data is never read.
 *   - A bufferView is [byteOffset, byteOffset + byteLength) of its buffer, checked against it.
 *     With EXT_meshopt_compression its bytes are the decoded stream (count * byteStride bytes,
 *     gltf_meshopt.h) from the extension's own buffer range; the view's plain buffer is then
 *     only the fallback for readers without the extension.
 */
#include "gltf_internal.h"
#include "base/whole_file.h"
#include "gltf_meshopt.h"
#include "base/uri.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static long file_reads;

long gltf_file_reads(void) { return file_reads; }

/* ---- JSON helpers --------------------------------------------------------------------------- */

const cJSON *gltf_item(const cJSON *object, const char *key)
{
    return cJSON_IsObject(object) ? cJSON_GetObjectItemCaseSensitive(object, key) : NULL;
}

const cJSON *gltf_at(const cJSON *array, int index)
{
    if (!cJSON_IsArray(array) || index < 0) return NULL;
    return cJSON_GetArrayItem(array, index);
}

int gltf_int(const cJSON *object, const char *key, int fallback)
{
    const cJSON *item = gltf_item(object, key);
    if (!cJSON_IsNumber(item)) return fallback;
    double v = item->valuedouble;
    if (!(v >= -2147483648.0 && v <= 2147483647.0) || v != floor(v)) return fallback;
    return (int)v;
}

double gltf_number(const cJSON *object, const char *key, double fallback)
{
    const cJSON *item = gltf_item(object, key);
    return cJSON_IsNumber(item) && isfinite(item->valuedouble) ? item->valuedouble : fallback;
}

const char *gltf_string(const cJSON *object, const char *key)
{
    const cJSON *item = gltf_item(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

const cJSON *gltf_extension(const cJSON *object, const char *name)
{
    return gltf_item(gltf_item(object, "extensions"), name);
}

int gltf_numbers(const cJSON *object, const char *key, float *out, int n)
{
    const cJSON *array = gltf_item(object, key);
    if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) < n) return 0;
    int got = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *item = cJSON_GetArrayItem(array, i);
        if (cJSON_IsNumber(item) && isfinite(item->valuedouble)) {
            out[i] = (float)item->valuedouble;
            got++;
        }
    }
    return got;
}

/* ---- reading files ----------------------------------------------------------------------------- */

uint8_t *gltf_read_external(Gltf *g, const char *uri, size_t *size)
{
    if (!g->path || !uri[0]) return NULL;   /* from memory: files next to the model are not read */
    char path[2300], decoded[1024];
    int error_number = 0;
    snprintf(path, sizeof path, "%s%s", uri[0] == '/' ? "" : g->directory, uri);
    uint8_t *bytes = whole_file_read(path, GLTF_MAX_FILE_BYTES, size, &error_number);
    if (!bytes && uri_percent_decode(uri, decoded, sizeof decoded)) {   /* "My%20Character.bin" */
        snprintf(path, sizeof path, "%s%s", decoded[0] == '/' ? "" : g->directory, decoded);
        bytes = whole_file_read(path, GLTF_MAX_FILE_BYTES, size, &error_number);
    }
    return bytes;
}

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

uint8_t *gltf_data_uri(const char *uri, size_t *size)
{
    if (strncmp(uri, "data:", 5) != 0) return NULL;
    const char *comma = strchr(uri, ',');
    if (!comma) return NULL;
    /* RFC 2397: "data:[<mediatype>][;base64],<data>" — only base64 carries binary buffers */
    if (comma - uri < 7 || strncmp(comma - 7, ";base64", 7) != 0) return NULL;
    const char *text = comma + 1;
    size_t length = strlen(text);
    uint8_t *out = malloc(length / 4 * 3 + 4);
    if (!out) return NULL;
    size_t n = 0;
    uint32_t bits = 0;
    int count = 0;
    for (const char *c = text; *c && *c != '='; c++) {
        int v = base64_value((unsigned char)*c);
        if (v < 0) continue;   /* whitespace */
        bits = bits << 6 | (uint32_t)v;
        if (++count == 4) {
            out[n++] = (uint8_t)(bits >> 16), out[n++] = (uint8_t)(bits >> 8), out[n++] = (uint8_t)bits;
            bits = 0, count = 0;
        }
    }
    if (count == 3) out[n++] = (uint8_t)(bits >> 10), out[n++] = (uint8_t)(bits >> 2);
    else if (count == 2) out[n++] = (uint8_t)(bits >> 4);
    *size = n;
    return out;
}

/* ---- the container ------------------------------------------------------------------------------ */

static uint32_t read_u32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

#define GLB_CHUNK_JSON 0x4E4F534Au   /* "JSON" */
#define GLB_CHUNK_BIN  0x004E4942u   /* "BIN\0" */

static bool parse_glb(Gltf *g, const char **json_text, size_t *json_length)
{
    const uint8_t *b = g->file_data;
    size_t size = g->file_size;
    const char *damaged = "truncated or damaged glTF binary";
    if (size < 12) return gltf_fail(g, "%s: %zu bytes, shorter than the 12-byte header", damaged, size);
    uint32_t version = read_u32(b + 4), length = read_u32(b + 8);
    if (version == 1) {   /* glTF 1.0 binary: Assimp's glTF 1 reader serves it */
        g->version_1 = true;
        return gltf_fail(g, "glTF 1.0 binary");
    }
    if (version != 2) return gltf_fail(g, "%s: GLB version %u (skinview reads version 2)", damaged, version);
    if (length > size) return gltf_fail(g, "%s: the header says %u bytes, the file has %zu", damaged, length, size);
    if (length < 20) return gltf_fail(g, "%s: no JSON chunk", damaged);
    size_t at = 12;
    bool have_json = false;
    while (at + 8 <= length) {
        uint32_t chunk_length = read_u32(b + at), type = read_u32(b + at + 4);
        if (chunk_length > length - at - 8)
            return gltf_fail(g, "%s: a chunk of %u bytes at byte %zu runs past the end (%u bytes)", damaged, chunk_length,
                             at, length);
        const uint8_t *data = b + at + 8;
        if (!have_json) {
            if (type != GLB_CHUNK_JSON) return gltf_fail(g, "%s: the first chunk is not JSON", damaged);
            *json_text = (const char *)data;
            *json_length = chunk_length;
            have_json = true;
        } else if (type == GLB_CHUNK_BIN && !g->glb_bin) {
            g->glb_bin = data;
            g->glb_bin_size = chunk_length;
        }   /* other chunk types: skipped (the spec) */
        at += 8 + (size_t)chunk_length;
        at = (at + 3) & ~(size_t)3;
    }
    if (!have_json) return gltf_fail(g, "%s: no JSON chunk", damaged);
    return true;
}

/* Extensions skinview reads (or may safely ignore when only "used"). */
static const char *const supported_extensions[] = {
    "KHR_mesh_quantization",   "EXT_meshopt_compression",          "KHR_draco_mesh_compression",
    "EXT_texture_webp",        "KHR_texture_transform",            "KHR_materials_emissive_strength",
    "KHR_materials_unlit",
};

static bool check_required_extensions(Gltf *g)
{
    const cJSON *required = gltf_item(g->json, "extensionsRequired"), *item;
    cJSON_ArrayForEach(item, gltf_list(required)) {
        if (!cJSON_IsString(item)) continue;
        bool known = false;
        for (size_t k = 0; k < sizeof supported_extensions / sizeof *supported_extensions; k++)
            known = known || strcmp(item->valuestring, supported_extensions[k]) == 0;
        if (!known)
            return gltf_fail(g, "requires glTF extension '%s', which skinview does not support", QUOTED(item->valuestring));
    }
    return true;
}

static int array_size(const cJSON *array) { return cJSON_IsArray(array) ? cJSON_GetArraySize(array) : 0; }

static bool make_list(Gltf *g, const cJSON *array, GltfList *list)
{
    list->count = array_size(array);
    list->items = malloc(sizeof *list->items * ((size_t)list->count + 1));
    if (!list->items) return gltf_fail(g, "out of memory");
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, gltf_list(array)) list->items[i++] = item;
    return true;
}

bool gltf_open(Gltf *g)
{
    if (g->path) {
        struct stat st;
        if (stat(g->path, &st) != 0) return gltf_fail(g, "cannot open: %s", strerror(errno));
        if (S_ISDIR(st.st_mode)) return gltf_fail(g, "is a directory, not a model file");
        if (!S_ISREG(st.st_mode)) return gltf_fail(g, "is not a regular file");
        if (st.st_size == 0) return gltf_fail(g, "the file is empty");
        if ((unsigned long long)st.st_size > GLTF_MAX_FILE_BYTES) return gltf_fail(g, "the file is larger than 2 GiB");
        int error_number = 0;
        file_reads++;
        g->file_bytes = whole_file_read(g->path, GLTF_MAX_FILE_BYTES, &g->file_size, &error_number);
        if (!g->file_bytes) return gltf_fail(g, "cannot open: %s", strerror(error_number ? error_number : EIO));
        g->file_data = g->file_bytes;
    }
    if (g->file_size == 0) return gltf_fail(g, "the file is empty");

    const char *json_text = (const char *)g->file_data;
    size_t json_length = g->file_size;
    g->glb = g->file_size >= 4 && memcmp(g->file_data, "glTF", 4) == 0;
    if (g->glb && !parse_glb(g, &json_text, &json_length)) return false;
    if (json_length >= 3 && memcmp(json_text, "\xEF\xBB\xBF", 3) == 0) json_text += 3, json_length -= 3;   /* BOM */
    g->json = cJSON_ParseWithLength(json_text, json_length);
    if (!g->json || !cJSON_IsObject(g->json)) {
        const char *at = cJSON_GetErrorPtr();
        long offset = g->json || !at || at < json_text || at > json_text + json_length ? -1 : (long)(at - json_text);
        if (offset >= 0)
            return gltf_fail(g, "%s: the JSON is not valid (at byte %ld)",
                             g->glb ? "truncated or damaged glTF binary" : "damaged glTF file", offset);
        return gltf_fail(g, "%s: the JSON is not a glTF object", g->glb ? "truncated or damaged glTF binary" : "damaged glTF file");
    }
    const cJSON *asset = gltf_item(g->json, "asset");
    const char *version = gltf_string(asset, "version");
    if (!version || (version[0] == '1' && version[1] == '.')) {   /* glTF 1.0 (its version was optional): Assimp's glTF 1 reader */
        g->version_1 = true;
        return gltf_fail(g, "glTF 1.0");
    }
    if (version[0] != '2') return gltf_fail(g, "glTF version %.20s (skinview reads glTF 2.x)", version);
    if (!check_required_extensions(g)) return false;

    g->nodes = gltf_item(g->json, "nodes");
    g->meshes = gltf_item(g->json, "meshes");
    g->accessors = gltf_item(g->json, "accessors");
    g->views = gltf_item(g->json, "bufferViews");
    g->buffers_json = gltf_item(g->json, "buffers");
    g->skins = gltf_item(g->json, "skins");
    g->materials = gltf_item(g->json, "materials");
    g->textures = gltf_item(g->json, "textures");
    g->images = gltf_item(g->json, "images");
    g->animations = gltf_item(g->json, "animations");
    g->samplers_json = gltf_item(g->json, "samplers");
    g->node_count = array_size(g->nodes);
    g->mesh_count = array_size(g->meshes);
    g->accessor_count = array_size(g->accessors);
    g->view_count = array_size(g->views);
    g->buffer_count = array_size(g->buffers_json);
    g->image_count = array_size(g->images);
    if (!make_list(g, g->nodes, &g->node_list) || !make_list(g, g->meshes, &g->mesh_list) ||
        !make_list(g, g->accessors, &g->accessor_list) || !make_list(g, g->views, &g->view_list) ||
        !make_list(g, g->buffers_json, &g->buffer_list) || !make_list(g, g->skins, &g->skin_list) ||
        !make_list(g, g->materials, &g->material_list) || !make_list(g, g->textures, &g->texture_list) ||
        !make_list(g, g->images, &g->image_list))
        return false;
    g->buffers = calloc((size_t)g->buffer_count + 1, sizeof *g->buffers);
    g->view_data = calloc((size_t)g->view_count + 1, sizeof *g->view_data);
    g->texture_of_image = malloc(sizeof(int) * ((size_t)g->image_count + 1));
    if (!g->buffers || !g->view_data || !g->texture_of_image) return gltf_fail(g, "out of memory");
    for (int i = 0; i < g->image_count; i++) g->texture_of_image[i] = -2;
    return true;
}

void gltf_close(Gltf *g)
{
    for (int b = 0; g->buffers && b < g->buffer_count; b++) free(g->buffers[b].owned);
    for (int v = 0; g->view_data && v < g->view_count; v++) free(g->view_data[v].decoded);
    free(g->buffers);
    free(g->view_data);
    GltfList *lists[] = {&g->node_list, &g->mesh_list, &g->accessor_list, &g->view_list, &g->buffer_list,
                         &g->skin_list, &g->material_list, &g->texture_list, &g->image_list};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) free(lists[i]->items), lists[i]->items = NULL;
    free(g->texture_of_image);
    free(g->joint_of_node);
    free(g->node_of_joint);
    cJSON_Delete(g->json);
    free(g->file_bytes);
    g->buffers = NULL;
    g->view_data = NULL;
    g->json = NULL;
    g->file_bytes = NULL;
}

/* ---- buffers and views -------------------------------------------------------------------------- */

const GltfBuffer *gltf_buffer(Gltf *g, int index)
{
    if (index < 0 || index >= g->buffer_count) {
        gltf_fail(g, "damaged glTF file: buffer %d does not exist (%d buffers)", index, g->buffer_count);
        return NULL;
    }
    GltfBuffer *buffer = &g->buffers[index];
    const cJSON *json = gltf_get(&g->buffer_list, index);
    double declared = gltf_number(json, "byteLength", -1.0);
    if (!buffer->loaded) {
        buffer->loaded = true;
        const char *uri = gltf_string(json, "uri");
        if (!uri) {
            if (index == 0 && g->glb_bin) buffer->bytes = g->glb_bin, buffer->size = g->glb_bin_size;
            else buffer->missing = true;
        } else if (strncmp(uri, "data:", 5) == 0) {
            buffer->owned = gltf_data_uri(uri, &buffer->size);
            buffer->bytes = buffer->owned;
            buffer->missing = !buffer->owned;
        } else {
            buffer->owned = gltf_read_external(g, uri, &buffer->size);
            buffer->bytes = buffer->owned;
            buffer->missing = !buffer->owned;
        }
        if (!buffer->missing && declared >= 0 && (double)buffer->size < declared) buffer->missing = true;
        if (!buffer->missing && declared >= 0 && (double)buffer->size > declared) buffer->size = (size_t)declared;
    }
    if (buffer->missing) {
        const char *uri = gltf_string(json, "uri");
        if (uri && strncmp(uri, "data:", 5) != 0 && !g->path)
            gltf_fail(g, "buffer %d is the external file '%.200s', which an import from memory does not read", index, uri);
        else if (uri && strncmp(uri, "data:", 5) != 0 && !buffer->bytes && !buffer->owned)
            gltf_fail(g, "buffer %d: cannot read '%.200s' next to the model", index, uri);
        else if (!uri && !g->glb_bin)
            gltf_fail(g, "%s: buffer %d has no uri and the file has no BIN chunk",
                      g->glb ? "truncated or damaged glTF binary" : "damaged glTF file", index);
        else
            gltf_fail(g, "%s: buffer %d has %zu bytes, fewer than its byteLength %.0f",
                      g->glb ? "truncated or damaged glTF binary" : "damaged glTF file", index, buffer->size, declared);
        return NULL;
    }
    return buffer;
}

/* [offset, offset + length) of buffer `buffer_index`, checked. */
static const uint8_t *buffer_range(Gltf *g, int buffer_index, double offset, double length, const char *what, int index)
{
    const GltfBuffer *buffer = gltf_buffer(g, buffer_index);
    if (!buffer) return NULL;
    if (!(offset >= 0 && length >= 0 && offset + length <= (double)buffer->size)) {
        gltf_fail(g, "damaged glTF file: %s %d (bytes %.0f..%.0f) lies outside buffer %d (%zu bytes)", what, index, offset,
                  offset + length, buffer_index, buffer->size);
        return NULL;
    }
    return buffer->bytes + (size_t)offset;
}

const GltfView *gltf_view(Gltf *g, int index)
{
    if (index < 0 || index >= g->view_count) {
        gltf_fail(g, "damaged glTF file: bufferView %d does not exist (%d bufferViews)", index, g->view_count);
        return NULL;
    }
    GltfView *view = &g->view_data[index];
    if (view->resolved) return view;
    const cJSON *json = gltf_get(&g->view_list, index);
    int stride = gltf_int(json, "byteStride", 0);
    if (stride != 0 && (stride < 4 || stride > 252 || stride % 4 != 0)) {
        gltf_fail(g, "damaged glTF file: bufferView %d has byteStride %d (4..252, a multiple of 4)", index, stride);
        return NULL;
    }
    view->stride = stride;
    const cJSON *meshopt = gltf_extension(json, "EXT_meshopt_compression");
    if (meshopt) {
        double count = gltf_number(meshopt, "count", -1), byte_stride = gltf_number(meshopt, "byteStride", -1);
        const char *mode = gltf_string(meshopt, "mode"), *filter = gltf_string(meshopt, "filter");
        if (!(count >= 1 && count <= GLTF_MAX_ELEMENTS && byte_stride >= 1 && byte_stride <= 256) || !mode) {
            gltf_fail(g, "damaged glTF file: bufferView %d: EXT_meshopt_compression count %.0f, byteStride %.0f, mode '%s'",
                      index, count, byte_stride, QUOTED(mode));
            return NULL;
        }
        size_t out_size = (size_t)count * (size_t)byte_stride;
        if (g->bytes_allocated + out_size > ((size_t)1 << 30) + 64 * g->file_size) {
            gltf_fail(g, "bufferView %d decodes to %zu bytes, more than a %zu-byte file can plausibly hold", index, out_size,
                      g->file_size);
            return NULL;
        }
        double source_length = gltf_number(meshopt, "byteLength", -1);
        const uint8_t *source = buffer_range(g, gltf_int(meshopt, "buffer", -1), gltf_number(meshopt, "byteOffset", 0),
                                             source_length, "EXT_meshopt_compression stream of bufferView", index);
        if (!source) return NULL;
        view->decoded = malloc(out_size);
        if (!view->decoded) {
            gltf_fail(g, "out of memory");
            return NULL;
        }
        g->bytes_allocated += out_size;
        char why[200] = "";
        if (!gltf_meshopt_decode(view->decoded, (size_t)count, (size_t)byte_stride, source, (size_t)source_length, mode,
                                 filter, why, sizeof why)) {
            gltf_fail(g, "bufferView %d: EXT_meshopt_compression data cannot be decoded: %s", index, why);
            return NULL;
        }
        view->bytes = view->decoded;
        view->size = out_size;
        if (view->stride == 0) view->stride = (int)byte_stride;
    } else {
        double length = gltf_number(json, "byteLength", -1);
        view->bytes = buffer_range(g, gltf_int(json, "buffer", -1), gltf_number(json, "byteOffset", 0), length,
                                   "bufferView", index);
        if (!view->bytes) return NULL;
        view->size = (size_t)length;
    }
    view->resolved = true;
    return view;
}
