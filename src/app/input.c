/* input.c — key -> action table and the playback state machine (no window, no GL). */
#include "input.h"
#include "camera.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> /* key constants only */

#include "cli.h"
#include "anim/animator.h"   /* ANIMATOR_BIND_POSE, ANIMATOR_REST_POSE */

#include <math.h>
#include <string.h>

/* Blender's numeric keypad: 1 front, 3 right side, 7 top; Ctrl (or Shift) the opposite. */
static Action view_preset_for_key(int glfw_key, int mods)
{
    Action action = {ACTION_NONE, 0};
    bool opposite = (mods & (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT)) != 0;
    if (glfw_key == GLFW_KEY_KP_1) action.clip = opposite ? CAMERA_VIEW_BACK : CAMERA_VIEW_FRONT;
    else if (glfw_key == GLFW_KEY_KP_3) action.clip = opposite ? CAMERA_VIEW_LEFT : CAMERA_VIEW_RIGHT;
    else if (glfw_key == GLFW_KEY_KP_7) action.clip = opposite ? CAMERA_VIEW_BOTTOM : CAMERA_VIEW_TOP;
    else return action;
    action.kind = ACTION_VIEW_PRESET;
    return action;
}

Action action_for_key(int glfw_key, int mods)
{
    Action action = {ACTION_NONE, 0};
    if (glfw_key == GLFW_KEY_ESCAPE) {
        action.kind = ACTION_QUIT;
        return action;
    }
    Action preset = view_preset_for_key(glfw_key, mods);
    if (preset.kind != ACTION_NONE && !(mods & (GLFW_MOD_ALT | GLFW_MOD_SUPER))) return preset;
    if (glfw_key == GLFW_KEY_R && (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) == GLFW_MOD_CONTROL) {
        action.kind = ACTION_RELOAD;
        return action;
    }
    /* NOTE: other Ctrl/Alt/Super chords belong to the window system, not to us. */
    if (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) return action;
    bool shift = (mods & GLFW_MOD_SHIFT) != 0;

    if (glfw_key >= GLFW_KEY_1 && glfw_key <= GLFW_KEY_9) {
        action.kind = ACTION_SELECT_CLIP;
        action.clip = glfw_key - GLFW_KEY_1;
        return action;
    }
    switch (glfw_key) {
    case GLFW_KEY_N:
    case GLFW_KEY_RIGHT: action.kind = ACTION_NEXT_CLIP; break;
    case GLFW_KEY_P:
    case GLFW_KEY_LEFT: action.kind = ACTION_PREV_CLIP; break;
    case GLFW_KEY_SPACE: action.kind = ACTION_TOGGLE_PAUSE; break;
    case GLFW_KEY_PERIOD: action.kind = shift ? ACTION_NEXT_KEY : ACTION_STEP_FORWARD; break;
    case GLFW_KEY_COMMA: action.kind = shift ? ACTION_PREV_KEY : ACTION_STEP_BACK; break;
    case GLFW_KEY_HOME: action.kind = ACTION_FIRST_FRAME; break;
    case GLFW_KEY_END: action.kind = ACTION_LAST_FRAME; break;
    case GLFW_KEY_EQUAL: /* '+' is Shift+'=' on US layouts; '=' alone counts too */
    case GLFW_KEY_KP_ADD: action.kind = ACTION_SPEED_UP; break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: action.kind = ACTION_SPEED_DOWN; break;
    case GLFW_KEY_0:
    case GLFW_KEY_KP_0: action.kind = ACTION_RESTART; break;
    case GLFW_KEY_R: action.kind = ACTION_TOGGLE_REVERSE; break;
    case GLFW_KEY_O: action.kind = ACTION_CYCLE_LOOP_MODE; break;
    case GLFW_KEY_M: action.kind = ACTION_CYCLE_ROOT_MOTION; break;
    case GLFW_KEY_H: action.kind = ACTION_TOGGLE_HELP; break;
    case GLFW_KEY_B: action.kind = ACTION_TOGGLE_SKELETON; break;
    case GLFW_KEY_C: action.kind = ACTION_TOGGLE_CULLING; break;
    case GLFW_KEY_F: action.kind = ACTION_FRAME_CAMERA; break;
    case GLFW_KEY_L:
    case GLFW_KEY_TAB: action.kind = ACTION_TOGGLE_BROWSER; break;
    case GLFW_KEY_U: action.kind = ACTION_TOGGLE_MESH_LIST; break;
    case GLFW_KEY_S:
    case GLFW_KEY_F12: action.kind = ACTION_SCREENSHOT; break;
    case GLFW_KEY_F11: action.kind = ACTION_FULLSCREEN; break;
    case GLFW_KEY_RIGHT_BRACKET: action.kind = ACTION_JOINT_NEXT; break;
    case GLFW_KEY_LEFT_BRACKET: action.kind = ACTION_JOINT_PREV; break;
    case GLFW_KEY_I: action.kind = ACTION_TOGGLE_JOINT_VALUES; break;
    case GLFW_KEY_W: action.kind = ACTION_CYCLE_WEIGHTS; break;
    case GLFW_KEY_A: action.kind = ACTION_CYCLE_AXES; break;
    case GLFW_KEY_J: action.kind = ACTION_TOGGLE_NAMES; break;
    case GLFW_KEY_T: action.kind = ACTION_CYCLE_POSE_SOURCE; break;
    case GLFW_KEY_K: action.kind = ACTION_CYCLE_SKINNING; break;
    case GLFW_KEY_X: action.kind = ACTION_TOGGLE_WIREFRAME; break;
    case GLFW_KEY_G: action.kind = ACTION_TOGGLE_GRID; break;
    case GLFW_KEY_V: action.kind = ACTION_TOGGLE_NORMALS; break;
    case GLFW_KEY_Q: action.kind = ACTION_QUIT; break;
    default: break;
    }
    return action;
}

