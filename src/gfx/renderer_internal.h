/* renderer_internal.h — what the renderer's files (renderer.c: set-up and per-frame CPU work,
 * renderer_shader.c: programs, renderer_mesh.c: uploads, renderer_draw.c: passes) share; not
 * for use outside src/gfx/renderer*.c. */
#ifndef SKINVIEW_RENDERER_INTERNAL_H
#define SKINVIEW_RENDERER_INTERNAL_H

#include "renderer.h"
#include "gl.h"

#define RENDERER_FEEDBACK_FLOATS 6   /* scenePosition 3, sceneNormal 3 (interleaved) */
#define RENDERER_POINT_PIXELS 4.0f  /* the size a point primitive (Mesh.primitive MESH_POINTS) is drawn at */

/* renderer_shader.c */
/* The model's material features as skinned.frag #defines (MATERIAL_FEATURES_SELECTED + one HAS_*
 * per feature that some material or mesh uses): the fragment shader compiles only those paths. */
void renderer_material_features(const Model *model, char *out, size_t out_size);
/* Compiles vert (+ geom when not NULL) + frag with MAX_BONES, the lighting model and `features`
 * injected; only the geometry-less programs record the transform-feedback varyings (--verify
 * captures those). */
bool renderer_load_program(SkinShader *shader, const char *vert_path, const char *geom_path, const char *frag_path,
                           int max_bones, RenderLighting lighting, const char *features, char *error,
                           size_t error_size);
/* The programs compiled on first use: DQ (false, reported once, when it does not compile: DQ
 * meshes then draw with LBS), the normals view's two, and the skinning programs for another
 * lighting model (kept as they are, one line on stderr, when the new ones do not compile). */
bool renderer_ensure_dq_shader(Renderer *renderer);
bool renderer_ensure_normals_shaders(Renderer *renderer);
void renderer_ensure_lighting(Renderer *renderer, RenderLighting lighting);
/* The skinning programs again for the current lighting with the features of now (material
 * features + HAS_ENVIRONMENT when set); false (one line on stderr, the old ones kept) on failure. */
bool renderer_recompile(Renderer *renderer);
/* Does mesh m use the dual quaternion shader (method DQ, skinned, palette converted)? */
bool renderer_mesh_uses_dq(const Renderer *renderer, int m);

/* renderer_draw.c */
/* Draws the meshes with displayMode `display_mode` (state set by the caller): the opaque pass
 * (every mesh but the BLEND ones, which the lit view keeps for later), then, in the lit view, the
 * BLEND pass sorted far to near with depth writes off. */
void renderer_draw_meshes(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                          const RenderLight *light, bool srgb_target, int display_mode);

/* Mesh m's bounding sphere as posed: its centroid moved by the anchor bone's palette entry
 * (skinned) or its model matrix (static), the radius scaled by the placement's largest axis. A
 * skinned mesh deforms around it: limbs keep their lengths, so the bind pose's radius holds
 * roughly, not exactly. */
void renderer_mesh_posed_bounds(const Renderer *renderer, const Animator *animator, int m, vec3 center, float *radius);

/* renderer_mesh.c */
/* Uploads mesh `mesh_index` of `model` into *gpu: the 16-float VAO (and the CPU-skinned one),
 * the attributes outside it (7-12), the morph deltas, the blend pass's sort anchor. */
bool renderer_upload_mesh(const Model *model, int mesh_index, int max_bones, GpuMesh *gpu, char *error,
                          size_t error_size);
void renderer_free_mesh(GpuMesh *gpu);

#endif
