/* test_source_rig.c — the source rig beside the character (issue 28; src/teach/source_rig.c, key
 * Shift+B, --show-source-rig): a CMU take (BVH/01_01.bvh: another skeleton, inches, 20-degree splayed
 * rest legs) on Xbot.glb, screenshots read back:
 *   - with --show-source-rig the rig's blue bones are drawn, to the right of the character on
 *     screen, in the front view and in the side view (it stands along the camera's right);
 *   - at the character's size and on its ground: in the front view the rig's lowest pixel is within
 *     12 % of the character's height of the character's, its highest within 15 % (the hip height
 *     ratio k scales it; CMU's trunk and head are shorter for its legs than Xbot's: 21 of 174 rows);
 *   - without the flag, and with it on a clip of the character's own, no rig is drawn;
 *   - Shift+B toggles it, B alone still toggles the skeleton (the key table).
 * Skips when ../shared is absent. */
#include "testutil.h"
#include "view/keys.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XBOT SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb"
#define BVH SKINVIEW_TESTMODELS_DIR "/BVH/01_01.bvh"

static char folder[] = "/tmp/skinview-test-source-rig-XXXXXX";
static char output[1 << 16];

typedef struct Image {
    int width, height;
    unsigned char *rgba;
} Image;

/* The rig's colour, source_rig_color {0.25, 0.65, 1.0}, within the line shader's smoothing. */
static bool is_rig(const unsigned char *p) { return p[2] > 200 && p[0] < 110 && p[1] > 120 && p[1] < 200; }
/* Xbot's surface under the default light: salmon (red well above green and blue). */
static bool is_character(const unsigned char *p) { return p[0] > 120 && p[0] > p[1] + 40 && p[0] > p[2] + 40; }

typedef struct Region {
    int count;
    double mean_x;
    int top, bottom;
} Region;

static Region measure(const Image *image, bool (*test)(const unsigned char *))
{
    Region r = {0, 0.0, image->height, -1};
    for (int y = 0; image->rgba && y < image->height; y++)
        for (int x = 0; x < image->width; x++)
            if (test(image->rgba + 4 * ((size_t)y * image->width + x))) {
                r.count++;
                r.mean_x += x;
                if (y < r.top) r.top = y;
                if (y > r.bottom) r.bottom = y;
            }
    if (r.count) r.mean_x /= r.count;
    return r;
}

static Image shot(const char *name, const char *arguments)
{
    Image image = {0, 0, NULL};
    char command[4096], path[512];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(command, sizeof command, "'%s' '%s' --animations '%s' --size 960x540 --no-grid %s --screenshot '%s' 2>&1",
             SKINVIEW_BINARY, XBOT, BVH, arguments, path);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "%s: exit %d: %s", arguments, code, output);
    int channels;
    if (code == 0) image.rgba = stbi_load(path, &image.width, &image.height, &channels, 4);
    CHECK(code != 0 || image.rgba != NULL, "%s decodes", path);
    return image;
}

int main(void)
{
    if (!test_file_exists(XBOT) || !test_file_exists(BVH)) {
        printf("../shared models or assimp-testmodels absent: skipped\n");
        return TEST_SKIP_CODE;
    }
    /* the keys: Shift+B the rig, B the skeleton */
    CHECK(keys_action(GLFW_KEY_B, GLFW_MOD_SHIFT, KEY_MODE_SKINNED).kind == ACTION_TOGGLE_SOURCE_RIG, "Shift+B: source rig");
    CHECK(keys_action(GLFW_KEY_B, 0, KEY_MODE_SKINNED).kind == ACTION_TOGGLE_SKELETON, "B: skeleton");
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    Image front = shot("front", "--clip 01_01 --time 3 --view front --show-source-rig");
    Image side = shot("side", "--clip 01_01 --time 3 --view right --show-source-rig");
    Image plain = shot("plain", "--clip 01_01 --time 3 --view front");
    Image own = shot("own", "--clip 0 --time 0.5 --view front --show-source-rig");   /* Xbot's own first clip */

    Region rig = measure(&front, is_rig), body = measure(&front, is_character);
    printf("front: rig %d pixels, mean x %.0f, rows %d..%d; character %d pixels, mean x %.0f, rows %d..%d\n", rig.count,
           rig.mean_x, rig.top, rig.bottom, body.count, body.mean_x, body.top, body.bottom);
    CHECK(rig.count > 400, "front: the rig is drawn (%d pixels)", rig.count);
    CHECK(body.count > 2000, "front: the character is drawn (%d pixels)", body.count);
    CHECK(rig.mean_x > body.mean_x + 0.05 * front.width, "front: the rig stands right of the character (%.0f vs %.0f)",
          rig.mean_x, body.mean_x);
    double height = body.bottom - body.top;
    CHECK(height > 50, "front: the character is %g pixels tall", height);
    CHECK(abs(rig.bottom - body.bottom) < 0.12 * height, "front: the rig stands on the character's ground (lowest rows %d, %d)",
          rig.bottom, body.bottom);
    CHECK(abs(rig.top - body.top) < 0.15 * height, "front: the rig is the character's size (top rows %d, %d)", rig.top,
          body.top);

    Region rig_side = measure(&side, is_rig), body_side = measure(&side, is_character);
    printf("side: rig %d pixels, mean x %.0f; character %d pixels, mean x %.0f\n", rig_side.count, rig_side.mean_x,
           body_side.count, body_side.mean_x);
    CHECK(rig_side.count > 400, "side: the rig is drawn (%d pixels)", rig_side.count);
    CHECK(rig_side.mean_x > body_side.mean_x + 0.05 * side.width, "side: the rig stands right of the character on screen");

    Region none = measure(&plain, is_rig), none_own = measure(&own, is_rig);
    printf("without the flag: %d rig pixels; on Xbot's own clip: %d\n", none.count, none_own.count);
    CHECK(none.count < 20, "without --show-source-rig no rig (%d pixels)", none.count);
    CHECK(none_own.count < 20, "a clip of the character's own has no source rig (%d pixels)", none_own.count);

    free(front.rgba), free(side.rgba), free(plain.rgba), free(own.rgba);
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
