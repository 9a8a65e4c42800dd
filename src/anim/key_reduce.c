/* key_reduce.c — drops the keys a clip does not need (an optimiser run once, at import).
 *
 * A key is redundant when interpolating between the keys kept around it reproduces the
 * original curve closely enough. "Closely enough" is measured where it shows: as a distance in
 * scene units at the farthest point the joint moves — its skin vertices and everything below it
 * in the hierarchy (ozz-animation's optimiser measures the same way). For joint j:
 *   reach_j = max distance, in the bind pose, from joint j's origin to any vertex it influences
 *             and to any point of its children's reach (reach_parent >= |o_c - o_p| + reach_c),
 * and a change of the joint's local channel moves a point at that distance by at most
 *   translation:  |Δt| * scale_parent          (scale_parent: the parent's largest axis scale)
 *   rotation:     2 reach_j sin(θ/2)           (θ = angle between the two rotations)
 *   scale:        reach_j * max_i |Δs_i| / |s_i|.
 * Per channel, greedily: from a kept key a, the next kept key is the farthest b such that
 * interpolating a -> b stays within the tolerance at every original key time between them and at
 * the middle of every original interval (where a slerp bows away from a lerp); first and last keys
 * always stay. LINEAR channels interpolate as sample.c does (lerp, shortest-arc slerp); STEP
 * channels drop a key only when it holds the same value as the kept key before it (within the
 * tolerance); CUBICSPLINE channels are left as they are (a Hermite segment between kept keys
 * would need new tangents fitted to the curve; nothing is dropped rather than refitting).
 * Morph-weight tracks are left alone. Errors of several joints add up along a chain, so the
 * measured pose error (key_reduce_measure, sampled densely) is what --info reports. */
#include "key_reduce.h"


#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- where each joint's error shows: reach and parent scale ---------------------------- */

static float column_scale(const mat4 m)
{
    float s = 0.0f;
    for (int c = 0; c < 3; c++) s = fmaxf(s, glm_vec3_norm((float *)m[c]));
    return s;
}

static void bind_pose_points(const Model *model, float *reach, float *parent_scale, float *diagonal)
{
    const Skeleton *skeleton = &model->skeleton;
    int joints = skeleton->joint_count;
    mat4 *local = calloc((size_t)joints + 1, sizeof(mat4)), *joint_model = calloc((size_t)joints + 1, sizeof(mat4));
    bool *bound = calloc((size_t)joints + 1, sizeof(bool));
    for (int j = 0; j < joints; j++) reach[j] = 0.0f, parent_scale[j] = 1.0f;
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    if (local && joint_model && bound) {
        pose_bind(model, bound, local, joint_model);
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            for (int v = 0; v < mesh->vertex_count; v++) {
                vec3 p;   /* skinned: placed by the bind matrix N; static: by its node at bind */
                glm_mat4_mulv3((vec4 *)(mesh->skinned ? mesh->bind_matrix : joint_model[mesh->node_joint]),
                               mesh->positions[v], 1.0f, p);
                glm_vec3_minv(lo, p, lo), glm_vec3_maxv(hi, p, hi);
                for (int k = 0; k < (mesh->skinned ? SV_MAX_INFLUENCES : 1); k++) {
                    int joint = mesh->skinned ? (mesh->weights[v][k] != 0.0f ? mesh->bone_joint[mesh->joint_indices[v][k]] : -1)
                                              : mesh->node_joint;
                    if (joint < 0 || joint >= joints) continue;
                    reach[joint] = fmaxf(reach[joint], glm_vec3_distance(p, joint_model[joint][3]));
                }
            }
        }
        for (int j = joints - 1; j >= 0; j--) {   /* children come after parents: fold upwards */
            int parent = skeleton->parent[j];
            glm_vec3_minv(lo, joint_model[j][3], lo), glm_vec3_maxv(hi, joint_model[j][3], hi);
            if (parent < 0) continue;
            reach[parent] = fmaxf(reach[parent], reach[j] + glm_vec3_distance(joint_model[j][3], joint_model[parent][3]));
            parent_scale[j] = column_scale(joint_model[parent]);
        }
    }
    *diagonal = lo[0] <= hi[0] ? glm_vec3_distance(lo, hi) : 1.0f;
    if (!(*diagonal > 0.0f) || !isfinite(*diagonal)) *diagonal = 1.0f;
    free(local), free(joint_model), free(bound);
}

