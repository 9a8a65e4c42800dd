/* vat_play.c — `skinview --vat OUTDIR`: a bake played back with no skeleton (docs/vat.md).
 *
 * Loading checks everything before any drawing: vat.json (format, layout, every file's size
 * and crc32: vat_read_manifest), the page images, and mesh.glb (every vertex carries an id,
 * each baked vertex exactly once). Any mismatch is one line and exit 1.
 * Then one of: the window (clip keys, pause, speed, HUD with instances, draw calls and frame
 * time), --screenshot, --export-pose (CPU decode), --verify (vat.vert through transform
 * feedback against the CPU decode, at baked frames and halfway between them).
 */
#include "bounds.h"
#include "view/camera.h"
#include "view/hud.h"
#include "commands.h"
#include "vat_load.h"
#include "glcontext.h"
#include "view/player.h"
#include "scene.h"
#include "anim/vat.h"
#include "gfx/framebuffer.h"
#include "gfx/gl_debug.h"
#include "gfx/overlay.h"
#include "gfx/vat_renderer.h"
#include "io/export.h"
#include "io/vat_io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAT_SCREENSHOT_SAMPLES 4
#define VAT_GRID_SPACING 1.25f          /* instances stand this many footprints apart */
#define VAT_VERIFY_MAX_FRAMES 64        /* per clip: baked frames checked (evenly spread), plus halfway points */
#define VAT_VERIFY_TOLERANCE 1e-5       /* of the bounding-box diagonal */
#define VAT_VERIFY_NORMAL_DEGREES 0.05

static const float vat_background[3] = {0.18f, 0.20f, 0.23f};

void app_vat_unload(LoadedBake *bake)
{
    vat_manifest_free(&bake->manifest);
    model_free(&bake->mesh_model);
    free(bake->positions);
    free(bake->normals);
    free(bake->clips);
    memset(bake, 0, sizeof *bake);
}

/* Each baked vertex id must appear in mesh.glb exactly once. */
static bool check_mesh_ids(const Model *mesh_model, int vertex_count, const char *mesh_path, char *error,
                           size_t error_size)
{
    int total = model_total_vertices(mesh_model);
    if (total != vertex_count) {
        snprintf(error, error_size, "%s: has %d vertices, vat.json says %d (mismatched bake)", mesh_path, total,
                 vertex_count);
        return false;
    }
    unsigned char *seen = calloc((size_t)vertex_count, 1);
    if (!seen) {
        snprintf(error, error_size, "%s: out of memory", mesh_path);
        return false;
    }
    bool ok = true;
    for (int m = 0; ok && m < mesh_model->mesh_count; m++) {
        const Mesh *mesh = &mesh_model->meshes[m];
        if (!mesh->uvs2) {
            snprintf(error, error_size, "%s: mesh %d has no second UV set (no vertex ids: not a VAT mesh)", mesh_path, m);
            ok = false;
        }
        for (int v = 0; ok && v < mesh->vertex_count; v++) {
            float id = mesh->uvs2[v][0];
            if (!(id >= 0.0f && id < (float)vertex_count) || id != floorf(id) || seen[(int)id]) {
                snprintf(error, error_size, "%s: vertex %d of mesh %d has id %g: not a unique id below %d", mesh_path,
                         v, m, (double)id, vertex_count);
                ok = false;
                break;
            }
            seen[(int)id] = 1;
        }
    }
    free(seen);
    return ok;
}

