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

#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "gl_types.h"
#include "gpu_common.h"

#include <stdbool.h>
#include <stddef.h>

/* Uniform mat4s the vertex shader needs besides the palette (projection, view, model,
 * one spare, and the active morph targets): subtracted from the uniform budget when sizing
 * the palette. */
/* Morph targets with a non-zero weight one draw lists (MAX_MORPH_ACTIVE in the shader);
 * their (target, weight) pairs take MAX/2 vec4 = MAX/8 mat4 of the uniform budget. */
#define RENDERER_MAX_MORPH_ACTIVE 64
#define RENDERER_RESERVED_MAT4 (4 + RENDERER_MAX_MORPH_ACTIVE / 8)

/* How the surface is lit (skinned.frag lightingModel). */
typedef enum RenderLighting {
    LIGHTING_FLAT = 0,   /* the old look: Lambert diffuse + ambient over the base colour, no tone map
                            (--lighting flat; the exact-colour tests and teaching legends) */
    LIGHTING_PBR = 1,    /* glTF metallic-roughness (Cook-Torrance GGX), hemisphere ambient, exposure,
                            Khronos PBR Neutral tone map (the default: --lighting default) */
} RenderLighting;
#define RENDER_LIGHTING_DEFINES "#define LIGHTING_FLAT 0\n#define LIGHTING_PBR 1\n"

/* A directional light plus ambient, linear RGB. The first three members are the flat light; a
 * RenderLight that sets only those (the rest zero) is LIGHTING_FLAT, as before materials. */
typedef struct RenderLight {
    vec3 direction;      /* direction TOWARD the light (need not be normalised); scene space, or view
                            space (x right, y up, z toward the viewer) when follow_camera */
    vec3 color;          /* flat: diffuse intensity; PBR: the light's irradiance E at normal incidence */
    vec3 ambient;        /* flat: added to every lit pixel (times the albedo); PBR: unused */
    RenderLighting lighting;
    bool follow_camera;  /* the key light moves with the camera (direction in view space) */
    vec3 sky, ground;    /* PBR: hemisphere radiance from above (+Y) and below */
    float exposure;      /* PBR: linear scale before the tone map */
} RenderLight;

/* The compiled skinning program and its uniform locations (looked up once). */
typedef struct SkinShader {
    GLuint program;
    int    max_bones;                 /* MAX_BONES the shader was compiled with */
    LightUniforms frame;              /* view, projection, camera, light, encodeSrgb (gpu_common.h) */
    GLint  model;                     /* mat4 */
    GLint  bones;                     /* mat4 bonesMatrices[MAX_BONES] (LBS; -1 in the DQ shader) */
    GLint  bone_dual_quats;           /* vec4 boneDualQuats[2 * MAX_BONES] (DQ; -1 in the LBS shader) */
    GLint  bone_stretches;            /* vec4 boneStretches[2 * MAX_BONES] (DQ: DqStretch per bone) */
    GLint  skinned;                   /* bool: 0 = static mesh, palette unused */
    GLint  cpu_skinned;               /* bool: vertices arrive skinned by the CPU (LBS shader) */
    GLint  rigid_skinning;            /* bool: --skinning rigid, the heaviest influence only (LBS shader) */
    GLint  show_heat;                 /* bool: selectedWeight = heatValue (the difference view) */
    GLint  only_selected;             /* bool: RENDER_INFLUENCES greys vertices the selected joint does not move */
    GLint  selected_bone;             /* int: palette index of the selected joint, -1 none */
    GLint  display_mode, color_map, skinned_mesh; /* skinned.frag: RenderMode */
    GLint  normal_length, line_color; /* normals.geom / normals.frag */
    MaterialUniforms material;        /* skinned.frag: the material (gpu_common.h) */
    GLint  has_uv1;                   /* bool: the mesh has TEXCOORD_1 (location 10) */
    GLint  morph_deltas;              /* samplerBuffer, unit 1 */
    GLint  morph_vertex_count, morph_active_count; /* int */
    GLint  morph_active;              /* vec4 morphActive[MAX_MORPH_ACTIVE / 2]: (target, weight) pairs */
    GLint  environment_sh;            /* vec3 environmentSh[9] (HAS_ENVIRONMENT); environmentMap: unit 7 */
} SkinShader;

