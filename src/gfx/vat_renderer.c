/* vat_renderer.c — GL resources and the instanced draw of a VAT bake (vat_renderer.h). */
#include "vat_renderer.h"
#include "gl.h"
#include "gpu_common.h"
#include "shader.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAT_FLOATS_PER_VERTEX 9     /* position 3, normal 3, uv 2, vertex id 1 */
#define VAT_EXTRA_FLOATS 6          /* colour 4, uv1 2 (upload_extra_attributes) */
#define VAT_FLOATS_PER_INSTANCE 5   /* offset 3, time offset 1, clip 1 */
#define VAT_FEEDBACK_FLOATS 6       /* scenePosition 3, sceneNormal 3 */
#define VAT_RESERVED_UNIFORM_VECTORS 32   /* matrices, bounds, light, material: kept free of clips */

/* The second vertex buffer of a mesh: per vertex its colour (white without COLOR_0) at location 9
 * and its second UV set (its uv where it has none) at location 11, as skinned.vert takes them. */
static void upload_extra_attributes(const Mesh *mesh, const VatGpuData *data, const float *vertices, VatMeshGpu *gpu)
{
    float *extra = malloc(sizeof(float) * VAT_EXTRA_FLOATS * (size_t)(mesh->vertex_count > 0 ? mesh->vertex_count : 1));
    if (!extra) return;   /* the attributes keep GL's default (0, 0, 0, 1): the mesh draws, untinted colour lost */
    gpu->has_uv1 = data->uv1 != NULL;
    for (int v = 0; v < mesh->vertex_count; v++) {
        const float *in = vertices + (size_t)v * VAT_FLOATS_PER_VERTEX;
        float *out = extra + (size_t)v * VAT_EXTRA_FLOATS;
        int id = (int)in[8];   /* checked: an integer in [0, vertex count) */
        for (int c = 0; c < 4; c++) out[c] = mesh->colors ? mesh->colors[v][c] : 1.0f;
        bool present = data->uv1 && data->uv1_present[id];
        gpu->has_uv1 = gpu->has_uv1 && present;
        out[4] = present ? data->uv1[id][0] : in[6];
        out[5] = present ? data->uv1[id][1] : in[7];
    }
    glGenBuffers(1, &gpu->extra_vbo);
    glBindVertexArray(gpu->vao);
    glBindBuffer(GL_ARRAY_BUFFER, gpu->extra_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * VAT_EXTRA_FLOATS * (size_t)mesh->vertex_count), extra,
                 GL_STATIC_DRAW);
    const GLsizei stride = sizeof(float) * VAT_EXTRA_FLOATS;
    glEnableVertexAttribArray(9);
    glVertexAttribPointer(9, 4, GL_FLOAT, GL_FALSE, stride, (const void *)0);
    glEnableVertexAttribArray(11);
    glVertexAttribPointer(11, 2, GL_FLOAT, GL_FALSE, stride, (const void *)(4 * sizeof(float)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    free(extra);
}

static bool upload_mesh(const Mesh *mesh, int index, const VatGpuData *data, VatMeshGpu *gpu, char *error,
                        size_t error_size)
{
    int vertex_total = data->layout.vertex_count;
    memset(gpu, 0, sizeof *gpu);
    if (!mesh->uvs2) {
        snprintf(error, error_size, "mesh %d \"%s\" has no second UV set (the vertex ids of a VAT mesh)", index,
                 mesh->name);
        return false;
    }
    float *vertices = gpu_vertex_staging(mesh->vertex_count, VAT_FLOATS_PER_VERTEX, index, error, error_size);
    if (!vertices) return false;
    for (int v = 0; v < mesh->vertex_count; v++) {
        float *out = vertices + (size_t)v * VAT_FLOATS_PER_VERTEX;
        float id = mesh->uvs2[v][0];
        if (!(id >= 0.0f) || id >= (float)vertex_total || id != (float)(int)id) {
            snprintf(error, error_size, "mesh %d \"%s\": vertex %d carries id %g, not one of the %d baked vertices",
                     index, mesh->name, v, (double)id, vertex_total);
            free(vertices);
            return false;
        }
        glm_vec3_copy(mesh->positions[v], out);
        glm_vec3_copy(mesh->normals[v], out + 3);
        out[6] = mesh->uvs ? mesh->uvs[v][0] : 0.0f;
        out[7] = mesh->uvs ? mesh->uvs[v][1] : 0.0f;
        out[8] = id;
    }
    static const int sizes[4] = {3, 3, 2, 1};
    gpu_upload_interleaved(&gpu->vao, &gpu->vbo, &gpu->ebo, vertices, mesh->vertex_count, sizes, 4, mesh->indices,
                           mesh->index_count);
    upload_extra_attributes(mesh, data, vertices, gpu);
    free(vertices);
    gpu->vertex_count = mesh->vertex_count;
    gpu->index_count = mesh->index_count;
    gpu->material = mesh->material;
    gpu->primitive = mesh->primitive;
    return true;
}

/* Points every VAO's per-instance attributes (4: offset + time, 5: clip) at the instance buffer. */
static void bind_instance_attributes(VatRenderer *renderer)
{
    const GLsizei stride = sizeof(float) * VAT_FLOATS_PER_INSTANCE;
    glBindBuffer(GL_ARRAY_BUFFER, renderer->instance_buffer);
    for (int m = 0; m < renderer->mesh_count; m++) {
        glBindVertexArray(renderer->meshes[m].vao);
        glEnableVertexAttribArray(4);
        glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride, (const void *)0);
        glVertexAttribDivisor(4, 1);
        glEnableVertexAttribArray(5);
        glVertexAttribPointer(5, 1, GL_FLOAT, GL_FALSE, stride, (const void *)(4 * sizeof(float)));
        glVertexAttribDivisor(5, 1);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

static GLuint upload_array_texture(GLint internal_format, GLenum format, GLenum type, const VatLayout *layout,
                                   const void *texels)
{
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D_ARRAY, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* row y of a page = the image's row y (texelFetch addresses rows directly: no flip) */
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, internal_format, layout->width, layout->page_height, layout->page_count, 0,
                 format, type, texels);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAX_LEVEL, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    return id;
}

/* Compiles and links vat.vert + skinned.frag (HAS_ENVIRONMENT when an environment is set), looks
 * the uniforms up and sets the constant ones: the layout, the bounds, the clip table, the texture
 * units. Replaces renderer->program only on success. */
static bool build_program(VatRenderer *renderer, char *error, size_t error_size)
{
    char define[64];
    snprintf(define, sizeof define, "#define VAT_CLIP_COUNT %d\n", renderer->data->clip_count > 0 ? renderer->data->clip_count : 1);
    const char *vert_path = renderer->vert_path, *frag_path = renderer->frag_path;
    GLuint vert = gfx_compile_stage_file(GL_VERTEX_SHADER, vert_path, define, error, error_size);
    if (!vert) return false;
    /* with an environment image, its ambient replaces the hemisphere (skinned.frag HAS_ENVIRONMENT) */
    const char *frag_define = renderer->environment_texture
                                  ? RENDER_MODE_DEFINES RENDER_LIGHTING_DEFINES "#define HAS_ENVIRONMENT\n"
                                  : RENDER_MODE_DEFINES RENDER_LIGHTING_DEFINES;
    GLuint frag = gfx_compile_stage_file(GL_FRAGMENT_SHADER, frag_path, frag_define, error, error_size);
    if (!frag) {
        glDeleteShader(vert);
        return false;
    }
    static const char *const varyings[] = {"scenePosition", "sceneNormal"};
    char line[512];
    GLuint p = gfx_link_program(vert, frag, NULL, 0, varyings, 2, line, sizeof line);
    if (!p) {
        snprintf(error, error_size, "shaders %s + %s do not link: %s", vert_path, frag_path, line);
        return false;
    }
#define AT(field) offsetof(VatRenderer, field)
    static const GpuUniformName names[] = {
        {"time", AT(u_time)}, {"boundsMin", AT(u_bounds_min)}, {"boundsRange", AT(u_bounds_range)},
        {"textureWidth", AT(u_width)}, {"rowsPerFrame", AT(u_rows_per_frame)},
        {"framesPerPage", AT(u_frames_per_page)}, {"clips", AT(u_clips)}, {"vatPositions", AT(u_positions)},
        {"vatNormals", AT(u_normals)}, {"displayMode", AT(u_display_mode)}, {"hasUv1", AT(u_has_uv1)},
    };
#undef AT
    if (glGetUniformLocation(p, "clips") < 0 || glGetUniformLocation(p, "vatPositions") < 0 ||
        glGetUniformLocation(p, "time") < 0) {
        snprintf(error, error_size, "shader %s lacks the uniforms clips, vatPositions or time", vert_path);
        glDeleteProgram(p);
        return false;
    }
    if (renderer->program) glDeleteProgram(renderer->program);   /* rebuilt (set_environment) */
    renderer->program = p;
    gpu_find_uniforms(p, names, (int)(sizeof names / sizeof names[0]), renderer);
    gpu_light_uniforms_find(p, &renderer->frame);
    gpu_material_uniforms_find(p, &renderer->material);
    /* constant uniforms: the layout, the bounds, the clip table, texture units */
    const VatGpuData *data = renderer->data;
    const VatLayout *layout = &data->layout;
    vec3 range;
    glm_vec3_sub((float *)data->bounds_max, (float *)data->bounds_min, range);
    vec3 zero = {0.0f, 0.0f, 0.0f}, one = {1.0f, 1.0f, 1.0f};
    glUseProgram(p);
    glUniform3fv(renderer->u_bounds_min, 1, data->float_precision ? zero : data->bounds_min);
    glUniform3fv(renderer->u_bounds_range, 1, data->float_precision ? one : range);
    glUniform1i(renderer->u_width, layout->width);
    glUniform1i(renderer->u_rows_per_frame, layout->rows_per_frame);
    glUniform1i(renderer->u_frames_per_page, layout->frames_per_page);
    glUniform4fv(renderer->u_clips, data->clip_count, (const float *)data->clips);
    glUniform1i(renderer->u_positions, 1);
    glUniform1i(renderer->u_normals, 2);
    glUniform3fv(glGetUniformLocation(p, "environmentSh"), 9, &renderer->environment_sh[0][0]);   /* -1: ignored */
    glUniform1i(glGetUniformLocation(p, "environmentMap"), 7);
    glUseProgram(0);
    return true;
}

bool vat_renderer_init(VatRenderer *renderer, const Model *model, const VatGpuData *data, const char *vert_path,
                       const char *frag_path, char *error, size_t error_size)
{
    memset(renderer, 0, sizeof *renderer);
    renderer->model = model;
    const VatLayout *layout = &data->layout;
    GLint max_size = 0, max_layers = 0, max_vectors = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &max_layers);
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_COMPONENTS, &max_vectors);
    max_vectors /= 4;
    if (layout->width > max_size || layout->page_height > max_size || layout->page_count > max_layers) {
        snprintf(error, error_size,
                 "the bake's pages (%d of %dx%d) exceed this GL's limits (%d texels, %d layers): bake again "
                 "with --max-texture %d",
                 layout->page_count, layout->width, layout->page_height, max_size, max_layers, max_size);
        return false;
    }
    if (data->clip_count > max_vectors - VAT_RESERVED_UNIFORM_VECTORS) {
        snprintf(error, error_size, "%d clips: more than this GL's vertex uniforms hold (%d); bake fewer --clips",
                 data->clip_count, max_vectors - VAT_RESERVED_UNIFORM_VECTORS);
        return false;
    }

    renderer->data = data;
    snprintf(renderer->vert_path, sizeof renderer->vert_path, "%s", vert_path);
    snprintf(renderer->frag_path, sizeof renderer->frag_path, "%s", frag_path);
    if (!build_program(renderer, error, error_size)) return false;

    renderer->meshes = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof *renderer->meshes);
    if (!renderer->meshes || !gpu_textures_upload(model, &renderer->textures)) {
        snprintf(error, error_size, "out of memory");
        vat_renderer_free(renderer);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        if (!upload_mesh(&model->meshes[m], m, data, &renderer->meshes[m], error, error_size)) {
            vat_renderer_free(renderer);
            return false;
        }
        renderer->mesh_count = m + 1;
    }
    renderer->positions_texture =
        data->float_precision ? upload_array_texture(GL_RGBA32F, GL_RGBA, GL_FLOAT, layout, data->positions)
                              : upload_array_texture(GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, layout, data->positions);
    renderer->normals_texture = upload_array_texture(GL_RG16, GL_RG, GL_UNSIGNED_SHORT, layout, data->normals);

    glGenBuffers(1, &renderer->instance_buffer);
    VatInstance one_instance = {{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f};
    if (!vat_renderer_set_instances(renderer, &one_instance, 1)) {
        snprintf(error, error_size, "out of memory for instances");
        vat_renderer_free(renderer);
        return false;
    }
    bind_instance_attributes(renderer);

    if (!gpu_check_error("uploading the bake", error, error_size)) {
        vat_renderer_free(renderer);
        return false;
    }
    return true;
}

