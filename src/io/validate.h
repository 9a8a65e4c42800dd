/* validate.h — the last step of every import: checks a Model before anything uses it.
 *
 * Assimp can hand over data that imports "fine" but is absurd: NaN normals, bone indices past
 * the bone list, weights that sum to 0, key times that run backwards, clips a week long, an
 * inverse bind matrix that squashes space flat. model_validate() walks the plain arrays of
 * model.h (no Assimp, so a Model built in memory is checked the same way) and, rule by rule,
 * either REPAIRS the data and writes one warning line saying what it changed, or REJECTS the
 * model with one line saying why. docs/robustness.md lists every rule, what skinview does and
 * the test that proves it (tests/test_validate.c).
 *
 * Nothing here recurses: the joint hierarchy is checked with one forward loop (parents must be
 * stored before children, so a cycle or a self-parent is a parent index >= the joint's own).
 */
#ifndef SKINVIEW_VALIDATE_H
#define SKINVIEW_VALIDATE_H

#include "../anim/model.h"

#include <stdio.h>

#define VALIDATE_MAX_JOINTS       65536      /* more joints than any rig: rejected */
#define VALIDATE_MAX_BONES        65535      /* joint_indices are uint16_t */
#define VALIDATE_MAX_CLIP_SECONDS 86400.0f   /* a clip longer than a day is a unit error: dropped */
#define VALIDATE_MAX_TEXTURE_SIDE 16384      /* larger textures are dropped (GL limits, memory) */
/* Magnitudes: finite is not enough, 1e35 * 1e35 is infinite. These keep every product the
 * animation path forms (joint = parent * local, palette = joint * inverse bind, palette * vertex)
 * far inside float range (3.4e38): */
#define VALIDATE_MAX_COORDINATE   1e12f      /* |vertex position|, |morph delta|, inverse bind entries */
#define VALIDATE_MAX_EXTENT       1e12f      /* bound on how far any joint can get from the origin */
#define VALIDATE_MAX_SCALE        1e8f       /* bound on a joint's accumulated scale */
#define VALIDATE_MIN_BIND_SCALE   1e-6f      /* inverse bind axis lengths: 1e-6 .. 1e6 */
#define VALIDATE_MAX_MORPH_WEIGHT 1000.0f    /* morph weights beyond +-1000 are clamped */
#define VALIDATE_MAX_NORMAL_DELTA 1000.0f    /* |morph normal delta|: two unit normals differ by at most 2;
                                                beyond this a delta times a weight can overflow to Inf (fuzzer) */

/* Checks and repairs `model` in place. Every repair writes one line
 * "skinview: warning: SOURCE: what was repaired" to `warnings` (NULL: silent) and counts
 * in *repairs (may be NULL). Returns false with a one-line cause in error[] when the model
 * cannot be used; the model is then left for the caller to free with model_free(). */
bool model_validate(Model *model, FILE *warnings, int *repairs, char *error, size_t error_size);

#endif
