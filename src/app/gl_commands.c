/* gl_commands.c — the offscreen GL commands: --screenshot and --verify.
 *
 * Both create an offscreen context first (glcontext.h), because the bones-per-mesh limit
 * the model is imported with comes from GL_MAX_VERTEX_UNIFORM_COMPONENTS, and both draw
 * only into their own framebuffer objects. */
#include "bounds.h"
#include "commands.h"
#include "glcontext.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include "stb_image_write.h"

#define SCREENSHOT_SAMPLES 4
#define VERIFY_TIMES 8                /* per clip: t_i = i * duration / 7 */
#define VERIFY_TOLERANCE 1e-4         /* of the bounding-box diagonal */

/* Background of screenshots, sRGB. */
static const float background[3] = {0.18f, 0.20f, 0.23f};

/* Everything a GL command sets up before its own work. */
typedef struct GlSession {
    GlContext context;
    Model     model;
    Renderer  renderer;
    int       max_bones;
} GlSession;

/* Context, bone limit, model, renderer. Returns 0, or the exit code after printing why. */
static int session_begin(GlSession *session, const Options *options, const char *model_path)
{
    memset(session, 0, sizeof *session);
    char error[1024];
    if (!glcontext_create_offscreen(&session->context, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: no OpenGL context: %s\n", model_path, error);
        return 1;
    }
    session->max_bones = glcontext_bones_per_mesh(options->max_bones);
    if (session->max_bones < 1) {
        fprintf(stderr, "skinview: %s: this GL has no room for a bone palette in its vertex uniforms\n", model_path);
        glcontext_destroy(&session->context);
        return 1;
    }
    if (!app_load_model(model_path, session->max_bones, &session->model)) {
        glcontext_destroy(&session->context);
        return 1;
    }
    if (!app_renderer_init(&session->renderer, &session->model, session->max_bones, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        model_free(&session->model);
        glcontext_destroy(&session->context);
        return 1;
    }
    return 0;
}

static void session_end(GlSession *session)
{
    renderer_free(&session->renderer);
    model_free(&session->model);
    glcontext_destroy(&session->context);
}

/* ---- --screenshot -------------------------------------------------------- */

typedef struct PngSink {
    FILE *file;
    bool  failed;
} PngSink;

static void write_png_bytes(void *user, void *data, int size)
{
    PngSink *sink = user;
    if (!sink->failed && fwrite(data, 1, (size_t)size, sink->file) != (size_t)size) sink->failed = true;
}

/* Writes RGBA pixels (rows top to bottom) as a PNG; false with errno set on failure. */
static bool write_png(const char *path, int width, int height, const unsigned char *pixels)
{
    PngSink sink = {fopen(path, "wb"), false};
    if (!sink.file) return false;
    int ok = stbi_write_png_to_func(write_png_bytes, &sink, width, height, 4, pixels, width * 4);
    if (fclose(sink.file) != 0) sink.failed = true;
    if (!ok && errno == 0) errno = EIO;
    return ok && !sink.failed;
}

int command_screenshot(const Options *options, const char *model_path)
{
    GlSession session;
    int status = session_begin(&session, options, model_path);
    if (status != 0) return status;
    const Model *model = &session.model;
    char error[1024];

    int clip;
    if (!app_resolve_clip(model, options->clip, &clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        session_end(&session);
        return 2;
    }
    Animator animator;
    if (!animator_init(&animator, model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        session_end(&session);
        return 1;
    }
    int width = options->width > 0 ? options->width : 1280;
    int height = options->height > 0 ? options->height : 720;
    vec3 min, max;
    app_model_bounds(model, &animator, min, max);   /* whole animation in frame */
    mat4 view, projection;
    app_frame_front(min, max, (float)width / (float)height, view, projection);
    animator_evaluate(&animator, clip, options->time);

    Framebuffer framebuffer;
    unsigned char *pixels = NULL;
    status = 1;
    if (!framebuffer_create(&framebuffer, width, height, SCREENSHOT_SAMPLES, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->screenshot_path, error);
        goto done;
    }
    pixels = malloc((size_t)width * (size_t)height * 4);
    RenderLight light;
    render_light_default(&light);
    framebuffer_bind(&framebuffer);
    renderer_clear(background[0], background[1], background[2]);
    renderer_draw(&session.renderer, &animator, view, projection, &light);
    if (!pixels || !framebuffer_read_rgba(&framebuffer, pixels)) {
        fprintf(stderr, "skinview: %s: cannot read the rendered image back\n", options->screenshot_path);
    } else if (!write_png(options->screenshot_path, width, height, pixels)) {
        fprintf(stderr, "skinview: %s: cannot write PNG: %s\n", options->screenshot_path, strerror(errno));
    } else {
        status = 0;
    }
    framebuffer_free(&framebuffer);
done:
    free(pixels);
    animator_free(&animator);
    session_end(&session);
    return status;
}

/* ---- --verify ------------------------------------------------------------ */

/* Compares GPU and CPU scene-space positions of every mesh at the pose the animator holds.
 * Returns the largest distance divided by the bounding-box diagonal of the CPU positions
 * (NAN if any position is not finite or the capture failed). */
static double compare_pose(Renderer *renderer, const Animator *animator, vec3 *cpu, vec3 *gpu,
                           vec3 *all_cpu, int total_vertices)
{
    const Model *model = renderer->model;
    int offset = 0;
    double worst = 0.0;
    bool broken = false;
    for (int m = 0; m < model->mesh_count; m++) {
        int count = model->meshes[m].vertex_count;
        animator_skin_mesh(animator, m, cpu, NULL);
        if (!renderer_capture_mesh(renderer, animator, m, gpu, NULL)) broken = true;
        for (int v = 0; v < count && !broken; v++) {
            double distance = glm_vec3_distance(cpu[v], gpu[v]);
            if (!isfinite(distance)) broken = true;
            if (distance > worst) worst = distance;
        }
        memcpy(all_cpu + offset, cpu, sizeof(vec3) * (size_t)count);
        offset += count;
    }
    if (broken) return NAN;
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < total_vertices; v++) {
        glm_vec3_minv(lo, all_cpu[v], lo);
        glm_vec3_maxv(hi, all_cpu[v], hi);
    }
    double diagonal = total_vertices > 0 ? glm_vec3_distance(lo, hi) : 0.0;
    return worst / (diagonal > 1e-12 ? diagonal : 1.0);
}

/* One line of the report: a clip, or the rest / bind pose. Returns the line's error. */
static double verify_clip(Renderer *renderer, Animator *animator, int clip, vec3 *cpu, vec3 *gpu, vec3 *all_cpu,
                          int total_vertices)
{
    const Model *model = renderer->model;
    int times = clip >= 0 ? VERIFY_TIMES : 1;
    double worst = 0.0;
    for (int i = 0; i < times; i++) {
        float t = clip >= 0 ? model->clips[clip].duration * (float)i / (float)(VERIFY_TIMES - 1) : 0.0f;
        animator_evaluate(animator, clip, t);
        double error = compare_pose(renderer, animator, cpu, gpu, all_cpu, total_vertices);
        if (isnan(error) || error > worst) worst = error;
        if (isnan(worst)) break;
    }
    if (clip >= 0)
        printf("clip %d \"%s\": max error %.3g of bbox diagonal (%d vertices, %d times)\n", clip,
               model->clips[clip].name, worst, total_vertices, times);
    else
        printf("clip %s \"(%s pose)\": max error %.3g of bbox diagonal (%d vertices, %d times)\n",
               clip == ANIMATOR_BIND_POSE ? "bind" : "rest", clip == ANIMATOR_BIND_POSE ? "bind" : "rest", worst,
               total_vertices, times);
    return worst;
}

int command_verify(const Options *options, const char *model_path)
{
    GlSession session;
    int status = session_begin(&session, options, model_path);
    if (status != 0) return status;
    const Model *model = &session.model;
    Renderer *renderer = &session.renderer;

    int gl_limit = renderer_max_bones();
    printf("verify %s: %s (%s), bones per mesh %d (GL limit %d%s)\n", model_path, session.context.renderer_name,
           glcontext_kind_name(&session.context), session.max_bones, gl_limit,
           session.max_bones < gl_limit ? ", --max-bones" : "");
    int skinned = 0, most_bones = 0, total_vertices = 0, max_vertices = 1;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->skinned) skinned++;
        if (mesh->bone_count > most_bones) most_bones = mesh->bone_count;
        total_vertices += mesh->vertex_count;
        if (mesh->vertex_count > max_vertices) max_vertices = mesh->vertex_count;
    }
    printf("%d meshes (%d skinned, at most %d bones each), %d vertices, %d clips\n", model->mesh_count, skinned,
           most_bones, total_vertices, model->clip_count);

    Animator animator;
    vec3 *cpu = malloc(sizeof(vec3) * (size_t)max_vertices);
    vec3 *gpu = malloc(sizeof(vec3) * (size_t)max_vertices);
    vec3 *all_cpu = malloc(sizeof(vec3) * (size_t)(total_vertices > 0 ? total_vertices : 1));
    bool have_animator = animator_init(&animator, model);
    /* Transform feedback draws too: it needs a complete framebuffer even with rasterization
     * off, and an EGL surfaceless context has none of its own. */
    Framebuffer framebuffer;
    char error[1024] = "out of memory";
    bool have_framebuffer = framebuffer_create(&framebuffer, 16, 16, 0, error, sizeof error);
    if (!cpu || !gpu || !all_cpu || !have_animator || !have_framebuffer) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, have_framebuffer ? "out of memory" : error);
        status = 1;
    } else {
        framebuffer_bind(&framebuffer);
        /* every clip at 8 times (the rest pose when there are none), then the bind pose */
        int pose_count = (model->clip_count > 0 ? model->clip_count : 1) + 1;
        double worst = 0.0;
        int failed = 0;
        for (int p = 0; p < pose_count; p++) {
            int clip = p == pose_count - 1 ? ANIMATOR_BIND_POSE : model->clip_count > 0 ? p : ANIMATOR_REST_POSE;
            double error = verify_clip(renderer, &animator, clip, cpu, gpu, all_cpu, total_vertices);
            if (!(error <= VERIFY_TOLERANCE)) failed++;   /* NaN fails too */
            if (!isnan(worst) && (isnan(error) || error > worst)) worst = error;
        }
        printf("verify %s: max error %.3g of bbox diagonal over %d poses (tolerance %g)\n",
               failed ? "FAILED" : "passed", worst, pose_count, VERIFY_TOLERANCE);
        status = failed ? 1 : 0;
    }
    if (have_animator) animator_free(&animator);
    if (have_framebuffer) framebuffer_free(&framebuffer);
    free(cpu);
    free(gpu);
    free(all_cpu);
    session_end(&session);
    return status;
}
