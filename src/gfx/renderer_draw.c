/* renderer_draw.c — the skinned renderer's draws (see renderer.h): per-mesh uniforms (palette,
 * morph targets), the opaque pass, the BLEND pass sorted far to near per mesh, the wireframe and
 * normals views, and the transform-feedback capture --verify reads. */
#include "renderer_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Morph uniforms of mesh m: its delta texture on unit 1 and the active (target, weight) pairs.
 * A pose with more active targets than the list holds is summed on the CPU (the reference
 * morph_vertices) and drawn as one target of weight 1 in the spare slot: exact, any number. */
static void set_morph_uniforms(Renderer *renderer, const SkinShader *shader, const Animator *animator, int m)
{
    GpuMesh *gpu = &renderer->meshes[m];
    const MeshMorph *morph = &animator->morph.meshes[m];
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

/* Frame-wide uniforms of one program: camera, light (gpu_set_frame_uniforms), displayMode. */
static void set_frame_uniforms(const Renderer *renderer, const SkinShader *shader, const mat4 view, const mat4 projection,
                               const RenderLight *light, bool srgb_target, int display_mode)
{
    glUseProgram(shader->program);
    gpu_set_frame_uniforms(&shader->frame, view, projection, light, srgb_target);
    glUniform1i(shader->display_mode, display_mode);
    if (shader->environment_sh >= 0) glUniform3fv(shader->environment_sh, 9, &renderer->environment_sh[0][0]);
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
    const SkinShader *shader = renderer_mesh_uses_dq(renderer, m) ? &renderer->dq_shader : &renderer->shader;
    if (shader != *current) {
        glUseProgram(shader->program);
        *current = shader;
    }
    set_mesh_uniforms(renderer, shader, animator, m);
    gpu_bind_material(renderer->model, gpu->material, &renderer->textures, &shader->material);
    glUniform1i(shader->has_uv1, gpu->uv1_vbo ? 1 : 0);
    MeshPrimitive primitive = renderer->model->meshes[m].primitive;
    if (primitive != MESH_TRIANGLES) glUniform1i(shader->material.unlit, 1);   /* lines, points: flat colour, no lighting */
    static const GLenum gl_mode[] = {GL_TRIANGLES, GL_LINES, GL_POINTS};    /* by MeshPrimitive */
    glBindVertexArray(mesh_vao(renderer, m));
    if (primitive == MESH_POINTS) glPointSize(RENDERER_POINT_PIXELS);   /* a 1-pixel point is lost on screen */
    glDrawElements(gl_mode[primitive], gpu->index_count, GL_UNSIGNED_INT, NULL);
    if (primitive == MESH_POINTS) glPointSize(1.0f);
}

void renderer_mesh_posed_bounds(const Renderer *renderer, const Animator *animator, int m, vec3 center, float *radius)
{
    const GpuMesh *gpu = &renderer->meshes[m];
    mat4 placement;
    if (gpu->skinned && gpu->bone_count > 0) glm_mat4_copy(animator->palettes[m][gpu->anchor_bone], placement);
    else animator_mesh_matrix(animator, m, placement);
    glm_mat4_mulv3(placement, (float *)gpu->centroid, 1.0f, center);
    float scale = 0.0f;   /* the largest axis scale of the placement */
    for (int c = 0; c < 3; c++) scale = fmaxf(scale, glm_vec3_norm(placement[c]));
    *radius = gpu->radius * scale;
}

/* View-space depth (distance along the view direction, larger = farther) of mesh m's centroid as posed. */
static float mesh_view_depth(const Renderer *renderer, const Animator *animator, const mat4 view, int m)
{
    vec3 scene;
    float radius;
    renderer_mesh_posed_bounds(renderer, animator, m, scene, &radius);
    vec4 eye;
    glm_mat4_mulv((vec4 *)view, (vec4){scene[0], scene[1], scene[2], 1.0f}, eye);
    return -eye[2];
}

/* Draws the meshes with displayMode `display_mode` (state set by the caller): the opaque pass
 * (every mesh but the BLEND ones, which the lit view keeps for later), then, in the lit view, the
 * BLEND pass sorted far to near with depth writes off. */
void renderer_draw_meshes(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                        const RenderLight *light, bool srgb_target, int display_mode)
{
    if (renderer->dq_shader.program) set_frame_uniforms(renderer, &renderer->dq_shader, view, projection, light, srgb_target, display_mode);
    set_frame_uniforms(renderer, &renderer->shader, view, projection, light, srgb_target, display_mode);
    const SkinShader *current = &renderer->shader;
    glActiveTexture(GL_TEXTURE7);   /* unit 0: diffuse texture, 1: morph deltas, 2: heat-map colours, 3-6: maps, 7: environment */
    glBindTexture(GL_TEXTURE_2D, renderer->environment_texture);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, renderer->color_map);
    glActiveTexture(GL_TEXTURE0);
    glVertexAttrib4f(9, 1.0f, 1.0f, 1.0f, 1.0f);   /* meshes without colours: white */
    glVertexAttrib4f(10, 0.0f, 0.0f, 0.0f, 0.0f);  /* without tangents: none (derivatives) */
    bool lit = display_mode == RENDER_LIT;
    /* the wireframe shows every edge; the shadow mask every (flattened) face */
    bool culling_owned = display_mode != RENDER_WIREFRAME && display_mode != RENDER_SHADOW;
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
        gpu_blend_pass_begin();
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
        gpu_blend_pass_end();
    }
    if (culling_owned) glDisable(GL_CULL_FACE);
    glBindVertexArray(0);
    for (int unit = 7; unit >= 2; unit--) {
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
    if (light) renderer_ensure_lighting(renderer, light->lighting);
    bool srgb_target = renderer_target_is_srgb();
    gpu_opaque_pass_begin(srgb_target, renderer->cull_back_faces);
    renderer_draw_meshes(renderer, animator, view, projection, light, srgb_target, (int)renderer->mode);
    gpu_opaque_pass_end();
}

