/* test_input.c — the viewer's key table and playback state machine, without a window. */
#include "view/keys.h"
#include "teach/aids.h"
#include "view/camera.h"
#include "anim/animator.h"
#include "testutil.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <math.h>

static bool near(float a, float b) { return fabsf(a - b) < 1e-5f; }

static Action key(int k) { return action_for_key(k, 0); }

/* Applies the action a key maps to. */
static void press(Playback *p, int k, const float *durations) { playback_apply(p, key(k), durations); }

static void test_key_table(void)
{
    CHECK(key(GLFW_KEY_1).kind == ACTION_SELECT_CLIP && key(GLFW_KEY_1).arg == 0, "1 -> clip index 0");
    CHECK(key(GLFW_KEY_3).kind == ACTION_SELECT_CLIP && key(GLFW_KEY_3).arg == 2, "3 -> clip index 2");
    CHECK(key(GLFW_KEY_9).kind == ACTION_SELECT_CLIP && key(GLFW_KEY_9).arg == 8, "9 -> clip index 8");
    CHECK(key(GLFW_KEY_N).kind == ACTION_NEXT_CLIP && key(GLFW_KEY_RIGHT).kind == ACTION_NEXT_CLIP, "N/Right");
    CHECK(key(GLFW_KEY_P).kind == ACTION_PREV_CLIP && key(GLFW_KEY_LEFT).kind == ACTION_PREV_CLIP, "P/Left");
    CHECK(key(GLFW_KEY_SPACE).kind == ACTION_TOGGLE_PAUSE, "space");
    CHECK(key(GLFW_KEY_PERIOD).kind == ACTION_STEP_FORWARD && key(GLFW_KEY_COMMA).kind == ACTION_STEP_BACK, ". ,");
    CHECK(key(GLFW_KEY_EQUAL).kind == ACTION_SPEED_UP && key(GLFW_KEY_KP_ADD).kind == ACTION_SPEED_UP, "= KP+");
    CHECK(action_for_key(GLFW_KEY_EQUAL, GLFW_MOD_SHIFT).kind == ACTION_SPEED_UP, "+ (shift =)");
    CHECK(key(GLFW_KEY_MINUS).kind == ACTION_SPEED_DOWN && key(GLFW_KEY_KP_SUBTRACT).kind == ACTION_SPEED_DOWN,
          "- KP-");
    CHECK(key(GLFW_KEY_0).kind == ACTION_RESTART, "0");
    CHECK(key(GLFW_KEY_H).kind == ACTION_TOGGLE_HELP, "H");
    CHECK(key(GLFW_KEY_B).kind == ACTION_TOGGLE_SKELETON, "B");
    CHECK(action_for_key(GLFW_KEY_B, GLFW_MOD_CONTROL).kind == ACTION_NONE, "Ctrl+B is not ours");
    CHECK(key(GLFW_KEY_F).kind == ACTION_FRAME_CAMERA, "F");
    CHECK(key(GLFW_KEY_ESCAPE).kind == ACTION_QUIT && key(GLFW_KEY_Q).kind == ACTION_QUIT, "Esc/Q");
    CHECK(key(GLFW_KEY_SEMICOLON).kind == ACTION_NONE && key(GLFW_KEY_UNKNOWN).kind == ACTION_NONE, "unbound keys");
    /* issue 19 keys: the aids that teach the formula */
    CHECK(key(GLFW_KEY_D).kind == ACTION_TOGGLE_COMPARE && key(GLFW_KEY_E).kind == ACTION_TOGGLE_INSPECTOR &&
              key(GLFW_KEY_Y).kind == ACTION_TOGGLE_BONE_SPACE && key(GLFW_KEY_Z).kind == ACTION_TOGGLE_MORPHS &&
              key(GLFW_KEY_SLASH).kind == ACTION_TOGGLE_ISOLATE && key(GLFW_KEY_BACKSPACE).kind == ACTION_TOGGLE_HIDE_JOINT,
          "D E Y Z / Backspace");
    /* issue 11 keys */
    CHECK(key(GLFW_KEY_L).kind == ACTION_TOGGLE_BROWSER && key(GLFW_KEY_TAB).kind == ACTION_TOGGLE_BROWSER, "L / Tab");
    CHECK(key(GLFW_KEY_HOME).kind == ACTION_FIRST_FRAME && key(GLFW_KEY_END).kind == ACTION_LAST_FRAME, "Home / End");
    CHECK(action_for_key(GLFW_KEY_PERIOD, GLFW_MOD_SHIFT).kind == ACTION_NEXT_KEY &&
              action_for_key(GLFW_KEY_COMMA, GLFW_MOD_SHIFT).kind == ACTION_PREV_KEY,
          "Shift+. / Shift+,");
    CHECK(key(GLFW_KEY_R).kind == ACTION_TOGGLE_REVERSE && key(GLFW_KEY_O).kind == ACTION_CYCLE_LOOP_MODE &&
              key(GLFW_KEY_M).kind == ACTION_CYCLE_ROOT_MOTION,
          "R O M");
    CHECK(action_for_key(GLFW_KEY_R, GLFW_MOD_CONTROL).kind == ACTION_RELOAD, "Ctrl+R reloads");
    CHECK(key(GLFW_KEY_S).kind == ACTION_SCREENSHOT && key(GLFW_KEY_F12).kind == ACTION_SCREENSHOT, "S / F12");
    CHECK(action_for_key(GLFW_KEY_S, GLFW_MOD_SHIFT).kind == ACTION_RECORD, "Shift+S records");
    CHECK(key(GLFW_KEY_F11).kind == ACTION_FULLSCREEN && key(GLFW_KEY_U).kind == ACTION_TOGGLE_MESH_LIST, "F11, U");
    Action front = key(GLFW_KEY_KP_1), back = action_for_key(GLFW_KEY_KP_1, GLFW_MOD_CONTROL);
    Action right = key(GLFW_KEY_KP_3), left = action_for_key(GLFW_KEY_KP_3, GLFW_MOD_SHIFT);
    Action top = key(GLFW_KEY_KP_7), bottom = action_for_key(GLFW_KEY_KP_7, GLFW_MOD_CONTROL);
    CHECK(front.kind == ACTION_VIEW_PRESET && front.arg == CAMERA_VIEW_FRONT && back.arg == CAMERA_VIEW_BACK &&
              right.arg == CAMERA_VIEW_RIGHT && left.arg == CAMERA_VIEW_LEFT && top.arg == CAMERA_VIEW_TOP &&
              bottom.arg == CAMERA_VIEW_BOTTOM,
          "keypad 1 / 3 / 7 views, Ctrl or Shift the opposite");
    CHECK(action_repeats(ACTION_NEXT_CLIP) && action_repeats(ACTION_PREV_CLIP) && action_repeats(ACTION_STEP_FORWARD) &&
              action_repeats(ACTION_NEXT_KEY) && !action_repeats(ACTION_TOGGLE_PAUSE) &&
              !action_repeats(ACTION_TOGGLE_BROWSER),
          "N / P / arrows and steps repeat when held; toggles do not");
    CHECK(action_for_key(GLFW_KEY_Q, GLFW_MOD_CONTROL).kind == ACTION_NONE, "Ctrl+Q is not ours");
    CHECK(action_for_key(GLFW_KEY_ESCAPE, GLFW_MOD_CONTROL).kind == ACTION_QUIT, "Esc quits with any modifier");
}

