/* import_gltf.c — stage 7: what Assimp 5.2 drops or misreads in a glTF, read from the file itself.
 *
 * Rules of this stage (glTF/GLB files read from a path only; trap 13 of docs/skinning.md section 10):
 *   - Assimp 5.2.5 keeps a glTF sampler's keys but not its interpolation: STEP and
 *     CUBICSPLINE tracks arrive as plain keys and would be sampled linearly. The glTF JSON
 *     (a .gltf file, or the JSON chunk of a .glb) is read with cJSON, and each channel's
 *     sampler.interpolation is set on the joint track the channel became.
 *   - For CUBICSPLINE, Assimp keeps the value of each key (element 3k+1 of the output
 *     accessor) and drops the in- and out-tangents (elements 3k and 3k+2): they are read
 *     from the accessor here (float data in the .bin, a data: URI or the GLB's BIN chunk).
 *   - Morph weights (import_morph.c builds what Assimp hands over): every `weights` channel's
 *     tracks are rebuilt from the file: key times from the sampler input, weights from the
 *     output (T per key, target-major; CUBICSPLINE: in-tangents, values, out-tangents, T each per
 *     key; float or normalized integer accessors), the sampler's interpolation. Assimp keeps no
 *     interpolation, clamps negative weights to 0 and reads a CUBICSPLINE output as 3T targets.
 *     The channel drives every Model mesh on its node (one per primitive) with T targets. A
 *     node's `weights` override mesh.weights (the spec): they become those meshes' defaults.
 *     A channel that cannot be read keeps Assimp's linear keys, with one warning.
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
 *     linear (and node weights unread) and says so in one warning. So does a CUBICSPLINE channel whose tangents
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

/* glTF's normalized integer component -> float (spec 3.11: c / max, at least -1 for signed types). */
static float normalized_component(const uint8_t *p, int type)
{
    switch (type) {
    case 5120: return fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f);
    case 5121: return (float)p[0] / 255.0f;
    case 5122: return fmaxf((float)(int16_t)(p[0] | p[1] << 8) / 32767.0f, -1.0f);
    case 5123: return (float)(uint16_t)(p[0] | p[1] << 8) / 65535.0f;
    default: return 0.0f;
    }
}

/* Copies accessor `index` (SCALAR, VEC3 or VEC4 for components 1, 3, 4; not sparse) into a
 * malloc'd array of count * components floats. The components are FLOAT, or normalized
 * integers (as glTF allows for morph weights). NULL if it is anything else or out of range. */
