/* test_teach_aids.c — the teaching aids read back from real renders (src/teach/scene.c):
 *   - weight heat-map, under an ambient-only light of 1 (the map's colours unshaded): on the
 *     demo, every vertex whose weight on the selected joint is 1 (or 0) shows the top (bottom)
 *     colour of the map where it is visible; decoding every joint's heat-map of one pose and
 *     summing per pixel gives 1;
 *   - the same heat-map under the default light is shaded: at those vertices the pixel is the
 *     map's colour times the shading worked out here from the vertex's skinned normal and the
 *     light (skinned.frag heatShade), and the shading varies over the body;
 *   - the overlay's joint dots land where the CPU model-space joints project, in a clip, the
 *     bind pose and the rest pose (the selected joint's magenta dot, found in the picture);
 *   - CPU and GPU linear blend skinning draw the same picture (< 0.5 % of the pixels differ).
 * Offscreen GL (glcontext_create_offscreen), the real shaders, the demo model (assets/). */
#include "view/framing.h"
#include "view/camera.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "teach/teaching_aids.h"
#include "gfx/colormap.h"
#include "gfx/framebuffer.h"
#include "testutil.h"
#include "gfx/gl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 480
#define H 360

static unsigned char lut[256][3];   /* the heat-map's colours, weight i / 255 */

typedef struct Setup {
    Model       model;
    Renderer    renderer;
    Animator    animator;
    TeachingAids       scene;
    Framebuffer framebuffer;
    mat4        view, projection;
    unsigned char *pixels;
    float       *depth;
    float        near_plane, far_plane;
} Setup;

static bool flat_light;   /* render(): ambient 1, no directional light (the heat-map unshaded) */

/* Renders the scene at (clip, time) into setup->pixels (rows top to bottom). */
static void render(Setup *s, int clip, float time)
{
    RenderLight light;
    render_light_default(&light);
    if (flat_light) {
        glm_vec3_fill(light.ambient, 1.0f);
        glm_vec3_zero(light.color);
    }
    scene_evaluate(&s->scene, &s->animator, clip, time);
    framebuffer_bind(&s->framebuffer);
    renderer_clear(0.18f, 0.2f, 0.23f);
    scene_draw(&s->scene, &s->animator, s->view, s->projection, &light, NULL, W, H);
    CHECK(framebuffer_read_rgba(&s->framebuffer, s->pixels), "read back");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->framebuffer.fbo);   /* single-sampled: read depth directly */
    glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, s->depth);   /* rows bottom to top */
}

/* Is scene-space point p the visible surface at its pixel (its depth within `slack` of the
 * depth buffer's, both turned back into eye-space distance)? */
static bool visible(const Setup *s, const vec3 p, float x, float y, float slack)
{
    float vp[4][4], clip[4];
    test_naive_mat4_mul((const float(*)[4])s->projection, (const float(*)[4])s->view, vp);
    for (int r = 0; r < 4; r++) clip[r] = vp[0][r] * p[0] + vp[1][r] * p[1] + vp[2][r] * p[2] + vp[3][r];
    float window_z = clip[2] / clip[3] * 0.5f + 0.5f;
    float stored = s->depth[(H - 1 - (int)y) * W + (int)x];
    /* eye distance from window depth: d = 2nf / (f + n - (2z - 1)(f - n)) */
    float n = s->near_plane, f = s->far_plane;
    float d_vertex = 2.0f * n * f / (f + n - (2.0f * window_z - 1.0f) * (f - n));
    float d_stored = 2.0f * n * f / (f + n - (2.0f * stored - 1.0f) * (f - n));
    return d_vertex <= d_stored + slack;
}

/* Nearest heat-map colour: the weight it stands for, and the colour distance. */
static float decode_weight(const unsigned char *p, int *distance)
{
    int best = 0, best_d = 1 << 30;
    for (int i = 0; i < 256; i++) {
        int dr = p[0] - lut[i][0], dg = p[1] - lut[i][1], db = p[2] - lut[i][2];
        int d = dr * dr + dg * dg + db * db;
        if (d < best_d) best_d = d, best = i;
    }
    *distance = best_d;
    return (float)best / 255.0f;
}

