/* test_pose_fast.c — the fast pose path (src/anim/pose_fast.c) against the references:
 * packed_clip_sample = clip_sample, pose_evaluate_packed = clip_sample + pose_local_to_model +
 * skin_palette, on hand-built clips that exercise every case the packing changes:
 * LINEAR / STEP / CUBICSPLINE channels, channels a track lacks, one-key channels, keys with
 * a zero time step, quaternion keys in opposite hemispheres (sign alignment), arcs wider than
 * the series' 30° (the acos/sin branch), shared and separate timelines, times before the
 * start, after the end and NaN, forward playback, backward jumps and random seeks; plus the
 * slerp weights' error bound against double-precision slerp, and the full-product fallback
 * for a non-affine inverse bind matrix. */
#include "anim/animator.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned int rng_state = 777u;
static float rng_uniform(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

/* Largest |a - b| over the matrices, relative to max(1, |a|). */
static double mat4_difference(const mat4 *a, const mat4 *b, int n)
{
    double worst = 0.0, size = 1.0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                worst = fmax(worst, fabs((double)a[i][c][r] - (double)b[i][c][r]));
                size = fmax(size, fabs((double)a[i][c][r]));
            }
    return worst / size;
}

/* ---- a hand-built skeleton and clip ------------------------------------------------ */

enum { JOINTS = 8 };

static void build_skeleton(Skeleton *s)
{
    if (!skeleton_alloc(s, JOINTS)) exit(1);
    for (int j = 0; j < JOINTS; j++) {
        snprintf(s->names[j], SV_NAME_MAX, "joint%d", j);
        s->parent[j] = j == 0 ? -1 : (j == 5 ? 1 : j - 1);
        JointTransform *trs = &s->rest_trs[j];
        glm_vec3_copy((vec3){0.1f * (float)j, 1.0f, -0.2f}, trs->translation);
        glm_quatv(trs->rotation, 0.3f * (float)j, (vec3){0.0f, 1.0f, 0.0f});
        glm_vec3_copy((vec3){1.0f, 1.0f + 0.1f * (float)j, 1.0f}, trs->scale);
        joint_transform_to_matrix(trs, s->rest_local[j]);
        s->is_bone[j] = true;
    }
}

/* count keys at `times` (NULL: evenly over [0, duration]) for one channel of `width` floats. */
static float *channel_times(int count, float duration, const float *times)
{
    float *out = test_calloc((size_t)count, sizeof(float));
    for (int k = 0; k < count; k++) out[k] = times ? times[k] : (count > 1 ? duration * (float)k / (float)(count - 1) : 0.5f);
    return out;
}

static void random_rotation(versor q, float max_angle)
{
    vec3 axis = {rng_uniform(-1, 1), rng_uniform(-1, 1), rng_uniform(-1, 1)};
    glm_vec3_normalize(axis);
    glm_quatv(q, rng_uniform(-max_angle, max_angle), axis);
}

/* Rotation keys each within `step` radians of the previous one (so that the arc between keys
 * stays below / above the series' 30°), every other key negated (opposite hemisphere). */
static versor *rotation_keys(int count, float step, bool flip_signs)
{
    versor *q = test_calloc((size_t)count, sizeof(versor));
    random_rotation(q[0], 3.0f);
    for (int k = 1; k < count; k++) {
        versor delta;
        random_rotation(delta, step);
        glm_quat_mul(delta, q[k - 1], q[k]);
        glm_quat_normalize(q[k]);
    }
    if (flip_signs)
        for (int k = 1; k < count; k += 2) glm_vec4_negate(q[k]);
    return q;
}

static vec3 *vec3_keys(int count, float lo, float hi)
{
    vec3 *v = test_calloc((size_t)count, sizeof(vec3));
    for (int k = 0; k < count; k++)
        for (int i = 0; i < 3; i++) v[k][i] = rng_uniform(lo, hi);
    return v;
}

static void *tangent_keys(int count, int width, float scale)
{
    float *t = test_calloc((size_t)count * 2 * (size_t)width, sizeof(float));
    for (int i = 0; i < count * 2 * width; i++) t[i] = rng_uniform(-scale, scale);
    return t;
}

