/* gltf_accessor.c — step 2 of the glTF reader: accessors, in every form the spec allows.
 *
 * Rules of this step (glTF 2.0 section 3.6.2 "Accessors", 3.11 "Animations" for normalized keys):
 *   - An accessor is `count` elements of `type` (SCALAR 1, VEC2 2, VEC3 3, VEC4 4, MAT2 4, MAT3 9,
 *     MAT4 16 components) of `componentType` (BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT,
 *     UNSIGNED_INT, FLOAT), little-endian, starting at bufferView.byteOffset + accessor.byteOffset,
 *     one element every byteStride bytes (0 or absent: tightly packed). Matrix columns of 1- and
 *     2-byte components start on 4-byte boundaries (the spec's padding rule).
 *   - normalized integers become floats by the spec's formulas:
 *         BYTE max(c / 127, -1), UNSIGNED_BYTE c / 255, SHORT max(c / 32767, -1), UNSIGNED_SHORT c / 65535;
 *     integers that are not normalized keep their integer value (KHR_mesh_quantization positions).
 *   - No bufferView: every element is zero (then `sparse` gives the values that are not).
 *   - sparse: `count` indices (UNSIGNED_BYTE/SHORT/INT, strictly increasing per the spec; any order
 *     accepted, each < accessor.count) and as many values of the accessor's type replace those
 *     elements.
 *   - Every read is bounds-checked against its bufferView: an accessor whose last element ends past
 *     the view is "damaged glTF file: accessor N ..." (one line). The total an import may allocate for
 *     accessors is bounded (1 GiB + 64 x the file size): a tiny file cannot ask for gigabytes.
 */
#include "gltf_internal.h"

#include <stdlib.h>
#include <string.h>

int gltf_type_components(const char *type)
{
    if (!type) return 0;
    static const struct {
        const char *name;
        int         components;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(type, types[i].name) == 0) return types[i].components;
    return 0;
}

static int component_size(int type)
{
    switch (type) {
    case GLTF_BYTE: case GLTF_UNSIGNED_BYTE: return 1;
    case GLTF_SHORT: case GLTF_UNSIGNED_SHORT: return 2;
    case GLTF_UNSIGNED_INT: case GLTF_FLOAT: return 4;
    default: return 0;
    }
}

float gltf_normalize(double c, int type)
{
    switch (type) {
    case GLTF_BYTE: return fmaxf((float)(c / 127.0), -1.0f);
    case GLTF_UNSIGNED_BYTE: return (float)(c / 255.0);
    case GLTF_SHORT: return fmaxf((float)(c / 32767.0), -1.0f);
    case GLTF_UNSIGNED_SHORT: return (float)(c / 65535.0);
    case GLTF_UNSIGNED_INT: return (float)(c / 4294967295.0);
    default: return (float)c;
    }
}

