/* test_blend.c — cross-fade (pose_blend, animator_evaluate_blend), playback modes (reverse,
 * once, ping-pong through playback_step_time / playback_advance) and root motion in place. */
#include "anim/animator.h"
#include "view/playback.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool near(float a, float b, float eps) { return fabsf(a - b) <= eps; }

/* Same rotation up to the sign of the quaternion. */
static bool same_rotation(const versor a, const versor b, float eps)
{
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    return fabsf(fabsf(dot) - 1.0f) <= eps;
}

static void set_trs(JointTransform *j, float tx, float ty, float tz, float angle, vec3 axis, float s)
{
    glm_vec3_copy((vec3){tx, ty, tz}, j->translation);
    glm_quatv(j->rotation, angle, axis);
    glm_vec3_fill(j->scale, s);
}

static void test_pose_blend(void)
{
    JointTransform a[2], b[2], out[2];
    set_trs(&a[0], 1, 2, 3, 0.3f, (vec3){0, 1, 0}, 1.0f);
    set_trs(&b[0], 3, 2, -1, 1.2f, (vec3){1, 0, 0}, 2.0f);
    set_trs(&a[1], 0, 0, 0, 0.0f, (vec3){0, 1, 0}, 1.0f);
    /* b[1]: 90 degrees about Y, written as the NEGATED quaternion (w < 0): dot(a, b) < 0 */
    set_trs(&b[1], 0, 0, 0, glm_rad(90.0f), (vec3){0, 1, 0}, 1.0f);
    glm_vec4_scale(b[1].rotation, -1.0f, b[1].rotation);

    pose_blend(a, b, 2, 0.0f, out);
    CHECK(glm_vec3_eqv_eps(out[0].translation, a[0].translation) && same_rotation(out[0].rotation, a[0].rotation, 1e-6f) &&
              glm_vec3_eqv_eps(out[0].scale, a[0].scale),
          "weight 0 = clip a");
    pose_blend(a, b, 2, 1.0f, out);
    CHECK(glm_vec3_eqv_eps(out[0].translation, b[0].translation) && same_rotation(out[0].rotation, b[0].rotation, 1e-6f) &&
              glm_vec3_eqv_eps(out[0].scale, b[0].scale),
          "weight 1 = clip b");
    CHECK(same_rotation(out[1].rotation, b[1].rotation, 1e-6f), "weight 1 = clip b (negated quaternion)");

    pose_blend(a, b, 2, 0.5f, out);
    CHECK(near(out[0].translation[0], 2.0f, 1e-6f) && near(out[0].translation[2], 1.0f, 1e-6f) &&
              near(out[0].scale[1], 1.5f, 1e-6f),
          "halfway: T and S are the means");
    versor mix;   /* normalize(a + b), a and b in the same hemisphere here */
    for (int i = 0; i < 4; i++) mix[i] = 0.5f * (a[0].rotation[i] + b[0].rotation[i]);
    glm_vec4_normalize(mix);
    CHECK(same_rotation(out[0].rotation, mix, 1e-6f), "halfway: R is the normalised mix");
    CHECK(near(glm_vec4_norm(out[0].rotation), 1.0f, 1e-6f), "unit quaternion");
    /* the short way: halfway between 0 and 90 degrees about Y is 45 degrees, not 135 */
    versor q45;
    glm_quatv(q45, glm_rad(45.0f), (vec3){0, 1, 0});
    CHECK(same_rotation(out[1].rotation, q45, 1e-6f), "the short way: 45 degrees (got %g %g %g %g)", out[1].rotation[0],
          out[1].rotation[1], out[1].rotation[2], out[1].rotation[3]);

    pose_blend(a, b, 2, -3.0f, out);
    CHECK(glm_vec3_eqv_eps(out[0].translation, a[0].translation), "weight below 0 clamps to a");
    pose_blend(a, b, 2, NAN, out);
    CHECK(glm_vec3_eqv_eps(out[0].translation, a[0].translation), "NaN weight counts as 0");
    memcpy(out, a, sizeof a);
    pose_blend(out, b, 2, 1.0f, out);
    CHECK(glm_vec3_eqv_eps(out[0].translation, b[0].translation), "out may alias a");
}

