/* animator.h — the buffers one animated model instance needs, allocated once.
 *
 * Animator owns the pose (local and model-space joint matrices, one palette per mesh) and the
 * state of clip playback, cross-fades, root motion and morph weights, each in its own struct.
 * animator_evaluate() runs the whole per-frame pipeline of anim.h without allocating anything.
 */
#ifndef SKINVIEW_ANIMATOR_H
#define SKINVIEW_ANIMATOR_H

#include "anim.h"

#define ANIMATOR_REST_POSE (-1)   /* clip index: file node transforms, no clip */
#define ANIMATOR_BIND_POSE (-2)   /* clip index: the pose the meshes were bound in, in scene space
                                     (each skinned mesh as stored, placed by its bind_matrix N) */

/* Morph state of one mesh with morph targets (all NULL / 0 for a mesh without). */
typedef struct MeshMorph {
    int    active_count;           /* targets with a non-zero weight in this pose */
    int   *active_targets;         /* [morph_target_count], the first active_count in use */
    float *active_weights;         /* [morph_target_count] */
    vec3  *positions;              /* [vertex_count] scratch: the morphed mesh, skinned from here */
    vec3  *normals;                /* [vertex_count] */
} MeshMorph;

/* Clip playback: which clip the instance plays, and the fast path's state for it (pose_fast.c,
 * pose_lanes.c). `primed` says whether local[] is what the fast path expects between frames: the
 * rest matrix at every joint the clip has no track for, and the clip's held tracks. A clip switch
 * primes it; a cross-fade, which writes every joint, unprimes it, and the next fast frame primes
 * it again (rest pose + cursor reset). */
typedef struct ClipPlayback {
    int            clip;        /* clip index, or ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE */
    PackedClip    *packed;      /* [clip_count]: every clip's keys laid out for sampling */
    PackedCursor   cursor;      /* key cursors and lanes of `clip` (sized for every clip) */
    PaletteTargets targets;     /* the palette entries each joint drives */
    TrackCursor   *cursors;     /* [max track count]: reference clip_sample cursors of `clip` (fades, root anchor) */
    bool           primed;      /* local[] = rest + held tracks of `clip` (see above) */
} ClipPlayback;

/* Cross-fade (animator_evaluate_blend): the clip fading out, with its own cursors, and the two
 * local poses as translation / rotation / scale, blended joint by joint. */
typedef struct CrossFade {
    int             from_clip;  /* clip `cursors` belong to */
    TrackCursor    *cursors;    /* [max track count] */
    JointTransform *from, *to;  /* [joint_count] local poses of the two sides */
    unsigned char  *animated;   /* [joint_count] 1 where either side has a track */
} CrossFade;

/* Root motion: with in_place set (by the caller), the clip's root joint keeps the ground position
 * (x, z) it has at the clip's time 0. */
typedef struct RootMotion {
    bool in_place;
    int  joint;     /* clip_root_motion_joint() of the playing clip, -1 if none */
    vec3 anchor;    /* its scene position at time 0 of that clip */
} RootMotion;

/* Morph weights of this pose, per mesh, with each mesh's active targets and scratch vertices. */
typedef struct MorphWeights {
    float    **weights;   /* [mesh_count][morph_target_count] */
    MeshMorph *meshes;    /* [mesh_count] */
    int       *cursors;   /* [max morph track count over clips] */
} MorphWeights;

/* The bind pose (pose_bind), computed once at init. */
typedef struct BindPose {
    mat4           *local;   /* [joint_count] */
    mat4           *model;   /* [joint_count] */
    JointTransform *trs;     /* [joint_count] local as translation, rotation, scale (fades) */
} BindPose;

/* One animated instance of a model: the pose every evaluate writes (local, joint_model, one
 * palette per mesh; meshes with the same bones share one), the skinning layout of each mesh, and
 * the parts above. */
typedef struct Animator {
    const Model  *model;
    mat4         *local;           /* [joint_count] */
    mat4         *joint_model;     /* [joint_count] model (scene) space */
    mat4        **palettes;        /* [mesh_count][bone_count] */
    SkinRun     **skin_runs;       /* [mesh_count][skin_run_count[m]]: influence-count runs (skin_fast.c) */
    int          *skin_run_count;  /* [mesh_count] */
    ClipPlayback  playback;
    CrossFade     fade;
    RootMotion    root;
    MorphWeights  morph;
    BindPose      bind;
    bool          reference;       /* --reference (key Shift+R): run the lesson's functions, not the fast path:
                                      clip_sample, pose_local_to_model, skin_palette, skin_vertices_lbs
                                      (docs/skinning.md); set by the caller, read every frame */
} Animator;

