/* vat_bake.c — `skinview MODEL --bake-vat OUTDIR`: vertex animation textures (docs/vat.md).
 *
 * Order of work, so that bad input writes nothing and a killed bake leaves nothing --vat
 * accepts:
 *   1. check everything (clips, fps, layout, OUTDIR) — exit 2 / 1 with one line, nothing written;
 *   2. skin every frame of every selected clip on the CPU (animator_skin_mesh: the fast path),
 *      normals octahedral-encoded at once, positions kept as floats for the bounds;
 *   3. quantise positions with the per-axis bounds, write the pages, mesh.glb and vat.json
 *      under temporary names, then rename them into place, vat.json last (vat_commit).
 */
#include "view/framing.h"
#include "commands.h"
#include "glcontext.h"
#include "anim/animator.h"
#include "anim/vat.h"
#include "gfx/gl_context.h"
#include "io/vat_io.h"
#include "io/vat_mesh.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define VAT_LOOP_TOLERANCE 1e-3f   /* of the diagonal: the last frame equals the first */

#define VAT_PROGRESS_INTERVAL 0.1    /* seconds between progress bar redraws */
#define VAT_PROGRESS_WIDTH 30        /* characters of the bar */
#define VAT_GL_MIN_ARRAY_LAYERS 256  /* GL 3.3's guaranteed GL_MAX_ARRAY_TEXTURE_LAYERS: the page limit */

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int app_select_clips(const Model *model, const char *list, int *selected, char *error, size_t error_size)
{
    if (!list || strcmp(list, "all") == 0) {
        for (int c = 0; c < model->clip_count; c++) selected[c] = c;
        return model->clip_count;
    }
    int whole = model_find_clip(model, list);
    if (whole >= 0) {
        selected[0] = whole;
        return 1;
    }
    int count = 0;
    const char *start = list;
    for (;;) {
        const char *comma = strchr(start, ',');
        size_t length = comma ? (size_t)(comma - start) : strlen(start);
        char token[SV_NAME_MAX];
        if (length == 0 || length >= sizeof token) {
            snprintf(error, error_size, "--clips: empty or overlong clip name in '%s'", list);
            return -1;
        }
        memcpy(token, start, length);
        token[length] = '\0';
        int clip;
        if (!app_resolve_clip(model, token, &clip, error, error_size)) return -1;
        if (clip < 0) {
            snprintf(error, error_size, "--clips: '%s' is not a clip (bind and rest are poses)", token);
            return -1;
        }
        for (int k = 0; k < count; k++)
            if (selected[k] == clip) {
                snprintf(error, error_size, "--clips: clip %d named twice", clip);
                return -1;
            }
        if (count >= model->clip_count) {
            snprintf(error, error_size, "--clips: more clips than the model has");
            return -1;
        }
        selected[count++] = clip;
        if (!comma) break;
        start = comma + 1;
    }
    return count;
}

/* GL_MAX_TEXTURE_SIZE from an offscreen context, or VAT_DEFAULT_MAX_TEXTURE without one. */
static int query_max_texture(void)
{
    GlContext context = {0};
    char error[512];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) return VAT_DEFAULT_MAX_TEXTURE;
    int size = gl_context_max_texture_size();
    glcontext_destroy(&context);
    return size >= VAT_MIN_MAX_TEXTURE ? size : VAT_DEFAULT_MAX_TEXTURE;
}

/* OUTDIR must be a writable directory, or a new name in a writable one. Sets *create when it
 * does not exist yet (it is created only once everything else checked out). */
