/* scene_aids.h — the teaching aids' state (TeachingAids), which scene.c builds and draws and
 * scene_teach.c's formula aids extend, and the drawing helpers both use: a segment into the scratch
 * vertices, the legends' colour bar. The scene's functions: scene.h. */
#ifndef SKINVIEW_SCENE_AIDS_H
#define SKINVIEW_SCENE_AIDS_H

#include "cli.h"
#include "source_rig.h"
#include "gfx/lines.h"
#include "gfx/renderer.h"

#include <stdbool.h>

#define LEGEND_STEPS 64                /* colour bar of the heat-map legend */

/* The ground grid: square, centred on a grid point near the model, at height y. */
#define GRID_MAX_HALF_LINES 12
typedef struct GroundGrid {
    float y;             /* the lowest point of the bind pose */
    float center[2];     /* x, z: a multiple of spacing */
    float spacing;       /* 1, 2 or 5 times a power of ten, about a tenth of the model's size */
    int   half_lines;    /* lines from the centre to each edge */
} GroundGrid;

/* One joint name placed on screen (J): its panel (the text plus text_pad() around it), in
 * framebuffer pixels, y down. */
typedef struct NameLabel {
    int   joint;
    float x, y, width, height;
} NameLabel;

typedef struct TeachingAids {
    const Model   *model;
    Renderer      *renderer;       /* not owned */
    AidOptions     shown;          /* the aids shown now: the CLI's options copied at scene_init, then
                                      toggled by keys (aids_apply); the CLI's own struct is never written */
    int            selected_joint; /* -1: none */
    bool           hud;            /* draw the aids panel (method, timings, joint) */
    Lines          lines;
    LineVertex    *vertices;       /* scratch for one lines_draw */
    int            vertex_capacity;
    int           *line_joints;    /* skeleton segments: parent[j] -> j, j = line_joints[s] */
    int            segment_count;
    int           *dot_joints;     /* joints drawn as dots, hierarchy order */
    unsigned char *dot_kinds;      /* JointDotKind */
    int            dot_count;
    float          size;           /* diagonal of the animation's bounding box */
    int            lost_influence_vertices; /* file vertices whose 5th+ influences the import cut (ImportStats) */
    GroundGrid     grid;
    double         anim_us, skin_us; /* CPU time of the last scene_evaluate: animator, method */
    Animator       other_path;     /* the pose evaluated the other way (reference <-> fast), only to time it */
    bool           other_path_ready;
    double         other_anim_us;  /* its time in the last scene_evaluate with the HUD shown; < 0: not measured */
    NameLabel     *labels;         /* [joint_count] scratch of scene_place_names */
    int           *label_order;    /* [joint_count] scratch: dots in placement order */
    MorphOverride  morph_override; /* hand-set morph weights (--morph, the sliders) over the clip's */
    /* the aids that teach the formula (scene_teach.c), all allocated in scene_init */
    SkinDqPose     teach_dq;       /* dual quaternions for CPU skinning (difference view, inspector) */
    bool           teach_dq_ready;
    vec3          *scratch_a, *scratch_b; /* [largest mesh] CPU-skinned positions */
    float         *distances;      /* [all vertices, mesh after mesh] the difference view's |p_A - p_B| */
    float         *heat;           /* [largest mesh] distances / compare_legend, uploaded */
    int           *mesh_offset;    /* [mesh_count] first entry of each mesh in distances */
    float          compare_max, compare_legend; /* largest distance this frame; the legend's end (1, 2, 5 x 10^k) */
    struct Against *against;       /* --against OTHER (app/against.h): the difference view's other side is that file's
                                      vertex at the same clip and time, not a second method; NULL: none. Not owned */
    int            pose_clip;      /* the clip / time of the last scene_evaluate (the legend names the clip) */
    int            inspect_mesh, inspect_vertex; /* the inspected vertex, -1: none */
    struct VertexInspection *inspection; /* this frame's numbers of it (anim/inspect.h) */
    bool          *joint_hidden;   /* [joint_count] hidden in the skeleton overlay, with its descendants */
    bool          *joint_visible;  /* [joint_count] this frame: not hidden and (isolate) on the selected chain */
    Lines          teach_lines;    /* room for a point per vertex (bone-space view) */
    LineVertex    *space_points;   /* [all vertices] the vertices the selected joint moves */
    int            space_point_count, space_full;
    int            slider_mesh, slider_target, slider_rows; /* morph sliders: mesh, the one dragged (-1), rows drawn */
    float          slider_x, slider_y, slider_w, slider_h;   /* the bars' box as last drawn, framebuffer pixels */
    float          slider_scale;
    int            slider_segments; /* bar segments scene_teach_text left in vertices[] for scene_teach_finish */
    bool           inspector_compact; /* E's second press: the inspector without the matrices */
    float          inspect_box[4]; /* this frame: the inspected vertex and the joints it is drawn to, on screen
                                      (framebuffer pixels, y down: x0, y0, x1, y1), the region the panel avoids */
    bool           inspect_box_valid;
    int            name_prefix;    /* length of a "namespace:" every dot joint's name starts with (e.g.
                                      "mixamorig:"), left out of the labels (the panel shows it); 0: none */
    SourceRigView  source_rig;     /* the skeleton the clip was retargeted from, beside the character (Shift+B) */
} TeachingAids;

/* A click on a joint dot: a press released within SCENE_CLICK_PIXELS (window units, each axis)
 * of where it was pressed; the dots within SCENE_PICK_RADIUS framebuffer pixels, times the text
 * scale (text_scale_for), of the cursor are candidates. */
#define SCENE_CLICK_PIXELS 4.0
#define SCENE_PICK_RADIUS 12.0f

/* Appends segment a -> b to vertices[] (room for `capacity` vertices) at segment *count (nothing
 * when it is full). */
void scene_push_segment(LineVertex *vertices, int capacity, int *count, const float a[3], const float b[3],
                        const float color[4]);
/* The legends' colour bar at the top right, in framebuffer pixels: the viridis ramp (weights, the
 * difference view) or the five influence-count colours; draws it and says where it lies. */
void scene_legend_bar(TeachingAids *scene, int fb_width, int fb_height, float scale, bool viridis, float *left, float *right,
                      float *top, float *bottom);

#endif
