/* sample.c — clip sampling: find the keys around t, interpolate (linear, step or cubic
 * spline, per channel), compose T*R*S. */
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

/* glTF cubic Hermite spline (glTF 2.0 spec, Appendix C) between keys k and k+1 of an
 * n-component channel, s = (t - t_k) / td in [0,1], td = t_k+1 - t_k:
 *   v(s) = (2s³ - 3s² + 1) v_k + td (s³ - 2s² + s) b_k + (-2s³ + 3s²) v_k+1 + td (s³ - s²) a_k+1
 * with b_k the out-tangent of key k and a_k+1 the in-tangent of key k+1. */
static void hermite(const float *v0, const float *out_tangent0, const float *v1, const float *in_tangent1, int n,
                    float td, float s, float *out)
{
    float s2 = s * s, s3 = s2 * s;
    float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f, h10 = td * (s3 - 2.0f * s2 + s);
    float h01 = -2.0f * s3 + 3.0f * s2, h11 = td * (s3 - s2);
    for (int i = 0; i < n; i++) out[i] = h00 * v0[i] + h10 * out_tangent0[i] + h01 * v1[i] + h11 * in_tangent1[i];
}

/* A STEP channel, or a CUBICSPLINE one with tangents, of n floats per key: key k holds (STEP;
 * CUBICSPLINE at and after the last key), else the Hermite spline between keys k and k+1.
 * Returns whether the spline ran. */
static bool sample_step_or_spline(const float *times, const float *values, const float *tangents, int count, int n,
                                  Interpolation kind, float t, int *cursor, float *out)
{
    int k = key_find(times, count, t, cursor);
    if (k >= count - 1 || kind == INTERPOLATION_STEP || t <= times[k]) {   /* STEP: key k holds until k+1 */
        memcpy(out, values + n * k, sizeof(float) * (size_t)n);
        return false;
    }
    hermite(values + n * k, tangents + n * (2 * k + 1), values + n * (k + 1), tangents + n * (2 * (k + 1)), n,
            times[k + 1] - times[k], key_alpha(times, count, k, t), out);
    return true;
}

void sample_vec3_channel(const float *times, const vec3 *values, const vec3 *tangents, int count,
                         Interpolation kind, float t, int *cursor, vec3 out)
{
    if (kind == INTERPOLATION_LINEAR || (kind == INTERPOLATION_CUBICSPLINE && !tangents))
        sample_vec3(times, values, count, t, cursor, out);
    else
        sample_step_or_spline(times, (const float *)values, (const float *)tangents, count, 3, kind, t, cursor, out);
}

void sample_quat_channel(const float *times, const versor *values, const versor *tangents, int count,
                         Interpolation kind, float t, int *cursor, versor out)
{
    if (kind == INTERPOLATION_LINEAR || (kind == INTERPOLATION_CUBICSPLINE && !tangents))
        sample_quat(times, values, count, t, cursor, out);
    /* the spline runs on the four components, then the result is normalised (glTF spec) */
    else if (sample_step_or_spline(times, (const float *)values, (const float *)tangents, count, 4, kind, t, cursor, out))
        glm_quat_normalize(out);
}

float sample_float_channel(const float *times, const float *values, const float *tangents, int count,
                           Interpolation kind, float t, int *cursor)
{
    int k = key_find(times, count, t, cursor);
    if (k >= count - 1 || kind == INTERPOLATION_STEP || t <= times[k]) return values[k];   /* STEP: hold key k */
    float a = key_alpha(times, count, k, t);
    if (kind != INTERPOLATION_CUBICSPLINE || !tangents) return values[k] + a * (values[k + 1] - values[k]);   /* lerp */
    float out;
    hermite(&values[k], &tangents[2 * k + 1], &values[k + 1], &tangents[2 * (k + 1)], 1, times[k + 1] - times[k], a,
            &out);
    return out;
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
        sample_vec3_channel(track->translation_times, track->translation_values, track->translation_tangents,
                            track->translation_count, track->translation_interpolation, time,
                            &cursor->translation_key, out->translation);
    if (track->rotation_count > 0)
        sample_quat_channel(track->rotation_times, track->rotation_values, track->rotation_tangents,
                            track->rotation_count, track->rotation_interpolation, time, &cursor->rotation_key,
                            out->rotation);
    if (track->scale_count > 0)
        sample_vec3_channel(track->scale_times, track->scale_values, track->scale_tangents, track->scale_count,
                            track->scale_interpolation, time, &cursor->scale_key, out->scale);
}

void clip_sample(const Clip *clip, const Skeleton *skeleton, float time,
                 TrackCursor *cursors, mat4 *local)
{
    time = clip_key_time(clip->start, clip->duration, time);
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
    time = clip_key_time(clip->start, clip->duration, time);
    for (int i = 0; i < clip->track_count; i++)
        sample_track(&clip->tracks[i], skeleton, time, &cursors[i], &local_trs[clip->tracks[i].joint]);
}
