/* import_internal.h — what the Assimp import stages share (src/io only; Assimp types inside).
 *
 * glTF files do not come here: skinview reads them itself (src/io/gltf/, gltf_internal.h).
 * For every other format import_model() (import.c) runs the stages in this order, each in its own file
 * (the state they pass along and what they share: import_common.h):
 *   0. import.c           the file read once: every stage below works on those bytes.
 *   1. import_assimp.c    the Assimp call: refuse files that would crash or hang Assimp, read
 *                         the scene with skinview's flags, post-process (within the crash
 *                         guard of import_guard.c: memory budget, big stack, signals, watchdog).
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
 *   8. fbx/fbx_apply*.c   an FBX file's own transforms, clips and skins, read by skinview's FBX
 *                         reader from the same bytes (fbx/fbx_apply.h).
 * Conventions applied on the way in (import_common.c):
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
#include "import_common.h"
#include "report.h"

#include <assimp/scene.h>

#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- stages (each returns false with im->error set) ---- */

/* 1. import_assimp.c: checks the `size` bytes at `data` (the file at `path`; or, path NULL, bytes
 *    whose format `hint` names by its extension: "glb", "fbx"), reads them with Assimp and
 *    post-processes them (limit 4 weights, or max_influences when that is 8; split by bone count
 *    when max_bones > 0). Fills the stats the scene alone can tell and `cuts` (the vertices
 *    LimitBoneWeights cut; free with import_influence_cuts_free). Returns NULL with a one-line cause
 *    in error[]. */
const struct aiScene *import_read_scene(const char *path, const void *data, size_t size, const char *hint,
                                        int max_bones, int max_influences, ImportStats *stats, InfluenceCuts *cuts,
                                        char *error, size_t error_size);
void import_influence_cuts_free(InfluenceCuts *cuts);
/* How many weights the file gave the vertex at this position and normal if LimitBoneWeights
 * cut some (> SV_MAX_INFLUENCES), else 0. */
int  import_influences_before_cut(const InfluenceCuts *cuts, const struct aiVector3D *position,
                                  const struct aiVector3D *normal);
/* import_fbx.c (part of stage 1): for the bytes of a binary FBX, a copy in which every take's
 * LocalStart / LocalStop is moved onto the keys that lie on it within 32-bit float seconds but
 * outside Assimp's window; NULL when nothing needs it (or not a binary FBX). *widened counts them. */
uint8_t *import_fbx_widen_takes(const void *data, size_t size, int *widened);

/* Whether the `size` bytes at `data` of an FBX file are an FBX older than 7.1, which Assimp 5.2.5 refuses
 * (its version, in the first 64 KiB). */
bool import_fbx_is_legacy(const void *data, size_t size);
/* Such a file (its bytes; `path` names it and finds its textures, NULL: from memory), read by
 * skinview's FBX reader instead of Assimp (fbx/fbx_legacy.c builds the Model), its textures loaded,
 * then validated as every import is; max_influences 8 keeps each vertex's 5th..8th influences too
 * (ImportOptions.max_influences). False with a one-line error. */
bool import_fbx_legacy(const char *path, const void *data, size_t size, int max_bones, int max_influences, bool hold_end_keys,
                       Model *model, FILE *warnings, char *error, size_t error_size);
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
/* 7. import_collada.c: a Collada file (path ending in .dae, or with hint "dae"; its bytes at
 *    data/size): each skinned mesh's bind_matrix N = R * bind_shape_matrix (R: the rest matrix of the root). */
bool import_collada_bind_shape(Importer *im, const char *path, const void *data, size_t size, const char *hint);

#endif
