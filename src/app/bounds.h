/* bounds.h — where the model is, and a camera that frames it (screenshot, viewer). */
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

/* A camera looking at the box from the front (from +Z toward -Z, Y up) with a 40 degree
 * vertical field of view, far enough that the box's bounding sphere fits the view for
 * this aspect (width / height); near and far planes hug the sphere. */
void app_frame_front(const vec3 min, const vec3 max, float aspect, mat4 view, mat4 projection);

#endif