/* One component at p as a double (its integer value, or the float). */
static double component_value(const uint8_t *p, int type)
{
    switch (type) {
    case GLTF_BYTE: return (int8_t)p[0];
    case GLTF_UNSIGNED_BYTE: return p[0];
    case GLTF_SHORT: return (int16_t)(uint16_t)(p[0] | p[1] << 8);
    case GLTF_UNSIGNED_SHORT: return (uint16_t)(p[0] | p[1] << 8);
    case GLTF_UNSIGNED_INT: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    case GLTF_FLOAT: {
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    default: return 0.0;
    }
}

/* Where each component of an element lies, relative to the element's start (matrix padding). */
static void component_offsets(const char *type, int components, int size, int *offsets, int *element_bytes)
{
    int columns = 1, rows = components;
    if (strncmp(type, "MAT", 3) == 0) columns = rows = type[3] - '0';
    int column_bytes = rows * size;
    if (columns > 1) column_bytes = (column_bytes + 3) & ~3;   /* columns start on 4-byte boundaries */
    for (int c = 0; c < columns; c++)
        for (int r = 0; r < rows; r++) offsets[c * rows + r] = c * column_bytes + r * size;
    *element_bytes = columns * column_bytes;
}

typedef struct AccessorInfo {
    const cJSON *json;
    int          count, components, type, size, element_bytes;
    int          offsets[16];
    bool         normalized;
} AccessorInfo;

static bool accessor_info(Gltf *g, int index, int want_components, AccessorInfo *info)
{
    info->json = gltf_get(&g->accessor_list, index);
    if (!info->json) return gltf_fail(g, "damaged glTF file: accessor %d does not exist (%d accessors)", index, g->accessor_count);
    const char *type = gltf_string(info->json, "type");
    info->components = gltf_type_components(type);
    info->type = gltf_int(info->json, "componentType", 0);
    info->size = component_size(info->type);
    info->count = gltf_int(info->json, "count", -1);
    info->normalized = cJSON_IsTrue(gltf_item(info->json, "normalized"));
    if (info->components == 0 || info->size == 0)
        return gltf_fail(g, "damaged glTF file: accessor %d has type '%s', componentType %d", index, QUOTED(type),
                         info->type);
    if (info->count < 1 || info->count > GLTF_MAX_ELEMENTS)
        return gltf_fail(g, "damaged glTF file: accessor %d has count %d", index, info->count);
    if (want_components > 0 && info->components != want_components)
        return gltf_fail(g, "damaged glTF file: accessor %d is '%s', %d components expected", index, QUOTED(type),
                         want_components);
    component_offsets(type, info->components, info->size, info->offsets, &info->element_bytes);
    return true;
}

/* Element bytes of `count` elements at view `view_index` + offset, checked; *stride out. */
static const uint8_t *element_data(Gltf *g, int view_index, double offset, int count, int element_bytes, int *stride,
                                   const char *what, int index)
{
    const GltfView *view = gltf_view(g, view_index);
    if (!view) return NULL;
    int step = view->stride > 0 ? view->stride : element_bytes;
    if (view->stride > 0 && view->stride < element_bytes) {
        gltf_fail(g, "damaged glTF file: %s %d: byteStride %d is less than its element (%d bytes)", what, index,
                  view->stride, element_bytes);
        return NULL;
    }
    double end = offset + (double)step * (count - 1) + element_bytes;
    if (!(offset >= 0) || end > (double)view->size) {
        gltf_fail(g, "damaged glTF file: %s %d needs bytes %.0f..%.0f of its bufferView, which has %zu", what, index, offset,
                  end, view->size);
        return NULL;
    }
    *stride = step;
    return view->bytes + (size_t)offset;
}

static bool reserve(Gltf *g, size_t bytes)
{
    if (g->bytes_allocated + bytes > ((size_t)1 << 30) + 64 * g->file_size)
        return gltf_fail(g, "the accessors need more than %zu MiB, more than a %zu-byte file can plausibly hold",
                         (g->bytes_allocated + bytes) >> 20, g->file_size);
    g->bytes_allocated += bytes;
    return true;
}

/* Reads the accessor into doubles (count * components), with sparse substitution. */
static bool read_values(Gltf *g, int index, const AccessorInfo *info, double **out)
{
    size_t total = (size_t)info->count * (size_t)info->components;
    if (!reserve(g, total * sizeof(double))) return false;
    double *values = calloc(total, sizeof *values);
    if (!values) return gltf_fail(g, "out of memory");
    int view_index = gltf_int(info->json, "bufferView", -1);
    if (gltf_item(info->json, "bufferView")) {   /* no bufferView: zeros */
        int stride;
        const uint8_t *data = element_data(g, view_index, gltf_number(info->json, "byteOffset", 0), info->count,
                                           info->element_bytes, &stride, "accessor", index);
        if (!data) {
            free(values);
            return false;
        }
        for (int i = 0; i < info->count; i++)
            for (int c = 0; c < info->components; c++)
                values[(size_t)i * info->components + c] =
                    component_value(data + (size_t)stride * i + info->offsets[c], info->type);
    }
    const cJSON *sparse = gltf_item(info->json, "sparse");
    if (sparse) {
        int count = gltf_int(sparse, "count", -1);
        const cJSON *indices = gltf_item(sparse, "indices"), *given = gltf_item(sparse, "values");
        int index_type = gltf_int(indices, "componentType", 0), index_size = component_size(index_type);
        if (count < 1 || count > info->count || !indices || !given ||
            !(index_type == GLTF_UNSIGNED_BYTE || index_type == GLTF_UNSIGNED_SHORT || index_type == GLTF_UNSIGNED_INT)) {
            free(values);
            return gltf_fail(g, "damaged glTF file: accessor %d has a malformed sparse part", index);
        }
        int index_stride, value_stride;
        const uint8_t *index_data = element_data(g, gltf_int(indices, "bufferView", -1), gltf_number(indices, "byteOffset", 0),
                                                 count, index_size, &index_stride, "sparse indices of accessor", index);
        const uint8_t *value_data = index_data ? element_data(g, gltf_int(given, "bufferView", -1),
                                                              gltf_number(given, "byteOffset", 0), count,
                                                              info->element_bytes, &value_stride,
                                                              "sparse values of accessor", index)
                                               : NULL;
        if (!value_data) {
            free(values);
            return false;
        }
        /* sparse index and value arrays are tightly packed (the spec: no byteStride) */
        for (int k = 0; k < count; k++) {
            double target = component_value(index_data + (size_t)index_size * k, index_type);
            if (target >= info->count) {
                free(values);
                return gltf_fail(g, "damaged glTF file: accessor %d: sparse index %.0f >= count %d", index, target,
                                 info->count);
            }
            for (int c = 0; c < info->components; c++)
                values[(size_t)target * info->components + c] =
                    component_value(value_data + (size_t)info->element_bytes * k + info->offsets[c], info->type);
        }
    }
    *out = values;
    return true;
}

/* The accessor's values as doubles (*values) and a buffer of `size` bytes per value for the
 * caller's conversion; NULL (nothing left allocated) with g->error set. */
static void *read_for_conversion(Gltf *g, int index, const AccessorInfo *info, size_t size, double **values)
{
    if (!read_values(g, index, info, values)) return NULL;
    void *converted = malloc(size * (size_t)info->count * (size_t)info->components);
    if (!converted) {
        free(*values);
        gltf_fail(g, "out of memory");
    }
    return converted;
}

bool gltf_read_floats(Gltf *g, int index, int components, float **out, int *count, int *components_out)
{
    *out = NULL;
    AccessorInfo info;
    if (!accessor_info(g, index, components, &info)) return false;
    double *values;
    float *floats = read_for_conversion(g, index, &info, sizeof *floats, &values);
    if (!floats) return false;
    size_t total = (size_t)info.count * (size_t)info.components;
    bool normalize = info.normalized && info.type != GLTF_FLOAT;
    for (size_t i = 0; i < total; i++) floats[i] = normalize ? gltf_normalize(values[i], info.type) : (float)values[i];
    free(values);
    *out = floats;
    *count = info.count;
    if (components_out) *components_out = info.components;
    return true;
}

bool gltf_read_uints(Gltf *g, int index, int components, uint32_t **out, int *count)
{
    *out = NULL;
    AccessorInfo info;
    if (!accessor_info(g, index, components, &info)) return false;
    if (info.type == GLTF_FLOAT || info.type == GLTF_BYTE || info.type == GLTF_SHORT)
        return gltf_fail(g, "damaged glTF file: accessor %d has componentType %d where unsigned integers are required",
                         index, info.type);
    double *values;
    uint32_t *ints = read_for_conversion(g, index, &info, sizeof *ints, &values);
    if (!ints) return false;
    size_t total = (size_t)info.count * (size_t)info.components;
    for (size_t i = 0; i < total; i++) ints[i] = (uint32_t)values[i];
    free(values);
    *out = ints;
    *count = info.count;
    return true;
}

int gltf_accessor_component_type(Gltf *g, int index, bool *normalized)
{
    const cJSON *json = gltf_get(&g->accessor_list, index);
    if (normalized) *normalized = cJSON_IsTrue(gltf_item(json, "normalized"));
    return json ? gltf_int(json, "componentType", -1) : -1;
}

int gltf_accessor_count(Gltf *g, int index)
{
    return gltf_int(gltf_get(&g->accessor_list, index), "count", -1);
}
