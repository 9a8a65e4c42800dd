/* against.h — `skinview MODEL --against OTHER`: two files played in sync, MODEL coloured by how far
 * each of its vertices is from its partner in OTHER at the same clip and time (the difference view,
 * scene_teach.c), and `--report`: the worst and mean distance per clip at sampled times.
 *
 * Set up once (against_open), nothing allocated per frame:
 *   - OTHER imported (no bone limit: it is posed on the CPU only), with its own Animator;
 *   - clips: MODEL's clip c plays OTHER's clip of the same name, else (names differ, e.g. "Take 001"
 *     against "mixamo.com") OTHER's clip c when no clip of MODEL claims that one by name; at the same
 *     time from the clip's start. bind / rest poses pair with themselves;
 *   - vertices: every mesh's vertices concatenated in --export-pose order on both sides. Equal
 *     totals pair by order (vertex i with vertex i), except a vertex that, at the bind pose, lies away
 *     from its own partner but on another OTHER vertex (within AGAINST_SAME_POINT of the diagonal): the
 *     files list it in another order (meshes in another order; skinview sorts a skinned mesh's vertices
 *     by influence count, so two files whose weights differ list them differently), and it pairs with
 *     that vertex. Measured: 896 of 7414 between assets/demo.fbx and demo.glb, 26041 of 28374 between
 *     three.js's mixamo.fbx and Xbot.glb (its two meshes in the other order). Other totals: each MODEL vertex pairs with the nearest
 *     OTHER vertex at the bind pose. Both found in a uniform grid once, after OTHER's bind pose is moved
 *     onto MODEL's by their bounding boxes (centre and diagonal), so that a file in another unit pairs;
 *   - the distance itself is the honest one, in MODEL's scene space: |p_MODEL(v) - p_OTHER(partner(v))|
 *     with both files as skinview shows them (OTHER in its own unit and axes). When the two bounding
 *     boxes differ by more than 2x, against_open says so in `hint` (another unit?).
 * Refused (one line, the caller exits 1): OTHER does not load or has no vertices; both are skinned and
 * share no joint name (another skeleton); MODEL has clips and none pairs; the totals differ more than
 * AGAINST_MAX_COUNT_RATIO times, or the nearest pairing leaves the bind poses (and the rest poses)
 * further apart than AGAINST_MAX_PAIRING_GAP of the diagonal on average (another character). */
#ifndef SKINVIEW_AGAINST_H
#define SKINVIEW_AGAINST_H

#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "io/import.h"

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
    float          model_diagonal, other_diagonal; /* bounding boxes of every clip + bind pose (app_model_bounds) */
    int            reordered;       /* equal totals: vertices listed in another order, paired by nearest point */
    float          pairing_gap;     /* nearest pairing: mean bind-pose gap after the box fit, of the diagonal */
    char           pairing_text[160]; /* "vertices paired by order (5234)", for stderr and the legend */
    char           hint[200];       /* "" or the scale-ratio hint */
} Against;

/* Imports OTHER (other_path, with `import`) and pairs it with `model` (against_bind). False with one
 * line in `error` (without the "skinview: OTHER: " prefix; "" when the import printed its own line
 * already) when OTHER cannot be used against MODEL; nothing to free then. */
bool against_open(Against *against, const Model *model, const char *other_path, const ImportOptions *import,
                  char *error, size_t error_size);
/* Pairs OTHER's clips and vertices with `model` afresh: a model re-imported (split by the GL's bone
 * limit), moved (the struct copied) or replaced (a reload, a drop in the window). False with one line
 * in `error` when they cannot be paired; bind again (to the previous model) before using it then. */
bool against_bind(Against *against, const Model *model, char *error, size_t error_size);
/* The model the commands hold after main's import: the struct moved, maybe re-imported with meshes split
 * by the GL's bone limit. Pairs again (against_bind) only when its meshes are not the ones paired. */
bool against_follow(Against *against, const Model *model, char *error, size_t error_size);
void against_free(Against *against);   /* safe on a zeroed one */

/* OTHER posed at MODEL's clip `clip` (or ANIMATOR_REST_POSE / ANIMATOR_BIND_POSE) and `time` from the
 * clip's start, skinned into other_positions; posed = false when that clip has no partner. */
void against_pose(Against *against, int clip, float time);
/* The same during a cross-fade (animator_evaluate_blend on both sides). */
void against_pose_blend(Against *against, int from, float from_time, int to, float to_time, float weight);

/* distances[v] = |model_positions[v] - other_positions[partner[v]]| for the vertices [first, first + count)
 * of MODEL's concatenated order (model_positions holds those `count`); returns the largest. */
float against_measure(const Against *against, int first, int count, const vec3 *model_positions, float *distances);

#define AGAINST_EVERY_CLIP (-100) /* command_against_report: no --clip given */

/* `--against OTHER --report`: every clip (or `only_clip`, unless AGAINST_EVERY_CLIP) of MODEL at 0, every 1/AGAINST_REPORT_RATE s and its end; one
 * line per clip (worst and mean distance, absolute and of MODEL's diagonal, where and when the worst
 * is) on stdout; exit 0 when every clip is within `tolerance` x MODEL's diagonal, else 1. MODEL is
 * skinned by `method` (skin_mesh_by_method). */
int command_against_report(const Model *model, const char *other_path, const ImportOptions *import,
                           SkinningMethod method, float tolerance, int only_clip);

#endif
