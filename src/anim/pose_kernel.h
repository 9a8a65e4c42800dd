/* pose_kernel.h — what pose_fast.c, pose_lanes.c and pose_tracks.c share (private to src/anim): the kernel
 * naming of their two compilations, 4-float vectors, and the per-track sampling helpers
 * (key search, lerp, slerp weights, local = T * R * S). Everything here is static inline, so each
 * compilation (baseline, AVX2 + FMA) gets its own copy. */
#ifndef SKINVIEW_POSE_KERNEL_H
#define SKINVIEW_POSE_KERNEL_H

#include "anim.h"

#include <math.h>
#include <string.h>

/* The per-frame functions are compiled twice: for the baseline (SSE2 on x86-64) and, on x86-64
 * with GCC or Clang, a second time by pose_fast_avx2.c / pose_lanes_avx2.c / pose_tracks_avx2.c with -mavx2 -mfma
 * -ffp-contract=fast (the same source: VEX encoding, 8-float registers where the source asks
 * for them, and a*b + c fused into one FMA with one rounding). Each public per-frame function
 * runs the kernel simd.c chose. POSE_KERNEL(name) is the name of this compilation's copy. */
#ifdef POSE_FAST_AVX2
#define POSE_KERNEL(name) name##_avx2
#else
#define POSE_KERNEL(name) name##_baseline
#endif
/* each kernel of a compilation, called by the dispatch (and by the other file's kernels) */
#define POSE_KERNEL_DECLARATIONS(suffix)                                                                             \
    void packed_clip_find_keys_##suffix(const PackedClip *packed, float key_time, TimelineState *states);             \
    void packed_clip_sample_##suffix(const PackedClip *packed, float time, TimelineState *states, mat4 *local);        \
    void packed_clip_sample_forward_##suffix(const PackedClip *packed, float time, PackedCursor *cursor, mat4 *local); \
    void pose_palettes_##suffix(const PaletteTargets *targets, int joint_count, const mat4 *joint_model);              \
    void pose_evaluate_packed_##suffix(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets,\
                                       float time, PackedCursor *cursor, mat4 *local, mat4 *joint_model);             \
    void pose_model_and_palettes_##suffix(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local,  \
                                          mat4 *joint_model);
POSE_KERNEL_DECLARATIONS(baseline)
/* pose_lanes.c, at packing: the track lists and every lane channel's key records (false: out of memory) */
bool packed_lanes_build(PackedClip *packed);
#if ANIM_HAVE_AVX2_KERNELS
POSE_KERNEL_DECLARATIONS(avx2)
#endif
#ifndef POSE_FAST_AVX2
#if ANIM_HAVE_AVX2_KERNELS
#define POSE_DISPATCH(name, arguments)                                                                              \
    do {                                                                                                            \
        if (anim_simd_level() >= ANIM_SIMD_AVX2) name##_avx2 arguments;                                             \
        else name##_baseline arguments;                                                                             \
    } while (0)
#else
#define POSE_DISPATCH(name, arguments) name##_baseline arguments
#endif
#endif

/* 4 floats in one SIMD register; loads and stores through memcpy (any alignment). */
typedef float v4 __attribute__((vector_size(16)));

