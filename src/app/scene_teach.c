/* scene_teach.c — the aids that teach the formula (issue 19), part of the TeachingAids (scene.h):
 *   the vertex inspector panel (E, a click on a vertex, --inspect-vertex with --screenshot),
 *   the difference view of two skinning methods (D, --compare A,B), or of MODEL against another file of
 *   the same character at the same clip and time (--against OTHER, app/against.h),
 *   the three spaces: the selected joint's bone space and the vertices it moves (Y, --show-bone-space),
 *   morph target sliders (Z, --show-morphs; --morph sets their start),
 *   per-joint isolate and hide in the skeleton overlay (/, Backspace; --isolate-joint, --hide-joints).
 * Every buffer is allocated in scene_teach_init; nothing per frame, no name looked up per frame. */
#include "commands.h"
#include "scene.h"
#include "against.h"
#include "anim/inspect.h"
#include "gfx/colormap.h"
#include "view/hud.h"   /* hud_reserved_bands: the inspector keeps off the timeline */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLIDER_ROWS_MAX 24
static const unsigned char white[4] = {255, 255, 255, 255};
static const unsigned char dim[4] = {170, 175, 185, 255};
static const float halo[4] = {0.0f, 0.0f, 0.0f, 0.85f};
static const float marker_color[4] = {1.0f, 1.0f, 1.0f, 1.0f};
static const float axis_colors[3][4] = {{1.0f, 0.22f, 0.2f, 1.0f}, {0.25f, 1.0f, 0.25f, 1.0f}, {0.3f, 0.55f, 1.0f, 1.0f}};
static const float bind_axis_colors[3][4] = {{0.6f, 0.3f, 0.3f, 0.8f}, {0.3f, 0.6f, 0.3f, 0.8f}, {0.3f, 0.4f, 0.7f, 0.8f}};

/* ---- set-up ---------------------------------------------------------------------------- */

/* --hide-joints A,B: the joints named (each with its descendants). */
static bool hide_named_joints(TeachingAids *scene, const char *list, char *error, size_t error_size)
{
    const Skeleton *skeleton = &scene->model->skeleton;
    for (const char *item = list; item && *item;) {
        size_t length = strcspn(item, ",");
        int found = -1;
        for (int j = 0; j < skeleton->joint_count && found < 0; j++)
            if (strlen(skeleton->names[j]) == length && strncmp(skeleton->names[j], item, length) == 0) found = j;
        if (found < 0) {
            snprintf(error, error_size, "--hide-joints: no joint named '%.*s' (see --info)", (int)length, item);
            return false;
        }
        scene->joint_hidden[found] = true;
        item += length;
        if (*item == ',') item++;
    }
    return true;
}