/* Translation, rotation and scale keys on one timeline of `keys` up to `end`: translations in [-1, 1],
 * rotations turning by `step` a key (signs flipped when `flip`), scales in [scale_low, scale_high]. */
static void trs_keys(JointTrack *t, int keys, float end, float step, bool flip, float scale_low, float scale_high)
{
    t->translation_count = t->rotation_count = t->scale_count = keys;
    t->translation_times = channel_times(keys, end, NULL);
    t->rotation_times = channel_times(keys, end, NULL);
    t->scale_times = channel_times(keys, end, NULL);
    t->translation_values = vec3_keys(keys, -1, 1);
    t->rotation_values = rotation_keys(keys, step, flip);
    t->scale_values = vec3_keys(keys, scale_low, scale_high);
}

/* The clip: one track per joint but joint 3 (rest pose), with a mix of everything. */
static void build_clip(Clip *clip, float duration)
{
    static const float irregular[6] = {0.0f, 0.1f, 0.1f, 0.45f, 0.9f, 2.0f};   /* a zero step: 0.1, 0.1 */
    memset(clip, 0, sizeof *clip);
    snprintf(clip->name, sizeof clip->name, "mix");
    clip->start = 0.25f;
    clip->duration = duration;
    clip->track_count = JOINTS - 1;
    clip->tracks = test_calloc((size_t)clip->track_count, sizeof(JointTrack));
    int joint = 0;
    for (int i = 0; i < clip->track_count; i++, joint++) {
        if (joint == 3) joint++;
        JointTrack *t = &clip->tracks[i];
        t->joint = joint;
        int keys = 5 + i * 3;
        float end = clip->start + duration;
        switch (i) {
        case 0:   /* T R S LINEAR, one timeline, signs flipped */
            trs_keys(t, keys, end, 0.4f, true, 0.5f, 1.5f);
            break;
        case 1:   /* rotation only, wide arcs (acos/sin branch), irregular times with a zero step */
            t->rotation_count = 6;
            t->rotation_times = channel_times(6, end, irregular);
            t->rotation_values = rotation_keys(6, 2.5f, true);
            break;
        case 2:   /* STEP everything, own timelines */
            t->translation_count = keys, t->rotation_count = keys - 2;
            t->translation_times = channel_times(keys, end * 0.7f, NULL);
            t->rotation_times = channel_times(keys - 2, end, NULL);
            t->translation_values = vec3_keys(keys, -2, 2);
            t->rotation_values = rotation_keys(keys - 2, 0.6f, false);
            t->translation_interpolation = t->rotation_interpolation = INTERPOLATION_STEP;
            break;
        case 3:   /* CUBICSPLINE T, R and S with tangents */
            trs_keys(t, keys, end, 0.3f, false, 0.8f, 1.2f);
            t->translation_tangents = tangent_keys(keys, 3, 2.0f);
            t->rotation_tangents = tangent_keys(keys, 4, 0.5f);
            t->scale_tangents = tangent_keys(keys, 3, 0.5f);
            t->translation_interpolation = t->rotation_interpolation = t->scale_interpolation =
                INTERPOLATION_CUBICSPLINE;
            break;
        case 4:   /* one-key channels (a pose), scale missing */
            t->translation_count = t->rotation_count = 1;
            t->translation_times = channel_times(1, end, NULL);
            t->rotation_times = channel_times(1, end, NULL);
            t->translation_values = vec3_keys(1, -1, 1);
            t->rotation_values = rotation_keys(1, 0.1f, false);
            break;
        case 5:   /* CUBICSPLINE without tangents (sampled linearly), small arcs */
            t->rotation_count = keys;
            t->rotation_times = channel_times(keys, end, NULL);
            t->rotation_values = rotation_keys(keys, 0.05f, true);
            t->rotation_interpolation = INTERPOLATION_CUBICSPLINE;
            break;
        default:  /* translation and scale on the shared timeline of track 0 */
            t->translation_count = t->scale_count = clip->tracks[0].translation_count;
            t->translation_times = channel_times(t->translation_count, end, NULL);
            t->scale_times = channel_times(t->scale_count, end, NULL);
            t->translation_values = vec3_keys(t->translation_count, -1, 1);
            t->scale_values = vec3_keys(t->scale_count, 0.9f, 1.1f);
            break;
        }
    }
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_packing(const Clip *clip, const Skeleton *skeleton)
{
    PackedClip packed;
    CHECK(packed_clip_build(&packed, clip, skeleton), "packed_clip_build");
    CHECK(packed.track_count == clip->track_count, "one packed track per track");
    /* Track 0's three channels and the last track's two share one timeline. */
    const PackedTrack *first = &packed.tracks[0], *last = &packed.tracks[packed.track_count - 1];
    CHECK(first->translation.timeline == first->rotation.timeline && first->rotation.timeline == first->scale.timeline &&
              last->translation.timeline == first->translation.timeline,
          "channels keyed at the same times share a timeline");
    CHECK(packed.tracks[2].translation.timeline != packed.tracks[2].rotation.timeline,
          "channels keyed at other times get their own");
    CHECK(packed.timeline_count < 3 * clip->track_count, "%d timelines for %d channels", packed.timeline_count,
          3 * clip->track_count);
    /* Sign alignment: consecutive LINEAR rotation keys in one hemisphere. */
    const PackedTimeline *timeline = &packed.timelines[first->rotation.timeline];
    bool aligned = true;
    for (int k = 0; k + 1 < timeline->count; k++) {
        const float *q0 = first->rotation.values + 4 * k, *q1 = q0 + 4;
        if (q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] < 0.0f) aligned = false;
    }
    CHECK(aligned, "rotation keys sign-aligned at build time");
    CHECK(packed.tracks[4].scale.kind == INTERPOLATION_STEP && packed.timelines[packed.tracks[4].scale.timeline].count == 1,
          "a missing channel is one held key");
    CHECK(packed.tracks[5].rotation.kind == INTERPOLATION_LINEAR, "CUBICSPLINE without tangents is packed as LINEAR");
    packed_clip_free(&packed);
    CHECK(packed.tracks == NULL && packed.block == NULL, "packed_clip_free clears");
}