static void test_playback_modes(void)
{
    const float d = 1.25f;
    const float durations[1] = {d};
    /* reverse at speed -1 equals forward at mirrored times: t_rev = d - t_fwd (mod d) */
    Playback fwd, rev;
    playback_init(&fwd, 1, durations, 0, 0.0f, 1.0f);
    playback_init(&rev, 1, durations, 0, 0.0f, -1.0f);
    CHECK(near(rev.time, d, 0.0f), "reverse starts at the end: %g", rev.time);
    bool mirrored = true;
    for (int i = 0; i < 500; i++) {
        float dt = 0.013f + 0.004f * (float)(i % 5);
        playback_advance(&fwd, dt, durations);
        playback_advance(&rev, dt, durations);
        float expect = fmodf(d - fwd.time, d);
        if (!near(rev.time, expect, 1e-4f) && !near(fabsf(rev.time - expect), d, 1e-4f)) mirrored = false;
    }
    CHECK(mirrored, "speed -1 = forward at mirrored times (last: fwd %g rev %g)", fwd.time, rev.time);

    /* once: stops exactly on the last frame and pauses; Space plays again from the start */
    Playback once;
    playback_init(&once, 1, durations, 0, 1.0f, 1.0f);
    once.loop_mode = PLAYBACK_ONCE;
    playback_advance(&once, 0.2f, durations);
    CHECK(near(once.time, 1.2f, 1e-6f) && !once.paused, "once: before the end it plays");
    playback_advance(&once, 0.2f, durations);
    CHECK(once.time == d && once.paused, "once: stops on the last frame (t %g, paused %d)", once.time, once.paused);
    playback_apply(&once, (Action){ACTION_TOGGLE_PAUSE, 0}, durations);
    CHECK(once.time == 0.0f && !once.paused, "once: play at the end starts over");
    once.speed = -1.0f;
    once.time = 0.1f;
    playback_advance(&once, 0.3f, durations);
    CHECK(once.time == 0.0f && once.paused, "once reversed: stops on the first frame");

    /* ping-pong: turns at both ends */
    Playback pp;
    playback_init(&pp, 1, durations, 0, 1.0f, 1.0f);
    pp.loop_mode = PLAYBACK_PING_PONG;
    playback_advance(&pp, 0.5f, durations);   /* 1.0 + 0.5 = 1.5: bounced back to 1.0 */
    CHECK(near(pp.time, 1.0f, 1e-5f) && pp.direction == -1, "ping-pong turns at the end (t %g dir %d)", pp.time,
          pp.direction);
    playback_advance(&pp, 0.9f, durations);   /* 1.0 - 0.9 = 0.1 */
    CHECK(near(pp.time, 0.1f, 1e-5f) && pp.direction == -1, "ping-pong goes back (t %g)", pp.time);
    playback_advance(&pp, 0.3f, durations);   /* 0.1 - 0.3 = -0.2: bounced to 0.2 */
    CHECK(near(pp.time, 0.2f, 1e-5f) && pp.direction == 1, "ping-pong turns at the start (t %g dir %d)", pp.time,
          pp.direction);
    playback_advance(&pp, 2.0f * d, durations);  /* a whole round trip */
    CHECK(near(pp.time, 0.2f, 1e-4f) && pp.direction == 1, "a whole round trip returns (t %g dir %d)", pp.time,
          pp.direction);
    float t = 0.0f;
    bool in_range = true;
    int direction = 1;
    for (int i = 0; i < 10000; i++) {
        t = playback_step_time(t, 0.0173f, d, PLAYBACK_PING_PONG, &direction, NULL);
        if (t < 0.0f || t > d) in_range = false;
    }
    CHECK(in_range, "ping-pong stays in [0, d]");

    /* speed: one clamp for flags and keys */
    Playback s;
    playback_init(&s, 1, durations, 0, 0.0f, 1000.0f);
    CHECK(s.speed == PLAYBACK_SPEED_MAX, "init clamps |speed| to 64: %g", s.speed);
    playback_init(&s, 1, durations, 0, 0.0f, -0.001f);
    CHECK(s.speed == -PLAYBACK_SPEED_MIN, "init clamps |speed| to 1/64 and keeps the sign: %g", s.speed);
    playback_apply(&s, (Action){ACTION_TOGGLE_REVERSE, 0}, durations);
    CHECK(s.speed == PLAYBACK_SPEED_MIN, "R flips the sign: %g", s.speed);

    /* cross-fade state: both clips advance, the weight grows from 0 to 1, then it ends */
    const float two[2] = {1.0f, 2.0f};
    Playback f;
    playback_init(&f, 2, two, 0, 0.5f, 1.0f);
    f.blend_seconds = 0.25f;
    playback_apply(&f, (Action){ACTION_NEXT_CLIP, 0}, two);
    CHECK(f.fading && f.fade_clip == 0 && near(f.fade_time, 0.5f, 0.0f) && f.clip == 1 && f.time == 0.0f,
          "a clip change starts a fade from the old clip");
    CHECK(playback_fade_weight(&f) == 0.0f, "the fade starts at weight 0");
    playback_advance(&f, 0.1f, two);
    CHECK(near(playback_fade_weight(&f), 0.4f, 1e-5f) && near(f.fade_time, 0.6f, 1e-5f), "both clips advance");
    playback_advance(&f, 0.2f, two);
    CHECK(!f.fading && playback_fade_weight(&f) == 1.0f, "the fade ends after --blend seconds");
    f.paused = true;
    playback_apply(&f, (Action){ACTION_PREV_CLIP, 0}, two);
    CHECK(!f.fading, "paused: a clip change cuts");
    f.paused = false;
    f.blend_seconds = 0.0f;
    playback_apply(&f, (Action){ACTION_NEXT_CLIP, 0}, two);
    CHECK(!f.fading, "--blend 0: cut");
}

