/* pose_tracks.c — sampling a packed clip track by track: every timeline's key and factor at a
 * time (packed_clip_find_keys), then local = T * R * S of each animated joint (packed_clip_sample:
 * clip_sample on a packed clip, pose_kernel.h's track_sample). What a seek, a cursor made for
 * smaller clips and the tracks off the lanes take (pose_lanes.c); tests/anim/test_pose_fast.c holds it to
 * clip_sample. A leaf of the pose path: the lanes (pose_lanes.c) call it, it calls back into neither
 * pose_lanes.c nor pose_fast.c. Compiled twice like them (pose_tracks_avx2.c). */
#include "pose_kernel.h"

void POSE_KERNEL(packed_clip_find_keys)(const PackedClip *packed, float key_time, TimelineState *states)
{
    for (int i = 0; i < packed->timeline_count; i++) {
        const PackedTimeline *timeline = &packed->timelines[i];
        int k = timeline_key(timeline, key_time, &states[i].cursor);
        /* a = (t - t_k) / (t_k+1 - t_k) clamped to [0, 1], as key_alpha(), with the stored 1/Δt */
        float a = (key_time - timeline->times[k]) * timeline->inv_span[k];
        states[i].key = k;
        states[i].alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    }
}

void POSE_KERNEL(packed_clip_sample)(const PackedClip *packed, float time, TimelineState *states, mat4 *local)
{
    float key_time = clip_key_time(packed->start, packed->duration, time);
    POSE_KERNEL(packed_clip_find_keys)(packed, key_time, states);
    for (int i = 0; i < packed->track_count; i++) track_or_held(packed, &packed->tracks[i], states, key_time, local);
}

#ifndef POSE_FAST_AVX2
/* ---- the public functions: the kernel simd.c chose ------------------------------------ */

void packed_clip_find_keys(const PackedClip *packed, float key_time, TimelineState *states)
{
    POSE_DISPATCH(packed_clip_find_keys, (packed, key_time, states));
}

void packed_clip_sample(const PackedClip *packed, float time, TimelineState *states, mat4 *local)
{
    POSE_DISPATCH(packed_clip_sample, (packed, time, states, local));
}
#endif
