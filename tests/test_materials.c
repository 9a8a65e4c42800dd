/* test_materials.c — materials and lights read back from real renders (src/gfx/renderer*.c,
 * shaders/skinned.frag, docs/materials.md), on small glTF files written here:
 *   - alpha MASK: a quad whose texture's alpha is below the cutoff in two quadrants shows the
 *     background exactly there, the texture elsewhere;
 *   - alpha BLEND: two half-transparent quads (red, blue) between two single-sided opaque ones
 *     (green faces the front camera, yellow the back one) show src * a + dst * (1 - a) composited
 *     in depth order from the front and from the back (sorting), and single-sided faces are culled;
 *   - a normal-mapped plane (generated tangents) lit from +X brightens toward the side whose
 *     map normals face the light, lit from -X the other way; the same plane without its map is
 *     uniform; a TANGENT in the file pointing along -u mirrors the gradient;
 *   - metallic 1 / roughness 0 vs metallic 0 / roughness 1 on a sphere: the smooth metal has a small
 *     near-white highlight and is dark elsewhere, the rough dielectric is broadly lit and has none;
 *   - vertex colours (COLOR_0: float VEC3 and normalized unsigned byte VEC4) come through exactly;
 *   - emissive (x KHR_materials_emissive_strength) shows with no light at all;
 *   - KHR_texture_transform (offset, rotation, scale; texCoord override) moves the texture as the
 *     extension says (worked out here from its formula, independent of the renderer's matrix).
 *   - with an argument, one more case each: "shadow" (gfx_shadow), "environment"
 *     (gfx_environment), "opacity" (gfx_opacity: an OBJ's opacity and bump maps), "vat"
 *     (gfx_vat_materials: a VAT bake's mesh.glb keeps every map).
 * Offscreen GL (glcontext_create_offscreen), the real shaders (from the source tree). */
#include "testutil.h"

#include "app/commands.h"
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"
#include "io/hdr_image.h"
#include "io/vat_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 160
#define H 160

static char dir[] = "/tmp/test_materials_XXXXXX";
static const unsigned char background[3] = {10, 20, 30};   /* sRGB clear colour */

/* ---- a scene under construction: quads (and one sphere), each its own mesh + node + material -- */

typedef struct Scene {
    TestGltf gltf;
    char meshes[8192], nodes[4096], materials[8192], images[2048], textures[1024], extensions[256];
    int mesh_count, image_count;
} Scene;

static void scene_init(Scene *s)
{
    memset(s, 0, sizeof *s);
    test_gltf_init(&s->gltf);
}

static void append(char *out, size_t size, const char *fmt, const char *text)
{
    size_t n = strlen(out);
    snprintf(out + n, size - n, fmt, n > 0 ? "," : "", text);
}

/* An image file (RGBA, rows top to bottom) as images[i] + textures[i]; returns the index. */
static int scene_image(Scene *s, const unsigned char *rgba, int w, int h)
{
    char name[64], path[sizeof dir + 64], error[256], item[128];
    snprintf(name, sizeof name, "image%d.png", s->image_count);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK(app_write_png(path, w, h, rgba, error, sizeof error), "write %s: %s", path, error);
    snprintf(item, sizeof item, "{\"uri\":\"%s\"}", name);
    append(s->images, sizeof s->images, "%s%s", item);
    snprintf(item, sizeof item, "{\"source\":%d,\"sampler\":0}", s->image_count);
    append(s->textures, sizeof s->textures, "%s%s", item);
    return s->image_count++;
}

/* A quad at depth z (half size `half`, centre (cx, cy)) facing +Z (or -Z when `back`), UVs glTF
 * (0,0) top-left .. (1,1) bottom-right as seen from its front; optional TANGENT (4 per vertex)
 * and COLOR_0 (`color_type` 5126 float VEC3 or 5121 normalized VEC4). `material` is JSON. */
