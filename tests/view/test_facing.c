/* test_facing.c — the first view looks at the character's front: the skeleton's Left/Right
 * names give the facing (view_front_yaw), and in the front view (keypad 1) the demo's nose
 * points at the camera — also when the whole character is turned around. */
#include "view/framing.h"
#include "view/camera.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_mirror_names(void)
{
    static const char *const cases[][2] = {
        {"mixamorig:LeftArm", "mixamorig:RightArm"}, {"hand.L", "hand.R"}, {"L_Hand", "R_Hand"},
        {"arm_l", "arm_r"}, {"Bip01 R Thigh", "Bip01 L Thigh"}, {"upperarm_right", "upperarm_left"},
        {"LEFT_FOOT", "RIGHT_FOOT"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        int side = 0;
        bool ok = view_mirror_joint_name(cases[i][0], out, sizeof out, &side);
        CHECK(ok && strcmp(out, cases[i][1]) == 0, "%s -> %s (got %s)", cases[i][0], cases[i][1], ok ? out : "nothing");
    }
    char out[64];
    int side = 0;
    CHECK(!view_mirror_joint_name("Lower_spine", out, sizeof out, &side), "no lone L in Lower_spine");
    CHECK(!view_mirror_joint_name("Hips", out, sizeof out, &side), "Hips has no side");
    CHECK(view_mirror_joint_name("thigh.L", out, sizeof out, &side) && side == 1, "left side");
    CHECK(view_mirror_joint_name("thigh.R", out, sizeof out, &side) && side == -1, "right side");
}

/* The direction (x, z) from the head joint to the nose: the head-bound vertex farthest from
 * the head joint in the ground plane, at the pose the animator holds. */
static bool nose_direction(const Model *model, const Animator *animator, float *dx, float *dz)
{
    int head = -1;
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], "head") == 0) head = j;
    if (head < 0) return false;
    const float *h = animator->joint_model[head][3];
    float best = -1.0f;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        int head_bone = -1;
        for (int b = 0; b < mesh->bone_count; b++)
            if (mesh->bone_joint[b] == head) head_bone = b;
        if (head_bone < 0) continue;
        vec3 *posed = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        animator_skin_mesh(animator, m, posed, NULL);
        for (int v = 0; v < mesh->vertex_count; v++) {
            if (!(mesh->joint_indices[v][0] == head_bone && mesh->weights[v][0] > 0.99f)) continue;
            if (posed[v][1] < h[1]) continue;   /* the head itself, not the neck */
            float x = posed[v][0] - h[0], z = posed[v][2] - h[2];
            if (x * x + z * z > best) {
                best = x * x + z * z;
                *dx = x;
                *dz = z;
            }
        }
        free(posed);
    }
    return best > 0.0f;
}

/* Front view of `model` (optionally turned by `turn` radians about +Y at its root): the eye
 * direction (sin yaw, cos yaw) and the nose direction agree. */
static void check_front(const char *label, Model *model, float turn)
{
    if (turn != 0.0f)   /* turn the whole character: every root's rest matrix */
        for (int j = 0; j < model->skeleton.joint_count; j++)
            if (model->skeleton.parent[j] < 0) {
                mat4 r;
                glm_rotate_make(r, turn, (vec3){0.0f, 1.0f, 0.0f});
                glm_mat4_mul(r, model->skeleton.rest_local[j], model->skeleton.rest_local[j]);
                versor q;
                glm_quatv(q, turn, (vec3){0.0f, 1.0f, 0.0f});
                glm_quat_mul(q, model->skeleton.rest_trs[j].rotation, model->skeleton.rest_trs[j].rotation);
                glm_quat_rotatev(q, model->skeleton.rest_trs[j].translation, model->skeleton.rest_trs[j].translation);
            }
    Animator animator;
    CHECK(animator_init(&animator, model), "animator");
    Camera camera = {0};
    view_frame_clip(model, &animator, ANIMATOR_REST_POSE, 16.0f / 9.0f, true, 0.0f, 0.0f, &camera);
    camera_set_view(&camera, CAMERA_VIEW_FRONT);
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    float nx = 0.0f, nz = 0.0f;
    bool found = nose_direction(model, &animator, &nx, &nz);
    CHECK(found, "%s: the nose is found", label);
    float length = sqrtf(nx * nx + nz * nz);
    float cosine = found ? (nx * sinf(camera.yaw) + nz * cosf(camera.yaw)) / length : -1.0f;
    printf("%s: front yaw %.1f deg, nose direction (%.3f, %.3f), cos(eye, nose) = %.4f\n", label,
           glm_deg(camera.front_yaw), nx / length, nz / length, cosine);
    CHECK(cosine > 0.95f, "%s: in the front view the nose points at the camera (cos %.3f)", label, cosine);
    /* the back view sees the back of the head */
    camera_set_view(&camera, CAMERA_VIEW_BACK);
    float back = found ? (nx * sinf(camera.yaw) + nz * cosf(camera.yaw)) / length : 1.0f;
    CHECK(back < -0.95f, "%s: the back view looks at the back of the head (cos %.3f)", label, back);
    /* the first view: three-quarter from the front, so the face is still seen */
    camera_reset_angle(&camera);
    float first = (nx * sinf(camera.yaw) + nz * cosf(camera.yaw)) / length;
    CHECK(first > 0.8f, "%s: the first view sees the face side (cos %.3f)", label, first);
    animator_free(&animator);
}

