/* validate_common.c — how the validation rules report a repair or a refusal (validate_common.h). */
#include "validate_common.h"

#include <math.h>
#include <stdarg.h>

/* One warning line: "skinview: warning: SOURCE: <what was repaired>". */
void validate_repaired(Validator *v, const char *format, ...)
{
    v->repairs++;
    if (!v->warnings) return;
    const char *source = v->model->source_path[0] ? v->model->source_path : "(model in memory)";
    fprintf(v->warnings, "skinview: warning: %s: ", source);
    va_list args;
    va_start(args, format);
    vfprintf(v->warnings, format, args);
    va_end(args);
    fputc('\n', v->warnings);
}

bool validate_reject(Validator *v, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    if (v->error_size > 0) vsnprintf(v->error, v->error_size, format, args);
    va_end(args);
    return false;
}

bool validate_finite(const float *f, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(f[i])) return false;
    return true;
}
