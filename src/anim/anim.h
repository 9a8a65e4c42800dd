/* anim.h — the animation core: sampling -> local pose -> model space -> skin palette -> CPU skinning.
 *
 * Plain C + cglm. No GL, no Assimp, no allocation inside the per-frame jobs:
 * every buffer is owned by the caller (see Animator in animator.h, which
 * allocates them once per model).
 *
 * The per-frame pipeline (ozz-animation's job split):
 *
 *   clip_sample()         keys at time t        -> local matrices of animated joints
 *   clip_sample_morph_weights() keys at time t  -> morph target weights of every mesh
 *   pose_local_to_model() local matrices        -> model-space (scene-space) joint matrices
 *   skin_palette()        joint matrices        -> one skinning matrix per bone of a mesh
 *   morph_active_targets() weights              -> the targets with a non-zero weight
 *   morph_vertices()      active targets + mesh -> morphed mesh-space positions and normals
 *   skin_vertices_lbs()   palette + bind mesh   -> posed positions and normals (CPU reference)
 *                         (a morphed mesh is skinned FROM the morphed positions, never the stored ones)
 *   skin_palette_to_dq()  palette               -> one unit dual quaternion + stretch per bone (skin_dq.h)
 *   skin_vertices_dq()    dual quaternions      -> posed vertices by dual quaternion skinning
 *
 * Those are the readable references. The Animator runs faster jobs that compute the same
 * results (tests/anim/test_pose_fast.c, tests/anim/test_skin_fast_models.c):
 *
 *   pose_evaluate_packed() packed clip at t     -> local, model-space joints and palettes (pose_fast.c)
 *   skin_job_run()        palette + source mesh -> posed positions and normals, SSE2 (skin_fast.c)
 *   skin_threads_run()    several skin jobs     -> the same, split over a thread pool (skin_threads.c)
 *
 * docs/skinning.md walks through the math with pointers to these functions;
 * docs/performance.md measures the fast jobs and explains each optimisation.
 */
#ifndef SKINVIEW_ANIM_H
#define SKINVIEW_ANIM_H

#include "model.h"

/* ---- sampling (sample.c) ------------------------------------------------ */

/* Where the last sample of one channel was found: times[key] <= t < times[key+1].
 * Playing forward re-uses it (O(1)); a jump falls back to a binary search. */
typedef struct TrackCursor {
    int translation_key;
    int rotation_key;
    int scale_key;
} TrackCursor;

/* Index k of the key interval containing t: times[k] <= t < times[k+1],
 * clamped to [0, count-1]. `cursor` is the hint from the previous call and is
 * updated. count must be >= 1. */
int key_find(const float *times, int count, float t, int *cursor);

/* Interpolation factor of t between keys k and k+1 in [0,1]. */
float key_alpha(const float *times, int count, int k, float t);

/* Linear interpolation of a vec3 channel at time t (clamped at both ends). */
void sample_vec3(const float *times, const vec3 *values, int count, float t, int *cursor, vec3 out);

/* Spherical interpolation of a rotation channel at time t, the short way round. */
void sample_quat(const float *times, const versor *values, int count, float t, int *cursor, versor out);

/* One channel at time t with its interpolation: LINEAR as sample_vec3 / sample_quat,
 * STEP holds key k until key k+1, CUBICSPLINE is glTF's Hermite spline through the keys
 * with tangents[2k] (in) and tangents[2k+1] (out); a rotation is normalised afterwards.
 * Clamped at both ends like the linear samplers. */
void sample_vec3_channel(const float *times, const vec3 *values, const vec3 *tangents, int count,
                         Interpolation kind, float t, int *cursor, vec3 out);
void sample_quat_channel(const float *times, const versor *values, const versor *tangents, int count,
                         Interpolation kind, float t, int *cursor, versor out);
/* One float per key (morph weights), the same three interpolations: tangents[2k] / [2k+1] are
 * key k's in / out tangent (NULL unless CUBICSPLINE). */
float sample_float_channel(const float *times, const float *values, const float *tangents, int count,
                           Interpolation kind, float t, int *cursor);

/* Slerp from a to b that takes the shorter arc: if dot(a,b) < 0, b is negated
 * first (q and -q are the same rotation). Falls back to normalised lerp when
 * the two are nearly equal. */
