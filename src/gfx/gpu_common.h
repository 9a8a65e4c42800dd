/* gpu_common.h — what both renderers (renderer.c: the skinned model; vat_renderer.c: a VAT
 * bake) do the same way on the GPU: the opaque pass's state, the 1x1 white texture bound for
 * untextured materials, a material's colour and texture, and the transform-feedback capture
 * that --verify reads the vertex shader's output through. */
#ifndef SKINVIEW_GPU_COMMON_H
#define SKINVIEW_GPU_COMMON_H

#include "anim/model.h"
#include "gfx/gl.h"

#include <stdbool.h>
#include <stddef.h>

/* The opaque pass: depth test (less), back faces culled when asked (counter-clockwise fronts),
 * no blending, and the framebuffer's sRGB encoding on when `srgb_target`. */
void gpu_opaque_pass_begin(bool srgb_target, bool cull_back_faces);
/* Back to the defaults the other passes expect: no culling, no sRGB encoding. */
void gpu_opaque_pass_end(void);

/* A 1x1 opaque white texture (sRGB), for materials without a texture of their own. */
GLuint gpu_white_texture(void);

/* Binds material `material` of `model` (-1 or out of range: none) to the bound program: its
 * diffuse colour into `color_uniform` (none: 0.8 grey) and its texture (or `white`) on unit 0. */
void gpu_bind_material(const Model *model, int material, const GLuint *textures, int texture_count, GLuint white,
                       GLint color_uniform);

/* Makes `*buffer` (created on first use) hold at least `bytes` for capture, bound to
 * GL_TRANSFORM_FEEDBACK_BUFFER. */
void gpu_feedback_reserve(GLuint *buffer, size_t *size, size_t bytes);

/* Runs the bound program once over `vertex_count` points of `vao` with rasterisation off,
 * capturing its transform-feedback output (records of `record_floats` floats: position, then
 * normal) into `buffer`, and copies the positions (and normals, if out_normals) out. Unbinds the
 * program. False when fewer records than vertices were written or the read-back failed. */
bool gpu_capture_points(GLuint buffer, GLuint vao, int vertex_count, int record_floats, vec3 *out_positions,
                        vec3 *out_normals);

#endif