bool scene_teach_init(TeachingAids *scene, const AidOptions *aids, char *error, size_t error_size)
{
    const Model *model = scene->model;
    int largest = 1, total = 1;
    for (int m = 0; m < model->mesh_count; m++) {
        if (model->meshes[m].vertex_count > largest) largest = model->meshes[m].vertex_count;
        total += model->meshes[m].vertex_count;
    }
    size_t joints = (size_t)(model->skeleton.joint_count > 0 ? model->skeleton.joint_count : 1);
    size_t meshes = (size_t)(model->mesh_count > 0 ? model->mesh_count : 1);
    scene->scratch_a = malloc(sizeof(vec3) * (size_t)largest);
    scene->scratch_b = malloc(sizeof(vec3) * (size_t)largest);
    scene->distances = malloc(sizeof(float) * (size_t)total);
    scene->heat = malloc(sizeof(float) * (size_t)largest);
    scene->mesh_offset = malloc(sizeof(int) * meshes);
    scene->joint_hidden = calloc(joints, sizeof(bool));
    scene->joint_visible = malloc(sizeof(bool) * joints);
    scene->space_points = malloc(sizeof(LineVertex) * (size_t)total);
    scene->inspection = malloc(sizeof(VertexInspection));
    scene->inspect_mesh = scene->inspect_vertex = -1;
    scene->slider_target = -1;
    if (!scene->scratch_a || !scene->scratch_b || !scene->distances || !scene->heat || !scene->mesh_offset ||
        !scene->joint_hidden || !scene->joint_visible || !scene->space_points || !scene->inspection ||
        !skin_dq_pose_init(&scene->teach_dq, model)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    scene->teach_dq_ready = true;
    for (size_t j = 0; j < joints; j++) scene->joint_visible[j] = true;
    for (int m = 0, offset = 0; m < model->mesh_count; m++) {
        scene->mesh_offset[m] = offset;
        offset += model->meshes[m].vertex_count;
    }
    if (!lines_init(&scene->teach_lines, total, error, error_size)) return false;
    if (!hide_named_joints(scene, aids->hide_joints, error, error_size)) return false;
    if (aids->inspect_vertex &&
        !app_parse_vertex_spec(model, aids->inspect_vertex, &scene->inspect_mesh, &scene->inspect_vertex, error,
                               error_size))
        return false;
    if (scene->inspect_mesh >= 0) scene->shown.inspector = true;
    return true;
}

void scene_teach_free(TeachingAids *scene)
{
    if (scene->teach_lines.line_program) lines_free(&scene->teach_lines);
    if (scene->teach_dq_ready) skin_dq_pose_free(&scene->teach_dq);
    free(scene->scratch_a);
    free(scene->scratch_b);
    free(scene->distances);
    free(scene->heat);
    free(scene->mesh_offset);
    free(scene->joint_hidden);
    free(scene->joint_visible);
    free(scene->space_points);
    free(scene->inspection);
}

/* ---- joints: isolate / hide -------------------------------------------------------------- */

static bool descends_from(const Skeleton *skeleton, int joint, int ancestor)
{
    for (int j = joint; j >= 0; j = skeleton->parent[j])
        if (j == ancestor) return true;
    return false;
}

void scene_toggle_hide_joint(TeachingAids *scene)
{
    if (scene->selected_joint >= 0) scene->joint_hidden[scene->selected_joint] = !scene->joint_hidden[scene->selected_joint];
}

/* joint_visible[j]: not below a hidden joint, and (isolate) on the selected joint's chain. */
static void update_joint_visibility(TeachingAids *scene)
{
    const Skeleton *skeleton = &scene->model->skeleton;
    int selected = scene->selected_joint;
    for (int j = 0; j < skeleton->joint_count; j++) {
        bool visible = !scene->joint_hidden[j];
        /* hidden with its descendants: a hidden ancestor hides it too */
        for (int a = skeleton->parent[j]; a >= 0 && visible; a = skeleton->parent[a])
            if (scene->joint_hidden[a]) visible = false;
        if (visible && scene->shown.isolate_joint && selected >= 0)   /* the chain: ancestors and descendants */
            visible = descends_from(skeleton, j, selected) || descends_from(skeleton, selected, j);
        scene->joint_visible[j] = visible;
    }
}

bool scene_joint_visible(const TeachingAids *scene, int joint)
{
    return joint < 0 || !scene->joint_visible || scene->joint_visible[joint];
}

/* ---- per frame ------------------------------------------------------------------------- */

/* The difference view's legend end: the "nice" number 1, 2 or 5 x 10^k at or above `value`. */
static float nice_ceiling(float value)
{
    if (!(value > 0.0f)) return 0.0f;
    float power = powf(10.0f, floorf(log10f(value)));
    return value <= power ? power : value <= 2.0f * power ? 2.0f * power : value <= 5.0f * power ? 5.0f * power
                                                                                                 : 10.0f * power;
}

/* The method the surface is drawn with: the difference view draws its first method. */
SkinningMethod scene_drawn_method(const TeachingAids *scene)
{
    return scene->shown.compare && !scene->against ? scene->shown.compare_a : scene->shown.skinning;
}

void scene_teach_evaluate(TeachingAids *scene, const Animator *animator)
{
    const Model *model = scene->model;
    Renderer *renderer = scene->renderer;
    update_joint_visibility(scene);
    renderer->only_selected = scene->shown.isolate_joint && scene->selected_joint >= 0;
    bool need_dq = scene->shown.compare || scene->shown.inspector || scene->shown.show_bone_space;
    if (need_dq) skin_dq_pose_update(&scene->teach_dq, animator);
    renderer->show_heat = scene->shown.compare;
    if (scene->shown.compare) {
        /* |p_A(v) - p_B(v)| by CPU skinning, or (--against) |p_MODEL(v) - p_OTHER(partner(v))| with OTHER
         * posed at the same clip and time; then scaled to the legend's end for the colours */
        struct Against *against = scene->against;
        float largest = 0.0f;
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            float *d = scene->distances + scene->mesh_offset[m], distance = 0.0f;
            if (against && against->posed) {
                skin_mesh_by_method(scene_drawn_method(scene), &scene->teach_dq, animator, m, scene->scratch_a, NULL);
                distance = against_measure(against, scene->mesh_offset[m], mesh->vertex_count, (const vec3 *)scene->scratch_a, d);
            } else if (against) {
                memset(d, 0, sizeof(float) * (size_t)mesh->vertex_count);   /* no partner clip: nothing measured */
            } else if (mesh->skinned) {
                distance = skin_compare_mesh(scene->shown.compare_a, scene->shown.compare_b, &scene->teach_dq, animator, m,
                                             scene->scratch_a, scene->scratch_b, d);
            }
            if (distance > largest) largest = distance;
        }
        scene->compare_max = largest;
        /* --against: float noise between two files (1e-6 of the size) is no difference: the legend reaches
         * AGAINST_LEGEND_FLOOR of MODEL's diagonal at least, so that it stays dark */
        float floor_value = against ? (float)AGAINST_LEGEND_FLOOR * against->model_diagonal : 0.0f;
        scene->compare_legend = nice_ceiling(fmaxf(largest, floor_value));
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            if (!mesh->skinned && !against) continue;
            const float *d = scene->distances + scene->mesh_offset[m];
            for (int v = 0; v < mesh->vertex_count; v++)
                scene->heat[v] = scene->compare_legend > 0.0f ? d[v] / scene->compare_legend : 0.0f;
            renderer_set_vertex_heat(renderer, m, scene->heat);
        }
    }
    if (scene->shown.inspector && scene->inspect_mesh >= 0)
        vertex_inspect(animator, &scene->teach_dq, scene->inspect_mesh, scene->inspect_vertex, scene->inspection);
    scene->space_point_count = 0;
    int joint = scene->selected_joint;
    if (scene->shown.show_bone_space && joint >= 0) {
        /* the vertices the joint moves, where the drawn method puts them, coloured by their weight on it */
        scene->space_full = 0;
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            if (!mesh->skinned || (renderer->mesh_visible && !renderer->mesh_visible[m])) continue;
            int bone = renderer->selected_bone[m];
            if (bone < 0) continue;
            skin_mesh_by_method(scene_drawn_method(scene), &scene->teach_dq, animator, m, scene->scratch_a, NULL);
            for (int v = 0; v < mesh->vertex_count; v++) {
                float w = 0.0f;
                for (int k = 0; k < SV_MAX_INFLUENCES; k++)
                    if (mesh->joint_indices[v][k] == bone) w += mesh->weights[v][k];
                if (w <= 0.0f) continue;
                if (w >= 1.0f - 1e-6f) scene->space_full++;
                LineVertex *p = &scene->space_points[scene->space_point_count++];
                memcpy(p->position, scene->scratch_a[v], sizeof p->position);
                unsigned char rgb[3];
                colormap_viridis_srgb8(w, rgb);
                for (int c = 0; c < 3; c++) p->color[c] = rgb[c] / 255.0f;
                p->color[3] = 1.0f;
            }
        }
    }
}

