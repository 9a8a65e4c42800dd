/* viewer.c — `skinview MODEL`: the interactive window.
 *
 * Start-up: main() has imported the model and checked --clip (errors before any window);
 * here: window + GL context -> bones-per-mesh limit (re-import only if a mesh needs more) ->
 * the loaded file (animator, renderer, teaching aids (scene.h), clip browser, key marks) ->
 * the camera framed on the current clip, facing the character's front.
 * Each frame: events (waiting for them while nothing moves) -> playback_advance(dt) ->
 * animator (cross-fade while one runs) -> scene_draw() (model + aids) -> HUD (hud.c).
 * NOTE: nothing is allocated and no name is looked up per frame; a clip change collects its
 * key times into a buffer sized once per model.
 */
#include "gfx/gl_debug.h"
#include "bounds.h"
#include "view/camera.h"
#include "commands.h"
#include "glcontext.h"
#include "view/hud.h"
#include "view/keys.h"
#include "scene.h"
#include "gfx/overlay.h"
#include "gfx/renderer.h"
#include "gfx/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VIEWER_ORBIT_RADIANS_PER_PIXEL 0.008f
#define VIEWER_FPS_WINDOW 0.5          /* seconds the FPS figure averages over */
#define VIEWER_MESSAGE_SECONDS 4.0     /* how long a notice stays on screen */
#define VIEWER_WATCH_SECONDS 0.5       /* --watch: how often the file's time stamp is checked */
#define VIEWER_WHEEL_ROWS 3            /* browser rows per wheel notch */

static const float background[3] = {0.18f, 0.2f, 0.23f};

typedef enum DragMode { DRAG_NONE, DRAG_ORBIT, DRAG_PAN, DRAG_SCRUB } DragMode;

/* Everything one loaded file needs; replaced as a whole on reload / drop. */
typedef struct Loaded {
    Model     model;
    Animator  animator;
    Renderer  renderer;
    Scene     aids;                /* the model and the teaching aids (scene.h) */
    bool      animator_ready, renderer_ready, aids_ready;
    vec3      bounds_min, bounds_max; /* every clip's reach (app_model_bounds): the ground grid */
    float    *durations;           /* [clip_count] seconds */
    float    *key_times;           /* [timeline_max_keys] the current clip's key marks */
    int       key_capacity, key_count, key_clip;
    float     frame_rate;          /* of key_clip */
    bool     *mesh_visible;        /* [mesh_count] U list */
    ClipBrowser browser;
} Loaded;

/* Everything the GLFW callbacks touch (reached through the window user pointer). */
typedef struct Viewer {
    GLFWwindow    *window;
    const Options *options;
    char           model_path[4096];
    int            max_bones;
    Loaded        *scene;             /* on the heap: the renderer and animator point into it */
    Overlay        overlay;           /* the teaching aids' text (scene_draw) */
    mat4           view, projection;  /* of the last frame drawn (joint picking) */
    double         press_x, press_y;  /* where the left button went down */
    Text           text;
    Playback       playback;
    Camera         camera;
    vec3           follow_last;       /* root position last frame (root motion "follow") */
    DragMode       drag;
    double         cursor_x, cursor_y;
    bool           frame_requested;   /* F: re-frame at the next frame (needs the aspect) */
    int            view_requested;    /* a CameraView, or -1 */
    bool           screenshot_requested, reload_requested, fullscreen_requested;
    char           drop_path[4096];   /* a file dropped on the window, opened next frame */
    bool           show_mesh_list;
    int            mesh_selected;
    HudLayout      layout;            /* last frame's, for hit-testing */
    char           message[1200];
    double         message_until;
    time_t         watched_mtime;
    double         next_watch;
    int            windowed[4];       /* x, y, width, height before fullscreen */
    bool           dirty;             /* something changed: draw even if nothing plays */
} Viewer;

/* ---- the scene -------------------------------------------------------------- */

static void loaded_free(Loaded *scene)
{
    if (scene->aids_ready) scene_free(&scene->aids);
    if (scene->renderer_ready) renderer_free(&scene->renderer);
    if (scene->animator_ready) animator_free(&scene->animator);
    browser_free(&scene->browser);
    free(scene->durations);
    free(scene->key_times);
    free(scene->mesh_visible);
    model_free(&scene->model);
    memset(scene, 0, sizeof *scene);
}

/* Builds everything around `model` (taken over, freed on failure) with the teaching aids of
 * `aids`. False after writing why (a --joint the file lacks: "no joint ..."). */
