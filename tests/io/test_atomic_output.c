/* test_atomic_output.c — outputs are never half-written (src/io/atomic_file.c).
 *
 * Runs the real binary with a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored: writes past it
 * fail with EFBIG, like a full disk) so --export-pose and --screenshot fail half-way, and checks
 * that the run exits 1 with one line, that no file of that name appears (an existing one is left
 * as it was), and that no temporary file is left behind; then the same without the limit writes
 * the complete file.
 *
 *   test_atomic_output export       --export-pose only (no GL)
 *   test_atomic_output screenshot   --screenshot only
 */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *demo_model = SKINVIEW_SOURCE_DIR "/assets/demo.glb";

/* Runs skinview ARGS with stderr captured into err[]; file size limited to `limit` bytes (0: none).
 * Returns the wait status. */
static int run_limited(const char *const args[], long limit, char *err, size_t err_size)
{
    char err_path[] = "/tmp/skinview_atomic_err_XXXXXX";
    int err_fd = mkstemp(err_path);
    if (err_fd < 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (limit > 0) {
            struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
            setrlimit(RLIMIT_FSIZE, &rl);
            signal(SIGXFSZ, SIG_IGN);
        }
        dup2(err_fd, 2);
        execv(SKINVIEW_BINARY, (char *const *)args);
        _exit(127);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    ssize_t n = pread(err_fd, err, err_size - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return status;
}

static int count_temporaries(const char *folder)
{
    DIR *dir = opendir(folder);
    int count = 0;
    if (!dir) return -1;
    for (struct dirent *e; (e = readdir(dir));)
        if (strstr(e->d_name, ".tmp-")) count++;
    closedir(dir);
    return count;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void check_output(const char *what, const char *flag, const char *extra_flag, const char *extra_value)
{
    char folder[] = "/tmp/skinview_atomic_XXXXXX";
    if (!mkdtemp(folder)) {
        CHECK(false, "mkdtemp");
        return;
    }
    char out[256], err[2048];
    snprintf(out, sizeof out, "%s/out.file", folder);
    const char *args[] = {"skinview", demo_model, flag, out, extra_flag, extra_value, NULL};

    /* 1. a write that fails half-way leaves no file */
    int status = run_limited(args, 2000, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: limited run: status 0x%x (%s)", what, status, err);
    CHECK(strchr(err, '\n') == strrchr(err, '\n') && strstr(err, "cannot write"), "%s: not one 'cannot write' line: %s",
          what, err);
    CHECK(file_size(out) < 0, "%s: a half-written file of %ld bytes was left", what, file_size(out));
    CHECK(count_temporaries(folder) == 0, "%s: temporary files left behind", what);

    /* 2. ... and an existing file stays as it was */
    FILE *old = fopen(out, "w");
    if (old) {
        fputs("old", old);
        fclose(old);
    }
    status = run_limited(args, 2000, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: limited run over a file: status 0x%x", what, status);
    CHECK(file_size(out) == 3, "%s: the existing file was changed (%ld bytes)", what, file_size(out));
    CHECK(count_temporaries(folder) == 0, "%s: temporary files left behind", what);

    /* 3. without the limit the whole file replaces it */
    status = run_limited(args, 0, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: normal run: status 0x%x (%s)", what, status, err);
    CHECK(file_size(out) > 2000, "%s: output has %ld bytes", what, file_size(out));
    CHECK(count_temporaries(folder) == 0, "%s: temporary files left behind", what);
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    CHECK(stat(out, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask), "%s: mode %o, not %o", what,
          (unsigned)(st.st_mode & 0777), (unsigned)(0666 & ~mask));
    unlink(out);
    rmdir(folder);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || strcmp(only, "export") == 0) check_output("--export-pose", "--export-pose", "--time", "0.5");
    if (!*only || strcmp(only, "screenshot") == 0) check_output("--screenshot", "--screenshot", "--size", "320x240");
    return test_finish();
}