/* ---- picking a vertex ------------------------------------------------------------------- */

int scene_pick_vertex(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int fb_width,
                      int fb_height, float x, float y, float radius, int *out_mesh)
{
    const Model *model = scene->model;
    const Renderer *renderer = scene->renderer;
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    int best = -1;
    float best_depth = FLT_MAX;
    *out_mesh = -1;
    skin_dq_pose_update(&scene->teach_dq, animator);
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (renderer->mesh_visible && !renderer->mesh_visible[m]) continue;
        /* the CPU pose of the drawn method: what is on screen */
        skin_mesh_by_method(scene_drawn_method(scene), &scene->teach_dq, animator, m, scene->scratch_a, NULL);
        for (int v = 0; v < mesh->vertex_count; v++) {
            vec4 point = {scene->scratch_a[v][0], scene->scratch_a[v][1], scene->scratch_a[v][2], 1.0f}, clip;
            glm_mat4_mulv(view_projection, point, clip);
            if (clip[3] <= 0.0f) continue;
            float px = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)fb_width;
            float py = (0.5f - clip[1] / clip[3] * 0.5f) * (float)fb_height;
            float depth = clip[2] / clip[3];
            /* within the radius of the cursor, the one nearest the eye (the surface the user sees) */
            if (hypotf(px - x, py - y) <= radius && depth < best_depth) {
                best_depth = depth;
                best = v;
                *out_mesh = m;
            }
        }
    }
    return best;
}

bool scene_click_vertex(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int window_width,
                        int window_height, int fb_width, int fb_height, double x, double y)
{
    float px = (float)(window_width > 0 ? x * fb_width / window_width : x);
    float py = (float)(window_height > 0 ? y * fb_height / window_height : y);
    int mesh;
    int vertex = scene_pick_vertex(scene, animator, view, projection, fb_width, fb_height, px, py,
                                   SCENE_PICK_RADIUS * text_scale_for(fb_width, fb_height), &mesh);
    if (vertex < 0) return false;
    scene->inspect_mesh = mesh;
    scene->inspect_vertex = vertex;
    scene->shown.inspector = true;
    vertex_inspect(animator, &scene->teach_dq, mesh, vertex, scene->inspection);
    return true;
}

/* ---- drawing: 3D ------------------------------------------------------------------------- */

/* The inspected vertex where the drawn method puts it. */
static const float *inspected_position(const TeachingAids *scene)
{
    const VertexInspection *info = scene->inspection;
    SkinningMethod method = scene_drawn_method(scene);
    return method == SKINNING_GPU_DQ ? info->dq : method == SKINNING_RIGID ? info->rigid : info->lbs;
}

