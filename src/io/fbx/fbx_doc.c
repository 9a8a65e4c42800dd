/* fbx_doc.c — reads an FBX file (binary or ASCII, any version) into the record tree of fbx_doc.h.
 *
 * Binary layout (little-endian), as the FBX SDK writes it:
 *   bytes 0..20   "Kaydara FBX Binary  \0", then 0x1A 0x00, then the version (uint32) at 23;
 *   from 27       records. A record: end offset, value count, value bytes (uint32 each before
 *                 version 7500, uint64 from 7500), the name length (uint8) and name, the values,
 *                 then the child records, closed by a null record (a header of zeros). A list of
 *                 records also ends where its parent ends.
 *   a value       one type byte, then: C (1 byte bool/char), Y (int16), I (int32), F (float32),
 *                 D (float64), L (int64), S / R (uint32 length + bytes), or an array
 *                 b i l f d: count, encoding (0 plain, 1 zlib), stored bytes (uint32 each), data.
 * ASCII layout:
 *   `Name: value, value, … {` children `}`; values are numbers, "strings" (no escapes) and bare
 *   letters (FBX 6 key lists: U, s, a …); a list continues on the next line after a trailing comma
 *   or when that line begins with one; `;` starts a comment; 7.x arrays are `*N { a: v, v, … }`.
 *   A plain list of more than FBX_PLAIN_LIST_TO_ARRAY numbers (FBX 6 Vertices, PolygonVertexIndex …)
 *   is stored as one array value, so that its memory is 8 bytes a number (fbx_record_reals reads
 *   both forms).
 *
 * Limits: nesting depth FBX_MAX_DEPTH; every length is checked against the bytes; a zlib array may
 * claim at most FBX_MAX_INFLATE_RATIO times its stored bytes (deflate cannot do better) and all
 * arrays together at most FBX_MAX_ARRAY_BYTES; the document's memory at most FBX_MAX_ARENA_BYTES.
 */
#include "fbx_doc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FBX_MAX_DEPTH 64
#define FBX_MAX_INFLATE_RATIO 1100u               /* deflate's best is about 1032:1 */
#define FBX_MAX_ARRAY_BYTES ((uint64_t)1 << 30)  /* decoded array bytes, all arrays together */
#define FBX_MAX_ARENA_BYTES ((uint64_t)3 << 30)  /* everything the document holds */
#define FBX_PLAIN_LIST_TO_ARRAY 64

/* ---------------------------------------------------------------- arena */

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t             used, size;
    max_align_t        data[];
} ArenaBlock;

typedef struct Arena {
    ArenaBlock *blocks;
    uint64_t    total;
} Arena;

static void *arena_alloc(Arena *arena, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes == 0) bytes = 16;
    ArenaBlock *b = arena->blocks;
    if (!b || b->size - b->used < bytes) {
        size_t size = bytes > ((size_t)1 << 20) ? bytes : ((size_t)1 << 20);
        if (arena->total + size > FBX_MAX_ARENA_BYTES) return NULL;
        b = malloc(sizeof *b + size);
        if (!b) return NULL;
        b->size = size;
        b->used = 0;
        arena->total += size;
        if (arena->blocks && size != ((size_t)1 << 20)) {   /* a big one-off: keep the current block current */
            b->next = arena->blocks->next;
            arena->blocks->next = b;
        } else {
            b->next = arena->blocks;
            arena->blocks = b;
        }
    }
    void *p = (char *)b->data + b->used;
    b->used += bytes;
    return p;
}

static void arena_free(Arena *arena)
{
    for (ArenaBlock *b = arena->blocks; b;) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    free(arena);
}

static char *arena_string(Arena *arena, const char *s, size_t length)
{
    char *copy = arena_alloc(arena, length + 1);
    if (!copy) return NULL;
    memcpy(copy, s, length);
    copy[length] = '\0';
    return copy;
}

/* ---------------------------------------------------------------- shared state */

typedef struct Reader {
    const uint8_t *bytes;
    size_t         size;
    Arena         *arena;
    uint64_t       array_bytes;   /* decoded so far */
    char          *error;
    size_t         error_size;
    bool           failed;
    /* binary */
    bool           wide;          /* version >= 7500: 64-bit header fields */
    /* ASCII */
    size_t         at;
    int            line;
} Reader;

