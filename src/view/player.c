/* player.c — the window player (player.h): input, the frame loop, the HUD, for any subject. */
#include "view/player.h"
#include "view/timeline.h"
#include "gfx/gl_debug.h"
#include "gfx/renderer.h"
#include "gfx/window_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAYER_FPS_WINDOW 0.5          /* seconds the FPS figure averages over */
#define PLAYER_WHEEL_ROWS 3            /* browser rows per wheel notch */
#define PLAYER_IDLE_WAIT 3600.0        /* seconds an idle window sleeps without events */

static const float background[3] = {0.18f, 0.2f, 0.23f};

/* ---- clips ------------------------------------------------------------------------------ */

bool player_clips_changed(Player *player, const Model *model, bool *mesh_visible, const float *durations)
{
    browser_free(&player->browser);
    free(player->key_times);
    player->model = model;
    player->mesh_visible = mesh_visible;
    player->durations = durations;
    player->key_capacity = timeline_max_keys(model);
    player->key_times = calloc((size_t)(player->key_capacity > 0 ? player->key_capacity : 1), sizeof *player->key_times);
    player->key_clip = -100;
    player->key_count = 0;
    player->show_mesh_list = false;
    player->mesh_selected = 0;
    return player->key_times && browser_init(&player->browser, model->clips, model->clip_count);
}

/* Key marks and frame rate of the playing clip, collected once per clip change; the frame
 * period is the . / , step. */
void player_sync_clip(Player *player)
{
    int clip = player->playback.clip;
    if (clip != player->key_clip) {
        player->key_clip = clip;
        player->key_count = 0;
        player->frame_rate = 30.0f;
        if (clip >= 0 && clip < player->model->clip_count) {
            const Clip *c = &player->model->clips[clip];
            player->key_count = timeline_collect_keys(c, -1, player->key_times, player->key_capacity);
            player->frame_rate = timeline_frame_rate(c);
        }
    }
    player->playback.frame_step = 1.0f / player->frame_rate;
}

void player_message(Player *player, const char *text)
{
    snprintf(player->message, sizeof player->message, "%.1190s", text);
    player->message_until = glfwGetTime() + PLAYER_MESSAGE_SECONDS;
    player->dirty = true;
}

/* ---- helpers ---------------------------------------------------------------------------- */

/* Cursor position (window units) -> framebuffer pixels, where the HUD layout lives. */
static void cursor_to_pixels(GLFWwindow *window, double x, double y, float *px, float *py)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(window, &ww, &wh);
    glfwGetFramebufferSize(window, &fw, &fh);
    *px = (float)(ww > 0 ? x * fw / ww : x);
    *py = (float)(wh > 0 ? y * fh / wh : y);
}

static float current_duration(const Player *player)
{
    return playback_duration(&player->playback, player->durations);
}

static void remember_root(Player *player)
{
    const PlayerSubject *s = player->subject;
    if (!s->root_position || !s->root_position(s->self, player->follow_last)) glm_vec3_zero(player->follow_last);
}

/* S / F12: the scene as drawn (without the HUD), handed to the subject to write. */
static void take_screenshot(Player *player, int fb_width, int fb_height)
{
    unsigned char *pixels = malloc((size_t)fb_width * (size_t)fb_height * 4);
    if (!pixels) {
        player_message(player, "screenshot failed: out of memory");
    } else {
        window_target_read_rgba(fb_width, fb_height, pixels);
        player->subject->save_screenshot(player->subject->self, player, pixels, fb_width, fb_height);
    }
    free(pixels);
}

