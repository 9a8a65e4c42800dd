/* pose_fast.c — the per-frame pose laid out for the loop: packed clips, sampling, local -> model
 * and the palette in one forward pass over the joints. The same keys and the same results as
 * clip_sample + pose_local_to_model + skin_palette (sample.c, pose.c, skin.c: the references,
 * kept for tests and teaching), several times faster.
 *
 * What makes it fast, each one measured in docs/performance.md:
 *  1. One block per clip (PackedClip, built once): per channel times[], 1/Δt[] and values[]
 *     side by side, a padding copy of the last value, found through the joint's track index.
 *  2. No division per key: the interpolation factor is (t - t_k) * inv_span[k], with
 *     inv_span[k] = 1 / (t_k+1 - t_k) stored at build time. After the last key inv_span = 0
 *     and values[count] repeats the last value, so the clamp at the end needs no branch.
 *  3. Quaternions sign-aligned at build time (LINEAR channels): q_k+1 is negated when
 *     dot(q_k, q_k+1) < 0 (the same rotation), so sampling needs no hemisphere test.
 *  4. Slerp without trigonometry: slerp(a, b, t) = (sin((1-t)θ) a + sin(tθ) b) / sin θ, and the
 *     result is only used through its direction, so the weights sin((1-t)θ), sin(tθ) are
 *     enough; they come from a short Taylor series in θ² (see slerp_unnormalized) while
 *     θ = acos(q_k . q_k+1) <= 30°, i.e. key rotations at most 60° apart (θ is half the angle
 *     between the rotations). Error below 1.8e-7 rad (in exact arithmetic) at that limit, 8e-9
 *     at θ = 20°; beyond, acos and sin.
 *  5. The local matrix straight from T, R, S: scaled rotation columns and the translation,
 *     written once (no identity, no translate, no full multiply, no scale pass), with
 *     s = 2 / |q|² so that the interpolated quaternion needs no normalisation.
 *  6. Four floats per value (T and S padded with a 0) so that every value is one 16-byte
 *     vector: a lerp is one subtract, one multiply, one add (GCC/Clang vector extensions:
 *     SSE on x86-64, NEON on ARM, plain floats elsewhere). A channel the track lacks is
 *     packed as one key holding the rest value: the same code path, no branch.
 *  7. One pass over the joints: sample the joint's track, model = parent * local, and at once
 *     the palette entries of the bones it drives, while the matrix is still in L1.
 *  8. No rest-pose copy per frame: local[] of the joints without a track holds their rest
 *     matrix from the moment the clip was chosen (Animator); only animated joints are written.
 *  9. Affine products: joint and inverse bind matrices end in the row (0 0 0 1), so
 *     A * B = (A c0, A c1, A c2, A c3 + a3) with A the upper 3x4: 3 broadcasts and 3
 *     multiply-adds of 4 floats per column, no 4th row. Checked once per model
 *     (PaletteTargets.affine); any other matrix takes the full product.
 * 10. The palette entries a joint drives are listed per joint with direct pointers to the
 *     inverse bind matrix and the palette slot (no mesh / bone indirection per frame).
 */
#include "anim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The per-frame functions are compiled twice: here for the baseline (SSE2 on x86-64) and, on
 * x86-64 with GCC or Clang, a second time by pose_fast_avx2.c with -mavx2 -mfma
 * -ffp-contract=fast (the same source: VEX encoding, and a*b + c fused into one FMA with one
 * rounding). Each public per-frame function runs the kernel simd.c chose. POSE_KERNEL(name)
 * is the name of this compilation's copy. */
#ifdef POSE_FAST_AVX2
#define POSE_KERNEL(name) name##_avx2
#define POSE_KERNEL_LINKAGE          /* called from pose_fast.c's dispatch */
#else
#define POSE_KERNEL(name) name##_baseline
#define POSE_KERNEL_LINKAGE static
#endif
#if ANIM_HAVE_AVX2_KERNELS
void packed_clip_find_keys_avx2(const PackedClip *packed, float key_time, TimelineState *states);
void packed_clip_sample_avx2(const PackedClip *packed, float time, TimelineState *states, mat4 *local);
void pose_palettes_avx2(const PaletteTargets *targets, int joint_count, const mat4 *joint_model);
void pose_evaluate_packed_avx2(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets,
                               float time, TimelineState *states, mat4 *local, mat4 *joint_model);
void pose_model_and_palettes_avx2(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local,
                                  mat4 *joint_model);
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

#ifndef POSE_FAST_AVX2 /* built once: baseline compilation only */
/* ---- building the packed clip (once) ---------------------------------------------- */