static void test_demo_front(void)
{
    const char *files[] = {"assets/demo.fbx", "assets/demo.glb"};
    const float turns[] = {0.0f, 1.9f, -2.8f};
    for (int f = 0; f < 2; f++)
        for (int t = 0; t < 3; t++) {
            char path[1024], error[512], label[128];
            snprintf(path, sizeof path, "%s/%s", SKINVIEW_SOURCE_DIR, files[f]);
            Model model;
            ImportOptions options = {0};
            if (!import_model(path, &options, &model, error, sizeof error)) {
                CHECK(false, "%s: %s", path, error);
                continue;
            }
            snprintf(label, sizeof label, "%s turned %.1f rad", files[f], turns[t]);
            check_front(label, &model, turns[t]);
            model_free(&model);
        }
}

static void test_view_presets(void)
{
    Camera camera = {0};
    camera.front_yaw = 0.5f;
    camera_set_view(&camera, CAMERA_VIEW_FRONT);
    CHECK(fabsf(camera.yaw - 0.5f) < 1e-6f && camera.pitch == 0.0f, "front");
    camera_set_view(&camera, CAMERA_VIEW_RIGHT);
    CHECK(fabsf(camera.yaw - (0.5f + GLM_PI_2f)) < 1e-5f, "right: a quarter turn");
    camera_set_view(&camera, CAMERA_VIEW_LEFT);
    CHECK(fabsf(camera.yaw - (0.5f - GLM_PI_2f)) < 1e-5f, "left");
    camera_set_view(&camera, CAMERA_VIEW_TOP);
    CHECK(camera.pitch > 1.5f, "top looks down");
    camera_set_view(&camera, CAMERA_VIEW_BOTTOM);
    CHECK(camera.pitch < -1.5f, "bottom looks up");
}

/* A skeleton without Left/Right names that walks in place (Khronos' CesiumMan: joints are
 * "nodes[N]"): the facing comes from the feet (view_front_yaw's third rule). Checked against a
 * clue that rule does not use: in a walk the knees bend forward, so over the clip each knee sits
 * in front of the line from its hip to its ankle. */
static void test_unnamed_walker(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/khronos-cesiumman/cesium_man.gltf", SKINVIEW_SHARED_MODELS_DIR);
    if (!test_file_exists(path)) {
        printf("skipped: %s is not here\n", path);
        return;
    }
    Model model = {0};
    if (!test_import(path, NULL, &model)) return;
    Animator animator;
    if (!animator_init(&animator, &model)) {
        CHECK(false, "animator_init");
        model_free(&model);
        return;
    }
    float yaw = view_front_yaw(&model, &animator, 0);
    float forward[2] = {sinf(yaw), cosf(yaw)};   /* (x, z) of the front */
    /* knees: hip -> knee -> ankle -> leaf (toe), the hip above the knee above the ankle all clip long */
    const Skeleton *s = &model.skeleton;
    float bulge_along = 0.0f, bulge_total = 0.0f;
    int knees = 0;
    for (int toe = 0; toe < s->joint_count; toe++) {
        bool leaf = true;
        for (int k = 0; k < s->joint_count; k++) leaf = leaf && s->parent[k] != toe;
        int ankle = s->parent[toe], knee = ankle >= 0 ? s->parent[ankle] : -1, hip = knee >= 0 ? s->parent[knee] : -1;
        if (!leaf || hip < 0) continue;
        bool is_leg = false;
        for (int step = 0; step <= 16; step++) {
            animator_evaluate(&animator, 0, model.clips[0].duration * (float)step / 16.0f);
            const float *h = animator.joint_model[hip][3], *k = animator.joint_model[knee][3],
                        *a = animator.joint_model[ankle][3];
            if (!(a[1] < k[1] && k[1] < h[1])) break;   /* hip above knee above ankle: a leg */
            is_leg = true;
            float bx = k[0] - 0.5f * (h[0] + a[0]), bz = k[2] - 0.5f * (h[2] + a[2]);
            bulge_along += bx * forward[0] + bz * forward[1];
            bulge_total += sqrtf(bx * bx + bz * bz);
        }
        knees += is_leg;
    }
    CHECK(knees >= 2, "CesiumMan: legs found (%d; arms that hang down count too)", knees);
    CHECK(bulge_along > 0.5f * bulge_total, "CesiumMan: the knees bend towards the front the camera faces "
          "(%.3f of %.3f along it)", bulge_along, bulge_total);
    printf("CesiumMan: front yaw %.1f deg; the knees bend %.0f %% along it\n", glm_deg(yaw),
           bulge_total > 0.0f ? 100.0f * bulge_along / bulge_total : 0.0f);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    test_mirror_names();
    test_view_presets();
    test_demo_front();
    test_unnamed_walker();
    return test_finish();
}
