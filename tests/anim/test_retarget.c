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
 *  4. the BVH takes (assimp-testmodels BVH/01_01.bvh, 01_03.bvh, Boxing_Toes.bvh) on Xbot (01_03 also
 *     on mixamo.fbx): every limb matched, the hips travel k times the take's travel, feet within 2 %
 *     of the leg of the ground at contacts, never further than without the foot-contact
 *     correction; for every pair, root
 *     motion in place (the Animator) keeps the hips over their start while the clip travels
 *  5. renamed copies of Xbot's rig (HumanIK, namespace, Unreal, Rigify, gibberish + bone map): every
 *     joint found, the clips come back as on the original
 *  6. refusal: no joint in common, hips missing, a bone map naming an unknown joint. */
#include "testutil.h"
#include "anim/anim.h"
#include "anim/animator.h"
#include "anim/retarget.h"
#include "io/import.h"
#include "retarget_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
    test_two_rigs();
    test_identity();
    if (!test_file_exists(XBOT) || !test_file_exists(MIXAMO)) {
        printf("../shared models absent: the Mixamo, CMU and renamed-rig parts skipped\n");
        return test_finish();
    }
    /* every pair: 2 % of the leg (the bound). Rotation retargeting alone keeps angles, not
     * foot positions: the CMU takes on Xbot were 1.19 % (01_01) and 3.85 % (01_03, the right foot
     * at 27.4 s: the take's leg nearly straight, Xbot's a few % of its leg short of the floor),
     * Boxing_Toes 5.65 %; the foot contacts (retarget_contact.c: contacts found in the take, legs
     * bent by two-bone IK, toes pointed for what a straight leg cannot reach) bring them under 2 % */
    real_pair(MIXAMO, XBOT, true, 0.02, "mixamo.fbx -> Xbot.glb");
    real_pair(XBOT, MIXAMO, true, 0.02, "Xbot.glb -> mixamo.fbx");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/01_01.bvh", XBOT, false, 0.02, "BVH/01_01.bvh -> Xbot.glb");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/01_03.bvh", XBOT, false, 0.02, "BVH/01_03.bvh -> Xbot.glb");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/Boxing_Toes.bvh", XBOT, false, 0.02, "BVH/Boxing_Toes.bvh -> Xbot.glb");
    real_pair(SKINVIEW_TESTMODELS_DIR "/BVH/01_03.bvh", MIXAMO, false, 0.02, "BVH/01_03.bvh -> mixamo.fbx");
    test_renamed();
    return test_finish();
}