static void test_clip_selection(void)
{
    const float durations[3] = {1.0f, 2.0f, 0.5f};
    Playback p;
    playback_init(&p, 3, durations, 0, 0.0f, 1.0f);
    CHECK(p.clip == 0 && p.clip_count == 3 && near(p.speed, 1.0f) && !p.paused, "init");

    press(&p, GLFW_KEY_3, durations);
    CHECK(p.clip == 2, "3 picks index 2, got %d", p.clip);
    p.time = 0.25f;
    press(&p, GLFW_KEY_9, durations);
    CHECK(p.clip == 2 && near(p.time, 0.25f), "9 with 3 clips is ignored (clip %d time %g)", p.clip, p.time);
    press(&p, GLFW_KEY_N, durations);
    CHECK(p.clip == 0 && near(p.time, 0.0f), "N past the last wraps to 0, got %d", p.clip);
    press(&p, GLFW_KEY_RIGHT, durations);
    CHECK(p.clip == 1, "Right = next, got %d", p.clip);
    press(&p, GLFW_KEY_P, durations);
    CHECK(p.clip == 0, "P = previous, got %d", p.clip);
    press(&p, GLFW_KEY_P, durations);
    CHECK(p.clip == 2, "P before the first wraps to the last, got %d", p.clip);
    press(&p, GLFW_KEY_LEFT, durations);
    CHECK(p.clip == 1, "Left = previous, got %d", p.clip);
    press(&p, GLFW_KEY_2, durations);
    CHECK(p.clip == 1 && near(p.time, 0.0f), "2 picks index 1 and starts it at 0");

    /* a static pose (--clip rest / bind) steps into the clips */
    playback_init(&p, 3, durations, -1, 0.0f, 1.0f);
    press(&p, GLFW_KEY_N, durations);
    CHECK(p.clip == 0, "next from the rest pose = first clip, got %d", p.clip);
    playback_init(&p, 3, durations, -2, 0.0f, 1.0f);
    press(&p, GLFW_KEY_P, durations);
    CHECK(p.clip == 2, "previous from the bind pose = last clip, got %d", p.clip);
}

