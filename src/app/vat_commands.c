/* vat_commands.c — `skinview --vat OUTDIR` (docs/vat.md): the bake checked and loaded
 * (vat_load.c), then one of --screenshot, --export-pose (CPU decode), --verify (vat.vert through
 * transform feedback against the CPU decode, at baked frames and halfway between them), or the
 * window (vat_play.c). */
#include "vat_load.h"
#include "view/framing.h"
#include "view/lighting.h"
#include "commands.h"
#include "gl_session.h"
#include "view/hud.h"
#include "anim/vat.h"
#include "gfx/framebuffer.h"
#include "gfx/gl_debug.h"
#include "io/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAT_SCREENSHOT_SAMPLES 4
#define VAT_VERIFY_MAX_FRAMES 64        /* per clip: baked frames checked (evenly spread), plus halfway points */
#define VAT_VERIFY_TOLERANCE 1e-5       /* of the bounding-box diagonal */
#define VAT_VERIFY_NORMAL_DEGREES 0.05

static const float vat_background[3] = {0.18f, 0.20f, 0.23f};

/* An older bake (no frame points in vat.json): the camera fitted to every baked vertex of `clip`
 * at the 8 times the skinned viewer samples (t_i = i d / 7). False when out of memory. */
static bool frame_baked_vertices(const LoadedBake *bake, int clip, float front_yaw, float aspect, float reserved_top,
                                 float reserved_bottom, Camera *camera)
{
    const VatManifest *manifest = &bake->manifest;
    int vertices = 0;
    for (int m = 0; m < manifest->mesh_count; m++) vertices += manifest->meshes[m].vertex_count;
    vec3 *points = malloc(sizeof(vec3) * 8 * (size_t)(vertices > 0 ? vertices : 1));
    if (!points) return false;
    float duration = manifest->clips[clip].duration;
    for (int i = 0; i < 8; i++)
        for (int v = 0; v < vertices; v++) {
            vec3 normal;
            app_vat_decode_vertex(bake, clip, duration * (float)i / 7.0f, v, points[i * vertices + v], normal);
        }
    view_frame_point_array((const vec3 *)points, 8 * vertices, front_yaw, aspect, true, reserved_top, reserved_bottom,
                          camera);
    free(points);
    return true;
}

/* An off-screen GL context and the bake's renderer in it (false: said why on stderr, nothing left open). */
static bool offscreen_start(const char *dir, const LoadedBake *bake, GlContext *context, VatRenderer *renderer)
{
    char error[1024];
    if (!glcontext_create_offscreen(context, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: no OpenGL context: %s\n", dir, error);
        return false;
    }
    if (!app_vat_renderer_start(renderer, bake, dir)) {
        glcontext_destroy(context);
        return false;
    }
    return true;
}

static int vat_screenshot(const Options *options, const LoadedBake *bake, int clip)
{
    const char *dir = options->vat_dir;
    GlContext context = {0};
    VatRenderer renderer;
    if (!offscreen_start(dir, bake, &context, &renderer)) return 1;
    if (!app_vat_look_init(&renderer, options)) return app_vat_session_end(&renderer, &context, 1, dir);
    char error[1024];
    int status = 1;
    vec3 grid_min, grid_max;
    VatInstance *instances = app_vat_instances(bake, options->instances, clip, grid_min, grid_max);
    int width = options->width, height = options->height;
    unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
    Framebuffer framebuffer;
    bool have_framebuffer = false;
    if (!instances || !pixels || !vat_renderer_set_instances(&renderer, instances, options->instances)) {
        fprintf(stderr, "skinview: %s: out of memory\n", dir);
        goto done;
    }
    if (!framebuffer_create(&framebuffer, width, height, VAT_SCREENSHOT_SAMPLES, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->screenshot_path, error);
        goto done;
    }
    have_framebuffer = true;
    float aspect = (float)width / (float)height;
    Camera camera = {0};
    if (options->instances == 1) {   /* one figure: framed as the skinned --screenshot frames it */
        float hud_top, hud_bottom;
        hud_reserved_bands(width, height, true, &hud_top, &hud_bottom);
        const VatClip *c = &bake->manifest.clips[clip];
        if (c->frame_point_count > 0) {   /* the very points the skinned viewer fits */
            view_frame_clip_points((const vec3 *)c->frame_points, c->frame_point_count, c->front_yaw, aspect, true, hud_top,
                                  hud_bottom, &camera);
        } else if (!frame_baked_vertices(bake, clip, c->front_yaw, aspect, hud_top, hud_bottom, &camera)) {
            fprintf(stderr, "skinview: %s: out of memory\n", dir);
            goto done;
        }
    } else {
        float hud_top, hud_bottom;
        hud_reserved_bands(width, height, true, &hud_top, &hud_bottom);
        app_vat_frame_crowd(bake, instances, options->instances, clip, grid_min, grid_max, aspect, hud_top, hud_bottom, &camera);
    }
    static VatGround ground;   /* static: its scratch vertices are too many for the stack */
    app_vat_ground_init(&ground, bake, grid_min, grid_max);   /* the shadow lies on its square */
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, aspect, projection);
    RenderLight light;
    view_light(options->flat_lighting, &light);
    float duration = bake->manifest.clips[clip].duration;
    float time = options->time < duration ? options->time : duration;
    framebuffer_bind(&framebuffer);
    gl_debug_check("drawing the crowd");
    renderer_clear(vat_background[0], vat_background[1], vat_background[2]);
    app_vat_draw_scene(&renderer, &ground, options->aids.grid, options->aids.shadow, time, view, projection, &light, width,
                       height);
    gl_debug_check("reading the frame back");
    if (session_write_screenshot(&framebuffer, pixels, width, height, options->screenshot_path)) status = 0;
done:
    app_vat_ground_free(&ground);
    if (have_framebuffer) framebuffer_free(&framebuffer);
    free(pixels);
    free(instances);
    return app_vat_session_end(&renderer, &context, status, dir);
}

