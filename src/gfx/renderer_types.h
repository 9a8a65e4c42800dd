/* renderer_types.h — the skinned renderer's data (renderer.h has its functions): the Renderer,
 * its shaders, meshes on the GPU, the render modes, the ground shadow's and the environment's
 * data. Every renderer_*.c file uses these; keeping them apart from renderer.c's own header lets
 * renderer.c set up and free what the other files make without a circle. */
#ifndef SKINVIEW_RENDERER_TYPES_H
#define SKINVIEW_RENDERER_TYPES_H

#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "gl_types.h"
#include "gpu_common.h"
#include "render_light.h"

#include <stdbool.h>
#include <stddef.h>

/* Uniform mat4s the vertex shader needs besides the palette (projection, view, model,
 * one spare, and the active morph targets): subtracted from the uniform budget when sizing
 * the palette. */
/* Morph targets with a non-zero weight one draw lists (MAX_MORPH_ACTIVE in the shader);
 * their (target, weight) pairs take MAX/2 vec4 = MAX/8 mat4 of the uniform budget. */
#define RENDERER_MAX_MORPH_ACTIVE 64
#define RENDERER_RESERVED_MAT4 (4 + RENDERER_MAX_MORPH_ACTIVE / 8)

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

/* --environment's prefiltered light (renderer.h: environment_prefilter, renderer_set_environment):
 * the diffuse irradiance / pi as 9 spherical-harmonic coefficients, and ENVIRONMENT_LEVELS levels
 * of ENVIRONMENT_WIDTH x ENVIRONMENT_WIDTH / 2 >> k texels. */
#define ENVIRONMENT_WIDTH 128
#define ENVIRONMENT_LEVELS 5
typedef struct EnvironmentLight {
    float  sh[9][3];
    float *levels[ENVIRONMENT_LEVELS];   /* RGB, rows top to bottom */
} EnvironmentLight;

/* The ground shadow's opacity per unit of coverage (renderer.h: renderer_draw_shadow). */
#define RENDERER_SHADOW_STRENGTH 0.55f
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

#endif
