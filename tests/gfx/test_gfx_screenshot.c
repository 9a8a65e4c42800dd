/* test_gfx_screenshot.c — `skinview MODEL --screenshot OUT.png --size WxH` end to end:
 * the PNG decodes at the requested size, the model covers a sane share of the picture,
 * two times of an animated clip differ, textures show (and upright), the no-X path
 * (DISPLAY unset: EGL surfaceless) works, and bad input fails with one line. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 320
#define H 240

static char folder[] = "/tmp/skinview-test-gfx-XXXXXX";

/* Runs `[env_prefix] skinview 'model' arguments`; returns the exit code, output in out. */
static int run(const char *env_prefix, const char *model_path, const char *arguments, char *out, size_t out_size)
{
    char command[4096];
    snprintf(command, sizeof command, "%s '%s' '%s' %s 2>&1", env_prefix, SKINVIEW_BINARY, model_path, arguments);
    return test_run_capture(command, out, out_size);
}

typedef struct Image {
    int width, height;
    unsigned char *rgba;
} Image;

/* Renders `model` with extra arguments into folder/name.png and decodes it (rgba NULL on failure). */
static Image screenshot(const char *env_prefix, const char *model_path, const char *extra, const char *name)
{
    Image image = {0, 0, NULL};
    char path[512], arguments[1024], output[4096];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(arguments, sizeof arguments, "--screenshot '%s' --size %dx%d %s", path, W, H, extra);
    int code = run(env_prefix, model_path, arguments, output, sizeof output);
    CHECK(code == 0, "%s %s: exit %d: %s", model_path, arguments, code, output);
    if (code != 0) return image;
    int channels = 0;
    image.rgba = stbi_load(path, &image.width, &image.height, &channels, 4);
    CHECK(image.rgba != NULL, "%s: PNG decodes", path);
    CHECK(image.width == W && image.height == H, "%s: size %dx%d, asked %dx%d", path, image.width, image.height, W,
          H);
    if (image.width != W || image.height != H) {
        stbi_image_free(image.rgba);
        image.rgba = NULL;
    }
    return image;
}

static bool differs(const unsigned char *a, const unsigned char *b, int threshold)
{
    for (int c = 0; c < 3; c++)
        if (abs((int)a[c] - (int)b[c]) > threshold) return true;
    return false;
}

/* Share of pixels that differ from the background (the top-left pixel). */
static double coverage(const Image *image)
{
    int covered = 0;
    for (int i = 0; i < W * H; i++) covered += differs(image->rgba + 4 * i, image->rgba, 6);
    return (double)covered / (W * H);
}

/* Share of pixels that differ between two images. */
static double difference(const Image *a, const Image *b)
{
    int count = 0;
    for (int i = 0; i < W * H; i++) count += differs(a->rgba + 4 * i, b->rgba + 4 * i, 24);
    return (double)count / (W * H);
}

static void check_coverage(const Image *image, const char *what)
{
    if (!image->rgba) return;
    double share = coverage(image);
    CHECK(share >= 0.01 && share <= 0.90, "%s: the model covers %.1f%% of the picture", what, 100.0 * share);
    printf("%s: covers %.1f%%\n", what, 100.0 * share);
}

/* Pixels where `test` holds. */
static int count_pixels(const Image *image, bool (*test)(const unsigned char *))
{
    int n = 0;
    for (int i = 0; i < W * H; i++) n += test(image->rgba + 4 * i);
    return n;
}
static bool is_orange(const unsigned char *p) { return p[0] > p[1] + 40 && p[1] > p[2] + 20; }
static bool is_blue(const unsigned char *p) { return p[2] > p[0] + 40 && p[2] > p[1]; }
static bool is_green(const unsigned char *p) { return p[1] > p[0] + 20 && p[1] > p[2]; }

