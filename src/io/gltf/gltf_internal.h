/* gltf_internal.h — skinview's own glTF 2.0 reader: what its steps share (src/io/gltf only).
 *
 * A .gltf or .glb is read completely and once, with cJSON, straight into the Model (model.h);
 * Assimp never sees it. gltf_import() (gltf_import.c) runs the steps in this order, one file each,
 * each with its rules at its top:
 *   1. gltf_file.c      the file (read once), the GLB container, the JSON, extensionsRequired,
 *                       the buffers (GLB BIN chunk, data: URIs, external files) and bufferViews
 *                       (EXT_meshopt_compression views decoded here).
 *   2. gltf_accessor.c  accessors in every form: component types, normalized, byteStride,
 *                       sparse, no bufferView; every read bounds-checked.
 *   3. gltf_scene.c     the scene's node tree as joints (parents first), rest TRS / matrix.
 *   4. gltf_mesh.c      one Mesh per (node, primitive): vertices, triangles (lists, strips, fans),
 *                       flat normals where missing, morph targets, the node's own skin; Draco.
 *   5. gltf_split.c     --max-bones: meshes with too many bones split into several.
 *   6. gltf_material.c  materials (base colour and the PBR set) and textures (stb_image, WebP).
 *   7. gltf_anim.c      animations -> clips: every interpolation, every path.
 * Conventions: glTF is column-major like cglm (a matrix array is m[column][row]); its quaternions
 * are (x, y, z, w) like cglm's versor; times are seconds already. A glTF node index n is joint
 * joint_of_node[n] (-1: not in the scene).
 */
#ifndef SKINVIEW_GLTF_INTERNAL_H
#define SKINVIEW_GLTF_INTERNAL_H

#include "io/import.h"
#include "io/report.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* glTF componentType values */
#define GLTF_BYTE           5120
#define GLTF_UNSIGNED_BYTE  5121
#define GLTF_SHORT          5122
#define GLTF_UNSIGNED_SHORT 5123
#define GLTF_UNSIGNED_INT   5125
#define GLTF_FLOAT          5126

#define GLTF_MAX_FILE_BYTES   ((size_t)2 << 30)    /* 2 GiB: larger files are refused */
#define GLTF_MAX_ELEMENTS     (1 << 28)            /* accessor count limit */

/* A top-level glTF array as a vector: cJSON's arrays are linked lists (item i costs i steps). */
typedef struct GltfList {
    const cJSON **items;
    int           count;
} GltfList;

/* Item i of the list, or NULL when out of range. */
static inline const cJSON *gltf_get(const GltfList *list, int i)
{
    return i >= 0 && i < list->count ? list->items[i] : NULL;
}

/* One buffer: its bytes (owned, or pointing into the GLB's BIN chunk). */
typedef struct GltfBuffer {
    const uint8_t *bytes;
    size_t         size;
    uint8_t       *owned;        /* freed at the end (NULL when bytes point into the file) */
    bool           loaded;       /* tried already */
    bool           missing;      /* could not be read (the cause is in error) */
} GltfBuffer;

/* One bufferView after loading: where its bytes are. */
typedef struct GltfView {
    const uint8_t *bytes;        /* NULL until resolved */
    size_t         size;
    int            stride;       /* byteStride, 0 = tightly packed */
    uint8_t       *decoded;      /* EXT_meshopt_compression: the decoded bytes (owned) */
    bool           resolved;
} GltfView;

/* The state of one glTF import. */
typedef struct Gltf {
    const char   *path;          /* the model file (NULL: from memory) */
    const char   *source;        /* for messages: path or "(memory).glb" */
    char          directory[1024];
    FILE         *warnings;      /* NULL: quiet */
    Model        *model;
    char         *error;
    size_t        error_size;
    int           max_bones;     /* --max-bones (0: no limit) */
    bool          keep_more_influences; /* ImportOptions.max_influences 8: Mesh.joint_indices_more too */
    bool          keep_image_bytes;     /* ImportOptions.keep_image_bytes: Texture.encoded too */

    uint8_t      *file_bytes;    /* the whole file (owned unless from memory) */
    const uint8_t *file_data;
    size_t        file_size;
    bool          glb;
    bool          version_1;     /* a glTF 1.0 file: not ours (gltf_import() hands it back to Assimp) */
    cJSON        *json;
    const uint8_t *glb_bin;      /* the GLB's BIN chunk (NULL: none) */
    size_t        glb_bin_size;

    const cJSON  *nodes, *meshes, *accessors, *views, *buffers_json, *skins, *materials, *textures, *images,
                 *animations, *samplers_json;
    int           node_count, mesh_count, accessor_count, view_count, buffer_count;
    GltfList      node_list, mesh_list, accessor_list, view_list, buffer_list, skin_list, material_list, texture_list,
                  image_list;
    GltfBuffer   *buffers;
    GltfView     *view_data;
    size_t        bytes_allocated; /* accessor reads so far (bounded: a small file cannot ask for gigabytes) */

    int          *joint_of_node; /* [node_count] */
    int          *node_of_joint; /* [joint_count] (-1 for the synthetic "ROOT") */
    int          *texture_of_image; /* [image count] Model texture index, -1 failed, -2 not tried */
    int           image_count;
} Gltf;