static bool fail(Reader *r, const char *format, ...)
{
    if (r->failed) return false;
    r->failed = true;
    if (r->error && r->error_size) {
        va_list args;
        va_start(args, format);
        vsnprintf(r->error, r->error_size, format, args);
        va_end(args);
    }
    return false;
}

static bool out_of_memory(Reader *r)
{
    return fail(r, "FBX: out of memory (or past the reader's %llu MiB limit)",
                (unsigned long long)(FBX_MAX_ARENA_BYTES >> 20));
}

/* Counts decoded array bytes against the limit. */
static bool take_array_bytes(Reader *r, uint64_t bytes)
{
    if (bytes > FBX_MAX_ARRAY_BYTES - r->array_bytes)
        return fail(r, "FBX: arrays larger than the reader's %llu MiB limit", (unsigned long long)(FBX_MAX_ARRAY_BYTES >> 20));
    r->array_bytes += bytes;
    return true;
}

/* A growable array of fixed-size items (malloc'd scratch; copied into the arena when done). */
typedef struct Vec {
    void  *items;
    size_t count, capacity, item_size;
} Vec;

static void *vec_push(Reader *r, Vec *v)
{
    if (v->count == v->capacity) {
        size_t capacity = v->capacity ? v->capacity * 2 : 8;
        void *items = realloc(v->items, capacity * v->item_size);
        if (!items) {
            out_of_memory(r);
            return NULL;
        }
        v->items = items;
        v->capacity = capacity;
    }
    return (char *)v->items + v->item_size * v->count++;
}

static void *vec_to_arena(Reader *r, const Vec *v)
{
    if (v->count == 0) return NULL;
    void *copy = arena_alloc(r->arena, v->count * v->item_size);
    if (!copy) {
        out_of_memory(r);
        return NULL;
    }
    memcpy(copy, v->items, v->count * v->item_size);
    return copy;
}

/* ---------------------------------------------------------------- binary */

/* A real as an integer when it is one (NaN and out of range: 0). */
static int64_t real_to_integer(double d)
{
    if (!(d > -9.2e18 && d < 9.2e18)) return 0;
    return (int64_t)d;
}



