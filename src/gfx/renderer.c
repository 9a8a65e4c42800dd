/* renderer.c — GL resources of a Model and the per-frame draw (see renderer.h). */
#include "renderer.h"
#include "colormap.h"
#include "gpu_common.h"
#include "shader.h"
#include "anim/tangents.h"

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
/* The model's material features as skinned.frag #defines (MATERIAL_FEATURES_SELECTED + one HAS_*
 * per feature that some material or mesh uses): the fragment shader compiles only those paths. */
static void material_feature_defines(const Model *model, char *out, size_t out_size)
{
    bool alpha = false, transform = false, colors = false, mr = false, normal = false, occlusion = false,
         emissive = false;
    for (int m = 0; m < model->material_count; m++) {
        const Material *material = &model->materials[m];
        alpha = alpha || material->alpha_mode != MATERIAL_ALPHA_OPAQUE;
        const MaterialMap *maps[5] = {&material->diffuse_map, &material->metallic_roughness_map, &material->normal_map,
                                      &material->occlusion_map, &material->emissive_map};
        for (int k = 0; k < 5; k++) transform = transform || maps[k]->has_transform || maps[k]->texcoord == 1;
        mr = mr || material->metallic_roughness_map.texture >= 0;
        normal = normal || material->normal_map.texture >= 0;
        occlusion = occlusion || material->occlusion_map.texture >= 0;
        emissive = emissive || material->emissive_map.texture >= 0 || glm_vec3_max((float *)material->emissive_factor) > 0.0f;
    }
    for (int m = 0; m < model->mesh_count; m++) colors = colors || model->meshes[m].colors;
    snprintf(out, out_size, "#define MATERIAL_FEATURES_SELECTED\n%s%s%s%s%s%s%s", alpha ? "#define HAS_ALPHA_TEST\n" : "",
             transform ? "#define HAS_UV_TRANSFORM\n" : "", colors ? "#define HAS_VERTEX_COLOR\n" : "",
             mr ? "#define HAS_METALLIC_ROUGHNESS_MAP\n" : "", normal ? "#define HAS_NORMAL_MAP\n" : "",
             occlusion ? "#define HAS_OCCLUSION_MAP\n" : "", emissive ? "#define HAS_EMISSIVE\n" : "");
}

static bool load_skin_program(SkinShader *shader, const char *vert_path, const char *geom_path, const char *frag_path,
                              int max_bones, RenderLighting lighting, const char *features, char *error,
                              size_t error_size)
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
    char frag_define[1024];   /* the lighting model compiled in: each program pays only for its own path */
    snprintf(frag_define, sizeof frag_define, "%s%s#define LIGHTING_COMPILED %d\n%s", RENDER_MODE_DEFINES,
             RENDER_LIGHTING_DEFINES, (int)lighting, features ? features : "");
    GLuint frag = gfx_compile_stage_file(GL_FRAGMENT_SHADER, frag_path, frag_define, error, error_size);
    if (!frag) {
        glDeleteShader(vert);
        if (geom) glDeleteShader(geom);
        return false;
    }
    /* The design card's attribute order = the VAO's locations (also set by layout qualifiers). */
    static const char *const attributes[] = {"position",  "normal",    "uv",        "bone0info",
                                             "bone1info", "bone2info", "bone3info", "influencesInFile",
                                             "heatValue", "color",     "tangent",   "uv1"};
    /* Recorded before linking: --verify reads these back (renderer_capture_mesh). */
    static const char *const varyings[] = {"scenePosition", "sceneNormal"};
    char line[512];
    GLuint program = geom ? gfx_link_program_geometry(vert, geom, frag, line, sizeof line)
                          : gfx_link_program(vert, frag, attributes, 12, varyings, 2, line, sizeof line);
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
    shader->lighting_model = glGetUniformLocation(program, "lightingModel");
    shader->sky = glGetUniformLocation(program, "skyColor");
    shader->ground = glGetUniformLocation(program, "groundColor");
    shader->exposure = glGetUniformLocation(program, "exposure");
    shader->camera_position = glGetUniformLocation(program, "cameraPosition");
    shader->has_uv1 = glGetUniformLocation(program, "hasUv1");
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
    gpu_material_uniforms_find(program, &shader->material);   /* binds the program, sets the map units */
    glUniform1i(shader->morph_deltas, 1);
    glUniform1i(shader->color_map, 2);
    glUniform1i(shader->selected_bone, -1);
    glUseProgram(0);
    return true;
}

