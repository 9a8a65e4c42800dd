/* vat_load.c — a VAT bake loaded for playback (vat_load.h): the checks, the CPU decode, the
 * instances on their grid, the crowd's first view, the ground grid, the renderer. */
#include "vat_load.h"
#include "view/framing.h"
#include "commands.h"
#include "anim/vat.h"
#include "gfx/gl_debug.h"
#include "gfx/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAT_GRID_SPACING 1.25f          /* instances stand this many footprints apart */
#define VAT_FRAME_MAX_INSTANCES 4096    /* beyond: the crowd is framed by its box */

void app_vat_unload(LoadedBake *bake)
{
    vat_manifest_free(&bake->manifest);
    model_free(&bake->mesh_model);
    vat_mesh_uv1_free(&bake->uv1);
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
    ImportOptions import = import_options_default();   /* the bake's mesh: whole, as written */
    if (!app_load_model(mesh_path, &import, &bake->mesh_model)) {
        app_vat_unload(bake);
        return false;
    }
    if (!check_mesh_ids(&bake->mesh_model, layout->vertex_count, mesh_path, error, sizeof error) ||
        !vat_mesh_read_extras(mesh_path, &bake->mesh_model, layout->vertex_count, &bake->uv1, error, sizeof error)) {
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
        .uv1 = (const vec2 *)bake->uv1.uv,
        .uv1_present = bake->uv1.present,
    };
    glm_vec3_copy((float *)manifest->bounds_min, bake->gpu.bounds_min);
    glm_vec3_copy((float *)manifest->bounds_max, bake->gpu.bounds_max);
    return true;
}

/* --clip for a bake: a clip name, an index from 0, or NULL (clip 0). */
bool app_vat_resolve_clip(const VatManifest *manifest, const char *text, int *clip, char *error, size_t error_size)
{
    *clip = 0;
    if (!text) return true;
    for (int c = 0; c < manifest->clip_count; c++)
        if (strcmp(manifest->clips[c].name, text) == 0) {
            *clip = c;
            return true;
        }
    int by_index = app_parse_clip_index(text, manifest->clip_count, "the bake", clip, error, error_size);
    if (by_index >= 0) return by_index == 1;
    snprintf(error, error_size, "no baked clip named '%s' (vat.json lists them)", text);
    return false;
}

/* ---- CPU decode (the reference for --verify, and --export-pose) --------------------------- */

/* One vertex of `clip` at `time` (anim/vat.h vat_decode_vertex on the bake's textures). */
void app_vat_decode_vertex(const LoadedBake *bake, int clip, float time, int vertex, vec3 position, vec3 normal)
{
    const VatManifest *manifest = &bake->manifest;
    VatTextures textures = {
        .layout = &manifest->layout,
        .float_precision = manifest->float_precision,
        .positions = bake->positions,
        .normals = bake->normals,
    };
    glm_vec3_copy((float *)manifest->bounds_min, textures.bounds_min);
    glm_vec3_copy((float *)manifest->bounds_max, textures.bounds_max);
    const VatClip *c = &manifest->clips[clip];
    vat_decode_vertex(&textures, c->first_slot, c->frame_count, c->duration, time, vertex, position, normal);
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
 * front as the skinned viewer fits one figure (view_frame_point_array), so the crowd is centred
 * and seen from the front; beyond VAT_FRAME_MAX_INSTANCES, the corners of the whole crowd's box. */
void app_vat_frame_crowd(const LoadedBake *bake, const VatInstance *instances, int count, int clip, const vec3 crowd_min,
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
    view_frame_point_array((const vec3 *)corners, 8 * boxes, manifest->clips[clip].front_yaw, aspect, true, hud_top,
                          hud_bottom, camera);
    free(corners);
}

void app_vat_ground_init(VatGround *ground, const LoadedBake *bake, const vec3 crowd_min, const vec3 crowd_max)
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

void app_vat_ground_draw(VatGround *ground, const mat4 view, const mat4 projection, int width, int height)
{
    if (!ground->ready) return;
    float scale = text_scale_for(width, height);
    LineStyle style = {1.0f * scale, true, {width, height}};
    ground_grid_draw(&ground->grid, &ground->lines, ground->vertices, 2 * GROUND_GRID_SEGMENTS, view, projection,
                     &style);
}

void app_vat_ground_free(VatGround *ground)
{
    if (ground->ready) lines_free(&ground->lines);
    ground->ready = false;
}

/* ---- GL session -------------------------------------------------------------------------- */

bool app_vat_renderer_start(VatRenderer *renderer, const LoadedBake *bake, const char *dir)
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
int app_vat_session_end(VatRenderer *renderer, GlContext *context, int status, const char *dir)
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

