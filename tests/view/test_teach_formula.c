/* test_teach_formula.c — the aids of issue 19 from their keys and their flags:
 *   keys   D E Y Z / Backspace toggle what aids_apply / the scene says (and K reaches rigid);
 *   scene  (a GL context, the demo) a click on a vertex's projection inspects that vertex (the
 *          test projects the CPU pose itself); the difference view uploads |p_A - p_B| / legend end
 *          and its legend end is a 1-2-5 number >= the largest distance; the same method on both
 *          sides is 0; a morph slider's press/drag sets exactly its target and the release gives it
 *          back to the clip; Backspace hides the selected joint with its descendants, / isolates
 *          its chain;
 *   flags  through the real binary's --screenshot (320x240): --compare, --skinning rigid,
 *          --inspect-vertex, --show-bone-space, --show-morphs / --morph, --isolate-joint,
 *          --hide-joints each change the picture in their own colours; bad values exit 2. */
#include "view/framing.h"
#include "view/camera.h"
#include "teach/aids.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "teach/teaching_aids.h"
#include "anim/inspect.h"
#include "testgl.h"
#include "testutil.h"

#include "testimage.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FB_W 800
#define FB_H 600

static void test_keys(void)
{
    AidOptions aids = {0};
    static const ActionKind kinds[5] = {ACTION_TOGGLE_COMPARE, ACTION_TOGGLE_INSPECTOR, ACTION_TOGGLE_BONE_SPACE,
                                        ACTION_TOGGLE_MORPHS, ACTION_TOGGLE_ISOLATE};
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 5; i++) {
            CHECK(aids_apply(&aids, (Action){kinds[i], 0}), "aid action %d is an aid", i);
            bool on = round == 0;
            bool state[5] = {aids.compare, aids.inspector, aids.show_bone_space, aids.show_morphs, aids.isolate_joint};
            CHECK(state[i] == on, "key %d turns its aid %s", i, on ? "on" : "off");
        }
    aids.skinning = SKINNING_GPU_DQ;
    aids_apply(&aids, (Action){ACTION_CYCLE_SKINNING, 0});
    CHECK(aids.skinning == SKINNING_RIGID, "K after GPU DQS: rigid");
}

/* Where the test's own projection puts p (framebuffer pixels, y down). */
static bool project(const mat4 view, const mat4 projection, const float p[3], float *x, float *y, float *depth)
{
    float vp[4][4], clip[4];
    test_naive_mat4_mul((const float(*)[4])projection, (const float(*)[4])view, vp);
    for (int r = 0; r < 4; r++) clip[r] = vp[0][r] * p[0] + vp[1][r] * p[1] + vp[2][r] * p[2] + vp[3][r];
    if (clip[3] <= 0.0f) return false;
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * FB_W;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * FB_H;
    *depth = clip[2] / clip[3];
    return true;
}

