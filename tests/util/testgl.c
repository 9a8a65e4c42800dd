#include "testgl.h"

#include "view/framing.h"
#include "app/commands.h"
#include "view/camera.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

bool test_gl_open(GlContext *context)
{
    char error[1024];
    if (glcontext_create_offscreen(context, error, sizeof error)) return true;
    printf("no GL context (%s): skipped\n", error);
    return false;
}

bool test_scene_open(TestScene *t, const char *path, const AidOptions *aids, const float bounds[2][3])
{
    char error[1024] = "";
    int max_bones = glcontext_bones_per_mesh(0);
    if (!app_load_model(path, &(ImportOptions){.max_bones_per_mesh = max_bones}, &t->model)) {
        CHECK(false, "%s: cannot load", path);
        return false;
    }
    if (!renderer_init(&t->renderer, &t->model, SKINVIEW_SOURCE_DIR "/shaders/skinned.vert",
                       SKINVIEW_SOURCE_DIR "/shaders/skinned.frag", max_bones, error, sizeof error)) {
        CHECK(false, "%s: renderer: %s", path, error);
        model_free(&t->model);
        return false;
    }
    if (!animator_init(&t->animator, &t->model)) {
        CHECK(false, "%s: animator", path);
        renderer_free(&t->renderer);
        model_free(&t->model);
        return false;
    }
    if (bounds) {
        memcpy(t->min, bounds[0], sizeof t->min);
        memcpy(t->max, bounds[1], sizeof t->max);
    } else {
        view_model_bounds(&t->model, &t->animator, t->min, t->max);
    }
    if (!text_init(&t->text, error, sizeof error)) {
        CHECK(false, "%s: text: %s", path, error);
        animator_free(&t->animator);
        renderer_free(&t->renderer);
        model_free(&t->model);
        return false;
    }
    if (!scene_init(&t->scene, &t->model, &t->renderer, &t->animator, aids, t->min, t->max, error, sizeof error)) {
        CHECK(false, "%s: scene: %s", path, error);
        text_free(&t->text);
        animator_free(&t->animator);
        renderer_free(&t->renderer);
        model_free(&t->model);
        return false;
    }
    return true;
}

void test_scene_close(TestScene *t)
{
    scene_free(&t->scene);
    text_free(&t->text);
    animator_free(&t->animator);
    renderer_free(&t->renderer);
    model_free(&t->model);
}

void test_scene_camera(const TestScene *t, int width, int height, mat4 view, mat4 projection)
{
    Camera camera = {0};
    camera_frame(&camera, t->min, t->max, (float)width / (float)height, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    camera_view(&camera, view);
    camera_projection(&camera, (float)width / (float)height, projection);
}