static void toggle_fullscreen(Player *player)
{
    GLFWwindow *window = player->window;
    if (glfwGetWindowMonitor(window)) {
        glfwSetWindowMonitor(window, NULL, player->windowed[0], player->windowed[1], player->windowed[2],
                             player->windowed[3], 0);
        return;
    }
    GLFWmonitor *monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode *mode = monitor ? glfwGetVideoMode(monitor) : NULL;
    if (!mode) {
        player_message(player, "fullscreen: no monitor found");
        return;
    }
    glfwGetWindowPos(window, &player->windowed[0], &player->windowed[1]);
    glfwGetWindowSize(window, &player->windowed[2], &player->windowed[3]);
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

/* ---- input ------------------------------------------------------------------------------ */

static void play_browser_selection(Player *player)
{
    int clip = browser_selected_clip(&player->browser);
    if (clip < 0) return;
    Action select = {ACTION_SELECT_CLIP, clip};
    playback_apply(&player->playback, select, player->durations);
    player_sync_clip(player);
}

/* Keys while the clip browser is open: it takes the keyboard (typing filters). */
static void browser_key(Player *player, int key, int action)
{
    ClipBrowser *browser = &player->browser;
    const Clip *clips = player->model->clips;
    int rows = player->layout.browser.visible_rows;
    switch (key) {
    case GLFW_KEY_ESCAPE:
        if (browser->query[0] && action == GLFW_PRESS) {
            browser->query[0] = '\0';
            browser_refilter(browser, clips);
            browser_highlight_clip(browser, player->playback.clip, rows);
        } else {
            browser->open = false;
        }
        break;
    case GLFW_KEY_TAB: if (action == GLFW_PRESS) browser->open = false; break;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
        play_browser_selection(player);
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
static bool mesh_list_key(Player *player, int key)
{
    int count = player->model->mesh_count;
    if (count == 0 || !player->mesh_visible) return false;
    switch (key) {
    case GLFW_KEY_UP: player->mesh_selected = player->mesh_selected > 0 ? player->mesh_selected - 1 : 0; return true;
    case GLFW_KEY_DOWN:
        player->mesh_selected = player->mesh_selected + 1 < count ? player->mesh_selected + 1 : count - 1;
        return true;
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
        player->mesh_visible[player->mesh_selected] = !player->mesh_visible[player->mesh_selected];
        return true;
    default: return false;
    }
}

static void seek_key(Player *player, bool forward)
{
    float t = forward ? timeline_next_key(player->key_times, player->key_count, player->playback.time)
                      : timeline_prev_key(player->key_times, player->key_count, player->playback.time);
    if (t >= 0.0f) playback_seek(&player->playback, t, player->durations);
}

void player_on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode;
    Player *player = glfwGetWindowUserPointer(window);
    const PlayerSubject *s = player->subject;
    if (action == GLFW_RELEASE) return;
    player->dirty = true;
    if (player->browser.open) {
        player->browser_skip_char = false;   /* another key: its character is typed */
        browser_key(player, key, action);
        return;
    }
    if (player->show_mesh_list && mesh_list_key(player, key)) return;
    Action a = keys_action(key, mods, s->key_mode);
    /* Holding a key repeats steps, key jumps and clip changes; toggles would flicker. */
    if (action == GLFW_REPEAT && !action_repeats(a.kind)) return;
    switch (a.kind) {
    case ACTION_NONE: break;
    case ACTION_QUIT:
        if (player->show_mesh_list && key == GLFW_KEY_ESCAPE) player->show_mesh_list = false;
        else glfwSetWindowShouldClose(window, GLFW_TRUE);
        break;
    case ACTION_FRAME_CAMERA: player->frame_requested = true; break;
    case ACTION_VIEW_PRESET: player->view_requested = a.arg; break;
    case ACTION_NEXT_KEY: seek_key(player, true); break;
    case ACTION_PREV_KEY: seek_key(player, false); break;
    case ACTION_TOGGLE_BROWSER:
        if (player->model->clip_count == 0) {
            player_message(player, "this file has no clips");
            break;
        }
        player->browser.open = true;
        player->playback.show_help = false;   /* the help and the browser never share the screen */
        /* GLFW reports a key, then the character it types: the opening key's (L) is not the
         * first letter of a filter (Tab types none; the next key press clears the flag) */
        player->browser_skip_char = key != GLFW_KEY_TAB;
        browser_highlight_clip(&player->browser, player->playback.clip, player->layout.browser.visible_rows);
        break;
    case ACTION_TOGGLE_MESH_LIST:
        if (player->mesh_visible) player->show_mesh_list = !player->show_mesh_list;
        if (player->show_mesh_list) player->playback.show_help = false;   /* panels never overlap */
        break;
    case ACTION_TOGGLE_HELP:
        playback_apply(&player->playback, a, player->durations);
        if (player->playback.show_help) {   /* the help and the other panels never share the screen */
            player->browser.open = false;
            player->show_mesh_list = false;
        }
        break;
    case ACTION_SCREENSHOT: if (s->save_screenshot) player->screenshot_requested = true; break;
    case ACTION_RELOAD: if (s->open) player->reload_requested = true; break;
    case ACTION_FULLSCREEN: player->fullscreen_requested = true; break;
    case ACTION_CYCLE_ROOT_MOTION:
        playback_apply(&player->playback, a, player->durations);
        remember_root(player);
        break;
    default:
        if (s->action && s->action(s->self, player, a)) break;   /* the subject's own (teaching aids) */
        playback_apply(&player->playback, a, player->durations);
        player_sync_clip(player);
        break;
    }
}

void player_on_char(GLFWwindow *window, unsigned int codepoint)
{
    Player *player = glfwGetWindowUserPointer(window);
    ClipBrowser *browser = &player->browser;
    if (!browser->open) return;
    if (player->browser_skip_char) {   /* the 'l' of the L that opened the browser */
        player->browser_skip_char = false;
        return;
    }
    browser_type(browser, player->model->clips, codepoint);
    browser_move(browser, 0, player->layout.browser.visible_rows);
    player->dirty = true;
}

static bool inside(const BrowserLayout *b, float x, float y)
{
    return x >= b->x && x < b->x + b->width && y >= b->y && y < b->y + b->height;
}

static void scrub_to(Player *player, float x)
{
    float t = timeline_time_at(&player->layout.timeline, x, current_duration(player));
    playback_seek(&player->playback, t, player->durations);
}

void player_on_mouse_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    Player *player = glfwGetWindowUserPointer(window);
    const PlayerSubject *s = player->subject;
    player->dirty = true;
    if (action == GLFW_RELEASE) {
        double cx, cy;
        glfwGetCursorPos(window, &cx, &cy);
        if (player->drag == PLAYER_DRAG_ORBIT && s->click) s->click(s->self, player, player->press_x, player->press_y, cx, cy);
        if (player->drag == PLAYER_DRAG_SUBJECT && s->grab) {
            float px, py;
            cursor_to_pixels(window, cx, cy, &px, &py);
            s->grab(s->self, player, 2, px, py);
        }
        player->drag = PLAYER_DRAG_NONE;
        return;
    }
    glfwGetCursorPos(window, &player->cursor_x, &player->cursor_y);
    player->press_x = player->cursor_x;
    player->press_y = player->cursor_y;
    float x, y;
    cursor_to_pixels(window, player->cursor_x, player->cursor_y, &x, &y);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        ClipBrowser *browser = &player->browser;
        if (browser->open && inside(&player->layout.browser, x, y)) {
            int row = browser_row_at(browser, &player->layout.browser, x, y);
            if (row >= 0) {   /* a click picks and plays */
                browser->selected = row;
                play_browser_selection(player);
            }
            return;
        }
        if (player->show_mesh_list && inside(&player->layout.mesh_list, x, y)) {
            const BrowserLayout *b = &player->layout.mesh_list;
            int first = player->mesh_selected >= b->visible_rows ? player->mesh_selected - b->visible_rows + 1 : 0;
            int row = y >= b->list_y ? first + (int)((y - b->list_y) / b->row_height) : -1;
            if (row >= 0 && row < player->model->mesh_count) {
                player->mesh_selected = row;
                player->mesh_visible[row] = !player->mesh_visible[row];
            }
            return;
        }
        if (player->layout.has_timeline && timeline_hit(&player->layout.timeline, x, y, 0.5f * player->layout.line_height)) {
            player->drag = PLAYER_DRAG_SCRUB;
            scrub_to(player, x);
            return;
        }
        if (s->grab && s->grab(s->self, player, 0, x, y)) {   /* the subject's own control (a slider) */
            player->drag = PLAYER_DRAG_SUBJECT;
            return;
        }
        player->drag = PLAYER_DRAG_ORBIT;
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
        player->drag = PLAYER_DRAG_PAN;
    }
}

