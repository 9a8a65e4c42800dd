/* test_gltf_webp.c — EXT_texture_webp decoding (src/io/gltf/gltf_webp.c).
 * Round trips through libwebp's own encoders: lossless RGBA (exact, alpha included), lossy
 * (close: mean error a few levels), an odd size (rows top to bottom: the first row is the image's
 * top); then truncations and garbage: false, nothing allocated, no crash. */
#include "io/gltf/gltf_webp.h"
#include "testutil.h"

#include <webp/encode.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A test picture: a gradient with a bright top-left block, varying alpha. */
static unsigned char *make_picture(int width, int height)
{
    unsigned char *rgba = malloc((size_t)width * height * 4);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            unsigned char *px = &rgba[((size_t)y * width + x) * 4];
            bool block = x < width / 4 && y < height / 4;
            px[0] = block ? 255 : (unsigned char)(x * 255 / (width - 1));
            px[1] = block ? 255 : (unsigned char)(y * 255 / (height - 1));
            px[2] = block ? 255 : 64;
            px[3] = (unsigned char)(128 + (x + y) % 128);
        }
    return rgba;
}

int main(void)
{
    const int width = 37, height = 23;   /* odd: no row padding can hide */
    unsigned char *picture = make_picture(width, height);

    unsigned char *lossless = NULL;
    size_t lossless_size = WebPEncodeLosslessRGBA(picture, width, height, width * 4, &lossless);
    CHECK(lossless_size > 0, "lossless encode");
    int w = 0, h = 0;
    unsigned char *rgba = NULL;
    bool ok = gltf_webp_decode(lossless, lossless_size, &w, &h, &rgba);
    CHECK(ok && w == width && h == height, "lossless decodes %dx%d (got %dx%d)", width, height, w, h);
    CHECK(ok && memcmp(rgba, picture, (size_t)width * height * 4) == 0, "lossless: every RGBA byte equal (rows top to bottom)");
    free(rgba);

    unsigned char *lossy = NULL;
    size_t lossy_size = WebPEncodeRGBA(picture, width, height, width * 4, 90.0f, &lossy);
    CHECK(lossy_size > 0, "lossy encode");
    ok = gltf_webp_decode(lossy, lossy_size, &w, &h, &rgba);
    CHECK(ok && w == width && h == height, "lossy decodes %dx%d", w, h);
    if (ok) {
        double total = 0.0;
        for (size_t i = 0; i < (size_t)width * height * 4; i++)
            total += fabs((double)rgba[i] - picture[i]);
        double mean = total / ((double)width * height * 4);
        /* quality 90: a few levels on average; a flipped or shifted image is off by tens */
        CHECK(mean < 6.0, "lossy: mean error %.2f levels (< 6)", mean);
        /* The top-left block is white in the top rows: rows run top to bottom. */
        CHECK(rgba[0] > 200 && rgba[1] > 200 && rgba[2] > 200, "lossy: the first pixel is the top-left block");
        free(rgba);
    }

    /* Opaque RGB (no alpha chunk): A = 255. */
    unsigned char *rgb = malloc((size_t)width * height * 3);
    for (size_t i = 0; i < (size_t)width * height; i++)
        memcpy(&rgb[i * 3], &picture[i * 4], 3);
    unsigned char *opaque = NULL;
    size_t opaque_size = WebPEncodeLosslessRGB(rgb, width, height, width * 3, &opaque);
    ok = opaque_size > 0 && gltf_webp_decode(opaque, opaque_size, &w, &h, &rgba);
    CHECK(ok, "lossless RGB decodes");
    if (ok) {
        int not_opaque = 0, wrong = 0;
        for (size_t i = 0; i < (size_t)width * height; i++) {
            not_opaque += rgba[i * 4 + 3] != 255;
            wrong += memcmp(&rgba[i * 4], &rgb[i * 3], 3) != 0;
        }
        CHECK(not_opaque == 0 && wrong == 0, "RGB: alpha 255 (%d not), colours exact (%d differ)", not_opaque, wrong);
        free(rgba);
    }

    /* Damaged: every truncation of the lossless file, garbage, an empty buffer. */
    size_t refused = 0;
    for (size_t size = 0; size < lossless_size; size++) {
        unsigned char *part = malloc(size ? size : 1);   /* exactly sized: a read past it is an ASan error */
        memcpy(part, lossless, size);
        w = h = -1;
        rgba = (unsigned char *)part;   /* must come back NULL */
        bool decoded = gltf_webp_decode(part, size, &w, &h, &rgba);
        if (!decoded && rgba == NULL && w == 0 && h == 0)
            refused++;
        if (decoded)
            free(rgba);
        free(part);
    }
    CHECK(refused == lossless_size, "%zu of %zu truncations refused", refused, lossless_size);
    unsigned char garbage[512];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (unsigned char)(i * 131 + 7);
    CHECK(!gltf_webp_decode(garbage, sizeof garbage, &w, &h, &rgba) && rgba == NULL, "garbage refused");
    memcpy(garbage, lossless, 16 < lossless_size ? 16 : lossless_size);   /* a RIFF/WEBP header, then garbage */
    CHECK(!gltf_webp_decode(garbage, sizeof garbage, &w, &h, &rgba) && rgba == NULL, "garbage after a WebP header refused");
    CHECK(!gltf_webp_decode(lossless, 0, &w, &h, &rgba) && rgba == NULL, "empty refused");

    WebPFree(lossless);
    WebPFree(lossy);
    WebPFree(opaque);
    free(rgb);
    free(picture);
    return test_finish();
}
