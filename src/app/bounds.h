/* bounds.h — where the model is over its whole animation (camera framing in camera.h). */
#ifndef SKINVIEW_BOUNDS_H
#define SKINVIEW_BOUNDS_H

#include "anim/animator.h"

#include <stdbool.h>

/* Axis-aligned box, in scene space, of the CPU-skinned vertices of every clip sampled at
 * 8 evenly spaced times t_i = i * duration / 7 (the rest pose if the model has no clips), so
 * a camera framed on it keeps the whole animation in view. Uses `animator` as scratch
 * (re-evaluate it afterwards). Returns false (min = max = 0) for a model without vertices
 * or on out-of-memory. Cost: clips x 8 x vertices. */
bool app_model_bounds(const Model *model, Animator *animator, vec3 min, vec3 max);

#endif
