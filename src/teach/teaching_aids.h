/* teaching_aids.h — src/teach/, the teaching aids: everything the viewer and --screenshot draw around
 * the skinned model to teach how it moves, in one room (README "Rooms"; the VAT player draws the
 * ground grid). Its state (TeachingAids, below) and its calls; the files of the room:
 *   aids.h / aids.c           the switches: which aids are on (flags at start, keys after)
 *   scene.c                   set-up, joint selection and picking, scene_evaluate, scene_draw: the
 *                             surface, the ground grid, the skeleton, axes, joint names, the weights
 *                             legend, the aids panel's lines
 *   formula.c                 the aids that teach the formula: the difference view, the vertex
 *                             inspector's marker and picking, the bone-space view, isolate / hide
 *   panels.c                  their panels and legends: the difference legend, the inspector panel,
 *                             the morph sliders
 *   draw.c                    the drawing helpers every aid uses (a segment, the legends' colour bar)
 *   against.h / against.c     --against OTHER per frame: OTHER posed at MODEL's clip and time, the
 *                             distances of the difference view (set-up and --report: app/against.c)
 *   source_rig.h / .c         the skeleton an added clip was retargeted from, posed beside the
 *                             character (Shift+B, --show-source-rig; docs/retargeting.md)
 * The numbers the aids show are computed in src/anim, plain math tested without a window: one
 * vertex through the skinning formula (anim/inspect.h), the skeleton's line and dot geometry
 * (anim/skeleton_lines.h); GL primitives (lines, text, the viridis colour map) are src/gfx's.
 *
 * One TeachingAids per window or screenshot, built once after the renderer (scene_init), so a
 * screenshot shows exactly what the window shows with the same flags / keys:
 *   - the surface as lit material, weight heat-map of the selected joint, or influence count
 *   - wireframe, skinned normals as lines (renderer_draw_wireframe / renderer_draw_normals)
 *   - the ground grid with the world axes (on by default; sized to the model, at the lowest
 *     point of the bind pose)
 *   - the skeleton: bones with a dark halo, joint dots (root, bone, helper drawn differently),
 *     the selected joint highlighted, RGB axis triads, joint names
 *   - the heat-map legend and a panel on the selected joint (name, parent, depth, values)
 * Per frame: scene_evaluate() (animation + the skinning method's CPU work, both timed), then
 * scene_draw(). Nothing is allocated per frame. (The functions keep the prefix scene_: the scene
 * the aids draw around the model.)
 */
#ifndef SKINVIEW_TEACHING_AIDS_H
#define SKINVIEW_TEACHING_AIDS_H

#include "teach/aids.h"
#include "teach/source_rig.h"
#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "gfx/lines.h"
#include "gfx/text.h"
#include "gfx/renderer.h"

#include <stdbool.h>
#include <stddef.h>

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
    double         timing_sum[3];  /* anim_us, skin_us, other_anim_us summed since timing_start (publish_timings) */
    int            timing_frames, timing_other_frames;
    double         timing_start;   /* now_us() of the first summed frame; 0: none yet */
    int            timing_mode;    /* hud | reference << 1 of the frames summed: a change publishes at once */
    double         shown_us[3];    /* what the HUD prints: the last half second's means; [2] < 0: not measured */
    NameLabel     *labels;         /* [joint_count] scratch of scene_place_names */
    int           *label_order;    /* [joint_count] scratch: dots in placement order */
    MorphOverride  morph_override; /* hand-set morph weights (--morph, the sliders) over the clip's */
    /* the aids that teach the formula (formula.c, panels.c), all allocated in scene_init */
    SkinDqPose     teach_dq;       /* dual quaternions for CPU skinning (difference view, inspector) */
    bool           teach_dq_ready;
    vec3          *scratch_a, *scratch_b; /* [largest mesh] CPU-skinned positions */
    float         *distances;      /* [all vertices, mesh after mesh] the difference view's |p_A - p_B| */
    float         *heat;           /* [largest mesh] distances / compare_legend, uploaded */
    int           *mesh_offset;    /* [mesh_count] first entry of each mesh in distances */
    float          compare_max, compare_legend; /* largest distance this frame; the legend's end (1, 2, 5 x 10^k) */
    struct Against *against;       /* --against OTHER (teach/against.h): the difference view's other side is that file's
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

/* Grid for a model whose bind pose spans [bind_min, bind_max] and whose animation spans
 * [min, max] (scene space). Pure; unit-tested. */