static bool check_outdir(const char *dir, bool *create, char *error, size_t error_size)
{
    struct stat st;
    *create = false;
    if (strlen(dir) > 900) {
        snprintf(error, error_size, "%s: path too long", dir);
        return false;
    }
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(error, error_size, "%s: exists and is not a directory", dir);
            return false;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            snprintf(error, error_size, "%s: directory is not writable", dir);
            return false;
        }
        return true;
    }
    if (errno != ENOENT) {
        snprintf(error, error_size, "%s: %s", dir, strerror(errno));
        return false;
    }
    char parent[1024];
    snprintf(parent, sizeof parent, "%s", dir);
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/') parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash) snprintf(parent, sizeof parent, ".");
    else if (slash == parent) parent[1] = '\0';
    else *slash = '\0';
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "%s: parent directory %s does not exist", dir, parent);
        return false;
    }
    if (access(parent, W_OK | X_OK) != 0) {
        snprintf(error, error_size, "%s: cannot create it, %s is not writable", dir, parent);
        return false;
    }
    *create = true;
    return true;
}

/* Progress bar on stderr when it is a terminal (a log or a pipe gets only the summary): frames done / total, rate, ETA. */
typedef struct Progress {
    bool   enabled;
    int    total;
    double start, last_draw;
} Progress;

static void progress_draw(Progress *progress, int done, const char *clip_name, bool final)
{
    if (!progress->enabled) return;
    double now = seconds_now();
    if (!final && now - progress->last_draw < VAT_PROGRESS_INTERVAL) return;
    progress->last_draw = now;
    double elapsed = now - progress->start;
    double rate = elapsed > 0.0 ? done / elapsed : 0.0;
    double eta = rate > 0.0 ? (progress->total - done) / rate : 0.0;
    int filled = progress->total > 0 ? (int)((long long)done * VAT_PROGRESS_WIDTH / progress->total) : 0;
    char bar[VAT_PROGRESS_WIDTH + 1];
    for (int i = 0; i < VAT_PROGRESS_WIDTH; i++) bar[i] = i < filled ? '#' : '-';
    bar[VAT_PROGRESS_WIDTH] = '\0';
    fprintf(stderr, "\rbaking [%s] %d/%d frames  %.1f frames/s  ETA %.1f s  %-24.24s", bar, done, progress->total,
            rate, eta, clip_name);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* Everything the bake allocates. */
typedef struct Bake {
    int          *selected;
    VatClipLayout *clip_layout;
    VatManifest   manifest;
    vec3         *frame_positions;   /* [total_frames][vertex_count], float, scene space */
    vec3         *scratch_normals;   /* [vertex_count] */
    uint16_t     *normal_pages;      /* [page][page_height][width][2] */
    vec3         *bind_positions, *bind_normals;
    Animator      animator;
    bool          have_animator;
} Bake;

static void bake_free(Bake *bake)
{
    void *const arrays[] = {bake->selected,     bake->clip_layout,    bake->frame_positions, bake->scratch_normals,
                            bake->normal_pages, bake->bind_positions, bake->bind_normals};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    vat_manifest_free(&bake->manifest);
    if (bake->have_animator) animator_free(&bake->animator);
}

/* Skins every mesh at the animator's pose into positions/normals (all meshes, in order). */
static void skin_all(const Model *model, const Animator *animator, vec3 *positions, vec3 *normals)
{
    int offset = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, positions + offset, normals + offset);
        offset += model->meshes[m].vertex_count;
    }
}

/* Writes the page images, mesh.glb and vat.json under their temporary names, filling the
 * manifest's file list (sizes, checksums). */