void vat_renderer_free(VatRenderer *renderer)
{
    for (int m = 0; m < renderer->mesh_count; m++) {
        glDeleteVertexArrays(1, &renderer->meshes[m].vao);
        glDeleteBuffers(1, &renderer->meshes[m].vbo);
        glDeleteBuffers(1, &renderer->meshes[m].ebo);
        glDeleteBuffers(1, &renderer->meshes[m].extra_vbo);
    }
    gpu_textures_free(&renderer->textures);
    GLuint pages[2] = {renderer->positions_texture, renderer->normals_texture};
    glDeleteTextures(2, pages);   /* GL ignores the names 0 */
    GLuint buffers[2] = {renderer->instance_buffer, renderer->feedback_buffer};
    glDeleteBuffers(2, buffers);
    if (renderer->program) glDeleteProgram(renderer->program);
    renderer_shadow_free(&renderer->shadow);
    if (renderer->environment_texture) glDeleteTextures(1, &renderer->environment_texture);
    free(renderer->meshes);
    memset(renderer, 0, sizeof *renderer);
}

bool vat_renderer_set_instances(VatRenderer *renderer, const VatInstance *instances, int count)
{
    if (count < 1) return false;
    glBindBuffer(GL_ARRAY_BUFFER, renderer->instance_buffer);
    size_t bytes = sizeof(float) * VAT_FLOATS_PER_INSTANCE * (size_t)count;
    float *packed = malloc(bytes);
    if (!packed) {
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        return false;
    }
    vec3 low = {INFINITY, INFINITY, INFINITY}, high = {-INFINITY, -INFINITY, -INFINITY};   /* the offsets' box */
    for (int i = 0; i < count; i++) {
        glm_vec3_minv(low, (float *)instances[i].offset, low);
        glm_vec3_maxv(high, (float *)instances[i].offset, high);
        float *out = packed + (size_t)i * VAT_FLOATS_PER_INSTANCE;
        out[0] = instances[i].offset[0];
        out[1] = instances[i].offset[1];
        out[2] = instances[i].offset[2];
        out[3] = instances[i].time_offset;
        out[4] = instances[i].clip;
    }
    if (count > renderer->instance_capacity) {
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, packed, GL_DYNAMIC_DRAW);
        renderer->instance_capacity = count;
    } else {
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, packed);
    }
    free(packed);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    renderer->instance_count = count;
    /* the crowd's sphere: the baked box's around the offsets' box (centre + centre, radius + radius) */
    const VatGpuData *data = renderer->data;
    for (int c = 0; c < 3; c++) renderer->crowd_center[c] = 0.5f * (data->bounds_min[c] + data->bounds_max[c] + low[c] + high[c]);
    renderer->crowd_radius = 0.5f * (glm_vec3_distance((float *)data->bounds_min, (float *)data->bounds_max) +
                                     glm_vec3_distance(low, high));
    return true;
}

