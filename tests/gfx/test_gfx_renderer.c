/* test_gfx_renderer.c — the renderer API on a tiny hand-built model, in-process:
 *   - the shader's skinning (bone index 0 is real, weights blend, static meshes follow their
 *     node's ANIMATED transform) read back through transform feedback;
 *   - a mesh with more bones than the palette holds is refused with a clear message;
 *   - texture rows (top to bottom) + OpenGL-convention UVs (v = 0 at the bottom) show upright;
 *   - sRGB output is encoded exactly once, on an sRGB FBO and on a plain RGBA8 one.
 * Runs on whatever offscreen context glcontext_create_offscreen() picks (hidden window
 * under Xvfb, EGL surfaceless without DISPLAY). */
#include "testutil.h"

#include "app/glcontext.h"
#include "gfx/gl.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* the real shaders, from the source tree */
#define VERT SKINVIEW_SOURCE_DIR "/shaders/skinned.vert"
#define FRAG SKINVIEW_SOURCE_DIR "/shaders/skinned.frag"

/* ---- a two-joint model: a skinned quad and a static quad -------------------- */

static char names[2][SV_NAME_MAX] = {"root", "child"};
static int parents[2] = {-1, 0};
static mat4 rest_local[2];
static JointTransform rest_trs[2];
static bool is_bone[2] = {true, true};

static vec3 quad_positions[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
static vec3 quad_normals[4] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
static vec2 quad_uvs[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};   /* v = 1 at the top (OpenGL convention) */
static uint32_t quad_indices[6] = {0, 1, 2, 0, 2, 3};
static int bone_joint[2] = {0, 1};
static mat4 inverse_bind[2];
/* vertex 0: bone 0 only; 1: bone 1 only; 2: half and half; 3: bone 0 in slot 2 */
static uint16_t joint_indices[4][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}};
static float weights[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0, 0, 1, 0}};

/* 2x2 texture, rows top to bottom: red row on top, blue row below */
static unsigned char texels[16] = {255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255};

static void build_model(Model *model, Mesh meshes[2], Material *material, Texture *texture)
{
    memset(model, 0, sizeof *model);
    for (int j = 0; j < 2; j++) {
        glm_mat4_identity(rest_local[j]);
        glm_vec3_zero(rest_trs[j].translation);
        glm_quat_identity(rest_trs[j].rotation);
        glm_vec3_one(rest_trs[j].scale);
        glm_mat4_identity(inverse_bind[j]);
    }
    model->skeleton = (Skeleton){2, names, parents, rest_local, rest_trs, is_bone, NULL};
    memset(meshes, 0, 2 * sizeof *meshes);
    for (int m = 0; m < 2; m++) {
        meshes[m].vertex_count = 4;
        meshes[m].index_count = 6;
        meshes[m].positions = quad_positions;
        meshes[m].normals = quad_normals;
        meshes[m].uvs = quad_uvs;
        meshes[m].indices = quad_indices;
        meshes[m].material = 0;
    }
    strcpy(meshes[0].name, "skinned quad");
    meshes[0].skinned = true;
    meshes[0].bone_count = 2;
    meshes[0].bone_joint = bone_joint;
    meshes[0].inverse_bind = inverse_bind;
    meshes[0].joint_indices = joint_indices;
    meshes[0].weights = weights;
    meshes[0].node_joint = 0;
    strcpy(meshes[1].name, "static quad");
    meshes[1].node_joint = 1;
    model->mesh_count = 2;
    model->meshes = meshes;

    memset(material, 0, sizeof *material);
    glm_vec4_one(material->diffuse_color);
    material->diffuse_texture = 0;
    material->diffuse_map.texture = 0;
    material->normal_map.texture = material->metallic_roughness_map.texture = -1;
    material->occlusion_map.texture = material->emissive_map.texture = -1;
    material->double_sided = true;   /* both faces, as before materials had sides */
    model->material_count = 1;
    model->materials = material;
    memset(texture, 0, sizeof *texture);
    texture->width = 2;
    texture->height = 2;
    texture->rgba = texels;
    model->texture_count = 1;
    model->textures = texture;
}

static bool near3(const vec3 a, float x, float y, float z)
{
    return fabsf(a[0] - x) < 1e-5f && fabsf(a[1] - y) < 1e-5f && fabsf(a[2] - z) < 1e-5f;
}