void player_on_cursor(GLFWwindow *window, double x, double y)
{
    Player *player = glfwGetWindowUserPointer(window);
    float dx = (float)(x - player->cursor_x), dy = (float)(y - player->cursor_y);
    player->cursor_x = x;
    player->cursor_y = y;
    if (player->drag == PLAYER_DRAG_NONE) return;
    player->dirty = true;
    if (player->drag == PLAYER_DRAG_ORBIT) {
        /* drag right turns the model right (the eye goes left); drag down tips it toward you */
        camera_orbit(&player->camera, -dx * PLAYER_ORBIT_RADIANS_PER_PIXEL, dy * PLAYER_ORBIT_RADIANS_PER_PIXEL);
    } else if (player->drag == PLAYER_DRAG_PAN) {
        int width, height;
        glfwGetWindowSize(window, &width, &height); /* cursor positions are in window units */
        camera_pan(&player->camera, dx, dy, (float)height);
    } else if (player->drag == PLAYER_DRAG_SCRUB) {
        float px, py;
        cursor_to_pixels(window, x, y, &px, &py);
        scrub_to(player, px);
    } else if (player->drag == PLAYER_DRAG_SUBJECT && player->subject->grab) {
        float px, py;
        cursor_to_pixels(window, x, y, &px, &py);
        player->subject->grab(player->subject->self, player, 1, px, py);
    }
}

