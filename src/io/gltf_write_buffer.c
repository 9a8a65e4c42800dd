/* gltf_write_buffer.c — the writer's leaf helpers, which every step calls and which call no step: the one
 * binary buffer and its bufferViews (EXT_meshopt_compression through meshoptimizer's encoders, by what a
 * view holds: gltf_write_internal.h's GltfViewKind), accessors (min / max where glTF wants them; sparse), names as
 * valid UTF-8, the one-line failure; and the pure helpers two steps share (influences as written, the --fps
 * grid, a mesh's target count with its corrections). */
#include "gltf_write_internal.h"

#include <meshoptimizer.h>

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gltf_writer_fail(GltfWriter *w, const char *format, ...)
{
    if (!w->failed) {
        va_list args;
        va_start(args, format);
        vsnprintf(w->error, w->error_size, format, args);
        va_end(args);
    }
    w->failed = true;
    return false;
}

void gltf_writer_name(cJSON *object, const char *name)
{
    char valid[4 * SV_NAME_MAX + 64];
    utf8_copy_valid(valid, sizeof valid, name, strlen(name));
    cJSON_AddStringToObject(object, "name", valid);
}

/* ---- the buffer ------------------------------------------------------------------------------------------- */

static bool bin_reserve(GltfWriter *w, size_t more)
{
    if (w->bin_size + more + 4 <= w->bin_capacity) return true;
    size_t capacity = w->bin_capacity ? w->bin_capacity : 1 << 16;
    while (capacity < w->bin_size + more + 4) capacity *= 2;
    uint8_t *grown = realloc(w->bin, capacity);
    if (!grown) return gltf_writer_fail(w, "out of memory");
    w->bin = grown;
    w->bin_capacity = capacity;
    return true;
}

/* bufferView offsets are multiples of 4 (every accessor's component size divides 4) */
void gltf_writer_align(GltfWriter *w)
{
    while (w->bin_size % 4) w->bin[w->bin_size++] = 0;
}

int gltf_writer_view(GltfWriter *w, const void *data, size_t count, size_t element_size, GltfViewKind kind,
                     const uint32_t *indices)
{
    if (w->failed) return -1;
    size_t size = count * element_size;
    cJSON *view = cJSON_CreateObject();
    if (!view) return gltf_writer_fail(w, "out of memory"), -1;
    cJSON_AddItemToArray(w->buffer_views, view);
    if (!w->options->meshopt || w->plain_views) {
        if (!bin_reserve(w, size + 4)) return -1;
        gltf_writer_align(w);
        cJSON_AddNumberToObject(view, "buffer", 0);
        cJSON_AddNumberToObject(view, "byteOffset", (double)w->bin_size);
        memcpy(w->bin + w->bin_size, data, size);
        w->bin_size += size;
    } else {
        /* EXT_meshopt_compression: the view lives in buffer 1 (a fallback with no data), its bytes are
         * decoded from the stream in buffer 0 (meshopt_encodeVertexBuffer / IndexBuffer / IndexSequence) */
        size_t bound = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBufferBound(count, count)
                       : kind == GW_VIEW_INDICES ? meshopt_encodeIndexSequenceBound(count, count)
                                                 : meshopt_encodeVertexBufferBound(count, element_size);
        if (kind == GW_VIEW_TRIANGLES || kind == GW_VIEW_INDICES) {   /* bounds from the largest index */
            uint32_t largest = 0;
            for (size_t i = 0; i < count; i++) largest = indices[i] > largest ? indices[i] : largest;
            bound = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBufferBound(count, (size_t)largest + 1)
                                              : meshopt_encodeIndexSequenceBound(count, (size_t)largest + 1);
        }
        if (!bin_reserve(w, bound + 4)) return -1;
        gltf_writer_align(w);
        size_t encoded = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBuffer(w->bin + w->bin_size, bound, indices, count)
                         : kind == GW_VIEW_INDICES ? meshopt_encodeIndexSequence(w->bin + w->bin_size, bound, indices, count)
                                                   : meshopt_encodeVertexBuffer(w->bin + w->bin_size, bound, data, count,
                                                                                element_size);
        if (encoded == 0) return gltf_writer_fail(w, "meshoptimizer could not encode a bufferView"), -1;
        cJSON *extension = cJSON_CreateObject(), *extensions = cJSON_CreateObject();
        if (!extension || !extensions) {
            cJSON_Delete(extension);
            cJSON_Delete(extensions);
            return gltf_writer_fail(w, "out of memory"), -1;
        }
        cJSON_AddNumberToObject(extension, "buffer", 0);
        cJSON_AddNumberToObject(extension, "byteOffset", (double)w->bin_size);
        cJSON_AddNumberToObject(extension, "byteLength", (double)encoded);
        cJSON_AddNumberToObject(extension, "byteStride", (double)element_size);
        cJSON_AddNumberToObject(extension, "count", (double)count);
        cJSON_AddStringToObject(extension, "mode", kind == GW_VIEW_TRIANGLES ? "TRIANGLES"
                                                   : kind == GW_VIEW_INDICES ? "INDICES"
                                                                             : "ATTRIBUTES");
        cJSON_AddItemToObject(extensions, "EXT_meshopt_compression", extension);
        w->bin_size += encoded;
        w->fallback_size = (w->fallback_size + 3) & ~(size_t)3;
        cJSON_AddNumberToObject(view, "buffer", 1);
        cJSON_AddNumberToObject(view, "byteOffset", (double)w->fallback_size);
        w->fallback_size += size;
        cJSON_AddItemToObject(view, "extensions", extensions);
    }
    cJSON_AddNumberToObject(view, "byteLength", (double)size);
    if (kind == GW_VIEW_VERTEX) {
        cJSON_AddNumberToObject(view, "byteStride", (double)element_size);
        cJSON_AddNumberToObject(view, "target", GW_ARRAY_BUFFER);
    } else if (kind == GW_VIEW_TRIANGLES || kind == GW_VIEW_INDICES)
        cJSON_AddNumberToObject(view, "target", GW_ELEMENT_ARRAY_BUFFER);
    return w->view_count++;
}