bool app_vat_load(const char *dir, LoadedBake *bake)
{
    memset(bake, 0, sizeof *bake);
    char error[1400];
    if (!vat_read_manifest(dir, &bake->manifest, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        return false;
    }
    const VatManifest *manifest = &bake->manifest;
    const VatLayout *layout = &manifest->layout;
    size_t page_texels = (size_t)layout->width * (size_t)layout->page_height;
    size_t texel_bytes = manifest->float_precision ? 4 * sizeof(float) : 4 * sizeof(uint16_t);
    bake->positions = calloc(page_texels * (size_t)layout->page_count, texel_bytes);
    bake->normals = calloc(page_texels * (size_t)layout->page_count * 2, sizeof(uint16_t));
    bake->clips = calloc((size_t)manifest->clip_count, sizeof(vec4));
    if (!bake->positions || !bake->normals || !bake->clips) {
        fprintf(stderr, "skinview: %s: out of memory for the textures\n", dir);
        app_vat_unload(bake);
        return false;
    }
    for (int p = 0; p < layout->page_count; p++) {
        char name[VAT_FILE_NAME_MAX], path[1200];
        int rows = vat_page_rows(layout, p);
        vat_positions_name(p, manifest->float_precision, name, sizeof name);
        vat_path(dir, name, path, sizeof path);
        bool ok = manifest->float_precision
                      ? vat_read_exr(path, layout->width, rows, (float *)bake->positions + page_texels * 4 * (size_t)p,
                                     error, sizeof error)
                      : vat_read_png16(path, layout->width, rows, 4,
                                       (uint16_t *)bake->positions + page_texels * 4 * (size_t)p, error, sizeof error);
        vat_normals_name(p, name, sizeof name);
        vat_path(dir, name, path, sizeof path);
        ok = ok && vat_read_png16(path, layout->width, rows, 2, bake->normals + page_texels * 2 * (size_t)p, error,
                                  sizeof error);
        if (!ok) {
            fprintf(stderr, "skinview: %s\n", error);
            app_vat_unload(bake);
            return false;
        }
    }
    char mesh_path[1200];
    vat_path(dir, VAT_MESH_NAME, mesh_path, sizeof mesh_path);
    if (!app_load_model(mesh_path, 0, &bake->mesh_model)) {
        app_vat_unload(bake);
        return false;
    }
    if (!check_mesh_ids(&bake->mesh_model, layout->vertex_count, mesh_path, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        app_vat_unload(bake);
        return false;
    }
    for (int c = 0; c < manifest->clip_count; c++) {
        const VatClip *clip = &manifest->clips[c];
        bake->clips[c][0] = (float)clip->first_slot;
        bake->clips[c][1] = (float)clip->frame_count;
        bake->clips[c][2] = clip->duration;
        bake->clips[c][3] = 0.0f;
    }
    bake->gpu = (VatGpuData){
        .layout = *layout,
        .float_precision = manifest->float_precision,
        .positions = bake->positions,
        .normals = bake->normals,
        .clip_count = manifest->clip_count,
        .clips = (const vec4 *)bake->clips,
    };
    glm_vec3_copy((float *)manifest->bounds_min, bake->gpu.bounds_min);
    glm_vec3_copy((float *)manifest->bounds_max, bake->gpu.bounds_max);
    return true;
}

/* --clip for a bake: a clip name, an index from 0, or NULL (clip 0). */
static bool resolve_vat_clip(const VatManifest *manifest, const char *text, int *clip, char *error, size_t error_size)
{
    *clip = 0;
    if (!text) return true;
    for (int c = 0; c < manifest->clip_count; c++)
        if (strcmp(manifest->clips[c].name, text) == 0) {
            *clip = c;
            return true;
        }
    char *end = NULL;
    long index = strtol(text, &end, 10);
    if (end != text && *end == '\0') {
        if (index >= 0 && index < manifest->clip_count) {
            *clip = (int)index;
            return true;
        }
        snprintf(error, error_size, "clip index %ld out of range (the bake has %d clip%s)", index,
                 manifest->clip_count, manifest->clip_count == 1 ? "" : "s");
        return false;
    }
    snprintf(error, error_size, "no baked clip named '%s' (vat.json lists them)", text);
    return false;
}

/* ---- CPU decode (the reference for --verify, and --export-pose) --------------------------- */

static void decode_texel(const LoadedBake *bake, int slot, int vertex, vec3 position, vec3 normal)
{
    const VatLayout *layout = &bake->manifest.layout;
    int page, x, y;
    vat_texel(layout, slot, vertex, &page, &x, &y);
    size_t texel = (size_t)layout->width * (size_t)layout->page_height * (size_t)page + (size_t)y * (size_t)layout->width +
                   (size_t)x;
    if (bake->manifest.float_precision) {
        const float *p = (const float *)bake->positions + texel * 4;
        glm_vec3_copy((float *)p, position);
    } else {
        const uint16_t *q = (const uint16_t *)bake->positions + texel * 4;
        for (int k = 0; k < 3; k++) {
            float range = bake->manifest.bounds_max[k] - bake->manifest.bounds_min[k];
            position[k] = vat_dequantize(q[k], bake->manifest.bounds_min[k], range);
        }
    }
    vat_normal_decode16(bake->normals + texel * 2, normal);
}

/* Position and normal of one vertex at clip time t: the two frames around t, blended
 *   p = mix(p0, p1, alpha), n = normalize(mix(n0, n1, alpha))   (as vat.vert does). */
static void decode_vertex(const LoadedBake *bake, int clip, float time, int vertex, vec3 position, vec3 normal)
{
    const VatClip *c = &bake->manifest.clips[clip];
    int f0, f1;
    float alpha;
    vat_frame_blend(c->duration, c->frame_count, time, &f0, &f1, &alpha);
    vec3 p0, p1, n0, n1;
    decode_texel(bake, c->first_slot + f0, vertex, p0, n0);
    decode_texel(bake, c->first_slot + f1, vertex, p1, n1);
    for (int k = 0; k < 3; k++) {
        position[k] = p0[k] * (1.0f - alpha) + p1[k] * alpha;
        normal[k] = n0[k] * (1.0f - alpha) + n1[k] * alpha;
    }
    glm_vec3_normalize(normal);
}

/* Every baked vertex of `clip` at the 8 times the skinned viewer frames (t_i = i d / 7), as a
 * point source for app_frame_points (bounds.h). */
typedef struct BakePoints {
    const LoadedBake *bake;
    int               clip;
} BakePoints;

static void bake_points(void *user, AppFit *fit)
{
    const BakePoints *points = user;
    const VatManifest *manifest = &points->bake->manifest;
    int vertices = 0;
    for (int m = 0; m < manifest->mesh_count; m++) vertices += manifest->meshes[m].vertex_count;
    float duration = manifest->clips[points->clip].duration;
    for (int i = 0; i < 8; i++)
        for (int v = 0; v < vertices; v++) {
            vec3 position, normal;
            decode_vertex(points->bake, points->clip, duration * (float)i / 7.0f, v, position, normal);
            app_fit_point(fit, position);
        }
}

/* ---- instances ------------------------------------------------------------------------ */

VatInstance *app_vat_instances(const LoadedBake *bake, int count, int clip, vec3 grid_min, vec3 grid_max)
{
    VatInstance *instances = calloc((size_t)count, sizeof *instances);
    if (!instances) return NULL;
    const VatManifest *manifest = &bake->manifest;
    float footprint = fmaxf(manifest->bounds_max[0] - manifest->bounds_min[0],
                            manifest->bounds_max[2] - manifest->bounds_min[2]);
    float spacing = (footprint > 0.0f ? footprint : 1.0f) * VAT_GRID_SPACING;
    int side = (int)ceil(sqrt((double)count));
    /* the skinned viewer's camera box (instance 0 stands at the origin): one instance is framed as
     * the skinned viewer frames the model */
    glm_vec3_copy((float *)manifest->view_min, grid_min);
    glm_vec3_copy((float *)manifest->view_max, grid_max);
    for (int i = 0; i < count; i++) {
        VatInstance *instance = &instances[i];
        float column = (float)(i % side) - 0.5f * (float)(side - 1);
        float row = (float)(i / side) - 0.5f * (float)(side - 1);
        instance->offset[0] = column * spacing;
        instance->offset[2] = row * spacing;
        int c = (clip + i) % manifest->clip_count;
        instance->clip = (float)c;
        /* golden-ratio stagger: neighbours never move in step */
        double stagger = fmod((double)i * 0.6180339887, 1.0);
        instance->time_offset = i == 0 ? 0.0f : (float)(stagger * manifest->clips[c].duration);
        vec3 lo, hi;
        glm_vec3_add((float *)manifest->view_min, instance->offset, lo);
        glm_vec3_add((float *)manifest->view_max, instance->offset, hi);
        glm_vec3_minv(grid_min, lo, grid_min);
        glm_vec3_maxv(grid_max, hi, grid_max);
    }
    return instances;
}

/* The crowd's first view: the corners of every instance's camera box, fitted from the clip's
 * front as the skinned viewer fits one figure (app_frame_point_array), so the crowd is centred
 * and seen from the front; beyond VAT_FRAME_MAX_INSTANCES, the corners of the whole crowd's box. */
#define VAT_FRAME_MAX_INSTANCES 4096
static void frame_crowd(const LoadedBake *bake, const VatInstance *instances, int count, int clip, const vec3 crowd_min,
                        const vec3 crowd_max, float aspect, float hud_top, float hud_bottom, Camera *camera)
{
    const VatManifest *manifest = &bake->manifest;
    int boxes = count <= VAT_FRAME_MAX_INSTANCES ? count : 1;
    vec3 *corners = malloc(sizeof(vec3) * 8 * (size_t)boxes);
    if (!corners) {
        camera_frame(camera, crowd_min, crowd_max, aspect, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
        return;
    }
    for (int b = 0; b < boxes; b++) {
        vec3 lo, hi;
        if (boxes == count) {
            glm_vec3_add((float *)manifest->view_min, (float *)instances[b].offset, lo);
            glm_vec3_add((float *)manifest->view_max, (float *)instances[b].offset, hi);
        } else {
            glm_vec3_copy((float *)crowd_min, lo);
            glm_vec3_copy((float *)crowd_max, hi);
        }
        for (int k = 0; k < 8; k++)
            glm_vec3_copy((vec3){k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]},
                          corners[8 * b + k]);
    }
    app_frame_point_array((const vec3 *)corners, 8 * boxes, manifest->clips[clip].front_yaw, aspect, true, hud_top,
                          hud_bottom, camera);
    free(corners);
}

/* The ground grid under the crowd (as the skinned viewer's, key G, --no-grid): fitted as the
 * skinned viewer fits it (ground_grid_fit), to the bind pose (mesh.glb's vertices: its height)
 * and the crowd's box (its extent; one figure: the skinned viewer's camera box). */
typedef struct VatGround {
    bool       ready;
    GroundGrid grid;
    Lines      lines;
    LineVertex vertices[2 * GROUND_GRID_SEGMENTS];
} VatGround;

static void vat_ground_init(VatGround *ground, const LoadedBake *bake, const vec3 crowd_min, const vec3 crowd_max)
{
    char error[256];
    vec3 bind_min = {INFINITY, INFINITY, INFINITY}, bind_max = {-INFINITY, -INFINITY, -INFINITY};
    for (int m = 0; m < bake->mesh_model.mesh_count; m++) {
        const Mesh *mesh = &bake->mesh_model.meshes[m];
        for (int v = 0; v < mesh->vertex_count; v++) {
            glm_vec3_minv(bind_min, mesh->positions[v], bind_min);
            glm_vec3_maxv(bind_max, mesh->positions[v], bind_max);
        }
    }
    ground_grid_fit(bind_min, bind_max, crowd_min, crowd_max, &ground->grid);
    ground->ready = lines_init(&ground->lines, GROUND_GRID_SEGMENTS, error, sizeof error);
    if (!ground->ready) fprintf(stderr, "skinview: warning: no ground grid: %s\n", error);
}

static void vat_ground_draw(VatGround *ground, const mat4 view, const mat4 projection, int width, int height)
{
    if (!ground->ready) return;
    float scale = overlay_scale_for(width, height);
    LineStyle style = {1.0f * scale, true, {width, height}};
    ground_grid_draw(&ground->grid, &ground->lines, ground->vertices, 2 * GROUND_GRID_SEGMENTS, view, projection,
                     &style);
}

static void vat_ground_free(VatGround *ground)
{
    if (ground->ready) lines_free(&ground->lines);
    ground->ready = false;
}

/* ---- GL session -------------------------------------------------------------------------- */

static bool vat_renderer_start(VatRenderer *renderer, const LoadedBake *bake, const char *dir)
{
    char vert[1024], frag[1024], error[1024];
    if (!app_find_data("shaders/vat.vert", vert, sizeof vert) ||
        !app_find_data("shaders/skinned.frag", frag, sizeof frag)) {
        fprintf(stderr, "skinview: %s: shaders/vat.vert or shaders/skinned.frag not found next to the binary\n", dir);
        return false;
    }
    gl_debug_check("uploading the bake");
    if (!vat_renderer_init(renderer, &bake->mesh_model, &bake->gpu, vert, frag, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", dir, error);
        return false;
    }
    return true;
}

/* Frees the renderer and the context; returns `status`, or 1 when GL errors were reported
 * (--gl-debug / SKINVIEW_GL_DEBUG=1). */
static int vat_session_end(VatRenderer *renderer, GlContext *context, int status, const char *dir)
{
    gl_debug_check(NULL);
    vat_renderer_free(renderer);
    glcontext_destroy(context);
    int errors = gl_debug_error_count();
    if (errors > 0) {
        fprintf(stderr, "skinview: %s: %d OpenGL error%s (reported above)\n", dir, errors, errors == 1 ? "" : "s");
        return 1;
    }
    return status;
}

static int vat_screenshot(const Options *options, const LoadedBake *bake, int clip)
{
    const char *dir = options->vat_dir;
    GlContext context = {0};
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: no OpenGL context: %s\n", dir, error);
        return 1;
    }
    VatRenderer renderer;
    if (!vat_renderer_start(&renderer, bake, dir)) {
        glcontext_destroy(&context);
        return 1;
    }
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
            app_frame_point_array((const vec3 *)c->frame_points, c->frame_point_count, c->front_yaw, aspect, true, hud_top,
                                  hud_bottom, &camera);
        } else {   /* an older bake: its own frames */
            BakePoints points = {bake, clip};
            app_frame_points(bake_points, &points, grid_min, grid_max, c->front_yaw, aspect, true, hud_top, hud_bottom,
                             &camera);
        }
    } else {
        float hud_top, hud_bottom;
        hud_reserved_bands(width, height, true, &hud_top, &hud_bottom);
        frame_crowd(bake, instances, options->instances, clip, grid_min, grid_max, aspect, hud_top, hud_bottom, &camera);
    }
    static VatGround ground;   /* static: its scratch vertices are too many for the stack */
    if (options->aids.grid) vat_ground_init(&ground, bake, grid_min, grid_max);
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, aspect, projection);
    RenderLight light;
    render_light_default(&light);
    float duration = bake->manifest.clips[clip].duration;
    float time = options->time < duration ? options->time : duration;
    framebuffer_bind(&framebuffer);
    gl_debug_check("drawing the crowd");
    renderer_clear(vat_background[0], vat_background[1], vat_background[2]);
    vat_renderer_draw(&renderer, time, view, projection, &light);
    if (options->aids.grid) vat_ground_draw(&ground, view, projection, width, height);
    gl_debug_check("reading the frame back");
    if (!framebuffer_read_rgba(&framebuffer, pixels)) {
        fprintf(stderr, "skinview: %s: cannot read the rendered image back\n", options->screenshot_path);
    } else if (!app_write_png(options->screenshot_path, width, height, pixels, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->screenshot_path, error);
    } else {
        status = 0;
    }