/* packed_clip_sample against clip_sample along a sequence of times (one pair of cursors each). */
static double compare_sampling(const Clip *clip, const Skeleton *skeleton, const float *times, int count,
                               const char *what)
{
    PackedClip packed;
    packed_clip_build(&packed, clip, skeleton);
    TimelineState *states = test_calloc((size_t)packed.timeline_count, sizeof(TimelineState));
    TrackCursor *cursors = test_calloc((size_t)clip->track_count, sizeof(TrackCursor));
    PackedCursor cursor;
    CHECK(packed_cursor_init(&cursor, packed.timeline_count, packed.lane_capacity), "packed_cursor_init");
    mat4 fast[JOINTS], reference[JOINTS], lanes[JOINTS];
    pose_set_rest(skeleton, lanes);   /* the lane sampler writes animated joints only, held ones on a refill */
    double worst = 0.0, worst_lanes = 0.0;
    int worst_at = -1, worst_lanes_at = -1;
    for (int i = 0; i < count; i++) {
        pose_set_rest(skeleton, fast);
        pose_set_rest(skeleton, reference);
        packed_clip_sample(&packed, times[i], states, fast);
        packed_clip_sample_forward(&packed, times[i], &cursor, lanes);
        clip_sample(clip, skeleton, times[i], cursors, reference);
        double difference = mat4_difference(reference, fast, JOINTS), difference_lanes = mat4_difference(reference, lanes, JOINTS);
        if (difference > worst) worst = difference, worst_at = i;
        if (difference_lanes > worst_lanes) worst_lanes = difference_lanes, worst_lanes_at = i;
    }
    CHECK(worst <= 2e-6, "%s: packed sampling = clip_sample within %.2g (worst at t = %g)", what, worst,
          worst_at >= 0 ? (double)times[worst_at] : 0.0);
    CHECK(worst_lanes <= 2e-6, "%s: lane sampling (%d lanes, %d one by one, %d held) = clip_sample within %.2g (worst at t = %g)",
          what, packed.lane_count, packed.other_count, packed.held_count, worst_lanes,
          worst_lanes_at >= 0 ? (double)times[worst_lanes_at] : 0.0);
    packed_cursor_free(&cursor);
    free(states);
    free(cursors);
    packed_clip_free(&packed);
    return worst;
}