/* Pixel of scene-space point p, (x, y) with y down; false when behind the eye or outside. */
static bool project(const Setup *s, const vec3 p, float *x, float *y)
{
    float vp[4][4], clip[4] = {0, 0, 0, 0};
    test_naive_mat4_mul((const float(*)[4])s->projection, (const float(*)[4])s->view, vp);
    for (int r = 0; r < 4; r++) clip[r] = vp[0][r] * p[0] + vp[1][r] * p[1] + vp[2][r] * p[2] + vp[3][r];
    if (clip[3] <= 0.0f) return false;
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * W;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * H;
    return *x >= 1 && *y >= 1 && *x < W - 1 && *y < H - 1;
}

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* The heat-map colour `rgb` (sRGB8) shaded for a surface with normal n under the default light,
 * as the shader is meant to: linear colour * (0.4 + 0.6 * min(luminance(ambient + max(n.l, 0) *
 * light), 1)). Returns the factor. */
static float shade_expected(const unsigned char rgb[3], const vec3 normal, unsigned char out[3])
{
    RenderLight light;
    render_light_default(&light);
    vec3 n, l;
    glm_vec3_normalize_to((float *)normal, n);
    glm_vec3_normalize_to(light.direction, l);
    float diffuse = fmaxf(glm_vec3_dot(n, l), 0.0f);
    float level = 0.0f;
    const float luminance[3] = {0.2126f, 0.7152f, 0.0722f};
    for (int c = 0; c < 3; c++) level += luminance[c] * (light.ambient[c] + diffuse * light.color[c]);
    float factor = 0.4f + 0.6f * fminf(level, 1.0f);
    for (int c = 0; c < 3; c++)
        out[c] = (unsigned char)(linear_to_srgb(srgb_to_linear(rgb[c] / 255.0f) * factor) * 255.0f + 0.5f);
    return factor;
}

/* same[v]: 1 where vertex v has weight exactly 1 on bone b, 0 where exactly 0, and -1 elsewhere and on
 * every vertex within two triangle rings of a vertex of another class (next: scratch, as large). */
static void weight_one_or_zero(const Mesh *mesh, int b, signed char *same, signed char *next)
{
    for (int v = 0; v < mesh->vertex_count; v++) {
        float w = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++)
            if (mesh->joint_indices[v][k] == b) w += mesh->weights[v][k];
        same[v] = w == 1.0f ? 1 : w == 0.0f ? 0 : -1;
    }
    for (int ring = 0; ring < 2; ring++) {
        memcpy(next, same, sizeof(signed char) * (size_t)mesh->vertex_count);
        for (int t = 0; t < mesh->index_count; t += 3)
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    if (same[mesh->indices[t + c]] != same[mesh->indices[t + a]]) next[mesh->indices[t + a]] = -1;
        memcpy(same, next, sizeof(signed char) * (size_t)mesh->vertex_count);
    }
}