done:
    vat_ground_free(&ground);
    if (have_framebuffer) framebuffer_free(&framebuffer);
    free(pixels);
    free(instances);
    return vat_session_end(&renderer, &context, status, dir);
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
                decode_vertex(bake, clip, options->time, (int)mesh->uvs2[v][0], positions[offset + v],
                              normals[offset + v]);
            meshes[m] = (ExportMesh){
                .name = mesh->name,
                .vertex_count = mesh->vertex_count,
                .positions = positions + offset,
                .normals = normals + offset,
                .index_count = mesh->index_count,
                .indices = mesh->indices,
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
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: no OpenGL context: %s\n", dir, error);
        return 1;
    }
    VatRenderer renderer;
    if (!vat_renderer_start(&renderer, bake, dir)) {
        glcontext_destroy(&context);
        return 1;
    }
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
                        decode_vertex(bake, c, t, (int)mesh->uvs2[v][0], p, n);
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
    return vat_session_end(&renderer, &context, status, dir);
}

/* ---- the window: the bake as a player subject (view/player.h) ---------------------------- */

typedef struct VatSubject {
    const LoadedBake *bake;
    VatRenderer      *renderer;
    VatInstance      *instances;
    int               instance_count;
    vec3              grid_min, grid_max;
    VatGround        *ground;
    bool              show_grid;       /* G */
    int               shown_clip;      /* the clip instance 0 plays (the crowd shifts with it) */
    float             time;
    int               draw_calls;
    char              line[256];       /* the HUD's VAT line */
} VatSubject;

