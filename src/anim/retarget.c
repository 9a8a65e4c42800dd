/* retarget.c — one clip of another skeleton baked onto the character (retarget.h: retarget_clip;
 * docs/retargeting.md section 3). Matching: retarget_match.c; the pair's set-up (A, k, C_j):
 * retarget_setup.c; morph tracks: retarget_morph.c. Rotations are composed in double precision
 * (retarget_dquat.h): a clip retargeted onto its own skeleton comes back within float rounding
 * (tests/anim/test_retarget.c). */
#include "retarget.h"
#include "retarget_contact.h"
#include "retarget_dquat.h"
#include "alloc.h"
#include "anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- retargeting a clip ---------------------------------------------------------------------- */

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* CUBICSPLINE channels curve between their keys: the bake takes this many samples per key interval
 * (linear between them), so the curve is followed, not cut into chords at the keys. */
#define RETARGET_CUBIC_SAMPLES 4

/* Every distinct key time of the clip's joint tracks, sorted (file time); at least the start. A clip
 * with a CUBICSPLINE channel gets RETARGET_CUBIC_SAMPLES - 1 more times inside every interval. */
static float *clip_key_times(const Clip *clip, int *count)
{
    size_t total = 0;
    for (int i = 0; i < clip->track_count; i++)
        total += (size_t)clip->tracks[i].translation_count + (size_t)clip->tracks[i].rotation_count +
                 (size_t)clip->tracks[i].scale_count;
    float *times = malloc(sizeof(float) * (total + 2));
    if (!times) return NULL;
    size_t n = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        for (int k = 0; k < track->translation_count; k++) times[n++] = track->translation_times[k];
        for (int k = 0; k < track->rotation_count; k++) times[n++] = track->rotation_times[k];
        for (int k = 0; k < track->scale_count; k++) times[n++] = track->scale_times[k];
    }
    times[n++] = clip->start;
    times[n++] = clip->start + clip->duration;
    qsort(times, n, sizeof(float), compare_float);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (times[i] < clip->start || times[i] > clip->start + clip->duration) continue;
        if (kept > 0 && times[i] - times[kept - 1] <= 1e-6f * (1.0f + fabsf(times[i]))) continue;
        times[kept++] = times[i];
    }
    bool cubic = false;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        cubic = cubic || (track->translation_count > 1 && track->translation_interpolation == INTERPOLATION_CUBICSPLINE) ||
                (track->rotation_count > 1 && track->rotation_interpolation == INTERPOLATION_CUBICSPLINE) ||
                (track->scale_count > 1 && track->scale_interpolation == INTERPOLATION_CUBICSPLINE);
    }
    if (cubic && kept > 1) {
        float *dense = malloc(sizeof(float) * ((kept - 1) * RETARGET_CUBIC_SAMPLES + 1));
        if (!dense) {
            free(times);
            return NULL;
        }
        size_t n_dense = 0;
        for (size_t i = 0; i + 1 < kept; i++)
            for (int k = 0; k < RETARGET_CUBIC_SAMPLES; k++)
                dense[n_dense++] = times[i] + (times[i + 1] - times[i]) * (float)k / RETARGET_CUBIC_SAMPLES;
        dense[n_dense++] = times[kept - 1];
        free(times);
        times = dense;
        kept = n_dense;
    }
    *count = (int)kept;
    return times;
}

/* Deep copy of one channel (times, values, tangents). */
static bool copy_channel(int count, const float *times, const float *values, const float *tangents, int width,
                         float **out_times, float **out_values, float **out_tangents)
{
    if (count <= 0) return true;
    *out_times = malloc(sizeof(float) * (size_t)count);
    *out_values = malloc(sizeof(float) * (size_t)count * (size_t)width);
    if (tangents) *out_tangents = malloc(sizeof(float) * 2 * (size_t)count * (size_t)width);
    if (!*out_times || !*out_values || (tangents && !*out_tangents)) return false;
    memcpy(*out_times, times, sizeof(float) * (size_t)count);
    memcpy(*out_values, values, sizeof(float) * (size_t)count * (size_t)width);
    if (tangents) memcpy(*out_tangents, tangents, sizeof(float) * 2 * (size_t)count * (size_t)width);
    return true;
}

static bool copy_track(const JointTrack *in, int joint, JointTrack *out)
{
    memset(out, 0, sizeof *out);
    out->joint = joint;
    out->translation_count = in->translation_count, out->translation_interpolation = in->translation_interpolation;
    out->rotation_count = in->rotation_count, out->rotation_interpolation = in->rotation_interpolation;
    out->scale_count = in->scale_count, out->scale_interpolation = in->scale_interpolation;
    return copy_channel(in->translation_count, in->translation_times, (const float *)in->translation_values,
                        (const float *)in->translation_tangents, 3, &out->translation_times,
                        (float **)&out->translation_values, (float **)&out->translation_tangents) &&
           copy_channel(in->rotation_count, in->rotation_times, (const float *)in->rotation_values,
                        (const float *)in->rotation_tangents, 4, &out->rotation_times, (float **)&out->rotation_values,
                        (float **)&out->rotation_tangents) &&
           copy_channel(in->scale_count, in->scale_times, (const float *)in->scale_values,
                        (const float *)in->scale_tangents, 3, &out->scale_times, (float **)&out->scale_values,
                        (float **)&out->scale_tangents);
}

