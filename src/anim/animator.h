/* animator.h — the buffers one animated model instance needs, allocated once.
 *
 * Animator owns the pose (local and model-space joint matrices), the key
 * cursors and one palette per mesh. animator_evaluate() runs the whole
 * per-frame pipeline of anim.h without allocating anything.
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

typedef struct Animator {
    const Model  *model;
    mat4         *local;           /* [joint_count] */
    mat4         *joint_model;     /* [joint_count] model (scene) space */
    TrackCursor  *cursors;         /* [max track count over clips]: cursors of the reference clip_sample */
    mat4        **palettes;        /* [mesh_count][bone_count] */
    SkinRun     **skin_runs;       /* [mesh_count][skin_run_count[m]]: influence-count runs (skin_fast.c) */
    int          *skin_run_count;  /* [mesh_count] */
    float       **morph_weights;   /* [mesh_count][morph_target_count]: this pose's target weights */
    MeshMorph    *morphs;          /* [mesh_count] */
    int          *morph_cursors;   /* [max morph track count over clips] */
    mat4         *bind_local;      /* [joint_count] the bind pose (pose_bind), computed once */
    mat4         *bind_model;      /* [joint_count] */
    JointTransform *bind_trs;      /* [joint_count] bind_local as translation, rotation, scale (fades) */
    int           clip;            /* clip the cursors belong to */
    PackedClip   *packed;          /* [clip_count]: the clips' keys laid out for sampling (pose_fast.c) */
    PackedCursor  cursor;          /* the fast path's key cursors and lanes (sized for every clip) */
    PaletteTargets targets;        /* palette entries per joint (pose_fast.c) */
    /* cross-fade (animator_evaluate_blend) */
    TrackCursor  *fade_cursors;    /* [max track count]: the clip fading out */
    int           fade_clip;       /* clip fade_cursors belong to */
    JointTransform *trs_from, *trs_to; /* [joint_count] local poses of the two clips */
    unsigned char *animated;       /* [joint_count] 1 where either clip has a track */
    /* root motion: when in_place is set (by the caller), the clip's root joint keeps the
     * ground position (x, z) it has at the clip's time 0 */
    bool          in_place;
    int           root_joint;      /* clip_root_motion_joint() of `clip`, -1 if none */
    vec3          root_anchor;     /* its scene position at time 0 of `clip` */
    bool          local_blended;   /* local[] was written by a cross-fade (reset before the fast path) */
} Animator;

/* Allocates every buffer for `model`. Returns false on out-of-memory. */
bool animator_init(Animator *animator, const Model *model);
void animator_free(Animator *animator);

/* Evaluates clip `clip` (or ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE) at `time`
 * seconds (clamped to the clip) into joint_model[], every mesh palette and every mesh's
 * morph weights and active targets (rest pose: the default weights; bind pose: all 0,
 * the mesh as stored). */
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
 * there. Skinned meshes take the fast path (skin_job_run), which agrees with the reference
 * skin_vertices_lbs within float rounding; static meshes follow their node. */
void animator_skin_mesh(const Animator *animator, int mesh, vec3 *out_positions, vec3 *out_normals);

/* Morph pass of mesh m at the current pose: when some target of the mesh has a non-zero weight,
 * writes the morphed mesh-space vertices to animator->morphs[m].positions / .normals and
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
