/* test_retarget_real.c — retargeting between real files (../shared, skipped when absent): mixamo.fbx
 * <-> Xbot.glb and the BVH takes on Xbot (every limb, feet at contacts with and without the foot-contact
 * correction, travel), and renamed
 * copies of Xbot's rig (prefixes, Unreal, Rigify, a bone map). Part of the program test_retarget
 * (retarget_fixture.h). */
#include "retarget_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 3 and 4. real rigs ------------------------------------------------------------------------ */

static int role_joint(const RetargetMap *map, bool target, int role)
{
    const int *roles = target ? map->target_roles : map->source_roles;
    int n = target ? map->target_joint_count : map->source_joint_count;
    for (int j = 0; j < n; j++)
        if (roles[j] == role) return j;
    return -1;
}

/* Lowest of a side's foot and toes (and their children) along the scene's up axis (the rig's body
 * frame, retarget_setup: +Y for the shared models and the CMU takes, +Z for a Z-up file). */
static float foot_height(const Skeleton *skeleton, const int *roles, const mat4 *model, int side, const double up[3])
{
    float lowest = INFINITY;
    for (int j = 0; j < skeleton->joint_count; j++)
        for (int a = j; a >= 0; a = skeleton->parent[a])
            if (roles[a] == ROLE_SIDED(side, SIDED_FOOT) || roles[a] == ROLE_SIDED(side, SIDED_TOES)) {
                float h = (float)(up[0] * model[j][3][0] + up[1] * model[j][3][1] + up[2] * model[j][3][2]);
                if (h < lowest) lowest = h;
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

/* The angle at joint b between a and c (rad), in model space. */
static double angle_at(const mat4 *model, int a, int b, int c)
{
    vec3 u, v;
    glm_vec3_sub((float *)model[a][3], (float *)model[b][3], u);
    glm_vec3_sub((float *)model[c][3], (float *)model[b][3], v);
    double d = glm_vec3_dot(u, v) / (glm_vec3_norm(u) * glm_vec3_norm(v));
    return acos(d > 1.0 ? 1.0 : d < -1.0 ? -1.0 : d);
}

/* The angle of the rotation between two model matrices' rotation parts (rad). */
static double turn_between(const mat4 a, const mat4 b)
{
    double trace = 0.0;   /* trace(Ra^T Rb) = 1 + 2 cos(angle), the columns normalised */
    for (int i = 0; i < 3; i++)
        trace += glm_vec3_dot((float *)a[i], (float *)b[i]) / (glm_vec3_norm((float *)a[i]) * glm_vec3_norm((float *)b[i]));
    double c = 0.5 * (trace - 1.0);
    return acos(c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c);
}

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
            float h = foot_height(source, map->source_roles, sm, side, setup->up_source);
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
        /* where the take's hips go, the character's go: p_t = k A p_s */
        versor align = {(float)setup->align[0], (float)setup->align[1], (float)setup->align[2], (float)setup->align[3]};
        vec3 expected;
        glm_quat_rotatev(align, sm[setup->source_hips][3], expected);
        glm_vec3_scale(expected, (float)setup->hip_scale, expected);
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
            float hs = foot_height(source, map->source_roles, sm, side, setup->up_source) - ground_s;
            if (hs > 0.02f * leg_s) continue;
            double ht = fabs((foot_height(target, map->target_roles, tm, side, setup->up_target) - ground_t) / leg_t - hs / leg_s);
            stats.contacts++;
            if (ht > stats.worst) stats.worst = ht;
        }
    }
    stats.travel = hypot(s1[0] - s0[0], s1[2] - s0[2]) * setup->hip_scale / leg_t;
    free(sl), free(sm), free(tl), free(tm);
    return stats;
}

/* The most faster a knee may bend and a foot turn with the foot-contact correction than without,
 * in rad a frame at 30 frames a second (correction_steps) */
#define MAX_KNEE_EXCESS 0.12
#define MAX_FOOT_EXCESS 0.06

/* Whether the foot-contact correction pops: `on` and `off` are one clip retargeted with and without
 * it; at 30 frames a second, how much faster each character knee bends (its angle's change from the
 * frame before) and each foot turns (the angle between its world rotations at the two frames) with
 * the correction than without, at the same frame: the largest excess, in rad a frame. A correction
 * switched on or off at once would show as a step of its own size. */
