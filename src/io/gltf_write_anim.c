/* gltf_write_anim.c — --export-gltf, step 2: every selected clip as one glTF animation.
 *
 * Rules of this step (glTF 2.0 section 3.11; the exactness argument is in docs/export.md):
 *   - A JointTrack channel (T, R or S) is one sampler with the track's own key times and interpolation:
 *     skinview samples LINEAR / STEP / CUBICSPLINE exactly as glTF defines them (anim/sample.c), and the
 *     FBX reader already turned FBX curves into keys at import, so the keys as they are reproduce skinview's
 *     pose. Times are written from 0 (Clip.start subtracted: glTF viewers play from 0). LINEAR rotations
 *     are normalised and sign-aligned (dot(q_k, q_k+1) >= 0), so a reader that slerps without the
 *     short-way fix agrees with skinview's shortest-arc slerp.
 *   - With --fps N every joint channel is instead resampled from skinview's own sampler at N frames a
 *     second plus every key time and written LINEAR (exact at those times, linear between).
 *   - Morph weights: glTF has one `weights` sampler per node covering all its targets. Per mesh: the
 *     union of its tracks' key times; all LINEAR (or single keys) -> LINEAR at the union times (exact:
 *     a piecewise-linear curve stays one on a finer grid); all STEP -> STEP at the union (exact);
 *     all CUBICSPLINE on one set of times -> CUBICSPLINE with their tangents (exact); anything else is
 *     resampled LINEAR at N (or 30) frames a second plus the union (counted in the report). Targets the
 *     clip does not drive keep their default weight.
 *   - The clip's length: when its stated duration runs past its last key, the first channel gets one more
 *     key at the end holding its last value (so the file's animation is as long as skinview's clip).
 */
#include "gltf_write_internal.h"
#include "../anim/anim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One sampler's keys as they will be written. */
typedef struct SamplerKeys {
    int    count;          /* keys */
    int    components;     /* floats per value (3, 4, or the target count of a weights sampler) */
    Interpolation kind;
    float *times;          /* [count], seconds from the clip's start */
    float *values;         /* [count * components], or [3 * count * components] for CUBICSPLINE (a, v, b per key) */
    int    capacity;       /* keys allocated */
} SamplerKeys;

static bool keys_alloc(GltfWriter *w, SamplerKeys *keys, int capacity, int components, Interpolation kind)
{
    keys->count = 0;
    keys->components = components;
    keys->kind = kind;
    keys->capacity = capacity;
    int per_key = components * (kind == INTERPOLATION_CUBICSPLINE ? 3 : 1);
    keys->times = malloc(sizeof(float) * (size_t)(capacity + 1));
    keys->values = malloc(sizeof(float) * (size_t)(capacity + 1) * (size_t)per_key);
    if (!keys->times || !keys->values) {
        free(keys->times), free(keys->values);
        keys->times = keys->values = NULL;
        return gltf_writer_fail(w, "out of memory");
    }
    return true;
}

static void keys_free(SamplerKeys *keys)
{
    free(keys->times);
    free(keys->values);
    keys->times = keys->values = NULL;
}

/* Appends one key (value: components floats; CUBICSPLINE: in-tangent, value, out-tangent). A key whose
 * written time is not after the previous one replaces it (glTF needs strictly increasing times). */
static void keys_push(SamplerKeys *keys, float time, const float *in_tangent, const float *value, const float *out_tangent)
{
    int c = keys->components;
    if (keys->count > 0 && !(time > keys->times[keys->count - 1])) keys->count--;
    int k = keys->count++;
    keys->times[k] = time;
    if (keys->kind == INTERPOLATION_CUBICSPLINE) {
        float *at = &keys->values[(size_t)k * 3 * (size_t)c];
        memcpy(at, in_tangent, sizeof(float) * (size_t)c);
        memcpy(at + c, value, sizeof(float) * (size_t)c);
        memcpy(at + 2 * c, out_tangent, sizeof(float) * (size_t)c);
    } else
        memcpy(&keys->values[(size_t)k * (size_t)c], value, sizeof(float) * (size_t)c);
}

/* The clip runs past its last key: one more key at `end` holding the last value (a CUBICSPLINE
 * segment with equal ends and zero tangents is constant: the last key's out-tangent becomes 0). */
