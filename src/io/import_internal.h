/* import_internal.h — what the Assimp import stages share (src/io only; Assimp types inside).
 *
 * glTF files do not come here: skinview reads them itself (src/io/gltf/, gltf_internal.h).
 * For every other format import_model() (import.c) runs the stages in this order, each in its own file:
 *   1. import_guard.c     the guarded Assimp call: refuse files that would crash or hang
 *                         Assimp, read the scene with skinview's flags, post-process.
 *      import_fbx.c       (before it) binary FBX: a take's edge keys Assimp would drop are kept.
 *   2. import_skeleton.c  the whole node tree as joints (parents first) and the name
 *                         binding rules: which joint a bone or a channel names.
 *   3. import_mesh.c      one Mesh per (node, mesh) reference: vertices, triangles, skin.
 *   4. import_morph.c     morph targets (blend shapes) of each mesh, as deltas, and the
 *                         clips' morph-weight channels (called from stages 3 and 6).
 *   5. import_material.c  materials and their diffuse textures.
 *   6. import_clip.c      clips: channels -> joint tracks, ticks -> seconds.
 *   7. import_collada.c   what Assimp folds away from a Collada skin, read from its XML: the
 *                         <bind_shape_matrix>, which says where the mesh was bound (its N).
 * Conventions applied on the way in (import.c):
 *   - Assimp matrices are row-major (a1..a4 is the first row, a4/b4/c4 the translation);
 *     cglm's mat4 is column-major (m[column][row]): every matrix is transposed,
 *     m[c][r] = ai[r][c].
 *   - aiQuaternion is (w, x, y, z); cglm's versor is (x, y, z, w).
 *   - key times: ticks -> seconds.
 * Name lookups (bone -> joint, channel -> joint) happen during import and never again.
 */
#ifndef SKINVIEW_IMPORT_INTERNAL_H
#define SKINVIEW_IMPORT_INTERNAL_H

#include "import.h"
#include "report.h"

#include <assimp/scene.h>

#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct NameEntry {
    const char *name;             /* points into the aiScene (full, untruncated name) */
    int         joint;
} NameEntry;

/* A vertex that had more than SV_MAX_INFLUENCES weights before LimitBoneWeights cut them
 * (stage 1). The post-processing after the cut (SplitByBoneCount, the weld after it) renumbers
 * vertices, so a vertex is found again by what those steps copy unchanged: its position and
 * normal, bit for bit (stage 3). */
typedef struct InfluenceCut {
    float key[6];                 /* position x, y, z, normal x, y, z (0 when the mesh has none) */
    int   influences;             /* non-zero weights in the file, > SV_MAX_INFLUENCES */
} InfluenceCut;

typedef struct InfluenceCuts {
    int           count;
    InfluenceCut *cuts;           /* sorted by key (memcmp order); NULL when count is 0 */
} InfluenceCuts;

/* The state one import carries from stage to stage. */
typedef struct Importer {
    const struct aiScene *scene;
    const char           *path;
    char                  directory[1024];   /* the model's folder, with a trailing '/' or "" */
    FILE                 *warnings;          /* one line per repair / missing texture; NULL: quiet */
    int                   channels_reordered; /* of the clip being read: key times sorted */
    int                   keys_repeated;      /* of the clip being read: keys dropped for a repeated time */
    Model                *model;
    char                 *error;
    size_t                error_size;
    const struct aiNode **nodes;             /* [joint_count] joint -> aiNode */
    NameEntry            *by_name;           /* [joint_count] sorted by name, then joint */
    int                  *depth;             /* [joint_count] 0 for the root */
    bool                 *channel_taken;     /* [joint_count] joints a channel of the current clip drives */
    char                **texture_keys;      /* [texture_count] full source string of each texture */
    char                **failed_textures;   /* sources already reported missing */
    int                   failed_count;
    InfluenceCuts         influence_cuts;    /* from stage 1, read by stage 3 */
    bool                  hold_end_keys;     /* ImportOptions.hold_end_keys (the FBX stage) */
} Importer;

/* ---- stages (each returns false with im->error set) ---- */

/* 1. import_guard.c: checks the file, reads it with Assimp and post-processes it
 *    (limit 4 weights, split by bone count when max_bones > 0). Fills the stats the
 *    scene alone can tell and `cuts` (the vertices LimitBoneWeights cut; free with
 *    import_influence_cuts_free). Returns NULL with a one-line cause in error[]. */
const struct aiScene *import_read_scene(const char *path, int max_bones, ImportStats *stats, InfluenceCuts *cuts,
                                        char *error, size_t error_size);
/* The same for `size` bytes in memory; `hint` is the format's file extension ("glb", "fbx"). */
const struct aiScene *import_read_scene_from_memory(const void *data, size_t size, const char *hint, int max_bones,
                                                    ImportStats *stats, InfluenceCuts *cuts, char *error,
                                                    size_t error_size);