float model_bind_diagonal(const Model *model)
{
    int joints = model->skeleton.joint_count;
    float *reach = calloc((size_t)joints + 1, sizeof(float)), *parent_scale = calloc((size_t)joints + 1, sizeof(float));
    float diagonal = 1.0f;
    if (reach && parent_scale) bind_pose_points(model, reach, parent_scale, &diagonal);
    free(reach), free(parent_scale);
    return diagonal;
}

/* ---- per channel ------------------------------------------------------------------------ */

/* Position error of replacing value `want` by `got` (3 or 4 floats) in a channel of `kind`. */
typedef enum ChannelKind { CHANNEL_TRANSLATION, CHANNEL_ROTATION, CHANNEL_SCALE } ChannelKind;

typedef struct ChannelMetric {
    ChannelKind kind;
    float       reach, parent_scale;
} ChannelMetric;

static float value_error(const ChannelMetric *metric, const float *want, const float *got)
{
    switch (metric->kind) {
    case CHANNEL_TRANSLATION:
        return glm_vec3_distance((float *)want, (float *)got) * metric->parent_scale;
    case CHANNEL_ROTATION: {   /* 2 r sin(θ/2) = r |q1 - ±q2| for unit quaternions (chord of the half-angle) */
        float dot = want[0] * got[0] + want[1] * got[1] + want[2] * got[2] + want[3] * got[3];
        float sign = dot < 0.0f ? -1.0f : 1.0f, d2 = 0.0f;
        for (int i = 0; i < 4; i++) d2 += (want[i] - sign * got[i]) * (want[i] - sign * got[i]);
        /* |q1 - q2| = 2 sin(φ/4) with φ the rotation angle; 2 sin(φ/2) <= 2 |q1 - q2| (φ <= π) */
        return 2.0f * sqrtf(d2) * metric->reach;
    }
    default: {
        float worst = 0.0f;
        for (int i = 0; i < 3; i++) worst = fmaxf(worst, fabsf(want[i] - got[i]) / fmaxf(fabsf(want[i]), 1e-6f));
        return worst * metric->reach;
    }
    }
}

/* The channel's value between keys a and b at factor s, as sample.c interpolates (LINEAR). */
static void interpolate(int width, const float *va, const float *vb, float s, float *out)
{
    if (width == 4)
        quat_slerp_shortest(va, vb, s, out);
    else
        for (int i = 0; i < 3; i++) out[i] = va[i] + s * (vb[i] - va[i]);
}

/* Does the segment a -> b reproduce every original key between them (and the middle of every
 * original interval) within `tolerance`? */
static bool segment_fits(const float *times, const float *values, int width, int a, int b,
                         const ChannelMetric *metric, float tolerance)
{
    const float *va = values + (size_t)a * width, *vb = values + (size_t)b * width;
    float span = times[b] - times[a];
    for (int k = a; k < b; k++) {
        float original[4], reduced[4];
        for (int half = 0; half < 2; half++) {   /* key k itself (k > a), then the middle of [k, k+1] */
            if (half == 0 && k == a) continue;
            float t = half == 0 ? times[k] : 0.5f * (times[k] + times[k + 1]);
            if (half == 0) memcpy(original, values + (size_t)k * width, sizeof(float) * (size_t)width);
            else interpolate(width, values + (size_t)k * width, values + (size_t)(k + 1) * width, 0.5f, original);
            interpolate(width, va, vb, span > 0.0f ? (t - times[a]) / span : 0.0f, reduced);
            if (!(value_error(metric, original, reduced) <= tolerance)) return false;
        }
    }
    return true;
}

