/* gpu_common.c — GPU helpers both renderers share (gpu_common.h). */
#include "gfx/gpu_common.h"
#include "gfx/gl.h"
#include "gfx/renderer.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpu_find_uniforms(GLuint program, const GpuUniformName *table, int count, void *locations)
{
    for (int i = 0; i < count; i++)
        *(GLint *)((char *)locations + table[i].offset) = glGetUniformLocation(program, table[i].name);
}

float *gpu_vertex_staging(int vertex_count, int floats_per_vertex, int mesh_index, char *error, size_t error_size)
{
    float *vertices = calloc((size_t)floats_per_vertex * (size_t)(vertex_count > 0 ? vertex_count : 1), sizeof(float));
    if (!vertices) snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
    return vertices;
}

bool gpu_check_error(const char *doing, char *error, size_t error_size)
{
    GLenum gl_error = glGetError();
    if (gl_error == GL_NO_ERROR) return true;
    snprintf(error, error_size, "GL error 0x%04x while %s", gl_error, doing);
    return false;
}

void gpu_opaque_pass_begin(bool srgb_target, bool cull_back_faces)
{
    if (srgb_target) glEnable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glFrontFace(GL_CCW);   /* glTF's and Assimp's front faces */
    if (cull_back_faces) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
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

GLuint gpu_upload_texture(const Texture *texture, bool srgb)
{
    GLenum format = srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8;
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    size_t row = (size_t)texture->width * 4;
    unsigned char *flipped = texture->rgba ? malloc(row * (size_t)texture->height) : NULL;
    if (flipped) {
        for (int y = 0; y < texture->height; y++)
            memcpy(flipped + row * (size_t)y, texture->rgba + row * (size_t)(texture->height - 1 - y), row);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, texture->width, texture->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     flipped);
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    } else {   /* undecodable: show white rather than garbage */
        static const unsigned char white[4] = {255, 255, 255, 255};
        glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    }
    free(flipped);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glBindTexture(GL_TEXTURE_2D, 0);
    return id;
}

/* Is texture t sampled as data (not colour) by some material? */
static bool texture_is_data(const Model *model, int t)
{
    for (int m = 0; m < model->material_count; m++) {
        const Material *material = &model->materials[m];
        if (material->metallic_roughness_map.texture == t || material->normal_map.texture == t ||
            material->occlusion_map.texture == t)
            return true;
    }
    return false;
}

GLuint *gpu_upload_linear_textures(const Model *model)
{
    GLuint *linear = NULL;
    for (int t = 0; t < model->texture_count; t++) {
        if (!texture_is_data(model, t)) continue;
        if (!linear && !(linear = calloc((size_t)model->texture_count, sizeof *linear))) return NULL;
        linear[t] = gpu_upload_texture(&model->textures[t], false);
    }
    return linear;
}

void gpu_free_linear_textures(GLuint *linear, int count)
{
    if (!linear) return;
    for (int t = 0; t < count; t++)
        if (linear[t]) glDeleteTextures(1, &linear[t]);
    free(linear);
}

bool gpu_textures_upload(const Model *model, GpuTextureSet *textures)
{
    memset(textures, 0, sizeof *textures);
    textures->srgb = calloc((size_t)(model->texture_count > 0 ? model->texture_count : 1), sizeof(GLuint));
    if (!textures->srgb) return false;
    for (int t = 0; t < model->texture_count; t++) {
        textures->srgb[t] = gpu_upload_texture(&model->textures[t], true);
        textures->count = t + 1;
    }
    textures->linear = gpu_upload_linear_textures(model);
    textures->white = gpu_white_texture();
    return true;
}

void gpu_textures_free(GpuTextureSet *textures)
{
    if (textures->count > 0) glDeleteTextures(textures->count, textures->srgb);
    gpu_free_linear_textures(textures->linear, textures->count);
    if (textures->white) glDeleteTextures(1, &textures->white);
    free(textures->srgb);
    memset(textures, 0, sizeof *textures);
}

