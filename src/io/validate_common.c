/* validate_common.c — how the validation rules report a repair or a refusal (validate_common.h). */
#include "validate_common.h"
#include "report.h"

#include <math.h>
#include <stdarg.h>

/* One warning line: "skinview: warning: SOURCE: <what was repaired>". */
void validate_repaired(Validator *v, const char *format, ...)
{
    v->repairs++;
    if (!v->warnings) return;
    const char *source = v->model->source_path[0] ? v->model->source_path : "(model in memory)";
    va_list args;
    va_start(args, format);
    io_warning_linev(v->warnings, source, format, args);   /* report.h: one line, whatever the names hold */
    va_end(args);
}

bool validate_reject(Validator *v, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    io_failv(v->error, v->error_size, format, args);
    va_end(args);
    return false;
}

bool validate_finite(const float *f, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(f[i])) return false;
    return true;
}
