/* animator.c — owns the per-instance buffers; runs the per-frame pipeline.
 *
 * The instance is made of parts (animator.h): the pose itself (local, joint_model, palettes),
 * clip playback with the fast path's state, the cross-fade, root motion, morph weights and the
 * bind pose. Each part is allocated and freed by its own pair of functions below. */
#include "animator.h"

#include "alloc.h"

#include <string.h>

static int max_morph_tracks(const Model *model)
{
    int most = 1;
    for (int c = 0; c < model->clip_count; c++)
        if (model->clips[c].morph_track_count > most) most = model->clips[c].morph_track_count;
    return most;
}

static int max_track_count(const Model *model)
{
    int max_tracks = 1;
    for (int c = 0; c < model->clip_count; c++)
        if (model->clips[c].track_count > max_tracks) max_tracks = model->clips[c].track_count;
    return max_tracks;
}

/* ---- the parts: allocation and freeing ------------------------------------------------ */

/* Weights, active lists and scratch vertices of every mesh with morph targets. */
static bool morph_weights_init(MorphWeights *morph, const Model *model)
{
    bool ok = true;
    size_t meshes = (size_t)model->mesh_count;
    morph->weights = anim_zeroed(meshes, sizeof(float *), &ok);
    morph->meshes = anim_zeroed(meshes, sizeof(MeshMorph), &ok);
    morph->cursors = anim_zeroed((size_t)max_morph_tracks(model), sizeof(int), &ok);
    for (int m = 0; ok && m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->morph_target_count <= 0) continue;
        size_t targets = (size_t)mesh->morph_target_count, vertices = (size_t)mesh->vertex_count;
        MeshMorph *scratch = &morph->meshes[m];
        morph->weights[m] = anim_zeroed(targets, sizeof(float), &ok);
        scratch->active_targets = anim_zeroed(targets, sizeof(int), &ok);
        scratch->active_weights = anim_zeroed(targets, sizeof(float), &ok);
        scratch->positions = anim_zeroed(vertices, sizeof(vec3), &ok);
        scratch->normals = anim_zeroed(vertices, sizeof(vec3), &ok);
    }
    return ok;
}

