/* against.h — --against OTHER as the difference view uses it each frame: the pairing of MODEL with
 * OTHER (Against, set up once by app/against.h's against_open / against_bind, which tell how the
 * clips and vertices pair), OTHER posed at MODEL's clip and time (against_pose, against_pose_blend)
 * and the distance of each of MODEL's vertices to its partner (against_measure). No allocation. */
#ifndef SKINVIEW_TEACH_AGAINST_H
#define SKINVIEW_TEACH_AGAINST_H

#include "anim/animator.h"
#include "anim/skin_dq.h"

#include <stdbool.h>
#include <stddef.h>

#define AGAINST_MAX_COUNT_RATIO 4.0     /* totals further apart than this: not the same character */
#define AGAINST_MAX_PAIRING_GAP 0.02    /* mean nearest-point gap at the bind pose, of the diagonal */
#define AGAINST_SAME_POINT 1e-4        /* of the diagonal: "the same point" at the bind pose (re-pairing) */
#define AGAINST_LEGEND_FLOOR 1e-4      /* the window's legend ends at this much of the diagonal at least */
#define AGAINST_SCALE_HINT 2.0          /* bounding boxes further apart than this: the hint line */
#define AGAINST_DEFAULT_TOLERANCE 1e-3f /* --tolerance: of MODEL's diagonal */
#define AGAINST_REPORT_RATE 30.0f       /* --report samples per second (plus 0 and the clip's end) */

typedef enum AgainstPairing { AGAINST_BY_ORDER, AGAINST_BY_NEAREST } AgainstPairing;

typedef struct Against {
    char           other_path[1024];
    const Model   *model;           /* MODEL, not owned */
    Model          other;           /* OTHER, owned */
    Animator       other_animator;
    SkinDqPose     other_dq;
    SkinningMethod other_method;    /* OTHER as skinview shows it: DQ when its file asks, else LBS */
    bool           ready;           /* other_animator / other_dq allocated */
    int           *clip_of;         /* [MODEL clip_count] OTHER's clip for each of MODEL's, -1: none */
    int            paired_clips;
    AgainstPairing pairing;
    int            model_vertices, other_vertices; /* totals over every mesh */
    int            model_meshes;    /* MODEL's mesh_count when paired (against_follow) */
    int           *partner;         /* [model_vertices] index into OTHER's concatenated vertices */
    vec3          *other_positions; /* [other_vertices] OTHER posed by against_pose */
    bool           posed;           /* the last against_pose found a partner clip (false: no distances) */
    float          model_diagonal, other_diagonal; /* bounding boxes of every clip + bind pose (view_model_bounds) */
    int            reordered;       /* equal totals: vertices listed in another order, paired by nearest point */
    float          pairing_gap;     /* nearest pairing: mean bind-pose gap after the box fit, of the diagonal */
    char           pairing_text[160]; /* "vertices paired by order (5234)", for stderr and the legend */
    char           hint[200];       /* "" or the scale-ratio hint */
} Against;

/* OTHER posed at MODEL's clip `clip` (or ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE) and `time` from the
 * clip's start, skinned into other_positions; posed = false when that clip has no partner. */
void against_pose(Against *against, int clip, float time);
/* The same during a cross-fade (animator_evaluate_blend on both sides). */
void against_pose_blend(Against *against, int from, float from_time, int to, float to_time, float weight);

/* distances[v] = |model_positions[v] - other_positions[partner[v]]| for the vertices [first, first + count)
 * of MODEL's concatenated order (model_positions holds those `count`); returns the largest. */
float against_measure(const Against *against, int first, int count, const vec3 *model_positions, float *distances);

/* Every vertex of `model` posed by `animator` (DQ pose `dq` for SKINNING_GPU_DQ) and skinned on the
 * CPU by `method` (skin_mesh_by_method), meshes concatenated in --export-pose order into out[]. */
void against_skin_all(const Model *model, SkinningMethod method, const SkinDqPose *dq, const Animator *animator,
                      vec3 *out);

#endif
