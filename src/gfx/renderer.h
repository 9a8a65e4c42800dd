/* renderer.h — draws an animated Model with OpenGL 3.3 core: the skinning shader
 * (shaders/skinned.vert/.frag), one VAO per mesh, materials, and a transform-feedback
 * path that reads the shader's scene-space output back for `--verify`.
 *
 * Every function needs a current GL context whose functions glad has loaded
 * (src/app/glcontext.h does both). Nothing here allocates per frame.
 *
 * Typical use (the viewer):
 *     Renderer renderer;
 *     app_renderer_init(&renderer, &model, max_bones, error, sizeof error); // glcontext.h
 *     each frame:
 *         animator_evaluate(&animator, clip, time);
 *         renderer_clear(0.18f, 0.2f, 0.23f);
 *         renderer_draw(&renderer, &animator, view, projection, &light);
 *     renderer_free(&renderer);
 *
 * Colour: the fragment shader computes LINEAR colour. Output is sRGB-encoded by exactly
 * one of two means, chosen per frame from the bound draw framebuffer: if it is sRGB
 * (GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING == GL_SRGB; our offscreen FBOs always are,
 * sRGB-capable windows usually are) GL_FRAMEBUFFER_SRGB is enabled for the draw and the
 * shader writes linear; otherwise the shader gamma-encodes itself. GL_FRAMEBUFFER_SRGB is
 * disabled again when renderer_draw returns, so overlays drawn afterwards write their
 * colours unchanged.
 */
#ifndef SKINVIEW_RENDERER_H
#define SKINVIEW_RENDERER_H

#include "renderer_types.h"   /* Renderer, GpuMesh, SkinShader, RenderLight, ... */

#include <stdbool.h>
#include <stddef.h>

/* Palette size (bones per mesh) the skinning shader can hold on this GL:
 *   GL_MAX_VERTEX_UNIFORM_COMPONENTS / 16 - RENDERER_RESERVED_MAT4.
 * Import with max_bones_per_mesh <= this. */
int renderer_max_bones(void);

/* Compiles vert_path + frag_path into `shader`, with "#define MAX_BONES max_bones" injected
 * after the #version line and the varyings scenePosition, sceneNormal registered for
 * transform feedback (interleaved) before linking. max_bones must be in [1, renderer_max_bones()].
 * On failure returns false with the compile/link log (first line) in error. */
bool skin_shader_load(SkinShader *shader, const char *vert_path, const char *frag_path, int max_bones,
                      char *error, size_t error_size);
void skin_shader_free(SkinShader *shader);

/* Loads the shaders (as skin_shader_load: vert_path + frag_path for LBS; skinned_dq.vert,
 * normals.geom and normals.frag from the folder of vert_path) and uploads every mesh and texture
 * of `model`.
 * Fails with a clear message if a mesh has more bones than max_bones (re-import with
 * max_bones_per_mesh = max_bones so Assimp splits it) — it never draws a wrong picture. */
bool renderer_init(Renderer *renderer, const Model *model, const char *vert_path, const char *frag_path,
                   int max_bones, char *error, size_t error_size);
void renderer_free(Renderer *renderer);

/* Uploads an RGBA8 texture (rows top to bottom, as decoded) as GL_SRGB8_ALPHA8 with mipmaps,
 * bottom row first so that Assimp's UVs (v = 0 at the bottom) sample it upright; an
 * undecodable one becomes 1x1 white. Returns the GL name; the caller deletes it. */
GLuint renderer_upload_texture(const Texture *texture);

/* Per-frame CPU work of the skinning method, after animator_evaluate() and before drawing:
 * SKINNING_CPU_LBS skins every skinned mesh with animator_skin_mesh() and uploads it;
 * SKINNING_GPU_DQ converts the palettes to dual quaternions (skin_dq_pose_update; meshes
 * with non-uniform scale are counted in dq_fallback_meshes and drawn with LBS);
 * SKINNING_GPU_LBS does nothing (the palette is uploaded by renderer_draw). No allocation. */
void renderer_prepare(Renderer *renderer, const Animator *animator);

/* The difference view: values[vertex_count] in [0, 1] for skinned mesh `mesh` (glBufferSubData into
 * its heat buffer, no allocation); drawn in RENDER_WEIGHTS colours while show_heat is set. */
void renderer_set_vertex_heat(Renderer *renderer, int mesh, const float *values);

/* Selects the joint the weight heat-map shows (-1: none): finds its palette index in every
 * mesh's bone list once, so drawing looks nothing up. */
void renderer_select_joint(Renderer *renderer, int joint);

/* LIGHTING_FLAT: light from the upper front right (scene space), white, with a soft ambient term
 * (the look before materials; --lighting flat). */
void render_light_default(RenderLight *light);

/* LIGHTING_PBR, the default rig: a white key light above and to the right of the camera that
 * follows it (so the side the user looks at is lit), a cool sky / warm ground hemisphere for
 * ambient, exposure 1. No file needed. */
void render_light_pbr(RenderLight *light);

