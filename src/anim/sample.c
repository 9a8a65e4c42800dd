/* sample.c — clip sampling: find the keys around t, interpolate, compose T*R*S. */
#include "anim.h"

#include <math.h>
#include <string.h>

int key_find(const float *times, int count, float t, int *cursor)
{
    if (count <= 1 || t <= times[0]) {
        *cursor = 0;
        return 0;
    }
    if (t >= times[count - 1]) {
        *cursor = count - 1;
        return count - 1;
    }
    /* Fast path: playing forward, t is in the cursor's interval or the next one. */
    int k = *cursor;
    if (k >= 0 && k < count - 1 && times[k] <= t) {
        if (t < times[k + 1]) return k;
        if (k + 2 < count && t < times[k + 2]) {
            *cursor = k + 1;
            return k + 1;
        }
    }
    /* Jump (seek, loop wrap, clip switch): binary search for the last key <= t. */
    int lo = 0, hi = count - 1;           /* invariant: times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid] <= t) lo = mid; else hi = mid;
    }
    *cursor = lo;
    return lo;
}

float key_alpha(const float *times, int count, int k, float t)
{
    if (k >= count - 1) return 0.0f;
    float span = times[k + 1] - times[k];
    if (span <= 0.0f) return 0.0f;
    float a = (t - times[k]) / span;
    return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

void sample_vec3(const float *times, const vec3 *values, int count, float t, int *cursor, vec3 out)
{
    int k = key_find(times, count, t, cursor);
    if (k >= count - 1) {
        glm_vec3_copy((float *)values[k], out);
        return;
    }
    /* v = v_k + a * (v_k+1 - v_k) */
    glm_vec3_lerp((float *)values[k], (float *)values[k + 1], key_alpha(times, count, k, t), out);
}

void quat_slerp_shortest(const versor a, const versor b, float t, versor out)
{
    versor b_near;
    float cos_theta = glm_vec4_dot((float *)a, (float *)b);
    glm_vec4_copy((float *)b, b_near);
    if (cos_theta < 0.0f) {          /* -b is the same rotation as b, one arc shorter */
        glm_vec4_negate(b_near);
        cos_theta = -cos_theta;
    }
    float wa, wb;
    if (cos_theta > 0.9995f) {       /* nearly parallel: lerp, then normalise */
        wa = 1.0f - t;
        wb = t;
    } else {                         /* slerp(a,b,t) = sin((1-t)θ)/sinθ · a + sin(tθ)/sinθ · b */
        float theta = acosf(cos_theta);
        float sin_theta = sinf(theta);
        wa = sinf((1.0f - t) * theta) / sin_theta;
        wb = sinf(t * theta) / sin_theta;
    }
    for (int i = 0; i < 4; i++) out[i] = wa * a[i] + wb * b_near[i];
    glm_quat_normalize(out);
}

void sample_quat(const float *times, const versor *values, int count, float t, int *cursor, versor out)
{
    int k = key_find(times, count, t, cursor);
    if (k >= count - 1) {
        glm_vec4_copy((float *)values[k], out);
        return;
    }
    quat_slerp_shortest(values[k], values[k + 1], key_alpha(times, count, k, t), out);
}

void joint_transform_to_matrix(const JointTransform *trs, mat4 local)
{
    /* local = T * R * S: scale first, then rotate, then translate (column vectors). */
    mat4 rotation;
    glm_quat_mat4((float *)trs->rotation, rotation);
    glm_mat4_identity(local);
    glm_translate(local, (float *)trs->translation);
    glm_mat4_mul(local, rotation, local);
    glm_scale(local, (float *)trs->scale);
}

static void sample_track(const JointTrack *track, const Skeleton *skeleton, float time,
                         TrackCursor *cursor, JointTransform *out)
{
    *out = skeleton->rest_trs[track->joint];
    if (track->translation_count > 0)
        sample_vec3(track->translation_times, track->translation_values, track->translation_count,
                    time, &cursor->translation_key, out->translation);
    if (track->rotation_count > 0)
        sample_quat(track->rotation_times, track->rotation_values, track->rotation_count,
                    time, &cursor->rotation_key, out->rotation);
    if (track->scale_count > 0)
        sample_vec3(track->scale_times, track->scale_values, track->scale_count,
                    time, &cursor->scale_key, out->scale);
}

static float clamp_time(const Clip *clip, float time)
{
    if (!(time > 0.0f)) return 0.0f;   /* also catches NaN */
    return time > clip->duration ? clip->duration : time;
}

void clip_sample(const Clip *clip, const Skeleton *skeleton, float time,
                 TrackCursor *cursors, mat4 *local)
{
    time = clamp_time(clip, time);
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        JointTransform trs;
        sample_track(track, skeleton, time, &cursors[i], &trs);
        joint_transform_to_matrix(&trs, local[track->joint]);
    }
}

void clip_sample_trs(const Clip *clip, const Skeleton *skeleton, float time,
                     TrackCursor *cursors, JointTransform *local_trs)
{
    time = clamp_time(clip, time);
    for (int i = 0; i < clip->track_count; i++)
        sample_track(&clip->tracks[i], skeleton, time, &cursors[i], &local_trs[clip->tracks[i].joint]);
}
