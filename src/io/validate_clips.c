/* validate_clips.c — the clip rules of model_validate() (validate.h; docs/robustness.md): each
 * channel's keys finite, sorted by time, one per time (the later one in the file wins), rotations unit length;
 * tracks on joints that exist and at most one track per joint, clips with nothing left dropped. */
#include "validate_internal.h"
#include "key_order.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- clips ----------------------------------------------------------------------- */

typedef struct ChannelRepairs {
    int dropped;        /* keys with a NaN/infinite time or value */
    int reordered;      /* channels whose times were not increasing */
    int duplicates;     /* keys at a time another key already had (the later one kept) */
    int renormalised;   /* rotation keys that were not unit quaternions */
    int tangents;       /* NaN/infinite spline tangents set to 0 */
    int interpolation;  /* unknown interpolation, or a spline without tangents: made linear */
} ChannelRepairs;

/* One channel of a track, seen as arrays of floats: key k is times[k], `width` floats of
 * values (3: vec3, 4: quaternion) and, for splines, 2 * width floats of tangents (in, out). */
typedef struct Channel {
    int           *count;
    float         *times;
    float         *values;
    float        **tangents;     /* *tangents may be NULL */
    Interpolation *interpolation;
    int            width;
} Channel;

/* Moves key `from` to slot `to` (values and tangents). */
static void move_key(const Channel *c, const float *values, const float *tangents, int from, int to)
{
    int w = c->width;
    memmove(&c->values[to * w], &values[from * w], sizeof(float) * (size_t)w);
    if (*c->tangents) memmove(&(*c->tangents)[to * 2 * w], &tangents[from * 2 * w], sizeof(float) * (size_t)(2 * w));
}

/* Keeps a channel's usable keys in place: finite time and value, ordered by time, one key per
 * time (the later one in the file wins, as the importer does); rotations unit length; spline
 * tangents finite. Returns false when out of memory. */
static bool clean_channel(const Channel *c, ChannelRepairs *r)
{
    int w = c->width;
    int count = *c->count;
    if ((unsigned)*c->interpolation >= INTERPOLATION_KINDS ||
        (*c->interpolation == INTERPOLATION_CUBICSPLINE && !*c->tangents)) {
        *c->interpolation = INTERPOLATION_LINEAR;
        r->interpolation++;
    }
    if (*c->interpolation != INTERPOLATION_CUBICSPLINE && *c->tangents) {   /* tangents nobody reads */
        free(*c->tangents);
        *c->tangents = NULL;
    }
    float *tangents = *c->tangents;
    int kept = 0;
    for (int k = 0; k < count; k++) {
        float *value = &c->values[k * w];
        if (!isfinite(c->times[k]) || !validate_finite(value, w)) {
            r->dropped++;
            continue;
        }
        if (w == 4) {   /* rotations: unit quaternions; a zero one becomes the identity */
            float length = sqrtf(glm_vec4_norm2(value));
            if (!isfinite(length) || length < 1e-12f) {
                glm_quat_identity(value);
                r->renormalised++;
            } else if (fabsf(length - 1.0f) > 1e-3f) {
                glm_vec4_scale(value, 1.0f / length, value);
                r->renormalised++;
            }
        }
        if (tangents) {
            float *tangent = &tangents[k * 2 * w];
            for (int i = 0; i < 2 * w; i++)
                if (!isfinite(tangent[i])) {
                    tangent[i] = 0.0f;
                    r->tangents++;
                }
        }
        c->times[kept] = c->times[k];
        move_key(c, c->values, tangents, k, kept);
        kept++;
    }
    *c->count = kept;
    bool increasing = true;
    for (int k = 1; k < kept && increasing; k++) increasing = c->times[k - 1] < c->times[k];
    if (increasing) return true;

    /* sort by time (stable), then keep one key per time */
    KeyOrder *order = malloc(sizeof *order * (size_t)kept);
    float *values_copy = malloc(sizeof(float) * (size_t)kept * (size_t)w);
    float *tangents_copy = tangents ? malloc(sizeof(float) * (size_t)kept * (size_t)(2 * w)) : NULL;
    if (!order || !values_copy || (tangents && !tangents_copy)) {
        free(order);
        free(values_copy);
        free(tangents_copy);
        return false;
    }
    bool sorted = true;
    for (int k = 0; k < kept; k++) {
        order[k].time = c->times[k];
        order[k].index = k;
        if (k > 0 && c->times[k - 1] > c->times[k]) sorted = false;
    }
    if (!sorted) {
        qsort(order, (size_t)kept, sizeof *order, key_order_compare);
        r->reordered++;
    }
    memcpy(values_copy, c->values, sizeof(float) * (size_t)kept * (size_t)w);
    if (tangents) memcpy(tangents_copy, tangents, sizeof(float) * (size_t)kept * (size_t)(2 * w));
    int unique = 0;
    for (int k = 0; k < kept; k++) {
        if (unique > 0 && c->times[unique - 1] == order[k].time) {   /* repeated time: the later key wins */
            move_key(c, values_copy, tangents_copy, order[k].index, unique - 1);
            r->duplicates++;
            continue;
        }
        c->times[unique] = order[k].time;
        move_key(c, values_copy, tangents_copy, order[k].index, unique);
        unique++;
    }
    *c->count = unique;
    free(order);
    free(values_copy);
    free(tangents_copy);
    return true;
}

