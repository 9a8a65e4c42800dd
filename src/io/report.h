/* report.h — the two messages every reader gives (Assimp's import, the glTF and FBX readers, the
 * VAT manifest, validation):
 *   - an error: one line, without the file name (the caller adds it), into the caller's buffer;
 *     the import then fails;
 *   - a repair warning: one line "skinview: warning: SOURCE: ..." to a stream (NULL: quiet),
 *     counted in ImportStats.repairs either way.
 * Text a message quotes from the file (a name, a type, a URI, an extension name, a library's
 * error string) goes in through QUOTED() / quote_bytes() (src/base/quote.h): escaped and cut to
 * QUOTE_LIMIT bytes. And whatever the callers pass, both functions run the finished message
 * through quote_message(): it never holds a control character or invalid UTF-8, so it is one line.
 * import_fail / import_warn (import_internal.h) and gltf_fail / gltf_warn (gltf_internal.h) are
 * these two on each reader's state. */
#ifndef SKINVIEW_IO_REPORT_H
#define SKINVIEW_IO_REPORT_H

#include "anim/model.h"
#include "base/quote.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the message into error[error_size] (when error_size > 0); returns false. */
bool io_fail(char *error, size_t error_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
bool io_failv(char *error, size_t error_size, const char *format, va_list args) __attribute__((format(printf, 3, 0)));
/* Counts a repair in stats->repairs and writes the warning line to `warnings` unless it is NULL. */
void io_warn(FILE *warnings, const char *source, ImportStats *stats, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
/* The line alone, "skinview: warning: SOURCE: message\n", counted by the caller (NULL: nothing). */
void io_warning_line(FILE *warnings, const char *source, const char *format, ...) __attribute__((format(printf, 3, 4)));
void io_warning_linev(FILE *warnings, const char *source, const char *format, va_list args)
    __attribute__((format(printf, 3, 0)));

#endif