int gltf_writer_accessor(GltfWriter *w, int view, int component_type, int count, const char *type, int components,
                         const float *float_data, bool with_bounds)
{
    if (w->failed || view < 0) return -1;
    cJSON *accessor = cJSON_CreateObject();
    if (!accessor) return gltf_writer_fail(w, "out of memory"), -1;
    cJSON_AddItemToArray(w->accessors, accessor);
    cJSON_AddNumberToObject(accessor, "bufferView", view);
    cJSON_AddNumberToObject(accessor, "componentType", component_type);
    cJSON_AddNumberToObject(accessor, "count", count);
    cJSON_AddStringToObject(accessor, "type", type);
    if (with_bounds && float_data && count > 0) {
        float lo[16], hi[16];
        for (int k = 0; k < components; k++) lo[k] = hi[k] = float_data[k];
        for (int i = 1; i < count; i++)
            for (int k = 0; k < components; k++) {
                float v = float_data[(size_t)i * (size_t)components + (size_t)k];
                lo[k] = v < lo[k] ? v : lo[k];
                hi[k] = v > hi[k] ? v : hi[k];
            }
        cJSON_AddItemToObject(accessor, "min", cJSON_CreateFloatArray(lo, components));
        cJSON_AddItemToObject(accessor, "max", cJSON_CreateFloatArray(hi, components));
    }
    return w->accessor_count++;
}

int gltf_writer_floats(GltfWriter *w, const float *data, int count, int components, GltfViewKind kind, bool with_bounds)
{
    static const char *const types[] = {NULL, "SCALAR", "VEC2", "VEC3", "VEC4"};
    const char *type = components == 16 ? "MAT4" : types[components];
    int view = gltf_writer_view(w, data, (size_t)count, sizeof(float) * (size_t)components, kind, NULL);
    return gltf_writer_accessor(w, view, GW_FLOAT, count, type, components, data, with_bounds);
}