static void vat_evaluate(void *self, const Playback *p)
{
    VatSubject *vat = self;
    const VatManifest *manifest = &vat->bake->manifest;
    int clip = p->clip >= 0 ? p->clip : 0;   /* a bake has only clips */
    if (clip != vat->shown_clip) {   /* a clip key: the crowd shifts with it (not per frame) */
        vat->shown_clip = clip;
        for (int i = 0; i < vat->instance_count; i++) {
            int c = (clip + i) % manifest->clip_count;
            double stagger = fmod((double)i * 0.6180339887, 1.0);
            vat->instances[i].clip = (float)c;
            vat->instances[i].time_offset = i == 0 ? 0.0f : (float)(stagger * manifest->clips[c].duration);
        }
        vat_renderer_set_instances(vat->renderer, vat->instances, vat->instance_count);
    }
    vat->time = p->time;
    vat->renderer->cull_back_faces = p->cull_back_faces;
}

static void vat_draw(void *self, const mat4 view, const mat4 projection, int width, int height, bool overlays)
{
    (void)overlays;
    VatSubject *vat = self;
    RenderLight light;
    render_light_default(&light);
    vat->draw_calls = vat_renderer_draw(vat->renderer, vat->time, view, projection, &light);
    if (vat->show_grid) vat_ground_draw(vat->ground, view, projection, width, height);
}

