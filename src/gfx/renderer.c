/* renderer.c — GL resources of a Model and the per-frame draw (see renderer.h). */
#include "renderer.h"
#include "colormap.h"
#include "gpu_common.h"
#include "shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOATS_PER_VERTEX 16   /* position 3, normal 3, uv 2, 4 x (bone index, weight) */
#define FEEDBACK_FLOATS 6      /* scenePosition 3, sceneNormal 3 (interleaved) */

int renderer_max_bones(void)
{
    GLint components = 0;
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_COMPONENTS, &components);
    /* one mat4 = 16 components; keep room for projection, view, model and the flags */
    int bones = components / 16 - RENDERER_RESERVED_MAT4;
    return bones > 0 ? bones : 0;
}

/* ---- shader ------------------------------------------------------------- */

/* Compiles vert (+ geom when not NULL) + frag with MAX_BONES injected; only the geometry-less
 * programs record the transform-feedback varyings (--verify captures those). */
static bool load_skin_program(SkinShader *shader, const char *vert_path, const char *geom_path, const char *frag_path,
                              int max_bones, char *error, size_t error_size)
{
    memset(shader, 0, sizeof *shader);
    int limit = renderer_max_bones();
    if (max_bones < 1 || max_bones > limit) {
        snprintf(error, error_size, "a palette of %d bones does not fit this GL's vertex uniforms (at most %d)",
                 max_bones, limit);
        return false;
    }
    char define[128];
    snprintf(define, sizeof define, "#define MAX_BONES %d\n#define MAX_MORPH_ACTIVE %d\n", max_bones,
             RENDERER_MAX_MORPH_ACTIVE);
    GLuint vert = gfx_compile_stage_file(GL_VERTEX_SHADER, vert_path, define, error, error_size);
    if (!vert) return false;
    GLuint geom = 0;
    if (geom_path && !(geom = gfx_compile_stage_file(GL_GEOMETRY_SHADER, geom_path, NULL, error, error_size))) {
        glDeleteShader(vert);
        return false;
    }
    GLuint frag = gfx_compile_stage_file(GL_FRAGMENT_SHADER, frag_path, RENDER_MODE_DEFINES, error, error_size);
    if (!frag) {
        glDeleteShader(vert);
        if (geom) glDeleteShader(geom);
        return false;
    }
    /* The design card's attribute order = the VAO's locations (also set by layout qualifiers). */
    static const char *const attributes[] = {"position",  "normal",    "uv",        "bone0info",
                                             "bone1info", "bone2info", "bone3info", "influencesInFile",
                                             "heatValue"};
    /* Recorded before linking: --verify reads these back (renderer_capture_mesh). */
    static const char *const varyings[] = {"scenePosition", "sceneNormal"};
    char line[512];
    GLuint program = geom ? gfx_link_program_geometry(vert, geom, frag, line, sizeof line)
                          : gfx_link_program(vert, frag, attributes, 9, varyings, 2, line, sizeof line);
    if (!program) {
        snprintf(error, error_size, "shaders %s + %s do not link: %s", vert_path, frag_path, line);
        return false;
    }
    shader->program = program;
    shader->max_bones = max_bones;
    shader->projection = glGetUniformLocation(program, "projection");
    shader->view = glGetUniformLocation(program, "view");
    shader->model = glGetUniformLocation(program, "model");
    shader->bones = glGetUniformLocation(program, "bonesMatrices");
    shader->bone_dual_quats = glGetUniformLocation(program, "boneDualQuats");
    shader->bone_stretches = glGetUniformLocation(program, "boneStretches");
    shader->skinned = glGetUniformLocation(program, "skinned");
    shader->cpu_skinned = glGetUniformLocation(program, "cpuSkinned");
    shader->rigid_skinning = glGetUniformLocation(program, "rigidSkinning");
    shader->show_heat = glGetUniformLocation(program, "showHeat");
    shader->only_selected = glGetUniformLocation(program, "onlySelected");
    shader->selected_bone = glGetUniformLocation(program, "selectedBone");
    shader->light_direction = glGetUniformLocation(program, "lightDirection");
    shader->light_color = glGetUniformLocation(program, "lightColor");
    shader->ambient = glGetUniformLocation(program, "ambientColor");
    shader->diffuse_color = glGetUniformLocation(program, "diffuseColor");
    shader->diffuse_texture = glGetUniformLocation(program, "diffuseTexture");
    shader->encode_srgb = glGetUniformLocation(program, "encodeSrgb");
    shader->morph_deltas = glGetUniformLocation(program, "morphDeltas");
    shader->morph_vertex_count = glGetUniformLocation(program, "morphVertexCount");
    shader->morph_active_count = glGetUniformLocation(program, "morphActiveCount");
    shader->morph_active = glGetUniformLocation(program, "morphActive");
    shader->display_mode = glGetUniformLocation(program, "displayMode");
    shader->color_map = glGetUniformLocation(program, "colorMap");
    shader->skinned_mesh = glGetUniformLocation(program, "skinnedMesh");
    shader->normal_length = glGetUniformLocation(program, "normalLength");
    shader->line_color = glGetUniformLocation(program, "lineColor");
    bool has_palette = shader->bones >= 0 || shader->bone_dual_quats >= 0;
    if (!has_palette || shader->skinned < 0 || shader->model < 0) {
        snprintf(error, error_size, "shader %s lacks the uniforms bonesMatrices (or boneDualQuats), skinned or model",
                 vert_path);
        glDeleteProgram(program);
        memset(shader, 0, sizeof *shader);
        return false;
    }
    glUseProgram(program);
    glUniform1i(shader->diffuse_texture, 0);
    glUniform1i(shader->morph_deltas, 1);
    glUniform1i(shader->color_map, 2);
    glUniform1i(shader->selected_bone, -1);
    glUseProgram(0);
    return true;
}

