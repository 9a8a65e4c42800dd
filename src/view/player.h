/* player.h — the window player both viewers share: playback, the orbit camera, input dispatch
 * from the one key table (keys.h), the frame loop (it sleeps while nothing changes), the HUD and
 * help (hud.h), the clip browser, the timeline, S screenshots — for a *subject*: something that
 * can be posed at a playback state, drawn, and framed.
 *
 * Two subjects exist: the skinned model (app/viewer.c: Animator + Renderer + teaching aids) and a
 * VAT bake (app/vat_play.c: instances + VAT renderer). The player knows neither; it calls the
 * subject's functions below, in this order each frame:
 *   events -> subject.tick (reload, watch) -> playback_advance(dt) -> framing requests
 *   (subject.frame) -> subject.evaluate(playback) -> root-motion follow (subject.root_position)
 *   -> subject.draw -> HUD (subject.status adds its lines).
 * Nothing is allocated per frame; a clip change collects the clip's key times (timeline marks)
 * into a buffer sized once per model (player_clips_changed).
 */
#ifndef SKINVIEW_PLAYER_H
#define SKINVIEW_PLAYER_H

#include "view/browser.h"
#include "view/camera.h"
#include "view/hud.h"
#include "view/keys.h"
#include "gfx/text.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdbool.h>

#define PLAYER_ORBIT_RADIANS_PER_PIXEL 0.008f
#define PLAYER_MESSAGE_SECONDS 4.0     /* how long a notice stays on screen */

struct Player;

/* What the player plays. `self` is handed back to every function; the ones marked optional may
 * be NULL. */
typedef struct PlayerSubject {
    void        *self;
    unsigned     key_mode;      /* KeyMode: which rows of the key table apply (and the help shows) */
    const char  *title;         /* the window title */
    /* Poses the subject at the playback state (clip, time, a running cross-fade). */
    void (*evaluate)(void *self, const Playback *playback);
    /* Draws the subject into the bound framebuffer (width x height); `overlays`: its own text and
     * panels too (false for an S screenshot, which shows the scene as drawn without the HUD). */
    void (*draw)(void *self, const mat4 view, const mat4 projection, int width, int height, bool overlays);
    /* Fits `camera` to `clip` in the band between hud_top and hud_bottom (fractions of the
     * height); front: also turn to the clip's front (F, the first view), else keep the angle. */
    void (*frame)(void *self, int clip, float aspect, bool front, float hud_top, float hud_bottom, Camera *camera);
    /* Optional: the root joint's position (root motion "follow"); false: none. */
    bool (*root_position)(void *self, vec3 root);
    /* Optional: an action the player does not handle itself (teaching aids, joint selection...);
     * true when it was used. */
    bool (*action)(void *self, struct Player *player, Action action);
    /* Optional: a left click (released where it was pressed, window units). */
    void (*click)(void *self, struct Player *player, double press_x, double press_y, double x, double y);
    /* Optional: a left press the subject takes for itself (a slider): phase 0 press (return true to
     * take the drag), 1 the cursor moved while held, 2 released; x, y in framebuffer pixels, y down. */
    bool (*grab)(void *self, struct Player *player, int phase, float x, float y);
    /* Optional: fills the subject's part of the HUD (extra lines, no_skeleton...). */
    void (*status)(void *self, const struct Player *player, HudInfo *info);
    /* Optional: once per loop turn, before the frame (reload requests, --watch). */
    void (*tick)(void *self, struct Player *player, double now);
    /* Optional: open a file (a drop: path; Ctrl+R: path NULL, the current file, keep_clip). A drop with
     * Shift held sets player->drop_adds_clips first: the subject adds the file's clips instead. */
    void (*open)(void *self, struct Player *player, const char *path, bool keep_clip);
    /* Optional: an S screenshot's pixels (RGBA, rows top-down); writes them, sets a message. */
    void (*save_screenshot)(void *self, struct Player *player, const unsigned char *rgba, int width, int height);
    /* Seconds between tick calls while idle (--watch); 0: wake only on events. */
    double wake_seconds;
} PlayerSubject;