bool action_repeats(ActionKind kind)
{
    return kind == ACTION_STEP_FORWARD || kind == ACTION_STEP_BACK || kind == ACTION_NEXT_KEY ||
           kind == ACTION_PREV_KEY || kind == ACTION_NEXT_CLIP || kind == ACTION_PREV_CLIP;
}

float playback_duration(const Playback *playback, const float *durations)
{
    if (!durations || playback->clip < 0 || playback->clip >= playback->clip_count) return 0.0f;
    float d = durations[playback->clip];
    return (d > 0.0f && isfinite(d)) ? d : 0.0f;
}

static float clip_duration(const float *durations, int clip_count, int clip)
{
    if (!durations || clip < 0 || clip >= clip_count) return 0.0f;
    float d = durations[clip];
    return (d > 0.0f && isfinite(d)) ? d : 0.0f;
}

/* |speed| into [MIN, MAX], sign kept; 0 / NaN -> 1. */
static float clamp_speed(float speed)
{
    if (!isfinite(speed) || speed == 0.0f) return 1.0f;
    float magnitude = fminf(fmaxf(fabsf(speed), PLAYBACK_SPEED_MIN), PLAYBACK_SPEED_MAX);
    return speed < 0.0f ? -magnitude : magnitude;
}

float playback_step_time(float t, float delta, float duration, PlaybackLoopMode mode, int *direction,
                         bool *finished)
{
    if (!(duration > 0.0f) || !isfinite(t) || !isfinite(delta)) return 0.0f;
    float moved = t + delta;
    switch (mode) {
    case PLAYBACK_ONCE:
        if (moved >= duration) {
            if (finished) *finished = true;
            return duration;
        }
        if (moved <= 0.0f) {
            if (finished) *finished = delta < 0.0f;
            return 0.0f;
        }
        return moved;
    case PLAYBACK_PING_PONG: {
        /* Unfold the back-and-forth onto a phase p in [0, 2 duration): p = t on the way
         * forward (direction +1), p = 2 duration - t on the way back; p moves by delta. */
        float period = 2.0f * duration;
        int dir = direction && *direction < 0 ? -1 : 1;
        float p = (dir > 0 ? t : period - t) + delta;
        p = fmodf(p, period);
        if (p < 0.0f) p += period;
        if (direction) *direction = p < duration ? 1 : -1;
        return p <= duration ? p : period - p;
    }
    case PLAYBACK_LOOP:
    default: {
        float w = fmodf(moved, duration);
        if (w < 0.0f) w += duration;
        if (w >= duration) w = 0.0f; /* fmodf of a value just below a multiple, rounded up */
        return w;
    }
    }
}

void playback_init(Playback *playback, int clip_count, const float *durations, int clip, float time, float speed)
{
    memset(playback, 0, sizeof *playback);
    playback->clip_count = clip_count > 0 ? clip_count : 0;
    playback->clip = (clip < playback->clip_count) ? clip : -1;
    playback->speed = clamp_speed(speed);
    playback->direction = 1;
    playback->fade_direction = 1;
    playback->loop_mode = PLAYBACK_LOOP;
    playback->root_motion = ROOT_MOTION_AUTHORED;
    playback->last_clip = playback->clip >= 0 ? playback->clip : -1;
    float duration = playback_duration(playback, durations);
    playback->time = (time > 0.0f && isfinite(time)) ? fminf(time, duration) : 0.0f;
    if (playback->speed < 0.0f && !(time > 0.0f)) playback->time = duration;
}

