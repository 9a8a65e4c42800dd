/* fbx_doc_arena.c — the memory an FBX document lives in and the reader's shared state
 * (fbx_doc_arena.h): the arena, one-line errors, the limits on decoded arrays, growable scratch
 * arrays. A leaf: the binary and ASCII readers and fbx_doc.c call it, it calls none of them.
 */
#include "fbx_doc_arena.h"

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

void fbx_doc_arena_free(Arena *arena)
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
