/* fbx_apply.h — what the FBX file says, put into a Model already built (stage 8 of the import).
 *
 * After Assimp (or the legacy builder) has made the Model of an FBX file, this stage reads the
 * file's own object graph (fbx_scene.h) and overwrites what Assimp 5.2.5 gets wrong:
 *   - each joint's rest transform, by the FBX formula with pivots, offsets, pre/post rotation,
 *     rotation order and InheritType (fbx_transform.h), in double precision;
 *   - geometric transforms (geometry only: applied to the mesh, never to child joints);
 *   - the clips: one per AnimationStack, its curves evaluated exactly (fbx_curve.h) and resampled
 *     into LINEAR keys at every frame of the file's frame rate and at every key time;
 *   - skin bind matrices from the clusters (TransformLink / Transform), else the bind pose, else
 *     the rest pose.
 * How joints and meshes are matched to the FBX Models is in fbx_apply.c (fbx_match_joints).
 */
#ifndef SKINVIEW_FBX_APPLY_H
#define SKINVIEW_FBX_APPLY_H

#include "fbx_scene.h"
#include "io/import_internal.h"

/* The whole stage. `bytes` / `size`: the FBX file. A file the FBX reader cannot read leaves the
 * Model as Assimp made it (one warning). False only when out of memory (error set). */
bool import_fbx_apply(Importer *im, const void *bytes, size_t size);

#endif