static void morph_weights_free(MorphWeights *morph, int mesh_count)
{
    for (int m = 0; morph->meshes && m < mesh_count; m++) {
        MeshMorph *scratch = &morph->meshes[m];
        free(scratch->active_targets);
        free(scratch->active_weights);
        free(scratch->positions);
        free(scratch->normals);
    }
    for (int m = 0; morph->weights && m < mesh_count; m++) free(morph->weights[m]);
    free(morph->weights);
    free(morph->meshes);
    free(morph->cursors);
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

static bool bind_pose_init(BindPose *bind, const Model *model)
{
    bool ok = true;
    size_t joints = (size_t)model->skeleton.joint_count;
    bind->local = anim_zeroed(joints, sizeof(mat4), &ok);
    bind->model = anim_zeroed(joints, sizeof(mat4), &ok);
    bind->trs = anim_zeroed(joints, sizeof(JointTransform), &ok);
    bool *bound = anim_zeroed(joints, sizeof(bool), &ok);
    if (ok) {
        pose_bind(model, bound, bind->local, bind->model);
        for (int j = 0; j < model->skeleton.joint_count; j++) trs_from_matrix(bind->local[j], &bind->trs[j]);
    }
    free(bound);
    return ok;
}

static void bind_pose_free(BindPose *bind)
{
    free(bind->local);
    free(bind->model);
    free(bind->trs);
}

static bool cross_fade_init(CrossFade *fade, const Model *model)
{
    bool ok = true;
    size_t joints = (size_t)model->skeleton.joint_count;
    fade->from_clip = ANIMATOR_REST_POSE;
    fade->cursors = anim_zeroed((size_t)max_track_count(model), sizeof(TrackCursor), &ok);
    fade->from = anim_zeroed(joints, sizeof(JointTransform), &ok);
    fade->to = anim_zeroed(joints, sizeof(JointTransform), &ok);
    fade->animated = anim_zeroed(joints, 1, &ok);
    return ok;
}

static void cross_fade_free(CrossFade *fade)
{
    free(fade->cursors);
    free(fade->from);
    free(fade->to);
    free(fade->animated);
}

/* Every clip packed, the cursors sized for the largest, the palette entries per joint. */
static bool clip_playback_init(ClipPlayback *playback, const Model *model, mat4 **palettes)
{
    bool ok = true;
    playback->clip = ANIMATOR_REST_POSE;
    playback->cursors = anim_zeroed((size_t)max_track_count(model), sizeof(TrackCursor), &ok);
    playback->packed = anim_zeroed((size_t)model->clip_count, sizeof(PackedClip), &ok);
    if (!ok || !palette_targets_build(&playback->targets, model, palettes)) return false;
    int max_timelines = 1, max_lanes = 0;
    for (int c = 0; c < model->clip_count; c++) {
        if (!packed_clip_build(&playback->packed[c], &model->clips[c], &model->skeleton)) return false;
        if (playback->packed[c].timeline_count > max_timelines) max_timelines = playback->packed[c].timeline_count;
        if (playback->packed[c].lane_capacity > max_lanes) max_lanes = playback->packed[c].lane_capacity;
    }
    return packed_cursor_init(&playback->cursor, max_timelines, max_lanes);
}

static void clip_playback_free(ClipPlayback *playback, int clip_count)
{
    for (int c = 0; playback->packed && c < clip_count; c++) packed_clip_free(&playback->packed[c]);
    free(playback->packed);
    packed_cursor_free(&playback->cursor);
    palette_targets_free(&playback->targets);
    free(playback->cursors);
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

/* The pose buffers: joint matrices, one palette per mesh (shared where the bones are), influence runs. */
static bool pose_buffers_init(Animator *animator, const Model *model)
{
    bool ok = true;
    size_t joints = (size_t)model->skeleton.joint_count, meshes = (size_t)model->mesh_count;
    animator->local = anim_zeroed(joints, sizeof(mat4), &ok);
    animator->joint_model = anim_zeroed(joints, sizeof(mat4), &ok);
    animator->palettes = anim_zeroed(meshes, sizeof(mat4 *), &ok);
    animator->skin_runs = anim_zeroed(meshes, sizeof(SkinRun *), &ok);
    animator->skin_run_count = anim_zeroed(meshes, sizeof(int), &ok);
    for (int m = 0; ok && m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        int same = shared_palette_mesh(model, m);
        animator->palettes[m] = same >= 0 ? animator->palettes[same] : anim_zeroed((size_t)mesh->bone_count, sizeof(mat4), &ok);
        if (!ok || !mesh->skinned || mesh->vertex_count <= 0) continue;
        const float (*weights)[SV_MAX_INFLUENCES] = (const float (*)[SV_MAX_INFLUENCES])mesh->weights;
        int runs = skin_runs_build(weights, mesh->vertex_count, NULL);
        animator->skin_runs[m] = anim_zeroed((size_t)runs, sizeof(SkinRun), &ok);
        if (ok) animator->skin_run_count[m] = skin_runs_build(weights, mesh->vertex_count, animator->skin_runs[m]);
    }
    return ok;
}

static void pose_buffers_free(Animator *animator, int mesh_count)
{
    for (int m = 0; animator->palettes && m < mesh_count; m++) {
        bool shared = false;   /* a palette shared with an earlier mesh is freed there */
        for (int e = 0; e < m && !shared; e++) shared = animator->palettes[e] == animator->palettes[m];
        if (!shared) free(animator->palettes[m]);
    }
    for (int m = 0; animator->skin_runs && m < mesh_count; m++) free(animator->skin_runs[m]);
    free(animator->palettes);
    free(animator->skin_runs);
    free(animator->skin_run_count);
    free(animator->joint_model);
    free(animator->local);
}

bool animator_init(Animator *animator, const Model *model)
{
    memset(animator, 0, sizeof *animator);
    animator->model = model;
    animator->root.joint = -1;
    if (!pose_buffers_init(animator, model) || !bind_pose_init(&animator->bind, model) ||
        !cross_fade_init(&animator->fade, model) || !morph_weights_init(&animator->morph, model) ||
        !clip_playback_init(&animator->playback, model, animator->palettes)) {
        animator_free(animator);
        return false;
    }
    animator_evaluate(animator, ANIMATOR_REST_POSE, 0.0f);
    return true;
}

void animator_free(Animator *animator)
{
    const Model *model = animator->model;
    if (model) {
        clip_playback_free(&animator->playback, model->clip_count);
        morph_weights_free(&animator->morph, model->mesh_count);
        cross_fade_free(&animator->fade);
        bind_pose_free(&animator->bind);
        pose_buffers_free(animator, model->mesh_count);
    }
    memset(animator, 0, sizeof *animator);
}

/* ---- every frame ------------------------------------------------------------------------ */

/* Scene-space matrix of one joint from local matrices: the product along its parent chain. */
static void joint_model_from_local(const Skeleton *skeleton, const mat4 *local, int joint, mat4 out)
{
    glm_mat4_copy((vec4 *)local[joint], out);
    for (int j = skeleton->parent[joint]; j >= 0; j = skeleton->parent[j]) glm_mat4_mul((vec4 *)local[j], out, out);
}

/* local[] as the fast path expects it between frames: rest everywhere (joints without a track
 * keep this), the cursors from scratch (the held tracks are written on the next frame). */
static void prime_playback(Animator *animator)
{
    pose_set_rest(&animator->model->skeleton, animator->local);
    packed_cursor_reset(&animator->playback.cursor);
    animator->playback.primed = true;
}

/* New clip: its cursors start from scratch; its root-motion joint and where that joint stands
 * at time 0 (the anchor "in place" keeps); local[] primed. Once per clip change, not per frame. */
static void switch_clip(Animator *animator, int clip)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    ClipPlayback *playback = &animator->playback;
    RootMotion *root = &animator->root;
    memset(playback->cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
    memset(animator->morph.cursors, 0, sizeof(int) * (size_t)max_morph_tracks(model));
    playback->clip = clip;
    root->joint = clip >= 0 ? clip_root_motion_joint(&model->clips[clip]) : -1;
    glm_vec3_zero(root->anchor);
    if (root->joint >= 0) {
        pose_set_rest(skeleton, animator->local);
        clip_sample(&model->clips[clip], skeleton, 0.0f, playback->cursors, animator->local);
        mat4 joint;
        joint_model_from_local(skeleton, animator->local, root->joint, joint);
        glm_vec3_copy(joint[3], root->anchor);
        memset(playback->cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
    }
    prime_playback(animator);
}

/* Morph weights of `clip` at `time` (defaults; bind pose: none) and each mesh's active targets. */
static void update_morphs(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    MorphWeights *morph = &animator->morph;
    morph_set_default_weights(model, morph->weights, clip == ANIMATOR_BIND_POSE);
    if (clip >= 0) clip_sample_morph_weights(&model->clips[clip], time, morph->cursors, morph->weights);
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        MeshMorph *scratch = &morph->meshes[m];
        if (mesh->morph_target_count > 0)
            scratch->active_count = morph_active_targets(morph->weights[m], mesh->morph_target_count,
                                                         scratch->active_targets, scratch->active_weights);
    }
}

/* Root motion in place, after joint_model[] is known (the palettes follow in the caller). */
static bool apply_in_place(Animator *animator)
{
    const RootMotion *root = &animator->root;
    if (!root->in_place || root->joint < 0) return false;
    pose_remove_ground_motion(&animator->model->skeleton, root->joint, root->anchor, animator->joint_model);
    return true;
}

/* Every skinned mesh's palette follows its node where it must (skin_palette_follow_node). */
static void palettes_follow_nodes(Animator *animator)
{
    const Model *model = animator->model;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) skin_palette_follow_node(&model->meshes[m], animator->joint_model, animator->palettes[m]);
}

/* The reference jobs from local[]: joint_model[] (in place if asked), morphs, palettes. */
static void finish_pose(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    pose_local_to_model(&model->skeleton, animator->local, animator->joint_model);
    apply_in_place(animator);
    update_morphs(animator, clip, time);
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) skin_palette(&model->meshes[m], animator->joint_model, animator->palettes[m]);
    palettes_follow_nodes(animator);
}

