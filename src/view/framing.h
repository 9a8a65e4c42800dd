/* framing.h — where the model is over its whole animation, which way it faces, and the camera that
 * frames it (the camera itself: camera.h). Used by both players (the skinned viewer, --vat: a bake
 * stores the same frame points) and the commands that render off-screen. */
#ifndef SKINVIEW_VIEW_FRAMING_H
#define SKINVIEW_VIEW_FRAMING_H

#include "anim/animator.h"
#include "view/camera.h"

#include <stdbool.h>

/* Axis-aligned box, in scene space, of the CPU-skinned vertices of every clip sampled at
 * 8 evenly spaced times t_i = i * duration / 7 (the rest pose if the model has no clips) and
 * of the bind pose, so a camera framed on it keeps the whole animation in view. Uses `animator` as scratch
 * (re-evaluate it afterwards). Returns false (min = max = 0) for a model without vertices
 * or on out-of-memory. Cost: (clips x 8 + 1) x vertices. */
bool view_model_bounds(const Model *model, Animator *animator, vec3 min, vec3 max);

/* Axis-aligned box, in scene space, of the CPU-skinned vertices of the pose `animator` holds
 * (evaluate it first). Same failures as view_model_bounds. Cost: vertices. */
bool view_pose_bounds(const Model *model, const Animator *animator, vec3 min, vec3 max);

/* The 2D box, in normalised device coordinates (-1..1), of the CPU-skinned vertices of the
 * pose `animator` holds as `view_projection` shows them (vertices behind the eye skipped).
 * False if no vertex is in front of the eye, or on out-of-memory. Cost: vertices. */
bool view_pose_screen_bounds(const Model *model, const Animator *animator, const mat4 view_projection, vec2 min,
                            vec2 max);

/* The same box for one clip only (8 times over it), or for a static pose (clip < 0): what
 * the first frame and F frame, so the character fills the window rather than the union of
 * every clip's reach. */
bool view_clip_bounds(const Model *model, Animator *animator, int clip, vec3 min, vec3 max);

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
float view_front_yaw(const Model *model, Animator *animator, int clip);

/* The mirrored name of a joint ("LeftArm" -> "RightArm", "arm_l" -> "arm_r", "L_Hand" ->
 * "R_Hand"): Left/left/LEFT swapped with Right/right/RIGHT and a lone L/l/R/r token (between
 * non-letters) swapped. Returns false when the name has no such token. `side` gets +1 when
 * the name is a left one, -1 for a right one. */
bool view_mirror_joint_name(const char *name, char *out, size_t out_size, int *side);

/* Framing on points (the vertices of a pose, several poses, a VAT bake's frames): a point
 * source calls view_fit_point(fit, p) for each of its points, every time it is called (the
 * fitting makes 3 to 5 passes, so a source must give the same points each time). */
typedef struct ViewFit ViewFit;
typedef void (*ViewPointSource)(void *user, ViewFit *fit);
void view_fit_point(ViewFit *fit, const vec3 point);

/* The camera for the points of `source`: front_yaw set (and, with reset_angle, the
 * three-quarter front view), the box [box_min, box_max] for the scene size, then the target
 * centred on the points as the screen shows them and the distance at which they all fit
 * (CAMERA_MARGIN), in the band the HUD leaves free (reserved_top / reserved_bottom: fractions of
 * the height). */
void view_frame_points(ViewPointSource source, void *user, const vec3 box_min, const vec3 box_max, float front_yaw,
                      float aspect, bool reset_angle, float reserved_top, float reserved_bottom, Camera *camera);

/* The points the first frame is fitted to: at each of the clip's 8 sample times (one pose
 * for a static pose), the skinned vertex farthest along each of 26 directions (the faces,
 * edges and corners of a cube). A character's silhouette from any view is within a few
 * percent of what these span, and fitting 208 points is cheap where every vertex of every
 * sample five times over is not; a VAT bake stores the same points (vat.json) so --vat frames
 * exactly as the skinned viewer does. Writes at most VIEW_FRAME_POINTS_MAX points, returns the
 * count (0 for a model without vertices). */
#define VIEW_FRAME_DIRECTIONS 26
#define VIEW_FRAME_POINTS_MAX (8 * VIEW_FRAME_DIRECTIONS)
int view_clip_frame_points(const Model *model, Animator *animator, int clip, vec3 *points);

/* view_frame_points() over an array of points, with their own box (the unit box when count is 0). */
void view_frame_point_array(const vec3 *points, int count, float front_yaw, float aspect, bool reset_angle,
                           float reserved_top, float reserved_bottom, Camera *camera);

/* The first frame for the points of view_clip_frame_points() (`count` of them: samples of
 * VIEW_FRAME_DIRECTIONS, the start pose first): framed as view_frame_point_array() frames them all,
 * unless that leaves the start pose less than 80 % of the size it has framed alone and the clip
 * does not travel (the start pose's ground centre stays inside every later sample's box): then
 * the eye comes that close, centred on the start pose and slid across the view towards the
 * clip's centre as far as the start pose stays in the free band. A clip that only reaches out
 * (Khronos' RecursiveSkeletons bending its towers over: 47 % of a square window, now 61 %) so
 * fills the first frame as a character does, its widest reach may leave the frame; one that walks
 * away is still framed over its path. --vat frames a bake's stored points through it too. */
void view_frame_clip_points(const vec3 *points, int count, float front_yaw, float aspect, bool reset_angle,
                           float reserved_top, float reserved_bottom, Camera *camera);

/* The first frame and F: the camera framed on clip `clip` for this aspect — every skinned
 * vertex at the 8 times view_clip_bounds() samples (through view_clip_frame_points and
 * view_frame_clip_points), centred and as close as they all fit, the start pose at least 80 % of
 * its own framing unless the clip travels —
 * front_yaw from view_front_yaw(); with reset_angle the three-quarter front view
 * (camera_reset_angle), else the current angle kept. reserved_top / reserved_bottom: fractions
 * of the window height the HUD covers (status line, timeline), kept free of the model.
 * Uses `animator` as scratch (re-evaluate it afterwards). An empty model frames the unit box. */
void view_frame_clip(const Model *model, Animator *animator, int clip, float aspect, bool reset_angle,
                    float reserved_top, float reserved_bottom, Camera *camera);

#endif