static void correction_steps(const Skeleton *target, const Clip *on, const Clip *off, const RetargetSetup *setup,
                             double *knee_step, double *foot_step)
{
    int nt = target->joint_count, frames = (int)(on->duration * 30.0f) + 1;
    mat4 *local = malloc(sizeof(mat4) * (size_t)nt), *m[2], *before[2];
    for (int i = 0; i < 2; i++) m[i] = malloc(sizeof(mat4) * (size_t)nt), before[i] = malloc(sizeof(mat4) * (size_t)nt);
    *knee_step = *foot_step = 0.0;
    for (int f = 0; f < frames; f++) {
        pose_at(target, on, (float)f / 30.0f, local, m[0]);
        pose_at(target, off, (float)f / 30.0f, local, m[1]);
        for (int side = 0; f > 0 && side < 2; side++) {
            const RetargetLeg *leg = &setup->legs[side];
            if (!leg->valid) continue;
            double knee[2], foot[2];
            for (int i = 0; i < 2; i++) {
                knee[i] = fabs(angle_at(m[i], leg->target_upper, leg->target_lower, leg->target_foot) -
                               angle_at(before[i], leg->target_upper, leg->target_lower, leg->target_foot));
                foot[i] = turn_between(m[i][leg->target_foot], before[i][leg->target_foot]);
            }
            if (knee[0] - knee[1] > *knee_step) *knee_step = knee[0] - knee[1];
            if (foot[0] - foot[1] > *foot_step) *foot_step = foot[0] - foot[1];
        }
        for (int i = 0; i < 2; i++) memcpy(before[i], m[i], sizeof(mat4) * (size_t)nt);
    }
    free(local);
    for (int i = 0; i < 2; i++) free(m[i]), free(before[i]);
}

void real_pair(const char *source_path, const char *target_path, bool all_joints, double contact_tolerance,
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
        /* rotation retargeting alone (foot contacts off, retarget_contact.c), for comparison: the
         * correction must never leave a foot further from the ground at a contact than without */
        Clip plain;
        setup.foot_contacts = false;
        bool plain_ok = retarget_clip(&setup, &source.clips[c], RETARGET_ON, &plain, NULL);
        setup.foot_contacts = true;
        CHECK(plain_ok, "%s: retarget without foot contacts failed", label);
        if (plain_ok) {
            ContactStats off = contact_check(&source.skeleton, &source.clips[c], &target.skeleton, &plain, &map, &setup);
            double knee_step, foot_step;
            correction_steps(&target.skeleton, &clips[c], &plain, &setup, &knee_step, &foot_step);
            CHECK(stats.worst <= off.worst + 1e-5, "%s clip %s: foot contacts kept: worst %.3f %% of the leg, without %.3f %%",
                  label, source.clips[c].name, 100.0 * stats.worst, 100.0 * off.worst);
            /* no pops: the correction may make a knee bend or a foot turn only this much faster
             * than rotation retargeting alone does at the same frame (before the soft reach, the
             * continuous toe pointing and the filtered lift, retarget_contact.c: 0.24 and 0.10 rad) */
            CHECK(knee_step <= MAX_KNEE_EXCESS, "%s clip %s: a knee bends %.3f rad a frame faster with foot contacts "
                  "than without (bound %.2f)", label, source.clips[c].name, knee_step, MAX_KNEE_EXCESS);
            CHECK(foot_step <= MAX_FOOT_EXCESS, "%s clip %s: a foot turns %.3f rad a frame faster with foot contacts "
                  "than without (bound %.2f)", label, source.clips[c].name, foot_step, MAX_FOOT_EXCESS);
            printf("%s clip %s: without foot contacts: worst %.3f %% of the leg; with them, the knees bend up to %.3f rad "
                   "and the feet turn up to %.3f rad a frame faster than without\n", label, source.clips[c].name,
                   100.0 * off.worst, knee_step, foot_step);
            clip_free(&plain);
        }
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

void test_renamed(void)
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
