/* keys.c — the key table (keys.h): one row per help-panel line. */
#include "view/keys.h"
#include "view/camera.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> /* key constants only */

#include <stddef.h>

/* A plain press (Shift ignored, no Ctrl / Alt / Super). */
#define PLAIN(k, action) {k, KEY_NO_CHORD, 0, action, 0}
/* Exactly this key, Shift not held (Shift+it is another action). */
#define UNSHIFTED(k, action) {k, KEY_NO_CHORD | KEY_SHIFT, 0, action, 0}
#define SHIFTED(k, action) {k, KEY_NO_CHORD | KEY_SHIFT, KEY_SHIFT, action, 0}
/* A keypad view: plain, and with Ctrl or Shift the opposite side (Blender's keypad). */
#define VIEW_KEYS(k, view, opposite)                                            \
    {k, KEY_ALT | KEY_SUPER | KEY_CTRL | KEY_SHIFT, 0, ACTION_VIEW_PRESET, view}, \
    {k, KEY_ALT | KEY_SUPER | KEY_CTRL, KEY_CTRL, ACTION_VIEW_PRESET, opposite},  \
    {k, KEY_ALT | KEY_SUPER | KEY_CTRL | KEY_SHIFT, KEY_SHIFT, ACTION_VIEW_PRESET, opposite}

#define SKINNED KEY_MODE_SKINNED
#define ALL KEY_MODE_ALL

