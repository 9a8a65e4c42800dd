/* atomic_file.h — outputs are never half-written.
 *
 * Every file skinview writes (--screenshot PNG, --export-pose OBJ, bakes) goes to a temporary
 * file in the same folder, ".NAME.tmp-XXXXXX", which is renamed onto NAME only when everything
 * was written, flushed and closed. rename() within one file system is atomic: a reader sees the
 * old file or the complete new one, and a failed write (disk full, file size limit, a crash
 * half-way) leaves no NAME behind and removes the temporary file.
 */
#ifndef SKINVIEW_ATOMIC_FILE_H
#define SKINVIEW_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct AtomicFile {
    FILE *file;              /* write here */
    char  path[4096];        /* the final name */
    char  temp_path[4096];   /* the temporary file next to it */
} AtomicFile;

/* Creates the temporary file for `path` (mode "wb"). False with a one-line cause. */
bool atomic_file_open(AtomicFile *out, const char *path, char *error, size_t error_size);

/* Closes the temporary file and renames it onto the final name. On any write, close or
 * rename error returns false with a one-line cause; the temporary file is removed. */
bool atomic_file_commit(AtomicFile *out, char *error, size_t error_size);

/* Gives up: closes and removes the temporary file (safe after a failed commit). */
void atomic_file_abort(AtomicFile *out);

#endif
