/* test_sampling.c — clip sampling (src/anim/sample.c): keys, interpolation,
 * the short-way slerp, clamping, and the key cursor against a naive search. */
#include "anim/anim.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

#define PI_F 3.14159265358979f

/* ---- helpers ------------------------------------------------------------- */

static bool vec3_near(const vec3 a, const vec3 b, float eps)
{
    return fabsf(a[0] - b[0]) <= eps && fabsf(a[1] - b[1]) <= eps && fabsf(a[2] - b[2]) <= eps;
}

static bool vec3_same(const vec3 a, const vec3 b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static bool quat_same(const versor a, const versor b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* The same rotation: q and -q both count. */
static bool quat_same_rotation(const versor a, const versor b, float eps)
{
    float d = fabsf(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    return d >= 1.0f - eps;
}

/* Angle (radians, 0..pi) of the rotation that takes a to b. */
static float rotation_angle_between(const versor a, const versor b)
{
    float d = fabsf(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    if (d > 1.0f) d = 1.0f;
    return 2.0f * acosf(d);
}

static void axis_angle(float angle, float x, float y, float z, versor out)
{
    vec3 axis = {x, y, z};
    glm_vec3_normalize(axis);
    glm_quatv(out, angle, axis);
}

/* Deterministic random numbers (the tests must fail or pass the same way every run). */
static unsigned int rng_state = 12345u;
static float rng_uniform(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

/* The key interval by linear search, written independently of key_find. */
static int naive_key(const float *times, int count, float t)
{
    if (!(t > times[0])) return 0;
    for (int k = count - 1; k >= 0; k--)
        if (times[k] <= t) return k;
    return 0;
}

static void naive_vec3(const float *times, const vec3 *values, int count, float t, vec3 out)
{
    int k = naive_key(times, count, t);
    if (k == count - 1 || t <= times[0]) {
        glm_vec3_copy((float *)values[k], out);
        return;
    }
    float a = (t - times[k]) / (times[k + 1] - times[k]);
    for (int i = 0; i < 3; i++) out[i] = values[k][i] * (1.0f - a) + values[k + 1][i] * a;
}

/* ---- tests --------------------------------------------------------------- */

static void test_exact_at_keys(void)
{
    const float times[4] = {0.0f, 0.5f, 1.25f, 2.0f};
    const vec3 values[4] = {{1, 2, 3}, {-4, 5.5f, 0.25f}, {7, -8, 9}, {0.1f, 0.2f, 0.3f}};
    versor rotations[4];
    axis_angle(0.3f, 1, 0, 0, rotations[0]);
    axis_angle(1.1f, 0, 1, 0, rotations[1]);
    axis_angle(-2.0f, 1, 1, 1, rotations[2]);
    axis_angle(2.9f, 0, 0, 1, rotations[3]);

    int forward = 0, forward_q = 0;
    for (int k = 0; k < 4; k++) {
        int fresh = 0, fresh_q = 0;
        vec3 v, vf;
        versor q, qf;
        sample_vec3(times, values, 4, times[k], &fresh, v);
        sample_vec3(times, values, 4, times[k], &forward, vf);
        sample_quat(times, (const versor *)rotations, 4, times[k], &fresh_q, q);
        sample_quat(times, (const versor *)rotations, 4, times[k], &forward_q, qf);
        CHECK(vec3_near(v, values[k], 1e-6f), "vec3 at key %d: (%g %g %g)", k, v[0], v[1], v[2]);
        CHECK(vec3_near(vf, values[k], 1e-6f), "vec3 at key %d through a forward cursor", k);
        CHECK(quat_same_rotation(q, rotations[k], 1e-6f) && fabsf(q[3] - rotations[k][3]) < 1e-5f,
              "quat at key %d: (%g %g %g %g)", k, q[0], q[1], q[2], q[3]);
        CHECK(quat_same_rotation(qf, rotations[k], 1e-6f), "quat at key %d through a forward cursor", k);
    }
}

static void test_linear_interpolation(void)
{
    const float times[3] = {1.0f, 3.0f, 3.5f};
    const vec3 values[3] = {{0, 0, 0}, {4, 8, -2}, {5, 8, -4}};
    struct { float t; vec3 expect; } cases[] = {
        {1.5f, {1, 2, -0.5f}},       /* 25 % of the first interval */
        {2.0f, {2, 4, -1}},          /* 50 % */
        {2.5f, {3, 6, -1.5f}},       /* 75 % */
        {3.125f, {4.25f, 8, -2.5f}}, /* 25 % of the second, shorter interval */
        {3.25f, {4.5f, 8, -3}},      /* 50 % */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int cursor = 0;
        vec3 v;
        sample_vec3(times, values, 3, cases[i].t, &cursor, v);
        CHECK(vec3_near(v, cases[i].expect, 1e-5f), "lerp at t=%g: (%g %g %g), want (%g %g %g)", cases[i].t,
              v[0], v[1], v[2], cases[i].expect[0], cases[i].expect[1], cases[i].expect[2]);
    }
    CHECK(fabsf(key_alpha(times, 3, 0, 1.5f) - 0.25f) < 1e-6f, "key_alpha 25%%");
    CHECK(fabsf(key_alpha(times, 3, 1, 3.25f) - 0.5f) < 1e-6f, "key_alpha 50%%");
}

/* slerp(a, b, t) = a * (a^-1 * b)^t: the rotation from a to b, turned t of the way. */
static void analytic_slerp(const versor a, const versor b, float t, versor out)
{
    versor a_inv, rel, partial;
    glm_quat_inv((float *)a, a_inv);
    glm_quat_mul(a_inv, (float *)b, rel);
    if (rel[3] < 0.0f) glm_vec4_negate(rel);            /* the short way */
    float angle = 2.0f * acosf(fminf(rel[3], 1.0f));
    vec3 axis = {rel[0], rel[1], rel[2]};
    glm_vec3_normalize(axis);
    glm_quatv(partial, angle * t, axis);
    glm_quat_mul((float *)a, partial, out);
}

static void test_slerp_matches_rotation(void)
{
    /* Same axis: a 30° -> 150° turn about (1,1,0) at 25 % is a 60° turn. */
    versor a, b, q, expect;
    axis_angle(PI_F / 6.0f, 1, 1, 0, a);
    axis_angle(5.0f * PI_F / 6.0f, 1, 1, 0, b);
    axis_angle(PI_F / 3.0f, 1, 1, 0, expect);
    const float times[2] = {0.0f, 2.0f};
    const versor keys[2] = {{a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}};
    int cursor = 0;
    sample_quat(times, keys, 2, 0.5f, &cursor, q);
    vec3 v = {0.3f, -0.2f, 0.9f}, got, want;
    glm_quat_rotatev(q, v, got);
    glm_quat_rotatev(expect, v, want);
    CHECK(vec3_near(got, want, 1e-5f), "slerp 30->150 deg at 25%%: (%g %g %g) want (%g %g %g)", got[0], got[1],
          got[2], want[0], want[1], want[2]);

    /* Different axes: compare with a * (a^-1 b)^t at several t, by rotating a vector. */
    axis_angle(0.7f, 0, 1, 0, a);
    axis_angle(-1.9f, 1, 0.5f, -0.2f, b);
    for (int i = 0; i <= 8; i++) {
        float t = (float)i / 8.0f;
        quat_slerp_shortest(a, b, t, q);
        analytic_slerp(a, b, t, expect);
        glm_quat_rotatev(q, v, got);
        glm_quat_rotatev(expect, v, want);
        CHECK(vec3_near(got, want, 2e-5f), "slerp vs analytic at t=%g", t);
        CHECK(fabsf(glm_quat_norm(q) - 1.0f) < 1e-5f, "slerp result is a unit quaternion at t=%g", t);
    }
    /* The result moves at constant angular speed (slerp, not plain nlerp, for wide angles). */
    axis_angle(0.0f, 0, 0, 1, a);
    axis_angle(2.6f, 0, 0, 1, b);
    quat_slerp_shortest(a, b, 0.25f, q);
    CHECK(fabsf(rotation_angle_between(a, q) - 0.65f) < 1e-4f, "constant speed: %g rad at 25%% of 2.6 rad",
          rotation_angle_between(a, q));
}

static void test_slerp_short_way(void)
{
    /* Keys 40° apart as rotations, stored on opposite hemispheres (q and -q'). */
    versor q0, q1, q1_neg;
    axis_angle(10.0f * PI_F / 180.0f, 0, 0, 1, q0);
    axis_angle(50.0f * PI_F / 180.0f, 0, 0, 1, q1);
    glm_vec4_negate_to(q1, q1_neg);
    CHECK(glm_vec4_dot(q0, q1_neg) < 0.0f, "test setup: keys on opposite hemispheres");

    const float times[2] = {0.0f, 1.0f};
    const versor keys[2] = {{q0[0], q0[1], q0[2], q0[3]}, {q1_neg[0], q1_neg[1], q1_neg[2], q1_neg[3]}};
    const float short_arc = 40.0f * PI_F / 180.0f;
    float worst = 0.0f;
    int cursor = 0;
    for (int i = 0; i <= 100; i++) {
        float t = (float)i / 100.0f;
        versor q;
        sample_quat(times, keys, 2, t, &cursor, q);
        float from_start = rotation_angle_between(q0, q);
        float to_end = rotation_angle_between(q, q1);
        if (from_start > worst) worst = from_start;
        CHECK(from_start <= short_arc + 1e-4f && to_end <= short_arc + 1e-4f,
              "t=%g: %g deg from the first key, %g deg from the last (short arc is 40)", t,
              from_start * 180.0f / PI_F, to_end * 180.0f / PI_F);
    }
    CHECK(fabsf(worst - short_arc) < 1e-3f, "the whole short arc is covered (max %g deg)", worst * 180.0f / PI_F);

    versor mid, want;
    axis_angle(30.0f * PI_F / 180.0f, 0, 0, 1, want);
    quat_slerp_shortest(q0, q1_neg, 0.5f, mid);
    CHECK(quat_same_rotation(mid, want, 1e-6f), "halfway between 10 and 50 deg is 30 deg");
    /* Also when the two keys are nearly equal (the normalised-lerp branch). */
    axis_angle(10.01f * PI_F / 180.0f, 0, 0, 1, q1);
    glm_vec4_negate(q1);
    quat_slerp_shortest(q0, q1, 0.5f, mid);
    CHECK(rotation_angle_between(q0, mid) < 0.02f * PI_F / 180.0f && fabsf(glm_quat_norm(mid) - 1.0f) < 1e-5f,
          "near-equal keys on opposite hemispheres: %g deg, |q| = %g", rotation_angle_between(q0, mid) * 180 / PI_F,
          glm_quat_norm(mid));
}

static void test_clamp(void)
{
    const float times[3] = {0.5f, 1.0f, 2.0f};
    const vec3 values[3] = {{1, 1, 1}, {2, 3, 4}, {-1.5f, 0.7f, 9.25f}};
    versor rotations[3];
    axis_angle(0.2f, 1, 0, 0, rotations[0]);
    axis_angle(0.9f, 0, 1, 0, rotations[1]);
    axis_angle(1.7f, 0, 0, 1, rotations[2]);
    const float before[] = {0.0f, 0.25f, -3.0f, 0.5f};
    const float after[] = {2.0f, 2.0001f, 100.0f, INFINITY};
    for (int i = 0; i < 4; i++) {
        int cursor = 1;
        vec3 v;
        versor q;
        sample_vec3(times, values, 3, before[i], &cursor, v);
        CHECK(vec3_same(v, values[0]), "t=%g clamps to the first key", before[i]);
        cursor = 2;
        sample_quat(times, (const versor *)rotations, 3, before[i], &cursor, q);
        CHECK(quat_same_rotation(q, rotations[0], 1e-6f), "t=%g clamps to the first rotation", before[i]);
        cursor = 0;
        sample_vec3(times, values, 3, after[i], &cursor, v);
        CHECK(vec3_same(v, values[2]), "t=%g gives the last key exactly: (%.9g %.9g %.9g)", after[i], v[0], v[1], v[2]);
        cursor = 0;
        sample_quat(times, (const versor *)rotations, 3, after[i], &cursor, q);
        CHECK(quat_same(q, rotations[2]), "t=%g gives the last rotation exactly", after[i]);
    }

    /* Through clip_sample_trs: time 0 and time = duration both reach their keys exactly. */
    Skeleton skeleton = {0};
    JointTransform rest[1] = {{{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    int parent[1] = {-1};
    skeleton.joint_count = 1;
    skeleton.parent = parent;
    skeleton.rest_trs = rest;
    float clip_times[3] = {0.0f, 0.7f, 2.0f};
    vec3 clip_values[3] = {{3, 0, 0}, {0, 1, 0}, {0.1f, 0.2f, 0.3f}};
    JointTrack track = {0};
    track.joint = 0;
    track.translation_count = 3;
    track.translation_times = clip_times;
    track.translation_values = clip_values;
    Clip clip = {.duration = 2.0f, .track_count = 1, .tracks = &track};
    TrackCursor cursor = {0};
    JointTransform out;
    const float times_in[] = {0.0f, 2.0f, 5.0f, -1.0f, 1.999999f, 2.0f};
    const int want[] = {0, 2, 2, 0, -1, 2};
    for (int i = 0; i < 6; i++) {
        clip_sample_trs(&clip, &skeleton, times_in[i], &cursor, &out);
        if (want[i] >= 0)
            CHECK(vec3_same(out.translation, clip_values[want[i]]), "clip time %g -> key %d exactly", times_in[i],
                  want[i]);
        else
            CHECK(vec3_near(out.translation, clip_values[2], 1e-5f), "clip time %g is just before the end", times_in[i]);
    }
}

/* Cursor-based sampling (forward playback and random jumps) equals a fresh
 * binary search and a naive linear search, over many irregular keys. */
static void test_cursor_equals_random_access(void)
{
    enum { KEYS = 257, SAMPLES = 1000 };
    static float times[KEYS];
    static vec3 values[KEYS];
    static versor rotations[KEYS];
    float t = rng_uniform(0.0f, 0.3f);
    for (int k = 0; k < KEYS; k++) {
        times[k] = t;
        t += (k % 17 == 0) ? rng_uniform(0.5f, 1.5f) : rng_uniform(0.001f, 0.08f); /* irregular, some long gaps */
        for (int i = 0; i < 3; i++) values[k][i] = rng_uniform(-10.0f, 10.0f);
        axis_angle(rng_uniform(-3.0f, 3.0f), rng_uniform(-1, 1), rng_uniform(-1, 1), rng_uniform(0.1f, 1), rotations[k]);
    }
    const float first = times[0], last = times[KEYS - 1];

    for (int mode = 0; mode < 3; mode++) {
        const char *name = mode == 0 ? "forward, small steps" : mode == 1 ? "forward, sorted random" : "random jumps";
        int cursor_v = 0, cursor_q = 0, cursor_k = 0;
        int mismatches = 0, naive_mismatches = 0, key_mismatches = 0;
        float time = first - 0.2f;
        float step = (last - first + 0.4f) / SAMPLES;
        float sorted[SAMPLES];
        if (mode == 1) {   /* 1000 random times, sorted (insertion sort) */
            for (int i = 0; i < SAMPLES; i++) {
                float x = rng_uniform(first - 0.2f, last + 0.2f);
                int j = i;
                while (j > 0 && sorted[j - 1] > x) { sorted[j] = sorted[j - 1]; j--; }
                sorted[j] = x;
            }
        }
        for (int i = 0; i < SAMPLES; i++) {
            if (mode == 0) time += step * rng_uniform(0.2f, 1.8f);
            else if (mode == 1) time = sorted[i];
            else time = rng_uniform(first - 0.2f, last + 0.2f);

            int fresh_v = 0, fresh_q = 0, fresh_k = KEYS / 2;
            vec3 v_cursor, v_fresh, v_naive;
            versor q_cursor, q_fresh;
            sample_vec3(times, values, KEYS, time, &cursor_v, v_cursor);
            sample_vec3(times, values, KEYS, time, &fresh_v, v_fresh);
            naive_vec3(times, values, KEYS, time, v_naive);
            sample_quat(times, rotations, KEYS, time, &cursor_q, q_cursor);
            sample_quat(times, rotations, KEYS, time, &fresh_q, q_fresh);
            int k_cursor = key_find(times, KEYS, time, &cursor_k);
            int k_fresh = key_find(times, KEYS, time, &fresh_k);
            int k_naive = naive_key(times, KEYS, time);
            if (!vec3_same(v_cursor, v_fresh) || !quat_same(q_cursor, q_fresh)) mismatches++;
            if (!vec3_near(v_cursor, v_naive, 1e-4f)) naive_mismatches++;
            if (k_cursor != k_naive || k_fresh != k_naive || cursor_k != k_naive) key_mismatches++;
        }
        CHECK(mismatches == 0, "%s: %d of %d cursor samples differ from fresh-cursor samples", name, mismatches, SAMPLES);
        CHECK(naive_mismatches == 0, "%s: %d of %d samples differ from a naive linear search", name,
              naive_mismatches, SAMPLES);
        CHECK(key_mismatches == 0, "%s: key_find disagrees with a linear search %d times", name, key_mismatches);
    }

    /* Exactly on every key time, with a cursor that walks forward one key at a time. */
    int cursor = 0, wrong = 0;
    for (int k = 0; k < KEYS; k++)
        if (key_find(times, KEYS, times[k], &cursor) != k) wrong++;
    CHECK(wrong == 0, "key_find(times[k]) == k for every key (%d wrong)", wrong);
    /* The fast path looks one interval ahead: a step of exactly two keys must land on k+2. */
    wrong = 0;
    for (int k = 0; k + 2 < KEYS; k++) {
        cursor = k;
        if (key_find(times, KEYS, times[k + 2], &cursor) != k + 2 || cursor != k + 2) wrong++;
        cursor = k;
        if (key_find(times, KEYS, times[k + 1], &cursor) != k + 1 || cursor != k + 1) wrong++;
    }
    CHECK(wrong == 0, "cursor at k, t on key k+1 or k+2: %d wrong", wrong);
    /* A stale or out-of-range cursor (e.g. from a longer track) is harmless. */
    int stale = KEYS + 40;
    CHECK(key_find(times, KEYS, times[10] + 1e-4f, &stale) == 10, "out-of-range cursor hint");
    stale = -7;
    CHECK(key_find(times, KEYS, times[200], &stale) == 200, "negative cursor hint");
}

static void test_one_key_and_no_key(void)
{
    const float time[1] = {0.8f};
    const vec3 value[1] = {{4, 5, 6}};
    versor rotation[1];
    axis_angle(1.0f, 0, 1, 0, rotation[0]);
    const float probes[] = {-1.0f, 0.0f, 0.8f, 0.9f, 100.0f};
    for (int i = 0; i < 5; i++) {
        int cursor = 0;
        vec3 v;
        versor q;
        sample_vec3(time, value, 1, probes[i], &cursor, v);
        sample_quat(time, (const versor *)rotation, 1, probes[i], &cursor, q);
        CHECK(vec3_same(v, value[0]) && quat_same(q, rotation[0]), "one-key track is constant (t=%g)", probes[i]);
    }

    /* A track with only rotation keys: translation and scale keep the rest values. */
    Skeleton skeleton = {0};
    int parent[2] = {-1, 0};
    JointTransform rest[2] = {{{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, {{1, 2, 3}, {0, 0, 0, 1}, {2, 0.5f, 3}}};
    axis_angle(0.4f, 1, 0, 0, rest[1].rotation);
    skeleton.joint_count = 2;
    skeleton.parent = parent;
    skeleton.rest_trs = rest;
    float rot_times[2] = {0.0f, 1.0f};
    versor rot_values[2];
    axis_angle(0.0f, 0, 0, 1, rot_values[0]);
    axis_angle(1.0f, 0, 0, 1, rot_values[1]);
    JointTrack track = {.joint = 1, .rotation_count = 2, .rotation_times = rot_times, .rotation_values = rot_values};
    Clip clip = {.duration = 1.0f, .track_count = 1, .tracks = &track};
    TrackCursor cursor = {0};
    JointTransform out[2];
    memset(out, 0, sizeof out);
    clip_sample_trs(&clip, &skeleton, 0.5f, &cursor, out);
    versor want;
    axis_angle(0.5f, 0, 0, 1, want);
    CHECK(vec3_same(out[1].translation, rest[1].translation), "translation without keys keeps the rest value");
    CHECK(vec3_same(out[1].scale, rest[1].scale), "scale without keys keeps the rest value");
    CHECK(quat_same_rotation(out[1].rotation, want, 1e-6f), "rotation keys are sampled");

    /* The matrix form: T(rest) * R(sampled) * S(rest). */
    mat4 local[2], expect;
    glm_mat4_identity(local[1]);
    cursor = (TrackCursor){0};
    clip_sample(&clip, &skeleton, 0.5f, &cursor, local);
    JointTransform composed = rest[1];
    glm_quat_copy(want, composed.rotation);
    joint_transform_to_matrix(&composed, expect);
    bool same = true;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) same = same && fabsf(local[1][c][r] - expect[c][r]) < 1e-5f;
    CHECK(same, "clip_sample: local = T(rest) * R(sampled) * S(rest)");
}

static void test_writes_only_animated_joints(void)
{
    enum { JOINTS = 5 };
    Skeleton skeleton = {0};
    int parent[JOINTS] = {-1, 0, 1, 0, 3};
    JointTransform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++) rest[j] = (JointTransform){{(float)j, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    skeleton.joint_count = JOINTS;
    skeleton.parent = parent;
    skeleton.rest_trs = rest;
    float times[2] = {0.0f, 1.0f};
    vec3 values[2] = {{0, 0, 0}, {0, 10, 0}};
    JointTrack tracks[2] = {
        {.joint = 1, .translation_count = 2, .translation_times = times, .translation_values = values},
        {.joint = 4, .scale_count = 2, .scale_times = times, .scale_values = values},
    };
    Clip clip = {.duration = 1.0f, .track_count = 2, .tracks = tracks};
    TrackCursor cursors[2] = {{0}};

    mat4 local[JOINTS], before[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) local[j][c][r] = 100.0f + (float)(j * 16 + c * 4 + r); /* sentinel */
    memcpy(before, local, sizeof local);
    clip_sample(&clip, &skeleton, 0.5f, cursors, local);
    CHECK(memcmp(local[0], before[0], sizeof(mat4)) == 0 && memcmp(local[2], before[2], sizeof(mat4)) == 0 &&
              memcmp(local[3], before[3], sizeof(mat4)) == 0,
          "clip_sample leaves joints without a track untouched");
    CHECK(memcmp(local[1], before[1], sizeof(mat4)) != 0 && memcmp(local[4], before[4], sizeof(mat4)) != 0,
          "clip_sample writes the animated joints");
    CHECK(fabsf(local[1][3][1] - 5.0f) < 1e-6f, "joint 1 translation y at 50%%: %g", local[1][3][1]);

    JointTransform trs[JOINTS], trs_before[JOINTS];
    memset(trs, 0x5a, sizeof trs);
    memcpy(trs_before, trs, sizeof trs);
    memset(cursors, 0, sizeof cursors);
    clip_sample_trs(&clip, &skeleton, 0.5f, cursors, trs);
    CHECK(memcmp(&trs[0], &trs_before[0], sizeof trs[0]) == 0 && memcmp(&trs[2], &trs_before[2], sizeof trs[0]) == 0 &&
              memcmp(&trs[3], &trs_before[3], sizeof trs[0]) == 0,
          "clip_sample_trs leaves joints without a track untouched");
    vec3 want_scale = {0, 5, 0};
    CHECK(vec3_near(trs[4].scale, want_scale, 1e-6f) && vec3_same(trs[4].translation, rest[4].translation),
          "clip_sample_trs writes joint 4: scale sampled, translation rest");
}

/* One root joint, its rest the identity: the skeleton of the one-track clips below. */
static Skeleton one_joint_skeleton(void)
{
    static int parent[1] = {-1};
    static JointTransform rest[1] = {{{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    return (Skeleton){.joint_count = 1, .parent = parent, .rest_trs = rest};
}

static void test_nan_and_infinite_time(void)
{
    Skeleton skeleton = one_joint_skeleton();
    float times[3] = {0.0f, 1.0f, 3.0f};
    vec3 values[3] = {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
    versor rotations[3];
    axis_angle(0.1f, 0, 1, 0, rotations[0]);
    axis_angle(0.5f, 0, 1, 0, rotations[1]);
    axis_angle(1.5f, 0, 1, 0, rotations[2]);
    JointTrack track = {.joint = 0, .translation_count = 3, .translation_times = times, .translation_values = values,
                        .rotation_count = 3, .rotation_times = times, .rotation_values = rotations};
    Clip clip = {.duration = 3.0f, .track_count = 1, .tracks = &track};
    TrackCursor cursor = {2, 2, 0};   /* as if playback had reached the end */
    JointTransform out;
    clip_sample_trs(&clip, &skeleton, NAN, &cursor, &out);
    CHECK(vec3_same(out.translation, values[0]) && quat_same(out.rotation, rotations[0]),
          "NaN time samples time 0: (%g %g %g)", out.translation[0], out.translation[1], out.translation[2]);
    mat4 local[1];
    clip_sample(&clip, &skeleton, NAN, &cursor, local);
    bool finite = true;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) finite = finite && isfinite(local[0][c][r]);
    CHECK(finite && local[0][3][0] == 1.0f, "NaN time gives a finite matrix at time 0");
    clip_sample_trs(&clip, &skeleton, INFINITY, &cursor, &out);
    CHECK(vec3_same(out.translation, values[2]), "+inf clamps to the end");
    clip_sample_trs(&clip, &skeleton, -INFINITY, &cursor, &out);
    CHECK(vec3_same(out.translation, values[0]), "-inf clamps to the start");
    /* key_find itself never returns an index outside the keys, even for NaN. */
    int hint = 1;
    int k = key_find(times, 3, NAN, &hint);
    CHECK(k >= 0 && k < 3 && hint >= 0 && hint < 3, "key_find(NaN) stays in range: %d", k);
}

/* STEP holds key k until key k+1 (glTF sampler.interpolation "STEP"). */
static void test_step_interpolation(void)
{
    const float times[3] = {0.0f, 1.0f, 3.0f};
    const vec3 values[3] = {{0, 0, 0}, {2, 4, 6}, {10, 0, -2}};
    const struct { float t; int key; } probes[] = {{-1, 0}, {0, 0}, {0.5f, 0}, {0.999f, 0}, {1, 1}, {2.9f, 1}, {3, 2}, {7, 2}};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        int cursor = 0;
        vec3 v;
        sample_vec3_channel(times, values, NULL, 3, INTERPOLATION_STEP, probes[i].t, &cursor, v);
        CHECK(vec3_same(v, values[probes[i].key]), "STEP at t=%g holds key %d, got (%g %g %g)", (double)probes[i].t,
              probes[i].key, (double)v[0], (double)v[1], (double)v[2]);
    }
    versor rotations[2] = {{0, 0, 0, 1}, {0, 0, 0.70710678f, 0.70710678f}};
    const float rotation_times[2] = {0.0f, 1.0f};
    int cursor = 0;
    versor q;
    sample_quat_channel(rotation_times, (const versor *)rotations, NULL, 2, INTERPOLATION_STEP, 0.75f, &cursor, q);
    CHECK(quat_same(q, rotations[0]), "STEP rotation at t=0.75 holds key 0");
}

/* glTF CUBICSPLINE: v(s) = (2s³-3s²+1) v0 + td (s³-2s²+s) b0 + (-2s³+3s²) v1 + td (s³-s²) a1,
 * s = (t - t0) / td, td = t1 - t0, b0 = out-tangent of key 0, a1 = in-tangent of key 1.
 * Expected values worked out by hand from that formula. */
static void test_cubicspline_interpolation(void)
{
    const float times[2] = {1.0f, 3.0f};   /* td = 2 */
    const vec3 values[2] = {{1, 0, 0}, {3, 2, 0}};
    /* tangents[2k] = in, tangents[2k+1] = out */
    const vec3 tangents[4] = {{9, 9, 9}, {1, 1, 0}, {0, -1, 2}, {9, 9, 9}};
    /* t = 2: s = 0.5, weights 0.5, 2*0.125 = 0.25, 0.5, 2*(-0.125) = -0.25:
     *   0.5 (1,0,0) + 0.25 (1,1,0) + 0.5 (3,2,0) - 0.25 (0,-1,2) = (2.25, 1.5, -0.5)
     * t = 1.5: s = 0.25, weights 0.84375, 2*0.140625 = 0.28125, 0.15625, 2*(-0.046875) = -0.09375:
     *   = (1.59375, 0.6875, -0.1875) */
    const struct { float t; vec3 want; } probes[] = {
        {0.0f, {1, 0, 0}}, {1.0f, {1, 0, 0}}, {1.5f, {1.59375f, 0.6875f, -0.1875f}},
        {2.0f, {2.25f, 1.5f, -0.5f}}, {3.0f, {3, 2, 0}}, {4.0f, {3, 2, 0}}};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        int cursor = 0;
        vec3 v;
        sample_vec3_channel(times, values, tangents, 2, INTERPOLATION_CUBICSPLINE, probes[i].t, &cursor, v);
        CHECK(vec3_near(v, probes[i].want, 1e-6f), "CUBICSPLINE at t=%g: (%g %g %g), want (%g %g %g)",
              (double)probes[i].t, (double)v[0], (double)v[1], (double)v[2], (double)probes[i].want[0],
              (double)probes[i].want[1], (double)probes[i].want[2]);
    }
    /* rotation: identity -> 90° about Z, out-tangent b0 = (0,0,0.5,0), in-tangent a1 = (0,0,0,-0.25),
     * spline on the 4 components, then normalised. t = 1.5 (s = 0.25):
     *   0.84375 (0,0,0,1) + 0.28125 (0,0,0.5,0) + 0.15625 (0,0,r,r) - 0.09375 (0,0,0,-0.25), r = √½
     *   = (0, 0, 0.250996, 0.977194) / 1.008915 = (0, 0, 0.248770, 0.968562)
     * t = 2 (s = 0.5): 0.5 v0 + 0.25 b0 + 0.5 v1 - 0.25 a1 = (0, 0, 0.478553, 0.915104) / 1.032683
     *   = (0, 0, 0.463032, 0.886342) */
    const versor rotations[2] = {{0, 0, 0, 1}, {0, 0, 0.70710678f, 0.70710678f}};
    const versor rotation_tangents[4] = {{0, 0, 0, 0}, {0, 0, 0.5f, 0}, {0, 0, 0, -0.25f}, {0, 0, 0, 0}};
    const struct { float t; versor want; } rotation_probes[] = {
        {1.5f, {0, 0, 0.24877046f, 0.96856247f}}, {2.0f, {0, 0, 0.46303177f, 0.88634169f}}};
    for (size_t i = 0; i < 2; i++) {
        int cursor = 0;
        versor q;
        sample_quat_channel(times, rotations, rotation_tangents, 2, INTERPOLATION_CUBICSPLINE, rotation_probes[i].t,
                            &cursor, q);
        bool near = true;
        for (int c = 0; c < 4; c++) near = near && fabsf(q[c] - rotation_probes[i].want[c]) < 1e-6f;
        CHECK(near, "CUBICSPLINE rotation at t=%g: (%g %g %g %g)", (double)rotation_probes[i].t, (double)q[0],
              (double)q[1], (double)q[2], (double)q[3]);
    }
    /* without tangents (none read) a CUBICSPLINE channel falls back to linear */
    int cursor = 0;
    vec3 v;
    sample_vec3_channel(times, values, NULL, 2, INTERPOLATION_CUBICSPLINE, 2.0f, &cursor, v);
    CHECK(vec3_near(v, (vec3){2, 1, 0}, 1e-6f), "CUBICSPLINE without tangents is linear");
}

/* A clip whose keys start after 0 is [first key, last key]: playback time 0 is its first key. */
static void test_clip_start(void)
{
    Skeleton skeleton = one_joint_skeleton();
    float times[2] = {2.0f, 4.0f};
    vec3 values[2] = {{0, 0, 0}, {4, 0, 0}};
    JointTrack track = {.joint = 0, .translation_count = 2, .translation_times = times, .translation_values = values};
    Clip clip = {.start = 2.0f, .duration = 2.0f, .track_count = 1, .tracks = &track};
    const float probes[][2] = {{0.0f, 0.0f}, {1.0f, 2.0f}, {0.5f, 1.0f}, {2.0f, 4.0f}, {9.0f, 4.0f}};
    for (int i = 0; i < 5; i++) {
        TrackCursor cursor = {0};
        JointTransform out[1];
        clip_sample_trs(&clip, &skeleton, probes[i][0], &cursor, out);
        CHECK(fabsf(out[0].translation[0] - probes[i][1]) < 1e-6f, "clip starting at 2 s, time %g -> x %g (want %g)",
              (double)probes[i][0], (double)out[0].translation[0], (double)probes[i][1]);
    }
}

int main(void)
{
    test_exact_at_keys();
    test_linear_interpolation();
    test_slerp_matches_rotation();
    test_slerp_short_way();
    test_clamp();
    test_cursor_equals_random_access();
    test_one_key_and_no_key();
    test_writes_only_animated_joints();
    test_nan_and_infinite_time();
    test_step_interpolation();
    test_cubicspline_interpolation();
    test_clip_start();
    return test_finish();
}
