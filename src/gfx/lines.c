/* lines.c — wide 3D segments (geometry shader quads) and round points (see lines.h). */
#include "lines.h"
#include "gl.h"
#include "shader.h"

#include <stdio.h>
#include <string.h>

static const char *const lines_vertex_source =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_position;   // scene space\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform mat4 u_view_projection;\n"
    "uniform float u_point_size;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    gl_Position = u_view_projection * vec4(a_position, 1.0);\n"
    "    gl_PointSize = u_point_size;\n"
    "    v_color = a_color;\n"
    "}\n";

/* A segment -> a quad u_width pixels wide: offset both ends along the screen-space normal.
 * Offsets are computed in pixels and turned back into clip space (times w), so the width
 * does not depend on depth. Segments with an end behind the eye (w <= 0) are dropped. */
static const char *const lines_geometry_source =
    "#version 330 core\n"
    "layout(lines) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "in vec4 v_color[];\n"
    "out vec4 g_color;\n"
    "uniform vec2 u_viewport;\n"
    "uniform float u_width;\n"
    "void main() {\n"
    "    vec4 a = gl_in[0].gl_Position, b = gl_in[1].gl_Position;\n"
    "    if (a.w <= 0.0 || b.w <= 0.0) return;\n"
    "    vec2 direction = (b.xy / b.w - a.xy / a.w) * u_viewport;\n"
    "    if (dot(direction, direction) < 1e-12) direction = vec2(1.0, 0.0);\n"
    "    vec2 normal = normalize(vec2(-direction.y, direction.x)) * u_width / u_viewport;\n"
    "    g_color = v_color[0]; gl_Position = a + vec4(normal * a.w, 0.0, 0.0); EmitVertex();\n"
    "    g_color = v_color[0]; gl_Position = a - vec4(normal * a.w, 0.0, 0.0); EmitVertex();\n"
    "    g_color = v_color[1]; gl_Position = b + vec4(normal * b.w, 0.0, 0.0); EmitVertex();\n"
    "    g_color = v_color[1]; gl_Position = b - vec4(normal * b.w, 0.0, 0.0); EmitVertex();\n"
    "    EndPrimitive();\n"
    "}\n";

static const char *const lines_fragment_source =
    "#version 330 core\n"
    "in vec4 g_color;\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = g_color; }\n";

/* Points are squares by default: discard outside the inscribed disc. */
static const char *const points_fragment_source =
    "#version 330 core\n"
    "in vec4 v_color;\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    if (length(gl_PointCoord - vec2(0.5)) > 0.5) discard;\n"
    "    frag_color = v_color;\n"
    "}\n";

/* The line program: vertex + geometry + fragment. */
static GLuint line_program(char *error, size_t error_size)
{
    char log[512];
    GLuint vs = gfx_compile_stage(GL_VERTEX_SHADER, 1, &lines_vertex_source, NULL, log, sizeof log);
    GLuint gs = vs ? gfx_compile_stage(GL_GEOMETRY_SHADER, 1, &lines_geometry_source, NULL, log, sizeof log) : 0;
    GLuint fs = gs ? gfx_compile_stage(GL_FRAGMENT_SHADER, 1, &lines_fragment_source, NULL, log, sizeof log) : 0;
    if (!fs) {
        if (vs) glDeleteShader(vs);
        if (gs) glDeleteShader(gs);
        snprintf(error, error_size, "line shader: %s", log);
        return 0;
    }
    GLuint program = gfx_link_program_geometry(vs, gs, fs, log, sizeof log);
    if (!program) snprintf(error, error_size, "line shader link: %s", log);
    return program;
}