static void scene_quad(Scene *s, float cx, float cy, float z, float half, bool back, const float *tangents,
                       const void *colors, int color_type, const char *material)
{
    float sx = back ? -1.0f : 1.0f;   /* seen from -Z, the quad's "right" is -X */
    float positions[12] = {cx - sx * half, cy - half, z, cx + sx * half, cy - half, z,
                           cx + sx * half, cy + half, z, cx - sx * half, cy + half, z};
    float nz = back ? -1.0f : 1.0f;
    float normals[12] = {0, 0, nz, 0, 0, nz, 0, 0, nz, 0, 0, nz};
    float uvs[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    unsigned short indices[6] = {0, 1, 2, 0, 2, 3};
    TestGltf *g = &s->gltf;
    char extra[160];
    snprintf(extra, sizeof extra, "\"min\":[%g,%g,%g],\"max\":[%g,%g,%g]", cx - half, cy - half, z, cx + half, cy + half, z);
    int p = test_gltf_accessor(g, test_gltf_view(g, positions, sizeof positions, 0), 0, 5126, false, 4, "VEC3", extra);
    int n = test_gltf_accessor(g, test_gltf_view(g, normals, sizeof normals, 0), 0, 5126, false, 4, "VEC3", NULL);
    int t = test_gltf_accessor(g, test_gltf_view(g, uvs, sizeof uvs, 0), 0, 5126, false, 4, "VEC2", NULL);
    int i = test_gltf_accessor(g, test_gltf_view(g, indices, sizeof indices, 0), 0, 5123, false, 6, "SCALAR", NULL);
    char attributes[256];
    int len = snprintf(attributes, sizeof attributes, "\"POSITION\":%d,\"NORMAL\":%d,\"TEXCOORD_0\":%d,\"TEXCOORD_1\":%d", p,
                       n, t, t);
    if (tangents) {
        int a = test_gltf_accessor(g, test_gltf_view(g, tangents, 16 * sizeof(float), 0), 0, 5126, false, 4, "VEC4", NULL);
        len += snprintf(attributes + len, sizeof attributes - (size_t)len, ",\"TANGENT\":%d", a);
    }
    if (colors) {
        bool bytes = color_type == 5121;
        int a = test_gltf_accessor(g, test_gltf_view(g, colors, bytes ? 16 : 12 * sizeof(float), 0), 0, color_type, bytes, 4,
                                   bytes ? "VEC4" : "VEC3", NULL);
        snprintf(attributes + len, sizeof attributes - (size_t)len, ",\"COLOR_0\":%d", a);
    }
    char item[512];
    snprintf(item, sizeof item, "{\"primitives\":[{\"attributes\":{%s},\"indices\":%d,\"material\":%d}]}", attributes, i,
             s->mesh_count);
    append(s->meshes, sizeof s->meshes, "%s%s", item);
    snprintf(item, sizeof item, "{\"mesh\":%d}", s->mesh_count);
    append(s->nodes, sizeof s->nodes, "%s%s", item);
    append(s->materials, sizeof s->materials, "%s%s", material);
    s->mesh_count++;
}

/* A UV sphere of radius r at the origin (32 x 16 segments). */
static void scene_sphere(Scene *s, float r, const char *material)
{
    enum { SEG = 32, RINGS = 16, VERTS = (SEG + 1) * (RINGS + 1) };
    static float positions[VERTS * 3], normals[VERTS * 3];
    static unsigned short indices[SEG * RINGS * 6];
    int v = 0, k = 0;
    for (int ring = 0; ring <= RINGS; ring++)
        for (int seg = 0; seg <= SEG; seg++, v++) {
            float theta = GLM_PIf * (float)ring / RINGS, phi = 2.0f * GLM_PIf * (float)seg / SEG;
            float n[3] = {sinf(theta) * sinf(phi), cosf(theta), sinf(theta) * cosf(phi)};
            for (int c = 0; c < 3; c++) normals[3 * v + c] = n[c], positions[3 * v + c] = r * n[c];
        }
    for (int ring = 0; ring < RINGS; ring++)
        for (int seg = 0; seg < SEG; seg++) {
            unsigned short a = (unsigned short)(ring * (SEG + 1) + seg), b = (unsigned short)(a + SEG + 1);
            unsigned short quad[6] = {a, b, (unsigned short)(a + 1), (unsigned short)(a + 1), b, (unsigned short)(b + 1)};
            memcpy(indices + k, quad, sizeof quad);
            k += 6;
        }
    TestGltf *g = &s->gltf;
    char extra[128];
    snprintf(extra, sizeof extra, "\"min\":[%g,%g,%g],\"max\":[%g,%g,%g]", -r, -r, -r, r, r, r);
    int p = test_gltf_accessor(g, test_gltf_view(g, positions, sizeof positions, 0), 0, 5126, false, VERTS, "VEC3", extra);
    int n = test_gltf_accessor(g, test_gltf_view(g, normals, sizeof normals, 0), 0, 5126, false, VERTS, "VEC3", NULL);
    int i = test_gltf_accessor(g, test_gltf_view(g, indices, sizeof indices, 0), 0, 5123, false, k, "SCALAR", NULL);
    char item[512];
    snprintf(item, sizeof item, "{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d},\"indices\":%d,\"material\":%d}]}",
             p, n, i, s->mesh_count);
    append(s->meshes, sizeof s->meshes, "%s%s", item);
    snprintf(item, sizeof item, "{\"mesh\":%d}", s->mesh_count);
    append(s->nodes, sizeof s->nodes, "%s%s", item);
    append(s->materials, sizeof s->materials, "%s%s", material);
    s->mesh_count++;
}

/* Writes the scene as DIR/name.gltf and imports it. */
static bool scene_load(Scene *s, const char *name, Model *model)
{
    char path[sizeof dir + 64], nodes_list[256] = "";
    snprintf(path, sizeof path, "%s/%s.gltf", dir, name);
    for (int m = 0; m < s->mesh_count; m++) {
        char item[16];
        snprintf(item, sizeof item, "%d", m);
        append(nodes_list, sizeof nodes_list, "%s%s", item);
    }
    size_t size = 65536;
    char *members = malloc(size);
    int n = snprintf(members, size, "\"scene\":0,\"scenes\":[{\"nodes\":[%s]}],\"nodes\":[%s],\"meshes\":[%s],\"materials\":[%s]",
                     nodes_list, s->nodes, s->meshes, s->materials);
    if (s->image_count > 0)
        n += snprintf(members + n, size - (size_t)n,
                      ",\"images\":[%s],\"textures\":[%s],\"samplers\":[{\"magFilter\":9728,\"minFilter\":9728}]", s->images,
                      s->textures);
    snprintf(members + n, size - (size_t)n,
             ",\"extensionsUsed\":[\"KHR_texture_transform\",\"KHR_materials_emissive_strength\",\"KHR_materials_unlit\"]");
    bool ok = test_gltf_write(&s->gltf, path, members, false);
    free(members);
    test_gltf_free(&s->gltf);
    CHECK(ok, "write %s", path);
    memset(model, 0, sizeof *model);
    ok = ok && app_load_model(path, &(ImportOptions){0}, model);
    CHECK(ok, "import %s", path);
    return ok;
}

/* ---- rendering ---------------------------------------------------------------------------- */

typedef struct Render {
    unsigned char pixels[W * H * 4];
    mat4 view_projection;
} Render;

/* What a render adds to the model and light: the ground shadow (renderer_draw_shadow on the plane
 * y = shadow[0] in the square of centre (shadow[1], shadow[2]), half size shadow[3]) and an
 * environment image (rgb, w x h). NULL members: none. */
typedef struct Extras {
    const float *shadow;
    const float *environment;
    int          environment_width, environment_height;
} Extras;

/* Draws `model` seen from `eye` toward `target` under `light` (and `extras`, may be NULL) into r. */
static void render_from(const Model *model, const float eye[3], const float target[3], const RenderLight *light,
                        const Extras *extras, Render *r)
{
    Renderer renderer;
    Animator animator;
    Framebuffer framebuffer;
    char error[512] = "";
    bool ok = renderer_init(&renderer, model, SKINVIEW_SOURCE_DIR "/shaders/skinned.vert",
                            SKINVIEW_SOURCE_DIR "/shaders/skinned.frag", 64, error, sizeof error);
    CHECK(ok, "renderer: %s", error);
    if (!ok) return;
    if (extras && extras->environment)
        CHECK(renderer_set_environment(&renderer, extras->environment, extras->environment_width,
                                       extras->environment_height),
              "renderer_set_environment");
    CHECK(animator_init(&animator, model), "animator");
    CHECK(framebuffer_create(&framebuffer, W, H, 0, error, sizeof error), "framebuffer: %s", error);
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    mat4 view, projection;
    glm_lookat((float *)eye, (float *)target, (vec3){0.0f, 1.0f, 0.0f}, view);
    glm_perspective(glm_rad(40.0f), 1.0f, 0.1f, 100.0f, projection);
    glm_mat4_mul(projection, view, r->view_projection);
    framebuffer_bind(&framebuffer);
    glViewport(0, 0, W, H);
    renderer_clear(background[0] / 255.0f, background[1] / 255.0f, background[2] / 255.0f);
    if (extras && extras->shadow)
        renderer_draw_shadow(&renderer, &animator, view, projection, light, extras->shadow[0], extras->shadow + 1,
                             extras->shadow[3]);
    renderer_draw(&renderer, &animator, view, projection, light);
    CHECK(framebuffer_read_rgba(&framebuffer, r->pixels), "read back");
    CHECK(glGetError() == GL_NO_ERROR, "no GL error");
    framebuffer_free(&framebuffer);
    animator_free(&animator);
    renderer_free(&renderer);
}

/* Draws `model` seen from (0, 0, eye_z) toward the origin under `light` into r. */
static void render(const Model *model, float eye_z, const RenderLight *light, Render *r)
{
    render_from(model, (float[3]){0.0f, 0.0f, eye_z}, (float[3]){0.0f, 0.0f, 0.0f}, light, NULL, r);
}

/* The pixel where scene point (x, y, z) lands. */
static const unsigned char *pixel_at(const Render *r, float x, float y, float z)
{
    vec4 clip;
    glm_mat4_mulv((vec4 *)r->view_projection, (vec4){x, y, z, 1.0f}, clip);
    int px = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * W), py = (int)floorf((0.5f - 0.5f * clip[1] / clip[3]) * H);
    px = px < 0 ? 0 : px >= W ? W - 1 : px;
    py = py < 0 ? 0 : py >= H ? H - 1 : py;
    return r->pixels + 4 * ((size_t)py * W + (size_t)px);
}

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static int linear_to_srgb8(float c)
{
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    float s = c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)lrintf(255.0f * s);
}

