/* test_teach_flags.c — every flag of the teaching aids, through the real binary's --screenshot,
 * shows its feature: each picture is compared with the same pose without the flag and the
 * pixels of the feature's own colours are counted (not just exit 0).
 * The demo character (assets/demo.fbx), 320x240, and a few on a tall 200x400 window. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char folder[] = "/tmp/skinview-test-teach-XXXXXX";

typedef struct Image {
    int width, height;
    unsigned char *rgba;
} Image;

static Image shot(const char *name, const char *arguments)
{
    Image image = {0, 0, NULL};
    char path[512], command[4096], output[4096];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(command, sizeof command, "'%s' '%s' %s --screenshot '%s' 2>&1", SKINVIEW_BINARY,
             SKINVIEW_SOURCE_DIR "/assets/demo.fbx", arguments, path);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "%s: exit %d: %s", arguments, code, output);
    if (code != 0) return image;
    int channels;
    image.rgba = stbi_load(path, &image.width, &image.height, &channels, 4);
    CHECK(image.rgba != NULL, "%s decodes", path);
    return image;
}

typedef bool (*PixelTest)(const unsigned char *p);

static int count(const Image *image, PixelTest test)
{
    int n = 0;
    for (int i = 0; image->rgba && i < image->width * image->height; i++) n += test(image->rgba + 4 * i);
    return n;
}

/* Pixels that differ by more than 24/255 in some channel. */
static int differing(const Image *a, const Image *b)
{
    if (!a->rgba || !b->rgba || a->width != b->width || a->height != b->height) return -1;
    int n = 0;
    for (int i = 0; i < a->width * a->height; i++)
        for (int c = 0; c < 3; c++)
            if (abs((int)a->rgba[4 * i + c] - (int)b->rgba[4 * i + c]) > 24) {
                n++;
                break;
            }
    return n;
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
static void expect_feature(const char *name, const Image *with, const Image *without, PixelTest test, int least)
{
    int a = count(with, test), b = count(without, test);
    CHECK(a >= least && a >= 2 * b + least / 2, "%s: %d feature pixels with the flag, %d without (want >= %d)", name,
          a, b, least);
    printf("%-34s %6d feature pixels with the flag, %6d without\n", name, a, b);
}

int main(void)
{
    if (!mkdtemp(folder)) return 1;
    const char *size = "--size 320x240 --clip Walk --time 0.3";
    char args[1024];

    snprintf(args, sizeof args, "%s --no-grid", size);
    Image plain = shot("plain", args);
    Image grid = shot("grid", size);   /* the grid is on by default */
    expect_feature("grid (default) vs --no-grid", &grid, &plain, is_grid, 300);

    snprintf(args, sizeof args, "%s --no-grid --show-skeleton", size);
    Image skeleton = shot("skeleton", args);
    expect_feature("--show-skeleton", &skeleton, &plain, is_bone_green, 150);
    expect_feature("--show-skeleton halo", &skeleton, &plain, is_dark, 150);

    snprintf(args, sizeof args, "%s --no-grid --joint forearm.R", size);
    Image joint = shot("joint", args);
    expect_feature("--joint forearm.R", &joint, &plain, is_magenta, 15);

    snprintf(args, sizeof args, "%s --no-grid --joint forearm.R --show-axes", size);
    Image axes = shot("axes", args);
    expect_feature("--show-axes (x red)", &axes, &joint, is_axis_red, 5);
    expect_feature("--show-axes (y green)", &axes, &joint, is_axis_green, 5);
    expect_feature("--show-axes (z blue)", &axes, &joint, is_axis_blue, 5);
    snprintf(args, sizeof args, "%s --no-grid --show-axes all", size);
    Image all_axes = shot("axes-all", args);
    expect_feature("--show-axes all (x red)", &all_axes, &axes, is_axis_red, 40);

    snprintf(args, sizeof args, "%s --no-grid --show-names", size);
    Image names = shot("names", args);
    expect_feature("--show-names", &names, &plain, is_text_white, 300);

    snprintf(args, sizeof args, "%s --no-grid --joint forearm.R --joint-values", size);
    Image values = shot("values", args);
    expect_feature("--joint-values", &values, &joint, is_text_white, 300);

    snprintf(args, sizeof args, "%s --no-grid --show-weights forearm.R", size);
    Image weights = shot("weights", args);
    expect_feature("--show-weights (weight 1: yellow)", &weights, &plain, is_viridis_yellow, 100);
    expect_feature("--show-weights (weight 0: purple)", &weights, &plain, is_viridis_purple, 1000);

    snprintf(args, sizeof args, "%s --no-grid --show-influences", size);
    Image influences = shot("influences", args);
    expect_feature("--show-influences (1: blue)", &influences, &plain, is_count_blue, 500);
    expect_feature("--show-influences (2: green)", &influences, &plain, is_count_green, 300);

    snprintf(args, sizeof args, "%s --no-grid --wireframe", size);
    Image wire = shot("wireframe", args);
    int wire_diff = differing(&wire, &plain);   /* edges darken the surface's pixels */
    CHECK(wire_diff > 1500, "--wireframe changes %d pixels of the surface", wire_diff);
    printf("%-34s %6d pixels differ from the plain picture\n", "--wireframe", wire_diff);

    snprintf(args, sizeof args, "%s --no-grid --show-normals", size);
    Image normals = shot("normals", args);
    expect_feature("--show-normals", &normals, &plain, is_cyan, 500);

    /* skinning methods on the Twist clip's most twisted time */
    Image gpu = shot("twist-gpu", "--size 320x240 --clip Twist --time 0.75 --no-grid");
    Image cpu = shot("twist-cpu", "--size 320x240 --clip Twist --time 0.75 --no-grid --skinning cpu");
    Image dq = shot("twist-dq", "--size 320x240 --clip Twist --time 0.75 --no-grid --skinning dq");
    int total = 320 * 240, cpu_diff = differing(&gpu, &cpu), dq_diff = differing(&gpu, &dq);
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
        FILE *file = fopen(objs[m], "rb");
        if (!file) continue;
        fseek(file, 0, SEEK_END);
        long length = ftell(file);
        fseek(file, 0, SEEK_SET);
        texts[m] = calloc((size_t)length + 1, 1);
        if (texts[m] && fread(texts[m], 1, (size_t)length, file) != (size_t)length) texts[m][0] = '\0';
        fclose(file);
    }
    CHECK(texts[0] && texts[1] && strcmp(texts[0], texts[1]) == 0, "--export-pose: cpu writes the same OBJ as gpu");
    CHECK(texts[0] && texts[2] && texts[2][0] && strcmp(texts[0], texts[2]) != 0, "--export-pose: dq writes another pose");
    for (int m = 0; m < 3; m++) free(texts[m]);

    /* pose source: bind and rest differ from the clip */
    Image bind = shot("bind", "--size 320x240 --clip bind --no-grid");
    CHECK(differing(&bind, &plain) > 300, "--clip bind differs from Walk: %d pixels", differing(&bind, &plain));

    /* a tall, narrow window: text and legend stay on screen, the skeleton is drawn */
    Image tall = shot("tall", "--size 200x400 --show-weights hand.L --show-skeleton --joint-values");
    CHECK(tall.width == 200 && tall.height == 400, "tall window size");
    expect_feature("tall: --show-skeleton", &tall, &plain, is_bone_green, 50);
    expect_feature("tall: legend and values text", &tall, &plain, is_text_white, 150);

    /* a joint that does not exist: one line, exit 2 */
    char output[4096], command[2048];
    snprintf(command, sizeof command, "'%s' '%s' --joint no_such_joint --screenshot %s/x.png 2>&1", SKINVIEW_BINARY,
             SKINVIEW_SOURCE_DIR "/assets/demo.fbx", folder);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 2 && strstr(output, "no joint named 'no_such_joint'") && strchr(output, '\n') == output + strlen(output) - 1,
          "unknown joint: exit %d, '%s'", code, output);

    Image *all[] = {&plain, &grid, &skeleton, &joint, &axes, &all_axes, &names, &values, &weights, &influences,
                    &wire, &normals, &gpu, &cpu, &dq, &bind, &tall};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) stbi_image_free(all[i]->rgba);
    if (!getenv("SKINVIEW_KEEP_TEST_FILES")) {
        char clean[600];
        snprintf(clean, sizeof clean, "rm -rf '%s'", folder);
        if (system(clean) != 0) fprintf(stderr, "could not remove %s\n", folder);
    } else {
        printf("pictures kept in %s\n", folder);
    }
    return test_finish();
}
