/* retarget_match.c — which joint of another skeleton drives which joint of the character, and
 * whether enough of them do (retarget.h: retarget_match, retarget_check; docs/retargeting.md
 * section 1). */
#include "retarget.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