/* The screen box of the inspected vertex p and of the joints it is drawn to (its joint lines), with
 * room for the marker: what the inspector panel keeps clear of (place_inspector). */
static void record_inspect_box(TeachingAids *scene, const Animator *animator, const float *p, const mat4 view,
                               const mat4 projection, int fb_width, int fb_height)
{
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    float box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    const VertexInspection *info = scene->inspection;
    for (int i = -1; i < info->influence_count; i++) {
        const float *q = i < 0 ? p : animator->joint_model[info->influences[i].joint][3];
        vec4 point = {q[0], q[1], q[2], 1.0f}, clip;
        glm_mat4_mulv(view_projection, point, clip);   /* clip = P * V * (q, 1) */
        if (clip[3] <= 0.0f) continue;   /* behind the eye */
        float x = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)fb_width, y = (0.5f - clip[1] / clip[3] * 0.5f) * (float)fb_height;
        box[0] = fminf(box[0], x), box[1] = fminf(box[1], y), box[2] = fmaxf(box[2], x), box[3] = fmaxf(box[3], y);
    }
    const float marker = 12.0f * text_scale_for(fb_width, fb_height);   /* the vertex's dot and halo */
    scene->inspect_box_valid = box[0] <= box[2];
    scene->inspect_box[0] = box[0] - marker, scene->inspect_box[1] = box[1] - marker;
    scene->inspect_box[2] = box[2] + marker, scene->inspect_box[3] = box[3] + marker;
}

void scene_teach_draw(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection, int fb_width,
                      int fb_height, float scale, bool under_skeleton)
{
    if (under_skeleton) scene->inspect_box_valid = false;   /* set again below if the inspector shows a vertex */
    LineStyle style = {2.0f * scale, false, {fb_width, fb_height}};
    LineVertex *scratch = scene->vertices;
    int capacity = scene->vertex_capacity / 2, count = 0;
    int joint = scene->selected_joint;
    if (under_skeleton && scene->shown.show_bone_space && joint >= 0) {
        /* the bone's frame now (bright) and at bind time (dim): the axes its vertices are fixed in */
        float length = 0.18f * scene->size;
        const vec4 *now = animator->joint_model[joint], *bind = animator->bind.model[joint];
        for (int axis = 0; axis < 3; axis++) {
            vec3 d;
            glm_vec3_normalize_to((float *)bind[axis], d);
            float tip[3] = {bind[3][0] + 0.7f * length * d[0], bind[3][1] + 0.7f * length * d[1], bind[3][2] + 0.7f * length * d[2]};
            scene_push_segment(scratch, capacity, &count, bind[3], tip, bind_axis_colors[axis]);
        }
        for (int axis = 0; axis < 3; axis++) {
            vec3 d;
            glm_vec3_normalize_to((float *)now[axis], d);
            float tip[3] = {now[3][0] + length * d[0], now[3][1] + length * d[1], now[3][2] + length * d[2]};
            scene_push_segment(scratch, capacity, &count, now[3], tip, axis_colors[axis]);
        }
        LineStyle thick = style;
        thick.width = 3.0f * scale;
        lines_draw(&scene->lines, scratch, count, view, projection, &thick);
        count = 0;
        if (scene->space_point_count > 0)
            lines_draw_points(&scene->teach_lines, scene->space_points, scene->space_point_count, view, projection,
                              &style, 3.0f * scale);
    }
    if (!under_skeleton && scene->shown.inspector && scene->inspect_mesh >= 0) {
        /* the inspected vertex, and a line to each joint that moves it (brighter = heavier) */
        const VertexInspection *info = scene->inspection;
        const float *p = inspected_position(scene);
        record_inspect_box(scene, animator, p, view, projection, fb_width, fb_height);
        for (int i = 0; i < info->influence_count; i++) {
            float w = info->influences[i].weight, color[4] = {1.0f, 0.85f, 0.2f, 0.35f + 0.65f * w};
            scene_push_segment(scratch, capacity, &count, p, animator->joint_model[info->influences[i].joint][3], color);
        }
        lines_draw(&scene->lines, scratch, count, view, projection, &style);
        LineVertex dot;
        memcpy(dot.position, p, sizeof dot.position);
        memcpy(dot.color, halo, sizeof dot.color);
        lines_draw_points(&scene->lines, &dot, 1, view, projection, &style, 12.0f * scale);
        memcpy(dot.color, marker_color, sizeof dot.color);
        lines_draw_points(&scene->lines, &dot, 1, view, projection, &style, 8.0f * scale);
    }
}

/* ---- drawing: panels ---------------------------------------------------------------------- */

/* The gap between two boxes (x0, y0, x1, y1): 0 when they touch or overlap, then minus the overlap's
 * area (the less overlap, the better). */
