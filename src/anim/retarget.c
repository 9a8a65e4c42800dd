/* retarget.c — joint matching and retargeting of clips between skeletons (retarget.h,
 * docs/retargeting.md). Rotations are composed in double precision: a clip retargeted onto its
 * own skeleton comes back within float rounding (tests/test_retarget.c). */
#include "retarget.h"
#include "alloc.h"
#include "anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- double quaternions (x y z w, cglm's order) ------------------------------------------------- */

typedef double dquat[4];

static void dq_identity(dquat q) { q[0] = q[1] = q[2] = 0.0, q[3] = 1.0; }
static void dq_copy(const dquat a, dquat out) { memcpy(out, a, sizeof(dquat)); }
static void dq_from_versor(const versor v, dquat q) { for (int i = 0; i < 4; i++) q[i] = v[i]; }
static void dq_conjugate(const dquat q, dquat out) { out[0] = -q[0], out[1] = -q[1], out[2] = -q[2], out[3] = q[3]; }

/* out = a * b (Hamilton product: b first, then a); out may alias a or b */
static void dq_mul(const dquat a, const dquat b, dquat out)
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

static void dq_normalize(dquat q)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n > 0.0)
        for (int i = 0; i < 4; i++) q[i] /= n;
    else
        dq_identity(q);
}

/* v' = q v q^-1 */
static void dq_rotate(const dquat q, const double v[3], double out[3])
{
    double t[3] = {2.0 * (q[1] * v[2] - q[2] * v[1]), 2.0 * (q[2] * v[0] - q[0] * v[2]), 2.0 * (q[0] * v[1] - q[1] * v[0])};
    double r[3] = {v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]), v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
                   v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0])};
    memcpy(out, r, sizeof r);
}

/* The shortest rotation taking unit direction a onto unit direction b. */
static void dq_between(const double a[3], const double b[3], dquat q)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (d < -1.0 + 1e-12) {   /* opposite: half a turn about any axis perpendicular to a */
        double axis[3] = {0.0, -a[2], a[1]};
        if (fabs(a[0]) > 0.9) axis[0] = -a[2], axis[1] = 0.0, axis[2] = a[0];
        double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        q[0] = axis[0] / n, q[1] = axis[1] / n, q[2] = axis[2] / n, q[3] = 0.0;
        return;
    }
    q[0] = a[1] * b[2] - a[2] * b[1], q[1] = a[2] * b[0] - a[0] * b[2], q[2] = a[0] * b[1] - a[1] * b[0];
    q[3] = 1.0 + d;
    dq_normalize(q);
}

