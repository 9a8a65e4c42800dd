/* gltf_write.h — skinview's Model written as glTF 2.0 (--export-gltf): what skinview shows, as a file
 * any glTF viewer shows the same way. No Assimp (its exporter loses inverse bind matrices and TRS order,
 * assimp #5495 / #5526): the JSON with cJSON, one binary buffer, meshoptimizer for EXT_meshopt_compression.
 *
 * What maps how (docs/export.md tells the longer story):
 *   - every joint -> one node with its rest T, R, S (Skeleton.rest_trs), in joint order, so skinview's own
 *     hierarchy (FBX pivots, pre/post rotation, inherit types and geometric transforms already made plain
 *     TRS joints by the FBX reader) is what glTF composes;
 *   - every Mesh -> one glTF mesh with one primitive on a node of its own: skinned meshes on root nodes
 *     with a skin (joints = the mesh's bone list, inverseBindMatrices = Mesh.inverse_bind: glTF's
 *     jointWorld * IBM is skinview's palette model[joint] * inverse_bind), static meshes on a child of
 *     their joint (identity), as skinview draws them with model[node_joint];
 *   - every clip -> one animation: the JointTracks' keys as they are (skinview's LINEAR / STEP /
 *     CUBICSPLINE are glTF's; FBX curves were resampled to keys at import), times from 0 (Clip.start
 *     subtracted); morph weights one sampler per mesh node over all its targets;
 *   - a mesh skinview skins otherwise than by LBS (dual quaternions, blended per vertex, rigid: options->skinning)
 *     -> the same skin plus corrective morph targets, one per key time where the pose differs from LBS, whose
 *     weights are 1 at their key and fall linearly to 0 at the neighbouring keys: glTF's LBS shows skinview's
 *     pose exactly at every key, the linear interpolation of the correction between keys (gltf_write_dq.c);
 *   - materials as the renderer draws them; textures as the file's own PNG / JPEG bytes when the import kept them
 *     (Texture.encoded), else PNG from the decoded RGBA the renderer uses.
 * Written atomically (atomic_file.h): a failure leaves nothing behind. */
#ifndef SKINVIEW_GLTF_WRITE_H
#define SKINVIEW_GLTF_WRITE_H

#include "../anim/model.h"
#include "../anim/skin_dq.h"   /* SkinningMethod */

#include <stdbool.h>
#include <stddef.h>

typedef struct GltfExportOptions {
    const bool *clip_selected;   /* [clip_count]: which clips to write; NULL: all */
    float       fps;             /* > 0: every joint track resampled at fps + its key times, written LINEAR;
                                    0: the tracks as they are (exact) */
    bool        meshopt;         /* EXT_meshopt_compression on every bufferView */
    int         max_influences;  /* 8: JOINTS_1 / WEIGHTS_1 for meshes that kept a 5th influence (Mesh.weights_more,
                                    ImportOptions.max_influences 8); else the 4 the renderer draws */
    SkinningMethod skinning;     /* how skinview shows the skinned meshes: SKINNING_GPU_DQ (or SKINNING_RIGID) adds
                                    corrective morph targets so that glTF's LBS shows that pose at every written key
                                    (gltf_write_dq.c); SKINNING_GPU_LBS / SKINNING_CPU_LBS (0, the default): plain LBS */
    size_t      corrective_max_bytes; /* a mesh's corrections may take at most this; 0: GLTF_CORRECTIVE_MAX_BYTES */
    /* called after each clip is written (may be NULL) */
    void      (*progress)(void *user, int done, int total);
    void       *progress_user;
} GltfExportOptions;

/* What was written, and what could not be said exactly. */
typedef struct GltfExportReport {
    int    nodes, meshes, skins, materials, textures, animations, channels;
    long   keys;                 /* sampler input keys over every channel */
    int    helper_nodes;         /* nodes that are no joint or mesh: a common root, duplicate-joint helpers */
    int   *clip_animation;       /* [clip_count] (caller-owned, may be NULL): animation index of each clip, -1 not written */
    int   *mesh_order;           /* [mesh_count] (caller-owned, may be NULL): rank of each mesh among mesh nodes in
                                    node order, the order skinview's glTF reader makes its meshes */
    int    clips_without_keys;   /* selected clips with no channel (glTF needs one): not written */
    int    morph_samplers_resampled; /* weight samplers whose targets mixed interpolations: resampled LINEAR */
    int    meshes_eight_influences; /* meshes written with JOINTS_1 / WEIGHTS_1 (--max-influences 8) */
    int    meshes_lbs_for_dq;    /* meshes the file skins by dual quaternions / blend written as plain LBS (skinning LBS
                                    asked, or over the corrective cap) */
    int    meshes_corrected;     /* skinned meshes written with corrective morph targets (options->skinning) */
    int    meshes_over_cap;      /* of meshes_lbs_for_dq: their correctives would pass GLTF_CORRECTIVE_MAX_BYTES */
    size_t over_cap_bytes;       /* the largest such mesh's corrective bytes */
    int    corrective_targets;   /* corrective morph targets written, over every mesh */
    long   corrective_keys;      /* (mesh, clip key) pairs whose pose differs from LBS (the rest pose counted as one) */
    size_t corrective_bytes;     /* their sparse data and weight keys, bytes */
    long   corrective_singular;  /* (vertex, key) pairs left uncorrected: the blended matrix A near-singular */
    int    meshes_follow_node;   /* FBX (Maya) meshes whose skin follows the mesh node: written with a copy of their
                                    joints under a frame node below the mesh node (gltf_write_nodes.c) */
    int    sheared_joints;       /* joints whose rest matrix is no T*R*S (shear): written as the nearest TRS */
    float  worst_shear;          /* largest |rest_local - TRS| element over those, scene units */
    size_t bytes;                /* size of the main file (GLB or .gltf + .bin + images) */
    int    images_copied;        /* images written as the file's own PNG / JPEG bytes (Texture.encoded) */
    int    images_encoded;       /* images encoded as PNG from the decoded RGBA (another format, or made at import) */
} GltfExportReport;

/* The one place units and axes change: the matrix from the model's scene space to glTF's (+Y up, +Z front,
 * +X right seen from the front, metres): C = metres_per_unit * A, where A is the signed permutation taking
 * the file's right / up / front axes (Model.axes) to +X / +Y / +Z. The export puts C on one root node
 * ("skinview_axes_and_unit") above everything else. Identity when the file states no axes; returns false
 * when C is the identity (no node written). */
bool gltf_export_axes(const Model *model, mat4 to_gltf);

/* Writes `model` to `path` (.glb: one binary file, textures embedded; .gltf: JSON with NAME.bin and
 * NAME_imageN.png / .jpg beside it). False with a one-line cause in error (nothing is left behind). */
/* Corrective morph targets of one mesh may take at most this many bytes (sparse deltas and the weight keys they
 * add); a mesh past it is written as plain LBS, with the reason in the report. */
#define GLTF_CORRECTIVE_MAX_BYTES ((size_t)64 << 20)

/* Between two written keys glTF shows LBS plus the linear interpolation of their corrections; where that is, halfway,
 * more than 5e-5 of the diagonal from skinview's pose the export adds a corrective key in the middle, and so on, at
 * most this many times (2^6 = 64 corrective keys per key interval at most; 4 left Male_Casual's RunningJump at 1.02e-4 with --skinning dq). */
#define GLTF_CORRECTIVE_DEPTH 6

bool gltf_export(const Model *model, const char *path, const GltfExportOptions *options, GltfExportReport *report,
                 char *error, size_t error_size);

#endif