static int vat_export_pose(const Options *options, const LoadedBake *bake, int clip)
{
    const Model *model = &bake->mesh_model;
    int total = model_total_vertices(model);
    vec3 *positions = malloc(sizeof(vec3) * (size_t)(total > 0 ? total : 1));
    vec3 *normals = malloc(sizeof(vec3) * (size_t)(total > 0 ? total : 1));
    ExportMesh *meshes = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof *meshes);
    int status = 1;
    if (!positions || !normals || !meshes) {
        fprintf(stderr, "skinview: %s: out of memory\n", options->vat_dir);
    } else {
        int offset = 0;
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            for (int v = 0; v < mesh->vertex_count; v++)
                app_vat_decode_vertex(bake, clip, options->time, (int)mesh->uvs2[v][0], positions[offset + v],
                              normals[offset + v]);
            meshes[m] = (ExportMesh){
                .name = mesh->name,
                .vertex_count = mesh->vertex_count,
                .positions = positions + offset,
                .normals = normals + offset,
                .index_count = mesh->index_count,
                .indices = mesh->indices,
                .primitive = mesh->primitive,
            };
            offset += mesh->vertex_count;
        }
        char error[512];
        if (!export_obj(options->export_pose_path, meshes, model->mesh_count, error, sizeof error))
            fprintf(stderr, "skinview: %s: %s\n", options->export_pose_path, error);
        else
            status = 0;
    }
    free(positions);
    free(normals);
    free(meshes);
    return status;
}

/* Angle between two directions in degrees, atan2(|a x b|, a . b). */
static double angle_degrees(const vec3 a, const vec3 b)
{
    vec3 cross;
    glm_vec3_cross((float *)a, (float *)b, cross);
    return atan2(glm_vec3_norm(cross), glm_vec3_dot((float *)a, (float *)b)) * (180.0 / GLM_PI);
}

