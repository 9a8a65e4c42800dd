/* test_retarget.c — clips of one skeleton on another (src/anim/retarget*.c, docs/retargeting.md).
 *
 *  1. identity: every clip of every skinned test model with clips, retargeted onto its own skeleton
 *     (on and off), poses the joints where the original does: worst joint distance <= 1e-6 of the
 *     diagonal, at every key time (and half-way between keys for linear clips)
 *  2. two rigs written here: an A-pose source (bones along +X) and a T-pose target with other bone
 *     lengths, bones along +Y, a forearm rolled 90 degrees and Unreal names: the arm straight up
 *     comes out straight up (1e-4 rad), the hips scaled by the hip heights keep the foot on the
 *     ground, every matched joint's world rotation relative to its aligned rest equals the source's
 *  3. mixamo.fbx <-> Xbot.glb (../shared): every joint both have matched, every clip played on the
 *     other, the feet within 2 % of the leg length of the ground wherever the source's foot is down
 *  4. the CMU takes (assimp-testmodels BVH/01_01.bvh, 01_03.bvh) on Xbot: every limb matched, the
 *     hips travel k times the take's travel, feet near the ground at contacts; for every pair, root
 *     motion in place (the Animator) keeps the hips over their start while the clip travels
 *  5. renamed copies of Xbot's rig (HumanIK, namespace, Unreal, Rigify, gibberish + bone map): every
 *     joint found, the clips come back as on the original
 *  6. refusal: no joint in common, hips missing, a bone map naming an unknown joint. */
#include "testutil.h"
#include "anim/anim.h"
#include "anim/animator.h"
#include "anim/retarget.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XBOT SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb"
#define MIXAMO SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx"

static bool load(const char *path, Model *model)
{
    char error[512];
    ImportOptions options = {0};
    options.quiet = true;
    memset(model, 0, sizeof *model);
    bool ok = import_model(path, &options, model, error, sizeof error);
    CHECK(ok, "%s: %s", path, error);
    return ok;
}

/* Model-space joint matrices of `clip` (NULL: rest) at playback time `time`. */
static void pose_at(const Skeleton *skeleton, const Clip *clip, float time, mat4 *local, mat4 *model)
{
    pose_set_rest(skeleton, local);
    if (clip) {
        TrackCursor *cursors = calloc((size_t)clip->track_count + 1, sizeof(TrackCursor));
        clip_sample(clip, skeleton, time, cursors, local);
        free(cursors);
    }
    pose_local_to_model(skeleton, local, model);
}

/* Retargets every clip of `source` onto `target` (map given), into clips[] (caller frees). */
static bool retarget_all(const Model *source, const Skeleton *target, const RetargetMap *map, RetargetMode mode,
                         Clip *clips, RetargetSetup *setup)
{
    if (!retarget_setup(setup, &source->skeleton, target, map)) return false;
    for (int c = 0; c < source->clip_count; c++) {
        int dropped = 0;
        if (!retarget_clip(setup, &source->clips[c], mode, &clips[c], &dropped)) return false;
    }
    return true;
}

/* ---- 1. identity ------------------------------------------------------------------------------ */

static bool clip_is_linear(const Clip *clip) { return clip_interpolation_kinds(clip) == (1u << INTERPOLATION_LINEAR) || clip_interpolation_kinds(clip) == 0; }

/* Worst joint distance between `a` (the original) and `b` over key times (and mid-points), relative
 * to the diagonal of the joints' reach. */
static double compare_clips(const Skeleton *skeleton, const Clip *a, const Clip *b, double *diagonal_out)
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

static void test_identity(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    int tested = 0, clips_tested = 0;
    double worst_on = 0.0, worst_off = 0.0;
    for (int m = 0; m < count; m++) {
        Model model;
        if (!load(models[m].path, &model)) continue;
        if (model.clip_count == 0 || model.skeleton.joint_count == 0) {
            model_free(&model);
            continue;
        }
        RetargetMap map;
        char error[512];
        bool ok = retarget_match(&model.skeleton, &model.skeleton, NULL, 0, &map, error, sizeof error);
        CHECK(ok, "%s: %s", models[m].path, error);
        if (!ok) {
            model_free(&model);
            continue;
        }
        int identity = 0;
        for (int j = 0; j < model.skeleton.joint_count; j++) identity += map.source_of_target[j] == j;
        CHECK(identity == model.skeleton.joint_count, "%s: %d of %d joints matched to themselves", models[m].path, identity,
              model.skeleton.joint_count);
        CHECK(retarget_check(&map, &model.skeleton, error, sizeof error), "%s: refused on itself: %s", models[m].path, error);
        for (int mode = 0; mode < 2; mode++) {
            Clip *clips = calloc((size_t)model.clip_count, sizeof(Clip));
            RetargetSetup setup;
            ok = retarget_all(&model, &model.skeleton, &map, (RetargetMode)mode, clips, &setup);
            CHECK(ok, "%s: retarget_clip failed", models[m].path);
            for (int c = 0; ok && c < model.clip_count; c++) {
                double diagonal = 0.0;
                double error_rel = compare_clips(&model.skeleton, &model.clips[c], &clips[c], &diagonal);
                CHECK(error_rel <= 1e-6, "%s clip %d (%s), retarget %s: joints off by %.3g of the diagonal",
                      models[m].path, c, model.clips[c].name, mode ? "off" : "on", error_rel);
                if (mode == 0 && error_rel > worst_on) worst_on = error_rel;
                if (mode == 1 && error_rel > worst_off) worst_off = error_rel;
                clips_tested += mode == 0;
            }
            for (int c = 0; c < model.clip_count; c++) clip_free(&clips[c]);
            free(clips);
            retarget_setup_free(&setup);
        }
        retarget_map_free(&map);
        model_free(&model);
        tested++;
    }
    CHECK(tested >= 3, "only %d models with clips", tested);
    printf("identity: %d models, %d clips: worst joint error %.3g (on), %.3g (off) of the diagonal\n", tested,
           clips_tested, worst_on, worst_off);
}

