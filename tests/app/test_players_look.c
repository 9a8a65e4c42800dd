/* test_players_look.c — the skinned viewer's look (docs/materials.md: --shadow, --environment) in
 * the VAT player and the thumbnailer, through the real binary:
 *   - `--vat BAKE --screenshot --shadow` darkens the ground where `MODEL --screenshot --shadow`
 *     does (one figure: both are framed alike), by the same amount, and nothing else;
 *   - `--environment` with a red-above / blue-below .hdr written here lights the VAT crowd as it
 *     lights the skinned model (the two renders agree), and differently from without it;
 *   - `--thumbnail --environment` shifts the model's colours toward the image's; `--thumbnail
 *     --shadow` adds only black, partly transparent pixels (the shadow on the transparent
 *     background) and keeps the model's. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 320
#define H 240
#define THUMB 192

static char folder[] = "/tmp/skinview-test-look-XXXXXX";
static bool keep_folder;   /* SKINVIEW_TEST_KEEP=1: the pictures stay, to look at */

/* Runs skinview with `arguments`; a non-zero exit is a failed check. */
static bool run(const char *arguments)
{
    char command[4096], output[4096];
    snprintf(command, sizeof command, "'%s' %s 2>&1", SKINVIEW_BINARY, arguments);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "skinview %s: exit %d: %s", arguments, code, output);
    return code == 0;
}

/* folder/name.png decoded as RGBA of the expected size, or NULL (a failed check). */
static unsigned char *load(const char *name, int width, int height)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    int w = 0, h = 0, channels = 0;
    unsigned char *rgba = stbi_load(path, &w, &h, &channels, 4);
    CHECK(rgba && w == width && h == height, "%s decodes at %dx%d (%dx%d)", path, width, height, w, h);
    if (rgba && (w != width || h != height)) {
        stbi_image_free(rgba);
        rgba = NULL;
    }
    return rgba;
}

/* `skinview SOURCE --screenshot folder/name.png --size WxH EXTRA`, decoded. */
static unsigned char *screenshot(const char *source, const char *extra, const char *name)
{
    char arguments[2048];
    snprintf(arguments, sizeof arguments, "%s --screenshot '%s/%s.png' --size %dx%d %s", source, folder, name, W, H, extra);
    return run(arguments) ? load(name, W, H) : NULL;
}

static int sum3(const unsigned char *p) { return p[0] + p[1] + p[2]; }

/* A flat Radiance file (RGBE: m * 2^(e - 136)): red (3, 0.1, 0.1) above the horizon, blue below
 * (bright: the key light stays). */
static bool write_split_hdr(const char *path)
{
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL, "write %s", path);
    if (!file) return false;
    enum { EW = 64, EH = 32 };
    fprintf(file, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n", EH, EW);
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            float c[3] = {0.1f, 0.1f, 0.1f};
            c[y < EH / 2 ? 0 : 2] = 3.0f;
            /* peak 3 = 0.75 * 2^2: e = 130, m = c * 64 */
            unsigned char rgbe[4] = {(unsigned char)(c[0] * 64.0f), (unsigned char)(c[1] * 64.0f),
                                     (unsigned char)(c[2] * 64.0f), 130};
            fwrite(rgbe, 1, 4, file);
        }
    return fclose(file) == 0;
}

/* Where `with` is darker than `without` (the shadow): count, mean brightness ratio, and the mask. */
typedef struct Darkening {
    int    count;
    double ratio;
    bool   brighter;   /* some pixel got brighter: --shadow changed more than the ground */
} Darkening;

static Darkening darkening(const unsigned char *without, const unsigned char *with, bool *mask)
{
    Darkening d = {0, 0.0, false};
    for (int i = 0; i < W * H; i++) {
        int a = sum3(without + 4 * i), b = sum3(with + 4 * i);
        mask[i] = a - b > 6;
        if (b > a + 6) d.brighter = true;
        if (!mask[i]) continue;
        d.count++;
        d.ratio += (double)b / (double)(a > 0 ? a : 1);
    }
    if (d.count > 0) d.ratio /= d.count;
    return d;
}

