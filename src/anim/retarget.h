/* retarget.h — clips of one skeleton played on another: joint matching and retargeting.
 *
 * Plain C + cglm, no Assimp, no GL (tests/test_retarget.c runs it without a window). The
 * application (src/app/animations.c) imports the other files; this module only sees Skeletons
 * and Clips. docs/retargeting.md tells the story:
 *
 *   retarget_match()  source joints -> character joints: bone map pairs, exact names, names
 *                     without a namespace or pack prefix, then roles of the common humanoid
 *                     conventions (joint_role_assign)
 *   retarget_check()  refuses a source that shares too few joints (hips missing, fewer than
 *                     half of the character's body roles)
 *   retarget_clip()   one source clip -> one Clip of the character, baked at the source's key
 *                     times into ordinary JointTracks (the per-frame path is unchanged)
 */
#ifndef SKINVIEW_RETARGET_H
#define SKINVIEW_RETARGET_H

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

/* ---- matching ------------------------------------------------------------------------------ */

typedef enum RetargetMatchKind {
    MATCH_NONE = 0,
    MATCH_BONE_MAP,        /* a `source target` line of --bone-map */
    MATCH_EXACT,           /* the same name */
    MATCH_PREFIX,          /* the same name without namespace / pack prefix, case and separators */
    MATCH_ROLE,            /* the same humanoid role (chains: by their order from the hips) */
} RetargetMatchKind;

/* "bone map", "exact", "prefix", "role", "-". */
const char *retarget_match_kind_name(RetargetMatchKind kind);

/* One `source target` pair of a bone map file. */
typedef struct BoneMapPair {
    char source[SV_NAME_MAX];
    char target[SV_NAME_MAX];
    int  line;                    /* in the file, for messages */
} BoneMapPair;

/* Which source joint drives each joint of the character. */
typedef struct RetargetMap {
    int   target_joint_count;
    int   source_joint_count;
    int  *source_of_target;       /* [target joints]: the source joint, -1 when unmatched */
    unsigned char *kind;          /* [target joints]: a RetargetMatchKind */
    int  *target_roles;           /* [target joints] */
    int  *source_roles;           /* [source joints] */
    int   target_convention, source_convention;   /* joint_role_assign's results */
    int   matched;                /* joints with a source */
} RetargetMap;

/* Matches the joints of `source` to those of `target`, in this order: the bone map's pairs
 * (`pairs`, may be NULL), exact names, names without prefix (joint_name_key), then roles. A name
 * match is not taken when both joints have roles and the roles differ ("LeftShoulder" is the
 * clavicle in Mixamo and the upper arm in some BVH files); chain roles (spine, neck) are matched
 * by their order from the hips, never by name. Each source joint drives one joint at most.
 * False with one line in error: a bone map naming a joint neither skeleton has, or out of memory. */
bool retarget_match(const Skeleton *source, const Skeleton *target, const BoneMapPair *pairs, int pair_count,
                    RetargetMap *map, char *error, size_t error_size);
void retarget_map_free(RetargetMap *map);

/* Refuses a source that shares too few joints with the character: when the character has
 * humanoid roles, its hips and at least half of its skinned joints' body roles must be matched;
 * without roles, at least half of its skinned joints. False with one line naming what is missing. */
bool retarget_check(const RetargetMap *map, const Skeleton *target, char *error, size_t error_size);

/* ---- retargeting --------------------------------------------------------------------------- */

typedef enum RetargetMode {
    RETARGET_ON = 0,   /* world rotation deltas from rest, hips translation scaled (retarget_clip) */
    RETARGET_OFF,      /* --retarget off: the source's local keys copied as they are (same rig) */
} RetargetMode;

/* What is fixed for one pair of skeletons: the shared frame, the hip height ratio, the
 * per-joint rest alignment. Built once (retarget_setup), used for every clip of the source. */
typedef struct RetargetSetup {
    const Skeleton *source, *target;
    const RetargetMap *map;
    double  align[4];           /* quaternion (x y z w): source scene axes -> character scene axes */
    double  hip_scale;          /* character hip height / source hip height, at rest */
    int     source_hips, target_hips;   /* the joints whose translation is carried (-1: none) */
    double (*source_rest_world)[4];   /* [source joints] world rotation at rest (quaternion) */
    double (*target_rest_world)[4];   /* [target joints] */
    double (*rest_alignment)[4];      /* [target joints] C_j: turns the character's rest bone onto the
                                         source's rest bone direction (identity where not defined) */
    bool   *copy_translation;   /* [target joints]: same offset as the source's joint (same rig):
                                   its translation and scale keys are kept */
} RetargetSetup;

bool retarget_setup(RetargetSetup *setup, const Skeleton *source, const Skeleton *target, const RetargetMap *map);
void retarget_setup_free(RetargetSetup *setup);

/* Makes `out` (zeroed first; name, start, duration copied) a clip of the character from source
 * clip `clip`: tracks only for matched joints, JointTrack.joint in the character's skeleton.
 * RETARGET_ON bakes one key per distinct key time of the source clip:
 *   D = Ws(t) * Ws_rest^-1                    the source joint's world rotation away from its rest
 *   Wt(t) = A D A^-1 * C_j * Wt_rest          the same turn in the character's frame (A: align)
 *   local_t(t) = Wt(parent, t)^-1 * Wt(t)     back to the character's local rotation
 * and the hips' translation: p_t = k A p_s(t) in scene space (k = hip_scale), taken into the parent's
 * frame. RETARGET_OFF copies the matched tracks' keys. *dropped_tracks = source tracks of unmatched
 * joints. Morph tracks are not carried. False when out of memory. */
bool retarget_clip(const RetargetSetup *setup, const Clip *clip, RetargetMode mode, Clip *out, int *dropped_tracks);

#endif
