/* test_framing_many_skins.c — the first frame of a scene of many skinned meshes fills the window as
 * a single character does (issue 29: Khronos' RecursiveSkeletons, 84 skins on one mesh, filled 45 %
 * of the first frame where every character fills more than 55 %).
 *
 * The test rebuilds RecursiveSkeletons from its glTF JSON (glTF-Sample-Assets,
 * Models/RecursiveSkeletons/glTF/RecursiveSkeletons.gltf; the .bin is synthesised from what the
 * JSON says of it):
 *   - 924 nodes: 84 chains of 10 joints, chain k at nodes 11k..11k+9, each followed by its
 *     skinned-mesh node 11k+10 {mesh 0, skin k} (a scene root: no transform). A chain's first
 *     joint has the chain's offset, the 9 others translation (0, 10, 0).
 *   - 4 skeletons (chains 0, 21, 42, 63), roots at (25,0,25), (-25,0,25), (-25,0,-25), (25,0,-25).
 *     The tip (10th joint) of a skeleton's first chain and of each of its 4 child chains holds 4
 *     child chains, depth first: scale 0.3, translations (3,0,3), (-3,0,3), (-3,0,-3), (3,0,-3)
 *     (1 + 4 + 16 = 21 chains per skeleton).
 *   - scene 0: the 4 roots and the 84 mesh nodes, in node order.
 *   - skin k: joints 11k..11k+9, no "skeleton"; inverse bind matrices T(0, -10 j, 0) (the
 *     accessors' min/max: identity 3x3, translation y -90..0; the mesh is bound in its chain's
 *     first-joint frame, so every column shows at its chain's scale).
 *   - mesh 0: 40 vertices, 10 rings of 4 at y = 10 i, x and z +-5 (POSITION min [-5,0,-5],
 *     max [5,90,5]), COLOR_0 white, ring i on joint i alone (WEIGHTS_0 min = max = [1,0,0,0]),
 *     228 indices (76 triangles: 2 caps and 9 x 4 side quads), material "Default".
 *   - one animation, 840 channels: every joint's rotation, keys at 0, 1, 2 s (Animation.Input
 *     min 0, max 2): identity, 0.2 rad about the chain's axis, identity (Animation.Output max
 *     component 0.0998334 = sin 0.1, w min 0.9950042 = cos 0.1). The axis: X, Y, Z, Y for the
 *     4 skeletons and, alike, for the 4 children of a tip. Ten joints of 0.2 rad bend a chain's
 *     tip 2 rad (115 degrees) at t = 1: the towers sweep far wider than they stand at t = 0.
 * Then `skinview --screenshot` at 1280x720 (the window's default), 800x600, 720x720 and 600x800, and
 * the non-background box of the picture: >= 55 % of the height or the width, cut off on neither
 * side. The first frame was framed on the clip's 8 sample times alone, and in a window narrower
 * than the towers' sweep that sweep, not the towers, set the distance: before
 * view_frame_clip_points' start-pose share (src/view/framing.c) 78.3 %, 62.0 %, 47.4 % and 36.5 %;
 * now 78.3 %, 62.0 %, 61.3 % and 61.3 % (the towers at rest; at t = 1 the widest arch leaves the
 * square window a little). The 45 % reported at 1280x720 does not reproduce (78.3 % at b3e9234,
 * before the issue-29 work, too): this reconstruction's only unknowns are the .bin's bytes, and the
 * key order identity, turn, identity is the one SharpGLTF's InfiniteSkinnedTentacle example, the
 * model's generator, writes.
 * SKINVIEW_KEEP_TEST_FILES=1 keeps the files. */
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

#define CHAINS 84
#define CHAIN_JOINTS 10
#define NODES (CHAINS * (CHAIN_JOINTS + 1))
#define CHAINS_PER_SKELETON 21
#define FLOAT 5126
#define UNSIGNED_BYTE 5121
#define UNSIGNED_SHORT 5123

static char folder[512];   /* /tmp/skinview-test-many-skins-XXXXXX (test_make_folder) */