void quat_slerp_shortest(const versor a, const versor b, float t, versor out);

/* Samples every track of `clip` at `time` (seconds from the clip's start, clamped to
 * [0, duration]; the keys are read at file time clip->start + time)
 * and writes the local matrix local[joint] = T * R * S of each animated joint.
 * Channels a track lacks take the joint's rest value. Joints without a track
 * are left untouched: the caller fills local[] with the rest pose first.
 * `cursors` has clip->track_count entries (zero them when switching clip). */
void clip_sample(const Clip *clip, const Skeleton *skeleton, float time,
                 TrackCursor *cursors, mat4 *local);

/* Same as clip_sample, but writes decomposed transforms (for tests / blending). */
void clip_sample_trs(const Clip *clip, const Skeleton *skeleton, float time,
                     TrackCursor *cursors, JointTransform *local_trs);

/* local = T * R * S */
void joint_transform_to_matrix(const JointTransform *trs, mat4 local);

/* ---- morph targets (morph.c) -------------------------------------------- */

/* Samples every morph track of `clip` at `time` (seconds from the clip's start; clamped to
 * [0, duration]; keys at file time start + time), linearly:
 *   w = w_k + a * (w_k+1 - w_k)
 * and writes weights[track->mesh][track->target]. Targets without a track are left untouched:
 * the caller fills weights[] with the meshes' default weights first (morph_set_default_weights).
 * `cursors` has clip->morph_track_count entries (zero them when switching clip). */
void clip_sample_morph_weights(const Clip *clip, float time, int *cursors, float *const *weights);

/* weights[m][t] = mesh m's default weight of target t (or 0 when `zero`), for every mesh with targets. */
void morph_set_default_weights(const Model *model, float *const *weights, bool zero);

/* Lists the targets whose weight is not 0: active_targets[i], active_weights[i] for
 * i < return value (at most target_count). Only these cost work in morph_vertices and on the GPU. */
int morph_active_targets(const float *weights, int target_count, int *active_targets, float *active_weights);

/* Morphs a mesh in mesh space (before skinning):
 *   p' = p + sum_i w_i * position_delta[t_i][v]
 *   n' = n + sum_i w_i * normal_delta[t_i][v]     (not normalised: skinning normalises at the end)
 * over the active_count active targets t_i with weights w_i. out_normals may be NULL. */
void morph_vertices(const Mesh *mesh, const int *active_targets, const float *active_weights, int active_count,
                    vec3 *out_positions, vec3 *out_normals);

/* ---- fast pose (pose_fast.c): packed clips, sampling ------------------------
 * The same keys as a Clip, packed once for the per-frame loop; the same results as
 * clip_sample (tests/anim/test_pose_fast.c), several times faster. */

/* Key times shared by every channel keyed at exactly those times (exporters usually key
 * all channels of a clip at the same frames): the key search runs once per timeline. */
typedef struct PackedTimeline {
    int          count;       /* keys */
    const float *times;       /* [count] seconds (file time), increasing */
    const float *inv_span;    /* [count] 1 / (times[k+1] - times[k]); 0 at the last key */
} PackedTimeline;

/* One channel (T, R or S) of one joint. A channel the track lacks is one key at time 0
 * holding the joint's rest value. */
typedef struct PackedChannel {
    int           timeline;   /* index into PackedClip.timelines */
    Interpolation kind;       /* CUBICSPLINE only when tangents exist */
    const float  *values;     /* [(count + 1) * 4]: x y z (w; 0 for T and S), the last value
                                 repeated once; LINEAR rotations unit and sign-aligned
                                 (dot(q_k, q_k+1) >= 0) */
    const float  *tangents;   /* CUBICSPLINE: [2 * count * 4] in- and out-tangent per key */
    const float  *theta2;     /* LINEAR R: [count] θ_k² with θ_k = acos(q_k . q_k+1), half the
                                 rotation from key k to k+1 (the lane sampler's slerp); else NULL */
} PackedChannel;

typedef struct PackedTrack {
    int           joint;
    PackedChannel translation, rotation, scale;
    bool          held;         /* every channel one held key: local = held_local at every time */
    /* 32-byte aligned in every compilation: cglm aligns mat4 to 32 bytes only where __AVX__ is
     * defined, and pose_fast_avx2.c / pose_lanes_avx2.c must see the same layout as the rest */
    _Alignas(32) mat4 held_local;
} PackedTrack;