static void test_speed(void)
{
    const float durations[1] = {1.0f};
    Playback p;
    playback_init(&p, 1, durations, 0, 0.0f, 1.0f);
    press(&p, GLFW_KEY_EQUAL, durations);
    CHECK(near(p.speed, 2.0f), "+ doubles: %g", p.speed);
    press(&p, GLFW_KEY_MINUS, durations);
    press(&p, GLFW_KEY_KP_SUBTRACT, durations);
    CHECK(near(p.speed, 0.5f), "- halves: %g", p.speed);
    for (int i = 0; i < 20; i++) press(&p, GLFW_KEY_MINUS, durations);
    CHECK(near(p.speed, PLAYBACK_SPEED_MIN), "speed stops at 1/64: %g", p.speed);
    for (int i = 0; i < 40; i++) press(&p, GLFW_KEY_KP_ADD, durations);
    CHECK(near(p.speed, PLAYBACK_SPEED_MAX), "speed stops at 64: %g", p.speed);
    press(&p, GLFW_KEY_MINUS, durations);
    CHECK(near(p.speed, 32.0f), "and comes back down: %g", p.speed);

    /* one range for --speed and the keys: |speed| in [1/64, 64], the sign is the direction */
    playback_init(&p, 1, durations, 0, 0.0f, 100.0f);
    CHECK(near(p.speed, 64.0f), "speed 100 clamps to 64: %g", p.speed);
    press(&p, GLFW_KEY_EQUAL, durations);
    CHECK(near(p.speed, 64.0f), "+ at the limit stays: %g", p.speed);
    press(&p, GLFW_KEY_MINUS, durations);
    CHECK(near(p.speed, 32.0f), "- halves: %g", p.speed);
    playback_init(&p, 1, durations, 0, 0.0f, -3.0f);
    CHECK(near(p.speed, -3.0f) && near(p.time, 1.0f), "a negative speed plays backwards from the end: %g", p.speed);
    press(&p, GLFW_KEY_EQUAL, durations);
    CHECK(near(p.speed, -6.0f), "+ doubles the magnitude, keeps the direction: %g", p.speed);
    press(&p, GLFW_KEY_R, durations);
    CHECK(near(p.speed, 6.0f), "R reverses: %g", p.speed);
    playback_init(&p, 1, durations, 0, 0.0f, 0.0f);
    CHECK(near(p.speed, 1.0f), "speed 0 falls back to 1: %g", p.speed);
}

/* A key and the playback time it must leave. */
typedef struct KeyTime {
    int         key;
    float       time;
    const char *what;
} KeyTime;

