/* materials_fixture.c — the scenes, renders and colour helpers of test_materials (materials_fixture.h). */
#include "materials_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char dir[sizeof MATERIALS_DIR_TEMPLATE] = MATERIALS_DIR_TEMPLATE;

const unsigned char background[3] = {10, 20, 30};   /* sRGB clear colour */

void scene_init(Scene *s)
{
    memset(s, 0, sizeof *s);
    test_gltf_init(&s->gltf);
}

void append(char *out, size_t size, const char *fmt, const char *text)
{
    size_t n = strlen(out);
    snprintf(out + n, size - n, fmt, n > 0 ? "," : "", text);
}

int scene_image(Scene *s, const unsigned char *rgba, int w, int h)
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

void scene_quad(Scene *s, float cx, float cy, float z, float half, bool back, const float *tangents,
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

void scene_sphere(Scene *s, float r, const char *material)
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

bool scene_load(Scene *s, const char *name, Model *model)
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

void render_from(const Model *model, const float eye[3], const float target[3], const RenderLight *light,
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

void render(const Model *model, float eye_z, const RenderLight *light, Render *r)
{
    render_from(model, (float[3]){0.0f, 0.0f, eye_z}, (float[3]){0.0f, 0.0f, 0.0f}, light, NULL, r);
}

const unsigned char *pixel_at(const Render *r, float x, float y, float z)
{
    vec4 clip;
    glm_mat4_mulv((vec4 *)r->view_projection, (vec4){x, y, z, 1.0f}, clip);
    int px = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * W), py = (int)floorf((0.5f - 0.5f * clip[1] / clip[3]) * H);
    px = px < 0 ? 0 : px >= W ? W - 1 : px;
    py = py < 0 ? 0 : py >= H ? H - 1 : py;
    return r->pixels + 4 * ((size_t)py * W + (size_t)px);
}

float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

int linear_to_srgb8(float c)
{
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    float s = c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)lrintf(255.0f * s);
}

bool near(const unsigned char *p, int r, int g, int b, int tolerance)
{
    return abs(p[0] - r) <= tolerance && abs(p[1] - g) <= tolerance && abs(p[2] - b) <= tolerance;
}

float luminance(const unsigned char *p)
{
    return 0.2126f * srgb_to_linear(p[0] / 255.0f) + 0.7152f * srgb_to_linear(p[1] / 255.0f) +
           0.0722f * srgb_to_linear(p[2] / 255.0f);
}

void flat_white(RenderLight *light)
{
    memset(light, 0, sizeof *light);
    light->lighting = LIGHTING_FLAT;
    glm_vec3_one(light->ambient);
}

Render *render_material_quad(Scene *s, const char *name, const char *material, Model *model)
{
    scene_quad(s, 0, 0, 0, 1.0f, false, NULL, NULL, 0, material);
    if (!scene_load(s, name, model)) return NULL;
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    if (r) render(model, 5.0f, &light, r);
    return r;
}

void pbr_directional(RenderLight *light, float x, float y, float z, float e)
{
    render_light_pbr(light);
    light->follow_camera = false;
    glm_vec3_copy((vec3){x, y, z}, light->direction);
    glm_vec3_fill(light->color, e);
    glm_vec3_zero(light->sky);
    glm_vec3_zero(light->ground);
}

void quadrant_texture(unsigned char out[16 * 16 * 4], const unsigned char colors[4][4])
{
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) memcpy(out + 4 * (16 * y + x), colors[(y / 8) * 2 + x / 8], 4);
}