static void keys_extend(SamplerKeys *keys, float end)
{
    if (keys->count == 0 || !(end > keys->times[keys->count - 1])) return;
    int c = keys->components;
    float *zero = calloc((size_t)c, sizeof(float)), *last = malloc(sizeof(float) * (size_t)c);
    if (!zero || !last) {   /* the clip then ends at its last key; out of memory shows up in the next step */
        free(zero), free(last);
        return;
    }
    if (keys->kind == INTERPOLATION_CUBICSPLINE) {
        float *prev = &keys->values[(size_t)(keys->count - 1) * 3 * (size_t)c];
        memcpy(last, prev + c, sizeof(float) * (size_t)c);
        memset(prev + 2 * c, 0, sizeof(float) * (size_t)c);
    } else
        memcpy(last, &keys->values[(size_t)(keys->count - 1) * (size_t)c], sizeof(float) * (size_t)c);
    keys_push(keys, end, zero, last, zero);
    free(zero), free(last);
}

static const char *interpolation_keyword(Interpolation kind)
{
    return kind == INTERPOLATION_STEP ? "STEP" : kind == INTERPOLATION_CUBICSPLINE ? "CUBICSPLINE" : "LINEAR";
}

/* A weights sampler's output (count floats). A mesh with corrective targets (gltf_write_dq.c, `mesh` >= 0) has mostly
 * zero weights (one-hot at each key): written as a sparse accessor when under a third are not zero, else plain. */
static int weights_output(GltfWriter *w, int mesh, const float *values, int count)
{
    int nonzero = 0;
    for (int i = 0; i < count; i++) nonzero += values[i] != 0.0f;
    bool corrected = mesh >= 0 && w->correctives && w->correctives->meshes[mesh].count > 0;
    if (!corrected || nonzero == 0 || nonzero * 3 >= count) return gltf_writer_floats(w, values, count, 1, GW_VIEW_DATA, false);
    uint32_t *indices = malloc(sizeof(uint32_t) * (size_t)nonzero);
    float *kept = malloc(sizeof(float) * (size_t)nonzero);
    if (!indices || !kept) {
        free(indices), free(kept);
        return gltf_writer_fail(w, "out of memory"), -1;
    }
    int n = 0;
    for (int i = 0; i < count; i++)
        if (values[i] != 0.0f) indices[n] = (uint32_t)i, kept[n++] = values[i];
    int accessor = gltf_writer_sparse_floats(w, count, 1, nonzero, indices, kept, false);
    free(indices), free(kept);
    return accessor;
}

/* One sampler + one channel targeting node.path (node: joint `joint`'s; for weights `joint` is the mesh). */
static bool write_channel(GltfWriter *w, cJSON *samplers, cJSON *channels, int node, int joint, const char *path,
                          const SamplerKeys *keys)
{
    if (keys->count == 0) return true;
    int input = gltf_writer_floats(w, keys->times, keys->count, 1, GW_VIEW_DATA, true);
    int output;
    int values = keys->count * (keys->kind == INTERPOLATION_CUBICSPLINE ? 3 : 1);
    if (keys->components <= 4 && strcmp(path, "weights") != 0)
        output = gltf_writer_floats(w, keys->values, values, keys->components, GW_VIEW_DATA, false);
    else   /* weights: SCALAR, targets x keys */
        output = weights_output(w, joint, keys->values, values * keys->components);
    if (w->failed) return false;
    cJSON *sampler = cJSON_CreateObject(), *channel = cJSON_CreateObject();
    if (!sampler || !channel) {
        cJSON_Delete(sampler), cJSON_Delete(channel);
        return gltf_writer_fail(w, "out of memory");
    }
    cJSON_AddNumberToObject(sampler, "input", input);
    cJSON_AddNumberToObject(sampler, "output", output);
    cJSON_AddStringToObject(sampler, "interpolation", interpolation_keyword(keys->kind));
    cJSON_AddNumberToObject(channel, "sampler", cJSON_GetArraySize(samplers));
    cJSON_AddItemToArray(samplers, sampler);
    cJSON *target = cJSON_AddObjectToObject(channel, "target");
    cJSON_AddNumberToObject(target, "node", node);
    cJSON_AddStringToObject(target, "path", path);
    cJSON_AddItemToArray(channels, channel);
    w->report->channels++;
    w->report->keys += keys->count;
    /* the joint's copies (skins that follow their mesh node) move with it: the same sampler */
    for (int i = 0; strcmp(path, "weights") != 0 && i < w->copy_count; i++) {
        if (w->copy_joint[i] != joint) continue;
        cJSON *copy = cJSON_CreateObject();
        cJSON_AddNumberToObject(copy, "sampler", cJSON_GetArraySize(samplers) - 1);
        cJSON *copy_target = cJSON_AddObjectToObject(copy, "target");
        cJSON_AddNumberToObject(copy_target, "node", w->copy_node[i]);
        cJSON_AddStringToObject(copy_target, "path", path);
        cJSON_AddItemToArray(channels, copy);
        w->report->channels++;
    }
    return true;
}