/* GL objects of one Mesh: an interleaved VBO (position, normal, uv, 4 x (bone index, weight)
 * as floats = 16 floats per vertex), an index buffer and the VAO that binds both. */
typedef struct GpuMesh {
    GLuint vao, vbo, ebo;
    GLuint cpu_vao, cpu_vbo;          /* --skinning cpu: positions + normals uploaded each frame */
    GLuint influences_vbo;            /* location 7: Mesh.influences_in_file as floats; 0 when NULL */
    GLuint heat_vbo;                  /* location 8 (every mesh): the difference view's value per vertex */
    GLuint color_vbo;                 /* location 9: Mesh.colors; 0: none (the attribute reads 1,1,1,1) */
    GLuint tangent_vbo;               /* location 10: Mesh.tangents or generated ones; 0: none (0,0,0,0) */
    GLuint uv1_vbo;                   /* location 11: Mesh.uvs2; 0: none */
    GLuint linear_share_vbo;          /* location 12: 1 - Mesh.dq_weight (DQ shader's LBS share); 0 when NULL */
    vec3   centroid;                  /* mean of the stored positions: the blend pass's sort key */
    int    anchor_bone;               /* skinned: the bone with the most weight (moves the centroid) */
    float  radius;                    /* the largest distance of a stored position from the centroid */
    int    vertex_count;
    int    index_count;
    int    bone_count;
    bool   skinned;
    int    material;                  /* index into Model.materials, or -1 */
    int    morph_target_count;        /* 0: no morph targets */
    GLuint morph_buffer, morph_texture; /* the deltas: GL_TEXTURE_BUFFER, GL_RGBA32F, 2 texels per (target, vertex),
                                           targets 0..count-1 from the file + 1 spare (see set_morph_uniforms) */
    float *morph_combined;            /* [vertex_count * 8] staging for the spare target */
} GpuMesh;

/* What the surface shows (skinned.frag displayMode). The fragment shader is compiled with
 * RENDER_MODE_DEFINES, so it names the same values. */
typedef enum RenderMode {
    RENDER_LIT = 0,          /* the material, lit */
    RENDER_WEIGHTS = 1,      /* weight heat-map of the selected joint (viridis, shaded: skinned.frag heatShade) */
    RENDER_INFLUENCES = 2,   /* influence count per vertex: 1 blue, 2 green, 3 yellow, 4 red, magenta: had
                                more than 4, the rest cut at import (Mesh.influences_in_file) (shaded alike) */
    RENDER_WIREFRAME = 3,    /* the edges over the surface: a darker (or lighter) shade of the lit colour */
    RENDER_SHADOW = 4        /* coverage 1 wherever a surface is (alpha cut as the lit view): the shadow mask */
} RenderMode;
#define RENDER_MODE_DEFINES                                                                             \
    "#define RENDER_LIT 0\n#define RENDER_WEIGHTS 1\n#define RENDER_INFLUENCES 2\n#define RENDER_WIREFRAME 3\n" \
    "#define RENDER_SHADOW 4\n"

/* The ground shadow (renderer_draw_shadow): the model flattened onto the ground plane along the
 * key light, drawn into a coverage mask seen from above, then a ground quad darkened by the mask
 * blurred (a soft edge). */
typedef struct RendererShadow {
    GLuint framebuffer, mask;         /* RENDERER_SHADOW_SIZE^2, GL_R8, mipmapped */
    GLuint program, vao, vbo;         /* the ground quad */
    GLint  view_projection, rectangle, center, radius, strength;
    bool   failed;                    /* reported once, not retried */
} RendererShadow;
#define RENDERER_SHADOW_SIZE 512

