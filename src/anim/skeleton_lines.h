/* skeleton_lines.h — the skeleton as line segments, for the viewer's skeleton overlay (key B).
 *
 * Plain C + cglm, no allocation, like the rest of src/anim. Two steps:
 *
 *   skeleton_line_joints()  once per model:  which joints j get a segment parent[j] -> j
 *   skeleton_lines_write()  every frame:     those segments' endpoints from the joint matrices
 *
 * Which joints (the rule): the skeleton is the part of the node tree that holds the bones
 * (trap 4 in docs/skinning.md), not the scene root above it nor the mesh nodes beside it.
 *   bone           = a joint some mesh is skinned to (its bone list), except the mesh's own node
 *                    that the importer adds as a rigid bone for unweighted vertices
 *   skeleton joint = a bone, or a joint with a bone above it AND a bone below it (the helper
 *                    nodes between bones, e.g. FBX pivots) — so nothing above the topmost bone
 *   end site       = a leaf joint (no children) that holds no mesh (Mixamo's HeadTop_End,
 *                    Blender's *_end: they show the length of the last bone of a chain)
 *   segment parent[j] -> j  when parent[j] is a skeleton joint and j is a skeleton joint or an
 *                    end site.
 * So the topmost bone has no segment of its own (no line from the world origin or from an
 * "Armature" node), and mesh nodes, cameras and lights outside the bone tree draw nothing.
 */
#ifndef SKINVIEW_SKELETON_LINES_H
#define SKINVIEW_SKELETON_LINES_H

#include "model.h"

/* Writes the joints j whose segment parent[j] -> j is drawn (the rule above) into
 * out_joints, in joint order; returns how many (0 for a model without bones).
 * out_joints must hold model->skeleton.joint_count ints (it is also the scratch space). */
int skeleton_line_joints(const Model *model, int *out_joints);

/* Segment s runs from the origin of joint parent[line_joints[s]] to the origin of joint
 * line_joints[s], both in model (scene) space (e.g. Animator.joint_model):
 *   out_endpoints[2s] = joint_model[parent[j]] * (0,0,0,1),  out_endpoints[2s+1] = joint_model[j] * (0,0,0,1)
 * out_endpoints holds 2 * segment_count vec3. Returns segment_count. */
int skeleton_lines_write(const Skeleton *skeleton, const int *line_joints, int segment_count,
                         const mat4 *joint_model, vec3 *out_endpoints);

/* How the overlay draws a joint dot. */
typedef enum JointDotKind {
    JOINT_DOT_BONE = 0,    /* a bone: some mesh is skinned to it */
    JOINT_DOT_ROOT,        /* the top of a skeleton: segments start here, none ends here */
    JOINT_DOT_HELPER       /* no vertex follows it: a helper node between bones, or an end site */
} JointDotKind;

/* The joints the overlay draws as dots: every endpoint of the segments of
 * skeleton_line_joints(), once, in joint order (= hierarchy order: parents first), with their
 * kind. out_joints and out_kinds hold model->skeleton.joint_count entries. Returns the count. */
int skeleton_dot_joints(const Model *model, const int *line_joints, int segment_count, int *out_joints,
                        unsigned char *out_kinds);

/* Number of ancestors of joint j (a root has depth 0). */
int skeleton_joint_depth(const Skeleton *skeleton, int joint);

/* Splits a joint matrix m = T * R * S into translation t, rotation as axis (unit) and angle in
 * degrees (0..180; axis (1,0,0) when the angle is 0), and scale s (column lengths; a mirror
 * shows as a negative x scale). */
void joint_matrix_decompose(const mat4 m, vec3 t, vec3 axis, float *angle_degrees, vec3 s);

#endif
