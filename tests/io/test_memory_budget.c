/* test_memory_budget.c — the import's memory budget (src/io/import_guard.c) through the real binary.
 *
 * tests/fuzz/regressions/x-face-index-count.x is 9 KiB; Assimp 5.2's X reader reserves about
 * 2.4 GiB for it (faces that claim ~190 000 indices each) before it finds the data cut short.
 * With the default budget (2 GiB + 128 x file size) that is one line naming the budget and exit 1;
 * with SKINVIEW_IMPORT_MEMORY_MB=0 (no budget) Assimp gets its memory and fails on its own words
 * instead; a budget big enough for the demo model changes nothing for it. Release builds only:
 * sanitizer builds cannot use an address-space limit (tests/io.cmake does not register this). */
#include "testutil.h"

#include <string.h>
#include <sys/wait.h>

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    return lines;
}

int main(void)
{
    const char *input = SKINVIEW_SOURCE_DIR "/tests/fuzz/regressions/x-face-index-count.x";
    char command[2048], err[4096];

    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1 >/dev/null", SKINVIEW_BINARY, input);
    int status = test_run_status(command, err, sizeof err);
    CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1, "default budget: status 0x%x: %s", status, err);
    CHECK(count_lines(err) == 1, "default budget: one line expected: %s", err);
    CHECK(strstr(err, "memory budget of ") != NULL, "default budget: the line should name the budget: %s", err);

    snprintf(command, sizeof command, "SKINVIEW_IMPORT_MEMORY_MB=0 '%s' '%s' --info 2>&1 >/dev/null", SKINVIEW_BINARY,
             input);
    status = test_run_status(command, err, sizeof err);
    CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1, "no budget: status 0x%x: %s", status, err);
    CHECK(count_lines(err) == 1 && strstr(err, "memory budget") == NULL && strstr(err, "end of file") != NULL,
          "no budget: Assimp's own error expected: %s", err);

    snprintf(command, sizeof command, "SKINVIEW_IMPORT_MEMORY_MB=512 '%s' '%s/assets/demo.fbx' --info 2>&1 >/dev/null",
             SKINVIEW_BINARY, SKINVIEW_SOURCE_DIR);
    status = test_run_status(command, err, sizeof err);
    CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && err[0] == '\0',
          "demo within a 512 MiB budget: status 0x%x: %s", status, err);
    return test_finish();
}
