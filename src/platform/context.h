/* context.h — OpenGL 3.3 core contexts for skinview, made with the window system (GLFW, EGL).
 *
 * Two kinds of context:
 *   - a visible GLFW window for the interactive viewer (forward-compatible core 3.3,
 *     sRGB-capable, 4x MSAA when available, vsync on);
 *   - an offscreen context for --screenshot / --verify: a hidden GLFW window when
 *     DISPLAY or WAYLAND_DISPLAY is set, otherwise (or if that fails) EGL on Mesa's
 *     surfaceless platform with no surface at all (or, where EGL lacks that platform,
 *     EGL_EXT_platform_device's first GPU, still surfaceless). Offscreen commands always draw into
 *     their own Framebuffer (src/gfx/framebuffer.h), never the window's.
 * Creating a context also makes it current and loads the GL functions (src/gfx/gl_context.h).
 * The glue between a context, the renderer and model loading is src/app/glcontext.h.
 */
#ifndef SKINVIEW_PLATFORM_CONTEXT_H
#define SKINVIEW_PLATFORM_CONTEXT_H

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdbool.h>
#include <stddef.h>

typedef enum GlContextKind {
    GLCONTEXT_NONE = 0,
    GLCONTEXT_WINDOW,          /* visible GLFW window */
    GLCONTEXT_HIDDEN_WINDOW,   /* invisible GLFW window (offscreen, X11/Wayland present) */
    GLCONTEXT_EGL_SURFACELESS, /* EGL_PLATFORM_SURFACELESS_MESA, no window system at all */
    GLCONTEXT_EGL_DEVICE       /* EGL_PLATFORM_DEVICE_EXT: drivers without Mesa's platform (NVIDIA) */
} GlContextKind;

typedef struct GlContext {
    GlContextKind kind;
    GLFWwindow   *window;        /* GLFW kinds only */
    void         *egl_display;   /* EGLDisplay, EGL kind only */
    void         *egl_context;   /* EGLContext, EGL kind only */
    char          renderer_name[128];  /* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
} GlContext;

/* Opens a visible, resizable window of width x height pixels titled `title` with a
 * current 3.3 core context (sRGB-capable default framebuffer and 4x MSAA requested;
 * retried without MSAA if refused). On failure returns false with a one-line cause. */
bool glcontext_create_window(GlContext *context, const char *title, int width, int height, char *error,
                             size_t error_size);

/* Creates a current 3.3 core context with no visible window (see above for the choice).
 * Set SKINVIEW_GL=egl to force the EGL path, SKINVIEW_GL=egl-device to force EGL's device
 * platform (skipping Mesa's surfaceless one), SKINVIEW_GL=glfw to forbid EGL. */
bool glcontext_create_offscreen(GlContext *context, char *error, size_t error_size);

/* Destroys the context (and window); safe on a zeroed GlContext. */
void glcontext_destroy(GlContext *context);

/* Human-readable kind: "window", "hidden window", "EGL surfaceless", "EGL device". */
const char *glcontext_kind_name(const GlContext *context);

#endif
