/* bench_vat — what vertex animation textures cost and save (a benchmark, not a test: it prints
 * numbers).
 *
 *   build/bench_vat [MODEL] [--fps N] [--frames K] [--size WxH] [--counts 1,100,1000,10000]
 *
 * 1. Bake (the real `--bake-vat` into a temporary folder, every clip): wall time per baked frame
 *    and per baked vertex-frame, and the CPU skinning part alone (sample + skin + encode).
 * 2. Texture bytes per second of animation: the PNG pages on disk over the summed clip
 *    durations, and the raw texel bytes (8-byte position + 4-byte normal texels).
 * 3. Crowd frame time, skinned vs VAT, at N instances: the skinned crowd evaluates one pose and
 *    uploads one palette per instance and draws each instance (N draw calls per mesh); the VAT
 *    crowd draws all N in one instanced call per mesh. Frame time = wall time of K frames with
 *    glFinish, offscreen at --size. On llvmpipe (no GPU) only the ratio means anything.
 */
#include "view/camera.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "app/vat_load.h"
#include "anim/animator.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"
#include "gfx/vat_renderer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sampling + CPU skinning + normal encoding of every baked frame, no files: the CPU part of a bake. */
static double skin_seconds(const Model *model, float fps, int *frames_out)
{
    Animator animator;
    int total = model_total_vertices(model);
    vec3 *positions = malloc(sizeof(vec3) * (size_t)total), *normals = malloc(sizeof(vec3) * (size_t)total);
    if (!positions || !normals || !animator_init(&animator, model)) {
        free(positions);
        free(normals);
        return -1.0;
    }
    int frames = 0;
    uint16_t sink = 0;
    double start = now_seconds();
    for (int c = 0; c < model->clip_count; c++) {
        int count = vat_clip_frame_count(model->clips[c].duration, fps);
        for (int f = 0; f < count; f++, frames++) {
            animator_evaluate(&animator, c, vat_frame_time(model->clips[c].duration, count, f));
            for (int m = 0, offset = 0; m < model->mesh_count; offset += model->meshes[m].vertex_count, m++)
                animator_skin_mesh(&animator, m, positions + offset, normals + offset);
            for (int v = 0; v < total; v++) {
                uint16_t q[2];
                vat_normal_encode16(normals[v], q);
                sink ^= q[0] ^ vat_quantize(positions[v][1], -10.0f, 20.0f);
            }
        }
    }
    double seconds = now_seconds() - start;
    if (sink == 12345) printf(" ");   /* keeps the loop from being optimised away */
    animator_free(&animator);
    free(positions);
    free(normals);
    *frames_out = frames;
    return seconds;
}

/* Skinned crowd: per instance one pose, one palette upload, one draw per mesh (the view matrix
 * carries the instance's offset). */
static double skinned_frame(Renderer *renderer, Animator *animator, const VatInstance *instances, int count,
                            const LoadedBake *bake, const int *clip_of_baked, float time, const mat4 view,
                            const mat4 projection, const RenderLight *light)
{
    double start = now_seconds();
    renderer_clear(0.18f, 0.2f, 0.23f);
    for (int i = 0; i < count; i++) {
        int baked = (int)instances[i].clip;
        float duration = bake->manifest.clips[baked].duration;
        float t = time + instances[i].time_offset;
        if (t > duration) t = duration > 0.0f ? fmodf(t, duration) : 0.0f;
        animator_evaluate(animator, clip_of_baked[baked], t);
        mat4 instance_view;
        glm_translate_to((vec4 *)view, (float *)instances[i].offset, instance_view);
        renderer_draw(renderer, animator, instance_view, projection, light);
    }
    glFinish();
    return now_seconds() - start;
}

