/* report.c — errors and repair warnings, one line each (report.h). */
#include "report.h"

#include <stdarg.h>

bool io_fail(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return false;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
    return false;
}

void io_warn(FILE *warnings, const char *source, ImportStats *stats, const char *format, ...)
{
    stats->repairs++;
    if (!warnings) return;
    fprintf(warnings, "skinview: warning: %s: ", source);
    va_list args;
    va_start(args, format);
    vfprintf(warnings, format, args);
    va_end(args);
    fputc('\n', warnings);
}