static const KeyRow table[] = {
    {"L / Tab", "clip browser (type to filter, Enter plays)", "L Tab", SKINNED,
     {PLAIN(GLFW_KEY_L, ACTION_TOGGLE_BROWSER), PLAIN(GLFW_KEY_TAB, ACTION_TOGGLE_BROWSER)}},
    {"1 ... 9", "clips [0] ... [8]", "1 9", ALL, {{GLFW_KEY_1, KEY_NO_CHORD, 0, ACTION_SELECT_CLIP, 0}}},
    {"N P / Right Left", "next / previous clip (hold to repeat)", "N \xe2\x86\x92 P \xe2\x86\x90", ALL,
     {PLAIN(GLFW_KEY_N, ACTION_NEXT_CLIP), PLAIN(GLFW_KEY_RIGHT, ACTION_NEXT_CLIP),
      PLAIN(GLFW_KEY_P, ACTION_PREV_CLIP), PLAIN(GLFW_KEY_LEFT, ACTION_PREV_CLIP)}},
    {"Space", "pause / play", "Space", ALL, {PLAIN(GLFW_KEY_SPACE, ACTION_TOGGLE_PAUSE)}},
    {". ,", "one frame forward / back (paused)", ". ,", ALL,
     {UNSHIFTED(GLFW_KEY_PERIOD, ACTION_STEP_FORWARD), UNSHIFTED(GLFW_KEY_COMMA, ACTION_STEP_BACK)}},
    {"Shift+.  Shift+,", "next / previous key", "Shift+. Shift+,", SKINNED,
     {SHIFTED(GLFW_KEY_PERIOD, ACTION_NEXT_KEY), SHIFTED(GLFW_KEY_COMMA, ACTION_PREV_KEY)}},
    {"Home / End", "first / last frame", "Home End", ALL,
     {PLAIN(GLFW_KEY_HOME, ACTION_FIRST_FRAME), PLAIN(GLFW_KEY_END, ACTION_LAST_FRAME)}},
    {"drag the timeline", "scrub", NULL, SKINNED, {{0}}},
    /* '+' is Shift+'=' on US layouts; '=' alone counts too */
    {"+ / -", "speed x2 / x0.5", "+ -", ALL,
     {PLAIN(GLFW_KEY_EQUAL, ACTION_SPEED_UP), PLAIN(GLFW_KEY_KP_ADD, ACTION_SPEED_UP),
      PLAIN(GLFW_KEY_MINUS, ACTION_SPEED_DOWN), PLAIN(GLFW_KEY_KP_SUBTRACT, ACTION_SPEED_DOWN)}},
    {"R", "reverse", "R", ALL, {UNSHIFTED(GLFW_KEY_R, ACTION_TOGGLE_REVERSE)}},
    {"O", "loop / once / ping-pong", "O", ALL, {PLAIN(GLFW_KEY_O, ACTION_CYCLE_LOOP_MODE)}},
    {"M", "root motion: as authored / in place / follow", "M", SKINNED, {PLAIN(GLFW_KEY_M, ACTION_CYCLE_ROOT_MOTION)}},
    {"0", "restart the clip", "0", ALL,
     {PLAIN(GLFW_KEY_0, ACTION_RESTART), PLAIN(GLFW_KEY_KP_0, ACTION_RESTART)}},
    {"left / right drag, wheel", "orbit / pan / zoom", NULL, ALL, {{0}}},
    {"F", "frame the clip from the front", "F", ALL, {PLAIN(GLFW_KEY_F, ACTION_FRAME_CAMERA)}},
    {"keypad 1 3 7 (+Ctrl)", "front / side / top view (opposite)", "1 3 7", SKINNED,
     {VIEW_KEYS(GLFW_KEY_KP_1, CAMERA_VIEW_FRONT, CAMERA_VIEW_BACK)}},
    {NULL, NULL, NULL, SKINNED, {VIEW_KEYS(GLFW_KEY_KP_3, CAMERA_VIEW_RIGHT, CAMERA_VIEW_LEFT)}},
    {NULL, NULL, NULL, SKINNED, {VIEW_KEYS(GLFW_KEY_KP_7, CAMERA_VIEW_TOP, CAMERA_VIEW_BOTTOM)}},
    {"B / Shift+B", "skeleton / the added clip's source rig beside it", "B Shift+B", SKINNED,
     {UNSHIFTED(GLFW_KEY_B, ACTION_TOGGLE_SKELETON), SHIFTED(GLFW_KEY_B, ACTION_TOGGLE_SOURCE_RIG)}},
    {"[ / ], click a dot", "previous / next joint, select that joint", "[ ]", SKINNED,
     {PLAIN(GLFW_KEY_LEFT_BRACKET, ACTION_JOINT_PREV), PLAIN(GLFW_KEY_RIGHT_BRACKET, ACTION_JOINT_NEXT)}},
    {"I", "the joint's local and model values", "I", SKINNED, {PLAIN(GLFW_KEY_I, ACTION_TOGGLE_JOINT_VALUES)}},
    {"W", "weights of the joint -> influence count -> off", "W", SKINNED, {PLAIN(GLFW_KEY_W, ACTION_CYCLE_WEIGHTS)}},
    {"A", "joint axes: selected -> all -> off", "A", SKINNED, {PLAIN(GLFW_KEY_A, ACTION_CYCLE_AXES)}},
    {"J", "joint names", "J", SKINNED, {PLAIN(GLFW_KEY_J, ACTION_TOGGLE_NAMES)}},
    {"T", "pose: clip -> bind -> rest", "T", SKINNED, {PLAIN(GLFW_KEY_T, ACTION_CYCLE_POSE_SOURCE)}},
    {"K", "skinning: GPU LBS -> CPU LBS -> GPU DQS -> rigid", "K", SKINNED, {PLAIN(GLFW_KEY_K, ACTION_CYCLE_SKINNING)}},
    {"Shift+R", "reference functions (the lesson's code) / fast path", "Shift+R", SKINNED,
     {SHIFTED(GLFW_KEY_R, ACTION_TOGGLE_REFERENCE)}},
    {"D / E, click a vertex", "difference of 2 methods / vertex inspector (E: -matrices, off)", "D E", SKINNED,
     {PLAIN(GLFW_KEY_D, ACTION_TOGGLE_COMPARE), PLAIN(GLFW_KEY_E, ACTION_TOGGLE_INSPECTOR)}},
    {"Y / Z", "bone space of the joint / morph sliders (drag; release: clip)", "Y Z", SKINNED,
     {PLAIN(GLFW_KEY_Y, ACTION_TOGGLE_BONE_SPACE), PLAIN(GLFW_KEY_Z, ACTION_TOGGLE_MORPHS)}},
    {"/ / Backspace", "skeleton: only the joint's chain / hide the joint", "/ Backspace", SKINNED,
     {PLAIN(GLFW_KEY_SLASH, ACTION_TOGGLE_ISOLATE), PLAIN(GLFW_KEY_BACKSPACE, ACTION_TOGGLE_HIDE_JOINT)}},
    {"X / G / V", "wireframe / ground grid / normals", "X G V", SKINNED,
     {PLAIN(GLFW_KEY_X, ACTION_TOGGLE_WIREFRAME), UNSHIFTED(GLFW_KEY_G, ACTION_TOGGLE_GRID),
      PLAIN(GLFW_KEY_V, ACTION_TOGGLE_NORMALS)}},
    {"G", "ground grid on / off", NULL, KEY_MODE_VAT, {UNSHIFTED(GLFW_KEY_G, ACTION_TOGGLE_GRID)}},
    {"Shift+G", "ground shadow on / off (the key light's)", "Shift+G", ALL, {SHIFTED(GLFW_KEY_G, ACTION_TOGGLE_SHADOW)}},
    {"C", "back-face culling on / off", "C", ALL, {PLAIN(GLFW_KEY_C, ACTION_TOGGLE_CULLING)}},
    {"U", "mesh list (click or Enter: show / hide)", "U", SKINNED, {PLAIN(GLFW_KEY_U, ACTION_TOGGLE_MESH_LIST)}},
    {"S / F12", "screenshot next to the model", "S F12", SKINNED,
     {UNSHIFTED(GLFW_KEY_S, ACTION_SCREENSHOT), PLAIN(GLFW_KEY_F12, ACTION_SCREENSHOT)}},
    {"Shift+S", "record one loop of the clip (MP4) next to the model", "Shift+S", SKINNED,
     {SHIFTED(GLFW_KEY_S, ACTION_RECORD)}},
    {"Ctrl+E", "export glTF next to the model, read it back: worst distance per clip", "Ctrl+E", SKINNED,
     {{GLFW_KEY_E, KEY_NO_CHORD, KEY_CTRL, ACTION_EXPORT_GLTF, 0}}},
    {"Ctrl+R / drop a file", "reload / open (Shift+drop: add its clips)", "Ctrl+R", SKINNED,
     {{GLFW_KEY_R, KEY_NO_CHORD, KEY_CTRL, ACTION_RELOAD, 0}}},
    {"F11", "fullscreen", "F11", SKINNED, {PLAIN(GLFW_KEY_F11, ACTION_FULLSCREEN)}},
    {"H", "hide this help", "H", ALL, {PLAIN(GLFW_KEY_H, ACTION_TOGGLE_HELP)}},
    {"Esc / Q", "quit", "Esc Q", ALL, {{GLFW_KEY_ESCAPE, 0, 0, ACTION_QUIT, 0}, PLAIN(GLFW_KEY_Q, ACTION_QUIT)}},
};
enum { TABLE_ROWS = sizeof table / sizeof table[0] };

