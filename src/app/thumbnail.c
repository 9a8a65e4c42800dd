/* thumbnail.c — `skinview --thumbnail IN OUT SIZE`: a file manager's picture of a model.
 *
 * What a thumbnailer needs (share/thumbnailers/skinview.thumbnailer runs this for every model
 * a file manager shows):
 *   - a SIZE x SIZE PNG, transparent background, no HUD, seen from the viewer's three-quarter
 *     camera (camera_frame, same field of view), cropped so the model fills 90% of the square;
 *   - a good frame: the middle of clip 0 (the clip the viewer opens with) for an animated
 *     model, the bind pose for a model without clips (--clip / --time choose another);
 *   - no window: an EGL surfaceless context unless SKINVIEW_GL says otherwise (file managers
 *     run thumbnailers in the background, often sandboxed without a display);
 *   - the viewer's look: --lighting, --environment FILE.hdr, --shadow (the ground shadow, on the
 *     transparent background: black of the shadow's opacity);
 *   - a time budget for the whole file (--thumbnail-budget, default 5 s), then exit 1 with
 *     nothing written; the import guard (load.c) for files that crash or hang Assimp;
 *   - an atomic write: the PNG is encoded in memory, the budget disarmed, then written to a
 *     temporary file next to OUT and renamed over it (io/atomic_file.h), so OUT is never a
 *     partial file.
 */
#include "view/framing.h"
#include "view/lighting.h"
#include "teach/teaching_aids.h"           /* GroundGrid, ground_grid_fit */
#include "view/camera.h"
#include "commands.h"
#include "gl_session.h"
#include "gfx/framebuffer.h"
#include "gfx/gl_debug.h"
#include "gfx/renderer.h"
#include "io/atomic_file.h"
#include "io/import_guard.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stb_image_write.h"   /* implemented in png_write.c */

#define THUMBNAIL_SAMPLES 4
#define THUMBNAIL_FILL 0.9f   /* the model's longer side spans 90% of the square */

/* ---- the time budget ----------------------------------------------------------------
 * A POSIX timer on CLOCK_MONOTONIC sends THUMBNAIL_SIGNAL when the budget is spent (SIGALRM
 * stays the import guard's). Whichever comes first, the timer or deadline_disarm(), wins an
 * atomic exchange: a late timer does nothing; a disarm that lost waits for the handler's
 * _exit(1), so nothing is written after the budget ran out. */
#define THUMBNAIL_SIGNAL SIGRTMIN

enum { DEADLINE_ARMED = 1, DEADLINE_EXPIRED = 2, DEADLINE_DISARMED = 3 };
static atomic_int deadline_state;
static timer_t deadline_timer;
static char deadline_message[1400];
static size_t deadline_message_length;

static void deadline_handler(int signal_number)
{
    (void)signal_number;
    if (atomic_exchange(&deadline_state, DEADLINE_EXPIRED) != DEADLINE_ARMED) return;
    ssize_t ignored = write(import_guard_error_fd(), deadline_message, deadline_message_length);   /* fd 2 may be captured */
    (void)ignored;
    _exit(1);
}

/* Arms the budget; false (with errno) if the timer cannot be made. */
static bool deadline_arm(double seconds, const char *path)
{
    int length = snprintf(deadline_message, sizeof deadline_message,
                          "skinview: %.1200s: no thumbnail within the %g s budget (--thumbnail-budget)\n", path,
                          seconds);
    deadline_message_length = length < (int)sizeof deadline_message ? (size_t)length : sizeof deadline_message - 1;
    struct sigaction action = {0};
    action.sa_handler = deadline_handler;
    sigemptyset(&action.sa_mask);
    if (sigaction(THUMBNAIL_SIGNAL, &action, NULL) != 0) return false;
    struct sigevent event = {0};
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = THUMBNAIL_SIGNAL;
    if (timer_create(CLOCK_MONOTONIC, &event, &deadline_timer) != 0) return false;
    struct itimerspec when = {0};
    when.it_value.tv_sec = (time_t)seconds;
    when.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
    atomic_store(&deadline_state, DEADLINE_ARMED);
    if (timer_settime(deadline_timer, 0, &when, NULL) != 0) {
        atomic_store(&deadline_state, DEADLINE_DISARMED);
        timer_delete(deadline_timer);
        return false;
    }
    return true;
}

