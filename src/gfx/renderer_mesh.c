/* renderer_mesh.c — a Mesh on the GPU: the interleaved VAO of the design card (locations 0-6)
 * and the CPU-skinned one, the attributes outside it (7 influencesInFile, 8 heatValue, 9 colour,
 * 10 tangent, 11 uv1, 12 linearShare), the morph deltas as a buffer texture, and the centroid and
 * anchor bone the blend pass sorts by. */
#include "renderer_internal.h"
#include "anim/tangents.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOATS_PER_VERTEX 16   /* position 3, normal 3, uv 2, 4 x (bone index, weight) */

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

/* One float attribute at `location` of both VAOs of gpu (the CPU-skinned one too), from its own
 * buffer: `components` floats per vertex, `usage` as glBufferData takes it. Returns the buffer. */
static GLuint upload_attribute(GpuMesh *gpu, GLuint location, int components, const float *data, int vertex_count,
                               GLenum usage)
{
    GLuint vbo = 0;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)components * (size_t)vertex_count), data, usage);
    GLuint vaos[2] = {gpu->vao, gpu->cpu_vao};
    for (int i = 0; i < 2; i++) {
        if (!vaos[i]) continue;
        glBindVertexArray(vaos[i]);
        glEnableVertexAttribArray(location);
        glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, (GLsizei)(sizeof(float) * (size_t)components),
                              (const void *)0);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return vbo;
}

/* The material attributes outside the 16 floats: colours (9), tangents (10: the file's, else
 * generated when the material has a normal map: anim/tangents.h), the second UV set (11). */
static bool upload_material_attributes(const Mesh *mesh, int mesh_index, bool normal_mapped, GpuMesh *gpu, char *error,
                                       size_t error_size)
{
    if (mesh->vertex_count <= 0) return true;
    if (mesh->colors) gpu->color_vbo = upload_attribute(gpu, 9, 4, (const float *)mesh->colors, mesh->vertex_count, GL_STATIC_DRAW);
    if (mesh->uvs2) gpu->uv1_vbo = upload_attribute(gpu, 11, 2, (const float *)mesh->uvs2, mesh->vertex_count, GL_STATIC_DRAW);
    if (mesh->tangents) {
        gpu->tangent_vbo = upload_attribute(gpu, 10, 4, (const float *)mesh->tangents, mesh->vertex_count, GL_STATIC_DRAW);
    } else if (normal_mapped && mesh->primitive == MESH_TRIANGLES && mesh->uvs && mesh->normals) {
        vec4 *generated = malloc(sizeof(vec4) * (size_t)mesh->vertex_count);
        if (!generated) {
            snprintf(error, error_size, "out of memory for the tangents of mesh %d", mesh_index);
            return false;
        }
        mesh_generate_tangents(mesh, generated);
        gpu->tangent_vbo = upload_attribute(gpu, 10, 4, (const float *)generated, mesh->vertex_count, GL_STATIC_DRAW);
        free(generated);
    }
    return true;
}

/* One float per vertex outside the 16: 8 the difference view's value (renderer_set_vertex_heat, 0
 * until set; every mesh, as --against measures static meshes too); 7 the file's influence count of
 * vertices that lost some (> 4); 12 the LBS share 1 - dq_weight of a Blend skin (DQ shader). Meshes
 * without 7 or 12 (static meshes never have them) leave them unset: they read 0. */
static bool upload_skin_attributes(const Mesh *mesh, int mesh_index, GpuMesh *gpu, char *error, size_t error_size)
{
    if (mesh->vertex_count <= 0) return true;
    float *values = calloc((size_t)mesh->vertex_count, sizeof(float));
    if (!values) {
        snprintf(error, error_size, "out of memory for mesh %d", mesh_index);
        return false;
    }
    gpu->heat_vbo = upload_attribute(gpu, 8, 1, values, mesh->vertex_count, GL_DYNAMIC_DRAW);
    if (mesh->influences_in_file) {
        for (int v = 0; v < mesh->vertex_count; v++) values[v] = (float)mesh->influences_in_file[v];
        gpu->influences_vbo = upload_attribute(gpu, 7, 1, values, mesh->vertex_count, GL_STATIC_DRAW);
    }
    if (mesh->dq_weight) {
        for (int v = 0; v < mesh->vertex_count; v++) values[v] = 1.0f - mesh->dq_weight[v];
        gpu->linear_share_vbo = upload_attribute(gpu, 12, 1, values, mesh->vertex_count, GL_STATIC_DRAW);
    }
    free(values);
    return true;
}

/* Mean of the stored positions, their largest distance from it, and the bone with the most summed
 * weight: what the blend pass sorts by (renderer_draw) and the shadow bounds (renderer_draw_shadow). */