/* ---- joint channels ----------------------------------------------------------------------------------------- */

/* Channel `which` (0 T, 1 R, 2 S) of a track, as its arrays */
typedef struct TrackChannel {
    int           count;
    const float  *times;
    const float  *values;     /* 3 or 4 per key */
    const float  *tangents;   /* CUBICSPLINE: 2 per key (in, out), 3 or 4 floats each; else NULL */
    Interpolation kind;
    int           components;
    const char   *path;
} TrackChannel;

static TrackChannel track_channel(const JointTrack *track, int which)
{
    if (which == 0)
        return (TrackChannel){track->translation_count, track->translation_times, (const float *)track->translation_values,
                              (const float *)track->translation_tangents, track->translation_interpolation, 3, "translation"};
    if (which == 1)
        return (TrackChannel){track->rotation_count, track->rotation_times, (const float *)track->rotation_values,
                              (const float *)track->rotation_tangents, track->rotation_interpolation, 4, "rotation"};
    return (TrackChannel){track->scale_count, track->scale_times, (const float *)track->scale_values,
                          (const float *)track->scale_tangents, track->scale_interpolation, 3, "scale"};
}


static bool write_joint_channel(GltfWriter *w, const Clip *clip, const JointTrack *track, int which, cJSON *samplers,
                                cJSON *channels, float *extend_to)
{
    TrackChannel ch = track_channel(track, which);
    if (ch.count <= 0) return true;
    int node = w->joint_node[track->joint];
    int c = ch.components;
    float fps = w->options->fps;
    SamplerKeys keys;
    if (fps > 0) {
        /* resampled from skinview's own sampler, LINEAR */
        int capacity = (int)fminf(clip->duration * fps + 3.0f, 1e8f) + ch.count;
        float *times = malloc(sizeof(float) * (size_t)capacity);
        if (!times || !keys_alloc(w, &keys, capacity + 1, c, INTERPOLATION_LINEAR)) {
            free(times);
            return gltf_writer_fail(w, "out of memory");
        }
        int n = gltf_writer_resample_times(clip, ch.times, ch.count, fps, times, capacity);
        int cursor = 0;
        for (int i = 0; i < n; i++) {
            float value[4], file_time = clip->start + times[i];
            if (c == 4)
                sample_quat_channel(ch.times, (const versor *)ch.values, (const versor *)ch.tangents, ch.count, ch.kind,
                                    file_time, &cursor, value);
            else
                sample_vec3_channel(ch.times, (const vec3 *)ch.values, (const vec3 *)ch.tangents, ch.count, ch.kind, file_time,
                                    &cursor, value);
            keys_push(&keys, times[i], NULL, value, NULL);
        }
        free(times);
    } else {
        if (!keys_alloc(w, &keys, ch.count + 1, c, ch.kind)) return false;
        for (int k = 0; k < ch.count; k++) {
            const float *v = &ch.values[(size_t)k * (size_t)c];
            const float *a = ch.tangents ? &ch.tangents[(size_t)(2 * k) * (size_t)c] : v;
            const float *b = ch.tangents ? &ch.tangents[(size_t)(2 * k + 1) * (size_t)c] : v;
            keys_push(&keys, ch.times[k] - clip->start, a, v, b);
        }
    }
    if (c == 4 && keys.kind != INTERPOLATION_CUBICSPLINE) {   /* unit, and the short way between neighbours */
        for (int k = 0; k < keys.count; k++) {
            float *q = &keys.values[4 * k];
            double length = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
            if (!(length > 0) || !isfinite(length)) q[0] = q[1] = q[2] = 0, q[3] = 1;
            else
                for (int i = 0; i < 4; i++) q[i] = (float)(q[i] / length);
            if (k > 0) {
                const float *p = &keys.values[4 * (k - 1)];
                if (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0)
                    for (int i = 0; i < 4; i++) q[i] = -q[i];
            }
        }
    }
    if (*extend_to > 0) {
        keys_extend(&keys, *extend_to);
        *extend_to = 0;
    }
    bool ok = write_channel(w, samplers, channels, node, track->joint, ch.path, &keys);
    keys_free(&keys);
    return ok;
}

