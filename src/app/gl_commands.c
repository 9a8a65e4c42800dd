/* gl_commands.c — the offscreen GL commands: --screenshot and --verify.
 *
 * Both create an offscreen context first (glcontext.h), because the bones-per-mesh limit
 * the model is imported with comes from GL_MAX_VERTEX_UNIFORM_COMPONENTS, and both draw
 * only into their own framebuffer objects. */
#include "against.h"
#include "view/framing.h"
#include "view/lighting.h"
#include "view/camera.h"
#include "view/hud.h"
#include "commands.h"
#include "gl_session.h"
#include "gfx/framebuffer.h"
#include "gfx/gl_debug.h"
#include "gfx/renderer.h"
#include "teach/teaching_aids.h"
#include "gfx/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCREENSHOT_SAMPLES 4
#define VERIFY_TIMES 8                /* per clip: t_i = i * duration / 7 */
#define VERIFY_TOLERANCE 1e-4         /* of the bounding-box diagonal */
#define VERIFY_NORMAL_TOLERANCE 0.1   /* degrees between GPU and CPU skinned normals */
#define VERIFY_NORMAL_MIN_LENGTH 1e-6 /* shorter normals have no direction: not compared */

/* Background of screenshots, sRGB. */
static const float background[3] = {0.18f, 0.20f, 0.23f};

/* ---- --screenshot -------------------------------------------------------- */

/* --show-hud / --show-browser / --show-help: the viewer's HUD over the frame in the bound
 * framebuffer, for `playback` (its clip, time, speed, loop mode; paused shows PAUSED); the browser
 * opened on the current clip. */
bool app_draw_hud(const Options *options, const Model *model, const Playback *state, int width, int height,
                  char *error, size_t error_size)
{
    int clip = state->clip;
    int key_capacity = timeline_max_keys(model);
    float *keys = calloc((size_t)(key_capacity > 0 ? key_capacity : 1), sizeof *keys);
    ClipBrowser browser = {0};
    static Text text;   /* one per process: baked once, kept for --record's next frame */
    static bool text_ready;
    bool ok = keys && browser_init(&browser, model->clips, model->clip_count);
    if (!ok) {
        snprintf(error, error_size, "out of memory");
    } else if (text_ready || (text_ready = text_init(&text, error, error_size))) {
        Playback playback = *state;
        playback.show_help = options->show_help;
        HudInfo info = {0};
        info.model = model;
        info.playback = &playback;
        info.browser = &browser;
        info.fps = -1.0f;
        info.frame_rate = 30.0f;
        if (clip >= 0) {
            info.key_count = timeline_collect_keys(&model->clips[clip], -1, keys, key_capacity);
            info.frame_rate = timeline_frame_rate(&model->clips[clip]);
        }
        info.key_times = keys;
        HudLayout layout;
        hud_layout(width, height, &info, &layout);
        browser.open = options->show_browser && model->clip_count > 0;
        browser_highlight_clip(&browser, clip, layout.browser.visible_rows);
        hud_draw(&text, &info, &layout, width, height);
    } else {
        ok = false;
    }
    browser_free(&browser);
    free(keys);
    return ok;
}