const KeyRow *keys_table(int *count)
{
    *count = TABLE_ROWS;
    return table;
}

Action keys_action(int glfw_key, int mods, unsigned mode)
{
    Action action = {ACTION_NONE, 0};
    for (int r = 0; r < TABLE_ROWS; r++) {
        if (!(table[r].modes & mode)) continue;
        for (const KeyBinding *b = table[r].bindings; b < table[r].bindings + KEY_MAX_BINDINGS && b->key; b++) {
            if (((unsigned)mods & b->care) != b->want) continue;
            if (b->kind == ACTION_SELECT_CLIP) {   /* 1..9: one binding for the row of digits */
                if (glfw_key < GLFW_KEY_1 || glfw_key > GLFW_KEY_9) continue;
                action.kind = ACTION_SELECT_CLIP;
                action.arg = b->arg + (glfw_key - GLFW_KEY_1);
                return action;
            }
            if (b->key != glfw_key) continue;
            action.kind = b->kind;
            action.arg = b->arg;
            return action;
        }
    }
    return action;
}

Action action_for_key(int glfw_key, int mods) { return keys_action(glfw_key, mods, KEY_MODE_SKINNED); }

bool action_repeats(ActionKind kind)
{
    return kind == ACTION_STEP_FORWARD || kind == ACTION_STEP_BACK || kind == ACTION_NEXT_KEY ||
           kind == ACTION_PREV_KEY || kind == ACTION_NEXT_CLIP || kind == ACTION_PREV_CLIP;
}