static void test_heat_map(Setup *s)
{
    const Model *model = &s->model;
    const Mesh *mesh = &model->meshes[0];
    s->scene.shown = (AidOptions){.show_weights = true};
    vec3 *posed = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    float *sum = calloc((size_t)W * H, sizeof(float));
    int *decoded = calloc((size_t)W * H, sizeof(int));
    signed char *same = malloc((size_t)mesh->vertex_count), *next = malloc((size_t)mesh->vertex_count);
    int clip = model_find_clip(model, "Walk");
    int ones_seen = 0, ones_top = 0, zeros_seen = 0, zeros_bottom = 0, joints_drawn = 0;
    for (int b = 0; b < mesh->bone_count; b++) {
        int joint = mesh->bone_joint[b];
        scene_select_joint(&s->scene, joint);
        render(s, clip, 0.3f);
        joints_drawn++;
        animator_skin_mesh(&s->animator, 0, posed, NULL);
        /* vertices with weight exactly 1 / 0 on this bone, and so are all vertices two triangle
         * rings around them (triangles are a few pixels here: the pixel under the vertex lies in
         * one of those): the pixel shows the top / bottom colour unless something is in front */
        weight_one_or_zero(mesh, b, same, next);
        for (int v = 0; v < mesh->vertex_count; v++) {
            float w = (float)same[v];
            float x, y;
            if (same[v] < 0 || !project(s, posed[v], &x, &y)) continue;
            if (!visible(s, posed[v], x, y, 0.002f * s->scene.size)) continue;   /* hidden behind another part */
            const unsigned char *p = s->pixels + 4 * ((size_t)(int)y * W + (int)x);
            int distance;
            float shown = decode_weight(p, &distance);
            if (distance > 12) continue;   /* not a heat-map pixel (an edge against the background) */
            if (w == 1.0f) {
                ones_seen++;
                ones_top += shown >= 0.98f;

            } else {
                zeros_seen++;
                zeros_bottom += shown <= 0.02f;
            }
        }
        /* every pixel: decode and add up over the joints */
        for (int i = 0; i < W * H; i++) {
            int distance;
            float shown = decode_weight(s->pixels + 4 * i, &distance);
            if (distance <= 12) {
                sum[i] += shown;
                decoded[i]++;
            }
        }
    }
    double top_share = ones_seen ? (double)ones_top / ones_seen : 0.0;
    double bottom_share = zeros_seen ? (double)zeros_bottom / zeros_seen : 0.0;
    CHECK(ones_seen > 500 && top_share > 0.95, "weight-1 vertices show the top colour: %d of %d (%.1f %%)", ones_top,
          ones_seen, 100.0 * top_share);
    CHECK(zeros_seen > 1000 && bottom_share > 0.95, "weight-0 vertices show the bottom colour: %d of %d (%.1f %%)",
          zeros_bottom, zeros_seen, 100.0 * bottom_share);
    /* the sum over joints of the displayed weights, on pixels inside the silhouette (a 3x3
     * neighbourhood decoded in every render keeps out edge pixels and the selected joint's dot) */
    int inside = 0, near_one = 0;
    double worst = 0.0;
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            bool interior = true;
            for (int dy = -1; dy <= 1 && interior; dy++)
                for (int dx = -1; dx <= 1; dx++) interior = interior && decoded[(y + dy) * W + x + dx] == joints_drawn;
            if (!interior) continue;
            inside++;
            double error = fabs(sum[y * W + x] - 1.0);
            near_one += error <= 0.02;
            if (error > worst) worst = error;
        }
    double share = inside ? (double)near_one / inside : 0.0;
    CHECK(inside > 2000 && share > 0.99, "sum over %d joints of the displayed weights is 1 +- 0.02 on %.2f %% of %d pixels",
          joints_drawn, 100.0 * share, inside);
    printf("heat-map: weight-1 vertices top colour %.1f %% (%d), weight-0 bottom colour %.1f %% (%d); "
           "sum of %d joints' weights within 0.02 of 1 on %.2f %% of %d pixels (worst %.3f)\n",
           100.0 * top_share, ones_seen, 100.0 * bottom_share, zeros_seen, joints_drawn, 100.0 * share, inside, worst);
    free(posed);
    free(same);
    free(next);
    free(sum);
    free(decoded);
}

/* The heat-map under the default light: the weight-1 and weight-0 vertices (two rings inside
 * their region, visible) where the shading is known at the pixel — the vertex and every vertex
 * of its triangles have factors within 0.02, so the interpolated normal under the pixel
 * shades alike — show the map's end colour shaded by their own normal; the selected joint's
 * dot (drawn over the surface) is left out. */
