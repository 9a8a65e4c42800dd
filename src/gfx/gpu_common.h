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

/* Uploads an RGBA8 texture (rows top to bottom, as decoded) with mipmaps, bottom row first so
 * that the stored UVs (v = 0 at the bottom) sample it upright: GL_SRGB8_ALPHA8 when `srgb` (colour:
 * base colour, emissive), GL_RGBA8 otherwise (data: metallic-roughness, normal, occlusion). An
 * undecodable one becomes 1x1 white. Returns the GL name; the caller deletes it. */
GLuint gpu_upload_texture(const Texture *texture, bool srgb);

/* The textures of a model as the material binding needs them: srgb[t] for every texture, linear[t]
 * for the ones some material samples as data (0 elsewhere; linear may be NULL: none), `white` for
 * maps a material lacks (1 in every channel, in either encoding). */
typedef struct GpuTextureSet {
    int           count;
    const GLuint *srgb;
    const GLuint *linear;
    GLuint        white;
} GpuTextureSet;

/* [model->texture_count] linear copies of the textures that a material's metallic-roughness,
 * normal or occlusion map samples (0 for the others); NULL when none is (or out of memory: the
 * maps then fall back to white). Free with gpu_free_linear_textures. */
GLuint *gpu_upload_linear_textures(const Model *model);
void gpu_free_linear_textures(GLuint *linear, int count);

/* Uniform locations of the material part of skinned.frag (-1 where a program lacks one). */
typedef struct MaterialUniforms {
    GLint base_color;          /* vec4 diffuseColor (glTF baseColorFactor) */
    GLint metallic, roughness; /* float */
    GLint normal_scale, has_normal_map;
    GLint occlusion_strength;
    GLint emissive;            /* vec3: factor x strength */
    GLint alpha_mode, alpha_cutoff, unlit;
    GLint uv_set;              /* int uvSet[5] */
    GLint uv_transform;        /* mat3 uvTransform[5] */
} MaterialUniforms;

/* Texture units of the material's maps (unit 1: morph deltas, 2: the heat-map's colours). */
enum {
    MATERIAL_UNIT_BASE_COLOR = 0,
    MATERIAL_UNIT_METALLIC_ROUGHNESS = 3,
    MATERIAL_UNIT_NORMAL = 4,
    MATERIAL_UNIT_OCCLUSION = 5,
    MATERIAL_UNIT_EMISSIVE = 6,
};

/* Looks the uniforms up in `program` and points its samplers at the units above (binds it). */
void gpu_material_uniforms_find(GLuint program, MaterialUniforms *uniforms);

/* The 3x3 matrix (row-major) that takes a stored UV (v up: 1 - v_glTF) through map's
 * KHR_texture_transform: F * T(offset) * R(-rotation) * S(scale) * F, F = (u, v) -> (u, 1 - v)
 * (the extension works in glTF's v-down UV space). Identity without a transform. */
void material_map_uv_matrix(const MaterialMap *map, float out[9]);

/* Binds material `material` of `model` (-1 or out of range: none = 0.8 grey, glTF's other
 * defaults) to the bound program: factors, alpha mode, UV sets and transforms into `uniforms`, its
 * five maps (or white) on their units. */
void gpu_bind_material(const Model *model, int material, const GpuTextureSet *textures,
                       const MaterialUniforms *uniforms);

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