static void test_scene(void)
{
    static TestScene t;
    const char *path = SKINVIEW_SOURCE_DIR "/assets/demo.fbx";
    AidOptions aids = {.show_skeleton = true, .compare = true, .compare_a = SKINNING_GPU_LBS,
                       .compare_b = SKINNING_GPU_DQ, .joint = "upper_arm.L"};
    if (!test_scene_open(&t, path, &aids, NULL)) return;
    Animator *animator = &t.animator;
    TeachingAids *scene = &t.scene;
    mat4 view, projection;
    test_scene_camera(&t, FB_W, FB_H, view, projection);
    int twist = model_find_clip(&t.model, "Twist");
    scene_evaluate(scene, animator, twist, 0.75f);

    /* the difference view: the legend end is a 1-2-5 number at or above the largest distance, and
     * the distances are the CPU references' */
    float legend = scene->compare_legend, largest = scene->compare_max;
    float mantissa = legend / powf(10.0f, floorf(log10f(legend)));
    CHECK(largest > 0.0f && legend >= largest && legend <= 5.0f * largest &&
              (fabsf(mantissa - 1.0f) < 1e-4f || fabsf(mantissa - 2.0f) < 1e-4f || fabsf(mantissa - 5.0f) < 1e-4f ||
               fabsf(mantissa - 10.0f) < 1e-3f),
          "legend end %g for the largest distance %g", legend, largest);
    const Mesh *mesh = &t.model.meshes[0];
    vec3 *lbs = malloc(sizeof(vec3) * mesh->vertex_count), *dq = malloc(sizeof(vec3) * mesh->vertex_count);
    SkinDqPose pose;
    skin_dq_pose_init(&pose, &t.model);
    skin_dq_pose_update(&pose, animator);
    animator_skin_mesh(animator, 0, lbs, NULL);
    skin_dq_pose_skin_mesh(&pose, animator, 0, dq, NULL);
    double worst = 0.0, most = 0.0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        double d = glm_vec3_distance(lbs[v], dq[v]);
        worst = fmax(worst, fabs(d - scene->distances[scene->mesh_offset[0] + v]));
        most = fmax(most, d);
    }
    CHECK(worst <= 1e-7 && fabs(most - largest) <= 1e-7, "distances = |p_lbs - p_dq| (%.3g), largest %.4g = %.4g", worst,
          most, largest);
    printf("difference view, demo Twist at 0.75 s: largest |p_lbs - p_dq| %.4g scene units, legend end %g\n", largest,
           legend);
    scene->shown.compare_b = SKINNING_GPU_LBS;
    scene_evaluate(scene, animator, twist, 0.75f);
    CHECK(scene->compare_max == 0.0f && scene->compare_legend == 0.0f, "lbs against lbs: 0 everywhere (%g)", scene->compare_max);
    scene->shown.compare = false;

    /* a click on a vertex inspects it: the test picks vertices, projects them itself and clicks there */
    int walk = model_find_clip(&t.model, "Walk");
    scene_evaluate(scene, animator, walk, 0.3f);
    animator_skin_mesh(animator, 0, lbs, NULL);
    int tried = 0, right = 0;
    for (int v = 0; v < mesh->vertex_count; v += 97) {
        float x, y, depth;
        if (!project(view, projection, lbs[v], &x, &y, &depth) || x < 0 || y < 0 || x >= FB_W || y >= FB_H) continue;
        /* the nearest-to-eye vertex within the radius is the expected answer */
        float radius = SCENE_PICK_RADIUS * text_scale_for(FB_W, FB_H);
        int expected = -1;
        float best = INFINITY;
        for (int u = 0; u < mesh->vertex_count; u++) {
            float ux, uy, ud;
            if (project(view, projection, lbs[u], &ux, &uy, &ud) && hypotf(ux - x, uy - y) <= radius && ud < best)
                best = ud, expected = u;
        }
        tried++;
        scene->inspect_vertex = -1;
        bool picked = scene_click_vertex(scene, animator, view, projection, FB_W, FB_H, FB_W, FB_H, x, y);
        /* float rounding may pick another vertex at (nearly) the same depth */
        float gx, gy, gd;
        bool same_place = picked && project(view, projection, lbs[scene->inspect_vertex], &gx, &gy, &gd) &&
                          hypotf(gx - x, gy - y) <= radius + 0.5f && fabsf(gd - best) < 1e-4f;
        if (picked && (scene->inspect_vertex == expected || same_place) && scene->shown.inspector &&
            scene->inspection->vertex == scene->inspect_vertex)
            right++;
    }
    CHECK(tried > 20 && right == tried, "a click inspects the vertex under it: %d of %d", right, tried);
    printf("vertex clicks: %d of %d picked the expected vertex\n", right, tried);
    CHECK(!scene_click_vertex(scene, animator, view, projection, FB_W, FB_H, FB_W, FB_H, 2.0, 2.0),
          "a click on empty space picks nothing");

    /* hide / isolate: Backspace on upper_arm.L hides it and its descendants, / keeps only its chain */
    const Skeleton *skeleton = &t.model.skeleton;
    int arm = scene->selected_joint;
    CHECK(arm >= 0 && strcmp(skeleton->names[arm], "upper_arm.L") == 0, "upper_arm.L selected");
    scene_toggle_hide_joint(scene);
    scene_evaluate(scene, animator, walk, 0.3f);
    int hidden = 0, wrong = 0;
    for (int j = 0; j < skeleton->joint_count; j++) {
        bool below = false;
        for (int a = j; a >= 0; a = skeleton->parent[a]) below |= a == arm;
        hidden += !scene_joint_visible(scene, j);
        wrong += scene_joint_visible(scene, j) == below;
    }
    CHECK(wrong == 0 && hidden >= 3, "Backspace hides the joint and its %d descendants (%d wrong)", hidden - 1, wrong);
    scene_toggle_hide_joint(scene);
    scene->shown.isolate_joint = true;
    scene_evaluate(scene, animator, walk, 0.3f);
    wrong = 0;
    int shown = 0;
    for (int j = 0; j < skeleton->joint_count; j++) {
        bool chain = false;
        for (int a = j; a >= 0; a = skeleton->parent[a]) chain |= a == arm;
        for (int a = arm; a >= 0; a = skeleton->parent[a]) chain |= a == j;
        shown += scene_joint_visible(scene, j);
        wrong += scene_joint_visible(scene, j) != chain;
    }
    CHECK(wrong == 0 && shown < skeleton->joint_count, "/ shows only the chain (%d joints, %d wrong)", shown, wrong);
    CHECK(t.renderer.only_selected, "/ with a joint: the influence view shows only its vertices");
    scene->shown.isolate_joint = false;

    free(lbs);
    free(dq);
    skin_dq_pose_free(&pose);
    test_scene_close(&t);
}