bool lines_init(Lines *lines, int max_segments, char *error, size_t error_size)
{
    memset(lines, 0, sizeof *lines);
    lines->line_program = line_program(error, error_size);
    if (!lines->line_program) return false;
    lines->point_program =
        gfx_program_from_sources("point", lines_vertex_source, points_fragment_source, error, error_size);
    if (!lines->point_program) {
        lines_free(lines);
        return false;
    }
    lines->line_view_projection = glGetUniformLocation(lines->line_program, "u_view_projection");
    lines->line_viewport = glGetUniformLocation(lines->line_program, "u_viewport");
    lines->line_width = glGetUniformLocation(lines->line_program, "u_width");
    lines->point_view_projection = glGetUniformLocation(lines->point_program, "u_view_projection");
    lines->point_size = glGetUniformLocation(lines->point_program, "u_point_size");
    lines->max_vertices = 2 * (max_segments > 0 ? max_segments : 1);

    glGenVertexArrays(1, &lines->vao);
    glGenBuffers(1, &lines->vbo);
    glBindVertexArray(lines->vao);
    glBindBuffer(GL_ARRAY_BUFFER, lines->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)lines->max_vertices * sizeof(LineVertex)), NULL,
                 GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), (const void *)offsetof(LineVertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), (const void *)offsetof(LineVertex, color));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void lines_free(Lines *lines)
{
    if (lines->vbo) glDeleteBuffers(1, &lines->vbo);
    if (lines->vao) glDeleteVertexArrays(1, &lines->vao);
    if (lines->line_program) glDeleteProgram(lines->line_program);
    if (lines->point_program) glDeleteProgram(lines->point_program);
    memset(lines, 0, sizeof *lines);
}

/* Shared set-up: state, vertices into the VBO. Returns the saved enables for restore(). */
typedef struct SavedState {
    GLboolean depth_test, blend, program_point_size;
} SavedState;

static SavedState begin(Lines *lines, const LineVertex *vertices, int count, const LineStyle *style)
{
    SavedState saved = {glIsEnabled(GL_DEPTH_TEST), glIsEnabled(GL_BLEND), glIsEnabled(GL_PROGRAM_POINT_SIZE)};
    if (style->depth_test) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
    } else {
        glDisable(GL_DEPTH_TEST);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_FRAMEBUFFER_SRGB);   /* colours are written as is */
    glBindVertexArray(lines->vao);
    glBindBuffer(GL_ARRAY_BUFFER, lines->vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)count * sizeof(LineVertex)), vertices);
    return saved;
}

static void end(SavedState saved)
{
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    glDepthFunc(GL_LESS);
    if (saved.depth_test) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    if (!saved.blend) glDisable(GL_BLEND);
    if (!saved.program_point_size) glDisable(GL_PROGRAM_POINT_SIZE);
}

void lines_draw(Lines *lines, const LineVertex *vertices, int segment_count, const mat4 view, const mat4 projection,
                const LineStyle *style)
{
    if (2 * segment_count > lines->max_vertices) segment_count = lines->max_vertices / 2;
    if (segment_count <= 0) return;
    SavedState saved = begin(lines, vertices, 2 * segment_count, style);
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);   /* clip = P * V * p */
    glUseProgram(lines->line_program);
    glUniformMatrix4fv(lines->line_view_projection, 1, GL_FALSE, (const float *)view_projection);
    /* the normal offset is in NDC units: half the width, times 2 / viewport */
    glUniform2f(lines->line_viewport, (float)style->viewport[0], (float)style->viewport[1]);
    glUniform1f(lines->line_width, style->width);
    glDrawArrays(GL_LINES, 0, 2 * segment_count);
    end(saved);
}

void lines_draw_points(Lines *lines, const LineVertex *vertices, int count, const mat4 view, const mat4 projection,
                       const LineStyle *style, float size)
{
    if (count > lines->max_vertices) count = lines->max_vertices;
    if (count <= 0 || size <= 0.0f) return;
    SavedState saved = begin(lines, vertices, count, style);
    glEnable(GL_PROGRAM_POINT_SIZE);
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    glUseProgram(lines->point_program);
    glUniformMatrix4fv(lines->point_view_projection, 1, GL_FALSE, (const float *)view_projection);
    glUniform1f(lines->point_size, size);
    glDrawArrays(GL_POINTS, 0, count);
    end(saved);
}
