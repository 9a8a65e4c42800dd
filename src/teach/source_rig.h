/* source_rig.h — the skeleton a clip was retargeted from, posed beside the character (Shift+B,
 * --show-source-rig; docs/retargeting.md): the two rigs side by side while the clip plays, so that
 * what retargeting kept (each joint's turn away from its rest) and what it changed (bone lengths,
 * rest pose, joint orientations) can be compared.
 *
 * Where each source joint is drawn (source_rig_place):
 *   q_j = k · A · p_j(t) + d          p_j(t): the source joint's origin in its own scene, at clip time t
 *                                      A, k:   the retargeting's axes turn and hip height ratio
 *                                              (SourceRig.align, .scale: the rig at the character's size)
 *   d   = s + (h_c(t) - k · A · p_hips(t)) with its up component left out; s: `side` scene units
 *         along the camera's right, level (so the rig stands right of the character from every view)
 * so the rig stands on the character's ground at its size, and keeps pace beside the character's hips
 * in every root-motion mode. Buffers are allocated once (source_rig_view_init); nothing per frame. */
#ifndef SKINVIEW_SOURCE_RIG_H
#define SKINVIEW_SOURCE_RIG_H

#include "anim/animator.h"
#include "gfx/lines.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct SourceRigView {
    int        rig_count;
    Animator  *poses;          /* [rig_count] each source rig's pose (its own Animator) */
    int        rig;            /* the rig of the last evaluated clip (0-based), -1: the clip has none */
    float      side;           /* how far beside the character, scene units */
    LineVertex *vertices;      /* [2 x most source joints] segments, then dots */
    int        capacity;       /* vertices */
    vec3      *placed;         /* [most source joints] this frame's joint positions (source_rig_place) */
    Lines      lines;
    bool       lines_ready;
} SourceRigView;

/* Allocates a pose for every source rig of `character` and GL line buffers (a current context).
 * `side`: how far beside the character to stand the rig. False with one line in error. */
bool source_rig_view_init(SourceRigView *view, const Model *character, float side, char *error, size_t error_size);
void source_rig_view_free(SourceRigView *view);

/* Poses the source rig of clip `clip` of the character at `time` (the character's own clip time:
 * retargeted clips keep the source clip's timing); no rig for the character's own clips. */
void source_rig_view_evaluate(SourceRigView *view, const Model *character, int clip, float time);

/* The same during a cross-fade from clip `from` at `from_time` (weight: the incoming clip's share,
 * as animator_evaluate_blend; from < 0: no fade), so that the rig follows what the character shows:
 *   both clips from one rig     that rig, its two source clips blended with the character's weight
 *   only the incoming has one   the incoming clip's rig
 *   only the outgoing has one   the outgoing clip's rig at from_time, until the fade ends
 * Nothing is allocated (each rig's Animator keeps the cursors of both clips). */
void source_rig_view_evaluate_fade(SourceRigView *view, const Model *character, int clip, float time, int from,
                                   float from_time, float weight);

/* Writes where source joint j of `rig` stands next to the character (the formula above), for every
 * joint of the rig: out[joint_count]. `character_pose`: the character's joint matrices this frame;
 * `side`: the offset s (its up component is not used). */
void source_rig_place(const SourceRig *rig, const mat4 *source_pose, const mat4 *character_pose, const vec3 side, vec3 *out);

/* Draws the posed rig (bones parent -> joint below its hips, with a dark halo, and joint dots). */
void source_rig_view_draw(SourceRigView *view, const Model *character, const mat4 *character_pose, const mat4 view_matrix,
                          const mat4 projection, const LineStyle *style, float scale);

/* The colour the source rig is drawn in (tests look for it). */
extern const float source_rig_color[4];

#endif