static uint64_t le_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint32_t le_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float le_f32(const uint8_t *p)
{
    uint32_t bits = le_u32(p);
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
    if (left < 13) return fail(r, "FBX: array at byte %zu does not fit in the file", offset), 0;
    char type = (char)p[0];
    uint32_t count = le_u32(p + 1), encoding = le_u32(p + 5), stored = le_u32(p + 9);
    size_t element = type == 'b' ? 1 : (type == 'i' || type == 'f') ? 4 : 8;
    uint64_t plain_bytes = (uint64_t)count * element;
    if (stored > left - 13) return fail(r, "FBX: array at byte %zu claims %u bytes past the end of its record", offset, stored), 0;
    if (encoding == 0 && stored != plain_bytes)
        return fail(r, "FBX: array at byte %zu holds %u bytes for %u elements", offset, stored, count), 0;
    if (encoding != 0 && encoding != 1) return fail(r, "FBX: array at byte %zu has unknown encoding %u", offset, encoding), 0;
    if (encoding == 1 && plain_bytes > (uint64_t)stored * FBX_MAX_INFLATE_RATIO + 1024)
        return fail(r, "FBX: compressed array at byte %zu claims %u elements from %u bytes (damaged or a zip bomb)", offset,
                    count, stored), 0;
    if (!take_array_bytes(r, plain_bytes + (uint64_t)count * 8)) return 0;
    const uint8_t *data = p + 13;
    uint8_t *inflated = NULL;
    if (encoding == 1 && count > 0) {
        inflated = malloc((size_t)plain_bytes);
        if (!inflated) return out_of_memory(r), 0;
        uLongf length = (uLongf)plain_bytes;
        int z = uncompress(inflated, &length, data, stored);
        if (z != Z_OK || length != (uLongf)plain_bytes) {
            free(inflated);
            return fail(r, "FBX: compressed array at byte %zu does not inflate to its %u elements (zlib %d)", offset, count, z), 0;
        }
        data = inflated;
    }
    v->length = count;
    if (type == 'f' || type == 'd') {
        double *reals = count ? arena_alloc(r->arena, (size_t)count * 8) : NULL;
        if (count && !reals) {
            free(inflated);
            return out_of_memory(r), 0;
        }
        for (uint32_t i = 0; i < count; i++) reals[i] = type == 'f' ? le_f32(data + 4 * (size_t)i) : le_f64(data + 8 * (size_t)i);
        v->type = FBX_VALUE_REAL_ARRAY;
        v->reals = reals;
    } else {
        int64_t *integers = count ? arena_alloc(r->arena, (size_t)count * 8) : NULL;
        if (count && !integers) {
            free(inflated);
            return out_of_memory(r), 0;
        }
        for (uint32_t i = 0; i < count; i++)
            integers[i] = type == 'b' ? (int64_t)(data[i] != 0)
                        : type == 'i' ? (int64_t)(int32_t)le_u32(data + 4 * (size_t)i)
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
        return fail(r, "FBX: unknown value type 0x%02x at byte %zu", p[0], at), 0;
    }
    if (need > left) return fail(r, "FBX: value at byte %zu does not fit in its record", at), 0;
    switch (p[0]) {
    case 'C': v->type = FBX_VALUE_INTEGER; v->integer = p[1]; break;
    case 'Y': v->type = FBX_VALUE_INTEGER; v->integer = (int16_t)(p[1] | p[2] << 8); break;
    case 'I': v->type = FBX_VALUE_INTEGER; v->integer = (int32_t)le_u32(p + 1); break;
    case 'L': v->type = FBX_VALUE_INTEGER; v->integer = (int64_t)le_u64(p + 1); break;
    case 'F': v->type = FBX_VALUE_REAL; v->real = le_f32(p + 1); break;
    case 'D': v->type = FBX_VALUE_REAL; v->real = le_f64(p + 1); break;
    default: {   /* S, R */
        uint32_t length = le_u32(p + 1);
        if (length > left - 5) return fail(r, "FBX: string at byte %zu claims %u bytes past the end of its record", at, length), 0;
        v->type = p[0] == 'S' ? FBX_VALUE_STRING : FBX_VALUE_RAW;
        v->string = arena_string(r->arena, (const char *)p + 5, length);
        if (!v->string) return out_of_memory(r), 0;
        v->length = length;
        return 5 + (size_t)length;
    }
    }
    if (v->type == FBX_VALUE_INTEGER) v->real = (double)v->integer;
    else v->integer = real_to_integer(v->real);
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
    h->end = r->wide ? le_u64(p) : le_u32(p);
    h->value_count = r->wide ? le_u64(p + 8) : le_u32(p + 4);
    h->value_bytes = r->wide ? le_u64(p + 16) : le_u32(p + 8);
    h->name_length = p[h->header - 1];
    return h->end == 0 && h->value_count == 0 && h->value_bytes == 0 && h->name_length == 0;   /* the null record */
}

static bool binary_list(Reader *r, size_t at, size_t limit, int depth, FbxRecord *parent);