/* Reduces one channel in place; returns its new key count. */
static int reduce_channel(float *times, float *values, int width, int count, Interpolation kind,
                          const ChannelMetric *metric, float tolerance)
{
    if (count <= 2 || kind == INTERPOLATION_CUBICSPLINE) return count;
    /* A channel that stays within the tolerance of its first value everywhere (every key, and for
     * rotations the middle of every interval) is a constant: first and last key, both holding the
     * first value exactly, so that the packed clip (pose_fast.c) samples it as one held key. */
    bool constant = true;
    for (int k = 1; constant && k < count; k++) {
        constant = value_error(metric, values, values + (size_t)k * width) <= tolerance;
        if (constant && width == 4) {
            float middle[4];
            interpolate(width, values + (size_t)(k - 1) * width, values + (size_t)k * width, 0.5f, middle);
            constant = value_error(metric, values, middle) <= tolerance;
        }
    }
    if (constant) {
        times[1] = times[count - 1];
        memcpy(values + width, values, sizeof(float) * (size_t)width);
        return 2;
    }
    enum { LONGEST_SEGMENT = 1024 };   /* bounds the greedy search: O(keys * 1024) at worst */
    int kept = 1;   /* key 0 stays where it is */
    int a = 0;
    while (a < count - 1) {
        int b = a + 1;
        if (kind == INTERPOLATION_STEP) {   /* drop keys that hold the value of key a */
            while (b < count - 1 && b - a < LONGEST_SEGMENT &&
                   value_error(metric, values + (size_t)a * width, values + (size_t)b * width) <= tolerance)
                b++;
        } else {
            while (b + 1 < count && b + 1 - a <= LONGEST_SEGMENT &&
                   segment_fits(times, values, width, a, b + 1, metric, tolerance))
                b++;
        }
        /* keep key b, moved down to slot `kept`: kept <= a + 1 <= b, and the search only ever
         * reads indices from the current a on, so nothing it still needs is overwritten */
        times[kept] = times[b];
        memmove(values + (size_t)kept * width, values + (size_t)b * width, sizeof(float) * (size_t)width);
        kept++;
        a = b;
    }
    return kept;
}


/* ---- whole clips -------------------------------------------------------------------------- */

bool model_reduce_keys(Model *model, float relative_tolerance, KeyReduceStats *stats)
{
    memset(stats, 0, sizeof *stats);
    int joints = model->skeleton.joint_count;
    float *reach = calloc((size_t)joints + 1, sizeof(float)), *parent_scale = calloc((size_t)joints + 1, sizeof(float));
    if (!reach || !parent_scale) {
        free(reach), free(parent_scale);
        return false;
    }
    bind_pose_points(model, reach, parent_scale, &stats->diagonal);
    float tolerance = relative_tolerance * stats->diagonal;
    stats->tolerance = tolerance;
    for (int c = 0; c < model->clip_count; c++) {
        Clip *clip = &model->clips[c];
        for (int t = 0; t < clip->track_count; t++) {
            JointTrack *track = &clip->tracks[t];
            int j = track->joint >= 0 && track->joint < joints ? track->joint : -1;
            float r = j >= 0 ? reach[j] : stats->diagonal, ps = j >= 0 ? parent_scale[j] : 1.0f;
            ChannelMetric translation = {CHANNEL_TRANSLATION, r, ps}, rotation = {CHANNEL_ROTATION, r, ps},
                          scale = {CHANNEL_SCALE, r, ps};
            stats->keys_before += track->translation_count + track->rotation_count + track->scale_count;
            track->translation_count = reduce_channel(track->translation_times, (float *)track->translation_values, 3,
                                                      track->translation_count, track->translation_interpolation,
                                                      &translation, tolerance);
            track->rotation_count = reduce_channel(track->rotation_times, (float *)track->rotation_values, 4,
                                                   track->rotation_count, track->rotation_interpolation, &rotation,
                                                   tolerance);
            track->scale_count = reduce_channel(track->scale_times, (float *)track->scale_values, 3, track->scale_count,
                                                track->scale_interpolation, &scale, tolerance);
            stats->keys_after += track->translation_count + track->rotation_count + track->scale_count;
        }
    }
    free(reach), free(parent_scale);
    return true;
}

long model_key_count(const Model *model)
{
    long keys = 0;
    for (int c = 0; c < model->clip_count; c++)
        for (int t = 0; t < model->clips[c].track_count; t++) {
            const JointTrack *track = &model->clips[c].tracks[t];
            keys += track->translation_count + track->rotation_count + track->scale_count;
        }
    return keys;
}

/* ---- measuring what it changed ------------------------------------------------------------ */

/* Joint origins and skinned vertices of `clip` at `time`: reference sampling, hierarchy, palette,
 * then the fast skinning (positions only). */
typedef struct PoseBuffers {
    mat4  *local, *joint_model, **palettes;
    vec3 **positions;
    TrackCursor *cursors;
} PoseBuffers;

static bool pose_buffers_alloc(PoseBuffers *b, const Model *model, int max_tracks)
{
    int joints = model->skeleton.joint_count;
    memset(b, 0, sizeof *b);
    b->local = calloc((size_t)joints + 1, sizeof(mat4));
    b->joint_model = calloc((size_t)joints + 1, sizeof(mat4));
    b->cursors = calloc((size_t)max_tracks + 1, sizeof(TrackCursor));
    b->palettes = calloc((size_t)model->mesh_count + 1, sizeof(mat4 *));
    b->positions = calloc((size_t)model->mesh_count + 1, sizeof(vec3 *));
    if (!b->local || !b->joint_model || !b->cursors || !b->palettes || !b->positions) return false;
    for (int m = 0; m < model->mesh_count; m++) {
        b->palettes[m] = calloc((size_t)model->meshes[m].bone_count + 1, sizeof(mat4));
        b->positions[m] = calloc((size_t)model->meshes[m].vertex_count + 1, sizeof(vec3));
        if (!b->palettes[m] || !b->positions[m]) return false;
    }
    return true;
}

