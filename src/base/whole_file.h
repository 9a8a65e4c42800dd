/* whole_file.h — reading one file whole into memory: the one reader every layer uses (model
 * files, glTF buffers, VAT manifests, shaders, the HUD font). Plain C, no other dependency. */
#ifndef SKINVIEW_WHOLE_FILE_H
#define SKINVIEW_WHOLE_FILE_H

#include <stddef.h>

/* Reads the regular file at `path` whole into a malloc'd buffer (free() it), with one NUL byte
 * after the data so that a text file can be used as a C string; *size = the file's byte count.
 * A file larger than `limit` bytes is not read. On failure returns NULL, *size = 0 and
 * *error_number says why as an errno value: fopen's own (ENOENT, EACCES, ...), EISDIR for a
 * directory or anything else that is not a regular file, EFBIG over `limit`, ENOMEM, EIO for a
 * short read. error_number may be NULL. */
void *whole_file_read(const char *path, size_t limit, size_t *size, int *error_number);

#endif
