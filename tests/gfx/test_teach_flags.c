/* test_teach_flags.c — every flag of the teaching aids, through the real binary's --screenshot,
 * shows its feature: each picture is compared with the same pose without the flag and the
 * pixels of the feature's own colours are counted (not just exit 0).
 * The demo character (assets/demo.fbx), 320x240, and a few on a tall 200x400 window. */
#include "testutil.h"

#include "testimage.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char folder[] = "/tmp/skinview-test-teach-XXXXXX";

static TestImage shot(const char *name, const char *arguments)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    return test_screenshot(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", arguments, path);
}

static bool is_bone_green(const unsigned char *p) { return p[0] > 150 && p[1] > 225 && p[2] < 110; }
static bool is_magenta(const unsigned char *p) { return p[0] > 230 && p[1] > 40 && p[1] < 100 && p[2] > 215; }
static bool is_axis_red(const unsigned char *p) { return p[0] > 220 && p[1] < 90 && p[2] < 90; }
static bool is_axis_green(const unsigned char *p) { return p[1] > 220 && p[0] < 110 && p[2] < 110; }
static bool is_axis_blue(const unsigned char *p) { return p[2] > 220 && p[0] < 110 && p[1] > 110 && p[1] < 180; }
static bool is_viridis_yellow(const unsigned char *p) { return p[0] > 220 && p[1] > 200 && p[2] < 80; }
static bool is_viridis_purple(const unsigned char *p) { return p[0] > 55 && p[0] < 80 && p[1] < 20 && p[2] > 70 && p[2] < 100; }
static bool is_count_blue(const unsigned char *p) { return p[2] > 200 && p[0] < 100 && p[1] < 120; }
static bool is_count_green(const unsigned char *p) { return p[1] > 180 && p[0] < 110 && p[2] < 110; }
static bool is_cyan(const unsigned char *p) { return p[0] < 120 && p[1] > 190 && p[2] > 225; }
/* The aids' text: light grey to white and neutral. DejaVu is anti-aliased, so at the 11-pixel size of a
 * 320x240 window a glyph's stems are one or two partly covered pixels over the dark panel; the old
 * 6x8 bitmap font set whole pixels to white (> 225), which the TrueType text rarely reaches. */
static bool is_text_white(const unsigned char *p)
{
    return p[0] > 165 && p[1] > 165 && p[2] > 165 && abs(p[0] - p[2]) < 30 && abs(p[0] - p[1]) < 30;
}
static bool is_grid(const unsigned char *p) { return abs(p[0] - 98) < 22 && abs(p[1] - 104) < 22 && abs(p[2] - 114) < 22; }
static bool is_dark(const unsigned char *p) { return p[0] < 40 && p[1] < 40 && p[2] < 40; }

/* `name`: more than `least` pixels pass `test` with the flag, and at most `most_without` without. */
static void expect_feature(const char *name, const TestImage *with, const TestImage *without, TestPixel test, int least)
{
    int a = test_image_count(with, test), b = test_image_count(without, test);
    CHECK(a >= least && a >= 2 * b + least / 2, "%s: %d feature pixels with the flag, %d without (want >= %d)", name,
          a, b, least);
    printf("%-34s %6d feature pixels with the flag, %6d without\n", name, a, b);
}

/* The pictures of the Walk pose at 0.3 s with --no-grid and each aid's flags ("plain": none). */
enum { PLAIN, SKELETON, JOINT, AXES, AXES_ALL, NAMES, VALUES, WEIGHTS, INFLUENCES, WIREFRAME, NORMALS, PICTURES };
static const struct {
    const char *name, *flags;
} picture_flags[PICTURES] = {
    {"plain", ""},
    {"skeleton", "--show-skeleton"},
    {"joint", "--joint forearm.R"},
    {"axes", "--joint forearm.R --show-axes"},
    {"axes-all", "--show-axes all"},
    {"names", "--show-names"},
    {"values", "--joint forearm.R --joint-values"},
    {"weights", "--show-weights forearm.R"},
    {"influences", "--show-influences"},
    {"wireframe", "--wireframe"},
    {"normals", "--show-normals"},
};

/* Each feature: the picture with it against the one without, the feature's pixels, at least this many. */
static const struct {
    const char *what;
    int         with, without;
    TestPixel   test;
    int         least;
} features[] = {
    {"--show-skeleton", SKELETON, PLAIN, is_bone_green, 150},
    {"--show-skeleton halo", SKELETON, PLAIN, is_dark, 150},
    {"--joint forearm.R", JOINT, PLAIN, is_magenta, 15},
    {"--show-axes (x red)", AXES, JOINT, is_axis_red, 5},
    {"--show-axes (y green)", AXES, JOINT, is_axis_green, 5},
    {"--show-axes (z blue)", AXES, JOINT, is_axis_blue, 5},
    {"--show-axes all (x red)", AXES_ALL, AXES, is_axis_red, 40},
    {"--show-names", NAMES, PLAIN, is_text_white, 300},
    {"--joint-values", VALUES, JOINT, is_text_white, 300},
    {"--show-weights (weight 1: yellow)", WEIGHTS, PLAIN, is_viridis_yellow, 100},
    {"--show-weights (weight 0: purple)", WEIGHTS, PLAIN, is_viridis_purple, 1000},
    {"--show-influences (1: blue)", INFLUENCES, PLAIN, is_count_blue, 500},
    {"--show-influences (2: green)", INFLUENCES, PLAIN, is_count_green, 300},
    {"--show-normals", NORMALS, PLAIN, is_cyan, 500},
};

