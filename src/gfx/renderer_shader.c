/* renderer_shader.c — the skinned renderer's GLSL programs: the palette's size on this GL, the
 * material feature defines (HAS_*), compiling skinned.vert / skinned_dq.vert / normals.geom with
 * skinned.frag or normals.frag, and the programs compiled on first use (DQ, normals view,
 * another lighting model). */
#include "renderer_internal.h"
#include "shader.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

int renderer_max_bones(void)
{
    GLint components = 0;
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_COMPONENTS, &components);
    /* one mat4 = 16 components; keep room for projection, view, model and the flags */
    int bones = components / 16 - RENDERER_RESERVED_MAT4;
    return bones > 0 ? bones : 0;
}

void renderer_material_features(const Model *model, char *out, size_t out_size)
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

bool renderer_load_program(SkinShader *shader, const char *vert_path, const char *geom_path, const char *frag_path,
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
#define AT(field) offsetof(SkinShader, field)
    static const GpuUniformName names[] = {
        {"model", AT(model)}, {"bonesMatrices", AT(bones)}, {"boneDualQuats", AT(bone_dual_quats)},
        {"boneStretches", AT(bone_stretches)}, {"skinned", AT(skinned)}, {"cpuSkinned", AT(cpu_skinned)},
        {"rigidSkinning", AT(rigid_skinning)}, {"showHeat", AT(show_heat)}, {"onlySelected", AT(only_selected)},
        {"selectedBone", AT(selected_bone)}, {"hasUv1", AT(has_uv1)}, {"morphDeltas", AT(morph_deltas)},
        {"morphVertexCount", AT(morph_vertex_count)}, {"morphActiveCount", AT(morph_active_count)},
        {"morphActive", AT(morph_active)}, {"environmentSh", AT(environment_sh)}, {"displayMode", AT(display_mode)}, {"colorMap", AT(color_map)},
        {"skinnedMesh", AT(skinned_mesh)}, {"normalLength", AT(normal_length)}, {"lineColor", AT(line_color)},
    };
#undef AT
    gpu_find_uniforms(program, names, (int)(sizeof names / sizeof names[0]), shader);
    gpu_light_uniforms_find(program, &shader->frame);
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
    GLint environment_map = glGetUniformLocation(program, "environmentMap");
    if (environment_map >= 0) glUniform1i(environment_map, 7);
    glUniform1i(shader->selected_bone, -1);
    glUseProgram(0);
    return true;
}

bool skin_shader_load(SkinShader *shader, const char *vert_path, const char *frag_path, int max_bones,
                      char *error, size_t error_size)
{
    return renderer_load_program(shader, vert_path, NULL, frag_path, max_bones, LIGHTING_PBR, NULL, error, error_size);
}

void skin_shader_free(SkinShader *shader)
{
    if (shader->program) glDeleteProgram(shader->program);
    memset(shader, 0, sizeof *shader);
}

/* Does mesh m use the dual quaternion shader (method DQ, skinned, palette converted)? */
bool renderer_mesh_uses_dq(const Renderer *renderer, int m)
{
    return renderer->method == SKINNING_GPU_DQ && renderer->dq_shader.program && renderer->meshes[m].skinned &&
           renderer->dq_pose.status[m] == SKIN_DQ_OK;
}

/* The DQ program, compiled on first use; false (one line on stderr, once: DQ meshes then draw
 * with LBS) when it does not compile. */
bool renderer_ensure_dq_shader(Renderer *renderer)
{
    if (renderer->dq_shader.program) return true;
    if (renderer->dq_failed) return false;
    char error[1024];
    if (!renderer_load_program(&renderer->dq_shader, renderer->dq_vert_path, NULL, renderer->frag_path, renderer->max_bones,
                           renderer->shader_lighting, renderer->features, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        renderer->dq_failed = true;
        return false;
    }
    return true;
}

/* The normals view's two programs, compiled on first use. */
bool renderer_ensure_normals_shaders(Renderer *renderer)
{
    if (renderer->normals_shader[0].program && renderer->normals_shader[1].program) return true;
    if (renderer->normals_failed) return false;
    char error[1024];
    for (int k = 0; k < 2; k++)
        if (!renderer->normals_shader[k].program &&
            !renderer_load_program(&renderer->normals_shader[k], k == 0 ? renderer->vert_path : renderer->dq_vert_path,
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
/* Compiles the LBS (and, when it exists, the DQ) program for `lighting` with renderer->features;
 * replaces the current ones only when all compile (else one line on stderr, false). */
static bool rebuild_programs(Renderer *renderer, RenderLighting lighting)
{
    SkinShader lbs, dq;
    memset(&dq, 0, sizeof dq);
    char error[1024];
    bool ok = renderer_load_program(&lbs, renderer->vert_path, NULL, renderer->frag_path, renderer->max_bones, lighting,
                                    renderer->features, error, sizeof error);
    if (ok && renderer->dq_shader.program)
        ok = renderer_load_program(&dq, renderer->dq_vert_path, NULL, renderer->frag_path, renderer->max_bones, lighting,
                                   renderer->features, error, sizeof error);
    if (!ok) {
        skin_shader_free(&lbs);
        fprintf(stderr, "skinview: %s\n", error);
        return false;
    }
    skin_shader_free(&renderer->shader);
    renderer->shader = lbs;
    if (renderer->dq_shader.program) {
        skin_shader_free(&renderer->dq_shader);
        renderer->dq_shader = dq;
    }
    renderer->shader_lighting = lighting;
    return true;
}

void renderer_ensure_lighting(Renderer *renderer, RenderLighting lighting)
{
    if (lighting == renderer->shader_lighting || (lighting != LIGHTING_FLAT && lighting != LIGHTING_PBR) ||
        renderer->lighting_failed[lighting])
        return;
    if (!rebuild_programs(renderer, lighting)) renderer->lighting_failed[lighting] = true;
}

bool renderer_recompile(Renderer *renderer)
{
    renderer_material_features(renderer->model, renderer->features, sizeof renderer->features);
    if (renderer->has_environment) {
        size_t n = strlen(renderer->features);
        snprintf(renderer->features + n, sizeof renderer->features - n, "#define HAS_ENVIRONMENT\n");
    }
    return rebuild_programs(renderer, renderer->shader_lighting);
}
