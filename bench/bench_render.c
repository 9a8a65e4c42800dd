/* bench_render — the frame time of the skinned model's draw (a benchmark, not a test: it prints
 * numbers; docs/performance.md "Rendering").
 *
 *   build/bench_render [MODEL] [--frames K] [--size WxH] [--samples N] [--clip INDEX] [--lighting flat|default]
 *                      [--shadow] [--environment FILE.hdr] [--json]
 *
 * Off-screen at --size (default 1280x720, no multisampling), the camera framed on the model as
 * the viewer frames it; one frame = pose the clip at the next time step + the skinning method's
 * CPU work + clear + renderer_draw + glFinish. Prints the median and the best of K timed frames
 * (after 5 warm-up frames), in milliseconds, wall time and the process's CPU time (run it with
 * LP_NUM_THREADS=0 on a shared machine: the CPU time is then the frame's work, whatever the load).
 * On llvmpipe the fragment shader dominates: this is
 * what a material or lighting change costs. --lighting as skinview's (default: the PBR rig);
 * --shadow adds renderer_draw_shadow on the model's lowest point (a square of twice its size), as
 * the viewer's --shadow; --environment as skinview's.
 */
#include "view/framing.h"
#include "app/commands.h"
#include "view/lighting.h"
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "anim/animator.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"
#include "view/camera.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process (every thread): with LP_NUM_THREADS=0 llvmpipe rasterizes on the
 * calling thread, and the CPU time per frame reads the work itself, not how busy the machine is. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *model_path = NULL;
    int frames = 60, width = 1280, height = 720, samples = 0, clip = 0;
    bool json = false, flat = false, shadow = false;
    const char *environment = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) sscanf(argv[++i], "%dx%d", &width, &height);
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) samples = atoi(argv[++i]);
        else if (strcmp(argv[i], "--clip") == 0 && i + 1 < argc) clip = atoi(argv[++i]);
        else if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--lighting") == 0 && i + 1 < argc) flat = strcmp(argv[++i], "flat") == 0;
        else if (strcmp(argv[i], "--shadow") == 0) shadow = true;
        else if (strcmp(argv[i], "--environment") == 0 && i + 1 < argc) environment = argv[++i];
        else if (argv[i][0] != '-') model_path = argv[i];
        else {
            fprintf(stderr, "usage: bench_render [MODEL] [--frames K] [--size WxH] [--samples N] [--clip INDEX] "
                            "[--lighting flat|default] [--shadow] [--environment FILE.hdr] [--json]\n");
            return 2;
        }
    }
    if (frames < 1 || width < 1 || height < 1 || samples < 0) {
        fprintf(stderr, "bench_render: bad --frames, --size or --samples\n");
        return 2;
    }
    char demo[1024];
    if (!(model_path = app_model_or_demo(model_path, "bench_render", demo, sizeof demo))) return 1;
    GlContext context = {0};
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "bench_render: no OpenGL context: %s\n", error);
        return 1;
    }
    int max_bones = glcontext_bones_per_mesh(0);
    Model model = {0};
    if (!app_load_model(model_path, &(ImportOptions){.max_bones_per_mesh = max_bones}, &model)) return 1;
    if (clip >= model.clip_count) clip = model.clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
    if (model.clip_count == 0) clip = ANIMATOR_REST_POSE;
    Renderer renderer;
    Animator animator;
    Framebuffer framebuffer;
    if (!app_renderer_init(&renderer, &model, max_bones, error, sizeof error) || !animator_init(&animator, &model) ||
        !framebuffer_create(&framebuffer, width, height, samples, error, sizeof error)) {
        fprintf(stderr, "bench_render: GL set-up failed: %s\n", error);
        return 1;
    }
    if (environment && !view_environment_apply(&renderer, environment, error, sizeof error)) {
        fprintf(stderr, "bench_render: %s\n", error);
        return 1;
    }
    vec3 box_min, box_max;
    view_model_bounds(&model, &animator, box_min, box_max);
    float ground_center[2] = {0.5f * (box_min[0] + box_max[0]), 0.5f * (box_min[2] + box_max[2])};
    float ground_radius = glm_vec3_distance(box_min, box_max);
    Camera camera = {0};
    float aspect = (float)width / (float)height;
    camera_frame(&camera, box_min, box_max, aspect, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, aspect, projection);
    framebuffer_bind(&framebuffer);
    glViewport(0, 0, width, height);
    RenderLight light;
    view_light(flat, &light);
    float duration = clip >= 0 ? model.clips[clip].duration : 0.0f;
    double *times = malloc(sizeof(double) * (size_t)frames), *cpu = malloc(sizeof(double) * (size_t)frames);
    if (!times || !cpu) return 1;
    for (int k = -5; k < frames; k++) {
        float t = duration > 0.0f ? (float)(k + 5) / 60.0f : 0.0f;
        while (duration > 0.0f && t > duration) t -= duration;
        double start = now_seconds(), cpu_start = cpu_seconds();
        animator_evaluate(&animator, clip, t);
        renderer_prepare(&renderer, &animator);
        renderer_clear(0.18f, 0.2f, 0.23f);
        if (shadow)
            renderer_draw_shadow(&renderer, &animator, view, projection, &light, box_min[1], ground_center, ground_radius);
        renderer_draw(&renderer, &animator, view, projection, &light);
        glFinish();
        if (k >= 0) times[k] = now_seconds() - start, cpu[k] = cpu_seconds() - cpu_start;
    }
    qsort(times, (size_t)frames, sizeof *times, compare_doubles);
    qsort(cpu, (size_t)frames, sizeof *cpu, compare_doubles);
    double median = 1e3 * times[frames / 2], best = 1e3 * times[0];
    double cpu_median = 1e3 * cpu[frames / 2], cpu_best = 1e3 * cpu[0];
    int vertices = model_total_vertices(&model);
    if (json)
        printf("{\"model\": \"%s\", \"renderer\": \"%s\", \"width\": %d, \"height\": %d, \"samples\": %d, "
               "\"vertices\": %d, \"frames\": %d, \"lighting\": \"%s\", \"shadow\": %s, \"environment\": %s, \"median_ms\": %.3f, \"best_ms\": %.3f, \"cpu_median_ms\": %.3f, \"cpu_best_ms\": %.3f}\n",
               model_path, context.renderer_name, width, height, samples, vertices, frames, flat ? "flat" : "default",
               shadow ? "true" : "false", environment ? "true" : "false", median, best, cpu_median, cpu_best);
    else
        printf("bench_render %s on %s, %dx%d, %d samples, %d vertices, lighting %s: %.3f ms per frame (median of %d), "
               "best %.3f ms; CPU %.3f ms per frame (median), best %.3f ms%s%s\n",
               model_path, context.renderer_name, width, height, samples, vertices, flat ? "flat" : "default", median,
               frames, best, cpu_median, cpu_best, shadow ? " (with --shadow)" : "",
               environment ? " (with --environment)" : "");
    free(times);
    free(cpu);
    framebuffer_free(&framebuffer);
    animator_free(&animator);
    renderer_free(&renderer);
    model_free(&model);
    glcontext_destroy(&context);
    return 0;
}
