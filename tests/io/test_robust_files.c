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

typedef struct Broken {
    bool  singular_bind;
    bool  backwards_keys;
    float key_translation;     /* y of the second translation key */
    bool  zero_weights;
    const char *texture;       /* image uri, or NULL */
} Broken;

/* Writes the skinned triangle glTF; returns false if it cannot. */
static bool write_skinned(const char *path, Broken b)
{
    unsigned char buffer[512];
    size_t at = 0;
#define PUT(value) do { memcpy(buffer + at, &(value), sizeof(value)); at += sizeof(value); } while (0)
    float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    PUT(positions);                                   /* 0: 36 bytes */
    uint16_t indices[4] = {0, 1, 2, 0};
    PUT(indices);                                     /* 36: 8 bytes */
    uint8_t joints[12] = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
    PUT(joints);                                      /* 44: 12 bytes */
    float weights[12] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    if (b.zero_weights) memset(weights, 0, sizeof weights);
    PUT(weights);                                     /* 56: 48 bytes */
    float binds[32] = {0};
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 4; i++) binds[m * 16 + i * 5] = 1.0f;
    binds[16 + 13] = -1.0f;                           /* joint 1 one unit up: inverse translates down */
    if (b.singular_bind) binds[16 + 5] = 0.0f;        /* y axis of joint 1's inverse bind squashed */
    PUT(binds);                                       /* 104: 128 bytes */
    float times[2] = {0.0f, 1.0f};
    if (b.backwards_keys) { times[0] = 1.0f; times[1] = 0.0f; }
    PUT(times);                                       /* 232: 8 bytes */
    float moves[6] = {0, 1, 0, 0, b.key_translation, 0};
    PUT(moves);                                       /* 240: 24 bytes -> 264 */
#undef PUT
    char encoded[1024];
    test_base64(buffer, at, encoded);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f,
            "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
            "\"nodes\":[{\"name\":\"root\",\"children\":[1,2]},{\"name\":\"body\",\"mesh\":0,\"skin\":0},"
            "{\"name\":\"hip\",\"children\":[3]},{\"name\":\"knee\",\"translation\":[0,1,0]}],"
            "\"skins\":[{\"joints\":[2,3],\"inverseBindMatrices\":4}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":3},"
            "\"indices\":1%s}]}],"
            "\"animations\":[{\"name\":\"lift\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":"
            "\"translation\"}}],\"samplers\":[{\"input\":5,\"output\":6}]}],"
            "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
            "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
            "\"byteLength\":6},{\"buffer\":0,\"byteOffset\":44,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":56,"
            "\"byteLength\":48},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":128},{\"buffer\":0,\"byteOffset\":232,"
            "\"byteLength\":8},{\"buffer\":0,\"byteOffset\":240,\"byteLength\":24}],"
            "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],"
            "\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
            "{\"bufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
            "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]}\n",
            b.texture ? ",\"material\":0" : "", at, encoded);
    if (b.texture) {   /* rewrite with a material and an image: simplest as a second pass */
        fclose(f);
        size_t size = 0;
        FILE *in = fopen(path, "rb");
        if (!in) return false;
        char *text = malloc(65536);
        size = fread(text, 1, 65535, in);
        fclose(in);
        text[size] = '\0';
        char *animations = strstr(text, "\"animations\"");
        f = fopen(path, "w");
        if (!f || !animations) {
            free(text);
            if (f) fclose(f);
            return false;
        }
        fwrite(text, 1, (size_t)(animations - text), f);
        fprintf(f, "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                   "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"%s\"}],", b.texture);
        fputs(animations, f);
        free(text);
    }
    return fclose(f) == 0;
}

/* skinview PATH --info: exit code, stderr lines (all of them) into err. */
static int run_info(const char *path, char *err, size_t err_size, int *lines)
{
    char command[1200];
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1 >/dev/null", SKINVIEW_BINARY, path);
    int status = test_run_status(command, err, err_size);
    *lines = 0;
    for (const char *c = err; *c; c++) *lines += *c == '\n';
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

/* Decodes base64 `in` into out (at most max bytes); returns the byte count. */
static size_t base64_decode(const char *in, unsigned char *out, size_t max)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t bits = 0;
    int held = 0;
    size_t n = 0;
    for (; *in && *in != '"' && *in != '='; in++) {
        const char *at = strchr(table, *in);
        if (!at) break;
        bits = bits << 6 | (uint32_t)(at - table);
        held += 6;
        if (held >= 8 && n < max) {
            held -= 8;
            out[n++] = (unsigned char)(bits >> held);
        }
    }
    return n;
}

