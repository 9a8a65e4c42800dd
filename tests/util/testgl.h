/* testgl.h — the GL set-up the scene tests share (view_teach_joint_click, view_teach_name_labels,
 * view_teach_formula): an offscreen context, then a model with its renderer, animator and
 * teaching-aids scene, the way the viewer builds them (src/app/viewer.c). */
#ifndef SKINVIEW_TESTGL_H
#define SKINVIEW_TESTGL_H

#include "app/glcontext.h"
#include "teach/teaching_aids.h"

#include <stdbool.h>

typedef struct TestScene {
    Model    model;
    Renderer renderer;
    Animator animator;
    TeachingAids    scene;
    Text     text;       /* the aids' text (text_init), for scene_place_names / scene_teach_text */
    vec3     min, max;   /* the model's bounds (view_model_bounds), or those passed in */
} TestScene;

/* An offscreen GL context (EGL or a hidden window); false (print "skipped") if there is none. */
bool test_gl_open(GlContext *context);

/* Loads `path` at the context's bones-per-mesh limit with the repository's shaders and builds
 * the scene with `aids` and its text; bounds (min then max) NULL: the model's own. A failure is a failed CHECK
 * and returns false (nothing to free). `t` is large: make it static. */
bool test_scene_open(TestScene *t, const char *path, const AidOptions *aids, const float bounds[2][3]);
void test_scene_close(TestScene *t);

/* The viewer's first camera for a framebuffer of width x height: framed on the bounds. */
void test_scene_camera(const TestScene *t, int width, int height, mat4 view, mat4 projection);

#endif
