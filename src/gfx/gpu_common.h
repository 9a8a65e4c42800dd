/* gpu_common.h — what both renderers (renderer.c: the skinned model; vat_renderer.c: a VAT
 * bake) do the same way on the GPU: the opaque pass's state, the 1x1 white texture bound for
 * untextured materials, a material's colour and texture, and the transform-feedback capture
 * that --verify reads the vertex shader's output through. */
#ifndef SKINVIEW_GPU_COMMON_H
#define SKINVIEW_GPU_COMMON_H

#include "anim/model.h"
#include "gfx/gl_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One uniform to look up: its GLSL name and where its location goes (offsetof in the struct the
 * table describes). gpu_find_uniforms fills every entry of `table` into `locations` (-1: absent). */
typedef struct GpuUniformName {
    const char *name;
    size_t      offset;
} GpuUniformName;
void gpu_find_uniforms(GLuint program, const GpuUniformName *table, int count, void *locations);

/* A zeroed staging buffer of `floats_per_vertex` floats per vertex (at least one vertex); NULL with
 * "out of memory for mesh N" in error. The caller frees it. */
float *gpu_vertex_staging(int vertex_count, int floats_per_vertex, int mesh_index, char *error, size_t error_size);

/* True when GL reports no error; else false with "GL error 0x.... while `doing`" in error. */
bool gpu_check_error(const char *doing, char *error, size_t error_size);

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
 * maps a material lacks (1 in every channel, in either encoding). Owned by the renderer that
 * uploaded it (gpu_textures_upload / gpu_textures_free). */
typedef struct GpuTextureSet {
    int     count;
    GLuint *srgb;
    GLuint *linear;
    GLuint  white;
} GpuTextureSet;

/* Uploads every texture of `model` (sRGB), the linear copies of the data maps and the white
 * texture. False when out of memory (nothing is left to free then). */
bool gpu_textures_upload(const Model *model, GpuTextureSet *textures);
void gpu_textures_free(GpuTextureSet *textures);

/* [model->texture_count] linear copies of the textures that a material's metallic-roughness,
 * normal or occlusion map samples (0 for the others); NULL when none is (or out of memory: the
 * maps then fall back to white). Free with gpu_free_linear_textures. */
GLuint *gpu_upload_linear_textures(const Model *model);
void gpu_free_linear_textures(GLuint *linear, int count);

/* The interleaved vertex buffer of one mesh: creates *vao, *vbo (vertex_count records of the
 * `attribute_count` float attributes sizes[0..], at locations 0..attribute_count-1, in that
 * order) and *ebo (index_count indices), leaving the VAO unbound. */
void gpu_upload_interleaved(GLuint *vao, GLuint *vbo, GLuint *ebo, const float *vertices, int vertex_count,
                            const int *sizes, int attribute_count, const uint32_t *indices, int index_count);

/* Uniform locations of the light part of skinned.frag and the camera (-1 where a program lacks one). */
typedef struct LightUniforms {
    GLint direction, color, ambient;   /* vec3 lightDirection, lightColor, ambientColor */
    GLint lighting_model;              /* int: RenderLighting (unused where LIGHTING_COMPILED is defined) */
    GLint sky, ground, exposure;       /* the PBR rig's hemisphere and exposure */
    GLint camera_position;             /* vec3: the eye in scene space */
    GLint encode_srgb;                 /* bool: gamma-encode in the shader */
    GLint view, projection;            /* mat4 */
} LightUniforms;

void gpu_light_uniforms_find(GLuint program, LightUniforms *uniforms);

struct RenderLight;
/* Sets the camera (view, projection, the eye's position) and, when light is not NULL, the light
 * of the bound program; encodeSrgb = !srgb_target. The key light's direction moves to scene space
 * when it follows the camera: d_scene = R_camera d_view (R_camera = the rotation of inverse(view)). */
void gpu_set_frame_uniforms(const LightUniforms *uniforms, const mat4 view, const mat4 projection,
                            const struct RenderLight *light, bool srgb_target);

/* The key light's direction (toward the light, not normalised) in scene space: as given, or
 * R_camera d_view when it follows the camera (R_camera = the rotation of inverse(view)). */
void gpu_light_scene_direction(const struct RenderLight *light, const mat4 view, vec3 out);

/* The blend pass (BLEND materials, after the opaque ones): colour src * a + dst * (1 - a), alpha
 * a + dst_a * (1 - a) (coverage, for a transparent background), depth test on, depth writes off.
 * gpu_blend_pass_end restores depth writes and turns blending off. */
void gpu_blend_pass_begin(void);
void gpu_blend_pass_end(void);

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
