/* renderer_shadow.c — --shadow: the model's shadow on the ground grid (renderer.h
 * renderer_draw_shadow, shadow_draw for any caster: the VAT player's too). A planar projected shadow with a soft edge, in two steps:
 *   1. the meshes as posed, each point p flattened onto the ground plane y = g along the key
 *      light L (toward the light): p' = p - L (p.y - g) / L.y, seen from straight above by an
 *      orthographic camera that fits the ground square, drawn as coverage 1 into a mask texture
 *      (RENDER_SHADOW: the skinning shaders, so every skinning method and alpha cut-out casts as it
 *      is drawn);
 *   2. a quad on the ground square, depth-tested against the scene, black with opacity
 *      RENDERER_SHADOW_STRENGTH x the mask's coverage blurred (a mip level's averages, filtered
 *      bilinearly: the soft edge, one fetch per pixel), faded out toward the square's rim, only over
 *      the rectangle the meshes' posed bounding spheres can shadow.
 * A shadow map would also shade the model itself; a ground shadow is what a viewer needs to read
 * where the feet are, and it cannot acne. */
#include "renderer_internal.h"
#include "shader.h"

#include <math.h>
#include <stdio.h>

static const char *const ground_vertex =
    "#version 330 core\n"
    "layout(location = 0) in vec2 corner;   // 0..1 in x and z over the rectangle that can be shadowed\n"
    "uniform mat4 viewProjection;\n"
    "uniform vec4 rectangle;                // x, z of its corners: min x, min z, max x, max z\n"
    "uniform vec3 center;                   // the mask's square: centre on the ground ...\n"
    "uniform float radius;                  // ... and half size\n"
    "out vec2 maskUv;\n"
    "void main()\n"
    "{\n"
    "    vec2 xz = mix(rectangle.xy, rectangle.zw, corner);\n"
    "    maskUv = (xz - center.xz) / radius * 0.5 + 0.5;   // as the mask's camera maps x, z\n"
    "    gl_Position = viewProjection * vec4(xz.x, center.y, xz.y, 1.0);\n"
    "}\n";

static const char *const ground_fragment =
    "#version 330 core\n"
    "in vec2 maskUv;\n"
    "uniform sampler2D mask;                // sampled at SHADOW_BLUR_LEVEL: 4 x 4 mask texels averaged\n"
    "uniform float strength;                // the opacity of full coverage\n"
    "out vec4 fragColor;\n"
    "void main()\n"
    "{\n"
    "    float coverage = texture(mask, maskUv).r;   // bilinear over the averages: the soft edge\n"
    "    if (coverage < 1.0 / 255.0) discard;\n"
    "    float rim = 1.0 - smoothstep(0.8, 1.0, max(abs(maskUv.x - 0.5), abs(maskUv.y - 0.5)) * 2.0);\n"
    "    fragColor = vec4(0.0, 0.0, 0.0, strength * coverage * rim);\n"
    "}\n";

/* The mip level the ground reads: level 2 averages 4 x 4 mask texels, and bilinear filtering over
 * those makes an edge about 8 mask texels wide, for one fetch per pixel (llvmpipe pays per fetch). */
#define SHADOW_BLUR_LEVEL 2

/* The mask texture, its framebuffer and the ground program; false (one line on stderr, once). */
static bool shadow_ready(RendererShadow *shadow)
{
    if (shadow->program) return true;
    if (shadow->failed) return false;
    char error[512];
    shadow->program = gfx_program_from_sources("ground shadow", ground_vertex, ground_fragment, error, sizeof error);
    if (!shadow->program) {
        fprintf(stderr, "skinview: %s\n", error);
        shadow->failed = true;
        return false;
    }
    GLuint p = shadow->program;
    shadow->view_projection = glGetUniformLocation(p, "viewProjection");
    shadow->center = glGetUniformLocation(p, "center");
    shadow->rectangle = glGetUniformLocation(p, "rectangle");
    shadow->radius = glGetUniformLocation(p, "radius");
    shadow->strength = glGetUniformLocation(p, "strength");

    glGenTextures(1, &shadow->mask);
    glBindTexture(GL_TEXTURE_2D, shadow->mask);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, RENDERER_SHADOW_SIZE, RENDERER_SHADOW_SIZE, 0, GL_RED, GL_UNSIGNED_BYTE, NULL);
    glGenerateMipmap(GL_TEXTURE_2D);   /* allocates the levels; filled again after each mask pass */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);   /* one level at a time: see SHADOW_BLUR_LEVEL */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenFramebuffers(1, &shadow->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, shadow->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, shadow->mask, 0);
    bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    static const float corners[8] = {0, 0, 1, 0, 1, 1, 0, 1};   /* a triangle fan */
    glGenVertexArrays(1, &shadow->vao);
    glGenBuffers(1, &shadow->vbo);
    glBindVertexArray(shadow->vao);
    glBindBuffer(GL_ARRAY_BUFFER, shadow->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (const void *)0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!complete) {
        fprintf(stderr, "skinview: the shadow mask framebuffer is incomplete on this GL; no shadow\n");
        shadow->failed = true;
        return false;
    }
    return true;
}

void renderer_shadow_free(RendererShadow *shadow)
{
    if (shadow->program) glDeleteProgram(shadow->program);
    if (shadow->framebuffer) glDeleteFramebuffers(1, &shadow->framebuffer);
    if (shadow->mask) glDeleteTextures(1, &shadow->mask);
    if (shadow->vao) glDeleteVertexArrays(1, &shadow->vao);
    if (shadow->vbo) glDeleteBuffers(1, &shadow->vbo);
}

