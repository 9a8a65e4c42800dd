/* viewer.c — `skinview MODEL`: the interactive window.
 *
 * Start-up (once): window + GL context -> bones-per-mesh limit -> import -> animator,
 * renderer, overlay -> bounds over every clip -> camera framed on them.
 * Each frame: playback_advance(dt) -> animator_evaluate() -> renderer_draw() -> skeleton lines (B)
 * -> overlay.
 * NOTE: nothing is allocated and no name is looked up per frame; the overlay text is
 * formatted into fixed buffers.
 */
#include "gfx/gl_debug.h"
#include "bounds.h"
#include "camera.h"
#include "commands.h"
#include "glcontext.h"
#include "input.h"
#include "anim/skeleton_lines.h"
#include "gfx/lines.h"
#include "gfx/overlay.h"
#include "gfx/renderer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEWER_ORBIT_RADIANS_PER_PIXEL 0.008f
#define VIEWER_FPS_WINDOW 0.5          /* seconds the FPS figure averages over */
#define VIEWER_JOINT_POINT_SIZE 6.0f   /* skeleton overlay joints, pixels at overlay scale 1 */

/* Skeleton overlay colour (B): bright yellow-green, written as is (sRGB), over any mesh colour. */
static const float skeleton_color[4] = {0.7f, 1.0f, 0.15f, 1.0f};

typedef enum DragMode { DRAG_NONE, DRAG_ORBIT, DRAG_PAN } DragMode;

/* Everything the GLFW callbacks touch (reached through the window user pointer). */
typedef struct Viewer {
    GLFWwindow  *window;
    const Model *model;
    const float *durations;            /* [clip_count] seconds */
    Playback     playback;
    Camera       camera;
    vec3         bounds_min, bounds_max;
    DragMode     drag;
    double       cursor_x, cursor_y;
    bool         frame_requested;      /* F: re-frame at the next frame (needs the aspect) */
    int          skeleton_segments;    /* segments the skeleton overlay draws (0: no bones) */
} Viewer;

static const char *const help_keys =
    "1 ... 9\nN  /  Right\nP  /  Left\nSpace\n.  /  ,\n+  /  -\n0\nleft drag\nright drag\nwheel\nF\nB\nC\nH\nEsc  /  Q";
static const char *const help_actions =
    "clip 1 ... 9\nnext clip\nprevious clip\npause / play\none frame forward / back (paused)\n"
    "speed x2 / x0.5\nrestart the clip\norbit\npan (middle drag too)\nzoom\nframe the model\n"
    "skeleton on / off\nback-face culling on / off\nhide this help\nquit";

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) return;
    Action a = action_for_key(key, mods);
    /* Holding a key repeats only the frame steps; toggles would flicker. */
    if (action == GLFW_REPEAT && a.kind != ACTION_STEP_FORWARD && a.kind != ACTION_STEP_BACK) return;
    switch (a.kind) {
    case ACTION_QUIT: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
    case ACTION_FRAME_CAMERA: viewer->frame_requested = true; break;
    default: playback_apply(&viewer->playback, a, viewer->durations); break;
    }
}

static void on_mouse_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) {
        viewer->drag = DRAG_NONE;
        return;
    }
    glfwGetCursorPos(window, &viewer->cursor_x, &viewer->cursor_y);
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        viewer->drag = DRAG_ORBIT;
    else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE)
        viewer->drag = DRAG_PAN;
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    Viewer *viewer = glfwGetWindowUserPointer(window);
    float dx = (float)(x - viewer->cursor_x), dy = (float)(y - viewer->cursor_y);
    viewer->cursor_x = x;
    viewer->cursor_y = y;
    if (viewer->drag == DRAG_ORBIT) {
        /* drag right turns the model right (the eye goes left); drag down tips it toward you */
        camera_orbit(&viewer->camera, -dx * VIEWER_ORBIT_RADIANS_PER_PIXEL, dy * VIEWER_ORBIT_RADIANS_PER_PIXEL);
    } else if (viewer->drag == DRAG_PAN) {
        int width, height;
        glfwGetWindowSize(window, &width, &height); /* cursor positions are in window units */
        camera_pan(&viewer->camera, dx, dy, (float)height);
    }
}

static void on_scroll(GLFWwindow *window, double xoffset, double yoffset)
{
    (void)xoffset;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    camera_zoom(&viewer->camera, (float)yoffset);
}