/* Presses each key in turn; after each the time must be the one given. */
static void press_expecting(Playback *p, const float *durations, const KeyTime *steps, int count)
{
    for (int i = 0; i < count; i++) {
        press(p, steps[i].key, durations);
        CHECK(near(p->time, steps[i].time), "%s: %g", steps[i].what, p->time);
    }
}

static void test_pause_and_step(void)
{
    const float durations[2] = {1.0f, 0.05f};
    const float step = PLAYBACK_FRAME_STEP;
    Playback p;
    playback_init(&p, 2, durations, 0, 0.5f, 1.0f);
    CHECK(near(p.time, 0.5f), "--time: %g", p.time);

    const KeyTime playing[] = {{GLFW_KEY_PERIOD, 0.5f, "no step while playing"},
                               {GLFW_KEY_COMMA, 0.5f, "no step back while playing"}};
    press_expecting(&p, durations, playing, 2);

    press(&p, GLFW_KEY_SPACE, durations);
    CHECK(p.paused, "space pauses");
    press(&p, GLFW_KEY_PERIOD, durations);
    CHECK(near(p.time, 0.5f + step), "step forward by one frame: %g", p.time);
    press(&p, GLFW_KEY_COMMA, durations);
    press(&p, GLFW_KEY_COMMA, durations);
    CHECK(near(p.time, 0.5f - step), "step back by one frame: %g", p.time);
    playback_advance(&p, 0.25f, durations);
    CHECK(near(p.time, 0.5f - step), "paused: time does not advance: %g", p.time);

    /* the clip end: the last key is a stop, then wrap to 0; back from 0 goes to the end */
    p.time = 1.0f - 0.5f * step;
    const KeyTime at_end[] = {{GLFW_KEY_PERIOD, 1.0f, "step onto the last key"},
                              {GLFW_KEY_PERIOD, 0.0f, "step past the end wraps to 0"},
                              {GLFW_KEY_COMMA, 1.0f, "step back from 0 goes to the end"}};
    press_expecting(&p, durations, at_end, 3);

    press(&p, GLFW_KEY_0, durations);
    CHECK(near(p.time, 0.0f) && p.paused, "0 restarts and keeps the pause: %g", p.time);
    press(&p, GLFW_KEY_SPACE, durations);
    CHECK(!p.paused, "space plays again");
    playback_advance(&p, 0.3f, durations);
    press(&p, GLFW_KEY_0, durations);
    CHECK(near(p.time, 0.0f), "0 restarts while playing: %g", p.time);

    press(&p, GLFW_KEY_H, durations);
    CHECK(p.show_help, "H shows help");
    press(&p, GLFW_KEY_H, durations);
    CHECK(!p.show_help, "H hides help");

    /* B is a teaching aid (aids_apply), not playback state */
    AidOptions skeleton_aids = {0};
    const float before = p.time;
    CHECK(!playback_apply(&p, key(GLFW_KEY_B), durations), "B is not a playback action");
    CHECK(aids_apply(&skeleton_aids, key(GLFW_KEY_B)) && skeleton_aids.show_skeleton, "B shows the skeleton");
    CHECK(p.clip == 0 && near(p.time, before) && !p.show_help, "B changes nothing else");
    aids_apply(&skeleton_aids, key(GLFW_KEY_B));
    CHECK(!skeleton_aids.show_skeleton, "B hides the skeleton");

    CHECK(!p.cull_back_faces, "back faces are drawn by default (open meshes)");
    press(&p, GLFW_KEY_C, durations);
    CHECK(p.cull_back_faces && p.clip == 0 && !p.show_help, "C turns culling on, nothing else");
    press(&p, GLFW_KEY_C, durations);
    CHECK(!p.cull_back_faces, "C turns culling off");

    CHECK(!playback_apply(&p, key(GLFW_KEY_F), durations), "F is the viewer's, not playback's");
    CHECK(!playback_apply(&p, key(GLFW_KEY_Q), durations), "Q is the viewer's, not playback's");
}