static bool near(const unsigned char *p, int r, int g, int b, int tolerance)
{
    return abs(p[0] - r) <= tolerance && abs(p[1] - g) <= tolerance && abs(p[2] - b) <= tolerance;
}

static float luminance(const unsigned char *p)
{
    return 0.2126f * srgb_to_linear(p[0] / 255.0f) + 0.7152f * srgb_to_linear(p[1] / 255.0f) +
           0.0722f * srgb_to_linear(p[2] / 255.0f);
}

/* Ambient 1, no directional light, flat: the pixel is the material's colour itself. */
static void flat_white(RenderLight *light)
{
    memset(light, 0, sizeof *light);
    light->lighting = LIGHTING_FLAT;
    glm_vec3_one(light->ambient);
}

/* One unit quad with `material` (glTF JSON), loaded as `name`, rendered from z = 5 in flat white
 * light: the render (free it, and model_free the model), or NULL when it does not load. */
static Render *render_material_quad(Scene *s, const char *name, const char *material, Model *model)
{
    scene_quad(s, 0, 0, 0, 1.0f, false, NULL, NULL, 0, material);
    if (!scene_load(s, name, model)) return NULL;
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    if (r) render(model, 5.0f, &light, r);
    return r;
}

/* PBR with one directional light (scene space) of irradiance e and no ambient. */
static void pbr_directional(RenderLight *light, float x, float y, float z, float e)
{
    render_light_pbr(light);
    light->follow_camera = false;
    glm_vec3_copy((vec3){x, y, z}, light->direction);
    glm_vec3_fill(light->color, e);
    glm_vec3_zero(light->sky);
    glm_vec3_zero(light->ground);
}

/* ---- the cases ---------------------------------------------------------------------------- */

/* 16x16 texels, 8x8 per quadrant (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right):
 * samples at the quadrants' quarter points stay clear of the filter's reach across edges */
static void quadrant_texture(unsigned char out[16 * 16 * 4], const unsigned char colors[4][4])
{
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) memcpy(out + 4 * (16 * y + x), colors[(y / 8) * 2 + x / 8], 4);
}

static void test_alpha_mask(void)
{
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 60}, {0, 0, 255, 200}, {255, 255, 255, 0}};
    unsigned char texels[16 * 16 * 4];
    quadrant_texture(texels, colors);
    Scene s;
    scene_init(&s);
    int texture = scene_image(&s, texels, 16, 16);
    char material[256];
    snprintf(material, sizeof material,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d}},\"alphaMode\":\"MASK\",\"alphaCutoff\":0.5}", texture);
    Model model;
    Render *r = render_material_quad(&s, "mask", material, &model);
    if (!r) return;
    /* quadrant centres at (+-0.5, +-0.5): top-left red, top-right cut, bottom-left blue, bottom-right cut */
    const unsigned char *tl = pixel_at(r, -0.5f, 0.5f, 0), *tr = pixel_at(r, 0.5f, 0.5f, 0);
    const unsigned char *bl = pixel_at(r, -0.5f, -0.5f, 0), *br = pixel_at(r, 0.5f, -0.5f, 0);
    printf("mask: tl %d %d %d, tr %d %d %d, bl %d %d %d, br %d %d %d\n", tl[0], tl[1], tl[2], tr[0], tr[1], tr[2], bl[0], bl[1],
           bl[2], br[0], br[1], br[2]);
    CHECK(near(tl, 255, 0, 0, 1), "MASK: alpha 255 >= cutoff shows the texel (red)");
    CHECK(near(bl, 0, 0, 255, 1), "MASK: alpha 200 >= cutoff shows the texel (blue)");
    CHECK(near(tr, background[0], background[1], background[2], 0), "MASK: alpha 60 < cutoff shows the background exactly");
    CHECK(near(br, background[0], background[1], background[2], 0), "MASK: alpha 0 shows the background exactly");
    CHECK(tl[3] == 255 && bl[3] == 255, "MASK writes opaque alpha where it draws");
    free(r);
    model_free(&model);
}

