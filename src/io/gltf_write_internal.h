/* gltf_write_internal.h — what the steps of the glTF writer share: gltf_export.c (gltf_export, the container)
 * calls gltf_write_nodes.c, gltf_write_mesh.c, gltf_write_material.c and gltf_write_anim.c, which all call
 * gltf_write_buffer.c (the leaf: it calls none of them). Only src/io/gltf_write*.c include it. */
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

struct GltfCorrectives;

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
    int      copy_count;           /* joints copied for skins that follow their mesh node (gltf_write_nodes.c) */
    int     *copy_joint, *copy_node; /* [copy_count]: the joint and its copy's node: it gets the joint's channels */
    struct GltfCorrectives *correctives; /* corrective morph targets of meshes skinned otherwise than by LBS
                                            (gltf_write_dq.c), NULL: none */
    bool     plain_views;          /* the next views go to buffer 0 as they are, even with meshopt (images) */
    bool     failed;               /* out of memory or an encoder failure (error set) */
    char    *error;
    size_t   error_size;
} GltfWriter;

/* ---- gltf_write_buffer.c: the leaf helpers ---- */

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

/* A float accessor whose elements are zero but for `nonzero` of them (glTF sparse accessor: no bufferView, the
 * indices (increasing) and their `components` floats each in two views); min / max over every element, the
 * zeros included, when with_bounds. Returns its index or -1. */
int gltf_writer_sparse_floats(GltfWriter *w, int count, int components, int nonzero, const uint32_t *indices,
                              const float *values, bool with_bounds);

/* A float accessor with no data: `count` zero elements (min / max 0 when with_bounds). */
int gltf_writer_zero_floats(GltfWriter *w, int count, int components, bool with_bounds);

/* A float accessor in one call: view + accessor. */
int gltf_writer_floats(GltfWriter *w, const float *data, int count, int components, GltfViewKind kind, bool with_bounds);

/* object.name = name as valid UTF-8 (names from old files may be Latin-1: utf8_copy_valid) */
void gltf_writer_name(cJSON *object, const char *name);

/* pads buffer 0 to a multiple of 4 bytes */
void gltf_writer_align(GltfWriter *w);

/* One vertex's `slots` (joint, weight) pairs (4, or 8 with --max-influences 8) as glTF wants them: duplicates
 * merged, zero slots on joint 0, the float sum 1 (gltf_write_buffer.c). */
void gltf_writer_clean_influences(const uint16_t *joints_in, const float *weights_in, int slots, uint16_t *joints,
                                  float *weights);

/* How many influence slots mesh `mesh` is written with: 8 with --max-influences 8 and a 5th influence kept, else 4. */
int gltf_writer_influence_slots(const GltfWriter *w, const Mesh *mesh);

/* The --fps grid plus `key_times` (file time, sorted), from 0 to the clip's duration, sorted (gltf_write_buffer.c). */
int gltf_writer_resample_times(const Clip *clip, const float *key_times, int key_count, float fps, float *out,
                               int capacity);

/* ---- gltf_write_nodes.c: the node tree ---- */

typedef enum {
    NODE_JOINT, NODE_COMMON_ROOT, NODE_STATIC_MESH, NODE_SKINNED_MESH,
    NODE_JOINT_COPY,       /* identity child of a joint: a second skin entry of the same joint */
    NODE_FOLLOW_FRAME,     /* child of a follow-node mesh's node with T, R, S of skin_bind_node_inverse */
    NODE_FOLLOW_JOINT,     /* a joint copied under a follow frame, with the joint's rest and channels */
    NODE_AXES,             /* the root that converts the file's axes and unit to glTF's (gltf_export_axes) */
} NodeKind;

typedef struct BuildNode {
    NodeKind kind;
    int      parent;       /* build index, -1: a scene root */
    int      item;         /* joint (JOINT, JOINT_COPY) or mesh (the mesh kinds) */
    int      mesh;         /* JOINT: the static mesh the joint's own node carries (the file's object), -1 none */
    int      final;        /* index in the file */
    int      first_child, next_sibling, last_child;
} BuildNode;