/* Clears colour (given sRGB-encoded, 0..1, written as is) and depth of the bound draw framebuffer. */
void renderer_clear(float r, float g, float b);

/* Clears to transparent black (alpha 0) and clears depth: for images with a transparent
 * background (--thumbnail). */
void renderer_clear_transparent(void);

/* Draws every mesh of the model posed by `animator` (evaluate it first) into the bound
 * draw framebuffer and current viewport. Skinned meshes: their palette (one
 * glUniformMatrix4fv per mesh) and an identity model matrix; static meshes: the model
 * matrix animator_mesh_matrix(). Meshes with morph targets: the animator's active targets
 * (more than RENDERER_MAX_MORPH_ACTIVE at once: summed on the CPU, drawn as one). Depth test on.
 * Back faces are culled for single-sided materials (glTF doubleSided false) and everywhere when
 * cull_back_faces. Two passes: first every mesh whose material is not alpha BLEND, then the BLEND
 * ones sorted back to front (view depth of each mesh's centroid as posed), depth writes off,
 * colour blended (src alpha, 1 - src alpha; alpha accumulates as coverage); double-sided BLEND
 * meshes draw their back faces, then their front faces. The teaching views (mode != RENDER_LIT)
 * draw BLEND parts opaque in the first pass. Leaves the program, VAO, blending and
 * GL_FRAMEBUFFER_SRGB unbound/disabled. */
void renderer_draw(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                   const RenderLight *light);

/* Runs mesh `mesh` through the vertex shader of the current method (renderer_prepare first)
 * with transform feedback and
 * GL_RASTERIZER_DISCARD and reads back each vertex's scene-space position (model * skinned)
 * and normal (not normalised). out_normals may be NULL. Returns false on a GL error.
 * NOTE: even with rasterization off, GL wants a complete draw framebuffer: bind a
 * Framebuffer (framebuffer.h) first — an EGL surfaceless context has no default one. */
/* Draws the triangle edges of every mesh over what renderer_draw drew (same pose and method),
 * in a darker shade of the lit surface under them (a lighter one on dark surfaces). */
void renderer_draw_wireframe(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                             const RenderLight *light);

/* Draws every vertex's skinned normal as a line of `length` scene units in `color` (sRGB 0..1,
 * written as is), through the method's own vertex shader (so DQS normals show as DQS computes
 * them), depth-tested against what is drawn. */
void renderer_draw_normals(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                           float length, const float color[3]);

/* --environment: an equirectangular radiance image (rgb[width * height * 3], linear, rows top
 * to bottom: +Y up, the centre column looking along -Z) prefiltered for image-based ambient light
 * (renderer_environment.c): the diffuse irradiance / pi as 9 spherical-harmonic coefficients,
 * and ENVIRONMENT_LEVELS levels of ENVIRONMENT_WIDTH x ENVIRONMENT_WIDTH / 2 >> k texels, level
 * k the radiance around each direction for roughness k / (ENVIRONMENT_LEVELS - 1). */
/* Pure CPU; false when out of memory or the image is empty. Free with environment_light_free. */
bool environment_prefilter(const float *rgb, int width, int height, EnvironmentLight *out);
void environment_light_free(EnvironmentLight *light);
/* Prefilters the image, uploads it and recompiles the programs with HAS_ENVIRONMENT: from then on
 * the PBR ambient (diffuse and specular) comes from the image instead of the sky/ground
 * hemisphere; the key light stays. False when out of memory or the programs do not compile. */
bool renderer_set_environment(Renderer *renderer, const float *rgb, int width, int height);

/* The model's shadow on the ground plane y = ground_y, inside the square of half size `radius`
 * around (center[0], center[1]) in x, z (the ground grid's): the meshes as posed, projected along
 * the key light (its direction in scene space; a light lower than ~11 degrees is raised to that),
 * blurred, drawn as black of opacity RENDERER_SHADOW_STRENGTH x coverage over what is drawn,
 * depth-tested, no depth writes. Call after clearing and before renderer_draw (the model covers
 * it). Changes no binding the caller sees (framebuffer, viewport restored). */
void renderer_draw_shadow(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                          const RenderLight *light, float ground_y, const float center[2], float radius);

/* renderer_draw_shadow for any caster, into `shadow`'s mask (made on first use, so a shadow that is
 * never shown costs nothing). */
void shadow_draw(RendererShadow *shadow, const ShadowCaster *caster, const mat4 view, const mat4 projection,
                 const RenderLight *light, float ground_y, const float center[2], float radius);
void renderer_shadow_free(RendererShadow *shadow);

/* --environment's GL part for any renderer: the image prefiltered (environment_prefilter) into
 * *texture (created when 0; ENVIRONMENT_LEVELS mip levels, GL_RGB16F, unit 7 of skinned.frag's
 * HAS_ENVIRONMENT) and sh (environmentSh). False when out of memory. */
bool environment_upload(const float *rgb, int width, int height, GLuint *texture, float sh[9][3]);

bool renderer_capture_mesh(Renderer *renderer, const Animator *animator, int mesh, vec3 *out_positions,
                           vec3 *out_normals);

#endif