void animator_evaluate(Animator *animator, int clip, float time)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    ClipPlayback *playback = &animator->playback;
    if (clip >= model->clip_count) clip = ANIMATOR_REST_POSE;
    if (clip != playback->clip) switch_clip(animator, clip);

    if (clip >= 0 && animator->reference) {   /* the reference: the functions docs/skinning.md walks through */
        pose_set_rest(skeleton, animator->local);                                            /* L_j = rest */
        clip_sample(&model->clips[clip], skeleton, time, playback->cursors, animator->local); /* L_j = T*R*S(t) */
        playback->primed = false;   /* local[] holds this frame's pose: the fast path primes again */
        finish_pose(animator, clip, time);   /* M_j = M_parent * L_j, palette_i = M_j * B_i^-1 */
        return;
    }
    if (clip >= 0) {   /* the fast path: sampling, then hierarchy and palettes (pose_fast.c) */
        if (!playback->primed) prime_playback(animator);   /* a cross-fade wrote every joint */
        pose_evaluate_packed(&playback->packed[clip], skeleton, &playback->targets, time, &playback->cursor,
                             animator->local, animator->joint_model);
        if (apply_in_place(animator)) pose_palettes(&playback->targets, skeleton->joint_count, animator->joint_model);
        update_morphs(animator, clip, time);
        palettes_follow_nodes(animator);
        return;
    }
    if (clip == ANIMATOR_BIND_POSE) {   /* computed once, at init */
        size_t bytes = sizeof(mat4) * (size_t)skeleton->joint_count;
        if (bytes > 0) {
            memcpy(animator->local, animator->bind.local, bytes);
            memcpy(animator->joint_model, animator->bind.model, bytes);
        }
        update_morphs(animator, clip, time);
        for (int m = 0; m < model->mesh_count; m++)
            if (model->meshes[m].skinned) skin_palette_bind(&model->meshes[m], animator->palettes[m]);
        return;
    }
    /* rest pose: the reference jobs */
    pose_set_rest(skeleton, animator->local);
    pose_local_to_model(skeleton, animator->local, animator->joint_model);
    update_morphs(animator, clip, time);
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) skin_palette(&model->meshes[m], animator->joint_model, animator->palettes[m]);
    palettes_follow_nodes(animator);
}

