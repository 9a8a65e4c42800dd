/* against.h — `skinview MODEL --against OTHER`: two files played in sync, MODEL coloured by how far
 * each of its vertices is from its partner in OTHER at the same clip and time (the difference view,
 * teach/formula.c), and `--report`: the worst and mean distance per clip at sampled times.
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

#include "teach/against.h"   /* Against, the per-frame pose and distances */
#include "io/import.h"

#include <stdbool.h>
#include <stddef.h>

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

#define AGAINST_EVERY_CLIP (-100) /* command_against_report: no --clip given */

/* `--against OTHER --report`: every clip (or `only_clip`, unless AGAINST_EVERY_CLIP) of MODEL at 0, every 1/AGAINST_REPORT_RATE s and its end; one
 * line per clip (worst and mean distance, absolute and of MODEL's diagonal, where and when the worst
 * is) on stdout; exit 0 when every clip is within `tolerance` x MODEL's diagonal, else 1. MODEL is
 * skinned by `method` (skin_mesh_by_method). */
int command_against_report(const Model *model, const char *other_path, const ImportOptions *import,
                           SkinningMethod method, float tolerance, int only_clip);

#endif