/* ---- morph weights ------------------------------------------------------------------------------------------ */

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static bool write_morph_channel(GltfWriter *w, const Clip *clip, int mesh_index, cJSON *samplers, cJSON *channels,
                                float *extend_to)
{
    const Mesh *mesh = &w->model->meshes[mesh_index];
    /* the mesh's own targets, then its corrections' (gltf_write_dq.c), with their LINEAR tracks */
    int own = mesh->morph_target_count, targets = gltf_writer_target_count(w, mesh_index);
    const GltfCorrectives *correctives = w->correctives;
    int clip_index = (int)(clip - w->model->clips);
    int corrective_tracks = correctives ? correctives->track_count[clip_index] : 0;
    const MorphTrack **by_target = calloc((size_t)targets, sizeof *by_target);
    if (!by_target) return gltf_writer_fail(w, "out of memory");
    int tracks = 0, key_total = 0;
    bool all_linear = true, all_step = true, all_cubic_same = true;
    const MorphTrack *first_cubic = NULL;
    for (int i = 0; i < clip->morph_track_count + corrective_tracks; i++) {
        const MorphTrack *track = i < clip->morph_track_count ? &clip->morph_tracks[i]
                                                               : &correctives->tracks[clip_index][i - clip->morph_track_count];
        if (track->mesh != mesh_index || track->target < 0 || track->target >= targets || track->key_count <= 0) continue;
        by_target[track->target] = track;
        tracks++;
        key_total += track->key_count;
        bool single = track->key_count == 1;
        if (!single && track->interpolation != INTERPOLATION_LINEAR) all_linear = false;
        if (!single && track->interpolation != INTERPOLATION_STEP) all_step = false;
        if (track->interpolation != INTERPOLATION_CUBICSPLINE || !track->tangents) all_cubic_same = false;
        else if (!first_cubic) first_cubic = track;
        else if (first_cubic->key_count != track->key_count ||
                 memcmp(first_cubic->times, track->times, sizeof(float) * (size_t)track->key_count) != 0)
            all_cubic_same = false;
    }
    if (tracks == 0) {
        free(by_target);
        return true;
    }
    int node = w->mesh_node[mesh_index];
    SamplerKeys keys = {0};
    float *defaults = malloc(sizeof(float) * (size_t)targets * 3);
    float *times = NULL;
    if (!defaults) {
        free(by_target);
        return gltf_writer_fail(w, "out of memory");
    }
    for (int t = 0; t < targets; t++)
        defaults[t] = t < own ? (mesh->morph_default_weights ? mesh->morph_default_weights[t] : 0.0f)
                              : (t - own == correctives->meshes[mesh_index].rest ? 1.0f : 0.0f);
    bool ok = true;
    if (all_cubic_same && w->options->fps <= 0 && tracks > 0) {
        /* every track CUBICSPLINE on the same times: written with their tangents (untracked targets: constant) */
        int n = first_cubic->key_count;
        ok = keys_alloc(w, &keys, n + 1, targets, INTERPOLATION_CUBICSPLINE);
        float *in = defaults + targets, *out = defaults + 2 * targets;
        float *value = malloc(sizeof(float) * (size_t)targets);
        if (!value) ok = gltf_writer_fail(w, "out of memory");
        for (int k = 0; ok && k < n; k++) {
            for (int t = 0; t < targets; t++) {
                const MorphTrack *track = by_target[t];
                value[t] = track ? track->weights[k] : defaults[t];
                in[t] = track ? track->tangents[2 * k] : 0.0f;
                out[t] = track ? track->tangents[2 * k + 1] : 0.0f;
            }
            keys_push(&keys, first_cubic->times[k] - clip->start, in, value, out);
        }
        free(value);
    } else {
        /* the union of the key times (and with mixed kinds or --fps a frame grid), sampled by skinview */
        bool exact = (all_linear || all_step) && w->options->fps <= 0;
        float fps = w->options->fps > 0 ? w->options->fps : 30.0f;
        int grid = exact ? 0 : (int)fminf(clip->duration * fps + 3.0f, 1e8f);
        times = malloc(sizeof(float) * (size_t)(key_total + grid + 1));
        if (!times) ok = gltf_writer_fail(w, "out of memory");
        int n = 0;   /* every key time of the mesh's tracks, file time */
        for (int t = 0; ok && t < targets; t++)
            if (by_target[t])
                for (int k = 0; k < by_target[t]->key_count; k++) times[n++] = by_target[t]->times[k];
        if (ok) qsort(times, (size_t)n, sizeof(float), compare_floats);
        if (ok && !exact) {
            float *merged = malloc(sizeof(float) * (size_t)(key_total + grid + 1));
            if (!merged) ok = gltf_writer_fail(w, "out of memory");
            else {
                n = gltf_writer_resample_times(clip, times, n, fps, merged, key_total + grid + 1);
                free(times);
                times = merged;
            }
            w->report->morph_samplers_resampled++;
        } else
            for (int i = 0; i < n; i++) times[i] -= clip->start;
        if (ok) {
            qsort(times, (size_t)n, sizeof(float), compare_floats);
            ok = keys_alloc(w, &keys, n + 1, targets, exact && all_step && !all_linear ? INTERPOLATION_STEP
                                                                                         : INTERPOLATION_LINEAR);
        }
        float *value = ok ? malloc(sizeof(float) * (size_t)targets) : NULL;
        if (ok && !value) ok = gltf_writer_fail(w, "out of memory");
        for (int i = 0; ok && i < n; i++) {
            if (i > 0 && !(times[i] > times[i - 1])) continue;
            for (int t = 0; t < targets; t++) {
                const MorphTrack *track = by_target[t];
                int cursor = 0;
                value[t] = track ? sample_float_channel(track->times, track->weights, track->tangents, track->key_count,
                                                        track->interpolation, clip->start + times[i], &cursor)
                                 : defaults[t];
            }
            keys_push(&keys, times[i], NULL, value, NULL);
        }
        free(value);
    }
    if (ok && *extend_to > 0) {
        keys_extend(&keys, *extend_to);
        *extend_to = 0;
    }
    if (ok) ok = write_channel(w, samplers, channels, node, mesh_index, "weights", &keys);   /* joint: the mesh */
    keys_free(&keys);
    free(times);
    free(defaults);
    free(by_target);
    return ok;
}

