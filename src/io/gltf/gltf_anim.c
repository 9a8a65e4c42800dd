/* gltf_anim.c — step 7 of the glTF reader: animations -> clips.
 *
 * Rules of this step (glTF 2.0 section 3.11 "Animations"):
 *   - One Clip per animation, in file order; its name, or "" when it has none; a repeated name gets
 *     a suffix ("Walk (2)", as for every format).
 *   - A channel drives target.node's translation, rotation, scale or morph `weights` with its
 *     sampler: input = key times in seconds (SCALAR), output = values (VEC3, VEC4 or, for weights,
 *     SCALAR x the node's target count per key), FLOAT or normalized integers (gltf_accessor.c
 *     applies the spec's formulas: a rotation stored as normalized BYTE is read as such).
 *   - interpolation LINEAR (the default), STEP or CUBICSPLINE. CUBICSPLINE outputs hold three
 *     elements per key: in-tangent a_k, value v_k, out-tangent b_k; the tangents are kept as
 *     JointTrack / MorphTrack tangents[2k] = a_k, tangents[2k + 1] = b_k (units per second).
 *   - Channels of one node in one clip form one JointTrack; each path has its own key times.
 *     Rotation values are normalised (a zero quaternion becomes the identity). Key times must be
 *     finite; times out of order are sorted (one warning per clip), a repeated time keeps the later
 *     key (one warning per clip). Any non-finite value refuses the file.
 *   - `weights` channels drive every Model mesh on the node (one per primitive) with that many
 *     targets: one MorphTrack per (mesh, target).
 *   - A channel whose node is not in the scene (or that has no node) is ignored and counted in
 *     stats.channels_without_node.
 *   - The clip covers [first key, last key] of all its channels: Clip.start is the first key's
 *     time (glTF files may start after 0), Clip.duration the rest. source_ticks_per_second is 0:
 *     glTF times are seconds, the file states no tick rate.
 */
#include "gltf_internal.h"
#include "io/key_order.h"

#include <stdlib.h>
#include <string.h>

static Interpolation interpolation_of(const cJSON *sampler)
{
    const char *kind = gltf_string(sampler, "interpolation");
    if (kind && strcmp(kind, "STEP") == 0) return INTERPOLATION_STEP;
    if (kind && strcmp(kind, "CUBICSPLINE") == 0) return INTERPOLATION_CUBICSPLINE;
    return INTERPOLATION_LINEAR;   /* the default */
}

/* The keys of one sampler, sorted and without repeated times: keep[k] = the source key of kept key k. */
typedef struct Keys {
    int    count;     /* kept */
    float *times;
    int   *keep;
} Keys;

typedef struct ClipState {
    int reordered, repeated;
} ClipState;

static bool clean_keys(Gltf *g, const float *input, int count, Keys *keys, ClipState *state, const char *clip_name)
{
    KeyOrder *order = malloc(sizeof *order * (size_t)count);
    keys->times = malloc(sizeof(float) * (size_t)count);
    keys->keep = malloc(sizeof(int) * (size_t)count);
    if (!order || !keys->times || !keys->keep) {
        free(order);
        return gltf_fail(g, "out of memory");
    }
    bool sorted = true;
    for (int k = 0; k < count; k++) {
        if (!isfinite(input[k])) {
            free(order);
            return gltf_fail(g, "clip '%s': non-finite key time", QUOTED(clip_name));
        }
        order[k] = (KeyOrder){input[k], k};
        if (k > 0 && input[k] < input[k - 1]) sorted = false;
    }
    if (!sorted) {
        qsort(order, (size_t)count, sizeof *order, key_order_compare);
        state->reordered++;
    }
    int kept = 0;
    for (int k = 0; k < count; k++) {
        if (kept > 0 && keys->times[kept - 1] == order[k].time) {   /* repeated time: the later key wins */
            keys->keep[kept - 1] = order[k].index;
            state->repeated++;
            continue;
        }
        keys->times[kept] = order[k].time;
        keys->keep[kept] = order[k].index;
        kept++;
    }
    keys->count = kept;
    free(order);
    return true;
}

