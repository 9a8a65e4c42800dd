/* context.c — GLFW window / hidden window / EGL surfaceless contexts (see context.h). */
#include "platform/context.h"
#include "gfx/gl_context.h"
#include "gfx/gl_debug.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GLFW reports errors through a callback: keep the last one for our message. */
static char glfw_last_error[256];

static void on_glfw_error(int code, const char *description)
{
    snprintf(glfw_last_error, sizeof glfw_last_error, "%s (GLFW error 0x%x)", description, code);
}

/* Loads GL into the current context (src/gfx/gl_context.h) and checks that we really got 3.3;
 * fills renderer_name. On failure destroys the context (glcontext_destroy) and returns false. */
static bool load_gl(GlContext *context, GlProcLoader load, char *error, size_t error_size)
{
    if (!gl_context_load(load, context->renderer_name, sizeof context->renderer_name, error, error_size)) {
        glcontext_destroy(context);
        return false;
    }
    return true;
}

static bool glfw_start(char *error, size_t error_size)
{
    glfwSetErrorCallback(on_glfw_error);
    glfw_last_error[0] = '\0';
    if (!glfwInit()) {
        snprintf(error, error_size, "cannot start GLFW: %s", glfw_last_error[0] ? glfw_last_error : "unknown error");
        return false;
    }
    return true;
}

static void glfw_core_hints(void)
{
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (gl_debug_requested()) glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
}

/* The window GLFW just made (NULL: it could not, `what` says which) becomes the context of `kind`. */
static bool adopt_window(GlContext *context, GLFWwindow *window, GlContextKind kind, const char *what, char *error,
                         size_t error_size)
{
    if (!window) {
        snprintf(error, error_size, "cannot open %s: %s", what, glfw_last_error[0] ? glfw_last_error : "unknown error");
        glfwTerminate();
        return false;
    }
    glfwMakeContextCurrent(window);
    context->kind = kind;
    context->window = window;
    return load_gl(context, glfwGetProcAddress, error, error_size);
}

bool glcontext_create_window(GlContext *context, const char *title, int width, int height, char *error,
                             size_t error_size)
{
    memset(context, 0, sizeof *context);
    if (!glfw_start(error, error_size)) return false;
    glfw_core_hints();
    glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 4);
    GLFWwindow *window = glfwCreateWindow(width, height, title, NULL, NULL);
    if (!window) {   /* no multisampled visual: try without */
        glfwWindowHint(GLFW_SAMPLES, 0);
        window = glfwCreateWindow(width, height, title, NULL, NULL);
    }
    if (!adopt_window(context, window, GLCONTEXT_WINDOW, "an OpenGL 3.3 core window", error, error_size)) return false;
    glfwSwapInterval(1);
    gl_context_enable_multisample();   /* no-op without a multisampled visual */
    return true;
}

static bool create_hidden_window(GlContext *context, char *error, size_t error_size)
{
    if (!glfw_start(error, error_size)) return false;
    glfw_core_hints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *window = glfwCreateWindow(64, 64, "skinview", NULL, NULL);
    return adopt_window(context, window, GLCONTEXT_HIDDEN_WINDOW, "a hidden OpenGL 3.3 core window", error, error_size);
}

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list ? strstr(list, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/* An initialised EGL display with no window system: Mesa's surfaceless platform, or else
 * (drivers without it, e.g. NVIDIA's) the first GPU of EGL_EXT_platform_device. */
static EGLDisplay open_headless_display(GlContextKind *kind, char *error, size_t error_size)
{
    const char *client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLint major = 0, minor = 0;
    const char *forced = getenv("SKINVIEW_GL");
    bool device_only = forced && strcmp(forced, "egl-device") == 0;
    if (!device_only && has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (display != EGL_NO_DISPLAY && eglInitialize(display, &major, &minor)) {
            *kind = GLCONTEXT_EGL_SURFACELESS;
            return display;
        }
    }
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (has_extension(client_extensions, "EGL_EXT_platform_device") && query_devices) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (query_devices(16, devices, &count))
            for (EGLint i = 0; i < count; i++) {
                EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                if (display != EGL_NO_DISPLAY && eglInitialize(display, &major, &minor)) {
                    *kind = GLCONTEXT_EGL_DEVICE;
                    return display;
                }
            }
    }
    snprintf(error, error_size, "EGL offers neither Mesa's surfaceless platform nor a usable device (EGL error 0x%x)",
             eglGetError());
    return EGL_NO_DISPLAY;
}