/* min / max of `count` elements of `components` floats into the accessor (zeros: one more element of zeros) */
static void add_bounds(cJSON *accessor, const float *data, int count, int components, bool zeros)
{
    float lo[16], hi[16];
    for (int k = 0; k < components; k++) lo[k] = hi[k] = count > 0 ? data[k] : 0.0f;
    for (int i = 0; i < count; i++)
        for (int k = 0; k < components; k++) {
            float v = data[(size_t)i * (size_t)components + (size_t)k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    for (int k = 0; zeros && k < components; k++) lo[k] = lo[k] < 0 ? lo[k] : 0.0f, hi[k] = hi[k] > 0 ? hi[k] : 0.0f;
    cJSON_AddItemToObject(accessor, "min", cJSON_CreateFloatArray(lo, components));
    cJSON_AddItemToObject(accessor, "max", cJSON_CreateFloatArray(hi, components));
}

static const char *accessor_type(int components)
{
    static const char *const types[] = {NULL, "SCALAR", "VEC2", "VEC3", "VEC4"};
    return components == 16 ? "MAT4" : types[components];
}

int gltf_writer_zero_floats(GltfWriter *w, int count, int components, bool with_bounds)
{
    if (w->failed) return -1;
    cJSON *accessor = cJSON_CreateObject();
    if (!accessor) return gltf_writer_fail(w, "out of memory"), -1;
    cJSON_AddItemToArray(w->accessors, accessor);
    cJSON_AddNumberToObject(accessor, "componentType", GW_FLOAT);
    cJSON_AddNumberToObject(accessor, "count", count);
    cJSON_AddStringToObject(accessor, "type", accessor_type(components));
    if (with_bounds) add_bounds(accessor, NULL, 0, components, true);
    return w->accessor_count++;
}

int gltf_writer_sparse_floats(GltfWriter *w, int count, int components, int nonzero, const uint32_t *indices,
                              const float *values, bool with_bounds)
{
    if (w->failed) return -1;
    if (nonzero <= 0) return gltf_writer_zero_floats(w, count, components, with_bounds);
    /* 16-bit indices when they fit (EXT_meshopt_compression's attribute stream wants 4-byte elements: 32-bit then) */
    bool shorts = count <= 65535 && !w->options->meshopt;
    int index_view;
    if (shorts) {
        uint16_t *small = malloc(sizeof(uint16_t) * (size_t)nonzero);
        if (!small) return gltf_writer_fail(w, "out of memory"), -1;
        for (int i = 0; i < nonzero; i++) small[i] = (uint16_t)indices[i];
        index_view = gltf_writer_view(w, small, (size_t)nonzero, 2, GW_VIEW_DATA, NULL);
        free(small);
    } else
        index_view = gltf_writer_view(w, indices, (size_t)nonzero, 4, GW_VIEW_DATA, NULL);
    int value_view = gltf_writer_view(w, values, (size_t)nonzero, sizeof(float) * (size_t)components, GW_VIEW_DATA, NULL);
    if (w->failed || index_view < 0 || value_view < 0) return -1;
    cJSON *accessor = cJSON_CreateObject(), *sparse = cJSON_CreateObject();
    if (!accessor || !sparse) {
        cJSON_Delete(accessor), cJSON_Delete(sparse);
        return gltf_writer_fail(w, "out of memory"), -1;
    }
    cJSON_AddItemToArray(w->accessors, accessor);
    cJSON_AddNumberToObject(accessor, "componentType", GW_FLOAT);
    cJSON_AddNumberToObject(accessor, "count", count);
    cJSON_AddStringToObject(accessor, "type", accessor_type(components));
    if (with_bounds) add_bounds(accessor, values, nonzero, components, nonzero < count);
    cJSON_AddItemToObject(accessor, "sparse", sparse);
    cJSON_AddNumberToObject(sparse, "count", nonzero);
    cJSON *index_info = cJSON_AddObjectToObject(sparse, "indices"), *value_info = cJSON_AddObjectToObject(sparse, "values");
    cJSON_AddNumberToObject(index_info, "bufferView", index_view);
    cJSON_AddNumberToObject(index_info, "componentType", shorts ? GW_UNSIGNED_SHORT : GW_UNSIGNED_INT);
    cJSON_AddNumberToObject(value_info, "bufferView", value_view);
    return w->accessor_count++;
}

/* ---- pure helpers the steps share ----------------------------------------------------------------------------- */

/* One vertex's `slots` (joint, weight) pairs (4, or 8 with --max-influences 8) as glTF wants them: duplicates
 * merged, zero slots on joint 0, the float sum 1 (w_k / sum_j w_j; the rounding left goes to the largest). */
void gltf_writer_clean_influences(const uint16_t *joints_in, const float *weights_in, int slots, uint16_t *joints, float *weights)
{
    double w[SV_MAX_INFLUENCES_KEPT] = {0};
    uint16_t j[SV_MAX_INFLUENCES_KEPT] = {0};
    int n = 0;
    for (int k = 0; k < slots; k++) {
        if (!(weights_in[k] > 0)) continue;
        int at = 0;
        while (at < n && j[at] != joints_in[k]) at++;
        if (at == n) j[n++] = joints_in[k];
        w[at] += weights_in[k];
    }
    double sum = 0;
    for (int k = 0; k < n; k++) sum += w[k];
    if (!(sum > 0)) {   /* cannot happen after the import's rule; keep the vertex on its first slot */
        n = 1, j[0] = joints_in[0], w[0] = 1, sum = 1;
    }
    int largest = 0;
    float total = 0;
    for (int k = 0; k < slots; k++) {
        joints[k] = k < n ? j[k] : 0;
        weights[k] = k < n ? (float)(w[k] / sum) : 0.0f;
        if (weights[k] > weights[largest]) largest = k;
    }
    for (int k = 0; k < slots; k++) total += weights[k];
    weights[largest] += 1.0f - total;
}

int gltf_writer_influence_slots(const GltfWriter *w, const Mesh *mesh)
{
    return w->options->max_influences == SV_MAX_INFLUENCES_KEPT && mesh->joint_indices_more && mesh->weights_more
               ? SV_MAX_INFLUENCES_KEPT
               : SV_MAX_INFLUENCES;
}

/* The --fps grid plus the channel's own key times, sorted, from 0 to the clip's duration. */
int gltf_writer_resample_times(const Clip *clip, const float *key_times, int key_count, float fps, float *out, int capacity)
{
    int frames = (int)floorf(clip->duration * fps + 1e-4f);
    int n = 0, k = 0;
    for (int f = 0; f <= frames + 1 && n < capacity; f++) {
        float t = f <= frames ? (float)f / fps : clip->duration;
        if (t > clip->duration) t = clip->duration;
        while (k < key_count && key_times[k] - clip->start < t && n < capacity) {
            float key = key_times[k++] - clip->start;
            if (key >= 0 && (n == 0 || key > out[n - 1])) out[n++] = key;
        }
        if (n < capacity && (n == 0 || t > out[n - 1])) out[n++] = t;
    }
    return n;
}

int gltf_writer_target_count(const GltfWriter *w, int mesh)
{
    int own = w->model->meshes[mesh].morph_target_count;
    return own + (w->correctives ? w->correctives->meshes[mesh].count : 0);
}