/* Two joints: a root that travels (x, y and z keys) and a child; in place keeps the root's
 * ground position at its time-0 x and z, lets y move. */
static void test_in_place(void)
{
    Model model = {0};
    CHECK(skeleton_alloc(&model.skeleton, 2), "alloc");
    model.skeleton.parent[0] = -1;
    model.skeleton.parent[1] = 0;
    for (int j = 0; j < 2; j++) {
        glm_mat4_identity(model.skeleton.rest_local[j]);
        glm_vec3_zero(model.skeleton.rest_trs[j].translation);
        glm_quat_identity(model.skeleton.rest_trs[j].rotation);
        glm_vec3_one(model.skeleton.rest_trs[j].scale);
    }
    glm_translate(model.skeleton.rest_local[1], (vec3){0, 1, 0});
    glm_vec3_copy((vec3){0, 1, 0}, model.skeleton.rest_trs[1].translation);
    float times[3] = {0.0f, 1.0f, 2.0f};
    vec3 values[3] = {{0.5f, 0.0f, 0.25f}, {3.0f, 0.4f, 1.0f}, {7.0f, 0.1f, -2.0f}};
    JointTrack track = {.joint = 0, .translation_count = 3, .translation_times = times, .translation_values = values};
    Clip clip = {.name = "travel", .duration = 2.0f, .track_count = 1, .tracks = &track};
    model.clip_count = 1;
    model.clips = &clip;
    CHECK(clip_root_motion_joint(&clip) == 0, "the root-motion joint is the translated root");

    Animator animator;
    CHECK(animator_init(&animator, &model), "animator");
    animator.root.in_place = true;
    float worst = 0.0f;
    bool y_moves = false;
    for (int i = 0; i <= 40; i++) {
        float t = 2.0f * (float)i / 40.0f;
        animator_evaluate(&animator, 0, t);
        worst = fmaxf(worst, fabsf(animator.joint_model[0][3][0] - 0.5f));
        worst = fmaxf(worst, fabsf(animator.joint_model[0][3][2] - 0.25f));
        worst = fmaxf(worst, fabsf(animator.joint_model[1][3][0] - 0.5f));   /* the child moves along */
        if (animator.joint_model[0][3][1] > 0.05f) y_moves = true;
        vec3 root;
        animator_root_position(&animator, root);
        if (i == 20) CHECK(near(root[0], 3.0f, 1e-5f), "the authored root position is still known: %g", root[0]);
    }
    printf("in place: worst ground drift of the root %.3g\n", worst);
    CHECK(worst <= 1e-6f, "in place keeps the root's ground position within 1e-6 (worst %g)", worst);
    CHECK(y_moves, "in place keeps the vertical motion");
    animator.root.in_place = false;
    animator_evaluate(&animator, 0, 1.0f);
    CHECK(near(animator.joint_model[0][3][0], 3.0f, 1e-6f), "as authored: the root travels");
    animator_free(&animator);
    model.clips = NULL;
    model.clip_count = 0;
    model_free(&model);
}

/* Largest difference between two animators' joint model matrices, element by element. */
static float joints_difference(const Animator *a, const Animator *b)
{
    float worst = 0.0f;
    for (int j = 0; j < a->model->skeleton.joint_count; j++)
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) worst = fmaxf(worst, fabsf(a->joint_model[j][c][r] - b->joint_model[j][c][r]));
    return worst;
}

