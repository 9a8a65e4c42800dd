/* atomic_file.c — write to a temporary file, rename on success (see atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool atomic_file_open(AtomicFile *out, const char *path, char *error, size_t error_size)
{
    memset(out, 0, sizeof *out);
    const char *slash = strrchr(path, '/');
    size_t folder_length = slash ? (size_t)(slash - path + 1) : 0;
    const char *name = path + folder_length;
    if (!name[0]) {
        snprintf(error, error_size, "cannot write: the path names a folder, not a file");
        return false;
    }
    int n = snprintf(out->temp_path, sizeof out->temp_path, "%.*s.%s.tmp-XXXXXX", (int)folder_length, path, name);
    if (n < 0 || (size_t)n >= sizeof out->temp_path || strlen(path) >= sizeof out->path) {
        snprintf(error, error_size, "cannot write: the path is too long");
        return false;
    }
    snprintf(out->path, sizeof out->path, "%s", path);
    int fd = mkstemp(out->temp_path);
    if (fd < 0) {
        snprintf(error, error_size, "cannot write: %s", strerror(errno));
        return false;
    }
    /* mkstemp makes the file 0600: give it the permissions a plain fopen() would */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) { /* not fatal: the file is still ours */ }
    out->file = fdopen(fd, "wb");
    if (!out->file) {
        snprintf(error, error_size, "cannot write: %s", strerror(errno));
        close(fd);
        unlink(out->temp_path);
        return false;
    }
    return true;
}

bool atomic_file_commit(AtomicFile *out, char *error, size_t error_size)
{
    if (!out->file) {
        snprintf(error, error_size, "cannot write: the file was not opened");
        return false;
    }
    int failure = 0;
    if (fflush(out->file) != 0 || ferror(out->file)) failure = errno ? errno : EIO;
    if (fclose(out->file) != 0 && !failure) failure = errno ? errno : EIO;
    out->file = NULL;
    if (!failure && rename(out->temp_path, out->path) != 0) failure = errno;
    if (failure) {
        snprintf(error, error_size, "cannot write: %s", strerror(failure));
        unlink(out->temp_path);
        out->temp_path[0] = '\0';
        return false;
    }
    out->temp_path[0] = '\0';
    return true;
}

void atomic_file_abort(AtomicFile *out)
{
    if (out->file) fclose(out->file);
    out->file = NULL;
    if (out->temp_path[0]) unlink(out->temp_path);
    out->temp_path[0] = '\0';
}
