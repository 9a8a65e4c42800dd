/* import_gltf.c — stage 7: what Assimp 5.2 drops from a glTF, read from the file itself.
 *
 * Rules of this stage (glTF/GLB files read from a path only; trap 13 of docs/skinning.md section 10):
 *   - Assimp 5.2.5 keeps a glTF sampler's keys but not its interpolation: STEP and
 *     CUBICSPLINE tracks arrive as plain keys and would be sampled linearly. The glTF JSON
 *     (a .gltf file, or the JSON chunk of a .glb) is read with cJSON, and each channel's
 *     sampler.interpolation is set on the joint track the channel became.
 *   - For CUBICSPLINE, Assimp keeps the value of each key (element 3k+1 of the output
 *     accessor) and drops the in- and out-tangents (elements 3k and 3k+2): they are read
 *     from the accessor here (float data in the .bin, a data: URI or the GLB's BIN chunk).
 *   - A clip starts at its first key (import_clip.c), but Assimp fills a glTF node's missing
 *     channels (a node with rotation keys only gets translation and scale) with one key at
 *     time 0. Such a single key before the file's first input time ("min" of the sampler
 *     inputs) that equals the rest value is dropped (it changes nothing), so the clip starts
 *     at its first authored key.
 *   - A skin without inverseBindMatrices means identity matrices (the spec), but Assimp 5.2.5
 *     crashes on it: before Assimp reads such a file, import_guard.c hands it a copy whose
 *     JSON adds the identity matrices (a data: URI buffer, one accessor per such skin).
 *   - glTF nodes are matched to joints by walking the scene's node tree in the order
 *     Assimp builds it (one root, or a "ROOT" above several; children in file order):
 *     the counts and every named node must agree, otherwise the stage leaves the tracks
 *     linear and says so in one warning. So does a CUBICSPLINE channel whose tangents
 *     cannot be read (sparse or non-float accessors, keys merged at import).
 */
#include "import_internal.h"

#include <cjson/cJSON.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GLTF_MAX_FILE (512L * 1024 * 1024)

typedef struct GltfFile {
    char          *bytes;        /* the whole file */
    long           size;
    cJSON         *json;
    const uint8_t *glb_bin;      /* GLB: the BIN chunk, or NULL */
    size_t         glb_bin_size;
    const char    *directory;    /* the model's folder, with a trailing '/' or "" */
} GltfFile;

static char *read_whole_file(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *bytes = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && n <= GLTF_MAX_FILE && fseek(f, 0, SEEK_SET) == 0) {
            bytes = malloc((size_t)n + 1);
            if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
                free(bytes);
                bytes = NULL;
            }
            if (bytes) {
                bytes[n] = '\0';
                *size = n;
            }
        }
    }
    fclose(f);
    return bytes;
}

static uint32_t read_u32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Parses a .gltf (JSON text) or a .glb (12-byte header, JSON chunk, optional BIN chunk). */
static bool gltf_open(GltfFile *file, const char *path, const char *directory)
{
    memset(file, 0, sizeof *file);
    file->directory = directory;
    file->bytes = read_whole_file(path, &file->size);
    if (!file->bytes) return false;
    const uint8_t *b = (const uint8_t *)file->bytes;
    if (file->size >= 20 && memcmp(b, "glTF", 4) == 0) {
        uint32_t json_length = read_u32(b + 12);
        if (read_u32(b + 16) != 0x4E4F534Au || json_length > (uint64_t)file->size - 20) return false;   /* "JSON" */
        file->json = cJSON_ParseWithLength(file->bytes + 20, json_length);
        size_t bin_at = 20 + (size_t)((json_length + 3) & ~3u);
        if (bin_at + 8 <= (size_t)file->size && read_u32(b + bin_at + 4) == 0x004E4942u) {   /* "BIN\0" */
            uint32_t bin_length = read_u32(b + bin_at);
            if (bin_length <= (size_t)file->size - bin_at - 8) {
                file->glb_bin = b + bin_at + 8;
                file->glb_bin_size = bin_length;
            }
        }
    } else {
        file->json = cJSON_ParseWithLength(file->bytes, (size_t)file->size);
    }
    return file->json != NULL;
}

static void gltf_close(GltfFile *file)
{
    cJSON_Delete(file->json);
    free(file->bytes);
    memset(file, 0, sizeof *file);
}