/* World rotations of a local pose, in double: world = parent world * local. */
static void world_rotations(const Skeleton *skeleton, const JointTransform *local, double (*world)[4])
{
    for (int j = 0; j < skeleton->joint_count; j++) {
        dquat q;
        dq_from_versor(local[j].rotation, q);
        dq_normalize(q);
        int p = skeleton->parent[j];
        if (p >= 0)
            dq_mul(world[p], q, world[j]);
        else
            dq_copy(q, world[j]);
    }
}

bool retarget_clip(const RetargetSetup *setup, const Clip *clip, RetargetMode mode, Clip *out, int *dropped_tracks)
{
    const Skeleton *source = setup->source, *target = setup->target;
    const RetargetMap *map = setup->map;
    int ns = source->joint_count, nt = target->joint_count;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", clip->name);
    out->start = clip->start;
    out->file_time_shift = clip->file_time_shift;
    out->duration = clip->duration;
    out->source_ticks_per_second = clip->source_ticks_per_second;
    out->source_interpolations = clip->source_interpolations;
    out->source_extrapolations = clip->source_extrapolations;

    /* which target joint each source joint drives */
    int *target_of_source = malloc(sizeof(int) * (size_t)(ns > 0 ? ns : 1));
    if (!target_of_source) return false;
    for (int s = 0; s < ns; s++) target_of_source[s] = -1;
    for (int t = 0; t < nt; t++)
        if (map->source_of_target[t] >= 0) target_of_source[map->source_of_target[t]] = t;
    int dropped = 0;
    for (int i = 0; i < clip->track_count; i++) dropped += target_of_source[clip->tracks[i].joint] < 0;
    if (dropped_tracks) *dropped_tracks = dropped;

    if (mode == RETARGET_OFF) {   /* the source's local keys, re-indexed */
        out->tracks = calloc((size_t)(clip->track_count > 0 ? clip->track_count : 1), sizeof(JointTrack));
        bool ok = out->tracks != NULL;
        for (int i = 0; ok && i < clip->track_count; i++) {
            int t = target_of_source[clip->tracks[i].joint];
            if (t < 0) continue;
            ok = copy_track(&clip->tracks[i], t, &out->tracks[out->track_count]);
            out->track_count++;
        }
        free(target_of_source);
        if (!ok) clip_free(out);
        return ok;
    }

    /* RETARGET_ON: one key per distinct source key time, for every matched joint */
    int key_count = 0;
    float *times = clip_key_times(clip, &key_count);
    int tracked = 0;
    for (int t = 0; t < nt; t++) tracked += map->source_of_target[t] >= 0;
    bool ok = times != NULL;
    JointTransform *s_local = anim_zeroed((size_t)ns, sizeof(JointTransform), &ok);
    TrackCursor *cursors = anim_zeroed((size_t)clip->track_count, sizeof(TrackCursor), &ok);
    double (*s_world)[4] = anim_zeroed((size_t)ns, sizeof(dquat), &ok);
    double (*t_world)[4] = anim_zeroed((size_t)nt, sizeof(dquat), &ok);
    mat4 *s_mat = anim_zeroed((size_t)ns, sizeof(mat4), &ok), *s_model = anim_zeroed((size_t)ns, sizeof(mat4), &ok);
    mat4 *t_model = anim_zeroed((size_t)nt, sizeof(mat4), &ok);
    int *track_of_target = anim_zeroed((size_t)nt, sizeof(int), &ok);
    out->tracks = anim_zeroed((size_t)tracked, sizeof(JointTrack), &ok);
    for (int t = 0; ok && t < nt; t++) {
        track_of_target[t] = -1;
        if (map->source_of_target[t] < 0) continue;
        JointTrack *track = &out->tracks[out->track_count];
        track_of_target[t] = out->track_count++;
        track->joint = t;
        track->rotation_count = key_count;
        track->rotation_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
        track->rotation_values = anim_zeroed((size_t)key_count, sizeof(versor), &ok);
        if (t == setup->target_hips || setup->copy_translation[t]) {
            track->translation_count = key_count;
            track->translation_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
            track->translation_values = anim_zeroed((size_t)key_count, sizeof(vec3), &ok);
        }
        if (setup->copy_translation[t]) {
            track->scale_count = key_count;
            track->scale_times = anim_zeroed((size_t)key_count, sizeof(float), &ok);
            track->scale_values = anim_zeroed((size_t)key_count, sizeof(vec3), &ok);
        }
    }
    /* the source's foot contacts at these keys (weights 0 when setup->foot_contacts is off) */
    FootContacts contacts = {0};
    ok = ok && foot_contacts_find(setup, clip, times, key_count, &contacts);
    dquat align_inverse;
    dq_conjugate(setup->align, align_inverse);
    for (int k = 0; ok && k < key_count; k++) {
        /* the source pose at this key: local TRS, world rotations (double), model matrices */
        for (int s = 0; s < ns; s++) s_local[s] = source->rest_trs[s];
        clip_sample_trs(clip, source, times[k] - clip->start, cursors, s_local);
        world_rotations(source, s_local, s_world);
        for (int s = 0; s < ns; s++) {
            bool tracked_joint = target_of_source[s] >= 0 || s == setup->source_hips;
            if (tracked_joint) joint_transform_to_matrix(&s_local[s], s_mat[s]);
            else glm_mat4_copy(source->rest_local[s], s_mat[s]);
        }
        pose_local_to_model(source, s_mat, s_model);

        for (int t = 0; t < nt; t++) {
            int p = target->parent[t], s = map->source_of_target[t];
            JointTransform local = target->rest_trs[t];
            if (s < 0) {   /* unmatched: the character's rest, carried by its parent */
                dquat q;
                dq_from_versor(local.rotation, q);
                dq_normalize(q);
                if (p >= 0) dq_mul(t_world[p], q, t_world[t]);
                else dq_copy(q, t_world[t]);
                if (p >= 0) glm_mat4_mul(t_model[p], target->rest_local[t], t_model[t]);
                else glm_mat4_copy(target->rest_local[t], t_model[t]);
                continue;
            }
            /* D = Ws(t) Ws_rest^-1; Wt(t) = A D A^-1 C_j Wt_rest */
            dquat delta, rest_inverse, turned;
            dq_conjugate(setup->source_rest_world[s], rest_inverse);
            dq_mul(s_world[s], rest_inverse, delta);
            dq_mul(setup->align, delta, turned);
            dq_mul(turned, align_inverse, turned);
            dq_mul(turned, setup->rest_alignment[t], turned);
            dq_mul(turned, setup->target_rest_world[t], t_world[t]);
            /* local = Wt(parent)^-1 Wt */
            dquat q;
            if (p >= 0) {
                dquat parent_inverse;
                dq_conjugate(t_world[p], parent_inverse);
                dq_mul(parent_inverse, t_world[t], q);
            } else {
                dq_copy(t_world[t], q);
            }
            dq_normalize(q);
            JointTrack *track = &out->tracks[track_of_target[t]];
            versor *keys = track->rotation_values;
            for (int i = 0; i < 4; i++) keys[k][i] = (float)q[i];
            if (k > 0 && glm_vec4_dot(keys[k], keys[k - 1]) < 0.0f) glm_vec4_negate(keys[k]);   /* the short way */
            track->rotation_times[k] = times[k];
            glm_quat_copy(keys[k], local.rotation);
            if (setup->copy_translation[t]) {   /* same rig: the source's own translation and scale */
                glm_vec3_copy(s_local[s].translation, local.translation);
                glm_vec3_copy(s_local[s].scale, local.scale);
                glm_vec3_copy(local.scale, track->scale_values[k]);
                track->scale_times[k] = times[k];
            }
            if (t == setup->target_hips) {
                /* p_t = k A p_s (scene space), then into the parent's frame */
                double ps[3] = {s_model[s][3][0], s_model[s][3][1], s_model[s][3][2]}, pt[3];
                dq_rotate(setup->align, ps, pt);
                vec4 world = {(float)(setup->hip_scale * pt[0]), (float)(setup->hip_scale * pt[1]),
                              (float)(setup->hip_scale * pt[2]), 1.0f};
                vec4 in_parent;
                if (p >= 0) {
                    mat4 parent_inverse;
                    glm_mat4_inv(t_model[p], parent_inverse);
                    glm_mat4_mulv(parent_inverse, world, in_parent);
                } else {
                    glm_vec4_copy(world, in_parent);
                }
                if (!setup->copy_translation[t]) glm_vec3_copy(in_parent, local.translation);
            }
            if (track->translation_count > 0) {
                glm_vec3_copy(local.translation, track->translation_values[k]);
                track->translation_times[k] = times[k];
            }
            mat4 local_matrix;
            joint_transform_to_matrix(&local, local_matrix);
            if (p >= 0) glm_mat4_mul(t_model[p], local_matrix, t_model[t]);
            else glm_mat4_copy(local_matrix, t_model[t]);
        }
    }
    /* the legs bent where the source's feet are planted: new keys for thigh, shin and foot */
    ok = ok && foot_contacts_apply(setup, &contacts, times, out);
    foot_contacts_free(&contacts);
    free(times), free(s_local), free(cursors), free(s_world), free(t_world), free(s_mat), free(s_model), free(t_model);
    free(track_of_target), free(target_of_source);
    if (!ok) clip_free(out);
    return ok;
}