static void test_alpha_blend(void)
{
    Scene s;
    scene_init(&s);
    /* opaque single-sided: green at z = -2 facing +Z (front camera), yellow at z = +2 facing -Z (back camera) */
    scene_quad(&s, 0, 0, -2.0f, 1.5f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1]}}");
    scene_quad(&s, 0, 0, 2.0f, 1.5f, true, NULL, NULL, 0, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,0,1]}}");
    /* blended double-sided, listed far-first for neither camera: blue at z = -0.5 first, red at +0.5 */
    scene_quad(&s, 0, 0, -0.5f, 0.6f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,1,0.5]},\"alphaMode\":\"BLEND\",\"doubleSided\":true}");
    scene_quad(&s, 0, 0, 0.5f, 0.6f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,0.5]},\"alphaMode\":\"BLEND\",\"doubleSided\":true}");
    Model model;
    if (!scene_load(&s, "blend", &model)) return;
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    for (int side = 0; side < 2; side++) {
        float eye = side == 0 ? 6.0f : -6.0f;
        render(&model, eye, &light, r);
        /* linear compositing far to near: front = red over blue over green; back = blue over red over yellow */
        float far_rgb[3] = {side == 0 ? 0.0f : 1.0f, 1.0f, 0.0f};
        float first[3] = {side == 0 ? 0.0f : 1.0f, 0.0f, side == 0 ? 1.0f : 0.0f};   /* the farther blended quad */
        float last[3] = {side == 0 ? 1.0f : 0.0f, 0.0f, side == 0 ? 0.0f : 1.0f};    /* the nearer one */
        float expected[3], wrong[3];
        for (int c = 0; c < 3; c++) {
            expected[c] = 0.5f * last[c] + 0.5f * (0.5f * first[c] + 0.5f * far_rgb[c]);
            wrong[c] = 0.5f * first[c] + 0.5f * (0.5f * last[c] + 0.5f * far_rgb[c]);
        }
        const unsigned char *centre = pixel_at(r, 0, 0, 0), *rim = pixel_at(r, 1.3f, 0, side == 0 ? -2.0f : 2.0f);
        printf("blend %s: centre %d %d %d (expected %d %d %d, unsorted would be %d %d %d), rim %d %d %d\n",
               side == 0 ? "front" : "back", centre[0], centre[1], centre[2], linear_to_srgb8(expected[0]),
               linear_to_srgb8(expected[1]), linear_to_srgb8(expected[2]), linear_to_srgb8(wrong[0]),
               linear_to_srgb8(wrong[1]), linear_to_srgb8(wrong[2]), rim[0], rim[1], rim[2]);
        CHECK(near(centre, linear_to_srgb8(expected[0]), linear_to_srgb8(expected[1]), linear_to_srgb8(expected[2]), 2),
              "BLEND from the %s: both blended quads over the opaque one, composited far to near", side == 0 ? "front" : "back");
        CHECK(centre[3] == 255, "blending over an opaque background keeps alpha 1 (%d)", centre[3]);
        CHECK(near(rim, linear_to_srgb8(far_rgb[0]), linear_to_srgb8(far_rgb[1]), linear_to_srgb8(far_rgb[2]), 1),
              "outside the blended quads the opaque quad facing the %s camera shows (the other is culled: single-sided)",
              side == 0 ? "front" : "back");
    }
    free(r);
    model_free(&model);
}

/* A 16x1 normal map whose normal turns about Y from -60 degrees (u = 0) to +60 degrees (u = 1):
 * n = (sin a, 0, cos a), stored as n * 0.5 + 0.5 */
static void tilted_normal_map(unsigned char out[16 * 4 * 4])
{
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++) {
            float a = glm_rad(-60.0f + 120.0f * ((float)x + 0.5f) / 16.0f);
            unsigned char *p = out + 4 * (16 * y + x);
            p[0] = (unsigned char)lrintf(255.0f * (0.5f + 0.5f * sinf(a)));
            p[1] = 128;
            p[2] = (unsigned char)lrintf(255.0f * (0.5f + 0.5f * cosf(a)));
            p[3] = 255;
        }
}

/* Luminance at 5 points along the quad's X (its u) */
static void row_luminance(const Render *r, float out[5])
{
    for (int i = 0; i < 5; i++) out[i] = luminance(pixel_at(r, -0.8f + 0.4f * (float)i, 0.0f, 0.0f));
}

static void test_normal_map(void)
{
    unsigned char texels[16 * 4 * 4];
    tilted_normal_map(texels);
    const float reversed[16] = {-1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1};   /* tangent along -u */
    for (int variant = 0; variant < 3; variant++) {   /* 0: generated tangents, 1: no map, 2: TANGENT = -u */
        Scene s;
        scene_init(&s);
        int texture = scene_image(&s, texels, 16, 4);
        char material[256];
        if (variant == 1)
            snprintf(material, sizeof material, "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}");
        else
            snprintf(material, sizeof material,
                     "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1},\"normalTexture\":{\"index\":%d}}",
                     texture);
        scene_quad(&s, 0, 0, 0, 1.0f, false, variant == 2 ? reversed : NULL, NULL, 0, material);
        Model model;
        char name[32];
        snprintf(name, sizeof name, "normal%d", variant);
        if (!scene_load(&s, name, &model)) return;
        CHECK(variant != 2 || model.meshes[0].tangents, "the file's TANGENT is read");
        Render *r = malloc(sizeof *r);
        for (int from = 0; from < 2; from++) {
            RenderLight light;
            float lx = from == 0 ? 1.0f : -1.0f;   /* 60 degrees off the normal, toward +X or -X */
            pbr_directional(&light, lx * sinf(glm_rad(60.0f)), 0.0f, cosf(glm_rad(60.0f)), 2.0f);
            render(&model, 5.0f, &light, r);
            float l[5];
            row_luminance(r, l);
            printf("normal map %s, light from %s: %.3f %.3f %.3f %.3f %.3f\n",
                   variant == 0 ? "generated tangents" : variant == 1 ? "none" : "TANGENT -u", from == 0 ? "+X" : "-X", l[0],
                   l[1], l[2], l[3], l[4]);
            if (variant == 1) {
                CHECK(fabsf(l[0] - l[4]) < 0.02f && fabsf(l[0] - l[2]) < 0.02f, "no normal map: the plane is uniform");
                continue;
            }
            /* expected: brightness follows max(n(u) . l, 0); n(u) turns toward +X as u grows (the -u
             * tangent mirrors it), so it rises toward the light's side */
            bool rising = (from == 0) == (variant == 0);
            bool monotonic = true;
            for (int i = 0; i + 1 < 5; i++) monotonic = monotonic && (rising ? l[i + 1] > l[i] : l[i + 1] < l[i]);
            CHECK(monotonic, "normal map: brightness %s along u", rising ? "rises" : "falls");
            float lo = rising ? l[0] : l[4], hi = rising ? l[4] : l[0];
            /* at the ends n.l = cos(60 +- 48) (the texel centres 0.1 and 0.9 of u): 0.21 vs 0.99 */
            CHECK(hi > 2.5f * lo, "normal map: the lit end is much brighter than the far end (%.3f vs %.3f)", hi, lo);
        }
        free(r);
        model_free(&model);
    }
}