static bool loaded_open(Loaded *scene, Model *model, int max_bones, const AidOptions *aids, char *error,
                       size_t error_size)
{
    memset(scene, 0, sizeof *scene);
    scene->model = *model;
    memset(model, 0, sizeof *model);
    Model *m = &scene->model;
    size_t clips = (size_t)(m->clip_count > 0 ? m->clip_count : 1);
    scene->key_capacity = timeline_max_keys(m);
    scene->durations = calloc(clips, sizeof *scene->durations);
    scene->key_times = calloc((size_t)(scene->key_capacity > 0 ? scene->key_capacity : 1), sizeof *scene->key_times);
    scene->mesh_visible = malloc(sizeof *scene->mesh_visible * (size_t)(m->mesh_count > 0 ? m->mesh_count : 1));
    scene->key_clip = -100;
    bool ok = scene->durations && scene->key_times && scene->mesh_visible &&
              browser_init(&scene->browser, m->clips, m->clip_count) &&
              (scene->animator_ready = animator_init(&scene->animator, m));
    if (!ok) {
        snprintf(error, error_size, "out of memory");
        loaded_free(scene);
        return false;
    }
    for (int c = 0; c < m->clip_count; c++) scene->durations[c] = m->clips[c].duration;
    for (int i = 0; i < m->mesh_count; i++) scene->mesh_visible[i] = true;
    if (!app_renderer_init(&scene->renderer, m, max_bones, error, error_size)) {
        loaded_free(scene);
        return false;
    }
    scene->renderer_ready = true;
    scene->renderer.mesh_visible = scene->mesh_visible;
    if (!app_model_bounds(m, &scene->animator, scene->bounds_min, scene->bounds_max)) {
        glm_vec3_fill(scene->bounds_min, -1.0f);
        glm_vec3_fill(scene->bounds_max, 1.0f);
    }
    if (!scene_init(&scene->aids, m, &scene->renderer, &scene->animator, aids, scene->bounds_min, scene->bounds_max,
                    error, error_size)) {
        loaded_free(scene);
        return false;
    }
    scene->aids_ready = true;
    scene->aids.hud = true;
    return true;
}

/* Key marks and frame rate of the playing clip, collected once per clip change. */
static void loaded_track_clip(Loaded *scene, int clip)
{
    if (clip == scene->key_clip) return;
    scene->key_clip = clip;
    scene->key_count = 0;
    scene->frame_rate = 30.0f;
    if (clip < 0 || clip >= scene->model.clip_count) return;
    const Clip *c = &scene->model.clips[clip];
    scene->key_count = timeline_collect_keys(c, -1, scene->key_times, scene->key_capacity);
    scene->frame_rate = timeline_frame_rate(c);
}

/* ---- helpers ---------------------------------------------------------------- */

static void viewer_message(Viewer *viewer, const char *text)
{
    snprintf(viewer->message, sizeof viewer->message, "%.1190s", text);
    viewer->message_until = glfwGetTime() + VIEWER_MESSAGE_SECONDS;
    viewer->dirty = true;
}

/* "name.fbx" from "dir/name.fbx". */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void set_title(Viewer *viewer)
{
    char title[512];
    snprintf(title, sizeof title, "skinview \xe2\x80\x94 %.400s", file_name(viewer->model_path)); /* U+2014 em dash */
    glfwSetWindowTitle(viewer->window, title);
}

static time_t file_mtime(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

/* Cursor position (window units) -> framebuffer pixels, where the HUD layout lives. */
static void cursor_to_pixels(GLFWwindow *window, double x, double y, float *px, float *py)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(window, &ww, &wh);
    glfwGetFramebufferSize(window, &fw, &fh);
    *px = (float)(ww > 0 ? x * fw / ww : x);
    *py = (float)(wh > 0 ? y * fh / wh : y);
}

static float current_duration(const Viewer *viewer)
{
    return playback_duration(&viewer->playback, viewer->scene->durations);
}

/* The frame period of the playing clip, for . and , */
static void sync_frame_step(Viewer *viewer)
{
    loaded_track_clip(viewer->scene, viewer->playback.clip);
    viewer->playback.frame_step = 1.0f / viewer->scene->frame_rate;
}

/* Opens `path` in place of the current file (reload, drop). On failure the old one stays
 * and the reason is shown on screen. */