static int vat_verify(const Options *options, const LoadedBake *bake)
{
    const char *dir = options->vat_dir;
    GlContext context = {0};
    VatRenderer renderer;
    if (!offscreen_start(dir, bake, &context, &renderer)) return 1;
    char error[1024];
    const Model *model = &bake->mesh_model;
    const VatManifest *manifest = &bake->manifest;
    int max_vertices = 1;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    vec3 *gpu = malloc(sizeof(vec3) * (size_t)max_vertices), *gpu_normals = malloc(sizeof(vec3) * (size_t)max_vertices);
    Framebuffer framebuffer;
    bool have_framebuffer = framebuffer_create(&framebuffer, 16, 16, 0, error, sizeof error);
    int status = 1;
    if (!gpu || !gpu_normals || !have_framebuffer) {
        fprintf(stderr, "skinview: %s: %s\n", dir, have_framebuffer ? "out of memory" : error);
        goto done;
    }
    framebuffer_bind(&framebuffer);
    double diagonal = glm_vec3_distance((float *)manifest->bounds_min, (float *)manifest->bounds_max);
    if (!(diagonal > 1e-12)) diagonal = 1.0;
    printf("verify %s: %s (%s), %d vertices, %d clips, %s positions, %d page%s of %dx%d\n", dir, context.renderer_name,
           glcontext_kind_name(&context), manifest->layout.vertex_count, manifest->clip_count,
           manifest->float_precision ? "float" : "16-bit", manifest->layout.page_count,
           manifest->layout.page_count == 1 ? "" : "s", manifest->layout.width, manifest->layout.page_height);
    double worst_all = 0.0, worst_normal_all = 0.0;
    int failed = 0;
    for (int c = 0; c < manifest->clip_count; c++) {
        const VatClip *clip = &manifest->clips[c];
        int checks = clip->frame_count < VAT_VERIFY_MAX_FRAMES ? clip->frame_count : VAT_VERIFY_MAX_FRAMES;
        double worst = 0.0, worst_normal = 0.0;
        int times = 0;
        bool broken = false;
        for (int k = 0; k < checks && !broken; k++) {
            int frame = checks > 1 ? (int)((long long)k * (clip->frame_count - 1) / (checks - 1)) : 0;
            /* the baked frame itself, then halfway to the next one */
            for (int half = 0; half < 2 && !broken; half++) {
                if (half == 1 && frame + 1 >= clip->frame_count) break;
                float t0 = vat_frame_time(clip->duration, clip->frame_count, frame);
                float t = half ? 0.5f * (t0 + vat_frame_time(clip->duration, clip->frame_count, frame + 1)) : t0;
                times++;
                for (int m = 0; m < model->mesh_count && !broken; m++) {
                    const Mesh *mesh = &model->meshes[m];
                    gl_debug_check("capturing VAT vertices (transform feedback)");
                    if (!vat_renderer_capture_mesh(&renderer, m, c, t, gpu, gpu_normals)) {
                        broken = true;
                        break;
                    }
                    for (int v = 0; v < mesh->vertex_count; v++) {
                        vec3 p, n;
                        app_vat_decode_vertex(bake, c, t, (int)mesh->uvs2[v][0], p, n);
                        double d = glm_vec3_distance(p, gpu[v]);
                        if (!isfinite(d)) broken = true;
                        if (d > worst) worst = d;
                        double angle = angle_degrees(n, gpu_normals[v]);
                        if (isfinite(angle) && angle > worst_normal) worst_normal = angle;
                    }
                }
            }
        }
        double relative = broken ? NAN : worst / diagonal;
        bool ok = relative <= VAT_VERIFY_TOLERANCE && worst_normal <= VAT_VERIFY_NORMAL_DEGREES;
        if (!ok) failed++;
        if (!(relative <= worst_all)) worst_all = relative;
        if (worst_normal > worst_normal_all) worst_normal_all = worst_normal;
        printf("clip %d \"%s\": max error %.3g of bbox diagonal, max normal angle %.3g deg (%d frames, %d times)%s\n", c,
               clip->name, relative, worst_normal, clip->frame_count, times, ok ? "" : "  FAILED");
    }
    printf("verify %s: vat.vert vs CPU decode, max error %.3g of bbox diagonal, max normal angle %.3g deg "
           "(tolerance %g, %g deg)\n",
           failed ? "FAILED" : "passed", worst_all, worst_normal_all, VAT_VERIFY_TOLERANCE, VAT_VERIFY_NORMAL_DEGREES);
    status = failed ? 1 : 0;
done:
    if (have_framebuffer) framebuffer_free(&framebuffer);
    free(gpu);
    free(gpu_normals);
    return app_vat_session_end(&renderer, &context, status, dir);
}

int command_vat(const Options *options, const PlayerDriver *driver)
{
    LoadedBake bake;
    if (!app_vat_load(options->vat_dir, &bake)) return 1;
    int clip = 0;
    char error[512];
    if (!app_vat_resolve_clip(&bake.manifest, options->clip, &clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->vat_dir, error);
        app_vat_unload(&bake);
        return 2;
    }
    int status;
    if (options->screenshot_path) status = vat_screenshot(options, &bake, clip);
    else if (options->export_pose_path) status = vat_export_pose(options, &bake, clip);
    else if (options->verify) status = vat_verify(options, &bake);
    else status = app_vat_view(options, &bake, clip, driver);
    app_vat_unload(&bake);
    return status;
}