static void test_metal_rough(void)
{
    float peak[2], median[2];
    int bright[2];
    for (int k = 0; k < 2; k++) {
        Scene s;
        scene_init(&s);
        scene_sphere(&s, 1.0f, k == 0 ? "{\"pbrMetallicRoughness\":{\"metallicFactor\":1,\"roughnessFactor\":0}}"
                                      : "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}");
        Model model;
        if (!scene_load(&s, k == 0 ? "metal" : "rough", &model)) return;
        RenderLight light;
        pbr_directional(&light, 0.3f, 0.4f, 1.0f, 2.0f);   /* from near the camera */
        glm_vec3_fill(light.sky, 0.02f);
        glm_vec3_fill(light.ground, 0.02f);
        Render *r = malloc(sizeof *r);
        render(&model, 5.0f, &light, r);
        static float values[W * H];
        int n = 0;
        peak[k] = 0.0f;
        bright[k] = 0;
        for (int i = 0; i < W * H; i++) {
            const unsigned char *p = r->pixels + 4 * i;
            if (near(p, background[0], background[1], background[2], 0)) continue;
            float y = luminance(p);
            values[n++] = y;
            if (y > peak[k]) peak[k] = y;
            bright[k] += y > 0.8f;
        }
        /* median by partial selection: sort is fine for 25 600 values */
        for (int i = 1; i < n; i++) {
            float v = values[i];
            int j = i;
            while (j > 0 && values[j - 1] > v) values[j] = values[j - 1], j--;
            values[j] = v;
        }
        median[k] = n > 0 ? values[n / 2] : 0.0f;
        printf("%s: %d sphere pixels, peak luminance %.3f, %d above 0.8, median %.3f\n",
               k == 0 ? "metallic 1 roughness 0" : "metallic 0 roughness 1", n, peak[k], bright[k], median[k]);
        CHECK(n > 2000, "the sphere is in the picture");
        free(r);
        model_free(&model);
    }
    CHECK(peak[0] > 0.8f && bright[0] > 0 && bright[0] < 400, "smooth metal: a small near-white highlight (%d pixels)",
          bright[0]);
    CHECK(bright[1] == 0 && peak[1] < 0.75f, "rough dielectric: no highlight above 0.8 (peak %.3f)", peak[1]);
    CHECK(peak[0] > peak[1] + 0.2f, "the smooth metal's highlight is brighter than anything on the rough one");
    CHECK(median[1] > 3.0f * median[0], "away from the highlight the smooth metal is dark, the rough dielectric lit "
                                        "(median %.3f vs %.3f)", median[0], median[1]);
}

static void test_vertex_colors(void)
{
    Scene s;
    scene_init(&s);
    const float orange[12] = {1, 0.5f, 0, 1, 0.5f, 0, 1, 0.5f, 0, 1, 0.5f, 0};   /* linear, float VEC3 */
    const unsigned char teal[16] = {0, 128, 255, 255, 0, 128, 255, 255, 0, 128, 255, 255, 0, 128, 255, 255};
    scene_quad(&s, -1.1f, 0, 0, 0.9f, false, NULL, orange, 5126, "{\"pbrMetallicRoughness\":{}}");
    scene_quad(&s, 1.1f, 0, 0, 0.9f, false, NULL, teal, 5121,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1]}}");
    Model model;
    if (!scene_load(&s, "colors", &model)) return;
    CHECK(model.meshes[0].colors && model.meshes[1].colors, "COLOR_0 read for both meshes");
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    render(&model, 6.0f, &light, r);
    const unsigned char *a = pixel_at(r, -1.1f, 0, 0), *b = pixel_at(r, 1.1f, 0, 0);
    printf("vertex colours: %d %d %d and %d %d %d\n", a[0], a[1], a[2], b[0], b[1], b[2]);
    CHECK(near(a, 255, linear_to_srgb8(0.5f), 0, 1), "float VEC3 COLOR_0 (1, 0.5, 0) comes through");
    CHECK(near(b, 0, linear_to_srgb8(128.0f / 255.0f), 255, 1), "normalized byte VEC4 COLOR_0 comes through");
    free(r);
    model_free(&model);
}

static void test_emissive(void)
{
    Scene s;
    scene_init(&s);
    scene_quad(&s, 0, 0, 0, 1.0f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,0,1]},\"emissiveFactor\":[0,0.25,0.1],"
               "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":2}}}");
    Model model;
    if (!scene_load(&s, "emissive", &model)) return;
    RenderLight light;
    pbr_directional(&light, 0, 0, 1, 0.0f);   /* no light at all */
    Render *r = malloc(sizeof *r);
    render(&model, 5.0f, &light, r);
    const unsigned char *p = pixel_at(r, 0, 0, 0);
    /* (0, 0.5, 0.2) through the tone map: min channel 0 (no offset), peak 0.5 < 0.76 (unchanged) */
    printf("emissive: %d %d %d (expected %d %d %d)\n", p[0], p[1], p[2], 0, linear_to_srgb8(0.5f), linear_to_srgb8(0.2f));
    CHECK(near(p, 0, linear_to_srgb8(0.5f), linear_to_srgb8(0.2f), 2), "emissive x strength shows with no light");
    free(r);
    model_free(&model);
}

/* The quadrant (0 tl, 1 tr, 2 bl, 3 br) of glTF UV uv after KHR_texture_transform, as the
 * extension defines it: uv' = T * R * S * uv, R = [cos sin; -sin cos] (wrapping with REPEAT). */
static int transformed_quadrant(float u, float v, const float offset[2], float rotation, const float scale[2])
{
    float su = scale[0] * u, sv = scale[1] * v;
    float ru = cosf(rotation) * su + sinf(rotation) * sv, rv = -sinf(rotation) * su + cosf(rotation) * sv;
    float tu = ru + offset[0], tv = rv + offset[1];
    tu -= floorf(tu);
    tv -= floorf(tv);
    return (tv >= 0.5f ? 2 : 0) + (tu >= 0.5f ? 1 : 0);
}