static float box_gap(const float a[4], const float b[4])
{
    float dx = fmaxf(a[0] - b[2], b[0] - a[2]), dy = fmaxf(a[1] - b[3], b[1] - a[3]);
    if (dx > 0.0f || dy > 0.0f) return hypotf(fmaxf(dx, 0.0f), fmaxf(dy, 0.0f));
    return -(fminf(a[2], b[2]) - fmaxf(a[0], b[0])) * (fminf(a[3], b[3]) - fmaxf(a[1], b[1]));
}

/* Where the inspector panel of width x height goes: the screen corner farthest from the inspected
 * vertex and its joint lines (scene->inspect_box), so the panel never hides what it explains. The
 * corners: top right (the default: where the other panels stack), top left, bottom right, bottom left;
 * a corner another panel holds is skipped (the aids panel bottom left, the morph sliders left), and
 * the bottom corners stay above the timeline's band. */
static bool place_inspector(const TeachingAids *scene, float screen_w, float screen_h, float margin, float top,
                            float width, float height, float pad, float *x, float *y, float *gap)
{
    float hud_top, hud_bottom;
    hud_reserved_bands((int)screen_w, (int)screen_h, scene->model->clip_count > 0, &hud_top, &hud_bottom);
    float right = fmaxf(margin, screen_w - width - margin), bottom = screen_h * (1.0f - hud_bottom) - height - margin;
    const float corners[4][2] = {{right, top}, {margin, top}, {right, bottom}, {margin, bottom}};
    bool usable[4] = {true, !scene->shown.show_morphs, bottom > top, bottom > top && !scene->hud && !scene->shown.joint_values};
    int chosen = 0;
    *gap = INFINITY;   /* nothing to keep clear of */
    if (scene->inspect_box_valid && scene->inspect_mesh >= 0) {
        float best = -INFINITY;
        for (int c = 0; c < 4; c++) {
            if (!usable[c]) continue;
            /* the panel's background reaches pad beyond its text */
            float box[4] = {corners[c][0] - pad, corners[c][1] - pad, corners[c][0] + width + pad, corners[c][1] + height + pad};
            float gap = box_gap(box, scene->inspect_box);
            if (gap > best + 0.5f) best = gap, chosen = c;
        }
    }
    *x = corners[chosen][0], *y = corners[chosen][1];
    if (scene->inspect_box_valid && scene->inspect_mesh >= 0) {
        float box[4] = {*x - pad, *y - pad, *x + width + pad, *y + height + pad};
        *gap = box_gap(box, scene->inspect_box);
    }
    return chosen == 0;
}

/* The difference view's legend, top right: "|lbs - dq| in scene units", the bar, 0 and its end. */
static void draw_compare_legend(TeachingAids *scene, Text *text, int fb_width, int fb_height, float scale)
{
    static const char *const names[SKINNING_METHOD_COUNT] = {"lbs", "lbs", "dq", "rigid"};
    float left, right, top, bottom;
    scene_legend_bar(scene, fb_width, fb_height, scale, true, &left, &right, &top, &bottom);
    char line[256];
    float w, h, pad = text_pad(text), ly = bottom + pad + 2.0f * scale;
    const struct Against *against = scene->against;
    if (!against) {
        snprintf(line, sizeof line, "distance p_%s to p_%s (scene units; surface: %s)", names[scene->shown.compare_a],
                 names[scene->shown.compare_b], names[scene->shown.compare_a]);
    } else {
        const char *slash = strrchr(against->other_path, '/'), *other = slash ? slash + 1 : against->other_path;
        int clip = scene->pose_clip;
        if (against->posed && against->pairing == AGAINST_BY_ORDER && against->reordered > 0)
            snprintf(line, sizeof line, "distance to %.60s (scene units; paired by order, %d by nearest point)", other,
                     against->reordered);
        else if (against->posed)
            snprintf(line, sizeof line, "distance to %.60s (scene units; %s)", other,
                     against->pairing == AGAINST_BY_ORDER ? "paired by order" : "paired by nearest point");
        else
            snprintf(line, sizeof line, "%.60s has no clip \"%.60s\" (by name or index): nothing measured", other,
                     clip >= 0 && clip < scene->model->clip_count ? scene->model->clips[clip].name : "");
    }
    text_measure(text, line, &w, &h);
    text_block(text, fmaxf(pad, fminf(left, right - w)), top - h - pad - 2.0f * scale, line, white);
    text_block(text, left, ly, "0", white);
    snprintf(line, sizeof line, "%.3g", scene->compare_legend);
    text_measure(text, line, &w, &h);
    text_block(text, right - w, ly, line, white);
    if (against && against->model_diagonal > 0.0f)
        snprintf(line, sizeof line, "largest %.3g = %.2g of the diagonal", scene->compare_max,
                 scene->compare_max / against->model_diagonal);
    else
        snprintf(line, sizeof line, "largest %.3g", scene->compare_max);
    text_measure(text, line, &w, &h);
    text_block(text, right - w, ly + h + 3.0f * pad, line, dim);
}

