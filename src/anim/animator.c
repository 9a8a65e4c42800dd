/* animator.c — owns the per-instance buffers; runs the per-frame pipeline. */
#include "animator.h"

#include <stdlib.h>
#include <string.h>

static int max_morph_tracks(const Model *model)
{
    int most = 1;
    for (int c = 0; c < model->clip_count; c++)
        if (model->clips[c].morph_track_count > most) most = model->clips[c].morph_track_count;
    return most;
}

/* Weights, active lists and scratch vertices of every mesh with morph targets. */
static bool morph_buffers_init(Animator *animator, const Model *model)
{
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    animator->morph_weights = calloc(meshes, sizeof(float *));
    animator->morphs = calloc(meshes, sizeof(MeshMorph));
    animator->morph_cursors = calloc((size_t)max_morph_tracks(model), sizeof(int));
    if (!animator->morph_weights || !animator->morphs || !animator->morph_cursors) return false;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->morph_target_count <= 0) continue;
        size_t targets = (size_t)mesh->morph_target_count, vertices = (size_t)(mesh->vertex_count > 0 ? mesh->vertex_count : 1);
        MeshMorph *morph = &animator->morphs[m];
        animator->morph_weights[m] = calloc(targets, sizeof(float));
        morph->active_targets = calloc(targets, sizeof(int));
        morph->active_weights = calloc(targets, sizeof(float));
        morph->positions = calloc(vertices, sizeof(vec3));
        morph->normals = calloc(vertices, sizeof(vec3));
        if (!animator->morph_weights[m] || !morph->active_targets || !morph->active_weights || !morph->positions ||
            !morph->normals)
            return false;
    }
    return true;
}

static int max_track_count(const Model *model)
{
    int max_tracks = 1;
    for (int c = 0; c < model->clip_count; c++)
        if (model->clips[c].track_count > max_tracks) max_tracks = model->clips[c].track_count;
    return max_tracks;
}

/* m = T * R * S (no shear) as a JointTransform; the bind pose's locals for cross-fades. */
static void trs_from_matrix(const mat4 m, JointTransform *out)
{
    mat4 copy, rotation;
    vec4 translation;
    glm_mat4_copy((vec4 *)m, copy);
    glm_decompose(copy, translation, rotation, out->scale);
    glm_vec3_copy(translation, out->translation);
    glm_mat4_quat(rotation, out->rotation);
}

/* An earlier skinned mesh whose palette mesh m can share (the same bones: joints and inverse
 * bind matrices; neither following its node), or -1. Meshes cut from one skinned object (one per
 * material) usually are: one palette, computed once per frame, read by both. */
static int shared_palette_mesh(const Model *model, int m)
{
    const Mesh *mesh = &model->meshes[m];
    if (!mesh->skinned || mesh->skin_follows_node || mesh->bone_count <= 0) return -1;
    for (int e = 0; e < m; e++) {
        const Mesh *earlier = &model->meshes[e];
        if (earlier->skinned && !earlier->skin_follows_node && earlier->bone_count == mesh->bone_count &&
            memcmp(earlier->bone_joint, mesh->bone_joint, sizeof(int) * (size_t)mesh->bone_count) == 0 &&
            memcmp(earlier->inverse_bind, mesh->inverse_bind, sizeof(mat4) * (size_t)mesh->bone_count) == 0)
            return e;
    }
    return -1;
}

