/* test_against — `skinview MODEL --against OTHER` (src/app/against.c) through the real binary:
 *   - a model against itself: 0 at every sampled time of every clip, exit 0;
 *   - one vertex moved: OBJ grids written here (4 x 4 points), the copy with vertex (1, 1, 0) raised by
 *     0.25: the report's worst distance is exactly 0.25 (of the 3 sqrt 2 diagonal: 0.0589), vertex
 *     paired by order; against a finer grid (7 x 7, every point of the first among them) with
 *     that vertex moved 0.2 along x: paired by nearest point, worst exactly 0.2; the finer grid in
 *     centimetres (x 100): still paired (box fit), the hint names the 100x ratio;
 *   - demo.fbx against demo.glb: equal totals, 896 vertices listed in another order re-paired, every
 *     clip within 1e-5 of the diagonal; MODEL skinned rigidly against OTHER's LBS: above the default
 *     tolerance, exit 1; --tolerance 1e-9 fails the demo against its GLB;
 *   - ../shared (skipped when absent): three.js's mixamo.fbx against Xbot.glb, the same character as
 *     FBX (centimetres) and GLB (metres), meshes in the other order: paired by order with re-pairing,
 *     the clip paired by index, the hint names the ~0.01x ratio;
 *   - --screenshot: with --against the surface is the heat map (dark viridis at 0); against itself
 *     nothing bright below the legend, the rigid skin against LBS lights up the joints;
 *   - bad use: one line on stderr and exit 2 (flags) or 1 (files): --report / --tolerance without
 *     --against, --against with --compare, --report with --screenshot, a missing OTHER, another
 *     skeleton, no clip in common, vertex totals too far apart; a refused screenshot writes no PNG. */
#include "testimage.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static char folder[] = "/tmp/skinview-test-against-XXXXXX";
static char output[1 << 16];

/* A flat n x n grid of points spaced `step` (x, y in [0, (n - 1) step], z 0), scaled by `scale`,
 * triangulated; point (mx, my) moved by (dx, 0, dz) (mx < 0: none). */
static void write_grid(const char *name, int n, float step, float scale, int mx, int my, float dx, float dz)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "write %s", path);
    if (!f) return;
    fprintf(f, "o grid\n");
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            bool moved = x == mx && y == my;
            fprintf(f, "v %.9g %.9g %.9g\n", scale * (x * step + (moved ? dx : 0.0f)), scale * (y * step),
                    scale * (moved ? dz : 0.0f));
        }
    for (int y = 0; y + 1 < n; y++)
        for (int x = 0; x + 1 < n; x++) {
            int a = y * n + x + 1, b = a + 1, c = a + n, d = c + 1;
            fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c);
        }
    fclose(f);
}

/* Runs skinview with `arguments` (stderr too) into output[]; the exit code. */
static int skinview(const char *arguments)
{
    char command[4096];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>&1", folder, SKINVIEW_BINARY, arguments);
    return test_run_capture(command, output, sizeof output);
}

static int line_count(const char *text)
{
    int n = 0;
    for (const char *c = text; *c; c++) n += *c == '\n';
    return n;
}

/* The worst distance of the first report line starting with `label`, or -1. */
static double worst_of(const char *label)
{
    const char *line = strstr(output, label);
    const char *worst = line ? strstr(line, "worst ") : NULL;
    return worst ? atof(worst + 6) : -1.0;
}

static void test_exact_distances(void)
{
    write_grid("grid.obj", 4, 1.0f, 1.0f, -1, -1, 0.0f, 0.0f);
    write_grid("raised.obj", 4, 1.0f, 1.0f, 1, 1, 0.0f, 0.25f);
    write_grid("fine.obj", 7, 0.5f, 1.0f, 2, 2, 0.2f, 0.0f);   /* point (1, 1) of the coarse grid moved 0.2 in x */
    write_grid("fine-cm.obj", 7, 0.5f, 100.0f, -1, -1, 0.0f, 0.0f);

    int code = skinview("grid.obj --against grid.obj --report");
    CHECK(code == 0 && worst_of("bind pose") == 0.0 && worst_of("rest pose") == 0.0,
          "a grid against itself: 0, exit 0 (exit %d): %s", code, output);

    code = skinview("grid.obj --against raised.obj --report");
    printf("grid against raised vertex:\n%s", output);
    CHECK(code == 1, "one vertex 0.25 away (0.0589 of the diagonal > 1e-3): exit 1, got %d", code);
    CHECK(strstr(output, "vertices paired by order (16)") != NULL, "equal totals pair by order: %s", output);
    CHECK(worst_of("bind pose") == 0.25 && worst_of("rest pose") == 0.25, "worst exactly 0.25: %g, %g",
          worst_of("bind pose"), worst_of("rest pose"));
    CHECK(strstr(output, "worst 0.25 = 0.0589 of the diagonal") != NULL, "0.25 / (3 sqrt 2) = 0.0589: %s", output);
    CHECK(strstr(output, "mean 0.01562 ") != NULL, "mean: one vertex of 16 at 0.25 = 0.015625: %s", output);
    code = skinview("grid.obj --against raised.obj --report --tolerance 0.06");
    CHECK(code == 0, "--tolerance 0.06 > 0.0589: exit 0, got %d: %s", code, output);

    code = skinview("grid.obj --against fine.obj --report");
    printf("grid against a finer grid:\n%s", output);
    CHECK(strstr(output, "vertices paired by nearest point at the bind pose (16 against 49") != NULL,
          "16 against 49 vertices: nearest point: %s", output);
    CHECK(fabs(worst_of("bind pose") - 0.2) < 1e-6, "the moved vertex: worst 0.2 (%g)", worst_of("bind pose"));

    code = skinview("grid.obj --against fine-cm.obj --report");
    CHECK(strstr(output, "paired by nearest point") && strstr(output, "hint: its bounding box is 100x the model's"),
          "another unit: still paired, the hint says 100x: %s", output);
    CHECK(code == 1 && worst_of("bind pose") > 100.0, "the distance stays the honest one in MODEL's units (%g)",
          worst_of("bind pose"));
}