bool skin_shader_load(SkinShader *shader, const char *vert_path, const char *frag_path, int max_bones,
                      char *error, size_t error_size)
{
    return load_skin_program(shader, vert_path, NULL, frag_path, max_bones, error, error_size);
}

void skin_shader_free(SkinShader *shader)
{
    if (shader->program) glDeleteProgram(shader->program);
    memset(shader, 0, sizeof *shader);
}

/* ---- meshes and textures ----------------------------------------------- */

/* The morph deltas of a mesh as one buffer texture: RGBA32F, texel 2 * (t * vertex_count + v)
 * = position delta of target t at vertex v, the next texel its normal delta (w unused).
 * One spare target follows the file's (index morph_target_count): when a pose has more active
 * targets than the shader's list holds, their sum is written there (set_morph_uniforms). */
static bool upload_morph_targets(const Mesh *mesh, int mesh_index, GpuMesh *gpu, char *error, size_t error_size)
{
    if (mesh->morph_target_count <= 0 || mesh->vertex_count <= 0) return true;
    size_t vertices = (size_t)mesh->vertex_count;
    size_t entries = (size_t)mesh->morph_target_count * vertices;
    size_t texels = 2 * (entries + vertices);   /* + the spare target */
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    if (texels > (size_t)max_texels || texels > 0x7fffffffu) {
        snprintf(error, error_size,
                 "mesh %d \"%s\": %d morph targets x %d vertices need %zu texels, this GL's texture buffers hold %d",
                 mesh_index, mesh->name, mesh->morph_target_count, mesh->vertex_count, texels, max_texels);
        return false;
    }
    float *data = calloc(4 * texels, sizeof(float));
    gpu->morph_combined = malloc(sizeof(float) * 8 * vertices);
    if (!data || !gpu->morph_combined) {
        free(data);
        snprintf(error, error_size, "out of memory for the morph targets of mesh %d", mesh_index);
        return false;
    }
    for (size_t e = 0; e < entries; e++) {
        float *out = data + 8 * e;
        glm_vec3_copy(mesh->morph_position_deltas[e], out);
        if (mesh->morph_normal_deltas) glm_vec3_copy(mesh->morph_normal_deltas[e], out + 4);
    }
    glGenBuffers(1, &gpu->morph_buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, gpu->morph_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(sizeof(float) * 4 * texels), data, GL_DYNAMIC_DRAW);
    free(data);
    glGenTextures(1, &gpu->morph_texture);
    glBindTexture(GL_TEXTURE_BUFFER, gpu->morph_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gpu->morph_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    gpu->morph_target_count = mesh->morph_target_count;
    return true;
}

static bool upload_mesh(const Mesh *mesh, int mesh_index, int max_bones, GpuMesh *gpu, char *error,
                        size_t error_size)
{
    memset(gpu, 0, sizeof *gpu);
    if (mesh->skinned && mesh->bone_count > max_bones) {
        snprintf(error, error_size,
                 "mesh %d \"%s\" has %d bones but the skinning shader holds %d per mesh "
                 "(import with max_bones_per_mesh <= %d so the mesh is split)",
                 mesh_index, mesh->name, mesh->bone_count, max_bones, max_bones);
        return false;
    }
    float *vertices = malloc(sizeof(float) * FLOATS_PER_VERTEX * (size_t)(mesh->vertex_count > 0 ? mesh->vertex_count : 1));
    if (!vertices) {
        snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
        return false;
    }
    for (int v = 0; v < mesh->vertex_count; v++) {
        float *out = vertices + (size_t)v * FLOATS_PER_VERTEX;
        memset(out, 0, sizeof(float) * FLOATS_PER_VERTEX);
        glm_vec3_copy(mesh->positions[v], out);
        if (mesh->normals) glm_vec3_copy(mesh->normals[v], out + 3);
        else out[5] = 1.0f;
        if (mesh->uvs) {
            out[6] = mesh->uvs[v][0];
            out[7] = mesh->uvs[v][1];
        }
        if (mesh->skinned) {
            for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                int bone = mesh->joint_indices[v][k];
                float weight = mesh->weights[v][k];
                if (bone >= mesh->bone_count) {
                    if (weight != 0.0f) {
                        snprintf(error, error_size, "mesh %d \"%s\": vertex %d uses bone %d of %d", mesh_index,
                                 mesh->name, v, bone, mesh->bone_count);
                        free(vertices);
                        return false;
                    }
                    bone = 0;   /* unused slot: any valid index, weight 0 */
                }
                out[8 + 2 * k] = (float)bone;
                out[9 + 2 * k] = weight;
            }
        }
    }
    glGenVertexArrays(1, &gpu->vao);
    glGenBuffers(1, &gpu->vbo);
    glGenBuffers(1, &gpu->ebo);
    glBindVertexArray(gpu->vao);
    glBindBuffer(GL_ARRAY_BUFFER, gpu->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * FLOATS_PER_VERTEX * (size_t)mesh->vertex_count),
                 vertices, GL_STATIC_DRAW);
    free(vertices);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(uint32_t) * (size_t)mesh->index_count), mesh->indices,
                 GL_STATIC_DRAW);
    const GLsizei stride = sizeof(float) * FLOATS_PER_VERTEX;
    static const int sizes[7] = {3, 3, 2, 2, 2, 2, 2};
    size_t offset = 0;
    for (GLuint a = 0; a < 7; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, stride, (const void *)(offset * sizeof(float)));
        offset += (size_t)sizes[a];
    }
    glBindVertexArray(0);
    if (mesh->skinned) {
        /* --skinning cpu: the same VAO, but position and normal come from a buffer the CPU
         * refills each frame (renderer_prepare) */
        glGenVertexArrays(1, &gpu->cpu_vao);
        glGenBuffers(1, &gpu->cpu_vbo);
        glBindVertexArray(gpu->cpu_vao);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu->ebo);
        glBindBuffer(GL_ARRAY_BUFFER, gpu->cpu_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * 6 * (size_t)mesh->vertex_count), NULL,
                     GL_STREAM_DRAW);
        for (GLuint a = 0; a < 2; a++) {
            glEnableVertexAttribArray(a);
            glVertexAttribPointer(a, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (const void *)(3 * a * sizeof(float)));
        }
        glBindBuffer(GL_ARRAY_BUFFER, gpu->vbo);
        offset = 6;
        for (GLuint a = 2; a < 7; a++) {
            glEnableVertexAttribArray(a);
            glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, stride, (const void *)(offset * sizeof(float)));
            offset += (size_t)sizes[a];
        }
        glBindVertexArray(0);
    }
    if (mesh->skinned) {
        /* location 8: the difference view's per-vertex value (renderer_set_vertex_heat), 0 until set */
        float *zeros = calloc((size_t)(mesh->vertex_count > 0 ? mesh->vertex_count : 1), sizeof(float));
        if (!zeros) {
            snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
            return false;
        }
        glGenBuffers(1, &gpu->heat_vbo);
        glBindBuffer(GL_ARRAY_BUFFER, gpu->heat_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)mesh->vertex_count), zeros, GL_DYNAMIC_DRAW);
        free(zeros);
        GLuint vaos[2] = {gpu->vao, gpu->cpu_vao};
        for (int i = 0; i < 2; i++) {
            glBindVertexArray(vaos[i]);
            glEnableVertexAttribArray(8);
            glVertexAttribPointer(8, 1, GL_FLOAT, GL_FALSE, sizeof(float), (const void *)0);
        }
        glBindVertexArray(0);
    }
    if (mesh->skinned && mesh->influences_in_file) {
        /* location 7, outside the 16 floats: the file's influence count of vertices that lost
         * some (> 4). Meshes without such vertices leave it unset: it reads 0 there. */
        float *counts = malloc(sizeof(float) * (size_t)mesh->vertex_count);
        if (!counts) {
            snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
            return false;
        }
        for (int v = 0; v < mesh->vertex_count; v++) counts[v] = (float)mesh->influences_in_file[v];
        glGenBuffers(1, &gpu->influences_vbo);
        glBindBuffer(GL_ARRAY_BUFFER, gpu->influences_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)mesh->vertex_count), counts, GL_STATIC_DRAW);
        free(counts);
        GLuint vaos[2] = {gpu->vao, gpu->cpu_vao};
        for (int i = 0; i < 2; i++) {
            glBindVertexArray(vaos[i]);
            glEnableVertexAttribArray(7);
            glVertexAttribPointer(7, 1, GL_FLOAT, GL_FALSE, sizeof(float), (const void *)0);
        }
        glBindVertexArray(0);
    }
    if (mesh->skinned && mesh->dq_weight) {
        /* location 9, outside the 16 floats: the LBS share 1 - dq_weight of a Blend skin (DQ shader).
         * Meshes without one leave it unset: it reads 0 there, all DQS. */
        float *shares = malloc(sizeof(float) * (size_t)mesh->vertex_count);
        if (!shares) {
            snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
            return false;
        }
        for (int v = 0; v < mesh->vertex_count; v++) shares[v] = 1.0f - mesh->dq_weight[v];
        glGenBuffers(1, &gpu->linear_share_vbo);
        glBindBuffer(GL_ARRAY_BUFFER, gpu->linear_share_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)mesh->vertex_count), shares, GL_STATIC_DRAW);
        free(shares);
        glBindVertexArray(gpu->vao);
        glEnableVertexAttribArray(9);
        glVertexAttribPointer(9, 1, GL_FLOAT, GL_FALSE, sizeof(float), (const void *)0);
        glBindVertexArray(0);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gpu->vertex_count = mesh->vertex_count;
    gpu->index_count = mesh->index_count;
    gpu->bone_count = mesh->skinned ? mesh->bone_count : 0;
    gpu->skinned = mesh->skinned;
    gpu->material = mesh->material;
    return upload_morph_targets(mesh, mesh_index, gpu, error, error_size);
}

