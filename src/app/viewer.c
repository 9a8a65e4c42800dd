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
#include "scene.h"
#include "gfx/overlay.h"
#include "gfx/renderer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEWER_ORBIT_RADIANS_PER_PIXEL 0.008f
#define VIEWER_FPS_WINDOW 0.5          /* seconds the FPS figure averages over */
#define VIEWER_CLICK_PIXELS 4.0       /* a press and release closer than this is a click (joint pick) */
#define VIEWER_PICK_RADIUS 12.0f       /* joint dots within this many pixels (times the text scale) */

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
    Scene       *scene;                /* the model and the teaching aids */
    const Animator *animator;
    mat4         view, projection;     /* of the last frame drawn (joint picking) */
    double       press_x, press_y;     /* where the left button went down */
} Viewer;

static const char *const help_keys =
    "1 ... 9\nN  /  Right\nP  /  Left\nSpace\n.  /  ,\n+  /  -\n0\nleft drag\nright drag\nwheel\nF\nB\nC\n"
    "[  /  ]\nclick a dot\nI\nW\nA\nJ\nT\nK\nX\nG\nV\nH\nEsc  /  Q";
static const char *const help_actions =
    "clip 1 ... 9\nnext clip\nprevious clip\npause / play\none frame forward / back (paused)\n"
    "speed x2 / x0.5\nrestart the clip\norbit\npan (middle drag too)\nzoom\nframe the model\n"
    "skeleton on / off\nback-face culling on / off\n"
    "previous / next joint\nselect that joint\nthe joint's local and model values\n"
    "weights of the joint -> influence count -> off\njoint axes: selected -> all -> off\njoint names\n"
    "pose: clip -> bind -> rest\nskinning: GPU LBS -> CPU LBS -> GPU DQS\nwireframe\nground grid + world axes\n"
    "normals\nhide this help\nquit";

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
    case ACTION_JOINT_NEXT: scene_step_joint(viewer->scene, 1); break;
    case ACTION_JOINT_PREV: scene_step_joint(viewer->scene, -1); break;
    default:
        if (aids_apply(&viewer->scene->aids, a)) {
            viewer->playback.show_skeleton = viewer->scene->aids.show_skeleton;
            /* an aid about one joint with none selected: start at the skeleton's root */
            bool wants_joint = viewer->scene->aids.show_weights || viewer->scene->aids.axes == AXES_SELECTED ||
                               viewer->scene->aids.joint_values;
            if (wants_joint && viewer->scene->selected_joint < 0) scene_step_joint(viewer->scene, 1);
        } else {
            playback_apply(&viewer->playback, a, viewer->durations);
        }
        break;
    }
}

static void on_mouse_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) {
        double x, y;
        glfwGetCursorPos(window, &x, &y);
        if (viewer->drag == DRAG_ORBIT && fabs(x - viewer->press_x) < VIEWER_CLICK_PIXELS &&
            fabs(y - viewer->press_y) < VIEWER_CLICK_PIXELS) {
            /* a click, not a drag: select the joint dot under the cursor (framebuffer pixels) */
            int width, height, fb_width, fb_height;
            glfwGetWindowSize(window, &width, &height);
            glfwGetFramebufferSize(window, &fb_width, &fb_height);
            float sx = width > 0 ? (float)fb_width / (float)width : 1.0f;
            float sy = height > 0 ? (float)fb_height / (float)height : 1.0f;
            int joint = scene_pick_joint(viewer->scene, viewer->animator, viewer->view, viewer->projection, fb_width,
                                         fb_height, (float)x * sx, (float)y * sy,
                                         VIEWER_PICK_RADIUS * overlay_scale_for(fb_width, fb_height));
            if (joint >= 0) scene_select_joint(viewer->scene, joint);
        }
        viewer->drag = DRAG_NONE;
        return;
    }
    glfwGetCursorPos(window, &viewer->cursor_x, &viewer->cursor_y);
    viewer->press_x = viewer->cursor_x;
    viewer->press_y = viewer->cursor_y;
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
    const char *skeleton = p->show_skeleton && viewer->scene->segment_count == 0 ? "  (no skeleton)" : "";
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
    Scene scene = {0};
    float *durations = NULL;
    bool renderer_ready = false, overlay_ready = false, scene_ready = false;

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

    Viewer viewer = {0};
    viewer.window = context.window;
    viewer.model = &model;
    viewer.durations = durations;
    viewer.scene = &scene;
    viewer.animator = &animator;
    playback_init(&viewer.playback, model.clip_count, durations, clip, options->time, options->speed);
    /* The whole animation stays in view: bounds over every clip (cm-scale FBX and m-scale glTF alike). */
    if (!app_model_bounds(&model, &animator, viewer.bounds_min, viewer.bounds_max)) {
        glm_vec3_fill(viewer.bounds_min, -1.0f);
        glm_vec3_fill(viewer.bounds_max, 1.0f);
    }
    if (!scene_init(&scene, &model, &renderer, &animator, &options->aids, viewer.bounds_min, viewer.bounds_max,
                    error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        status = strncmp(error, "no joint", 8) == 0 ? 2 : 1;
        goto done;
    }
    scene_ready = true;
    scene.hud = true;
    viewer.playback.show_skeleton = scene.aids.show_skeleton;
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
        scene_evaluate(&scene, &animator, viewer.playback.clip, viewer.playback.time);

        camera_view(&viewer.camera, viewer.view);
        camera_projection(&viewer.camera, aspect, viewer.projection);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fb_width, fb_height);
        renderer_clear(0.18f, 0.2f, 0.23f);
        renderer.cull_back_faces = viewer.playback.cull_back_faces;
        scene_draw(&scene, &animator, viewer.view, viewer.projection, &light, &overlay, fb_width, fb_height);

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
    if (scene_ready) scene_free(&scene);
    if (overlay_ready) overlay_free(&overlay);
    if (renderer_ready) renderer_free(&renderer);
    animator_free(&animator);
    free(durations);
    model_free(&model);
    glcontext_destroy(&context);
    return status;
}