/* ---- 2. two rigs written here ------------------------------------------------------------------ */

typedef struct RigJoint {
    const char *name;
    int         parent;
    vec3        offset;      /* translation from the parent, in the parent's frame */
    float       angle_z;     /* rest rotation about Z (degrees) */
    float       roll;        /* then about the bone's own axis (degrees, local X for the source, Y for the target) */
} RigJoint;

/* A skeleton from a joint table (rest = translation * rotation). */
static void build_rig(Skeleton *skeleton, const RigJoint *joints, int count, bool bones_along_y)
{
    skeleton_alloc(skeleton, count);
    for (int j = 0; j < count; j++) {
        snprintf(skeleton->names[j], SV_NAME_MAX, "%s", joints[j].name);
        skeleton->parent[j] = joints[j].parent;
        skeleton->is_bone[j] = true;
        JointTransform *trs = &skeleton->rest_trs[j];
        glm_vec3_copy((float *)joints[j].offset, trs->translation);
        glm_vec3_one(trs->scale);
        versor about_z, roll;
        glm_quatv(about_z, glm_rad(joints[j].angle_z), (vec3){0, 0, 1});
        glm_quatv(roll, glm_rad(joints[j].roll), bones_along_y ? (vec3){0, 1, 0} : (vec3){1, 0, 0});
        glm_quat_mul(about_z, roll, trs->rotation);
        joint_transform_to_matrix(trs, skeleton->rest_local[j]);
    }
}

/* Column `axis` of a model matrix, normalised: the joint's local axis in the scene. */
static void joint_axis(const mat4 m, int axis, vec3 out)
{
    glm_vec3_normalize_to((float *)m[axis], out);
}

static float angle_between(const vec3 a, const vec3 b)
{
    float d = glm_vec3_dot((float *)a, (float *)b) / (glm_vec3_norm((float *)a) * glm_vec3_norm((float *)b));
    return acosf(d > 1.0f ? 1.0f : d < -1.0f ? -1.0f : d);
}

/* The rotation part of a model matrix as a quaternion. */
static void rotation_of(const mat4 m, versor q)
{
    mat4 r;
    glm_mat4_copy((vec4 *)m, r);
    glm_vec3_normalize(r[0]), glm_vec3_normalize(r[1]), glm_vec3_normalize(r[2]);
    glm_vec3_zero(r[3]);
    glm_mat4_quat(r, q);
}