/* What the JSON gives each chain: the first joint's translation and scale, the rotation axis of
 * its clip, and (tip_children) the 4 chains under its tip, or -1. */
typedef struct Chain {
    float offset[3], scale;
    int   axis;   /* 0 X, 1 Y, 2 Z */
    int   tip_children[4];
} Chain;

static Chain chains[CHAINS];

/* Fills chains[first..] depth first for one chain and the chains under it (`levels` more below);
 * returns the next free chain. */
static int build_chain(int first, const float offset[3], float scale, int axis, int levels)
{
    static const float child_offset[4][3] = {{3, 0, 3}, {-3, 0, 3}, {-3, 0, -3}, {3, 0, -3}};
    static const int child_axis[4] = {0, 1, 2, 1};
    Chain *c = &chains[first];
    memcpy(c->offset, offset, sizeof c->offset);
    c->scale = scale;
    c->axis = axis;
    int next = first + 1;
    for (int i = 0; i < 4; i++) {
        c->tip_children[i] = levels > 0 ? next : -1;
        if (levels > 0) next = build_chain(next, child_offset[i], 0.3f, child_axis[i], levels - 1);
    }
    return next;
}

/* The 40 vertices: position (12 bytes), COLOR_0 (4 unsigned bytes), JOINTS_0 (4 unsigned bytes),
 * WEIGHTS_0 (16 bytes), interleaved in one 36-byte stride as the original's bufferView 0. */
typedef struct Vertex {
    float   position[3];
    uint8_t color[4], joints[4];
    float   weights[4];
} Vertex;

static bool write_scene(const char *path)
{
    static const float root_offset[4][3] = {{25, 0, 25}, {-25, 0, 25}, {-25, 0, -25}, {25, 0, -25}};
    static const int root_axis[4] = {0, 1, 2, 1};
    for (int s = 0; s < 4; s++) build_chain(s * CHAINS_PER_SKELETON, root_offset[s], 1.0f, root_axis[s], 2);

    TestGltf g;
    test_gltf_init(&g);
    /* ring i = vertices 4i..4i+3: (-5,-5), (5,-5), (5,5), (-5,5) in x, z at y = 10 i, on joint i */
    static Vertex vertices[4 * CHAIN_JOINTS];
    static const float corner[4][2] = {{-5, -5}, {5, -5}, {5, 5}, {-5, 5}};
    for (int i = 0; i < CHAIN_JOINTS; i++)
        for (int k = 0; k < 4; k++) {
            Vertex *v = &vertices[4 * i + k];
            memset(v, 0, sizeof *v);
            v->position[0] = corner[k][0];
            v->position[1] = 10.0f * (float)i;
            v->position[2] = corner[k][1];
            memset(v->color, 255, sizeof v->color);
            v->joints[0] = (uint8_t)i;
            v->weights[0] = 1.0f;
        }
    /* the bottom cap, 4 side quads per ring above it, the top cap; quad (a b c d) -> a b c, a c d */
    static uint16_t indices[228];
    int n = 0;
#define QUAD(a, b, c, d) (indices[n++] = (a), indices[n++] = (b), indices[n++] = (c), indices[n++] = (a), \
                          indices[n++] = (c), indices[n++] = (d))
    QUAD(0, 1, 2, 3);
    for (int i = 1; i < CHAIN_JOINTS; i++) {
        uint16_t b = (uint16_t)(4 * i), a = (uint16_t)(4 * (i - 1));
        for (int k = 0; k < 4; k++) QUAD(b + k, b + (k + 1) % 4, a + (k + 1) % 4, a + k);
    }
    uint16_t top = 4 * (CHAIN_JOINTS - 1);
    QUAD(top + 3, top + 2, top + 1, top);
