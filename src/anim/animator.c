/* animator.c — owns the per-instance buffers; runs the per-frame pipeline. */
#include "animator.h"

#include <stdlib.h>
#include <string.h>

bool animator_init(Animator *animator, const Model *model)
{
    memset(animator, 0, sizeof *animator);
    animator->model = model;
    animator->clip = ANIMATOR_REST_POSE;
    int joints = model->skeleton.joint_count > 0 ? model->skeleton.joint_count : 1;
    int max_tracks = 1;
    for (int c = 0; c < model->clip_count; c++)
        if (model->clips[c].track_count > max_tracks) max_tracks = model->clips[c].track_count;
    animator->local = calloc((size_t)joints, sizeof(mat4));
    animator->joint_model = calloc((size_t)joints, sizeof(mat4));
    animator->cursors = calloc((size_t)max_tracks, sizeof(TrackCursor));
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    animator->palettes = calloc(meshes, sizeof(mat4 *));
    animator->skin_runs = calloc(meshes, sizeof(SkinRun *));
    animator->skin_run_count = calloc(meshes, sizeof(int));
    if (!animator->local || !animator->joint_model || !animator->cursors || !animator->palettes ||
        !animator->skin_runs || !animator->skin_run_count) {
        animator_free(animator);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        int bones = model->meshes[m].bone_count > 0 ? model->meshes[m].bone_count : 1;
        animator->palettes[m] = calloc((size_t)bones, sizeof(mat4));
        if (!animator->palettes[m]) {
            animator_free(animator);
            return false;
        }
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned || mesh->vertex_count <= 0) continue;
        int runs = skin_runs_build((const float (*)[SV_MAX_INFLUENCES])mesh->weights, mesh->vertex_count, NULL);
        animator->skin_runs[m] = calloc((size_t)runs, sizeof(SkinRun));
        if (!animator->skin_runs[m]) {
            animator_free(animator);
            return false;
        }
        animator->skin_run_count[m] =
            skin_runs_build((const float (*)[SV_MAX_INFLUENCES])mesh->weights, mesh->vertex_count, animator->skin_runs[m]);
    }
    animator_evaluate(animator, ANIMATOR_REST_POSE, 0.0f);
    return true;
}

void animator_free(Animator *animator)
{
    if (animator->palettes && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) free(animator->palettes[m]);
    if (animator->skin_runs && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) free(animator->skin_runs[m]);
    free(animator->palettes);
    free(animator->skin_runs);
    free(animator->skin_run_count);
    free(animator->cursors);
    free(animator->joint_model);
    free(animator->local);
    memset(animator, 0, sizeof *animator);
}

void animator_evaluate(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    if (clip >= model->clip_count) clip = ANIMATOR_REST_POSE;
    if (clip != animator->clip) {     /* new clip: its cursors start from scratch */
        int max_tracks = 0;
        for (int c = 0; c < model->clip_count; c++)
            if (model->clips[c].track_count > max_tracks) max_tracks = model->clips[c].track_count;
        memset(animator->cursors, 0, sizeof(TrackCursor) * (size_t)(max_tracks > 0 ? max_tracks : 1));
        animator->clip = clip;
    }

    pose_set_rest(skeleton, animator->local);
    if (clip >= 0)
        clip_sample(&model->clips[clip], skeleton, time, animator->cursors, animator->local);
    pose_local_to_model(skeleton, animator->local, animator->joint_model);

    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        if (clip == ANIMATOR_BIND_POSE)
            skin_palette_identity(mesh, animator->palettes[m]);
        else
            skin_palette(mesh, animator->joint_model, animator->palettes[m]);
    }
}

void animator_mesh_matrix(const Animator *animator, int mesh, mat4 out)
{
    const Mesh *m = &animator->model->meshes[mesh];
    if (m->skinned || m->node_joint < 0)
        glm_mat4_identity(out);
    else
        glm_mat4_copy(animator->joint_model[m->node_joint], out);
}

SkinJob animator_skin_job(const Animator *animator, int mesh, const vec3 *positions, const vec3 *normals,
                          vec3 *out_positions, vec3 *out_normals)
{
    const Mesh *m = &animator->model->meshes[mesh];
    return (SkinJob){
        .vertex_count = m->skinned ? m->vertex_count : 0,
        .palette = (const mat4 *)animator->palettes[mesh],
        .joint_indices = (const uint16_t (*)[SV_MAX_INFLUENCES])m->joint_indices,
        .weights = (const float (*)[SV_MAX_INFLUENCES])m->weights,
        .runs = animator->skin_runs[mesh],
        .run_count = animator->skin_run_count[mesh],
        .positions = positions,
        .normals = normals,
        .out_positions = out_positions,
        .out_normals = normals ? out_normals : NULL,
        .normalize_normals = true,
    };
}

void animator_skin_mesh(const Animator *animator, int mesh, vec3 *out_positions, vec3 *out_normals)
{
    const Mesh *m = &animator->model->meshes[mesh];
    if (m->skinned) {
        SkinJob job = animator_skin_job(animator, mesh, (const vec3 *)m->positions, (const vec3 *)m->normals,
                                        out_positions, out_normals);
        skin_job_run(&job, 0, job.vertex_count);
        return;
    }
    mat4 node_model;
    animator_mesh_matrix(animator, mesh, node_model);
    skin_vertices_lbs(&animator->model->meshes[mesh], (const mat4 *)animator->palettes[mesh], node_model,
                      out_positions, out_normals);
}