static void test_capture(Renderer *renderer, Animator *animator)
{
    /* palette: bone 0 moves +2 in x, bone 1 moves +4 in y; static mesh's node moves -3 in z */
    glm_translate_make(animator->palettes[0][0], (vec3){2, 0, 0});
    glm_translate_make(animator->palettes[0][1], (vec3){0, 4, 0});
    glm_translate_make(animator->joint_model[1], (vec3){0, 0, -3});
    vec3 positions[4], normals[4];
    CHECK(renderer_capture_mesh(renderer, animator, 0, positions, normals), "capture of the skinned mesh");
    CHECK(near3(positions[0], 1, -1, 0), "bone 0 is a real bone: got %g %g %g", positions[0][0], positions[0][1],
          positions[0][2]);
    CHECK(near3(positions[1], 1, 3, 0), "bone 1: got %g %g %g", positions[1][0], positions[1][1], positions[1][2]);
    CHECK(near3(positions[2], 2, 3, 0), "half/half blend: got %g %g %g", positions[2][0], positions[2][1],
          positions[2][2]);
    CHECK(near3(positions[3], 1, 1, 0), "weight in slot 2: got %g %g %g", positions[3][0], positions[3][1],
          positions[3][2]);
    CHECK(near3(normals[0], 0, 0, 1), "translation leaves normals alone");

    /* the CPU reference agrees */
    vec3 cpu[4];
    animator_skin_mesh(animator, 0, cpu, NULL);
    for (int v = 0; v < 4; v++)
        CHECK(glm_vec3_distance(cpu[v], positions[v]) < 1e-5f, "vertex %d: GPU and CPU differ", v);

    CHECK(renderer_capture_mesh(renderer, animator, 1, positions, NULL), "capture of the static mesh");
    CHECK(near3(positions[2], 1, 1, -3), "static mesh follows its node's animated matrix: got %g %g %g",
          positions[2][0], positions[2][1], positions[2][2]);
}

/* Draws the skinned quad filling the whole target (identity palette, view, projection). */
static void draw_quad(Renderer *renderer, Animator *animator, const RenderLight *light)
{
    glm_mat4_identity(animator->palettes[0][0]);
    glm_mat4_identity(animator->palettes[0][1]);
    glm_translate_make(animator->joint_model[1], (vec3){0, 0, 5});   /* static quad: out of the clip volume */
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    renderer_clear(0, 0, 0);
    renderer_draw(renderer, animator, identity, identity, light);
}

/* A 32 x 32 offscreen target and the default light. */
static void open_target(Framebuffer *framebuffer, RenderLight *light)
{
    char error[512];
    CHECK(framebuffer_create(framebuffer, 32, 32, 0, error, sizeof error), "framebuffer: %s", error);
    render_light_default(light);
}

static void test_texture_orientation(Renderer *renderer, Animator *animator)
{
    Framebuffer framebuffer;
    RenderLight light;
    open_target(&framebuffer, &light);
    framebuffer_bind(&framebuffer);
    draw_quad(renderer, animator, &light);
    unsigned char pixels[32 * 32 * 4];
    CHECK(framebuffer_read_rgba(&framebuffer, pixels), "read back");
    /* rows 8 and 23 of 32 sample the texel centres (v = 0.75 and 0.25): no filtering blend */
    const unsigned char *top = pixels + (8 * 32 + 16) * 4, *bottom = pixels + (23 * 32 + 16) * 4;
    CHECK(top[0] > 100 && top[0] > 3 * top[2], "the texture's top row (red) is at the top: %d %d %d", top[0], top[1], top[2]);
    CHECK(bottom[2] > 100 && bottom[2] > 3 * bottom[0], "the bottom row (blue) at the bottom: %d %d %d", bottom[0], bottom[1],
          bottom[2]);
    framebuffer_free(&framebuffer);
}

/* Back-face culling (key C): off by default, both sides drawn; on, a quad mirrored in x
 * (its winding reversed, so it shows its back) disappears while the front-facing one stays. */