static void test_heat_map_shaded(Setup *s)
{
    const Mesh *mesh = &s->model.meshes[0];
    s->scene.shown = (AidOptions){.show_weights = true};
    vec3 *posed = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    vec3 *normals = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    signed char *same = malloc((size_t)mesh->vertex_count), *next = malloc((size_t)mesh->vertex_count);
    float *factor = malloc(sizeof(float) * (size_t)mesh->vertex_count);
    float *spread = malloc(sizeof(float) * (size_t)mesh->vertex_count);
    int clip = model_find_clip(&s->model, "Walk"), compared = 0, matched = 0;
    float lowest = 2.0f, highest = 0.0f;
    int worst = 0;
    for (int b = 0; b < mesh->bone_count; b++) {
        scene_select_joint(&s->scene, mesh->bone_joint[b]);
        render(s, clip, 0.3f);
        animator_skin_mesh(&s->animator, 0, posed, normals);
        unsigned char ignored[3];
        for (int v = 0; v < mesh->vertex_count; v++) {
            factor[v] = shade_expected(lut[0], normals[v], ignored);
            spread[v] = 0.0f;
        }
        for (int t = 0; t < mesh->index_count; t += 3)
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++) {
                    uint32_t va = mesh->indices[t + a], vc = mesh->indices[t + c];
                    spread[va] = fmaxf(spread[va], fabsf(factor[va] - factor[vc]));
                }
        mat4 eye_to_scene;
        glm_mat4_inv(s->view, eye_to_scene);   /* column 3: the eye in scene space */
        float dot_x = -100.0f, dot_y = -100.0f;
        project(s, s->animator.joint_model[mesh->bone_joint[b]][3], &dot_x, &dot_y);
        weight_one_or_zero(mesh, b, same, next);
        for (int v = 0; v < mesh->vertex_count; v++) {
            float x, y;
            if (same[v] < 0 || spread[v] > 0.02f || !project(s, posed[v], &x, &y)) continue;
            if (!visible(s, posed[v], x, y, 0.002f * s->scene.size)) continue;
            if (hypotf(x - dot_x, y - dot_y) < 12.0f) continue;   /* under the selected joint's dot */
            /* facing the eye (not at the silhouette, where the pixel may be a neighbour's) */
            vec3 to_eye, n;
            glm_vec3_sub(eye_to_scene[3], posed[v], to_eye);
            glm_vec3_normalize(to_eye);
            glm_vec3_normalize_to(normals[v], n);
            if (glm_vec3_dot(n, to_eye) < 0.4f) continue;
            unsigned char expected[3];
            float f = shade_expected(lut[same[v] ? 255 : 0], normals[v], expected);
            const unsigned char *p = s->pixels + 4 * ((size_t)(int)y * W + (int)x);
            int d = 0;
            for (int c = 0; c < 3; c++) d = abs((int)p[c] - (int)expected[c]) > d ? abs((int)p[c] - (int)expected[c]) : d;
            compared++;
            matched += d <= 10;
            if (d <= 10) {
                lowest = fminf(lowest, f);
                highest = fmaxf(highest, f);
            } else if (d > worst) {
                worst = d;
            }
        }
    }
    double share = compared ? (double)matched / compared : 0.0;
    CHECK(compared > 300 && share > 0.97,
          "shaded heat-map: %d of %d weight-0/1 vertices show the map's colour shaded by their normal (%.1f %%)", matched,
          compared, 100.0 * share);
    CHECK(highest - lowest > 0.25f, "the shading varies over the body: factor %.2f .. %.2f", lowest, highest);
    printf("shaded heat-map: %d of %d weight-0/1 vertices within 10/255 of the colour shaded by their normal "
           "(%.1f %%, worst miss %d), shading factor %.2f .. %.2f\n",
           matched, compared, 100.0 * share, worst, lowest, highest);
    free(posed);
    free(normals);
    free(same);
    free(next);
    free(factor);
    free(spread);
}

/* Centroid of the selected joint's magenta dot fill (255, 64, 242). */
static bool find_selected_dot(const Setup *s, float *cx, float *cy)
{
    double sx = 0, sy = 0;
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const unsigned char *p = s->pixels + 4 * (y * W + x);
            if (p[0] > 235 && p[1] > 40 && p[1] < 90 && p[2] > 220) sx += x + 0.5, sy += y + 0.5, n++;
        }
    if (n < 10) return false;
    *cx = (float)(sx / n);
    *cy = (float)(sy / n);
    return true;
}

static void test_overlay_joints(Setup *s)
{
    const Model *model = &s->model;
    static const char *const modes[3] = {"clip Wave 0.8 s", "bind pose", "rest pose"};
    const int clips[3] = {model_find_clip(model, "Wave"), ANIMATOR_BIND_POSE, ANIMATOR_REST_POSE};
    s->scene.shown = (AidOptions){.show_skeleton = false};
    for (int mode = 0; mode < 3; mode++) {
        int compared = 0;
        double worst = 0.0;
        for (int d = 0; d < s->scene.dot_count; d++) {
            int joint = s->scene.dot_joints[d];
            scene_select_joint(&s->scene, joint);
            render(s, clips[mode], 0.8f);
            /* the CPU model-space joint, projected independently of the overlay's code */
            float x, y, cx, cy;
            if (!project(s, s->animator.joint_model[joint][3], &x, &y)) continue;
            if (!find_selected_dot(s, &cx, &cy)) {
                CHECK(false, "%s: joint %s: no dot found", modes[mode], model->skeleton.names[joint]);
                continue;
            }
            double error = hypot(cx - x, cy - y);
            if (error > worst) worst = error;
            compared++;
        }
        CHECK(compared >= 20 && worst < 1.0, "%s: %d joint dots within %.2f px of the projected CPU joints", modes[mode],
              compared, worst);
        printf("overlay joints, %s: %d dots, worst %.2f px from the projected CPU model-space joints\n", modes[mode],
               compared, worst);
    }
    scene_select_joint(&s->scene, -1);
}

