/* test_animations_paths.c — names with commas in --animations and in dropped files (issue 28;
 * src/app/cli.c parse_animations, src/app/animations.c app_add_animations):
 *   - the command line: an existing file or folder whose name holds commas is one item; `\,` is a
 *     comma inside a name; --animations may be given again (the lists add up, in order);
 *   - the list app_add_animations takes (the viewer's Shift-drops included) holds one path a line:
 *     a dropped path with commas is added whole, never split;
 *   - a list item that names nothing: one line naming it and the escape.
 * Skips when ../shared or the assimp test models are absent. */
#include "app/cli.h"
#include "app/commands.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define XBOT SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb"
#define BVH1 SKINVIEW_TESTMODELS_DIR "/BVH/01_01.bvh"

static char folder[] = "/tmp/skinview-test-anim-paths-XXXXXX";

static bool copy_file(const char *from, const char *to)
{
    char command[2048];
    snprintf(command, sizeof command, "cp '%s' '%s'", from, to);
    return system(command) == 0;
}

/* The --animations list `arguments` (argv after MODEL) parses to. */
static const char *parse(int count, const char **arguments)
{
    static Options options;
    char *argv[16] = {"skinview", (char *)XBOT};
    for (int i = 0; i < count; i++) argv[2 + i] = (char *)arguments[i];
    char error[512] = "";
    bool ok = cli_parse(2 + count, argv, &options, error, sizeof error);
    CHECK(ok, "parse: %s", error);
    return ok && options.animations ? options.animations : "";
}

int main(void)
{
    if (!test_file_exists(XBOT) || !test_file_exists(BVH1)) {
        printf("../shared models or assimp-testmodels absent: skipped\n");
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    char sub[600], take[700], other[700];
    snprintf(sub, sizeof sub, "%s/mocap,takes", folder);
    snprintf(take, sizeof take, "%s/walk,fast.bvh", sub);
    snprintf(other, sizeof other, "%s/jump,2.bvh", folder);
    CHECK(mkdir(sub, 0755) == 0, "mkdir %s", sub);
    CHECK(copy_file(BVH1, take) && copy_file(BVH1, other), "copies");

    /* the command line */
    char expected[4096], escaped[800];
    const char *list = parse(2, (const char *[]){"--animations", take});
    CHECK(strcmp(list, take) == 0, "an existing file with commas is one item: '%s'", list);
    snprintf(escaped, sizeof escaped, "%s/jump\\,2.bvh,%s", folder, BVH1);
    list = parse(4, (const char *[]){"--animations", take, "--animations", escaped});
    snprintf(expected, sizeof expected, "%s\n%s\n%s", take, other, BVH1);
    CHECK(strcmp(list, expected) == 0, "repeated --animations and '\\,': '%s' (expected '%s')", list, expected);
    list = parse(2, (const char *[]){"--animations", "a.bvh,b.bvh"});
    CHECK(strcmp(list, "a.bvh\nb.bvh") == 0, "names that do not exist split at commas: '%s'", list);

    /* the list the viewer builds from drops: one path a line, each added whole */
    Model model;
    memset(&model, 0, sizeof model);
    char error[1400] = "";
    CHECK(app_load_model(XBOT, &(ImportOptions){0}, &model), "Xbot imports");
    int own = model.clip_count;
    snprintf(expected, sizeof expected, "%s\n%s", take, other);
    bool ok = app_add_animations(&model, expected, NULL, false, false, &(ImportOptions){0}, error, sizeof error);
    CHECK(ok, "two dropped files with commas: %s", error);
    CHECK(model.clip_count == own + 2, "two clips added (%d)", model.clip_count - own);
    if (ok && model.clip_count == own + 2) {
        CHECK(strcmp(model.clips[own].source_file, "walk,fast.bvh") == 0 && strcmp(model.clips[own].name, "walk,fast") == 0,
              "the first from walk,fast.bvh: '%s' '%s'", model.clips[own].name, model.clips[own].source_file);
        CHECK(strcmp(model.clips[own + 1].source_file, "jump,2.bvh") == 0, "the second from jump,2.bvh: '%s'",
              model.clips[own + 1].source_file);
        CHECK(model.source_rig_count == 2 && model.clips[own + 1].source_rig == 2, "each file's rig kept for Shift+B");
    }
    model_free(&model);
    memset(&model, 0, sizeof model);
    CHECK(app_load_model(XBOT, &(ImportOptions){0}, &model), "Xbot imports");
    ok = app_add_animations(&model, sub, NULL, false, false, &(ImportOptions){0}, error, sizeof error);
    CHECK(ok, "a folder with a comma: %s", error);
    model_free(&model);
    memset(&model, 0, sizeof model);
    CHECK(app_load_model(XBOT, &(ImportOptions){0}, &model), "Xbot imports");
    snprintf(expected, sizeof expected, "%s/no,such.bvh", folder);
    ok = app_add_animations(&model, expected, NULL, false, false, &(ImportOptions){0}, error, sizeof error);
    printf("a missing file: %s\n", error);
    CHECK(!ok && strstr(error, "no,such.bvh: no such file or folder") && strstr(error, "\\,") && !strchr(error, '\n'),
          "a missing file with a comma: one line naming it whole and the escape: %s", error);
    model_free(&model);

    char command[700];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