static void test_demo(void)
{
    const char *demo = SKINVIEW_SOURCE_DIR "/assets/demo.fbx", *glb = SKINVIEW_SOURCE_DIR "/assets/demo.glb";
    char arguments[2048];
    snprintf(arguments, sizeof arguments, "'%s' --against '%s' --report", demo, demo);
    int code = skinview(arguments);
    CHECK(code == 0, "the demo against itself: exit 0, got %d: %s", code, output);
    int zero_rows = 0;
    for (const char *at = output; (at = strstr(at, "times, worst 0 = 0 of the diagonal")); at++) zero_rows++;
    CHECK(zero_rows == 4, "every one of the 4 clips at 0: %d rows: %s", zero_rows, output);

    snprintf(arguments, sizeof arguments, "'%s' --against '%s' --report", demo, glb);
    code = skinview(arguments);
    printf("demo.fbx against demo.glb:\n%s", output);
    CHECK(code == 0, "demo.fbx against demo.glb: exit 0, got %d", code);
    CHECK(strstr(output, "vertices paired by order (7414), but 896 listed in another order") != NULL,
          "896 vertices in another order re-paired: %s", output);
    const char *clips[4] = {"\"Idle\"", "\"Walk\"", "\"Wave\"", "\"Twist\""};
    for (int c = 0; c < 4; c++) {
        double worst = worst_of(clips[c]);
        CHECK(worst >= 0.0 && worst < 1e-5 * 2.88311, "%s within 1e-5 of the diagonal: %g", clips[c], worst);
    }
    snprintf(arguments, sizeof arguments, "'%s' --against '%s' --report --tolerance 1e-9", demo, glb);
    CHECK(skinview(arguments) == 1 && strstr(output, "FAILED"), "--tolerance 1e-9: exit 1: %s", output);
    snprintf(arguments, sizeof arguments, "'%s' --against '%s' --report --skinning rigid --clip Walk", demo, glb);
    code = skinview(arguments);
    printf("rigid demo.fbx against demo.glb (LBS), Walk:\n%s", output);
    CHECK(code == 1 && worst_of("\"Walk\"") > 1e-3 * 2.88311, "the rigid skin against LBS: above 1e-3, exit 1 (%d)", code);
    CHECK(strstr(output, "over 1 row") != NULL, "--clip: that clip only");
}

static void test_shared_pair(void)
{
    char fbx[1024], glb[1024], arguments[2400];
    snprintf(fbx, sizeof fbx, "%s/threejs-mixamo-fbx/mixamo.fbx", SKINVIEW_SHARED_MODELS_DIR);
    snprintf(glb, sizeof glb, "%s/threejs-xbot/Xbot.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (!test_file_exists(fbx) || !test_file_exists(glb)) {
        printf("skipped: %s / %s absent (../shared)\n", fbx, glb);
        return;
    }
    snprintf(arguments, sizeof arguments, "'%s' --against '%s' --report", fbx, glb);
    int code = skinview(arguments);
    printf("mixamo.fbx against Xbot.glb:\n%s", output);
    CHECK(strstr(output, "vertices paired by order (28374), but") != NULL, "equal totals, meshes in another order: %s",
          output);
    const char *hint = strstr(output, "hint: its bounding box is ");
    double ratio = hint ? atof(hint + strlen("hint: its bounding box is ")) : 0.0;
    CHECK(ratio > 0.009 && ratio < 0.011, "metres against centimetres: the hint says ~0.01x (%g)", ratio);
    CHECK(strstr(output, "clip 0 \"mixamo.com\" -> 0 \"agree\"") != NULL, "no name in common: clip 0 by index");
    CHECK(code == 1, "another animation in another unit: exit 1, got %d", code);
}

