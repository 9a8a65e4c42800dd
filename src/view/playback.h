/* playback.h — the players' actions and the playback state machine.
 *
 * Pure: no window, no GL, no allocation. A player turns a GLFW key event into
 * an Action with keys_action() (keys.h), hands clip/playback actions to
 * playback_apply(), handles the rest itself (quit, re-frame, browser, ...), and once per
 * frame calls playback_advance(). Unit-tested in tests/view/test_input.c. The time rules
 * (loop / once / ping-pong, reverse) are one pure function, playback_step_time(), that
 * other players (VAT playback) reuse.
 *
 * The keys that produce Actions are one table, keys.h.
 */
#ifndef SKINVIEW_PLAYBACK_H
#define SKINVIEW_PLAYBACK_H

#include <stdbool.h>

#define PLAYBACK_FRAME_STEP (1.0f / 30.0f) /* seconds per . / , step when the clip's rate is unknown */
#define PLAYBACK_SPEED_MIN (1.0f / 64.0f)  /* |speed| limits, the same for --speed and the keys */
#define PLAYBACK_SPEED_MAX 64.0f
#define PLAYBACK_BLEND_DEFAULT 0.25f        /* --blend default, seconds */
#define PLAYBACK_BLEND_MAX 10.0f

typedef enum PlaybackLoopMode {
    PLAYBACK_LOOP = 0,     /* wrap at the end (or the start, reversed) */
    PLAYBACK_ONCE,         /* stop (pause) on the last frame */
    PLAYBACK_PING_PONG,    /* turn around at either end */
    PLAYBACK_LOOP_MODE_COUNT
} PlaybackLoopMode;

typedef enum RootMotionMode {
    ROOT_MOTION_AUTHORED = 0,  /* as the file moves it */
    ROOT_MOTION_IN_PLACE,      /* the root's travel on the ground plane removed */
    ROOT_MOTION_FOLLOW,        /* as authored, the camera follows the root */
    ROOT_MOTION_MODE_COUNT
} RootMotionMode;

typedef enum ActionKind {
    ACTION_NONE = 0,
    ACTION_SELECT_CLIP,   /* Action.arg = index from 0 */
    ACTION_NEXT_CLIP,
    ACTION_PREV_CLIP,
    ACTION_TOGGLE_PAUSE,
    ACTION_STEP_FORWARD,
    ACTION_STEP_BACK,
    ACTION_SPEED_UP,
    ACTION_SPEED_DOWN,
    ACTION_RESTART,
    ACTION_FIRST_FRAME,
    ACTION_LAST_FRAME,
    ACTION_TOGGLE_REVERSE,
    ACTION_CYCLE_LOOP_MODE,
    ACTION_CYCLE_ROOT_MOTION,
    ACTION_TOGGLE_HELP,
    ACTION_TOGGLE_SKELETON,
    ACTION_TOGGLE_SOURCE_RIG,   /* Shift+B: the rig an added clip came from, beside the character */
    ACTION_TOGGLE_CULLING,
    ACTION_CYCLE_POSE_SOURCE, /* T: playback_apply */
    ACTION_JOINT_NEXT,    /* ] : aids_apply and the viewer's scene */
    ACTION_JOINT_PREV,    /* [ */
    ACTION_TOGGLE_JOINT_VALUES, /* I */
    ACTION_CYCLE_WEIGHTS, /* W */
    ACTION_CYCLE_AXES,    /* A */
    ACTION_TOGGLE_NAMES,  /* J */
    ACTION_CYCLE_SKINNING, /* K */
    ACTION_TOGGLE_REFERENCE, /* Shift+R: the reference functions instead of the fast path */
    ACTION_TOGGLE_WIREFRAME, /* X */
    ACTION_TOGGLE_GRID,   /* G */
    ACTION_TOGGLE_SHADOW, /* Shift+G: the ground shadow (both players) */
    ACTION_TOGGLE_NORMALS, /* V */
    ACTION_TOGGLE_COMPARE, /* D: the difference view of two skinning methods */
    ACTION_TOGGLE_INSPECTOR, /* E: the vertex inspector panel */
    ACTION_TOGGLE_BONE_SPACE, /* Y: the selected joint's bone space */
    ACTION_TOGGLE_MORPHS, /* Z: morph target sliders */
    ACTION_TOGGLE_ISOLATE, /* /: only the selected joint's chain in the skeleton overlay */
    ACTION_TOGGLE_HIDE_JOINT, /* Backspace: hide / show the selected joint and its descendants (the viewer's scene) */
    /* handled by the viewer: */
    ACTION_NEXT_KEY,
    ACTION_PREV_KEY,
    ACTION_FRAME_CAMERA,
    ACTION_VIEW_PRESET,   /* Action.arg = CameraView (camera.h) */
    ACTION_TOGGLE_BROWSER,
    ACTION_TOGGLE_MESH_LIST,
    ACTION_SCREENSHOT,
    ACTION_RECORD,               /* Shift+S: one loop of the clip as a video next to the model (the subject's) */
    ACTION_EXPORT_GLTF,          /* Ctrl+E: the model as glTF next to it, read back and checked (the subject's) */
    ACTION_RELOAD,
    ACTION_FULLSCREEN,
    ACTION_QUIT
} ActionKind;

