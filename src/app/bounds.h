/* bounds.h — where the model is over its whole animation (camera framing in camera.h). */
#ifndef SKINVIEW_BOUNDS_H
#define SKINVIEW_BOUNDS_H

#include "anim/animator.h"
#include "camera.h"

#include <stdbool.h>

/* Axis-aligned box, in scene space, of the CPU-skinned vertices of every clip sampled at
 * 8 evenly spaced times t_i = i * duration / 7 (the rest pose if the model has no clips) and
 * of the bind pose, so a camera framed on it keeps the whole animation in view. Uses `animator` as scratch
 * (re-evaluate it afterwards). Returns false (min = max = 0) for a model without vertices
 * or on out-of-memory. Cost: (clips x 8 + 1) x vertices. */
bool app_model_bounds(const Model *model, Animator *animator, vec3 min, vec3 max);

/* Axis-aligned box, in scene space, of the CPU-skinned vertices of the pose `animator` holds
 * (evaluate it first). Same failures as app_model_bounds. Cost: vertices. */
bool app_pose_bounds(const Model *model, const Animator *animator, vec3 min, vec3 max);

/* The 2D box, in normalised device coordinates (-1..1), of the CPU-skinned vertices of the
 * pose `animator` holds as `view_projection` shows them (vertices behind the eye skipped).
 * False if no vertex is in front of the eye, or on out-of-memory. Cost: vertices. */
bool app_pose_screen_bounds(const Model *model, const Animator *animator, const mat4 view_projection, vec2 min,
                            vec2 max);

/* The same box for one clip only (8 times over it), or for a static pose (clip < 0): what
 * the first frame and F frame, so the character fills the window rather than the union of
 * every clip's reach. */
bool app_clip_bounds(const Model *model, Animator *animator, int clip, vec3 min, vec3 max);

/* Which way the character faces, as a camera yaw (camera.h: the eye at (sin y, 0, cos y)
 * from the target sees the face), at the pose `animator` holds:
 *   1. from the skeleton's names: for every pair of joints whose names differ only by
 *      Left/Right (or a lone L/R token: "Arm.L", "L_Hand"), the vector from the right joint to
 *      the left one is the character's left, and forward = left x up (+Y);
 *   2. else, when clip `clip` carries its root more than a quarter of the body's size over the
 *      ground, the direction it travels (characters walk forward);
 *   3. else 0: it faces +Z, the glTF front.
 * A left side along the up axis (a file that is not Y-up) skips rule 1. `animator` is left
 * evaluated at clip `clip`'s start. */
float app_front_yaw(const Model *model, Animator *animator, int clip);

/* The mirrored name of a joint ("LeftArm" -> "RightArm", "arm_l" -> "arm_r", "L_Hand" ->
 * "R_Hand"): Left/left/LEFT swapped with Right/right/RIGHT and a lone L/l/R/r token (between
 * non-letters) swapped. Returns false when the name has no such token. `side` gets +1 when
 * the name is a left one, -1 for a right one. */
bool app_mirror_joint_name(const char *name, char *out, size_t out_size, int *side);

/* The first frame and F: the camera framed on clip `clip` for this aspect — every skinned
 * vertex at the 8 times app_clip_bounds() samples, centred and as close as they all fit —
 * front_yaw from app_front_yaw(); with reset_angle the three-quarter front view
 * (camera_reset_angle), else the current angle kept. reserved_top / reserved_bottom: fractions
 * of the window height the HUD covers (status line, timeline), kept free of the model.
 * Uses `animator` as scratch (re-evaluate it afterwards). An empty model frames the unit box. */
void app_frame_clip(const Model *model, Animator *animator, int clip, float aspect, bool reset_angle,
                    float reserved_top, float reserved_bottom, Camera *camera);

#endif