static void test_texture_transform(void)
{
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
    unsigned char texels[16 * 16 * 4];
    quadrant_texture(texels, colors);
    struct { float offset[2], rotation, scale[2]; int texcoord; } cases[] = {
        {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}, -1},
        {{0.5f, 0.0f}, 0.0f, {1.0f, 1.0f}, -1},
        {{0.0f, 0.5f}, 0.0f, {1.0f, 1.0f}, 1},
        {{0.0f, 0.0f}, GLM_PIf / 2.0f, {1.0f, 1.0f}, -1},
        {{0.25f, 0.25f}, 0.0f, {0.5f, 0.5f}, -1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Scene s;
        scene_init(&s);
        int texture = scene_image(&s, texels, 16, 16);
        char material[512], texcoord[32] = "";
        if (cases[c].texcoord >= 0) snprintf(texcoord, sizeof texcoord, ",\"texCoord\":%d", cases[c].texcoord);
        snprintf(material, sizeof material,
                 "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d,\"extensions\":{\"KHR_texture_transform\":"
                 "{\"offset\":[%g,%g],\"rotation\":%.9g,\"scale\":[%g,%g]%s}}}}}",
                 texture, cases[c].offset[0], cases[c].offset[1], cases[c].rotation, cases[c].scale[0], cases[c].scale[1],
                 texcoord);
        Model model;
        Render *r = render_material_quad(&s, "transform", material, &model);
        if (!r) return;
        int matches = 0, points = 0;
        for (int iy = 0; iy < 4; iy++)
            for (int ix = 0; ix < 4; ix++) {
                /* sample points at glTF UV (0.125 + 0.25 i, 0.125 + 0.25 j), away from the quadrant edges */
                float u = 0.125f + 0.25f * (float)ix, v = 0.125f + 0.25f * (float)iy;
                int q = transformed_quadrant(u, v, cases[c].offset, cases[c].rotation, cases[c].scale);
                const unsigned char *p = pixel_at(r, -1.0f + 2.0f * u, 1.0f - 2.0f * v, 0.0f);
                points++;
                matches += near(p, colors[q][0], colors[q][1], colors[q][2], 2);
                if (!near(p, colors[q][0], colors[q][1], colors[q][2], 2))
                    printf("  glTF uv (%.3f, %.3f): quadrant %d expected, pixel %d %d %d\n", u, v, q, p[0], p[1], p[2]);
            }
        printf("KHR_texture_transform offset (%g, %g) rotation %.3f scale (%g, %g)%s: %d of %d sample points match\n",
               cases[c].offset[0], cases[c].offset[1], cases[c].rotation, cases[c].scale[0], cases[c].scale[1],
               cases[c].texcoord >= 0 ? " texCoord 1" : "", matches, points);
        CHECK(matches == points, "KHR_texture_transform case %zu moves the texture as the extension says", c);
        free(r);
        model_free(&model);
    }
}

/* ---- --shadow, --environment, Assimp opacity and bump maps ---------------------------------- */

/* A sphere (r 0.5) above the ground y = -1.5 lit from (1, 1, 0): its shadow falls around
 * (-1.5, -1.5, 0) (p' = p - L (p.y - g) / L.y), an ellipse of half axes 0.71 (x) and 0.5 (z).
 * In it the ground is the background darkened by RENDERER_SHADOW_STRENGTH; outside, exactly the
 * background; at its edge, in between (the soft edge); without --shadow, the background. */
static void test_shadow(void)
{
    Scene s;
    scene_init(&s);
    scene_sphere(&s, 0.5f, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.8,0.8,1],\"metallicFactor\":0}}");
    Model model;
    if (!scene_load(&s, "shadow", &model)) return;
    RenderLight light;
    render_light_default(&light);
    glm_vec3_copy((vec3){1.0f, 1.0f, 0.0f}, light.direction);
    const float ground[4] = {-1.5f, 0.0f, 0.0f, 3.0f};
    Extras extras = {.shadow = ground};
    const float eye[3] = {0.0f, 4.0f, 6.0f}, target[3] = {0.0f, -1.5f, 0.0f};
    Render *with = malloc(sizeof *with), *without = malloc(sizeof *without);
    render_from(&model, eye, target, &light, &extras, with);
    render_from(&model, eye, target, &light, NULL, without);
    const unsigned char *in = pixel_at(with, -1.5f, -1.5f, 0.0f), *out = pixel_at(with, 1.2f, -1.5f, 0.0f);
    const unsigned char *edge = pixel_at(with, -1.5f, -1.5f, 0.5f), *off = pixel_at(without, -1.5f, -1.5f, 0.0f);
    float keep = 1.0f - RENDERER_SHADOW_STRENGTH;
    printf("shadow: in %d %d %d (expected %.0f %.0f %.0f), edge %d %d %d, outside %d %d %d, --shadow off %d %d %d\n",
           in[0], in[1], in[2], keep * background[0], keep * background[1], keep * background[2], edge[0], edge[1], edge[2],
           out[0], out[1], out[2], off[0], off[1], off[2]);
    CHECK(near(in, (int)lrintf(keep * background[0]), (int)lrintf(keep * background[1]), (int)lrintf(keep * background[2]), 1),
          "under the sphere along the light, the ground is darkened by the shadow's strength");
    CHECK(near(out, background[0], background[1], background[2], 0), "outside the shadow the ground is the background exactly");
    CHECK(edge[2] > in[2] + 2 && edge[2] < background[2] - 2, "the shadow's edge is soft (between shadow and background)");
    CHECK(near(off, background[0], background[1], background[2], 0), "without --shadow there is none");
    free(with);
    free(without);
    model_free(&model);
}

/* A Radiance file (flat, not run-length encoded): w x h pixels of rgb (RGBE: m * 2^(e - 136)). */
static void write_hdr(const char *path, const float *rgb, int w, int h)
{
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL, "write %s", path);
    if (!file) return;
    fprintf(file, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n", h, w);
    for (int i = 0; i < w * h; i++) {
        const float *c = rgb + 3 * i;
        float peak = fmaxf(c[0], fmaxf(c[1], c[2]));
        unsigned char rgbe[4] = {0, 0, 0, 0};
        if (peak > 1e-32f) {
            int e;
            float scale = frexpf(peak, &e) * 256.0f / peak;   /* peak = f 2^e, f in [0.5, 1) */
            for (int k = 0; k < 3; k++) rgbe[k] = (unsigned char)(c[k] * scale);
            rgbe[3] = (unsigned char)(e + 128);
        }
        fwrite(rgbe, 1, 4, file);
    }
    fclose(file);
}

/* The environment: the CPU prefilter of a uniform image is that radiance everywhere (diffuse
 * harmonics and every specular level); a red-above / blue-below image read through the file
 * reader lights the top of a rough white sphere red and its bottom blue with no key light; bad
 * files are refused with one line naming them. */