void ground_grid_fit(const vec3 bind_min, const vec3 bind_max, const vec3 min, const vec3 max, GroundGrid *grid);

/* Segments the grid and its world axes need at most (GROUND_GRID_SEGMENTS * 2 line vertices). */
#define GROUND_GRID_SEGMENTS (2 * (2 * GRID_MAX_HALF_LINES + 1) + 3)

/* Draws the grid (thin lines) and the world axes X, Y, Z from the origin (twice as wide), using
 * vertices[] (room for `capacity` line vertices) as scratch. Also used by the --vat player. */
void ground_grid_draw(const GroundGrid *g, Lines *lines, LineVertex *vertices, int capacity, const mat4 view,
                      const mat4 projection, const LineStyle *style);

/* Builds the scene for `model` drawn by `renderer` with the aids of `aids`; [min, max] is the
 * animation's box (view_model_bounds). Uses `animator` as scratch (bind pose, for the grid).
 * Resolves aids->joint: false with a message when no joint has that name. */
bool scene_init(TeachingAids *scene, const Model *model, Renderer *renderer, Animator *animator, const AidOptions *aids,
                const vec3 min, const vec3 max, char *error, size_t error_size);
void scene_free(TeachingAids *scene);

/* Selects joint j (-1: none) for the heat-map, axes and panel. */
void scene_select_joint(TeachingAids *scene, int joint);

/* The next / previous dot joint in hierarchy order (wraps); from none, the first / last. */
void scene_step_joint(TeachingAids *scene, int direction);

/* The joint with the most weighted vertices (a weight > 0 on it, over every skinned mesh): where
 * the weights view (W, --show-weights) starts when no joint is selected; -1 without joints. */
int scene_most_weighted_joint(const TeachingAids *scene);

/* The dot joint whose projection lies within `radius` pixels of (x, y) (framebuffer pixels,
 * y down), nearest first; -1 if none. */
int scene_pick_joint(const TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                     int fb_width, int fb_height, float x, float y, float radius);

/* The viewer's left click (viewer.c on_mouse_button) as one pure step, so it is tested without a
 * mouse: a press at (press_x, press_y) released at (x, y), in window units (y down), on a window
 * of window_width x window_height units whose framebuffer is fb_width x fb_height pixels (HiDPI:
 * larger). A click (not a drag) selects the nearest dot joint within the pick radius (the
 * cursor scaled to framebuffer pixels) and returns it; -1 when it was a drag or no dot is near
 * (the selection stays). */
int scene_click_joint(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                      int window_width, int window_height, int fb_width, int fb_height, double press_x,
                      double press_y, double x, double y);

/* Places the joint names (J) so that no two panels overlap: the selected joint first, then its
 * ancestors (nearest first), its descendants, then the other dots from the root outwards (by
 * depth). Each name tries 12 spots around its dot, nearest first (right, left, above and below
 * each side, centred above and below, then one label further up and down on each side); the first spot that lies inside the window and overlaps no name
 * already placed wins, and a name with no free spot is left out. A "namespace:" prefix that
 * every dot joint's name shares is left out of the labels (name_prefix). Writes labels[] (room for
 * dot_count) and returns how many were placed; `text` measures the names at its current size
 * (scene_text_pixels). Pure (no GL), no allocation. */
int scene_place_names(TeachingAids *scene, const Text *text, const Animator *animator, const mat4 view, const mat4 projection,
                      int fb_width, int fb_height, NameLabel *labels);

/* The aids' text size for a framebuffer: a step below the HUD's (hud_font_pixels), narrower in
 * a narrow window, 11 pixels at the least. */
float scene_text_pixels(int fb_width, int fb_height);

/* Where joint j's origin lands on screen (framebuffer pixels, y down); false behind the eye. */
bool scene_project_joint(const Animator *animator, int joint, const mat4 view, const mat4 projection, int fb_width,
                         int fb_height, float *x, float *y);

/* ---- the aids that teach the formula (formula.c; their panels and legends: panels.c) ---- */
/* MESH:INDEX -> mesh (index or name; the last ':' splits) and vertex; false with a one-line message
 * (--inspect-vertex, the command and the panel). */
