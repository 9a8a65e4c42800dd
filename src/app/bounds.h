/* bounds.h — where the model is over its whole animation (camera framing in camera.h). */
#ifndef SKINVIEW_BOUNDS_H
#define SKINVIEW_BOUNDS_H

#include "anim/animator.h"

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

#endif