void renderer_draw_wireframe(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                             const RenderLight *light)
{
    if (light) renderer_ensure_lighting(renderer, light->lighting);
    bool srgb_target = renderer_target_is_srgb();
    if (srgb_target) glEnable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    /* the edges lie exactly on the filled surface: pull them a little toward the eye */
    glEnable(GL_POLYGON_OFFSET_LINE);
    glPolygonOffset(-1.0f, -1.0f);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    renderer_draw_meshes(renderer, animator, view, projection, light, srgb_target, RENDER_WIREFRAME);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDisable(GL_POLYGON_OFFSET_LINE);
    glDepthFunc(GL_LESS);
    glDisable(GL_FRAMEBUFFER_SRGB);
}

void renderer_draw_normals(Renderer *renderer, const Animator *animator, const mat4 view, const mat4 projection,
                           float length, const float color[3])
{
    if (!renderer_ensure_normals_shaders(renderer)) return;
    glDisable(GL_FRAMEBUFFER_SRGB);   /* the colour is written as is */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    for (int m = 0; m < renderer->mesh_count; m++) {
        const GpuMesh *gpu = &renderer->meshes[m];
        if (gpu->vertex_count == 0) continue;
        const SkinShader *shader = &renderer->normals_shader[renderer_mesh_uses_dq(renderer, m) ? 1 : 0];
        glUseProgram(shader->program);
        gpu_set_frame_uniforms(&shader->frame, view, projection, NULL, false);
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
    size_t bytes = sizeof(float) * RENDERER_FEEDBACK_FLOATS * (size_t)gpu->vertex_count;
    gpu_feedback_reserve(&renderer->feedback_buffer, &renderer->feedback_size, bytes);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    const SkinShader *shader = renderer_mesh_uses_dq(renderer, mesh) ? &renderer->dq_shader : &renderer->shader;
    glUseProgram(shader->program);
    gpu_set_frame_uniforms(&shader->frame, identity, identity, NULL, false);
    set_mesh_uniforms(renderer, shader, animator, mesh);

    bool ok = gpu_capture_points(renderer->feedback_buffer, mesh_vao(renderer, mesh), gpu->vertex_count, RENDERER_FEEDBACK_FLOATS,
                                 out_positions, out_normals);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    return ok;
}