bool skin_shader_load(SkinShader *shader, const char *vert_path, const char *frag_path, int max_bones,
                      char *error, size_t error_size)
{
    return load_skin_program(shader, vert_path, NULL, frag_path, max_bones, LIGHTING_PBR, NULL, error, error_size);
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

/* One float attribute at `location` of both VAOs of gpu (the CPU-skinned one too), from its own
 * buffer: `components` floats per vertex. Returns the buffer. */
static GLuint upload_attribute(GpuMesh *gpu, GLuint location, int components, const float *data, int vertex_count)
{
    GLuint vbo = 0;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)components * (size_t)vertex_count), data,
                 GL_STATIC_DRAW);
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
    if (mesh->colors) gpu->color_vbo = upload_attribute(gpu, 9, 4, (const float *)mesh->colors, mesh->vertex_count);
    if (mesh->uvs2) gpu->uv1_vbo = upload_attribute(gpu, 11, 2, (const float *)mesh->uvs2, mesh->vertex_count);
    if (mesh->tangents) {
        gpu->tangent_vbo = upload_attribute(gpu, 10, 4, (const float *)mesh->tangents, mesh->vertex_count);
    } else if (normal_mapped && mesh->uvs && mesh->normals) {
        vec4 *generated = malloc(sizeof(vec4) * (size_t)mesh->vertex_count);
        if (!generated) {
            snprintf(error, error_size, "out of memory for the tangents of mesh %d", mesh_index);
            return false;
        }
        mesh_generate_tangents(mesh, generated);
        gpu->tangent_vbo = upload_attribute(gpu, 10, 4, (const float *)generated, mesh->vertex_count);
        free(generated);
    }
    return true;
}

/* Mean of the stored positions and the bone with the most summed weight: what the blend pass
 * sorts by (renderer_draw). */
static void mesh_sort_anchor(const Mesh *mesh, GpuMesh *gpu)
{
    glm_vec3_zero(gpu->centroid);
    for (int v = 0; v < mesh->vertex_count; v++) glm_vec3_add(gpu->centroid, mesh->positions[v], gpu->centroid);
    if (mesh->vertex_count > 0) glm_vec3_scale(gpu->centroid, 1.0f / (float)mesh->vertex_count, gpu->centroid);
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
        /* location 12, outside the 16 floats: the LBS share 1 - dq_weight of a Blend skin (DQ shader).
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
        glEnableVertexAttribArray(12);
        glVertexAttribPointer(12, 1, GL_FLOAT, GL_FALSE, sizeof(float), (const void *)0);
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
    return gpu_upload_texture(texture, true);
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
    /* the LBS program now, for the default lighting; the DQ and normals programs, and one for
     * another lighting, when first used (renderer_prepare, renderer_draw_normals, renderer_draw):
     * each compile costs time and memory, most sessions never need them */
    material_feature_defines(model, renderer->features, sizeof renderer->features);
    if (!load_skin_program(&renderer->shader, vert_path, NULL, frag_path, max_bones, LIGHTING_PBR, renderer->features, error,
                           error_size))
        return false;
    renderer->shader_lighting = LIGHTING_PBR;
    renderer->max_bones = max_bones;
    snprintf(renderer->vert_path, sizeof renderer->vert_path, "%s", vert_path);
    snprintf(renderer->frag_path, sizeof renderer->frag_path, "%s", frag_path);
    sibling_path(vert_path, "skinned_dq.vert", renderer->dq_vert_path, sizeof renderer->dq_vert_path);
    sibling_path(vert_path, "normals.geom", renderer->normals_geom_path, sizeof renderer->normals_geom_path);
    sibling_path(vert_path, "normals.frag", renderer->normals_frag_path, sizeof renderer->normals_frag_path);
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
    renderer->blend_order = malloc(sizeof(int) * (size_t)(model->mesh_count > 0 ? model->mesh_count : 1));
    renderer->blend_depth = malloc(sizeof(float) * (size_t)(model->mesh_count > 0 ? model->mesh_count : 1));
    if (!renderer->blend_order || !renderer->blend_depth) {
        snprintf(error, error_size, "out of memory");
        renderer_free(renderer);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        bool normal_mapped = mesh->material >= 0 && mesh->material < model->material_count &&
                             model->materials[mesh->material].normal_map.texture >= 0;
        bool ok = upload_mesh(mesh, m, max_bones, &renderer->meshes[m], error, error_size);
        renderer->mesh_count = m + 1;
        if (!ok || !upload_material_attributes(mesh, m, normal_mapped, &renderer->meshes[m], error, error_size)) {
            renderer_free(renderer);
            return false;
        }
        mesh_sort_anchor(mesh, &renderer->meshes[m]);
    }
    for (int t = 0; t < model->texture_count; t++) {
        renderer->textures[t] = renderer_upload_texture(&model->textures[t]);
        renderer->texture_count = t + 1;
    }
    renderer->linear_textures = gpu_upload_linear_textures(model);
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
        if (gpu->color_vbo) glDeleteBuffers(1, &gpu->color_vbo);
        if (gpu->tangent_vbo) glDeleteBuffers(1, &gpu->tangent_vbo);
        if (gpu->uv1_vbo) glDeleteBuffers(1, &gpu->uv1_vbo);
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
    gpu_free_linear_textures(renderer->linear_textures, renderer->texture_count);
    free(renderer->blend_order);
    free(renderer->blend_depth);
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
    memset(light, 0, sizeof *light);   /* LIGHTING_FLAT, fixed in scene space */
    glm_vec3_copy((vec3){0.45f, 0.75f, 0.6f}, light->direction);
    glm_vec3_copy((vec3){0.85f, 0.85f, 0.85f}, light->color);
    glm_vec3_copy((vec3){0.25f, 0.25f, 0.28f}, light->ambient);
}