/* Quaternion of a rotation matrix given by its three columns (orthonormal). */
static void dq_from_columns(const double c0[3], const double c1[3], const double c2[3], dquat q)
{
    double m00 = c0[0], m11 = c1[1], m22 = c2[2], trace = m00 + m11 + m22;
    if (trace > 0.0) {
        double s = sqrt(trace + 1.0) * 2.0;
        q[3] = 0.25 * s, q[0] = (c1[2] - c2[1]) / s, q[1] = (c2[0] - c0[2]) / s, q[2] = (c0[1] - c1[0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        q[3] = (c1[2] - c2[1]) / s, q[0] = 0.25 * s, q[1] = (c1[0] + c0[1]) / s, q[2] = (c2[0] + c0[2]) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        q[3] = (c2[0] - c0[2]) / s, q[0] = (c1[0] + c0[1]) / s, q[1] = 0.25 * s, q[2] = (c2[1] + c1[2]) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        q[3] = (c0[1] - c1[0]) / s, q[0] = (c2[0] + c0[2]) / s, q[1] = (c2[1] + c1[2]) / s, q[2] = 0.25 * s;
    }
    dq_normalize(q);
}

/* ---- matching ------------------------------------------------------------------------------ */

const char *retarget_match_kind_name(RetargetMatchKind kind)
{
    switch (kind) {
    case MATCH_BONE_MAP: return "bone map";
    case MATCH_EXACT: return "exact";
    case MATCH_PREFIX: return "prefix";
    case MATCH_ROLE: return "role";
    default: return "-";
    }
}

void retarget_map_free(RetargetMap *map)
{
    free(map->source_of_target);
    free(map->kind);
    free(map->target_roles);
    free(map->source_roles);
    memset(map, 0, sizeof *map);
}

/* First joint named `name` exactly, or -1. */
static int find_joint(const Skeleton *skeleton, const char *name)
{
    for (int j = 0; j < skeleton->joint_count; j++)
        if (strcmp(skeleton->names[j], name) == 0) return j;
    return -1;
}

static bool is_chain(int role) { return role == ROLE_SPINE || role == ROLE_NECK; }

/* A name match is taken unless the rigs' conventions say the two joints are different things. */
static bool roles_allow(int target_role, int source_role)
{
    if (is_chain(target_role) || is_chain(source_role)) return false;   /* chains: by order only */
    return target_role == ROLE_NONE || source_role == ROLE_NONE || target_role == source_role;
}

static void pair(RetargetMap *map, bool *used, int target, int source, RetargetMatchKind kind)
{
    map->source_of_target[target] = source;
    map->kind[target] = (unsigned char)kind;
    used[source] = true;
    map->matched++;
}

/* Chain roles (spine, neck): the unmatched joints of the chain in each rig, in order from the hips
 * (parents come first), paired by their place along the chain: with counts nt <= ns, target i takes
 * source round(i (ns - 1) / (nt - 1)) (so the first and last meet); with nt > ns the other way round. */
static void match_chain(RetargetMap *map, bool *used, int role)
{
    int *t_list = malloc(sizeof(int) * (size_t)(map->target_joint_count + 1));
    int *s_list = malloc(sizeof(int) * (size_t)(map->source_joint_count + 1));
    if (!t_list || !s_list) {
        free(t_list), free(s_list);
        return;
    }
    int nt = 0, ns = 0;
    for (int j = 0; j < map->target_joint_count; j++)
        if (map->target_roles[j] == role && map->source_of_target[j] < 0) t_list[nt++] = j;
    for (int j = 0; j < map->source_joint_count; j++)
        if (map->source_roles[j] == role && !used[j]) s_list[ns++] = j;
    if (nt > 0 && ns > 0) {
        if (nt <= ns) {
            for (int i = 0; i < nt; i++) {
                int k = nt == 1 ? ns - 1 : (int)lround((double)i * (ns - 1) / (nt - 1));
                pair(map, used, t_list[i], s_list[k], MATCH_ROLE);
            }
        } else {
            for (int k = 0; k < ns; k++) {
                int i = ns == 1 ? nt - 1 : (int)lround((double)k * (nt - 1) / (ns - 1));
                pair(map, used, t_list[i], s_list[k], MATCH_ROLE);
            }
        }
    }
    free(t_list), free(s_list);
}

bool retarget_match(const Skeleton *source, const Skeleton *target, const BoneMapPair *pairs, int pair_count,
                    RetargetMap *map, char *error, size_t error_size)
{
    memset(map, 0, sizeof *map);
    bool ok = true;
    int nt = target->joint_count, ns = source->joint_count;
    map->target_joint_count = nt;
    map->source_joint_count = ns;
    map->source_of_target = anim_zeroed((size_t)nt, sizeof(int), &ok);
    map->kind = anim_zeroed((size_t)nt, 1, &ok);
    map->target_roles = anim_zeroed((size_t)nt, sizeof(int), &ok);
    map->source_roles = anim_zeroed((size_t)ns, sizeof(int), &ok);
    bool *used = anim_zeroed((size_t)ns, sizeof(bool), &ok);
    if (!ok) {
        free(used);
        retarget_map_free(map);
        snprintf(error, error_size, "out of memory");
        return false;
    }
    for (int j = 0; j < nt; j++) map->source_of_target[j] = -1;
    map->target_convention = joint_role_assign(target, map->target_roles);
    map->source_convention = joint_role_assign(source, map->source_roles);

    /* 1. the bone map: the user's word, before anything else */
    for (int p = 0; p < pair_count; p++) {
        int s = find_joint(source, pairs[p].source), t = find_joint(target, pairs[p].target);
        if (s < 0 || t < 0) {
            snprintf(error, error_size, "bone map line %d: no joint named '%.100s' in the %s", pairs[p].line,
                     s < 0 ? pairs[p].source : pairs[p].target, s < 0 ? "animation file" : "character");
            free(used);
            retarget_map_free(map);
            return false;
        }
        if (map->source_of_target[t] < 0 && !used[s]) pair(map, used, t, s, MATCH_BONE_MAP);
    }
    /* 2. exact names, 3. names without prefix (duplicates pair in order: the first free one) */
    char key_t[SV_NAME_MAX], key_s[SV_NAME_MAX];
    for (int step = 0; step < 2; step++) {
        for (int t = 0; t < nt; t++) {
            if (map->source_of_target[t] >= 0) continue;
            if (step == 1) joint_name_key(target->names[t], key_t, sizeof key_t);
            for (int s = 0; s < ns; s++) {
                if (used[s] || !roles_allow(map->target_roles[t], map->source_roles[s])) continue;
                bool same;
                if (step == 0) {
                    same = strcmp(target->names[t], source->names[s]) == 0;
                } else {
                    joint_name_key(source->names[s], key_s, sizeof key_s);
                    same = key_t[0] && strcmp(key_t, key_s) == 0;
                }
                if (same) {
                    pair(map, used, t, s, step == 0 ? MATCH_EXACT : MATCH_PREFIX);
                    break;
                }
            }
        }
    }
    /* 4. roles: one joint each, the chains by their order */
    for (int t = 0; t < nt; t++) {
        int role = map->target_roles[t];
        if (map->source_of_target[t] >= 0 || role == ROLE_NONE || is_chain(role)) continue;
        for (int s = 0; s < ns; s++)
            if (!used[s] && map->source_roles[s] == role) {
                pair(map, used, t, s, MATCH_ROLE);
                break;
            }
    }
    match_chain(map, used, ROLE_SPINE);
    match_chain(map, used, ROLE_NECK);
    /* a source joint without a role takes the role of the joint it drives (a bone map on an unknown
     * rig): both rigs then measure their hips and body frame from the same joints */
    for (int t = 0; t < nt; t++)
        if (map->source_of_target[t] >= 0 && map->source_roles[map->source_of_target[t]] == ROLE_NONE)
            map->source_roles[map->source_of_target[t]] = map->target_roles[t];
    free(used);
    return true;
}

bool retarget_check(const RetargetMap *map, const Skeleton *target, char *error, size_t error_size)
{
    if (map->matched == 0) {
        snprintf(error, error_size, "no joint matches the character's (names, humanoid roles; --bone-map FILE pairs them)");
        return false;
    }
    int body = 0, body_matched = 0, bones = 0, bones_matched = 0, hips = -1;
    for (int t = 0; t < target->joint_count; t++) {
        if (map->target_roles[t] == ROLE_HIPS) hips = t;
        if (!target->is_bone[t]) continue;
        bool matched = map->source_of_target[t] >= 0;
        bones++, bones_matched += matched;
        if (joint_role_is_body(map->target_roles[t])) body++, body_matched += matched;
    }
    char missing[400] = "";
    size_t used = 0;
    for (int t = 0; t < target->joint_count && used + 40 < sizeof missing; t++) {
        int role = map->target_roles[t];
        bool counted = joint_role_is_body(role) && (target->is_bone[t] || role == ROLE_HIPS);
        if (!counted || map->source_of_target[t] >= 0) continue;
        used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", joint_role_name(role));
    }
    if (hips >= 0 && map->source_of_target[hips] < 0) {
        snprintf(error, error_size, "no joint matches the character's hips (missing: %s)", missing);
        return false;
    }
    if (body > 0 && 2 * body_matched < body) {
        snprintf(error, error_size, "only %d of the character's %d body joints matched (missing: %s)", body_matched, body,
                 missing);
        return false;
    }
    if (body == 0 && 2 * bones_matched < bones) {
        snprintf(error, error_size, "only %d of the character's %d skinned joints matched by name (--bone-map FILE pairs others)",
                 bones_matched, bones);
        return false;
    }
    return true;
}

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
    double fs[3][3], ft[3][3], up_s[3] = {0, 1, 0}, up_t[3] = {0, 1, 0};
    dq_identity(setup->align);
    if (body_frame(source, map->source_roles, s_model, fs) && body_frame(target, map->target_roles, t_model, ft)) {
        /* A = Bt Bs^T, columns of signed unit axes: exact integers, so equal frames give exactly I */
        double a[3][3];   /* a[column][row] */
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) a[c][r] = ft[0][r] * fs[0][c] + ft[1][r] * fs[1][c] + ft[2][r] * fs[2][c];
        dq_from_columns(a[0], a[1], a[2], setup->align);
        memcpy(up_s, fs[1], sizeof up_s);
        memcpy(up_t, ft[1], sizeof up_t);
    }
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
    free(s_local), free(s_model), free(t_local), free(t_model);
    return true;
}