static void test_culling(Renderer *renderer, Animator *animator)
{
    Framebuffer framebuffer;
    RenderLight light;
    open_target(&framebuffer, &light);
    unsigned char pixels[32 * 32 * 4];
    const unsigned char *center = pixels + (16 * 32 + 16) * 4;
    mat4 identity = GLM_MAT4_IDENTITY_INIT, mirror;
    glm_scale_make(mirror, (vec3){-1.0f, 1.0f, 1.0f});
    /* a double-sided material (Assimp's, and glTF doubleSided) follows the viewer's switch; a
     * single-sided one (glTF's default) is culled either way */
    const struct { bool cull; bool mirrored; bool visible; bool double_sided; const char *what; } cases[] = {
        {false, false, true, true, "culling off, front face"},
        {false, true, true, true, "culling off, back face (open meshes stay visible)"},
        {true, false, true, true, "culling on, front face"},
        {true, true, false, true, "culling on, back face"},
        {false, false, true, false, "single-sided material, front face"},
        {false, true, false, false, "single-sided material, back face: culled even with culling off"},
    };
    Material *material = renderer->model->material_count > 0 ? (Material *)&renderer->model->materials[0] : NULL;
    CHECK(material != NULL && renderer->meshes[0].material == 0, "the quad has a material");
    for (int c = 0; c < 6 && material; c++) {
        material->double_sided = cases[c].double_sided;
        glm_mat4_copy(cases[c].mirrored ? mirror : identity, animator->palettes[0][0]);
        glm_mat4_copy(cases[c].mirrored ? mirror : identity, animator->palettes[0][1]);
        glm_translate_make(animator->joint_model[1], (vec3){10, 0, 5});   /* static quad: out of view */
        renderer->cull_back_faces = cases[c].cull;
        framebuffer_bind(&framebuffer);   /* (reading back unbinds it) */
        renderer_clear(0, 0, 0);
        renderer_draw(renderer, animator, identity, identity, &light);
        CHECK(framebuffer_read_rgba(&framebuffer, pixels), "read back");
        bool drawn = center[0] + center[1] + center[2] > 30;
        CHECK(drawn == cases[c].visible, "%s: centre pixel %d %d %d", cases[c].what, center[0], center[1], center[2]);
    }
    renderer->cull_back_faces = false;
    if (material) material->double_sided = true;
    CHECK(!glIsEnabled(GL_CULL_FACE), "renderer_draw leaves face culling off");
    framebuffer_free(&framebuffer);
}

/* Linear 0.2140 must come out as sRGB 128 — not 55 (never encoded) nor ~188 (encoded twice). */
static void test_srgb_once(Renderer *renderer, Animator *animator, Model *model)
{
    model->materials[0].diffuse_texture = -1;   /* white */
    RenderLight light = {.direction = {0, 0, 1}, .ambient = {0.2140f, 0.2140f, 0.2140f}, .lighting = LIGHTING_FLAT};
    unsigned char pixels[32 * 32 * 4];
    char error[512];

    Framebuffer srgb;
    CHECK(framebuffer_create(&srgb, 32, 32, 4, error, sizeof error), "sRGB MSAA framebuffer: %s", error);
    framebuffer_bind(&srgb);
    draw_quad(renderer, animator, &light);
    CHECK(framebuffer_read_rgba(&srgb, pixels), "read back");
    const unsigned char *center = pixels + (16 * 32 + 16) * 4;
    CHECK(center[0] >= 124 && center[0] <= 132, "sRGB framebuffer: linear 0.214 -> %d, want 128", center[0]);
    framebuffer_free(&srgb);

    /* A plain RGBA8 target: the shader must encode. */
    GLuint fbo, color, depth;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &color);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 32, 32);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "RGBA8 framebuffer");
    glViewport(0, 0, 32, 32);
    draw_quad(renderer, animator, &light);
    glReadPixels(0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    CHECK(center[0] >= 124 && center[0] <= 132, "linear RGBA8 framebuffer: linear 0.214 -> %d, want 128", center[0]);
    CHECK(!glIsEnabled(GL_FRAMEBUFFER_SRGB), "renderer_draw leaves GL_FRAMEBUFFER_SRGB off");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &color);
    glDeleteRenderbuffers(1, &depth);
    model->materials[0].diffuse_texture = 0;
}

/* The viewer's path: a visible window's default framebuffer (sRGB-capable or not, the
 * renderer must encode exactly once). Only with a display (scripts/test.sh runs Xvfb). */
