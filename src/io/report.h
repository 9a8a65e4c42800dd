/* report.h — the two messages every reader gives (Assimp's import, the glTF and FBX readers):
 *   - an error: one line, without the file name (the caller adds it), into the caller's buffer;
 *     the import then fails;
 *   - a repair warning: one line "skinview: warning: SOURCE: ..." to a stream (NULL: quiet),
 *     counted in ImportStats.repairs either way.
 * import_fail / import_warn (import_internal.h) and gltf_fail / gltf_warn (gltf_internal.h) are
 * these two on each reader's state. */
#ifndef SKINVIEW_IO_REPORT_H
#define SKINVIEW_IO_REPORT_H

#include "../anim/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the message into error[error_size] (when error_size > 0); returns false. */
bool io_fail(char *error, size_t error_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
/* Counts a repair in stats->repairs and writes the warning line to `warnings` unless it is NULL. */
void io_warn(FILE *warnings, const char *source, ImportStats *stats, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif
