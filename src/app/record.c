/* record.c — --record OUT: a clip rendered off-screen frame by frame, the way --screenshot renders
 * one (the viewer's first camera, the teaching aids, --show-hud), stepped by the player's own
 * time rule (playback_advance: --speed, --loop), into a video (io/video.h) or PNG frames.
 * Also the recording plan and outputs the window's Shift+S uses (record.h). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, isatty */
#include "record.h"
#include "view/framing.h"
#include "view/lighting.h"
#include "commands.h"
#include "gl_session.h"
#include "teach/teaching_aids.h"
#include "gfx/framebuffer.h"
#include "gfx/gl_debug.h"
#include "gfx/renderer.h"
#include "gfx/text.h"
#include "view/hud.h"
#include "view/timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RECORD_SAMPLES 4   /* MSAA, as --screenshot: the same pixels for the same time */
#define RECORD_GIF_MAX_BYTES (2.0 * 1073741824.0)   /* RGBA frames a GIF may hold before its palette */

static const float background[3] = {0.18f, 0.20f, 0.23f};   /* the screenshot's, sRGB */

/* ---- plan, outputs, progress (record.h) ---------------------------------------------------- */

bool record_plan(const Model *model, int clip, float speed, int loop_mode, double fps, double duration,
                 VideoFormat format, double *out_fps, int *out_frames, char *error, size_t error_size)
{
    bool is_clip = clip >= 0 && clip < model->clip_count;
    if (fps <= 0.0) {
        fps = is_clip ? timeline_frame_rate(&model->clips[clip]) : 30.0;
        double cap = format == VIDEO_FORMAT_GIF ? VIDEO_GIF_MAX_FPS : RECORD_MAX_DEFAULT_FPS;
        if (!(fps > 0.0) || fps > cap) fps = cap;
    }
    double frames;
    if (duration > 0.0) {
        frames = floor(duration * fps + 0.5);
    } else if (is_clip) {
        double speed_abs = fabs(speed) > 0.0f ? fabs(speed) : 1.0;
        double period = model->clips[clip].duration / speed_abs;   /* one loop, in seconds of the recording */
        if (loop_mode == PLAYBACK_PING_PONG) period *= 2.0;           /* there and back */
        /* loop / ping-pong: the frame at `period` is frame 0 again; once: it is the last pose */
        frames = loop_mode == PLAYBACK_ONCE ? floor(period * fps + 1e-3) + 1.0 : floor(period * fps + 0.5);
    } else {
        snprintf(error, error_size, "the %s pose does not move: give --duration SECONDS to record it",
                 clip == ANIMATOR_BIND_POSE ? "bind" : "rest");
        return false;
    }
    if (frames < 1.0) frames = 1.0;
    if (frames > RECORD_MAX_FRAMES) {
        snprintf(error, error_size, "%.0f frames is more than %d (lower --fps or --duration)", frames, RECORD_MAX_FRAMES);
        return false;
    }
    *out_fps = fps;
    *out_frames = (int)frames;
    return true;
}

bool record_output_open(RecordOutput *out, const char *path, int width, int height, double fps, char *error,
                        size_t error_size)
{
    memset(out, 0, sizeof *out);
    out->format = video_format_of_path(path);
    out->width = width;
    out->height = height;
    if (out->format == VIDEO_FORMAT_UNKNOWN) {
        snprintf(error, error_size, "--record writes .mp4, .webm, .gif or numbered PNG frames (NAME-%%04d.png)");
        return false;
    }
    if (!video_check(out->format, width, height, fps, error, error_size)) return false;
    if (out->format == VIDEO_FORMAT_PNG_FRAMES) {
        snprintf(out->pattern, sizeof out->pattern, "%s", path);
        return true;
    }
    out->video = video_open(path, out->format, width, height, fps, error, error_size);
    return out->video != NULL;
}

bool record_output_add(RecordOutput *out, const unsigned char *rgba, char *error, size_t error_size)
{
    if (out->video) {
        if (!video_add_frame(out->video, rgba, error, error_size)) return false;
    } else {
        char path[4200];
        snprintf(path, sizeof path, out->pattern, out->frames + 1);
        if (!app_write_png(path, out->width, out->height, rgba, error, error_size)) return false;
    }
    out->frames++;
    return true;
}