static JointTrack *track_of_joint(Clip *clip, int joint, int capacity)
{
    for (int t = 0; t < clip->track_count; t++)
        if (clip->tracks[t].joint == joint) return &clip->tracks[t];
    if (clip->track_count >= capacity) return NULL;
    JointTrack *track = &clip->tracks[clip->track_count++];
    memset(track, 0, sizeof *track);
    track->joint = joint;
    return track;
}

/* Fills one path of a joint track: times, values (n components) and tangents from input/output. */
static bool fill_path(Gltf *g, const Keys *keys, const float *output, int n, Interpolation kind, int *count,
                      float **times, float **values, float **tangents, Interpolation *slot, bool quaternion,
                      const char *clip_name)
{
    free(*times), free(*values), free(*tangents);   /* a second channel for the same path replaces the first */
    *times = malloc(sizeof(float) * (size_t)keys->count);
    *values = malloc(sizeof(float) * (size_t)n * (size_t)keys->count);
    *tangents = kind == INTERPOLATION_CUBICSPLINE ? malloc(sizeof(float) * 2 * (size_t)n * (size_t)keys->count) : NULL;
    *count = 0;
    if (!*times || !*values || (kind == INTERPOLATION_CUBICSPLINE && !*tangents)) return gltf_fail(g, "out of memory");
    int per_key = kind == INTERPOLATION_CUBICSPLINE ? 3 : 1;
    for (int k = 0; k < keys->count; k++) {
        size_t source = (size_t)keys->keep[k] * (size_t)per_key;
        const float *value = output + (source + (per_key == 3 ? 1 : 0)) * (size_t)n;
        float *to = *values + (size_t)k * (size_t)n;
        for (int c = 0; c < n; c++)
            if (!isfinite(value[c])) return gltf_fail(g, "clip '%s': non-finite key value", QUOTED(clip_name));
        memcpy(to, value, sizeof(float) * (size_t)n);
        if (quaternion) {   /* a unit quaternion; a zero one becomes the identity */
            float length = sqrtf(to[0] * to[0] + to[1] * to[1] + to[2] * to[2] + to[3] * to[3]);
            if (length > 1e-12f && isfinite(length))
                for (int c = 0; c < 4; c++) to[c] /= length;
            else to[0] = to[1] = to[2] = 0.0f, to[3] = 1.0f;
        }
        if (per_key == 3) {
            const float *in = output + source * (size_t)n, *out = output + (source + 2) * (size_t)n;
            for (int c = 0; c < n; c++)
                if (!isfinite(in[c]) || !isfinite(out[c])) return gltf_fail(g, "clip '%s': non-finite tangent", QUOTED(clip_name));
            memcpy(*tangents + (size_t)(2 * k) * (size_t)n, in, sizeof(float) * (size_t)n);       /* a_k */
            memcpy(*tangents + (size_t)(2 * k + 1) * (size_t)n, out, sizeof(float) * (size_t)n);  /* b_k */
        }
        (*times)[k] = keys->times[k];
    }
    *count = keys->count;
    *slot = kind;
    return true;
}

