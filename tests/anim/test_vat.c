/* test_vat.c — the pure math of vertex animation textures (src/anim/vat.h): frame counts and
 * times, the two-frame blend, the layout (every frame inside its page, no two frames in one
 * slot, clips moved to a fresh page when they would straddle one), 16-bit quantisation within
 * half a step, octahedral normals within VAT_NORMAL_MAX_ERROR_DEGREES over the whole sphere. */
#include "testutil.h"
#include "anim/vat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_frames(void)
{
    CHECK(vat_clip_frame_count(1.0f, 30.0f) == 31, "1 s at 30 fps: %d frames", vat_clip_frame_count(1.0f, 30.0f));
    CHECK(vat_clip_frame_count(0.0f, 30.0f) == 1, "zero-length clip: one frame");
    CHECK(vat_clip_frame_count(1.03f, 30.0f) == 32, "1.03 s at 30 fps: 32 frames (last one on the end)");
    CHECK(vat_clip_frame_count(0.01f, 10.0f) == 2, "a clip shorter than a frame still gets both ends");
    CHECK(vat_clip_frame_count(1e6f, 1000.0f) == -1, "too many frames refused");
    CHECK(vat_frame_time(2.0f, 5, 0) == 0.0f && vat_frame_time(2.0f, 5, 4) == 2.0f && vat_frame_time(2.0f, 5, 2) == 1.0f,
          "frame times t_i = i * duration / (count - 1)");
    CHECK(vat_frame_time(0.0f, 1, 0) == 0.0f, "one-frame clip at 0");

    int f0, f1;
    float alpha;
    vat_frame_blend(2.0f, 5, 1.25f, &f0, &f1, &alpha);
    CHECK(f0 == 2 && f1 == 3 && fabsf(alpha - 0.5f) < 1e-6f, "blend at 1.25 s: frames %d, %d, alpha %g", f0, f1,
          (double)alpha);
    vat_frame_blend(2.0f, 5, 2.0f, &f0, &f1, &alpha);
    CHECK(f0 == 4 && f1 == 4 && alpha == 0.0f, "the clip end is the last frame exactly");
    vat_frame_blend(2.0f, 5, 9.0f, &f0, &f1, &alpha);
    CHECK(f0 == 4 && f1 == 4, "past the end clamps");
    vat_frame_blend(0.0f, 1, 0.3f, &f0, &f1, &alpha);
    CHECK(f0 == 0 && f1 == 0 && alpha == 0.0f, "one-frame clip");
    /* at every baked frame time the blend lands on that frame (or a hair before it) */
    for (int i = 0; i < 31; i++) {
        float t = vat_frame_time(1.0f, 31, i);
        vat_frame_blend(1.0f, 31, t, &f0, &f1, &alpha);
        float x = (float)f0 + alpha;
        CHECK(fabsf(x - (float)i) < 1e-4f, "frame %d time %g blends to %g", i, (double)t, (double)x);
    }
}

/* Every frame's rows inside its page, no slot used twice, pages within the limit. */
static void check_layout(const VatLayout *layout, const VatClipLayout *clips, int clip_count, int max_texture)
{
    CHECK(layout->width <= max_texture && layout->page_height <= max_texture, "page %dx%d within %d", layout->width,
          layout->page_height, max_texture);
    CHECK((long long)layout->width * layout->rows_per_frame >= layout->vertex_count, "a frame holds every vertex");
    unsigned char *used = calloc((size_t)layout->slot_count + 1, 1);
    for (int c = 0; c < clip_count; c++)
        for (int f = 0; f < clips[c].frame_count; f++) {
            int slot = clips[c].first_slot + f;
            CHECK(slot < layout->slot_count, "clip %d frame %d slot %d beyond %d", c, f, slot, layout->slot_count);
            if (slot >= layout->slot_count) continue;
            CHECK(!used[slot], "slot %d used twice (clip %d frame %d)", slot, c, f);
            used[slot] = 1;
            int page, x, y, last_page, last_x, last_y;
            vat_texel(layout, slot, 0, &page, &x, &y);
            vat_texel(layout, slot, layout->vertex_count - 1, &last_page, &last_x, &last_y);
            CHECK(page == last_page && page < layout->page_count, "frame %d of clip %d on one page", f, c);
            CHECK(y >= 0 && last_y < vat_page_rows(layout, page) && last_x < layout->width,
                  "clip %d frame %d rows %d..%d inside page %d (%d rows)", c, f, y, last_y, page,
                  vat_page_rows(layout, page));
        }
    free(used);
}