/* Allocates every buffer for `model`. Returns false on out-of-memory. */
bool animator_init(Animator *animator, const Model *model);
void animator_free(Animator *animator);

/* Evaluates clip `clip` (or ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE) at `time`
 * seconds (clamped to the clip) into joint_model[], every mesh palette and every mesh's
 * morph weights and active targets (rest pose: the default weights; bind pose: all 0,
 * the mesh as stored). A clip takes the fast path (pose_evaluate_packed: packed keys, SIMD
 * lanes, pose_fast.c) unless animator->reference is set: then the reference functions
 * clip_sample -> pose_local_to_model -> skin_palette run, the same result within float rounding
 * (tests/anim/test_reference_mode.c). */
void animator_evaluate(Animator *animator, int clip, float time);

/* Cross-fade: clip `from` at from_time and clip `to` at to_time, local poses blended with
 * `weight` of `to` (pose_blend), then model space and palettes as animator_evaluate(); morph
 * weights are those of `to`. Either may be a static pose, ANIMATOR_REST_POSE (the rest local
 * transforms) or ANIMATOR_BIND_POSE (bind_trs): switching the pose source fades too. The cursors
 * of both clips are kept, so a running fade still costs O(1) per track. */
void animator_evaluate_blend(Animator *animator, int from, float from_time, int to, float to_time, float weight);

/* Scene position of the root-motion joint of the current clip (the skeleton's first joint when
 * the clip has none; the origin without joints), as authored (before in_place). */
void animator_root_position(const Animator *animator, vec3 position);

/* Model matrix to draw mesh m with: identity for skinned meshes (their palette
 * already lands in scene space; trap 2 in docs/skinning.md), the node's animated model
 * matrix for static meshes. */
void animator_mesh_matrix(const Animator *animator, int mesh, mat4 out);

/* Posed vertices of mesh m in scene space, normals renormalised (out_normals may be NULL):
 * morph targets first (into the mesh's scratch buffers, in mesh space), then skinning from
 * there. Skinned meshes take the fast path (skin_job_run, SIMD), which agrees with the
 * reference skin_vertices_lbs within float rounding, or skin_vertices_lbs itself when
 * animator->reference is set; static meshes follow their node. */
void animator_skin_mesh(const Animator *animator, int mesh, vec3 *out_positions, vec3 *out_normals);

/* Morph pass of mesh m at the current pose: when some target of the mesh has a non-zero weight,
 * writes the morphed mesh-space vertices to animator->morph.meshes[m].positions / .normals and
 * returns true (skin from those); false when there is nothing to morph (skin the stored
 * vertices). Touches only mesh m's scratch buffers: meshes may run on different threads. */
bool animator_morph_mesh(const Animator *animator, int mesh);

/* The skinning job of skinned mesh m at the current pose, reading `positions` / `normals`
 * (the mesh's own, or a morphed copy of them) — for skin_job_run / skin_threads_run. */
SkinJob animator_skin_job(const Animator *animator, int mesh, const vec3 *positions, const vec3 *normals,
                          vec3 *out_positions, vec3 *out_normals);

/* ---- morph weights by hand (morph_override.c): the viewer's sliders, --morph NAME=W,... ----- */

/* Per mesh and target: whether a weight is set by hand, and which. Allocated once per model. */
typedef struct MorphOverride {
    int     mesh_count;
    bool  **set;       /* [mesh][morph_target_count] (NULL for a mesh without targets) */
    float **weight;    /* [mesh][morph_target_count] */
    int     count;     /* entries set */
} MorphOverride;

bool morph_override_init(MorphOverride *o, const Model *model);
void morph_override_free(MorphOverride *o);   /* safe on a zeroed one */
void morph_override_set(MorphOverride *o, int mesh, int target, float weight);
void morph_override_clear(MorphOverride *o, int mesh, int target);   /* back to the clip's weight */

/* morph_override_init, then "NAME=W,NAME=W": NAME is a target name (set on every mesh that has
 * it) or a target index; spec NULL or "" sets nothing. False with a one-line message. */
bool morph_override_parse(const Model *model, const char *spec, MorphOverride *o, char *error, size_t error_size);

/* After animator_evaluate(): every set weight replaces the clip's, and the meshes' active-target
 * lists follow (weights[m][t] = w). Nothing else changes; no allocation. */
void morph_override_apply(const MorphOverride *o, Animator *animator);

#endif
