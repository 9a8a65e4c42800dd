/* test_name_labels.c — joint names (J) never overlap (scene_place_names, src/teach/scene.c).
 *
 * On the demo (assets/demo.fbx), Xbot and the three.js Mixamo FBX (dense rigs of 50-67 joints,
 * when ../shared/models has them), in the bind pose and mid-clip, on windows from 320x240 to
 * 2560x1440 (text scale 1..3), with no joint selected and with the deepest joint selected:
 *   - no two placed label panels intersect, and every panel lies inside the window;
 *   - each joint is named at most once, next to its own dot (the panel within 2.5 label heights);
 *   - the selected joint is always named, its parent is named whenever its dot is apart;
 *   - placed at the naive spot (right of every dot), names on the dense rigs WOULD overlap: the
 *     test exercises real collisions, and most joints still get a name (counts printed).
 * Expectations come from the loaded model (depths, parents), never from joint names. */
#include "view/framing.h"
#include "view/camera.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "teach/teaching_aids.h"
#include "anim/skeleton_lines.h"
#include "testgl.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool overlap(const NameLabel *a, const NameLabel *b)
{
    return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height && b->y < a->y + a->height;
}

/* Distance from point (x, y) to the rectangle of `label`. */
static float distance_to(const NameLabel *label, float x, float y)
{
    float dx = fmaxf(fmaxf(label->x - x, 0.0f), x - (label->x + label->width));
    float dy = fmaxf(fmaxf(label->y - y, 0.0f), y - (label->y + label->height));
    return hypotf(dx, dy);
}