/* Mean of red + blue - 2 green (magenta: the split image lights faces up red, faces down blue,
 * the sides both) over the pixels where `model` is set. */
static double magenta(const unsigned char *image, const bool *model, int n)
{
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < n; i++)
        if (model[i]) {
            sum += (double)image[4 * i] + (double)image[4 * i + 2] - 2.0 * (double)image[4 * i + 1];
            count++;
        }
    return count > 0 ? sum / count : 0.0;
}

static void test_vat_player(const char *demo, const char *hdr)
{
    char bake[600], source[700], arguments[2048];
    snprintf(bake, sizeof bake, "%s/bake", folder);
    snprintf(arguments, sizeof arguments, "'%s' --bake-vat '%s' --fps 10 > /dev/null", demo, bake);
    if (!run(arguments)) return;
    char model[700];
    snprintf(model, sizeof model, "'%s'", demo);
    snprintf(source, sizeof source, "--vat '%s'", bake);
    unsigned char *s0 = screenshot(model, "", "skinned"), *s1 = screenshot(model, "--shadow", "skinned-shadow");
    unsigned char *v0 = screenshot(source, "", "vat"), *v1 = screenshot(source, "--shadow", "vat-shadow");
    char env[700];
    snprintf(env, sizeof env, "--environment '%s'", hdr);
    unsigned char *se = screenshot(model, env, "skinned-env"), *ve = screenshot(source, env, "vat-env");
    static bool skinned_mask[W * H], vat_mask[W * H], figure[W * H];
    if (s0 && s1 && v0 && v1) {
        Darkening s = darkening(s0, s1, skinned_mask), v = darkening(v0, v1, vat_mask);
        int both = 0, either = 0;
        for (int i = 0; i < W * H; i++) {
            both += skinned_mask[i] && vat_mask[i];
            either += skinned_mask[i] || vat_mask[i];
        }
        double overlap = either > 0 ? (double)both / either : 0.0;
        printf("shadow: skinned %d pixels x %.3f, VAT %d pixels x %.3f, overlap %.3f\n", s.count, s.ratio, v.count,
               v.ratio, overlap);
        CHECK(s.count > W * H / 200 && v.count > W * H / 200, "--shadow darkens the ground in both (%d, %d pixels)",
              s.count, v.count);
        CHECK(!s.brighter && !v.brighter, "--shadow only darkens");
        CHECK(overlap > 0.9, "the VAT shadow lies where the skinned one does (overlap %.3f)", overlap);
        CHECK(fabs(s.ratio - v.ratio) < 0.03 && v.ratio < 0.8, "as dark (x %.3f vs x %.3f)", v.ratio, s.ratio);
    }
    if (v0 && ve && se) {
        /* the figure: where the plain VAT render is not the background (its top-left pixel) */
        int figure_count = 0;
        double difference = 0.0, change = 0.0;
        for (int i = 0; i < W * H; i++) {
            figure[i] = abs(sum3(v0 + 4 * i) - sum3(v0)) > 30;
            if (!figure[i]) continue;
            figure_count++;
            for (int c = 0; c < 3; c++) {
                difference += abs((int)ve[4 * i + c] - (int)se[4 * i + c]);
                change += abs((int)ve[4 * i + c] - (int)v0[4 * i + c]);
            }
        }
        difference /= 3.0 * (figure_count > 0 ? figure_count : 1);
        change /= 3.0 * (figure_count > 0 ? figure_count : 1);
        double plain = magenta(v0, figure, W * H), lit = magenta(ve, figure, W * H);
        printf("environment (VAT): %d figure pixels, magenta %.1f -> %.1f, mean change %.2f, vs skinned %.2f\n",
               figure_count, plain, lit, change, difference);
        CHECK(figure_count > 500, "the figure shows (%d pixels)", figure_count);
        CHECK(change > 8.0 && lit > plain + 20.0, "--environment relights the VAT figure toward magenta (%.1f -> %.1f)",
              plain, lit);
        CHECK(difference < change / 4.0, "the VAT figure under the environment is the skinned one's (%.2f vs %.2f)",
              difference, change);
    }
    unsigned char *images[] = {s0, s1, v0, v1, se, ve};
    for (int i = 0; i < 6; i++) stbi_image_free(images[i]);
}

