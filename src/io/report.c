/* report.c — errors and repair warnings, one line each (report.h). */
#include "report.h"

#include <string.h>

bool io_failv(char *error, size_t error_size, const char *format, va_list args)
{
    if (!error || error_size == 0) return false;
    vsnprintf(error, error_size, format, args);
    quote_message(error, error_size);   /* one line, whatever the caller quoted */
    return false;
}

bool io_fail(char *error, size_t error_size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    io_failv(error, error_size, format, args);
    va_end(args);
    return false;
}

void io_warning_linev(FILE *warnings, const char *source, const char *format, va_list args)
{
    if (!warnings) return;
    char message[1024], where[1024];
    vsnprintf(message, sizeof message, format, args);
    quote_message(message, sizeof message);
    /* the source is the path the user gave (or "(memory).gltf"): escaped, not shortened */
    quote_bytes(where, sizeof where, source ? source : "", source ? strlen(source) : 0, sizeof where - 1);
    fprintf(warnings, "skinview: warning: %s: %s\n", where, message);
}

void io_warning_line(FILE *warnings, const char *source, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    io_warning_linev(warnings, source, format, args);
    va_end(args);
}

void io_warn(FILE *warnings, const char *source, ImportStats *stats, const char *format, ...)
{
    stats->repairs++;
    va_list args;
    va_start(args, format);
    io_warning_linev(warnings, source, format, args);
    va_end(args);
}
