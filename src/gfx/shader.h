/* shader.h — compiling and linking GLSL programs, with a one-line error (the first line of
 * the GL info log) for the caller's message. */
#ifndef SKINVIEW_SHADER_H
#define SKINVIEW_SHADER_H

#include "gl_types.h"

#include <stddef.h>

/* Compiles one stage from `count` source strings (`lengths` as for glShaderSource: NULL, or
 * -1 per entry, for NUL-terminated parts). Returns the shader, or 0 with the first line of the
 * info log in `log`. */
GLuint gfx_compile_stage(GLenum stage, int count, const char *const *parts, const GLint *lengths, char *log,
                         size_t log_size);

/* Links `vertex` + `fragment` and deletes both shaders. Before linking, attributes[a] (when
 * given) is bound to location a and feedback_varyings (when given) are recorded interleaved.
 * Returns the program, or 0 with the first line of the info log in `log`. */
GLuint gfx_link_program(GLuint vertex, GLuint fragment, const char *const *attributes, int attribute_count,
                        const char *const *feedback_varyings, int varying_count, char *log, size_t log_size);

/* gfx_link_program with a geometry shader between the two (deleted too); no attributes bound,
 * no varyings recorded. */
GLuint gfx_link_program_geometry(GLuint vertex, GLuint geometry, GLuint fragment, char *log, size_t log_size);

/* A program from one vertex and one fragment source string, no attribute bindings or varyings.
 * Errors read "<label> vertex shader: …", "<label> fragment shader: …" or "<label> shader link: …". */
GLuint gfx_program_from_sources(const char *label, const char *vertex, const char *fragment, char *error,
                                size_t error_size);

/* Compiles the GLSL file at `path`; `define` (may be NULL, e.g. "#define MAX_BONES 60\n") is
 * inserted right after the #version line (GLSL wants #version first). Returns the shader, or 0
 * with "cannot open shader PATH" / "shader PATH does not compile: first log line" in error. */
GLuint gfx_compile_stage_file(GLenum stage, const char *path, const char *define, char *error, size_t error_size);

#endif