/* Texture rows arrive top to bottom; GL's first row is t = 0, the bottom, and Assimp's UVs
 * put v = 0 at the bottom of the image: so the rows are uploaded bottom row first. */
GLuint renderer_upload_texture(const Texture *texture)
{
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    size_t row = (size_t)texture->width * 4;
    unsigned char *flipped = malloc(row * (size_t)texture->height);
    if (flipped && texture->rgba) {
        for (int y = 0; y < texture->height; y++)
            memcpy(flipped + row * (size_t)y, texture->rgba + row * (size_t)(texture->height - 1 - y), row);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, texture->width, texture->height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, flipped);
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    } else {   /* undecodable: show white rather than garbage */
        static const unsigned char white[4] = {255, 255, 255, 255};
        glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    }
    free(flipped);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glBindTexture(GL_TEXTURE_2D, 0);
    return id;
}

/* "DIR/name" for the folder of `sibling` (a path to a file). */
static void sibling_path(const char *sibling, const char *name, char *out, size_t out_size)
{
    const char *slash = strrchr(sibling, '/');
    int folder = slash ? (int)(slash - sibling + 1) : 0;
    snprintf(out, out_size, "%.*s%s", folder, sibling, name);
}

/* The weight heat-map's colour map: viridis (perceptually uniform, dark purple 0 -> yellow 1),
 * as a 256 x 1 sRGB texture sampled at texel centres. */