static void vat_frame(void *self, int clip, float aspect, bool front, float hud_top, float hud_bottom, Camera *camera)
{
    (void)front;   /* the crowd is always seen from its front */
    VatSubject *vat = self;
    frame_crowd(vat->bake, vat->instances, vat->instance_count, clip >= 0 ? clip : 0, vat->grid_min, vat->grid_max,
                aspect, hud_top, hud_bottom, camera);
}

static bool vat_action(void *self, Player *player, Action a)
{
    (void)player;
    VatSubject *vat = self;
    if (a.kind != ACTION_TOGGLE_GRID) return false;
    vat->show_grid = !vat->show_grid;
    return true;
}

static void vat_status(void *self, const Player *player, HudInfo *info)
{
    VatSubject *vat = self;
    snprintf(vat->line, sizeof vat->line, "VAT  instances %d  draw calls %d  frame %.2f ms", vat->instance_count,
             vat->draw_calls, player->fps > 0.0f ? 1e3 / player->fps : 0.0);
    info->extra_lines[info->extra_count++] = vat->line;
}

/* The bake's clips as a Model with clips only (names and durations; no tracks, no meshes): the
 * player's clip list (HUD, browser, timeline). */
static bool vat_clip_model(const VatManifest *manifest, Model *model, float **durations)
{
    memset(model, 0, sizeof *model);
    model->clips = calloc((size_t)manifest->clip_count, sizeof *model->clips);
    *durations = calloc((size_t)manifest->clip_count, sizeof **durations);
    if (!model->clips || !*durations) {
        free(model->clips);
        free(*durations);
        model->clips = NULL;
        *durations = NULL;
        return false;
    }
    model->clip_count = manifest->clip_count;
    for (int c = 0; c < manifest->clip_count; c++) {
        snprintf(model->clips[c].name, sizeof model->clips[c].name, "%s", manifest->clips[c].name);
        model->clips[c].duration = manifest->clips[c].duration;
        (*durations)[c] = manifest->clips[c].duration;
    }
    return true;
}

