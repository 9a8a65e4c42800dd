/* aids.h — the teaching aids' switches: which aids are on (flags at start, keys after), and the
 * keys that toggle them (aids_apply). The CLI (app/cli.h) parses the flags into an AidOptions; the
 * teaching aids (teaching_aids.h) keep their own live copy. Pure: no window, no GL. */
#ifndef SKINVIEW_AIDS_H
#define SKINVIEW_AIDS_H

#include "anim/skin_dq.h"   /* SkinningMethod */
#include "view/playback.h"  /* Action */

#include <stdbool.h>

/* Where joint axes (RGB triads) are drawn: --show-axes [all], key A. */
typedef enum AxesMode { AXES_OFF = 0, AXES_SELECTED, AXES_ALL } AxesMode;

/* The teaching aids of the viewer and --screenshot (flags; the viewer's keys toggle the same). */
typedef struct AidOptions {
    SkinningMethod skinning;     /* --skinning gpu|cpu|dq|rigid */
    bool        reference;       /* --reference (Shift+R): the lesson's reference functions instead of the fast
                                    path (Animator.reference); the HUD times both */
    bool        compare;         /* --compare A,B (D): per-vertex distance between two methods, a heat-map */
    SkinningMethod compare_a, compare_b; /* the two methods compared (default lbs, dq) */
    bool        show_skeleton;   /* --show-skeleton (B) */
    bool        show_source_rig; /* --show-source-rig (Shift+B): the rig an added clip was retargeted from,
                                    beside the character (teach/source_rig.h) */
    bool        show_weights;    /* --show-weights [JOINT] (W): heat-map of the selected joint */
    bool        show_influences; /* --show-influences (W twice): colour by influence count */
    const char *joint;           /* --joint NAME, or the JOINT of --show-weights; NULL = none */
    AxesMode    axes;            /* --show-axes [all] (A) */
    bool        show_names;      /* --show-names (J) */
    bool        joint_values;    /* --joint-values (I): the selected joint's local and model values */
    bool        wireframe;       /* --wireframe (X) */
    bool        grid;            /* ground grid + world axes (G); --no-grid turns it off */
    bool        shadow;          /* --shadow: the model's shadow on the ground grid (renderer_draw_shadow) */
    const char *environment;     /* --environment FILE.hdr: image-based ambient light, NULL: the hemisphere */
    bool        show_normals;    /* --show-normals (V) */
    const char *morph;           /* --morph NAME=W,...: morph target weights over the clip's (the sliders' start) */
    bool        inspector;       /* E (a click on a vertex, --inspect-vertex with --screenshot): the vertex
                                    inspector panel */
    const char *inspect_vertex;  /* MESH:INDEX the panel starts on (--inspect-vertex with --screenshot), or NULL */
    bool        show_bone_space; /* --show-bone-space (Y): the selected joint's bone space and its vertices */
    bool        show_morphs;     /* --show-morphs (Z): the morph target sliders of the selected mesh */
    bool        isolate_joint;   /* --isolate-joint (/): the skeleton overlay shows only the selected joint's
                                    chain, the influence view only its vertices */
    const char *hide_joints;     /* --hide-joints A,B: joints hidden (with their descendants) in the overlay */
} AidOptions;

/* Applies a teaching-aid action to `aids` (W, A, J, I, K, X, G, V, B, D, E, Y, Z, /). Returns true if it was
 * one. Joint selection ([ ]) is the teaching-aids layer's (scene_step_joint). */
bool aids_apply(AidOptions *aids, Action action);

#endif