void gpu_upload_interleaved(GLuint *vao, GLuint *vbo, GLuint *ebo, const float *vertices, int vertex_count,
                            const int *sizes, int attribute_count, const uint32_t *indices, int index_count)
{
    int floats_per_vertex = 0;
    for (int a = 0; a < attribute_count; a++) floats_per_vertex += sizes[a];
    glGenVertexArrays(1, vao);
    glGenBuffers(1, vbo);
    glGenBuffers(1, ebo);
    glBindVertexArray(*vao);
    glBindBuffer(GL_ARRAY_BUFFER, *vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)floats_per_vertex * (size_t)vertex_count),
                 vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, *ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(uint32_t) * (size_t)index_count), indices,
                 GL_STATIC_DRAW);
    const GLsizei stride = (GLsizei)(sizeof(float) * (size_t)floats_per_vertex);
    size_t offset = 0;
    for (int a = 0; a < attribute_count; a++) {
        glEnableVertexAttribArray((GLuint)a);
        glVertexAttribPointer((GLuint)a, sizes[a], GL_FLOAT, GL_FALSE, stride, (const void *)(offset * sizeof(float)));
        offset += (size_t)sizes[a];
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void gpu_light_uniforms_find(GLuint program, LightUniforms *u)
{
/* AT(field): where in the struct a uniform's location goes */
#define AT(field) offsetof(LightUniforms, field)
    static const GpuUniformName names[] = {
        {"lightDirection", AT(direction)}, {"lightColor", AT(color)}, {"ambientColor", AT(ambient)},
        {"lightingModel", AT(lighting_model)}, {"skyColor", AT(sky)}, {"groundColor", AT(ground)},
        {"exposure", AT(exposure)}, {"cameraPosition", AT(camera_position)}, {"encodeSrgb", AT(encode_srgb)},
        {"view", AT(view)}, {"projection", AT(projection)},
    };
#undef AT
    gpu_find_uniforms(program, names, (int)(sizeof names / sizeof names[0]), u);
}

void gpu_light_scene_direction(const RenderLight *light, const mat4 view, vec3 out)
{
    if (!light->follow_camera) {
        glm_vec3_copy((float *)light->direction, out);
        return;
    }
    mat4 camera;
    glm_mat4_inv((vec4 *)view, camera);
    glm_mat4_mulv3(camera, (float *)light->direction, 0.0f, out);
}

void gpu_set_frame_uniforms(const LightUniforms *u, const mat4 view, const mat4 projection, const RenderLight *light,
                            bool srgb_target)
{
    glUniformMatrix4fv(u->view, 1, GL_FALSE, (const float *)view);
    glUniformMatrix4fv(u->projection, 1, GL_FALSE, (const float *)projection);
    mat4 camera;
    glm_mat4_inv((vec4 *)view, camera);
    glUniform3fv(u->camera_position, 1, camera[3]);
    if (light) {
        vec3 direction;
        gpu_light_scene_direction(light, view, direction);
        glUniform3fv(u->direction, 1, direction);
        glUniform3fv(u->color, 1, light->color);
        glUniform3fv(u->ambient, 1, light->ambient);
        glUniform1i(u->lighting_model, (int)light->lighting);
        glUniform3fv(u->sky, 1, light->sky);
        glUniform3fv(u->ground, 1, light->ground);
        glUniform1f(u->exposure, light->exposure);
    }
    glUniform1i(u->encode_srgb, srgb_target ? 0 : 1);
}

void gpu_blend_pass_begin(void)
{
    glEnable(GL_BLEND);
    /* colour: src * a + dst * (1 - a); alpha: a + dst_a * (1 - a) (coverage, for a transparent background) */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
}

void gpu_blend_pass_end(void)
{
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void gpu_material_uniforms_find(GLuint program, MaterialUniforms *u)
{
#define AT(field) offsetof(MaterialUniforms, field)
    static const GpuUniformName names[] = {
        {"diffuseColor", AT(base_color)}, {"metallicFactor", AT(metallic)}, {"roughnessFactor", AT(roughness)},
        {"normalScale", AT(normal_scale)}, {"hasNormalMap", AT(has_normal_map)},
        {"occlusionStrength", AT(occlusion_strength)}, {"emissiveFactor", AT(emissive)},
        {"alphaMode", AT(alpha_mode)}, {"alphaCutoff", AT(alpha_cutoff)}, {"unlit", AT(unlit)},
        {"uvSet", AT(uv_set)}, {"uvTransform", AT(uv_transform)},
    };
#undef AT
    gpu_find_uniforms(program, names, (int)(sizeof names / sizeof names[0]), u);
    static const struct { const char *name; int unit; } samplers[] = {
        {"diffuseTexture", MATERIAL_UNIT_BASE_COLOR},     {"metallicRoughnessTexture", MATERIAL_UNIT_METALLIC_ROUGHNESS},
        {"normalTexture", MATERIAL_UNIT_NORMAL},          {"occlusionTexture", MATERIAL_UNIT_OCCLUSION},
        {"emissiveTexture", MATERIAL_UNIT_EMISSIVE},
    };
    glUseProgram(program);
    for (size_t i = 0; i < sizeof samplers / sizeof samplers[0]; i++) {
        GLint location = glGetUniformLocation(program, samplers[i].name);
        if (location >= 0) glUniform1i(location, samplers[i].unit);
    }
}

/* out = a * b, 3x3 row-major */
static void mat3_mul(const float a[9], const float b[9], float out[9])
{
    float r[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(out, r, sizeof r);
}

void material_map_uv_matrix(const MaterialMap *map, float out[9])
{
    static const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(out, identity, sizeof identity);
    if (!map || !map->has_transform) return;
    float c = cosf(map->rotation), s = sinf(map->rotation);
    /* KHR_texture_transform: uv' = T * R * S * uv with R = [c s; -s c] (its "rotation" turns the
     * image counter-clockwise in glTF's v-down UV space) */
    const float flip[9] = {1, 0, 0, 0, -1, 1, 0, 0, 1};   /* (u, v) -> (u, 1 - v), its own inverse */
    const float translate[9] = {1, 0, map->offset[0], 0, 1, map->offset[1], 0, 0, 1};
    const float rotate[9] = {c, s, 0, -s, c, 0, 0, 0, 1};
    const float scale[9] = {map->scale[0], 0, 0, 0, map->scale[1], 0, 0, 0, 1};
    mat3_mul(flip, translate, out);
    mat3_mul(out, rotate, out);
    mat3_mul(out, scale, out);
    mat3_mul(out, flip, out);
}

/* The map's texture on `unit`: the sRGB or linear copy, white when it has none. */
static void bind_map(int unit, int texture, bool srgb, const GpuTextureSet *textures)
{
    GLuint id = textures->white;
    if (texture >= 0 && texture < textures->count) {
        if (srgb) id = textures->srgb[texture];
        else if (textures->linear && textures->linear[texture]) id = textures->linear[texture];
    }
    glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    glBindTexture(GL_TEXTURE_2D, id);
}

void gpu_bind_material(const Model *model, int material, const GpuTextureSet *textures, const MaterialUniforms *u)
{
    Material fallback;
    const Material *m = material >= 0 && material < model->material_count ? &model->materials[material] : NULL;
    if (!m) {
        material_init(&fallback);
        glm_vec4_copy((vec4){0.8f, 0.8f, 0.8f, 1.0f}, fallback.diffuse_color);
        fallback.metallic_factor = 0.0f;   /* a neutral grey plastic, not glTF's default metal */
        m = &fallback;
    }
    glUniform4fv(u->base_color, 1, m->diffuse_color);
    glUniform1f(u->metallic, m->metallic_factor);
    glUniform1f(u->roughness, m->roughness_factor);
    bool normal_map = m->normal_map.texture >= 0 && m->normal_map.texture < textures->count && textures->linear &&
                      textures->linear[m->normal_map.texture];
    glUniform1i(u->has_normal_map, normal_map ? 1 : 0);
    glUniform1f(u->normal_scale, m->normal_scale);
    glUniform1f(u->occlusion_strength, m->occlusion_map.texture >= 0 ? m->occlusion_strength : 0.0f);
    vec3 emissive;
    glm_vec3_scale((float *)m->emissive_factor, m->emissive_strength, emissive);
    glUniform3fv(u->emissive, 1, emissive);
    glUniform1i(u->alpha_mode, (int)m->alpha_mode);
    glUniform1f(u->alpha_cutoff, m->alpha_cutoff);
    glUniform1i(u->unlit, m->unlit ? 1 : 0);
    const MaterialMap *maps[5] = {&m->diffuse_map, &m->metallic_roughness_map, &m->normal_map, &m->occlusion_map,
                                  &m->emissive_map};
    GLint sets[5];
    float transforms[5][9];
    for (int i = 0; i < 5; i++) {
        sets[i] = maps[i]->texcoord == 1 ? 1 : 0;
        material_map_uv_matrix(maps[i], transforms[i]);
    }
    glUniform1iv(u->uv_set, 5, sets);
    glUniformMatrix3fv(u->uv_transform, 5, GL_TRUE, &transforms[0][0]);   /* row-major: transposed */
    bind_map(MATERIAL_UNIT_METALLIC_ROUGHNESS, m->metallic_roughness_map.texture, false, textures);
    bind_map(MATERIAL_UNIT_NORMAL, m->normal_map.texture, false, textures);
    bind_map(MATERIAL_UNIT_OCCLUSION, m->occlusion_map.texture, false, textures);
    bind_map(MATERIAL_UNIT_EMISSIVE, m->emissive_map.texture, true, textures);
    bind_map(MATERIAL_UNIT_BASE_COLOR, m->diffuse_texture, true, textures);   /* last: unit 0 stays active */
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
