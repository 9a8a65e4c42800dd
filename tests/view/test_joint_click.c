/* test_joint_click.c — clicking a joint dot selects it (scene_click_joint, what the viewer's
 * mouse-button callback calls), without a mouse: the clicks are positions handed to the
 * function, on a HiDPI-like window (framebuffer twice the window's units).
 *
 * On the demo (assets/demo.fbx, in a clip and the bind pose) and Xbot (a dense rig, when
 * ../shared/models has it), for a grid of clicks over the whole window and for a click on and
 * near every dot, the joint selected equals an independent answer: the test projects the CPU
 * model-space joints itself and takes the nearest dot within the pick radius. Also: a drag
 * selects nothing, a click on empty space keeps the selection, and the joint a click on a dot
 * selects is that dot's (its projection lies within a pixel of the click). Expectations come
 * from the loaded model, never from joint names. */
#include "view/framing.h"
#include "view/camera.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "teach/teaching_aids.h"
#include "testgl.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_W 640   /* window units */
#define WINDOW_H 400
#define FB_W 1280      /* framebuffer pixels (a 2x HiDPI screen) */
#define FB_H 800

/* Joint j's origin in framebuffer pixels (y down), by the test's own arithmetic. */
static bool project(const Animator *animator, int joint, const mat4 view, const mat4 projection, float *x, float *y)
{
    float vp[4][4], clip[4] = {0, 0, 0, 0};
    test_naive_mat4_mul((const float(*)[4])projection, (const float(*)[4])view, vp);
    const float *p = animator->joint_model[joint][3];
    for (int r = 0; r < 4; r++) clip[r] = vp[0][r] * p[0] + vp[1][r] * p[1] + vp[2][r] * p[2] + vp[3][r];
    if (clip[3] <= 0.0f) return false;
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * FB_W;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * FB_H;
    return true;
}

/* The nearest dot within `radius` framebuffer pixels of (x, y); -1 if none. Float rounding
 * differs between this projection and the viewer's, so every dot within 0.05 px of the best
 * distance is an acceptable answer (`ties`, which also takes -1 when the best is within 0.05 px
 * of the radius). */
#define SLACK 0.05f
static int nearest_dot(const TeachingAids *scene, const float (*dots)[2], const bool *on_screen, float x, float y,
                       float radius, int *ties, int *tie_count)
{
    int best = -1;
    float best_distance = INFINITY;
    for (int d = 0; d < scene->dot_count; d++) {
        if (!on_screen[d]) continue;
        float distance = hypotf(dots[d][0] - x, dots[d][1] - y);
        if (distance < best_distance) best_distance = distance, best = d;
    }
    *tie_count = 0;
    if (best < 0 || best_distance > radius + SLACK) return -1;
    for (int d = 0; d < scene->dot_count; d++) {
        float distance = hypotf(dots[d][0] - x, dots[d][1] - y);
        if (on_screen[d] && distance <= best_distance + SLACK && distance <= radius + SLACK)
            ties[(*tie_count)++] = scene->dot_joints[d];
    }
    if (best_distance > radius - SLACK) ties[(*tie_count)++] = -1;
    return best_distance <= radius ? scene->dot_joints[best] : -1;
}

static bool in_list(const int *list, int count, int value)
{
    for (int i = 0; i < count; i++)
        if (list[i] == value) return true;
    return false;
}

