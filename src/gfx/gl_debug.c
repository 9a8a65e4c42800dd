/* gl_debug.c — KHR_debug callback or glGetError() polling (see gl_debug.h). */
#include "gl_debug.h"
#include "gl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool requested_by_flag;
static bool callback_installed;
static int error_count;
static const char *current_stage = "context creation";

void gl_debug_request(void) { requested_by_flag = true; }

bool gl_debug_requested(void)
{
    const char *env = getenv("SKINVIEW_GL_DEBUG");
    return requested_by_flag || (env && env[0] && strcmp(env, "0") != 0);
}

static const char *error_name(GLenum error)
{
    switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

/* Errors and undefined behaviour count; performance / portability notes and markers do not. */
static void GLAD_API_PTR on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                          const GLchar *message, const void *user)
{
    (void)source;
    (void)severity;
    (void)user;
    if (type != GL_DEBUG_TYPE_ERROR && type != GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR) return;
    error_count++;
    int shown = length > 0 && length < 400 ? (int)length : 400;
    char line[480];
    snprintf(line, sizeof line, "%.*s", shown, message ? message : "");
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(stderr, "skinview: GL error: %s (id %u, during %s)\n", line, id, current_stage);
}

bool gl_debug_install(void)
{
    if (!gl_debug_requested()) return false;
    callback_installed = false;
    const char *env = getenv("SKINVIEW_GL_DEBUG");
    bool poll_only = env && strcmp(env, "poll") == 0;   /* tests the fallback on drivers that have KHR_debug */
    if (!poll_only && GLAD_GL_KHR_debug && glDebugMessageCallback) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);   /* the callback runs inside the failing call */
        glDebugMessageCallback(on_debug_message, NULL);
        glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
        callback_installed = true;
    }
    gl_debug_check("renderer set-up");
    return callback_installed;
}

void gl_debug_check(const char *next_stage)
{
    if (!gl_debug_requested()) return;
    /* the callback already reported what raised these flags; polling mode reports them here */
    for (int guard = 0; guard < 16; guard++) {
        GLenum error = glGetError();
        if (error == GL_NO_ERROR) break;
        if (callback_installed) continue;
        error_count++;
        fprintf(stderr, "skinview: GL error: %s (during %s)\n", error_name(error), current_stage);
    }
    if (next_stage) current_stage = next_stage;
}

int gl_debug_error_count(void) { return error_count; }