static void test_advance_loops(void)
{
    const float durations[2] = {1.25f, 0.0f};
    Playback p;
    playback_init(&p, 2, durations, 0, 0.0f, 1.0f);
    playback_advance(&p, 1.0f, durations);
    CHECK(near(p.time, 1.0f), "advance 1 s: %g", p.time);
    playback_advance(&p, 0.5f, durations);
    CHECK(near(p.time, 0.25f), "advance past the duration wraps: %g", p.time);
    playback_advance(&p, 10.0f * 1.25f, durations);
    CHECK(near(p.time, 0.25f), "whole loops: %g", p.time);
    p.speed = 2.0f;
    playback_advance(&p, 0.5f, durations);
    CHECK(near(p.time, 0.0f), "landing exactly on the duration wraps to 0: %g", p.time);
    playback_init(&p, 2, durations, 0, 0.2f, 2.0f);
    playback_advance(&p, 0.25f, durations);
    CHECK(near(p.time, 0.7f), "speed scales the frame time: %g", p.time);
    for (int i = 0; i < 10000; i++) playback_advance(&p, 1.0f / 60.0f, durations);
    CHECK(p.time >= 0.0f && p.time < 1.25f, "many frames stay in range: %g", p.time);

    playback_init(&p, 2, durations, 0, 99.0f, 1.0f);
    CHECK(near(p.time, 1.25f), "--time past the end clamps to the last key: %g", p.time);

    /* a clip with one key (duration 0) is a pose */
    playback_init(&p, 2, durations, 1, 0.5f, 1.0f);
    playback_advance(&p, 0.3f, durations);
    CHECK(near(p.time, 0.0f), "zero-length clip stays at 0: %g", p.time);
    p.paused = true;
    press(&p, GLFW_KEY_PERIOD, durations);
    press(&p, GLFW_KEY_COMMA, durations);
    CHECK(near(p.time, 0.0f), "stepping a zero-length clip stays at 0: %g", p.time);
}

static void test_no_clips(void)
{
    Playback p;
    playback_init(&p, 0, NULL, -1, 3.0f, 1.0f);
    CHECK(p.clip < 0 && p.clip_count == 0 && near(p.time, 0.0f), "no clips: rest pose at 0");
    playback_init(&p, 0, NULL, 0, 0.0f, 1.0f);
    CHECK(p.clip < 0, "clip 0 of a model without clips is the rest pose: %d", p.clip);
    const int keys[] = {GLFW_KEY_1, GLFW_KEY_9, GLFW_KEY_N, GLFW_KEY_P, GLFW_KEY_RIGHT, GLFW_KEY_LEFT,
                        GLFW_KEY_SPACE, GLFW_KEY_PERIOD, GLFW_KEY_COMMA, GLFW_KEY_EQUAL, GLFW_KEY_MINUS,
                        GLFW_KEY_0, GLFW_KEY_H, GLFW_KEY_F, GLFW_KEY_B};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        press(&p, keys[i], NULL);
        playback_advance(&p, 0.1f, NULL);
    }
    CHECK(p.clip < 0 && near(p.time, 0.0f), "no clips: keys leave the rest pose (clip %d time %g)", p.clip, p.time);
    CHECK(near(playback_duration(&p, NULL), 0.0f), "no clips: duration 0");
}