static float *read_float_accessor(const GltfFile *file, int index, int components, int *count_out)
{
    const cJSON *accessor = json_at(file->json, "accessors", index);
    if (!accessor || cJSON_GetObjectItemCaseSensitive(accessor, "sparse")) return NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(accessor, "type");
    const char *want = components == 1 ? "SCALAR" : components == 3 ? "VEC3" : "VEC4";
    int component_type = json_int(accessor, "componentType", 0);
    size_t component_size = component_type == 5126 ? 4 : component_type == 5122 || component_type == 5123 ? 2 : 1;
    bool normalized = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(accessor, "normalized"));
    if (!(component_type == 5126 || (normalized && component_type >= 5120 && component_type <= 5123)) ||
        !cJSON_IsString(type) || strcmp(type->valuestring, want) != 0)
        return NULL;
    int count = json_int(accessor, "count", -1);
    const cJSON *view = json_at(file->json, "bufferViews", json_int(accessor, "bufferView", -1));
    if (count <= 0 || count > 50000000 || !view) return NULL;
    size_t element = component_size * (size_t)components;
    size_t stride = (size_t)json_int(view, "byteStride", 0);
    if (stride == 0) stride = element;
    size_t start = (size_t)json_int(view, "byteOffset", 0) + (size_t)json_int(accessor, "byteOffset", 0);
    size_t view_end = (size_t)json_int(view, "byteOffset", 0) + (size_t)json_int(view, "byteLength", 0);
    size_t need = start + stride * (size_t)(count - 1) + element;
    size_t buffer_size = 0;
    uint8_t *buffer = load_buffer(file, json_int(view, "buffer", -1), &buffer_size);
    float *out = NULL;
    if (buffer && stride >= element && need <= view_end && need <= buffer_size) {
        out = malloc(sizeof(float) * (size_t)components * (size_t)count);
        for (int i = 0; out && i < count; i++) {
            const uint8_t *at = buffer + start + stride * (size_t)i;
            float *to = out + (size_t)i * components;
            if (component_type == 5126) memcpy(to, at, element);   /* float32 little-endian, as glTF */
            else
                for (int c = 0; c < components; c++) to[c] = normalized_component(at + component_size * c, component_type);
        }
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

/* ---- morph weights: node defaults and `weights` channels -------------------------------- */

/* A node's `weights` (spec: they override its mesh's `weights`) become the default weights of
 * the Model meshes on that node (one per primitive) that have as many targets. */
static void apply_node_weights(const GltfFile *file, Model *model, const int *joint_of_node, int node_count)
{
    for (int n = 0; n < node_count; n++) {
        const cJSON *node = json_at(file->json, "nodes", n);
        const cJSON *weights = cJSON_GetObjectItemCaseSensitive(node, "weights");
        if (!cJSON_IsArray(weights) || joint_of_node[n] < 0) continue;
        int count = cJSON_GetArraySize(weights);
        for (int m = 0; m < model->mesh_count; m++) {
            Mesh *mesh = &model->meshes[m];
            if (mesh->node_joint != joint_of_node[n] || mesh->morph_target_count != count || !mesh->morph_default_weights)
                continue;
            for (int t = 0; t < count; t++) {
                const cJSON *w = cJSON_GetArrayItem(weights, t);
                if (cJSON_IsNumber(w) && isfinite(w->valuedouble)) mesh->morph_default_weights[t] = (float)w->valuedouble;
            }
        }
    }
}

/* Track list under construction: the rebuilt tracks of one clip. */
typedef struct MorphTrackList {
    MorphTrack *tracks;
    int         count, capacity;
} MorphTrackList;

/* Builds the tracks of one `weights` channel for mesh m (target_count targets) from the
 * sampler's input (key times, seconds) and output (weights, target-major per key:
 * output[k * T + t]; CUBICSPLINE: 3 elements per key and target, in-tangent, value,
 * out-tangent: output[(3k + i) * T + t]). False when out of memory. */
static bool add_weight_tracks(MorphTrackList *list, int m, int target_count, const float *times, int key_count,
                              const float *output, Interpolation kind)
{
    if (list->count + target_count > list->capacity) {
        int capacity = 2 * list->capacity + target_count;
        MorphTrack *grown = realloc(list->tracks, sizeof *grown * (size_t)capacity);
        if (!grown) return false;
        list->tracks = grown;
        list->capacity = capacity;
    }
    size_t keys = (size_t)key_count, targets = (size_t)target_count;
    for (int t = 0; t < target_count; t++) {
        MorphTrack *track = &list->tracks[list->count];
        *track = (MorphTrack){.mesh = m, .target = t, .key_count = key_count, .interpolation = kind};
        track->times = malloc(sizeof(float) * keys);
        track->weights = malloc(sizeof(float) * keys);
        track->tangents = kind == INTERPOLATION_CUBICSPLINE ? malloc(sizeof(float) * 2 * keys) : NULL;
        list->count++;   /* counted even when incomplete: the caller frees what the list holds */
        if (!track->times || !track->weights || (kind == INTERPOLATION_CUBICSPLINE && !track->tangents)) return false;
        memcpy(track->times, times, sizeof(float) * keys);
        for (size_t k = 0; k < keys; k++) {
            if (kind != INTERPOLATION_CUBICSPLINE) {
                track->weights[k] = output[k * targets + (size_t)t];
                continue;
            }
            track->tangents[2 * k] = output[(3 * k) * targets + (size_t)t];          /* a_k, in-tangent */
            track->weights[k] = output[(3 * k + 1) * targets + (size_t)t];           /* v_k */
            track->tangents[2 * k + 1] = output[(3 * k + 2) * targets + (size_t)t];  /* b_k, out-tangent */
        }
    }
    return true;
}

static void free_morph_track(MorphTrack *track)
{
    free(track->times);
    free(track->weights);
    free(track->tangents);
    memset(track, 0, sizeof *track);
}

/* Replaces the morph tracks Assimp made for each `weights` channel of `animation` by tracks read
 * from the file (its key times, weights, interpolation and spline tangents; Assimp 5.2.5 keeps no
 * interpolation, clamps negative weights to 0 and misreads a CUBICSPLINE output as 3x the targets).
 * A channel drives every Model mesh on its node (one per primitive). Channels that cannot be read
 * keep Assimp's tracks (linear) and count in *failed. False when out of memory. */
static bool rebuild_weight_channels(const GltfFile *file, const cJSON *animation, Model *model, Clip *clip,
                                    const int *joint_of_node, int node_count, int *failed)
{
    MorphTrackList list = {0};
    bool *rebuilt = calloc((size_t)model->mesh_count + 1, sizeof *rebuilt);
    bool ok = rebuilt != NULL;
    const cJSON *channel;
    cJSON_ArrayForEach(channel, cJSON_GetObjectItemCaseSensitive(animation, "channels")) {
        if (!ok) break;
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(channel, "target");
        const cJSON *path_item = cJSON_GetObjectItemCaseSensitive(target, "path");
        const cJSON *sampler = json_at(animation, "samplers", json_int(channel, "sampler", -1));
        int node = json_int(target, "node", -1);
        if (!cJSON_IsString(path_item) || strcmp(path_item->valuestring, "weights") != 0) continue;
        int joint = node >= 0 && node < node_count ? joint_of_node[node] : -1;
        int target_count = 0;
        for (int m = 0; joint >= 0 && m < model->mesh_count; m++)
            if (model->meshes[m].node_joint == joint && model->meshes[m].morph_target_count > 0)
                target_count = model->meshes[m].morph_target_count;
        if (!sampler || target_count == 0) continue;   /* no mesh with targets on that node: nothing to drive */
        Interpolation kind = interpolation_of(sampler);
        int key_count = 0, output_count = 0;
        float *times = read_float_accessor(file, json_int(sampler, "input", -1), 1, &key_count);
        float *output = times ? read_float_accessor(file, json_int(sampler, "output", -1), 1, &output_count) : NULL;
        bool readable = output && (long long)output_count ==
                                      (long long)key_count * target_count * (kind == INTERPOLATION_CUBICSPLINE ? 3 : 1);
        for (int m = 0; readable && m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            if (mesh->node_joint != joint || mesh->morph_target_count == 0) continue;
            if (mesh->morph_target_count != target_count) continue;   /* primitives disagree: not this channel's */
            if (!add_weight_tracks(&list, m, target_count, times, key_count, output, kind)) ok = false;
            rebuilt[m] = true;
        }
        if (!readable) (*failed)++;
        free(times);
        free(output);
    }
    if (ok && list.count > 0) {   /* Assimp's tracks of meshes not rebuilt, then the rebuilt ones */
        MorphTrack *tracks = malloc(sizeof *tracks * (size_t)(clip->morph_track_count + list.count));
        ok = tracks != NULL;
        int kept = 0;
        for (int t = 0; ok && t < clip->morph_track_count; t++) {
            MorphTrack *old = &clip->morph_tracks[t];
            if (old->mesh >= 0 && old->mesh < model->mesh_count && rebuilt[old->mesh]) free_morph_track(old);
            else tracks[kept++] = *old;
        }
        if (ok) {
            memcpy(tracks + kept, list.tracks, sizeof *tracks * (size_t)list.count);
            free(clip->morph_tracks);
            clip->morph_tracks = tracks;
            clip->morph_track_count = kept + list.count;
            list.count = 0;   /* now the clip's */
        }
    }
    for (int t = 0; t < list.count; t++) free_morph_track(&list.tracks[t]);
    free(list.tracks);
    free(rebuilt);
    return ok;
}

/* ---- the stage -------------------------------------------------------------------------- */

bool import_gltf_interpolation(Importer *im, const char *path)
{
    Model *model = im->model;
    if (!im->is_gltf || !path) return true;
    bool any_targets = false;
    for (int m = 0; m < model->mesh_count; m++) any_targets = any_targets || model->meshes[m].morph_target_count > 0;
    if (model->clip_count == 0 && !any_targets) return true;
    GltfFile file;
    if (!gltf_open(&file, path, im->directory)) {
        gltf_close(&file);
        return true;   /* Assimp read it; without its JSON the clips stay linear */
    }
    const cJSON *animations = cJSON_GetObjectItemCaseSensitive(file.json, "animations");
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(file.json, "nodes");
    int node_count = cJSON_IsArray(nodes) ? cJSON_GetArraySize(nodes) : 0;
    bool any_special = false;   /* only files with STEP / CUBICSPLINE, node weights or morph channels need the node walk */
    bool any_node_weights = false, any_weight_channels = false;
    const cJSON *animation, *node;
    cJSON_ArrayForEach(animation, animations) {
        const cJSON *sampler, *channel;
        cJSON_ArrayForEach(sampler, cJSON_GetObjectItemCaseSensitive(animation, "samplers"))
            if (interpolation_of(sampler) != INTERPOLATION_LINEAR) any_special = true;
        cJSON_ArrayForEach(channel, cJSON_GetObjectItemCaseSensitive(animation, "channels")) {
            const cJSON *what = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(channel, "target"), "path");
            if (cJSON_IsString(what) && strcmp(what->valuestring, "weights") == 0) any_weight_channels = true;
        }
    }
    cJSON_ArrayForEach(node, nodes) any_node_weights = any_node_weights || cJSON_GetObjectItemCaseSensitive(node, "weights");
    any_weight_channels = any_weight_channels && any_targets;
    any_node_weights = any_node_weights && any_targets;
    bool clips_match = cJSON_GetArraySize(animations) == model->clip_count;
    bool need_nodes = any_special || any_node_weights || any_weight_channels;
    int *joint_of_node = need_nodes && node_count > 0 ? malloc(sizeof(int) * (size_t)node_count) : NULL;
    bool nodes_match = joint_of_node && map_nodes(&file, &model->skeleton, joint_of_node, node_count);
    if (need_nodes && (!nodes_match || !clips_match) && (any_special || any_node_weights) && im->warnings)
        fprintf(im->warnings, "skinview: warning: %s: the glTF's nodes or animations do not match Assimp's; "
                              "STEP/CUBICSPLINE tracks are sampled linearly and nodes' morph weights ignored\n", im->path);
    if (nodes_match && any_node_weights) apply_node_weights(&file, model, joint_of_node, node_count);

    int failed_splines = 0, failed_weights = 0;
    if (nodes_match && clips_match && any_weight_channels) {
        int a = 0;
        cJSON_ArrayForEach(animation, animations)
            if (!rebuild_weight_channels(&file, animation, model, &model->clips[a++], joint_of_node, node_count,
                                         &failed_weights)) {
                free(joint_of_node);
                gltf_close(&file);
                return import_fail(im, "out of memory");
            }
    }
    if (failed_weights > 0 && im->warnings)
        fprintf(im->warnings, "skinview: warning: %s: %d morph weight channel(s) could not be read from the file "
                              "(sparse accessor or a weight count that does not match the targets); sampled linearly "
                              "as Assimp read them\n", im->path, failed_weights);
    if (clips_match) apply_clip_starts(&file, animations, model);
    if (!any_special || !nodes_match || !clips_match) {
        free(joint_of_node);
        gltf_close(&file);
        return true;
    }

    int a = 0;
    cJSON_ArrayForEach(animation, animations) {
        Clip *clip = &model->clips[a++];
        const cJSON *channel;
        cJSON_ArrayForEach(channel, cJSON_GetObjectItemCaseSensitive(animation, "channels")) {
            const cJSON *sampler = json_at(animation, "samplers", json_int(channel, "sampler", -1));
            const cJSON *target = cJSON_GetObjectItemCaseSensitive(channel, "target");
            const cJSON *path_item = cJSON_GetObjectItemCaseSensitive(target, "path");
            int node_index = json_int(target, "node", -1);
            if (!sampler || !cJSON_IsString(path_item) || node_index < 0 || node_index >= node_count) continue;
            Interpolation kind = interpolation_of(sampler);
            JointTrack *track = joint_of_node[node_index] >= 0 ? track_of_joint(clip, joint_of_node[node_index]) : NULL;
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
            if (!slot || count == 0) continue;   /* "weights": rebuilt from the file above */
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