typedef struct Action {
    ActionKind kind;
    int        arg;       /* ACTION_SELECT_CLIP: the clip index from 0; ACTION_VIEW_PRESET: the CameraView */
} Action;

/* Where playback stands. clip is an index into the model's clips, or < 0 for a
 * static pose (ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE), which time never moves.
 * time is in seconds, kept in [0, duration] of the current clip.
 * While a cross-fade runs (fading), fade_clip at fade_time is still mixed in with
 * weight 1 - playback_fade_weight(). */
typedef struct Playback {
    int   clip;
    int   clip_count;
    float time;
    float speed;          /* playback speed factor; < 0 plays backwards; |speed| in [MIN, MAX] */
    int   direction;      /* +1, or -1 on the way back in ping-pong mode */
    PlaybackLoopMode loop_mode;
    RootMotionMode   root_motion;
    float frame_step;     /* seconds per . / , step (the clip's frame period); 0 = PLAYBACK_FRAME_STEP */
    float blend_seconds;  /* cross-fade length on a clip change; 0 = cut */
    bool  fading;
    int   fade_clip;      /* the clip fading out */
    float fade_time;      /* its time, advancing as it fades */
    int   fade_direction;
    float fade_elapsed;   /* seconds since the change */
    bool  paused;
    bool  show_help;
    bool  cull_back_faces; /* C: back-face culling (off by default: many rigs have open meshes) */
    int   last_clip;      /* T: the clip to come back to after the bind and rest poses (-1 none) */
} Playback;

/* Starts playback of `clip` (index, or < 0 for a static pose) at `time`
 * (clamped to [0, duration], as --screenshot does) with `speed` (|speed| clamped to
 * [PLAYBACK_SPEED_MIN, PLAYBACK_SPEED_MAX]; 0 or not finite = 1). A negative speed with
 * time 0 starts at the end, so reverse playback has something to play. Loop mode
 * PLAYBACK_LOOP, root motion as authored, no blend. durations[] has clip_count entries
 * (may be NULL when clip_count is 0). */
void playback_init(Playback *playback, int clip_count, const float *durations, int clip, float time, float speed);

/* Applies one action. Returns true if the action was a playback action
 * (the viewer's own actions: false).
 *   select clip k : ignored when k >= clip_count; else clip = k, time = 0 (the end when
 *                   playing backwards), cross-fading from the old clip (see below)
 *   next / prev   : wrap around; from a static pose, next = first, prev = last
 *   step fwd/back : only while paused, by frame_step; at the clip end
 *                   it stops exactly on the last key (time = duration) before
 *                   wrapping to 0, and stepping back from 0 goes to duration
 *   first / last  : time = 0 / duration
 *   speed up/down : |speed| x2 / /2, never beyond [PLAYBACK_SPEED_MIN, PLAYBACK_SPEED_MAX]
 *   reverse       : speed = -speed
 *   loop mode     : loop -> once -> ping-pong -> loop;  root motion: authored -> in place -> follow
 *   restart       : time = 0 (pause state kept)
 *   pose source   : clip -> bind pose -> rest pose -> the clip again (T)
 *   toggle help / culling : flip show_help / cull_back_faces
 * A clip change cross-fades when blend_seconds > 0, playback is running and the old
 * "clip" is a clip (not a static pose); otherwise it cuts. */
bool playback_apply(Playback *playback, Action action, const float *durations);

/* Moves time by dt * speed seconds unless paused or on a static pose, following the
 * loop mode (playback_step_time); advances a running cross-fade. */
void playback_advance(Playback *playback, float dt, const float *durations);

/* The time rule shared by every player: t moved by delta seconds (signed) through a
 * clip of `duration` seconds.
 *   loop      : t wraps into [0, duration) (fmod)
 *   once      : t clamped to [0, duration]; *finished set when it hit an end
 *   ping-pong : t reflected at 0 and duration; *direction (+1 forward, -1 on the way
 *               back) is the state that says which way t is going, updated on each bounce
 * `delta` is dt * speed (negative plays backwards). duration <= 0: 0. */
float playback_step_time(float t, float delta, float duration, PlaybackLoopMode mode, int *direction,
                         bool *finished);

/* Jumps to `time` (clamped to [0, duration]) without changing anything else (scrubbing). */
void playback_seek(Playback *playback, float time, const float *durations);

/* Weight of the current clip in a running cross-fade, in [0, 1]; 1 when not fading. */
float playback_fade_weight(const Playback *playback);

/* Duration of the current clip, 0 for a static pose. */
float playback_duration(const Playback *playback, const float *durations);

/* "loop" / "once" / "ping-pong"; and "as authored" / "in place" / "follow". */
const char *playback_loop_mode_name(PlaybackLoopMode mode);
const char *root_motion_mode_name(RootMotionMode mode);

/* Parses a --loop value: loop, once, ping-pong (or pingpong). False if unknown. */
bool playback_parse_loop_mode(const char *text, PlaybackLoopMode *mode);

#endif