int command_screenshot(const Options *options, const char *model_path, Model *loaded, int clip, Against *against)
{
    GlSession session;
    int status = session_begin(&session, options, model_path, loaded);
    if (status != 0) return status;
    const Model *model = &session.model;
    char error[1024];
    if (against && !against_follow(against, model, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", against->other_path, error);
        return session_end(&session, 1, model_path);
    }
    Animator animator;
    if (!animator_init(&animator, model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        return session_end(&session, 1, model_path);
    }
    int width = options->width > 0 ? options->width : 1280;
    int height = options->height > 0 ? options->height : 720;
    /* the camera the viewer opens with (the clip's bounds, from the front), so a screenshot
     * shows the window's first frame */
    float aspect = (float)width / (float)height;
    Camera camera = {0};
    float hud_top, hud_bottom;   /* the window keeps the HUD's bands free: so does the screenshot */
    hud_reserved_bands(width, height, clip >= 0, &hud_top, &hud_bottom);
    view_frame_clip(model, &animator, clip, aspect, true, hud_top, hud_bottom, &camera);
    if (options->view >= 0) {   /* a preset: turn, then fit again from there */
        camera_set_view(&camera, (CameraView)options->view);
        view_frame_clip(model, &animator, clip, aspect, false, hud_top, hud_bottom, &camera);
    }
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, aspect, projection);
    vec3 min, max;   /* the teaching aids' ground grid spans the whole animation, as in the window */
    if (!view_model_bounds(model, &animator, min, max)) {
        glm_vec3_fill(min, -1.0f);
        glm_vec3_fill(max, 1.0f);
    }
    TeachingAids scene;
    static Text text;   /* the aids' text */
    bool have_text = false;
    if (!scene_init(&scene, model, &session.renderer, &animator, &options->aids, min, max, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        animator_free(&animator);
        return session_end(&session, strncmp(error, "no joint", 8) == 0 || strncmp(error, "--", 2) == 0 ? 2 : 1, model_path);
    }
    if (against) scene_set_against(&scene, against);
    scene_evaluate(&scene, &animator, clip, options->time);

    Framebuffer framebuffer;
    unsigned char *pixels = NULL;
    status = 1;
    if (!text_init(&text, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    have_text = true;
    if (!framebuffer_create(&framebuffer, width, height, SCREENSHOT_SAMPLES, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", options->screenshot_path, error);
        goto done;
    }
    pixels = malloc((size_t)width * (size_t)height * 4);
    RenderLight light;
    view_light(options->flat_lighting, &light);
    framebuffer_bind(&framebuffer);
    gl_debug_check("drawing the frame");
    renderer_clear(background[0], background[1], background[2]);
    scene_draw(&scene, &animator, view, projection, &light, &text, width, height);
    gl_debug_check("reading the frame back");
    if (options->show_hud) {   /* at --clip / --time, paused (no frame rate shown) */
        float *durations = calloc((size_t)(model->clip_count > 0 ? model->clip_count : 1), sizeof *durations);
        for (int c = 0; durations && c < model->clip_count; c++) durations[c] = model->clips[c].duration;
        Playback playback;
        if (durations) {
            playback_init(&playback, model->clip_count, durations, clip, options->time, options->speed);
            playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
            playback.paused = true;
        }
        bool drawn = durations && app_draw_hud(options, model, &playback, width, height, error, sizeof error);
        if (!durations) snprintf(error, sizeof error, "out of memory");
        free(durations);
        if (!drawn) {
            fprintf(stderr, "skinview: %s: %s\n", options->screenshot_path, error);
            goto done_framebuffer;
        }
    }
    if (session_write_screenshot(&framebuffer, pixels, width, height, options->screenshot_path)) status = 0;
done_framebuffer:
    framebuffer_free(&framebuffer);
done:
    free(pixels);
    if (have_text) text_free(&text);
    scene_free(&scene);
    animator_free(&animator);
    return session_end(&session, status, model_path);
}

/* ---- --verify ------------------------------------------------------------ */

/* Worst disagreement of one pose: positions as a fraction of the bbox diagonal, normals as an
 * angle in degrees. NAN when something is not finite or a capture failed. */
typedef struct PoseError {
    double position;
    double normal_degrees;
    int    normals_skipped;    /* degenerate (zero-length) normals, in either result */
} PoseError;

/* Scratch buffers of --verify, allocated once: one mesh's CPU and GPU results, and every
 * CPU position of the pose (for the bounding box). */
typedef struct VerifyBuffers {
    vec3 *cpu, *gpu, *cpu_normals, *gpu_normals, *all_cpu;
    int   total_vertices;
} VerifyBuffers;

/* Angle between two normals in degrees, or -1 when either is shorter than
 * VERIFY_NORMAL_MIN_LENGTH (a degenerate normal has no direction to compare).
 *   angle = atan2(|a x b|, a . b)   (exact near 0, where acos(a.b / |a||b|) loses digits) */
static double normal_angle_degrees(const vec3 a, const vec3 b)
{
    double ax = a[0], ay = a[1], az = a[2], bx = b[0], by = b[1], bz = b[2];
    double la = sqrt(ax * ax + ay * ay + az * az), lb = sqrt(bx * bx + by * by + bz * bz);
    if (!(la >= VERIFY_NORMAL_MIN_LENGTH) || !(lb >= VERIFY_NORMAL_MIN_LENGTH)) return -1.0;
    double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    double cross = sqrt(cx * cx + cy * cy + cz * cz), dot = ax * bx + ay * by + az * bz;
    return atan2(cross, dot) * (180.0 / GLM_PI);
}

/* Compares GPU and CPU scene-space positions and normals of every mesh at the pose the
 * animator holds. position: the largest distance divided by the bounding-box diagonal of the
 * CPU positions; normal_degrees: the largest angle between the normalised normals. */
static PoseError compare_pose(Renderer *renderer, const Animator *animator, const VerifyBuffers *b)
{
    const Model *model = renderer->model;
    PoseError result = {0.0, 0.0, 0};
    int offset = 0;
    double worst = 0.0;
    bool broken = false;
    for (int m = 0; m < model->mesh_count; m++) {
        int count = model->meshes[m].vertex_count;
        /* the CPU skinning of the method being checked: DQS for dq, rigid for rigid, LBS otherwise */
        skin_mesh_by_method(renderer->method, &renderer->dq_pose, animator, m, b->cpu, b->cpu_normals);
        if (!renderer_capture_mesh(renderer, animator, m, b->gpu, b->gpu_normals)) broken = true;
        for (int v = 0; v < count && !broken; v++) {
            double distance = glm_vec3_distance(b->cpu[v], b->gpu[v]);
            if (!isfinite(distance)) broken = true;
            if (distance > worst) worst = distance;
            double angle = normal_angle_degrees(b->cpu_normals[v], b->gpu_normals[v]);
            if (isnan(angle)) broken = true;
            else if (angle < 0.0) result.normals_skipped++;
            else if (angle > result.normal_degrees) result.normal_degrees = angle;
        }
        memcpy(b->all_cpu + offset, b->cpu, sizeof(vec3) * (size_t)count);
        offset += count;
    }
    if (broken) return (PoseError){NAN, NAN, result.normals_skipped};
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < b->total_vertices; v++) {
        glm_vec3_minv(lo, b->all_cpu[v], lo);
        glm_vec3_maxv(hi, b->all_cpu[v], hi);
    }
    double diagonal = b->total_vertices > 0 ? glm_vec3_distance(lo, hi) : 0.0;
    result.position = worst / (diagonal > 1e-12 ? diagonal : 1.0);
    return result;
}

/* Keeps the larger of two errors; NAN (a failure) sticks. */
static double worse(double a, double b)
{
    return (isnan(a) || isnan(b)) ? NAN : (b > a ? b : a);
}

/* One line of the report: a clip, or the rest / bind pose. Returns the line's errors. */
static PoseError verify_clip(Renderer *renderer, Animator *animator, int clip, const VerifyBuffers *buffers)
{
    const Model *model = renderer->model;
    int times = clip >= 0 ? VERIFY_TIMES : 1;
    PoseError worst = {0.0, 0.0, 0};
    for (int i = 0; i < times; i++) {
        float t = clip >= 0 ? model->clips[clip].duration * (float)i / (float)(VERIFY_TIMES - 1) : 0.0f;
        animator_evaluate(animator, clip, t);
        renderer_prepare(renderer, animator);
        PoseError error = compare_pose(renderer, animator, buffers);
        worst.position = worse(worst.position, error.position);
        worst.normal_degrees = worse(worst.normal_degrees, error.normal_degrees);
        if (error.normals_skipped > worst.normals_skipped) worst.normals_skipped = error.normals_skipped;
        if (isnan(worst.position)) break;
    }
    char skipped[64] = "";
    if (worst.normals_skipped > 0)
        snprintf(skipped, sizeof skipped, ", %d zero-length normals skipped", worst.normals_skipped);
    if (clip >= 0)
        printf("clip %d \"%s\": max error %.3g of bbox diagonal, max normal angle %.3g deg (%d vertices, %d times%s)\n",
               clip, model->clips[clip].name, worst.position, worst.normal_degrees, buffers->total_vertices, times,
               skipped);
    else
        printf("clip %s \"(%s pose)\": max error %.3g of bbox diagonal, max normal angle %.3g deg (%d vertices, %d "
               "times%s)\n",
               clip == ANIMATOR_BIND_POSE ? "bind" : "rest", clip == ANIMATOR_BIND_POSE ? "bind" : "rest",
               worst.position, worst.normal_degrees, buffers->total_vertices, times, skipped);
    return worst;
}

int command_verify(const Options *options, const char *model_path, Model *loaded)
{
    GlSession session;
    int status = session_begin(&session, options, model_path, loaded);
    if (status != 0) return status;
    const Model *model = &session.model;
    Renderer *renderer = &session.renderer;

    int gl_limit = renderer_max_bones();
    renderer->method = options->aids.skinning;
    printf("verify %s: %s (%s), bones per mesh %d (GL limit %d%s), skinning %s, pose by the %s\n", model_path,
           session.context.renderer_name, glcontext_kind_name(&session.context), session.max_bones, gl_limit,
           session.max_bones < gl_limit ? ", --max-bones" : "", skinning_method_label(renderer->method),
           options->aids.reference ? "reference functions (--reference)" : "fast path");
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
    VerifyBuffers buffers = {
        .cpu = malloc(sizeof(vec3) * (size_t)max_vertices),
        .gpu = malloc(sizeof(vec3) * (size_t)max_vertices),
        .cpu_normals = malloc(sizeof(vec3) * (size_t)max_vertices),
        .gpu_normals = malloc(sizeof(vec3) * (size_t)max_vertices),
        .all_cpu = malloc(sizeof(vec3) * (size_t)(total_vertices > 0 ? total_vertices : 1)),
        .total_vertices = total_vertices,
    };
    bool have_animator = animator_init(&animator, model);
    if (have_animator) animator.reference = options->aids.reference;   /* --reference: the lesson's functions */
    /* Transform feedback draws too: it needs a complete framebuffer even with rasterization
     * off, and an EGL surfaceless context has none of its own. */
    Framebuffer framebuffer;
    char error[1024] = "out of memory";
    bool have_framebuffer = framebuffer_create(&framebuffer, 16, 16, 0, error, sizeof error);
    if (!buffers.cpu || !buffers.gpu || !buffers.cpu_normals || !buffers.gpu_normals || !buffers.all_cpu ||
        !have_animator || !have_framebuffer) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, have_framebuffer ? "out of memory" : error);
        status = 1;
    } else {
        framebuffer_bind(&framebuffer);
        gl_debug_check("capturing skinned vertices (transform feedback)");
        /* every clip at 8 times (the rest pose when there are none), then the bind pose */
        int pose_count = (model->clip_count > 0 ? model->clip_count : 1) + 1;
        PoseError worst = {0.0, 0.0, 0};
        int failed = 0;
        for (int p = 0; p < pose_count; p++) {
            int clip = p == pose_count - 1 ? ANIMATOR_BIND_POSE : model->clip_count > 0 ? p : ANIMATOR_REST_POSE;
            PoseError error = verify_clip(renderer, &animator, clip, &buffers);
            /* NaN fails too */
            if (!(error.position <= VERIFY_TOLERANCE) || !(error.normal_degrees <= VERIFY_NORMAL_TOLERANCE)) failed++;
            worst.position = worse(worst.position, error.position);
            worst.normal_degrees = worse(worst.normal_degrees, error.normal_degrees);
        }
        if (renderer->method == SKINNING_GPU_DQ)
            for (int m = 0; m < model->mesh_count; m++)
                if (renderer->dq_pose.status[m] != SKIN_DQ_OK)
                    printf("mesh %d \"%s\": skinned with LBS, not DQS (%s, last pose)\n", m, model->meshes[m].name,
                           skin_dq_status_text(renderer->dq_pose.status[m]));
        printf("verify %s: max error %.3g of bbox diagonal, max normal angle %.3g deg over %d poses "
               "(tolerance %g, %g deg)\n",
               failed ? "FAILED" : "passed", worst.position, worst.normal_degrees, pose_count, VERIFY_TOLERANCE,
               VERIFY_NORMAL_TOLERANCE);
        status = failed ? 1 : 0;
    }
    if (have_animator) animator_free(&animator);
    if (have_framebuffer) framebuffer_free(&framebuffer);
    free(buffers.cpu);
    free(buffers.gpu);
    free(buffers.cpu_normals);
    free(buffers.gpu_normals);
    free(buffers.all_cpu);
    return session_end(&session, status, model_path);
}
