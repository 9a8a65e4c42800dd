/* shader.c — GLSL compile and link with one-line errors (see shader.h). */
#include "shader.h"
#include "gl.h"
#include "base/whole_file.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First line of a GL info log, for a one-line error message. */
static void first_log_line(const char *log, char *out, size_t out_size)
{
    if (out_size == 0) return;
    size_t n = strcspn(log, "\r\n");
    if (n >= out_size) n = out_size - 1;
    memcpy(out, log, n);
    out[n] = '\0';
}

/* `object` (a shader after glCompileShader, or a program after glLinkProgram when is_program) if
 * that succeeded; else 0, the object deleted and the first line of its info log in `log`. */
static GLuint checked(GLuint object, bool is_program, char *log, size_t log_size)
{
    GLint ok = GL_FALSE;
    if (is_program) glGetProgramiv(object, GL_LINK_STATUS, &ok);
    else glGetShaderiv(object, GL_COMPILE_STATUS, &ok);
    if (ok) return object;
    char info[2048] = "";
    if (is_program) {
        glGetProgramInfoLog(object, sizeof info, NULL, info);
        glDeleteProgram(object);
    } else {
        glGetShaderInfoLog(object, sizeof info, NULL, info);
        glDeleteShader(object);
    }
    first_log_line(info, log, log_size);
    return 0;
}

GLuint gfx_compile_stage(GLenum stage, int count, const char *const *parts, const GLint *lengths, char *log,
                         size_t log_size)
{
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, count, (const GLchar *const *)parts, lengths);
    glCompileShader(shader);
    return checked(shader, false, log, log_size);
}

/* Links the `count` shaders of `stages` (and deletes them); see gfx_link_program. */
static GLuint link_stages(const GLuint *stages, int count, const char *const *attributes, int attribute_count,
                          const char *const *feedback_varyings, int varying_count, char *log, size_t log_size)
{
    GLuint program = glCreateProgram();
    for (int i = 0; i < count; i++) glAttachShader(program, stages[i]);
    for (int a = 0; attributes && a < attribute_count; a++) glBindAttribLocation(program, (GLuint)a, attributes[a]);
    if (feedback_varyings && varying_count > 0)
        glTransformFeedbackVaryings(program, varying_count, (const GLchar *const *)feedback_varyings,
                                    GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    for (int i = 0; i < count; i++) glDeleteShader(stages[i]);
    return checked(program, true, log, log_size);
}

GLuint gfx_link_program(GLuint vertex, GLuint fragment, const char *const *attributes, int attribute_count,
                        const char *const *feedback_varyings, int varying_count, char *log, size_t log_size)
{
    const GLuint stages[2] = {vertex, fragment};
    return link_stages(stages, 2, attributes, attribute_count, feedback_varyings, varying_count, log, log_size);
}

GLuint gfx_link_program_geometry(GLuint vertex, GLuint geometry, GLuint fragment, char *log, size_t log_size)
{
    const GLuint stages[3] = {vertex, geometry, fragment};
    return link_stages(stages, 3, NULL, 0, NULL, 0, log, log_size);
}

GLuint gfx_program_from_sources(const char *label, const char *vertex, const char *fragment, char *error,
                                size_t error_size)
{
    char log[512];
    GLuint vs = gfx_compile_stage(GL_VERTEX_SHADER, 1, &vertex, NULL, log, sizeof log);
    if (!vs) {
        snprintf(error, error_size, "%s vertex shader: %s", label, log);
        return 0;
    }
    GLuint fs = gfx_compile_stage(GL_FRAGMENT_SHADER, 1, &fragment, NULL, log, sizeof log);
    if (!fs) {
        glDeleteShader(vs);
        snprintf(error, error_size, "%s fragment shader: %s", label, log);
        return 0;
    }
    GLuint program = gfx_link_program(vs, fs, NULL, 0, NULL, 0, log, sizeof log);
    if (!program) snprintf(error, error_size, "%s shader link: %s", label, log);
    return program;
}

GLuint gfx_compile_stage_file(GLenum stage, const char *path, const char *define, char *error, size_t error_size)
{
    size_t source_size = 0;
    int error_number = 0;
    char *source = whole_file_read(path, 16u << 20, &source_size, &error_number);
    if (!source) {
        snprintf(error, error_size, "cannot read shader %s: %s", path, strerror(error_number));
        return 0;
    }
    /* Split after the #version line (GLSL requires it first), so the #define follows it. */
    const char *head = source, *body = "";
    GLint head_length = 0;
    char *version = strstr(source, "#version");
    if (version) {
        char *newline = strchr(version, '\n');
        head_length = (GLint)(newline ? newline + 1 - source : (long)strlen(source));
        body = source + head_length;
    } else {
        head = "";
        body = source;
    }
    const char *parts[3] = {head, define ? define : "", body};
    GLint lengths[3] = {head_length, -1, -1};

    char line[512];
    GLuint shader = gfx_compile_stage(stage, 3, parts, lengths, line, sizeof line);
    free(source);
    if (!shader) snprintf(error, error_size, "shader %s does not compile: %s", path, line);
    return shader;
}