/* ---- retargeting a clip ---------------------------------------------------------------------- */

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* CUBICSPLINE channels curve between their keys: the bake takes this many samples per key interval
 * (linear between them), so the curve is followed, not cut into chords at the keys. */
#define RETARGET_CUBIC_SAMPLES 4

/* Every distinct key time of the clip's joint tracks, sorted (file time); at least the start. A clip
 * with a CUBICSPLINE channel gets RETARGET_CUBIC_SAMPLES - 1 more times inside every interval. */
static float *clip_key_times(const Clip *clip, int *count)
{
    size_t total = 0;
    for (int i = 0; i < clip->track_count; i++)
        total += (size_t)clip->tracks[i].translation_count + (size_t)clip->tracks[i].rotation_count +
                 (size_t)clip->tracks[i].scale_count;
    float *times = malloc(sizeof(float) * (total + 2));
    if (!times) return NULL;
    size_t n = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        for (int k = 0; k < track->translation_count; k++) times[n++] = track->translation_times[k];
        for (int k = 0; k < track->rotation_count; k++) times[n++] = track->rotation_times[k];
        for (int k = 0; k < track->scale_count; k++) times[n++] = track->scale_times[k];
    }
    times[n++] = clip->start;
    times[n++] = clip->start + clip->duration;
    qsort(times, n, sizeof(float), compare_float);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (times[i] < clip->start || times[i] > clip->start + clip->duration) continue;
        if (kept > 0 && times[i] - times[kept - 1] <= 1e-6f * (1.0f + fabsf(times[i]))) continue;
        times[kept++] = times[i];
    }
    bool cubic = false;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        cubic = cubic || (track->translation_count > 1 && track->translation_interpolation == INTERPOLATION_CUBICSPLINE) ||
                (track->rotation_count > 1 && track->rotation_interpolation == INTERPOLATION_CUBICSPLINE) ||
                (track->scale_count > 1 && track->scale_interpolation == INTERPOLATION_CUBICSPLINE);
    }
    if (cubic && kept > 1) {
        float *dense = malloc(sizeof(float) * ((kept - 1) * RETARGET_CUBIC_SAMPLES + 1));
        if (!dense) {
            free(times);
            return NULL;
        }
        size_t n_dense = 0;
        for (size_t i = 0; i + 1 < kept; i++)
            for (int k = 0; k < RETARGET_CUBIC_SAMPLES; k++)
                dense[n_dense++] = times[i] + (times[i + 1] - times[i]) * (float)k / RETARGET_CUBIC_SAMPLES;
        dense[n_dense++] = times[kept - 1];
        free(times);
        times = dense;
        kept = n_dense;
    }
    *count = (int)kept;
    return times;
}

