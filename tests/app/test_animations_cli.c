/* test_animations_cli.c — `skinview CHARACTER --animations FILE[,FILE...]|DIR` from the command line
 * (src/app/animations.c): the clips land on the character with their source file (--info, --json),
 * the --info table of matched joints, a folder (sorted), a bone map file, and every clip command on
 * an added clip (--export-pose: the character travels as the take does; --bake-vat). Bad use (no
 * joint in common, no clips, a bone map naming an unknown joint or malformed, --retarget without
 * --animations): one line on stderr, non-zero exit, no window. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XBOT SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb"
#define MIXAMO SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx"
#define BVH SKINVIEW_TESTMODELS_DIR "/BVH"

static char folder[] = "/tmp/skinview-test-animations-XXXXXX";
static char output[1 << 20];

static int run(const char *arguments, bool stderr_only)
{
    char command[4096];
    snprintf(command, sizeof command, "env -u DISPLAY -u WAYLAND_DISPLAY '%s' %s %s", SKINVIEW_BINARY, arguments,
             stderr_only ? "2>&1 >/dev/null" : "2>/dev/null");
    return test_run_capture(command, output, sizeof output);
}

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    return lines;
}

static void expect_error(const char *arguments, const char *expect_text)
{
    int code = run(arguments, true);
    printf("exit %d: skinview %s\n    %s", code, arguments, output);
    CHECK(code == 1 || code == 2, "skinview %s: exit %d", arguments, code);
    CHECK(count_lines(output) == 1, "skinview %s: %d lines on stderr: %s", arguments, count_lines(output), output);
    CHECK(strstr(output, expect_text) != NULL, "skinview %s: '%s' expected in: %s", arguments, expect_text, output);
}

/* Centre of the vertices of an OBJ file (v lines). */
static bool obj_centre(const char *path, double centre[3])
{
    FILE *file = fopen(path, "r");
    if (!file) return false;
    char line[512];
    double sum[3] = {0, 0, 0};
    long n = 0;
    while (fgets(line, sizeof line, file)) {
        double x, y, z;
        if (sscanf(line, "v %lf %lf %lf", &x, &y, &z) == 3) sum[0] += x, sum[1] += y, sum[2] += z, n++;
    }
    fclose(file);
    for (int i = 0; i < 3; i++) centre[i] = n ? sum[i] / (double)n : 0.0;
    return n > 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    if (file) {
        fputs(text, file);
        fclose(file);
    }
}

