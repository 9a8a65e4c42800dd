/* gl_session.c — the set-up every offscreen GL command shares (gl_session.h). */
#include "gl_session.h"
#include "commands.h"
#include "gfx/gl_debug.h"

#include <stdio.h>
#include <string.h>

/* Context, bone limit, renderer. `model` is the one main() imported (taken over: freed by
 * session_end, or here on failure), or NULL to import model_path here, after the context. */
int session_begin(GlSession *session, const Options *options, const char *model_path, Model *model)
{
    memset(session, 0, sizeof *session);
    if (model) {
        session->model = *model;
        memset(model, 0, sizeof *model);
    }
    char error[1024];
    if (!glcontext_create_offscreen(&session->context, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: no OpenGL context: %s\n", model_path, error);
        model_free(&session->model);
        return 1;
    }
    session->max_bones = glcontext_bones_per_mesh(options->max_bones);
    if (session->max_bones < 1) {
        fprintf(stderr, "skinview: %s: this GL has no room for a bone palette in its vertex uniforms\n", model_path);
        model_free(&session->model);
        glcontext_destroy(&session->context);
        return 1;
    }
    ImportOptions import = app_import_options(options);
    import.max_bones_per_mesh = session->max_bones;
    bool loaded = model ? app_fit_bone_limit(model_path, &import, session->max_bones, &session->model)
                        : app_load_model(model_path, &import, &session->model);
    if (!loaded) {
        glcontext_destroy(&session->context);
        return 1;
    }
    if (!app_renderer_init(&session->renderer, &session->model, session->max_bones, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        model_free(&session->model);
        glcontext_destroy(&session->context);
        return 1;
    }
    return 0;
}

/* Frees everything; returns `status`, or 1 when GL errors were reported (--gl-debug). */
bool session_write_screenshot(const Framebuffer *framebuffer, unsigned char *pixels, int width, int height,
                              const char *path)
{
    char error[1024];
    if (!pixels || !framebuffer_read_rgba(framebuffer, pixels)) {
        fprintf(stderr, "skinview: %s: cannot read the rendered image back\n", path);
        return false;
    }
    if (!app_write_png(path, width, height, pixels, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        return false;
    }
    return true;
}

int session_end(GlSession *session, int status, const char *model_path)
{
    gl_debug_check(NULL);
    renderer_free(&session->renderer);
    model_free(&session->model);
    glcontext_destroy(&session->context);
    int errors = gl_debug_error_count();
    if (errors > 0) {
        fprintf(stderr, "skinview: %s: %d OpenGL error%s (reported above)\n", model_path, errors, errors == 1 ? "" : "s");
        return 1;
    }
    return status;
}

