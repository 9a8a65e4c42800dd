/* input.c — key -> action table and the playback state machine (no window, no GL). */
#include "input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> /* key constants only */

#include "cli.h"
#include "anim/animator.h"   /* ANIMATOR_BIND_POSE, ANIMATOR_REST_POSE */

#include <math.h>

Action action_for_key(int glfw_key, int mods)
{
    Action action = {ACTION_NONE, 0};
    if (glfw_key == GLFW_KEY_ESCAPE) {
        action.kind = ACTION_QUIT;
        return action;
    }
    /* NOTE: Ctrl/Alt/Super chords belong to the window system, not to us. */
    if (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) return action;

    if (glfw_key >= GLFW_KEY_1 && glfw_key <= GLFW_KEY_9) {
        action.kind = ACTION_SELECT_CLIP;
        action.clip = glfw_key - GLFW_KEY_1;
        return action;
    }
    if (glfw_key >= GLFW_KEY_KP_1 && glfw_key <= GLFW_KEY_KP_9) {
        action.kind = ACTION_SELECT_CLIP;
        action.clip = glfw_key - GLFW_KEY_KP_1;
        return action;
    }
    switch (glfw_key) {
    case GLFW_KEY_N:
    case GLFW_KEY_RIGHT: action.kind = ACTION_NEXT_CLIP; break;
    case GLFW_KEY_P:
    case GLFW_KEY_LEFT: action.kind = ACTION_PREV_CLIP; break;
    case GLFW_KEY_SPACE: action.kind = ACTION_TOGGLE_PAUSE; break;
    case GLFW_KEY_PERIOD: action.kind = ACTION_STEP_FORWARD; break;
    case GLFW_KEY_COMMA: action.kind = ACTION_STEP_BACK; break;
    case GLFW_KEY_EQUAL: /* '+' is Shift+'=' on US layouts; '=' alone counts too */
    case GLFW_KEY_KP_ADD: action.kind = ACTION_SPEED_UP; break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: action.kind = ACTION_SPEED_DOWN; break;
    case GLFW_KEY_0:
    case GLFW_KEY_KP_0: action.kind = ACTION_RESTART; break;
    case GLFW_KEY_H: action.kind = ACTION_TOGGLE_HELP; break;
    case GLFW_KEY_B: action.kind = ACTION_TOGGLE_SKELETON; break;
    case GLFW_KEY_C: action.kind = ACTION_TOGGLE_CULLING; break;
    case GLFW_KEY_F: action.kind = ACTION_FRAME_CAMERA; break;
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

float playback_duration(const Playback *playback, const float *durations)
{
    if (!durations || playback->clip < 0 || playback->clip >= playback->clip_count) return 0.0f;
    float d = durations[playback->clip];
    return (d > 0.0f && isfinite(d)) ? d : 0.0f;
}

/* t mod duration, into [0, duration). */
static float wrap_time(float t, float duration)
{
    if (duration <= 0.0f || !isfinite(t)) return 0.0f;
    float w = fmodf(t, duration);
    if (w < 0.0f) w += duration;
    if (w >= duration) w = 0.0f; /* fmodf of a value just below a multiple, rounded up */
    return w;
}

void playback_init(Playback *playback, int clip_count, const float *durations, int clip, float time, float speed)
{
    playback->clip_count = clip_count > 0 ? clip_count : 0;
    playback->clip = (clip < playback->clip_count) ? clip : -1;
    playback->speed = (speed > 0.0f && isfinite(speed)) ? speed : 1.0f;
    playback->paused = false;
    playback->show_help = false;
    playback->show_skeleton = false;
    playback->cull_back_faces = false;
    playback->last_clip = playback->clip >= 0 ? playback->clip : -1;
    float duration = playback_duration(playback, durations);
    playback->time = (time > 0.0f && isfinite(time)) ? fminf(time, duration) : 0.0f;
}

static void select_clip(Playback *playback, int clip)
{
    playback->clip = clip;
    playback->time = 0.0f;
}

bool playback_apply(Playback *playback, Action action, const float *durations)
{
    const int count = playback->clip_count;
    const float duration = playback_duration(playback, durations);
    switch (action.kind) {
    case ACTION_SELECT_CLIP:
        if (action.clip >= 0 && action.clip < count) select_clip(playback, action.clip);
        return true;
    case ACTION_NEXT_CLIP:
        if (count > 0) select_clip(playback, playback->clip < 0 ? 0 : (playback->clip + 1) % count);
        return true;
    case ACTION_PREV_CLIP:
        if (count > 0) select_clip(playback, playback->clip <= 0 ? count - 1 : playback->clip - 1);
        return true;
    case ACTION_TOGGLE_PAUSE:
        playback->paused = !playback->paused;
        return true;
    case ACTION_STEP_FORWARD:
        if (!playback->paused || duration <= 0.0f) return true;
        /* NOTE: the last key (time = duration) is a stop of its own before wrapping. */
        if (playback->time >= duration)
            playback->time = 0.0f;
        else
            playback->time = fminf(playback->time + PLAYBACK_FRAME_STEP, duration);
        return true;
    case ACTION_STEP_BACK:
        if (!playback->paused || duration <= 0.0f) return true;
        if (playback->time <= 0.0f)
            playback->time = duration;
        else
            playback->time = fmaxf(playback->time - PLAYBACK_FRAME_STEP, 0.0f);
        return true;
    case ACTION_SPEED_UP:
        if (playback->speed < PLAYBACK_SPEED_MAX) playback->speed = fminf(playback->speed * 2.0f, PLAYBACK_SPEED_MAX);
        return true;
    case ACTION_SPEED_DOWN:
        if (playback->speed > PLAYBACK_SPEED_MIN) playback->speed = fmaxf(playback->speed * 0.5f, PLAYBACK_SPEED_MIN);
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
        /* clip -> bind -> rest -> the clip (the time within the clip is kept) */
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
    case ACTION_JOINT_NEXT:
    case ACTION_JOINT_PREV:
    case ACTION_TOGGLE_JOINT_VALUES:
    case ACTION_CYCLE_WEIGHTS:
    case ACTION_CYCLE_AXES:
    case ACTION_TOGGLE_NAMES:
    case ACTION_CYCLE_SKINNING:
    case ACTION_TOGGLE_WIREFRAME:
    case ACTION_TOGGLE_GRID:
    case ACTION_TOGGLE_NORMALS:
    case ACTION_NONE:
    case ACTION_FRAME_CAMERA:
    case ACTION_QUIT:
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
    float duration = playback_duration(playback, durations);
    if (duration <= 0.0f) {
        playback->time = 0.0f;
        return;
    }
    playback->time = wrap_time(playback->time + dt * playback->speed, duration);
}
