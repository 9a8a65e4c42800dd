/* retarget_roles.h — what each joint is in a humanoid, whatever the rig calls it: the roles and the
 * naming conventions of the common rigs (retarget_roles.c), which retarget_match() (retarget.h)
 * falls back on after bone map pairs and names. */
#ifndef SKINVIEW_RETARGET_ROLES_H
#define SKINVIEW_RETARGET_ROLES_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- roles: what a joint is in a humanoid, whatever the rig calls it --------------------------- */

/* Unsided roles, then RETARGET_SIDED_ROLES per side (left first). The spine and neck are chains:
 * several joints may have the role, ordered from the hips up. */
enum {
    ROLE_NONE = 0,
    ROLE_HIPS,
    ROLE_SPINE,
    ROLE_NECK,
    ROLE_HEAD,
    ROLE_FIRST_SIDED,
};
enum {   /* add to ROLE_FIRST_SIDED + side * RETARGET_SIDED_ROLES (side 0 left, 1 right) */
    SIDED_SHOULDER = 0,   /* clavicle */
    SIDED_UPPER_ARM,
    SIDED_FOREARM,
    SIDED_HAND,
    SIDED_THUMB1, SIDED_THUMB2, SIDED_THUMB3,
    SIDED_INDEX1, SIDED_INDEX2, SIDED_INDEX3,
    SIDED_MIDDLE1, SIDED_MIDDLE2, SIDED_MIDDLE3,
    SIDED_RING1, SIDED_RING2, SIDED_RING3,
    SIDED_PINKY1, SIDED_PINKY2, SIDED_PINKY3,
    SIDED_UPPER_LEG,
    SIDED_LOWER_LEG,
    SIDED_FOOT,
    SIDED_TOES,
    RETARGET_SIDED_ROLES
};
#define ROLE_COUNT (ROLE_FIRST_SIDED + 2 * RETARGET_SIDED_ROLES)
#define ROLE_SIDED(side, sided) (ROLE_FIRST_SIDED + (side) * RETARGET_SIDED_ROLES + (sided))

/* "hips", "spine", "left upper arm", "right index 2", ... */
const char *joint_role_name(int role);

/* True for the roles that refusal counts: every role but the fingers (mocap rigs rarely have them). */
bool joint_role_is_body(int role);

/* Names of the conventions the role table knows, by index ("Mixamo / HumanIK", ...). */
const char *joint_convention_name(int convention);

/* A joint name without its namespace or pack prefix: what follows the last ':' or '|', then
 * without a leading "mixamorig" (+ digits), "Character1_", "Bip01 " / "Bip001 ", "DEF-", "ORG-",
 * "J_Bip_" (the Mixamo, HumanIK, Biped, Rigify and VRoid packs). Points into `name`. */
const char *joint_name_without_prefix(const char *name);

/* The prefix-free name folded for comparison: lower case, without ' ', '_', '-' and '.'. */
void joint_name_key(const char *name, char *key, size_t key_size);

/* Gives every joint of `skeleton` a role (ROLE_NONE when it has none): the convention whose table
 * names most of the joints is taken first, joints it does not name are looked up in the others
 * (a role already taken stays with its first joint; chain roles may repeat). Returns the index of
 * the convention taken (-1: no joint named by any). */
int joint_role_assign(const Skeleton *skeleton, int *roles);

#endif