static unsigned char *thumbnail(const char *demo, const char *extra, const char *name)
{
    char arguments[2048];
    snprintf(arguments, sizeof arguments, "--thumbnail '%s' '%s/%s.png' %d %s", demo, folder, name, THUMB, extra);
    return run(arguments) ? load(name, THUMB, THUMB) : NULL;
}

static void test_thumbnailer(const char *demo, const char *hdr)
{
    char env[700];
    snprintf(env, sizeof env, "--environment '%s'", hdr);
    unsigned char *plain = thumbnail(demo, "", "thumb"), *lit = thumbnail(demo, env, "thumb-env");
    unsigned char *shadowed = thumbnail(demo, "--shadow", "thumb-shadow");
    static bool model[THUMB * THUMB];
    if (plain && lit) {
        int count = 0;
        for (int i = 0; i < THUMB * THUMB; i++) count += model[i] = plain[4 * i + 3] == 255 && lit[4 * i + 3] == 255;
        double before = magenta(plain, model, THUMB * THUMB), after = magenta(lit, model, THUMB * THUMB);
        printf("environment (thumbnail): %d model pixels, magenta %.1f -> %.1f\n", count, before, after);
        CHECK(count > 1000, "the thumbnail shows the model (%d pixels)", count);
        CHECK(after > before + 20.0, "--environment lights the thumbnail toward magenta (%.1f -> %.1f)", before, after);
    }
    if (plain && shadowed) {
        int added = 0, not_black = 0, too_opaque = 0, model_changed = 0;
        for (int i = 0; i < THUMB * THUMB; i++) {
            const unsigned char *a = plain + 4 * i, *b = shadowed + 4 * i;
            if (a[3] == 255) {
                model_changed += abs(sum3(a) - sum3(b)) > 6;
            } else if (a[3] == 0 && b[3] > 0) {
                added++;
                not_black += sum3(b) > 12;
                too_opaque += b[3] > (int)(0.55f * 255.0f) + 2;
            }
        }
        printf("shadow (thumbnail): %d pixels added, %d not black, %d too opaque, %d model pixels changed\n", added,
               not_black, too_opaque, model_changed);
        CHECK(added > 200, "--shadow puts a shadow under the thumbnail's model (%d pixels)", added);
        CHECK(not_black == 0 && too_opaque == 0, "the shadow is black at most 0.55 opaque (%d, %d)", not_black,
              too_opaque);
        CHECK(model_changed < 20, "the model itself keeps its colours (%d pixels changed)", model_changed);
    }
    stbi_image_free(plain);
    stbi_image_free(lit);
    stbi_image_free(shadowed);
}

int main(void)
{
    if (!mkdtemp(folder)) {
        fprintf(stderr, "cannot create %s\n", folder);
        return 1;
    }
    keep_folder = getenv("SKINVIEW_TEST_KEEP") != NULL;
    const char *demo = SKINVIEW_SOURCE_DIR "/assets/demo.glb";
    char hdr[600];
    snprintf(hdr, sizeof hdr, "%s/split.hdr", folder);
    if (write_split_hdr(hdr)) {
        test_vat_player(demo, hdr);
        test_thumbnailer(demo, hdr);
    }
    char command[700];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (keep_folder) printf("pictures in %s\n", folder);
    else if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