#undef QUAD
    if (n != 228) return false;
    int vertex_view = test_gltf_view(&g, vertices, sizeof vertices, (int)sizeof(Vertex));
    int p = test_gltf_accessor(&g, vertex_view, 0, FLOAT, false, 40, "VEC3", "\"min\":[-5,0,-5],\"max\":[5,90,5]");
    int color = test_gltf_accessor(&g, vertex_view, 12, UNSIGNED_BYTE, true, 40, "VEC4", NULL);
    int j = test_gltf_accessor(&g, vertex_view, 16, UNSIGNED_BYTE, false, 40, "VEC4", NULL);
    int w = test_gltf_accessor(&g, vertex_view, 20, FLOAT, false, 40, "VEC4", "\"min\":[1,0,0,0],\"max\":[1,0,0,0]");
    int ix = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof indices, 0), 0, UNSIGNED_SHORT, false, 228,
                                "SCALAR", NULL);

    /* per chain, as the original: 10 (input, output) pairs, then the skin's inverse bind matrices */
    static const float times[3] = {0.0f, 1.0f, 2.0f};
    static int input_of[CHAINS][CHAIN_JOINTS], output_of[CHAINS][CHAIN_JOINTS], ibm_of[CHAINS];
    for (int k = 0; k < CHAINS; k++) {
        /* key 1: 0.2 rad about the axis, q = (sin 0.1 axis, cos 0.1) */
        float keys[3][4] = {{0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 1}};
        keys[1][chains[k].axis] = sinf(0.1f);
        keys[1][3] = cosf(0.1f);
        char extent[160];
        snprintf(extent, sizeof extent, "\"min\":[0,0,0,%.9g],\"max\":[%s,%s,%s,1]", cosf(0.1f),
                 chains[k].axis == 0 ? "0.0998334214" : "0", chains[k].axis == 1 ? "0.0998334214" : "0",
                 chains[k].axis == 2 ? "0.0998334214" : "0");
        for (int jt = 0; jt < CHAIN_JOINTS; jt++) {
            input_of[k][jt] = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, FLOAT, false, 3,
                                                 "SCALAR", "\"min\":[0],\"max\":[2]");
            output_of[k][jt] = test_gltf_accessor(&g, test_gltf_view(&g, keys, sizeof keys, 0), 0, FLOAT, false, 3,
                                                  "VEC4", extent);
        }
        float ibm[CHAIN_JOINTS][16];
        for (int jt = 0; jt < CHAIN_JOINTS; jt++) {
            mat4 m;
            glm_translate_make(m, (vec3){0.0f, -10.0f * (float)jt, 0.0f});
            memcpy(ibm[jt], m, sizeof ibm[jt]);
        }
        ibm_of[k] = test_gltf_accessor(&g, test_gltf_view(&g, ibm, sizeof ibm, 0), 0, FLOAT, false, CHAIN_JOINTS, "MAT4",
                                       NULL);
    }

    size_t size = 1 << 20, length = 0;
    char *members = malloc(size);
    if (!members) return false;
