/* retarget_contact.h — foot contacts kept across rigs of other proportions (retarget_contact.c;
 * docs/retargeting.md section 5). Internal to src/anim: retarget_setup.c sets the legs up,
 * retarget.c runs the contact pass on a clip and bends the legs while it bakes the keys. */
#ifndef SKINVIEW_RETARGET_CONTACT_H
#define SKINVIEW_RETARGET_CONTACT_H

#include "anim.h"
#include "retarget_types.h"

/* Fills setup->legs, source_leg, target_leg (up_source, up_target, forward_target set before):
 * from the roles of setup->map, with both rigs' rest model matrices. False when out of memory. */
bool retarget_legs_setup(RetargetSetup *setup, const mat4 *source_rest_model, const mat4 *target_rest_model);
void retarget_legs_free(RetargetSetup *setup);

/* The source clip's foot contacts at the bake's key times, found once per clip. */
typedef struct FootContacts {
    int     key_count;
    double *source_height;   /* [key * 2 + side]: the source's lowest foot point along its up (source units) */
    float  *weight;          /* [key * 2 + side]: 0..1, how much of the contact correction applies */
    int    *anchor;          /* [key * 2 + side]: the planted key whose correction it takes (itself when
                                planted), -1 where the weight is 0 */
    int     contact_keys;    /* keys x feet found planted (for messages and tests) */
} FootContacts;

/* Samples `clip` (of setup->source) at times[0..key_count) and marks where each foot is planted:
 * its lowest point near the clip's ground and nearly still, with hysteresis; the weight is 1 there
 * and fades to 0 over RETARGET_CONTACT_BLEND seconds either side. No valid leg: every weight 0.
 * False when out of memory. */
bool foot_contacts_find(const RetargetSetup *setup, const Clip *clip, const float *times, int key_count,
                        FootContacts *contacts);
void foot_contacts_free(FootContacts *contacts);

/* After retarget_clip has baked `out` (one rotation key per time of `times`, the FootContacts'
 * keys), bends the character's legs: at each planted key the lift that puts its lowest foot point
 * k times the source's above the ground (two-bone IK, the foot keeping its world rotation; pointing
 * its toes for what a straight leg cannot reach), at the keys around it that contact's lift taken
 * `weight` of the way. Rewrites the upper leg's, lower leg's and foot's rotation keys. False when
 * out of memory (the keys then unchanged). */
bool foot_contacts_apply(const RetargetSetup *setup, const FootContacts *contacts, const float *times, Clip *out);

#endif