bool animator_init(Animator *animator, const Model *model)
{
    memset(animator, 0, sizeof *animator);
    animator->model = model;
    animator->clip = ANIMATOR_REST_POSE;
    animator->fade_clip = ANIMATOR_REST_POSE;
    animator->root_joint = -1;
    int joints = model->skeleton.joint_count > 0 ? model->skeleton.joint_count : 1;
    int max_tracks = max_track_count(model);
    animator->local = calloc((size_t)joints, sizeof(mat4));
    animator->joint_model = calloc((size_t)joints, sizeof(mat4));
    animator->cursors = calloc((size_t)max_tracks, sizeof(TrackCursor));
    animator->fade_cursors = calloc((size_t)max_tracks, sizeof(TrackCursor));
    animator->trs_from = calloc((size_t)joints, sizeof(JointTransform));
    animator->trs_to = calloc((size_t)joints, sizeof(JointTransform));
    animator->animated = calloc((size_t)joints, 1);
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    animator->palettes = calloc(meshes, sizeof(mat4 *));
    animator->skin_runs = calloc(meshes, sizeof(SkinRun *));
    animator->skin_run_count = calloc(meshes, sizeof(int));
    animator->bind_local = calloc((size_t)joints, sizeof(mat4));
    animator->bind_model = calloc((size_t)joints, sizeof(mat4));
    animator->bind_trs = calloc((size_t)joints, sizeof(JointTransform));
    bool *bound = calloc((size_t)joints, sizeof(bool));
    if (bound && animator->bind_local && animator->bind_model && animator->bind_trs) {
        pose_bind(model, bound, animator->bind_local, animator->bind_model);
        for (int j = 0; j < model->skeleton.joint_count; j++)
            trs_from_matrix(animator->bind_local[j], &animator->bind_trs[j]);
    }
    free(bound);
    if (!animator->local || !animator->joint_model || !animator->cursors || !animator->palettes ||
        !animator->skin_runs || !animator->skin_run_count || !bound || !animator->bind_local || !animator->bind_model ||
        !animator->bind_trs ||
        !animator->fade_cursors || !animator->trs_from || !animator->trs_to || !animator->animated) {
        animator_free(animator);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        int bones = model->meshes[m].bone_count > 0 ? model->meshes[m].bone_count : 1;
        int same = shared_palette_mesh(model, m);
        animator->palettes[m] = same >= 0 ? animator->palettes[same] : calloc((size_t)bones, sizeof(mat4));
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
    if (!morph_buffers_init(animator, model)) {
        animator_free(animator);
        return false;
    }
    animator->packed = calloc((size_t)(model->clip_count > 0 ? model->clip_count : 1), sizeof(PackedClip));
    if (!animator->packed || !palette_targets_build(&animator->targets, model, animator->palettes)) {
        animator_free(animator);
        return false;
    }
    int max_timelines = 1, max_lanes = 0;
    for (int c = 0; c < model->clip_count; c++) {
        if (!packed_clip_build(&animator->packed[c], &model->clips[c], &model->skeleton)) {
            animator_free(animator);
            return false;
        }
        if (animator->packed[c].timeline_count > max_timelines) max_timelines = animator->packed[c].timeline_count;
        if (animator->packed[c].lane_capacity > max_lanes) max_lanes = animator->packed[c].lane_capacity;
    }
    if (!packed_cursor_init(&animator->cursor, max_timelines, max_lanes)) {
        animator_free(animator);
        return false;
    }
    animator_evaluate(animator, ANIMATOR_REST_POSE, 0.0f);
    return true;
}

void animator_free(Animator *animator)
{
    if (animator->palettes && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) {
            bool shared = false;   /* a palette shared with an earlier mesh is freed there */
            for (int e = 0; e < m && !shared; e++) shared = animator->palettes[e] == animator->palettes[m];
            if (!shared) free(animator->palettes[m]);
        }
    if (animator->skin_runs && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) free(animator->skin_runs[m]);
    if (animator->morph_weights && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) free(animator->morph_weights[m]);
    if (animator->morphs && animator->model)
        for (int m = 0; m < animator->model->mesh_count; m++) {
            MeshMorph *morph = &animator->morphs[m];
            free(morph->active_targets);
            free(morph->active_weights);
            free(morph->positions);
            free(morph->normals);
        }
    free(animator->morph_weights);
    free(animator->morphs);
    free(animator->morph_cursors);
    if (animator->packed && animator->model)
        for (int c = 0; c < animator->model->clip_count; c++) packed_clip_free(&animator->packed[c]);
    free(animator->packed);
    packed_cursor_free(&animator->cursor);
    palette_targets_free(&animator->targets);
    free(animator->palettes);
    free(animator->skin_runs);
    free(animator->skin_run_count);
    free(animator->bind_local);
    free(animator->bind_trs);
    free(animator->bind_model);
    free(animator->cursors);
    free(animator->fade_cursors);
    free(animator->trs_from);
    free(animator->trs_to);
    free(animator->animated);
    free(animator->joint_model);
    free(animator->local);
    memset(animator, 0, sizeof *animator);
}

/* Scene-space matrix of one joint from local matrices: the product along its parent chain. */
static void joint_model_from_local(const Skeleton *skeleton, const mat4 *local, int joint, mat4 out)
{
    glm_mat4_copy((vec4 *)local[joint], out);
    for (int j = skeleton->parent[joint]; j >= 0; j = skeleton->parent[j]) glm_mat4_mul((vec4 *)local[j], out, out);
}

/* New clip: its cursors start from scratch; its root-motion joint and where that joint stands
 * at time 0 (the anchor "in place" keeps); local[] back at rest (the fast path writes only the
 * joints with a track). Once per clip change, not per frame. */
static void switch_clip(Animator *animator, int clip)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    memset(animator->cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
    memset(animator->morph_cursors, 0, sizeof(int) * (size_t)max_morph_tracks(model));
    packed_cursor_reset(&animator->cursor);
    animator->clip = clip;
    animator->root_joint = clip >= 0 ? clip_root_motion_joint(&model->clips[clip]) : -1;
    glm_vec3_zero(animator->root_anchor);
    if (animator->root_joint >= 0) {
        pose_set_rest(skeleton, animator->local);
        clip_sample(&model->clips[clip], skeleton, 0.0f, animator->cursors, animator->local);
        mat4 root;
        joint_model_from_local(skeleton, animator->local, animator->root_joint, root);
        glm_vec3_copy(root[3], animator->root_anchor);
        memset(animator->cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
    }
    pose_set_rest(skeleton, animator->local);   /* joints without a track keep this from now on */
    animator->local_blended = false;
}

/* Morph weights of `clip` at `time` (defaults; bind pose: none) and each mesh's active targets. */
static void update_morphs(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    morph_set_default_weights(model, animator->morph_weights, clip == ANIMATOR_BIND_POSE);
    if (clip >= 0) clip_sample_morph_weights(&model->clips[clip], time, animator->morph_cursors, animator->morph_weights);
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        MeshMorph *morph = &animator->morphs[m];
        if (mesh->morph_target_count > 0)
            morph->active_count = morph_active_targets(animator->morph_weights[m], mesh->morph_target_count,
                                                       morph->active_targets, morph->active_weights);
    }
}

/* Root motion in place, after joint_model[] is known (the palettes follow in the caller). */
static void apply_in_place(Animator *animator)
{
    if (animator->in_place && animator->root_joint >= 0)
        pose_remove_ground_motion(&animator->model->skeleton, animator->root_joint, animator->root_anchor,
                                  animator->joint_model);
}

/* The reference jobs from local[]: joint_model[] (in place if asked), morphs, palettes. */
static void finish_pose(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    pose_local_to_model(&model->skeleton, animator->local, animator->joint_model);
    apply_in_place(animator);
    update_morphs(animator, clip, time);
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        skin_palette(mesh, animator->joint_model, animator->palettes[m]);
        skin_palette_follow_node(mesh, animator->joint_model, animator->palettes[m]);
    }
}

