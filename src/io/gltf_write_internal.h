/* gltf_write_internal.h — what the steps of the glTF writer share (gltf_write.c: container, buffer,
 * nodes, meshes, skins, materials; gltf_write_anim.c: clips). Only src/io/gltf_write*.c include it. */
#ifndef SKINVIEW_GLTF_WRITE_INTERNAL_H
#define SKINVIEW_GLTF_WRITE_INTERNAL_H

#include "gltf_write.h"

#include <cjson/cJSON.h>

#include <stdint.h>

/* glTF componentType and bufferView.target values */
enum {
    GW_UNSIGNED_BYTE = 5121, GW_UNSIGNED_SHORT = 5123, GW_UNSIGNED_INT = 5125, GW_FLOAT = 5126,
    GW_ARRAY_BUFFER = 34962, GW_ELEMENT_ARRAY_BUFFER = 34963,
};

/* What a bufferView holds, for EXT_meshopt_compression's mode (and byteStride / target). */
typedef enum GltfViewKind {
    GW_VIEW_DATA,       /* animation keys, inverse bind matrices: ATTRIBUTES, no byteStride */
    GW_VIEW_VERTEX,     /* a vertex attribute: ATTRIBUTES, byteStride = element size */
    GW_VIEW_TRIANGLES,  /* triangle indices: TRIANGLES */
    GW_VIEW_INDICES,    /* line / point indices: INDICES */
} GltfViewKind;

typedef struct GltfWriter {
    const Model             *model;
    const GltfExportOptions *options;
    GltfExportReport        *report;
    cJSON   *root;
    cJSON   *buffer_views, *accessors, *animations;   /* arrays inside root */
    uint8_t *bin;                  /* buffer 0: the data (with meshopt: the compressed streams) */
    size_t   bin_size, bin_capacity;
    size_t   fallback_size;        /* meshopt: byte length of the uncompressed buffer 1 (no data) */
    int      view_count, accessor_count;
    int     *joint_node;           /* [joint_count]: glTF node index of each joint */
    int     *mesh_node;            /* [mesh_count]: glTF node index holding each mesh */
    int      copy_count;           /* joints copied for skins that follow their mesh node (gltf_write.c) */
    int     *copy_joint, *copy_node; /* [copy_count]: the joint and its copy's node: it gets the joint's channels */
    bool     plain_views;          /* the next views go to buffer 0 as they are, even with meshopt (images) */
    bool     failed;               /* out of memory or an encoder failure (error set) */
    char    *error;
    size_t   error_size;
} GltfWriter;

/* false after writing the one-line cause (printf-style) into the writer's error */
bool gltf_writer_fail(GltfWriter *w, const char *format, ...);

/* Appends `size` bytes (count elements of element_size bytes) as one bufferView; returns its index
 * or -1. For index kinds, `indices` are the same values as 32-bit (the meshopt index encoders take
 * those); `data` holds them as element_size-byte integers. */
int gltf_writer_view(GltfWriter *w, const void *data, size_t count, size_t element_size, GltfViewKind kind,
                     const uint32_t *indices);

/* One accessor over a whole view: `components` per element ("SCALAR", "VEC3", ...); min / max of
 * float data when with_bounds (they must be the exact extremes). Returns its index or -1. */
int gltf_writer_accessor(GltfWriter *w, int view, int component_type, int count, const char *type, int components,
                         const float *float_data, bool with_bounds);

/* A float accessor in one call: view + accessor. */
int gltf_writer_floats(GltfWriter *w, const float *data, int count, int components, GltfViewKind kind, bool with_bounds);

/* object.name = name as valid UTF-8 (names from old files may be Latin-1: utf8_copy_valid) */
void gltf_writer_name(cJSON *object, const char *name);

/* Every selected clip as one animation (gltf_write_anim.c). */
bool gltf_write_animations(GltfWriter *w);

#endif
