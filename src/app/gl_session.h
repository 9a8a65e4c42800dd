/* gl_session.h — what every offscreen GL command (gl_commands.c, thumbnail.c) sets up first:
 * an offscreen context, the bones-per-mesh limit it allows, the model imported with that
 * limit, and a renderer for it. */
#ifndef SKINVIEW_GL_SESSION_H
#define SKINVIEW_GL_SESSION_H

#include "cli.h"
#include "glcontext.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"

typedef struct GlSession {
    GlContext context;
    Model     model;
    Renderer  renderer;
    int       max_bones;
} GlSession;

/* Context, bone limit (options->max_bones), model, renderer. `model`: one already imported
 * (main() does, before any window: errors first), taken over; NULL: model_path is imported
 * here with the context's limit. Returns 0, or the exit code after printing why on stderr. */
int session_begin(GlSession *session, const Options *options, const char *model_path, Model *model);

/* The frame drawn into `framebuffer` (width x height) read back into `pixels` (room for width x
 * height RGBA; NULL: it could not be allocated) and written to `path` as a PNG (app_write_png).
 * False after one line on stderr naming path. Both players' --screenshot end here. */
bool session_write_screenshot(const Framebuffer *framebuffer, unsigned char *pixels, int width, int height,
                              const char *path);

/* Frees what session_begin made (after a 0 return); returns `status`, or 1 when GL errors
 * were reported (--gl-debug), with a line on stderr naming model_path. */
int session_end(GlSession *session, int status, const char *model_path);

#endif
