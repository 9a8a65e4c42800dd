/* fbx_blend.h — FBX blend shapes (with in-between targets) as skinview morph targets.
 *
 * In the file (7.x): Geometry <- Deformer "BlendShape" <- SubDeformer "BlendShapeChannel"
 * (DeformPercent: the channel's value in percent, stored and animated; FullWeights: one percent per
 * target — Blender writes one per Shape vertex instead: per-vertex factors on the deltas, its
 * shape key's vertex-group mask, told apart by the count) <- Geometry "Shape" objects (Indexes: control points; Vertices and Normals: deltas at
 * those control points). A channel with one target is an ordinary blend shape; with more, the
 * targets after the first are in-betweens.
 *
 * How a channel becomes morph targets: each Shape is one Model morph target (a delta per Mesh
 * vertex, taken from the vertex's control point), and the channel's value v maps to the targets'
 * weights by fbx_blend_target_weights, the FBX SDK's rule generalised to negative full weights:
 * the targets, sorted by full weight w_1 < … < w_n, and the undeformed mesh at 0 are knots of a
 * piecewise-linear path; at v between two neighbouring knots a and b (a < v <= b) the two
 * neighbours share the weight (v - a) / (b - a) going to b's target and the rest to a's (the
 * undeformed knot has no target). With all w_i > 0 that is: below w_1 target 1 has v / w_1;
 * between w_i and w_i+1 targets i and i+1 are blended linearly. Past the end knots the end
 * segment is extended linearly (v = 200 with one target at 100: weight 2).
 *
 * The map is piecewise linear in v, so sampling the channel's curve at a clip's frames and
 * writing the per-target weights there as linear keys is exact at those frames (between frames it
 * differs only where v crosses a knot inside a frame interval).
 */
#ifndef SKINVIEW_FBX_BLEND_H
#define SKINVIEW_FBX_BLEND_H

#include "anim/model.h"
#include "fbx_scene.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct FbxBlendChannel {
    int     channel_object;   /* the BlendShapeChannel (its DeformPercent is what curves animate) */
    int     first_target;     /* its targets: the mesh's morph targets first_target … + target_count - 1 */
    int     target_count;     /* in increasing full weight */
    double *full_weights;     /* [target_count] percent */
    int    *shape_object;     /* [target_count] the Shape geometry of each target */
    double  deform_percent;   /* the stored value (the weight at rest, without a clip) */
} FbxBlendChannel;

typedef struct FbxBlendMesh {
    int              channel_count;
    FbxBlendChannel *channels;
} FbxBlendMesh;

/* The weights of a channel's targets at channel value `percent` (the rule above): weights[i] for
 * the target with full weight full_weights[i] (increasing, percent). */
void fbx_blend_target_weights(const double *full_weights, int target_count, double percent, float *weights);

/* Adds the blend shapes of Geometry object `geometry` to `mesh` as morph targets, after any it has:
 * a position (and normal) delta per vertex from control_point[vertex] (-1: none), named after the
 * channel (one target) or after each Shape (a channel with in-betweens), default weights from each
 * channel's stored DeformPercent. A Shape's optional per-index Weights scale its deltas. `out` lists the channels
 * (free with fbx_blend_mesh_free). A geometry without blend shapes adds nothing and returns true.
 * False with a one-line cause when out of memory or the shapes are damaged past use. */
bool fbx_blend_add_targets(const FbxScene *scene, int geometry, Mesh *mesh, const int *control_point, FbxBlendMesh *out,
                           char *error, size_t error_size);

void fbx_blend_mesh_free(FbxBlendMesh *blend);

#endif