static void open_file(Viewer *viewer, const char *path, bool keep_clip)
{
    Model model;
    /* import errors are printed on stderr by app_load_model; the screen gets a short notice */
    if (!app_load_model(path, viewer->max_bones, &model)) {
        char text[1200];
        snprintf(text, sizeof text, "cannot open %.400s (see the terminal); still showing %.400s", file_name(path),
                 file_name(viewer->model_path));
        viewer_message(viewer, text);
        return;
    }
    char error[512];
    char old_clip_name[SV_NAME_MAX] = "";
    int old_clip = viewer->playback.clip;
    float old_time = viewer->playback.time;
    if (old_clip >= 0 && old_clip < viewer->scene->model.clip_count)
        snprintf(old_clip_name, sizeof old_clip_name, "%s", viewer->scene->model.clips[old_clip].name);
    Loaded *fresh = malloc(sizeof *fresh);
    AidOptions aids = viewer->scene->aids.aids;
    aids.joint = NULL;   /* the joint the aids follow is looked up again only when it still exists */
    if (!fresh || !loaded_open(fresh, &model, viewer->max_bones, &aids, error, sizeof error)) {
        if (!fresh) model_free(&model);
        free(fresh);
        char text[1200];
        snprintf(text, sizeof text, "cannot open %.400s: %.400s", file_name(path), fresh ? error : "out of memory");
        viewer_message(viewer, text);
        return;
    }
    int selected = viewer->scene->aids.selected_joint;
    char selected_name[SV_NAME_MAX] = "";
    if (selected >= 0) snprintf(selected_name, sizeof selected_name, "%s", viewer->scene->model.skeleton.names[selected]);
    loaded_free(viewer->scene);
    free(viewer->scene);
    viewer->scene = fresh;
    for (int j = 0; selected_name[0] && j < fresh->model.skeleton.joint_count; j++)   /* the same joint, by name */
        if (strcmp(fresh->model.skeleton.names[j], selected_name) == 0) scene_select_joint(&fresh->aids, j);
    if (path != viewer->model_path) snprintf(viewer->model_path, sizeof viewer->model_path, "%s", path);
    set_title(viewer);
    const Model *m = &viewer->scene->model;
    int clip = m->clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
    float time = 0.0f;
    if (keep_clip) {   /* reload: the same clip (by name) at the same time */
        int by_name = old_clip_name[0] ? model_find_clip(m, old_clip_name) : -1;
        if (by_name >= 0) {
            clip = by_name;
            time = old_time;
        } else if (old_clip < 0) {
            clip = old_clip;
        }
    }
    Playback kept = viewer->playback;
    playback_init(&viewer->playback, m->clip_count, viewer->scene->durations, clip, time, kept.speed);
    viewer->playback.loop_mode = kept.loop_mode;
    viewer->playback.root_motion = kept.root_motion;
    viewer->playback.blend_seconds = kept.blend_seconds;
    viewer->playback.paused = kept.paused;
    viewer->playback.show_help = kept.show_help;
    viewer->playback.cull_back_faces = kept.cull_back_faces;
    viewer->show_mesh_list = false;
    viewer->mesh_selected = 0;
    sync_frame_step(viewer);
    if (!keep_clip) {
        viewer->camera.fov_y = 0.0f;   /* a new file: a fresh first view */
        viewer->frame_requested = true;
    }
    viewer->watched_mtime = file_mtime(viewer->model_path);
    char text[1200];
    snprintf(text, sizeof text, "%s %.1000s", keep_clip ? "reloaded" : "opened", file_name(viewer->model_path));
    printf("skinview: %s\n", text);   /* on the terminal too, as a screenshot's "saved" line */
    fflush(stdout);
    viewer_message(viewer, text);
}

/* S / F12: the scene as drawn (without the HUD), next to the model, numbered. */
static void take_screenshot(Viewer *viewer, int fb_width, int fb_height)
{
    char path[4200], text[4400];
    unsigned char *pixels = malloc((size_t)fb_width * (size_t)fb_height * 4);
    unsigned char *row = malloc((size_t)fb_width * 4);
    bool have_path = app_next_screenshot_path(viewer->model_path, path, sizeof path);
    if (!pixels || !row || !have_path) {
        snprintf(text, sizeof text, "screenshot failed: %s", !have_path ? "no free file name" : "out of memory");
    } else {
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        size_t stride = (size_t)fb_width * 4;
        for (int y = 0; y < fb_height / 2; y++) {   /* GL rows go bottom-up, PNG rows top-down */
            memcpy(row, pixels + (size_t)y * stride, stride);
            memcpy(pixels + (size_t)y * stride, pixels + (size_t)(fb_height - 1 - y) * stride, stride);
            memcpy(pixels + (size_t)(fb_height - 1 - y) * stride, row, stride);
        }
        for (size_t i = 3; i < stride * (size_t)fb_height; i += 4) pixels[i] = 255;
        char error[512];
        if (app_write_png(path, fb_width, fb_height, pixels, error, sizeof error))
            snprintf(text, sizeof text, "saved %s", path);
        else
            snprintf(text, sizeof text, "cannot write %.3000s: %.300s", path, error);
    }
    printf("skinview: %s\n", text);
    fflush(stdout);
    viewer_message(viewer, text);
    free(pixels);
    free(row);
}

