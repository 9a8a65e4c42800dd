/* retarget_types.h — the data of retargeting (retarget.h): which joint drives which (RetargetMap) and
 * what is fixed for one pair of skeletons (RetargetSetup, with the legs whose foot contacts are kept).
 * Apart from retarget.h so that retarget_contact.c, which retarget.c calls, reads them without
 * including retarget.h back (the layers test: no circle inside a folder). */
#ifndef SKINVIEW_RETARGET_TYPES_H
#define SKINVIEW_RETARGET_TYPES_H

#include "model.h"

#include <stdbool.h>

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

/* One leg of the character with the source's foot, for foot-contact preservation
 * (retarget_contact.c), set up by retarget_setup: valid when both rigs name the side's upper leg,
 * lower leg and foot, the character's three are matched, and each is under the one before. */
typedef struct RetargetLeg {
    bool valid;
    int  target_upper, target_lower, target_foot;   /* hip, knee and ankle joints of the character */
    int  source_foot;
    int *target_foot_joints, target_foot_joint_count;   /* the foot and every joint under it (toes, toe ends) */
    int *source_foot_joints, source_foot_joint_count;
} RetargetLeg;

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
    RetargetLeg legs[2];        /* left, right */
    double  source_leg, target_leg;   /* rest leg length (hip -> knee -> ankle), mean of the valid legs */
    double  up_source[3], up_target[3];   /* each scene's up axis (the body frame's; +Y without one) */
    double  forward_target[3];  /* the character's facing at rest (the knee's bend when a leg is straight) */
    bool    foot_contacts;      /* retarget_clip keeps the source's foot contacts (retarget_setup: true) */
} RetargetSetup;

#endif