int main(void)
{
    if (!mkdtemp(folder)) return 1;
    const char *size = "--size 320x240 --clip Walk --time 0.3";
    char args[1024];

    TestImage pictures[PICTURES];
    for (int p = 0; p < PICTURES; p++) {
        snprintf(args, sizeof args, "%s --no-grid %s", size, picture_flags[p].flags);
        pictures[p] = shot(picture_flags[p].name, args);
    }
    TestImage *plain = &pictures[PLAIN];
    TestImage grid = shot("grid", size);   /* the grid is on by default */
    expect_feature("grid (default) vs --no-grid", &grid, plain, is_grid, 300);
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        expect_feature(features[i].what, &pictures[features[i].with], &pictures[features[i].without], features[i].test,
                       features[i].least);

    int wire_diff = test_image_differing(&pictures[WIREFRAME], plain);   /* edges darken the surface's pixels */
    CHECK(wire_diff > 1500, "--wireframe changes %d pixels of the surface", wire_diff);
    printf("%-34s %6d pixels differ from the plain picture\n", "--wireframe", wire_diff);

    /* skinning methods on the Twist clip's most twisted time */
    TestImage gpu = shot("twist-gpu", "--size 320x240 --clip Twist --time 0.75 --no-grid");
    TestImage cpu = shot("twist-cpu", "--size 320x240 --clip Twist --time 0.75 --no-grid --skinning cpu");
    TestImage dq = shot("twist-dq", "--size 320x240 --clip Twist --time 0.75 --no-grid --skinning dq");
    int total = 320 * 240, cpu_diff = test_image_differing(&gpu, &cpu), dq_diff = test_image_differing(&gpu, &dq);
    CHECK(cpu_diff >= 0 && cpu_diff < total / 200, "--skinning cpu == gpu: %d pixels differ (< 0.5 %%)", cpu_diff);
    CHECK(dq_diff > 40, "--skinning dq differs from gpu at the twisted elbow: %d pixels", dq_diff);
    printf("%-34s %6d pixels differ from gpu (cpu: %d)\n", "--skinning dq (Twist 0.75 s)", dq_diff, cpu_diff);

    /* --export-pose follows --skinning: cpu writes what gpu writes (the CPU LBS reference), dq
     * the CPU DQS reference, which differs at the twisted elbow */
    char objs[3][600], *texts[3] = {NULL, NULL, NULL};
    static const char *const methods[3] = {"gpu", "cpu", "dq"};
    for (int m = 0; m < 3; m++) {
        char command[2048], output[2048];
        snprintf(objs[m], sizeof objs[m], "%s/twist-%s.obj", folder, methods[m]);
        snprintf(command, sizeof command, "'%s' '%s' --clip Twist --time 0.75 --skinning %s --export-pose '%s' 2>&1",
                 SKINVIEW_BINARY, SKINVIEW_SOURCE_DIR "/assets/demo.fbx", methods[m], objs[m]);
        CHECK(test_run_capture(command, output, sizeof output) == 0, "--export-pose --skinning %s: %s", methods[m],
              output);
        texts[m] = test_read_file(objs[m], NULL);
    }
    CHECK(texts[0] && texts[1] && strcmp(texts[0], texts[1]) == 0, "--export-pose: cpu writes the same OBJ as gpu");
    CHECK(texts[0] && texts[2] && texts[2][0] && strcmp(texts[0], texts[2]) != 0, "--export-pose: dq writes another pose");
    for (int m = 0; m < 3; m++) free(texts[m]);

    /* pose source: bind and rest differ from the clip */
    TestImage bind = shot("bind", "--size 320x240 --clip bind --no-grid");
    int bind_diff = test_image_differing(&bind, plain);
    CHECK(bind_diff > 300, "--clip bind differs from Walk: %d pixels", bind_diff);

    /* a tall, narrow window: text and legend stay on screen, the skeleton is drawn */
    TestImage tall = shot("tall", "--size 200x400 --show-weights hand.L --show-skeleton --joint-values");
    CHECK(tall.width == 200 && tall.height == 400, "tall window size");
    expect_feature("tall: --show-skeleton", &tall, plain, is_bone_green, 50);
    expect_feature("tall: legend and values text", &tall, plain, is_text_white, 150);

    /* a joint that does not exist: one line, exit 2 */
    char output[4096], command[2048];
    snprintf(command, sizeof command, "'%s' '%s' --joint no_such_joint --screenshot %s/x.png 2>&1", SKINVIEW_BINARY,
             SKINVIEW_SOURCE_DIR "/assets/demo.fbx", folder);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 2 && strstr(output, "no joint named 'no_such_joint'") && strchr(output, '\n') == output + strlen(output) - 1,
          "unknown joint: exit %d, '%s'", code, output);

    for (int p = 0; p < PICTURES; p++) test_image_free(&pictures[p]);
    TestImage *others[] = {&grid, &gpu, &cpu, &dq, &bind, &tall};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) test_image_free(others[i]);
    test_remove_folder(folder);
    return test_finish();
}
