/* formula.c — the aids that teach the formula (issue 19), part of the teaching aids (teaching_aids.h):
 *   the vertex inspector (E, a click on a vertex, --inspect-vertex with --screenshot): its vertex
 *   picked and parsed, its numbers each frame (anim/inspect.h), its marker and joint lines,
 *   the difference view of two skinning methods (D, --compare A,B), or of MODEL against another file of
 *   the same character at the same clip and time (--against OTHER, teach/against.h),
 *   the three spaces: the selected joint's bone space and the vertices it moves (Y, --show-bone-space),
 *   morph target sliders' weights (Z, --show-morphs; --morph sets their start),
 *   per-joint isolate and hide in the skeleton overlay (/, Backspace; --isolate-joint, --hide-joints).
 * Their panels and legends: panels.c. Every buffer is allocated in scene_teach_init; nothing per frame,
 * no name looked up per frame. */
#include "teach/teaching_aids.h"
#include "teach/against.h"
#include "anim/inspect.h"
#include "gfx/colormap.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float halo[4] = {0.0f, 0.0f, 0.0f, 0.85f};
static const float marker_color[4] = {1.0f, 1.0f, 1.0f, 1.0f};
static const float axis_colors[3][4] = {{1.0f, 0.22f, 0.2f, 1.0f}, {0.25f, 1.0f, 0.25f, 1.0f}, {0.3f, 0.55f, 1.0f, 1.0f}};
static const float bind_axis_colors[3][4] = {{0.6f, 0.3f, 0.3f, 0.8f}, {0.3f, 0.6f, 0.3f, 0.8f}, {0.3f, 0.4f, 0.7f, 0.8f}};

/* ---- set-up ---------------------------------------------------------------------------- */

bool scene_parse_vertex_spec(const Model *model, const char *spec, int *mesh, int *vertex, char *error, size_t error_size)
{
    const char *colon = strrchr(spec, ':');   /* the last ':' (mesh names may contain one) */
    if (!colon || colon == spec || !colon[1]) {
        snprintf(error, error_size, "--inspect-vertex needs MESH:INDEX (mesh index or name, vertex index), got '%s'",
                 spec);
        return false;
    }
    char *end = NULL;
    long index = strtol(colon + 1, &end, 10);
    if (*end != '\0' || index < 0 || index > 2000000000L) {
        snprintf(error, error_size, "--inspect-vertex: vertex index '%s' is not a number >= 0", colon + 1);
        return false;
    }
    int length = (int)(colon - spec);
    int found = -1;
    long number = strtol(spec, &end, 10);
    if (end == colon && number >= 0 && number < model->mesh_count) found = (int)number;
    for (int m = 0; m < model->mesh_count && found < 0; m++)
        if ((int)strlen(model->meshes[m].name) == length && strncmp(model->meshes[m].name, spec, (size_t)length) == 0)
            found = m;
    if (found < 0) {
        snprintf(error, error_size, "--inspect-vertex: no mesh '%.*s' (%d meshes: index 0..%d or a name, see --info)",
                 length, spec, model->mesh_count, model->mesh_count - 1);
        return false;
    }
    if (index >= model->meshes[found].vertex_count) {
        snprintf(error, error_size, "--inspect-vertex: mesh %d \"%s\" has %d vertices, no vertex %ld", found,
                 model->meshes[found].name, model->meshes[found].vertex_count, index);
        return false;
    }
    *mesh = found;
    *vertex = (int)index;
    return true;
}

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
        !scene_parse_vertex_spec(model, aids->inspect_vertex, &scene->inspect_mesh, &scene->inspect_vertex, error,
                               error_size))
        return false;
    if (scene->inspect_mesh >= 0) scene->shown.inspector = true;
    return true;
}

void scene_teach_free(TeachingAids *scene)
{
    if (scene->teach_lines.line_program) lines_free(&scene->teach_lines);
    if (scene->teach_dq_ready) skin_dq_pose_free(&scene->teach_dq);
    void *owned[] = {scene->scratch_a, scene->scratch_b, scene->distances, scene->heat, scene->mesh_offset,
                     scene->joint_hidden, scene->joint_visible, scene->space_points, scene->inspection};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) free(owned[i]);
}

/* ---- joints: isolate / hide -------------------------------------------------------------- */

bool scene_descends_from(const Skeleton *skeleton, int joint, int ancestor)
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
            visible = scene_descends_from(skeleton, j, selected) || scene_descends_from(skeleton, selected, j);
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

const float *scene_inspected_position(const TeachingAids *scene)
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
        const float *p = scene_inspected_position(scene);
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