static int vat_view(const Options *options, const LoadedBake *bake, int clip)
{
    const char *dir = options->vat_dir;
    char error[1024], title[1200];
    snprintf(title, sizeof title, "skinview \xe2\x80\x94 VAT %s", dir);
    GlContext context = {0};
    if (!glcontext_create_window(&context, title, options->width, options->height, error, sizeof error)) {
        fprintf(stderr, "skinview: cannot open a window: %s (without a display, --vat with --screenshot, "
                        "--export-pose and --verify still work)\n", error);
        return 1;
    }
    const VatManifest *manifest = &bake->manifest;
    VatRenderer renderer;
    if (!vat_renderer_start(&renderer, bake, dir)) {
        glcontext_destroy(&context);
        return 1;
    }
    static VatGround ground;   /* static: its scratch vertices are too many for the stack */
    static Player player;
    VatSubject vat = {.bake = bake, .renderer = &renderer, .ground = &ground, .shown_clip = clip,
                      .instance_count = options->instances, .show_grid = options->aids.grid};
    vat.instances = app_vat_instances(bake, options->instances, clip, vat.grid_min, vat.grid_max);
    Model clips;
    float *durations = NULL;
    bool have_clips = vat_clip_model(manifest, &clips, &durations), player_ready = false;
    int status = 1;
    if (!have_clips || !vat.instances || !vat_renderer_set_instances(&renderer, vat.instances, options->instances)) {
        fprintf(stderr, "skinview: %s: out of memory\n", dir);
        goto done;
    }
    vat_ground_init(&ground, bake, vat.grid_min, vat.grid_max);
    PlayerSubject subject = {
        .self = &vat,
        .key_mode = KEY_MODE_VAT,
        .title = title,
        .evaluate = vat_evaluate,
        .draw = vat_draw,
        .frame = vat_frame,
        .action = vat_action,
        .status = vat_status,
    };
    if (!player_init(&player, context.window, &subject, &clips, NULL, durations, clip, options->time, options->speed))
        goto done;
    player_ready = true;
    player.playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
    player_run(&player);
    status = 0;
done:
    if (player_ready) player_free(&player);
    vat_ground_free(&ground);
    if (have_clips) model_free(&clips);
    free(durations);
    free(vat.instances);
    return vat_session_end(&renderer, &context, status, dir);
}

int command_vat(const Options *options)
{
    LoadedBake bake;
    if (!app_vat_load(options->vat_dir, &bake)) return 1;
    int clip = 0;
    char error[512];
    if (!resolve_vat_clip(&bake.manifest, options->clip, &clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->vat_dir, error);
        app_vat_unload(&bake);
        return 2;
    }
    int status;
    if (options->screenshot_path) status = vat_screenshot(options, &bake, clip);
    else if (options->export_pose_path) status = vat_export_pose(options, &bake, clip);
    else if (options->verify) status = vat_verify(options, &bake);
    else status = vat_view(options, &bake, clip);
    app_vat_unload(&bake);
    return status;
}