static char panel_text[1 << 15];

/* Matrix entries as the panel shows them (a float-rounding remnant below 5e-7 is 0). */
static void format_entry(float value, char *out, size_t size)
{
    snprintf(out, size, "%.3g", fabsf(value) < 5e-7f ? 0.0 : (double)value);
}

/* Width of the widest entry of rows 0..2 in column c of m. */
static float column_width(const Text *text, const mat4 m, int c)
{
    float widest = 0.0f;
    for (int r = 0; r < 3; r++) {
        char entry[32];
        format_entry(m[c][r], entry, sizeof entry);
        widest = fmaxf(widest, text_width(text, entry));
    }
    return widest;
}

/* The three matrices of one influence next to each other, rows 0..2 (row 3 of each is 0 0 0 1),
 * columns aligned (each entry right-aligned in its column). Returns the width; draws when `draw`. */
static float matrix_block(Text *text, float x, float y, const InspectInfluence *k, bool draw)
{
    static const char *const names[3] = {"M_j", "B^-1", "palette"};
    const vec4 *m[3] = {k->joint_model, k->offset, k->palette};
    const float line = text_line_height(text), space = text_width(text, " ");
    float at = x;
    for (int i = 0; i < 3; i++) {
        if (draw) text_draw(text, at, y + line, names[i], dim);
        at += text_width(text, names[i]) + 1.5f * space;
        for (int c = 0; c < 4; c++) {
            float column = column_width(text, m[i], c);
            for (int r = 0; r < 3 && draw; r++) {
                char entry[32];
                format_entry(m[i][c][r], entry, sizeof entry);
                text_draw(text, at + column - text_width(text, entry), y + line * (float)r, entry, white);
            }
            at += column + 2.0f * space;
        }
        at += 2.5f * space;
    }
    return at - x;
}

/* How much the inspector panel shows: everything (E once), no matrices (E twice, or a panel too big
 * to keep clear of the vertex), brief (only the vertex, its bone<k>info lines and the results: a
 * small window). */
typedef enum InspectorDetail { INSPECTOR_MATRICES, INSPECTOR_NO_MATRICES, INSPECTOR_BRIEF } InspectorDetail;

/* The rows of the inspector panel (the text of vertex_inspect_format in panel_text, with each
 * influence's matrices after its bone<k>info line at INSPECTOR_MATRICES) from (x, y): measured into
 * *width, drawn when `draw`. Returns the height of the text. */
static float inspector_rows(const TeachingAids *scene, Text *text, float x, float y, InspectorDetail detail, bool draw,
                           float *width)
{
    const VertexInspection *info = scene->inspection;
    const float pad = text_pad(text), line_height = text_line_height(text), indent = 3.0f * pad;
    const bool matrices = detail == INSPECTOR_MATRICES;
    int formula_lines = 1;   /* brief: the formula's lines after the first are left out */
    for (const char *c = vertex_inspect_formula_short(); *c; c++) formula_lines += *c == '\n';
    float at = y;
    int influence = 0, index = 0;
    for (const char *line = panel_text; *line; index++) {
        size_t length = strcspn(line, "\n");
        if (detail == INSPECTOR_BRIEF && ((index >= 1 && index <= formula_lines) || line[0] == ' ')) {
            line += length + (line[length] == '\n');   /* the formula, the indented steps */
            continue;
        }
        char row[512];
        snprintf(row, sizeof row, "%.*s", (int)(length < sizeof row ? length : sizeof row - 1), line);
        bool bone = strncmp(row, "bone", 4) == 0;
        if (!draw) *width = fmaxf(*width, text_width(text, row));
        else text_draw(text, x, at, row, bone ? (const unsigned char[4]){255, 215, 120, 255} : white);
        at += line_height;
        if (matrices && bone && strstr(row, "info =") && influence < info->influence_count) {
            float block = matrix_block(text, x + indent, at, &info->influences[influence], draw);
            if (!draw) *width = fmaxf(*width, block + indent);
            at += 3.0f * line_height + 0.5f * pad;
            influence++;
        }
        line += length + (line[length] == '\n');
    }
    return at - y - (line_height - text->pixel_height);
}

/* The inspector panel: the text of vertex_inspect_format, with each influence's matrices when they
 * are asked for (E once), as much of it as keeps clear of the vertex and its joint lines;
 * placed by place_inspector (top right from y unless that covers them). *at_right_top says whether
 * it took the top right. Returns its height. */
