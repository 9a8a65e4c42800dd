/* vat.c — layout, quantisation and octahedral normals of vertex animation textures (vat.h). */
#include "vat.h"

#include <math.h>
#include <stdio.h>

int vat_clip_frame_count(float duration, float fps)
{
    if (!(duration > 0.0f) || !(fps > 0.0f)) return 1;
    double intervals = ceil((double)duration * (double)fps - 1e-4);
    if (intervals < 1.0) intervals = 1.0;
    if (intervals + 1.0 > VAT_MAX_FRAMES_PER_CLIP) return -1;
    return 1 + (int)intervals;
}

float vat_frame_time(float duration, int frame_count, int frame)
{
    if (frame_count <= 1) return 0.0f;
    /* t_i = i * duration / (frame_count - 1); the last frame lands exactly on duration */
    if (frame >= frame_count - 1) return duration;
    return (float)((double)frame * (double)duration / (double)(frame_count - 1));
}

void vat_frame_blend(float duration, int frame_count, float time, int *frame0, int *frame1, float *alpha)
{
    if (frame_count <= 1 || !(duration > 0.0f)) {
        *frame0 = *frame1 = 0;
        *alpha = 0.0f;
        return;
    }
    /* x = clamp(t / duration, 0, 1) * (frame_count - 1); blend floor(x) and the next frame */
    float u = time / duration;
    u = u > 0.0f ? (u < 1.0f ? u : 1.0f) : 0.0f;   /* NaN: 0 */
    float x = u * (float)(frame_count - 1);
    int f0 = (int)floorf(x);
    if (f0 > frame_count - 1) f0 = frame_count - 1;
    *frame0 = f0;
    *frame1 = f0 + 1 < frame_count ? f0 + 1 : frame_count - 1;
    *alpha = x - (float)f0;
}

bool vat_layout_build(int vertex_count, int max_texture, int max_pages, VatClipLayout *clips, int clip_count,
                      VatLayout *layout, char *error, size_t error_size)
{
    *layout = (VatLayout){0};
    if (vertex_count < 1) {
        snprintf(error, error_size, "nothing to bake: the model has no vertices");
        return false;
    }
    if (max_texture < VAT_MIN_MAX_TEXTURE) {
        snprintf(error, error_size, "maximum texture size %d is below %d", max_texture, VAT_MIN_MAX_TEXTURE);
        return false;
    }
    int width = vertex_count < max_texture ? vertex_count : max_texture;
    int rows_per_frame = (vertex_count + width - 1) / width;
    if (rows_per_frame > max_texture) {
        snprintf(error, error_size, "%d vertices need %d rows per frame, more than a %dx%d texture holds",
                 vertex_count, rows_per_frame, max_texture, max_texture);
        return false;
    }
    int frames_per_page = max_texture / rows_per_frame;
    long long slot = 0;
    for (int c = 0; c < clip_count; c++) {
        int frames = clips[c].frame_count;
        long long left_on_page = frames_per_page - slot % frames_per_page;
        /* a clip that would straddle two pages but fits a whole one starts on a fresh page */
        if (frames > left_on_page && frames <= frames_per_page) slot += left_on_page;
        if (slot > 0x7fffffff - (long long)frames) {
            snprintf(error, error_size, "too many frames to lay out");
            return false;
        }
        clips[c].first_slot = (int)slot;
        slot += frames;
    }
    long long pages = (slot + frames_per_page - 1) / frames_per_page;
    if (pages < 1) pages = 1;
    if (pages > max_pages) {
        snprintf(error, error_size,
                 "the bake needs %lld texture pages of %dx%d, more than the %d allowed (lower --fps or pick "
                 "fewer --clips)",
                 pages, width, frames_per_page * rows_per_frame, max_pages);
        return false;
    }
    layout->vertex_count = vertex_count;
    layout->max_texture = max_texture;
    layout->width = width;
    layout->rows_per_frame = rows_per_frame;
    layout->frames_per_page = frames_per_page;
    layout->slot_count = (int)slot;
    layout->page_count = (int)pages;
    layout->page_height = (pages > 1 ? frames_per_page : (int)(slot > 0 ? slot : 1)) * rows_per_frame;
    return true;
}

void vat_texel(const VatLayout *layout, int slot, int vertex, int *page, int *x, int *y)
{
    /* page = s / frames_per_page; x = v % width; y = (s % frames_per_page) * rows_per_frame + v / width */
    *page = slot / layout->frames_per_page;
    *x = vertex % layout->width;
    *y = (slot % layout->frames_per_page) * layout->rows_per_frame + vertex / layout->width;
}

int vat_page_rows(const VatLayout *layout, int page)
{
    if (page < layout->page_count - 1) return layout->page_height;
    int slots_before = page * layout->frames_per_page;
    int slots = layout->slot_count - slots_before;
    if (slots < 1) slots = 1;
    return slots * layout->rows_per_frame;
}

uint16_t vat_quantize(float value, float min, float range)
{
    if (!(range > 0.0f)) return 0;
    /* q = round((value - min) / range * 65535) */
    double q = floor(((double)value - (double)min) / (double)range * VAT_QUANT_MAX + 0.5);
    if (!(q > 0.0)) return 0;
    if (q > VAT_QUANT_MAX) return VAT_QUANT_MAX;
    return (uint16_t)q;
}

