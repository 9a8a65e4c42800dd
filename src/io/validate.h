/* validate.h — the last step of every import: checks a Model before anything uses it.
 *
 * Assimp can hand over data that imports "fine" but is absurd: NaN normals, bone indices past
 * the bone list, weights that sum to 0, key times that run backwards, clips a week long, an
 * inverse bind matrix that squashes space flat. model_validate() walks the plain arrays of
 * model.h (no Assimp, so a Model built in memory is checked the same way) and, rule by rule,
 * either REPAIRS the data and writes one warning line saying what it changed, or REJECTS the
 * model with one line saying why. docs/robustness.md lists every rule, what skinview does and
 * the test that proves it (tests/io/test_validate.c, tests/io/test_validate_clips.c).
 *
 * Nothing here recurses: the joint hierarchy is checked with one forward loop (parents must be
 * stored before children, so a cycle or a self-parent is a parent index >= the joint's own).
 */
#ifndef SKINVIEW_VALIDATE_H
#define SKINVIEW_VALIDATE_H

#include "anim/model.h"

#include <stdio.h>

#include "validate_limits.h"   /* the limits every rule holds a model to */

/* Checks and repairs `model` in place. Every repair writes one line
 * "skinview: warning: SOURCE: what was repaired" to `warnings` (NULL: silent) and counts
 * in *repairs (may be NULL). Returns false with a one-line cause in error[] when the model
 * cannot be used; the model is then left for the caller to free with model_free(). */
bool model_validate(Model *model, FILE *warnings, int *repairs, char *error, size_t error_size);

#endif