static void toggle_fullscreen(Viewer *viewer)
{
    GLFWwindow *window = viewer->window;
    if (glfwGetWindowMonitor(window)) {
        glfwSetWindowMonitor(window, NULL, viewer->windowed[0], viewer->windowed[1], viewer->windowed[2],
                             viewer->windowed[3], 0);
        return;
    }
    GLFWmonitor *monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode *mode = monitor ? glfwGetVideoMode(monitor) : NULL;
    if (!mode) {
        viewer_message(viewer, "fullscreen: no monitor found");
        return;
    }
    glfwGetWindowPos(window, &viewer->windowed[0], &viewer->windowed[1]);
    glfwGetWindowSize(window, &viewer->windowed[2], &viewer->windowed[3]);
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

/* ---- input ------------------------------------------------------------------- */

static void play_browser_selection(Viewer *viewer)
{
    int clip = browser_selected_clip(&viewer->scene->browser);
    if (clip < 0) return;
    Action select = {ACTION_SELECT_CLIP, clip};
    playback_apply(&viewer->playback, select, viewer->scene->durations);
    sync_frame_step(viewer);
}

/* Keys while the clip browser is open: it takes the keyboard (typing filters). */
static void browser_key(Viewer *viewer, int key, int action)
{
    ClipBrowser *browser = &viewer->scene->browser;
    const Clip *clips = viewer->scene->model.clips;
    int rows = viewer->layout.browser.visible_rows;
    switch (key) {
    case GLFW_KEY_ESCAPE:
        if (browser->query[0] && action == GLFW_PRESS) {
            browser->query[0] = '\0';
            browser_refilter(browser, clips);
            browser_highlight_clip(browser, viewer->playback.clip, rows);
        } else {
            browser->open = false;
        }
        break;
    case GLFW_KEY_TAB: if (action == GLFW_PRESS) browser->open = false; break;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
        play_browser_selection(viewer);
        browser->open = false;
        break;
    case GLFW_KEY_UP: browser_move(browser, -1, rows); break;
    case GLFW_KEY_DOWN: browser_move(browser, 1, rows); break;
    case GLFW_KEY_PAGE_UP: browser_move(browser, -rows, rows); break;
    case GLFW_KEY_PAGE_DOWN: browser_move(browser, rows, rows); break;
    case GLFW_KEY_HOME: browser_move(browser, -browser->row_count, rows); break;
    case GLFW_KEY_END: browser_move(browser, browser->row_count, rows); break;
    case GLFW_KEY_BACKSPACE:
        browser_backspace(browser, clips);
        browser_move(browser, 0, rows);
        break;
    default: break;   /* letters arrive through the character callback */
    }
}

/* Keys while the mesh list is open: Up / Down / Enter; the rest falls through. */
static bool mesh_list_key(Viewer *viewer, int key)
{
    int count = viewer->scene->model.mesh_count;
    if (count == 0) return false;
    switch (key) {
    case GLFW_KEY_UP: viewer->mesh_selected = viewer->mesh_selected > 0 ? viewer->mesh_selected - 1 : 0; return true;
    case GLFW_KEY_DOWN: viewer->mesh_selected = viewer->mesh_selected + 1 < count ? viewer->mesh_selected + 1 : count - 1; return true;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
        viewer->scene->mesh_visible[viewer->mesh_selected] = !viewer->scene->mesh_visible[viewer->mesh_selected];
        return true;
    default: return false;
    }
}

static void seek_key(Viewer *viewer, bool forward)
{
    const Loaded *scene = viewer->scene;
    float t = forward ? timeline_next_key(scene->key_times, scene->key_count, viewer->playback.time)
                      : timeline_prev_key(scene->key_times, scene->key_count, viewer->playback.time);
    if (t >= 0.0f) playback_seek(&viewer->playback, t, scene->durations);
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) return;
    viewer->dirty = true;
    if (viewer->scene->browser.open) {
        browser_key(viewer, key, action);
        return;
    }
    if (viewer->show_mesh_list && mesh_list_key(viewer, key)) return;
    Action a = action_for_key(key, mods);
    /* Holding a key repeats steps, key jumps and clip changes; toggles would flicker. */
    if (action == GLFW_REPEAT && !action_repeats(a.kind)) return;
    switch (a.kind) {
    case ACTION_QUIT:
        if (viewer->show_mesh_list && key == GLFW_KEY_ESCAPE) viewer->show_mesh_list = false;
        else glfwSetWindowShouldClose(window, GLFW_TRUE);
        break;
    case ACTION_FRAME_CAMERA: viewer->frame_requested = true; break;
    case ACTION_VIEW_PRESET: viewer->view_requested = a.arg; break;
    case ACTION_NEXT_KEY: seek_key(viewer, true); break;
    case ACTION_PREV_KEY: seek_key(viewer, false); break;
    case ACTION_TOGGLE_BROWSER:
        if (viewer->scene->model.clip_count == 0) {
            viewer_message(viewer, "this file has no clips");
            break;
        }
        viewer->scene->browser.open = true;
        browser_highlight_clip(&viewer->scene->browser, viewer->playback.clip, viewer->layout.browser.visible_rows);
        break;
    case ACTION_TOGGLE_MESH_LIST: viewer->show_mesh_list = !viewer->show_mesh_list; break;
    case ACTION_SCREENSHOT: viewer->screenshot_requested = true; break;
    case ACTION_RELOAD: viewer->reload_requested = true; break;
    case ACTION_FULLSCREEN: viewer->fullscreen_requested = true; break;
    case ACTION_CYCLE_ROOT_MOTION:
        playback_apply(&viewer->playback, a, viewer->scene->durations);
        animator_root_position(&viewer->scene->animator, viewer->follow_last);
        break;
    case ACTION_JOINT_NEXT: scene_step_joint(&viewer->scene->aids, 1); break;
    case ACTION_JOINT_PREV: scene_step_joint(&viewer->scene->aids, -1); break;
    default: {
        Scene *aids = &viewer->scene->aids;
        if (aids_apply(&aids->aids, a)) {   /* a teaching aid (scene.h) */
            /* an aid about one joint with none selected: start at the skeleton's root */
            bool wants_joint = aids->aids.show_weights || aids->aids.axes == AXES_SELECTED || aids->aids.joint_values;
            if (wants_joint && aids->selected_joint < 0) scene_step_joint(aids, 1);
        } else {
            playback_apply(&viewer->playback, a, viewer->scene->durations);
            sync_frame_step(viewer);
        }
        break;
    }
    }
}