void player_on_scroll(GLFWwindow *window, double xoffset, double yoffset)
{
    (void)xoffset;
    Player *player = glfwGetWindowUserPointer(window);
    player->dirty = true;
    float x, y;
    cursor_to_pixels(window, player->cursor_x, player->cursor_y, &x, &y);
    ClipBrowser *browser = &player->browser;
    if (browser->open && inside(&player->layout.browser, x, y)) {
        int notches = yoffset > 0.0 ? -PLAYER_WHEEL_ROWS : PLAYER_WHEEL_ROWS;
        browser_scroll(browser, notches, player->layout.browser.visible_rows);
        return;
    }
    camera_zoom(&player->camera, (float)yoffset);
}

void player_on_drop(GLFWwindow *window, int count, const char **paths)
{
    Player *player = glfwGetWindowUserPointer(window);
    if (count < 1 || !player->subject->open) return;
    snprintf(player->drop_path, sizeof player->drop_path, "%s", paths[0]);
    player->drop_adds_clips = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                              glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    player->dirty = true;
}

static void on_refresh(GLFWwindow *window)
{
    Player *player = glfwGetWindowUserPointer(window);
    player->dirty = true;
}

static void set_callbacks(GLFWwindow *window, Player *player)
{
    glfwSetWindowUserPointer(window, player);
    glfwSetKeyCallback(window, player ? player_on_key : NULL);
    glfwSetCharCallback(window, player ? player_on_char : NULL);
    glfwSetMouseButtonCallback(window, player ? player_on_mouse_button : NULL);
    glfwSetCursorPosCallback(window, player ? player_on_cursor : NULL);
    glfwSetScrollCallback(window, player ? player_on_scroll : NULL);
    glfwSetDropCallback(window, player ? player_on_drop : NULL);
    glfwSetWindowRefreshCallback(window, player ? on_refresh : NULL);
}

/* ---- the frame -------------------------------------------------------------------------- */

