/* test_export_gltf_screenshot — what a user sees: the same picture from MODEL and from its --export-gltf GLB.
 * For the bundled demo (FBX) and, when ../shared is there, Fox (glTF) and Male_Casual (FBX, centimetres:
 * the GLB is in metres, the view frames it the same), both files are rendered with
 *   skinview FILE --clip 1 --time 0.4 --no-grid --screenshot OUT.png --size 320x240
 * (the grid is left out: its spacing follows the scene unit) and at most 0.5 % of the pixels may differ by
 * more than 8 of 255 in a channel. Needs a GL context (xvfb-run or EGL); skipped when screenshots fail for
 * want of one. */
#include "testutil.h"

#include <stb_image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int compared;

/* 1: compared, 0: no GL (skip), -1: failed before comparing */
static int compare(const char *label, const char *model)
{
    char glb[256], a[256], b[256], command[4096], output[4096];
    snprintf(glb, sizeof glb, "/tmp/skinview_export_shot_%d.glb", (int)getpid());
    snprintf(a, sizeof a, "/tmp/skinview_export_shot_%d_a.png", (int)getpid());
    snprintf(b, sizeof b, "/tmp/skinview_export_shot_%d_b.png", (int)getpid());
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' --quiet 2>&1", SKINVIEW_BINARY, model, glb);
    int rc = test_run_capture(command, output, sizeof output);
    CHECK(rc == 0, "%s: --export-gltf exit %d: %s", label, rc, output);
    if (rc != 0) return -1;
    const char *files[2][2] = {{model, a}, {glb, b}};
    for (int i = 0; i < 2; i++) {
        snprintf(command, sizeof command,
                 "'%s' '%s' --clip 1 --time 0.4 --no-grid --screenshot '%s' --size 320x240 2>&1", SKINVIEW_BINARY,
                 files[i][0], files[i][1]);
        rc = test_run_capture(command, output, sizeof output);
        if (rc != 0 && (strstr(output, "OpenGL") || strstr(output, "EGL") || strstr(output, "display"))) {
            printf("skipped: no GL context (%s)\n", output);
            unlink(glb);
            return 0;
        }
        CHECK(rc == 0, "%s: --screenshot exit %d: %s", label, rc, output);
        if (rc != 0) return -1;
    }
    int wa, ha, wb, hb, ca, cb;
    unsigned char *pa = stbi_load(a, &wa, &ha, &ca, 4), *pb = stbi_load(b, &wb, &hb, &cb, 4);
    CHECK(pa && pb && wa == wb && ha == hb, "%s: the screenshots cannot be read or differ in size", label);
    int differ = 0, total = wa * ha;
    for (int p = 0; pa && pb && wa == wb && ha == hb && p < total; p++) {
        int worst = 0;
        for (int k = 0; k < 3; k++) {
            int d = abs((int)pa[4 * p + k] - (int)pb[4 * p + k]);
            if (d > worst) worst = d;
        }
        differ += worst > 8;
    }
    printf("  %-14s %d of %d pixels differ (%.3f %%)\n", label, differ, total, 100.0 * differ / (total > 0 ? total : 1));
    CHECK(differ <= total / 200, "%s: %d of %d pixels differ (at most 0.5 %%)", label, differ, total);
    stbi_image_free(pa);
    stbi_image_free(pb);
    unlink(a);
    unlink(b);
    unlink(glb);
    compared++;
    return 1;
}

int main(void)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    if (compare("demo.fbx", path) == 0) return TEST_SKIP_CODE;
    snprintf(path, sizeof path, "%s/khronos-fox/Fox.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (access(path, R_OK) == 0) compare("Fox.glb", path);
    snprintf(path, sizeof path, "%s/quaternius-male-casual/Male_Casual.fbx", SKINVIEW_SHARED_MODELS_DIR);
    if (access(path, R_OK) == 0) compare("Male_Casual.fbx", path);
    CHECK(compared > 0, "nothing compared");
    return test_finish();
}