static void check_model(const char *path, bool dense)
{
    static TestScene t;
    AidOptions aids = {.show_names = true};
    if (!test_scene_open(&t, path, &aids, NULL)) return;
    Model *model = &t.model;
    Animator *animator = &t.animator;
    TeachingAids *scene = &t.scene;
    NameLabel *labels = calloc((size_t)scene->dot_count + 1, sizeof *labels);
    /* the deepest dot joint (first in hierarchy order among the deepest) */
    int deepest = -1, deepest_depth = -1;
    for (int d = 0; d < scene->dot_count; d++) {
        int depth = skeleton_joint_depth(&model->skeleton, scene->dot_joints[d]);
        if (depth > deepest_depth) deepest_depth = depth, deepest = scene->dot_joints[d];
    }
    static const int sizes[4][2] = {{1280, 720}, {400, 700}, {320, 240}, {2560, 1440}};
    int layouts = 0, worst_naive_overlaps = 0, fewest_share_percent = 100;
    for (int s = 0; s < 4; s++) {
        int fb_w = sizes[s][0], fb_h = sizes[s][1];
        float scale = text_scale_for(fb_w, fb_h);
        text_set_size(&t.text, scene_text_pixels(fb_w, fb_h));
        const float pad = text_pad(&t.text);
        mat4 view, projection;
        test_scene_camera(&t, fb_w, fb_h, view, projection);
        for (int pose = 0; pose < 2; pose++) {
            if (pose == 1 && model->clip_count == 0) continue;
            scene_evaluate(scene, animator, pose == 0 ? ANIMATOR_BIND_POSE : 0,
                           pose == 0 ? 0.0f : 0.5f * model->clips[0].duration);
            for (int selection = 0; selection < 2; selection++) {
                int selected = selection ? deepest : -1;
                scene_select_joint(scene, selected);
                int placed = scene_place_names(scene, &t.text, animator, view, projection, fb_w, fb_h, labels);
                layouts++;
                int overlaps = 0, outside = 0, far = 0, twice = 0, visible = 0, naive_overlaps = 0;
                bool selected_named = false, parent_named = false;
                float sx = 0, sy = 0, px = 0, py = 0;
                bool selected_on_screen = selected >= 0 &&
                                          scene_project_joint(animator, selected, view, projection, fb_w, fb_h, &sx, &sy);
                int parent = selected >= 0 ? model->skeleton.parent[selected] : -1;
                bool parent_on_screen =
                    parent >= 0 && scene_project_joint(animator, parent, view, projection, fb_w, fb_h, &px, &py);
                for (int i = 0; i < placed; i++) {
                    const NameLabel *a = &labels[i];
                    for (int k = i + 1; k < placed; k++) {
                        overlaps += overlap(a, &labels[k]);
                        twice += a->joint == labels[k].joint;
                    }
                    outside += a->x < 0 || a->y < 0 || a->x + a->width > fb_w + 1e-3f || a->y + a->height > fb_h + 1e-3f;
                    float x, y;
                    if (!scene_project_joint(animator, a->joint, view, projection, fb_w, fb_h, &x, &y) ||
                        distance_to(a, x, y) > 2.5f * a->height)
                        far++;
                    selected_named = selected_named || a->joint == selected;
                    parent_named = parent_named || a->joint == parent;
                }
                for (int d = 0; d < scene->dot_count; d++) {
                    float x, y;
                    if (scene_project_joint(animator, scene->dot_joints[d], view, projection, fb_w, fb_h, &x, &y) &&
                        x >= 0 && y >= 0 && x < fb_w && y < fb_h)
                        visible++;
                }
                {   /* the naive layout: every name right of its dot, vertically centred */
                    NameLabel naive[256];
                    int n = 0;
                    for (int d = 0; d < scene->dot_count && n < 256; d++) {
                        float x, y, w, h;
                        if (!scene_project_joint(animator, scene->dot_joints[d], view, projection, fb_w, fb_h, &x, &y))
                            continue;
                        text_measure(&t.text, model->skeleton.names[scene->dot_joints[d]] + scene->name_prefix, &w, &h);
                        naive[n++] = (NameLabel){scene->dot_joints[d], x + pad + 1.0f, y - 0.5f * h - pad,
                                                 w + 2.0f * pad, h + 2.0f * pad};
                    }
                    for (int i = 0; i < n; i++)
                        for (int k = i + 1; k < n; k++) naive_overlaps += overlap(&naive[i], &naive[k]);
                }
                if (naive_overlaps > worst_naive_overlaps) worst_naive_overlaps = naive_overlaps;
                int share = visible ? 100 * placed / visible : 100;
                if (share < fewest_share_percent) fewest_share_percent = share;
                CHECK(overlaps == 0 && outside == 0 && twice == 0 && far == 0,
                      "%s %dx%d pose %d sel %d: %d placed: %d overlapping pairs, %d outside, %d twice, %d far from "
                      "their dot",
                      path, fb_w, fb_h, pose, selected, placed, overlaps, outside, twice, far);
                if (selected_on_screen && sx >= 0 && sy >= 0 && sx < fb_w && sy < fb_h)
                    CHECK(selected_named, "%s %dx%d pose %d: the selected joint %d is named", path, fb_w, fb_h, pose,
                          selected);
                /* the parent goes second: only the selected joint's panel can take its spots, and
                 * a parent one label height or more away always has a free one */
                if (selected_on_screen && parent_on_screen && hypotf(px - sx, py - sy) / scale > 80.0f &&
                    px >= 0 && py >= 0 && px < fb_w && py < fb_h)
                    CHECK(parent_named, "%s %dx%d pose %d: the selected joint's parent is named", path, fb_w, fb_h,
                          pose);
                if (s == 0 && pose == 0 && selection == 0)
                    printf("%-60s 1280x720 bind: %d of %d visible joints named (naive layout: %d overlapping pairs)\n",
                           path, placed, visible, naive_overlaps);
            }
        }
    }
    if (dense)
        CHECK(worst_naive_overlaps > 10, "%s: the naive layout overlaps (%d pairs): the test sees collisions", path,
              worst_naive_overlaps);
    CHECK(fewest_share_percent >= 25, "%s: at least a quarter of the visible joints named in every layout (%d %%)",
          path, fewest_share_percent);
    printf("%-60s %d layouts without overlap; fewest named %d %% of the visible joints\n", path, layouts,
           fewest_share_percent);
    free(labels);
    test_scene_close(&t);
}

int main(void)
{
    GlContext context;
    if (!test_gl_open(&context)) return TEST_SKIP_CODE;
    check_model(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", false);
    static const char *const dense[2] = {SKINVIEW_SOURCE_DIR "/../shared/models/threejs-xbot/Xbot.glb",
                                         SKINVIEW_SOURCE_DIR "/../shared/models/threejs-mixamo-fbx/mixamo.fbx"};
    for (int i = 0; i < 2; i++) {
        if (test_file_exists(dense[i])) check_model(dense[i], true);
        else printf("%s absent: skipped\n", dense[i]);
    }
    glcontext_destroy(&context);
    return test_finish();
}