static void test_window(Model *model)
{
    const char *display = getenv("DISPLAY");
    if (!display || !display[0]) {
        printf("no DISPLAY: window test skipped\n");
        return;
    }
    GlContext context;
    char error[1024];
    /* The X server itself is the environment, not the code under test: when several xvfb-run -a
     * sessions share one machine, a display can briefly refuse connections. Try it three times. */
    bool created = false;
    for (int attempt = 0; attempt < 3 && !created; attempt++) {
        if (attempt > 0) sleep(1);
        created = glcontext_create_window(&context, "skinview test", 64, 64, error, sizeof error);
    }
    if (!created) {
        CHECK(false, "window: %s", error);
        return;
    }
    GLint encoding = 0;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_BACK_LEFT, GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING,
                                          &encoding);
    printf("window: %s, default framebuffer %s\n", context.renderer_name, encoding == GL_SRGB ? "sRGB" : "linear");
    Renderer renderer;
    Animator animator;
    if (renderer_init(&renderer, model, VERT, FRAG, 16, error, sizeof error) && animator_init(&animator, model)) {
        model->materials[0].diffuse_texture = -1;
        RenderLight light = {.direction = {0, 0, 1}, .ambient = {0.2140f, 0.2140f, 0.2140f}, .lighting = LIGHTING_FLAT};
        int width = 0, height = 0;
        glfwGetFramebufferSize(context.window, &width, &height);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, width, height);
        draw_quad(&renderer, &animator, &light);
        unsigned char pixel[4] = {0};
        glReadBuffer(GL_BACK);
        glReadPixels(width / 2, height / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
        CHECK(pixel[0] >= 124 && pixel[0] <= 132, "window: linear 0.214 -> %d, want 128", pixel[0]);
        CHECK(glGetError() == GL_NO_ERROR, "window: no GL error");
        model->materials[0].diffuse_texture = 0;
        animator_free(&animator);
        renderer_free(&renderer);
    } else {
        CHECK(false, "window renderer: %s", error);
    }
    glcontext_destroy(&context);
}

int main(void)
{
    GlContext context;
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "no OpenGL context: %s\n", error);
        return TEST_SKIP_CODE;
    }
    printf("context: %s, %s\n", glcontext_kind_name(&context), context.renderer_name);
    int limit = renderer_max_bones();
    CHECK(limit >= 16, "GL_MAX_VERTEX_UNIFORM_COMPONENTS leaves room for %d bones", limit);
    CHECK(glcontext_bones_per_mesh(0) == limit, "no --max-bones: the GL limit");
    CHECK(glcontext_bones_per_mesh(16) == 16, "--max-bones 16");
    CHECK(glcontext_bones_per_mesh(limit + 100) == limit, "--max-bones above the GL limit is capped");

    Model model;
    Mesh meshes[2];
    Material material;
    Texture texture;
    build_model(&model, meshes, &material, &texture);

    Renderer renderer;
    CHECK(!renderer_init(&renderer, &model, VERT, FRAG, 1, error, sizeof error), "a 2-bone mesh with a 1-bone palette");
    CHECK(strstr(error, "2 bones") && strstr(error, "holds 1"), "the message says why: %s", error);
    CHECK(!renderer_init(&renderer, &model, VERT, FRAG, limit + 1, error, sizeof error), "a palette over the GL limit");

    if (!renderer_init(&renderer, &model, VERT, FRAG, 16, error, sizeof error)) {
        CHECK(false, "renderer_init: %s", error);
        glcontext_destroy(&context);
        return test_finish();
    }
    CHECK(renderer.shader.max_bones == 16, "MAX_BONES injected");
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator");

    /* transform feedback needs a complete framebuffer (EGL surfaceless has none) */
    Framebuffer scratch;
    CHECK(framebuffer_create(&scratch, 4, 4, 0, error, sizeof error), "framebuffer: %s", error);
    framebuffer_bind(&scratch);
    test_capture(&renderer, &animator);
    framebuffer_free(&scratch);

    test_texture_orientation(&renderer, &animator);
    test_culling(&renderer, &animator);
    test_srgb_once(&renderer, &animator, &model);
    CHECK(glGetError() == GL_NO_ERROR, "no GL error left");

    animator_free(&animator);
    renderer_free(&renderer);
    glcontext_destroy(&context);
    test_window(&model);
    return test_finish();
}
