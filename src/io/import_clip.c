/* import_clip.c — stage 6: clips and their channels.
 *
 * Rules of this stage:
 *   - One Clip per aiAnimation; a repeated name gets a suffix ("Walk (2)").
 *   - Ticks -> seconds once, here. Assimp leaves mTicksPerSecond at 0 when the file does
 *     not say; Assimp's own viewer (tools/assimp_view/AnimEvaluator.cpp:
 *     `mAnim->mTicksPerSecond != 0.0 ? mAnim->mTicksPerSecond : 25.0`) then assumes 25
 *     ticks per second; so do we.
 *   - Each channel becomes one JointTrack on the joint import_find_channel_joint binds it
 *     to; keys are sorted by time and a repeated time keeps the file's last key; any
 *     non-finite key or time refuses the file. A channel without keys is dropped.
 *   - A clip is [first key, last key]: keys that start after 0 keep their authored
 *     start (Clip.start), and the clip lasts at least until the file's own duration.
 *   - Every channel is LINEAR here: Assimp 5.2 keeps no interpolation kind (glTF, whose samplers
 *     may be STEP or CUBICSPLINE, is read by src/io/gltf/, not by Assimp).
 */
#include "import_internal.h"
#include "key_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TICKS_PER_SECOND 25.0

/* Orders one channel's keys by time and keeps, for each distinct time (in float seconds),
 * the last key of the file. Writes the kept key indices to keep[] and their times to times[].
 * Returns the kept count, or -1 on a non-finite time. */
static int clean_key_times(Importer *im, const double *ticks, int count, double ticks_per_second, KeyOrder *scratch, int *keep,
                           float *times, float *last_time)
{
    for (int k = 0; k < count; k++) {
        if (!isfinite(ticks[k])) return -1;
        scratch[k].time = ticks[k] / ticks_per_second;
        scratch[k].index = k;
    }
    bool sorted = true;
    for (int k = 1; k < count && sorted; k++) sorted = scratch[k - 1].time <= scratch[k].time;
    if (!sorted) {
        qsort(scratch, (size_t)count, sizeof *scratch, key_order_compare);
        im->channels_reordered++;   /* a repair: warned about once per clip (import_clips) */
    }
    int kept = 0;
    for (int k = 0; k < count; k++) {
        float t = (float)scratch[k].time;
        if (kept > 0 && times[kept - 1] == t) {   /* repeated time: the later key wins */
            keep[kept - 1] = scratch[k].index;
            /* a repair to report only when the file itself repeats the time: keys a few ticks
             * apart that meet in float seconds (long FBX clips) are a precision limit, not damage */
            if (k > 0 && scratch[k - 1].time == scratch[k].time) im->keys_repeated++;
            continue;
        }
        times[kept] = t;
        keep[kept] = scratch[k].index;
        kept++;
    }
    if (kept > 0 && times[kept - 1] > *last_time) *last_time = times[kept - 1];
    return kept;
}

static bool build_track(Importer *im, const struct aiNodeAnim *channel, double tps, const char *clip_name,
                        JointTrack *track, float *last_time)
{
    unsigned counts[3] = {channel->mNumPositionKeys, channel->mNumRotationKeys, channel->mNumScalingKeys};
    unsigned most = 0;
    for (int c = 0; c < 3; c++) {
        if (counts[c] > 50000000u) return import_fail(im, "clip '%s' has an absurd number of keys", QUOTED(clip_name));
        if (counts[c] > most) most = counts[c];
    }
    if ((channel->mNumPositionKeys && !channel->mPositionKeys) || (channel->mNumRotationKeys && !channel->mRotationKeys) ||
        (channel->mNumScalingKeys && !channel->mScalingKeys))
        return import_fail(im, "clip '%s' has a channel without key data", QUOTED(clip_name));
    if (most == 0) return true;
    /* every key is checked, also those a repeated time would drop: NaN/Inf means a broken file */
    for (unsigned k = 0; k < channel->mNumPositionKeys; k++) {
        const struct aiVector3D *v = &channel->mPositionKeys[k].mValue;
        if (!import_finite3(v->x, v->y, v->z))
            return import_fail(im, "clip '%s', channel '%s': non-finite translation key", QUOTED(clip_name), QUOTED(channel->mNodeName.data));
    }
    for (unsigned k = 0; k < channel->mNumRotationKeys; k++) {
        const struct aiQuaternion *q = &channel->mRotationKeys[k].mValue;
        if (!isfinite(q->w) || !import_finite3(q->x, q->y, q->z))
            return import_fail(im, "clip '%s', channel '%s': non-finite rotation key", QUOTED(clip_name), QUOTED(channel->mNodeName.data));
    }
    for (unsigned k = 0; k < channel->mNumScalingKeys; k++) {
        const struct aiVector3D *v = &channel->mScalingKeys[k].mValue;
        if (!import_finite3(v->x, v->y, v->z))
            return import_fail(im, "clip '%s', channel '%s': non-finite scale key", QUOTED(clip_name), QUOTED(channel->mNodeName.data));
    }

    KeyOrder *scratch = malloc(sizeof(KeyOrder) * most);
    int *keep = malloc(sizeof(int) * most);
    double *ticks = malloc(sizeof(double) * most);
    if (!scratch || !keep || !ticks) {
        free(scratch);
        free(keep);
        free(ticks);
        return import_fail(im, "out of memory");
    }
    bool ok = true;
    const char *channel_name = channel->mNodeName.data;

    /* translation, rotation, scale: the same steps on each channel's own keys */
    float **times_of[3] = {&track->translation_times, &track->rotation_times, &track->scale_times};
    int *count_of[3] = {&track->translation_count, &track->rotation_count, &track->scale_count};
    for (int c = 0; ok && c < 3; c++) {
        int n = (int)counts[c];
        if (n <= 0) continue;
        for (int k = 0; k < n; k++)
            ticks[k] = c == 0 ? channel->mPositionKeys[k].mTime : c == 1 ? channel->mRotationKeys[k].mTime
                                                                       : channel->mScalingKeys[k].mTime;
        *times_of[c] = malloc(sizeof(float) * (size_t)n);
        void *values = malloc((c == 1 ? sizeof(versor) : sizeof(vec3)) * (size_t)n);
        if (c == 0) track->translation_values = values;
        else if (c == 1) track->rotation_values = values;
        else track->scale_values = values;
        if (!*times_of[c] || !values) {
            ok = import_fail(im, "out of memory");
            break;
        }
        int kept = clean_key_times(im, ticks, n, tps, scratch, keep, *times_of[c], last_time);
        if (kept < 0) {
            ok = import_fail(im, "clip '%s', channel '%s': non-finite key time", QUOTED(clip_name), QUOTED(channel_name));
            break;
        }
        for (int k = 0; k < kept; k++) {
            if (c == 1) {
                import_quat_from_assimp(&channel->mRotationKeys[keep[k]].mValue, track->rotation_values[k]);
                continue;
            }
            const struct aiVector3D *v = c == 0 ? &channel->mPositionKeys[keep[k]].mValue : &channel->mScalingKeys[keep[k]].mValue;
            float *out = c == 0 ? track->translation_values[k] : track->scale_values[k];
            out[0] = v->x, out[1] = v->y, out[2] = v->z;
        }
        *count_of[c] = kept;
    }
    free(scratch);
    free(keep);
    free(ticks);
    return ok;
}