static void on_char(GLFWwindow *window, unsigned int codepoint)
{
    Viewer *viewer = glfwGetWindowUserPointer(window);
    ClipBrowser *browser = &viewer->scene->browser;
    if (!browser->open) return;
    browser_type(browser, viewer->scene->model.clips, codepoint);
    browser_move(browser, 0, viewer->layout.browser.visible_rows);
    viewer->dirty = true;
}

static bool inside(const BrowserLayout *b, float x, float y)
{
    return x >= b->x && x < b->x + b->width && y >= b->y && y < b->y + b->height;
}

static void scrub_to(Viewer *viewer, float x)
{
    float t = timeline_time_at(&viewer->layout.timeline, x, current_duration(viewer));
    playback_seek(&viewer->playback, t, viewer->scene->durations);
}

static void on_mouse_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    viewer->dirty = true;
    if (action == GLFW_RELEASE) {
        double cx, cy;
        glfwGetCursorPos(window, &cx, &cy);
        if (viewer->drag == DRAG_ORBIT) {
            /* a click, not a drag, selects the joint dot under the cursor (tested in test_joint_click) */
            int ww, wh, fw, fh;
            glfwGetWindowSize(window, &ww, &wh);
            glfwGetFramebufferSize(window, &fw, &fh);
            scene_click_joint(&viewer->scene->aids, &viewer->scene->animator, viewer->view, viewer->projection, ww,
                              wh, fw, fh, viewer->press_x, viewer->press_y, cx, cy);
        }
        viewer->drag = DRAG_NONE;
        return;
    }
    glfwGetCursorPos(window, &viewer->cursor_x, &viewer->cursor_y);
    viewer->press_x = viewer->cursor_x;
    viewer->press_y = viewer->cursor_y;
    float x, y;
    cursor_to_pixels(window, viewer->cursor_x, viewer->cursor_y, &x, &y);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        ClipBrowser *browser = &viewer->scene->browser;
        if (browser->open && inside(&viewer->layout.browser, x, y)) {
            int row = browser_row_at(browser, &viewer->layout.browser, x, y);
            if (row >= 0) {   /* a click picks and plays */
                browser->selected = row;
                play_browser_selection(viewer);
            }
            return;
        }
        if (viewer->show_mesh_list && inside(&viewer->layout.mesh_list, x, y)) {
            const BrowserLayout *b = &viewer->layout.mesh_list;
            int first = viewer->mesh_selected >= b->visible_rows ? viewer->mesh_selected - b->visible_rows + 1 : 0;
            int row = y >= b->list_y ? first + (int)((y - b->list_y) / b->row_height) : -1;
            if (row >= 0 && row < viewer->scene->model.mesh_count) {
                viewer->mesh_selected = row;
                viewer->scene->mesh_visible[row] = !viewer->scene->mesh_visible[row];
            }
            return;
        }
        if (viewer->layout.has_timeline && timeline_hit(&viewer->layout.timeline, x, y, 0.5f * viewer->layout.line_height)) {
            viewer->drag = DRAG_SCRUB;
            scrub_to(viewer, x);
            return;
        }
        viewer->drag = DRAG_ORBIT;
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
        viewer->drag = DRAG_PAN;
    }
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    Viewer *viewer = glfwGetWindowUserPointer(window);
    float dx = (float)(x - viewer->cursor_x), dy = (float)(y - viewer->cursor_y);
    viewer->cursor_x = x;
    viewer->cursor_y = y;
    if (viewer->drag == DRAG_NONE) return;
    viewer->dirty = true;
    if (viewer->drag == DRAG_ORBIT) {
        /* drag right turns the model right (the eye goes left); drag down tips it toward you */
        camera_orbit(&viewer->camera, -dx * VIEWER_ORBIT_RADIANS_PER_PIXEL, dy * VIEWER_ORBIT_RADIANS_PER_PIXEL);
    } else if (viewer->drag == DRAG_PAN) {
        int width, height;
        glfwGetWindowSize(window, &width, &height); /* cursor positions are in window units */
        camera_pan(&viewer->camera, dx, dy, (float)height);
    } else if (viewer->drag == DRAG_SCRUB) {
        float px, py;
        cursor_to_pixels(window, x, y, &px, &py);
        scrub_to(viewer, px);
    }
}

