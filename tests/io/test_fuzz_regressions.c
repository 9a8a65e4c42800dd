/* test_fuzz_regressions.c — every input the fuzzer found (tests/fuzz/regressions/) through the
 * real binary: --info and --export-pose exit 0 or 1 (never a signal), a failure is one line,
 * every line on stderr is free of control characters and invalid UTF-8 (base/quote.h: a name
 * from the file with a newline, newline-in-accessor-type.gltf, is escaped), and an exported OBJ
 * holds no NaN or Inf. (scripts/fuzz.sh also replays them through every fuzz target.) */
#include "base/quote.h"
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool has_nonfinite(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    bool bad = false;
    while (!bad && fgets(line, sizeof line, f))
        for (char *c = line; *c && !bad; c++) bad = strncmp(c, "nan", 3) == 0 || strncmp(c, "inf", 3) == 0;
    fclose(f);
    return bad;
}

int main(void)
{
    const char *folder = SKINVIEW_SOURCE_DIR "/tests/fuzz/regressions";
    DIR *dir = opendir(folder);
    CHECK(dir != NULL, "no %s", folder);
    if (!dir) return test_finish();
    char obj[] = "/tmp/skinview_fuzz_regression_XXXXXX";
    int fd = mkstemp(obj);
    if (fd >= 0) close(fd);
    int inputs = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        inputs++;
        for (int mode = 0; mode < 2; mode++) {
            char command[2048], err[4096];
            unlink(obj);
            snprintf(command, sizeof command, "'%s' '%s/%s' %s%s 2>&1 >/dev/null", SKINVIEW_BINARY, folder,
                     e->d_name, mode == 0 ? "--info" : "--export-pose ", mode == 0 ? "" : obj);
            int status = test_run_status(command, err, sizeof err);
            bool exited = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) <= 1;
            CHECK(exited, "%s %s: status 0x%x: %s", e->d_name, mode == 0 ? "--info" : "--export-pose", status, err);
            int errors = 0;
            for (char *line = err; *line;) {
                char *end = strchr(line, '\n');
                if (!end) break;
                if (strncmp(line, "skinview: warning: ", 19) != 0) errors++;
                CHECK(quote_is_clean(line, (size_t)(end - line)), "%s: a line with a control character: %.*s",
                      e->d_name, (int)(end - line), line);
                line = end + 1;
            }
            if (exited && WEXITSTATUS(status) == 1) CHECK(errors == 1, "%s: a failure should be one line: %s", e->d_name, err);
            if (exited && WEXITSTATUS(status) == 0) CHECK(errors == 0, "%s: exit 0 with errors: %s", e->d_name, err);
            if (mode == 1 && exited && WEXITSTATUS(status) == 0)
                CHECK(!has_nonfinite(obj), "%s: the exported OBJ has NaN/Inf", e->d_name);
        }
    }
    closedir(dir);
    unlink(obj);
    CHECK(inputs > 0, "no reproducers in %s", folder);
    printf("%d fuzzer reproducers replayed\n", inputs);
    return test_finish();
}