static void test_environment(void)
{
    enum { EW = 16, EH = 8 };
    float uniform[EW * EH * 3], split[EW * EH * 3];
    for (int i = 0; i < EW * EH; i++)
        for (int c = 0; c < 3; c++) {
            uniform[3 * i + c] = 0.5f;
            split[3 * i + c] = i / EW < EH / 2 ? (c == 0 ? 1.0f : 0.1f) : (c == 2 ? 1.0f : 0.1f);
        }
    EnvironmentLight prefiltered;
    CHECK(environment_prefilter(uniform, EW, EH, &prefiltered), "environment_prefilter");
    /* E(n) / pi = sum_lm sh_lm Y_lm(n): for a constant only Y_00 = 0.282095 remains */
    float diffuse = prefiltered.sh[0][1] * 0.282095f, worst = 0.0f;
    for (int level = 0; level < ENVIRONMENT_LEVELS; level++) {
        int texels = (ENVIRONMENT_WIDTH >> level) * ((ENVIRONMENT_WIDTH / 2) >> level);
        for (int t = 0; t < 3 * texels; t++) worst = fmaxf(worst, fabsf(prefiltered.levels[level][t] - 0.5f));
    }
    float band1 = fabsf(prefiltered.sh[1][0]) + fabsf(prefiltered.sh[2][0]) + fabsf(prefiltered.sh[3][0]);
    printf("environment: uniform 0.5 -> diffuse %.4f, specular levels within %.5f, band-1 sum %.5f\n", diffuse, worst, band1);
    CHECK(fabsf(diffuse - 0.5f) < 0.005f, "a uniform environment's irradiance / pi is its radiance");
    CHECK(worst < 1e-4f, "every prefiltered level of a uniform environment is its radiance");
    CHECK(band1 < 1e-3f, "a uniform environment has no directional harmonics");
    environment_light_free(&prefiltered);

    char path[sizeof dir + 32], error[512];
    snprintf(path, sizeof path, "%s/split.hdr", dir);
    write_hdr(path, split, EW, EH);
    float *rgb = NULL;
    int w = 0, h = 0;
    CHECK(hdr_image_load(path, &rgb, &w, &h, error, sizeof error) && w == EW && h == EH, "read the .hdr back: %s", error);
    if (rgb) CHECK(fabsf(rgb[0] - 1.0f) < 0.01f && fabsf(rgb[3 * EW * EH - 1] - 1.0f) < 0.01f, "RGBE decodes");

    Scene s;
    scene_init(&s);
    scene_sphere(&s, 1.0f, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1],\"metallicFactor\":0,\"roughnessFactor\":1}}");
    Model model;
    if (rgb && scene_load(&s, "environment", &model)) {
        RenderLight light;
        pbr_directional(&light, 0, 1, 0, 0.0f);   /* no key light: only the environment */
        Extras extras = {.environment = rgb, .environment_width = w, .environment_height = h};
        Render *r = malloc(sizeof *r);
        render_from(&model, (float[3]){0, 0, 5}, (float[3]){0, 0, 0}, &light, &extras, r);
        const unsigned char *top = pixel_at(r, 0, 0.9f, 0.4f), *bottom = pixel_at(r, 0, -0.9f, 0.4f);
        printf("environment: sphere top %d %d %d, bottom %d %d %d\n", top[0], top[1], top[2], bottom[0], bottom[1], bottom[2]);
        CHECK(top[0] > top[2] + 60, "the red sky lights the top red");
        CHECK(bottom[2] > bottom[0] + 60, "the blue ground lights the bottom blue");
        free(r);
        model_free(&model);
    }
    free(rgb);

    snprintf(path, sizeof path, "%s/not.hdr", dir);
    FILE *file = fopen(path, "wb");
    if (file) {
        fputs("no image here\n", file);
        fclose(file);
    }
    CHECK(!hdr_image_check(path, error, sizeof error) && strstr(error, path) && !strchr(error, '\n'),
          "a file that is not Radiance is refused with one line naming it: %s", error);
    snprintf(path, sizeof path, "%s/image0.png", dir);   /* written by the earlier cases: a PNG is not HDR */
    unsigned char png[4 * 4 * 4] = {0};
    CHECK(app_write_png(path, 4, 4, png, error, sizeof error), "write %s", path);
    CHECK(!hdr_image_check(path, error, sizeof error), "a PNG is refused: %s", error);
}

/* `model` from (0, 0, 5) under ambient 1, flat (the colours as they are); the caller frees it. */
static Render *render_flat(const Model *model)
{
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    if (r) render(model, 5.0f, &light, r);
    return r;
}

/* An OBJ (Assimp) quad whose material has a diffuse texture (red), a separate opacity map (map_d:
 * grey, left half white, right half black) and a grey height map (map_bump: a ramp in x): the
 * opacity becomes the diffuse texture's alpha, a cut-out (MASK): the left half shows red, the
 * right half the background exactly; the height map becomes a normal map tilted toward -x by the
 * ramp's slope (n = normalize(-2 dh/dx, 2 dh/dy, 1)). */
static void test_opacity_and_bump(void)
{
    unsigned char red[16 * 16 * 4], opacity[16 * 16 * 4], height[16 * 16 * 4];
    for (int i = 0; i < 16 * 16; i++) {
        int x = i % 16;
        memcpy(red + 4 * i, (unsigned char[4]){255, 0, 0, 255}, 4);
        unsigned char o = x < 8 ? 255 : 0, ramp = (unsigned char)(x * 17);   /* h = x / 15 */
        memcpy(opacity + 4 * i, (unsigned char[4]){o, o, o, 255}, 4);
        memcpy(height + 4 * i, (unsigned char[4]){ramp, ramp, ramp, 255}, 4);
    }
    char path[sizeof dir + 32], error[256];
    const char *names[3] = {"red.png", "opacity.png", "height.png"};
    const unsigned char *images[3] = {red, opacity, height};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        CHECK(app_write_png(path, 16, 16, images[k], error, sizeof error), "write %s: %s", path, error);
    }
    snprintf(path, sizeof path, "%s/cutout.mtl", dir);
    FILE *file = fopen(path, "w");
    if (file) {
        fputs("newmtl cutout\nKd 1 1 1\nmap_Kd red.png\nmap_d opacity.png\nmap_bump height.png\n", file);
        fclose(file);
    }
    snprintf(path, sizeof path, "%s/cutout.obj", dir);
    file = fopen(path, "w");
    if (file) {
        fputs("mtllib cutout.mtl\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n"
              "usemtl cutout\nf 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n",
              file);
        fclose(file);
    }
    Model model;
    memset(&model, 0, sizeof model);
    if (!app_load_model(path, &(ImportOptions){0}, &model)) {
        CHECK(false, "import %s", path);
        return;
    }
    int used = model.mesh_count > 0 ? model.meshes[0].material : -1;   /* Assimp puts its default material first */
    const Material *material = used >= 0 && used < model.material_count ? &model.materials[used] : NULL;
    CHECK(material && material->alpha_mode == MATERIAL_ALPHA_MASK, "a cut-out opacity map makes the material MASK");
    int normal = material ? material->normal_map.texture : -1;
    CHECK(normal >= 0 && normal < model.texture_count, "the height map becomes a normal map");
    if (normal >= 0 && normal < model.texture_count) {
        const unsigned char *texel = model.textures[normal].rgba + 4 * (16 * 8 + 8);
        /* dh/dx = 1/15 per texel: n = normalize(-2/15, 0, 1) = (-0.132, 0, 0.991) */
        printf("bump: normal texel %d %d %d (expected 111 128 254)\n", texel[0], texel[1], texel[2]);
        CHECK(abs(texel[0] - 111) <= 1 && abs(texel[1] - 128) <= 1 && abs(texel[2] - 254) <= 1,
              "the normal map tilts by the height map's slope");
    }
    Render *r = render_flat(&model);
    const unsigned char *left = pixel_at(r, -0.5f, 0.0f, 0), *right = pixel_at(r, 0.5f, 0.0f, 0);
    printf("opacity: left %d %d %d, right %d %d %d\n", left[0], left[1], left[2], right[0], right[1], right[2]);
    CHECK(near(left, 255, 0, 0, 1), "opacity 1: the diffuse texture shows");
    CHECK(near(right, background[0], background[1], background[2], 0), "opacity 0: the background shows exactly");
    free(r);
    model_free(&model);
}