static void mesh_sort_anchor(const Mesh *mesh, GpuMesh *gpu)
{
    glm_vec3_zero(gpu->centroid);
    for (int v = 0; v < mesh->vertex_count; v++) glm_vec3_add(gpu->centroid, mesh->positions[v], gpu->centroid);
    if (mesh->vertex_count > 0) glm_vec3_scale(gpu->centroid, 1.0f / (float)mesh->vertex_count, gpu->centroid);
    gpu->radius = 0.0f;
    for (int v = 0; v < mesh->vertex_count; v++)
        gpu->radius = fmaxf(gpu->radius, glm_vec3_distance(gpu->centroid, mesh->positions[v]));
    gpu->anchor_bone = 0;
    float *sums = mesh->skinned && mesh->bone_count > 0 ? calloc((size_t)mesh->bone_count, sizeof(float)) : NULL;
    if (!sums) return;   /* static, or out of memory: bone 0 */
    for (int v = 0; v < mesh->vertex_count; v++)
        for (int k = 0; k < SV_MAX_INFLUENCES; k++)
            if (mesh->joint_indices[v][k] < mesh->bone_count) sums[mesh->joint_indices[v][k]] += mesh->weights[v][k];
    for (int b = 1; b < mesh->bone_count; b++)
        if (sums[b] > sums[gpu->anchor_bone]) gpu->anchor_bone = b;
    free(sums);
}

/* The 16-float VAO (and the CPU-skinned one), the skin attributes and the morph deltas. */
static bool upload_vertices(const Mesh *mesh, int mesh_index, int max_bones, GpuMesh *gpu, char *error,
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
    float *vertices = gpu_vertex_staging(mesh->vertex_count, FLOATS_PER_VERTEX, mesh_index, error, error_size);
    if (!vertices) return false;
    for (int v = 0; v < mesh->vertex_count; v++) {
        float *out = vertices + (size_t)v * FLOATS_PER_VERTEX;
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
    static const int sizes[7] = {3, 3, 2, 2, 2, 2, 2};
    gpu_upload_interleaved(&gpu->vao, &gpu->vbo, &gpu->ebo, vertices, mesh->vertex_count, sizes, 7, mesh->indices,
                           mesh->index_count);
    free(vertices);
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
        const GLsizei stride = sizeof(float) * FLOATS_PER_VERTEX;
        size_t offset = 6;
        for (GLuint a = 2; a < 7; a++) {
            glEnableVertexAttribArray(a);
            glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, stride, (const void *)(offset * sizeof(float)));
            offset += (size_t)sizes[a];
        }
        glBindVertexArray(0);
    }
    if (!upload_skin_attributes(mesh, mesh_index, gpu, error, error_size)) return false;
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gpu->vertex_count = mesh->vertex_count;
    gpu->index_count = mesh->index_count;
    gpu->bone_count = mesh->skinned ? mesh->bone_count : 0;
    gpu->skinned = mesh->skinned;
    gpu->material = mesh->material;
    return upload_morph_targets(mesh, mesh_index, gpu, error, error_size);
}

bool renderer_upload_mesh(const Model *model, int mesh_index, int max_bones, GpuMesh *gpu, char *error,
                          size_t error_size)
{
    const Mesh *mesh = &model->meshes[mesh_index];
    bool normal_mapped = mesh->material >= 0 && mesh->material < model->material_count &&
                         model->materials[mesh->material].normal_map.texture >= 0;
    if (!upload_vertices(mesh, mesh_index, max_bones, gpu, error, error_size) ||
        !upload_material_attributes(mesh, mesh_index, normal_mapped, gpu, error, error_size))
        return false;
    mesh_sort_anchor(mesh, gpu);
    return true;
}

void renderer_free_mesh(GpuMesh *gpu)
{
    GLuint buffers[] = {gpu->vbo,      gpu->ebo,       gpu->morph_buffer, gpu->cpu_vbo,
                        gpu->influences_vbo, gpu->heat_vbo, gpu->color_vbo, gpu->tangent_vbo,
                        gpu->uv1_vbo,  gpu->linear_share_vbo};
    glDeleteBuffers((GLsizei)(sizeof buffers / sizeof buffers[0]), buffers);   /* 0 names are ignored */
    GLuint arrays[] = {gpu->vao, gpu->cpu_vao};
    glDeleteVertexArrays(2, arrays);
    if (gpu->morph_texture) glDeleteTextures(1, &gpu->morph_texture);
    free(gpu->morph_combined);
    memset(gpu, 0, sizeof *gpu);
}

/* Texture rows arrive top to bottom; GL's first row is t = 0, the bottom, and Assimp's UVs
 * put v = 0 at the bottom of the image: so the rows are uploaded bottom row first. */
GLuint renderer_upload_texture(const Texture *texture)
{
    return gpu_upload_texture(texture, true);
}

void renderer_set_vertex_heat(Renderer *renderer, int mesh, const float *values)
{
    const GpuMesh *gpu = &renderer->meshes[mesh];
    if (!gpu->heat_vbo || gpu->vertex_count == 0) return;
    glBindBuffer(GL_ARRAY_BUFFER, gpu->heat_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof(float) * (size_t)gpu->vertex_count), values);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}