static bool write_outputs(const char *dir, const Model *model, Bake *bake, int total_frames, char *error,
                          size_t error_size)
{
    VatManifest *manifest = &bake->manifest;
    const VatLayout *layout = &manifest->layout;
    int vertex_count = layout->vertex_count;
    size_t page_texels = (size_t)layout->width * (size_t)layout->page_height;
    vec3 range;
    glm_vec3_sub(manifest->bounds_max, manifest->bounds_min, range);
    manifest->files = calloc((size_t)layout->page_count * 2 + 1, sizeof *manifest->files);
    void *page = malloc(page_texels * (manifest->float_precision ? 4 * sizeof(float) : 4 * sizeof(uint16_t)));
    if (!manifest->files || !page) {
        free(page);
        snprintf(error, error_size, "out of memory");
        return false;
    }
    (void)total_frames;
    bool ok = true;
    char path[1200];
    for (int p = 0; p < layout->page_count && ok; p++) {
        int rows = vat_page_rows(layout, p);
        memset(page, 0, page_texels * (manifest->float_precision ? 4 * sizeof(float) : 4 * sizeof(uint16_t)));
        /* every frame that lives on this page */
        int frame_index = 0;
        for (int c = 0; c < manifest->clip_count; c++) {
            const VatClip *clip = &manifest->clips[c];
            for (int f = 0; f < clip->frame_count; f++, frame_index++) {
                int slot = clip->first_slot + f;
                if (slot / layout->frames_per_page != p) continue;
                const vec3 *positions = bake->frame_positions + (size_t)frame_index * (size_t)vertex_count;
                for (int v = 0; v < vertex_count; v++) {
                    int texel_page, x, y;
                    vat_texel(layout, slot, v, &texel_page, &x, &y);
                    size_t texel = (size_t)y * (size_t)layout->width + (size_t)x;
                    if (manifest->float_precision) {
                        float *out = (float *)page + texel * 4;
                        out[0] = positions[v][0];
                        out[1] = positions[v][1];
                        out[2] = positions[v][2];
                        out[3] = 1.0f;
                    } else {
                        uint16_t *out = (uint16_t *)page + texel * 4;
                        for (int k = 0; k < 3; k++)
                            out[k] = vat_quantize(positions[v][k], manifest->bounds_min[k], range[k]);
                        out[3] = VAT_QUANT_MAX;
                    }
                }
            }
        }
        VatFile *positions_file = &manifest->files[manifest->file_count++];
        vat_positions_name(p, manifest->float_precision, positions_file->name, sizeof positions_file->name);
        vat_partial_path(dir, positions_file->name, path, sizeof path);
        ok = manifest->float_precision ? vat_write_exr(path, layout->width, rows, page, error, error_size)
                                       : vat_write_png16(path, layout->width, rows, 4, page, error, error_size);
        ok = ok && vat_file_checksum(path, &positions_file->bytes, &positions_file->crc32, error, error_size);

        VatFile *normals_file = &manifest->files[manifest->file_count++];
        vat_normals_name(p, normals_file->name, sizeof normals_file->name);
        vat_partial_path(dir, normals_file->name, path, sizeof path);
        ok = ok && vat_write_png16(path, layout->width, rows, 2, bake->normal_pages + page_texels * 2 * (size_t)p,
                                   error, error_size);
        ok = ok && vat_file_checksum(path, &normals_file->bytes, &normals_file->crc32, error, error_size);
    }
    free(page);
    if (!ok) return false;

    VatFile *mesh_file = &manifest->files[manifest->file_count++];
    snprintf(mesh_file->name, sizeof mesh_file->name, "%s", VAT_MESH_NAME);
    vat_partial_path(dir, mesh_file->name, path, sizeof path);
    if (!vat_export_mesh(path, model, (const vec3 *)bake->bind_positions, (const vec3 *)bake->bind_normals, error,
                         error_size) ||
        !vat_file_checksum(path, &mesh_file->bytes, &mesh_file->crc32, error, error_size))
        return false;
    vat_partial_path(dir, VAT_MANIFEST_NAME, path, sizeof path);
    return vat_write_manifest(path, manifest, error, error_size);
}