/* The three channels of a track. */
static void track_channels(JointTrack *track, Channel out[3])
{
    out[0] = (Channel){&track->translation_count, track->translation_times, (float *)track->translation_values,
                       (float **)&track->translation_tangents, &track->translation_interpolation, 3};
    out[1] = (Channel){&track->rotation_count, track->rotation_times, (float *)track->rotation_values,
                       (float **)&track->rotation_tangents, &track->rotation_interpolation, 4};
    out[2] = (Channel){&track->scale_count, track->scale_times, (float *)track->scale_values,
                       (float **)&track->scale_tangents, &track->scale_interpolation, 3};
}

/* 1: keep the clip, 0: drop it (with a warning), -1: reject (error set). */
static int check_clip(Validator *v, Clip *clip, bool *joint_taken)
{
    Skeleton *sk = &v->model->skeleton;
    clip->name[SV_NAME_MAX - 1] = '\0';
    const char *name = clip->name;
    if (clip->track_count < 0 || (clip->track_count > 0 && !clip->tracks))
        return validate_reject(v, "clip '%s' has a corrupt track list", QUOTED(name)), -1;

    ChannelRepairs r = {0};
    int bad_joint = 0, repeated_joint = 0, empty = 0, kept = 0;
    float first_key = INFINITY, last_key = -INFINITY;
    for (int t = 0; t < clip->track_count; t++) {
        JointTrack *track = &clip->tracks[t];
        if (track->joint < 0 || track->joint >= sk->joint_count || joint_taken[track->joint]) {
            if (track->joint < 0 || track->joint >= sk->joint_count) bad_joint++;
            else repeated_joint++;
            joint_track_free(track);
            continue;
        }
        Channel channels[3];
        track_channels(track, channels);
        for (int c = 0; c < 3; c++) {
            int count = *channels[c].count;
            if (count < 0 || (count > 0 && (!channels[c].times || !channels[c].values)))
                return validate_reject(v, "clip '%s', node '%s': a channel has %d keys but no key arrays", QUOTED(name),
                              QUOTED(sk->names[track->joint]), count), -1;
            if (count == 0) continue;
            if (!clean_channel(&channels[c], &r)) return validate_reject(v, "out of memory"), -1;
            count = *channels[c].count;
            if (count > 0) {
                first_key = fminf(first_key, channels[c].times[0]);
                last_key = fmaxf(last_key, channels[c].times[count - 1]);
            }
        }
        if (track->translation_count + track->rotation_count + track->scale_count == 0) {   /* changes nothing */
            empty++;
            joint_track_free(track);
            continue;
        }
        joint_taken[track->joint] = true;
        if (kept != t) {
            clip->tracks[kept] = *track;
            memset(track, 0, sizeof *track);
        }
        kept++;
    }
    clip->track_count = kept;
    for (int t = 0; t < kept; t++) joint_taken[clip->tracks[t].joint] = false;

    /* morph weight tracks: a mesh (after dropped meshes moved the rest down) and one of its
     * targets, one track per target, keys cleaned like the joint channels */
    int bad_morph = 0, repeated_morph = 0, empty_morph = 0, kept_morph = 0, morph_clamped = 0;
    if (clip->morph_track_count < 0 || (clip->morph_track_count > 0 && !clip->morph_tracks))
        return validate_reject(v, "clip '%s' has a corrupt morph track list", QUOTED(name)), -1;
    for (int t = 0; t < clip->morph_track_count; t++) {
        MorphTrack *track = &clip->morph_tracks[t];
        int mesh = track->mesh >= 0 && track->mesh < v->old_mesh_count ? v->mesh_index[track->mesh] : -1;
        bool valid = mesh >= 0 && track->target >= 0 && track->target < v->model->meshes[mesh].morph_target_count;
        bool repeated = false;
        for (int u = 0; valid && u < kept_morph; u++)
            repeated = repeated || (clip->morph_tracks[u].mesh == mesh && clip->morph_tracks[u].target == track->target);
        if (valid && !repeated && track->key_count > 0 && (!track->times || !track->weights))
            return validate_reject(v, "clip '%s': a morph track has %d keys but no key arrays", QUOTED(name), track->key_count), -1;
        if (valid && !repeated && track->key_count > 0) {
            Channel channel = {&track->key_count, track->times, track->weights, &track->tangents,
                               &track->interpolation, 1};
            if (!clean_channel(&channel, &r)) return validate_reject(v, "out of memory"), -1;
            for (int k = 0; k < track->key_count; k++)
                if (fabsf(track->weights[k]) > VALIDATE_MAX_MORPH_WEIGHT) {
                    track->weights[k] = copysignf(VALIDATE_MAX_MORPH_WEIGHT, track->weights[k]);
                    morph_clamped++;
                }
            /* a spline's tangent moves the weight by at most dt * |tangent| over its interval:
             * bounded like the weights (in-tangent of key k: the interval before it, out: after) */
            for (int k = 0; track->tangents && k < track->key_count; k++)
                for (int side = 0; side < 2; side++) {
                    int other = side == 0 ? k - 1 : k + 1;
                    if (other < 0 || other >= track->key_count) continue;
                    float dt = fabsf(track->times[k] - track->times[other]);
                    float *tangent = &track->tangents[2 * k + side];
                    if (dt * fabsf(*tangent) > VALIDATE_MAX_MORPH_WEIGHT) {
                        *tangent = copysignf(VALIDATE_MAX_MORPH_WEIGHT / dt, *tangent);
                        morph_clamped++;
                    }
                }
        }
        if (!valid || repeated || track->key_count <= 0) {
            if (!valid) bad_morph++;
            else if (repeated) repeated_morph++;
            else empty_morph++;
            free(track->times);
            free(track->weights);
            free(track->tangents);
            memset(track, 0, sizeof *track);
            continue;
        }
        track->mesh = mesh;
        first_key = fminf(first_key, track->times[0]);
        last_key = fmaxf(last_key, track->times[track->key_count - 1]);
        if (kept_morph != t) {
            clip->morph_tracks[kept_morph] = *track;
            memset(track, 0, sizeof *track);
        }
        kept_morph++;
    }
    clip->morph_track_count = kept_morph;
    if (bad_morph) validate_repaired(v, "clip '%s': %d morph tracks name a mesh or target that does not exist; dropped", QUOTED(name), bad_morph);
    if (repeated_morph) validate_repaired(v, "clip '%s': %d morph tracks drive a target another track drives; dropped", QUOTED(name), repeated_morph);
    if (empty_morph) validate_repaired(v, "clip '%s': %d morph tracks have no usable keys; dropped", QUOTED(name), empty_morph);
    if (morph_clamped)
        validate_repaired(v, "clip '%s': %d morph weight keys or tangents beyond +-%g clamped", QUOTED(name), morph_clamped,
                 (double)VALIDATE_MAX_MORPH_WEIGHT);

    if (bad_joint) validate_repaired(v, "clip '%s': %d tracks drive nodes that do not exist; dropped", QUOTED(name), bad_joint);
    if (repeated_joint) validate_repaired(v, "clip '%s': %d tracks drive a node another track already drives; dropped", QUOTED(name), repeated_joint);
    if (empty) validate_repaired(v, "clip '%s': %d tracks have no usable keys; dropped", QUOTED(name), empty);
    if (r.dropped) validate_repaired(v, "clip '%s': %d keys with a NaN or infinite time or value; dropped", QUOTED(name), r.dropped);
    if (r.reordered) validate_repaired(v, "clip '%s': %d channels had key times out of order; sorted", QUOTED(name), r.reordered);
    if (r.duplicates) validate_repaired(v, "clip '%s': %d keys repeated an earlier key's time; the later one kept", QUOTED(name), r.duplicates);
    if (r.renormalised) validate_repaired(v, "clip '%s': %d rotation keys were not unit quaternions; normalised", QUOTED(name), r.renormalised);
    if (r.tangents) validate_repaired(v, "clip '%s': %d NaN or infinite spline tangent components set to 0", QUOTED(name), r.tangents);
    if (r.interpolation)
        validate_repaired(v, "clip '%s': %d channels had an unknown interpolation or a spline without tangents; made linear",
                 QUOTED(name), r.interpolation);

    if (kept == 0 && kept_morph == 0) {   /* no keys at all: a clip of the rest pose, lasting what the file says */
        first_key = last_key = 0.0f;
    }
    /* negative key times: the whole clip moves so that its first key is at 0. Playback time is
     * measured from the clip's start, so what plays does not change. */
    if (first_key < 0.0f) {
        float shift = -first_key;
        for (int t = 0; t < kept; t++) {
            Channel channels[3];
            track_channels(&clip->tracks[t], channels);
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < *channels[c].count; k++) channels[c].times[k] += shift;
        }
        for (int t = 0; t < kept_morph; t++)
            for (int k = 0; k < clip->morph_tracks[t].key_count; k++) clip->morph_tracks[t].times[k] += shift;
        validate_repaired(v, "clip '%s': keys start at a negative time (%.6g s); the clip moved to start at 0", QUOTED(name), first_key);
        if (isfinite(clip->start)) clip->start += shift;
        clip->file_time_shift += shift;   /* --info's "start" stays the file's time */
        last_key += shift;
        first_key = 0.0f;
    }
    /* the clip spans [start, start + duration] of the keys' time line: start at or before the
     * first key (keys before it could never play), the end at or after the last key (it must be
     * reachable), the length at most a day */
    if (last_key - first_key > VALIDATE_MAX_CLIP_SECONDS) {
        validate_repaired(v, "clip '%s': keys span %.6g s, more than a day (a unit error?); clip dropped", QUOTED(name),
                 last_key - first_key);
        return 0;
    }
    if (!isfinite(clip->start) || clip->start < 0.0f || clip->start > first_key) {
        validate_repaired(v, "clip '%s': start %.6g s is NaN, negative or after the first key; set to %.6g s", QUOTED(name),
                 clip->start, first_key);
        clip->start = first_key;
    }
    float needed = last_key - clip->start;
    if (!isfinite(clip->duration) || clip->duration < 0.0f || clip->duration > VALIDATE_MAX_CLIP_SECONDS) {
        validate_repaired(v, "clip '%s': duration %.6g s is negative, NaN or more than a day; set to the last key, %.6g s",
                 QUOTED(name), clip->duration, needed);
        clip->duration = needed;
    } else if (clip->duration < needed) {
        validate_repaired(v, "clip '%s': duration %.6g s ends before the last key; extended to %.6g s", QUOTED(name), clip->duration,
                 needed);
        clip->duration = needed;
    }
    /* a duration of 0 (one key, or every key at one time) is a pose (trap 8 in docs/skinning.md): kept */
    return 1;
}

bool validate_clips(Validator *v)
{
    Model *model = v->model;
    if (model->clip_count < 0 || (model->clip_count > 0 && !model->clips)) return validate_reject(v, "the clip list is corrupt");
    bool *joint_taken = calloc((size_t)model->skeleton.joint_count, sizeof *joint_taken);
    if (!joint_taken) return validate_reject(v, "out of memory");
    int kept = 0;
    bool ok = true;
    for (int c = 0; c < model->clip_count; c++) {
        Clip *clip = &model->clips[c];
        int verdict = ok ? check_clip(v, clip, joint_taken) : 1;
        if (verdict < 0) ok = false;
        validate_keep_clip(model, c, verdict != 0, &kept);
    }
    model->clip_count = kept;
    free(joint_taken);
    return ok;
}
