/* pose_lanes.c — forward playback, several tracks at a time: the sampling half of
 * pose_evaluate_packed (ozz-animation's structure-of-arrays idea, in this project's words).
 *
 * A packed clip's tracks whose channels are all LINEAR or STEP sit in "lanes" (PackedClip.lane_*).
 * For each lane and channel (T, R, S) the cursor keeps the key interval the time is in, spread out
 * one float per lane (PackedCursor.lane_fields): the interval's start, 1/Δt, the next key's time,
 * the two values (T, S: the first and the difference) and, for R, θ² of the interval. A frame is
 * then, for 4 lanes per SSE register or 8 per AVX register, with no branch per track:
 *   a = clamp((t - t_k) / Δt, 0, 1)                                 per channel
 *   T = T_k + a (T_k+1 - T_k),  S = S_k + a (S_k+1 - S_k)
 *   R = w0 q_k + w1 q_k+1,  w0 = sin((1-a)θ) / θ, w1 = sin(aθ) / θ   (slerp up to the factor
 *       θ / sin θ, which the division by |R|² below removes; sin(xθ)/θ = x (1 - y/6 + y²/120 -
 *       y³/5040 + y⁴/362880 - y⁵/39916800), y = x²θ²: θ <= 90° for sign-aligned keys, so y <= 2.47
 *       and the first dropped term is below 4e-8 — slerp within float rounding at every arc)
 *   local = T * R * S with s = 2 / |R|² (local_from_trs's formula, on whole registers),
 * then one 4x4 transpose per matrix column to store each lane's matrix. A channel's interval is
 * rewritten (scalar code) only when the time crosses its next key: one compare per register
 * per channel finds them. A seek (time going backwards, a loop wrap, or a step over 0.25 s) samples
 * track by track as packed_clip_sample does, and the next small step refills every lane from the
 * timelines' binary search. Held tracks are written only then; tracks with a CUBICSPLINE channel,
 * and tracks keyed so densely that their intervals would be rewritten most frames (PackedClip's
 * lane rule), are sampled one by one (track_sample).
 * tests/anim/test_pose_fast.c checks the result against clip_sample for every kernel. */
#include "pose_kernel.h"

#include "alloc.h"

#ifdef POSE_FAST_AVX2
#include <immintrin.h>
typedef float vf __attribute__((vector_size(32)));   /* one register of lanes */
typedef int vi __attribute__((vector_size(32)));
enum { LANES = 8 };
#else
#if defined(__SSE__) && !defined(SKINVIEW_NO_SIMD)
#include <xmmintrin.h>
#endif
typedef v4 vf;
typedef int vi __attribute__((vector_size(16)));
enum { LANES = 4 };
#endif

/* A step longer than this is a seek (see packed_clip_sample_forward). */
#define LANE_SEEK_SECONDS 0.25f