static void on_scroll(GLFWwindow *window, double xoffset, double yoffset)
{
    (void)xoffset;
    Viewer *viewer = glfwGetWindowUserPointer(window);
    viewer->dirty = true;
    float x, y;
    cursor_to_pixels(window, viewer->cursor_x, viewer->cursor_y, &x, &y);
    ClipBrowser *browser = &viewer->scene->browser;
    if (browser->open && inside(&viewer->layout.browser, x, y)) {
        int notches = yoffset > 0.0 ? -VIEWER_WHEEL_ROWS : VIEWER_WHEEL_ROWS;
        browser_scroll(browser, notches, viewer->layout.browser.visible_rows);
        return;
    }
    camera_zoom(&viewer->camera, (float)yoffset);
}

static void on_drop(GLFWwindow *window, int count, const char **paths)
{
    Viewer *viewer = glfwGetWindowUserPointer(window);
    if (count < 1) return;
    snprintf(viewer->drop_path, sizeof viewer->drop_path, "%s", paths[0]);
    viewer->dirty = true;
}

static void on_refresh(GLFWwindow *window)
{
    Viewer *viewer = glfwGetWindowUserPointer(window);
    viewer->dirty = true;
}

/* ---- the frame -------------------------------------------------------------------- */

/* True when the next frame differs from this one without any input. */
static bool viewer_animating(const Viewer *viewer, double now)
{
    const Playback *p = &viewer->playback;
    bool playing = !p->paused && p->clip >= 0 && current_duration(viewer) > 0.0f;
    return playing || p->fading || viewer->drag != DRAG_NONE || viewer->dirty || now < viewer->message_until;
}

