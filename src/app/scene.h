/* scene.h — what the viewer and --screenshot draw around the skinned model: the teaching aids
 * (TeachingAids, its state and shared drawing helpers in scene_aids.h; the file keeps the name of
 * the scene it draws around the model).
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
 * scene_draw(). Nothing is allocated per frame.
 */
#ifndef SKINVIEW_SCENE_H
#define SKINVIEW_SCENE_H

#include "scene_aids.h"
#include "gfx/lines.h"
#include "gfx/text.h"
#include "gfx/renderer.h"

#include <stdbool.h>
#include <stddef.h>

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
 * animation's box (app_model_bounds). Uses `animator` as scratch (bind pose, for the grid).
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

/* ---- the aids that teach the formula (scene_teach.c) ---- */
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