bool import_clips(Importer *im)
{
    const struct aiScene *scene = im->scene;
    Model *model = im->model;
    if (scene->mNumAnimations == 0 || !scene->mAnimations) return true;
    model->clips = calloc(scene->mNumAnimations, sizeof *model->clips);
    if (!model->clips) return import_fail(im, "out of memory");

    for (unsigned a = 0; a < scene->mNumAnimations; a++) {
        const struct aiAnimation *anim = scene->mAnimations[a];
        Clip *clip = &model->clips[model->clip_count++];
        if (!anim) continue;
        model_name_clip(model, (int)a, anim->mName.data, anim->mName.length < MAXLEN ? anim->mName.length : MAXLEN);
        im->channels_reordered = im->keys_repeated = 0;

        double tps = anim->mTicksPerSecond;
        clip->source_ticks_per_second = isfinite(tps) ? (float)tps : 0.0f;
        if (!(tps > 0.0) || !isfinite(tps)) tps = DEFAULT_TICKS_PER_SECOND;
        double duration = anim->mDuration / tps;
        float last_time = (isfinite(duration) && duration > 0.0) ? (float)duration : 0.0f;

        if (anim->mNumChannels > 0 && anim->mChannels) {
            clip->tracks = calloc(anim->mNumChannels, sizeof *clip->tracks);
            if (!clip->tracks) return import_fail(im, "out of memory");
        }
        for (unsigned ch = 0; ch < anim->mNumChannels && anim->mChannels; ch++) {
            const struct aiNodeAnim *channel = anim->mChannels[ch];
            if (!channel) continue;
            int joint = import_find_channel_joint(im, channel);
            if (joint < 0) {
                model->stats.channels_without_node++;
                continue;
            }
            im->channel_taken[joint] = true;
            JointTrack *track = &clip->tracks[clip->track_count++];
            track->joint = joint;
            if (!build_track(im, channel, tps, clip->name, track, &last_time)) return false;
            if (track->translation_count + track->rotation_count + track->scale_count == 0) {
                clip->track_count--;   /* a channel without keys changes nothing */
                joint_track_free(track);
            }
        }
        /* stage 4: the clip's morph-weight channels (glTF `weights`, FBX blend-shape channels) */
        if (!import_morph_channels(im, anim, tps, clip, &last_time)) return false;
        /* the clip is [first key, last key] (the authored start is kept: Collada and FBX clips
         * may start after 0), and lasts at least until the file's own duration */
        float first_time = HUGE_VALF;
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *track = &clip->tracks[t];
            if (track->translation_count > 0) first_time = fminf(first_time, track->translation_times[0]);
            if (track->rotation_count > 0) first_time = fminf(first_time, track->rotation_times[0]);
            if (track->scale_count > 0) first_time = fminf(first_time, track->scale_times[0]);
        }
        for (int t = 0; t < clip->morph_track_count; t++) first_time = fminf(first_time, clip->morph_tracks[t].times[0]);
        clip->start = first_time < last_time ? first_time : (first_time < HUGE_VALF ? first_time : 0.0f);
        if (clip->start > last_time) last_time = clip->start;
        clip->duration = last_time - clip->start;
        for (int t = 0; t < clip->track_count; t++) im->channel_taken[clip->tracks[t].joint] = false;
        if (im->channels_reordered)
            import_warn(im, "clip '%s': %d channels had key times out of order; sorted", QUOTED(clip->name),
                        im->channels_reordered);
        if (im->keys_repeated)
            import_warn(im, "clip '%s': %d keys repeated an earlier key's time; the later one kept", QUOTED(clip->name),
                        im->keys_repeated);
    }
    return true;
}