static void draw_frame(Viewer *viewer, int fb_width, int fb_height, float fps)
{
    Loaded *scene = viewer->scene;
    float aspect = (float)fb_width / (float)fb_height;
    float hud_top, hud_bottom;
    hud_reserved_bands(fb_width, fb_height, viewer->playback.clip >= 0, &hud_top, &hud_bottom);
    if (viewer->frame_requested) {   /* F: the clip's bounds, from the front */
        app_frame_clip(&scene->model, &scene->animator, viewer->playback.clip, aspect, true, hud_top, hud_bottom,
                       &viewer->camera);
        viewer->frame_requested = false;
        animator_root_position(&scene->animator, viewer->follow_last);
    }
    if (viewer->view_requested >= 0) {
        camera_set_view(&viewer->camera, (CameraView)viewer->view_requested);
        app_frame_clip(&scene->model, &scene->animator, viewer->playback.clip, aspect, false, hud_top, hud_bottom,
                       &viewer->camera);
        viewer->view_requested = -1;
        animator_root_position(&scene->animator, viewer->follow_last);
    }

    const Playback *p = &viewer->playback;
    scene->animator.in_place = p->root_motion == ROOT_MOTION_IN_PLACE;
    if (p->fading) {   /* the cross-fade, then the skinning method's CPU work (scene_evaluate does both otherwise) */
        animator_evaluate_blend(&scene->animator, p->fade_clip, p->fade_time, p->clip, p->time, playback_fade_weight(p));
        scene->renderer.method = scene->aids.aids.skinning;
        renderer_prepare(&scene->renderer, &scene->animator);
    } else {
        scene_evaluate(&scene->aids, &scene->animator, p->clip, p->time);
    }
    if (p->root_motion == ROOT_MOTION_FOLLOW) {   /* the camera moves with the root, on the ground plane */
        vec3 root;
        animator_root_position(&scene->animator, root);
        viewer->camera.target[0] += root[0] - viewer->follow_last[0];
        viewer->camera.target[2] += root[2] - viewer->follow_last[2];
        glm_vec3_copy(root, viewer->follow_last);
    }

    camera_view(&viewer->camera, viewer->view);
    camera_projection(&viewer->camera, aspect, viewer->projection);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_width, fb_height);
    renderer_clear(background[0], background[1], background[2]);
    scene->renderer.cull_back_faces = p->cull_back_faces;
    RenderLight light;
    render_light_default(&light);
    if (viewer->screenshot_requested) {   /* the model as drawn, without the aids' text or the HUD */
        scene->aids.hud = false;
        scene_draw(&scene->aids, &scene->animator, viewer->view, viewer->projection, &light, &viewer->overlay, fb_width,
                   fb_height);
        viewer->screenshot_requested = false;
        take_screenshot(viewer, fb_width, fb_height);
        scene->aids.hud = true;
        renderer_clear(background[0], background[1], background[2]);
    }
    scene_draw(&scene->aids, &scene->animator, viewer->view, viewer->projection, &light, &viewer->overlay, fb_width,
               fb_height);

    HudInfo info = {0};
    info.model = &scene->model;
    info.playback = p;
    info.browser = &scene->browser;
    info.key_times = scene->key_times;
    info.key_count = scene->key_count;
    info.frame_rate = scene->frame_rate;
    info.fps = fps;
    info.message = glfwGetTime() < viewer->message_until ? viewer->message : NULL;
    info.show_mesh_list = viewer->show_mesh_list;
    info.mesh_visible = scene->mesh_visible;
    info.mesh_selected = viewer->mesh_selected;
    info.no_skeleton = scene->aids.aids.show_skeleton && scene->aids.segment_count == 0;
    hud_layout(fb_width, fb_height, &info, &viewer->layout);
    if (scene->browser.open) browser_move(&scene->browser, 0, viewer->layout.browser.visible_rows);
    hud_draw(&viewer->text, &info, &viewer->layout, fb_width, fb_height);
}