bool record_output_finish(RecordOutput *out, char *error, size_t error_size)
{
    if (!out->video) return true;
    bool ok = video_finish(out->video, error, error_size);
    out->video = NULL;
    return ok;
}

void record_output_abort(RecordOutput *out)
{
    video_abort(out->video);
    out->video = NULL;
    for (int i = 1; out->format == VIDEO_FORMAT_PNG_FRAMES && i <= out->frames; i++) {
        char path[4200];
        snprintf(path, sizeof path, out->pattern, i);
        unlink(path);
    }
    out->frames = 0;
}

double record_clock(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

void record_progress(const char *label, int done, int total, double started, double now)
{
    static int tty = -1;
    if (tty < 0) tty = isatty(STDERR_FILENO) ? 1 : 0;
    if (!tty || total <= 0) return;
    enum { BAR = 30 };
    char bar[BAR + 1];
    int filled = (int)((long)BAR * done / total);
    for (int i = 0; i < BAR; i++) bar[i] = i < filled ? '=' : ' ';
    bar[BAR] = '\0';
    double eta = done > 0 ? (now - started) / done * (total - done) : 0.0;
    fprintf(stderr, "\r%s [%s] %d/%d frames  ETA %.1f s ", label, bar, done, total, eta);
    if (done >= total) fputc('\n', stderr);
    fflush(stderr);
}

/* ---- --record ----------------------------------------------------------------------------- */

int command_record(const Options *options, const char *model_path, Model *loaded, int clip)
{
    const char *path = options->record_path;
    char error[1200];
    int width = options->width > 0 ? options->width : 1280;
    int height = options->height > 0 ? options->height : 720;
    VideoFormat format = video_format_of_path(path);
    double fps = 0.0;
    int frame_count = 0;
    /* bad use first, before any GL: the extension, the plan, the size the encoder takes */
    if (format == VIDEO_FORMAT_UNKNOWN) {
        fprintf(stderr, "skinview: %s: --record writes .mp4, .webm, .gif or numbered PNG frames (NAME-%%04d.png)\n", path);
        model_free(loaded);
        return 2;
    }
    if (!record_plan(loaded, clip, options->speed, options->loop_mode, options->fps_given ? options->fps : 0.0,
                     options->duration_given ? options->duration : 0.0, format, &fps, &frame_count, error,
                     sizeof error) ||
        !video_check(format, width, height, fps, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        model_free(loaded);
        return 2;
    }
    /* palettegen sees every frame before paletteuse maps the first: a GIF holds them all in memory */
    double gif_bytes = (double)width * (double)height * 4.0 * (double)frame_count;
    if (format == VIDEO_FORMAT_GIF && gif_bytes > RECORD_GIF_MAX_BYTES) {
        fprintf(stderr, "skinview: %s: a GIF keeps every frame until its palette is made: %d frames of %dx%d need "
                        "%.1f GiB (at most %.0f); use a smaller --size, --fps or --duration, or MP4 / WebM\n",
                path, frame_count, width, height, gif_bytes / 1073741824.0, RECORD_GIF_MAX_BYTES / 1073741824.0);
        model_free(loaded);
        return 2;
    }

    GlSession session;
    int status = session_begin(&session, options, model_path, loaded);
    if (status != 0) return status;
    const Model *model = &session.model;
    Animator animator;
    if (!animator_init(&animator, model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        return session_end(&session, 1, model_path);
    }
    /* the camera of --screenshot (the window's first view, or --view) */
    float aspect = (float)width / (float)height;
    Camera camera = {0};
    float hud_top, hud_bottom;
    hud_reserved_bands(width, height, clip >= 0, &hud_top, &hud_bottom);
    view_frame_clip(model, &animator, clip, aspect, true, hud_top, hud_bottom, &camera);
    if (options->view >= 0) {
        camera_set_view(&camera, (CameraView)options->view);
        view_frame_clip(model, &animator, clip, aspect, false, hud_top, hud_bottom, &camera);
    }
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, aspect, projection);
    vec3 min, max;
    if (!view_model_bounds(model, &animator, min, max)) {
        glm_vec3_fill(min, -1.0f);
        glm_vec3_fill(max, 1.0f);
    }
    TeachingAids scene;
    if (!scene_init(&scene, model, &session.renderer, &animator, &options->aids, min, max, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        animator_free(&animator);
        return session_end(&session, strncmp(error, "no joint", 8) == 0 || strncmp(error, "--", 2) == 0 ? 2 : 1, model_path);
    }
    float *durations = calloc((size_t)(model->clip_count > 0 ? model->clip_count : 1), sizeof *durations);
    unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
    static Text text;   /* the aids' text */
    bool have_text = false, have_framebuffer = false, have_output = false;
    Framebuffer framebuffer;
    RecordOutput output;
    status = 1;
    if (!durations || !pixels) {
        fprintf(stderr, "skinview: %s: out of memory for %dx%d frames\n", path, width, height);
        goto done;
    }
    for (int c = 0; c < model->clip_count; c++) durations[c] = model->clips[c].duration;
    if (!(have_text = text_init(&text, error, sizeof error)) ||
        !(have_framebuffer = framebuffer_create(&framebuffer, width, height, RECORD_SAMPLES, error, sizeof error)) ||
        !(have_output = record_output_open(&output, path, width, height, fps, error, sizeof error))) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        goto done;
    }
    /* the player's clock: frame i is what the window shows i / fps seconds after --time */
    Playback playback;
    playback_init(&playback, model->clip_count, durations, clip, options->time, options->speed);
    playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
    playback.blend_seconds = 0.0f;
    RenderLight light;
    view_light(options->flat_lighting, &light);
    char label[160];
    snprintf(label, sizeof label, "skinview: recording %.100s", path);
    double started = record_clock(), encoding = 0.0;   /* seconds in the encoder, muxer or PNG writer */
    bool ok = true;
    for (int i = 0; i < frame_count && ok; i++) {
        scene_evaluate(&scene, &animator, playback.clip, playback.time);
        framebuffer_bind(&framebuffer);
        renderer_clear(background[0], background[1], background[2]);
        scene_draw(&scene, &animator, view, projection, &light, &text, width, height);
        if (options->show_hud) ok = app_draw_hud(options, model, &playback, width, height, error, sizeof error);
        if (ok && !framebuffer_read_rgba(&framebuffer, pixels)) {
            snprintf(error, sizeof error, "cannot read the rendered image back");
            ok = false;
        }
        double encode_start = record_clock();
        ok = ok && record_output_add(&output, pixels, error, sizeof error);
        encoding += record_clock() - encode_start;
        playback_advance(&playback, (float)(1.0 / fps), durations);
        record_progress(label, i + 1, frame_count, started, record_clock());
    }
    if (ok) {   /* GIF: the palette, then every frame, are made here */
        double finishing = record_clock();
        ok = record_output_finish(&output, error, sizeof error);
        encoding += record_clock() - finishing;
    }
    if (!ok) {
        record_output_abort(&output);
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        goto done;
    }
    double seconds = record_clock() - started;
    struct stat st;
    long long bytes = format != VIDEO_FORMAT_PNG_FRAMES && stat(path, &st) == 0 ? (long long)st.st_size : -1;
    printf("skinview: recorded %s: %s, %d frames of %dx%d at %g fps (%.3f s at speed %g)", path,
           video_format_label(format), frame_count, width, height, fps, frame_count / fps, (double)options->speed);
    if (bytes >= 0) printf(", %lld bytes", bytes);
    printf(", %.1f ms a frame (%.1f of them encoding)\n", 1000.0 * seconds / frame_count, 1000.0 * encoding / frame_count);
    status = 0;
done:
    if (have_framebuffer) framebuffer_free(&framebuffer);
    if (have_text) text_free(&text);
    free(pixels);
    free(durations);
    scene_free(&scene);
    animator_free(&animator);
    return session_end(&session, status, model_path);
}