static float draw_inspector(TeachingAids *scene, Text *text, float screen_w, float screen_h, float margin, float y,
                            bool *at_right_top)
{
    *at_right_top = true;
    const VertexInspection *info = scene->inspection;
    const float pad = text_pad(text);
    if (scene->inspect_mesh < 0) {
        snprintf(panel_text, sizeof panel_text, "vertex inspector (E): click a vertex\n%s", vertex_inspect_formula_short());
        float w, h;
        text_measure(text, panel_text, &w, &h);
        return text_block(text, fmaxf(margin, screen_w - w - margin), y, panel_text, white);
    }
    vertex_inspect_format(info, INSPECT_TEXT_NO_MATRICES, panel_text, sizeof panel_text);
    InspectorDetail detail = !scene->inspector_compact && info->skinned ? INSPECTOR_MATRICES : INSPECTOR_NO_MATRICES;
    float width, height, x, top = y, gap;
    for (;;) {   /* measure, place; too big to keep clear of the vertex: the next smaller panel */
        width = 0.0f;
        height = inspector_rows(scene, text, 0.0f, 0.0f, detail, false, &width);
        *at_right_top = place_inspector(scene, screen_w, screen_h, margin, top, width, height, pad, &x, &y, &gap);
        if (gap >= 0.0f || detail == INSPECTOR_BRIEF) break;
        detail++;
    }
    text_panel(text, x, y, width, height);
    inspector_rows(scene, text, x, y, detail, true, &width);
    return height + 2.0f * pad;
}

void scene_teach_text(TeachingAids *scene, const Animator *animator, Text *text, int fb_width, int fb_height, float scale)
{
    const float screen_w = (float)fb_width, screen_h = (float)fb_height, pad = text_pad(text);
    const float margin = 8.0f * scale + pad, line_height = text_line_height(text);
    if (scene->shown.compare) draw_compare_legend(scene, text, fb_width, fb_height, scale);
    /* the panels stack down the right edge, below the legend when there is one */
    float right_top = scene->shown.compare || scene->renderer->mode != RENDER_LIT ? 30.0f * scale + 12.0f * scale + 2.0f * line_height + 3.0f * pad
                                                                                 : 30.0f * scale;
    const Skeleton *skeleton = &scene->model->skeleton;
    if (scene->shown.inspector) {
        bool at_right_top;
        float height = draw_inspector(scene, text, screen_w, screen_h, margin, right_top, &at_right_top);
        if (at_right_top) right_top += height + 2.0f * pad;   /* elsewhere, the right edge stays free */
    }
    int joint = scene->selected_joint;
    if (scene->shown.show_bone_space) {
        int length;
        if (joint < 0) {
            length = snprintf(panel_text, sizeof panel_text, "bone space (Y): select a joint ([ ], click a dot)");
        } else {
            const vec4 *m = animator->joint_model[joint];
            length = snprintf(panel_text, sizeof panel_text,
                              "bone space of \"%s\" (Y)\n"
                              "axes now: M_j's columns (bright); at bind: dim\n"
                              "origin now (%.4g, %.4g, %.4g)\n"
                              "%d vertices move with it (colour: weight), %d only with it:\n"
                              "those keep p_bone = B^-1 p in every frame; p' = M_j p_bone",
                              skeleton->names[joint], m[3][0], m[3][1], m[3][2], scene->space_point_count,
                              scene->space_full);
            const VertexInspection *info = scene->inspection;
            for (int i = 0; scene->shown.inspector && scene->inspect_mesh >= 0 && i < info->influence_count; i++) {
                if (info->influences[i].joint != joint) continue;
                const float *p = info->influences[i].bone_space, *q = inspected_position(scene);
                snprintf(panel_text + length, sizeof panel_text - (size_t)length,
                         "\nvertex %d: scene space p' (%.4g, %.4g, %.4g)\n           bone space    (%.4g, %.4g, %.4g)",
                         info->vertex, q[0], q[1], q[2], p[0], p[1], p[2]);
            }
        }
        float w, h;
        text_measure(text, panel_text, &w, &h);
        right_top += text_block(text, fmaxf(margin, screen_w - w - margin), right_top, panel_text, white) + 2.0f * pad;
    }
    scene->slider_rows = 0;
    scene->slider_segments = 0;
    if (scene->shown.show_morphs) {
        /* the mesh: the inspected vertex's if it has targets, else the first with targets */
        int mesh = scene->inspect_mesh >= 0 && scene->model->meshes[scene->inspect_mesh].morph_target_count > 0
                       ? scene->inspect_mesh
                       : -1;
        for (int m = 0; m < scene->model->mesh_count && mesh < 0; m++)
            if (scene->model->meshes[m].morph_target_count > 0) mesh = m;
        scene->slider_mesh = mesh;
        float x = margin, y = 0.30f * screen_h;
        if (mesh < 0) {
            text_block(text, x, y, "morph targets (Z): this model has none", white);
            return;
        }
        const Mesh *m = &scene->model->meshes[mesh];
        int rows = m->morph_target_count < SLIDER_ROWS_MAX ? m->morph_target_count : SLIDER_ROWS_MAX;
        /* rows of: name [index], the bar, the weight */
        const float row_h = line_height + 0.5f * pad, name_w = 10.0f * text->pixel_height, bar_w = 11.0f * text->pixel_height;
        char title[SV_NAME_MAX + 80];
        snprintf(title, sizeof title, "morph targets of \"%s\" (Z): drag; release = the clip's weight%s", m->name,
                 m->morph_target_count > rows ? " (first 24)" : "");
        text_panel(text, x, y, fmaxf(name_w + bar_w + text_width(text, "0.000") + 2.0f * pad, text_width(text, title)),
                   row_h * (float)(rows + 1));
        text_draw(text, x, y, title, white);
        scene->slider_x = x + name_w;
        scene->slider_y = y + row_h;
        scene->slider_w = bar_w;
        scene->slider_h = row_h;
        scene->slider_rows = rows;
        int count = 0;
        static const float track[4] = {0.35f, 0.37f, 0.42f, 1.0f}, fill[4] = {0.95f, 0.62f, 0.2f, 1.0f},
                           clip_fill[4] = {0.55f, 0.75f, 0.95f, 1.0f};
        for (int t = 0; t < rows; t++) {
            float weight = animator->morph.weights[mesh][t];
            bool set = scene->morph_override.set && scene->morph_override.set[mesh] && scene->morph_override.set[mesh][t];
            char label[SV_NAME_MAX + 40], number[32];
            snprintf(label, sizeof label, "%.20s [%d]", m->morph_target_names && m->morph_target_names[t][0]
                                                            ? m->morph_target_names[t] : "(unnamed)", t);
            float ry = y + row_h * (float)(t + 1);
            text_draw(text, x, ry, label, set ? (const unsigned char[4]){255, 190, 90, 255} : white);
            snprintf(number, sizeof number, "%.3f", weight);
            text_draw(text, x + name_w + bar_w + pad, ry, number, white);
            float bx = x + name_w, by = ry + 0.5f * text->pixel_height + 1.0f, bw = bar_w;
            float clamped = weight < 0.0f ? 0.0f : weight > 1.0f ? 1.0f : weight;
            scene_push_segment(scene->vertices, scene->vertex_capacity / 2, &count, (float[3]){bx, by, 0.0f},
                 (float[3]){bx + bw, by, 0.0f}, track);
            if (clamped > 0.0f)
                scene_push_segment(scene->vertices, scene->vertex_capacity / 2, &count, (float[3]){bx, by, 0.0f},
                     (float[3]){bx + bw * clamped, by, 0.0f}, set ? fill : clip_fill);
        }
        scene->slider_segments = count;   /* drawn by scene_teach_finish, over the panel */
        scene->slider_scale = fmaxf(scale, 0.5f * row_h / 8.0f);
    }
}

