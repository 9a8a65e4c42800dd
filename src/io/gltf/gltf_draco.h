/* gltf_draco.h — KHR_draco_mesh_compression: a Draco-compressed primitive decoded into plain arrays.
 *
 * A primitive with extensions.KHR_draco_mesh_compression stores its indices and the attributes the
 * extension lists (name -> Draco unique id) in one Draco bitstream (the bufferView it names). The
 * primitive's accessors then give only count, type, componentType and normalized; their values are
 * the decoded ones, in Draco's point order (point i is vertex i; indices refer to points).
 * Decoding uses Debian's libdraco (libdraco-dev, C++), behind these C functions in one translation
 * unit, gltf_draco.cpp; every C++ exception stays inside it.
 */
#ifndef SKINVIEW_GLTF_DRACO_H
#define SKINVIEW_GLTF_DRACO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One decoded attribute: `components` floats per vertex, vertex_count vertices (values[v * components + c]).
 * Values are the attribute's stored values converted to float: floats as they are (positions Draco
 * quantized come back dequantized, as Draco gives them), integers as their integer value (a
 * normalized accessor's caller divides by the type's maximum itself). */
typedef struct GltfDracoAttribute {
    int unique_id;     /* the Draco unique id it was asked for (the extension's attributes map) */
    int components;    /* values per vertex, as the bitstream stores them (1..4 for glTF; 16 allowed) */
    float *values;     /* vertex_count * components, malloc'd */
} GltfDracoAttribute;

/* A decoded triangle mesh. */
typedef struct GltfDracoMesh {
    int vertex_count;                /* Draco points */
    int index_count;                 /* 3 per triangle */
    uint32_t *indices;               /* index_count, each < vertex_count, malloc'd */
    int attribute_count;             /* = id_count of the call */
    GltfDracoAttribute *attributes;  /* one per requested unique id, in the order asked */
} GltfDracoMesh;

/* Decodes the Draco bitstream `data` (size bytes) as a triangle mesh and extracts the attributes
 * whose unique ids are unique_ids[0 .. id_count-1]. On success fills *out (free it with
 * gltf_draco_free) and returns true. Returns false with one line in `error` (no newline) when the
 * bitstream is damaged, is a point cloud, lacks a requested id, or memory runs out; *out is then
 * zeroed and owns nothing. Never throws. */
bool gltf_draco_decode(const void *data, size_t size, const int *unique_ids, int id_count, GltfDracoMesh *out,
                       char *error, size_t error_size);

/* Frees what gltf_draco_decode allocated and zeroes *mesh (NULL or a zeroed mesh: nothing to do). */
void gltf_draco_free(GltfDracoMesh *mesh);

#ifdef __cplusplus
}
#endif

#endif
