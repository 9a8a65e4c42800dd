/* input.h — the viewer's key -> action table and playback state machine.
 *
 * Pure: no window, no GL, no allocation. The viewer turns a GLFW key event into
 * an Action with action_for_key(), hands clip/playback actions to
 * playback_apply(), handles the rest itself (quit, re-frame), and once per
 * frame calls playback_advance(). Unit-tested in tests/test_input.c.
 *
 * Keys (GLFW key codes, i.e. positions on a US layout):
 *   1..9            clip 1..9 (index 0..8; ignored if the model has fewer clips)
 *   N / Right       next clip (wraps past the last)     P / Left  previous (wraps)
 *   Space           pause / play
 *   . / ,           one frame (1/30 s) forward / back, only while paused
 *   + = KP+ / - KP- speed x2 / /2 within [1/64, 64]
 *   0               restart the clip                    H         help on / off
 *   F               re-frame the camera                 Esc / Q   quit
 *   B               skeleton overlay on / off
 *   Teaching aids (aids_apply):
 *   [ / ]           previous / next joint        I  the selected joint's values on / off
 *   W               lit -> weight heat-map -> influence count -> lit
 *   A               joint axes: off -> selected joint -> all joints
 *   J               joint names                  T  pose source: clip -> bind -> rest -> clip
 *   K               skinning: GPU LBS -> CPU LBS -> GPU DQS   X wireframe
 *   G               ground grid + world axes     V  normals
 */
#ifndef SKINVIEW_INPUT_H
#define SKINVIEW_INPUT_H

#include <stdbool.h>

#define PLAYBACK_FRAME_STEP (1.0f / 30.0f) /* seconds per . / , step */
#define PLAYBACK_SPEED_MIN (1.0f / 64.0f)
#define PLAYBACK_SPEED_MAX 64.0f

typedef enum ActionKind {
    ACTION_NONE = 0,
    ACTION_SELECT_CLIP,   /* Action.clip = index from 0 */
    ACTION_NEXT_CLIP,
    ACTION_PREV_CLIP,
    ACTION_TOGGLE_PAUSE,
    ACTION_STEP_FORWARD,
    ACTION_STEP_BACK,
    ACTION_SPEED_UP,
    ACTION_SPEED_DOWN,
    ACTION_RESTART,
    ACTION_TOGGLE_HELP,
    ACTION_TOGGLE_SKELETON,
    ACTION_TOGGLE_CULLING,
    ACTION_JOINT_NEXT,    /* ] : aids_apply and the viewer's scene */
    ACTION_JOINT_PREV,    /* [ */
    ACTION_TOGGLE_JOINT_VALUES, /* I */
    ACTION_CYCLE_WEIGHTS, /* W */
    ACTION_CYCLE_AXES,    /* A */
    ACTION_TOGGLE_NAMES,  /* J */
    ACTION_CYCLE_POSE_SOURCE, /* T: playback_apply */
    ACTION_CYCLE_SKINNING, /* K */
    ACTION_TOGGLE_WIREFRAME, /* X */
    ACTION_TOGGLE_GRID,   /* G */
    ACTION_TOGGLE_NORMALS, /* V */
    ACTION_FRAME_CAMERA,  /* handled by the viewer */
    ACTION_QUIT           /* handled by the viewer */
} ActionKind;

typedef struct Action {
    ActionKind kind;
    int        clip;      /* ACTION_SELECT_CLIP only */
} Action;

/* Where playback stands. clip is an index into the model's clips, or < 0 for a
 * static pose (ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE), which time never moves.
 * time is in seconds, kept in [0, duration] of the current clip. */
typedef struct Playback {
    int   clip;
    int   clip_count;
    float time;
    float speed;          /* playback speed factor, > 0 */
    bool  paused;
    bool  show_help;
    bool  show_skeleton;  /* B: the bones as lines over the mesh */
    bool  cull_back_faces; /* C: back-face culling (off by default: many rigs have open meshes) */
    int   last_clip;      /* T: the clip to come back to after the bind and rest poses (-1 none) */
} Playback;

/* The action bound to a key press (GLFW_KEY_* code and GLFW_MOD_* bits).
 * Presses with Control, Alt or Super held map to ACTION_NONE, except Esc. */
Action action_for_key(int glfw_key, int mods);

/* Starts playback of `clip` (index, or < 0 for a static pose) at `time`
 * (clamped to [0, duration], as --screenshot does) with `speed` (kept as given
 * if > 0, else 1). durations[] has clip_count entries
 * (may be NULL when clip_count is 0). */
void playback_init(Playback *playback, int clip_count, const float *durations, int clip, float time, float speed);

/* Applies one action. Returns true if the action was a playback action
 * (the viewer handles ACTION_FRAME_CAMERA / ACTION_QUIT / ACTION_NONE: false).
 *   select clip k : ignored when k >= clip_count; else clip = k, time = 0
 *   next / prev   : wrap around; from a static pose, next = first, prev = last
 *   step fwd/back : only while paused, by PLAYBACK_FRAME_STEP; at the clip end
 *                   it stops exactly on the last key (time = duration) before
 *                   wrapping to 0, and stepping back from 0 goes to duration
 *   speed up/down : x2 / /2, never beyond [PLAYBACK_SPEED_MIN, PLAYBACK_SPEED_MAX]
 *   restart       : time = 0 (pause state kept)
 *   toggle help / skeleton / culling : flip show_help / show_skeleton / cull_back_faces
 *   cycle pose source (T) : a clip -> bind pose -> rest pose -> that clip again (time kept) */
bool playback_apply(Playback *playback, Action action, const float *durations);

/* Moves time by dt * speed seconds unless paused or on a static pose.
 * Clips loop: time wraps with fmod into [0, duration). A clip of duration 0
 * (a single key = a pose) stays at 0. */
void playback_advance(Playback *playback, float dt, const float *durations);

/* Applies a teaching-aid action to `aids` (cli.h AidOptions: W, A, J, I, K, X, G, V, B).
 * Returns true if it was one. Joint selection ([ ]) is the viewer's scene's (scene_step_joint). */
struct AidOptions;
bool aids_apply(struct AidOptions *aids, Action action);

/* Duration of the current clip, 0 for a static pose. */
float playback_duration(const Playback *playback, const float *durations);

#endif