bool player_init(Player *player, GLFWwindow *window, const PlayerSubject *subject, const Model *model,
                 bool *mesh_visible, const float *durations, int clip, float time, float speed)
{
    memset(player, 0, sizeof *player);
    player->window = window;
    player->subject = subject;
    player->view_requested = -1;
    char error[512];
    if (!player_clips_changed(player, model, mesh_visible, durations)) {
        fprintf(stderr, "skinview: %s: out of memory\n", subject->title);
        player_free(player);
        return false;
    }
    if (!text_init(&player->text, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", subject->title, error);
        player_free(player);
        return false;
    }
    player->text_ready = true;
    playback_init(&player->playback, model->clip_count, durations, clip, time, speed);
    player_sync_clip(player);
    player->frame_requested = true;   /* the first frame fits the clip, as F does */
    glfwSetWindowTitle(window, subject->title);
    set_callbacks(window, player);
    return true;
}

void player_free(Player *player)
{
    if (player->window) set_callbacks(player->window, NULL);
    if (player->text_ready) text_free(&player->text);
    browser_free(&player->browser);
    free(player->key_times);
    memset(player, 0, sizeof *player);
}

/* True when the next frame differs from this one without any input. */
static bool player_animating(const Player *player, double now)
{
    const Playback *p = &player->playback;
    bool playing = !p->paused && p->clip >= 0 && current_duration(player) > 0.0f;
    return playing || p->fading || player->drag != PLAYER_DRAG_NONE || player->dirty || now < player->message_until;
}

void player_draw(Player *player, int fb_width, int fb_height)
{
    const PlayerSubject *s = player->subject;
    float aspect = (float)fb_width / (float)fb_height;
    float hud_top, hud_bottom;
    hud_reserved_bands(fb_width, fb_height, player->playback.clip >= 0, &hud_top, &hud_bottom);
    if (player->frame_requested) {   /* F: the clip's bounds, from the front */
        s->frame(s->self, player->playback.clip, aspect, true, hud_top, hud_bottom, &player->camera);
        player->frame_requested = false;
        remember_root(player);
    }
    if (player->view_requested >= 0) {
        camera_set_view(&player->camera, (CameraView)player->view_requested);
        s->frame(s->self, player->playback.clip, aspect, false, hud_top, hud_bottom, &player->camera);
        player->view_requested = -1;
        remember_root(player);
    }

    const Playback *p = &player->playback;
    s->evaluate(s->self, p);
    vec3 root;
    if (p->root_motion == ROOT_MOTION_FOLLOW && s->root_position && s->root_position(s->self, root)) {
        /* the camera moves with the root, on the ground plane */
        player->camera.target[0] += root[0] - player->follow_last[0];
        player->camera.target[2] += root[2] - player->follow_last[2];
        glm_vec3_copy(root, player->follow_last);
    }

    camera_view(&player->camera, player->view);
    camera_projection(&player->camera, aspect, player->projection);
    window_target_bind(fb_width, fb_height);
    renderer_clear(background[0], background[1], background[2]);
    if (player->screenshot_requested) {   /* the subject as drawn, without its text or the HUD */
        s->draw(s->self, player->view, player->projection, fb_width, fb_height, false);
        player->screenshot_requested = false;
        take_screenshot(player, fb_width, fb_height);
        renderer_clear(background[0], background[1], background[2]);
    }
    s->draw(s->self, player->view, player->projection, fb_width, fb_height, true);

    HudInfo info = {0};
    info.model = player->model;
    info.playback = p;
    info.browser = &player->browser;
    info.key_times = player->key_times;
    info.key_count = player->key_count;
    info.frame_rate = player->frame_rate;
    info.fps = player->fps;
    info.message = glfwGetTime() < player->message_until ? player->message : NULL;
    info.show_mesh_list = player->show_mesh_list;
    info.mesh_visible = player->mesh_visible;
    info.mesh_selected = player->mesh_selected;
    info.key_mode = s->key_mode;
    if (s->status) s->status(s->self, player, &info);
    hud_layout(fb_width, fb_height, &info, &player->layout);
    if (player->browser.open) browser_move(&player->browser, 0, player->layout.browser.visible_rows);
    hud_draw(&player->text, &info, &player->layout, fb_width, fb_height);
}

/* One turn of the loop after the events: the subject's tick, reload / drop / fullscreen
 * requests, playback by dt seconds, the frame. False when the window is minimised (nothing drawn). */
bool player_frame(Player *player, float dt)
{
    const PlayerSubject *s = player->subject;
    GLFWwindow *window = player->window;
    if (s->tick) s->tick(s->self, player, glfwGetTime());
    if (player->reload_requested) {
        player->reload_requested = false;
        s->open(s->self, player, NULL, true);
    }
    if (player->drop_path[0]) {
        char path[4096];
        snprintf(path, sizeof path, "%s", player->drop_path);
        player->drop_path[0] = '\0';
        s->open(s->self, player, path, false);
    }
    if (player->fullscreen_requested) {
        player->fullscreen_requested = false;
        toggle_fullscreen(player);
    }
    int fb_width, fb_height;
    glfwGetFramebufferSize(window, &fb_width, &fb_height);
    if (fb_width <= 0 || fb_height <= 0) return false;
    if (player->drag != PLAYER_DRAG_SCRUB) playback_advance(&player->playback, dt, player->durations);
    player_sync_clip(player);
    player->dirty = false;
    player_draw(player, fb_width, fb_height);
    glfwSwapBuffers(window);
    gl_debug_check("drawing a frame");   /* --gl-debug without KHR_debug: poll glGetError */
    return true;
}

int player_drive(Player *player, const PlayerDriver *driver)
{
    return driver ? driver->run(player, driver->context) : player_run(player);
}

int player_run(Player *player)
{
    const PlayerSubject *s = player->subject;
    GLFWwindow *window = player->window;
    double last_time = glfwGetTime();
    double fps_start = last_time;
    int fps_frames = 0;
    player->dirty = true;
    while (!glfwWindowShouldClose(window)) {
        double now = glfwGetTime();
        if (player_animating(player, now)) {
            glfwPollEvents();
        } else {
            /* Idle: nothing moves, so sleep until an event (or the subject's next tick, or the
             * end of a notice); time spent waiting is not animation time. */
            glfwWaitEventsTimeout(s->wake_seconds > 0.0 ? s->wake_seconds : PLAYER_IDLE_WAIT);
            last_time = glfwGetTime();
            fps_start = last_time;
            fps_frames = 0;
        }
        now = glfwGetTime();
        float dt = (float)(now - last_time);
        last_time = now;
        fps_frames++;
        if (now - fps_start >= PLAYER_FPS_WINDOW) {
            player->fps = (float)(fps_frames / (now - fps_start));
            fps_frames = 0;
            fps_start = now;
        }
        if (!player_frame(player, dt)) { /* minimised: nothing to draw */
            glfwWaitEventsTimeout(0.1);
            last_time = glfwGetTime();
        }
    }
    return gl_debug_error_count();
}