static const float time_zero = 0.0f;

/* The timeline of `times` (count keys): an existing one with the same times, or a new one
 * appended (its times and 1/Δt written at *block). Returns its index. */
static int find_or_add_timeline(PackedClip *packed, float **block, const float *times, int count)
{
    for (int i = 0; i < packed->timeline_count; i++) {
        const PackedTimeline *timeline = &packed->timelines[i];
        if (timeline->count == count && memcmp(timeline->times, times, sizeof(float) * (size_t)count) == 0) return i;
    }
    PackedTimeline *timeline = &packed->timelines[packed->timeline_count];
    float *t = *block, *inv = t + count;
    memcpy(t, times, sizeof(float) * (size_t)count);
    for (int k = 0; k < count; k++) {
        float span = k + 1 < count ? times[k + 1] - times[k] : 0.0f;
        /* 0: hold key k (last key, or zero span). A span so small (denormal) that 1/span
         * overflows to Inf also holds: Inf * 0 at t == times[k] would give NaN. */
        float inverse = span > 0.0f ? 1.0f / span : 0.0f;
        inv[k] = isfinite(inverse) ? inverse : 0.0f;
    }
    *timeline = (PackedTimeline){.count = count, .times = t, .inv_span = inv};
    *block = inv + count;
    return packed->timeline_count++;
}

/* Floats one channel needs at most: its timeline, values (+1 padding key), tangents. */
static size_t channel_floats(int count, bool cubic)
{
    if (count <= 0) count = 1;   /* a missing channel: one key with the rest value */
    return (size_t)count * 2 + (size_t)(count + 1) * 4 + (cubic ? (size_t)count * 8 : 0);
}

/* Packs one channel of `width` (3 or 4) floats per value into *block. count == 0: one key
 * holding `rest` at time 0 (so a missing channel takes the same path as any other). */
static void pack_channel(PackedClip *packed, PackedChannel *out, float **block, int count, const float *times,
                         const float *values, const float *tangents, Interpolation kind, int width, const float *rest)
{
    memset(out, 0, sizeof *out);
    if (count <= 0) count = 1, times = &time_zero, values = rest, tangents = NULL, kind = INTERPOLATION_STEP;
    /* every key the same value (not CUBICSPLINE, whose tangents may still move it): one held key,
     * on the shared time-0 timeline (what the key optimiser makes of a channel that does not move) */
    bool held = kind != INTERPOLATION_CUBICSPLINE;
    for (int k = 1; held && k < count; k++) held = memcmp(values, values + width * k, sizeof(float) * (size_t)width) == 0;
    if (held && count > 1) count = 1, times = &time_zero, tangents = NULL, kind = INTERPOLATION_STEP;
    bool cubic = kind == INTERPOLATION_CUBICSPLINE && tangents;
    out->kind = cubic ? INTERPOLATION_CUBICSPLINE : (kind == INTERPOLATION_STEP ? INTERPOLATION_STEP : INTERPOLATION_LINEAR);
    out->timeline = find_or_add_timeline(packed, block, times, count);
    float *v = *block;
    for (int k = 0; k < count; k++)   /* 4 floats per value; T and S get w = 0 */
        memcpy(v + 4 * k, values + width * k, sizeof(float) * (size_t)width);
    if (width == 4 && out->kind == INTERPOLATION_LINEAR) {
        for (int k = 0; k < count; k++) glm_quat_normalize(v + 4 * k);   /* unit keys (slerp_unnormalized) */
        for (int k = 1; k < count; k++) {   /* q and -q are one rotation: take the one nearer the previous key */
            float *q0 = v + 4 * (k - 1), *q1 = v + 4 * k;
            if (q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] < 0.0f)
                for (int i = 0; i < 4; i++) q1[i] = -q1[i];
        }
    }
    memcpy(v + 4 * count, v + 4 * (count - 1), sizeof(float) * 4);   /* padding: values[count] = values[count-1] */
    out->values = v;
    *block = v + 4 * (count + 1);
    if (cubic) {
        for (int k = 0; k < 2 * count; k++) memcpy(*block + 4 * k, tangents + width * k, sizeof(float) * (size_t)width);
        out->tangents = *block;
        *block += 8 * count;
    }
}

static void hold_constant_tracks(PackedClip *packed);