/* Reads the record at `at` (header checked to fit) into *out. */
static bool binary_record(Reader *r, size_t at, size_t limit, const BinaryHeader *h, int depth, FbxRecord *out)
{
    if (h->end > limit || h->end <= at || h->name_length > h->end - at - h->header)
        return fail(r, "FBX: record at byte %zu does not fit in its parent (end %llu)", at, (unsigned long long)h->end);
    size_t first = at + h->header + h->name_length;
    if (h->value_bytes > h->end - first) return fail(r, "FBX: record at byte %zu claims more value bytes than it holds", at);
    if (h->value_count > h->value_bytes / 2 + 1 && h->value_count > 0)
        return fail(r, "FBX: record at byte %zu claims %llu values in %llu bytes", at, (unsigned long long)h->value_count,
                    (unsigned long long)h->value_bytes);
    memset(out, 0, sizeof *out);
    out->name = arena_string(r->arena, (const char *)r->bytes + at + h->header, h->name_length);
    if (!out->name) return out_of_memory(r);
    size_t values_end = first + (size_t)h->value_bytes;
    if (h->value_count) {
        FbxValue *values = arena_alloc(r->arena, (size_t)h->value_count * sizeof *values);
        if (!values) return out_of_memory(r);
        size_t v_at = first;
        for (uint64_t i = 0; i < h->value_count; i++) {
            if (v_at >= values_end) return fail(r, "FBX: record at byte %zu has fewer values than it claims", at);
            size_t size = binary_value(r, v_at, values_end, &values[i]);
            if (size == 0) return false;
            v_at += size;
        }
        out->values = values;
        out->value_count = (int)h->value_count;
    }
    if (values_end < h->end) {
        if (depth + 1 > FBX_MAX_DEPTH) return fail(r, "FBX: records nested deeper than %d", FBX_MAX_DEPTH);
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
        if (h.end > limit || h.end <= scan) return fail(r, "FBX: record at byte %zu does not fit in its parent", scan);
        count++;
        scan = (size_t)h.end;
    }
    if (count == 0) return true;
    if (count > (size_t)INT32_MAX) return fail(r, "FBX: too many records");
    FbxRecord *children = arena_alloc(r->arena, count * sizeof *children);
    if (!children) return out_of_memory(r);
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

static bool read_binary(Reader *r, FbxDocument *doc)
{
    if (r->size < 27) return fail(r, "FBX: binary header truncated");
    int container = (int)le_u32(r->bytes + 23);
    doc->binary = true;
    r->wide = container >= 7500;
    if (container < 2000 || container > 20000) return fail(r, "FBX: binary version %d is not an FBX version", container);
    if (!binary_list(r, 27, r->size, 0, &doc->root)) return false;
    /* FBX 5.x binaries carry container version 3000; their FBXHeaderExtension says 5000 / 5800 */
    const FbxRecord *header = fbx_record_child(&doc->root, "FBXHeaderExtension");
    const FbxRecord *version = header ? fbx_record_child(header, "FBXVersion") : NULL;
    doc->version = version && version->value_count > 0 && version->values[0].type == FBX_VALUE_INTEGER
                 ? (int)version->values[0].integer : container;
    return true;
}

/* ---------------------------------------------------------------- ASCII */

static int peek(const Reader *r)
{
    return r->at < r->size ? r->bytes[r->at] : -1;
}

/* Skips spaces, tabs and comments; newlines too when `newlines`. Returns true if a newline was passed. */
static bool skip_space(Reader *r, bool newlines)
{
    bool passed = false;
    while (r->at < r->size) {
        int c = r->bytes[r->at];
        if (c == ';') {
            while (r->at < r->size && r->bytes[r->at] != '\n') r->at++;
        } else if (c == '\n') {
            if (!newlines) return passed;
            passed = true;
            r->line++;
            r->at++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0') {
            r->at++;
        } else {
            break;
        }
    }
    return passed;
}

static bool is_word_char(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '|' || c == '.' || c == '#';
}

/* A word at r->at; its length (0 if none). */
static size_t word_length(const Reader *r)
{
    size_t n = 0;
    if (r->at < r->size && (isalpha(r->bytes[r->at]) || r->bytes[r->at] == '_')) {
        while (r->at + n < r->size && is_word_char(r->bytes[r->at + n])) n++;
    }
    return n;
}

/* Parses a number token at r->at into *v. False (no error) if there is none. */
static bool ascii_number(Reader *r, FbxValue *v)
{
    size_t end = r->at;
    while (end < r->size && (isalnum(r->bytes[end]) || strchr("+-.#", r->bytes[end]))) end++;
    size_t length = end - r->at;
    if (length == 0 || length > 350) return false;
    char text[352];
    memcpy(text, r->bytes + r->at, length);
    text[length] = '\0';
    bool integer = true;
    for (size_t i = 0; i < length; i++)
        if (!(isdigit((unsigned char)text[i]) || (i == 0 && (text[i] == '-' || text[i] == '+')))) integer = false;
    memset(v, 0, sizeof *v);
    char *stop;
    if (integer) {
        errno = 0;
        long long n = strtoll(text, &stop, 10);
        if (errno == 0 && stop != text && *stop == '\0') {
            v->type = FBX_VALUE_INTEGER;
            v->integer = n;
            v->real = (double)n;
            r->at = end;
            return true;
        }
    }
    double d = strtod(text, &stop);
    if (stop == text) return false;
    if (*stop == '#') {   /* 1.#INF, -1.#IND, 1.#QNAN as old Windows writers spell them */
        d = strstr(stop, "INF") ? (text[0] == '-' ? -HUGE_VAL : HUGE_VAL) : 0.0;
    } else if (*stop != '\0') {
        return false;
    }
    v->type = FBX_VALUE_REAL;
    v->real = d;
    v->integer = real_to_integer(d);
    r->at = end;
    return true;
}

/* A number list as one array value: integers while every number is one, else reals. */
static bool numbers_to_array(Reader *r, const Vec *numbers, FbxValue *v)
{
    const FbxValue *n = numbers->items;
    bool real = false;
    for (size_t i = 0; i < numbers->count; i++)
        if (n[i].type == FBX_VALUE_REAL) real = true;
    if (!take_array_bytes(r, (uint64_t)numbers->count * 8)) return false;
    memset(v, 0, sizeof *v);
    v->length = numbers->count;
    if (real) {
        double *reals = numbers->count ? arena_alloc(r->arena, numbers->count * 8) : NULL;
        if (numbers->count && !reals) return out_of_memory(r);
        for (size_t i = 0; i < numbers->count; i++) reals[i] = n[i].real;
        v->type = FBX_VALUE_REAL_ARRAY;
        v->reals = reals;
    } else {
        int64_t *integers = numbers->count ? arena_alloc(r->arena, numbers->count * 8) : NULL;
        if (numbers->count && !integers) return out_of_memory(r);
        for (size_t i = 0; i < numbers->count; i++) integers[i] = n[i].integer;
        v->type = FBX_VALUE_INTEGER_ARRAY;
        v->integers = integers;
    }
    return true;
}

/* `*N { a: v, v, … }` after the '*'. */
static bool ascii_array(Reader *r, FbxValue *v)
{
    r->at++;   /* '*' */
    FbxValue count;
    if (!ascii_number(r, &count) || count.type != FBX_VALUE_INTEGER || count.integer < 0)
        return fail(r, "FBX: line %d: '*' not followed by an element count", r->line);
    skip_space(r, true);
    if (peek(r) != '{') return fail(r, "FBX: line %d: array without '{'", r->line);
    r->at++;
    skip_space(r, true);
    Vec numbers = {.item_size = sizeof(FbxValue)};
    size_t w = word_length(r);
    if (w > 0) {   /* a: */
        r->at += w;
        skip_space(r, true);
        if (peek(r) != ':') return fail(r, "FBX: line %d: array without 'a:'", r->line);
        r->at++;
    }
    bool ok = true;
    for (;;) {
        skip_space(r, true);
        int c = peek(r);
        if (c == '}') {
            r->at++;
            break;
        }
        if (c == ',') {
            r->at++;
            continue;
        }
        FbxValue *n = vec_push(r, &numbers);
        if (!n) {
            ok = false;
            break;
        }
        if (c < 0 || !ascii_number(r, n)) {
            ok = fail(r, c < 0 ? "FBX: line %d: file ends inside an array" : "FBX: line %d: array element is not a number", r->line);
            break;
        }
        if (numbers.count > (size_t)1 << 31) {
            ok = fail(r, "FBX: line %d: array too long", r->line);
            break;
        }
    }
    if (ok) ok = numbers_to_array(r, &numbers, v);
    free(numbers.items);
    return ok;
}

static bool ascii_list(Reader *r, int depth, bool in_braces, FbxRecord *parent);

/* Whether a `Name:` starts at r->at. */
static bool at_record_name(const Reader *r)
{
    size_t w = word_length(r), after = r->at + w;
    while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
    return w > 0 && after < r->size && r->bytes[after] == ':';
}

/* The values of a record after its `Name:`, then its children if a '{' follows. */
static bool ascii_record_body(Reader *r, int depth, FbxRecord *record)
{
    Vec values = {.item_size = sizeof(FbxValue)};
    bool expect_value = true, ok = true, braces = false;
    for (;;) {
        bool newline = skip_space(r, false);
        (void)newline;
        int c = peek(r);
        if (c == '\n' || c < 0) {
            /* the list goes on after a trailing comma, or on a line that begins with one */
            size_t save_at = r->at;
            int save_line = r->line;
            skip_space(r, true);
            int next = peek(r);
            if (next == ',' || (expect_value && next >= 0 && next != '}' && next != '{' && !at_record_name(r))) continue;
            if (next == '{') continue;   /* the children's brace on the next line */
            r->at = save_at;
            r->line = save_line;
            break;
        }
        if (c == '{') {
            r->at++;
            braces = true;
            break;
        }
        if (c == '}') break;
        if (c == ',') {
            r->at++;
            expect_value = true;
            continue;
        }
        FbxValue *v = vec_push(r, &values);
        if (!v) {
            ok = false;
            break;
        }
        memset(v, 0, sizeof *v);
        if (c == '"') {
            size_t start = ++r->at;
            while (r->at < r->size && r->bytes[r->at] != '"') {
                if (r->bytes[r->at] == '\n') r->line++;
                r->at++;
            }
            if (r->at >= r->size) {
                ok = fail(r, "FBX: line %d: string not closed", r->line);
                break;
            }
            v->type = FBX_VALUE_STRING;
            v->length = r->at - start;
            v->string = arena_string(r->arena, (const char *)r->bytes + start, v->length);
            r->at++;
            if (!v->string) {
                ok = out_of_memory(r);
                break;
            }
        } else if (c == '*') {
            if (!ascii_array(r, v)) {
                ok = false;
                break;
            }
        } else if (ascii_number(r, v)) {
            /* a number */
        } else {
            size_t w = word_length(r);
            size_t after = r->at + w;
            while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
            if (w == 0) {
                ok = fail(r, "FBX: line %d: unexpected character '%c'", r->line, isprint(c) ? c : '?');
                break;
            }
            if (after < r->size && r->bytes[after] == ':') {   /* the next record's name on this line */
                values.count--;
                break;
            }
            v->type = FBX_VALUE_STRING;
            v->length = w;
            v->string = arena_string(r->arena, (const char *)r->bytes + r->at, w);
            r->at += w;
            if (!v->string) {
                ok = out_of_memory(r);
                break;
            }
        }
        expect_value = false;
    }
    if (ok && values.count > FBX_PLAIN_LIST_TO_ARRAY) {   /* a long plain number list: one array */
        bool numbers = true;
        const FbxValue *items = values.items;
        for (size_t i = 0; i < values.count && numbers; i++)
            numbers = items[i].type == FBX_VALUE_INTEGER || items[i].type == FBX_VALUE_REAL;
        if (numbers) {
            FbxValue array;
            ok = numbers_to_array(r, &values, &array);
            values.count = 1;
            ((FbxValue *)values.items)[0] = array;
        }
    }
    if (ok && values.count > (size_t)INT32_MAX) ok = fail(r, "FBX: line %d: too many values", r->line);
    if (ok) {
        record->values = vec_to_arena(r, &values);
        record->value_count = (int)values.count;
        ok = !r->failed;
    }
    free(values.items);
    if (ok && braces) {
        if (depth + 1 > FBX_MAX_DEPTH) return fail(r, "FBX: line %d: records nested deeper than %d", r->line, FBX_MAX_DEPTH);
        ok = ascii_list(r, depth + 1, true, record);
    }
    return ok;
}

/* Records until the closing '}' (in_braces) or the end of the file. */
static bool ascii_list(Reader *r, int depth, bool in_braces, FbxRecord *parent)
{
    Vec children = {.item_size = sizeof(FbxRecord)};
    bool ok = true;
    for (;;) {
        skip_space(r, true);
        int c = peek(r);
        if (c < 0) {
            if (in_braces) ok = fail(r, "FBX: line %d: file ends before a '}'", r->line);
            break;
        }
        if (c == '}') {
            if (!in_braces) {
                ok = fail(r, "FBX: line %d: '}' without a '{'", r->line);
                break;
            }
            r->at++;
            break;
        }
        size_t w = word_length(r);
        if (w == 0 && c == '"') {   /* a quoted record name (seen in a few writers) */
            size_t end = r->at + 1;
            while (end < r->size && r->bytes[end] != '"' && r->bytes[end] != '\n') end++;
            w = end < r->size && r->bytes[end] == '"' ? end + 1 - r->at : 0;
        }
        size_t after = r->at + w;
        while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
        if (w == 0 || after >= r->size || r->bytes[after] != ':') {
            ok = fail(r, "FBX: line %d: expected a record name and ':'", r->line);
            break;
        }
        FbxRecord *record = vec_push(r, &children);
        if (!record) {
            ok = false;
            break;
        }
        memset(record, 0, sizeof *record);
        const char *name = (const char *)r->bytes + r->at;
        size_t name_length = w;
        if (name[0] == '"') {
            name++;
            name_length -= 2;
        }
        record->name = arena_string(r->arena, name, name_length);
        if (!record->name) {
            ok = out_of_memory(r);
            break;
        }
        r->at = after + 1;
        if (!ascii_record_body(r, depth, record)) {
            ok = false;
            break;
        }
        if (children.count > (size_t)INT32_MAX) {
            ok = fail(r, "FBX: too many records");
            break;
        }
    }
    if (ok) {
        parent->children = vec_to_arena(r, &children);
        parent->child_count = (int)children.count;
        ok = !r->failed;
    }
    free(children.items);
    return ok;
}

static bool read_ascii(Reader *r, FbxDocument *doc)
{
    r->line = 1;
    doc->binary = false;
    if (!ascii_list(r, 0, false, &doc->root)) return false;
    const FbxRecord *header = fbx_record_child(&doc->root, "FBXHeaderExtension");
    const FbxRecord *version = header ? fbx_record_child(header, "FBXVersion") : NULL;
    if (version && version->value_count > 0 && version->values[0].type == FBX_VALUE_INTEGER)
        doc->version = (int)version->values[0].integer;
    else {   /* "; FBX 6.1.0 project file" */
        int major = 0, minor = 0, patch = 0;
        const char *text = (const char *)r->bytes;
        size_t n = r->size < 200 ? r->size : 200;
        char first[201];
        memcpy(first, text, n);
        first[n] = '\0';
        const char *at = strstr(first, "FBX ");
        if (at && sscanf(at, "FBX %d.%d.%d", &major, &minor, &patch) >= 2) doc->version = major * 1000 + minor * 100 + patch * 10;
    }
    if (doc->root.child_count == 0) return fail(r, "FBX: no records (not an FBX file)");
    return true;
}

/* ---------------------------------------------------------------- public */

bool fbx_document_read(FbxDocument *doc, const void *bytes, size_t size, char *error, size_t error_size)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    memset(doc, 0, sizeof *doc);
    if (error && error_size) error[0] = '\0';
    Reader r = {.bytes = bytes, .size = size, .error = error, .error_size = error_size};
    r.arena = calloc(1, sizeof *r.arena);
    if (!r.arena) return out_of_memory(&r);
    doc->arena = r.arena;
    bool ok;
    if (size >= sizeof magic - 1 && memcmp(bytes, magic, sizeof magic - 1) == 0) {
        ok = read_binary(&r, doc);
    } else {
        /* ASCII: text only (a NUL or other control byte in the first KiB means it is not FBX text) */
        size_t probe = size < 1024 ? size : 1024;
        ok = size > 0;
        for (size_t i = 0; i < probe && ok; i++) {
            uint8_t c = r.bytes[i];
            if (c < 32 && c != '\n' && c != '\r' && c != '\t') ok = fail(&r, "FBX: not an FBX file (neither the binary magic nor text)");
        }
        if (size == 0) fail(&r, "FBX: empty file");
        if (ok) ok = read_ascii(&r, doc);
    }
    if (!ok) {
        fbx_document_free(doc);
        if (error && error_size && !error[0]) snprintf(error, error_size, "FBX: damaged file");
        return false;
    }
    return true;
}