static void test_sampling_matches_reference(const Clip *clip, const Skeleton *skeleton)
{
    enum { N = 900 };
    float *times = test_calloc(N, sizeof(float));
    for (int i = 0; i < N; i++) times[i] = -0.2f + (clip->duration + 0.4f) * (float)i / (float)(N - 1);   /* forward */
    compare_sampling(clip, skeleton, times, N, "forward playback (with times outside the clip)");
    for (int i = 0; i < N; i++) times[i] = clip->duration * (1.0f - (float)i / (float)(N - 1));   /* backward */
    compare_sampling(clip, skeleton, times, N, "backward playback");
    for (int i = 0; i < N; i++) times[i] = rng_uniform(-0.1f, clip->duration + 0.1f);
    compare_sampling(clip, skeleton, times, N, "random seeks");
    for (int i = 0; i < N; i++) times[i] = fmodf((float)i / 60.0f, clip->duration);   /* looping at 60 fps */
    compare_sampling(clip, skeleton, times, N, "looping at 60 fps");
    /* exactly at every key time of track 0 and of the irregular track, and the special values */
    int n = 0;
    for (int k = 0; k < clip->tracks[0].rotation_count; k++) times[n++] = clip->tracks[0].rotation_times[k] - clip->start;
    for (int k = 0; k < clip->tracks[1].rotation_count; k++) times[n++] = clip->tracks[1].rotation_times[k] - clip->start;
    times[n++] = NAN;
    times[n++] = INFINITY;
    times[n++] = -INFINITY;
    times[n++] = 0.0f;
    times[n++] = clip->duration;
    compare_sampling(clip, skeleton, times, n, "at the keys, NaN, infinities, both ends");
    free(times);
}

/* One root joint at rest (identity), allocated (skeleton_free it). */
static Skeleton one_joint_skeleton(void)
{
    Skeleton skeleton = {0};
    if (!skeleton_alloc(&skeleton, 1)) exit(1);
    skeleton.parent[0] = -1;
    glm_quat_identity(skeleton.rest_trs[0].rotation);
    glm_vec3_fill(skeleton.rest_trs[0].scale, 1.0f);
    return skeleton;
}

