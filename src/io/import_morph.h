/* import_morph.h — the morph-target step of the importer (src/io only; sees Assimp).
 *
 * Called from the mesh step (one aiMesh -> one Mesh) and the clip step (one aiAnimation ->
 * one Clip). See import_morph.c for the rules. */
#ifndef SKINVIEW_IMPORT_MORPH_H
#define SKINVIEW_IMPORT_MORPH_H

#include "../anim/model.h"

#include <assimp/scene.h>
#include <stddef.h>

/* Copies src's anim meshes into mesh's morph targets as position and normal DELTAS from the
 * stored vertices (mesh->positions and vertex_count must be set). default_weights_from_file:
 * take aiAnimMesh::mWeight as the target's default weight (glTF); otherwise 0 (see the .c).
 * False with a one-line cause in error on a broken file or out of memory. */
bool import_morph_targets(const struct aiMesh *src, Mesh *mesh, bool default_weights_from_file, char *error,
                          size_t error_size);

/* Turns anim's morph-mesh channels into clip->morph_tracks: one track per (mesh, target) the
 * channel keys. A channel names the node that holds the meshes (joint_nodes[j] is joint j's
 * aiNode); every mesh on that node with morph targets follows it. Key times become seconds
 * (ticks / ticks_per_second); *last_time grows to the last key. Channels that match no mesh
 * with targets are counted in *channels_unmatched. False with a cause in error on a broken file. */
bool import_morph_channels(const struct aiAnimation *anim, double ticks_per_second, const Model *model,
                           const struct aiNode *const *joint_nodes, Clip *clip, float *last_time,
                           int *channels_unmatched, char *error, size_t error_size);

#endif