bool packed_clip_build(PackedClip *packed, const Clip *clip, const Skeleton *skeleton)
{
    memset(packed, 0, sizeof *packed);
    packed->start = clip->start;
    packed->duration = clip->duration;
    packed->track_count = clip->track_count;
    size_t floats = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        floats += channel_floats(t->translation_count, t->translation_interpolation == INTERPOLATION_CUBICSPLINE);
        floats += channel_floats(t->rotation_count, t->rotation_interpolation == INTERPOLATION_CUBICSPLINE);
        floats += channel_floats(t->scale_count, t->scale_interpolation == INTERPOLATION_CUBICSPLINE);
    }
    size_t channels = 3 * (size_t)clip->track_count;
    packed->block = calloc(floats > 0 ? floats : 1, sizeof(float));
    packed->tracks = calloc((size_t)(clip->track_count > 0 ? clip->track_count : 1), sizeof(PackedTrack));
    packed->timelines = calloc(channels > 0 ? channels : 1, sizeof(PackedTimeline));
    if (!packed->block || !packed->tracks || !packed->timelines) {
        packed_clip_free(packed);
        return false;
    }
    float *next = packed->block;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        PackedTrack *p = &packed->tracks[i];
        const JointTransform *rest = &skeleton->rest_trs[t->joint];
        p->joint = t->joint;
        pack_channel(packed, &p->translation, &next, t->translation_count, t->translation_times,
                     (const float *)t->translation_values, (const float *)t->translation_tangents,
                     t->translation_interpolation, 3, rest->translation);
        pack_channel(packed, &p->rotation, &next, t->rotation_count, t->rotation_times, (const float *)t->rotation_values,
                     (const float *)t->rotation_tangents, t->rotation_interpolation, 4, rest->rotation);
        pack_channel(packed, &p->scale, &next, t->scale_count, t->scale_times, (const float *)t->scale_values,
                     (const float *)t->scale_tangents, t->scale_interpolation, 3, rest->scale);
    }
    hold_constant_tracks(packed);
    return true;
}

void packed_clip_free(PackedClip *packed)
{
    free(packed->block);
    free(packed->tracks);
    free(packed->timelines);
    memset(packed, 0, sizeof *packed);
}

#endif

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