typedef struct PackedClip {
    float           start, duration;   /* as the Clip */
    int             track_count;       /* = the Clip's, same order */
    PackedTrack    *tracks;
    int             timeline_count;    /* distinct key-time arrays (at most 3 per track) */
    PackedTimeline *timelines;
    float          *block;             /* every timeline's and channel's floats, one allocation */
    /* The tracks by how a frame treats them (indices into tracks, each list in track order):
     * lanes: every channel LINEAR or STEP, sampled several at a time (packed_clip_sample_forward);
     * others: a CUBICSPLINE channel, or so many keys (more than PACKED_DENSE_KEYS_PER_SECOND over
     * its channels) that forward playback would cross a key at most frames, sampled one by one;
     * held: computed once (held_local). */
    int             lane_count, lane_capacity;   /* capacity: lane_count rounded up to 8 */
    int            *lane_track;        /* [lane_capacity]: the track in each lane, -1 for padding */
    int            *lane_joint;        /* [lane_capacity]: its joint, -1 for padding */
    /* channel c (0 T, 1 R, 2 S) of lane i at [c * lane_capacity + i]: its timeline, and one record
     * of LANE_FIELDS floats per key k (what the cursor's lane fields hold in interval k) */
    const PackedTimeline **lane_timeline;
    const float         **lane_records;
    float                *record_block;
    int             other_count, held_count;
    int            *other_tracks, *held_tracks;
} PackedClip;

/* Per timeline, per player: the cursor kept between frames, and this frame's key and factor. */
typedef struct TimelineState {
    int   cursor;    /* last key found: forward playback starts there (zero when switching clip) */
    int   key;       /* this frame: times[key] <= t < times[key+1] (clamped) */
    float alpha;     /* this frame: (t - times[key]) / (times[key+1] - times[key]) in [0, 1] */
} TimelineState;

/* A lane's channel interval is rewritten each time playback crosses a key (~15 ns on the build
 * machine), where sampling the track on its own costs ~22 ns and a lane ~4 ns: at 60 frames a
 * second the lanes pay off below about 1.2 key crossings per frame, 72 keys a second. */
#define PACKED_DENSE_KEYS_PER_SECOND 72.0f

/* Per player, what forward playback of a packed clip keeps between frames (packed_cursor_*):
 * the timelines' cursors, and for every lane of the clip the key interval each of its three
 * channels is in, with that interval's times and values spread out one float per lane
 * (structure of arrays: field f of lane i at lane_fields[(channel * LANE_FIELDS + f) * capacity + i]),
 * so that a frame is a few lerps of whole vector registers; a lane's entry is rewritten only when
 * the time crosses its channel's next key. */
enum {
    LANE_NEXT,          /* time of the next key (+Inf after the last): crossing it moves the interval */
    LANE_START,         /* times[k] */
    LANE_INV_SPAN,      /* 1 / (times[k+1] - times[k]); 0 holds values[k] (STEP, last key, zero span) */
    LANE_V0,            /* 4 fields: values[k] */
    LANE_V1 = LANE_V0 + 4,   /* 4 fields: R: values[k+1]; T and S: values[k+1] - values[k] */
    LANE_THETA2 = LANE_V1 + 4,   /* R: θ_k² (PackedChannel.theta2) */
    LANE_FIELDS
};

typedef struct PackedCursor {
    TimelineState *timelines;        /* [timeline_capacity] */
    int            timeline_capacity;
    int            lane_capacity;    /* lanes allocated: at least the clip's lane_capacity */
    int           *lane_key;         /* [3 * lane_capacity]: each lane channel's key k */
    float         *lane_fields;      /* [3 * LANE_FIELDS * lane_capacity] */
    bool           lanes_valid;      /* false: the next frame fills every lane (and the held tracks) */
    float          lanes_time;       /* key time of the last frame (-Inf after a reset) */
} PackedCursor;

/* Allocates a cursor for clips of up to `timelines` timelines and `lanes` lanes (false: out of memory). */
bool packed_cursor_init(PackedCursor *cursor, int timelines, int lanes);
void packed_cursor_free(PackedCursor *cursor);
/* Forget the position (a new clip, or local[] rewritten by someone else): the next frame starts over. */
void packed_cursor_reset(PackedCursor *cursor);

