/* keys.h — the one key table: every key of the player windows as data (key, modifiers, action,
 * help text, the subjects it applies to). The input dispatch (keys_action), the help panel
 * (hud.c draw_help) and the documentation check (tests/docs/test_docs.c: README.md and
 * docs/skinview.1.md name exactly the keys listed here) are all made from it.
 *
 * Keys are GLFW key codes, i.e. positions on a US layout. Pure: no window, no GL.
 */
#ifndef SKINVIEW_KEYS_H
#define SKINVIEW_KEYS_H

#include "view/playback.h"

#include <stdbool.h>

/* Which player a row applies to (a bit set). */
typedef enum KeyMode {
    KEY_MODE_SKINNED = 1,   /* the skinned model (skinview MODEL) */
    KEY_MODE_VAT = 2,       /* a VAT bake (skinview --vat OUTDIR) */
    KEY_MODE_ALL = 3
} KeyMode;

/* Modifier bits (the GLFW_MOD_* values). A binding matches a press when
 * (mods & care) == want: care = 0 takes any modifiers, KEY_NO_CHORD refuses Ctrl / Alt / Super
 * (they belong to the window system) and ignores Shift. */
#define KEY_SHIFT 0x1
#define KEY_CTRL 0x2
#define KEY_ALT 0x4
#define KEY_SUPER 0x8
#define KEY_NO_CHORD (KEY_CTRL | KEY_ALT | KEY_SUPER)

typedef struct KeyBinding {
    int        key;    /* GLFW_KEY_*; 0 ends the list */
    unsigned   care, want;
    ActionKind kind;
    int        arg;    /* ACTION_SELECT_CLIP: first clip index (keys 1..9 count up from it);
                          ACTION_VIEW_PRESET: the CameraView */
} KeyBinding;

#define KEY_MAX_BINDINGS 6

/* One row of the help panel: what the user reads, and the presses it stands for. A row with no
 * bindings is the mouse's (drag, wheel, click), handled by the player itself. */
typedef struct KeyRow {
    const char *keys;   /* as the help panel shows them: "N P / Right Left" */
    const char *help;   /* what they do */
    const char *doc;    /* the key names as README.md and the man page write them (their `code`
                           spans, space-separated): "N → P ←"; NULL for none */
    unsigned    modes;  /* KeyMode bits */
    KeyBinding  bindings[KEY_MAX_BINDINGS];
} KeyRow;

/* The table, in help-panel order; *count rows. */
const KeyRow *keys_table(int *count);

/* The action bound to a press (GLFW key code, GLFW_MOD_* bits) in the player `mode`
 * (KEY_MODE_SKINNED or KEY_MODE_VAT): the first matching binding of a row that applies to the
 * mode; ACTION_NONE when none does. */
Action keys_action(int glfw_key, int mods, unsigned mode);

/* keys_action(glfw_key, mods, KEY_MODE_SKINNED): every key of the skinned viewer. Presses with
 * Control, Alt or Super held map to ACTION_NONE, except Esc, Ctrl+R and Ctrl+keypad (view
 * presets). */
Action action_for_key(int glfw_key, int mods);

/* True for the actions worth repeating while their key is held (frame steps, keys,
 * next / previous clip). */
bool action_repeats(ActionKind kind);

#endif