/* "name.fbx" from "dir/name.fbx". */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The status line: clip 2/11 "Walk"  0.53 / 1.25 s  speed 1x  [paused]  60 fps */
static void format_status(const Viewer *viewer, float fps, char *out, size_t out_size)
{
    const Playback *p = &viewer->playback;
    char clip_part[SV_NAME_MAX + 64];
    if (p->clip >= 0) {
        const char *name = viewer->model->clips[p->clip].name;
        if (name[0])
            snprintf(clip_part, sizeof clip_part, "clip %d/%d \"%s\"", p->clip + 1, p->clip_count, name);
        else
            snprintf(clip_part, sizeof clip_part, "clip %d/%d", p->clip + 1, p->clip_count);
    } else {
        const char *pose = p->clip == ANIMATOR_BIND_POSE ? "bind pose" : "rest pose";
        if (p->clip_count > 0)
            snprintf(clip_part, sizeof clip_part, "%s (%d clip%s: N / 1-9)", pose, p->clip_count,
                     p->clip_count == 1 ? "" : "s");
        else
            snprintf(clip_part, sizeof clip_part, "%s (no clips)", pose);
    }
    const char *hint = p->show_help ? "" : "    H: keys";
    const char *skeleton = p->show_skeleton && viewer->skeleton_segments == 0 ? "  (no skeleton)" : "";
    if (p->clip < 0) { /* a static pose: time, speed and pause mean nothing */
        snprintf(out, out_size, "%s%s  %.0f fps%s", clip_part, skeleton, fps, hint);
        return;
    }
    snprintf(out, out_size, "%s  %.2f / %.2f s  speed %gx%s%s  %.0f fps%s", clip_part, p->time,
             playback_duration(p, viewer->durations), p->speed, p->paused ? "  [paused]" : "", skeleton, fps, hint);
}

/* Draws the status line and, when asked, the key list under it. */
static void draw_overlay(Overlay *overlay, const Viewer *viewer, float fps, int fb_width, int fb_height)
{
    static const unsigned char white[4] = {255, 255, 255, 255};
    static const unsigned char key_color[4] = {255, 214, 120, 255};
    const float margin = 10.0f;
    char status[512];
    format_status(viewer, fps, status, sizeof status);

    overlay_begin(overlay);
    float y = margin;
    y += overlay_text(overlay, margin, y, status, white) + 6.0f;
    if (viewer->playback.show_help) {
        float keys_w, keys_h, actions_w, actions_h;
        overlay_measure(help_keys, &keys_w, &keys_h);
        overlay_measure(help_actions, &actions_w, &actions_h);
        const float gap = 14.0f;
        overlay_panel(overlay, margin, y, keys_w + gap + actions_w, keys_h > actions_h ? keys_h : actions_h);
        overlay_label(overlay, margin, y, help_keys, key_color);
        overlay_label(overlay, margin + keys_w + gap, y, help_actions, white);
    }
    overlay_draw(overlay, fb_width, fb_height, overlay_scale_for(fb_width, fb_height));
}