POSE_KERNEL_LINKAGE void POSE_KERNEL(packed_clip_find_keys)(const PackedClip *packed, float key_time, TimelineState *states)
{
    for (int i = 0; i < packed->timeline_count; i++) {
        const PackedTimeline *timeline = &packed->timelines[i];
        int k = timeline_key(timeline, key_time, &states[i].cursor);
        /* a = (t - t_k) / (t_k+1 - t_k) clamped to [0, 1], as key_alpha(), with the stored 1/Δt */
        float a = (key_time - timeline->times[k]) * timeline->inv_span[k];
        states[i].key = k;
        states[i].alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    }
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

#ifndef POSE_FAST_AVX2
/* Marks the tracks whose channels are all one held key and stores their local matrix, computed by
 * the baseline track_sample (what sampling gives every frame; the AVX2 kernel's own sampling would
 * differ at most in float rounding). */
static void hold_constant_tracks(PackedClip *packed)
{
    /* one key per channel: every timeline these tracks read is at key 0, factor 0 */
    TimelineState *states = calloc((size_t)(packed->timeline_count > 0 ? packed->timeline_count : 1), sizeof(TimelineState));
    for (int i = 0; states && i < packed->track_count; i++) {
        PackedTrack *track = &packed->tracks[i];
        track->held = packed->timelines[track->translation.timeline].count == 1 &&
                      packed->timelines[track->rotation.timeline].count == 1 &&
                      packed->timelines[track->scale.timeline].count == 1;
        if (track->held) track_sample(packed, track, states, packed->start, track->held_local);
    }
    free(states);   /* out of memory: nothing held, every track sampled (still right) */
}
#endif

static inline float key_time_of(const PackedClip *packed, float time)
{
    if (!(time > 0.0f)) time = 0.0f;   /* also catches NaN */
    if (time > packed->duration) time = packed->duration;
    return packed->start + time;
}

#ifndef POSE_FAST_AVX2
float packed_clip_key_time(const PackedClip *packed, float time)
{
    return key_time_of(packed, time);
}
#endif

POSE_KERNEL_LINKAGE void POSE_KERNEL(packed_clip_sample)(const PackedClip *packed, float time, TimelineState *states, mat4 *local)
{
    float key_time = key_time_of(packed, time);
    POSE_KERNEL(packed_clip_find_keys)(packed, key_time, states);
    for (int i = 0; i < packed->track_count; i++) track_or_held(packed, &packed->tracks[i], states, key_time, local);
}

/* ---- local -> model and palette, fused (every frame) -------------------------------- */

/* out = a * b for affine a, b (last rows 0 0 0 1): column i = a0 b_i.x + a1 b_i.y + a2 b_i.z (+ a3 for i = 3). */
#ifdef POSE_FAST_AVX2
#include <immintrin.h>
/* The same product with 8-float registers (the AVX2 compilation only): two columns of b at a time,
 *   (out_i | out_i+1) = (a0|a0) (b_i.x | b_i+1.x) + (a1|a1) (b_i.y | ..) + (a2|a2) (b_i.z | ..) [+ (0|a3)],
 * the columns of a broadcast from memory to both halves, the coordinates of b spread within each
 * half (vpermilps): 6 permutes and 6 multiply-adds instead of 12 and 12. */
static inline void affine_mul(const mat4 a, const mat4 b, mat4 out)
{
    __m256 a0 = _mm256_broadcast_ps((const __m128 *)a[0]), a1 = _mm256_broadcast_ps((const __m128 *)a[1]);
    __m256 a2 = _mm256_broadcast_ps((const __m128 *)a[2]);
    __m256 a3_high = _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(a[3]), 1);
    __m256 b01 = _mm256_loadu_ps(b[0]), b23 = _mm256_loadu_ps(b[2]);
    __m256 out01 = _mm256_fmadd_ps(a2, _mm256_permute_ps(b01, 0xAA),
                                   _mm256_fmadd_ps(a1, _mm256_permute_ps(b01, 0x55), _mm256_mul_ps(a0, _mm256_permute_ps(b01, 0x00))));
    __m256 out23 = _mm256_fmadd_ps(a2, _mm256_permute_ps(b23, 0xAA),
                                   _mm256_fmadd_ps(a1, _mm256_permute_ps(b23, 0x55), _mm256_fmadd_ps(a0, _mm256_permute_ps(b23, 0x00), a3_high)));
    _mm256_storeu_ps(out[0], out01);
    _mm256_storeu_ps(out[2], out23);
}
#else
static inline void affine_mul(const mat4 a, const mat4 b, mat4 out)
{
    v4 a0 = load4(a[0]), a1 = load4(a[1]), a2 = load4(a[2]), a3 = load4(a[3]);
    v4 b0 = load4(b[0]), b1 = load4(b[1]), b2 = load4(b[2]), b3 = load4(b[3]);
    store4(out[0], a0 * SPLAT(b0, 0) + a1 * SPLAT(b0, 1) + a2 * SPLAT(b0, 2));
    store4(out[1], a0 * SPLAT(b1, 0) + a1 * SPLAT(b1, 1) + a2 * SPLAT(b1, 2));
    store4(out[2], a0 * SPLAT(b2, 0) + a1 * SPLAT(b2, 1) + a2 * SPLAT(b2, 2));
    store4(out[3], a0 * SPLAT(b3, 0) + a1 * SPLAT(b3, 1) + a2 * SPLAT(b3, 2) + a3);
}
#endif

static inline void joint_mul(bool affine, const mat4 a, const mat4 b, mat4 out)
{
    if (affine)
        affine_mul(a, b, out);
    else
        glm_mat4_mul((vec4 *)a, (vec4 *)b, out);
}

#ifndef POSE_FAST_AVX2
static bool last_row_is_0001(const mat4 m)
{
    return m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f;
}

bool palette_targets_build(PaletteTargets *targets, const Model *model, mat4 **palettes)
{
    memset(targets, 0, sizeof *targets);
    const Skeleton *skeleton = &model->skeleton;
    int joints = skeleton->joint_count, count = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) count += model->meshes[m].bone_count;
    targets->first = calloc((size_t)joints + 1, sizeof(int));
    targets->inverse_bind = calloc((size_t)(count > 0 ? count : 1), sizeof(mat4 *));
    targets->palette = calloc((size_t)(count > 0 ? count : 1), sizeof(mat4 *));
    int *fill = calloc((size_t)(joints > 0 ? joints : 1), sizeof(int));
    if (!targets->first || !targets->inverse_bind || !targets->palette || !fill) {
        free(fill);
        palette_targets_free(targets);
        return false;
    }
    /* counting sort of the bones of every skinned mesh by joint: first[j] = start of joint j's entries */
    for (int m = 0; m < model->mesh_count; m++)
        for (int b = 0; model->meshes[m].skinned && b < model->meshes[m].bone_count; b++) {
            int joint = model->meshes[m].bone_joint[b];
            if (joint >= 0 && joint < joints) targets->first[joint + 1]++;
        }
    for (int j = 0; j < joints; j++) targets->first[j + 1] += targets->first[j];
    targets->affine = true;
    for (int m = 0; m < model->mesh_count; m++)
        for (int b = 0; model->meshes[m].skinned && b < model->meshes[m].bone_count; b++) {
            int joint = model->meshes[m].bone_joint[b];
            if (!last_row_is_0001(model->meshes[m].inverse_bind[b])) targets->affine = false;
            if (joint < 0 || joint >= joints) continue;
            int slot = targets->first[joint] + fill[joint]++;
            targets->inverse_bind[slot] = (const vec4 *)model->meshes[m].inverse_bind[b];
            targets->palette[slot] = palettes[m][b];
        }
    free(fill);
    for (int j = 0; j < joints; j++)
        if (!last_row_is_0001(skeleton->rest_local[j])) targets->affine = false;
    return true;
}

