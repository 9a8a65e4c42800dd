/* vat_renderer.h — draws a VAT bake (docs/vat.md): shaders/vat.vert + skinned.frag, the
 * position and normal pages as two GL_TEXTURE_2D_ARRAYs (layer = page), one VAO per mesh of
 * mesh.glb, and N instances in ONE instanced draw call per mesh, each instance with its own
 * grid offset, clip and time offset (per-instance attributes, glVertexAttribDivisor 1).
 *
 * Needs a current GL 3.3 core context with glad loaded. Nothing is allocated per frame.
 */
#ifndef SKINVIEW_VAT_RENDERER_H
#define SKINVIEW_VAT_RENDERER_H

#include "anim/model.h"
#include "anim/vat.h"
#include "gl_types.h"
#include "renderer.h"

#include <stdbool.h>
#include <stddef.h>

/* The baked textures as the GPU takes them. Pages are stacked, each padded to
 * layout.page_height rows: positions are RGBA uint16 (or RGBA float when float_precision),
 * normals two uint16 per texel. clips[c] = (first slot, frame count, duration, 0). */
typedef struct VatGpuData {
    VatLayout       layout;
    bool            float_precision;
    const void     *positions;
    const uint16_t *normals;
    vec3            bounds_min, bounds_max;
    int             clip_count;
    const vec4     *clips;
    const vec2     *uv1;           /* [vertex id] the model's second UV set (v up), NULL: none */
    const unsigned char *uv1_present; /* [vertex id] 1 where uv1 holds one */
} VatGpuData;

/* One copy in the crowd: offset in scene space, clip index, seconds added to the time. */
typedef struct VatInstance {
    float offset[3];
    float time_offset;
    float clip;
} VatInstance;

typedef struct VatMeshGpu {
    GLuint vao, vbo, ebo;
    GLuint extra_vbo;                 /* colour (location 9) and uv1 (location 11) */
    int    vertex_count, index_count, material;
    MeshPrimitive primitive;          /* drawn as GL_TRIANGLES, GL_LINES or GL_POINTS */
    bool   has_uv1;
} VatMeshGpu;

typedef struct VatRenderer {
    const Model *model;               /* mesh.glb as imported (uvs2 = vertex ids); not owned */
    GLuint       program;
    GLint        u_time, u_bounds_min, u_bounds_range, u_width, u_rows_per_frame, u_frames_per_page, u_clips,
                 u_positions, u_normals, u_has_uv1;
    LightUniforms frame;              /* view, projection, camera, light, encodeSrgb (gpu_common.h) */
    MaterialUniforms material;        /* skinned.frag's material uniforms (gpu_common.h) */
    int          mesh_count;
    VatMeshGpu  *meshes;
    GLuint       positions_texture, normals_texture;   /* GL_TEXTURE_2D_ARRAY */
    GLuint       instance_buffer;
    int          instance_count, instance_capacity;
    GpuTextureSet textures;           /* mesh.glb's textures (gpu_textures_upload) */
    GLuint       feedback_buffer;
    size_t       feedback_size;
    bool         cull_back_faces;
    /* the skinned viewer's look (renderer.h): --shadow, --environment */
    GLint        u_display_mode;      /* skinned.frag displayMode: RENDER_LIT, or RENDER_SHADOW for the mask */
    RendererShadow shadow;            /* the ground shadow (shadow_draw), made on first use */
    GLuint       environment_texture; /* environment_upload; 0: the sky/ground hemisphere */
    float        environment_sh[9][3];
    vec3         crowd_center;        /* every baked frame of every instance lies within crowd_radius */
    float        crowd_radius;        /* of crowd_center (the shadow's reach) */
    const VatGpuData *data;           /* kept for a program rebuilt with HAS_ENVIRONMENT; not owned */
    char         vert_path[1024], frag_path[1024];
} VatRenderer;

/* Compiles vert_path (with "#define VAT_CLIP_COUNT n") + frag_path, uploads the meshes (every
 * vertex must carry its id in uvs2) and the textures. Fails with one line when the pages exceed
 * GL_MAX_TEXTURE_SIZE / GL_MAX_ARRAY_TEXTURE_LAYERS or the clips the uniforms hold. Starts with
 * one instance of clip 0 at the origin. `data` must outlive the renderer. */
bool vat_renderer_init(VatRenderer *renderer, const Model *model, const VatGpuData *data, const char *vert_path,
                       const char *frag_path, char *error, size_t error_size);
void vat_renderer_free(VatRenderer *renderer);

/* Replaces the instance list (grows the buffer when needed; call at start-up or on a clip change). */
bool vat_renderer_set_instances(VatRenderer *renderer, const VatInstance *instances, int count);

/* Draws every instance at clip time `time` into the bound framebuffer: one glDrawElementsInstanced
 * per mesh. Returns the number of draw calls. */
int vat_renderer_draw(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                      const RenderLight *light);

/* The crowd's shadow on the ground plane y = ground_y, as renderer_draw_shadow (the same mask pass
 * and ground quad, shadow_draw): call after clearing and before vat_renderer_draw. */
void vat_renderer_draw_shadow(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                              const RenderLight *light, float ground_y, const float center[2], float radius);

/* --environment: as renderer_set_environment (environment_upload, the program rebuilt with
 * HAS_ENVIRONMENT). False with one line in error; the renderer then draws as before. */
bool vat_renderer_set_environment(VatRenderer *renderer, const float *rgb, int width, int height, char *error,
                                  size_t error_size);

/* Transform feedback of mesh `mesh` for one instance of clip `clip` at the origin at `time`:
 * each vertex's scene-space position and normal, in the mesh's vertex order. Replaces the
 * instance list with that one instance. Needs a bound complete framebuffer (see renderer.h). */
bool vat_renderer_capture_mesh(VatRenderer *renderer, int mesh, int clip, float time, vec3 *out_positions,
                               vec3 *out_normals);

#endif