int command_view(const Options *options, const char *model_path, Model *loaded, int clip)
{
    static Viewer viewer;   /* large (paths, layout); one per process */
    memset(&viewer, 0, sizeof viewer);
    viewer.options = options;
    viewer.view_requested = -1;
    snprintf(viewer.model_path, sizeof viewer.model_path, "%s", model_path);
    char error[512];
    char title[512];
    snprintf(title, sizeof title, "skinview \xe2\x80\x94 %s", file_name(model_path)); /* U+2014 em dash */

    GlContext context = {0};
    if (!glcontext_create_window(&context, title, options->width, options->height, error, sizeof error)) {
        fprintf(stderr, "skinview: cannot open a window: %s (without a display, --info, --screenshot, "
                        "--export-pose and --verify still work)\n", error);
        model_free(loaded);
        return 1;
    }
    viewer.window = context.window;
    viewer.max_bones = glcontext_bones_per_mesh(options->max_bones);
    int status = 1;
    bool text_ready = false, overlay_ready = false;
    if (!app_fit_bone_limit(model_path, viewer.max_bones, loaded)) goto done;
    viewer.scene = malloc(sizeof *viewer.scene);
    if (!viewer.scene || !loaded_open(viewer.scene, loaded, viewer.max_bones, &options->aids, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, viewer.scene ? error : "out of memory");
        if (viewer.scene && strncmp(error, "no joint", 8) == 0) status = 2;
        free(viewer.scene);
        viewer.scene = NULL;
        goto done;
    }
    if (!overlay_init(&viewer.overlay, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    overlay_ready = true;
    if (!text_init(&viewer.text, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    text_ready = true;

    int fb_width = 0, fb_height = 0;
    {   /* the first file. A reload or a drop replaces (frees) viewer.scene: later code reads it
         * from there, never through a copy of the pointer, hence this block */
        Loaded *scene = viewer.scene;
        playback_init(&viewer.playback, scene->model.clip_count, scene->durations, clip, options->time,
                      options->speed);
        viewer.playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
        viewer.playback.blend_seconds = options->blend_seconds;
        sync_frame_step(&viewer);
        glfwGetFramebufferSize(context.window, &fb_width, &fb_height);
        float hud_top, hud_bottom;
        hud_reserved_bands(fb_width, fb_height, viewer.playback.clip >= 0, &hud_top, &hud_bottom);
        app_frame_clip(&scene->model, &scene->animator, viewer.playback.clip,
                       fb_height > 0 ? (float)fb_width / (float)fb_height : 1.0f, true, hud_top, hud_bottom,
                       &viewer.camera);
        animator_root_position(&scene->animator, viewer.follow_last);
    }
    viewer.watched_mtime = file_mtime(model_path);

    glfwSetWindowUserPointer(context.window, &viewer);
    glfwSetKeyCallback(context.window, on_key);
    glfwSetCharCallback(context.window, on_char);
    glfwSetMouseButtonCallback(context.window, on_mouse_button);
    glfwSetCursorPosCallback(context.window, on_cursor);
    glfwSetScrollCallback(context.window, on_scroll);
    glfwSetDropCallback(context.window, on_drop);
    glfwSetWindowRefreshCallback(context.window, on_refresh);

    double last_time = glfwGetTime();
    double fps_start = last_time;
    int fps_frames = 0;
    float fps = 0.0f;
    viewer.dirty = true;
    while (!glfwWindowShouldClose(context.window)) {
        double now = glfwGetTime();
        if (viewer_animating(&viewer, now)) {
            glfwPollEvents();
        } else {
            /* Idle: nothing moves, so sleep until an event (or the next --watch check / the
             * end of a notice); time spent waiting is not animation time. */
            double wait = options->watch ? VIEWER_WATCH_SECONDS : 3600.0;
            glfwWaitEventsTimeout(wait);
            last_time = glfwGetTime();
            fps_start = last_time;
            fps_frames = 0;
        }
        now = glfwGetTime();
        float dt = (float)(now - last_time);
        last_time = now;

        if (options->watch && now >= viewer.next_watch) {
            viewer.next_watch = now + VIEWER_WATCH_SECONDS;
            time_t mtime = file_mtime(viewer.model_path);
            if (mtime != 0 && mtime != viewer.watched_mtime) {
                viewer.reload_requested = true;
                viewer.watched_mtime = mtime;   /* a file that fails is tried again when it changes again */
            }
        }
        if (viewer.reload_requested) {
            viewer.reload_requested = false;
            open_file(&viewer, viewer.model_path, true);
        }
        if (viewer.drop_path[0]) {
            char path[4096];
            snprintf(path, sizeof path, "%s", viewer.drop_path);
            viewer.drop_path[0] = '\0';
            open_file(&viewer, path, false);
        }
        if (viewer.fullscreen_requested) {
            viewer.fullscreen_requested = false;
            toggle_fullscreen(&viewer);
        }

        glfwGetFramebufferSize(context.window, &fb_width, &fb_height);
        if (fb_width <= 0 || fb_height <= 0) { /* minimised: nothing to draw */
            glfwWaitEventsTimeout(0.1);
            last_time = glfwGetTime();
            continue;
        }
        if (viewer.drag != DRAG_SCRUB) playback_advance(&viewer.playback, dt, viewer.scene->durations);
        sync_frame_step(&viewer);
        viewer.dirty = false;

        fps_frames++;
        if (now - fps_start >= VIEWER_FPS_WINDOW) {
            fps = (float)(fps_frames / (now - fps_start));
            fps_frames = 0;
            fps_start = now;
        }
        draw_frame(&viewer, fb_width, fb_height, fps);
        glfwSwapBuffers(context.window);
        gl_debug_check("drawing a frame");   /* --gl-debug without KHR_debug: poll glGetError */
    }
    status = gl_debug_error_count() > 0 ? 1 : 0;

done:
    if (context.window) {
        glfwSetWindowUserPointer(context.window, NULL);
        glfwSetKeyCallback(context.window, NULL);
        glfwSetCharCallback(context.window, NULL);
        glfwSetMouseButtonCallback(context.window, NULL);
        glfwSetCursorPosCallback(context.window, NULL);
        glfwSetScrollCallback(context.window, NULL);
        glfwSetDropCallback(context.window, NULL);
        glfwSetWindowRefreshCallback(context.window, NULL);
    }
    if (text_ready) text_free(&viewer.text);
    if (overlay_ready) overlay_free(&viewer.overlay);
    if (viewer.scene) loaded_free(viewer.scene);
    free(viewer.scene);
    model_free(loaded);
    glcontext_destroy(&context);
    return status;
}