static void bind_vat_textures(const VatRenderer *renderer)
{
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, renderer->positions_texture);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D_ARRAY, renderer->normals_texture);
    glActiveTexture(GL_TEXTURE7);   /* skinned.frag's environmentMap (0 without one: not sampled) */
    glBindTexture(GL_TEXTURE_2D, renderer->environment_texture);
    glActiveTexture(GL_TEXTURE0);
}

static void unbind_vat_textures(void)
{
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    glActiveTexture(GL_TEXTURE7);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
}

/* Every instance of every mesh with displayMode `display_mode`: RENDER_LIT in its own passes and
 * state; RENDER_SHADOW (the mask) in one pass, every face, in the state shadow_draw set. */
static int draw_meshes(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                       const RenderLight *light, int display_mode)
{
    const Model *model = renderer->model;
    bool lit = display_mode == RENDER_LIT;
    bool srgb_target = lit && renderer_target_is_srgb();
    if (lit) gpu_opaque_pass_begin(srgb_target, renderer->cull_back_faces);
    glUseProgram(renderer->program);
    gpu_set_frame_uniforms(&renderer->frame, view, projection, light, srgb_target);
    glUniform1f(renderer->u_time, time);
    glUniform1i(renderer->u_display_mode, display_mode);
    bind_vat_textures(renderer);
    int draw_calls = 0;
    /* pass 0: every mesh but the alpha-BLEND ones (the mask: all of them, cut where alpha ~ 0);
     * pass 1: those, blended, depth writes off (the crowd is one instanced call per mesh: not
     * sorted per instance) */
    for (int pass = 0; pass < (lit ? 2 : 1); pass++) {
        bool any = false;
        for (int m = 0; m < renderer->mesh_count; m++) {
            const VatMeshGpu *gpu = &renderer->meshes[m];
            const Material *material =
                gpu->material >= 0 && gpu->material < model->material_count ? &model->materials[gpu->material] : NULL;
            bool blended = lit && material && material->alpha_mode == MATERIAL_ALPHA_BLEND;
            if (gpu->index_count == 0 || blended != (pass == 1)) continue;
            if (pass == 1 && !any) gpu_blend_pass_begin();
            any = true;
            /* glTF doubleSided false culls the back faces (as the skinned renderer); the mask takes all */
            if (lit && (renderer->cull_back_faces || (material && !material->double_sided))) {
                glEnable(GL_CULL_FACE);
                glCullFace(GL_BACK);
            } else {
                glDisable(GL_CULL_FACE);
            }
            gpu_bind_material(model, gpu->material, &renderer->textures, &renderer->material);
            glUniform1i(renderer->u_has_uv1, gpu->has_uv1 ? 1 : 0);
            /* lines, points: the flat material colour, no lighting (as the skinned renderer) */
            if (gpu->primitive != MESH_TRIANGLES) glUniform1i(renderer->material.unlit, 1);
            static const GLenum gl_mode[] = {GL_TRIANGLES, GL_LINES, GL_POINTS};   /* by MeshPrimitive */
            glBindVertexArray(gpu->vao);
            /* the whole crowd of this mesh in one call: instance attributes carry offset, clip, time */
            glDrawElementsInstanced(gl_mode[gpu->primitive], gpu->index_count, GL_UNSIGNED_INT, NULL,
                                    renderer->instance_count);
            draw_calls++;
        }
        if (pass == 1 && any) gpu_blend_pass_end();
    }
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    unbind_vat_textures();
    glUseProgram(0);
    if (lit) gpu_opaque_pass_end();
    return draw_calls;
}