static double vat_frame(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                        const RenderLight *light)
{
    double start = now_seconds();
    renderer_clear(0.18f, 0.2f, 0.23f);
    vat_renderer_draw(renderer, time, view, projection, light);
    glFinish();
    return now_seconds() - start;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL;
    float fps = 30.0f;
    int frames = 3, width = 640, height = 360;
    char counts_text[256] = "1,100,1000,10000";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fps") == 0 && i + 1 < argc) fps = (float)atof(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) sscanf(argv[++i], "%dx%d", &width, &height);
        else if (strcmp(argv[i], "--counts") == 0 && i + 1 < argc) snprintf(counts_text, sizeof counts_text, "%s", argv[++i]);
        else if (argv[i][0] != '-') model_path = argv[i];
        else {
            fprintf(stderr, "usage: bench_vat [MODEL] [--fps N] [--frames K] [--size WxH] [--counts 1,100,...]\n");
            return 2;
        }
    }
    if (!(fps > 0.0f) || frames < 1 || width < 1 || height < 1) {
        fprintf(stderr, "bench_vat: bad --fps, --frames or --size\n");
        return 2;
    }
    char demo[1024];
    if (!(model_path = app_model_or_demo(model_path, "bench_vat", demo, sizeof demo))) return 1;

    /* 1. bake through the real command */
    char dir[] = "/tmp/bench_vat_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_vat: mkdtemp");
        return 1;
    }
    char bake_dir[sizeof dir + 16];
    snprintf(bake_dir, sizeof bake_dir, "%s/bake", dir);
    Options options = {0};
    options.bake_vat_dir = bake_dir;
    options.fps = fps;
    options.quiet = true;
    options.width = width;
    options.height = height;
    options.speed = 1.0f;
    double bake_start = now_seconds();
    fflush(stdout);
    int saved_stdout = dup(STDOUT_FILENO);
    if (!freopen("/dev/null", "w", stdout)) return 1;
    int bake_status = command_bake_vat(&options, model_path);
    fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    double bake_seconds = now_seconds() - bake_start;
    if (bake_status != 0) {
        fprintf(stderr, "bench_vat: the bake failed\n");
        return 1;
    }
    LoadedBake bake;
    if (!app_vat_load(bake_dir, &bake)) return 1;
    const VatManifest *manifest = &bake.manifest;
    int vertex_count = manifest->layout.vertex_count, baked_frames = 0;
    double animation_seconds = 0.0;
    for (int c = 0; c < manifest->clip_count; c++) {
        baked_frames += manifest->clips[c].frame_count;
        animation_seconds += manifest->clips[c].duration;
    }
    long long file_bytes = 0;
    for (int f = 0; f < manifest->file_count; f++)
        if (strcmp(manifest->files[f].name, VAT_MESH_NAME) != 0) file_bytes += manifest->files[f].bytes;
    double raw_bytes = (double)vertex_count * (double)baked_frames * (8.0 + 4.0);

    Model model = {0};
    if (!app_load_model(model_path, &(ImportOptions){0}, &model)) return 1;
    int skinned_frames = 0;
    double skinning = skin_seconds(&model, fps, &skinned_frames);
    model_free(&model);

    printf("bench_vat %s: %d vertices, %d clips, %.3f s of animation, %d frames at %g fps, %d page%s of %dx%d\n",
           model_path, vertex_count, manifest->clip_count, animation_seconds, baked_frames, (double)fps,
           manifest->layout.page_count, manifest->layout.page_count == 1 ? "" : "s", manifest->layout.width,
           manifest->layout.page_height);
    printf("bake: %.3f s total, %.3f ms per frame, %.1f ns per vertex-frame (files included)\n", bake_seconds,
           1e3 * bake_seconds / baked_frames, 1e9 * bake_seconds / ((double)baked_frames * vertex_count));
    printf("bake CPU part (sample + skin + encode): %.3f ms per frame, %.1f ns per vertex-frame\n",
           1e3 * skinning / skinned_frames, 1e9 * skinning / ((double)skinned_frames * vertex_count));
    if (animation_seconds > 0.0)
        printf("textures: %.0f bytes per second of animation as PNG (%.0f raw texel bytes per second)\n",
               (double)file_bytes / animation_seconds, raw_bytes / animation_seconds);

    /* 3. crowds */
    GlContext context = {0};
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "bench_vat: no OpenGL context: %s\n", error);
        return 1;
    }
    int max_bones = glcontext_bones_per_mesh(0);
    Model skinned_model = {0};
    if (!app_load_model(model_path, &(ImportOptions){.max_bones_per_mesh = max_bones}, &skinned_model)) return 1;
    Renderer renderer;
    VatRenderer vat;
    Animator animator;
    char vert[1024], frag[1024];
    if (!app_renderer_init(&renderer, &skinned_model, max_bones, error, sizeof error) ||
        !app_find_data("shaders/vat.vert", vert, sizeof vert) || !app_find_data("shaders/skinned.frag", frag, sizeof frag) ||
        !vat_renderer_init(&vat, &bake.mesh_model, &bake.gpu, vert, frag, error, sizeof error) ||
        !animator_init(&animator, &skinned_model)) {
        fprintf(stderr, "bench_vat: GL set-up failed: %s\n", error);
        return 1;
    }
    int *clip_of_baked = calloc((size_t)manifest->clip_count, sizeof *clip_of_baked);
    for (int c = 0; c < manifest->clip_count; c++)
        clip_of_baked[c] = skinned_model.clip_count > 0 ? manifest->clips[c].source_index : ANIMATOR_REST_POSE;
    Framebuffer framebuffer;
    if (!framebuffer_create(&framebuffer, width, height, 0, error, sizeof error)) {
        fprintf(stderr, "bench_vat: %s\n", error);
        return 1;
    }
    framebuffer_bind(&framebuffer);
    RenderLight light;
    render_light_default(&light);
    printf("crowd on %s, %dx%d, %d frame%s each (ms per frame):\n", context.renderer_name, width, height, frames,
           frames == 1 ? "" : "s");
    printf("%10s %14s %14s %10s %14s\n", "instances", "skinned_ms", "vat_ms", "ratio", "vat_draw_calls");
    char *cursor = counts_text;
    while (*cursor) {
        int count = (int)strtol(cursor, &cursor, 10);
        if (*cursor == ',') cursor++;
        if (count < 1) break;
        vec3 grid_min, grid_max;
        VatInstance *instances = app_vat_instances(&bake, count, 0, grid_min, grid_max);
        if (!instances || !vat_renderer_set_instances(&vat, instances, count)) {
            fprintf(stderr, "bench_vat: out of memory for %d instances\n", count);
            return 1;
        }
        Camera camera = {0};
        float aspect = (float)width / (float)height;
        camera_frame(&camera, grid_min, grid_max, aspect, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
        mat4 view, projection;
        camera_view(&camera, view);
        camera_projection(&camera, aspect, projection);
        /* one warm-up frame each, then K timed frames at advancing times */
        skinned_frame(&renderer, &animator, instances, count, &bake, clip_of_baked, 0.0f, view, projection, &light);
        vat_frame(&vat, 0.0f, view, projection, &light);
        double skinned = 0.0, vat_time = 0.0;
        for (int k = 0; k < frames; k++) {
            float t = (float)(k + 1) / 30.0f;
            skinned += skinned_frame(&renderer, &animator, instances, count, &bake, clip_of_baked, t, view, projection,
                                     &light);
            vat_time += vat_frame(&vat, t, view, projection, &light);
        }
        int draw_calls = 0;
        for (int m = 0; m < vat.mesh_count; m++) draw_calls += vat.meshes[m].index_count > 0;
        printf("%10d %14.3f %14.3f %10.2f %14d\n", count, 1e3 * skinned / frames, 1e3 * vat_time / frames,
               vat_time > 0.0 ? skinned / vat_time : 0.0, draw_calls);
        fflush(stdout);
        free(instances);
    }
    framebuffer_free(&framebuffer);
    free(clip_of_baked);
    animator_free(&animator);
    vat_renderer_free(&vat);
    renderer_free(&renderer);
    model_free(&skinned_model);
    glcontext_destroy(&context);
    app_vat_unload(&bake);
    char command[256];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "bench_vat: could not remove %s\n", dir);
    return 0;
}