static GLuint upload_color_map(void)
{
    unsigned char texels[256][3];
    for (int i = 0; i < 256; i++) colormap_viridis_srgb8((float)i / 255.0f, texels[i]);
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8, 256, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return id;
}

bool renderer_init(Renderer *renderer, const Model *model, const char *vert_path, const char *frag_path,
                   int max_bones, char *error, size_t error_size)
{
    memset(renderer, 0, sizeof *renderer);
    renderer->model = model;
    renderer->selected_joint = -1;
    if (!skin_shader_load(&renderer->shader, vert_path, frag_path, max_bones, error, error_size)) return false;
    char dq_vert[1024], normals_geom[1024], normals_frag[1024];
    sibling_path(vert_path, "skinned_dq.vert", dq_vert, sizeof dq_vert);
    sibling_path(vert_path, "normals.geom", normals_geom, sizeof normals_geom);
    sibling_path(vert_path, "normals.frag", normals_frag, sizeof normals_frag);
    if (!load_skin_program(&renderer->dq_shader, dq_vert, NULL, frag_path, max_bones, error, error_size) ||
        !load_skin_program(&renderer->normals_shader[0], vert_path, normals_geom, normals_frag, max_bones, error,
                           error_size) ||
        !load_skin_program(&renderer->normals_shader[1], dq_vert, normals_geom, normals_frag, max_bones, error,
                           error_size)) {
        renderer_free(renderer);
        return false;
    }
    int largest = 1;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > largest) largest = model->meshes[m].vertex_count;
    renderer->cpu_positions = malloc(sizeof(vec3) * (size_t)largest);
    renderer->cpu_normals = malloc(sizeof(vec3) * (size_t)largest);
    renderer->cpu_upload = malloc(sizeof(float) * 6 * (size_t)largest);
    renderer->selected_bone = malloc(sizeof(int) * (size_t)(model->mesh_count > 0 ? model->mesh_count : 1));
    if (!renderer->cpu_positions || !renderer->cpu_normals || !renderer->cpu_upload || !renderer->selected_bone ||
        !skin_dq_pose_init(&renderer->dq_pose, model)) {
        snprintf(error, error_size, "out of memory");
        renderer_free(renderer);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) renderer->selected_bone[m] = -1;
    renderer->color_map = upload_color_map();

    renderer->meshes = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof(GpuMesh));
    renderer->textures = calloc((size_t)(model->texture_count > 0 ? model->texture_count : 1), sizeof(GLuint));
    if (!renderer->meshes || !renderer->textures) {
        snprintf(error, error_size, "out of memory");
        renderer_free(renderer);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        if (!upload_mesh(&model->meshes[m], m, max_bones, &renderer->meshes[m], error, error_size)) {
            renderer_free(renderer);
            return false;
        }
        renderer->mesh_count = m + 1;
    }
    for (int t = 0; t < model->texture_count; t++) {
        renderer->textures[t] = renderer_upload_texture(&model->textures[t]);
        renderer->texture_count = t + 1;
    }
    renderer->white_texture = gpu_white_texture();

    GLenum gl_error = glGetError();
    if (gl_error != GL_NO_ERROR) {
        snprintf(error, error_size, "GL error 0x%04x while uploading the model", gl_error);
        renderer_free(renderer);
        return false;
    }
    return true;
}