int vat_renderer_draw(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                      const RenderLight *light)
{
    return draw_meshes(renderer, time, view, projection, light, RENDER_LIT);
}

/* ---- the skinned viewer's look: the ground shadow (a caster for shadow_draw), the environment ---- */

typedef struct VatCaster {
    VatRenderer *renderer;
    float        time;
} VatCaster;

static void vat_draw_mask(void *self, const mat4 camera, const RenderLight *light)
{
    VatCaster *caster = self;
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    draw_meshes(caster->renderer, caster->time, identity, camera, light, RENDER_SHADOW);
}

static void vat_crowd_sphere(void *self, int index, vec3 center, float *radius)
{
    (void)index;   /* one sphere: the whole crowd */
    const VatRenderer *renderer = ((VatCaster *)self)->renderer;
    glm_vec3_copy((float *)renderer->crowd_center, center);
    *radius = renderer->crowd_radius;
}

void vat_renderer_draw_shadow(VatRenderer *renderer, float time, const mat4 view, const mat4 projection,
                              const RenderLight *light, float ground_y, const float center[2], float radius)
{
    VatCaster self = {renderer, time};
    ShadowCaster caster = {&self, vat_draw_mask, 1, vat_crowd_sphere};
    shadow_draw(&renderer->shadow, &caster, view, projection, light, ground_y, center, radius);
}

