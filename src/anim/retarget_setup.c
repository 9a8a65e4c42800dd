/* retarget_setup.c — what is fixed for one pair of skeletons (retarget.h: retarget_setup;
 * docs/retargeting.md section 3): the shared frame A, the hip height ratio k, the rest alignment C_j. */
#include "retarget.h"
#include "retarget_contact.h"
#include "retarget_dquat.h"
#include "alloc.h"
#include "anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- set-up: the shared frame, the hip height ratio, the rest alignment ------------------------ */

/* Whether a joint of role `child` continues the bone of a joint of role `role` (the direction that
 * rest alignment turns): spine -> spine / neck / head, neck -> neck / head, shoulder -> upper arm ->
 * forearm -> hand, upper leg -> lower leg -> foot -> toes. The foot's bone is the line ankle -> toe
 * joint: rigs rest it differently (the CMU ankle is level with the ball of the foot, Mixamo's 39
 * degrees above it), and a foot that kept its own rest pitch under the source's turn would point
 * its toes that much further down (hip_height measures the character's foot at the source's pitch
 * to match). Other roles (hips, hands, toes, fingers, head) have no such bone: where the joint sits
 * against the palm differs from rig to rig, so they keep their rest pose relative to the limb they
 * hang from. */
static bool continues_bone(int role, int child)
{
    if (role == ROLE_SPINE) return child == ROLE_SPINE || child == ROLE_NECK || child == ROLE_HEAD;
    if (role == ROLE_NECK) return child == ROLE_NECK || child == ROLE_HEAD;
    if (role < ROLE_FIRST_SIDED || child < ROLE_FIRST_SIDED || role >= ROLE_COUNT) return false;
    int side = (role - ROLE_FIRST_SIDED) / RETARGET_SIDED_ROLES, sided = (role - ROLE_FIRST_SIDED) % RETARGET_SIDED_ROLES;
    int next = sided == SIDED_SHOULDER ? SIDED_UPPER_ARM : sided == SIDED_UPPER_ARM ? SIDED_FOREARM
             : sided == SIDED_FOREARM ? SIDED_HAND : sided == SIDED_UPPER_LEG ? SIDED_LOWER_LEG
             : sided == SIDED_LOWER_LEG ? SIDED_FOOT : sided == SIDED_FOOT ? SIDED_TOES : -1;
    return next >= 0 && child == ROLE_SIDED(side, next);
}

/* World rotation of every joint at rest: the product of the rest rotations from the root (a
 * joint's scale does not turn its children, for uniform scales). */
static void rest_world_rotations(const Skeleton *skeleton, double (*world)[4])
{
    for (int j = 0; j < skeleton->joint_count; j++) {
        dquat local;
        dq_from_versor(skeleton->rest_trs[j].rotation, local);
        dq_normalize(local);
        int p = skeleton->parent[j];
        if (p >= 0)
            dq_mul(world[p], local, world[j]);
        else
            dq_copy(local, world[j]);
    }
}

static void rest_positions(const Skeleton *skeleton, mat4 *local, mat4 *model)
{
    pose_set_rest(skeleton, local);
    pose_local_to_model(skeleton, local, model);
}

static int find_role(const int *roles, int count, int role)
{
    for (int j = 0; j < count; j++)
        if (roles[j] == role) return j;
    return -1;
}

/* The closest signed scene axis to v (index 0..5: +X -X +Y -Y +Z -Z), written as a unit vector. */
static void snap_axis(const double v[3], double out[3])
{
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(v[i]) > fabs(v[best])) best = i;
    out[0] = out[1] = out[2] = 0.0;
    out[best] = v[best] < 0.0 ? -1.0 : 1.0;
}

/* The body frame of a humanoid at rest, snapped to the scene axes: columns side (right -> left),
 * up (hips -> head), forward. False when the rig has no hips, head / neck or legs / arms. */