int fbx_document_version(const void *bytes, size_t size)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    const char *text = bytes;
    if (size >= 27 && memcmp(bytes, magic, sizeof magic - 1) == 0) return (int)le_u32((const uint8_t *)bytes + 23);
    static const char key[] = "FBXVersion:";
    size_t n = sizeof key - 1;
    for (size_t i = 0; i + n < size; i++) {
        if (text[i] != 'F' || memcmp(text + i, key, n) != 0) continue;
        size_t at = i + n;
        while (at < size && (text[at] == ' ' || text[at] == '\t')) at++;
        int version = 0, digits = 0;
        while (at < size && text[at] >= '0' && text[at] <= '9' && digits < 6) version = version * 10 + (text[at++] - '0'), digits++;
        if (digits > 0) return version;
    }
    char banner[201];
    size_t b = size < 200 ? size : 200;
    memcpy(banner, text, b);
    banner[b] = '\0';
    for (size_t i = 0; i < b; i++)
        if (banner[i] == '\0') banner[i] = ' ';
    const char *at = strstr(banner, "; FBX ");
    int major = 0, minor = 0, patch = 0;
    if (at && sscanf(at, "; FBX %d.%d.%d", &major, &minor, &patch) >= 2 && major > 0 && major < 20)
        return major * 1000 + minor * 100 + patch * 10;
    return 0;
}