static void test_cpu_gpu_lbs(Setup *s)
{
    const Model *model = &s->model;
    unsigned char *gpu = malloc((size_t)W * H * 4);
    static const char *const clips[2] = {"Walk", "Twist"};
    for (int c = 0; c < 2; c++) {
        s->scene.shown = (AidOptions){.skinning = SKINNING_GPU_LBS, .grid = true};
        render(s, model_find_clip(model, clips[c]), 0.75f);
        memcpy(gpu, s->pixels, (size_t)W * H * 4);
        s->scene.shown.skinning = SKINNING_CPU_LBS;
        render(s, model_find_clip(model, clips[c]), 0.75f);
        int differ = 0;
        for (int i = 0; i < W * H; i++)
            for (int k = 0; k < 3; k++)
                if (abs((int)gpu[4 * i + k] - (int)s->pixels[4 * i + k]) > 8) {
                    differ++;
                    break;
                }
        double share = (double)differ / (W * H);
        CHECK(share < 0.005, "%s: CPU and GPU LBS differ in %.3f %% of the pixels (< 0.5 %%)", clips[c], 100.0 * share);
        printf("CPU vs GPU LBS, %s 0.75 s: %d pixels (%.3f %%) differ by more than 8/255\n", clips[c], differ,
               100.0 * share);
    }
    free(gpu);
}

int main(void)
{
    for (int i = 0; i < 256; i++) colormap_viridis_srgb8((float)i / 255.0f, lut[i]);
    /* the map is one-to-one: neighbouring weights differ in colour, so decoding is unambiguous */
    for (int i = 1; i < 256; i++)
        CHECK(lut[i][0] != lut[i - 1][0] || lut[i][1] != lut[i - 1][1] || lut[i][2] != lut[i - 1][2],
              "viridis %d and %d differ", i - 1, i);

    static Setup s;
    GlContext context;
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        printf("no GL context (%s): skipped\n", error);
        return TEST_SKIP_CODE;
    }
    int max_bones = glcontext_bones_per_mesh(0);
    if (!app_load_model(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", &(ImportOptions){.max_bones_per_mesh = max_bones}, &s.model) ||
        !renderer_init(&s.renderer, &s.model, SKINVIEW_SOURCE_DIR "/shaders/skinned.vert",
                       SKINVIEW_SOURCE_DIR "/shaders/skinned.frag", max_bones, error, sizeof error) || !animator_init(&s.animator, &s.model) ||
        !framebuffer_create(&s.framebuffer, W, H, 0, error, sizeof error)) {
        CHECK(false, "set-up: %s", error);
        return test_finish();
    }
    vec3 min, max;
    view_model_bounds(&s.model, &s.animator, min, max);
    Camera camera = {0};
    camera_frame(&camera, min, max, (float)W / H, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    camera_view(&camera, s.view);
    camera_projection(&camera, (float)W / H, s.projection);
    AidOptions aids = {.grid = false};
    CHECK(scene_init(&s.scene, &s.model, &s.renderer, &s.animator, &aids, min, max, error, sizeof error), "scene: %s",
          error);
    s.pixels = malloc((size_t)W * H * 4);
    s.depth = malloc(sizeof(float) * W * H);
    camera_depth_range(&camera, &s.near_plane, &s.far_plane);

    flat_light = true;   /* the map's own colours, to decode weights */
    test_heat_map(&s);
    flat_light = false;
    test_heat_map_shaded(&s);
    test_overlay_joints(&s);
    test_cpu_gpu_lbs(&s);

    free(s.pixels);
    free(s.depth);
    scene_free(&s.scene);
    framebuffer_free(&s.framebuffer);
    animator_free(&s.animator);
    renderer_free(&s.renderer);
    model_free(&s.model);
    glcontext_destroy(&context);
    return test_finish();
}