/* Morph sliders on a model with targets (AnimatedMorphCube, when ../shared has it). */
static void test_sliders(void)
{
    const char *path = SKINVIEW_SHARED_MODELS_DIR "/khronos-animatedmorphcube/AnimatedMorphCube.glb";
    if (!test_file_exists(path)) {
        printf("%s absent: sliders skipped\n", path);
        return;
    }
    static TestScene t;
    static const float bounds[2][3] = {{-1, -1, -1}, {1, 1, 1}};
    AidOptions aids = {.show_morphs = true};
    if (!test_scene_open(&t, path, &aids, bounds)) return;
    Animator *animator = &t.animator;
    TeachingAids *scene = &t.scene;
    scene_evaluate(scene, animator, 0, 1.0f);
    float clip_weights[2] = {animator->morph.weights[0][0], animator->morph.weights[0][1]};
    mat4 view, projection;
    glm_mat4_identity(view);
    glm_mat4_identity(projection);
    text_set_size(&t.text, scene_text_pixels(FB_W, FB_H));
    text_begin(&t.text);
    scene_teach_text(scene, animator, &t.text, FB_W, FB_H, 1.0f);   /* lays the sliders out */
    CHECK(scene->slider_rows == 2 && scene->slider_mesh == 0, "two sliders (%d)", scene->slider_rows);
    /* press on slider 1 at 3/4 of its bar, drag to 1/4 */
    float y = scene->slider_y + 1.5f * scene->slider_h, x = scene->slider_x + 0.75f * scene->slider_w;
    CHECK(scene_slider_grab(scene, 0, x, y), "a press on a bar is the slider's");
    scene_evaluate(scene, animator, 0, 1.0f);
    CHECK(fabsf(animator->morph.weights[0][1] - 0.75f) < 1e-5f && animator->morph.weights[0][0] == clip_weights[0],
          "the press sets target 1 to 0.75 (%g), target 0 keeps the clip's", animator->morph.weights[0][1]);
    scene_slider_grab(scene, 1, scene->slider_x + 0.25f * scene->slider_w, y + 20.0f);
    scene_evaluate(scene, animator, 0, 1.0f);
    CHECK(fabsf(animator->morph.weights[0][1] - 0.25f) < 1e-5f, "the drag follows the cursor (%g)", animator->morph.weights[0][1]);
    scene_slider_grab(scene, 2, 0.0f, 0.0f);
    scene_evaluate(scene, animator, 0, 1.0f);
    CHECK(animator->morph.weights[0][1] == clip_weights[1] && animator->morph.weights[0][0] == clip_weights[0],
          "the release gives the weight back to the clip");
    CHECK(!scene_slider_grab(scene, 0, 2.0f, 2.0f), "a press elsewhere is not the sliders'");
    test_scene_close(&t);
}