/* What is on screen now starts fading out (a clip, or the bind / rest pose), if fades are on
 * and playback runs; otherwise the next pose is a cut. */
static void start_fade(Playback *playback)
{
    if (playback->blend_seconds > 0.0f && !playback->paused) {
        playback->fading = true;
        playback->fade_clip = playback->clip;
        playback->fade_time = playback->time;
        playback->fade_direction = playback->direction;
        playback->fade_elapsed = 0.0f;
    } else {
        playback->fading = false;
    }
}

static void select_clip(Playback *playback, int clip, const float *durations)
{
    if (clip == playback->clip) {   /* the same clip again: restart it, no fade */
        playback->time = playback->speed < 0.0f ? playback_duration(playback, durations) : 0.0f;
        return;
    }
    start_fade(playback);
    playback->clip = clip;
    playback->direction = 1;
    playback->time = playback->speed < 0.0f ? playback_duration(playback, durations) : 0.0f;
}

void playback_seek(Playback *playback, float time, const float *durations)
{
    float duration = playback_duration(playback, durations);
    playback->time = (time > 0.0f && isfinite(time)) ? fminf(time, duration) : 0.0f;
}

bool playback_apply(Playback *playback, Action action, const float *durations)
{
    const int count = playback->clip_count;
    const float duration = playback_duration(playback, durations);
    const float step = playback->frame_step > 0.0f ? playback->frame_step : PLAYBACK_FRAME_STEP;
    switch (action.kind) {
    case ACTION_SELECT_CLIP:
        if (action.clip >= 0 && action.clip < count) select_clip(playback, action.clip, durations);
        return true;
    case ACTION_NEXT_CLIP:
        if (count > 0) select_clip(playback, playback->clip < 0 ? 0 : (playback->clip + 1) % count, durations);
        return true;
    case ACTION_PREV_CLIP:
        if (count > 0) select_clip(playback, playback->clip <= 0 ? count - 1 : playback->clip - 1, durations);
        return true;
    case ACTION_TOGGLE_PAUSE:
        playback->paused = !playback->paused;
        /* "once" stopped at its end: play means play again */
        if (!playback->paused && playback->loop_mode == PLAYBACK_ONCE && duration > 0.0f) {
            if (playback->speed > 0.0f && playback->time >= duration) playback->time = 0.0f;
            if (playback->speed < 0.0f && playback->time <= 0.0f) playback->time = duration;
        }
        return true;
    case ACTION_STEP_FORWARD:
        if (!playback->paused || duration <= 0.0f) return true;
        /* NOTE: the last key (time = duration) is a stop of its own before wrapping. */
        if (playback->time >= duration)
            playback->time = 0.0f;
        else
            playback->time = fminf(playback->time + step, duration);
        return true;
    case ACTION_STEP_BACK:
        if (!playback->paused || duration <= 0.0f) return true;
        if (playback->time <= 0.0f)
            playback->time = duration;
        else
            playback->time = fmaxf(playback->time - step, 0.0f);
        return true;
    case ACTION_FIRST_FRAME:
        playback->time = 0.0f;
        return true;
    case ACTION_LAST_FRAME:
        playback->time = duration;
        return true;
    case ACTION_SPEED_UP:
        playback->speed = clamp_speed(playback->speed * 2.0f);
        return true;
    case ACTION_SPEED_DOWN:
        playback->speed = clamp_speed(playback->speed * 0.5f);
        return true;
    case ACTION_TOGGLE_REVERSE:
        playback->speed = -playback->speed;
        return true;
    case ACTION_CYCLE_LOOP_MODE:
        playback->loop_mode = (PlaybackLoopMode)((playback->loop_mode + 1) % PLAYBACK_LOOP_MODE_COUNT);
        playback->direction = 1;
        return true;
    case ACTION_CYCLE_ROOT_MOTION:
        playback->root_motion = (RootMotionMode)((playback->root_motion + 1) % ROOT_MOTION_MODE_COUNT);
        return true;
    case ACTION_RESTART:
        playback->time = 0.0f;
        return true;
    case ACTION_TOGGLE_HELP:
        playback->show_help = !playback->show_help;
        return true;
    case ACTION_TOGGLE_SKELETON:
        playback->show_skeleton = !playback->show_skeleton;
        return true;
    case ACTION_TOGGLE_CULLING:
        playback->cull_back_faces = !playback->cull_back_faces;
        return true;
    case ACTION_CYCLE_POSE_SOURCE:
        /* clip -> bind -> rest -> the clip (the time within the clip is kept), cross-faded */
        start_fade(playback);
        if (playback->clip >= 0) {
            playback->last_clip = playback->clip;
            playback->clip = ANIMATOR_BIND_POSE;
        } else if (playback->clip == ANIMATOR_BIND_POSE) {
            playback->clip = ANIMATOR_REST_POSE;
        } else if (playback->last_clip >= 0 && playback->last_clip < count) {
            playback->clip = playback->last_clip;
        } else {
            playback->clip = ANIMATOR_BIND_POSE;
        }
        return true;
    default:
        break;
    }
    return false;
}

