/* glcontext.h — the glue between an OpenGL context (src/platform/context.h: GLFW window,
 * hidden window, EGL surfaceless), the renderer (src/gfx/renderer.h) and model loading.
 *
 * GL commands run in this order (the bones-per-mesh limit comes from GL):
 *     glcontext_create_...(&context, ...);
 *     int max_bones = glcontext_bones_per_mesh(options->max_bones);
 *     app_load_model(path, max_bones, &model);
 *     app_renderer_init(&renderer, &model, max_bones, error, sizeof error);
 */
#ifndef SKINVIEW_GLCONTEXT_H
#define SKINVIEW_GLCONTEXT_H

#include "platform/context.h"

#include "anim/model.h"
#include "gfx/renderer.h"

#include <stdbool.h>
#include <stddef.h>

/* The bones-per-mesh limit to import and compile with: renderer_max_bones() of the
 * current context, or `requested` (--max-bones) if that is smaller and > 0. */
int glcontext_bones_per_mesh(int requested);

/* renderer_init() with shaders/skinned.vert and .frag found by app_find_data(). */
bool app_renderer_init(Renderer *renderer, const Model *model, int max_bones, char *error, size_t error_size);

#endif