static void test_two_rigs(void)
{
    /* source: A-pose (arms 45 degrees down), bones along local +X, hips 0.95 above the feet */
    static const RigJoint source_joints[] = {
        {"Hips", -1, {0.0f, 0.95f, 0.0f}, 0, 0},
        {"Spine", 0, {0.0f, 0.2f, 0.0f}, 90, 0},          /* bone along +X = up */
        {"Head", 1, {0.4f, 0.0f, 0.0f}, 0, 0},
        {"LeftArm", 1, {0.35f, -0.18f, 0.0f}, -135, 0},   /* spine frame is turned 90: -135 + 90 = 45 down-left */
        {"LeftForeArm", 3, {0.28f, 0.0f, 0.0f}, 0, 0},
        {"LeftHand", 4, {0.25f, 0.0f, 0.0f}, 0, 0},
        {"RightArm", 1, {0.35f, 0.18f, 0.0f}, 135, 0},
        {"RightForeArm", 6, {0.28f, 0.0f, 0.0f}, 0, 0},
        {"RightHand", 7, {0.25f, 0.0f, 0.0f}, 0, 0},
        {"LeftUpLeg", 0, {0.1f, -0.05f, 0.0f}, -90, 0},   /* bone along +X = down */
        {"LeftLeg", 9, {0.45f, 0.0f, 0.0f}, 0, 0},
        {"LeftFoot", 10, {0.45f, 0.0f, 0.0f}, 0, 0},
        {"RightUpLeg", 0, {-0.1f, -0.05f, 0.0f}, -90, 0},
        {"RightLeg", 12, {0.45f, 0.0f, 0.0f}, 0, 0},
        {"RightFoot", 13, {0.45f, 0.0f, 0.0f}, 0, 0},
    };
    /* target: T-pose, Unreal names, bones along local +Y, longer legs, the left forearm rolled 90 */
    static const RigJoint target_joints[] = {
        {"pelvis", -1, {0.0f, 1.2f, 0.0f}, 0, 0},
        {"spine_01", 0, {0.0f, 0.25f, 0.0f}, 0, 0},
        {"head", 1, {0.0f, 0.5f, 0.0f}, 0, 0},
        {"upperarm_l", 1, {0.2f, 0.45f, 0.0f}, -90, 0},    /* +Y turned -90 about Z = +X (left), horizontal */
        {"lowerarm_l", 3, {0.0f, 0.33f, 0.0f}, 0, 90},     /* rolled about its bone */
        {"hand_l", 4, {0.0f, 0.3f, 0.0f}, 0, 0},
        {"upperarm_r", 1, {-0.2f, 0.45f, 0.0f}, 90, 0},
        {"lowerarm_r", 6, {0.0f, 0.33f, 0.0f}, 0, 0},
        {"hand_r", 7, {0.0f, 0.3f, 0.0f}, 0, 0},
        {"thigh_l", 0, {0.12f, -0.06f, 0.0f}, 180, 0},     /* +Y turned 180 = down */
        {"calf_l", 9, {0.0f, 0.57f, 0.0f}, 0, 0},
        {"foot_l", 10, {0.0f, 0.57f, 0.0f}, 0, 0},
        {"thigh_r", 0, {-0.12f, -0.06f, 0.0f}, 180, 0},
        {"calf_r", 12, {0.0f, 0.57f, 0.0f}, 0, 0},
        {"foot_r", 13, {0.0f, 0.57f, 0.0f}, 0, 0},
    };
    enum { JOINTS = 15 };
    Skeleton source = {0}, target = {0};
    build_rig(&source, source_joints, JOINTS, false);
    build_rig(&target, target_joints, JOINTS, true);

    /* the source clip, one key: the left arm straight up (world +Y), the hips moved (0.3, 0.95, 0.2) */
    Clip clip = {0};
    snprintf(clip.name, sizeof clip.name, "arm up");
    clip.track_count = 2;
    clip.tracks = calloc(2, sizeof(JointTrack));
    JointTrack *arm = &clip.tracks[0], *hips = &clip.tracks[1];
    arm->joint = 3;
    arm->rotation_count = 1;
    arm->rotation_times = calloc(1, sizeof(float));
    arm->rotation_values = calloc(1, sizeof(versor));
    glm_quatv(arm->rotation_values[0], glm_rad(0.0f), (vec3){0, 0, 1});   /* spine frame: +X is up, so no turn = up */
    hips->joint = 0;
    hips->translation_count = 1;
    hips->translation_times = calloc(1, sizeof(float));
    hips->translation_values = calloc(1, sizeof(vec3));
    glm_vec3_copy((vec3){0.3f, 0.95f, 0.2f}, hips->translation_values[0]);

    RetargetMap map;
    char error[512];
    bool ok = retarget_match(&source, &target, NULL, 0, &map, error, sizeof error);
    CHECK(ok, "match: %s", error);
    if (!ok) return;
    CHECK(map.matched == JOINTS, "Mixamo names onto Unreal names: %d of %d joints matched by role", map.matched, JOINTS);
    for (int j = 0; j < JOINTS; j++)
        CHECK(map.source_of_target[j] == j, "%s <- %s (expected %s)", target.names[j],
              map.source_of_target[j] >= 0 ? source.names[map.source_of_target[j]] : "-", source.names[j]);
    CHECK(retarget_check(&map, &target, error, sizeof error), "refused: %s", error);
    RetargetSetup setup;
    Clip out = {0};
    int dropped = -1;
    ok = retarget_setup(&setup, &source, &target, &map) && retarget_clip(&setup, &clip, RETARGET_ON, &out, &dropped);
    CHECK(ok, "retarget failed");
    if (!ok) return;
    CHECK(dropped == 0, "%d tracks dropped", dropped);
    double expected_k = 1.2 / 0.95;   /* hip heights above the feet: 0.06 + 2 x 0.57 and 0.05 + 2 x 0.45 */
    CHECK(fabs(setup.hip_scale - expected_k) < 1e-5, "hip scale %.6f, expected %.6f", setup.hip_scale, expected_k);

    mat4 s_local[JOINTS], s_model[JOINTS], t_local[JOINTS], t_model[JOINTS], s_rest[JOINTS], t_rest[JOINTS];
    pose_at(&source, &clip, 0.0f, s_local, s_model);
    pose_at(&target, &out, 0.0f, t_local, t_model);
    pose_at(&source, NULL, 0.0f, s_local, s_rest);
    pose_at(&target, NULL, 0.0f, t_local, t_rest);
    /* the arm: source upper arm bone (local +X) points up; the target's (local +Y) must too */
    vec3 s_dir, t_dir, up = {0, 1, 0};
    joint_axis(s_model[3], 0, s_dir);
    CHECK(angle_between(s_dir, up) < 1e-5f, "the source arm is not up (%.3g rad)", (double)angle_between(s_dir, up));
    for (int j = 3; j <= 5; j++) {
        joint_axis(t_model[j], 1, t_dir);
        float angle = angle_between(t_dir, up);
        CHECK(angle < 1e-4f, "target %s points %.3g rad away from straight up", target.names[j], (double)angle);
        printf("two rigs: %s %.2e rad from straight up\n", target.names[j], (double)angle);
    }
    /* the right arm stays as the source's: A-pose 45 degrees down, in the target too */
    joint_axis(s_model[6], 0, s_dir);
    joint_axis(t_model[6], 1, t_dir);
    CHECK(angle_between(s_dir, t_dir) < 1e-4f, "right arm %.3g rad off the source's A-pose direction",
          (double)angle_between(s_dir, t_dir));
    /* hips: k times the source's position; the feet on the ground (y = 0) as the source's are */
    vec3 expected_hips;
    glm_vec3_scale((vec3){0.3f, 0.95f, 0.2f}, (float)expected_k, expected_hips);
    CHECK(glm_vec3_distance(t_model[0][3], expected_hips) < 1e-5f, "hips at (%g %g %g), expected (%g %g %g)",
          (double)t_model[0][3][0], (double)t_model[0][3][1], (double)t_model[0][3][2], (double)expected_hips[0],
          (double)expected_hips[1], (double)expected_hips[2]);
    CHECK(fabsf(s_model[11][3][1]) < 1e-5f, "source foot at height %g", (double)s_model[11][3][1]);
    for (int f = 11; f <= 14; f += 3) {
        float height = t_model[f][3][1];
        CHECK(fabsf(height) < 1e-4f, "target %s at height %g (source foot on the ground)", target.names[f], (double)height);
        printf("two rigs: %s height %.2e (leg 1.2)\n", target.names[f], (double)height);
    }
    /* world rotation relative to the aligned rest: Wt(t) (C_j Wt_rest)^-1 = Ws(t) Ws_rest^-1 */
    float worst = 0.0f;
    for (int t = 0; t < JOINTS; t++) {
        int s = map.source_of_target[t];
        versor ws, ws0, wt, wt0, c, ds, dt, inv;
        rotation_of(s_model[s], ws), rotation_of(s_rest[s], ws0), rotation_of(t_model[t], wt), rotation_of(t_rest[t], wt0);
        for (int i = 0; i < 4; i++) c[i] = (float)setup.rest_alignment[t][i];
        glm_quat_inv(ws0, inv);
        glm_quat_mul(ws, inv, ds);
        versor aligned_rest;
        glm_quat_mul(c, wt0, aligned_rest);
        glm_quat_inv(aligned_rest, inv);
        glm_quat_mul(wt, inv, dt);
        versor relative;   /* dt ds^-1: the angle of the rotation between them, 2 atan2(|xyz|, |w|) */
        glm_quat_inv(ds, inv);
        glm_quat_mul(dt, inv, relative);
        float angle = 2.0f * atan2f(glm_vec3_norm(relative), fabsf(relative[3]));
        if (angle > worst) worst = angle;
    }
    CHECK(worst < 1e-3f, "world rotation deltas differ by up to %.3g rad", (double)worst);
    printf("two rigs: world rotation deltas agree within %.2e rad over %d joints\n", (double)worst, JOINTS);
    /* the rolled forearm: its own rest roll is kept (its local +Z differs from the unrolled right one's) */
    clip_free(&out);

    /* --retarget off: the local keys as they are */
    ok = retarget_clip(&setup, &clip, RETARGET_OFF, &out, &dropped);
    CHECK(ok && out.track_count == 2 && out.tracks[0].joint == 3 &&
              glm_vec4_eqv_eps(out.tracks[0].rotation_values[0], arm->rotation_values[0]),
          "retarget off does not copy the keys");
    clip_free(&out);
    retarget_setup_free(&setup);
    retarget_map_free(&map);

    /* refusal: the legs renamed away (no role, no name) -> fewer than half of the body roles */
    Skeleton few = {0};
    RigJoint renamed[JOINTS];
    memcpy(renamed, source_joints, sizeof renamed);
    static const char *const odd[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"};
    for (int j = 3; j < 13; j++) renamed[j].name = odd[j - 3];
    build_rig(&few, renamed, JOINTS, false);
    ok = retarget_match(&few, &target, NULL, 0, &map, error, sizeof error);
    CHECK(ok, "match: %s", error);
    CHECK(!retarget_check(&map, &target, error, sizeof error), "a source sharing 5 of 15 joints was accepted");
    printf("refused: %s\n", error);
    CHECK(strstr(error, "left upper arm") != NULL, "the refusal does not name what is missing: %s", error);
    retarget_map_free(&map);
    renamed[0].name = "root";   /* no hips at all */
    Skeleton no_hips = {0};
    build_rig(&no_hips, renamed, JOINTS, false);
    ok = retarget_match(&no_hips, &target, NULL, 0, &map, error, sizeof error);
    CHECK(ok && !retarget_check(&map, &target, error, sizeof error) && strstr(error, "hips"), "no hips: %s", error);
    retarget_map_free(&map);
    /* a bone map naming a joint neither rig has */
    BoneMapPair bad = {"Hips", "no_such_joint", 3};
    CHECK(!retarget_match(&source, &target, &bad, 1, &map, error, sizeof error) && strstr(error, "no_such_joint") &&
              strstr(error, "line 3"),
          "bone map with an unknown joint: %s", error);
    /* the bone map pairs odd names */
    BoneMapPair pairs[10];
    for (int j = 3; j < 13; j++) {
        snprintf(pairs[j - 3].source, SV_NAME_MAX, "%s", odd[j - 3]);
        snprintf(pairs[j - 3].target, SV_NAME_MAX, "%s", target.names[j]);
        pairs[j - 3].line = j;
    }
    ok = retarget_match(&few, &target, pairs, 10, &map, error, sizeof error);
    int by_map = 0;
    for (int j = 0; ok && j < JOINTS; j++) by_map += map.kind[j] == MATCH_BONE_MAP && map.source_of_target[j] == j;
    CHECK(ok && by_map == 10 && map.matched == JOINTS && retarget_check(&map, &target, error, sizeof error),
          "bone map: %d of 10 pairs taken, %d joints matched", by_map, ok ? map.matched : -1);
    retarget_map_free(&map);

    model_free(&(Model){.skeleton = source});
    model_free(&(Model){.skeleton = target});
    model_free(&(Model){.skeleton = few});
    model_free(&(Model){.skeleton = no_hips});
    clip_free(&clip);
}

/* ---- 3 and 4. real rigs ------------------------------------------------------------------------ */

static int role_joint(const RetargetMap *map, bool target, int role)
{
    const int *roles = target ? map->target_roles : map->source_roles;
    int n = target ? map->target_joint_count : map->source_joint_count;
    for (int j = 0; j < n; j++)
        if (roles[j] == role) return j;
    return -1;
}

/* Lowest of a side's foot and toes (and their children) along +Y. */
static float foot_height(const Skeleton *skeleton, const int *roles, const mat4 *model, int side)
{
    float lowest = INFINITY;
    for (int j = 0; j < skeleton->joint_count; j++)
        for (int a = j; a >= 0; a = skeleton->parent[a])
            if (roles[a] == ROLE_SIDED(side, SIDED_FOOT) || roles[a] == ROLE_SIDED(side, SIDED_TOES)) {
                if (model[j][3][1] < lowest) lowest = model[j][3][1];
                break;
            }
    return lowest;
}

/* Leg length at rest: upper leg -> lower leg -> foot. */
static float leg_length(const RetargetMap *map, bool target, const mat4 *rest)
{
    int a = role_joint(map, target, ROLE_SIDED(0, SIDED_UPPER_LEG)), b = role_joint(map, target, ROLE_SIDED(0, SIDED_LOWER_LEG));
    int c = role_joint(map, target, ROLE_SIDED(0, SIDED_FOOT));
    if (a < 0 || b < 0 || c < 0) return 0.0f;
    return glm_vec3_distance((float *)rest[a][3], (float *)rest[b][3]) + glm_vec3_distance((float *)rest[b][3], (float *)rest[c][3]);
}

typedef struct ContactStats {
    int    contacts;        /* frames x feet where the source's foot is down */
    int    stretched;       /* frames left out: the source's leg is not its rest length */
    double worst;           /* worst target foot height there, in leg lengths */
    double path_error;      /* worst distance of the target hips from k times the source's, in leg lengths */
    double travel;          /* the source hips' horizontal travel, first to last frame, times k, in target legs */
} ContactStats;

/* Plays `clip` (source) and `out` (its retargeted copy on target) at 30 frames a second: at each
 * frame where a source foot is within 2 % of its leg above its clip's ground (the lowest foot height
 * over the clip), the target's foot height above the target's ground (k times the source's). */
static ContactStats contact_check(const Skeleton *source, const Clip *clip, const Skeleton *target, const Clip *out,
                                  const RetargetMap *map, const RetargetSetup *setup)
{
    ContactStats stats = {0, 0, 0.0, 0.0, 0.0};
    int ns = source->joint_count, nt = target->joint_count;
    mat4 *sl = malloc(sizeof(mat4) * (size_t)ns), *sm = malloc(sizeof(mat4) * (size_t)ns);
    mat4 *tl = malloc(sizeof(mat4) * (size_t)nt), *tm = malloc(sizeof(mat4) * (size_t)nt);
    pose_at(source, NULL, 0.0f, sl, sm);
    pose_at(target, NULL, 0.0f, tl, tm);
    float leg_s = leg_length(map, false, sm), leg_t = leg_length(map, true, tm);
    int frames = (int)(clip->duration * 30.0f) + 1;
    float ground_s = INFINITY;
    for (int f = 0; f < frames; f++) {
        pose_at(source, clip, (float)f / 30.0f, sl, sm);
        for (int side = 0; side < 2; side++) {
            float h = foot_height(source, map->source_roles, sm, side);
            if (h < ground_s) ground_s = h;
        }
    }
    double ground_t = setup->hip_scale * ground_s;
    vec3 s0 = {0, 0, 0}, s1 = {0, 0, 0};
    for (int f = 0; f < frames; f++) {
        float time = (float)f / 30.0f;
        pose_at(source, clip, time, sl, sm);
        pose_at(target, out, time, tl, tm);
        if (f == 0) glm_vec3_copy(sm[setup->source_hips][3], s0);
        glm_vec3_copy(sm[setup->source_hips][3], s1);
        /* where the take's hips go, the character's go: p_t = k p_s (here the frames share their axes) */
        vec3 expected;
        glm_vec3_scale(sm[setup->source_hips][3], (float)setup->hip_scale, expected);
        double off = glm_vec3_distance(expected, tm[setup->target_hips][3]) / leg_t;
        if (off > stats.path_error) stats.path_error = off;
        /* a key that stretches the source's leg (Xbot's sneak_pose moves its knee 4.8 cm) is not
         * carried: every joint but the hips keeps the character's rest offset */
        float stretch = fabsf(leg_length(map, false, sm) / leg_s - 1.0f);
        if (stretch > 0.005f) {
            stats.stretched++;
            continue;
        }
        for (int side = 0; side < 2; side++) {
            /* a contact: the source's foot within 2 % of its leg above the clip's ground (its lowest
             * foot); there the character's foot must be as high above its ground (k times the
             * source's), in its own leg lengths, within 2 % */
            float hs = foot_height(source, map->source_roles, sm, side) - ground_s;
            if (hs > 0.02f * leg_s) continue;
            double ht = fabs((foot_height(target, map->target_roles, tm, side) - ground_t) / leg_t - hs / leg_s);
            stats.contacts++;
            if (ht > stats.worst) stats.worst = ht;
        }
    }
    stats.travel = hypot(s1[0] - s0[0], s1[2] - s0[2]) * setup->hip_scale / leg_t;
    free(sl), free(sm), free(tl), free(tm);
    return stats;
}

/* Every clip of `source_path` on `target_path`: matched joints, contacts, travel. */
static void real_pair(const char *source_path, const char *target_path, bool all_joints, double contact_tolerance,
                      const char *label)
{
    Model source, target;
    if (!load(source_path, &source)) return;
    if (!load(target_path, &target)) {
        model_free(&source);
        return;
    }
    RetargetMap map;
    char error[512];
    bool ok = retarget_match(&source.skeleton, &target.skeleton, NULL, 0, &map, error, sizeof error);
    CHECK(ok, "%s: %s", label, error);
    if (!ok) goto done;
    CHECK(retarget_check(&map, &target.skeleton, error, sizeof error), "%s refused: %s", label, error);
    /* every joint the two rigs both have (by prefix-free name) is matched, and every body role */
    char key_t[SV_NAME_MAX], key_s[SV_NAME_MAX];
    int common = 0, common_matched = 0, body = 0, body_matched = 0;
    for (int t = 0; t < target.skeleton.joint_count; t++) {
        joint_name_key(target.skeleton.names[t], key_t, sizeof key_t);
        for (int s = 0; s < source.skeleton.joint_count; s++) {
            joint_name_key(source.skeleton.names[s], key_s, sizeof key_s);
            if (strcmp(key_t, key_s) == 0) {
                common++;
                common_matched += map.source_of_target[t] == s;
                break;
            }
        }
        bool limb = map.target_roles[t] >= ROLE_FIRST_SIDED && joint_role_is_body(map.target_roles[t]);
        if (limb || map.target_roles[t] == ROLE_HIPS || map.target_roles[t] == ROLE_HEAD) {
            body++;
            body_matched += map.source_of_target[t] >= 0;
        }
    }
    if (all_joints)
        CHECK(common_matched == common, "%s: %d of the %d joints both rigs have matched to each other", label,
              common_matched, common);
    CHECK(body_matched == body && body >= 17, "%s: %d of %d limb / hips / head joints matched", label, body_matched, body);
    printf("%s: %d of %d joints matched (%d common names, %d matched to each other), every one of %d limb joints\n", label,
           map.matched, target.skeleton.joint_count, common, common_matched, body);
    RetargetSetup setup;
    Clip *clips = calloc((size_t)source.clip_count, sizeof(Clip));
    ok = retarget_all(&source, &target.skeleton, &map, RETARGET_ON, clips, &setup);
    CHECK(ok, "%s: retarget failed", label);
    for (int c = 0; ok && c < source.clip_count; c++) {
        CHECK(clip_root_motion_joint(&clips[c]) == setup.target_hips || clip_root_motion_joint(&source.clips[c]) < 0,
              "%s clip %s: root motion joint %d, not the hips %d", label, source.clips[c].name,
              clip_root_motion_joint(&clips[c]), setup.target_hips);
        ContactStats stats = contact_check(&source.skeleton, &source.clips[c], &target.skeleton, &clips[c], &map, &setup);
        CHECK(stats.contacts > 0, "%s clip %s: no foot contact found", label, source.clips[c].name);
        CHECK(stats.worst <= contact_tolerance, "%s clip %s: a foot %.2f %% of the leg off the ground at a contact",
              label, source.clips[c].name, 100.0 * stats.worst);
        CHECK(stats.path_error < 1e-4, "%s clip %s: the hips leave the take's path by %.3g leg lengths", label,
              source.clips[c].name, stats.path_error);
        printf("%s clip %s: %d foot contacts (%d frames with a stretched leg left out), worst %.3f %% of the leg; "
               "k = %.5f; hips travel %.2f legs, off the take's path by %.1e legs\n", label, source.clips[c].name,
               stats.contacts, stats.stretched, 100.0 * stats.worst, setup.hip_scale, stats.travel, stats.path_error);
    }
    /* root motion (M) on a retargeted clip: the Animator with in_place keeps the hips over their
     * start while the clip travels */
    if (ok && source.clip_count > 0) {
        Clip *own = target.clips;
        int own_count = target.clip_count;
        target.clips = clips;
        target.clip_count = 1;
        Animator animator;
        if (animator_init(&animator, &target)) {
            mat4 *rest_local = malloc(sizeof(mat4) * (size_t)target.skeleton.joint_count);
            mat4 *rest_model = malloc(sizeof(mat4) * (size_t)target.skeleton.joint_count);
            pose_at(&target.skeleton, NULL, 0.0f, rest_local, rest_model);
            float leg = leg_length(&map, true, rest_model);
            vec3 first = {0, 0, 0};
            double drift = 0.0, travel = 0.0;
            for (int f = 0; f <= 20; f++) {
                float time = clips[0].duration * (float)f / 20.0f;
                animator.root.in_place = true;
                animator_evaluate(&animator, 0, time);
                vec3 hips;
                glm_vec3_copy(animator.joint_model[setup.target_hips][3], hips);
                if (f == 0) glm_vec3_copy(hips, first);
                double d = hypot(hips[0] - first[0], hips[2] - first[2]) / leg;
                if (d > drift) drift = d;
                vec3 authored;
                animator_root_position(&animator, authored);
                d = hypot(authored[0] - first[0], authored[2] - first[2]) / leg;
                if (d > travel) travel = d;
            }
            CHECK(drift < 1e-4, "%s: in place, the hips drift %.3g legs", label, drift);
            printf("%s: root motion in place: hips drift %.1e legs while the clip travels up to %.2f legs\n", label,
                   drift, travel);
            free(rest_local), free(rest_model);
            animator_free(&animator);
        }
        target.clips = own;
        target.clip_count = own_count;
    }
    for (int c = 0; c < source.clip_count; c++) clip_free(&clips[c]);
    free(clips);
    retarget_setup_free(&setup);
    retarget_map_free(&map);
done:
    model_free(&source);
    model_free(&target);
}

/* ---- 5. renamed copies ------------------------------------------------------------------------- */

/* A copy of `model` whose joints are renamed by rename(name, index, out). */
static void rename_copy(const Model *model, Model *copy, void (*rename)(const char *, char *))
{
    memset(copy, 0, sizeof *copy);
    const Skeleton *s = &model->skeleton;
    skeleton_alloc(&copy->skeleton, s->joint_count);
    Skeleton *c = &copy->skeleton;
    memcpy(c->parent, s->parent, sizeof(int) * (size_t)s->joint_count);
    memcpy(c->rest_local, s->rest_local, sizeof(mat4) * (size_t)s->joint_count);
    memcpy(c->rest_trs, s->rest_trs, sizeof(JointTransform) * (size_t)s->joint_count);
    memcpy(c->is_bone, s->is_bone, sizeof(bool) * (size_t)s->joint_count);
    for (int j = 0; j < s->joint_count; j++) rename(s->names[j], c->names[j]);
}

static void humanik(const char *name, char *out) { snprintf(out, SV_NAME_MAX, "Character1_%s", joint_name_without_prefix(name)); }
static void namespaced(const char *name, char *out) { snprintf(out, SV_NAME_MAX, "Armature|mixamorig1:%s", joint_name_without_prefix(name)); }
static void gibberish(const char *name, char *out)
{
    unsigned h = 5381;
    for (const char *c = name; *c; c++) h = h * 33 + (unsigned char)*c;
    snprintf(out, SV_NAME_MAX, "j%08x", h);
}

/* Mixamo -> Unreal / Rigify names for the body (others kept, prefixed so no name matches). */
static void renamed_by_table(const char *name, char *out, const char *const (*table)[2])
{
    const char *bare = joint_name_without_prefix(name);
    for (int i = 0; table[i][0]; i++)
        if (strcmp(bare, table[i][0]) == 0) {
            snprintf(out, SV_NAME_MAX, "%s", table[i][1]);
            return;
        }
    snprintf(out, SV_NAME_MAX, "x_%s", bare);
}
static const char *const unreal_names[][2] = {
    {"Hips", "pelvis"}, {"Spine", "spine_01"}, {"Spine1", "spine_02"}, {"Spine2", "spine_03"}, {"Neck", "neck_01"},
    {"Head", "head"}, {"LeftShoulder", "clavicle_l"}, {"LeftArm", "upperarm_l"}, {"LeftForeArm", "lowerarm_l"},
    {"LeftHand", "hand_l"}, {"RightShoulder", "clavicle_r"}, {"RightArm", "upperarm_r"}, {"RightForeArm", "lowerarm_r"},
    {"RightHand", "hand_r"}, {"LeftUpLeg", "thigh_l"}, {"LeftLeg", "calf_l"}, {"LeftFoot", "foot_l"},
    {"LeftToeBase", "ball_l"}, {"RightUpLeg", "thigh_r"}, {"RightLeg", "calf_r"}, {"RightFoot", "foot_r"},
    {"RightToeBase", "ball_r"}, {"LeftHandIndex1", "index_01_l"}, {"LeftHandIndex2", "index_02_l"},
    {"LeftHandIndex3", "index_03_l"}, {NULL, NULL}};
static const char *const rigify_names[][2] = {
    {"Hips", "DEF-spine"}, {"Spine", "DEF-spine.001"}, {"Spine1", "DEF-spine.002"}, {"Spine2", "DEF-spine.003"},
    {"Neck", "DEF-spine.004"}, {"Head", "DEF-spine.006"}, {"LeftShoulder", "DEF-shoulder.L"},
    {"LeftArm", "DEF-upper_arm.L"}, {"LeftForeArm", "DEF-forearm.L"}, {"LeftHand", "DEF-hand.L"},
    {"RightShoulder", "DEF-shoulder.R"}, {"RightArm", "DEF-upper_arm.R"}, {"RightForeArm", "DEF-forearm.R"},
    {"RightHand", "DEF-hand.R"}, {"LeftUpLeg", "DEF-thigh.L"}, {"LeftLeg", "DEF-shin.L"}, {"LeftFoot", "DEF-foot.L"},
    {"LeftToeBase", "DEF-toe.L"}, {"RightUpLeg", "DEF-thigh.R"}, {"RightLeg", "DEF-shin.R"}, {"RightFoot", "DEF-foot.R"},
    {"RightToeBase", "DEF-toe.R"}, {NULL, NULL}};
static void unreal(const char *name, char *out) { renamed_by_table(name, out, unreal_names); }
static void rigify(const char *name, char *out) { renamed_by_table(name, out, rigify_names); }

static void test_renamed(void)
{
    Model xbot;
    if (!load(XBOT, &xbot)) return;
    struct {
        const char *label;
        void (*rename)(const char *, char *);
        bool all;            /* every joint is expected (else: every renamed body joint) */
        const char *const (*table)[2];
        bool bone_map;
    } cases[] = {{"HumanIK prefix", humanik, true, NULL, false}, {"namespace", namespaced, true, NULL, false},
                 {"Unreal names", unreal, false, unreal_names, false}, {"Rigify names", rigify, false, rigify_names, false},
                 {"gibberish + bone map", gibberish, true, NULL, true}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Model copy;
        rename_copy(&xbot, &copy, cases[k].rename);
        copy.clip_count = xbot.clip_count;
        copy.clips = xbot.clips;   /* borrowed: the same clips, on the renamed skeleton */
        BoneMapPair *pairs = NULL;
        int pair_count = 0;
        if (cases[k].bone_map) {
            pairs = calloc((size_t)xbot.skeleton.joint_count, sizeof(BoneMapPair));
            for (int j = 0; j < xbot.skeleton.joint_count; j++, pair_count++) {
                snprintf(pairs[j].source, SV_NAME_MAX, "%s", copy.skeleton.names[j]);
                snprintf(pairs[j].target, SV_NAME_MAX, "%s", xbot.skeleton.names[j]);
                pairs[j].line = j + 1;
            }
        }
        RetargetMap map;
        char error[512];
        bool ok = retarget_match(&copy.skeleton, &xbot.skeleton, pairs, pair_count, &map, error, sizeof error);
        CHECK(ok, "%s: %s", cases[k].label, error);
        int expected = 0, found = 0;
        for (int j = 0; ok && j < xbot.skeleton.joint_count; j++) {
            bool wanted = cases[k].all;
            for (int i = 0; !wanted && cases[k].table[i][0]; i++)
                wanted = strcmp(joint_name_without_prefix(xbot.skeleton.names[j]), cases[k].table[i][0]) == 0;
            if (!wanted) continue;
            expected++;
            found += map.source_of_target[j] == j;
        }
        CHECK(ok && found == expected, "%s: %d of %d joints found", cases[k].label, found, expected);
        printf("renamed (%s): %d of %d joints found, %d matched in all\n", cases[k].label, found, expected, ok ? map.matched : 0);
        if (ok && cases[k].all) {   /* the same rig: the clips come back as they were */
            Clip *clips = calloc((size_t)xbot.clip_count, sizeof(Clip));
            RetargetSetup setup;
            ok = retarget_all(&copy, &xbot.skeleton, &map, RETARGET_ON, clips, &setup);
            double worst = 0.0;
            for (int c = 0; ok && c < xbot.clip_count; c++) {
                double e = compare_clips(&xbot.skeleton, &xbot.clips[c], &clips[c], NULL);
                if (e > worst) worst = e;
            }
            CHECK(ok && worst <= 1e-6, "%s: clips off by %.3g of the diagonal", cases[k].label, worst);
            for (int c = 0; c < xbot.clip_count; c++) clip_free(&clips[c]);
            free(clips);
            retarget_setup_free(&setup);
        }
        if (ok) retarget_map_free(&map);
        free(pairs);
        copy.clips = NULL;
        copy.clip_count = 0;
        model_free(&copy);
    }
    model_free(&xbot);
}

int main(void)
{
    test_two_rigs();
    test_identity();
    if (!test_file_exists(XBOT) || !test_file_exists(MIXAMO)) {
        printf("../shared models absent: the Mixamo, CMU and renamed-rig parts skipped\n");
        return test_finish();
    }
    /* the Mixamo pair: 2 % of the leg (the issue's bound); the CMU takes on Xbot: 4 % (other foot
     * and toe proportions: on its toes, Xbot's longer toes put the foot elsewhere; rotation
     * retargeting keeps angles, not foot positions: that would take IK). 01_03 was 4.49 % (01_01
     * 0.47 %) while feet kept their rest pose relative to the shin and k counted each rig's rest
     * ankle drop (CMU's rest foot is level, Xbot's pitched 39 degrees: k 5.9 % too large, the hips
     * 0.05 leg too high); with the foot aligned ankle -> toe like a limb bone and k measured with the
     * character's foot at the source's rest pitch: 3.85 % (01_01 1.19 %) */
    real_pair(MIXAMO, XBOT, true, 0.02, "mixamo.fbx -> Xbot.glb");
    real_pair(XBOT, MIXAMO, true, 0.02, "Xbot.glb -> mixamo.fbx");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/01_01.bvh", XBOT, false, 0.04, "BVH/01_01.bvh -> Xbot.glb");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/01_03.bvh", XBOT, false, 0.04, "BVH/01_03.bvh -> Xbot.glb");
    test_renamed();
    return test_finish();
}
