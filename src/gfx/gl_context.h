/* gl_context.h — the GL side of a freshly made context: loading the GL functions into it, its
 * name and limits. The window system's side (GLFW, EGL) is src/platform/context.h, which calls
 * these right after making a context current. */
#ifndef SKINVIEW_GL_CONTEXT_H
#define SKINVIEW_GL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

/* A window system's GL function lookup (glfwGetProcAddress, eglGetProcAddress). */
typedef void (*GlProc)(void);
typedef GlProc (*GlProcLoader)(const char *name);

/* Loads the GL functions of the current context with glad and checks that they make OpenGL 3.3;
 * writes GL_RENDERER into renderer_name and installs the GL error reporting (gl_debug.h). On
 * failure returns false with a one-line cause (the caller destroys its context). */
bool gl_context_load(GlProcLoader loader, char *renderer_name, size_t renderer_name_size, char *error,
                     size_t error_size);

/* Turns multisampling on for the current context's window (a no-op without a multisampled visual). */
void gl_context_enable_multisample(void);

/* GL_MAX_TEXTURE_SIZE of the current context. */
int gl_context_max_texture_size(void);

#endif