/* The morph tracks of one `weights` channel: every mesh on the joint with target_count targets. */
static bool add_weight_tracks(Gltf *g, Clip *clip, int *capacity, int joint, const Keys *keys, const float *output,
                              int target_count, Interpolation kind, const char *clip_name)
{
    Model *model = g->model;
    int per_key = kind == INTERPOLATION_CUBICSPLINE ? 3 : 1;
    size_t targets = (size_t)target_count;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->node_joint != joint || mesh->morph_target_count != target_count) continue;
        for (int t = 0; t < target_count; t++) {
            if (clip->morph_track_count == *capacity) {
                int grown = *capacity ? 2 * *capacity : 16;
                MorphTrack *bigger = realloc(clip->morph_tracks, sizeof *bigger * (size_t)grown);
                if (!bigger) return gltf_fail(g, "out of memory");
                clip->morph_tracks = bigger;
                *capacity = grown;
            }
            MorphTrack *track = &clip->morph_tracks[clip->morph_track_count++];
            *track = (MorphTrack){.mesh = m, .target = t, .key_count = keys->count, .interpolation = kind};
            track->times = malloc(sizeof(float) * (size_t)keys->count);
            track->weights = malloc(sizeof(float) * (size_t)keys->count);
            track->tangents = per_key == 3 ? malloc(sizeof(float) * 2 * (size_t)keys->count) : NULL;
            if (!track->times || !track->weights || (per_key == 3 && !track->tangents)) return gltf_fail(g, "out of memory");
            for (int k = 0; k < keys->count; k++) {
                size_t key = (size_t)keys->keep[k] * (size_t)per_key;   /* element of the output, target-major */
                track->times[k] = keys->times[k];
                if (per_key == 1) {
                    track->weights[k] = output[key * targets + (size_t)t];
                } else {
                    track->tangents[2 * k] = output[key * targets + (size_t)t];             /* a_k, in-tangent */
                    track->weights[k] = output[(key + 1) * targets + (size_t)t];           /* v_k */
                    track->tangents[2 * k + 1] = output[(key + 2) * targets + (size_t)t];  /* b_k, out-tangent */
                }
                if (!isfinite(track->weights[k]) || (per_key == 3 && (!isfinite(track->tangents[2 * k]) ||
                                                                      !isfinite(track->tangents[2 * k + 1]))))
                    return gltf_fail(g, "clip '%s': non-finite morph weight", QUOTED(clip_name));
            }
        }
    }
    return true;
}

static bool read_channel(Gltf *g, const cJSON *animation, const cJSON *channel, Clip *clip, int *morph_capacity,
                         ClipState *state)
{
    Model *model = g->model;
    const cJSON *target = gltf_item(channel, "target");
    const char *path = gltf_string(target, "path");
    int node = gltf_int(target, "node", -1);
    int joint = node >= 0 && node < g->node_count ? g->joint_of_node[node] : -1;
    if (joint < 0) {
        model->stats.channels_without_node++;
        return true;
    }
    if (!path) return true;
    bool is_weights = strcmp(path, "weights") == 0;
    int components = strcmp(path, "rotation") == 0 ? 4 : is_weights ? 1 : 3;
    if (!is_weights && strcmp(path, "translation") != 0 && strcmp(path, "rotation") != 0 && strcmp(path, "scale") != 0)
        return true;   /* "pointer" (KHR_animation_pointer) and the like: not ours */
    const cJSON *sampler = gltf_at(gltf_item(animation, "samplers"), gltf_int(channel, "sampler", -1));
    if (!sampler) return gltf_fail(g, "damaged glTF file: clip '%s': a channel names a sampler that does not exist", QUOTED(clip->name));
    Interpolation kind = interpolation_of(sampler);
    int per_key = kind == INTERPOLATION_CUBICSPLINE ? 3 : 1;
    int target_count = 0;
    if (is_weights) {   /* the targets of the node's meshes */
        for (int m = 0; m < model->mesh_count; m++)
            if (model->meshes[m].node_joint == joint && model->meshes[m].morph_target_count > 0)
                target_count = model->meshes[m].morph_target_count;
        if (target_count == 0) return true;   /* nothing on that node to drive */
    }
    float *input = NULL, *output = NULL;
    int key_count = 0, output_count = 0;
    if (!gltf_read_floats(g, gltf_int(sampler, "input", -1), 1, &input, &key_count, NULL)) return false;
    if (!gltf_read_floats(g, gltf_int(sampler, "output", -1), components, &output, &output_count, NULL)) {
        free(input);
        return false;
    }
    long long expected = (long long)key_count * per_key * (is_weights ? target_count : 1);
    bool ok = true;
    if (output_count != expected)
        ok = gltf_fail(g, "damaged glTF file: clip '%s': a %s sampler has %d keys but %d output elements (%lld expected)",
                       QUOTED(clip->name), path, key_count, output_count, expected);
    for (int i = 0; ok && i < output_count * components; i++)   /* every key, also one a repeated time drops */
        if (!isfinite(output[i])) ok = gltf_fail(g, "clip '%s', node '%s': non-finite %s key", QUOTED(clip->name),
                                                 QUOTED(model->skeleton.names[joint]), path);
    Keys keys = {0};
    if (ok) ok = clean_keys(g, input, key_count, &keys, state, clip->name);
    if (ok && is_weights) {
        ok = add_weight_tracks(g, clip, morph_capacity, joint, &keys, output, target_count, kind, clip->name);
    } else if (ok) {
        JointTrack *track = track_of_joint(clip, joint, g->node_count + 1);
        if (!track) ok = gltf_fail(g, "out of memory");
        else if (components == 4)
            ok = fill_path(g, &keys, output, 4, kind, &track->rotation_count, &track->rotation_times,
                           (float **)&track->rotation_values, (float **)&track->rotation_tangents,
                           &track->rotation_interpolation, true, clip->name);
        else if (strcmp(path, "translation") == 0)
            ok = fill_path(g, &keys, output, 3, kind, &track->translation_count, &track->translation_times,
                           (float **)&track->translation_values, (float **)&track->translation_tangents,
                           &track->translation_interpolation, false, clip->name);
        else
            ok = fill_path(g, &keys, output, 3, kind, &track->scale_count, &track->scale_times,
                           (float **)&track->scale_values, (float **)&track->scale_tangents, &track->scale_interpolation,
                           false, clip->name);
    }
    free(keys.times);
    free(keys.keep);
    free(input);
    free(output);
    return ok;
}

