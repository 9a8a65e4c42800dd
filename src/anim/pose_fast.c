/* pose_fast.c — the per-frame pose laid out for the loop: packed clips, sampling (the lanes,
 * pose_lanes.c; track by track, pose_tracks.c), local -> model and the palette in one forward pass
 * over the joints. The same keys and the same results as
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
#include "pose_kernel.h"

#include "alloc.h"

#include <stdlib.h>

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

/* Floats one channel needs at most: its timeline, values (+1 padding key), tangents or θ². */
static size_t channel_floats(int count, bool cubic)
{
    if (count <= 0) count = 1;   /* a missing channel: one key with the rest value */
    return (size_t)count * 2 + (size_t)(count + 1) * 4 + (cubic ? (size_t)count * 8 : (size_t)count);
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
    if (width == 4 && out->kind == INTERPOLATION_LINEAR) {
        /* θ_k = acos(q_k . q_k+1) of each interval, squared, for the lane sampler's slerp weights
         * (in double: acos is steep near 1); the padding key gives the last one θ = 0 */
        float *theta2 = *block;
        for (int k = 0; k < count; k++) {
            const float *q0 = v + 4 * k, *q1 = q0 + 4;
            double d = (double)q0[0] * q1[0] + (double)q0[1] * q1[1] + (double)q0[2] * q1[2] + (double)q0[3] * q1[3];
            double theta = acos(d > 1.0 ? 1.0 : (d < 0.0 ? 0.0 : d));
            theta2[k] = (float)(theta * theta);
        }
        out->theta2 = theta2;
        *block += count;
    }
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
    bool ok = true;
    packed->block = anim_zeroed(floats, sizeof(float), &ok);
    packed->tracks = anim_zeroed((size_t)clip->track_count, sizeof(PackedTrack), &ok);
    packed->timelines = anim_zeroed(channels, sizeof(PackedTimeline), &ok);
    if (!ok) {
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
    if (!packed_lanes_build(packed)) {
        packed_clip_free(packed);
        return false;
    }
    return true;
}

void packed_clip_free(PackedClip *packed)
{
    /* (lane_joint, other_tracks and held_tracks live in lane_track's allocation) */
    void *owned[] = {packed->block, packed->tracks, packed->timelines, packed->lane_track, (void *)packed->lane_timeline,
                     (void *)packed->lane_records, packed->record_block};
    anim_free_each(owned, sizeof owned / sizeof *owned);
    memset(packed, 0, sizeof *packed);
}

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

/* ---- local -> model and palette, fused (every frame) -------------------------------- */

/* out = a * b for affine a, b (last rows 0 0 0 1): column i = a0 b_i.x + a1 b_i.y + a2 b_i.z (+ a3 for i = 3).
 * The left matrix is loaded once (AffineLeft) and reused: a joint's model matrix multiplies
 * every inverse bind matrix of the bones it drives. */
#ifdef POSE_FAST_AVX2
#include <immintrin.h>
/* The same product with 8-float registers (the AVX2 compilation only): two columns of b at a time,
 *   (out_i | out_i+1) = (a0|a0) (b_i.x | b_i+1.x) + (a1|a1) (b_i.y | ..) + (a2|a2) (b_i.z | ..) [+ (0|a3)],
 * the columns of a broadcast from memory to both halves, the coordinates of b spread within each
 * half (vpermilps): 6 permutes and 6 multiply-adds instead of 12 and 12. */
typedef struct AffineLeft {
    __m256 a0, a1, a2, a3_high;
} AffineLeft;

static inline AffineLeft affine_left(const mat4 a)
{
    return (AffineLeft){_mm256_broadcast_ps((const __m128 *)a[0]), _mm256_broadcast_ps((const __m128 *)a[1]),
                        _mm256_broadcast_ps((const __m128 *)a[2]),
                        _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(a[3]), 1)};
}

static inline void affine_mul(const AffineLeft *a, const mat4 b, mat4 out)
{
    __m256 b01 = _mm256_loadu_ps(b[0]), b23 = _mm256_loadu_ps(b[2]);
    __m256 out01 = _mm256_fmadd_ps(a->a2, _mm256_permute_ps(b01, 0xAA),
                                   _mm256_fmadd_ps(a->a1, _mm256_permute_ps(b01, 0x55), _mm256_mul_ps(a->a0, _mm256_permute_ps(b01, 0x00))));
    __m256 out23 = _mm256_fmadd_ps(a->a2, _mm256_permute_ps(b23, 0xAA),
                                   _mm256_fmadd_ps(a->a1, _mm256_permute_ps(b23, 0x55),
                                                   _mm256_fmadd_ps(a->a0, _mm256_permute_ps(b23, 0x00), a->a3_high)));
    _mm256_storeu_ps(out[0], out01);
    _mm256_storeu_ps(out[2], out23);
}
#else
typedef struct AffineLeft {
    v4 a0, a1, a2, a3;
} AffineLeft;

