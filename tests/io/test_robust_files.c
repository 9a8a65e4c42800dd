/* test_robust_files.c — validation rules through real files the test writes (issue 12).
 *
 * A small skinned glTF (one triangle, two joints, one clip) is written with one thing broken at
 * a time, and the real binary reads it with --info:
 *   - a singular inverse bind matrix            -> rejected, one line naming it
 *   - key times running backwards               -> repaired (sorted), one warning line
 *   - translation keys of 1e35                  -> the clip dropped, one warning line
 *   - weights all 0                             -> vertices bound to their node (imported)
 *   - a texture that is not an image            -> warning, material colour
 *   - PNG headers claiming 60000 x 60000 or 30000 x 8 -> warning, never decoded
 *   - a node that is its own child / a cycle    -> rejected, one line
 *   - a skin without inverseBindMatrices (valid: identities; Assimp 5.2.5 alone crashes on it)
 *     -> read, .gltf and .glb, posed as the spec says
 */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char folder[] = "/tmp/skinview_robust_files_XXXXXX";

/* testutil's clip glTF with one clip and one thing changed (options). */
static bool write_one_clip(const char *path, TestClipsGltf options)
{
    options.clip_count = 1;
    return test_write_clips_gltf_with(path, &options);
}

/* skinview PATH --info: exit code, stderr lines (all of them) into err. */
static int run_info(const char *path, char *err, size_t err_size, int *lines)
{
    char args[1100];
    snprintf(args, sizeof args, "'%s' --info", path);
    int code = test_skinview_code(args, err, err_size);
    *lines = 0;
    for (const char *c = err; *c; c++) *lines += *c == '\n';
    return code;
}

static void expect(const char *what, const char *path, int code, int lines_expected, const char *word)
{
    char err[4096];
    int lines = 0;
    int status = run_info(path, err, sizeof err, &lines);
    CHECK(status == code, "%s: exit %d, expected %d: %s", what, status, code, err);
    CHECK(lines == lines_expected, "%s: %d stderr lines, expected %d: %s", what, lines, lines_expected, err);
    CHECK(!word || strstr(err, word), "%s: stderr does not say '%s': %s", what, word, err);
}

/* Reads an OBJ's "v x y z" lines into p (at most max); returns how many. */
static int read_obj_vertices(const char *path, float (*p)[3], int max)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[256];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f))
        if (sscanf(line, "v %f %f %f", &p[n][0], &p[n][1], &p[n][2]) == 3) n++;
    fclose(f);
    return n;
}

/* The clip glTF of testutil without the skin's inverseBindMatrices, as .gltf and as a .glb (its
 * buffer in the BIN chunk). The spec makes every matrix the identity, so with the hip at
 * the origin and the knee keyed at (0, 1, 0) then (0, 1.5, 0):
 *   v0 (0,0,0), half hip, half knee  -> (0, y/2, 0)
 *   v1 (1,0,0), hip                  -> (1, 0, 0)
 *   v2 (0,1,0), knee                 -> (0, 1 + y, 0)        y = the knee's key. */
static void check_missing_inverse_bind(void)
{
    char gltf[512], glb[512], obj[512];
    snprintf(gltf, sizeof gltf, "%s/no_ibm.gltf", folder);
    snprintf(glb, sizeof glb, "%s/no_ibm.glb", folder);
    snprintf(obj, sizeof obj, "%s/no_ibm.obj", folder);
    CHECK(write_one_clip(gltf, (TestClipsGltf){.no_inverse_binds = true}), "write");
    CHECK(write_one_clip(glb, (TestClipsGltf){.no_inverse_binds = true, .glb = true}), "write");
    const char *files[2] = {gltf, glb};
    for (int i = 0; i < 2; i++) {
        expect(i == 0 ? "skin without inverseBindMatrices (.gltf)" : "skin without inverseBindMatrices (.glb)",
               files[i], 0, 0, NULL);
        const float times[2] = {0.0f, 1.0f}, knee[2] = {1.0f, 1.5f};
        for (int t = 0; t < 2; t++) {
            char command[1600], out[1024];
            snprintf(command, sizeof command, "'%s' '%s' --time %g --export-pose '%s' 2>&1", SKINVIEW_BINARY,
                     files[i], (double)times[t], obj);
            CHECK(test_run_capture(command, out, sizeof out) == 0, "%s --export-pose: %s", files[i], out);
            float p[3][3] = {{0}};
            int count = read_obj_vertices(obj, p, 3);
            const float y = knee[t], want[3][3] = {{0, y / 2, 0}, {1, 0, 0}, {0, 1 + y, 0}};
            float worst = 0.0f;
            for (int v = 0; v < 3; v++)
                for (int c = 0; c < 3; c++) worst = fmaxf(worst, fabsf(p[v][c] - want[v][c]));
            CHECK(count == 3 && worst < 1e-5f, "%s at %g s: %d vertices, off by %g from the identity-bind pose",
                  files[i], (double)times[t], count, worst);
        }
    }
}