void renderer_free(Renderer *renderer)
{
    for (int m = 0; m < renderer->mesh_count; m++) {
        GpuMesh *gpu = &renderer->meshes[m];
        glDeleteVertexArrays(1, &gpu->vao);
        glDeleteBuffers(1, &gpu->vbo);
        glDeleteBuffers(1, &gpu->ebo);
        if (gpu->morph_texture) glDeleteTextures(1, &gpu->morph_texture);
        if (gpu->morph_buffer) glDeleteBuffers(1, &gpu->morph_buffer);
        free(gpu->morph_combined);
        if (gpu->cpu_vao) glDeleteVertexArrays(1, &gpu->cpu_vao);
        if (gpu->cpu_vbo) glDeleteBuffers(1, &gpu->cpu_vbo);
        if (gpu->influences_vbo) glDeleteBuffers(1, &gpu->influences_vbo);
        if (gpu->heat_vbo) glDeleteBuffers(1, &gpu->heat_vbo);
        if (gpu->linear_share_vbo) glDeleteBuffers(1, &gpu->linear_share_vbo);
    }
    if (renderer->color_map) glDeleteTextures(1, &renderer->color_map);
    skin_shader_free(&renderer->dq_shader);
    skin_shader_free(&renderer->normals_shader[0]);
    skin_shader_free(&renderer->normals_shader[1]);
    skin_dq_pose_free(&renderer->dq_pose);
    free(renderer->cpu_positions);
    free(renderer->cpu_normals);
    free(renderer->cpu_upload);
    free(renderer->selected_bone);
    if (renderer->texture_count > 0) glDeleteTextures(renderer->texture_count, renderer->textures);
    if (renderer->white_texture) glDeleteTextures(1, &renderer->white_texture);
    if (renderer->feedback_buffer) glDeleteBuffers(1, &renderer->feedback_buffer);
    skin_shader_free(&renderer->shader);
    free(renderer->meshes);
    free(renderer->textures);
    memset(renderer, 0, sizeof *renderer);
}

/* ---- drawing ------------------------------------------------------------ */

void render_light_default(RenderLight *light)
{
    glm_vec3_copy((vec3){0.45f, 0.75f, 0.6f}, light->direction);
    glm_vec3_copy((vec3){0.85f, 0.85f, 0.85f}, light->color);
    glm_vec3_copy((vec3){0.25f, 0.25f, 0.28f}, light->ambient);
}