/* Playback time (seconds from the clip's start, what --time takes) -> key time: clamped to
 * [0, duration] (NaN: 0), then read at file time start + time. The one clamp every sampler uses
 * (clip_sample, the morph weights, the packed clips). */
static inline float clip_key_time(float start, float duration, float time)
{
    if (!(time > 0.0f)) time = 0.0f;   /* also catches NaN */
    if (time > duration) time = duration;
    return start + time;
}

/* Packs `clip` (allocates; false when out of memory). packed_clip_free undoes it. */
bool packed_clip_build(PackedClip *packed, const Clip *clip, const Skeleton *skeleton);
void packed_clip_free(PackedClip *packed);

/* The key and factor of every timeline at key time key_time (states[timeline_count]). */
void packed_clip_find_keys(const PackedClip *packed, float key_time, TimelineState *states);

/* clip_sample on a packed clip: the local matrix of every animated joint at playback time
 * `time`. states has packed->timeline_count entries. */
void packed_clip_sample(const PackedClip *packed, float time, TimelineState *states, mat4 *local);

/* The same, the way playback runs it (what pose_evaluate_packed does): the lanes a vector at a
 * time from their cached key intervals, the others one by one; the held tracks are written only
 * when the cursor starts over (reset, or time going backwards), so between frames nobody else may
 * write local[] of an animated joint without packed_cursor_reset(). */
void packed_clip_sample_forward(const PackedClip *packed, float time, PackedCursor *cursor, mat4 *local);

/* ---- hierarchy (pose.c) ------------------------------------------------- */

/* Copies the rest pose (file node transforms) into local[]. */
void pose_set_rest(const Skeleton *skeleton, mat4 *local);

/* model[j] = model[parent[j]] * local[j]; roots: model[j] = local[j].
 * One forward loop: valid because parents are stored before children. */
void pose_local_to_model(const Skeleton *skeleton, const mat4 *local, mat4 *model);

/* The bind pose in scene space (docs/skinning.md, "The bind pose"): every joint a skinned mesh binds sits at
 * N * inverse(inverse_bind) (N = that mesh's bind_matrix; the first mesh that binds a joint
 * decides), every other joint hangs off its parent with its rest local transform (roots: at
 * rest). Writes joint_model[] and the matching local[] (model_parent * local = model).
 * bound[] is scratch of joint_count entries. Computed once per model (Animator does at init). */
void pose_bind(const Model *model, bool *bound, mat4 *local, mat4 *joint_model);

/* ---- fast pose (pose_fast.c): sampling, then local -> model + palette ------- */

/* The palette entries each joint drives, grouped by joint, built once for a set of palettes
 * (palettes[mesh][bone], one per mesh as skin_palette writes them). */
typedef struct PaletteTargets {
    int          *first;          /* [joint_count + 1]: joint j drives entries [first[j], first[j+1]) */
    const vec4  **inverse_bind;   /* [bones of every skinned mesh]: that bone's inverse bind matrix */
    vec4        **palette;        /* the palette slot it writes */
    int           copy_count;     /* entries equal to an earlier one (same joint, same inverse bind:
                                     meshes sharing a skin), copied instead of multiplied */
    const vec4  **copy_from;      /* [copy_count] */
    vec4        **copy_to;        /* [copy_count] */
    bool          affine;         /* every rest_local and inverse_bind ends in the row (0 0 0 1) */
} PaletteTargets;

bool palette_targets_build(PaletteTargets *targets, const Model *model, mat4 **palettes);
void palette_targets_free(PaletteTargets *targets);

/* The whole pose of a clip at playback time `time`: the local matrix of every track (local[] of
 * the joints without a track must already hold their rest matrix), then one forward loop over
 * the joints: model = parent * local, palette = model * inverse_bind for the bones it drives.
 * The result of clip_sample + pose_local_to_model + skin_palette on every skinned mesh. */
void pose_evaluate_packed(const PackedClip *clip, const Skeleton *skeleton, const PaletteTargets *targets, float time,
                          PackedCursor *cursor, mat4 *local, mat4 *joint_model);