/* The clip glTF of testutil without the skin's inverseBindMatrices, as .gltf and as a .glb (its
 * buffer moved into the BIN chunk). The spec makes every matrix the identity, so with the hip at
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
    CHECK(test_write_clips_gltf(gltf, 1), "write");
    FILE *f = fopen(gltf, "rb");
    static char json[8192];
    size_t n = f ? fread(json, 1, sizeof json - 1, f) : 0;
    if (f) fclose(f);
    json[n] = '\0';
    char *ibm = strstr(json, ",\"inverseBindMatrices\":4");
    CHECK(ibm != NULL, "the writer's skin has inverseBindMatrices to remove");
    if (!ibm) return;
    memmove(ibm, ibm + strlen(",\"inverseBindMatrices\":4"), strlen(ibm + strlen(",\"inverseBindMatrices\":4")) + 1);
    while (n > 0 && (json[strlen(json) - 1] == '\n')) json[strlen(json) - 1] = '\0';
    f = fopen(gltf, "wb");
    if (f) {
        fputs(json, f);
        fclose(f);
    }
    /* GLB: the data: URI's bytes become the BIN chunk, the buffer keeps only its byteLength */
    unsigned char bin[1024];
    char *uri = strstr(json, ",\"uri\":\"data:");
    char *base64 = uri ? strstr(uri, "base64,") : NULL;
    size_t bin_length = base64 ? base64_decode(base64 + 7, bin, sizeof bin) : 0;
    CHECK(bin_length == 264, "the buffer decodes to 264 bytes (%zu)", bin_length);
    if (uri) memmove(uri, strchr(uri + 8, '"') + 1, strlen(strchr(uri + 8, '"') + 1) + 1);
    size_t length = strlen(json), padded = (length + 3) & ~(size_t)3, bin_padded = (bin_length + 3) & ~(size_t)3;
    f = fopen(glb, "wb");
    if (f) {
        uint32_t header[5] = {0x46546C67u, 2, (uint32_t)(28 + padded + bin_padded), (uint32_t)padded, 0x4E4F534Au};
        fwrite(header, 4, 5, f);
        fwrite(json, 1, length, f);
        for (size_t i = length; i < padded; i++) fputc(' ', f);
        uint32_t bin_header[2] = {(uint32_t)bin_padded, 0x004E4942u};
        fwrite(bin_header, 4, 2, f);
        fwrite(bin, 1, bin_length, f);
        for (size_t i = bin_length; i < bin_padded; i++) fputc(0, f);
        fclose(f);
    }
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

    CHECK(write_skinned(path, (Broken){.key_translation = 2.0f}), "write");
    expect("the intact file", path, 0, 0, NULL);
    check_missing_inverse_bind();

    CHECK(write_skinned(path, (Broken){.singular_bind = true, .key_translation = 2.0f}), "write");
    expect("singular inverse bind", path, 1, 1, "singular inverse bind matrix");

    CHECK(write_skinned(path, (Broken){.backwards_keys = true, .key_translation = 2.0f}), "write");
    expect("key times backwards", path, 0, 1, "out of order; sorted");

    CHECK(write_skinned(path, (Broken){.key_translation = 1e35f}), "write");
    expect("translation keys of 1e35", path, 0, 1, "clip dropped");

    CHECK(write_skinned(path, (Broken){.zero_weights = true, .key_translation = 2.0f}), "write");
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
    CHECK(write_skinned(path, (Broken){.key_translation = 2.0f, .texture = "notimage.png"}), "write");
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
        CHECK(write_skinned(path, (Broken){.key_translation = 2.0f, .texture = uri}), "write");
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

    char cleanup[700];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", folder);
    if (system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
