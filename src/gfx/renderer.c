/* renderer.c — the skinned renderer's set-up and per-frame CPU work (see renderer.h): init and
 * free, the light rigs, clearing, the selected joint, renderer_prepare (CPU skinning, dual
 * quaternions). Programs: renderer_shader.c; uploads: renderer_mesh.c; drawing: renderer_draw.c. */
#include "renderer_internal.h"
#include "colormap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    renderer_material_features(model, renderer->features, sizeof renderer->features);
    if (!renderer_load_program(&renderer->shader, vert_path, NULL, frag_path, max_bones, LIGHTING_PBR, renderer->features, error,
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
    if (!renderer->meshes) {
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
        bool ok = renderer_upload_mesh(model, m, max_bones, &renderer->meshes[m], error, error_size);
        renderer->mesh_count = m + 1;
        if (!ok) {
            renderer_free(renderer);
            return false;
        }
    }
    if (!gpu_textures_upload(model, &renderer->textures)) {
        snprintf(error, error_size, "out of memory");
        renderer_free(renderer);
        return false;
    }

    if (!gpu_check_error("uploading the model", error, error_size)) {
        renderer_free(renderer);
        return false;
    }
    return true;
}

void renderer_free(Renderer *renderer)
{
    for (int m = 0; m < renderer->mesh_count; m++) renderer_free_mesh(&renderer->meshes[m]);
    if (renderer->color_map) glDeleteTextures(1, &renderer->color_map);
    skin_shader_free(&renderer->dq_shader);
    renderer_shadow_free(&renderer->shadow);
    if (renderer->environment_texture) glDeleteTextures(1, &renderer->environment_texture);
    skin_shader_free(&renderer->normals_shader[0]);
    skin_shader_free(&renderer->normals_shader[1]);
    skin_dq_pose_free(&renderer->dq_pose);
    free(renderer->cpu_positions);
    free(renderer->cpu_normals);
    free(renderer->cpu_upload);
    free(renderer->selected_bone);
    gpu_textures_free(&renderer->textures);
    free(renderer->blend_order);
    free(renderer->blend_depth);
    if (renderer->feedback_buffer) glDeleteBuffers(1, &renderer->feedback_buffer);
    skin_shader_free(&renderer->shader);
    free(renderer->meshes);
    memset(renderer, 0, sizeof *renderer);
}

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

void renderer_prepare(Renderer *renderer, const Animator *animator)
{
    renderer->dq_fallback_meshes = 0;
    if (renderer->method == SKINNING_GPU_DQ) {
        renderer_ensure_dq_shader(renderer);
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
