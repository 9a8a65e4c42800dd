/* timeline.c — key times, frame rate and the bar's pixel <-> time mapping (pure). */
#include "view/timeline.h"

#include <math.h>
#include <stdlib.h>

int timeline_max_keys(const Model *model)
{
    int most = 0;
    for (int c = 0; c < model->clip_count; c++) {
        int keys = 0;
        for (int i = 0; i < model->clips[c].track_count; i++) {
            const JointTrack *t = &model->clips[c].tracks[i];
            keys += t->translation_count + t->rotation_count + t->scale_count;
        }
        if (keys > most) most = keys;
    }
    return most;
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static int append(float *keys, int count, int capacity, const float *times, int n)
{
    for (int i = 0; i < n && count < capacity; i++) keys[count++] = times[i];
    return count;
}

int timeline_collect_keys(const Clip *clip, int joint, float *keys, int capacity)
{
    int count = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        if (joint >= 0 && t->joint != joint) continue;
        count = append(keys, count, capacity, t->translation_times, t->translation_count);
        count = append(keys, count, capacity, t->rotation_times, t->rotation_count);
        count = append(keys, count, capacity, t->scale_times, t->scale_count);
    }
    if (count == 0) return 0;
    qsort(keys, (size_t)count, sizeof *keys, compare_float);
    int distinct = 1;
    for (int i = 1; i < count; i++)
        if (keys[i] - keys[distinct - 1] > TIMELINE_KEY_EPSILON) keys[distinct++] = keys[i];
    return distinct;
}

float timeline_next_key(const float *keys, int count, float t)
{
    for (int i = 0; i < count; i++)   /* keys are few hundred at most: a scan is plenty */
        if (keys[i] > t + TIMELINE_KEY_EPSILON) return keys[i];
    return -1.0f;
}

float timeline_prev_key(const float *keys, int count, float t)
{
    for (int i = count - 1; i >= 0; i--)
        if (keys[i] < t - TIMELINE_KEY_EPSILON) return keys[i];
    return -1.0f;
}

float timeline_frame_rate(const Clip *clip)
{
    int most = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        if (t->translation_count > most) most = t->translation_count;
        if (t->rotation_count > most) most = t->rotation_count;
        if (t->scale_count > most) most = t->scale_count;
    }
    if (most < 2 || !(clip->duration > 0.0f)) return 30.0f;
    /* keys - 1 intervals over the clip: fps = (keys - 1) / duration */
    float fps = roundf((float)(most - 1) / clip->duration);
    return (fps >= 1.0f && fps <= 240.0f) ? fps : 30.0f;
}

int timeline_frame_number(float t, float fps)
{
    return (int)lroundf(t * fps);
}

float timeline_time_at(const TimelineLayout *layout, float x, float duration)
{
    if (!(layout->width > 0.0f) || !(duration > 0.0f)) return 0.0f;
    float u = (x - layout->x) / layout->width;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    return u * duration;
}

float timeline_x_of(const TimelineLayout *layout, float t, float duration)
{
    if (!(duration > 0.0f)) return layout->x;
    float u = t / duration;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    return layout->x + u * layout->width;
}

bool timeline_hit(const TimelineLayout *layout, float x, float y, float slack)
{
    return x >= layout->x - slack && x <= layout->x + layout->width + slack && y >= layout->y - slack &&
           y <= layout->y + layout->height + slack;
}