static void check_model(const char *path, const char *clip_name)
{
    static TestScene t;
    AidOptions aids = {.show_skeleton = true};
    if (!test_scene_open(&t, path, &aids, NULL)) return;
    Model *model = &t.model;
    Animator *animator = &t.animator;
    TeachingAids *scene = &t.scene;
    mat4 view, projection;
    test_scene_camera(&t, FB_W, FB_H, view, projection);
    float radius = SCENE_PICK_RADIUS * text_scale_for(FB_W, FB_H);
    float (*dots)[2] = calloc((size_t)scene->dot_count + 1, sizeof *dots);
    bool *on_screen = calloc((size_t)scene->dot_count + 1, sizeof *on_screen);
    int *ties = calloc((size_t)scene->dot_count + 2, sizeof *ties);

    const int clips[2] = {clip_name ? model_find_clip(model, clip_name) : 0, ANIMATOR_BIND_POSE};
    for (int pose = 0; pose < 2; pose++) {
        if (pose == 0 && (clips[0] < 0 || model->clip_count == 0)) continue;
        scene_evaluate(scene, animator, clips[pose], 0.4f);
        int visible = 0;
        for (int d = 0; d < scene->dot_count; d++) {
            on_screen[d] = project(animator, scene->dot_joints[d], view, projection, &dots[d][0], &dots[d][1]);
            visible += on_screen[d];
        }
        /* 1. a click on (and 0.6 radius beside) every dot selects the nearest dot there */
        int on_dot = 0, on_dot_right = 0, beside = 0, beside_right = 0;
        for (int d = 0; d < scene->dot_count; d++) {
            if (!on_screen[d] || dots[d][0] < 0 || dots[d][1] < 0 || dots[d][0] >= FB_W || dots[d][1] >= FB_H) continue;
            for (int offset = 0; offset < 2; offset++) {
                float fx = dots[d][0] + (offset ? 0.6f * radius : 0.0f), fy = dots[d][1];
                double wx = fx * WINDOW_W / FB_W, wy = fy * WINDOW_H / FB_H;   /* framebuffer -> window units */
                int tie_count;
                int expected = nearest_dot(scene, (const float(*)[2])dots, on_screen, fx, fy, radius, ties, &tie_count);
                scene_select_joint(scene, -1);
                /* pressed half a unit away, released on the spot: the release picks */
                int got = scene_click_joint(scene, animator, view, projection, WINDOW_W, WINDOW_H, FB_W, FB_H,
                                            wx + 0.5, wy - 0.5, wx, wy);
                bool right = got == expected || in_list(ties, tie_count, got);
                right = right && scene->selected_joint == got;
                if (offset == 0) {
                    on_dot++;
                    /* the joint selected is the clicked dot's, or one drawn on the same pixel */
                    float gx = 0, gy = 0;
                    bool drawn = got >= 0 && project(animator, got, view, projection, &gx, &gy);
                    right = right && drawn && hypotf(gx - fx, gy - fy) < 1.0f + 0.5f * FB_W / WINDOW_W;
                    on_dot_right += right;
                } else {
                    beside++;
                    beside_right += right;
                }
                if (!right)
                    printf("  %s: click at (%.1f, %.1f) fb px on %s: got joint %d, expected %d\n", path, fx, fy,
                           model->skeleton.names[scene->dot_joints[d]], got, expected);
            }
        }
        CHECK(on_dot >= 10 && on_dot_right == on_dot, "%s pose %d: %d of %d clicks on a dot select it", path, pose,
              on_dot_right, on_dot);
        CHECK(beside_right == beside, "%s pose %d: %d of %d clicks 0.6 radius beside a dot select the nearest", path,
              pose, beside_right, beside);

        /* 2. a grid of clicks over the window: the same answer as the test's own nearest dot */
        int clicks = 0, agree = 0, picked = 0, empty = 0;
        for (int wy = 2; wy < WINDOW_H; wy += 5)
            for (int wx = 3; wx < WINDOW_W; wx += 5) {
                float fx = (float)wx * FB_W / WINDOW_W, fy = (float)wy * FB_H / WINDOW_H;
                int tie_count;
                int expected = nearest_dot(scene, (const float(*)[2])dots, on_screen, fx, fy, radius, ties, &tie_count);
                int before = scene->dot_joints[clicks % scene->dot_count];
                scene_select_joint(scene, before);
                int got = scene_click_joint(scene, animator, view, projection, WINDOW_W, WINDOW_H, FB_W, FB_H, wx,
                                            wy, wx, wy);
                bool right = got == expected || in_list(ties, tie_count, got);
                /* a click on empty space keeps the selection; a hit selects */
                right = right && scene->selected_joint == (got >= 0 ? got : before);
                clicks++;
                agree += right;
                picked += got >= 0;
                empty += got < 0;
            }
        CHECK(agree == clicks && picked > 50 && empty > 1000,
              "%s pose %d: %d of %d grid clicks agree with the projected joints (%d on a dot, %d empty)", path, pose,
              agree, clicks, picked, empty);

        /* 3. a drag from a dot (5 window units) selects nothing */
        int drags = 0, drag_selected = 0;
        for (int d = 0; d < scene->dot_count; d++) {
            if (!on_screen[d]) continue;
            double wx = dots[d][0] * WINDOW_W / FB_W, wy = dots[d][1] * WINDOW_H / FB_H;
            scene_select_joint(scene, -1);
            int got = scene_click_joint(scene, animator, view, projection, WINDOW_W, WINDOW_H, FB_W, FB_H, wx, wy,
                                        wx + SCENE_CLICK_PIXELS + 1.0, wy);
            drags++;
            drag_selected += got >= 0 || scene->selected_joint >= 0;
        }
        CHECK(drags > 0 && drag_selected == 0, "%s pose %d: %d of %d drags selected a joint", path, pose, drag_selected,
              drags);
        printf("%-60s %s: %d dots (%d on screen, radius %.0f fb px): %d/%d on-dot clicks, %d/%d beside, %d/%d grid "
               "clicks (%d hits), %d drags select nothing\n",
               path, pose == 0 ? "clip" : "bind", scene->dot_count, visible, radius, on_dot_right, on_dot, beside_right,
               beside, agree, clicks, picked, drags);
    }
    free(dots);
    free(on_screen);
    free(ties);
    test_scene_close(&t);
}

int main(void)
{
    GlContext context;
    if (!test_gl_open(&context)) return TEST_SKIP_CODE;
    check_model(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", NULL);
    const char *xbot = SKINVIEW_SOURCE_DIR "/../shared/models/threejs-xbot/Xbot.glb";
    if (test_file_exists(xbot)) check_model(xbot, NULL);
    else printf("%s absent: skipped\n", xbot);
    glcontext_destroy(&context);
    return test_finish();
}
