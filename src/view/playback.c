/* playback.c — the playback state machine (no window, no GL); the keys are in keys.c. */
#include "view/playback.h"

#include "anim/animator.h"   /* ANIMATOR_BIND_POSE, ANIMATOR_REST_POSE */

#include <math.h>
#include <string.h>

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
        if (action.arg >= 0 && action.arg < count) select_clip(playback, action.arg, durations);
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