typedef struct Renderer {
    const Model *model;               /* not owned; must outlive the renderer */
    SkinShader   shader;              /* shaders/skinned.vert + .frag (LBS) */
    SkinShader   dq_shader;           /* shaders/skinned_dq.vert + skinned.frag (DQS) */
    SkinShader   normals_shader[2];   /* skinned.vert / skinned_dq.vert + normals.geom + normals.frag */
    SkinningMethod method;            /* default SKINNING_GPU_LBS */
    RenderMode   mode;                /* default RENDER_LIT */
    int          selected_joint;      /* joint whose weights RENDER_WEIGHTS shows, -1 none */
    int         *selected_bone;       /* [mesh_count] palette index of selected_joint per mesh, -1 */
    SkinDqPose   dq_pose;             /* SKINNING_GPU_DQ: palettes as dual quaternions (renderer_prepare) */
    int          dq_fallback_meshes;  /* skinned meshes drawn with LBS instead (non-uniform scale) */
    vec3        *cpu_positions;       /* SKINNING_CPU_LBS scratch: [largest vertex count] */
    vec3        *cpu_normals;
    float       *cpu_upload;          /* interleaved position + normal, 6 floats per vertex */
    GLuint       color_map;           /* 256 x 1 viridis, GL_SRGB8 (RENDER_WEIGHTS) */
    int          mesh_count;
    GpuMesh     *meshes;
    GpuTextureSet textures;           /* Model.textures as sRGB + mipmaps, linear copies of the data maps, white */
    int         *blend_order;         /* [mesh_count] scratch: the BLEND meshes, sorted far to near */
    float       *blend_depth;         /* [mesh_count] scratch: their view-space depth */
    bool         has_environment;     /* --environment: skinned.frag's ambient comes from it */
    GLuint       environment_texture; /* ENVIRONMENT_LEVELS mip levels, GL_RGB16F (renderer_environment.c) */
    float        environment_sh[9][3];/* the diffuse irradiance / pi as spherical harmonics */
    RendererShadow shadow;            /* --shadow: the mask and the ground program (renderer_shadow.c), made on first use */
    GLuint       feedback_buffer;     /* transform-feedback capture (verify), grown on demand */
    size_t       feedback_size;       /* bytes */
    bool         cull_back_faces;     /* false (default): both sides drawn, for open meshes */
    bool         show_heat;           /* RENDER_WEIGHTS colours come from renderer_set_vertex_heat, not a joint */
    bool         only_selected;       /* RENDER_INFLUENCES: only the selected joint's vertices in colour */
    const bool  *mesh_visible;        /* [mesh_count], false = not drawn (viewer's U list); NULL = all */
    /* programs compiled on first use (renderer_shader.c renderer_ensure_*): the DQ and normals ones, and the
     * skinning programs again for another lighting model (skinned.frag LIGHTING_COMPILED) */
    RenderLighting shader_lighting;   /* what shader and dq_shader were compiled for */
    int          max_bones;
    char         features[256];       /* skinned.frag's HAS_* defines for this model's materials */
    bool         dq_failed, normals_failed, lighting_failed[2];   /* reported once, not retried */
    char         vert_path[1024], frag_path[1024], dq_vert_path[1024], normals_geom_path[1024],
                 normals_frag_path[1024];
} Renderer;

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

/* Is the bound draw framebuffer's colour buffer sRGB (so GL can encode for us)? */
bool renderer_target_is_srgb(void);
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
#define ENVIRONMENT_WIDTH 128
#define ENVIRONMENT_LEVELS 5
typedef struct EnvironmentLight {
    float  sh[9][3];
    float *levels[ENVIRONMENT_LEVELS];   /* RGB, rows top to bottom */
} EnvironmentLight;
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
#define RENDERER_SHADOW_STRENGTH 0.55f
void renderer_draw_shadow(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                          const RenderLight *light, float ground_y, const float center[2], float radius);

/* What casts a ground shadow, for any renderer (the skinned one: renderer_draw_shadow; a VAT bake:
 * vat_renderer_draw_shadow): draw_mask draws the posed meshes with displayMode RENDER_SHADOW, view =
 * identity and projection = `camera` (the mask camera, which flattens along the light), state set by
 * the caller (no depth test, no culling); sphere(self, i, centre, radius) bounds caster part i of
 * sphere_count in scene space (radius <= 0: nothing there) — the ground quad covers only where they
 * can shadow. */
typedef struct ShadowCaster {
    void *self;
    void (*draw_mask)(void *self, const mat4 camera, const RenderLight *light);
    int   sphere_count;
    void (*sphere)(void *self, int index, vec3 center, float *radius);
} ShadowCaster;
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
