/* fbx_doc_binary.c — the binary FBX form into the record tree of fbx_doc.h.
 *
 * Rules of this step (binary layout, little-endian, as the FBX SDK writes it):
 *   bytes 0..20   "Kaydara FBX Binary  \0", then 0x1A 0x00, then the version (uint32) at 23;
 *   from 27       records. A record: end offset, value count, value bytes (uint32 each before
 *                 version 7500, uint64 from 7500), the name length (uint8) and name, the values,
 *                 then the child records, closed by a null record (a header of zeros). A list of
 *                 records also ends where its parent ends.
 *   a value       one type byte, then: C (1 byte bool/char), Y (int16), I (int32), F (float32),
 *                 D (float64), L (int64), S / R (uint32 length + bytes), or an array
 *                 b i l f d: count, encoding (0 plain, 1 zlib), stored bytes (uint32 each), data.
 *   limits       every length is checked against the bytes; a zlib array may claim at most
 *                FBX_MAX_INFLATE_RATIO times its stored bytes; nesting at most FBX_MAX_DEPTH.
 */
#include "fbx_doc_binary.h"

#include <zlib.h>

/* ---------------------------------------------------------------- binary */

static uint64_t le_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

uint32_t fbx_doc_le_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float le_f32(const uint8_t *p)
{
    uint32_t bits = fbx_doc_le_u32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double le_f64(const uint8_t *p)
{
    uint64_t bits = le_u64(p);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* One array value at p (type byte included), `left` bytes available. Returns its size or 0. */
static size_t binary_array(Reader *r, const uint8_t *p, size_t left, FbxValue *v, size_t offset)
{
    if (left < 13) return fbx_doc_fail(r, "FBX: array at byte %zu does not fit in the file", offset), 0;
    char type = (char)p[0];
    uint32_t count = fbx_doc_le_u32(p + 1), encoding = fbx_doc_le_u32(p + 5), stored = fbx_doc_le_u32(p + 9);
    size_t element = type == 'b' ? 1 : (type == 'i' || type == 'f') ? 4 : 8;
    uint64_t plain_bytes = (uint64_t)count * element;
    if (stored > left - 13) return fbx_doc_fail(r, "FBX: array at byte %zu claims %u bytes past the end of its record", offset, stored), 0;
    if (encoding == 0 && stored != plain_bytes)
        return fbx_doc_fail(r, "FBX: array at byte %zu holds %u bytes for %u elements", offset, stored, count), 0;
    if (encoding != 0 && encoding != 1) return fbx_doc_fail(r, "FBX: array at byte %zu has unknown encoding %u", offset, encoding), 0;
    if (encoding == 1 && plain_bytes > (uint64_t)stored * FBX_MAX_INFLATE_RATIO + 1024)
        return fbx_doc_fail(r, "FBX: compressed array at byte %zu claims %u elements from %u bytes (damaged or a zip bomb)", offset,
                    count, stored), 0;
    if (!fbx_doc_take_array_bytes(r, plain_bytes + (uint64_t)count * 8)) return 0;
    const uint8_t *data = p + 13;
    uint8_t *inflated = NULL;
    if (encoding == 1 && count > 0) {
        inflated = malloc((size_t)plain_bytes);
        if (!inflated) return fbx_doc_out_of_memory(r), 0;
        uLongf length = (uLongf)plain_bytes;
        int z = uncompress(inflated, &length, data, stored);
        if (z != Z_OK || length != (uLongf)plain_bytes) {
            free(inflated);
            return fbx_doc_fail(r, "FBX: compressed array at byte %zu does not inflate to its %u elements (zlib %d)", offset, count, z), 0;
        }
        data = inflated;
    }
    v->length = count;
    if (type == 'f' || type == 'd') {
        double *reals = count ? fbx_doc_arena_alloc(r->arena, (size_t)count * 8) : NULL;
        if (count && !reals) {
            free(inflated);
            return fbx_doc_out_of_memory(r), 0;
        }
        for (uint32_t i = 0; i < count; i++) reals[i] = type == 'f' ? le_f32(data + 4 * (size_t)i) : le_f64(data + 8 * (size_t)i);
        v->type = FBX_VALUE_REAL_ARRAY;
        v->reals = reals;
    } else {
        int64_t *integers = count ? fbx_doc_arena_alloc(r->arena, (size_t)count * 8) : NULL;
        if (count && !integers) {
            free(inflated);
            return fbx_doc_out_of_memory(r), 0;
        }
        for (uint32_t i = 0; i < count; i++)
            integers[i] = type == 'b' ? (int64_t)(data[i] != 0)
                        : type == 'i' ? (int64_t)(int32_t)fbx_doc_le_u32(data + 4 * (size_t)i)
                                      : (int64_t)le_u64(data + 8 * (size_t)i);
        v->type = FBX_VALUE_INTEGER_ARRAY;
        v->integers = integers;
    }
    free(inflated);
    return 13 + (size_t)stored;
}

/* One value at byte `at`, ending before `limit`. Returns its size (type byte included) or 0. */
static size_t binary_value(Reader *r, size_t at, size_t limit, FbxValue *v)
{
    const uint8_t *p = r->bytes + at;
    size_t left = limit - at, need;
    memset(v, 0, sizeof *v);
    v->offset = at + 1;
    v->code = (char)p[0];
    switch (p[0]) {
    case 'C': need = 2; break;
    case 'Y': need = 3; break;
    case 'I': case 'F': need = 5; break;
    case 'L': case 'D': need = 9; break;
    case 'S': case 'R': need = 5; break;
    case 'b': case 'i': case 'l': case 'f': case 'd': return binary_array(r, p, left, v, at);
    default:
        return fbx_doc_fail(r, "FBX: unknown value type 0x%02x at byte %zu", p[0], at), 0;
    }
    if (need > left) return fbx_doc_fail(r, "FBX: value at byte %zu does not fit in its record", at), 0;
    switch (p[0]) {
    case 'C': v->type = FBX_VALUE_INTEGER; v->integer = p[1]; break;
    case 'Y': v->type = FBX_VALUE_INTEGER; v->integer = (int16_t)(p[1] | p[2] << 8); break;
    case 'I': v->type = FBX_VALUE_INTEGER; v->integer = (int32_t)fbx_doc_le_u32(p + 1); break;
    case 'L': v->type = FBX_VALUE_INTEGER; v->integer = (int64_t)le_u64(p + 1); break;
    case 'F': v->type = FBX_VALUE_REAL; v->real = le_f32(p + 1); break;
    case 'D': v->type = FBX_VALUE_REAL; v->real = le_f64(p + 1); break;
    default: {   /* S, R */
        uint32_t length = fbx_doc_le_u32(p + 1);
        if (length > left - 5) return fbx_doc_fail(r, "FBX: string at byte %zu claims %u bytes past the end of its record", at, length), 0;
        v->type = p[0] == 'S' ? FBX_VALUE_STRING : FBX_VALUE_RAW;
        v->string = fbx_doc_arena_string(r->arena, (const char *)p + 5, length);
        if (!v->string) return fbx_doc_out_of_memory(r), 0;
        v->length = length;
        return 5 + (size_t)length;
    }
    }
    if (v->type == FBX_VALUE_INTEGER) v->real = (double)v->integer;
    else v->integer = fbx_real_to_integer(v->real);
    return need;
}

typedef struct BinaryHeader {
    uint64_t end, value_count, value_bytes;
    size_t   name_length, header;
} BinaryHeader;

static bool binary_header(const Reader *r, size_t at, BinaryHeader *h)
{
    const uint8_t *p = r->bytes + at;
    h->header = r->wide ? 25 : 13;
    h->end = r->wide ? le_u64(p) : fbx_doc_le_u32(p);
    h->value_count = r->wide ? le_u64(p + 8) : fbx_doc_le_u32(p + 4);
    h->value_bytes = r->wide ? le_u64(p + 16) : fbx_doc_le_u32(p + 8);
    h->name_length = p[h->header - 1];
    return h->end == 0 && h->value_count == 0 && h->value_bytes == 0 && h->name_length == 0;   /* the null record */
}

static bool binary_list(Reader *r, size_t at, size_t limit, int depth, FbxRecord *parent);

/* Reads the record at `at` (header checked to fit) into *out. */
static bool binary_record(Reader *r, size_t at, size_t limit, const BinaryHeader *h, int depth, FbxRecord *out)
{
    if (h->end > limit || h->end <= at || h->name_length > h->end - at - h->header)
        return fbx_doc_fail(r, "FBX: record at byte %zu does not fit in its parent (end %llu)", at, (unsigned long long)h->end);
    size_t first = at + h->header + h->name_length;
    if (h->value_bytes > h->end - first) return fbx_doc_fail(r, "FBX: record at byte %zu claims more value bytes than it holds", at);
    if (h->value_count > h->value_bytes / 2 + 1 && h->value_count > 0)
        return fbx_doc_fail(r, "FBX: record at byte %zu claims %llu values in %llu bytes", at, (unsigned long long)h->value_count,
                    (unsigned long long)h->value_bytes);
    memset(out, 0, sizeof *out);
    out->name = fbx_doc_arena_string(r->arena, (const char *)r->bytes + at + h->header, h->name_length);
    if (!out->name) return fbx_doc_out_of_memory(r);
    size_t values_end = first + (size_t)h->value_bytes;
    if (h->value_count) {
        FbxValue *values = fbx_doc_arena_alloc(r->arena, (size_t)h->value_count * sizeof *values);
        if (!values) return fbx_doc_out_of_memory(r);
        size_t v_at = first;
        for (uint64_t i = 0; i < h->value_count; i++) {
            if (v_at >= values_end) return fbx_doc_fail(r, "FBX: record at byte %zu has fewer values than it claims", at);
            size_t size = binary_value(r, v_at, values_end, &values[i]);
            if (size == 0) return false;
            v_at += size;
        }
        out->values = values;
        out->value_count = (int)h->value_count;
    }
    if (values_end < h->end) {
        if (depth + 1 > FBX_MAX_DEPTH) return fbx_doc_fail(r, "FBX: records nested deeper than %d", FBX_MAX_DEPTH);
        return binary_list(r, values_end, (size_t)h->end, depth + 1, out);
    }
    return true;
}

/* The records in [at, limit) up to a null record: parent's children. */
static bool binary_list(Reader *r, size_t at, size_t limit, int depth, FbxRecord *parent)
{
    size_t header = r->wide ? 25 : 13;
    /* count first (headers only), so that the children are one contiguous array */
    size_t count = 0;
    for (size_t scan = at; scan < limit && limit - scan >= header;) {
        BinaryHeader h;
        if (binary_header(r, scan, &h)) break;
        if (h.end > limit || h.end <= scan) return fbx_doc_fail(r, "FBX: record at byte %zu does not fit in its parent", scan);
        count++;
        scan = (size_t)h.end;
    }
    if (count == 0) return true;
    if (count > (size_t)INT32_MAX) return fbx_doc_fail(r, "FBX: too many records");
    FbxRecord *children = fbx_doc_arena_alloc(r->arena, count * sizeof *children);
    if (!children) return fbx_doc_out_of_memory(r);
    for (size_t i = 0; i < count; i++) {
        BinaryHeader h;
        binary_header(r, at, &h);
        if (!binary_record(r, at, limit, &h, depth, &children[i])) return false;
        at = (size_t)h.end;
    }
    parent->children = children;
    parent->child_count = (int)count;
    return true;
}

bool fbx_doc_read_binary(Reader *r, FbxDocument *doc)
{
    if (r->size < 27) return fbx_doc_fail(r, "FBX: binary header truncated");
    int container = (int)fbx_doc_le_u32(r->bytes + 23);
    doc->binary = true;
    r->wide = container >= 7500;
    if (container < 2000 || container > 20000) return fbx_doc_fail(r, "FBX: binary version %d is not an FBX version", container);
    if (!binary_list(r, 27, r->size, 0, &doc->root)) return false;
    /* FBX 5.x binaries carry container version 3000; their FBXHeaderExtension says 5000 / 5800 */
    const FbxRecord *header = fbx_record_child(&doc->root, "FBXHeaderExtension");
    const FbxRecord *version = header ? fbx_record_child(header, "FBXVersion") : NULL;
    doc->version = version && version->value_count > 0 && version->values[0].type == FBX_VALUE_INTEGER
                 ? (int)version->values[0].integer : container;
    return true;
}