/* The second half of pose_evaluate_packed: model = parent * local and the palettes, one loop. */
void pose_model_and_palettes(const Skeleton *skeleton, const PaletteTargets *targets, const mat4 *local, mat4 *joint_model);

/* The palette part alone: skin_palette of every skinned mesh, through the targets. */
void pose_palettes(const PaletteTargets *targets, int joint_count, const mat4 *joint_model);

/* ---- blending and root motion (blend.c) ------------------------------- */

/* Cross-fade of two local poses, joint by joint, with `weight` of b (clamped to [0, 1]):
 *   T = (1 - w) Ta + w Tb,   S = (1 - w) Sa + w Sb,
 *   R = normalize((1 - w) Ra + w s Rb),  s = -1 when dot(Ra, Rb) < 0 (the short way), else 1.
 * out may be a or b. w = 0 gives a, w = 1 gives b (up to the sign of R). */
void pose_blend(const JointTransform *a, const JointTransform *b, int joint_count, float weight,
                JointTransform *out);

/* The joint that carries a clip's root motion: the topmost (lowest index, parents come
 * first) joint with a translation track of more than one key; -1 if none. */
int clip_root_motion_joint(const Clip *clip);

/* Root motion "in place": moves every model-space matrix by the same ground-plane offset
 * (scene +Y up) so that joint `root` stays at anchor's x and z:
 *   d = (p.x - anchor.x, 0, p.z - anchor.z),  p = translation of model[root],
 *   model'[j] = T(-d) * model[j]. */
void pose_remove_ground_motion(const Skeleton *skeleton, int root, const vec3 anchor, mat4 *model);

/* ---- skinning (skin.c) -------------------------------------------------- */

/* palette[i] = model[bone_joint[i]] * inverse_bind[i]  (one matrix per bone of the mesh).
 * For a static mesh (bone_count == 0) nothing is written. */
void skin_palette(const Mesh *mesh, const mat4 *model, mat4 *palette);

/* Bind-pose palette: every bone's joint at N * inverse(inverse_bind[i]) (N = the mesh's
 * bind_matrix), so every palette entry is N: the stored vertices placed in the scene.
 * (With N = identity this is mesh space, not the bind pose.) */
void skin_palette_bind(const Mesh *mesh, mat4 *palette);

/* A mesh with skin_follows_node (FBX, a mesh node moved after binding, as Maya shows it):
 *   palette_i = model[node_joint] * skin_bind_node_inverse * palette_i
 * for every bone but the extra bone of unweighted vertices (already the node). No-op otherwise. */
void skin_palette_follow_node(const Mesh *mesh, const mat4 *model, mat4 *palette);

/* Linear blend skinning on the CPU — the reference the GPU shader is checked against:
 *   p' = sum_k w_k * palette[j_k] * (p, 1)
 *   n' = normalize( sum_k w_k * mat3(palette[j_k]) * n )
 * For a static mesh, `palette` is ignored and `node_model` (the model matrix
 * of the mesh's node) is applied instead. out_normals may be NULL. */
void skin_vertices_lbs(const Mesh *mesh, const mat4 *palette, const mat4 node_model,
                       vec3 *out_positions, vec3 *out_normals);

/* Rigid mode (the rigid hierarchical animation skinning replaced): every vertex follows only its
 * heaviest influence h (the largest weight, the first of equal weights):
 *   p' = palette[j_h] * (p, 1),  n' = normalize(mat3(palette[j_h]) * n)
 * so the surface tears open at the joints. Static meshes as skin_vertices_lbs. */
void skin_vertices_rigid(const Mesh *mesh, const mat4 *palette, const mat4 node_model, vec3 *out_positions,
                         vec3 *out_normals);

/* ---- fast skinning (skin_fast.c) and its threads (skin_threads.c) ------------
 * The same formula as skin_vertices_lbs, at SIMD speed: the four matrices are blended first,
 * then one position and one normal transform per vertex (SSE2 on x86-64, plain C elsewhere).
 * Agrees with the reference within float rounding (tests/anim/test_skin.c: 1e-6 relative). */

/* A run of consecutive vertices [first, first + count) whose non-zero weights all lie in the
 * first `influences` slots (1..4): the fast path uses a loop specialised for that count. */
typedef struct SkinRun {
    int first, count, influences;
} SkinRun;