/* The mask camera: flatten along L onto y = g, then x, z of the square to clip x, y (z = 0):
 *   clip.x = (x - (Lx / Ly)(y - g) - cx) / r,   clip.y = (z - (Lz / Ly)(y - g) - cz) / r. */
static void mask_camera(const vec3 light, float g, const float center[2], float radius, mat4 out)
{
    float sx = light[0] / light[1], sz = light[2] / light[1];
    glm_mat4_zero(out);   /* cglm: out[column][row] */
    out[0][0] = 1.0f / radius;
    out[1][0] = -sx / radius;
    out[3][0] = (sx * g - center[0]) / radius;
    out[1][1] = -sz / radius;
    out[2][1] = 1.0f / radius;
    out[3][1] = (sz * g - center[1]) / radius;
    out[3][3] = 1.0f;
}

void shadow_draw(RendererShadow *shadow, const ShadowCaster *caster, const mat4 view, const mat4 projection,
                 const RenderLight *light, float ground_y, const float center[2], float radius)
{
    GLint draw_framebuffer = 0, read_framebuffer = 0, viewport[4];   /* the caller's, restored at the end */
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    bool ready = light && radius > 0.0f && shadow_ready(shadow);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_framebuffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_framebuffer);
    if (!ready) return;
    vec3 l;
    gpu_light_scene_direction(light, view, l);
    glm_vec3_normalize(l);
    const float lowest = 0.2f;   /* sin(11.5 degrees): a grazing light's shadow would run off the grid */
    if (l[1] < lowest) {
        float horizontal = sqrtf(l[0] * l[0] + l[2] * l[2]);
        float keep = horizontal > 1e-6f ? sqrtf(1.0f - lowest * lowest) / horizontal : 0.0f;
        l[0] *= keep;
        l[2] *= keep;
        l[1] = lowest;
    }
    mat4 camera;
    mask_camera(l, ground_y, center, radius, camera);

    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, shadow->framebuffer);
    glViewport(0, 0, RENDERER_SHADOW_SIZE, RENDERER_SHADOW_SIZE);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    gpu_opaque_pass_begin(false, false);
    glDisable(GL_DEPTH_TEST);   /* coverage only */
    caster->draw_mask(caster->self, camera, light);
    gpu_opaque_pass_end();
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_framebuffer);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);

    /* the quad covers only where a shadow can fall: each mesh's posed bounding sphere (radius r at
     * c) flattened along L lands within c' +- r / L.y (c' = c projected), clamped to the square */
    float rectangle[4] = {center[0] + radius, center[1] + radius, center[0] - radius, center[1] - radius};
    for (int i = 0; i < caster->sphere_count; i++) {
        vec3 c;
        float r = 0.0f;
        caster->sphere(caster->self, i, c, &r);
        if (!(r > 0.0f)) continue;
        float reach = 1.25f * r / l[1], drop = (c[1] - ground_y) / l[1];   /* 1.25: skinned meshes bulge */
        float x = c[0] - l[0] * drop, z = c[2] - l[2] * drop;
        rectangle[0] = fminf(rectangle[0], x - reach);
        rectangle[1] = fminf(rectangle[1], z - reach);
        rectangle[2] = fmaxf(rectangle[2], x + reach);
        rectangle[3] = fmaxf(rectangle[3], z + reach);
    }
    rectangle[0] = fmaxf(rectangle[0], center[0] - radius);
    rectangle[1] = fmaxf(rectangle[1], center[1] - radius);
    rectangle[2] = fminf(rectangle[2], center[0] + radius);
    rectangle[3] = fminf(rectangle[3], center[1] + radius);
    if (rectangle[0] >= rectangle[2] || rectangle[1] >= rectangle[3]) return;   /* nothing over the square */
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    glUseProgram(shadow->program);
    glUniformMatrix4fv(shadow->view_projection, 1, GL_FALSE, (const float *)view_projection);
    glUniform3f(shadow->center, center[0], ground_y, center[1]);
    glUniform4fv(shadow->rectangle, 1, rectangle);
    glUniform1f(shadow->radius, radius);
    glUniform1f(shadow->strength, RENDERER_SHADOW_STRENGTH);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadow->mask);
    glGenerateMipmap(GL_TEXTURE_2D);   /* the averages the soft edge reads (from level 0, the mask) */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, SHADOW_BLUR_LEVEL);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    gpu_blend_pass_begin();
    glBindVertexArray(shadow->vao);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glBindVertexArray(0);
    gpu_blend_pass_end();
    glDepthFunc(GL_LESS);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);   /* the mask pass draws into level 0 */
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
}

/* ---- the skinned renderer as a caster ---- */

typedef struct SkinnedCaster {
    Renderer       *renderer;
    const Animator *animator;
} SkinnedCaster;

static void skinned_draw_mask(void *self, const mat4 camera, const RenderLight *light)
{
    SkinnedCaster *caster = self;
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    renderer_draw_meshes(caster->renderer, caster->animator, identity, camera, light, true, RENDER_SHADOW);
}

static void skinned_sphere(void *self, int m, vec3 center, float *radius)
{
    SkinnedCaster *caster = self;
    const Renderer *renderer = caster->renderer;
    *radius = 0.0f;
    if (renderer->meshes[m].index_count == 0 || (renderer->mesh_visible && !renderer->mesh_visible[m])) return;
    renderer_mesh_posed_bounds(renderer, caster->animator, m, center, radius);
}

void renderer_draw_shadow(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                          const RenderLight *light, float ground_y, const float center[2], float radius)
{
    SkinnedCaster self = {renderer, animator};
    ShadowCaster caster = {&self, skinned_draw_mask, renderer->mesh_count, skinned_sphere};
    shadow_draw(&renderer->shadow, &caster, view, projection, light, ground_y, center, radius);
}
