/* whole_file.c — see whole_file.h. */
#include "whole_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

void *whole_file_read(const char *path, size_t limit, size_t *size, int *error_number)
{
    int error = 0;
    unsigned char *bytes = NULL;
    *size = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        error = errno ? errno : ENOENT;
    } else {
        struct stat st;
        if (fstat(fileno(file), &st) != 0) error = errno ? errno : EIO;
        else if (!S_ISREG(st.st_mode)) error = EISDIR;   /* a directory, a pipe, a device: not a file to read whole */
        else if (st.st_size < 0 || (unsigned long long)st.st_size > (unsigned long long)limit ||
                 (unsigned long long)st.st_size >= (unsigned long long)((size_t)-1))
            error = EFBIG;
        else {
            size_t length = (size_t)st.st_size;
            bytes = malloc(length + 1);
            if (!bytes) error = ENOMEM;
            else if (fread(bytes, 1, length, file) != length) {   /* shrank while we read, or an I/O error */
                free(bytes);
                bytes = NULL;
                error = EIO;
            } else {
                bytes[length] = '\0';
                *size = length;
            }
        }
        fclose(file);
    }
    if (error_number) *error_number = error;
    return bytes;
}