typedef enum PlayerDrag { PLAYER_DRAG_NONE, PLAYER_DRAG_ORBIT, PLAYER_DRAG_PAN, PLAYER_DRAG_SCRUB, PLAYER_DRAG_SUBJECT } PlayerDrag;

typedef struct Player {
    GLFWwindow          *window;
    const PlayerSubject *subject;
    const Model         *model;          /* the clip list (names, durations, keys) and meshes (U list) */
    bool                *mesh_visible;   /* [mesh_count] the U list; NULL: no mesh list */
    const float         *durations;      /* [clip_count] seconds */
    Playback             playback;
    Camera               camera;
    Text                 text;
    bool                 text_ready;
    ClipBrowser          browser;
    bool                 browser_skip_char; /* the character of the key that opened the browser (L) is not typed */
    HudLayout            layout;          /* last frame's, for hit-testing */
    float               *key_times;       /* [key_capacity] the current clip's key marks */
    int                  key_capacity, key_count, key_clip;
    float                frame_rate;      /* of key_clip */
    mat4                 view, projection; /* of the last frame drawn (picking) */
    PlayerDrag           drag;
    double               cursor_x, cursor_y, press_x, press_y;
    vec3                 follow_last;     /* root position last frame (root motion "follow") */
    bool                 frame_requested; /* F: re-frame at the next frame (needs the aspect) */
    int                  view_requested;  /* a CameraView, or -1 */
    bool                 screenshot_requested, reload_requested, fullscreen_requested;
    char                 drop_path[4096]; /* a file dropped on the window, opened next frame */
    bool                 drop_adds_clips; /* Shift was held over the drop: its clips go onto the current model */
    bool                 show_mesh_list;
    int                  mesh_selected;
    char                 message[1200];
    double               message_until;
    int                  windowed[4];     /* x, y, width, height before fullscreen */
    bool                 dirty;           /* something changed: draw even if nothing plays */
    float                fps;
} Player;

/* Sets up the player on an open window for `subject` playing `model`'s clips (see
 * player_clips_changed) from `clip` at `time` with `speed`. False after printing why. */
bool player_init(Player *player, GLFWwindow *window, const PlayerSubject *subject, const Model *model,
                 bool *mesh_visible, const float *durations, int clip, float time, float speed);
void player_free(Player *player);

/* The subject's clips or meshes changed (a reload): the browser and key-mark buffer follow. */
bool player_clips_changed(Player *player, const Model *model, bool *mesh_visible, const float *durations);

/* Runs the window until it closes; returns the number of GL errors reported (--gl-debug). */
int player_run(Player *player);

/* What runs a window once it is set up: a user (player_run) unless a program passes its own driver
 * (the monkey test, tests/skinview_monkey.c, drives the player through the calls below). run()
 * returns, as player_run does, the number of problems found (GL errors, failed checks). */
typedef struct PlayerDriver {
    int  (*run)(Player *player, void *context);
    void *context;
} PlayerDriver;

/* driver->run(player, driver->context), or player_run(player) when driver is NULL. */
int player_drive(Player *player, const PlayerDriver *driver);

/* One turn of the loop after the events (tick, reload / drop, playback by dt, the frame);
 * false when minimised (nothing drawn). player_run calls it; so does a driver. */
bool player_frame(Player *player, float dt);

/* Draws one frame into the window's back buffer (framing requests, the subject posed and drawn,
 * the HUD), without showing it. */
void player_draw(Player *player, int fb_width, int fb_height);

/* The window's input handlers (GLFW callbacks), public so that input can be synthesised
 * (a driver: tests/skinview_monkey.c). */
void player_on_key(GLFWwindow *window, int key, int scancode, int action, int mods);
void player_on_char(GLFWwindow *window, unsigned int codepoint);
void player_on_mouse_button(GLFWwindow *window, int button, int action, int mods);
void player_on_cursor(GLFWwindow *window, double x, double y);
void player_on_scroll(GLFWwindow *window, double xoffset, double yoffset);
void player_on_drop(GLFWwindow *window, int count, const char **paths);

/* A short notice on screen (and nothing else). */
void player_message(Player *player, const char *text);

/* The frame period of the playing clip, for . and , (after a clip change). */
void player_sync_clip(Player *player);

#endif
