/* validate_internal.h — what the rule files of model_validate() share (validate.c: skeleton,
 * materials, meshes, magnitudes; validate_clips.c: clips): the validator and its reporting
 * (validate_common.h), the clip rules' entry. Not for use outside src/io/validate*. */
#ifndef SKINVIEW_VALIDATE_INTERNAL_H
#define SKINVIEW_VALIDATE_INTERNAL_H

#include "validate_common.h"

/* The clip rules (validate_clips.c): keys sorted and de-duplicated, tracks on real joints, empty
 * clips dropped. False (with v->error) when the model must be refused. */
bool validate_clips(Validator *v);

#endif
