/* retarget_contact.c — foot contacts kept across rigs of other proportions (retarget_contact.h;
 * docs/retargeting.md section 5).
 *
 * Rotation retargeting (retarget.c) carries angles: where the two rigs' legs, feet or toes differ
 * in proportion, a foot the take plants on the floor lands above or under the character's (CMU's
 * 01_03 at 27.4 s: the take's right leg almost straight, on its toes; Xbot's foot, turned the same,
 * stays 3.8 % of its leg above the floor). So, once per clip, after the keys are baked:
 *
 *   1. foot_contacts_find: sample the source clip at the bake's key times; a foot is planted
 *      where its lowest point (the foot joint and every joint under it: toes, toe ends) is near
 *      the clip's ground (the lowest such point over the clip) and nearly still, with hysteresis
 *      (it must come lower and slower to plant than to stay planted), so the contact does not
 *      flicker; the correction's weight is 1 there and fades out over RETARGET_CONTACT_BLEND s.
 *   2. foot_contacts_apply: at each planted key, the lift that puts the character's lowest foot
 *      point k times the source's above the ground (k: the hip height ratio that already scales
 *      the hips); bend_leg moves the ankle along up by it with analytic two-bone IK (hip - knee -
 *      ankle): the knee hinges in its current plane to make the hip -> ankle distance, the whole
 *      leg swings about the hip onto the goal, the foot keeps its world rotation (its toes move
 *      with the ankle), and what a straight leg cannot reach the foot makes up by pointing its
 *      toes. Keys around a contact take that contact's lift, `weight` of the way. Three things
 *      keep the knee from popping where the leg is near its full stretch (the reach flat in the
 *      knee angle there): the lift filtered in time along the contact, a soft reach (the last
 *      RETARGET_CONTACT_SOFT of the stretch eased in exponentially, the toes making up the rest),
 *      and toe pointing that starts from zero (the first foot joint to come down stops on the goal).
 *
 * Everything here runs at import, while the clip is baked; the keys it writes are ordinary
 * rotation keys, so the per-frame path is unchanged. */
#include "retarget_contact.h"
#include "retarget_dquat.h"
#include "retarget_roles.h"
#include "alloc.h"
#include "anim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Contact thresholds, in source leg lengths (hip -> knee -> ankle at rest) above the clip's ground
 * and per second. A planted foot's lowest point stays within ~1 % of the leg of the floor and moves
 * well under 0.1 leg/s (mocap noise, the roll over the toes); a swinging foot moves 2-5 legs/s. */
#define CONTACT_ENTER_HEIGHT 0.03   /* plants when as low as this ... */
#define CONTACT_ENTER_SPEED  1.0    /* ... and as slow */
#define CONTACT_EXIT_HEIGHT  0.05   /* lifts when higher ... */
#define CONTACT_EXIT_SPEED   2.0    /* ... or faster */
#define RETARGET_CONTACT_SPEED_WINDOW 0.1   /* seconds: the speed is the mean over this span */
#define RETARGET_CONTACT_BLEND 0.2  /* seconds over which the correction fades in before and out after */
#define RETARGET_CONTACT_SOFT 0.04  /* of the leg: the soft zone below the full stretch (bend_leg) */
#define RETARGET_CONTACT_SMOOTH 0.05   /* seconds: the half-width of the lift's filter (foot_contacts_apply) */

static int find_role(const int *roles, int count, int role)
{
    for (int j = 0; j < count; j++)
        if (roles[j] == role) return j;
    return -1;
}