/* A VAT bake's mesh.glb (vat_export_mesh) carries the material the VAT player draws with: a quad
 * with every map (normal + scale, occlusion + strength, metallic-roughness, emissive), MASK and
 * vertex colours comes back from it with all of them. */
static void test_vat_materials(void)
{
    unsigned char texels[4 * 4 * 4];
    memset(texels, 200, sizeof texels);
    Scene s;
    scene_init(&s);
    int t = scene_image(&s, texels, 4, 4);
    char material[640];
    snprintf(material, sizeof material,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d},\"metallicRoughnessTexture\":{\"index\":%d},"
             "\"metallicFactor\":0.25,\"roughnessFactor\":0.5},\"normalTexture\":{\"index\":%d,\"scale\":0.5},"
             "\"occlusionTexture\":{\"index\":%d,\"strength\":0.75},\"emissiveTexture\":{\"index\":%d},"
             "\"emissiveFactor\":[0.5,0.25,0],\"alphaMode\":\"MASK\",\"alphaCutoff\":0.375}",
             t, t, t, t, t);
    const float colors[12] = {1, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1, 0.5f, 0.25f};
    scene_quad(&s, 0, 0, 0, 1.0f, false, NULL, colors, 5126, material);
    Model model, baked;
    if (!scene_load(&s, "vat_source", &model)) return;
    char path[sizeof dir + 32], error[512];
    snprintf(path, sizeof path, "%s/mesh.glb", dir);
    const Mesh *mesh = &model.meshes[0];
    CHECK(vat_export_mesh(path, &model, mesh->positions, mesh->normals, error, sizeof error), "vat_export_mesh: %s", error);
    memset(&baked, 0, sizeof baked);
    if (!app_load_model(path, &(ImportOptions){0}, &baked) || baked.mesh_count < 1) {
        CHECK(false, "import %s", path);
        model_free(&model);
        return;
    }
    int used = baked.meshes[0].material;
    const Material *m = used >= 0 && used < baked.material_count ? &baked.materials[used] : NULL;
    CHECK(m != NULL, "the baked mesh has its material");
    if (m) {
        printf("vat: normal %d x %.3f, occlusion %d x %.3f, metallic-roughness %d (%.3f %.3f), emissive %d (%.3f %.3f %.3f), "
               "alpha %d cutoff %.3f, colours %s\n",
               m->normal_map.texture, m->normal_scale, m->occlusion_map.texture, m->occlusion_strength,
               m->metallic_roughness_map.texture, m->metallic_factor, m->roughness_factor, m->emissive_map.texture,
               m->emissive_factor[0], m->emissive_factor[1], m->emissive_factor[2], (int)m->alpha_mode, m->alpha_cutoff,
               baked.meshes[0].colors ? "yes" : "no");
        CHECK(m->normal_map.texture >= 0 && fabsf(m->normal_scale - 0.5f) < 1e-6f, "normal map and scale");
        CHECK(m->occlusion_map.texture >= 0 && fabsf(m->occlusion_strength - 0.75f) < 1e-6f, "occlusion and strength");
        CHECK(m->metallic_roughness_map.texture >= 0 && fabsf(m->metallic_factor - 0.25f) < 1e-6f &&
                  fabsf(m->roughness_factor - 0.5f) < 1e-6f,
              "metallic-roughness map and factors");
        CHECK(m->emissive_map.texture >= 0 && fabsf(m->emissive_factor[0] - 0.5f) < 1e-6f &&
                  fabsf(m->emissive_factor[1] - 0.25f) < 1e-6f,
              "emissive map and factor");
        CHECK(m->alpha_mode == MATERIAL_ALPHA_MASK && fabsf(m->alpha_cutoff - 0.375f) < 1e-6f, "MASK and its cutoff");
    }
    CHECK(baked.meshes[0].colors && fabsf(baked.meshes[0].colors[0][1] - 0.5f) < 1e-6f, "vertex colours");
    model_free(&baked);
    model_free(&model);
}

int main(int argc, char **argv)
{
    /* no argument: the material cases (gfx_materials); "shadow", "environment" or "opacity": that case */
    const char *only = argc > 1 ? argv[1] : NULL;
    GlContext context = {0};
    char error[512];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "no OpenGL context: %s\n", error);
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (!only) {
        test_alpha_mask();
        test_alpha_blend();
        test_normal_map();
        test_metal_rough();
        test_vertex_colors();
        test_emissive();
        test_texture_transform();
    } else if (strcmp(only, "shadow") == 0) {
        test_shadow();
    } else if (strcmp(only, "environment") == 0) {
        test_environment();
    } else if (strcmp(only, "opacity") == 0) {
        test_opacity_and_bump();
    } else if (strcmp(only, "vat") == 0) {
        test_vat_materials();
    } else {
        CHECK(false, "unknown case %s", only);
    }
    glcontext_destroy(&context);
    char command[sizeof dir + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return test_finish();
}