float vat_dequantize(uint16_t q, float min, float range)
{
    return min + (float)q / (float)VAT_QUANT_MAX * range;
}

static float sign_not_zero(float v) { return v >= 0.0f ? 1.0f : -1.0f; }

/* The octahedron's lower half folded over the diagonals of the square, and back (the fold is its
 * own inverse): (x, y) -> ((1 - |y|) sign x, (1 - |x|) sign y). */
static void fold_diagonals(vec2 xy)
{
    float x = xy[0], y = xy[1];
    xy[0] = (1.0f - fabsf(y)) * sign_not_zero(x);
    xy[1] = (1.0f - fabsf(x)) * sign_not_zero(y);
}

void vat_octahedral_encode(const vec3 n, vec2 e)
{
    float l1 = fabsf(n[0]) + fabsf(n[1]) + fabsf(n[2]);
    if (!(l1 > 0.0f)) {   /* no direction: store +Z */
        e[0] = e[1] = 0.0f;
        return;
    }
    e[0] = n[0] / l1, e[1] = n[1] / l1;
    if (n[2] < 0.0f) fold_diagonals(e);   /* the lower hemisphere */
}

void vat_octahedral_decode(const vec2 e, vec3 n)
{
    vec2 xy = {e[0], e[1]};
    float z = 1.0f - fabsf(e[0]) - fabsf(e[1]);
    if (z < 0.0f) fold_diagonals(xy);   /* the lower hemisphere, unfolded */
    n[0] = xy[0];
    n[1] = xy[1];
    n[2] = z;
    glm_vec3_normalize(n);
}

static float unorm16_to_snorm(uint16_t q) { return (float)q / (float)VAT_QUANT_MAX * 2.0f - 1.0f; }

void vat_normal_encode16(const vec3 n, uint16_t out[2])
{
    vec2 e;
    vat_octahedral_encode(n, e);
    vec3 unit;
    glm_vec3_copy((float *)n, unit);
    glm_vec3_normalize(unit);
    /* Of the four 16-bit neighbours of e, keep the one that decodes closest to n
     * (plain rounding is up to ~2x worse near the folds). */
    double base[2];
    for (int k = 0; k < 2; k++) base[k] = floor(((double)e[k] + 1.0) * 0.5 * VAT_QUANT_MAX);
    float best_dot = -2.0f;
    out[0] = out[1] = 0;
    for (int dx = 0; dx <= 1; dx++)
        for (int dy = 0; dy <= 1; dy++) {
            double qx = base[0] + dx, qy = base[1] + dy;
            if (!(qx >= 0.0 && qy >= 0.0 && qx <= VAT_QUANT_MAX && qy <= VAT_QUANT_MAX)) continue;   /* NaN too */
            uint16_t q[2] = {(uint16_t)qx, (uint16_t)qy};
            vec3 decoded;
            vat_normal_decode16(q, decoded);
            float dot = glm_vec3_dot(decoded, unit);
            if (dot > best_dot) {
                best_dot = dot;
                out[0] = q[0];
                out[1] = q[1];
            }
        }
}

void vat_normal_decode16(const uint16_t in[2], vec3 n)
{
    vec2 e = {unorm16_to_snorm(in[0]), unorm16_to_snorm(in[1])};
    vat_octahedral_decode(e, n);
}

void vat_decode_texel(const VatTextures *textures, int slot, int vertex, vec3 position, vec3 normal)
{
    const VatLayout *layout = textures->layout;
    int page, x, y;
    vat_texel(layout, slot, vertex, &page, &x, &y);
    size_t texel = (size_t)layout->width * (size_t)layout->page_height * (size_t)page + (size_t)y * (size_t)layout->width +
                   (size_t)x;
    if (textures->float_precision) {
        const float *p = (const float *)textures->positions + texel * 4;
        glm_vec3_copy((float *)p, position);
    } else {
        const uint16_t *q = (const uint16_t *)textures->positions + texel * 4;
        for (int k = 0; k < 3; k++) {
            float range = textures->bounds_max[k] - textures->bounds_min[k];
            position[k] = vat_dequantize(q[k], textures->bounds_min[k], range);
        }
    }
    vat_normal_decode16(textures->normals + texel * 2, normal);
}

void vat_decode_vertex(const VatTextures *textures, int first_slot, int frame_count, float duration, float time,
                       int vertex, vec3 position, vec3 normal)
{
    int f0, f1;
    float alpha;
    vat_frame_blend(duration, frame_count, time, &f0, &f1, &alpha);
    vec3 p0, p1, n0, n1;
    vat_decode_texel(textures, first_slot + f0, vertex, p0, n0);
    vat_decode_texel(textures, first_slot + f1, vertex, p1, n1);
    for (int k = 0; k < 3; k++) {
        position[k] = p0[k] * (1.0f - alpha) + p1[k] * alpha;
        normal[k] = n0[k] * (1.0f - alpha) + n1[k] * alpha;
    }
    glm_vec3_normalize(normal);
}