void animator_evaluate(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    if (clip >= model->clip_count) clip = ANIMATOR_REST_POSE;
    if (clip != animator->clip) switch_clip(animator, clip);

    if (clip >= 0) {   /* the fast path: sampling, then hierarchy and palettes (pose_fast.c) */
        if (animator->local_blended) {   /* a cross-fade wrote joints this clip has no track for */
            pose_set_rest(skeleton, animator->local);
            packed_cursor_reset(&animator->cursor);   /* the held tracks are written again */
            animator->local_blended = false;
        }
        pose_evaluate_packed(&animator->packed[clip], skeleton, &animator->targets, time, &animator->cursor,
                             animator->local, animator->joint_model);
        if (animator->in_place && animator->root_joint >= 0) {
            apply_in_place(animator);
            pose_palettes(&animator->targets, skeleton->joint_count, animator->joint_model);
        }
    } else if (clip == ANIMATOR_BIND_POSE) {   /* computed once, at init */
        size_t bytes = sizeof(mat4) * (size_t)skeleton->joint_count;
        if (bytes > 0) {
            memcpy(animator->local, animator->bind_local, bytes);
            memcpy(animator->joint_model, animator->bind_model, bytes);
        }
    } else {           /* rest pose: the reference jobs */
        pose_set_rest(skeleton, animator->local);
        pose_local_to_model(skeleton, animator->local, animator->joint_model);
    }
    update_morphs(animator, clip, time);
    for (int m = 0; clip < 0 && m < model->mesh_count; m++) {   /* (a clip's palettes are written above) */
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        if (clip == ANIMATOR_BIND_POSE)
            skin_palette_bind(mesh, animator->palettes[m]);
        else
            skin_palette(mesh, animator->joint_model, animator->palettes[m]);
    }
    for (int m = 0; clip != ANIMATOR_BIND_POSE && m < model->mesh_count; m++)   /* (every path but the bind pose) */
        if (model->meshes[m].skinned)
            skin_palette_follow_node(&model->meshes[m], animator->joint_model, animator->palettes[m]);
}