/* ---- clips -------------------------------------------------------------------------------------------------- */

/* Seconds from the clip's start to its last key (every channel, morph weights too). */
static float last_key(const Clip *clip)
{
    float last = 0;
    for (int i = 0; i < clip->track_count; i++)
        for (int which = 0; which < 3; which++) {
            TrackChannel ch = track_channel(&clip->tracks[i], which);
            if (ch.count > 0) last = fmaxf(last, ch.times[ch.count - 1] - clip->start);
        }
    for (int i = 0; i < clip->morph_track_count; i++) {
        const MorphTrack *track = &clip->morph_tracks[i];
        if (track->key_count > 0) last = fmaxf(last, track->times[track->key_count - 1] - clip->start);
    }
    return last;
}

bool gltf_write_animations(GltfWriter *w)
{
    const Model *model = w->model;
    int selected = 0, done = 0;
    for (int c = 0; c < model->clip_count; c++) {
        if (w->report->clip_animation) w->report->clip_animation[c] = -1;
        selected += !w->options->clip_selected || w->options->clip_selected[c];
    }
    cJSON *animations = NULL;
    for (int c = 0; c < model->clip_count && !w->failed; c++) {
        if (w->options->clip_selected && !w->options->clip_selected[c]) continue;
        const Clip *clip = &model->clips[c];
        cJSON *animation = cJSON_CreateObject();
        cJSON *samplers = cJSON_CreateArray(), *channels = cJSON_CreateArray();
        if (!animation || !samplers || !channels) {
            cJSON_Delete(animation), cJSON_Delete(samplers), cJSON_Delete(channels);
            return gltf_writer_fail(w, "out of memory");
        }
        if (clip->name[0]) gltf_writer_name(animation, clip->name);
        cJSON_AddItemToObject(animation, "samplers", samplers);
        cJSON_AddItemToObject(animation, "channels", channels);
        /* the stated end past the last key: the first channel is held to it */
        float end = clip->duration, extend_to = end > last_key(clip) + 1e-6f * fmaxf(1.0f, end) ? end : 0.0f;
        for (int i = 0; i < clip->track_count && !w->failed; i++) {
            const JointTrack *track = &clip->tracks[i];
            if (track->joint < 0 || track->joint >= model->skeleton.joint_count) continue;
            for (int which = 0; which < 3; which++)
                if (!write_joint_channel(w, clip, track, which, samplers, channels, &extend_to)) return false;
        }
        for (int m = 0; m < model->mesh_count && !w->failed; m++)
            if (gltf_writer_target_count(w, m) > 0 && w->mesh_node[m] >= 0)
                if (!write_morph_channel(w, clip, m, samplers, channels, &extend_to)) return false;
        if (cJSON_GetArraySize(channels) == 0) {   /* glTF needs at least one channel */
            cJSON_Delete(animation);
            w->report->clips_without_keys++;
        } else {
            if (!animations) animations = cJSON_AddArrayToObject(w->root, "animations");
            cJSON_AddItemToArray(animations, animation);
            if (w->report->clip_animation) w->report->clip_animation[c] = w->report->animations;
            w->report->animations++;
        }
        done++;
        if (w->options->progress) w->options->progress(w->options->progress_user, done, selected);
    }
    return !w->failed;
}