/* The real cross-fade on the demo: weight 0 / 1 give the two clips' poses. */
static void test_animator_blend(void)
{
    Model model;
    if (!test_import(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", NULL, &model)) return;
    int idle = model_find_clip(&model, "Idle"), walk = model_find_clip(&model, "Walk");
    CHECK(idle >= 0 && walk >= 0, "demo clips");
    Animator blended, single;
    animator_init(&blended, &model);
    animator_init(&single, &model);
    int joints = model.skeleton.joint_count;
    float worst0 = 0.0f, worst1 = 0.0f;
    for (int i = 0; i < 5; i++) {
        float ta = 0.37f * (float)i, tb = 0.19f * (float)i;
        animator_evaluate_blend(&blended, idle, ta, walk, tb, 0.0f);
        animator_evaluate(&single, idle, ta);
        worst0 = fmaxf(worst0, joints_difference(&blended, &single));
        animator_evaluate_blend(&blended, idle, ta, walk, tb, 0.999999f);
        animator_evaluate(&single, walk, tb);
        worst1 = fmaxf(worst1, joints_difference(&blended, &single));
    }
    printf("demo cross-fade: weight 0 vs Idle %.3g, weight ~1 vs Walk %.3g (max matrix element difference)\n", worst0,
           worst1);
    CHECK(worst0 < 1e-4f, "weight 0 = the clip fading out (%g)", worst0);
    CHECK(worst1 < 1e-4f, "weight 1 = the clip fading in (%g)", worst1);
    animator_evaluate_blend(&blended, idle, 0.5f, walk, 0.5f, 0.5f);
    animator_evaluate(&single, walk, 0.5f);
    float differs = 0.0f;
    for (int j = 0; j < joints; j++) differs = fmaxf(differs, glm_vec3_distance(blended.joint_model[j][3], single.joint_model[j][3]));
    CHECK(differs > 1e-3f, "halfway differs from either clip (%g)", differs);
    /* when the fade ends, the clip alone: joints only the old clip moved are back at rest */
    Animator fresh;
    animator_init(&fresh, &model);
    animator_evaluate(&blended, walk, 0.7f);
    animator_evaluate(&fresh, walk, 0.7f);
    float after = 0.0f;
    after = fmaxf(after, joints_difference(&blended, &fresh));
    CHECK(after < 1e-6f, "after a fade the clip evaluates as in a fresh animator (%g)", after);
    animator_free(&fresh);
    animator_free(&blended);
    animator_free(&single);
    model_free(&model);
}

/* Fades to and from the static poses (key T): the bind and rest poses are blended as local
 * poses like a clip; weight 0 / 1 give the two sides. */
static void test_static_pose_fades(void)
{
    Model model;
    if (!test_import(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", NULL, &model)) return;
    int wave = model_find_clip(&model, "Wave");
    Animator blended, single;
    animator_init(&blended, &model);
    animator_init(&single, &model);
    int joints = model.skeleton.joint_count;
    const int sides[][2] = {{wave, ANIMATOR_BIND_POSE}, {ANIMATOR_BIND_POSE, ANIMATOR_REST_POSE},
                            {ANIMATOR_REST_POSE, wave}, {ANIMATOR_BIND_POSE, wave}};
    for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++) {
        int from = sides[s][0], to = sides[s][1];
        float worst[2] = {0.0f, 0.0f};
        for (int end = 0; end < 2; end++) {
            animator_evaluate_blend(&blended, from, 0.6f, to, 0.6f, end ? 0.999999f : 0.0f);
            animator_evaluate(&single, end ? to : from, 0.6f);
            for (int j = 0; j < joints; j++)
                worst[end] = fmaxf(worst[end], glm_vec3_distance(blended.joint_model[j][3], single.joint_model[j][3]));
        }
        animator_evaluate_blend(&blended, from, 0.6f, to, 0.6f, 0.5f);
        animator_evaluate(&single, to, 0.6f);
        float halfway = 0.0f;
        for (int j = 0; j < joints; j++)
            halfway = fmaxf(halfway, glm_vec3_distance(blended.joint_model[j][3], single.joint_model[j][3]));
        printf("fade %d -> %d: weight 0 off by %.2g m, weight 1 off by %.2g m, halfway %.3g m from the end pose\n",
               from, to, worst[0], worst[1], halfway);
        CHECK(worst[0] < 1e-5f && worst[1] < 1e-5f, "fade %d -> %d: the ends are the two poses (%g, %g)", from, to,
              worst[0], worst[1]);
        CHECK(halfway > 0.02f, "fade %d -> %d: halfway is a mix, not a cut (%g m from the end pose)", from, to, halfway);
    }
    animator_free(&blended);
    animator_free(&single);
    model_free(&model);
}

int main(void)
{
    test_static_pose_fades();
    test_pose_blend();
    test_playback_modes();
    test_in_place();
    test_animator_blend();
    return test_finish();
}