static inline vf load_lanes(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Bit l set where lane l of the comparison `m` is true. */
static inline int lane_bits(vi m)
{
#if defined(POSE_FAST_AVX2)
    return _mm256_movemask_ps((__m256)m);
#elif defined(__SSE__) && !defined(SKINVIEW_NO_SIMD)
    return _mm_movemask_ps((__m128)m);
#else
    int bits = 0;
    for (int l = 0; l < LANES; l++) bits |= (m[l] != 0) << l;
    return bits;
#endif
}

/* min(max(a, 0), 1) */
static inline vf clamp01(vf a)
{
#if defined(POSE_FAST_AVX2)
    return (vf)_mm256_min_ps(_mm256_max_ps((__m256)a, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
#elif defined(__SSE__) && !defined(SKINVIEW_NO_SIMD)
    return (vf)_mm_min_ps(_mm_max_ps((__m128)a, _mm_setzero_ps()), _mm_set1_ps(1.0f));
#else
    vi below = a < 0.0f, above = a > 1.0f;
    vf one = (vf){0} + 1.0f;
    return (vf)(((vi)a & ~below & ~above) | ((vi)one & above));
#endif
}

/* sin(x θ) / θ from y = x² θ² (see the top of the file). */
static inline vf sin_weight(vf x, vf theta2)
{
    vf y = x * x * theta2;
    vf p = y * (-1.0f / 39916800.0f) + 1.0f / 362880.0f;
    p = p * y - 1.0f / 5040.0f;
    p = p * y + 1.0f / 120.0f;
    p = p * y - 1.0f / 6.0f;
    return x * (p * y + 1.0f);
}

#ifndef POSE_FAST_AVX2 /* built once: baseline compilation only */
bool packed_cursor_init(PackedCursor *cursor, int timelines, int lanes)
{
    memset(cursor, 0, sizeof *cursor);
    cursor->timeline_capacity = timelines > 0 ? timelines : 1;
    cursor->lane_capacity = (lanes + 7) / 8 * 8;
    size_t capacity = (size_t)cursor->lane_capacity;
    bool ok = true;
    cursor->timelines = anim_zeroed((size_t)cursor->timeline_capacity, sizeof(TimelineState), &ok);
    cursor->lane_key = anim_zeroed(3 * capacity, sizeof(int), &ok);
    cursor->lane_fields = anim_zeroed(3 * LANE_FIELDS * capacity, sizeof(float), &ok);
    if (!ok) {
        packed_cursor_free(cursor);
        return false;
    }
    packed_cursor_reset(cursor);
    return true;
}

void packed_cursor_free(PackedCursor *cursor)
{
    free(cursor->timelines);
    free(cursor->lane_key);
    free(cursor->lane_fields);
    memset(cursor, 0, sizeof *cursor);
}

void packed_cursor_reset(PackedCursor *cursor)
{
    if (cursor->timelines) memset(cursor->timelines, 0, sizeof(TimelineState) * (size_t)cursor->timeline_capacity);
    cursor->lanes_valid = false;
    cursor->lanes_time = -INFINITY;
}
#endif

static inline const PackedChannel *lane_channel(const PackedTrack *track, int channel)
{
    return channel == 0 ? &track->translation : (channel == 1 ? &track->rotation : &track->scale);
}

#ifndef POSE_FAST_AVX2 /* built once: baseline compilation only */
/* A track the lanes sample: not held, no CUBICSPLINE channel, and keys sparse enough (anim.h). */
static bool track_in_lanes(const PackedClip *packed, const PackedTrack *track)
{
    int crossings = 0;   /* keys after the first, over the three channels */
    for (int c = 0; c < 3; c++) {
        const PackedChannel *channel = lane_channel(track, c);
        if (channel->kind == INTERPOLATION_CUBICSPLINE) return false;
        crossings += packed->timelines[channel->timeline].count - 1;
    }
    return !track->held && (float)crossings <= PACKED_DENSE_KEYS_PER_SECOND * packed->duration;
}

/* Padding lanes: one key that is never left (next = +Inf), identity rotation. */
static const float pad_time = 0.0f;
static const PackedTimeline pad_timeline = {.count = 1, .times = &pad_time, .inv_span = &pad_time};
static const float pad_records[3][LANE_FIELDS] = {
    {INFINITY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {INFINITY, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    {INFINITY, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0},
};

/* Record k of a channel: its lane fields while the time is in key interval k. */
static void channel_record(const PackedChannel *c, const PackedTimeline *timeline, int channel, int k, float *record)
{
    bool linear = c->kind == INTERPOLATION_LINEAR;   /* else STEP: a = 0 holds values[k] until the next key */
    const float *v0 = c->values + 4 * k, *v1 = linear ? v0 + 4 : v0;   /* values[count] pads the last key */
    record[LANE_NEXT] = k + 1 < timeline->count ? timeline->times[k + 1] : INFINITY;
    record[LANE_START] = timeline->times[k];
    record[LANE_INV_SPAN] = linear ? timeline->inv_span[k] : 0.0f;
    for (int i = 0; i < 4; i++) {
        record[LANE_V0 + i] = v0[i];
        record[LANE_V1 + i] = channel == 1 ? v1[i] : v1[i] - v0[i];
    }
    record[LANE_THETA2] = linear && c->theta2 ? c->theta2[k] : 0.0f;
}

bool packed_lanes_build(PackedClip *packed)
{
    int tracks = packed->track_count, lanes = 0;
    for (int i = 0; i < tracks; i++)
        if (track_in_lanes(packed, &packed->tracks[i])) lanes++;
    int capacity = packed->lane_capacity = (lanes + 7) / 8 * 8;
    bool ok = true;
    packed->lane_track = anim_zeroed((size_t)(2 * capacity + 2 * tracks), sizeof(int), &ok);
    packed->lane_timeline = anim_zeroed((size_t)(3 * capacity), sizeof(PackedTimeline *), &ok);
    packed->lane_records = anim_zeroed((size_t)(3 * capacity), sizeof(float *), &ok);
    if (!ok) return false;
    packed->lane_joint = packed->lane_track + capacity;
    packed->other_tracks = packed->lane_joint + capacity;
    packed->held_tracks = packed->other_tracks + tracks;
    size_t records = 0;
    for (int i = 0; i < tracks; i++) {
        const PackedTrack *track = &packed->tracks[i];
        if (track->held) {
            packed->held_tracks[packed->held_count++] = i;
        } else if (track_in_lanes(packed, track)) {
            packed->lane_track[packed->lane_count++] = i;
            for (int c = 0; c < 3; c++) records += (size_t)packed->timelines[lane_channel(track, c)->timeline].count;
        } else {
            packed->other_tracks[packed->other_count++] = i;
        }
    }
    packed->record_block = anim_zeroed(records * LANE_FIELDS, sizeof(float), &ok);
    if (!ok) return false;
    float *next = packed->record_block;
    for (int lane = 0; lane < capacity; lane++) {
        int track = packed->lane_track[lane] = lane < packed->lane_count ? packed->lane_track[lane] : -1;
        packed->lane_joint[lane] = track >= 0 ? packed->tracks[track].joint : -1;
        for (int c = 0; c < 3; c++) {
            int slot = c * capacity + lane;
            if (track < 0) {
                packed->lane_timeline[slot] = &pad_timeline;
                packed->lane_records[slot] = pad_records[c];
                continue;
            }
            const PackedChannel *channel = lane_channel(&packed->tracks[track], c);
            const PackedTimeline *timeline = &packed->timelines[channel->timeline];
            packed->lane_timeline[slot] = timeline;
            packed->lane_records[slot] = next;
            for (int k = 0; k < timeline->count; k++, next += LANE_FIELDS) channel_record(channel, timeline, c, k, next);
        }
    }
    return true;
}
#endif

/* Lane `lane`'s channel (0 T, 1 R, 2 S) enters key interval k: its record into the lane fields. */
static inline void lane_set(const PackedClip *packed, PackedCursor *cursor, int channel, int lane, int k)
{
    size_t capacity = (size_t)cursor->lane_capacity;
    float *field = cursor->lane_fields + (size_t)channel * LANE_FIELDS * capacity + (size_t)lane;
    const float *record = packed->lane_records[channel * packed->lane_capacity + lane] + (size_t)LANE_FIELDS * (size_t)k;
#pragma GCC unroll 12
    for (int f = 0; f < LANE_FIELDS; f++) field[(size_t)f * capacity] = record[f];
}

/* The time crossed this lane channel's next key: find its key (usually the next one) and set it. */
static void lane_advance(const PackedClip *packed, PackedCursor *cursor, int channel, int lane, float t)
{
    int *key = &cursor->lane_key[(size_t)channel * (size_t)cursor->lane_capacity + (size_t)lane];
    lane_set(packed, cursor, channel, lane, timeline_key(packed->lane_timeline[channel * packed->lane_capacity + lane], t, key));
}

/* Every lane from the timelines' keys at t (a start, or time going backwards), and the held tracks. */
static void lanes_fill(const PackedClip *packed, float t, PackedCursor *cursor, mat4 *local)
{
    POSE_KERNEL(packed_clip_find_keys)(packed, t, cursor->timelines);
    for (int lane = 0; lane < packed->lane_capacity; lane++) {
        int track = packed->lane_track[lane];
        for (int channel = 0; channel < 3; channel++) {
            int k = track < 0 ? 0 : cursor->timelines[lane_channel(&packed->tracks[track], channel)->timeline].key;
            cursor->lane_key[(size_t)channel * (size_t)cursor->lane_capacity + (size_t)lane] = k;
            lane_set(packed, cursor, channel, lane, k);
        }
    }
    for (int i = 0; i < packed->held_count; i++) {
        const PackedTrack *track = &packed->tracks[packed->held_tracks[i]];
        glm_mat4_copy((vec4 *)track->held_local, local[track->joint]);
    }
    cursor->lanes_valid = true;
}

/* Column `column` of every lane's matrix, its four rows given as registers: a 4x4 transpose per
 * group of 4 lanes, then one 16-byte store per lane. */
static inline void store_column(vf x, vf y, vf z, vf w, float *const *destination, int column)
{
#ifdef POSE_FAST_AVX2
    vf t0 = __builtin_shufflevector(x, y, 0, 8, 1, 9, 4, 12, 5, 13), t1 = __builtin_shufflevector(x, y, 2, 10, 3, 11, 6, 14, 7, 15);
    vf t2 = __builtin_shufflevector(z, w, 0, 8, 1, 9, 4, 12, 5, 13), t3 = __builtin_shufflevector(z, w, 2, 10, 3, 11, 6, 14, 7, 15);
    vf r[4] = {__builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13), __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15),
               __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13), __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15)};
#pragma GCC unroll 4
    for (int l = 0; l < 4; l++) {   /* r[l] = lane l's column | lane l+4's column */
        store4(destination[l] + 4 * column, __builtin_shufflevector(r[l], r[l], 0, 1, 2, 3));
        store4(destination[l + 4] + 4 * column, __builtin_shufflevector(r[l], r[l], 4, 5, 6, 7));
    }
#else
    v4 t0 = __builtin_shufflevector(x, y, 0, 4, 1, 5), t1 = __builtin_shufflevector(x, y, 2, 6, 3, 7);
    v4 t2 = __builtin_shufflevector(z, w, 0, 4, 1, 5), t3 = __builtin_shufflevector(z, w, 2, 6, 3, 7);
    store4(destination[0] + 4 * column, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
    store4(destination[1] + 4 * column, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
    store4(destination[2] + 4 * column, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
    store4(destination[3] + 4 * column, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
#endif
}

/* Lanes [lane, lane + LANES): move the intervals that the time left, then interpolate and write
 * local = T * R * S of each lane's joint. */
static inline __attribute__((always_inline)) void sample_lanes(const PackedClip *packed, PackedCursor *cursor, int lane,
                                                               float t, mat4 *local, mat4 scratch)
{
    size_t capacity = (size_t)cursor->lane_capacity;
    const float *fields = cursor->lane_fields + lane;
#define FIELD(channel, f) load_lanes(fields + ((size_t)(channel) * LANE_FIELDS + (size_t)(f)) * capacity)
    vf time = (vf){0} + t;
    int crossed = lane_bits(time >= FIELD(0, LANE_NEXT)) | lane_bits(time >= FIELD(1, LANE_NEXT)) << LANES |
                  lane_bits(time >= FIELD(2, LANE_NEXT)) << 2 * LANES;
    while (crossed) {   /* rare: a key boundary in this register's lanes */
        int bit = __builtin_ctz((unsigned)crossed);
        crossed &= crossed - 1;
        lane_advance(packed, cursor, bit / LANES, lane + bit % LANES, t);
    }
    vf a_t = clamp01((time - FIELD(0, LANE_START)) * FIELD(0, LANE_INV_SPAN));
    vf a_r = clamp01((time - FIELD(1, LANE_START)) * FIELD(1, LANE_INV_SPAN));
    vf a_s = clamp01((time - FIELD(2, LANE_START)) * FIELD(2, LANE_INV_SPAN));
    vf tx = FIELD(0, LANE_V0) + a_t * FIELD(0, LANE_V1), ty = FIELD(0, LANE_V0 + 1) + a_t * FIELD(0, LANE_V1 + 1),
       tz = FIELD(0, LANE_V0 + 2) + a_t * FIELD(0, LANE_V1 + 2);
    vf sx = FIELD(2, LANE_V0) + a_s * FIELD(2, LANE_V1), sy = FIELD(2, LANE_V0 + 1) + a_s * FIELD(2, LANE_V1 + 1),
       sz = FIELD(2, LANE_V0 + 2) + a_s * FIELD(2, LANE_V1 + 2);
    vf theta2 = FIELD(1, LANE_THETA2);
    vf w0 = sin_weight(1.0f - a_r, theta2), w1 = sin_weight(a_r, theta2);
    vf x = w0 * FIELD(1, LANE_V0) + w1 * FIELD(1, LANE_V1), y = w0 * FIELD(1, LANE_V0 + 1) + w1 * FIELD(1, LANE_V1 + 1),
       z = w0 * FIELD(1, LANE_V0 + 2) + w1 * FIELD(1, LANE_V1 + 2), w = w0 * FIELD(1, LANE_V0 + 3) + w1 * FIELD(1, LANE_V1 + 3);
#undef FIELD
    /* R of q / |q| from the products of q and s q, s = 2 / |q|² (0 for a zero q), as local_from_trs */
    vf length2 = x * x + y * y + z * z + w * w;
    vf s = (vf)((vi)(2.0f / length2) & (length2 > 0.0f));
    vf xs = x * s, ys = y * s, zs = z * s;
    vf xx = x * xs, yy = y * ys, zz = z * zs, xy = x * ys, xz = x * zs, yz = y * zs, wx = w * xs, wy = w * ys, wz = w * zs;
    float *destination[LANES];
#pragma GCC unroll 8
    for (int l = 0; l < LANES; l++) {
        int joint = packed->lane_joint[lane + l];
        destination[l] = joint >= 0 ? (float *)local[joint] : (float *)scratch;   /* padding: a scratch matrix */
    }
    vf zero = {0}, one = zero + 1.0f;
    store_column((1.0f - yy - zz) * sx, (xy + wz) * sx, (xz - wy) * sx, zero, destination, 0);
    store_column((xy - wz) * sy, (1.0f - xx - zz) * sy, (yz + wx) * sy, zero, destination, 1);
    store_column((xz + wy) * sz, (yz - wx) * sz, (1.0f - xx - yy) * sz, zero, destination, 2);
    store_column(tx, ty, tz, one, destination, 3);
}

void POSE_KERNEL(packed_clip_sample_forward)(const PackedClip *packed, float time, PackedCursor *cursor, mat4 *local)
{
    float t = clip_key_time(packed->start, packed->duration, time);
    if (packed->lane_capacity > cursor->lane_capacity) {   /* a cursor made for smaller clips: one by one */
        POSE_KERNEL(packed_clip_sample)(packed, time, cursor->timelines, local);
        return;
    }
    /* a seek (backwards, or further ahead than LANE_SEEK_SECONDS): track by track, as
     * packed_clip_sample (refilling every lane would cost more); the lanes start over at the next step */
    bool seek = t < cursor->lanes_time || t - cursor->lanes_time > LANE_SEEK_SECONDS;
    cursor->lanes_time = t;
    if (seek) {
        cursor->lanes_valid = false;
        POSE_KERNEL(packed_clip_sample)(packed, time, cursor->timelines, local);
        return;
    }
    if (!cursor->lanes_valid) lanes_fill(packed, t, cursor, local);
    mat4 scratch;
    for (int lane = 0; lane < packed->lane_count; lane += LANES) sample_lanes(packed, cursor, lane, t, local, scratch);
    if (packed->other_count > 0) {
        POSE_KERNEL(packed_clip_find_keys)(packed, t, cursor->timelines);
        for (int i = 0; i < packed->other_count; i++) {
            const PackedTrack *track = &packed->tracks[packed->other_tracks[i]];
            track_sample(packed, track, cursor->timelines, t, local[track->joint]);
        }
    }
}

#ifndef POSE_FAST_AVX2
void packed_clip_sample_forward(const PackedClip *packed, float time, PackedCursor *cursor, mat4 *local)
{
    POSE_DISPATCH(packed_clip_sample_forward, (packed, time, cursor, local));
}
#endif