/* Splits vertices into runs (built once per mesh; runs[] may be NULL to count them first).
 * Returns the number of runs (at most vertex_count). */
int skin_runs_build(const float (*weights)[SV_MAX_INFLUENCES], int vertex_count, SkinRun *runs);

/* Influence runs of a skinned mesh as stored (skin_runs_build's count; 0 for a static mesh). */
int mesh_influence_runs(const Mesh *mesh);

/* Reorders a skinned mesh's vertices by influence count, 1 to 4 (stable), so that it has at most
 * four runs: every per-vertex array (positions, normals, uvs, uvs2, joint indices, weights,
 * influences_in_file, morph deltas) is permuted and the triangles re-indexed. Static meshes and
 * meshes with at most 4 runs are left alone. False when out of memory (mesh_layout.c). */
bool mesh_sort_by_influences(Mesh *mesh);

/* Everything one skinning job reads and writes. The source positions / normals are separate
 * from the mesh so that a morphed copy (morph targets are applied before skinning) can be fed. */
typedef struct SkinJob {
    int             vertex_count;
    const mat4     *palette;                              /* [bone_count] (skin_palette) */
    const uint16_t (*joint_indices)[SV_MAX_INFLUENCES];   /* per vertex, bone indices */
    const float    (*weights)[SV_MAX_INFLUENCES];         /* per vertex, weights (sum 1) */
    const SkinRun  *runs;                                 /* NULL: every vertex as 4 influences */
    int             run_count;
    const vec3     *positions;                            /* source, mesh space */
    const vec3     *normals;                              /* source; read only if out_normals */
    vec3           *out_positions;                        /* must not overlap the source arrays */
    vec3           *out_normals;                          /* NULL: positions only */
    bool            normalize_normals;                    /* renormalise n' (the reference does) */
} SkinJob;

/* Skins vertices [first, end) of the job (clamped to [0, vertex_count)):
 *   p' = (sum_k w_k palette[j_k]) * (p, 1),   n' = mat3(sum_k w_k palette[j_k]) * n  [normalised].
 * Ranges of one job may run on different threads at once: nothing outside them is written. */
void skin_job_run(const SkinJob *job, int first, int end);

/* ---- vector kernels chosen at run time (simd.c) ------------------------------
 * skin_job_run and the pose pass have a baseline kernel (SSE2 on x86-64, plain C elsewhere) and,
 * on x86-64 with GCC or Clang (CMake defines SKINVIEW_AVX2_KERNELS), an AVX2 + FMA kernel used
 * when the CPU has both. The environment
 * variable SKINVIEW_SIMD=sse2 forces the baseline (read once). Results agree within float
 * rounding (tests/anim/test_skin.c, tests/anim/test_pose_fast.c run both). */
#if defined(SKINVIEW_AVX2_KERNELS) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    defined(__SSE2__) && !defined(SKINVIEW_NO_SIMD)
#define ANIM_HAVE_AVX2_KERNELS 1
#else
#define ANIM_HAVE_AVX2_KERNELS 0
#endif
enum { ANIM_SIMD_BASELINE = 0, ANIM_SIMD_AVX2 = 1 };

/* The level in use (chosen on the first call). */
int anim_simd_level(void);
/* Uses `level` from now on, lowered to what the CPU has; returns the level now in use. */
int anim_simd_set(int level);
/* "avx2+fma", "sse2" or "scalar". */
const char *anim_simd_name(int level);

/* A fixed pool of worker threads for skinning, created once (no allocation per frame). */
typedef struct SkinThreads SkinThreads;

/* thread_count threads in all, the caller of skin_threads_run included (thread_count - 1
 * workers are started). NULL when thread_count < 1 or out of memory / threads. */
SkinThreads *skin_threads_create(int thread_count);
void skin_threads_destroy(SkinThreads *pool);
int skin_threads_count(const SkinThreads *pool);

/* Runs every job: the vertices of all jobs together are cut into one contiguous share per
 * thread; returns when all are done. Below SKIN_THREADS_MIN_SHARE vertices per thread the
 * caller does everything itself (waking threads costs more than it saves). pool may be NULL. */
#define SKIN_THREADS_MIN_SHARE 2048
void skin_threads_run(SkinThreads *pool, const SkinJob *jobs, int job_count);

#endif