static int json_int(const cJSON *object, const char *key, int fallback)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNumber(item) ? item->valueint : fallback;
}

static const cJSON *json_at(const cJSON *object, const char *key, int index)
{
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsArray(array) && index >= 0 ? cJSON_GetArrayItem(array, index) : NULL;
}

/* ---- buffers ------------------------------------------------------------------- */

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* RFC 4648 base64 -> bytes (malloc'd); stops at '=' or the end. */
static uint8_t *base64_decode(const char *text, size_t *size)
{
    size_t length = strlen(text);
    uint8_t *out = malloc(length / 4 * 3 + 3);
    if (!out) return NULL;
    size_t n = 0;
    uint32_t bits = 0;
    int count = 0;
    for (const char *c = text; *c && *c != '='; c++) {
        int v = base64_value(*c);
        if (v < 0) continue;
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

/* The bytes of buffer `index` (malloc'd copy, the caller frees), or NULL. */
static uint8_t *load_buffer(const GltfFile *file, int index, size_t *size)
{
    const cJSON *buffer = json_at(file->json, "buffers", index);
    if (!buffer) return NULL;
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(buffer, "uri");
    if (!cJSON_IsString(uri)) {   /* GLB: buffer 0 without a URI is the BIN chunk */
        if (index != 0 || !file->glb_bin) return NULL;
        uint8_t *copy = malloc(file->glb_bin_size + 1);
        if (copy) memcpy(copy, file->glb_bin, file->glb_bin_size);
        *size = file->glb_bin_size;
        return copy;
    }
    const char *text = uri->valuestring;
    if (strncmp(text, "data:", 5) == 0) {
        const char *comma = strstr(text, ";base64,");
        return comma ? base64_decode(comma + 8, size) : NULL;
    }
    char path[2048], decoded[2048];
    snprintf(path, sizeof path, "%s%s", file->directory, text);
    long length = 0;
    char *bytes = read_whole_file(path, &length);
    if (!bytes && import_percent_decode(text, decoded, sizeof decoded)) {   /* "My%20Character.bin" */
        snprintf(path, sizeof path, "%s%s", file->directory, decoded);
        bytes = read_whole_file(path, &length);
    }
    *size = (size_t)length;
    return (uint8_t *)bytes;
}

/* Copies accessor `index` (float VEC3 or VEC4, `components` wide, not sparse) into a malloc'd
 * array of count * components floats. NULL if it is anything else or out of range. */
static float *read_float_accessor(const GltfFile *file, int index, int components, int *count_out)
{
    const cJSON *accessor = json_at(file->json, "accessors", index);
    if (!accessor || cJSON_GetObjectItemCaseSensitive(accessor, "sparse")) return NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(accessor, "type");
    const char *want = components == 3 ? "VEC3" : "VEC4";
    if (json_int(accessor, "componentType", 0) != 5126 || !cJSON_IsString(type) || strcmp(type->valuestring, want) != 0)
        return NULL;
    int count = json_int(accessor, "count", -1);
    const cJSON *view = json_at(file->json, "bufferViews", json_int(accessor, "bufferView", -1));
    if (count <= 0 || count > 50000000 || !view) return NULL;
    size_t element = sizeof(float) * (size_t)components;
    size_t stride = (size_t)json_int(view, "byteStride", 0);
    if (stride == 0) stride = element;
    size_t start = (size_t)json_int(view, "byteOffset", 0) + (size_t)json_int(accessor, "byteOffset", 0);
    size_t view_end = (size_t)json_int(view, "byteOffset", 0) + (size_t)json_int(view, "byteLength", 0);
    size_t need = start + stride * (size_t)(count - 1) + element;
    size_t buffer_size = 0;
    uint8_t *buffer = load_buffer(file, json_int(view, "buffer", -1), &buffer_size);
    float *out = NULL;
    if (buffer && stride >= element && need <= view_end && need <= buffer_size) {
        out = malloc(element * (size_t)count);
        for (int i = 0; out && i < count; i++) memcpy(out + (size_t)i * components, buffer + start + stride * (size_t)i, element);
    }
    free(buffer);
    if (out) *count_out = count;
    return out;
}

/* ---- glTF node -> joint ---------------------------------------------------------------- */

/* Assimp's glTF2 importer: a scene with one root node makes that node the aiScene root,
 * several get a "ROOT" node above them; every node's children follow in file order. So a
 * pre-order walk of the glTF scene lands on the joints in index order. Fills joint_of_node
 * (glTF node -> joint, -1 for nodes outside the scene); false if the two trees disagree. */
static bool map_nodes(const GltfFile *file, const Skeleton *skeleton, int *joint_of_node, int node_count)
{
    for (int n = 0; n < node_count; n++) joint_of_node[n] = -1;
    int scene_index = json_int(file->json, "scene", 0);
    const cJSON *scene = json_at(file->json, "scenes", scene_index);
    const cJSON *roots = scene ? cJSON_GetObjectItemCaseSensitive(scene, "nodes") : NULL;
    int root_count = cJSON_IsArray(roots) ? cJSON_GetArraySize(roots) : 0;
    if (root_count == 0) return false;
    int next = root_count > 1 ? 1 : 0;   /* joint 0 is Assimp's "ROOT" above several roots */
    /* explicit stack of (node) in pre-order; children pushed in reverse */
    int *stack = malloc(sizeof(int) * (size_t)(node_count + root_count + 1));
    if (!stack) return false;
    int top = 0;
    bool ok = true;
    for (int r = root_count - 1; r >= 0; r--) stack[top++] = cJSON_GetArrayItem(roots, r)->valueint;
    while (top > 0 && ok) {
        int n = stack[--top];
        if (n < 0 || n >= node_count || joint_of_node[n] >= 0 || next >= skeleton->joint_count) {
            ok = false;
            break;
        }
        const cJSON *node = json_at(file->json, "nodes", n);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(node, "name");
        if (cJSON_IsString(name) && name->valuestring[0] &&
            strncmp(name->valuestring, skeleton->names[next], SV_NAME_MAX - 4) != 0)
            ok = false;   /* names are stored as valid UTF-8 and cut: compare what fits */
        joint_of_node[n] = next++;
        const cJSON *children = cJSON_GetObjectItemCaseSensitive(node, "children");
        int child_count = cJSON_IsArray(children) ? cJSON_GetArraySize(children) : 0;
        if (top + child_count > node_count + root_count) ok = false;
        for (int c = child_count - 1; ok && c >= 0; c--) stack[top++] = cJSON_GetArrayItem(children, c)->valueint;
    }
    free(stack);
    return ok && next == skeleton->joint_count;
}

/* ---- the stage -------------------------------------------------------------------------- */

static Interpolation interpolation_of(const cJSON *sampler)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(sampler, "interpolation");
    if (!cJSON_IsString(kind)) return INTERPOLATION_LINEAR;   /* the glTF default */
    if (strcmp(kind->valuestring, "STEP") == 0) return INTERPOLATION_STEP;
    if (strcmp(kind->valuestring, "CUBICSPLINE") == 0) return INTERPOLATION_CUBICSPLINE;
    return INTERPOLATION_LINEAR;
}

/* Reads the in/out tangents of a CUBICSPLINE output accessor (3 elements per key: in, value,
 * out) into tangents[2k] = in, tangents[2k+1] = out. False if they cannot be read. */
static bool read_tangents(const GltfFile *file, const cJSON *sampler, int components, int key_count, float **tangents)
{
    int count = 0;
    float *data = read_float_accessor(file, json_int(sampler, "output", -1), components, &count);
    if (!data || count != 3 * key_count) {
        free(data);
        return false;
    }
    float *out = malloc(sizeof(float) * (size_t)components * 2 * (size_t)key_count);
    if (!out) {
        free(data);
        return false;
    }
    for (int k = 0; k < key_count; k++) {
        memcpy(out + (size_t)(2 * k) * components, data + (size_t)(3 * k) * components, sizeof(float) * components);
        memcpy(out + (size_t)(2 * k + 1) * components, data + (size_t)(3 * k + 2) * components,
               sizeof(float) * components);
    }
    free(data);
    *tangents = out;
    return true;
}

static JointTrack *track_of_joint(Clip *clip, int joint)
{
    for (int t = 0; t < clip->track_count; t++)
        if (clip->tracks[t].joint == joint) return &clip->tracks[t];
    return NULL;
}

/* The earliest key time of an animation: the least "min" of its samplers' input accessors
 * (required by the spec for animation inputs); HUGE_VALF if none says. */
static float animation_first_key(const GltfFile *file, const cJSON *animation)
{
    float first = HUGE_VALF;
    const cJSON *sampler;
    cJSON_ArrayForEach(sampler, cJSON_GetObjectItemCaseSensitive(animation, "samplers")) {
        const cJSON *input = json_at(file->json, "accessors", json_int(sampler, "input", -1));
        const cJSON *min = input ? json_at(input, "min", 0) : NULL;
        if (cJSON_IsNumber(min) && isfinite(min->valuedouble) && (float)min->valuedouble < first)
            first = (float)min->valuedouble;
    }
    return first;
}

/* Drops one channel component when it is a single key before `first` equal to the rest value
 * (Assimp's fill-in: it changes nothing, the joint keeps its rest value without it). */
static void drop_fill_in(int *count, float **times, float **values, float **tangents, const float *rest, int n,
                         float first)
{
    if (*count != 1 || !((*times)[0] < first)) return;
    for (int i = 0; i < n; i++)
        if (fabsf((*values)[i] - rest[i]) > 1e-6f * (1.0f + fabsf(rest[i]))) return;
    free(*times), free(*values), free(*tangents);
    *times = NULL, *values = NULL, *tangents = NULL;
    *count = 0;
}

/* Moves each clip's start to its first authored key when Assimp's filled-in keys at 0 hid it. */
static void apply_clip_starts(const GltfFile *file, const cJSON *animations, Model *model)
{
    int a = 0;
    const cJSON *animation;
    cJSON_ArrayForEach(animation, animations) {
        Clip *clip = &model->clips[a++];
        float first = animation_first_key(file, animation), end = clip->start + clip->duration;
        if (!(first > clip->start && first <= end)) continue;
        float start = HUGE_VALF;
        for (int t = 0; t < clip->track_count; t++) {
            JointTrack *track = &clip->tracks[t];
            const JointTransform *rest = &model->skeleton.rest_trs[track->joint];
            drop_fill_in(&track->translation_count, &track->translation_times, (float **)&track->translation_values,
                         (float **)&track->translation_tangents, rest->translation, 3, first);
            drop_fill_in(&track->rotation_count, &track->rotation_times, (float **)&track->rotation_values,
                         (float **)&track->rotation_tangents, rest->rotation, 4, first);
            drop_fill_in(&track->scale_count, &track->scale_times, (float **)&track->scale_values,
                         (float **)&track->scale_tangents, rest->scale, 3, first);
            if (track->translation_count > 0) start = fminf(start, track->translation_times[0]);
            if (track->rotation_count > 0) start = fminf(start, track->rotation_times[0]);
            if (track->scale_count > 0) start = fminf(start, track->scale_times[0]);
        }
        for (int t = 0; t < clip->morph_track_count; t++) start = fminf(start, clip->morph_tracks[t].times[0]);
        if (start > clip->start && start <= end) {
            clip->start = start;
            clip->duration = end - start;
        }
    }
}

bool import_gltf_interpolation(Importer *im, const char *path)
{
    Model *model = im->model;
    if (!im->is_gltf || !path || model->clip_count == 0) return true;
    GltfFile file;
    if (!gltf_open(&file, path, im->directory)) {
        gltf_close(&file);
        return true;   /* Assimp read it; without its JSON the clips stay linear */
    }
    const cJSON *animations = cJSON_GetObjectItemCaseSensitive(file.json, "animations");
    if (cJSON_GetArraySize(animations) == model->clip_count) apply_clip_starts(&file, animations, model);
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(file.json, "nodes");
    int node_count = cJSON_IsArray(nodes) ? cJSON_GetArraySize(nodes) : 0;
    bool any_special = false;   /* only files with STEP / CUBICSPLINE need the node walk */
    const cJSON *animation;
    cJSON_ArrayForEach(animation, animations) {
        const cJSON *sampler;
        cJSON_ArrayForEach(sampler, cJSON_GetObjectItemCaseSensitive(animation, "samplers"))
            if (interpolation_of(sampler) != INTERPOLATION_LINEAR) any_special = true;
    }
    int *joint_of_node = any_special && node_count > 0 ? malloc(sizeof(int) * (size_t)node_count) : NULL;
    if (!any_special || !joint_of_node || cJSON_GetArraySize(animations) != model->clip_count ||
        !map_nodes(&file, &model->skeleton, joint_of_node, node_count)) {
        if (any_special && im->warnings)
            fprintf(im->warnings, "skinview: warning: %s: the glTF's nodes or animations do not match Assimp's; "
                                  "STEP/CUBICSPLINE tracks are sampled linearly\n", im->path);
        free(joint_of_node);
        gltf_close(&file);
        return true;
    }

    int failed_splines = 0;
    int a = 0;
    cJSON_ArrayForEach(animation, animations) {
        Clip *clip = &model->clips[a++];
        const cJSON *channel;
        cJSON_ArrayForEach(channel, cJSON_GetObjectItemCaseSensitive(animation, "channels")) {
            const cJSON *sampler = json_at(animation, "samplers", json_int(channel, "sampler", -1));
            const cJSON *target = cJSON_GetObjectItemCaseSensitive(channel, "target");
            const cJSON *path_item = cJSON_GetObjectItemCaseSensitive(target, "path");
            int node = json_int(target, "node", -1);
            if (!sampler || !cJSON_IsString(path_item) || node < 0 || node >= node_count) continue;
            Interpolation kind = interpolation_of(sampler);
            JointTrack *track = joint_of_node[node] >= 0 ? track_of_joint(clip, joint_of_node[node]) : NULL;
            if (kind == INTERPOLATION_LINEAR || !track) continue;
            const char *what = path_item->valuestring;
            Interpolation *slot = NULL;
            float **tangents = NULL;
            int count = 0, components = 3;
            if (strcmp(what, "translation") == 0)
                slot = &track->translation_interpolation, tangents = (float **)&track->translation_tangents,
                count = track->translation_count;
            else if (strcmp(what, "rotation") == 0)
                slot = &track->rotation_interpolation, tangents = (float **)&track->rotation_tangents,
                count = track->rotation_count, components = 4;
            else if (strcmp(what, "scale") == 0)
                slot = &track->scale_interpolation, tangents = (float **)&track->scale_tangents,
                count = track->scale_count;
            if (!slot || count == 0) continue;   /* "weights" (morph channels) keep their own sampling */
            if (kind == INTERPOLATION_CUBICSPLINE) {
                free(*tangents);
                *tangents = NULL;
                if (!read_tangents(&file, sampler, components, count, tangents)) {
                    failed_splines++;
                    continue;   /* stays linear */
                }
            }
            *slot = kind;
        }
    }
    if (failed_splines > 0 && im->warnings)
        fprintf(im->warnings, "skinview: warning: %s: %d CUBICSPLINE channel(s) without readable tangents are "
                              "sampled linearly\n", im->path, failed_splines);
    free(joint_of_node);
    gltf_close(&file);
    return true;
}

/* ---- skins without inverseBindMatrices ------------------------------------------- */

static void base64_encode(const uint8_t *in, size_t n, char *out)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0u) | (i + 2 < n ? in[i + 2] : 0u);
        out[o++] = table[(v >> 18) & 63];
        out[o++] = table[(v >> 12) & 63];
        out[o++] = i + 1 < n ? table[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? table[v & 63] : '=';
    }
    out[o] = '\0';
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Adds the identity matrices to file->json; false if no skin lacks them (or on a malformed list). */
static bool add_identity_bind_matrices(cJSON *json)
{
    cJSON *skins = cJSON_GetObjectItemCaseSensitive(json, "skins");
    int most_joints = 0;
    cJSON *skin;
    cJSON_ArrayForEach(skin, skins) {
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
        if (!cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices") && cJSON_IsArray(joints) &&
            cJSON_GetArraySize(joints) > most_joints)
            most_joints = cJSON_GetArraySize(joints);
    }
    if (most_joints == 0 || most_joints > 65536) return false;
    size_t bytes = (size_t)most_joints * 16 * sizeof(float);
    float *identities = calloc((size_t)most_joints * 16, sizeof(float));
    char *uri = malloc(64 + 4 * (bytes / 3 + 1));
    cJSON *buffers = cJSON_GetObjectItemCaseSensitive(json, "buffers");
    cJSON *views = cJSON_GetObjectItemCaseSensitive(json, "bufferViews");
    cJSON *accessors = cJSON_GetObjectItemCaseSensitive(json, "accessors");
    if (!buffers) cJSON_AddItemToObject(json, "buffers", buffers = cJSON_CreateArray());
    if (!views) cJSON_AddItemToObject(json, "bufferViews", views = cJSON_CreateArray());
    if (!accessors) cJSON_AddItemToObject(json, "accessors", accessors = cJSON_CreateArray());
    if (!identities || !uri || !cJSON_IsArray(buffers) || !cJSON_IsArray(views) || !cJSON_IsArray(accessors)) {
        free(identities);
        free(uri);
        return false;
    }
    for (int m = 0; m < most_joints; m++)
        for (int d = 0; d < 4; d++) identities[m * 16 + d * 5] = 1.0f;   /* float32 little-endian, as glTF */
    strcpy(uri, "data:application/octet-stream;base64,");
    base64_encode((const uint8_t *)identities, bytes, uri + strlen(uri));
    free(identities);

    cJSON *buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", (double)bytes);
    cJSON_AddStringToObject(buffer, "uri", uri);
    free(uri);
    int buffer_index = cJSON_GetArraySize(buffers);
    cJSON_AddItemToArray(buffers, buffer);
    cJSON *view = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", buffer_index);
    cJSON_AddNumberToObject(view, "byteLength", (double)bytes);
    int view_index = cJSON_GetArraySize(views);
    cJSON_AddItemToArray(views, view);
    cJSON_ArrayForEach(skin, skins) {
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
        if (cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices") || !cJSON_IsArray(joints) ||
            cJSON_GetArraySize(joints) == 0)
            continue;
        cJSON *accessor = cJSON_CreateObject();
        cJSON_AddNumberToObject(accessor, "bufferView", view_index);
        cJSON_AddNumberToObject(accessor, "componentType", 5126);   /* FLOAT */
        cJSON_AddNumberToObject(accessor, "count", cJSON_GetArraySize(joints));
        cJSON_AddStringToObject(accessor, "type", "MAT4");
        cJSON_AddNumberToObject(skin, "inverseBindMatrices", cJSON_GetArraySize(accessors));
        cJSON_AddItemToArray(accessors, accessor);
    }
    return true;
}

bool import_gltf_patch_missing_bind_matrices(const char *path, char **patched, size_t *patched_size)
{
    *patched = NULL;
    *patched_size = 0;
    GltfFile file;
    if (!gltf_open(&file, path, "") || !add_identity_bind_matrices(file.json)) {
        gltf_close(&file);
        return false;
    }
    char *json = cJSON_PrintUnformatted(file.json);
    size_t json_length = json ? strlen(json) : 0;
    bool glb = file.size >= 20 && memcmp(file.bytes, "glTF", 4) == 0;
    if (json && !glb) {
        *patched = json;
        *patched_size = json_length;
    } else if (json) {   /* GLB: header, the new JSON chunk (space-padded to 4 bytes), the BIN chunk as it was */
        size_t json_padded = (json_length + 3) & ~(size_t)3;
        size_t bin_chunk = file.glb_bin ? 8 + ((file.glb_bin_size + 3) & ~(size_t)3) : 0;
        size_t total = 12 + 8 + json_padded + bin_chunk;
        uint8_t *out = total <= 0xffffffffu ? calloc(total, 1) : NULL;
        if (out) {
            memcpy(out, "glTF", 4);
            put_u32(out + 4, 2);
            put_u32(out + 8, (uint32_t)total);
            put_u32(out + 12, (uint32_t)json_padded);
            put_u32(out + 16, 0x4E4F534Au);   /* "JSON" */
            memcpy(out + 20, json, json_length);
            memset(out + 20 + json_length, ' ', json_padded - json_length);
            if (file.glb_bin) {
                put_u32(out + 20 + json_padded, (uint32_t)((file.glb_bin_size + 3) & ~(size_t)3));
                put_u32(out + 24 + json_padded, 0x004E4942u);   /* "BIN\0" */
                memcpy(out + 28 + json_padded, file.glb_bin, file.glb_bin_size);
            }
            *patched = (char *)out;
            *patched_size = total;
        }
        cJSON_free(json);
    }
    gltf_close(&file);
    return *patched != NULL;
}