/* EGL with no window system and no surface (see open_headless_display). */
static bool create_egl_surfaceless(GlContext *context, char *error, size_t error_size)
{
    GlContextKind kind = GLCONTEXT_EGL_SURFACELESS;
    EGLDisplay display = open_headless_display(&kind, error, error_size);
    if (display == EGL_NO_DISPLAY) return false;
    const char *extensions = eglQueryString(display, EGL_EXTENSIONS);
    if (!has_extension(extensions, "EGL_KHR_surfaceless_context")) {
        snprintf(error, error_size, "EGL lacks EGL_KHR_surfaceless_context");
        eglTerminate(display);
        return false;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(error, error_size, "EGL cannot bind the desktop OpenGL API (EGL error 0x%x)", eglGetError());
        eglTerminate(display);
        return false;
    }
    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!has_extension(extensions, "EGL_KHR_no_config_context")) {
        static const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLint count = 0;
        if (!eglChooseConfig(display, config_attributes, &config, 1, &count) || count < 1) {
            snprintf(error, error_size, "EGL has no OpenGL config (EGL error 0x%x)", eglGetError());
            eglTerminate(display);
            return false;
        }
    }
    EGLint context_attributes[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3,
        EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_CONTEXT_OPENGL_DEBUG, gl_debug_requested() ? EGL_TRUE : EGL_FALSE,
        EGL_NONE};
    EGLContext egl_context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (egl_context == EGL_NO_CONTEXT) {   /* a driver without debug contexts: the callback still works */
        context_attributes[6] = EGL_NONE;
        egl_context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    }
    if (egl_context == EGL_NO_CONTEXT) {
        snprintf(error, error_size, "EGL cannot create an OpenGL 3.3 core context (EGL error 0x%x)", eglGetError());
        eglTerminate(display);
        return false;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_context)) {
        snprintf(error, error_size, "EGL cannot make the context current (EGL error 0x%x)", eglGetError());
        eglDestroyContext(display, egl_context);
        eglTerminate(display);
        return false;
    }
    context->kind = kind;
    context->egl_display = display;
    context->egl_context = egl_context;
    return load_gl(context, eglGetProcAddress, error, error_size);
}

bool glcontext_create_offscreen(GlContext *context, char *error, size_t error_size)
{
    memset(context, 0, sizeof *context);
    const char *forced = getenv("SKINVIEW_GL");
    bool want_egl = forced && strncmp(forced, "egl", 3) == 0;
    bool forbid_egl = forced && strcmp(forced, "glfw") == 0;
    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    bool window_system = (display && display[0]) || (wayland && wayland[0]);

    char window_error[512] = "";
    if (!want_egl && (window_system || forbid_egl)) {
        if (create_hidden_window(context, window_error, sizeof window_error)) return true;
        if (forbid_egl) {
            snprintf(error, error_size, "%s", window_error);
            return false;
        }
    }
    if (create_egl_surfaceless(context, error, error_size)) return true;
    if (window_error[0]) {   /* both failed: say both */
        char egl_error[512];
        snprintf(egl_error, sizeof egl_error, "%s", error);
        snprintf(error, error_size, "%s; %s", window_error, egl_error);
    }
    return false;
}

void glcontext_destroy(GlContext *context)
{
    if (context->window) {
        glfwDestroyWindow(context->window);
        glfwTerminate();
    }
    if (context->egl_display) {
        eglMakeCurrent(context->egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context->egl_context) eglDestroyContext(context->egl_display, context->egl_context);
        eglTerminate(context->egl_display);
    }
    memset(context, 0, sizeof *context);
}

const char *glcontext_kind_name(const GlContext *context)
{
    switch (context->kind) {
    case GLCONTEXT_WINDOW: return "window";
    case GLCONTEXT_HIDDEN_WINDOW: return "hidden window";
    case GLCONTEXT_EGL_SURFACELESS: return "EGL surfaceless";
    case GLCONTEXT_EGL_DEVICE: return "EGL device";
    default: return "none";
    }
}