static bool body_frame(const Skeleton *skeleton, const int *roles, const mat4 *model, double frame[3][3])
{
    int n = skeleton->joint_count, hips = find_role(roles, n, ROLE_HIPS);
    int top = find_role(roles, n, ROLE_HEAD);
    if (top < 0) top = find_role(roles, n, ROLE_NECK);
    int left = find_role(roles, n, ROLE_SIDED(0, SIDED_UPPER_LEG)), right = find_role(roles, n, ROLE_SIDED(1, SIDED_UPPER_LEG));
    if (left < 0 || right < 0) {
        left = find_role(roles, n, ROLE_SIDED(0, SIDED_UPPER_ARM));
        right = find_role(roles, n, ROLE_SIDED(1, SIDED_UPPER_ARM));
    }
    if (hips < 0 || top < 0 || left < 0 || right < 0) return false;
    double up[3], side[3];
    for (int i = 0; i < 3; i++) {
        up[i] = model[top][3][i] - model[hips][3][i];
        side[i] = model[left][3][i] - model[right][3][i];
    }
    snap_axis(up, frame[1]);
    snap_axis(side, frame[0]);
    if (frame[0][0] * frame[1][0] + frame[0][1] * frame[1][1] + frame[0][2] * frame[1][2] != 0.0) return false;
    const double *s = frame[0], *u = frame[1];
    frame[2][0] = s[1] * u[2] - s[2] * u[1], frame[2][1] = s[2] * u[0] - s[0] * u[2], frame[2][2] = s[0] * u[1] - s[1] * u[0];
    return true;
}

static bool is_descendant(const Skeleton *skeleton, int joint, int ancestor)
{
    for (int a = skeleton->parent[joint]; a >= 0; a = skeleton->parent[a])
        if (a == ancestor) return true;
    return false;
}

static double along(const double up[3], const vec4 p) { return up[0] * p[0] + up[1] * p[1] + up[2] * p[2]; }

/* Height of the hips above the ground with the legs straight down, at rest, along `up`: the drop from
 * the hips to the upper leg, the thigh and shin lengths, the drop from the ankle to its lowest
 * descendant (toe), averaged over the legs the roles name. With a toes joint the ankle's drop is
 * the one to that joint, and pitch_out[side] gets its sine (drop / foot length); given the other
 * rig's foot_pitch, the drop is foot_pitch x this foot's length: the foot as rest alignment turns it
 * (continues_bone), so that k compares two rigs standing on feet pitched alike. A rest pose with splayed legs (the CMU
 * takes: 20 degrees) stands as tall as its legs are long. Without leg roles: the hips' height above
 * the lowest foot / toe joint (or the lowest joint). */
static double hip_height(const Skeleton *skeleton, const int *roles, const mat4 *model, int hips, const double up[3],
                         const double *foot_pitch, double *pitch_out)
{
    if (hips < 0) return 0.0;
    double legs = 0.0;
    int leg_count = 0;
    for (int side = 0; side < 2; side++) {
        int upper = find_role(roles, skeleton->joint_count, ROLE_SIDED(side, SIDED_UPPER_LEG));
        int lower = find_role(roles, skeleton->joint_count, ROLE_SIDED(side, SIDED_LOWER_LEG));
        int foot = find_role(roles, skeleton->joint_count, ROLE_SIDED(side, SIDED_FOOT));
        if (upper < 0 || lower < 0 || foot < 0) continue;
        double lowest = along(up, model[foot][3]);
        for (int j = foot + 1; j < skeleton->joint_count; j++)
            if (is_descendant(skeleton, j, foot) && along(up, model[j][3]) < lowest) lowest = along(up, model[j][3]);
        double drop = along(up, model[foot][3]) - lowest;   /* the ankle above its lowest toe joint */
        int toes = find_role(roles, skeleton->joint_count, ROLE_SIDED(side, SIDED_TOES));
        double foot_length = toes >= 0 ? glm_vec3_distance((float *)model[foot][3], (float *)model[toes][3]) : 0.0;
        if (foot_length > 0.0 && pitch_out) {   /* the ankle above the toe joint, the line the feet are aligned by */
            drop = along(up, model[foot][3]) - along(up, model[toes][3]);
            pitch_out[side] = drop / foot_length;
        }
        /* the foot turned to the other rig's rest pitch (the foot is aligned ankle -> toe like a limb
         * bone): its ankle stands sin(pitch) x its length above the toe */
        if (foot_length > 0.0 && foot_pitch && !isnan(foot_pitch[side])) drop = foot_pitch[side] * foot_length;
        legs += along(up, model[hips][3]) - along(up, model[upper][3]) +
                glm_vec3_distance((float *)model[upper][3], (float *)model[lower][3]) +
                glm_vec3_distance((float *)model[lower][3], (float *)model[foot][3]) + drop;
        leg_count++;
    }
    if (leg_count > 0) return legs / leg_count;
    bool have_feet = false;
    for (int j = 0; j < skeleton->joint_count; j++) {
        int sided = roles[j] >= ROLE_FIRST_SIDED ? (roles[j] - ROLE_FIRST_SIDED) % RETARGET_SIDED_ROLES : -1;
        have_feet = have_feet || sided == SIDED_FOOT || sided == SIDED_TOES;
    }
    double lowest = INFINITY;
    for (int j = 0; j < skeleton->joint_count; j++) {
        bool foot = false;   /* a foot or toe joint, or one under it (toe ends) */
        for (int a = j; a >= 0 && !foot; a = skeleton->parent[a]) {
            int sided = roles[a] >= ROLE_FIRST_SIDED ? (roles[a] - ROLE_FIRST_SIDED) % RETARGET_SIDED_ROLES : -1;
            foot = sided == SIDED_FOOT || sided == SIDED_TOES;
        }
        if (have_feet && !foot) continue;
        double h = up[0] * model[j][3][0] + up[1] * model[j][3][1] + up[2] * model[j][3][2];
        if (h < lowest) lowest = h;
    }
    double h = up[0] * model[hips][3][0] + up[1] * model[hips][3][1] + up[2] * model[hips][3][2];
    return isfinite(lowest) ? h - lowest : 0.0;
}


