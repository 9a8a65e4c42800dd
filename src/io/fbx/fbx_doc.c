/* fbx_doc.c — reads an FBX file (binary or ASCII, any version) into the record tree of fbx_doc.h.
 *
 * This file: the arena the document lives in, the reader's errors and limits, and the public
 * functions (fbx_document_read picks the binary or ASCII reader; records read as reals / integers).
 *
 * Limits: nesting depth FBX_MAX_DEPTH; every length is checked against the bytes; a zlib array may
 * claim at most FBX_MAX_INFLATE_RATIO times its stored bytes (deflate cannot do better) and all
 * arrays together at most FBX_MAX_ARRAY_BYTES; the document's memory at most FBX_MAX_ARENA_BYTES.
 */
#include "fbx_doc_internal.h"

/* ---------------------------------------------------------------- arena */

void *fbx_doc_arena_alloc(Arena *arena, size_t bytes)
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

char *fbx_doc_arena_string(Arena *arena, const char *s, size_t length)
{
    char *copy = fbx_doc_arena_alloc(arena, length + 1);
    if (!copy) return NULL;
    memcpy(copy, s, length);
    copy[length] = '\0';
    return copy;
}

/* ---------------------------------------------------------------- shared state */

bool fbx_doc_fail(Reader *r, const char *format, ...)
{
    if (r->failed) return false;
    r->failed = true;
    if (r->error && r->error_size) {
        va_list args;
        va_start(args, format);
        io_failv(r->error, r->error_size, format, args);   /* report.h: one line */
        va_end(args);
    }
    return false;
}

bool fbx_doc_out_of_memory(Reader *r)
{
    return fbx_doc_fail(r, "FBX: out of memory (or past the reader's %llu MiB limit)",
                (unsigned long long)(FBX_MAX_ARENA_BYTES >> 20));
}

/* Counts decoded array bytes against the limit. */
bool fbx_doc_take_array_bytes(Reader *r, uint64_t bytes)
{
    if (bytes > FBX_MAX_ARRAY_BYTES - r->array_bytes)
        return fbx_doc_fail(r, "FBX: arrays larger than the reader's %llu MiB limit", (unsigned long long)(FBX_MAX_ARRAY_BYTES >> 20));
    r->array_bytes += bytes;
    return true;
}

/* A new item at the end of v, zeroed; NULL when out of memory (error set). */
void *fbx_doc_vec_push(Reader *r, Vec *v)
{
    if (v->count == v->capacity) {
        size_t capacity = v->capacity ? v->capacity * 2 : 8;
        void *items = realloc(v->items, capacity * v->item_size);
        if (!items) {
            fbx_doc_out_of_memory(r);
            return NULL;
        }
        v->items = items;
        v->capacity = capacity;
    }
    void *item = (char *)v->items + v->item_size * v->count++;
    memset(item, 0, v->item_size);
    return item;
}

void *fbx_doc_vec_to_arena(Reader *r, const Vec *v)
{
    if (v->count == 0) return NULL;
    void *copy = fbx_doc_arena_alloc(r->arena, v->count * v->item_size);
    if (!copy) {
        fbx_doc_out_of_memory(r);
        return NULL;
    }
    memcpy(copy, v->items, v->count * v->item_size);
    return copy;
}

int64_t fbx_real_to_integer(double d)
{
    if (!(d > -9.2e18 && d < 9.2e18)) return 0;
    return (int64_t)d;
}

int fbx_real_to_int(double d)
{
    if (!(d > -2147483648.0 && d < 2147483648.0)) return 0;
    return (int)d;
}

/* ---------------------------------------------------------------- public */

bool fbx_document_read(FbxDocument *doc, const void *bytes, size_t size, char *error, size_t error_size)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    memset(doc, 0, sizeof *doc);
    if (error && error_size) error[0] = '\0';
    Reader r = {.bytes = bytes, .size = size, .error = error, .error_size = error_size};
    r.arena = calloc(1, sizeof *r.arena);
    if (!r.arena) return fbx_doc_out_of_memory(&r);
    doc->arena = r.arena;
    bool ok;
    if (size >= sizeof magic - 1 && memcmp(bytes, magic, sizeof magic - 1) == 0) {
        ok = fbx_doc_read_binary(&r, doc);
    } else {
        /* ASCII: text only (a NUL or other control byte in the first KiB means it is not FBX text) */
        size_t probe = size < 1024 ? size : 1024;
        ok = size > 0;
        for (size_t i = 0; i < probe && ok; i++) {
            uint8_t c = r.bytes[i];
            if (c < 32 && c != '\n' && c != '\r' && c != '\t') ok = fbx_doc_fail(&r, "FBX: not an FBX file (neither the binary magic nor text)");
        }
        if (size == 0) fbx_doc_fail(&r, "FBX: empty file");
        if (ok) ok = fbx_doc_read_ascii(&r, doc);
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
    if (size >= 27 && memcmp(bytes, magic, sizeof magic - 1) == 0) return (int)fbx_doc_le_u32((const uint8_t *)bytes + 23);
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
    return fbx_doc_arena_alloc(doc->arena, bytes);
}

/* A record's numbers in order (integer and real values and arrays of them) as reals (integers
 * converted) or as integers (reals through fbx_real_to_integer): what fbx_record_reals /
 * _integers return. */
static const void *record_numbers(FbxDocument *doc, const FbxRecord *record, bool as_integers, size_t *count)
{
    *count = 0;
    if (!record || record->value_count == 0) return NULL;
    const FbxValue *v = record->values;
    if (record->value_count == 1 && v[0].type == (as_integers ? FBX_VALUE_INTEGER_ARRAY : FBX_VALUE_REAL_ARRAY)) {
        *count = v[0].length;   /* one array of the kind asked for: as stored */
        return as_integers ? (const void *)v[0].integers : (const void *)v[0].reals;
    }
    size_t n = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_REAL) n++;
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY) n += v[i].length;
    }
    if (n == 0) return NULL;
    double *reals = as_integers ? NULL : fbx_doc_arena_alloc(doc->arena, n * sizeof *reals);
    int64_t *integers = as_integers ? fbx_doc_arena_alloc(doc->arena, n * sizeof *integers) : NULL;
    if (!reals && !integers) return NULL;
    size_t k = 0;
    for (int i = 0; i < record->value_count; i++) {
        bool array = v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY;
        bool integer = v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_INTEGER_ARRAY;
        if (!array && v[i].type != FBX_VALUE_INTEGER && v[i].type != FBX_VALUE_REAL) continue;
        for (size_t j = 0; j < (array ? v[i].length : 1); j++, k++) {
            int64_t as_int = integer ? (array ? v[i].integers[j] : v[i].integer) : 0;
            double as_real = integer ? 0.0 : array ? v[i].reals[j] : v[i].real;
            if (integers) integers[k] = integer ? as_int : fbx_real_to_integer(as_real);
            else reals[k] = integer ? (double)as_int : as_real;
        }
    }
    *count = n;
    return integers ? (const void *)integers : (const void *)reals;
}

const double *fbx_record_reals(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    return record_numbers(doc, record, false, count);
}

const int64_t *fbx_record_integers(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    return record_numbers(doc, record, true, count);
}
