/* test_one_read.c — every model file is read from disk once (src/io/import.c): the FBX version
 * probe, Assimp, the Collada and FBX readers of the import all work on the bytes read once, while
 * the files a model names (an OBJ's .mtl) are still found next to it.
 *
 * Measured from outside: `strace -f -e trace=openat,open` on `skinview --info MODEL`, counting the
 * successful opens of MODEL (before this change: a binary FBX 4 or 7, an ASCII FBX 2, a Collada or
 * OBJ file 4). Skips (77) when strace is not installed or cannot trace here; ../shared models are
 * left out when ../shared is absent. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Successful opens of `file` (the quoted path as the binary opens it) in the strace log. */
static int opens_of(const char *log_path, const char *file)
{
    FILE *log = fopen(log_path, "r");
    if (!log) return -1;
    char quoted[1100], line[4096];
    snprintf(quoted, sizeof quoted, "\"%s\"", file);
    int count = 0;
    while (fgets(line, sizeof line, log))
        if (strstr(line, quoted) && (strstr(line, "open(") || strstr(line, "openat(")) && !strstr(line, "= -1"))
            count++;
    fclose(log);
    return count;
}

/* skinview --info `model` under strace into `log_path`; false when the run itself failed. */
static bool traced_info(const char *model, const char *log_path)
{
    char command[4096], out[4096];
    /* LeakSanitizer cannot run under ptrace: off for the traced run of a sanitizer build */
    snprintf(command, sizeof command,
             "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" strace -f -qq -e trace=openat,open -o '%s' "
             "'%s' '%s' --info > /dev/null 2>&1; echo $?",
             log_path, SKINVIEW_BINARY, model);
    if (test_run_capture(command, out, sizeof out) != 0) return false;
    return atoi(out) == 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int main(void)
{
    char out[256];
    if (test_run_capture("strace -qq -e trace=openat -o /dev/null true > /dev/null 2>&1; echo $?", out, sizeof out) != 0 ||
        atoi(out) != 0) {
        fprintf(stderr, "skip: strace is not installed or cannot trace here\n");
        return TEST_SKIP_CODE;
    }
    static const struct {
        const char *path;
        bool        shared;   /* in ../shared/models: may be absent */
    } models[] = {
        {SKINVIEW_SOURCE_DIR "/assets/demo.fbx", false},                                      /* binary FBX 7.x */
        {SKINVIEW_TESTMODELS_DIR "/Collada/duck.dae", false},                                 /* Collada */
        {SKINVIEW_TESTMODELS_DIR "/OBJ/spider.obj", false},                                   /* OBJ + .mtl */
        {SKINVIEW_SOURCE_DIR "/assets/demo.glb", false},                                      /* glTF: its own reader */
        {SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx", true},                  /* take edges widened */
        {SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/blender_279_sausage_7400_binary.fbx", true},
        {SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/blender_279_sausage_6100_ascii.fbx", true},   /* FBX 6.1: legacy */
    };
    char log_path[] = "/tmp/skinview-one-read-XXXXXX";
    int fd = mkstemp(log_path);
    CHECK(fd >= 0, "a temporary file for the strace log");
    if (fd < 0) return test_finish();
    close(fd);
    int measured = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        if (models[i].shared && !exists(models[i].path)) continue;
        bool ran = traced_info(models[i].path, log_path);
        CHECK(ran, "%s: skinview --info under strace failed", models[i].path);
        if (!ran) continue;
        int opens = opens_of(log_path, models[i].path);
        CHECK(opens == 1, "%s: opened %d times by one import (read once expected)", models[i].path, opens);
        printf("%s: opened %d time%s\n", models[i].path, opens, opens == 1 ? "" : "s");
        measured++;
        if (strstr(models[i].path, "spider.obj")) {   /* the file the model names, next to it */
            int mtl = opens_of(log_path, SKINVIEW_TESTMODELS_DIR "/OBJ/spider.mtl");
            CHECK(mtl >= 1, "spider.obj: its spider.mtl was not opened next to it (%d opens)", mtl);
        }
    }
    CHECK(measured >= 4, "at least the 4 models of the source tree and assimp-testmodels measured: %d", measured);
    unlink(log_path);
    return test_finish();
}
