/* lines.c — 3D segments and points over the scene, depth test off (see lines.h). */
#include "lines.h"
#include "gl.h"
#include "shader.h"

#include <string.h>

static const char *const lines_vertex_source =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_position;   // scene space\n"
    "uniform mat4 u_view_projection;\n"
    "uniform float u_point_size;\n"
    "void main() {\n"
    "    gl_Position = u_view_projection * vec4(a_position, 1.0);\n"
    "    gl_PointSize = u_point_size;\n"
    "}\n";

/* Points are squares by default: discard outside the inscribed disc (gl_PointCoord is 0..1
 * across the point; for lines it is undefined but unused, since u_point_size is 0 then). */
static const char *const lines_fragment_source =
    "#version 330 core\n"
    "uniform vec4 u_color;\n"
    "uniform float u_point_size;\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    if (u_point_size > 0.0 && length(gl_PointCoord - vec2(0.5)) > 0.5) discard;\n"
    "    frag_color = u_color;\n"
    "}\n";

bool lines_init(Lines *lines, int max_segments, char *error, size_t error_size)
{
    memset(lines, 0, sizeof *lines);
    lines->program = gfx_program_from_sources("line", lines_vertex_source, lines_fragment_source, error, error_size);
    if (!lines->program) return false;
    lines->u_view_projection = glGetUniformLocation(lines->program, "u_view_projection");
    lines->u_color = glGetUniformLocation(lines->program, "u_color");
    lines->u_point_size = glGetUniformLocation(lines->program, "u_point_size");
    lines->max_segments = max_segments > 0 ? max_segments : 0;

    glGenVertexArrays(1, &lines->vao);
    glGenBuffers(1, &lines->vbo);
    glBindVertexArray(lines->vao);
    glBindBuffer(GL_ARRAY_BUFFER, lines->vbo);
    int capacity = lines->max_segments > 0 ? lines->max_segments : 1;
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(2 * (size_t)capacity * sizeof(vec3)), NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vec3), (const void *)0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void lines_free(Lines *lines)
{
    if (lines->vbo) glDeleteBuffers(1, &lines->vbo);
    if (lines->vao) glDeleteVertexArrays(1, &lines->vao);
    if (lines->program) glDeleteProgram(lines->program);
    memset(lines, 0, sizeof *lines);
}

void lines_draw(Lines *lines, const vec3 *endpoints, int segment_count, const mat4 view, const mat4 projection,
                const float color[4], float point_size)
{
    if (segment_count > lines->max_segments) segment_count = lines->max_segments;
    if (segment_count <= 0) return;
    GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
    GLboolean program_point_size = glIsEnabled(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_DEPTH_TEST);   /* bones show through the mesh */
    glEnable(GL_PROGRAM_POINT_SIZE);

    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);   /* clip = P * V * p */
    glUseProgram(lines->program);
    glUniformMatrix4fv(lines->u_view_projection, 1, GL_FALSE, (const float *)view_projection);
    glUniform4fv(lines->u_color, 1, color);
    glBindVertexArray(lines->vao);
    glBindBuffer(GL_ARRAY_BUFFER, lines->vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(2 * (size_t)segment_count * sizeof(vec3)), endpoints);
    glUniform1f(lines->u_point_size, 0.0f);
    glDrawArrays(GL_LINES, 0, 2 * segment_count);
    if (point_size > 0.0f) {
        glUniform1f(lines->u_point_size, point_size);
        glDrawArrays(GL_POINTS, 0, 2 * segment_count);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    if (depth_test) glEnable(GL_DEPTH_TEST);
    if (!program_point_size) glDisable(GL_PROGRAM_POINT_SIZE);
}