int main(void)
{
    if (!test_file_exists(XBOT) || !test_file_exists(MIXAMO)) {
        printf("../shared models absent: skipped\n");
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    char args[4096], path[1024];

    /* the clips arrive with their source file; --json says it too */
    snprintf(args, sizeof args, "'%s' --animations '%s' --info --json", XBOT, MIXAMO);
    int code = run(args, false);
    CHECK(code == 0, "%s: exit %d", args, code);
    CHECK(strstr(output, "\"name\":\t\"mixamo\"") && strstr(output, "\"source\":\t\"mixamo.fbx\""),
          "--info --json lacks the added clip 'mixamo' from mixamo.fbx");
    CHECK(strstr(output, "\"source\":\t\"\""), "the character's own clips have no source");

    /* the --info table: matched and unmatched joints */
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --info", XBOT, BVH);
    code = run(args, false);
    CHECK(code == 0, "%s: exit %d", args, code);
    CHECK(strstr(output, "animations: 01_01.bvh: 24 of 70 joints matched"), "no match table line: %.300s", output);
    CHECK(strstr(output, "mixamorig:LeftForeArm") && strstr(output, "LeftForeArm") && strstr(output, "unmatched source joints: 14"),
          "the table lacks the forearm or the unmatched count");
    CHECK(strstr(output, "[7] 01_01: 22.925 s") && strstr(output, "from 01_01.bvh"), "the clip is not listed with its file");

    /* a folder: every model file in it, sorted */
    snprintf(args, sizeof args, "'%s' --animations '%s' --info", XBOT, BVH);
    code = run(args, false);
    char *a = strstr(output, "[7] 01_01"), *b = strstr(output, "[8] 01_03"), *c = strstr(output, "[9] Boxing_Toes");
    CHECK(code == 0 && a && b && c, "the BVH folder did not add 01_01, 01_03, Boxing_Toes in order (exit %d)", code);

    /* a bone map pairs what no name or role does */
    snprintf(path, sizeof path, "%s/map.txt", folder);
    write_text(path, "# source target\nLeftFingerBase mixamorig:LeftHandMiddle1\n\"RFingers\" \"mixamorig:RightHandMiddle1\"\n");
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --bone-map '%s' --info", XBOT, BVH, path);
    code = run(args, false);
    CHECK(code == 0 && strstr(output, "26 of 70 joints matched") && strstr(output, "bone map"),
          "the bone map's two pairs were not taken (exit %d)", code);

    /* the character travels as the take does: --export-pose of the added clip at two times */
    double start[3], later[3];
    char obj0[1024], obj1[1024];
    snprintf(obj0, sizeof obj0, "%s/t0.obj", folder);
    snprintf(obj1, sizeof obj1, "%s/t1.obj", folder);
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --clip 01_01 --time 0 --export-pose '%s'", XBOT, BVH, obj0);
    int code0 = run(args, true);
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --clip 01_01 --time 4 --export-pose '%s'", XBOT, BVH, obj1);
    int code1 = run(args, true);
    CHECK(code0 == 0 && code1 == 0 && obj_centre(obj0, start) && obj_centre(obj1, later), "--export-pose failed");
    double moved = hypot(later[0] - start[0], later[2] - start[2]);
    printf("01_01 on Xbot: the body's centre moved %.3f m over the ground in 4 s\n", moved);
    CHECK(moved > 0.5, "the character did not travel with the take (%.3f m)", moved);
    /* and the same with --retarget off copies the BVH's inch-sized local offsets: not a usable pose */
    snprintf(args, sizeof args, "'%s' --animations '%s' --retarget off --clip mixamo --time 1 --export-pose '%s'", XBOT,
             MIXAMO, obj1);
    CHECK(run(args, true) == 0, "--retarget off: export failed: %s", output);

    /* --bake-vat of an added clip */
    snprintf(args, sizeof args, "'%s' --animations '%s/01_03.bvh' --bake-vat '%s/vat' --clips 01_03 --fps 2 --quiet", XBOT,
             BVH, folder);
    code = run(args, true);
    snprintf(path, sizeof path, "%s/vat/vat.json", folder);
    CHECK(code == 0 && test_file_exists(path), "--bake-vat of an added clip: exit %d, %s", code, output);

    /* bad use: one line, non-zero exit */
    snprintf(args, sizeof args, "'%s' --animations '%s/X/anim_test.x'", XBOT, SKINVIEW_TESTMODELS_DIR);
    expect_error(args, "no joint matches the character's");
    snprintf(args, sizeof args, "'%s' --animations '%s/OBJ/box.obj'", XBOT, SKINVIEW_TESTMODELS_DIR);
    expect_error(args, "no clips to add");
    snprintf(path, sizeof path, "%s/unknown.txt", folder);
    write_text(path, "Hips mixamorig:NoSuchJoint\n");
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --bone-map '%s'", XBOT, BVH, path);
    expect_error(args, "no joint named 'mixamorig:NoSuchJoint' in the character");
    snprintf(path, sizeof path, "%s/bad.txt", folder);
    write_text(path, "Hips\n");
    snprintf(args, sizeof args, "'%s' --animations '%s/01_01.bvh' --bone-map '%s'", XBOT, BVH, path);
    expect_error(args, "line 1: expected 'source target'");
    snprintf(args, sizeof args, "'%s' --retarget off", XBOT);
    expect_error(args, "only go with --animations");
    snprintf(args, sizeof args, "'%s' --animations '%s/missing.fbx'", XBOT, folder);
    expect_error(args, "no such file");
    snprintf(args, sizeof args, "'%s' --animations '%s' --clip nosuch", XBOT, MIXAMO);
    expect_error(args, "no clip named 'nosuch'");

    snprintf(args, sizeof args, "rm -rf '%s'", folder);
    if (system(args) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
