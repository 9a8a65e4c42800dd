/* timeline.h — the timeline's logic: key times of a clip, next / previous key, the
 * clip's frame rate, and the bar's pixel <-> time mapping for scrubbing. Pure (no window,
 * no GL); drawn by hud.c, unit-tested in tests/view/test_browser.c.
 */
#ifndef SKINVIEW_TIMELINE_H
#define SKINVIEW_TIMELINE_H

#include "anim/model.h"

#include <stdbool.h>

#define TIMELINE_KEY_EPSILON 1e-4f   /* seconds: key times closer than this are one mark */

/* The bar, in pixels (y down). */
typedef struct TimelineLayout {
    float x, y, width, height;
} TimelineLayout;

/* Upper bound of timeline_collect_keys() over every clip (to allocate once per model). */
int timeline_max_keys(const Model *model);

/* Sorted, distinct (TIMELINE_KEY_EPSILON apart) key times of `clip` — of joint `joint`'s
 * track only when joint >= 0, of every track when joint < 0 — into keys[capacity].
 * Returns the count (at most capacity). No allocation. */
int timeline_collect_keys(const Clip *clip, int joint, float *keys, int capacity);

/* The first key after t (more than TIMELINE_KEY_EPSILON later), or -1 if none. */
float timeline_next_key(const float *keys, int count, float t);
/* The last key before t, or -1 if none. */
float timeline_prev_key(const float *keys, int count, float t);

/* Frames per second the clip was authored at, estimated from its densest track:
 * round((keys - 1) / duration) when that lies in [1, 240], else 30. */
float timeline_frame_rate(const Clip *clip);

/* Frame number of time t at `fps`: round(t * fps). */
int timeline_frame_number(float t, float fps);

/* Time under pixel column x, clamped to [0, duration]. */
float timeline_time_at(const TimelineLayout *layout, float x, float duration);
/* Pixel column of time t. */
float timeline_x_of(const TimelineLayout *layout, float t, float duration);
/* True when (x, y) is on the bar, or within `slack` pixels of it (easier to grab). */
bool timeline_hit(const TimelineLayout *layout, float x, float y, float slack);

#endif