/* Deep copy of one channel (times, values, tangents). */
static bool copy_channel(int count, const float *times, const float *values, const float *tangents, int width,
                         float **out_times, float **out_values, float **out_tangents)
{
    if (count <= 0) return true;
    *out_times = malloc(sizeof(float) * (size_t)count);
    *out_values = malloc(sizeof(float) * (size_t)count * (size_t)width);
    if (tangents) *out_tangents = malloc(sizeof(float) * 2 * (size_t)count * (size_t)width);
    if (!*out_times || !*out_values || (tangents && !*out_tangents)) return false;
    memcpy(*out_times, times, sizeof(float) * (size_t)count);
    memcpy(*out_values, values, sizeof(float) * (size_t)count * (size_t)width);
    if (tangents) memcpy(*out_tangents, tangents, sizeof(float) * 2 * (size_t)count * (size_t)width);
    return true;
}

static bool copy_track(const JointTrack *in, int joint, JointTrack *out)
{
    memset(out, 0, sizeof *out);
    out->joint = joint;
    out->translation_count = in->translation_count, out->translation_interpolation = in->translation_interpolation;
    out->rotation_count = in->rotation_count, out->rotation_interpolation = in->rotation_interpolation;
    out->scale_count = in->scale_count, out->scale_interpolation = in->scale_interpolation;
    return copy_channel(in->translation_count, in->translation_times, (const float *)in->translation_values,
                        (const float *)in->translation_tangents, 3, &out->translation_times,
                        (float **)&out->translation_values, (float **)&out->translation_tangents) &&
           copy_channel(in->rotation_count, in->rotation_times, (const float *)in->rotation_values,
                        (const float *)in->rotation_tangents, 4, &out->rotation_times, (float **)&out->rotation_values,
                        (float **)&out->rotation_tangents) &&
           copy_channel(in->scale_count, in->scale_times, (const float *)in->scale_values,
                        (const float *)in->scale_tangents, 3, &out->scale_times, (float **)&out->scale_values,
                        (float **)&out->scale_tangents);
}

