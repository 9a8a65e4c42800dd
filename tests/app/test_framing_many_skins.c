/* test_framing_many_skins.c — the first frame of a scene of many skinned meshes is framed as tightly
 * as a single character (issue 29: Khronos' RecursiveSkeletons, 84 skins on one mesh, filled 45 % of
 * the first frame where every character fills more than 55 %). The test writes an equivalent scene:
 * one box-column mesh used by 84 nodes, each with its own skin of two joints (a parent and a child)
 * of one binary tree of 85 joints (each child 1 unit along its parent's +Y, turned 35 degrees left or
 * right and a quarter-turn about +Y), and a clip swaying every joint 30 degrees; then
 * `skinview --screenshot` at 1280x720 (the window's default) and the non-background box of the
 * picture: it fills >= 55 % of the height or the width, and is cut off on neither side. Measured:
 * 67.6 % of the height (72.9 % with a 10-degree sway). SKINVIEW_TEST_KEEP=1 keeps the files. */
#include "testutil.h"

#include <cglm/cglm.h>
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JOINTS 85
#define SWAY 30.0f   /* degrees each joint sways about its Z: up to 180 at the tips, 6 levels down */
#define SKINS (JOINTS - 1)
#define FLOAT 5126
#define UNSIGNED_SHORT 5123

static char folder[512];   /* /tmp/skinview-test-many-skins-XXXXXX (test_make_folder) */

/* Child c's rest rotation: +-35 degrees about Z (odd children left, even right), then a quarter-turn
 * about Y (each level in another plane). Written as a quaternion (x y z w). */
static void child_rotation(int c, float angle, versor q)
{
    versor z, y;
    glm_quatv(z, glm_rad((c % 2 ? 35.0f : -35.0f) + angle), (vec3){0, 0, 1});
    glm_quatv(y, glm_rad(90.0f), (vec3){0, 1, 0});
    glm_quat_mul(y, z, q);
}

static bool write_scene(const char *path)
{
    TestGltf g;
    test_gltf_init(&g);
    /* the column: 0.12 wide, y 0..1; bottom corners on joint 0 of its skin, top corners on joint 1 */
    float positions[24];
    uint16_t joints[32];
    float weights[32];
    for (int v = 0; v < 8; v++) {
        positions[3 * v] = (v & 1) ? 0.06f : -0.06f;
        positions[3 * v + 1] = (v & 4) ? 1.0f : 0.0f;
        positions[3 * v + 2] = (v & 2) ? 0.06f : -0.06f;
        for (int i = 0; i < 4; i++) joints[4 * v + i] = 0, weights[4 * v + i] = 0.0f;
        joints[4 * v] = (v & 4) ? 1 : 0;
        weights[4 * v] = 1.0f;
    }
    static const uint16_t indices[36] = {0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2,
                                         1, 3, 7, 1, 7, 5, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};
    int p = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false, 8, "VEC3",
                               "\"min\":[-0.06,0,-0.06],\"max\":[0.06,1,0.06]");
    int j = test_gltf_accessor(&g, test_gltf_view(&g, joints, sizeof joints, 0), 0, UNSIGNED_SHORT, false, 8, "VEC4", NULL);
    int w = test_gltf_accessor(&g, test_gltf_view(&g, weights, sizeof weights, 0), 0, FLOAT, false, 8, "VEC4", NULL);
    int ix = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof indices, 0), 0, UNSIGNED_SHORT, false, 36, "SCALAR",
                                NULL);
    /* inverse bind matrices of skin k (joints: parent, child c = k + 1): the parent's identity (the
     * column stands in its frame), the child's inverse(T(0,1,0) R_c) (at rest the top corners stay) */
    static float ibm[SKINS][2][16];
    for (int k = 0; k < SKINS; k++) {
        int c = k + 1;
        versor q;
        child_rotation(c, 0.0f, q);
        mat4 local, inverse;
        glm_translate_make(local, (vec3){0, 1, 0});
        glm_quat_rotate(local, q, local);
        glm_mat4_inv(local, inverse);
        mat4 identity = GLM_MAT4_IDENTITY_INIT;
        memcpy(ibm[k][0], identity, sizeof ibm[k][0]);
        memcpy(ibm[k][1], inverse, sizeof ibm[k][1]);
    }
    int ibm_view = test_gltf_view(&g, ibm, sizeof ibm, 0);
    /* the clip: every child joint sways SWAY degrees about its Z and back, over 2 s (the first frame
     * is framed on the clip's 8 sample times: a scene that sweeps wide fills its first frame less) */
    static const float times[3] = {0.0f, 1.0f, 2.0f};
    static float rotations[SKINS][3][4];
    for (int k = 0; k < SKINS; k++)
        for (int t = 0; t < 3; t++) child_rotation(k + 1, t == 1 ? SWAY : 0.0f, rotations[k][t]);
    int ti = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, FLOAT, false, 3, "SCALAR",
                                "\"min\":[0],\"max\":[2]");
    int rot_view = test_gltf_view(&g, rotations, sizeof rotations, 0);

    size_t size = 1 << 20, length = 0;
    char *members = malloc(size);
    if (!members) return false;