/* One side of a cross-fade into out[]: a clip sampled at `time` (its tracks marked in
 * animator->animated), the rest pose (rest_trs: nothing marked, unmarked joints keep their exact
 * rest matrix) or the bind pose (bind_trs: every joint marked). */
static void fade_side(Animator *animator, int clip, float time, TrackCursor *cursors, JointTransform *out)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    size_t joints = (size_t)skeleton->joint_count;
    if (clip == ANIMATOR_BIND_POSE) {
        memcpy(out, animator->bind_trs, sizeof(JointTransform) * joints);
        memset(animator->animated, 1, joints);
        return;
    }
    memcpy(out, skeleton->rest_trs, sizeof(JointTransform) * joints);
    if (clip < 0) return;
    const Clip *sampled = &model->clips[clip];
    clip_sample_trs(sampled, skeleton, time, cursors, out);
    for (int i = 0; i < sampled->track_count; i++) animator->animated[sampled->tracks[i].joint] = 1;
}

static bool fade_source(const Model *model, int clip)
{
    return clip == ANIMATOR_REST_POSE || clip == ANIMATOR_BIND_POSE || (clip >= 0 && clip < model->clip_count);
}

void animator_evaluate_blend(Animator *animator, int from, float from_time, int to, float to_time, float weight)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    if (!fade_source(model, from) || !fade_source(model, to) || from == to || skeleton->joint_count == 0 ||
        !(weight < 1.0f)) {
        animator_evaluate(animator, to, to_time);
        return;
    }
    if (to != animator->clip) switch_clip(animator, to);
    if (from != animator->fade_clip) {
        memset(animator->fade_cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
        animator->fade_clip = from;
    }
    memset(animator->animated, 0, (size_t)skeleton->joint_count);
    fade_side(animator, from, from_time, animator->fade_cursors, animator->trs_from);
    fade_side(animator, to, to_time, animator->cursors, animator->trs_to);
    pose_blend(animator->trs_from, animator->trs_to, skeleton->joint_count, weight, animator->trs_to);

    /* joints neither side moves keep their exact rest matrix (rest_trs may drop a shear) */
    pose_set_rest(skeleton, animator->local);
    for (int j = 0; j < skeleton->joint_count; j++)
        if (animator->animated[j]) joint_transform_to_matrix(&animator->trs_to[j], animator->local[j]);
    animator->local_blended = true;
    finish_pose(animator, to, to_time);   /* morph weights: the pose fading in */
}

void animator_root_position(const Animator *animator, vec3 position)
{
    glm_vec3_zero(position);
    const Skeleton *skeleton = &animator->model->skeleton;
    if (skeleton->joint_count == 0) return;
    int joint = animator->root_joint >= 0 ? animator->root_joint : 0;
    if (animator->in_place && animator->root_joint >= 0) {   /* joint_model has the travel removed */
        mat4 authored;
        joint_model_from_local(skeleton, animator->local, joint, authored);
        glm_vec3_copy(authored[3], position);
    } else {
        glm_vec3_copy(animator->joint_model[joint][3], position);
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

bool animator_morph_mesh(const Animator *animator, int mesh)
{
    const MeshMorph *morph = &animator->morphs[mesh];
    if (morph->active_count == 0) return false;
    /* p' = p + sum_i w_i * delta_i, in mesh space, into the mesh's scratch buffers */
    morph_vertices(&animator->model->meshes[mesh], morph->active_targets, morph->active_weights, morph->active_count,
                   morph->positions, morph->normals);
    return true;
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
    const vec3 *positions = (const vec3 *)m->positions, *normals = (const vec3 *)m->normals;
    if (animator_morph_mesh(animator, mesh)) {
        positions = (const vec3 *)animator->morphs[mesh].positions;
        normals = (const vec3 *)animator->morphs[mesh].normals;
    }
    if (m->skinned) {
        SkinJob job = animator_skin_job(animator, mesh, positions, normals, out_positions, out_normals);
        skin_job_run(&job, 0, job.vertex_count);
        return;
    }
    mat4 node_model;
    animator_mesh_matrix(animator, mesh, node_model);
    Mesh morphed = *m;   /* the same static mesh, its vertices possibly the morphed ones (no allocation) */
    morphed.positions = (vec3 *)positions;
    morphed.normals = (vec3 *)normals;
    skin_vertices_lbs(&morphed, (const mat4 *)animator->palettes[mesh], node_model, out_positions, out_normals);
}
