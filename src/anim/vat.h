/* vat.h — vertex animation textures (VAT): the math of a bake, as pure functions.
 *
 * A bake samples every selected clip at a fixed rate and stores, for every frame, the
 * scene-space position and normal of every vertex as one texel each. The textures then
 * replace the skeleton at run time: a vertex shader (shaders/vat.vert) fetches its two
 * texels around the current time and blends them. docs/vat.md tells the whole story.
 *
 * Layout (one texture "page" is at most max_texture x max_texture texels):
 *   width           = min(vertex_count, max_texture)      texels per row
 *   rows_per_frame  = ceil(vertex_count / width)          vertices wrap to more rows
 *   frames_per_page = floor(max_texture / rows_per_frame)
 *   A frame occupies one "slot" of rows_per_frame rows. Clips take consecutive slots; a
 *   clip that does not fit in what is left of a page starts on the next page (a clip
 *   longer than a whole page continues on the following pages). For slot s and vertex v:
 *     page = s / frames_per_page
 *     x    = v % width
 *     y    = (s % frames_per_page) * rows_per_frame + v / width   (row 0 = first PNG row)
 *
 * Frames of a clip: frame_count = 1 + ceil(duration * fps) evenly spaced samples,
 *   t_i = i * duration / (frame_count - 1)   (first and last key both baked; a clip of
 *   zero length has one frame). Playing at time t blends frames floor(x) and floor(x)+1,
 *   x = t / duration * (frame_count - 1), by the fraction of x.
 *
 * Positions (16-bit): per-axis bounds over every baked frame,
 *   q = round((p - min) / (max - min) * 65535),   p' = min + q / 65535 * (max - min),
 *   so |p' - p| <= (max - min) / 131070 per axis (half a step; float rounding adds ~1e-7).
 * Normals: octahedral map to [-1,1]^2, each stored as round((e + 1) / 2 * 65535).
 *
 * Plain C + cglm, no allocation; unit-tested in tests/anim/test_vat.c.
 */
#ifndef SKINVIEW_VAT_H
#define SKINVIEW_VAT_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VAT_DEFAULT_FPS 30.0f
#define VAT_DEFAULT_MAX_TEXTURE 16384   /* when no GL is there to ask GL_MAX_TEXTURE_SIZE */
#define VAT_MIN_MAX_TEXTURE 16
#define VAT_QUANT_MAX 65535             /* 16-bit unsigned normalised */
#define VAT_MAX_FRAMES_PER_CLIP 1000000
/* Worst angle between a unit normal and its 16-bit octahedral round trip, degrees: measured
 * over 200 000 normals spread over the sphere by tests/anim/test_vat.c (0.0073), with a margin. */
#define VAT_NORMAL_MAX_ERROR_DEGREES 0.01

/* Where one clip's frames are. */
typedef struct VatClipLayout {
    int   frame_count;   /* >= 1 */
    float duration;      /* seconds */
    int   first_slot;    /* slot of frame 0; frame i is slot first_slot + i */
} VatClipLayout;

typedef struct VatLayout {
    int vertex_count;
    int max_texture;      /* the limit the layout was built for */
    int width;            /* texels per row */
    int rows_per_frame;
    int frames_per_page;
    int slot_count;       /* slots used, skipped ones included */
    int page_count;
    int page_height;      /* rows of a full page; the last page may have fewer (vat_page_rows) */
} VatLayout;

/* Frames baked for a clip of `duration` seconds at `fps`: 1 + ceil(duration * fps)
 * (a tiny tolerance keeps 1.0 s at 30 fps at 31 frames despite float rounding); 1 when
 * duration <= 0. Returns -1 when it would exceed VAT_MAX_FRAMES_PER_CLIP. */
int vat_clip_frame_count(float duration, float fps);

/* Time of frame i: t_i = i * duration / (frame_count - 1); 0 for a one-frame clip. */
float vat_frame_time(float duration, int frame_count, int frame);

/* The two frames around `time` and the blend factor between them:
 *   x = clamp(time / duration, 0, 1) * (frame_count - 1),  frame0 = floor(x),
 *   frame1 = min(frame0 + 1, frame_count - 1),  alpha = x - frame0. */
void vat_frame_blend(float duration, int frame_count, float time, int *frame0, int *frame1, float *alpha);

/* Builds the layout for `vertex_count` vertices and clip_count clips whose frame_count is
 * set (first_slot is written). max_pages bounds page_count (GL_MAX_ARRAY_TEXTURE_LAYERS).
 * Fails with a one-line cause when a frame does not fit one page or there are too many pages. */
bool vat_layout_build(int vertex_count, int max_texture, int max_pages, VatClipLayout *clips, int clip_count,
                      VatLayout *layout, char *error, size_t error_size);

/* Texel of vertex v in slot s (see the layout formula above). */
void vat_texel(const VatLayout *layout, int slot, int vertex, int *page, int *x, int *y);

/* Rows of page p: page_height, or fewer for the last page. */
int vat_page_rows(const VatLayout *layout, int page);

/* 16-bit quantisation of one axis: q = round((value - min) / range * 65535), clamped;
 * range <= 0 (a flat axis) gives 0. */
uint16_t vat_quantize(float value, float min, float range);

/* value = min + q / 65535 * range */
float vat_dequantize(uint16_t q, float min, float range);

/* Octahedral map of a unit vector n to e in [-1,1]^2 (Cigolle et al. 2014):
 *   e = n.xy / (|n.x| + |n.y| + |n.z|); lower hemisphere (n.z < 0) folded:
 *   e = (1 - |e.yx|) * sign(e), with sign(0) = +1. */
void vat_octahedral_encode(const vec3 n, vec2 e);

/* Inverse: v = (e.x, e.y, 1 - |e.x| - |e.y|); if v.z < 0: v.xy = (1 - |v.yx|) * sign(v.xy);
 * n = normalize(v). */
void vat_octahedral_decode(const vec2 e, vec3 n);

/* Octahedral + 16-bit quantisation: out[k] = round((e[k] + 1) / 2 * 65535). A zero vector
 * is stored as +Z. */
void vat_normal_encode16(const vec3 n, uint16_t out[2]);
void vat_normal_decode16(const uint16_t in[2], vec3 n);

/* A bake's textures in memory, as the CPU decode reads them (the pages stacked, each padded to
 * page_height rows): the reference --verify checks vat.vert against, and --export-pose. */
typedef struct VatTextures {
    const VatLayout *layout;
    bool             float_precision; /* positions: float RGBA, else 16-bit RGBA quantized to the bounds */
    const void      *positions;
    const uint16_t  *normals;         /* two per texel (octahedral, 16 bits each) */
    vec3             bounds_min, bounds_max;
} VatTextures;

/* Position and normal of baked `vertex` in slot `slot` (a clip's first slot + frame). */
void vat_decode_texel(const VatTextures *textures, int slot, int vertex, vec3 position, vec3 normal);

/* Position and normal of baked `vertex` at `time` seconds into a clip of `frame_count` frames
 * from `first_slot` over `duration`: the two frames around the time, blended
 *   p = mix(p0, p1, alpha), n = normalize(mix(n0, n1, alpha))   (as vat.vert does). */
void vat_decode_vertex(const VatTextures *textures, int first_slot, int frame_count, float duration, float time,
                       int vertex, vec3 position, vec3 normal);

#endif