/* One side of a cross-fade into out[]: a clip sampled at `time` (its tracks marked in
 * fade->animated), the rest pose (rest_trs: nothing marked, unmarked joints keep their exact
 * rest matrix) or the bind pose (bind trs: every joint marked). */
static void fade_side(Animator *animator, int clip, float time, TrackCursor *cursors, JointTransform *out)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    size_t joints = (size_t)skeleton->joint_count;
    if (clip == ANIMATOR_BIND_POSE) {
        memcpy(out, animator->bind.trs, sizeof(JointTransform) * joints);
        memset(animator->fade.animated, 1, joints);
        return;
    }
    memcpy(out, skeleton->rest_trs, sizeof(JointTransform) * joints);
    if (clip < 0) return;
    const Clip *sampled = &model->clips[clip];
    clip_sample_trs(sampled, skeleton, time, cursors, out);
    for (int i = 0; i < sampled->track_count; i++) animator->fade.animated[sampled->tracks[i].joint] = 1;
}

static bool fade_source(const Model *model, int clip)
{
    return clip == ANIMATOR_REST_POSE || clip == ANIMATOR_BIND_POSE || (clip >= 0 && clip < model->clip_count);
}

void animator_evaluate_blend(Animator *animator, int from, float from_time, int to, float to_time, float weight)
{
    const Model *model = animator->model;
    const Skeleton *skeleton = &model->skeleton;
    CrossFade *fade = &animator->fade;
    if (!fade_source(model, from) || !fade_source(model, to) || from == to || skeleton->joint_count == 0 ||
        !(weight < 1.0f)) {
        animator_evaluate(animator, to, to_time);
        return;
    }
    if (to != animator->playback.clip) switch_clip(animator, to);
    if (from != fade->from_clip) {
        memset(fade->cursors, 0, sizeof(TrackCursor) * (size_t)max_track_count(model));
        fade->from_clip = from;
    }
    memset(fade->animated, 0, (size_t)skeleton->joint_count);
    fade_side(animator, from, from_time, fade->cursors, fade->from);
    fade_side(animator, to, to_time, animator->playback.cursors, fade->to);
    pose_blend(fade->from, fade->to, skeleton->joint_count, weight, fade->to);

    /* joints neither side moves keep their exact rest matrix (rest_trs may drop a shear) */
    pose_set_rest(skeleton, animator->local);
    for (int j = 0; j < skeleton->joint_count; j++)
        if (fade->animated[j]) joint_transform_to_matrix(&fade->to[j], animator->local[j]);
    animator->playback.primed = false;   /* every joint written: the fast path primes again */
    finish_pose(animator, to, to_time);   /* morph weights: the pose fading in */
}

void animator_root_position(const Animator *animator, vec3 position)
{
    glm_vec3_zero(position);
    const Skeleton *skeleton = &animator->model->skeleton;
    const RootMotion *root = &animator->root;
    if (skeleton->joint_count == 0) return;
    int joint = root->joint >= 0 ? root->joint : 0;
    if (root->in_place && root->joint >= 0) {   /* joint_model has the travel removed */
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
    const MeshMorph *morph = &animator->morph.meshes[mesh];
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
        positions = (const vec3 *)animator->morph.meshes[mesh].positions;
        normals = (const vec3 *)animator->morph.meshes[mesh].normals;
    }
    if (m->skinned && animator->reference) {   /* the reference: one readable loop per vertex (skin.c) */
        Mesh morphed = *m;   /* the same mesh, its vertices possibly the morphed ones (no allocation) */
        morphed.positions = (vec3 *)positions;
        morphed.normals = (vec3 *)normals;
        mat4 identity = GLM_MAT4_IDENTITY_INIT;
        skin_vertices_lbs(&morphed, (const mat4 *)animator->palettes[mesh], identity, out_positions, out_normals);
        return;
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