int main(void)
{
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    const char *models_dir = SKINVIEW_TESTMODELS_DIR;
    char huesitos[1024], epileptic[1024], anim_test[1024], box[1024], engine[1024];
    snprintf(huesitos, sizeof huesitos, "%s/FBX/huesitos.fbx", models_dir);
    snprintf(epileptic, sizeof epileptic, "%s/X/BCN_Epileptic.X", models_dir);
    snprintf(anim_test, sizeof anim_test, "%s/X/anim_test.x", models_dir);
    snprintf(box, sizeof box, "%s/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", models_dir);
    snprintf(engine, sizeof engine, "%s/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", models_dir);

    /* skinned, animated: two times of the clip differ */
    Image a = screenshot("", huesitos, "--time 0", "huesitos-0");
    Image b = screenshot("", huesitos, "--clip 0 --time 0.8", "huesitos-0.8");
    check_coverage(&a, "huesitos t=0");
    check_coverage(&b, "huesitos t=0.8");
    if (a.rgba && b.rgba)
        CHECK(difference(&a, &b) > 0.002, "huesitos: t=0 and t=0.8 differ in %.2f%% of the pixels",
              100.0 * difference(&a, &b));

    /* the same picture with no X server: EGL surfaceless */
    Image egl = screenshot("env -u DISPLAY -u WAYLAND_DISPLAY", huesitos, "--time 0", "huesitos-egl");
    check_coverage(&egl, "huesitos t=0 (EGL surfaceless)");
    if (a.rgba && egl.rgba)
        CHECK(difference(&a, &egl) < 0.02, "EGL and window pictures agree (%.2f%% differ)", 100.0 * difference(&a, &egl));

    Image x = screenshot("", epileptic, "--time 0.5", "epileptic");
    check_coverage(&x, "BCN_Epileptic.X");
    Image y = screenshot("", anim_test, "--clip bind", "anim-test-bind");
    check_coverage(&y, "anim_test.x bind pose");
    Image z = screenshot("", engine, "", "engine");   /* static meshes placed by their nodes */
    check_coverage(&z, "2CylinderEngine (static)");

    /* textured, upright: the Cesium logo's sky (blue) above its ground (green) */
    Image t = screenshot("", box, "", "box");
    check_coverage(&t, "BoxTextured");
    if (t.rgba) {   /* mean row of the sky pixels above the mean row of the ground pixels */
        double blue_rows = 0.0, green_rows = 0.0;
        long blue = 0, green = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const unsigned char *p = t.rgba + 4 * (W * y + x);
                if (is_blue(p)) { blue_rows += y; blue++; }
                if (is_green(p)) { green_rows += y; green++; }
            }
        CHECK(blue > W * H / 100 && green > W * H / 100, "BoxTextured: sky (%ld px) and ground (%ld px) visible", blue,
              green);
        if (blue > 0 && green > 0)
            CHECK(blue_rows / blue < green_rows / green, "BoxTextured: sky (row %.0f) above ground (row %.0f)",
                  blue_rows / blue, green_rows / green);
    }

    /* optional: ../shared/models */
    char fox[1024], cesium[1024];
    snprintf(fox, sizeof fox, "%s/khronos-fox/Fox.glb", SKINVIEW_SHARED_MODELS_DIR);
    snprintf(cesium, sizeof cesium, "%s/khronos-cesiumman/cesium_man.gltf", SKINVIEW_SHARED_MODELS_DIR);
    Image fox0 = {0}, fox1 = {0}, man = {0};
    if (test_file_exists(fox)) {
        fox0 = screenshot("", fox, "--clip 2 --time 0", "fox-0");
        fox1 = screenshot("", fox, "--clip 2 --time 0.3", "fox-0.3");
        check_coverage(&fox0, "Fox run t=0");
        if (fox0.rgba && fox1.rgba) {
            CHECK(difference(&fox0, &fox1) > 0.002, "Fox: two times differ");
            CHECK(count_pixels(&fox0, is_orange) > W * H / 200, "Fox: its texture shows (orange fur)");
        }
    }
    if (test_file_exists(cesium)) {
        man = screenshot("", cesium, "--time 0.5", "cesium-man");
        check_coverage(&man, "CesiumMan");
        if (man.rgba) CHECK(count_pixels(&man, is_blue) > 50, "CesiumMan: its texture shows (blue stripes)");
    }

    /* failures: one line, exit codes of the man page (docs/skinview.1.md) */
    char output[4096];
    int code = run("", huesitos, "--screenshot /nonexistent-folder/out.png --size 64x64", output, sizeof output);
    CHECK(code == 1 && strstr(output, "/nonexistent-folder/out.png") && strstr(output, "cannot write"),
          "unwritable output: exit %d: %s", code, output);
    code = run("", huesitos, "--screenshot /tmp/never.png --clip no-such-clip", output, sizeof output);
    CHECK(code == 2 && strstr(output, "no-such-clip"), "unknown clip: exit %d: %s", code, output);
    code = run("", SKINVIEW_SOURCE_DIR "/CMakeLists.txt", "--screenshot /tmp/never.png", output, sizeof output);
    CHECK(code == 1 && strncmp(output, "skinview: ", 10) == 0, "not a model: exit %d: %s", code, output);

    Image *images[] = {&a, &b, &egl, &x, &y, &z, &t, &fox0, &fox1, &man};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++) stbi_image_free(images[i]->rgba);
    test_remove_folder(folder);
    return test_finish();
}