static void test_layout(void)
{
    char error[256];
    VatLayout layout;
    /* small model, one page */
    VatClipLayout one[2] = {{.frame_count = 31, .duration = 1.0f}, {.frame_count = 1, .duration = 0.0f}};
    CHECK(vat_layout_build(100, 16384, 256, one, 2, &layout, error, sizeof error), "%s", error);
    CHECK(layout.width == 100 && layout.rows_per_frame == 1 && layout.page_count == 1 && layout.page_height == 32,
          "100 vertices: %dx%d, %d pages", layout.width, layout.page_height, layout.page_count);
    check_layout(&layout, one, 2, 16384);

    /* the demo (7414 vertices) at --max-texture 256: 29 rows per frame, 8 frames per page */
    VatClipLayout clips[4] = {{.frame_count = 5}, {.frame_count = 7}, {.frame_count = 20}, {.frame_count = 1}};
    CHECK(vat_layout_build(7414, 256, 256, clips, 4, &layout, error, sizeof error), "%s", error);
    CHECK(layout.width == 256 && layout.rows_per_frame == 29 && layout.frames_per_page == 8, "wrap %d x %d, %d/page",
          layout.width, layout.rows_per_frame, layout.frames_per_page);
    CHECK(clips[0].first_slot == 0 && clips[1].first_slot == 8, "a clip that would straddle a page starts the next (%d)",
          clips[1].first_slot);
    CHECK(clips[2].first_slot == 15 && clips[3].first_slot == 35, "a clip longer than a page follows on (%d, %d)",
          clips[2].first_slot, clips[3].first_slot);
    CHECK(layout.page_count == 5 && vat_page_rows(&layout, 4) == 4 * 29, "5 pages, the last one shorter (%d, %d rows)",
          layout.page_count, vat_page_rows(&layout, 4));
    check_layout(&layout, clips, 4, 256);

    CHECK(!vat_layout_build(70000, 256, 256, clips, 4, &layout, error, sizeof error) && strstr(error, "rows per frame"),
          "a frame larger than a page refused: %s", error);
    VatClipLayout many = {.frame_count = 100000};
    CHECK(!vat_layout_build(7414, 256, 16, &many, 1, &layout, error, sizeof error) && strstr(error, "pages"),
          "too many pages refused: %s", error);
    CHECK(!vat_layout_build(0, 256, 16, &many, 1, &layout, error, sizeof error), "no vertices refused");
}

static void test_quantize(void)
{
    /* |decode(encode(v)) - v| <= range / 131070 (+ float rounding) over the whole range */
    const float min = -3.7f, range = 12.25f;
    double worst = 0.0;
    for (int i = 0; i <= 200000; i++) {
        float v = min + range * (float)i / 200000.0f;
        double e = fabs((double)vat_dequantize(vat_quantize(v, min, range), min, range) - v);
        if (e > worst) worst = e;
    }
    CHECK(worst <= range / 131070.0 + 2e-6, "quantisation error %g above half a step %g", worst, range / 131070.0);
    CHECK(vat_quantize(min, min, range) == 0 && vat_quantize(min + range, min, range) == VAT_QUANT_MAX, "ends exact");
    CHECK(vat_quantize(100.0f, min, range) == VAT_QUANT_MAX && vat_quantize(-100.0f, min, range) == 0, "clamped");
    CHECK(vat_quantize(5.0f, 5.0f, 0.0f) == 0 && vat_dequantize(0, 5.0f, 0.0f) == 5.0f, "a flat axis");
}

static void test_octahedral(void)
{
    /* the axes and the fold lines come back exactly (float) */
    const float axes[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int a = 0; a < 6; a++) {
        vec2 e;
        vec3 n;
        vat_octahedral_encode(axes[a], e);
        vat_octahedral_decode(e, n);
        CHECK(glm_vec3_distance((float *)axes[a], n) < 1e-6f, "axis %d round trip", a);
    }
    /* 16-bit round trip over a dense Fibonacci sphere */
    double worst = 0.0;
    const int count = 200000;
    for (int i = 0; i < count; i++) {
        double z = 1.0 - 2.0 * (i + 0.5) / count, r = sqrt(1.0 - z * z), phi = i * 2.399963229728653;
        vec3 n = {(float)(r * cos(phi)), (float)(r * sin(phi)), (float)z}, back;
        uint16_t q[2];
        vat_normal_encode16(n, q);
        vat_normal_decode16(q, back);
        vec3 cross;
        glm_vec3_cross(n, back, cross);
        double angle = atan2(glm_vec3_norm(cross), glm_vec3_dot(n, back)) * 180.0 / GLM_PI;
        if (angle > worst) worst = angle;
    }
    printf("octahedral 16-bit: worst angle %.5f deg over %d normals\n", worst, count);
    CHECK(worst <= VAT_NORMAL_MAX_ERROR_DEGREES, "octahedral error %g deg above the bound %g", worst,
          VAT_NORMAL_MAX_ERROR_DEGREES);
    vec3 zero = {0.0f, 0.0f, 0.0f}, back;
    uint16_t q[2];
    vat_normal_encode16(zero, q);
    vat_normal_decode16(q, back);
    CHECK(back[2] > 0.999f, "a zero normal is stored as +Z");
}

int main(void)
{
    test_frames();
    test_layout();
    test_quantize();
    test_octahedral();
    return test_finish();
}
