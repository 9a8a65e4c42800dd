/* bounds.c — the model's box over its whole animation and its bind pose, and a front camera framing it. */
#include "bounds.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define BOUNDS_SAMPLES_PER_CLIP 8

/* Grows [min, max] by the CPU-skinned vertices of the pose `animator` holds. */
static void grow_by_pose(const Model *model, const Animator *animator, vec3 *scratch, vec3 min, vec3 max)
{
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++) {
            if (!isfinite(scratch[v][0]) || !isfinite(scratch[v][1]) || !isfinite(scratch[v][2])) continue;
            glm_vec3_minv(min, scratch[v], min);
            glm_vec3_maxv(max, scratch[v], max);
        }
    }
}

bool app_model_bounds(const Model *model, Animator *animator, vec3 min, vec3 max)
{
    glm_vec3_zero(min);
    glm_vec3_zero(max);
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    if (max_vertices == 0) return false;
    vec3 *scratch = malloc(sizeof(vec3) * (size_t)max_vertices);
    if (!scratch) return false;

    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    if (model->clip_count == 0) {
        animator_evaluate(animator, ANIMATOR_REST_POSE, 0.0f);
        grow_by_pose(model, animator, scratch, lo, hi);
    }
    for (int c = 0; c < model->clip_count; c++)
        for (int i = 0; i < BOUNDS_SAMPLES_PER_CLIP; i++) {
            /* t_i = i * duration / 7: both ends included */
            float t = model->clips[c].duration * (float)i / (float)(BOUNDS_SAMPLES_PER_CLIP - 1);
            animator_evaluate(animator, c, t);
            grow_by_pose(model, animator, scratch, lo, hi);
        }
    /* the bind pose (key 0 / --clip bind) too: a glTF may store its mesh lying down (N = identity) */
    animator_evaluate(animator, ANIMATOR_BIND_POSE, 0.0f);
    grow_by_pose(model, animator, scratch, lo, hi);
    free(scratch);
    if (lo[0] > hi[0]) return false;   /* every vertex was NaN / inf */
    glm_vec3_copy(lo, min);
    glm_vec3_copy(hi, max);
    return true;
}

bool app_pose_bounds(const Model *model, const Animator *animator, vec3 min, vec3 max)
{
    glm_vec3_zero(min);
    glm_vec3_zero(max);
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    if (max_vertices == 0) return false;
    vec3 *scratch = malloc(sizeof(vec3) * (size_t)max_vertices);
    if (!scratch) return false;
    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    grow_by_pose(model, animator, scratch, lo, hi);
    free(scratch);
    if (lo[0] > hi[0]) return false;
    glm_vec3_copy(lo, min);
    glm_vec3_copy(hi, max);
    return true;
}

bool app_pose_screen_bounds(const Model *model, const Animator *animator, const mat4 view_projection, vec2 min,
                            vec2 max)
{
    glm_vec2_zero(min);
    glm_vec2_zero(max);
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    if (max_vertices == 0) return false;
    vec3 *scratch = malloc(sizeof(vec3) * (size_t)max_vertices);
    if (!scratch) return false;
    vec2 lo = {FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX};
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++) {
            /* clip = VP * (p, 1); ndc = clip.xy / clip.w */
            vec4 p = {scratch[v][0], scratch[v][1], scratch[v][2], 1.0f}, clip;
            glm_mat4_mulv((vec4 *)view_projection, p, clip);
            if (!(clip[3] > 1e-6f) || !isfinite(clip[0]) || !isfinite(clip[1])) continue;
            vec2 ndc = {clip[0] / clip[3], clip[1] / clip[3]};
            glm_vec2_minv(lo, ndc, lo);
            glm_vec2_maxv(hi, ndc, hi);
        }
    }
    free(scratch);
    if (lo[0] > hi[0]) return false;
    glm_vec2_copy(lo, min);
    glm_vec2_copy(hi, max);
    return true;
}