static inline v4 load4(const float *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void store4(float *p, v4 v)
{
    memcpy(p, &v, sizeof v);
}

#define SPLAT(v, i) __builtin_shufflevector((v), (v), i, i, i, i)   /* (v_i, v_i, v_i, v_i) */

/* ---- sampling (every frame) --------------------------------------------------------- */

/* Key k with times[k] <= t < times[k+1] (0 before the first key, count-1 from the last on),
 * the same interval as key_find(). Forward playback moves the cursor by 0 or 1 key: two
 * compares. Anything else (a seek, a loop wrap) is a binary search. */
static inline int timeline_key(const PackedTimeline *timeline, float t, int *cursor)
{
    const float *times = timeline->times;
    int last = timeline->count - 1, k = *cursor;
    if (k < last && times[k] <= t) {
        if (t < times[k + 1]) return k;
        if (k + 1 == last || t < times[k + 2]) return *cursor = k + 1;
    }
    if (last <= 0 || t <= times[0]) return *cursor = 0;
    if (t >= times[last]) return *cursor = last;
    int lo = 0, hi = last;   /* times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) >> 1;
        if (times[mid] <= t) lo = mid; else hi = mid;
    }
    return *cursor = lo;
}
/* The glTF cubic Hermite spline of sample.c (hermite()) on 4 floats, s = alpha. */
static inline v4 packed_hermite(const PackedChannel *channel, const PackedTimeline *timeline, int k, float s)
{
    float td = timeline->times[k + 1] - timeline->times[k];
    float s2 = s * s, s3 = s2 * s;
    float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f, h10 = td * (s3 - 2.0f * s2 + s);
    float h01 = -2.0f * s3 + 3.0f * s2, h11 = td * (s3 - s2);
    v4 v0 = load4(channel->values + 4 * k), v1 = load4(channel->values + 4 * (k + 1));
    v4 out_tangent0 = load4(channel->tangents + 4 * (2 * k + 1)), in_tangent1 = load4(channel->tangents + 4 * (2 * k + 2));
    return h00 * v0 + h10 * out_tangent0 + h01 * v1 + h11 * in_tangent1;
}

/* STEP, or CUBICSPLINE (which holds its key at and after the last key, as sample.c). */
static inline v4 packed_sample_other(const PackedClip *clip, const PackedChannel *channel, const TimelineState *state,
                                     float t)
{
    const PackedTimeline *timeline = &clip->timelines[channel->timeline];
    int k = state->key;
    if (channel->kind == INTERPOLATION_STEP || k == timeline->count - 1 || t <= timeline->times[k])
        return load4(channel->values + 4 * k);
    return packed_hermite(channel, timeline, k, state->alpha);
}

/* A T or S channel: v = v_k + a (v_k+1 - v_k) (v_k+1 = the padding copy after the last key). */
static inline __attribute__((always_inline)) v4 packed_sample_vec3(const PackedClip *clip, const PackedChannel *channel, const TimelineState *states,
                                    float t)
{
    const TimelineState *state = &states[channel->timeline];
    if (channel->kind != INTERPOLATION_LINEAR) return packed_sample_other(clip, channel, state, t);
    v4 v0 = load4(channel->values + 4 * state->key), v1 = load4(channel->values + 4 * state->key + 4);
    return v0 + state->alpha * (v1 - v0);
}

/* Slerp between sign-aligned unit keys q0, q1 (cos θ = d >= 0) at a, written as
 *   slerp = (sin((1-a)θ) q0 + sin(aθ) q1) / sin θ.
 * The result is only used through its direction (local_from_trs divides by |q|²), so the
 * weights w = (sin((1-a)θ), sin(aθ)) are enough. For θ <= 30° (d >= cos 30°; θ is half the angle
 * between the keys' rotations, so keys at most 60° apart) they come from
 * Taylor series, both lanes at once:  sin(x) = x (1 - x²/6 + x⁴/120),  x² = (1-a)² θ² or a² θ²,
 *   θ² = acos(d)² = 2u + u²/3 + 4u³/45 (u = 1 - d);
 * the direction is then within 2e-7 rad of slerp's in exact arithmetic (8e-9 at 20°,
 * docs/performance.md), the size of float rounding. Wider arcs: acos and sin.
 * Returns the blend and its squared length |w0 q0 + w1 q1|² = w0² + w1² + 2 w0 w1 d. */
static inline v4 slerp_unnormalized(v4 q0, v4 q1, float d, float a, float *length2)
{
    float w0, w1;
    if (d >= 0.8660254f) {
        float u = 1.0f - d;
        float theta2 = u * (2.0f + u * (1.0f / 3.0f + u * (4.0f / 45.0f)));
        v4 x = {1.0f - a, a, 0.0f, 0.0f}, x2 = x * x * theta2;
        v4 w = x * (1.0f - x2 * (1.0f / 6.0f - x2 * (1.0f / 120.0f)));
        w0 = w[0], w1 = w[1];
    } else {
        float theta = acosf(d);
        w0 = sinf((1.0f - a) * theta);
        w1 = sinf(a * theta);
    }
    *length2 = w0 * w0 + w1 * w1 + 2.0f * w0 * w1 * d;
    return w0 * q0 + w1 * q1;
}

/* An R channel, not normalised, and its squared length. */
static inline v4 packed_sample_quat(const PackedClip *clip, const PackedChannel *channel, const TimelineState *states,
                                    float t, float *length2)
{
    const TimelineState *state = &states[channel->timeline];
    if (channel->kind != INTERPOLATION_LINEAR) {
        v4 q = packed_sample_other(clip, channel, state, t), squares = q * q;
        *length2 = (squares[0] + squares[1]) + (squares[2] + squares[3]);
        return q;
    }
    v4 q0 = load4(channel->values + 4 * state->key), q1 = load4(channel->values + 4 * state->key + 4);
    v4 products = q0 * q1;
    float d = (products[0] + products[1]) + (products[2] + products[3]);   /* cos θ >= 0: keys sign-aligned */
    return slerp_unnormalized(q0, q1, d > 1.0f ? 1.0f : d, state->alpha, length2);
}

/* local = T * R * S written straight into the matrix, q = (x, y, z, w) of squared length
 * length2 (any length):
 *   R = rotation of q / |q|, from the products of q and s q with s = 2 / |q|²:
 *     column 0 = (1 - yy - zz, xy + wz, xz - wy), column 1 = (xy - wz, 1 - xx - zz, yz + wx),
 *     column 2 = (xz + wy, yz - wx, 1 - xx - yy)   (xy = s x y, ...),
 *   column i *= scale_i, column 3 = (translation, 1). */
static inline void local_from_trs(v4 translation, v4 q, float length2, v4 scale, mat4 local)
{
    float s = length2 > 0.0f ? 2.0f / length2 : 0.0f;
    v4 sq = s * q;
    v4 diagonal = q * sq;                                                     /* xx yy zz ww */
    v4 cross = __builtin_shufflevector(q, q, 0, 0, 1, 3) * __builtin_shufflevector(sq, sq, 2, 1, 2, 3); /* xz xy yz */
    v4 wxyz = SPLAT(q, 3) * __builtin_shufflevector(sq, sq, 1, 2, 0, 3);             /* wy wz wx */
    v4 sum = cross + wxyz, difference = cross - wxyz;   /* xz+wy xy+wz yz+wx / xz-wy xy-wz yz-wx; lane 3: ., 0 */
    v4 one_minus = (v4){1.0f, 1.0f, 1.0f, 1.0f} - __builtin_shufflevector(diagonal, diagonal, 1, 0, 0, 3) -
                   __builtin_shufflevector(diagonal, diagonal, 2, 2, 1, 3);   /* 1-yy-zz 1-xx-zz 1-xx-yy */
    /* gather the columns with two-source shuffles (lane 3 of `difference` is exactly 0) */
    v4 c0 = __builtin_shufflevector(__builtin_shufflevector(one_minus, sum, 0, 5, 0, 5), difference, 0, 1, 4, 7);
    v4 c1 = __builtin_shufflevector(__builtin_shufflevector(difference, one_minus, 1, 5, 1, 5),
                                    __builtin_shufflevector(sum, difference, 2, 7, 2, 7), 0, 1, 4, 5);
    v4 c2 = __builtin_shufflevector(__builtin_shufflevector(sum, difference, 0, 6, 0, 6),
                                    __builtin_shufflevector(one_minus, difference, 2, 7, 2, 7), 0, 1, 4, 5);
    store4(local[0], c0 * SPLAT(scale, 0));
    store4(local[1], c1 * SPLAT(scale, 1));
    store4(local[2], c2 * SPLAT(scale, 2));
    translation[3] = 1.0f;
    store4(local[3], translation);
}

/* local = T * R * S of one track, its timelines' keys found (packed_clip_find_keys). */
static inline __attribute__((always_inline)) void track_sample(const PackedClip *clip, const PackedTrack *track, const TimelineState *states,
                                float key_time, mat4 local)
{
    float length2;
    v4 rotation = packed_sample_quat(clip, &track->rotation, states, key_time, &length2);
    local_from_trs(packed_sample_vec3(clip, &track->translation, states, key_time), rotation, length2,
                   packed_sample_vec3(clip, &track->scale, states, key_time), local);
}

/* A track whose three channels each hold one key has the same local matrix at every time: it
 * was computed once (hold_constant_tracks) and is copied; the others are sampled. */
static inline __attribute__((always_inline)) void track_or_held(const PackedClip *clip, const PackedTrack *track,
                                                                const TimelineState *states, float key_time, mat4 *local)
{
    if (track->held)
        glm_mat4_copy((vec4 *)track->held_local, local[track->joint]);
    else
        track_sample(clip, track, states, key_time, local[track->joint]);
}

#endif