void import_influence_cuts_free(InfluenceCuts *cuts);
/* How many weights the file gave the vertex at this position and normal if LimitBoneWeights
 * cut some (> SV_MAX_INFLUENCES), else 0. */
int  import_influences_before_cut(const InfluenceCuts *cuts, const struct aiVector3D *position,
                                  const struct aiVector3D *normal);
/* import_fbx.c (part of stage 1): for the bytes of a binary FBX, a copy in which every take's
 * LocalStart / LocalStop is moved onto the keys that lie on it within 32-bit float seconds but
 * outside Assimp's window; NULL when nothing needs it (or not a binary FBX). *widened counts them. */
uint8_t *import_fbx_widen_takes(const void *data, size_t size, int *widened);

/* Whether `path` (or `data` with hint "fbx") is an FBX older than 7.1, which Assimp 5.2.5 refuses. */
bool import_fbx_is_legacy(const char *path, const void *data, size_t size, const char *hint);
/* Such a file, read by skinview's FBX reader instead of Assimp (fbx/fbx_legacy.c builds the Model),
 * its textures loaded, then validated as every import is. False with a one-line error. */
bool import_fbx_legacy(const char *path, const void *data, size_t size, int max_bones, bool hold_end_keys, Model *model, FILE *warnings,
                       char *error, size_t error_size);
/* Calls run(argument) on a thread with a 1 GiB stack (reserved, not committed) and an
 * alternate signal stack; returns when it is done. Falls back to the calling thread. */
void import_run_on_big_stack(void (*run)(void *), void *argument);
/* 2. import_skeleton.c */
bool import_skeleton(Importer *im);
int  import_find_bone_joint(const Importer *im, const char *name, int mesh_joint);
int  import_find_channel_joint(const Importer *im, const struct aiNodeAnim *channel);
/* 3. import_mesh.c */
bool import_meshes(Importer *im);
/* 4. import_morph.c */
/* Copies src's anim meshes into mesh's morph targets as position and normal DELTAS from the
 * stored vertices (called by stage 3 once mesh->positions and vertex_count are set). */
bool import_morph_targets(Importer *im, const struct aiMesh *src, Mesh *mesh);
/* Turns anim's morph-mesh channels into clip->morph_tracks, one per (mesh, target) a channel
 * keys; key times ticks / tps -> seconds; *last_time grows to the last key (stage 6). */
bool import_morph_channels(Importer *im, const struct aiAnimation *anim, double tps, Clip *clip, float *last_time);
/* 5. import_material.c */
bool import_materials(Importer *im);
/* Loads the texture `source` (embedded "*N" or file name when im->scene has it, else a file next
 * to the model) once; its index in model->textures, or -1 with one warning. im->scene may be NULL. */
int import_load_texture(Importer *im, const char *source);
/* 6. import_clip.c */
bool import_clips(Importer *im);
/* 7. import_collada.c: a Collada file (path ending in .dae, or data/size with hint "dae"): each
 *    skinned mesh's bind_matrix N = R * bind_shape_matrix (R: the rest matrix of the root). */
bool import_collada_bind_shape(Importer *im, const char *path, const void *data, size_t size, const char *hint);

/* ---- shared conversions (import.c) ---- */

/* An error (one line into im->error; returns false) and a repair (one line "skinview: warning:
 * PATH: ..." unless quiet, counted in stats.repairs): report.h's two messages on the Importer. */
#define import_fail(im, ...) io_fail((im)->error, (im)->error_size, __VA_ARGS__)
#define import_warn(im, ...) io_warn((im)->warnings, (im)->path, &(im)->model->stats, __VA_ARGS__)
/* Name as valid UTF-8, cut between characters to SV_NAME_MAX. */
void import_copy_name(char dst[SV_NAME_MAX], const struct aiString *src);
bool import_matrix_is_finite(const struct aiMatrix4x4 *m);
/* Row-major aiMatrix4x4 -> column-major cglm mat4. */
void import_matrix_from_assimp(const struct aiMatrix4x4 *m, mat4 out);
/* aiQuaternion (w, x, y, z) -> unit cglm versor (x, y, z, w). */
void import_quat_from_assimp(const struct aiQuaternion *q, versor out);
/* Decodes %XX escapes of a URI; false if there was none. */
bool import_percent_decode(const char *in, char *out, size_t out_size);
/* quote_message() (base/quote.h) on an error in text[size]: control characters and invalid UTF-8
 * escaped, trailing white space cut: every error is one line. */
void import_one_line(char *text, size_t size);

static inline bool import_finite3(float x, float y, float z) { return isfinite(x) && isfinite(y) && isfinite(z); }

#endif