int command_view(const Options *options, const char *model_path)
{
    char error[512];
    char title[512];
    snprintf(title, sizeof title, "skinview \xe2\x80\x94 %s", file_name(model_path)); /* U+2014 em dash */

    GlContext context = {0};
    if (!glcontext_create_window(&context, title, options->width, options->height, error, sizeof error)) {
        fprintf(stderr, "skinview: cannot open a window: %s (without a display, --info, --screenshot, "
                        "--export-pose and --verify still work)\n", error);
        return 1;
    }
    int max_bones = glcontext_bones_per_mesh(options->max_bones);
    Model model = {0};
    if (!app_load_model(model_path, max_bones, &model)) {
        glcontext_destroy(&context);
        return 1;
    }
    int status = 1;
    Animator animator = {0};
    Renderer renderer = {0};
    Overlay overlay = {0};
    Lines lines = {0};
    float *durations = NULL;
    int *line_joints = NULL;           /* skeleton overlay: segment s = parent[j] -> j, j = line_joints[s] */
    vec3 *line_endpoints = NULL;       /* [2 * segments], rewritten each frame the overlay is on */
    int skeleton_segments = 0;
    bool renderer_ready = false, overlay_ready = false, lines_ready = false;

    int clip;
    if (!app_resolve_clip(&model, options->clip, &clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        status = 2;
        goto done;
    }
    durations = calloc((size_t)(model.clip_count > 0 ? model.clip_count : 1), sizeof *durations);
    if (!durations || !animator_init(&animator, &model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        goto done;
    }
    for (int c = 0; c < model.clip_count; c++) durations[c] = model.clips[c].duration;
    /* The skeleton overlay's segments are chosen once; each frame only their endpoints move. */
    size_t joint_count = (size_t)(model.skeleton.joint_count > 0 ? model.skeleton.joint_count : 1);
    line_joints = malloc(sizeof *line_joints * joint_count);
    if (line_joints) skeleton_segments = skeleton_line_joints(&model, line_joints);
    line_endpoints = malloc(sizeof *line_endpoints * 2 * (size_t)(skeleton_segments > 0 ? skeleton_segments : 1));
    if (!line_joints || !line_endpoints) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        goto done;
    }
    if (!app_renderer_init(&renderer, &model, max_bones, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    renderer_ready = true;
    if (!overlay_init(&overlay, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    overlay_ready = true;
    if (!lines_init(&lines, skeleton_segments, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    lines_ready = true;

    Viewer viewer = {0};
    viewer.window = context.window;
    viewer.model = &model;
    viewer.durations = durations;
    viewer.skeleton_segments = skeleton_segments;
    playback_init(&viewer.playback, model.clip_count, durations, clip, options->time, options->speed);
    /* The whole animation stays in view: bounds over every clip (cm-scale FBX and m-scale glTF alike). */
    if (!app_model_bounds(&model, &animator, viewer.bounds_min, viewer.bounds_max)) {
        glm_vec3_fill(viewer.bounds_min, -1.0f);
        glm_vec3_fill(viewer.bounds_max, 1.0f);
    }
    int fb_width = 0, fb_height = 0;
    glfwGetFramebufferSize(context.window, &fb_width, &fb_height);
    camera_frame(&viewer.camera, viewer.bounds_min, viewer.bounds_max,
                 fb_height > 0 ? (float)fb_width / (float)fb_height : 1.0f, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));

    glfwSetWindowUserPointer(context.window, &viewer);
    glfwSetKeyCallback(context.window, on_key);
    glfwSetMouseButtonCallback(context.window, on_mouse_button);
    glfwSetCursorPosCallback(context.window, on_cursor);
    glfwSetScrollCallback(context.window, on_scroll);

    RenderLight light;
    render_light_default(&light);
    double last_time = glfwGetTime();
    double fps_start = last_time;
    int fps_frames = 0;
    float fps = 0.0f;
    while (!glfwWindowShouldClose(context.window)) {
        glfwPollEvents();
        double now = glfwGetTime();
        float dt = (float)(now - last_time);
        last_time = now;

        glfwGetFramebufferSize(context.window, &fb_width, &fb_height);
        if (fb_width <= 0 || fb_height <= 0) { /* minimised: nothing to draw */
            glfwWaitEventsTimeout(0.1);
            last_time = glfwGetTime();
            continue;
        }
        float aspect = (float)fb_width / (float)fb_height;
        if (viewer.frame_requested) {
            camera_frame(&viewer.camera, viewer.bounds_min, viewer.bounds_max, aspect, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
            viewer.frame_requested = false;
        }

        playback_advance(&viewer.playback, dt, durations);
        animator_evaluate(&animator, viewer.playback.clip, viewer.playback.time);

        mat4 view, projection;
        camera_view(&viewer.camera, view);
        camera_projection(&viewer.camera, aspect, projection);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fb_width, fb_height);
        renderer_clear(0.18f, 0.2f, 0.23f);
        renderer.cull_back_faces = viewer.playback.cull_back_faces;
        renderer_draw(&renderer, &animator, view, projection, &light);
        if (viewer.playback.show_skeleton && skeleton_segments > 0) {
            skeleton_lines_write(&model.skeleton, line_joints, skeleton_segments,
                                 (const mat4 *)animator.joint_model, line_endpoints);
            lines_draw(&lines, (const vec3 *)line_endpoints, skeleton_segments, view, projection, skeleton_color,
                       VIEWER_JOINT_POINT_SIZE * overlay_scale_for(fb_width, fb_height));
        }

        fps_frames++;
        if (now - fps_start >= VIEWER_FPS_WINDOW) {
            fps = (float)(fps_frames / (now - fps_start));
            fps_frames = 0;
            fps_start = now;
        }
        draw_overlay(&overlay, &viewer, fps, fb_width, fb_height);
        glfwSwapBuffers(context.window);
        gl_debug_check("drawing a frame");   /* --gl-debug without KHR_debug: poll glGetError */
    }
    status = gl_debug_error_count() > 0 ? 1 : 0;

done:
    if (context.window) {
        glfwSetWindowUserPointer(context.window, NULL);
        glfwSetKeyCallback(context.window, NULL);
        glfwSetMouseButtonCallback(context.window, NULL);
        glfwSetCursorPosCallback(context.window, NULL);
        glfwSetScrollCallback(context.window, NULL);
    }
    if (lines_ready) lines_free(&lines);
    if (overlay_ready) overlay_free(&overlay);
    if (renderer_ready) renderer_free(&renderer);
    animator_free(&animator);
    free(durations);
    free(line_joints);
    free(line_endpoints);
    model_free(&model);
    glcontext_destroy(&context);
    return status;
}