/* The slerp weights: rotation of the packed result vs double-precision slerp, arcs 0.01° .. 179°. */
static void test_slerp_error_bound(void)
{
    Skeleton skeleton = one_joint_skeleton();
    float times[2] = {0.0f, 1.0f};
    versor keys[2];
    JointTrack track = {.joint = 0, .rotation_count = 2, .rotation_times = times, .rotation_values = keys};
    Clip clip = {.duration = 1.0f, .track_count = 1, .tracks = &track};
    double worst_small = 0.0, worst_wide = 0.0, worst_reference = 0.0, worst_lanes = 0.0;
    for (int a = 0; a < 400; a++) {
        double arc = a < 300 ? 60.0 * (a + 0.01) / 300.0 : 60.0 + 119.0 * (a - 300) / 99.0;   /* rotation angle, degrees */
        vec3 axis = {rng_uniform(-1, 1), rng_uniform(-1, 1), rng_uniform(-1, 1)};
        glm_vec3_normalize(axis);
        random_rotation(keys[0], 3.0f);
        versor delta;
        glm_quatv(delta, (float)(arc * GLM_PI / 180.0), axis);
        glm_quat_mul(delta, keys[0], keys[1]);
        PackedClip packed;
        packed_clip_build(&packed, &clip, &skeleton);
        TimelineState states[4] = {0};
        CHECK(packed.timeline_count <= 4, "test setup: %d timelines", packed.timeline_count);
        PackedCursor cursor;
        CHECK(packed_cursor_init(&cursor, packed.timeline_count, packed.lane_capacity) && packed.lane_count == 1,
              "test setup: one lane");
        for (int s = 0; s <= 16; s++) {
            float t = (float)s / 16.0f;
            mat4 local, lane;
            packed_clip_sample(&packed, t, states, &local);
            packed_clip_sample_forward(&packed, t, &cursor, &lane);
            /* exact: slerp in double between the normalised keys, the short way, with the arc
             * θ = 2 atan2(|q1 - q0|, |q1 + q0|) (accurate for tiny arcs, where acos(d) is not) */
            double q0[4], q1[4], n0 = 0.0, n1 = 0.0, d = 0.0, minus = 0.0, plus = 0.0;
            for (int i = 0; i < 4; i++) n0 += (double)keys[0][i] * keys[0][i], n1 += (double)keys[1][i] * keys[1][i];
            for (int i = 0; i < 4; i++) q0[i] = keys[0][i] / sqrt(n0), q1[i] = keys[1][i] / sqrt(n1), d += q0[i] * q1[i];
            if (d < 0.0)
                for (int i = 0; i < 4; i++) q1[i] = -q1[i];
            for (int i = 0; i < 4; i++)
                minus += (q1[i] - q0[i]) * (q1[i] - q0[i]), plus += (q1[i] + q0[i]) * (q1[i] + q0[i]);
            double theta = 2.0 * atan2(sqrt(minus), sqrt(plus)), q[4], norm = 0.0;
            for (int i = 0; i < 4; i++) {
                q[i] = theta < 1e-9 ? q0[i] : (sin((1.0 - t) * theta) * q0[i] + sin(t * theta) * q1[i]) / sin(theta);
                norm += q[i] * q[i];
            }
            versor exact = {(float)(q[0] / sqrt(norm)), (float)(q[1] / sqrt(norm)), (float)(q[2] / sqrt(norm)),
                            (float)(q[3] / sqrt(norm))};
            mat4 want;
            glm_quat_mat4(exact, want);
            double difference = mat4_difference(&want, &local, 1);   /* ~ the angle between the two, in radians */
            versor reference;
            mat4 reference_matrix;
            quat_slerp_shortest(keys[0], keys[1], t, reference);
            glm_quat_mat4(reference, reference_matrix);
            worst_reference = fmax(worst_reference, mat4_difference(&want, &reference_matrix, 1));
            if (arc <= 60.0) worst_small = fmax(worst_small, difference);
            else worst_wide = fmax(worst_wide, difference);
            worst_lanes = fmax(worst_lanes, mat4_difference(&want, &lane, 1));
        }
        packed_cursor_free(&cursor);
        packed_clip_free(&packed);
    }
    CHECK(worst_small <= 1e-6, "series slerp (rotation arcs <= 60 deg between keys): within %.2g of exact slerp",
          worst_small);
    CHECK(worst_wide <= 1e-6, "acos/sin slerp (arcs 60..179 deg): within %.2g of exact slerp", worst_wide);
    CHECK(worst_lanes <= 1e-6, "lane slerp (sin series in θ², arcs 0.01..179 deg): within %.2g of exact slerp", worst_lanes);
    printf("slerp weights vs double-precision slerp: %.2g (arcs <= 60 deg), %.2g (wider), lanes %.2g; "
           "the reference quat_slerp_shortest: %.2g\n", worst_small, worst_wide, worst_lanes, worst_reference);
    skeleton.joint_count = 1;
    Model holder = {.skeleton = skeleton};
    model_free(&holder);
}