#define PUT(...) (length += (size_t)snprintf(members + length, length < size ? size - length : 0, __VA_ARGS__))
    PUT("\"scenes\":[{\"name\":\"default\",\"nodes\":[");
    for (int node = 0, listed = 0; node < NODES; node++) {
        bool root_joint = node % (CHAIN_JOINTS + 1) == 0 && node / (CHAIN_JOINTS + 1) % CHAINS_PER_SKELETON == 0;
        bool mesh_node = node % (CHAIN_JOINTS + 1) == CHAIN_JOINTS;
        if (root_joint || mesh_node) PUT("%s%d", listed++ ? "," : "", node);
    }
    PUT("]}],\"nodes\":[");
    for (int k = 0; k < CHAINS; k++) {
        const Chain *c = &chains[k];
        for (int jt = 0; jt < CHAIN_JOINTS; jt++) {
            int node = k * (CHAIN_JOINTS + 1) + jt;
            PUT("%s{", node ? "," : "");
            if (jt + 1 < CHAIN_JOINTS) PUT("\"children\":[%d],", node + 1);
            else if (c->tip_children[0] >= 0)
                PUT("\"children\":[%d,%d,%d,%d],", c->tip_children[0] * (CHAIN_JOINTS + 1),
                    c->tip_children[1] * (CHAIN_JOINTS + 1), c->tip_children[2] * (CHAIN_JOINTS + 1),
                    c->tip_children[3] * (CHAIN_JOINTS + 1));
            if (jt == 0 && c->scale != 1.0f) PUT("\"scale\":[%g,%g,%g],", c->scale, c->scale, c->scale);
            if (jt == 0) PUT("\"translation\":[%g,%g,%g]}", c->offset[0], c->offset[1], c->offset[2]);
            else PUT("\"translation\":[0,10,0]}");
        }
        PUT(",{\"mesh\":0,\"skin\":%d}", k);
    }
    PUT("],\"skins\":[");
    for (int k = 0; k < CHAINS; k++) {
        PUT("%s{\"inverseBindMatrices\":%d,\"joints\":[", k ? "," : "", ibm_of[k]);
        for (int jt = 0; jt < CHAIN_JOINTS; jt++) PUT("%s%d", jt ? "," : "", k * (CHAIN_JOINTS + 1) + jt);
        PUT("]}");
    }
    PUT("],\"materials\":[{\"name\":\"Default\",\"pbrMetallicRoughness\":{}}],");
    PUT("\"meshes\":[{\"name\":\"skinned mesh\",\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"COLOR_0\":%d,"
        "\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"indices\":%d,\"material\":0}]}],",
        p, color, j, w, ix);
    PUT("\"animations\":[{\"name\":\"Track0\",\"channels\":[");
    for (int k = 0; k < CHAINS; k++)
        for (int jt = 0; jt < CHAIN_JOINTS; jt++)
            PUT("%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}", k + jt ? "," : "",
                k * CHAIN_JOINTS + jt, k * (CHAIN_JOINTS + 1) + jt);
    PUT("],\"samplers\":[");
    for (int k = 0; k < CHAINS; k++)
        for (int jt = 0; jt < CHAIN_JOINTS; jt++)
            PUT("%s{\"input\":%d,\"output\":%d}", k + jt ? "," : "", input_of[k][jt], output_of[k][jt]);
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
    snprintf(scene, sizeof scene, "%s/RecursiveSkeletons.glb", folder);
    CHECK(write_scene(scene), "the scene is written");
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, scene);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0 && strstr(output, "meshes: 84"), "it imports as 84 skinned meshes: %s", output);
    /* the window's default size, a 4:3, a square and a portrait one (the towers' sweep is wider
     * than they stand: the narrower the window, the more it weighed) */
    static const int sizes[4][2] = {{1280, 720}, {800, 600}, {720, 720}, {600, 800}};
    for (int i = 0; i < 4; i++) {
        const int width = sizes[i][0], height = sizes[i][1];
        snprintf(png, sizeof png, "%s/first-%dx%d.png", folder, width, height);
        snprintf(command, sizeof command, "'%s' '%s' --no-grid --size %dx%d --screenshot '%s' 2>&1", SKINVIEW_BINARY,
                 scene, width, height, png);
        code = test_run_capture(command, output, sizeof output);
        CHECK(code == 0, "screenshot: exit %d: %s", code, output);
        int w = 0, h = 0, channels = 0;
        unsigned char *rgba = code == 0 ? stbi_load(png, &w, &h, &channels, 4) : NULL;
        CHECK(rgba && w == width && h == height, "%s decodes at %dx%d", png, width, height);
        if (!rgba) continue;
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
        printf("RecursiveSkeletons at %dx%d: the first frame fills %.1f %% of the height, %.1f %% of the width\n", width,
               height, 100.0 * fill_h, 100.0 * fill_w);
        CHECK(fill >= 0.55, "%dx%d: the first frame fills %.1f %% (>= 55 %% wanted, as a single character)", width, height,
              100.0 * fill);
        CHECK(top > 0 && bottom < h - 1 && left > 0 && right < w - 1, "%dx%d: nothing cut off (rows %d..%d, columns %d..%d)",
              width, height, top, bottom, left, right);
        stbi_image_free(rgba);
    }
    test_remove_folder(folder);
    return test_finish();
}