/* The teaching aids' keys (aids_apply) and the pose source key T (playback_apply). */
static void test_teaching_keys(void)
{
    AidOptions aids = {.grid = true};
    CHECK(action_for_key(GLFW_KEY_W, 0).kind == ACTION_CYCLE_WEIGHTS && action_for_key(GLFW_KEY_K, 0).kind ==
          ACTION_CYCLE_SKINNING && action_for_key(GLFW_KEY_RIGHT_BRACKET, 0).kind == ACTION_JOINT_NEXT &&
          action_for_key(GLFW_KEY_LEFT_BRACKET, 0).kind == ACTION_JOINT_PREV, "W, K, ], [ are bound");
    Action w = {ACTION_CYCLE_WEIGHTS, 0}, k = {ACTION_CYCLE_SKINNING, 0}, a = {ACTION_CYCLE_AXES, 0};
    aids_apply(&aids, w);
    CHECK(aids.show_weights && !aids.show_influences, "W: weights");
    aids_apply(&aids, w);
    CHECK(!aids.show_weights && aids.show_influences, "W again: influence count");
    aids_apply(&aids, w);
    CHECK(!aids.show_weights && !aids.show_influences, "W a third time: the lit surface");
    aids_apply(&aids, k);
    CHECK(aids.skinning == SKINNING_CPU_LBS, "K: CPU LBS");
    aids_apply(&aids, k);
    CHECK(aids.skinning == SKINNING_GPU_DQ, "K: GPU DQS");
    aids_apply(&aids, k);
    CHECK(aids.skinning == SKINNING_RIGID, "K: rigid (the heaviest joint only)");
    aids_apply(&aids, k);
    CHECK(aids.skinning == SKINNING_GPU_LBS, "K: back to GPU LBS");
    aids_apply(&aids, a);
    aids_apply(&aids, a);
    CHECK(aids.axes == AXES_ALL, "A twice: every joint's axes");
    aids_apply(&aids, a);
    CHECK(aids.axes == AXES_OFF, "A three times: off");
    static const int toggles[] = {GLFW_KEY_B, GLFW_KEY_J, GLFW_KEY_I, GLFW_KEY_X, GLFW_KEY_G, GLFW_KEY_V};
    for (size_t i = 0; i < sizeof toggles / sizeof toggles[0]; i++)
        CHECK(aids_apply(&aids, action_for_key(toggles[i], 0)), "key %d is an aid", toggles[i]);
    CHECK(aids.show_skeleton && aids.show_names && aids.joint_values && aids.wireframe && !aids.grid &&
          aids.show_normals, "B J I X G V toggle their aid");
    CHECK(!aids_apply(&aids, action_for_key(GLFW_KEY_SPACE, 0)), "Space is not an aid");

    float durations[2] = {1.0f, 2.0f};
    Playback p;
    playback_init(&p, 2, durations, 1, 0.5f, 1.0f);
    Action t = {ACTION_CYCLE_POSE_SOURCE, 0};
    playback_apply(&p, t, durations);
    CHECK(p.clip == ANIMATOR_BIND_POSE, "T: clip -> bind pose (%d)", p.clip);
    playback_apply(&p, t, durations);
    CHECK(p.clip == ANIMATOR_REST_POSE, "T: bind -> rest pose (%d)", p.clip);
    playback_apply(&p, t, durations);
    CHECK(p.clip == 1 && near(p.time, 0.5f), "T: rest -> the clip again, time kept (%d, %g)", p.clip, p.time);
    CHECK(!p.fading, "T with --blend 0: a cut");

    /* with a cross-fade time, every step of T fades from what was on screen */
    p.blend_seconds = 0.25f;
    playback_apply(&p, t, durations);
    CHECK(p.fading && p.fade_clip == 1 && near(p.fade_time, 0.5f) && p.clip == ANIMATOR_BIND_POSE,
          "T: clip -> bind pose fades from the clip (fading %d from %d at %g)", p.fading, p.fade_clip, p.fade_time);
    playback_advance(&p, 0.1f, durations);
    CHECK(p.fading && near(playback_fade_weight(&p), 0.4f), "fading: weight %g after 0.1 of 0.25 s",
          playback_fade_weight(&p));
    playback_apply(&p, t, durations);
    CHECK(p.fading && p.fade_clip == ANIMATOR_BIND_POSE && p.clip == ANIMATOR_REST_POSE, "T: bind -> rest fades");
    playback_advance(&p, 0.3f, durations);
    CHECK(!p.fading && playback_fade_weight(&p) == 1.0f, "the fade ends after --blend seconds");
    playback_apply(&p, t, durations);
    CHECK(p.fading && p.fade_clip == ANIMATOR_REST_POSE && p.clip == 1, "T: rest -> clip fades");
    p.paused = true;
    playback_apply(&p, t, durations);
    CHECK(!p.fading && p.clip == ANIMATOR_BIND_POSE, "paused: T cuts");
}

/* The key table (keys.h) is unambiguous: in each player mode, no press matches two bindings;
 * and every bound row has help text. */