/* World rotations of a local pose, in double: world = parent world * local. */
static void world_rotations(const Skeleton *skeleton, const JointTransform *local, double (*world)[4])
{
    for (int j = 0; j < skeleton->joint_count; j++) {
        dquat q;
        dq_from_versor(local[j].rotation, q);
        dq_normalize(q);
        int p = skeleton->parent[j];
        if (p >= 0)
            dq_mul(world[p], q, world[j]);
        else
            dq_copy(q, world[j]);
    }
}

bool retarget_clip(const RetargetSetup *setup, const Clip *clip, RetargetMode mode, Clip *out, int *dropped_tracks)
{
    const Skeleton *source = setup->source, *target = setup->target;
    const RetargetMap *map = setup->map;
    int ns = source->joint_count, nt = target->joint_count;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", clip->name);
    out->start = clip->start;
    out->file_time_shift = clip->file_time_shift;
    out->duration = clip->duration;
    out->source_ticks_per_second = clip->source_ticks_per_second;
    out->source_interpolations = clip->source_interpolations;
    out->source_extrapolations = clip->source_extrapolations;

    /* which target joint each source joint drives */
    int *target_of_source = malloc(sizeof(int) * (size_t)(ns > 0 ? ns : 1));
    if (!target_of_source) return false;
    for (int s = 0; s < ns; s++) target_of_source[s] = -1;
    for (int t = 0; t < nt; t++)
        if (map->source_of_target[t] >= 0) target_of_source[map->source_of_target[t]] = t;
    int dropped = 0;
    for (int i = 0; i < clip->track_count; i++) dropped += target_of_source[clip->tracks[i].joint] < 0;
    if (dropped_tracks) *dropped_tracks = dropped;

    if (mode == RETARGET_OFF) {   /* the source's local keys, re-indexed */
        out->tracks = calloc((size_t)(clip->track_count > 0 ? clip->track_count : 1), sizeof(JointTrack));
        bool ok = out->tracks != NULL;
        for (int i = 0; ok && i < clip->track_count; i++) {
            int t = target_of_source[clip->tracks[i].joint];
            if (t < 0) continue;
            ok = copy_track(&clip->tracks[i], t, &out->tracks[out->track_count]);
            out->track_count++;
        }
        free(target_of_source);
        if (!ok) clip_free(out);
        return ok;
    }

    /* RETARGET_ON: one key per distinct source key time, for every matched joint */
    int key_count = 0;
    float *times = clip_key_times(clip, &key_count);
    int tracked = 0;
    for (int t = 0; t < nt; t++) tracked += map->source_of_target[t] >= 0;
    bool ok = times != NULL;
    JointTransform *s_local = anim_zeroed((size_t)ns, sizeof(JointTransform), &ok);
    TrackCursor *cursors = anim_zeroed((size_t)clip->track_count, sizeof(TrackCursor), &ok);
    double (*s_world)[4] = anim_zeroed((size_t)ns, sizeof(dquat), &ok);
    double (*t_world)[4] = anim_zeroed((size_t)nt, sizeof(dquat), &ok);
    mat4 *s_mat = anim_zeroed((size_t)ns, sizeof(mat4), &ok), *s_model = anim_zeroed((size_t)ns, sizeof(mat4), &ok);
    mat4 *t_model = anim_zeroed((size_t)nt, sizeof(mat4), &ok);
    int *track_of_target = anim_zeroed((size_t)nt, sizeof(int), &ok);
    out->tracks = anim_zeroed((size_t)tracked, sizeof(JointTrack), &ok);
    for (int t = 0; ok && t < nt; t++) {
        track_of_target[t] = -1;
        if (map->source_of_target[t] < 0) continue;
        JointTrack *track = &out->tracks[out->track_count];
        track_of_target[t] = out->track_count++;
        track->joint = t;
        track->rotation_count = key_count;
        track->rotation_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
        track->rotation_values = anim_zeroed((size_t)key_count, sizeof(versor), &ok);
        if (t == setup->target_hips || setup->copy_translation[t]) {
            track->translation_count = key_count;
            track->translation_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
            track->translation_values = anim_zeroed((size_t)key_count, sizeof(vec3), &ok);
        }
        if (setup->copy_translation[t]) {
            track->scale_count = key_count;
            track->scale_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
            track->scale_values = anim_zeroed((size_t)key_count, sizeof(vec3), &ok);
        }
    }
    dquat align_inverse;
    dq_conjugate(setup->align, align_inverse);
    for (int k = 0; ok && k < key_count; k++) {
        /* the source pose at this key: local TRS, world rotations (double), model matrices */
        for (int s = 0; s < ns; s++) s_local[s] = source->rest_trs[s];
        clip_sample_trs(clip, source, times[k] - clip->start, cursors, s_local);
        world_rotations(source, s_local, s_world);
        for (int s = 0; s < ns; s++) {
            bool tracked_joint = target_of_source[s] >= 0 || s == setup->source_hips;
            if (tracked_joint) joint_transform_to_matrix(&s_local[s], s_mat[s]);
            else glm_mat4_copy(source->rest_local[s], s_mat[s]);
        }
        pose_local_to_model(source, s_mat, s_model);

        for (int t = 0; t < nt; t++) {
            int p = target->parent[t], s = map->source_of_target[t];
            JointTransform local = target->rest_trs[t];
            if (s < 0) {   /* unmatched: the character's rest, carried by its parent */
                dquat q;
                dq_from_versor(local.rotation, q);
                dq_normalize(q);
                if (p >= 0) dq_mul(t_world[p], q, t_world[t]);
                else dq_copy(q, t_world[t]);
                if (p >= 0) glm_mat4_mul(t_model[p], target->rest_local[t], t_model[t]);
                else glm_mat4_copy(target->rest_local[t], t_model[t]);
                continue;
            }
            /* D = Ws(t) Ws_rest^-1; Wt(t) = A D A^-1 C_j Wt_rest */
            dquat delta, rest_inverse, turned;
            dq_conjugate(setup->source_rest_world[s], rest_inverse);
            dq_mul(s_world[s], rest_inverse, delta);
            dq_mul(setup->align, delta, turned);
            dq_mul(turned, align_inverse, turned);
            dq_mul(turned, setup->rest_alignment[t], turned);
            dq_mul(turned, setup->target_rest_world[t], t_world[t]);
            /* local = Wt(parent)^-1 Wt */
            dquat q;
            if (p >= 0) {
                dquat parent_inverse;
                dq_conjugate(t_world[p], parent_inverse);
                dq_mul(parent_inverse, t_world[t], q);
            } else {
                dq_copy(t_world[t], q);
            }
            dq_normalize(q);
            JointTrack *track = &out->tracks[track_of_target[t]];
            versor *keys = track->rotation_values;
            for (int i = 0; i < 4; i++) keys[k][i] = (float)q[i];
            if (k > 0 && glm_vec4_dot(keys[k], keys[k - 1]) < 0.0f) glm_vec4_negate(keys[k]);   /* the short way */
            track->rotation_times[k] = times[k];
            glm_quat_copy(keys[k], local.rotation);
            if (setup->copy_translation[t]) {   /* same rig: the source's own translation and scale */
                glm_vec3_copy(s_local[s].translation, local.translation);
                glm_vec3_copy(s_local[s].scale, local.scale);
                glm_vec3_copy(local.scale, track->scale_values[k]);
                track->scale_times[k] = times[k];
            }
            if (t == setup->target_hips) {
                /* p_t = k A p_s (scene space), then into the parent's frame */
                double ps[3] = {s_model[s][3][0], s_model[s][3][1], s_model[s][3][2]}, pt[3];
                dq_rotate(setup->align, ps, pt);
                vec4 world = {(float)(setup->hip_scale * pt[0]), (float)(setup->hip_scale * pt[1]),
                              (float)(setup->hip_scale * pt[2]), 1.0f};
                vec4 in_parent;
                if (p >= 0) {
                    mat4 parent_inverse;
                    glm_mat4_inv(t_model[p], parent_inverse);
                    glm_mat4_mulv(parent_inverse, world, in_parent);
                } else {
                    glm_vec4_copy(world, in_parent);
                }
                if (!setup->copy_translation[t]) glm_vec3_copy(in_parent, local.translation);
            }
            if (track->translation_count > 0) {
                glm_vec3_copy(local.translation, track->translation_values[k]);
                track->translation_times[k] = times[k];
            }
            mat4 local_matrix;
            joint_transform_to_matrix(&local, local_matrix);
            if (p >= 0) glm_mat4_mul(t_model[p], local_matrix, t_model[t]);
            else glm_mat4_copy(local_matrix, t_model[t]);
        }
    }
    free(times), free(s_local), free(cursors), free(s_world), free(t_world), free(s_mat), free(s_model), free(t_model);
    free(track_of_target), free(target_of_source);
    if (!ok) clip_free(out);
    return ok;
}