int command_bake_vat(const Options *options, const char *model_path)
{
    char error[1024];
    const char *dir = options->bake_vat_dir;
    Model model = {0};
    ImportOptions import = app_import_options(options);
    import.max_bones_per_mesh = 0;
    if (!app_load_model(model_path, &import, &model)) return 1;

    Bake bake = {0};
    int status = 1;
    bool created_dir = false;
    int clip_slots = model.clip_count > 0 ? model.clip_count : 1;
    bake.selected = calloc((size_t)clip_slots, sizeof *bake.selected);
    bake.clip_layout = calloc((size_t)clip_slots, sizeof *bake.clip_layout);
    bake.manifest.clips = calloc((size_t)clip_slots, sizeof *bake.manifest.clips);
    bake.manifest.meshes = calloc((size_t)(model.mesh_count > 0 ? model.mesh_count : 1), sizeof *bake.manifest.meshes);
    if (!bake.selected || !bake.clip_layout || !bake.manifest.clips || !bake.manifest.meshes) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        goto done;
    }

    /* 1. checks: nothing is written before all of them pass */
    int clip_count;
    if (model.clip_count == 0) {
        if (options->clips && strcmp(options->clips, "all") != 0) {
            fprintf(stderr, "skinview: %s: --clips: the model has no clips\n", model_path);
            status = 2;
            goto done;
        }
        clip_count = 1;   /* a model without clips bakes its rest pose as one frame */
        bake.selected[0] = ANIMATOR_REST_POSE;
    } else {
        clip_count = app_select_clips(&model, options->clips, bake.selected, error, sizeof error);
        if (clip_count < 0) {
            fprintf(stderr, "skinview: %s: %s\n", model_path, error);
            status = 2;
            goto done;
        }
    }
    int vertex_count = model_total_vertices(&model);
    if (vertex_count >= (1 << 24)) {
        fprintf(stderr, "skinview: %s: %d vertices, more than a VAT bake addresses (2^24)\n", model_path, vertex_count);
        goto done;
    }
    float fps = options->fps > 0.0f ? options->fps : VAT_DEFAULT_FPS;
    int total_frames = 0;
    for (int c = 0; c < clip_count; c++) {
        int clip = bake.selected[c];
        float duration = clip >= 0 ? model.clips[clip].duration : 0.0f;
        int frames = vat_clip_frame_count(duration, fps);
        if (frames < 0 || total_frames > 0x7fffffff - frames) {
            fprintf(stderr, "skinview: %s: --fps %g gives too many frames\n", model_path, (double)fps);
            status = 2;
            goto done;
        }
        bake.clip_layout[c] = (VatClipLayout){.frame_count = frames, .duration = duration};
        VatClip *out = &bake.manifest.clips[c];
        if (clip >= 0) snprintf(out->name, sizeof out->name, "%s", model.clips[clip].name);
        else snprintf(out->name, sizeof out->name, "rest");
        out->source_index = clip >= 0 ? clip : 0;
        out->fps = fps;
        out->frame_count = frames;
        out->duration = duration;
        out->loop = true;   /* decided once the frames are skinned (step 2) */
        total_frames += frames;
    }
    bake.manifest.clip_count = clip_count;
    int max_texture = options->max_texture > 0 ? options->max_texture : query_max_texture();
    VatLayout *layout = &bake.manifest.layout;
    if (!vat_layout_build(vertex_count, max_texture, VAT_GL_MIN_ARRAY_LAYERS, bake.clip_layout, clip_count, layout,
                          error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        status = 2;
        goto done;
    }
    for (int c = 0; c < clip_count; c++) bake.manifest.clips[c].first_slot = bake.clip_layout[c].first_slot;
    bool create_dir = false;
    if (!check_outdir(dir, &create_dir, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        goto done;
    }
    size_t page_texels = (size_t)layout->width * (size_t)layout->page_height;
    bake.frame_positions = malloc(sizeof(vec3) * (size_t)total_frames * (size_t)vertex_count);
    bake.scratch_normals = malloc(sizeof(vec3) * (size_t)vertex_count);
    bake.normal_pages = calloc(page_texels * 2 * (size_t)layout->page_count, sizeof(uint16_t));
    bake.bind_positions = malloc(sizeof(vec3) * (size_t)vertex_count);
    bake.bind_normals = malloc(sizeof(vec3) * (size_t)vertex_count);
    bake.have_animator = animator_init(&bake.animator, &model);
    if (!bake.frame_positions || !bake.scratch_normals || !bake.normal_pages || !bake.bind_positions ||
        !bake.bind_normals || !bake.have_animator) {
        fprintf(stderr, "skinview: %s: out of memory for %d frames of %d vertices (lower --fps or pick fewer --clips)\n",
                model_path, total_frames, vertex_count);
        goto done;
    }
    const char *slash = strrchr(model_path, '/');
    snprintf(bake.manifest.source, sizeof bake.manifest.source, "%s", slash ? slash + 1 : model_path);
    bake.manifest.float_precision = options->float_precision;
    bake.manifest.mesh_count = model.mesh_count;
    for (int m = 0, first = 0; m < model.mesh_count; m++) {
        snprintf(bake.manifest.meshes[m].name, sizeof bake.manifest.meshes[m].name, "%s", model.meshes[m].name);
        bake.manifest.meshes[m].first_vertex = first;
        bake.manifest.meshes[m].vertex_count = model.meshes[m].vertex_count;
        first += model.meshes[m].vertex_count;
    }

    /* 2. skin every frame (CPU skinning), encode normals, track the per-axis bounds */
    double bake_start = seconds_now();
    Progress progress = {.enabled = !options->quiet && isatty(STDERR_FILENO), .total = total_frames, .start = bake_start};
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    int frame_index = 0;
    for (int c = 0; c < clip_count; c++) {
        const VatClip *clip = &bake.manifest.clips[c];
        for (int f = 0; f < clip->frame_count; f++, frame_index++) {
            float t = vat_frame_time(clip->duration, clip->frame_count, f);
            animator_evaluate(&bake.animator, bake.selected[c], t);
            vec3 *positions = bake.frame_positions + (size_t)frame_index * (size_t)vertex_count;
            skin_all(&model, &bake.animator, positions, bake.scratch_normals);
            int slot = clip->first_slot + f;
            for (int v = 0; v < vertex_count; v++) {
                if (!isfinite(positions[v][0]) || !isfinite(positions[v][1]) || !isfinite(positions[v][2])) {
                    if (progress.enabled) fputc('\n', stderr);
                    fprintf(stderr, "skinview: %s: clip \"%s\" frame %d: vertex %d is not finite\n", model_path,
                            clip->name, f, v);
                    goto done;
                }
                glm_vec3_minv(lo, positions[v], lo);
                glm_vec3_maxv(hi, positions[v], hi);
                int page, x, y;
                vat_texel(layout, slot, v, &page, &x, &y);
                uint16_t *texel = bake.normal_pages + (page_texels * (size_t)page + (size_t)y * (size_t)layout->width +
                                                       (size_t)x) * 2;
                vat_normal_encode16(bake.scratch_normals[v], texel);
            }
            progress_draw(&progress, frame_index + 1, clip->name, false);
        }
    }
    progress_draw(&progress, total_frames, "done", true);
    double skin_seconds = seconds_now() - bake_start;
    /* vat.json's "loop": a clip loops when its last baked frame is its first again, every vertex
     * within VAT_LOOP_TOLERANCE of the baked bounds' diagonal (a player may then wrap seamlessly;
     * otherwise it should hold or play once). A one-frame clip is a still pose: it loops. */
    float diagonal = glm_vec3_distance(lo, hi);
    frame_index = 0;
    for (int c = 0; c < clip_count; c++) {
        VatClip *clip = &bake.manifest.clips[c];
        const vec3 *first = bake.frame_positions + (size_t)frame_index * (size_t)vertex_count;
        const vec3 *last = first + (size_t)(clip->frame_count - 1) * (size_t)vertex_count;
        float worst = 0.0f;
        for (int v = 0; v < vertex_count && clip->frame_count > 1; v++)
            worst = fmaxf(worst, glm_vec3_distance((float *)first[v], (float *)last[v]));
        clip->loop = worst <= VAT_LOOP_TOLERANCE * diagonal;
        frame_index += clip->frame_count;
    }
    glm_vec3_copy(lo, bake.manifest.bounds_min);
    glm_vec3_copy(hi, bake.manifest.bounds_max);
    if (!view_model_bounds(&model, &bake.animator, bake.manifest.view_min, bake.manifest.view_max)) {
        glm_vec3_copy(lo, bake.manifest.view_min);
        glm_vec3_copy(hi, bake.manifest.view_max);
    }
    for (int c = 0; c < clip_count; c++) {   /* the skinned viewer's first view, per clip */
        int source = bake.selected[c] >= 0 ? bake.selected[c] : ANIMATOR_REST_POSE;
        VatClip *out = &bake.manifest.clips[c];
        out->front_yaw = view_front_yaw(&model, &bake.animator, source);
        out->frame_point_count = view_clip_frame_points(&model, &bake.animator, source, out->frame_points);
    }
    animator_evaluate(&bake.animator, ANIMATOR_BIND_POSE, 0.0f);
    skin_all(&model, &bake.animator, bake.bind_positions, bake.bind_normals);

    /* 3. files under temporary names, then renamed into place */
    if (create_dir) {
        if (mkdir(dir, 0777) != 0) {
            fprintf(stderr, "skinview: %s: cannot create: %s\n", dir, strerror(errno));
            goto done;
        }
        created_dir = true;
    }
    if (!write_outputs(dir, &model, &bake, total_frames, error, sizeof error) ||
        !vat_commit(dir, &bake.manifest, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        vat_remove_partials(dir, &bake.manifest);
        if (created_dir) rmdir(dir);
        goto done;
    }
    double total_seconds = seconds_now() - bake_start;

    /* the worst quantisation error, measured against the float positions just baked */
    double worst_error = 0.0, worst_step = 0.0;
    if (!bake.manifest.float_precision) {
        vec3 range;
        glm_vec3_sub(hi, lo, range);
        for (size_t i = 0; i < (size_t)total_frames * (size_t)vertex_count; i++)
            for (int k = 0; k < 3; k++) {
                float value = bake.frame_positions[i][k];
                double decoded = vat_dequantize(vat_quantize(value, lo[k], range[k]), lo[k], range[k]);
                double e = fabs(decoded - value);
                if (e > worst_error) worst_error = e;
            }
        for (int k = 0; k < 3; k++)
            if (range[k] / VAT_QUANT_MAX > worst_step) worst_step = range[k] / VAT_QUANT_MAX;
    }
    long long bytes = 0;
    for (int f = 0; f < bake.manifest.file_count; f++)
        if (strncmp(bake.manifest.files[f].name, "mesh", 4) != 0) bytes += bake.manifest.files[f].bytes;
    printf("baked %d clip%s, %d frames of %d vertices at %g fps into %s: %d page%s of %dx%d (%s), "
           "%.2f s (skinning %.2f ms/frame, %.1f ns/vertex), textures %lld bytes",
           clip_count, clip_count == 1 ? "" : "s", total_frames, vertex_count, (double)fps, dir, layout->page_count,
           layout->page_count == 1 ? "" : "s", layout->width, layout->page_height,
           bake.manifest.float_precision ? "float EXR" : "16-bit PNG", total_seconds,
           1e3 * skin_seconds / total_frames, 1e9 * skin_seconds / ((double)total_frames * vertex_count), bytes);
    if (!bake.manifest.float_precision)
        printf(", max position error %.3g (step %.3g)", worst_error, worst_step);
    printf("\n");
    status = 0;
done:
    bake_free(&bake);
    model_free(&model);
    return status;
}