void renderer_clear(float r, float g, float b)
{
    glDisable(GL_FRAMEBUFFER_SRGB);    /* the colour is already sRGB-encoded */
    glClearColor(r, g, b, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void renderer_clear_transparent(void)
{
    glDisable(GL_FRAMEBUFFER_SRGB);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

bool renderer_target_is_srgb(void)
{
    GLint framebuffer = 0, encoding = GL_LINEAR;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, framebuffer == 0 ? GL_BACK_LEFT : GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
    return encoding == GL_SRGB;
}

/* Morph uniforms of mesh m: its delta texture on unit 1 and the active (target, weight) pairs.
 * A pose with more active targets than the list holds is summed on the CPU (the reference
 * morph_vertices) and drawn as one target of weight 1 in the spare slot: exact, any number. */
static void set_morph_uniforms(Renderer *renderer, const SkinShader *shader, const Animator *animator, int m)
{
    GpuMesh *gpu = &renderer->meshes[m];
    const MeshMorph *morph = &animator->morphs[m];
    /* --skinning cpu: the uploaded vertices are morphed already (animator_skin_mesh) */
    bool cpu_done = renderer->method == SKINNING_CPU_LBS && gpu->skinned;
    int active = gpu->morph_target_count > 0 && !cpu_done ? morph->active_count : 0;
    float pairs[2 * RENDERER_MAX_MORPH_ACTIVE];
    int count = active;
    if (active <= RENDERER_MAX_MORPH_ACTIVE) {
        for (int i = 0; i < active; i++) {
            pairs[2 * i] = (float)morph->active_targets[i];   /* exact: target indices < 2^24 */
            pairs[2 * i + 1] = morph->active_weights[i];
        }
    } else {
        const Mesh *mesh = &renderer->model->meshes[m];
        animator_morph_mesh(animator, m);   /* p' = p + sum_i w_i * delta_i into the animator's scratch */
        for (int v = 0; v < mesh->vertex_count; v++) {
            float *out = gpu->morph_combined + 8 * (size_t)v;
            glm_vec3_sub(morph->positions[v], mesh->positions[v], out);   /* the sum of the weighted deltas */
            glm_vec3_sub(morph->normals[v], mesh->normals[v], out + 4);
            out[3] = out[7] = 0.0f;
        }
        glBindBuffer(GL_TEXTURE_BUFFER, gpu->morph_buffer);
        glBufferSubData(GL_TEXTURE_BUFFER,
                        (GLintptr)(sizeof(float) * 8 * (size_t)gpu->morph_target_count * (size_t)mesh->vertex_count),
                        (GLsizeiptr)(sizeof(float) * 8 * (size_t)mesh->vertex_count), gpu->morph_combined);
        glBindBuffer(GL_TEXTURE_BUFFER, 0);
        pairs[0] = (float)gpu->morph_target_count;   /* the spare target, weight 1 */
        pairs[1] = 1.0f;
        count = 1;
    }
    glUniform1i(shader->morph_active_count, count);
    if (count == 0) return;
    glUniform1i(shader->morph_vertex_count, gpu->vertex_count);
    if (count % 2) pairs[2 * count] = pairs[2 * count + 1] = 0.0f;   /* the unused half of the last vec4 */
    glUniform4fv(shader->morph_active, (count + 1) / 2, pairs);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, gpu->morph_texture);
    glActiveTexture(GL_TEXTURE0);
}

void renderer_select_joint(Renderer *renderer, int joint)
{
    renderer->selected_joint = joint;
    for (int m = 0; m < renderer->mesh_count; m++) {
        const Mesh *mesh = &renderer->model->meshes[m];
        renderer->selected_bone[m] = -1;
        for (int b = 0; b < mesh->bone_count && joint >= 0; b++)
            if (mesh->bone_joint[b] == joint) {
                renderer->selected_bone[m] = b;
                break;
            }
    }
}

void renderer_set_vertex_heat(Renderer *renderer, int mesh, const float *values)
{
    const GpuMesh *gpu = &renderer->meshes[mesh];
    if (!gpu->heat_vbo || gpu->vertex_count == 0) return;
    glBindBuffer(GL_ARRAY_BUFFER, gpu->heat_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof(float) * (size_t)gpu->vertex_count), values);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void renderer_prepare(Renderer *renderer, const Animator *animator)
{
    renderer->dq_fallback_meshes = 0;
    if (renderer->method == SKINNING_GPU_DQ) {
        renderer->dq_fallback_meshes = skin_dq_pose_update(&renderer->dq_pose, animator);
    } else if (renderer->method == SKINNING_CPU_LBS) {
        for (int m = 0; m < renderer->mesh_count; m++) {
            const GpuMesh *gpu = &renderer->meshes[m];
            if (!gpu->skinned || gpu->vertex_count == 0) continue;
            animator_skin_mesh(animator, m, renderer->cpu_positions, renderer->cpu_normals);
            for (int v = 0; v < gpu->vertex_count; v++) {
                glm_vec3_copy(renderer->cpu_positions[v], renderer->cpu_upload + 6 * v);
                glm_vec3_copy(renderer->cpu_normals[v], renderer->cpu_upload + 6 * v + 3);
            }
            glBindBuffer(GL_ARRAY_BUFFER, gpu->cpu_vbo);
            glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof(float) * 6 * (size_t)gpu->vertex_count),
                            renderer->cpu_upload);
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
}

/* Does mesh m use the dual quaternion shader (method DQ, skinned, palette converted)? */
static bool mesh_uses_dq(const Renderer *renderer, int m)
{
    return renderer->method == SKINNING_GPU_DQ && renderer->meshes[m].skinned &&
           renderer->dq_pose.status[m] == SKIN_DQ_OK;
}

/* The VAO mesh m is drawn with: the CPU-skinned one for --skinning cpu. */
static GLuint mesh_vao(const Renderer *renderer, int m)
{
    const GpuMesh *gpu = &renderer->meshes[m];
    return renderer->method == SKINNING_CPU_LBS && gpu->cpu_vao ? gpu->cpu_vao : gpu->vao;
}

/* Per-mesh uniforms shared by drawing, normals and capture: model matrix, skinning flags, palette
 * (matrices for LBS, dual quaternions + scale for DQS), the selected joint's palette index. */
static void set_mesh_uniforms(Renderer *renderer, const SkinShader *shader, const Animator *animator, int m)
{
    const GpuMesh *gpu = &renderer->meshes[m];
    mat4 model_matrix;
    animator_mesh_matrix(animator, m, model_matrix);
    glUniformMatrix4fv(shader->model, 1, GL_FALSE, (const float *)model_matrix);
    glUniform1i(shader->skinned, gpu->skinned ? 1 : 0);
    glUniform1i(shader->selected_bone, renderer->selected_bone[m]);
    if (shader->skinned_mesh >= 0) glUniform1i(shader->skinned_mesh, gpu->skinned ? 1 : 0);
    if (shader->cpu_skinned >= 0) glUniform1i(shader->cpu_skinned, renderer->method == SKINNING_CPU_LBS);
    if (shader->rigid_skinning >= 0) glUniform1i(shader->rigid_skinning, renderer->method == SKINNING_RIGID);
    if (shader->show_heat >= 0) glUniform1i(shader->show_heat, renderer->show_heat && gpu->heat_vbo);
    if (shader->only_selected >= 0) glUniform1i(shader->only_selected, renderer->only_selected);
    set_morph_uniforms(renderer, shader, animator, m);   /* morph targets first, in mesh space */
    if (!gpu->skinned || gpu->bone_count == 0 || renderer->method == SKINNING_CPU_LBS) return;
    if (shader->bones >= 0)   /* the whole palette in one call (cglm is column-major) */
        glUniformMatrix4fv(shader->bones, gpu->bone_count, GL_FALSE, (const float *)animator->palettes[m]);
    if (shader->bone_dual_quats >= 0) {   /* DualQuat = {real, dual}: 2 vec4 per bone, one call */
        glUniform4fv(shader->bone_dual_quats, 2 * gpu->bone_count, (const float *)renderer->dq_pose.dq[m]);
        glUniform4fv(shader->bone_stretches, 2 * gpu->bone_count, (const float *)renderer->dq_pose.stretch[m]);
    }
}

/* Frame-wide uniforms of one program. */
static void set_frame_uniforms(const SkinShader *shader, const mat4 view, const mat4 projection,
                               const RenderLight *light, bool srgb_target, int display_mode)
{
    glUseProgram(shader->program);
    glUniformMatrix4fv(shader->view, 1, GL_FALSE, (const float *)view);
    glUniformMatrix4fv(shader->projection, 1, GL_FALSE, (const float *)projection);
    if (light) {
        glUniform3fv(shader->light_direction, 1, light->direction);
        glUniform3fv(shader->light_color, 1, light->color);
        glUniform3fv(shader->ambient, 1, light->ambient);
    }
    glUniform1i(shader->encode_srgb, srgb_target ? 0 : 1);
    glUniform1i(shader->display_mode, display_mode);
}

/* Draws every mesh with displayMode `display_mode` (state set by the caller). */
static void draw_meshes(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                        const RenderLight *light, bool srgb_target, int display_mode)
{
    const Model *model = renderer->model;
    set_frame_uniforms(&renderer->dq_shader, view, projection, light, srgb_target, display_mode);
    set_frame_uniforms(&renderer->shader, view, projection, light, srgb_target, display_mode);
    const SkinShader *current = &renderer->shader;
    glActiveTexture(GL_TEXTURE2);   /* unit 0: diffuse texture, 1: morph deltas, 2: heat-map colours */
    glBindTexture(GL_TEXTURE_2D, renderer->color_map);
    glActiveTexture(GL_TEXTURE0);
    for (int m = 0; m < renderer->mesh_count; m++) {
        const GpuMesh *gpu = &renderer->meshes[m];
        if (gpu->index_count == 0 || (renderer->mesh_visible && !renderer->mesh_visible[m])) continue;
        const SkinShader *shader = mesh_uses_dq(renderer, m) ? &renderer->dq_shader : &renderer->shader;
        if (shader != current) {
            glUseProgram(shader->program);
            current = shader;
        }
        set_mesh_uniforms(renderer, shader, animator, m);
        gpu_bind_material(model, gpu->material, renderer->textures, renderer->texture_count, renderer->white_texture,
                          shader->diffuse_color);
        glBindVertexArray(mesh_vao(renderer, m));
        glDrawElements(GL_TRIANGLES, gpu->index_count, GL_UNSIGNED_INT, NULL);
    }
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
}

void renderer_draw(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                   const RenderLight *light)
{
    bool srgb_target = renderer_target_is_srgb();
    gpu_opaque_pass_begin(srgb_target, renderer->cull_back_faces);
    draw_meshes(renderer, animator, view, projection, light, srgb_target, (int)renderer->mode);
    gpu_opaque_pass_end();
}

void renderer_draw_wireframe(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                             const RenderLight *light)
{
    bool srgb_target = renderer_target_is_srgb();
    if (srgb_target) glEnable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    /* the edges lie exactly on the filled surface: pull them a little toward the eye */
    glEnable(GL_POLYGON_OFFSET_LINE);
    glPolygonOffset(-1.0f, -1.0f);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    draw_meshes(renderer, animator, view, projection, light, srgb_target, RENDER_WIREFRAME);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDisable(GL_POLYGON_OFFSET_LINE);
    glDepthFunc(GL_LESS);
    glDisable(GL_FRAMEBUFFER_SRGB);
}

void renderer_draw_normals(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                           float length, const float color[3])
{
    glDisable(GL_FRAMEBUFFER_SRGB);   /* the colour is written as is */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    for (int m = 0; m < renderer->mesh_count; m++) {
        const GpuMesh *gpu = &renderer->meshes[m];
        if (gpu->vertex_count == 0) continue;
        const SkinShader *shader = &renderer->normals_shader[mesh_uses_dq(renderer, m) ? 1 : 0];
        glUseProgram(shader->program);
        glUniformMatrix4fv(shader->view, 1, GL_FALSE, (const float *)view);
        glUniformMatrix4fv(shader->projection, 1, GL_FALSE, (const float *)projection);
        glUniform1f(shader->normal_length, length);
        glUniform3fv(shader->line_color, 1, color);
        set_mesh_uniforms(renderer, shader, animator, m);
        glBindVertexArray(mesh_vao(renderer, m));
        glDrawArrays(GL_POINTS, 0, gpu->vertex_count);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDepthFunc(GL_LESS);
}

bool renderer_capture_mesh(Renderer *renderer, const Animator *animator, int mesh, vec3 *out_positions,
                           vec3 *out_normals)
{
    const GpuMesh *gpu = &renderer->meshes[mesh];
    if (gpu->vertex_count == 0) return true;
    size_t bytes = sizeof(float) * FEEDBACK_FLOATS * (size_t)gpu->vertex_count;
    gpu_feedback_reserve(&renderer->feedback_buffer, &renderer->feedback_size, bytes);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    const SkinShader *shader = mesh_uses_dq(renderer, mesh) ? &renderer->dq_shader : &renderer->shader;
    glUseProgram(shader->program);
    glUniformMatrix4fv(shader->view, 1, GL_FALSE, (const float *)identity);
    glUniformMatrix4fv(shader->projection, 1, GL_FALSE, (const float *)identity);
    set_mesh_uniforms(renderer, shader, animator, mesh);

    bool ok = gpu_capture_points(renderer->feedback_buffer, mesh_vao(renderer, mesh), gpu->vertex_count, FEEDBACK_FLOATS,
                                 out_positions, out_normals);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    return ok;
}