/* pose_evaluate_packed (through the Animator) = the reference jobs, affine and not. */
static void test_pose_matches_reference(Clip *clip, Skeleton *skeleton, bool affine)
{
    Model model = {0};
    model.skeleton = *skeleton;
    model.clip_count = 1;
    model.clips = clip;
    Mesh mesh = {.skinned = true, .bone_count = 5, .vertex_count = 0};
    int bone_joint[5] = {6, 0, 2, 3, 6};   /* joint 6 drives two bones, joint 3 has no track */
    mat4 inverse_bind[5];
    for (int b = 0; b < 5; b++) {
        glm_mat4_inv(skeleton->rest_local[bone_joint[b]], inverse_bind[b]);
        inverse_bind[b][3][0] += 0.1f * (float)b;
    }
    if (!affine) inverse_bind[2][0][3] = 0.01f;   /* a projective row: the full product must be used */
    mesh.bone_joint = bone_joint;
    mesh.inverse_bind = inverse_bind;
    model.mesh_count = 1;
    model.meshes = &mesh;
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator_init");
    CHECK(animator.playback.targets.affine == affine, "PaletteTargets.affine = %d", affine);
    TrackCursor *cursors = test_calloc((size_t)clip->track_count, sizeof(TrackCursor));
    mat4 local[JOINTS], joint_model[JOINTS], palette[5];
    double worst_model = 0.0, worst_palette = 0.0;
    for (int f = 0; f < 400; f++) {
        float t = f < 200 ? (float)f / 60.0f : rng_uniform(-0.5f, clip->duration + 0.5f);
        animator_evaluate(&animator, 0, t);
        pose_set_rest(skeleton, local);
        clip_sample(clip, skeleton, t, cursors, local);
        pose_local_to_model(skeleton, local, joint_model);
        skin_palette(&mesh, joint_model, palette);
        worst_model = fmax(worst_model, mat4_difference(joint_model, animator.joint_model, JOINTS));
        worst_palette = fmax(worst_palette, mat4_difference(palette, animator.palettes[0], 5));
    }
    CHECK(worst_model <= 2e-6 && worst_palette <= 2e-6,
          "%s: fast pose = reference jobs (joint matrices within %.2g, palette %.2g)", affine ? "affine" : "projective",
          worst_model, worst_palette);
    /* Switching away and back: joints without a track are back at rest. */
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    animator_evaluate(&animator, 0, 0.5f);
    pose_set_rest(skeleton, local);
    memset(cursors, 0, sizeof(TrackCursor) * (size_t)clip->track_count);
    clip_sample(clip, skeleton, 0.5f, cursors, local);
    CHECK(mat4_difference(local, animator.local, JOINTS) <= 2e-6, "after a switch, local[] = rest + this clip's tracks");
    free(cursors);
    animator_free(&animator);
}

/* Fuzzer find: two keys 2.5e-44 s apart (a denormal span) made 1/span = Inf and the sample at
 * t = times[0] Inf * 0 = NaN. The packed sampler must hold the key instead. */
static void test_denormal_key_span(void)
{
    Skeleton skeleton = one_joint_skeleton();
    float times[2] = {0.0f, 2.52234e-44f};
    vec3 translations[2] = {{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 3.0f}};
    JointTrack track = {.joint = 0, .translation_count = 2, .translation_times = times,
                        .translation_values = translations};
    Clip clip = {.duration = times[1], .track_count = 1, .tracks = &track};
    PackedClip packed;
    CHECK(packed_clip_build(&packed, &clip, &skeleton), "packed_clip_build (denormal span)");
    TimelineState states[4] = {0};
    mat4 local[1];
    const float sample_times[3] = {0.0f, times[1], 1.0f};
    for (int s = 0; s < 3; s++) {
        glm_mat4_identity(local[0]);
        packed_clip_sample(&packed, sample_times[s], states, local);
        bool finite = true;
        for (int i = 0; i < 16; i++) finite = finite && isfinite(local[0][i / 4][i % 4]);
        CHECK(finite, "denormal key span: local matrix finite at t = %g", (double)sample_times[s]);
    }
    CHECK(local[0][3][2] == 3.0f, "denormal key span: z translation %g", (double)local[0][3][2]);
    packed_clip_free(&packed);
    Model holder = {.skeleton = skeleton};
    model_free(&holder);
}

/* Channels whose keys all hold one value pack as one held key; a track made only of such
 * channels is "held": its local matrix is computed once and copied every frame. Sampled or held,
 * the result is clip_sample's at every time, and a track that moves is never held. */