static bool is_descendant(const Skeleton *skeleton, int joint, int ancestor)
{
    for (int a = skeleton->parent[joint]; a >= 0; a = skeleton->parent[a])
        if (a == ancestor) return true;
    return false;
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

static void position_of(const mat4 m, double out[3]) { out[0] = m[3][0], out[1] = m[3][1], out[2] = m[3][2]; }

static double rest_distance(const mat4 *model, int a, int b) { return glm_vec3_distance((float *)model[a][3], (float *)model[b][3]); }

/* The foot `foot` and every joint under it, into a new array (skeletons list parents first). */
static int *foot_joints(const Skeleton *skeleton, int foot, int *count, bool *ok)
{
    int n = 0;
    for (int j = foot; j < skeleton->joint_count; j++) n += j == foot || is_descendant(skeleton, j, foot);
    int *joints = anim_zeroed((size_t)n, sizeof(int), ok);
    *count = 0;
    for (int j = foot; joints && j < skeleton->joint_count; j++)
        if (j == foot || is_descendant(skeleton, j, foot)) joints[(*count)++] = j;
    return joints;
}

bool retarget_legs_setup(RetargetSetup *setup, const mat4 *source_rest_model, const mat4 *target_rest_model)
{
    const Skeleton *source = setup->source, *target = setup->target;
    const RetargetMap *map = setup->map;
    bool ok = true;
    double source_leg = 0.0, target_leg = 0.0;
    int legs = 0;
    for (int side = 0; side < 2; side++) {
        RetargetLeg *leg = &setup->legs[side];
        memset(leg, 0, sizeof *leg);
        int nt = target->joint_count;
        int tu = find_role(map->target_roles, nt, ROLE_SIDED(side, SIDED_UPPER_LEG));
        int tl = find_role(map->target_roles, nt, ROLE_SIDED(side, SIDED_LOWER_LEG));
        int tf = find_role(map->target_roles, nt, ROLE_SIDED(side, SIDED_FOOT));
        if (tu < 0 || tl < 0 || tf < 0) continue;
        int su = map->source_of_target[tu], sl = map->source_of_target[tl], sf = map->source_of_target[tf];
        if (su < 0 || sl < 0 || sf < 0) continue;
        if (!is_descendant(target, tl, tu) || !is_descendant(target, tf, tl) || !is_descendant(source, sl, su) ||
            !is_descendant(source, sf, sl))
            continue;
        double lt = rest_distance(target_rest_model, tu, tl) + rest_distance(target_rest_model, tl, tf);
        double ls = rest_distance(source_rest_model, su, sl) + rest_distance(source_rest_model, sl, sf);
        if (!(lt > 0.0) || !(ls > 0.0)) continue;
        leg->target_upper = tu, leg->target_lower = tl, leg->target_foot = tf, leg->source_foot = sf;
        leg->target_foot_joints = foot_joints(target, tf, &leg->target_foot_joint_count, &ok);
        leg->source_foot_joints = foot_joints(source, sf, &leg->source_foot_joint_count, &ok);
        leg->valid = ok;
        target_leg += lt, source_leg += ls;
        legs++;
    }
    setup->target_leg = legs ? target_leg / legs : 0.0;
    setup->source_leg = legs ? source_leg / legs : 0.0;
    return ok;
}

void retarget_legs_free(RetargetSetup *setup)
{
    for (int side = 0; side < 2; side++) {
        free(setup->legs[side].target_foot_joints);
        free(setup->legs[side].source_foot_joints);
        memset(&setup->legs[side], 0, sizeof setup->legs[side]);
    }
}

void foot_contacts_free(FootContacts *contacts)
{
    free(contacts->source_height);
    free(contacts->weight);
    free(contacts->anchor);
    memset(contacts, 0, sizeof *contacts);
}

/* 3t^2 - 2t^3: 0 -> 1 with zero slope at both ends, so the correction eases in and out. */
static float smoothstep01(double t)
{
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return (float)(t * t * (3.0 - 2.0 * t));
}

bool foot_contacts_find(const RetargetSetup *setup, const Clip *clip, const float *times, int key_count,
                        FootContacts *contacts)
{
    memset(contacts, 0, sizeof *contacts);
    const Skeleton *source = setup->source;
    int ns = source->joint_count;
    bool ok = true;
    contacts->key_count = key_count;
    contacts->source_height = anim_zeroed((size_t)key_count * 2, sizeof(double), &ok);
    contacts->weight = anim_zeroed((size_t)key_count * 2, sizeof(float), &ok);
    contacts->anchor = anim_zeroed((size_t)key_count * 2, sizeof(int), &ok);
    if (!ok) {
        foot_contacts_free(contacts);
        return false;
    }
    for (int i = 0; i < key_count * 2; i++) contacts->anchor[i] = -1;
    bool any = setup->foot_contacts && (setup->legs[0].valid || setup->legs[1].valid) && setup->source_leg > 0.0;
    if (!any || key_count == 0) return true;   /* nothing to keep: every weight 0 */

    /* the source pose at every key: the positions of each foot's joints */
    double *positions[2] = {NULL, NULL};   /* [key][foot joint][3] */
    int *lowest = anim_zeroed((size_t)key_count * 2, sizeof(int), &ok);   /* the foot joint lowest at the key */
    for (int side = 0; side < 2; side++)
        if (setup->legs[side].valid)
            positions[side] = anim_zeroed((size_t)key_count * (size_t)setup->legs[side].source_foot_joint_count * 3,
                                          sizeof(double), &ok);
    JointTransform *trs = anim_zeroed((size_t)ns, sizeof(JointTransform), &ok);
    TrackCursor *cursors = anim_zeroed((size_t)clip->track_count, sizeof(TrackCursor), &ok);
    mat4 *local = anim_zeroed((size_t)ns, sizeof(mat4), &ok), *model = anim_zeroed((size_t)ns, sizeof(mat4), &ok);
    bool *planted = anim_zeroed((size_t)key_count * 2, sizeof(bool), &ok);
    const double *up = setup->up_source;
    double ground = INFINITY;   /* the clip's ground: its lowest foot point */
    for (int k = 0; ok && k < key_count; k++) {
        for (int s = 0; s < ns; s++) trs[s] = source->rest_trs[s];
        clip_sample_trs(clip, source, times[k] - clip->start, cursors, trs);
        for (int s = 0; s < ns; s++) joint_transform_to_matrix(&trs[s], local[s]);
        pose_local_to_model(source, local, model);
        for (int side = 0; side < 2; side++) {
            const RetargetLeg *leg = &setup->legs[side];
            if (!leg->valid) continue;
            double low = INFINITY;
            for (int i = 0; i < leg->source_foot_joint_count; i++) {
                double *p = positions[side] + ((size_t)k * (size_t)leg->source_foot_joint_count + (size_t)i) * 3;
                position_of(model[leg->source_foot_joints[i]], p);
                if (dot3(up, p) < low) low = dot3(up, p), lowest[k * 2 + side] = i;
            }
            contacts->source_height[k * 2 + side] = low;
            if (low < ground) ground = low;
        }
    }

    /* planted: near the ground and nearly still (the speed of the joint that is lowest, a central
     * difference over RETARGET_CONTACT_SPEED_WINDOW), entering on the tighter thresholds, leaving on the
     * looser ones */
    double leg = setup->source_leg;
    for (int side = 0; ok && side < 2; side++) {
        const RetargetLeg *foot = &setup->legs[side];
        if (!foot->valid) continue;
        bool down = false;
        int before = 0, after = 0;
        for (int k = 0; k < key_count; k++) {
            /* the keys RETARGET_CONTACT_SPEED_WINDOW / 2 before and after (the clip's ends at most): the
             * same time span at 30 and at 120 keys a second, and mocap jitter averaged out */
            while (before < k && (double)times[before + 1] <= (double)times[k] - 0.5 * RETARGET_CONTACT_SPEED_WINDOW) before++;
            if (after < k) after = k;
            while (after + 1 < key_count && (double)times[after] < (double)times[k] + 0.5 * RETARGET_CONTACT_SPEED_WINDOW) after++;
            int i = lowest[k * 2 + side];
            double speed = 0.0, dt = (double)times[after] - (double)times[before];
            if (after > before && dt > 0.0) {
                const double *p0 = positions[side] + ((size_t)before * (size_t)foot->source_foot_joint_count + (size_t)i) * 3;
                const double *p1 = positions[side] + ((size_t)after * (size_t)foot->source_foot_joint_count + (size_t)i) * 3;
                double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
                speed = norm3(d) / dt / leg;   /* legs per second */
            }
            double height = (contacts->source_height[k * 2 + side] - ground) / leg;   /* legs above the ground */
            down = down ? height <= CONTACT_EXIT_HEIGHT && speed <= CONTACT_EXIT_SPEED
                        : height <= CONTACT_ENTER_HEIGHT && speed <= CONTACT_ENTER_SPEED;
            planted[k * 2 + side] = down;
            contacts->contact_keys += down;
        }
        /* weight: 1 on a planted key, smoothstep(1 - d / blend) at time d from the nearest one, which
         * is the key's anchor (the contact whose correction it fades) */
        int last = -1;
        for (int k = 0; k < key_count; k++) {
            if (planted[k * 2 + side]) last = k;
            double d = last >= 0 ? (double)times[k] - (double)times[last] : INFINITY;
            contacts->weight[k * 2 + side] = smoothstep01(1.0 - d / RETARGET_CONTACT_BLEND);
            contacts->anchor[k * 2 + side] = contacts->weight[k * 2 + side] > 0.0f ? last : -1;
        }
        int next = -1;
        for (int k = key_count - 1; k >= 0; k--) {
            if (planted[k * 2 + side]) next = k;
            double d = next >= 0 ? (double)times[next] - (double)times[k] : INFINITY;
            float w = smoothstep01(1.0 - d / RETARGET_CONTACT_BLEND);
            if (w > contacts->weight[k * 2 + side]) contacts->weight[k * 2 + side] = w, contacts->anchor[k * 2 + side] = next;
        }
    }
    free(positions[0]), free(positions[1]), free(lowest), free(trs), free(cursors), free(local), free(model), free(planted);
    if (!ok) foot_contacts_free(contacts);
    return ok;
}

/* Unit vector of v (zero stays zero). */
static void normalize3(double v[3])
{
    double n = norm3(v);
    if (n > 0.0) v[0] /= n, v[1] /= n, v[2] /= n;
}

/* v minus its part along unit u. */
static void perpendicular(const double v[3], const double u[3], double out[3])
{
    double d = dot3(v, u);
    for (int i = 0; i < 3; i++) out[i] = v[i] - d * u[i];
}

/* q^w: the same axis, w times the angle (the shorter way round). */
static void dq_scale_angle(dquat q, double w)
{
    if (q[3] < 0.0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
    double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    if (s <= 0.0) return;
    double half = w * atan2(s, q[3]);
    for (int i = 0; i < 3; i++) q[i] *= sin(half) / s;
    q[3] = cos(half);
}

/* The character's lowest foot point of leg `leg` along up (t_model: the pose's model matrices). */
static double target_foot_low(const RetargetSetup *setup, const RetargetLeg *leg, const mat4 *t_model)
{
    double low = INFINITY;
    for (int i = 0; i < leg->target_foot_joint_count; i++) {
        double p[3];
        position_of(t_model[leg->target_foot_joints[i]], p);
        if (dot3(setup->up_target, p) < low) low = dot3(setup->up_target, p);
    }
    return low;
}

/* Bends leg `leg` of the character, posed as t_world (world rotations) / t_model (model matrices),
 * so that its lowest foot point rises by `lift` along up, then takes each turn `weight` of the way:
 * the upper leg's, lower leg's and foot's new local rotations into out_local[0..2]. False when the
 * leg has no length (nothing written). */
static bool bend_leg(const RetargetSetup *setup, const RetargetLeg *leg, double lift, double weight,
                     const double (*t_world)[4], const mat4 *t_model, double out_local[3][4])
{
    const Skeleton *target = setup->target;
    const double *up = setup->up_target;
    double low = target_foot_low(setup, leg, t_model);
    int upper = leg->target_upper, lower = leg->target_lower, foot = leg->target_foot;
    double hip[3], knee[3], ankle[3], goal[3];
    position_of(t_model[upper], hip), position_of(t_model[lower], knee), position_of(t_model[foot], ankle);
    for (int i = 0; i < 3; i++) goal[i] = ankle[i] + lift * up[i];
    double thigh_v[3] = {knee[0] - hip[0], knee[1] - hip[1], knee[2] - hip[2]};
    double shin_v[3] = {ankle[0] - knee[0], ankle[1] - knee[1], ankle[2] - knee[2]};
    double reach_v[3] = {goal[0] - hip[0], goal[1] - hip[1], goal[2] - hip[2]};
    double l1 = norm3(thigh_v), l2 = norm3(shin_v), d = norm3(reach_v);
    if (l1 <= 0.0 || l2 <= 0.0 || d <= 0.0) return false;
    /* soft reach: a straight knee is where the reach is flat in the knee angle (d = l1 + l2 -
     * l1 l2 / (l1 + l2) (pi - theta)^2 / 2 near it), so a goal that crosses the full stretch would
     * snap the knee straight and off again. In the leg's room y = l1 + l2 - d (how far it still
     * extends), a goal room y_goal below a soft zone s is eased in as
     *   y = s exp((y_goal - s) / s)          (y_goal < s; y = y_goal above it)
     * which meets y_goal with the same slope at s and never reaches 0: the knee straightens
     * smoothly and never snaps, and what it leaves unreached the toes make up (step 3). The
     * zone is RETARGET_CONTACT_SOFT of the leg, or the pose's own room if that is less (a take's
     * straight leg stays as straight as it is where the goal is where the foot already is). */
    double full = l1 + l2, room = full - norm3((double[3]){ankle[0] - hip[0], ankle[1] - hip[1], ankle[2] - hip[2]});
    double soft = RETARGET_CONTACT_SOFT * full, room_goal = full - d;
    if (room < soft) soft = room > 0.0 ? room : 0.0;
    if (room_goal < soft) d = full - (soft > 0.0 ? soft * exp((room_goal - soft) / soft) : 0.0);
    /* as far as the leg reaches: |l1 - l2| <= d <= l1 + l2 */
    double d_min = fabs(l1 - l2) * (1.0 + 1e-9), d_max = (l1 + l2) * (1.0 - 1e-9);
    d = d < d_min ? d_min : d > d_max ? d_max : d;

    /* 1. the knee: the interior angle theta1 that makes the hip -> ankle distance d, from the law
     * of cosines d^2 = l1^2 + l2^2 - 2 l1 l2 cos(theta1); the shin turned to it about the knee,
     * in the plane of the thigh and the shin (u: knee -> hip, v: the shin's part across u) */
    double u[3] = {-thigh_v[0] / l1, -thigh_v[1] / l1, -thigh_v[2] / l1}, v[3];
    perpendicular(shin_v, u, v);
    if (norm3(v) <= 1e-4 * l2) {   /* straight leg: the knee bends towards the thigh's forward */
        dquat thigh_turn, rest_inverse;   /* the thigh's world rotation away from its rest */
        dq_conjugate(setup->target_rest_world[upper], rest_inverse);
        dq_mul(t_world[upper], rest_inverse, thigh_turn);
        double forward[3], across[3];
        dq_rotate(thigh_turn, setup->forward_target, forward);
        perpendicular(forward, u, across);
        if (norm3(across) <= 1e-3) perpendicular(up, u, across);   /* the thigh points forward */
        for (int i = 0; i < 3; i++) v[i] = -across[i];   /* knee forward: the ankle behind it */
    }
    normalize3(v);
    double cos1 = (l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2);
    cos1 = cos1 > 1.0 ? 1.0 : cos1 < -1.0 ? -1.0 : cos1;
    double sin1 = sqrt(1.0 - cos1 * cos1);
    double shin_dir[3] = {shin_v[0] / l2, shin_v[1] / l2, shin_v[2] / l2}, new_shin[3];
    for (int i = 0; i < 3; i++) new_shin[i] = cos1 * u[i] + sin1 * v[i];
    dquat knee_turn, hip_turn;
    dq_between(shin_dir, new_shin, knee_turn);

    /* 2. the whole leg swung about the hip, the shortest way, from the bent ankle onto the goal */
    double bent_v[3], goal_dir[3] = {reach_v[0], reach_v[1], reach_v[2]};
    for (int i = 0; i < 3; i++) bent_v[i] = knee[i] + l2 * new_shin[i] - hip[i];
    normalize3(bent_v), normalize3(goal_dir);
    dq_between(bent_v, goal_dir, hip_turn);

    /* 3. out of reach downwards (the leg straight, the ankle still above its goal): the foot
     * points its toes for the rest, turned about the ankle so that its farthest joint (the tip)
     * comes down to the goal height c above the ankle. With o the tip's offset from the ankle,
     * o_v its part along up and o_h across it, the tip's height after a turn phi towards down is
     * o_v cos(phi) - o_h sin(phi) = |o| cos(phi + beta), beta = atan2(o_h, o_v), so
     * phi = acos(c / |o|) - beta (taken only when positive: pointing further down). */
    dquat pitch;
    dq_identity(pitch);
    double reached[3], swung[3], leg_v[3];
    for (int i = 0; i < 3; i++) leg_v[i] = knee[i] + l2 * new_shin[i] - hip[i];
    dq_rotate(hip_turn, leg_v, swung);
    for (int i = 0; i < 3; i++) reached[i] = hip[i] + swung[i];
    double short_by = dot3(up, goal) - dot3(up, reached);   /* < 0: the ankle stays above its goal */
    if (short_by < -1e-6 * setup->target_leg) {
        double tip[3] = {0, 0, 0}, tip_length = 0.0;
        for (int i = 0; i < leg->target_foot_joint_count; i++) {
            double p[3];
            position_of(t_model[leg->target_foot_joints[i]], p);
            for (int c = 0; c < 3; c++) p[c] -= ankle[c];
            if (norm3(p) > tip_length) tip_length = norm3(p), memcpy(tip, p, sizeof tip);
        }
        double forward[3], axis[3];   /* the tip's direction across up; the turn's axis */
        perpendicular(tip, up, forward);
        double c = low + lift - dot3(up, reached);   /* the lowest point's goal, above the ankle reached */
        if (norm3(forward) > 1e-6 * tip_length && tip_length > 0.0) {
            normalize3(forward);
            /* each foot joint i, turned in the plane of up and the tip's forward: its height
             * o_v cos(phi) - o_h sin(phi) = r cos(phi + beta) meets c at phi_i = acos(c / r) - beta;
             * the turn is the least of them, so whichever joint comes down first stops on the goal
             * (the lowest point may be a toe base, not the tip: aiming the tip would jump) */
            double phi = INFINITY;
            for (int i = 0; i < leg->target_foot_joint_count; i++) {
                double o[3];
                position_of(t_model[leg->target_foot_joints[i]], o);
                for (int k = 0; k < 3; k++) o[k] -= ankle[k];
                double o_v = dot3(up, o), o_h = dot3(forward, o), r = sqrt(o_v * o_v + o_h * o_h);
                if (r <= 1e-9 * tip_length || c < -r || c > r) continue;
                double phi_i = acos(c / r) - atan2(o_h, o_v);
                if (phi_i < phi) phi = phi_i;
            }
            if (!isfinite(phi)) {   /* no joint reaches that low: the tip as far down as it goes */
                double o_v = dot3(up, tip), o_h = dot3(forward, tip);
                phi = GLM_PI - atan2(o_h, o_v);
            }
            /* axis up x o: a positive turn about it takes o down */
            axis[0] = up[1] * tip[2] - up[2] * tip[1], axis[1] = up[2] * tip[0] - up[0] * tip[2];
            axis[2] = up[0] * tip[1] - up[1] * tip[0];
            normalize3(axis);
            if (phi > 0.0) {
                double half = 0.5 * phi, sh = sin(half);
                pitch[0] = axis[0] * sh, pitch[1] = axis[1] * sh, pitch[2] = axis[2] * sh, pitch[3] = cos(half);
            }
        }
    }

    /* the blend: each turn taken `weight` of the way (its angle scaled), so that the knee and the
     * foot move in proportion to the weight as it fades in and out; blending the goal instead
     * would bend a near-straight knee most of its way in the first few percent (the reach
     * d = 2 l sin(theta / 2) is flat where the knee is straight) */
    dq_scale_angle(hip_turn, weight), dq_scale_angle(knee_turn, weight), dq_scale_angle(pitch, weight);

    /* new world rotations: upper' = H W_upper, lower' = H K W_lower, foot' = P W_foot (P the
     * pitch of step 3, else the identity: the foot keeps its world rotation), with H the hip
     * swing and K the knee turn (world frame); back to local rotations, local' = parent'^-1
     * world', where a parent between them turned with its ancestor:
     *   upper: W(parent)^-1 H W_upper
     *   lower: W(parent)^-1 K W_lower                  (parent under the upper leg: H cancels)
     *   foot:  W(parent)^-1 K^-1 H^-1 P W_foot         (parent under the lower leg) */
    const int joints[3] = {upper, lower, foot};
    for (int n = 0; n < 3; n++) {
        int j = joints[n], p = target->parent[j];
        dquat world, parent_inverse, turn_inverse;
        if (n == 0) {
            dq_mul(hip_turn, t_world[j], world);
        } else if (n == 1) {
            dq_mul(knee_turn, t_world[j], world);
        } else {
            dq_mul(pitch, t_world[j], world);
            dq_conjugate(hip_turn, turn_inverse);
            dq_mul(turn_inverse, world, world);
            dq_conjugate(knee_turn, turn_inverse);
            dq_mul(turn_inverse, world, world);
        }
        if (p >= 0) {
            dq_conjugate(t_world[p], parent_inverse);
            dq_mul(parent_inverse, world, out_local[n]);
        } else {
            dq_copy(world, out_local[n]);
        }
        dq_normalize(out_local[n]);
    }
    return true;
}

/* The character posed by clip `out` at file time `time`: local TRS, model matrices, world rotations. */
static void pose_target(const Skeleton *target, const Clip *out, float time, TrackCursor *cursors, JointTransform *trs,
                        mat4 *local, mat4 *model, double (*world)[4])
{
    for (int j = 0; j < target->joint_count; j++) trs[j] = target->rest_trs[j];
    clip_sample_trs(out, target, time - out->start, cursors, trs);
    for (int j = 0; j < target->joint_count; j++) {
        joint_transform_to_matrix(&trs[j], local[j]);
        dquat q;
        dq_from_versor(trs[j].rotation, q);
        dq_normalize(q);
        int p = target->parent[j];
        if (p >= 0) dq_mul(world[p], q, world[j]);
        else dq_copy(q, world[j]);
    }
    pose_local_to_model(target, local, model);
}

bool foot_contacts_apply(const RetargetSetup *setup, const FootContacts *contacts, const float *times, Clip *out)
{
    if (contacts->contact_keys == 0) return true;
    const Skeleton *target = setup->target;
    int nt = target->joint_count, n = contacts->key_count;
    /* the rotation tracks of each leg's three joints */
    JointTrack *tracks[2][3] = {{NULL, NULL, NULL}, {NULL, NULL, NULL}};
    for (int side = 0; side < 2; side++) {
        const RetargetLeg *leg = &setup->legs[side];
        const int joints[3] = {leg->target_upper, leg->target_lower, leg->target_foot};
        for (int i = 0; leg->valid && i < out->track_count; i++)
            for (int j = 0; j < 3; j++)
                if (out->tracks[i].joint == joints[j] && out->tracks[i].rotation_count == n) tracks[side][j] = &out->tracks[i];
    }
    bool ok = true;
    JointTransform *trs = anim_zeroed((size_t)nt, sizeof(JointTransform), &ok);
    TrackCursor *cursors = anim_zeroed((size_t)out->track_count, sizeof(TrackCursor), &ok);
    mat4 *local = anim_zeroed((size_t)nt, sizeof(mat4), &ok), *model = anim_zeroed((size_t)nt, sizeof(mat4), &ok);
    double (*world)[4] = anim_zeroed((size_t)nt, sizeof(dquat), &ok);
    double *lift = anim_zeroed((size_t)n * 2, sizeof(double), &ok);   /* [key * 2 + side] */
    double (*bent)[3][4] = anim_zeroed((size_t)n * 2, sizeof(double[3][4]), &ok);
    bool *changed = anim_zeroed((size_t)n * 2, sizeof(bool), &ok);
    /* 1. at every planted key, the lift that puts the character's lowest foot point at k times the
     * source's: lift = k h_s - h_t */
    for (int k = 0; ok && k < n; k++) {
        bool planted = false;
        for (int side = 0; side < 2; side++) planted = planted || contacts->anchor[k * 2 + side] == k;
        if (!planted) continue;
        pose_target(target, out, times[k], cursors, trs, local, model, world);
        for (int side = 0; side < 2; side++)
            if (contacts->anchor[k * 2 + side] == k && setup->legs[side].valid)
                lift[k * 2 + side] = setup->hip_scale * contacts->source_height[k * 2 + side] -
                                     target_foot_low(setup, &setup->legs[side], model);
    }
    /* 1b. the lift filtered in time along each contact: a tent of half-width
     * RETARGET_CONTACT_SMOOTH over the contact's own planted keys,
     *   lift'(t) = sum w_j lift(t_j) / sum w_j,   w_j = 1 - |t_j - t| / RETARGET_CONTACT_SMOOTH
     * The lift moves fastest where the foot rolls onto its toes to leave (h_s and h_t change at
     * different rates); followed key by key, a leg near its full stretch bends and straightens as
     * fast as it changes. Filtered, the correction cannot change faster than over that span, at
     * the price of a foot that lags its goal where the lift changes: contacts kept to 0.4 % of
     * the leg rather than 0.1 % on CMU 01_03 (docs/retargeting.md section 5) */
    double *smooth = ok ? anim_zeroed((size_t)n * 2, sizeof(double), &ok) : NULL;
    for (int side = 0; ok && side < 2; side++)
        for (int k = 0; k < n; k++) {
            if (contacts->anchor[k * 2 + side] != k) continue;
            double sum = 0.0, total = 0.0;
            for (int j = k; j >= 0 && contacts->anchor[j * 2 + side] == j &&
                            (double)times[k] - (double)times[j] < RETARGET_CONTACT_SMOOTH; j--) {
                double w = 1.0 - ((double)times[k] - (double)times[j]) / RETARGET_CONTACT_SMOOTH;
                sum += w * lift[j * 2 + side], total += w;
            }
            for (int j = k + 1; j < n && contacts->anchor[j * 2 + side] == j &&
                                (double)times[j] - (double)times[k] < RETARGET_CONTACT_SMOOTH; j++) {
                double w = 1.0 - ((double)times[j] - (double)times[k]) / RETARGET_CONTACT_SMOOTH;
                sum += w * lift[j * 2 + side], total += w;
            }
            smooth[k * 2 + side] = sum / total;   /* total >= 1: the key itself */
        }
    if (ok) memcpy(lift, smooth, sizeof(double) * (size_t)n * 2);
    free(smooth);
    /* 2. every key with a weight: its anchor's lift (a key fading in or out keeps the offset of the
     * contact it leads to or comes from, rather than chasing a foot in the air), `weight` of the way */
    for (int k = 0; ok && k < n; k++) {
        bool posed = false;
        for (int side = 0; side < 2; side++) {
            int anchor = contacts->anchor[k * 2 + side];
            double weight = contacts->weight[k * 2 + side], l = anchor >= 0 ? lift[anchor * 2 + side] : 0.0;
            if (anchor < 0 || weight <= 0.0 || !tracks[side][0] || !tracks[side][1] || !tracks[side][2]) continue;
            if (fabs(l) <= 1e-6 * setup->target_leg) continue;   /* already there (a rig on itself) */
            if (!posed) pose_target(target, out, times[k], cursors, trs, local, model, world), posed = true;
            changed[k * 2 + side] = bend_leg(setup, &setup->legs[side], l, weight, (const double (*)[4])world, model,
                                             bent[k * 2 + side]);
        }
    }
    /* 3. the new keys, written once every pose was read from the old ones; the short way from the
     * key before */
    for (int side = 0; ok && side < 2; side++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < 3; j++) {
                if (!tracks[side][j]) continue;
                versor *keys = tracks[side][j]->rotation_values;
                if (changed[k * 2 + side])
                    for (int i = 0; i < 4; i++) keys[k][i] = (float)bent[k * 2 + side][j][i];
                if (k > 0 && glm_vec4_dot(keys[k], keys[k - 1]) < 0.0f) glm_vec4_negate(keys[k]);
            }
    free(trs), free(cursors), free(local), free(model), free(world), free(lift), free(bent), free(changed);
    return ok;
}
