/* fbx_doc_arena.h — what the FBX document reader's files (fbx_doc*.c) share: the arena the
 * document lives in, the reader's state, a growable scratch array, and the limits.
 *
 *   fbx_doc_read.c     the reader's entry: picks the binary or the ASCII form (read, version)
 *   fbx_doc_binary.c   the binary form: headers, records, values, zlib arrays
 *   fbx_doc_ascii.c    the ASCII form: records, values, arrays, comments
 *   fbx_doc_arena.c    the arena, errors and limits, scratch arrays (a leaf)
 *   fbx_doc.c          the records once read (children, numbers) and the document's release
 */
#ifndef SKINVIEW_FBX_DOC_ARENA_H
#define SKINVIEW_FBX_DOC_ARENA_H
#include "io/report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FBX_MAX_DEPTH 64
#define FBX_MAX_INFLATE_RATIO 1100u               /* deflate's best is about 1032:1 */
#define FBX_MAX_ARRAY_BYTES ((uint64_t)1 << 30)  /* decoded array bytes, all arrays together */
#define FBX_MAX_ARENA_BYTES ((uint64_t)3 << 30)  /* everything the document holds */
#define FBX_PLAIN_LIST_TO_ARRAY 64

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t             used, size;
    max_align_t        data[];
} ArenaBlock;

typedef struct Arena {
    ArenaBlock *blocks;
    uint64_t    total;
} Arena;

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

/* A growable array of fixed-size items (malloc'd scratch; copied into the arena when done). */
typedef struct Vec {
    void  *items;
    size_t count, capacity, item_size;
} Vec;

/* fbx_doc_arena.c */
void *fbx_doc_arena_alloc(Arena *arena, size_t bytes);
void fbx_doc_arena_free(Arena *arena);   /* the arena itself too */
char *fbx_doc_arena_string(Arena *arena, const char *s, size_t length);
bool fbx_doc_fail(Reader *r, const char *format, ...);
bool fbx_doc_out_of_memory(Reader *r);
bool fbx_doc_take_array_bytes(Reader *r, uint64_t bytes);
void *fbx_doc_vec_push(Reader *r, Vec *v);
void *fbx_doc_vec_to_arena(Reader *r, const Vec *v);

#endif
