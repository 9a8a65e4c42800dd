/* gpu_common.c — GPU helpers both renderers share (gpu_common.h). */
#include "gfx/gpu_common.h"

void gpu_opaque_pass_begin(bool srgb_target, bool cull_back_faces)
{
    if (srgb_target) glEnable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    if (cull_back_faces) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glFrontFace(GL_CCW);
    } else {
        glDisable(GL_CULL_FACE);
    }
    glDisable(GL_BLEND);
}

void gpu_opaque_pass_end(void)
{
    glDisable(GL_CULL_FACE);
    glDisable(GL_FRAMEBUFFER_SRGB);
}

GLuint gpu_white_texture(void)
{
    static const unsigned char white[4] = {255, 255, 255, 255};
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    return texture;
}

void gpu_bind_material(const Model *model, int material, const GLuint *textures, int texture_count, GLuint white,
                       GLint color_uniform)
{
    const Material *m = material >= 0 && material < model->material_count ? &model->materials[material] : NULL;
    vec4 color = {0.8f, 0.8f, 0.8f, 1.0f};
    GLuint texture = white;
    if (m) {
        glm_vec4_copy((float *)m->diffuse_color, color);
        if (m->diffuse_texture >= 0 && m->diffuse_texture < texture_count) texture = textures[m->diffuse_texture];
    }
    glUniform4fv(color_uniform, 1, color);
    glBindTexture(GL_TEXTURE_2D, texture);
}

void gpu_feedback_reserve(GLuint *buffer, size_t *size, size_t bytes)
{
    if (!*buffer) glGenBuffers(1, buffer);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, *buffer);
    if (bytes > *size) {
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
        *size = bytes;
    }
}

bool gpu_capture_points(GLuint buffer, GLuint vao, int vertex_count, int record_floats, vec3 *out_positions,
                        vec3 *out_normals)
{
    size_t bytes = sizeof(float) * (size_t)record_floats * (size_t)vertex_count;
    GLuint query = 0;
    glGenQueries(1, &query);
    glEnable(GL_RASTERIZER_DISCARD);
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer, 0, (GLsizeiptr)bytes);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
    glBeginTransformFeedback(GL_POINTS);
    glBindVertexArray(vao);
    glDrawArraysInstanced(GL_POINTS, 0, vertex_count, 1);   /* every vertex once, index buffer not needed */
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    glUseProgram(0);
    GLuint written = 0;
    glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
    glDeleteQueries(1, &query);

    bool ok = written == (GLuint)vertex_count;
    const float *data = ok ? glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT) : NULL;
    if (data) {
        for (int v = 0; v < vertex_count; v++) {
            const float *record = data + (size_t)v * (size_t)record_floats;
            glm_vec3_copy((float *)record, out_positions[v]);
            if (out_normals) glm_vec3_copy((float *)record + 3, out_normals[v]);
        }
        glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
    }
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
    return data != NULL && glGetError() == GL_NO_ERROR;
}