/* ---- flags through the binary ---- */

static char folder[] = "/tmp/skinview-test-formula-XXXXXX";

static TestImage shot(const char *name, const char *model, const char *arguments)
{
    char path[512], all[2048];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(all, sizeof all, "--size 320x240 --no-grid %s", arguments);
    return test_screenshot(model, all, path);
}

static bool is_viridis_dark(const unsigned char *p) { return p[0] > 30 && p[0] < 90 && p[1] < 40 && p[2] > 45 && p[2] < 110; }
static bool is_viridis_bright(const unsigned char *p) { return p[1] > 120 && p[0] < 200 && p[2] < 170 && p[1] > p[0] + 20; }
static bool is_text_white(const unsigned char *p) { return p[0] > 225 && p[1] > 225 && p[2] > 225; }
static bool is_bone_green(const unsigned char *p) { return p[0] > 150 && p[1] > 225 && p[2] < 110; }
static bool is_count_blue(const unsigned char *p) { return p[2] > 200 && p[0] < 100 && p[1] < 120; }
static bool is_slider(const unsigned char *p) { return (p[0] > 200 && p[1] > 130 && p[1] < 190 && p[2] < 90) || (p[0] < 160 && p[1] > 160 && p[2] > 220); }

static void expect_more(const char *name, int with, int without, int least)
{
    CHECK(with >= least && with >= 2 * without + least / 2, "%s: %d feature pixels with the flag, %d without (want >= %d)",
          name, with, without, least);
    printf("%-40s %6d feature pixels with the flag, %6d without\n", name, with, without);
}