static inline AffineLeft affine_left(const mat4 a)
{
    return (AffineLeft){load4(a[0]), load4(a[1]), load4(a[2]), load4(a[3])};
}

static inline void affine_mul(const AffineLeft *a, const mat4 b, mat4 out)
{
    v4 b0 = load4(b[0]), b1 = load4(b[1]), b2 = load4(b[2]), b3 = load4(b[3]);
    store4(out[0], a->a0 * SPLAT(b0, 0) + a->a1 * SPLAT(b0, 1) + a->a2 * SPLAT(b0, 2));
    store4(out[1], a->a0 * SPLAT(b1, 0) + a->a1 * SPLAT(b1, 1) + a->a2 * SPLAT(b1, 2));
    store4(out[2], a->a0 * SPLAT(b2, 0) + a->a1 * SPLAT(b2, 1) + a->a2 * SPLAT(b2, 2));
    store4(out[3], a->a0 * SPLAT(b3, 0) + a->a1 * SPLAT(b3, 1) + a->a2 * SPLAT(b3, 2) + a->a3);
}
#endif

#ifndef POSE_FAST_AVX2
static bool last_row_is_0001(const mat4 m)
{
    return m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f;
}

/* Every skinned mesh's bones, flattened: entry e is bone (mesh, b) with its joint. */
typedef struct BoneEntry {
    int          joint;
    const vec4  *inverse_bind;
    vec4        *palette;
    int          same_as;   /* an earlier entry with the same joint and inverse bind matrix, or -1 */
} BoneEntry;

bool palette_targets_build(PaletteTargets *targets, const Model *model, mat4 **palettes)
{
    memset(targets, 0, sizeof *targets);
    const Skeleton *skeleton = &model->skeleton;
    int joints = skeleton->joint_count, count = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) count += model->meshes[m].bone_count;
    bool ok = true;
    size_t slots = (size_t)count;
    targets->first = anim_zeroed((size_t)joints + 1, sizeof(int), &ok);
    targets->inverse_bind = anim_zeroed(slots, sizeof(mat4 *), &ok);
    targets->palette = anim_zeroed(slots, sizeof(mat4 *), &ok);
    targets->copy_from = anim_zeroed(slots, sizeof(mat4 *), &ok);
    targets->copy_to = anim_zeroed(slots, sizeof(mat4 *), &ok);
    int *fill = anim_zeroed((size_t)joints, sizeof(int), &ok);   /* entries placed per joint so far */
    BoneEntry *entries = anim_zeroed(slots, sizeof(BoneEntry), &ok);
    if (!ok) {
        free(fill);
        free(entries);
        palette_targets_free(targets);
        return false;
    }
    targets->affine = true;
    int n = 0;
    for (int m = 0; m < model->mesh_count; m++)
        for (int b = 0; model->meshes[m].skinned && b < model->meshes[m].bone_count; b++) {
            int joint = model->meshes[m].bone_joint[b];
            if (!last_row_is_0001(model->meshes[m].inverse_bind[b])) targets->affine = false;
            if (joint < 0 || joint >= joints) continue;
            BoneEntry *e = &entries[n];
            *e = (BoneEntry){joint, (const vec4 *)model->meshes[m].inverse_bind[b], palettes[m][b], -1};
            /* meshes that share a skin bind the same joint with the same matrix: one product, copied */
            for (int earlier = 0; earlier < n && e->same_as < 0; earlier++)
                if (entries[earlier].joint == joint && memcmp(entries[earlier].inverse_bind, e->inverse_bind, sizeof(mat4)) == 0)
                    e->same_as = earlier;
            if (e->same_as < 0) targets->first[joint + 1]++;
            n++;
        }
    /* counting sort of the distinct entries by joint: first[j] = start of joint j's entries */
    for (int j = 0; j < joints; j++) targets->first[j + 1] += targets->first[j];
    for (int i = 0; i < n; i++) {
        const BoneEntry *e = &entries[i];
        if (e->same_as >= 0) {
            if (entries[e->same_as].palette == e->palette) continue;   /* meshes sharing one palette (Animator) */
            targets->copy_from[targets->copy_count] = entries[e->same_as].palette;
            targets->copy_to[targets->copy_count++] = e->palette;
            continue;
        }
        int slot = targets->first[e->joint] + fill[e->joint]++;
        targets->inverse_bind[slot] = e->inverse_bind;
        targets->palette[slot] = e->palette;
    }
    free(fill);
    free(entries);
    for (int j = 0; j < joints; j++)
        if (!last_row_is_0001(skeleton->rest_local[j])) targets->affine = false;
    return true;
}