/* Stops the budget. If it already ran out, never returns (the handler is exiting). */
static void deadline_disarm(void)
{
    if (atomic_exchange(&deadline_state, DEADLINE_DISARMED) == DEADLINE_EXPIRED)
        for (;;) pause();
    timer_delete(deadline_timer);
}

/* ---- PNG in memory, then an atomic write -------------------------------------------- */

typedef struct MemoryPng {
    unsigned char *bytes;
    size_t         length, capacity;
    bool           failed;
} MemoryPng;

static void append_png_bytes(void *user, void *data, int size)
{
    MemoryPng *png = user;
    if (png->failed) return;
    if (png->length + (size_t)size > png->capacity) {
        size_t capacity = png->capacity ? png->capacity : 1 << 16;
        while (capacity < png->length + (size_t)size) capacity *= 2;
        unsigned char *bigger = realloc(png->bytes, capacity);
        if (!bigger) {
            png->failed = true;
            return;
        }
        png->bytes = bigger;
        png->capacity = capacity;
    }
    memcpy(png->bytes + png->length, data, (size_t)size);
    png->length += (size_t)size;
}

/* Writes bytes through a temporary file renamed onto `path` (io/atomic_file.h). False with a
 * one-line cause; no file is left behind. */
static bool write_file_atomically(const char *path, const unsigned char *bytes, size_t length, char *error,
                                  size_t error_size)
{
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    if (fwrite(bytes, 1, length, out.file) != length) {
        snprintf(error, error_size, "cannot write: %s", strerror(errno ? errno : EIO));
        atomic_file_abort(&out);
        return false;
    }
    return atomic_file_commit(&out, error, error_size);
}

/* ---- the picture ---------------------------------------------------------------------- */

/* Antialiased edges over a transparent clear come out premultiplied (colour * coverage);
 * PNG stores straight alpha: colour = premultiplied / alpha. */
static void unpremultiply(unsigned char *pixels, size_t pixel_count)
{
    for (size_t i = 0; i < pixel_count; i++) {
        unsigned char *p = pixels + 4 * i;
        if (p[3] == 0 || p[3] == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned value = (p[c] * 255u + p[3] / 2u) / p[3];
            p[c] = (unsigned char)(value > 255u ? 255u : value);
        }
    }
}

/* ... then cropped to the model: camera_frame fits the corners of the model's box, and a
 * figure seen from three-quarters fills far less of the picture than its box. The image is
 * scaled and shifted in the image plane (a zoom, the eye stays where the viewer puts it) so
 * the model's projected vertices span THUMBNAIL_FILL of the square's half-size, centred:
 *   ndc' = s * (ndc - c),  s = THUMBNAIL_FILL / max(half width, half height), c = box centre,
 * applied to clip space as  x' = s * (x - c.x * w),  y' = s * (y - c.y * w). */
static void crop_to_model(const Model *model, const Animator *animator, const mat4 view, mat4 projection)
{
    mat4 view_projection;
    glm_mat4_mul(projection, (vec4 *)view, view_projection);
    vec2 min, max;
    if (!view_pose_screen_bounds(model, animator, view_projection, min, max)) return;
    float half = fmaxf(max[0] - min[0], max[1] - min[1]) * 0.5f;
    if (!(half > 1e-6f)) return;
    float s = THUMBNAIL_FILL / half;
    float cx = 0.5f * (min[0] + max[0]), cy = 0.5f * (min[1] + max[1]);
    mat4 crop = GLM_MAT4_IDENTITY_INIT;
    crop[0][0] = s;
    crop[1][1] = s;
    crop[3][0] = -s * cx;
    crop[3][1] = -s * cy;
    glm_mat4_mul(crop, projection, projection);
}

/* Renders clip `clip` at `time` into pixels (SIZE x SIZE RGBA, rows top to bottom), with the
 * viewer's ground shadow when `shadow` (on its ground grid's square: at the bind pose's lowest point,
 * over the background, which stays transparent elsewhere). */