void fbx_document_free(FbxDocument *doc)
{
    if (doc->arena) arena_free(doc->arena);
    memset(doc, 0, sizeof *doc);
}

const FbxRecord *fbx_record_child(const FbxRecord *record, const char *name)
{
    if (!record) return NULL;
    for (int i = 0; i < record->child_count; i++)
        if (strcmp(record->children[i].name, name) == 0) return &record->children[i];
    return NULL;
}

void *fbx_document_alloc(FbxDocument *doc, size_t bytes)
{
    return arena_alloc(doc->arena, bytes);
}

const double *fbx_record_reals(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    *count = 0;
    if (!record || record->value_count == 0) return NULL;
    const FbxValue *v = record->values;
    if (record->value_count == 1 && v[0].type == FBX_VALUE_REAL_ARRAY) {
        *count = v[0].length;
        return v[0].reals;
    }
    size_t n = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_REAL) n++;
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY) n += v[i].length;
    }
    if (n == 0) return NULL;
    double *out = arena_alloc(doc->arena, n * sizeof *out);
    if (!out) return NULL;
    size_t k = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER) out[k++] = (double)v[i].integer;
        else if (v[i].type == FBX_VALUE_REAL) out[k++] = v[i].real;
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY)
            for (size_t j = 0; j < v[i].length; j++) out[k++] = (double)v[i].integers[j];
        else if (v[i].type == FBX_VALUE_REAL_ARRAY)
            for (size_t j = 0; j < v[i].length; j++) out[k++] = v[i].reals[j];
    }
    *count = n;
    return out;
}

const int64_t *fbx_record_integers(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    *count = 0;
    if (!record || record->value_count == 0) return NULL;
    const FbxValue *v = record->values;
    if (record->value_count == 1 && v[0].type == FBX_VALUE_INTEGER_ARRAY) {
        *count = v[0].length;
        return v[0].integers;
    }
    size_t n = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_REAL) n++;
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY) n += v[i].length;
    }
    if (n == 0) return NULL;
    int64_t *out = arena_alloc(doc->arena, n * sizeof *out);
    if (!out) return NULL;
    size_t k = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER) out[k++] = v[i].integer;
        else if (v[i].type == FBX_VALUE_REAL) out[k++] = real_to_integer(v[i].real);
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY)
            for (size_t j = 0; j < v[i].length; j++) out[k++] = v[i].integers[j];
        else if (v[i].type == FBX_VALUE_REAL_ARRAY)
            for (size_t j = 0; j < v[i].length; j++) out[k++] = real_to_integer(v[i].reals[j]);
    }
    *count = n;
    return out;
}