void render_light_pbr(RenderLight *light)
{
    memset(light, 0, sizeof *light);
    light->lighting = LIGHTING_PBR;
    light->follow_camera = true;
    /* view space: from above and to the right of the eye, toward the scene (a portrait key light) */
    glm_vec3_copy((vec3){0.45f, 0.55f, 0.70f}, light->direction);
    glm_vec3_fill(light->color, 2.6f);                           /* E: a white Lambert surface facing it reads 2.6 / pi */
    glm_vec3_copy((vec3){0.32f, 0.35f, 0.40f}, light->sky);      /* cool sky above */
    glm_vec3_copy((vec3){0.14f, 0.12f, 0.10f}, light->ground);   /* warm, darker ground below */
    light->exposure = 1.0f;
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

static bool ensure_dq_shader(Renderer *renderer);

void renderer_prepare(Renderer *renderer, const Animator *animator)
{
    renderer->dq_fallback_meshes = 0;
    if (renderer->method == SKINNING_GPU_DQ) {
        ensure_dq_shader(renderer);
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
    return renderer->method == SKINNING_GPU_DQ && renderer->dq_shader.program && renderer->meshes[m].skinned &&
           renderer->dq_pose.status[m] == SKIN_DQ_OK;
}

/* The DQ program, compiled on first use; false (one line on stderr, once: DQ meshes then draw
 * with LBS) when it does not compile. */
static bool ensure_dq_shader(Renderer *renderer)
{
    if (renderer->dq_shader.program) return true;
    if (renderer->dq_failed) return false;
    char error[1024];
    if (!load_skin_program(&renderer->dq_shader, renderer->dq_vert_path, NULL, renderer->frag_path, renderer->max_bones,
                           renderer->shader_lighting, renderer->features, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        renderer->dq_failed = true;
        return false;
    }
    return true;
}

/* The normals view's two programs, compiled on first use. */
static bool ensure_normals_shaders(Renderer *renderer)
{
    if (renderer->normals_shader[0].program && renderer->normals_shader[1].program) return true;
    if (renderer->normals_failed) return false;
    char error[1024];
    for (int k = 0; k < 2; k++)
        if (!renderer->normals_shader[k].program &&
            !load_skin_program(&renderer->normals_shader[k], k == 0 ? renderer->vert_path : renderer->dq_vert_path,
                               renderer->normals_geom_path, renderer->normals_frag_path, renderer->max_bones,
                               renderer->shader_lighting, NULL, error, sizeof error)) {
            fprintf(stderr, "skinview: %s\n", error);
            renderer->normals_failed = true;
            return false;
        }
    return true;
}

/* The skinning programs for `lighting` (recompiled when it changes; kept as they are, with one
 * line on stderr, if the new ones do not compile). */
static void ensure_lighting(Renderer *renderer, RenderLighting lighting)
{
    if (lighting == renderer->shader_lighting || (lighting != LIGHTING_FLAT && lighting != LIGHTING_PBR) ||
        renderer->lighting_failed[lighting])
        return;
    SkinShader lbs, dq;
    memset(&dq, 0, sizeof dq);
    char error[1024];
    bool ok = load_skin_program(&lbs, renderer->vert_path, NULL, renderer->frag_path, renderer->max_bones, lighting,
                                renderer->features, error, sizeof error);
    if (ok && renderer->dq_shader.program)
        ok = load_skin_program(&dq, renderer->dq_vert_path, NULL, renderer->frag_path, renderer->max_bones, lighting,
                               renderer->features, error, sizeof error);
    if (!ok) {
        skin_shader_free(&lbs);
        fprintf(stderr, "skinview: %s\n", error);
        renderer->lighting_failed[lighting] = true;
        return;
    }
    skin_shader_free(&renderer->shader);
    renderer->shader = lbs;
    if (renderer->dq_shader.program) {
        skin_shader_free(&renderer->dq_shader);
        renderer->dq_shader = dq;
    }
    renderer->shader_lighting = lighting;
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

/* Frame-wide uniforms of one program. The key light's direction moves to scene space when it
 * follows the camera: d_scene = R_camera d_view (R_camera = the rotation of inverse(view)). */
static void set_frame_uniforms(const SkinShader *shader, const mat4 view, const mat4 projection,
                               const RenderLight *light, bool srgb_target, int display_mode)
{
    glUseProgram(shader->program);
    glUniformMatrix4fv(shader->view, 1, GL_FALSE, (const float *)view);
    glUniformMatrix4fv(shader->projection, 1, GL_FALSE, (const float *)projection);
    mat4 camera;
    glm_mat4_inv((vec4 *)view, camera);
    glUniform3fv(shader->camera_position, 1, camera[3]);
    if (light) {
        vec3 direction;
        if (light->follow_camera) glm_mat4_mulv3(camera, (float *)light->direction, 0.0f, direction);
        else glm_vec3_copy((float *)light->direction, direction);
        glUniform3fv(shader->light_direction, 1, direction);
        glUniform3fv(shader->light_color, 1, light->color);
        glUniform3fv(shader->ambient, 1, light->ambient);
        glUniform1i(shader->lighting_model, (int)light->lighting);
        glUniform3fv(shader->sky, 1, light->sky);
        glUniform3fv(shader->ground, 1, light->ground);
        glUniform1f(shader->exposure, light->exposure);
    }
    glUniform1i(shader->encode_srgb, srgb_target ? 0 : 1);
    glUniform1i(shader->display_mode, display_mode);
}

/* Mesh m's material, or NULL. */
static const Material *mesh_material(const Renderer *renderer, int m)
{
    int material = renderer->meshes[m].material;
    return material >= 0 && material < renderer->model->material_count ? &renderer->model->materials[material] : NULL;
}

static bool mesh_is_blended(const Renderer *renderer, int m)
{
    const Material *material = mesh_material(renderer, m);
    return material && material->alpha_mode == MATERIAL_ALPHA_BLEND;
}

/* Which faces mesh m shows: culling per its material (glTF doubleSided; no material: both),
 * or for every mesh when the user asked (C). */
static void set_face_culling(const Renderer *renderer, int m, GLenum cull)
{
    const Material *material = mesh_material(renderer, m);
    if (cull == GL_NONE && (renderer->cull_back_faces || (material && !material->double_sided))) cull = GL_BACK;
    if (cull == GL_NONE) {
        glDisable(GL_CULL_FACE);
    } else {
        glEnable(GL_CULL_FACE);
        glCullFace(cull);
    }
}

/* Draws mesh m with `shader` (binds it when it is not `*current`). */
static void draw_mesh(Renderer *renderer, const Animator *animator, int m, const SkinShader **current)
{
    const GpuMesh *gpu = &renderer->meshes[m];
    const SkinShader *shader = mesh_uses_dq(renderer, m) ? &renderer->dq_shader : &renderer->shader;
    if (shader != *current) {
        glUseProgram(shader->program);
        *current = shader;
    }
    set_mesh_uniforms(renderer, shader, animator, m);
    GpuTextureSet textures = {renderer->texture_count, renderer->textures, renderer->linear_textures,
                              renderer->white_texture};
    gpu_bind_material(renderer->model, gpu->material, &textures, &shader->material);
    glUniform1i(shader->has_uv1, gpu->uv1_vbo ? 1 : 0);
    glBindVertexArray(mesh_vao(renderer, m));
    glDrawElements(GL_TRIANGLES, gpu->index_count, GL_UNSIGNED_INT, NULL);
}

/* View-space depth (distance along the view direction, larger = farther) of mesh m's centroid
 * as posed: skinned meshes move it with their anchor bone's palette entry, static ones with
 * their model matrix. */
static float mesh_view_depth(const Renderer *renderer, const Animator *animator, const mat4 view, int m)
{
    const GpuMesh *gpu = &renderer->meshes[m];
    mat4 placement;
    if (gpu->skinned && gpu->bone_count > 0) glm_mat4_copy(animator->palettes[m][gpu->anchor_bone], placement);
    else animator_mesh_matrix(animator, m, placement);
    vec4 scene, eye;
    glm_mat4_mulv(placement, (vec4){gpu->centroid[0], gpu->centroid[1], gpu->centroid[2], 1.0f}, scene);
    glm_mat4_mulv((vec4 *)view, scene, eye);
    return -eye[2];
}

/* Draws the meshes with displayMode `display_mode` (state set by the caller): the opaque pass
 * (every mesh but the BLEND ones, which the lit view keeps for later), then, in the lit view, the
 * BLEND pass sorted far to near with depth writes off. */
static void draw_meshes(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                        const RenderLight *light, bool srgb_target, int display_mode)
{
    if (renderer->dq_shader.program) set_frame_uniforms(&renderer->dq_shader, view, projection, light, srgb_target, display_mode);
    set_frame_uniforms(&renderer->shader, view, projection, light, srgb_target, display_mode);
    const SkinShader *current = &renderer->shader;
    glActiveTexture(GL_TEXTURE2);   /* unit 0: diffuse texture, 1: morph deltas, 2: heat-map colours, 3-6: maps */
    glBindTexture(GL_TEXTURE_2D, renderer->color_map);
    glActiveTexture(GL_TEXTURE0);
    glVertexAttrib4f(9, 1.0f, 1.0f, 1.0f, 1.0f);   /* meshes without colours: white */
    glVertexAttrib4f(10, 0.0f, 0.0f, 0.0f, 0.0f);  /* without tangents: none (derivatives) */
    bool lit = display_mode == RENDER_LIT;
    bool culling_owned = display_mode != RENDER_WIREFRAME;   /* the wireframe shows every edge */
    int blended = 0;
    for (int m = 0; m < renderer->mesh_count; m++) {
        const GpuMesh *gpu = &renderer->meshes[m];
        if (gpu->index_count == 0 || (renderer->mesh_visible && !renderer->mesh_visible[m])) continue;
        if (lit && mesh_is_blended(renderer, m)) {
            renderer->blend_depth[m] = mesh_view_depth(renderer, animator, view, m);
            int at = blended++;   /* insertion sort, farthest first */
            while (at > 0 && renderer->blend_depth[renderer->blend_order[at - 1]] < renderer->blend_depth[m]) {
                renderer->blend_order[at] = renderer->blend_order[at - 1];
                at--;
            }
            renderer->blend_order[at] = m;
            continue;
        }
        if (culling_owned) set_face_culling(renderer, m, GL_NONE);
        draw_mesh(renderer, animator, m, &current);
    }
    if (blended > 0) {
        glEnable(GL_BLEND);
        /* colour: src * a + dst * (1 - a); alpha: a + dst_a * (1 - a) (coverage, for a transparent background) */
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        for (int i = 0; i < blended; i++) {
            int m = renderer->blend_order[i];
            const Material *material = mesh_material(renderer, m);
            if (material->double_sided && !renderer->cull_back_faces) {
                set_face_culling(renderer, m, GL_FRONT);   /* the far side first */
                draw_mesh(renderer, animator, m, &current);
                set_face_culling(renderer, m, GL_BACK);
            } else {
                set_face_culling(renderer, m, GL_NONE);
            }
            draw_mesh(renderer, animator, m, &current);
        }
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    if (culling_owned) glDisable(GL_CULL_FACE);
    glBindVertexArray(0);
    for (int unit = 6; unit >= 2; unit--) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
}

void renderer_draw(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                   const RenderLight *light)
{
    if (light) ensure_lighting(renderer, light->lighting);
    bool srgb_target = renderer_target_is_srgb();
    gpu_opaque_pass_begin(srgb_target, renderer->cull_back_faces);
    draw_meshes(renderer, animator, view, projection, light, srgb_target, (int)renderer->mode);
    gpu_opaque_pass_end();
}

void renderer_draw_wireframe(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                             const RenderLight *light)
{
    if (light) ensure_lighting(renderer, light->lighting);
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
    if (!ensure_normals_shaders(renderer)) return;
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