void scene_teach_finish(TeachingAids *scene, int fb_width, int fb_height)
{
    if (scene->slider_segments <= 0) return;
    mat4 identity, pixels;
    glm_mat4_identity(identity);
    glm_ortho(0.0f, (float)fb_width, (float)fb_height, 0.0f, -1.0f, 1.0f, pixels);
    LineStyle style = {6.0f * scene->slider_scale, false, {fb_width, fb_height}};
    lines_draw(&scene->lines, scene->vertices, scene->slider_segments, identity, pixels, &style);
    scene->slider_segments = 0;
}

/* ---- sliders ---------------------------------------------------------------------------- */

bool scene_slider_grab(TeachingAids *scene, int phase, float x, float y)
{
    if (phase == 2) {   /* released: back to the clip's weight */
        if (scene->slider_target >= 0) morph_override_clear(&scene->morph_override, scene->slider_mesh, scene->slider_target);
        scene->slider_target = -1;
        return true;
    }
    if (phase == 0) {
        scene->slider_target = -1;
        if (!scene->shown.show_morphs || scene->slider_rows <= 0 || scene->slider_mesh < 0) return false;
        int row = (int)floorf((y - scene->slider_y) / scene->slider_h);
        if (row < 0 || row >= scene->slider_rows || x < scene->slider_x - 4.0f ||
            x > scene->slider_x + scene->slider_w + 4.0f)
            return false;
        scene->slider_target = row;
    }
    if (scene->slider_target < 0) return false;
    float weight = (x - scene->slider_x) / scene->slider_w;   /* w = the cursor's place on the bar, 0..1 */
    weight = weight < 0.0f ? 0.0f : weight > 1.0f ? 1.0f : weight;
    morph_override_set(&scene->morph_override, scene->slider_mesh, scene->slider_target, weight);
    return true;
}