static void test_flags(void)
{
    if (!mkdtemp(folder)) return;
    const char *demo = SKINVIEW_SOURCE_DIR "/assets/demo.fbx";
    TestImage plain = shot("plain", demo, "--clip Twist --time 0.75");
    TestImage compare = shot("compare", demo, "--clip Twist --time 0.75 --compare lbs,dq");
    expect_more("--compare lbs,dq (0: dark viridis)", test_image_count(&compare, is_viridis_dark), test_image_count(&plain, is_viridis_dark), 2000);
    TestImage rigid = shot("rigid", demo, "--clip Twist --time 0.75 --skinning rigid");
    int rigid_diff = test_image_differing(&rigid, &plain);
    CHECK(rigid_diff > 30, "--skinning rigid changes %d pixels (the joints crack)", rigid_diff);
    printf("%-40s %6d pixels differ from LBS\n", "--skinning rigid", rigid_diff);

    TestImage walk = shot("walk", demo, "--clip Walk --time 0.3");
    TestImage walk_large = shot("walk-large", demo, "--clip Walk --time 0.3 --size 640x480");
    /* 640x480: at 320x240 the panel shrinks to its brief form to keep clear of the vertex (view_teach_panels) */
    TestImage inspect = shot("inspect", demo, "--clip Walk --time 0.3 --inspect-vertex body:5000 --size 640x480");
    expect_more("--inspect-vertex body:5000 (panel)", test_image_count(&inspect, is_text_white), test_image_count(&walk_large, is_text_white), 300);
    TestImage space = shot("space", demo, "--clip Walk --time 0.3 --joint forearm.L --show-bone-space --size 640x480");
    expect_more("--show-bone-space (points by weight)", test_image_count(&space, is_viridis_bright), test_image_count(&walk_large, is_viridis_bright), 40);

    TestImage skeleton = shot("skeleton", demo, "--clip Walk --time 0.3 --show-skeleton --joint upper_arm.L");
    TestImage isolate = shot("isolate", demo, "--clip Walk --time 0.3 --show-skeleton --joint upper_arm.L --isolate-joint");
    TestImage hide = shot("hide", demo, "--clip Walk --time 0.3 --show-skeleton --hide-joints upper_arm.L,thigh.R");
    int bones = test_image_count(&skeleton, is_bone_green), isolated = test_image_count(&isolate, is_bone_green), hidden = test_image_count(&hide, is_bone_green);
    CHECK(isolated < bones * 3 / 4 && isolated > 0, "--isolate-joint: %d skeleton pixels of %d", isolated, bones);
    CHECK(hidden < bones * 3 / 4 && hidden > 0, "--hide-joints: %d skeleton pixels of %d", hidden, bones);
    printf("%-40s %6d / %d skeleton pixels (isolate / hide of %d)\n", "--isolate-joint, --hide-joints", isolated, hidden,
           bones);
    TestImage influences = shot("influences", demo, "--clip Walk --time 0.3 --show-influences");
    TestImage only = shot("influences-only", demo, "--clip Walk --time 0.3 --show-influences --joint upper_arm.L --isolate-joint");
    int all_blue = test_image_count(&influences, is_count_blue), only_blue = test_image_count(&only, is_count_blue);
    CHECK(only_blue < all_blue / 2 && only_blue > 20, "influence view of one joint: %d blue pixels of %d", only_blue, all_blue);

    char output[4096], command[2048];
    /* the GPU rigid path (skinned.vert rigidSkinning) against its CPU reference, every clip of the demo */
    snprintf(command, sizeof command, "'%s' '%s' --verify --skinning rigid 2>&1", SKINVIEW_BINARY, demo);
    CHECK(test_run_capture(command, output, sizeof output) == 0 && strstr(output, "verify passed"),
          "--verify --skinning rigid: %s", output);
    const char *verdict = strstr(output, "verify ");
    printf("%s", verdict ? verdict : output);
    snprintf(command, sizeof command, "'%s' '%s' --compare lbs,xx --screenshot %s/x.png 2>&1", SKINVIEW_BINARY, demo, folder);
    CHECK(test_run_capture(command, output, sizeof output) == 2, "--compare lbs,xx: exit 2");
    snprintf(command, sizeof command, "'%s' '%s' --hide-joints nosuch --screenshot %s/x.png 2>&1", SKINVIEW_BINARY, demo,
             folder);
    CHECK(test_run_capture(command, output, sizeof output) == 2, "--hide-joints nosuch: exit 2 (%s)", output);
    snprintf(command, sizeof command, "'%s' '%s' --inspect-vertex body:99999 --screenshot %s/x.png 2>&1", SKINVIEW_BINARY,
             demo, folder);
    CHECK(test_run_capture(command, output, sizeof output) == 2, "--inspect-vertex out of range: exit 2 (%s)", output);

    const char *cube = SKINVIEW_SHARED_MODELS_DIR "/khronos-animatedmorphcube/AnimatedMorphCube.glb";
    if (test_file_exists(cube)) {
        TestImage rest = shot("cube", cube, "--clip 0 --time 0 --morph 0=0,1=0");
        TestImage morphed = shot("cube-morph", cube, "--clip 0 --time 0 --morph 0=1,1=0");
        int diff = test_image_differing(&rest, &morphed);
        CHECK(diff > 200, "--morph 0=1 changes the cube (%d pixels)", diff);
        TestImage sliders = shot("cube-sliders", cube, "--clip 0 --time 0 --morph 0=1 --show-morphs");
        expect_more("--show-morphs (slider bars)", test_image_count(&sliders, is_slider), test_image_count(&morphed, is_slider), 100);
        test_image_free(&rest);
        test_image_free(&morphed);
        test_image_free(&sliders);
    }
    TestImage *all[] = {&plain, &compare, &rigid, &walk, &walk_large, &inspect, &space, &skeleton, &isolate, &hide, &influences, &only};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) test_image_free(all[i]);
    test_remove_folder(folder);
}