static void test_key_table_data(void)
{
    int rows;
    const KeyRow *table = keys_table(&rows);
    for (unsigned mode = KEY_MODE_SKINNED; mode <= KEY_MODE_VAT; mode <<= 1)
        for (int k = GLFW_KEY_SPACE; k <= GLFW_KEY_LAST; k++)
            for (int mods = 0; mods < 16; mods++) {
                int matches = 0;
                for (int r = 0; r < rows; r++) {
                    if (!(table[r].modes & mode)) continue;
                    for (int b = 0; b < KEY_MAX_BINDINGS && table[r].bindings[b].key; b++) {
                        const KeyBinding *binding = &table[r].bindings[b];
                        bool key_hit = binding->kind == ACTION_SELECT_CLIP ? (k >= GLFW_KEY_1 && k <= GLFW_KEY_9)
                                                                           : binding->key == k;
                        if (key_hit && ((unsigned)mods & binding->care) == binding->want) matches++;
                    }
                }
                CHECK(matches <= 1, "mode %u key %d mods %d matches %d bindings", mode, k, mods, matches);
            }
    int help_rows = 0;
    for (int r = 0; r < rows; r++) {
        if (table[r].keys) help_rows++;
        CHECK(!table[r].keys || (table[r].help && table[r].help[0]), "row %d (%s) has help text", r, table[r].keys);
    }
    CHECK(help_rows >= 30, "the help panel lists the keys (%d rows)", help_rows);
    /* the VAT player's subset: playback keys yes, the skinned viewer's own no */
    CHECK(keys_action(GLFW_KEY_SPACE, 0, KEY_MODE_VAT).kind == ACTION_TOGGLE_PAUSE, "Space pauses a bake");
    CHECK(keys_action(GLFW_KEY_G, 0, KEY_MODE_VAT).kind == ACTION_TOGGLE_GRID, "G: the bake's grid");
    CHECK(keys_action(GLFW_KEY_B, 0, KEY_MODE_VAT).kind == ACTION_NONE, "B: a bake has no skeleton");
    /* Shift+G: the ground shadow in both players; G alone stays the grid */
    for (unsigned mode = KEY_MODE_SKINNED; mode <= KEY_MODE_VAT; mode++) {
        CHECK(keys_action(GLFW_KEY_G, GLFW_MOD_SHIFT, mode).kind == ACTION_TOGGLE_SHADOW, "Shift+G: shadow (mode %u)", mode);
        CHECK(keys_action(GLFW_KEY_G, 0, mode).kind == ACTION_TOGGLE_GRID, "G: still the grid (mode %u)", mode);
    }
    AidOptions aids = {0};
    Action shadow_key = action_for_key(GLFW_KEY_G, GLFW_MOD_SHIFT);
    CHECK(aids_apply(&aids, shadow_key) && aids.shadow && !aids.grid, "Shift+G turns the shadow on, not the grid");
    CHECK(aids_apply(&aids, shadow_key) && !aids.shadow, "Shift+G again turns it off");
    CHECK(keys_action(GLFW_KEY_T, 0, KEY_MODE_VAT).kind == ACTION_NONE, "T: a bake has no bind pose");
    /* Shift+R: the reference functions (--reference); R alone still reverses, Ctrl+R reloads */
    Action reference_key = action_for_key(GLFW_KEY_R, GLFW_MOD_SHIFT);
    CHECK(reference_key.kind == ACTION_TOGGLE_REFERENCE, "Shift+R: reference functions");
    CHECK(action_for_key(GLFW_KEY_R, 0).kind == ACTION_TOGGLE_REVERSE, "R: still reverse");
    CHECK(action_for_key(GLFW_KEY_R, GLFW_MOD_CONTROL).kind == ACTION_RELOAD, "Ctrl+R: still reload");
    CHECK(aids_apply(&aids, reference_key) && aids.reference, "Shift+R turns the reference functions on");
    CHECK(aids_apply(&aids, reference_key) && !aids.reference, "Shift+R again: the fast path");
}

int main(void)
{
    test_teaching_keys();
    test_key_table();
    test_key_table_data();
    test_clip_selection();
    test_speed();
    test_pause_and_step();
    test_advance_loops();
    test_no_clips();
    return test_finish();
}
