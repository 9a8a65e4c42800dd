/* retarget.h — clips of one skeleton played on another: joint matching and retargeting.
 *
 * Plain C + cglm, no Assimp, no GL (tests/anim/test_retarget.c runs it without a window). The
 * application (src/app/animations.c) imports the other files; this module only sees Skeletons
 * and Clips. docs/retargeting.md tells the story:
 *
 * Files: retarget_match.c (matching, the check), retarget_setup.c (A, k, C_j), retarget.c (a clip),
 * retarget_contact.c (foot contacts kept: detection, leg IK), retarget_morph.c (morph tracks),
 * retarget_dquat.h (double quaternions), retarget_roles.c (roles).
 *
 *   retarget_match()  source joints -> character joints: bone map pairs, exact names, names
 *                     without a namespace or pack prefix, then roles of the common humanoid
 *                     conventions (joint_role_assign)
 *   retarget_check()  refuses a source that shares too few joints (hips missing, fewer than
 *                     half of the character's body roles)
 *   retarget_clip()   one source clip -> one Clip of the character, baked at the source's key
 *                     times into ordinary JointTracks (the per-frame path is unchanged)
 *   retarget_morph_tracks()  its morph-weight tracks onto the character's targets of the same name
 */
#ifndef SKINVIEW_RETARGET_H
#define SKINVIEW_RETARGET_H

#include "model.h"
#include "retarget_roles.h"   /* joint roles: what a joint is in a humanoid */
#include "retarget_types.h"   /* RetargetMap, RetargetSetup */

#include <stdbool.h>
#include <stddef.h>

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

/* RetargetMap (which source joint drives each joint of the character): retarget_types.h. */

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

/* RetargetSetup (what is fixed for one pair of skeletons: A, k, C_j, the legs): retarget_types.h. */

bool retarget_setup(RetargetSetup *setup, const Skeleton *source, const Skeleton *target, const RetargetMap *map);
void retarget_setup_free(RetargetSetup *setup);

/* Makes `out` (zeroed first; name, start, duration copied) a clip of the character from source
 * clip `clip`: tracks only for matched joints, JointTrack.joint in the character's skeleton.
 * RETARGET_ON bakes one key per distinct key time of the source clip:
 *   D = Ws(t) * Ws_rest^-1                    the source joint's world rotation away from its rest
 *   Wt(t) = A D A^-1 * C_j * Wt_rest          the same turn in the character's frame (A: align)
 *   local_t(t) = Wt(parent, t)^-1 * Wt(t)     back to the character's local rotation
 * and the hips' translation: p_t = k A p_s(t) in scene space (k = hip_scale), taken into the parent's
 * frame. Then, where setup->foot_contacts and the source's foot is planted (retarget_contact.c), the
 * character's leg is bent by two-bone IK so its lowest foot point is k times the source's above the
 * ground, blended in and out over 0.1 s. RETARGET_OFF copies the matched tracks' keys. *dropped_tracks = source tracks of unmatched
 * joints. Morph tracks: retarget_morph_tracks. False when out of memory. */
bool retarget_clip(const RetargetSetup *setup, const Clip *clip, RetargetMode mode, Clip *out, int *dropped_tracks);

/* Adds to `out` (a clip of `target` made by retarget_clip from `clip` of `source`) the morph-weight
 * tracks of `clip`, each on every morph target of the character with the same name, in any mesh
 * (retarget_morph.c): weights are shape amounts, nothing to retarget, the keys are copied. A track of
 * an unnamed target, or of a name no character target has, is counted in *dropped_tracks. False when
 * out of memory (what was added is left for clip_free). */
bool retarget_morph_tracks(const Model *source, const Clip *clip, const Model *target, Clip *out, int *dropped_tracks);

#endif