bool aids_apply(struct AidOptions *aids, Action action)
{
    switch (action.kind) {
    case ACTION_TOGGLE_SKELETON: aids->show_skeleton = !aids->show_skeleton; return true;
    case ACTION_TOGGLE_JOINT_VALUES: aids->joint_values = !aids->joint_values; return true;
    case ACTION_CYCLE_WEIGHTS:   /* lit -> weights -> influence count -> lit */
        if (aids->show_weights) {
            aids->show_weights = false;
            aids->show_influences = true;
        } else if (aids->show_influences) {
            aids->show_influences = false;
        } else {
            aids->show_weights = true;
        }
        return true;
    case ACTION_CYCLE_AXES: aids->axes = (AxesMode)((aids->axes + 1) % 3); return true;
    case ACTION_TOGGLE_NAMES: aids->show_names = !aids->show_names; return true;
    case ACTION_CYCLE_SKINNING:
        aids->skinning = (SkinningMethod)((aids->skinning + 1) % SKINNING_METHOD_COUNT);
        return true;
    case ACTION_TOGGLE_WIREFRAME: aids->wireframe = !aids->wireframe; return true;
    case ACTION_TOGGLE_GRID: aids->grid = !aids->grid; return true;
    case ACTION_TOGGLE_NORMALS: aids->show_normals = !aids->show_normals; return true;
    default: return false;
    }
}

void playback_advance(Playback *playback, float dt, const float *durations)
{
    if (playback->paused || !(dt > 0.0f)) return;
    if (playback->fading) {
        float fade_duration = clip_duration(durations, playback->clip_count, playback->fade_clip);
        bool ignored = false;
        playback->fade_time = playback_step_time(playback->fade_time, dt * playback->speed,
                                                 fade_duration, playback->loop_mode, &playback->fade_direction, &ignored);
        playback->fade_elapsed += dt;
        if (playback->fade_elapsed >= playback->blend_seconds) playback->fading = false;
    }
    float duration = playback_duration(playback, durations);
    if (duration <= 0.0f) {
        playback->time = 0.0f;
        return;
    }
    bool finished = false;
    playback->time = playback_step_time(playback->time, dt * playback->speed, duration,
                                        playback->loop_mode, &playback->direction, &finished);
    if (finished && playback->loop_mode == PLAYBACK_ONCE) playback->paused = true;
}

float playback_fade_weight(const Playback *playback)
{
    if (!playback->fading || !(playback->blend_seconds > 0.0f)) return 1.0f;
    float w = playback->fade_elapsed / playback->blend_seconds;
    return w < 0.0f ? 0.0f : w > 1.0f ? 1.0f : w;
}

const char *playback_loop_mode_name(PlaybackLoopMode mode)
{
    switch (mode) {
    case PLAYBACK_ONCE: return "once";
    case PLAYBACK_PING_PONG: return "ping-pong";
    default: return "loop";
    }
}

const char *root_motion_mode_name(RootMotionMode mode)
{
    switch (mode) {
    case ROOT_MOTION_IN_PLACE: return "in place";
    case ROOT_MOTION_FOLLOW: return "follow";
    default: return "as authored";
    }
}

bool playback_parse_loop_mode(const char *text, PlaybackLoopMode *mode)
{
    if (strcmp(text, "loop") == 0) *mode = PLAYBACK_LOOP;
    else if (strcmp(text, "once") == 0) *mode = PLAYBACK_ONCE;
    else if (strcmp(text, "ping-pong") == 0 || strcmp(text, "pingpong") == 0) *mode = PLAYBACK_PING_PONG;
    else return false;
    return true;
}