bool vat_renderer_set_environment(VatRenderer *renderer, const float *rgb, int width, int height, char *error,
                                  size_t error_size)
{
    if (!environment_upload(rgb, width, height, &renderer->environment_texture, renderer->environment_sh)) {
        snprintf(error, error_size, "out of memory for the environment light");
        return false;
    }
    if (build_program(renderer, error, error_size)) return true;
    glDeleteTextures(1, &renderer->environment_texture);   /* the old program stays, with the hemisphere */
    renderer->environment_texture = 0;
    return false;
}

bool vat_renderer_capture_mesh(VatRenderer *renderer, int mesh, int clip, float time, vec3 *out_positions,
                               vec3 *out_normals)
{
    const VatMeshGpu *gpu = &renderer->meshes[mesh];
    if (gpu->vertex_count == 0) return true;
    VatInstance one = {{0.0f, 0.0f, 0.0f}, 0.0f, (float)clip};
    if (!vat_renderer_set_instances(renderer, &one, 1)) return false;
    size_t bytes = sizeof(float) * VAT_FEEDBACK_FLOATS * (size_t)gpu->vertex_count;
    gpu_feedback_reserve(&renderer->feedback_buffer, &renderer->feedback_size, bytes);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    glUseProgram(renderer->program);
    gpu_set_frame_uniforms(&renderer->frame, identity, identity, NULL, false);
    glUniform1f(renderer->u_time, time);
    bind_vat_textures(renderer);

    bool ok = gpu_capture_points(renderer->feedback_buffer, gpu->vao, gpu->vertex_count, VAT_FEEDBACK_FLOATS,
                                 out_positions, out_normals);
    unbind_vat_textures();
    return ok;
}