int main(void)
{
    if (!mkdtemp(folder)) return 1;
    char path[512];
    snprintf(path, sizeof path, "%s/skinned.gltf", folder);

    CHECK(write_one_clip(path, (TestClipsGltf){.knee_key = 2.0f}), "write");
    expect("the intact file", path, 0, 0, NULL);
    check_missing_inverse_bind();

    CHECK(write_one_clip(path, (TestClipsGltf){.singular_bind = true, .knee_key = 2.0f}), "write");
    expect("singular inverse bind", path, 1, 1, "singular inverse bind matrix");

    CHECK(write_one_clip(path, (TestClipsGltf){.backwards_keys = true, .knee_key = 2.0f}), "write");
    expect("key times backwards", path, 0, 1, "out of order; sorted");

    CHECK(write_one_clip(path, (TestClipsGltf){.knee_key = 1e35f}), "write");
    expect("translation keys of 1e35", path, 0, 1, "clip dropped");

    CHECK(write_one_clip(path, (TestClipsGltf){.zero_weights = true, .knee_key = 2.0f}), "write");
    char err[4096];
    char command[1200];
    snprintf(command, sizeof command, "'%s' '%s' --info --json", SKINVIEW_BINARY, path);
    int code = test_run_capture(command, err, sizeof err);
    CHECK(code == 0 && strstr(err, "\"vertices_unweighted\":\t3") != NULL, "zero weights: exit %d, %s", code, err);

    /* textures: not an image, and a PNG whose header claims 60000 x 60000 */
    char image[600];
    snprintf(image, sizeof image, "%s/notimage.png", folder);
    FILE *f = fopen(image, "w");
    if (f) {
        fputs("this is not a picture\n", f);
        fclose(f);
    }
    CHECK(write_one_clip(path, (TestClipsGltf){.knee_key = 2.0f, .texture = "notimage.png"}), "write");
    expect("texture that is not an image", path, 0, 1, "is not an image");

    /* PNG headers only (never decoded): 60000 x 60000 (14 GB of RGBA), and 30000 x 8 (within
     * stb_image's limits, wider than a GL texture may be) */
    static const unsigned char sizes[2][8] = {{0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60}, {0, 0, 0x75, 0x30, 0, 0, 0, 8}};
    const char *expected[2] = {"too large to decode", "larger than 16384 pixels a side"};
    for (int i = 0; i < 2; i++) {
        snprintf(image, sizeof image, "%s/huge%d.png", folder, i);
        unsigned char png_header[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        memcpy(png_header + 16, sizes[i], 8);
        png_header[24] = 8;   /* bit depth */
        png_header[25] = 6;   /* RGBA */
        f = fopen(image, "wb");
        if (f) {
            fwrite(png_header, 1, sizeof png_header, f);
            fclose(f);
        }
        char uri[32];
        snprintf(uri, sizeof uri, "huge%d.png", i);
        CHECK(write_one_clip(path, (TestClipsGltf){.knee_key = 2.0f, .texture = uri}), "write");
        expect(i == 0 ? "a 60000 x 60000 texture" : "a 30000 x 8 texture", path, 0, 1, expected[i]);
    }

    /* node hierarchies Assimp hands over must be trees: a self-parent and a 2-cycle */
    snprintf(path, sizeof path, "%s/cycle.gltf", folder);
    const char *cycles[2] = {"[{\"children\":[0]}]", "[{\"children\":[1]},{\"children\":[0]}]"};
    for (int c = 0; c < 2; c++) {
        f = fopen(path, "w");
        if (!f) break;
        fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":%s}\n", cycles[c]);
        fclose(f);
        expect(c == 0 ? "a node that is its own child" : "a 2-node cycle", path, 1, 1, "recursive reference");
    }

    test_remove_folder(folder);
    return test_finish();
}
