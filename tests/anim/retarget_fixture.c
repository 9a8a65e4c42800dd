/* retarget_fixture.c — the shared helpers of test_retarget (retarget_fixture.h). */
#include "retarget_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool load(const char *path, Model *model)
{
    memset(model, 0, sizeof *model);
    return test_import(path, &(ImportOptions){.quiet = true}, model);
}

void pose_at(const Skeleton *skeleton, const Clip *clip, float time, mat4 *local, mat4 *model)
{
    pose_set_rest(skeleton, local);
    if (clip) {
        TrackCursor *cursors = calloc((size_t)clip->track_count + 1, sizeof(TrackCursor));
        clip_sample(clip, skeleton, time, cursors, local);
        free(cursors);
    }
    pose_local_to_model(skeleton, local, model);
}

bool retarget_all(const Model *source, const Skeleton *target, const RetargetMap *map, RetargetMode mode,
                  Clip *clips, RetargetSetup *setup)
{
    if (!retarget_setup(setup, &source->skeleton, target, map)) return false;
    for (int c = 0; c < source->clip_count; c++) {
        int dropped = 0;
        if (!retarget_clip(setup, &source->clips[c], mode, &clips[c], &dropped)) return false;
    }
    return true;
}

static bool clip_is_linear(const Clip *clip) { return clip_interpolation_kinds(clip) == (1u << INTERPOLATION_LINEAR) || clip_interpolation_kinds(clip) == 0; }

double compare_clips(const Skeleton *skeleton, const Clip *a, const Clip *b, double *diagonal_out)
{
    int n = skeleton->joint_count;
    mat4 *local = malloc(sizeof(mat4) * (size_t)n), *ma = malloc(sizeof(mat4) * (size_t)n), *mb = malloc(sizeof(mat4) * (size_t)n);
    /* sample times: every key of every track, and half-way to the next (linear clips) */
    int capacity = 4096, count = 0;
    float *times = malloc(sizeof(float) * (size_t)capacity);
    for (int i = 0; i < a->track_count && count < capacity - 4; i++)
        for (int k = 0; k < a->tracks[i].rotation_count && count < capacity - 4; k++) {
            float t = a->tracks[i].rotation_times[k] - a->start;
            times[count++] = t;
            if (clip_is_linear(a) && k + 1 < a->tracks[i].rotation_count)
                times[count++] = 0.5f * (t + a->tracks[i].rotation_times[k + 1] - a->start);
        }
    times[count++] = 0.0f;
    times[count++] = a->duration;
    double worst = 0.0;
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    int step = count > 600 ? count / 600 : 1;   /* big clips: a spread of their keys */
    for (int i = 0; i < count; i += step) {
        pose_at(skeleton, a, times[i], local, ma);
        pose_at(skeleton, b, times[i], local, mb);
        for (int j = 0; j < n; j++) {
            double d = glm_vec3_distance(ma[j][3], mb[j][3]);
            if (d > worst) worst = d;
            glm_vec3_minv(lo, ma[j][3], lo);
            glm_vec3_maxv(hi, ma[j][3], hi);
        }
    }
    double diagonal = glm_vec3_distance(lo, hi);
    if (diagonal_out) *diagonal_out = diagonal;
    free(times), free(local), free(ma), free(mb);
    return diagonal > 0.0 ? worst / diagonal : worst;
}