bool scene_parse_vertex_spec(const Model *model, const char *spec, int *mesh, int *vertex, char *error, size_t error_size);
/* The inspected vertex where the drawn method puts it (this frame's numbers). */
const float *scene_inspected_position(const TeachingAids *scene);
bool scene_teach_init(TeachingAids *scene, const AidOptions *aids, char *error, size_t error_size);
void scene_teach_free(TeachingAids *scene);
/* The method the surface is drawn with (the difference view draws its first method). */
SkinningMethod scene_drawn_method(const TeachingAids *scene);
/* After renderer_prepare: joint visibility, the difference view's distances (uploaded), the
 * inspected vertex's numbers, the bone-space view's points. No allocation. */
void scene_teach_evaluate(TeachingAids *scene, const Animator *animator);
/* under_skeleton: the bone-space view (drawn before the skeleton, so the joint dots stay on top);
 * else the inspected vertex's marker (after it). */
void scene_teach_draw(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int fb_width,
                      int fb_height, float scale, bool under_skeleton);
/* The aids' panels and legends (difference view, inspector, bone space, morph sliders) into `text`. */
void scene_teach_text(TeachingAids *scene, const Animator *animator, Text *text, int fb_width, int fb_height, float scale);
/* After text_flush: the morph sliders' bars (drawn over their panel). */
void scene_teach_finish(TeachingAids *scene, int fb_width, int fb_height);
/* The vertex nearest the eye among those whose CPU-posed position (the drawn method) projects within
 * `radius` pixels of (x, y) (framebuffer pixels, y down); -1 if none. *mesh: its mesh. */
int scene_pick_vertex(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int fb_width,
                      int fb_height, float x, float y, float radius, int *mesh);
/* A click at (x, y) window units: inspects the vertex under it (scene_pick_vertex with the joint
 * pick radius); false when there is none (the inspection stays). */
bool scene_click_vertex(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int window_width,
                        int window_height, int fb_width, int fb_height, double x, double y);
/* Is `joint` `ancestor` itself or below it in the hierarchy? */
bool scene_descends_from(const Skeleton *skeleton, int joint, int ancestor);
/* Is joint j drawn in the skeleton overlay (isolate, hide)? */
bool scene_joint_visible(const TeachingAids *scene, int joint);
/* Backspace: hides / shows the selected joint and its descendants in the overlay. */
void scene_toggle_hide_joint(TeachingAids *scene);
/* The morph sliders' mouse: phase 0 press (true: on a bar, the drag is the slider's), 1 moved,
 * 2 released (the target goes back to the clip's weight); framebuffer pixels. */
bool scene_slider_grab(TeachingAids *scene, int phase, float x, float y);

/* --against: the difference view measures MODEL against `against` (posed by scene_evaluate, during a
 * cross-fade too) and is turned on; NULL: back to two methods. */
void scene_set_against(TeachingAids *scene, struct Against *against);

/* A cross-fade (view/playback.h): from clip `from` at `from_time` towards the evaluated clip,
 * `weight` of the way there (0..1). */
typedef struct SceneFade {
    int   from;
    float from_time;
    float weight;
} SceneFade;

/* The one evaluation of a frame: animator_evaluate(clip, time), or with `fade` (NULL: none)
 * animator_evaluate_blend from the fade's clip, (+ the hand-set morph weights) and
 * renderer_prepare(), each timed into anim_us / skin_us; with --against, OTHER posed the same way
 * (against_pose / against_pose_blend). scene_evaluate: no fade. */
void scene_evaluate_fade(TeachingAids *scene, Animator *animator, int clip, float time, const SceneFade *fade);
void scene_evaluate(TeachingAids *scene, Animator *animator, int clip, float time);

/* Draws the model and every aid that is on into the bound framebuffer (fb_width x fb_height),
 * including the text of the aids (names, legends, panels) through `text` (NULL: no text), which
 * scene_draw sizes (scene_text_pixels), fills and flushes. */
void scene_draw(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                const RenderLight *light, Text *text, int fb_width, int fb_height);

/* One line saying how the model is skinned and what that costs, e.g.
 * "GPU DQS  anim 5.1 us  skin 12.0 us  (1 mesh on LBS: non-uniform scale or shear on a bone)". */
void scene_format_method(const TeachingAids *scene, char *out, size_t out_size);

/* The selected joint's panel: name, parent, depth; with values, its local T, R (axis, angle),
 * S and its model-space T, R, S. "" when no joint is selected. */
void scene_format_joint(const TeachingAids *scene, const Animator *animator, bool values, char *out, size_t out_size);

/* What is shown, e.g. "shown: weights of forearm.L, skeleton, axes (selected), grid". */
void scene_format_shown(const TeachingAids *scene, char *out, size_t out_size);

#endif