static void pose_buffers_free(PoseBuffers *b, const Model *model)
{
    for (int m = 0; b->palettes && b->positions && m < model->mesh_count; m++) free(b->palettes[m]), free(b->positions[m]);
    free(b->local), free(b->joint_model), free(b->cursors), free(b->palettes), free(b->positions);
}

static void pose_at(const Model *model, const Clip *clip, float time, PoseBuffers *b)
{
    pose_set_rest(&model->skeleton, b->local);
    memset(b->cursors, 0, sizeof(TrackCursor) * (size_t)clip->track_count);
    clip_sample(clip, &model->skeleton, time, b->cursors, b->local);
    pose_local_to_model(&model->skeleton, (const mat4 *)b->local, b->joint_model);
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        skin_palette(mesh, (const mat4 *)b->joint_model, b->palettes[m]);
        SkinJob job = {.vertex_count = mesh->vertex_count, .palette = (const mat4 *)b->palettes[m],
                       .joint_indices = (const uint16_t (*)[SV_MAX_INFLUENCES])mesh->joint_indices,
                       .weights = (const float (*)[SV_MAX_INFLUENCES])mesh->weights,
                       .positions = (const vec3 *)mesh->positions, .out_positions = b->positions[m]};
        skin_job_run(&job, 0, mesh->vertex_count);
    }
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

double key_reduce_measure(const Model *model, const Clip *original, const Clip *reduced, int samples_per_second)
{
    int max_tracks = original->track_count > reduced->track_count ? original->track_count : reduced->track_count;
    PoseBuffers a, b;
    bool ok = pose_buffers_alloc(&a, model, max_tracks) && pose_buffers_alloc(&b, model, max_tracks);
    double worst = ok ? 0.0 : -1.0;
    /* uniform samples, plus every distinct original key time (a dropped key's own time, and for
     * STEP channels the moment the value changes) */
    double spans = ceil((double)original->duration * samples_per_second);   /* NaN / huge: one sample */
    int uniform = (spans >= 0.0 && spans < 1e7 ? (int)spans : 0) + 1;
    long key_total = 0;
    for (int t = 0; t < original->track_count; t++)
        key_total += original->tracks[t].translation_count + original->tracks[t].rotation_count + original->tracks[t].scale_count;
    float *times = ok ? malloc(sizeof(float) * (size_t)(uniform + key_total)) : NULL;
    ok = ok && times;
    int total = 0;
    for (int s = 0; ok && s < uniform; s++) times[total++] = uniform > 1 ? original->duration * (float)s / (float)(uniform - 1) : 0.0f;
    for (int t = 0; ok && t < original->track_count; t++) {
        const JointTrack *track = &original->tracks[t];
        for (int k = 0; k < track->translation_count; k++) times[total++] = track->translation_times[k] - original->start;
        for (int k = 0; k < track->rotation_count; k++) times[total++] = track->rotation_times[k] - original->start;
        for (int k = 0; k < track->scale_count; k++) times[total++] = track->scale_times[k] - original->start;
    }
    if (ok) qsort(times, (size_t)total, sizeof(float), compare_float);
    int distinct = 0;
    for (int s = 0; s < total; s++)
        if (distinct == 0 || times[s] != times[distinct - 1]) times[distinct++] = times[s];
    for (int s = 0; ok && s < distinct; s++) {
        float time = times[s];
        pose_at(model, original, time, &a);
        pose_at(model, reduced, time, &b);
        for (int j = 0; j < model->skeleton.joint_count; j++)
            worst = fmax(worst, glm_vec3_distance(a.joint_model[j][3], b.joint_model[j][3]));
        for (int m = 0; m < model->mesh_count; m++)
            for (int v = 0; model->meshes[m].skinned && v < model->meshes[m].vertex_count; v++)
                worst = fmax(worst, glm_vec3_distance(a.positions[m][v], b.positions[m][v]));
    }
    free(times);
    pose_buffers_free(&a, model);
    pose_buffers_free(&b, model);
    return worst;
}