/* --inspect-vertex ... --json through the binary against vertex_inspect in this process. */
static void test_json(void)
{
    const char *demo = SKINVIEW_SOURCE_DIR "/assets/demo.fbx";
    static char output[1 << 17];
    char command[2048];
    snprintf(command, sizeof command, "'%s' '%s' --clip Walk --time 0.5 --inspect-vertex body:5000 --json 2>&1",
             SKINVIEW_BINARY, demo);
    CHECK(test_run_capture(command, output, sizeof output) == 0, "--inspect-vertex --json exits 0: %.200s", output);
    cJSON *root = cJSON_Parse(output);
    CHECK(root != NULL, "--inspect-vertex --json prints one JSON object");
    Model model;
    Animator animator;
    if (!root || !app_load_model(demo, &(ImportOptions){0}, &model)) return;
    animator_init(&animator, &model);
    animator_evaluate(&animator, model_find_clip(&model, "Walk"), 0.5f);
    VertexInspection info;
    vertex_inspect(&animator, NULL, 0, 5000, &info);
    cJSON *influences = cJSON_GetObjectItem(root, "influences"), *final = cJSON_GetObjectItem(root, "final");
    CHECK(cJSON_GetArraySize(influences) == info.influence_count && cJSON_GetArraySize(final) == 3,
          "%d influences, final [3]", info.influence_count);
    double worst = 0.0;
    for (int i = 0; i < 3 && cJSON_GetArraySize(final) == 3; i++)
        worst = fmax(worst, fabs(cJSON_GetArrayItem(final, i)->valuedouble - info.lbs[i]));
    int names = 0;
    for (int k = 0; k < info.influence_count && k < cJSON_GetArraySize(influences); k++) {
        cJSON *item = cJSON_GetArrayItem(influences, k);
        cJSON *joint = cJSON_GetObjectItem(item, "joint"), *weight = cJSON_GetObjectItem(item, "weight");
        cJSON *palette = cJSON_GetObjectItem(item, "palette");
        names += cJSON_IsString(joint) && strcmp(joint->valuestring, info.influences[k].joint_name) == 0 &&
                 fabs(weight->valuedouble - info.influences[k].weight) < 1e-7 && cJSON_GetArraySize(palette) == 4;
        for (int r = 0; r < 4 && cJSON_GetArraySize(palette) == 4; r++)   /* row r = (M[0][r] .. M[3][r]) */
            for (int c = 0; c < 4; c++)
                worst = fmax(worst, fabs(cJSON_GetArrayItem(cJSON_GetArrayItem(palette, r), c)->valuedouble -
                                         info.influences[k].palette[c][r]));
    }
    CHECK(names == info.influence_count, "every influence's joint name, weight and 4x4 palette");
    CHECK(worst <= 1e-6, "the JSON's numbers are the inspector's within 8 digits (%.3g)", worst);
    printf("--inspect-vertex body:5000 --json: %d influences, worst difference from the in-process numbers %.3g\n",
           info.influence_count, worst);
    static char text[1 << 15];
    vertex_inspect_format(&info, INSPECT_TEXT_STACKED, text, sizeof text);
    CHECK(strstr(text, "palette_k = M_j(k) * B_k^-1") && strstr(text, "bone0info") &&
              strstr(text, info.influences[0].joint_name) && strstr(text, "p' = sum"),
          "the text has the formula, bone0info with its joint, and the sum");
    cJSON_Delete(root);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    test_json();
    test_keys();
    GlContext context;
    if (test_gl_open(&context)) {
        test_scene();
        test_sliders();
        glcontext_destroy(&context);
    }
    test_flags();
    return test_finish();
}