#define PUT(...) (length += (size_t)snprintf(members + length, size - length, __VA_ARGS__))
    PUT("\"scene\":0,\"scenes\":[{\"nodes\":[0");
    for (int k = 0; k < SKINS; k++) PUT(",%d", JOINTS + k);
    PUT("]}],\"nodes\":[");
    for (int c = 0; c < JOINTS; c++) {
        PUT("%s{\"name\":\"joint%d\"", c ? "," : "", c);
        if (c > 0) {
            versor q;
            child_rotation(c, 0.0f, q);
            PUT(",\"translation\":[0,1,0],\"rotation\":[%.9g,%.9g,%.9g,%.9g]", q[0], q[1], q[2], q[3]);
        }
        if (2 * c + 1 < JOINTS) PUT(",\"children\":[%d%s]", 2 * c + 1, 2 * c + 2 < JOINTS ? "" : "");
        if (2 * c + 2 < JOINTS) length -= 1, PUT(",%d]", 2 * c + 2);
        PUT("}");
    }
    for (int k = 0; k < SKINS; k++) PUT(",{\"name\":\"column%d\",\"mesh\":0,\"skin\":%d}", k, k);
    PUT("],\"skins\":[");
    for (int k = 0; k < SKINS; k++) {
        int ibm_accessor = test_gltf_accessor(&g, ibm_view, (size_t)k * 2 * 64, FLOAT, false, 2, "MAT4", NULL);
        PUT("%s{\"joints\":[%d,%d],\"inverseBindMatrices\":%d}", k ? "," : "", k / 2, k + 1, ibm_accessor);
    }
    PUT("],\"meshes\":[{\"name\":\"column\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,"
        "\"WEIGHTS_0\":%d},\"indices\":%d}]}],", p, j, w, ix);
    PUT("\"animations\":[{\"name\":\"sway\",\"channels\":[");
    for (int k = 0; k < SKINS; k++)
        PUT("%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}", k ? "," : "", k, k + 1);
    PUT("],\"samplers\":[");
    for (int k = 0; k < SKINS; k++) {
        int out = test_gltf_accessor(&g, rot_view, (size_t)k * 3 * 16, FLOAT, false, 3, "VEC4", NULL);
        PUT("%s{\"input\":%d,\"output\":%d}", k ? "," : "", ti, out);
    }
    PUT("]}]");
#undef PUT
    bool ok = length < size && test_gltf_write(&g, path, members, true);
    free(members);
    test_gltf_free(&g);
    return ok;
}

int main(void)
{
    if (!test_make_folder(folder, sizeof folder, "skinview-test-many-skins")) return 1;
    char scene[600], png[600], command[2048], output[8192];
    snprintf(scene, sizeof scene, "%s/many_skins.glb", folder);
    snprintf(png, sizeof png, "%s/first.png", folder);
    CHECK(write_scene(scene), "the scene is written");
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, scene);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0 && strstr(output, "meshes: 84"), "it imports as 84 skinned meshes: %s", output);
    const int width = 1280, height = 720;
    snprintf(command, sizeof command, "'%s' '%s' --no-grid --size %dx%d --screenshot '%s' 2>&1", SKINVIEW_BINARY, scene,
             width, height, png);
    code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "screenshot: exit %d: %s", code, output);
    int w = 0, h = 0, channels = 0;
    unsigned char *rgba = code == 0 ? stbi_load(png, &w, &h, &channels, 4) : NULL;
    CHECK(rgba && w == width && h == height, "%s decodes at %dx%d", png, width, height);
    if (rgba) {
        static const unsigned char background[3] = {46, 51, 59};   /* the viewer's clear colour */
        int top = h, bottom = -1, left = w, right = -1;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const unsigned char *px = rgba + 4 * ((size_t)y * w + x);
                if (abs(px[0] - background[0]) <= 6 && abs(px[1] - background[1]) <= 6 && abs(px[2] - background[2]) <= 6)
                    continue;
                if (y < top) top = y;
                if (y > bottom) bottom = y;
                if (x < left) left = x;
                if (x > right) right = x;
            }
        double fill_h = (double)(bottom - top + 1) / h, fill_w = (double)(right - left + 1) / w;
        double fill = fill_h > fill_w ? fill_h : fill_w;
        printf("84 skins on one mesh: the first frame fills %.1f %% of the height, %.1f %% of the width\n", 100.0 * fill_h,
               100.0 * fill_w);
        CHECK(fill >= 0.55, "the first frame fills %.1f %% (>= 55 %% wanted, as a single character)", 100.0 * fill);
        CHECK(top > 0 && bottom < h - 1 && left > 0 && right < w - 1, "nothing cut off (rows %d..%d, columns %d..%d)", top,
              bottom, left, right);
        stbi_image_free(rgba);
    }
    test_remove_folder(folder);
    return test_finish();
}