void palette_targets_free(PaletteTargets *targets)
{
    free(targets->first);
    free(targets->inverse_bind);
    free(targets->palette);
    memset(targets, 0, sizeof *targets);
}

#endif

/* palette_i = model_j * inverse_bind_i for the bones joint j drives. */
static inline __attribute__((always_inline)) void joint_palette_entries(const PaletteTargets *targets, int j, const mat4 joint_model)
{
    const vec4 *const *inverse_bind = targets->inverse_bind;
    vec4 *const *palette = targets->palette;
    bool affine = targets->affine;
    for (int i = targets->first[j], end = targets->first[j + 1]; i < end; i++)
        joint_mul(affine, joint_model, inverse_bind[i], palette[i]);
}

POSE_KERNEL_LINKAGE void POSE_KERNEL(pose_palettes)(const PaletteTargets *targets, int joint_count, const mat4 *joint_model)
{
    for (int j = 0; j < joint_count; j++) joint_palette_entries(targets, j, joint_model[j]);
}

POSE_KERNEL_LINKAGE void POSE_KERNEL(pose_model_and_palettes)(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local,
                                          mat4 *joint_model);

POSE_KERNEL_LINKAGE void POSE_KERNEL(pose_evaluate_packed)(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets,
                                       float time, TimelineState *states, mat4 *local, mat4 *joint_model)
{
    float key_time = key_time_of(clip, time);
    const PackedTrack *tracks = clip->tracks;
    /* Pass 1: the local matrix of every animated joint. Tracks do not depend on each other, so
     * the CPU overlaps their long chains (key -> weights -> 2/|q|² -> matrix). (One loop over
     * the joints doing everything measured 25 % slower: a child waited for its parent's
     * sampling chain, and a skeleton is a few long chains.) */
    POSE_KERNEL(packed_clip_find_keys)(clip, key_time, states);
    for (int i = 0; i < clip->track_count; i++) track_or_held(clip, &tracks[i], states, key_time, local);
    /* Pass 2: model_j = model_parent * local_j, then the palette entries joint j drives. */
    POSE_KERNEL(pose_model_and_palettes)(skeleton, targets, (const mat4 *)local, joint_model);
}

POSE_KERNEL_LINKAGE void POSE_KERNEL(pose_model_and_palettes)(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local,
                                          mat4 *joint_model)
{
    const int *parents = skeleton->parent;
    bool affine = targets->affine;
    for (int j = 0, joints = skeleton->joint_count; j < joints; j++) {
        int parent = parents[j];
        if (parent < 0)
            glm_mat4_copy((vec4 *)local[j], joint_model[j]);
        else   /* model_j = model_parent * local_j (parent < j: already done) */
            joint_mul(affine, joint_model[parent], local[j], joint_model[j]);
        joint_palette_entries(targets, j, joint_model[j]);
    }
}

#ifndef POSE_FAST_AVX2
/* ---- the public per-frame functions: the kernel simd.c chose ------------------------ */

void packed_clip_find_keys(const PackedClip *packed, float key_time, TimelineState *states)
{
    POSE_DISPATCH(packed_clip_find_keys, (packed, key_time, states));
}

void packed_clip_sample(const PackedClip *packed, float time, TimelineState *states, mat4 *local)
{
    POSE_DISPATCH(packed_clip_sample, (packed, time, states, local));
}

void pose_palettes(const PaletteTargets *targets, int joint_count, const mat4 *joint_model)
{
    POSE_DISPATCH(pose_palettes, (targets, joint_count, joint_model));
}

void pose_evaluate_packed(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets, float time,
                          TimelineState *states, mat4 *local, mat4 *joint_model)
{
    POSE_DISPATCH(pose_evaluate_packed, (clip, skeleton, targets, time, states, local, joint_model));
}

void pose_model_and_palettes(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local, mat4 *joint_model)
{
    POSE_DISPATCH(pose_model_and_palettes, (skeleton, targets, local, joint_model));
}
#endif