void palette_targets_free(PaletteTargets *targets)
{
    void *owned[] = {targets->first, targets->inverse_bind, targets->palette, targets->copy_from, targets->copy_to};
    anim_free_each(owned, sizeof owned / sizeof *owned);
    memset(targets, 0, sizeof *targets);
}

#endif

/* palette_i = model_j * inverse_bind_i for the bones joint j drives; `affine` is a constant at
 * each call (the loops below are written out twice by the compiler, no test per product). */
static inline __attribute__((always_inline)) void joint_palette_entries(const PaletteTargets *targets, int j,
                                                                        const mat4 joint_model, bool affine)
{
    const vec4 *const *inverse_bind = targets->inverse_bind;
    vec4 *const *palette = targets->palette;
    int i = targets->first[j], end = targets->first[j + 1];
    if (i == end) return;
    if (affine) {
        AffineLeft model_j = affine_left(joint_model);
        for (; i < end; i++) affine_mul(&model_j, inverse_bind[i], palette[i]);
    } else {
        for (; i < end; i++) glm_mat4_mul((vec4 *)joint_model, (vec4 *)inverse_bind[i], palette[i]);
    }
}

/* The entries equal to an earlier one (PaletteTargets.copy_*), after the products. */
static inline void palette_copies(const PaletteTargets *targets)
{
    for (int c = 0; c < targets->copy_count; c++) memcpy(targets->copy_to[c], targets->copy_from[c], sizeof(mat4));
}

static inline __attribute__((always_inline)) void palettes_of(const PaletteTargets *targets, int joint_count,
                                                              const mat4 *joint_model, bool affine)
{
    for (int j = 0; j < joint_count; j++) joint_palette_entries(targets, j, joint_model[j], affine);
    palette_copies(targets);
}

void POSE_KERNEL(pose_palettes)(const PaletteTargets *targets, int joint_count, const mat4 *joint_model)
{
    if (targets->affine)
        palettes_of(targets, joint_count, joint_model, true);
    else
        palettes_of(targets, joint_count, joint_model, false);
}

void POSE_KERNEL(pose_evaluate_packed)(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets,
                                       float time, PackedCursor *cursor, mat4 *local, mat4 *joint_model)
{
    /* Pass 1: the local matrix of every animated joint (pose_lanes.c: several tracks per vector
     * register). Tracks do not depend on each other, so the CPU overlaps their chains. (One loop
     * over the joints doing everything measured 25 % slower: a child waited for its parent's
     * sampling chain, and a skeleton is a few long chains.) */
    POSE_KERNEL(packed_clip_sample_forward)(clip, time, cursor, local);
    /* Pass 2: model_j = model_parent * local_j, then the palette entries joint j drives. */
    POSE_KERNEL(pose_model_and_palettes)(skeleton, targets, (const mat4 *)local, joint_model);
}

static inline __attribute__((always_inline)) void model_and_palettes(const Skeleton *skeleton, const PaletteTargets *targets,
                                                                     const mat4 *local, mat4 *joint_model, bool affine)
{
    const int *parents = skeleton->parent;
    for (int j = 0, joints = skeleton->joint_count; j < joints; j++) {
        int parent = parents[j];
        if (parent < 0) {
            glm_mat4_copy((vec4 *)local[j], joint_model[j]);
        } else if (affine) {   /* model_j = model_parent * local_j (parent < j: already done) */
            AffineLeft model_parent = affine_left(joint_model[parent]);
            affine_mul(&model_parent, local[j], joint_model[j]);
        } else {
            glm_mat4_mul(joint_model[parent], (vec4 *)local[j], joint_model[j]);
        }
        joint_palette_entries(targets, j, joint_model[j], affine);
    }
    palette_copies(targets);
}

void POSE_KERNEL(pose_model_and_palettes)(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local,
                                          mat4 *joint_model)
{
    if (targets->affine)
        model_and_palettes(skeleton, targets, local, joint_model, true);
    else
        model_and_palettes(skeleton, targets, local, joint_model, false);
}

#ifndef POSE_FAST_AVX2
/* ---- the public per-frame functions: the kernel simd.c chose ------------------------ */

void pose_palettes(const PaletteTargets *targets, int joint_count, const mat4 *joint_model)
{
    POSE_DISPATCH(pose_palettes, (targets, joint_count, joint_model));
}

void pose_evaluate_packed(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets, float time,
                          PackedCursor *cursor, mat4 *local, mat4 *joint_model)
{
    POSE_DISPATCH(pose_evaluate_packed, (clip, skeleton, targets, time, cursor, local, joint_model));
}

void pose_model_and_palettes(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local, mat4 *joint_model)
{
    POSE_DISPATCH(pose_model_and_palettes, (skeleton, targets, local, joint_model));
}
#endif
