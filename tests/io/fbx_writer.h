/* fbx_writer.h — a binary FBX writer for test_fbx_doc: records with 32- or 64-bit headers (7400 /
 * 7500), typed values, plain and zlib arrays, Properties70 entries; and the binary test scene. */
#ifndef SKINVIEW_TEST_FBX_WRITER_H
#define SKINVIEW_TEST_FBX_WRITER_H

#include "io/fbx/fbx_scene.h"
#include "testutil.h"

/* ---------------------------------------------------------------- a binary FBX writer */

typedef struct Writer {
    uint8_t *bytes;
    size_t   size, capacity;
    bool     wide;               /* 7500: 64-bit header fields */
    size_t   open[64];           /* header offsets of the records being written */
    size_t   values_start[64];
    int      value_count[64];
    bool     has_children[64];
    int      depth;
} Writer;
void put(Writer *w, const void *data, size_t n);
void put_u32(Writer *w, uint32_t v);
void put_u64(Writer *w, uint64_t v);
void set_field(Writer *w, size_t at, uint64_t v);
void writer_start(Writer *w, int version);
void header_zeros(Writer *w);

/* Values (before any child record): then begin() children, end() closes. */
void begin(Writer *w, const char *name);
void value_done(Writer *w);
void v_string(Writer *w, const char *s, size_t n);
void v_l(Writer *w, int64_t v);
void v_i(Writer *w, int32_t v);
void v_c(Writer *w, char c);
void v_d(Writer *w, double d);

/* An array of `count` elements of `element` bytes each (already little-endian), zlib when `zip`. */
void v_array(Writer *w, char type, const void *data, uint32_t count, size_t element, bool zip);
void end(Writer *w);
void property_p(Writer *w, const char *name, const char *type, const double *v, int n);
#define PACKED_WEIGHTS (2500u | 4999u << 16)   /* right 2500 / 9999, next-left 4999 / 9999 */

/* The binary test scene: a model with a template property, a geometry with a zlib array, a stack,
 * a curve node and a curve of 3 keys (cubic weighted, then linear twice), connections. */
void write_binary_scene(Writer *w, int version, bool zip);

/* ---- what main runs from the other files of the program ---- */
void files(void);

#endif
