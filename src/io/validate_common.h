/* validate_common.h — the validator the rule files of model_validate() pass along, and how they
 * report: a repair (a warning line), a refusal (the one-line reason), the finiteness test. Not for
 * use outside src/io/validate*. */
#ifndef SKINVIEW_VALIDATE_COMMON_H
#define SKINVIEW_VALIDATE_COMMON_H

#include "validate.h"
#include "report.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct Validator {
    Model  *model;
    int    *mesh_index;   /* [mesh_count before check_meshes]: new index of each mesh, -1 if dropped */
    int     old_mesh_count;
    FILE   *warnings;
    int     repairs;
    char   *error;
    size_t  error_size;
} Validator;

/* One warning line "skinview: warning: SOURCE: <what was repaired>", counted in v->repairs. */
void validate_repaired(Validator *v, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* The one-line reason the model is refused, into v->error; returns false. */
bool validate_reject(Validator *v, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* The end of every clip check: clip c is freed (keep false) or moved down to clips[*kept], so
 * that the kept clips stay in order at the front; the caller sets clip_count = *kept at the end. */
static inline void validate_keep_clip(Model *model, int c, bool keep, int *kept)
{
    if (!keep) {
        clip_free(&model->clips[c]);
        return;
    }
    if (*kept != c) model->clips[*kept] = model->clips[c];
    (*kept)++;
}
/* True when all n floats are finite. */
bool validate_finite(const float *f, int n);

#endif