bool gltf_animations(Gltf *g)
{
    Model *model = g->model;
    int count = cJSON_IsArray(g->animations) ? cJSON_GetArraySize(g->animations) : 0;
    if (count == 0) return true;
    model->clips = calloc((size_t)count, sizeof *model->clips);
    if (!model->clips) return gltf_fail(g, "out of memory");
    const cJSON *animation = NULL;
    for (int a = 0; a < count; a++) {
        animation = a == 0 ? g->animations->child : animation->next;
        Clip *clip = &model->clips[model->clip_count++];
        const char *name = gltf_string(animation, "name");
        model_name_clip(model, a, name ? name : "", name ? strlen(name) : 0);
        const cJSON *channels = gltf_item(animation, "channels"), *channel;
        int channel_count = cJSON_IsArray(channels) ? cJSON_GetArraySize(channels) : 0;
        if (channel_count > 0) {
            clip->tracks = calloc((size_t)g->node_count + 1, sizeof *clip->tracks);   /* at most one per node */
            if (!clip->tracks) return gltf_fail(g, "out of memory");
        }
        int morph_capacity = 0;
        ClipState state = {0, 0};
        cJSON_ArrayForEach(channel, gltf_list(channels))
            if (!read_channel(g, animation, channel, clip, &morph_capacity, &state)) return false;
        /* tracks without keys change nothing */
        int kept = 0;
        for (int t = 0; t < clip->track_count; t++) {
            JointTrack *track = &clip->tracks[t];
            if (track->translation_count + track->rotation_count + track->scale_count == 0) joint_track_free(track);
            else clip->tracks[kept++] = *track;
        }
        clip->track_count = kept;
        /* [first key, last key] */
        float first = HUGE_VALF, last = -HUGE_VALF;
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *track = &clip->tracks[t];
            const float *times[3] = {track->translation_times, track->rotation_times, track->scale_times};
            int counts[3] = {track->translation_count, track->rotation_count, track->scale_count};
            for (int c = 0; c < 3; c++)
                if (counts[c] > 0) first = fminf(first, times[c][0]), last = fmaxf(last, times[c][counts[c] - 1]);
        }
        for (int t = 0; t < clip->morph_track_count; t++) {
            const MorphTrack *track = &clip->morph_tracks[t];
            first = fminf(first, track->times[0]);
            last = fmaxf(last, track->times[track->key_count - 1]);
        }
        clip->start = first < HUGE_VALF ? first : 0.0f;
        clip->duration = last > clip->start ? last - clip->start : 0.0f;
        clip->source_ticks_per_second = 0.0f;
        if (state.reordered)
            gltf_warn(g, "clip '%s': %d channels had key times out of order; sorted", QUOTED(clip->name), state.reordered);
        if (state.repeated)
            gltf_warn(g, "clip '%s': %d keys repeated an earlier key's time; the later one kept", QUOTED(clip->name), state.repeated);
    }
    return true;
}