static bool render_thumbnail(GlSession *session, int clip, float time, int size, bool flat_lighting, bool shadow,
                             unsigned char *pixels, char *error, size_t error_size)
{
    const Model *model = &session->model;
    Animator animator;
    if (!animator_init(&animator, model)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    GroundGrid ground = {0};
    vec3 bind_min, bind_max, min, max;
    if (shadow) {   /* the grid as the viewer fits it: the bind pose's height, this pose's extent */
        animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
        view_pose_bounds(model, &animator, bind_min, bind_max);
    }
    animator_evaluate(&animator, clip, time);

    /* the viewer's camera (direction, field of view, perspective) framed on this pose ... */
    view_pose_bounds(model, &animator, min, max);
    if (shadow) ground_grid_fit(bind_min, bind_max, min, max, &ground);
    Camera camera = {0};
    camera_frame(&camera, min, max, 1.0f, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, 1.0f, projection);
    crop_to_model(model, &animator, view, projection);

    Framebuffer framebuffer;
    bool ok = framebuffer_create(&framebuffer, size, size, THUMBNAIL_SAMPLES, error, error_size);
    if (ok) {
        RenderLight light;
        view_light(flat_lighting, &light);
        framebuffer_bind(&framebuffer);
        renderer_clear_transparent();
        gl_debug_check("drawing the thumbnail");
        if (shadow)
            renderer_draw_shadow(&session->renderer, &animator, view, projection, &light, ground.y, ground.center,
                                 ground.spacing * (float)ground.half_lines);
        renderer_draw(&session->renderer, &animator, view, projection, &light);
        gl_debug_check("reading the thumbnail back");
        ok = framebuffer_read_rgba(&framebuffer, pixels);
        if (!ok) snprintf(error, error_size, "cannot read the rendered image back");
        framebuffer_free(&framebuffer);
    }
    animator_free(&animator);
    if (ok) unpremultiply(pixels, (size_t)size * (size_t)size);
    return ok;
}

int command_thumbnail(const Options *options)
{
    const char *in = options->thumbnail_in, *out = options->thumbnail_out;
    int size = options->thumbnail_size;
    if (!deadline_arm(options->thumbnail_budget, in)) {
        fprintf(stderr, "skinview: %s: cannot start the thumbnail timer: %s\n", in, strerror(errno));
        return 1;
    }
    /* no window: a thumbnailer runs in the background (SKINVIEW_GL set by the user wins) */
    setenv("SKINVIEW_GL", "egl", 0);

    GlSession session;
    int status = session_begin(&session, options, in, NULL);
    if (status != 0) {
        deadline_disarm();
        return status;
    }
    char error[1024] = "";
    /* the frame: the middle of clip 0 (or of --clip), the bind pose of a model without clips;
     * --time picks another moment */
    const Model *model = &session.model;
    int clip = model->clip_count > 0 ? 0 : ANIMATOR_BIND_POSE;
    if (options->clip && !app_resolve_clip(model, options->clip, &clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", in, error);
        session_end(&session, 2, in);
        deadline_disarm();
        return 2;
    }
    float time = options->time_set ? options->time : clip >= 0 ? 0.5f * model->clips[clip].duration : 0.0f;
    unsigned char *pixels = malloc((size_t)size * (size_t)size * 4);
    MemoryPng png = {0};
    status = 1;
    if (!pixels) {
        fprintf(stderr, "skinview: %s: out of memory\n", in);
    } else if (options->aids.environment &&
               !view_environment_apply(&session.renderer, options->aids.environment, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
    } else if (!render_thumbnail(&session, clip, time, size, options->flat_lighting, options->aids.shadow, pixels, error,
                                 sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", in, error);
    } else if (!stbi_write_png_to_func(append_png_bytes, &png, size, size, 4, pixels, size * 4) || png.failed) {
        fprintf(stderr, "skinview: %s: cannot encode the PNG (out of memory)\n", out);
    } else {
        status = 0;
    }
    free(pixels);
    status = session_end(&session, status, in);
    /* nothing reaches the disk before this point, nothing after it when the budget ran out */
    deadline_disarm();
    if (status == 0 && !write_file_atomically(out, png.bytes, png.length, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", out, error);
        status = 1;
    }
    free(png.bytes);
    return status;
}