typedef struct NodeTree {
    BuildNode *nodes;
    int        count;
    int       *skin_joint_node;   /* per skinned mesh bone, in mesh order: build index of its joint node */
    int       *skin_offset;       /* [mesh_count]: first entry of mesh m in skin_joint_node */
    int      **follow_copy;       /* [mesh_count]: a follow-node mesh's joint copies (build index per joint, -1), else NULL */
} NodeTree;

/* a skinned mesh as glTF writes it: skinned, with bones */
static inline bool mesh_is_skinned(const Mesh *mesh) { return mesh->skinned && mesh->bone_count > 0; }

/* The tree of every node the export writes (joints, mesh nodes, helpers), numbered depth-first pre-order; false
 * with the cause set. Free with gltf_writer_tree_free. */
bool gltf_writer_build_tree(GltfWriter *w, NodeTree *t);
void gltf_writer_tree_free(NodeTree *t, int mesh_count);

/* root.nodes and root.scenes from the tree (mesh_index / skin_index: each Mesh's glTF mesh and skin) */
bool gltf_writer_nodes(GltfWriter *w, NodeTree *t, const int *mesh_index, const int *skin_index);

/* ---- gltf_write_mesh.c ---- */

/* root.meshes and root.skins; mesh_index / skin_index [mesh_count] out (-1: no skin) */
bool gltf_writer_meshes_and_skins(GltfWriter *w, const NodeTree *t, int *mesh_index, int *skin_index);

/* ---- gltf_write_material.c ---- */

typedef struct ImageFiles {
    char   (*paths)[4096];     /* .gltf: the image files written beside it (removed on failure) */
    int      count;
} ImageFiles;

/* root.materials, textures, images, samplers (glb: images in the buffer; else files beside `path`, listed in
 * files); extension names go to extensions_used */
bool gltf_writer_materials(GltfWriter *w, bool glb, const char *path, ImageFiles *files, cJSON *extensions_used);

/* ---- gltf_write_dq.c: corrective morph targets for DQ / blended / rigid skinning ---- */

/* One corrective target: a sparse bind-space delta (vertices with none left out). */
typedef struct CorrectiveTarget {
    int       count;          /* vertices listed */
    uint32_t *vertices;       /* [count], increasing */
    float    *positions;      /* [3 * count] position deltas, mesh (bind) space */
    float    *normals;        /* [3 * count] normal deltas, NULL when the mesh has no normals */
    char      name[SV_NAME_MAX + 40];   /* "skinview_dq_CLIP_K" ("skinview_dq_rest": the rest pose) */
} CorrectiveTarget;

typedef struct MeshCorrectives {
    int               count;      /* corrective targets; they follow the mesh's own morph_target_count */
    CorrectiveTarget *targets;
    int               rest;       /* the rest pose's target (default weight 1, 0 in every clip), -1: none */
} MeshCorrectives;

typedef struct GltfCorrectives {
    MeshCorrectives *meshes;      /* [mesh_count] */
    MorphTrack     **tracks;      /* [clip_count]: each clip's corrective weight tracks (LINEAR, target indices
                                     counted after the mesh's own targets), file time */
    int             *track_count; /* [clip_count] */
} GltfCorrectives;

/* With options->skinning other than LBS: w->correctives for every skinned mesh whose skinview pose differs from
 * LBS (the report's counts set). False with the cause set (out of memory). */
bool gltf_writer_correctives(GltfWriter *w);
void gltf_writer_correctives_free(GltfWriter *w);

/* The mesh's targets as written: its own morph targets, then its corrective targets (gltf_write_buffer.c). */
int gltf_writer_target_count(const GltfWriter *w, int mesh);

/* ---- gltf_write_anim.c ---- */

/* Every selected clip as one animation. */
bool gltf_write_animations(GltfWriter *w);

#endif
