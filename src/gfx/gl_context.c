/* gl_context.c — loading GL into a new context, its name and limits (see gl_context.h). */
#include "gl_context.h"
#include "gl.h"
#include "gl_debug.h"

#include <stdio.h>

bool gl_context_load(GlProcLoader loader, char *renderer_name, size_t renderer_name_size, char *error,
                     size_t error_size)
{
    int version = gladLoadGL((GLADloadfunc)loader);
    if (version == 0 || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        if (version == 0) snprintf(error, error_size, "cannot load the OpenGL functions");
        else snprintf(error, error_size, "OpenGL 3.3 is needed, the context has %d.%d", GLAD_VERSION_MAJOR(version),
                      GLAD_VERSION_MINOR(version));
        return false;
    }
    const char *name = (const char *)glGetString(GL_RENDERER);
    snprintf(renderer_name, renderer_name_size, "%s", name ? name : "unknown");
    gl_debug_install();   /* --gl-debug / SKINVIEW_GL_DEBUG=1: KHR_debug callback or glGetError polling */
    return true;
}

void gl_context_enable_multisample(void)
{
    glEnable(GL_MULTISAMPLE);
}

int gl_context_max_texture_size(void)
{
    GLint size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    return (int)size;
}