void retarget_setup_free(RetargetSetup *setup)
{
    free(setup->source_rest_world);
    free(setup->target_rest_world);
    free(setup->rest_alignment);
    free(setup->copy_translation);
    retarget_legs_free(setup);
    memset(setup, 0, sizeof *setup);
}

bool retarget_setup(RetargetSetup *setup, const Skeleton *source, const Skeleton *target, const RetargetMap *map)
{
    memset(setup, 0, sizeof *setup);
    setup->source = source, setup->target = target, setup->map = map;
    int ns = source->joint_count, nt = target->joint_count;
    bool ok = true;
    setup->source_rest_world = anim_zeroed((size_t)ns, sizeof(dquat), &ok);
    setup->target_rest_world = anim_zeroed((size_t)nt, sizeof(dquat), &ok);
    setup->rest_alignment = anim_zeroed((size_t)nt, sizeof(dquat), &ok);
    setup->copy_translation = anim_zeroed((size_t)nt, sizeof(bool), &ok);
    mat4 *s_local = anim_zeroed((size_t)ns, sizeof(mat4), &ok), *s_model = anim_zeroed((size_t)ns, sizeof(mat4), &ok);
    mat4 *t_local = anim_zeroed((size_t)nt, sizeof(mat4), &ok), *t_model = anim_zeroed((size_t)nt, sizeof(mat4), &ok);
    if (!ok) {
        free(s_local), free(s_model), free(t_local), free(t_model);
        retarget_setup_free(setup);
        return false;
    }
    rest_world_rotations(source, setup->source_rest_world);
    rest_world_rotations(target, setup->target_rest_world);
    rest_positions(source, s_local, s_model);
    rest_positions(target, t_local, t_model);

    /* A: the source's body frame onto the character's (both snapped to scene axes, so A is a
     * quarter-turn rotation or the identity: it only fixes Z-up against Y-up, facing -Z against +Z) */
    double fs[3][3], ft[3][3], up_s[3] = {0, 1, 0}, up_t[3] = {0, 1, 0}, forward_t[3] = {0, 0, 1};
    dq_identity(setup->align);
    if (body_frame(source, map->source_roles, s_model, fs) && body_frame(target, map->target_roles, t_model, ft)) {
        /* A = Bt Bs^T, columns of signed unit axes: exact integers, so equal frames give exactly I */
        double a[3][3];   /* a[column][row] */
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) a[c][r] = ft[0][r] * fs[0][c] + ft[1][r] * fs[1][c] + ft[2][r] * fs[2][c];
        dq_from_columns(a[0], a[1], a[2], setup->align);
        memcpy(up_s, fs[1], sizeof up_s);
        memcpy(up_t, ft[1], sizeof up_t);
        memcpy(forward_t, ft[2], sizeof forward_t);
    }
    memcpy(setup->up_source, up_s, sizeof up_s);
    memcpy(setup->up_target, up_t, sizeof up_t);
    memcpy(setup->forward_target, forward_t, sizeof forward_t);
    /* the hips: the joint with that role, else the character's first matched joint */
    setup->target_hips = find_role(map->target_roles, nt, ROLE_HIPS);
    if (setup->target_hips < 0 || map->source_of_target[setup->target_hips] < 0) {
        setup->target_hips = -1;
        for (int t = 0; t < nt && setup->target_hips < 0; t++)
            if (map->source_of_target[t] >= 0) setup->target_hips = t;
    }
    setup->source_hips = setup->target_hips >= 0 ? map->source_of_target[setup->target_hips] : -1;
    double pitch[2] = {NAN, NAN};   /* the source's feet: sine of the ankle -> toe line's drop at rest */
    double h_s = hip_height(source, map->source_roles, s_model, setup->source_hips, up_s, NULL, pitch);
    double h_t = hip_height(target, map->target_roles, t_model, setup->target_hips, up_t, pitch, NULL);
    /* k = character hip height / source hip height (1 when either is not measurable) */
    setup->hip_scale = h_s > 1e-9 && h_t > 1e-9 ? h_t / h_s : 1.0;
    if (h_s == h_t) setup->hip_scale = 1.0;
    bool same_frame = setup->align[3] == 1.0 && setup->hip_scale == 1.0;

    /* C_j: for a matched limb or spine joint, the turn of its rest bone (towards the matched joint
     * that continues it: continues_bone) onto the source's rest bone, A-mapped; other joints take
     * their parent's (their rest pose relative to it is kept) */
    double size = h_t > 1e-9 ? h_t : 1.0, size_s = h_s > 1e-9 ? h_s : 1.0;
    for (int t = 0; t < nt; t++) {
        int p = target->parent[t];
        if (p >= 0)
            dq_copy(setup->rest_alignment[p], setup->rest_alignment[t]);
        else
            dq_identity(setup->rest_alignment[t]);
        int s = map->source_of_target[t];
        if (s < 0) continue;
        const JointTransform *rt = &target->rest_trs[t], *rs = &source->rest_trs[s];
        setup->copy_translation[t] = same_frame && glm_vec3_distance((float *)rt->translation, (float *)rs->translation) <=
                                                       1e-6f * (1.0f + glm_vec3_norm((float *)rt->translation));
        if (t == setup->target_hips) {   /* the body's root: its turn is the whole body's, nothing to align */
            dq_identity(setup->rest_alignment[t]);
            continue;
        }
        double ut[3] = {0, 0, 0}, us[3] = {0, 0, 0};
        int count = 0;
        for (int c = t + 1; c < nt; c++) {
            int sc = map->source_of_target[c];
            if (sc < 0 || !is_descendant(target, c, t) || !is_descendant(source, sc, s)) continue;
            bool nearest = continues_bone(map->target_roles[t], map->target_roles[c]);   /* and no matched joint between */
            for (int a = target->parent[c]; a != t && nearest; a = target->parent[a]) nearest = map->source_of_target[a] < 0;
            if (!nearest) continue;
            for (int i = 0; i < 3; i++) {
                ut[i] += t_model[c][3][i] - t_model[t][3][i];
                us[i] += s_model[sc][3][i] - s_model[s][3][i];
            }
            count++;
        }
        double lt = sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]) / (count ? count : 1);
        double ls = sqrt(us[0] * us[0] + us[1] * us[1] + us[2] * us[2]) / (count ? count : 1);
        if (count == 0 || lt < 1e-3 * size || ls < 1e-3 * size_s) continue;   /* no bone to align: the parent's */
        double at[3], as[3];
        dq_rotate(setup->align, us, as);
        double nt3 = sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]), ns3 = sqrt(as[0] * as[0] + as[1] * as[1] + as[2] * as[2]);
        for (int i = 0; i < 3; i++) at[i] = ut[i] / nt3, as[i] /= ns3;
        dq_between(at, as, setup->rest_alignment[t]);
    }
    /* the legs whose foot contacts retarget_clip keeps (retarget_contact.c) */
    setup->foot_contacts = true;
    ok = retarget_legs_setup(setup, s_model, t_model);
    free(s_local), free(s_model), free(t_local), free(t_model);
    if (!ok) retarget_setup_free(setup);
    return ok;
}