/* ---- gltf_import.c ---- */
/* An error (one line into g->error; returns false) and a repair (one warning line, counted in
 * stats.repairs): report.h's two messages on the glTF reader's state. */
#define gltf_fail(g, ...) io_fail((g)->error, (g)->error_size, __VA_ARGS__)
#define gltf_warn(g, ...) io_warn((g)->warnings, (g)->source, &(g)->model->stats, __VA_ARGS__)
/* How many times a glTF import read its model file since the program started (tests). */
long gltf_file_reads(void);

/* ---- gltf_file.c ---- */
bool gltf_open(Gltf *g);                 /* file read once, GLB / JSON parsed, extensions checked */
void gltf_close(Gltf *g);
/* The bytes of bufferView `index` (decoded when compressed); NULL with g->error set. */
const GltfView *gltf_view(Gltf *g, int index);
/* The bytes of buffer `index`; NULL with g->error set. */
const GltfBuffer *gltf_buffer(Gltf *g, int index);
/* Reads an external file next to the model (percent-decoded if needed), NULL if it cannot. */
uint8_t *gltf_read_external(Gltf *g, const char *uri, size_t *size);
/* data: URI -> bytes (malloc), NULL if it is not base64 data. */
uint8_t *gltf_data_uri(const char *uri, size_t *size);

/* ---- small JSON helpers (gltf_file.c) ---- */
const cJSON *gltf_item(const cJSON *object, const char *key);
const cJSON *gltf_at(const cJSON *array, int index);     /* NULL when out of range or not an array */
int          gltf_int(const cJSON *object, const char *key, int fallback);  /* integers only */
double       gltf_number(const cJSON *object, const char *key, double fallback);
const char  *gltf_string(const cJSON *object, const char *key);           /* NULL when absent */
const cJSON *gltf_extension(const cJSON *object, const char *name);
/* The array itself, or NULL when it is not one (for cJSON_ArrayForEach); the same for objects. */
static inline const cJSON *gltf_list(const cJSON *item) { return cJSON_IsArray(item) ? item : NULL; }
static inline const cJSON *gltf_members(const cJSON *item) { return cJSON_IsObject(item) ? item : NULL; }
/* Reads up to n numbers of array `key` into out; returns how many were numbers. */
int          gltf_numbers(const cJSON *object, const char *key, float *out, int n);

/* ---- gltf_accessor.c ---- */
/* Components per element of an accessor type ("SCALAR" 1 ... "MAT4" 16), 0 if unknown. */
int  gltf_type_components(const char *type);
/* Reads accessor `index` as floats: count * components values (malloc) in *out, with the spec's
 * normalized rule for normalized integers and the plain integer value otherwise. `components`
 * must match the accessor's type (0: any, *components_out gets it). False with g->error set. */
bool gltf_read_floats(Gltf *g, int index, int components, float **out, int *count, int *components_out);
/* Reads accessor `index` (an integer SCALAR or VECn) as unsigned integers. */
bool gltf_read_uints(Gltf *g, int index, int components, uint32_t **out, int *count);
/* componentType and normalized of accessor `index` (-1 if there is none). */
int  gltf_accessor_component_type(Gltf *g, int index, bool *normalized);
int  gltf_accessor_count(Gltf *g, int index);
/* The spec's normalized-integer -> float rule for one integer value of componentType type. */
float gltf_normalize(double value, int component_type);

/* ---- the steps ---- */
bool gltf_scene(Gltf *g);
bool gltf_meshes(Gltf *g);
bool gltf_split_by_bones(Gltf *g);
bool gltf_materials(Gltf *g);
bool gltf_animations(Gltf *g);

/* Deduplicating clip names, shared with the Assimp path (import_clip.c rule). */

#endif