static TestImage shot(const char *name, const char *arguments)
{
    char path[512], all[4096];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(all, sizeof all, "--size 640x480 --no-grid --clip Walk --time 0.3 %s", arguments);
    return test_screenshot(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", all, path);
}

static bool is_viridis_dark(const unsigned char *p) { return p[0] > 30 && p[0] < 90 && p[1] < 40 && p[2] > 45 && p[2] < 110; }
/* the map above its dark end: teal, green, yellow (viridis from about 0.3 up) */
static bool is_viridis_bright(const unsigned char *p) { return p[1] > 90 && p[1] > p[0] + 20; }

/* Pixels passing `test` below the top quarter (where the legend is). */
static int count(const TestImage *image, bool (*test)(const unsigned char *))
{
    int n = 0;
    for (int y = image->height / 4; image->rgba && y < image->height; y++)
        for (int x = 0; x < image->width; x++) n += test(image->rgba + 4 * ((size_t)y * image->width + x));
    return n;
}

static void test_screenshots(void)
{
    char demo_glb[1024], arguments[2048];
    snprintf(demo_glb, sizeof demo_glb, "%s/assets/demo.glb", SKINVIEW_SOURCE_DIR);
    TestImage plain = shot("plain", "");
    snprintf(arguments, sizeof arguments, "--against '%s'", demo_glb);
    TestImage same = shot("same", arguments);
    snprintf(arguments, sizeof arguments, "--against '%s' --skinning rigid", demo_glb);
    TestImage rigid = shot("rigid", arguments);
    int plain_dark = count(&plain, is_viridis_dark), same_dark = count(&same, is_viridis_dark);
    int same_bright = count(&same, is_viridis_bright), rigid_bright = count(&rigid, is_viridis_bright);
    printf("screenshots: dark viridis %d (plain) / %d (against demo.glb); bright %d (against demo.glb) / %d (rigid against LBS)\n",
           plain_dark, same_dark, same_bright, rigid_bright);
    CHECK(same_dark > 8000 && plain_dark < 100, "--against: the surface is the heat map, dark at 0 (%d vs %d)", same_dark,
          plain_dark);
    CHECK(same_bright < 20, "the same character: nothing bright below the legend (%d)", same_bright);
    CHECK(rigid_bright > 20, "rigid against LBS: the joints light up (%d)", rigid_bright);
    free(plain.rgba);
    free(same.rgba);
    free(rigid.rgba);
}

/* `arguments` is refused with exit `expected` and exactly one line. */
static void refused(const char *arguments, int expected, const char *words)
{
    int code = skinview(arguments);
    CHECK(code == expected && line_count(output) == 1 && strstr(output, words),
          "%s: exit %d (want %d), one line with '%s': %s", arguments, code, expected, words, output);
}

static void test_bad_use(void)
{
    char demo[1024], arguments[2400];
    snprintf(demo, sizeof demo, "'%s/assets/demo.fbx'", SKINVIEW_SOURCE_DIR);
    /* ARGUMENTS (%s: the demo), the exit code, words of the message */
    static const struct {
        const char *arguments;
        int         code;
        const char *words;
    } refusals[] = {
        {"%s --report", 2, "--report only goes with --against"},
        {"%s --against grid.obj --tolerance 0.1", 2, "--tolerance is --report's limit"},
        {"%s --against grid.obj --compare lbs,dq --screenshot x.png", 2, "--compare"},
        {"%s --against grid.obj --report --screenshot x.png", 2, "--report prints numbers"},
        {"%s --against nosuch.glb --report", 1, "nosuch.glb"},
        {"%s --against grid.obj --report", 1, "no clip in common"},
        {"grid.obj --against %s --report", 1, "too different to pair"},
        {"%s --against grid.obj --screenshot refused.png", 1, "no clip in common"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        snprintf(arguments, sizeof arguments, refusals[i].arguments, demo);
        refused(arguments, refusals[i].code, refusals[i].words);
    }
    snprintf(arguments, sizeof arguments, "%s --against '%s/X/anim_test.x' --report", demo, SKINVIEW_TESTMODELS_DIR);
    refused(arguments, 1, "another skeleton");
    char png[600];
    snprintf(png, sizeof png, "%s/refused.png", folder);
    CHECK(!test_file_exists(png), "a refused --against screenshot writes nothing");
}

int main(void)
{
    if (!mkdtemp(folder)) {
        fprintf(stderr, "cannot make %s\n", folder);
        return 1;
    }
    test_exact_distances();
    test_demo();
    test_shared_pair();
    test_screenshots();
    test_bad_use();
    test_remove_folder(folder);
    return test_finish();
}