static void test_held_tracks(void)
{
    Skeleton skeleton = {0};
    if (!skeleton_alloc(&skeleton, 2)) exit(1);
    skeleton.parent[0] = -1, skeleton.parent[1] = 0;
    for (int j = 0; j < 2; j++) {
        glm_quat_identity(skeleton.rest_trs[j].rotation);
        glm_vec3_fill(skeleton.rest_trs[j].scale, 1.0f);
        joint_transform_to_matrix(&skeleton.rest_trs[j], skeleton.rest_local[j]);
    }
    float times[3] = {0.0f, 0.5f, 1.0f};
    vec3 same_t[3] = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, moving_t[3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
    versor same_r[3], moving_r[3];
    vec3 same_s[3] = {{2, 2, 2}, {2, 2, 2}, {2, 2, 2}};
    for (int k = 0; k < 3; k++) {
        glm_quatv(same_r[k], 0.7f, (vec3){0, 1, 0});
        glm_quatv(moving_r[k], 0.3f * (float)k, (vec3){1, 0, 0});
    }
    JointTrack tracks[2] = {
        {.joint = 0, .translation_count = 3, .translation_times = times, .translation_values = same_t, .rotation_count = 3,
         .rotation_times = times, .rotation_values = same_r, .scale_count = 3, .scale_times = times, .scale_values = same_s},
        {.joint = 1, .translation_count = 3, .translation_times = times, .translation_values = moving_t,
         .rotation_count = 3, .rotation_times = times, .rotation_values = moving_r, .scale_count = 3,
         .scale_times = times, .scale_values = same_s},
    };
    Clip clip = {.duration = 1.0f, .track_count = 2, .tracks = tracks};
    PackedClip packed;
    CHECK(packed_clip_build(&packed, &clip, &skeleton), "packed_clip_build (held tracks)");
    CHECK(packed.tracks[0].held && !packed.tracks[1].held, "the constant track is held, the moving one is not");
    CHECK(packed.timelines[packed.tracks[1].scale.timeline].count == 1, "a constant channel of a moving track: one key");
    TimelineState states[8] = {0};
    TrackCursor cursors[2] = {0};
    double worst = 0.0;
    for (int s = 0; s <= 20; s++) {
        float t = 0.05f * (float)s;
        mat4 fast[2], reference[2];
        pose_set_rest(&skeleton, fast);
        pose_set_rest(&skeleton, reference);
        packed_clip_sample(&packed, t, states, fast);
        clip_sample(&clip, &skeleton, t, cursors, reference);
        worst = fmax(worst, mat4_difference((const mat4 *)fast, (const mat4 *)reference, 2));
    }
    CHECK(worst <= 2e-6, "held and sampled tracks = clip_sample within %.2g", worst);
    packed_clip_free(&packed);
    Model holder = {.skeleton = skeleton};
    model_free(&holder);
}

int main(void)
{
    Skeleton skeleton = {0};
    build_skeleton(&skeleton);
    Clip clip;
    build_clip(&clip, 1.75f);
    test_packing(&clip, &skeleton);
    Clip dense;   /* the same keys in 0.1 s: too dense for the lanes, every track sampled one by one */
    build_clip(&dense, 0.1f);
    {
        PackedClip packed;
        CHECK(packed_clip_build(&packed, &dense, &skeleton) && packed.lane_count < 5 && packed.other_count > 1,
              "dense tracks leave the lanes (%d lanes, %d one by one)", packed.lane_count, packed.other_count);
        packed_clip_free(&packed);
    }
    /* every kernel this CPU has: the baseline, and the AVX2 + FMA compilation of pose_fast.c
     * (pose_fast_avx2.c) when simd.c finds it (SKINVIEW_SIMD=sse2 limits the run to the baseline) */
    int best = anim_simd_level();
    for (int level = ANIM_SIMD_BASELINE; level <= best; level++) {
        anim_simd_set(level);
        printf("  kernel: %s\n", anim_simd_name(level));
        test_sampling_matches_reference(&clip, &skeleton);
        test_sampling_matches_reference(&dense, &skeleton);
        test_slerp_error_bound();
        test_denormal_key_span();
        test_held_tracks();
        test_pose_matches_reference(&clip, &skeleton, true);
        test_pose_matches_reference(&clip, &skeleton, false);
    }
    anim_simd_set(best);
    Model holder = {.skeleton = skeleton, .clip_count = 1, .clips = test_calloc(1, sizeof(Clip))};
    holder.clips[0] = clip;
    model_free(&holder);
    Model dense_holder = {.clip_count = 1, .clips = test_calloc(1, sizeof(Clip))};
    dense_holder.clips[0] = dense;
    model_free(&dense_holder);
    return test_finish();
}
