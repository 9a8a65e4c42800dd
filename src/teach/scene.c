/* scene.c — the model plus the teaching aids, for the viewer and --screenshot (teaching_aids.h):
 * set-up, joint selection and picking, evaluate, draw, the aids panel's lines. */
#include "teach/teaching_aids.h"
#include "teach/against.h"
#include "view/lighting.h"
#include "anim/skeleton_lines.h"
#include "gfx/colormap.h"
#include "view/hud.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Colours, sRGB 0..1, written as is. Bright fills on dark halos read on light and dark meshes. */
static const float halo_color[4] = {0.0f, 0.0f, 0.0f, 0.8f};
static const float bone_color[4] = {0.75f, 1.0f, 0.2f, 1.0f};
static const float helper_color[4] = {0.62f, 0.62f, 0.66f, 1.0f};
static const float root_color[4] = {1.0f, 0.55f, 0.1f, 1.0f};
static const float selected_color[4] = {1.0f, 0.25f, 0.95f, 1.0f};
static const float axis_colors[3][4] = {{1.0f, 0.22f, 0.2f, 1.0f}, {0.25f, 1.0f, 0.25f, 1.0f}, {0.3f, 0.55f, 1.0f, 1.0f}};
static const float grid_color[4] = {0.42f, 0.45f, 0.5f, 0.85f};
static const float normal_color[3] = {0.2f, 0.85f, 1.0f};
/* ---- grid --------------------------------------------------------------- */

void ground_grid_fit(const vec3 bind_min, const vec3 bind_max, const vec3 min, const vec3 max, GroundGrid *grid)
{
    float extent_x = max[0] - min[0], extent_z = max[2] - min[2], extent_y = max[1] - min[1];
    float size = fmaxf(fmaxf(extent_x, extent_z), extent_y);
    if (!(size > 0.0f) || !isfinite(size)) size = 1.0f;
    /* spacing: the "nice" number 1, 2 or 5 x 10^k nearest above size / 10 */
    float raw = size / 10.0f, power = powf(10.0f, floorf(log10f(raw)));
    float spacing = raw <= power ? power : raw <= 2.0f * power ? 2.0f * power : raw <= 5.0f * power ? 5.0f * power
                                                                                                   : 10.0f * power;
    grid->spacing = spacing;
    grid->center[0] = roundf(0.5f * (min[0] + max[0]) / spacing) * spacing;
    grid->center[1] = roundf(0.5f * (min[2] + max[2]) / spacing) * spacing;
    /* reach 0.75 of the model's size beyond the centre, and at least over the footprint */
    float reach = fmaxf(0.75f * size, 0.5f * fmaxf(extent_x, extent_z) + spacing);
    float half = ceilf(reach / spacing);   /* NaN or huge for absurd bounds: clamped before the cast */
    grid->half_lines = !(half >= 2.0f) ? 2 : half > (float)GRID_MAX_HALF_LINES ? GRID_MAX_HALF_LINES : (int)half;
    grid->y = bind_min[1] <= bind_max[1] && isfinite(bind_min[1]) ? bind_min[1] : min[1];
}

/* Box of the CPU-skinned bind pose (ANIMATOR_BIND_POSE). */
static bool bind_pose_bounds(const Model *model, Animator *animator, vec3 lo, vec3 hi)
{
    int largest = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > largest) largest = model->meshes[m].vertex_count;
    glm_vec3_fill(lo, FLT_MAX);
    glm_vec3_fill(hi, -FLT_MAX);
    vec3 *scratch = largest > 0 ? malloc(sizeof(vec3) * (size_t)largest) : NULL;
    if (!scratch) return false;
    animator_evaluate(animator, ANIMATOR_BIND_POSE, 0.0f);
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++)
            if (isfinite(scratch[v][0]) && isfinite(scratch[v][1]) && isfinite(scratch[v][2])) {
                glm_vec3_minv(lo, scratch[v], lo);
                glm_vec3_maxv(hi, scratch[v], hi);
            }
    }
    free(scratch);
    return lo[0] <= hi[0];
}

/* ---- set-up ------------------------------------------------------------- */

bool scene_init(TeachingAids *scene, const Model *model, Renderer *renderer, Animator *animator, const AidOptions *aids,
                const vec3 min, const vec3 max, char *error, size_t error_size)
{
    memset(scene, 0, sizeof *scene);
    scene->model = model;
    scene->renderer = renderer;
    scene->shown = *aids;
    scene->selected_joint = -1;
    const Skeleton *skeleton = &model->skeleton;
    size_t joints = (size_t)(skeleton->joint_count > 0 ? skeleton->joint_count : 1);
    scene->line_joints = malloc(sizeof(int) * joints);
    scene->dot_joints = malloc(sizeof(int) * joints);
    scene->dot_kinds = malloc(joints);
    scene->labels = malloc(sizeof(NameLabel) * joints);
    scene->label_order = malloc(sizeof(int) * joints);
    /* segments: skeleton 2x (halo + fill), axes 3 per joint 2x, grid, world axes, legend */
    scene->vertex_capacity = 2 * (int)(2 * joints + 6 * joints + 4 * GRID_MAX_HALF_LINES + 16 + LEGEND_STEPS + 8);
    scene->vertices = malloc(sizeof(LineVertex) * (size_t)scene->vertex_capacity);
    if (!scene->line_joints || !scene->dot_joints || !scene->dot_kinds || !scene->vertices || !scene->labels ||
        !scene->label_order) {
        snprintf(error, error_size, "out of memory");
        scene_free(scene);
        return false;
    }
    scene->segment_count = skeleton_line_joints(model, scene->line_joints);
    scene->dot_count = skeleton_dot_joints(model, scene->line_joints, scene->segment_count, scene->dot_joints,
                                           scene->dot_kinds);
    if (!lines_init(&scene->lines, scene->vertex_capacity / 2, error, error_size)) {
        scene_free(scene);
        return false;
    }
    if (aids->environment && !view_environment_apply(renderer, aids->environment, error, error_size)) {
        scene_free(scene);
        return false;
    }
    scene->lost_influence_vertices = model->stats.vertices_influences_cut;
    /* a "namespace:" prefix shared by every dot joint's name says nothing next to each dot */
    scene->name_prefix = 0;
    const char *first = scene->dot_count > 0 ? skeleton->names[scene->dot_joints[0]] : "";
    const char *colon = strchr(first, ':');
    if (colon && scene->dot_count > 1) {
        int length = (int)(colon - first) + 1;
        bool shared = true;
        for (int d = 1; d < scene->dot_count && shared; d++)
            shared = strncmp(skeleton->names[scene->dot_joints[d]], first, (size_t)length) == 0 &&
                     skeleton->names[scene->dot_joints[d]][length] != '\0';
        if (shared && first[length] != '\0') scene->name_prefix = length;
    }
    /* the second path, timed beside the drawn one while the HUD shows (allocated once; without it the
     * HUD shows one time) */
    scene->other_path_ready = animator_init(&scene->other_path, model);
    scene->other_anim_us = scene->shown_us[2] = -1.0;
    scene->size = glm_vec3_distance((float *)min, (float *)max);
    if (!(scene->size > 0.0f)) scene->size = 1.0f;
    vec3 bind_lo, bind_hi;
    if (!bind_pose_bounds(model, animator, bind_lo, bind_hi)) {
        glm_vec3_copy((float *)min, bind_lo);
        glm_vec3_copy((float *)max, bind_hi);
    }
    ground_grid_fit(bind_lo, bind_hi, min, max, &scene->grid);
    /* the source rig of an added clip (Shift+B) stands about a body width to the right */
    float side = 0.8f * fmaxf(bind_hi[0] - bind_lo[0], 0.5f * (bind_hi[1] - bind_lo[1]));
    if (!source_rig_view_init(&scene->source_rig, model, side, error, error_size)) {
        scene_free(scene);
        return false;
    }
    if (!morph_override_parse(model, aids->morph, &scene->morph_override, error, error_size) ||
        !scene_teach_init(scene, aids, error, error_size)) {
        scene_free(scene);
        return false;
    }
    renderer->method = aids->skinning;
    if (aids->joint) {
        int found = -1;
        for (int j = 0; j < skeleton->joint_count && found < 0; j++)
            if (strcmp(skeleton->names[j], aids->joint) == 0) found = j;
        if (found < 0) {
            snprintf(error, error_size, "no joint named '%s' (see --info)", aids->joint);
            scene_free(scene);
            return false;
        }
        scene_select_joint(scene, found);
    } else if (aids->show_weights) {
        scene_select_joint(scene, scene_most_weighted_joint(scene));   /* weights: a joint that has some */
    } else if ((aids->axes == AXES_SELECTED || aids->joint_values) && scene->dot_count > 0) {
        scene_select_joint(scene, scene->dot_joints[0]);   /* something to show: the skeleton's root */
    }
    return true;
}

int scene_most_weighted_joint(const TeachingAids *scene)
{
    const Model *model = scene->model;
    int joints = model->skeleton.joint_count, best = -1;
    int *count = joints > 0 ? calloc((size_t)joints, sizeof *count) : NULL;   /* once per W, not per frame */
    for (int m = 0; count && m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned || !mesh->joint_indices || !mesh->weights) continue;
        for (int v = 0; v < mesh->vertex_count; v++)
            for (int i = 0; i < SV_MAX_INFLUENCES; i++) {
                int bone = mesh->joint_indices[v][i];
                if (mesh->weights[v][i] > 0.0f && bone < mesh->bone_count && mesh->bone_joint[bone] >= 0 &&
                    mesh->bone_joint[bone] < joints)
                    count[mesh->bone_joint[bone]]++;
            }
    }
    for (int j = 0; count && j < joints; j++)
        if (count[j] > 0 && (best < 0 || count[j] > count[best])) best = j;   /* ties: the first, parents first */
    free(count);
    if (best < 0 && scene->dot_count > 0) best = scene->dot_joints[0];   /* nothing weighted: the root */
    return best;
}

void scene_free(TeachingAids *scene)
{
    if (scene->lines.line_program) lines_free(&scene->lines);
    free(scene->line_joints);
    free(scene->dot_joints);
    free(scene->dot_kinds);
    free(scene->labels);
    free(scene->label_order);
    free(scene->vertices);
    source_rig_view_free(&scene->source_rig);
    morph_override_free(&scene->morph_override);
    scene_teach_free(scene);
    if (scene->other_path_ready) animator_free(&scene->other_path);
    memset(scene, 0, sizeof *scene);
    scene->selected_joint = -1;
}

void scene_select_joint(TeachingAids *scene, int joint)
{
    if (joint >= scene->model->skeleton.joint_count) joint = -1;
    scene->selected_joint = joint;
    renderer_select_joint(scene->renderer, joint);
}

void scene_step_joint(TeachingAids *scene, int direction)
{
    if (scene->dot_count == 0) return;
    int index = -1;
    for (int d = 0; d < scene->dot_count; d++)
        if (scene->dot_joints[d] == scene->selected_joint) index = d;
    if (index < 0)
        index = direction > 0 ? 0 : scene->dot_count - 1;
    else
        index = (index + (direction > 0 ? 1 : scene->dot_count - 1)) % scene->dot_count;
    scene_select_joint(scene, scene->dot_joints[index]);
}

bool scene_project_joint(const Animator *animator, int joint, const mat4 view, const mat4 projection, int fb_width,
                         int fb_height, float *x, float *y)
{
    mat4 view_projection;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, view_projection);
    vec4 origin = {animator->joint_model[joint][3][0], animator->joint_model[joint][3][1],
                   animator->joint_model[joint][3][2], 1.0f}, clip;
    glm_mat4_mulv(view_projection, origin, clip);   /* clip = P * V * (joint origin, 1) */
    if (clip[3] <= 0.0f) return false;
    /* NDC -> pixels, y down */
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)fb_width;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * (float)fb_height;
    return true;
}

int scene_pick_joint(const TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                     int fb_width, int fb_height, float x, float y, float radius)
{
    int best = -1;
    float best_distance = radius;
    for (int d = 0; d < scene->dot_count; d++) {
        float px, py;
        if (!scene_project_joint(animator, scene->dot_joints[d], view, projection, fb_width, fb_height, &px, &py))
            continue;
        float distance = hypotf(px - x, py - y);
        if (distance <= best_distance) {
            best_distance = distance;
            best = scene->dot_joints[d];
        }
    }
    return best;
}

int scene_click_joint(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                      int window_width, int window_height, int fb_width, int fb_height, double press_x,
                      double press_y, double x, double y)
{
    if (fabs(x - press_x) >= SCENE_CLICK_PIXELS || fabs(y - press_y) >= SCENE_CLICK_PIXELS) return -1;   /* a drag */
    /* window units -> framebuffer pixels, where the dots are drawn */
    float px = (float)(window_width > 0 ? x * fb_width / window_width : x);
    float py = (float)(window_height > 0 ? y * fb_height / window_height : y);
    int joint = scene_pick_joint(scene, animator, view, projection, fb_width, fb_height, px, py,
                                 SCENE_PICK_RADIUS * text_scale_for(fb_width, fb_height));
    if (joint >= 0) scene_select_joint(scene, joint);
    return joint;
}

/* ---- per frame ---------------------------------------------------------- */

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* With the HUD shown, the same pose the other way (reference <-> fast path), timed: the HUD
 * shows both times. Its own Animator, so the drawn one's cursors are untouched. */
static void time_other_path(TeachingAids *scene, const Animator *animator, int clip, float time, const SceneFade *fade)
{
    scene->other_anim_us = -1.0;
    if (!scene->hud || !scene->other_path_ready || clip < 0) return;
    scene->other_path.reference = !animator->reference;
    scene->other_path.root.in_place = animator->root.in_place;
    double start = now_us();
    if (fade) animator_evaluate_blend(&scene->other_path, fade->from, fade->from_time, clip, time, fade->weight);
    else animator_evaluate(&scene->other_path, clip, time);
    scene->other_anim_us = now_us() - start;
}

void scene_set_against(TeachingAids *scene, struct Against *against)
{
    scene->against = against;
    scene->shown.compare = against != NULL;
}

/* The HUD's timings: the means of the frames of the last half second, published twice a second (a number
 * that changes every frame cannot be read, and the aids panel's rows would re-wrap as its width changes). */
static void publish_timings(TeachingAids *scene, double now)
{
    const double sample[3] = {scene->anim_us, scene->skin_us, scene->other_anim_us};
    int mode = (int)scene->hud | (int)scene->shown.reference << 1;
    bool first = scene->timing_start == 0.0 || mode != scene->timing_mode;   /* what is timed changed: start over */
    if (first) {
        memset(scene->timing_sum, 0, sizeof scene->timing_sum);
        scene->timing_frames = scene->timing_other_frames = 0;
        scene->timing_start = now;
        scene->timing_mode = mode;
    }
    for (int i = 0; i < 2; i++) scene->timing_sum[i] += sample[i];
    scene->timing_frames++;
    if (sample[2] >= 0.0) scene->timing_sum[2] += sample[2], scene->timing_other_frames++;
    if (!first && now - scene->timing_start < 0.5e6) return;
    for (int i = 0; i < 2; i++) scene->shown_us[i] = scene->timing_sum[i] / scene->timing_frames;
    scene->shown_us[2] = scene->timing_other_frames ? scene->timing_sum[2] / scene->timing_other_frames : -1.0;
    memset(scene->timing_sum, 0, sizeof scene->timing_sum);
    scene->timing_frames = scene->timing_other_frames = 0;
    scene->timing_start = now;
}

void scene_evaluate(TeachingAids *scene, Animator *animator, int clip, float time)
{
    scene_evaluate_fade(scene, animator, clip, time, NULL);
}

void scene_evaluate_fade(TeachingAids *scene, Animator *animator, int clip, float time, const SceneFade *fade)
{
    animator->reference = scene->shown.reference;
    time_other_path(scene, animator, clip, time, fade);
    double start = now_us();
    if (fade) animator_evaluate_blend(animator, fade->from, fade->from_time, clip, time, fade->weight);
    else animator_evaluate(animator, clip, time);
    scene->pose_clip = clip;
    if (scene->against && fade)
        against_pose_blend(scene->against, fade->from, fade->from_time, clip, time, fade->weight);
    else if (scene->against)
        against_pose(scene->against, clip, time);
    morph_override_apply(&scene->morph_override, animator);
    double evaluated = now_us();
    scene->renderer->method = scene_drawn_method(scene);
    renderer_prepare(scene->renderer, animator);
    double prepared = now_us();
    scene_teach_evaluate(scene, animator);
    if (scene->shown.show_source_rig)   /* the rig fades with the character (source_rig.h) */
        source_rig_view_evaluate_fade(&scene->source_rig, scene->model, clip, time, fade ? fade->from : -1,
                                      fade ? fade->from_time : 0.0f, fade ? fade->weight : 1.0f);
    scene->anim_us = evaluated - start;
    scene->skin_us = prepared - evaluated;
    publish_timings(scene, prepared);
}

void ground_grid_draw(const GroundGrid *g, Lines *lines, LineVertex *vertices, int capacity, const mat4 view,
                      const mat4 projection, const LineStyle *style)
{
    float reach = g->spacing * (float)g->half_lines, y = g->y;
    int count = 0;
    for (int i = -g->half_lines; i <= g->half_lines; i++) {
        float offset = (float)i * g->spacing;
        float x = g->center[0] + offset, z = g->center[1] + offset;
        scene_push_segment(vertices, capacity, &count, (float[3]){x, y, g->center[1] - reach},
                          (float[3]){x, y, g->center[1] + reach}, grid_color);
        scene_push_segment(vertices, capacity, &count, (float[3]){g->center[0] - reach, y, z},
                          (float[3]){g->center[0] + reach, y, z}, grid_color);
    }
    LineStyle thin = *style;
    lines_draw(lines, vertices, count, view, projection, &thin);
    /* world axes: X red, Y green, Z blue from the scene origin, 3 grid cells long */
    count = 0;
    float length = 3.0f * g->spacing;
    for (int axis = 0; axis < 3; axis++) {
        float tip[3] = {0.0f, 0.0f, 0.0f};
        tip[axis] = length;
        scene_push_segment(vertices, capacity, &count, (float[3]){0.0f, 0.0f, 0.0f}, tip, axis_colors[axis]);
    }
    LineStyle thick = *style;
    thick.width = 2.0f * style->width;
    lines_draw(lines, vertices, count, view, projection, &thick);
}

/* Appends segment a -> b in `color` to the scene's scratch vertices. */
static void push_segment(TeachingAids *scene, int *count, const float a[3], const float b[3], const float color[4])
{
    scene_push_segment(scene->vertices, scene->vertex_capacity, count, a, b, color);
}

static void draw_grid(TeachingAids *scene, const mat4 view, const mat4 projection, const LineStyle *style)
{
    ground_grid_draw(&scene->grid, &scene->lines, scene->vertices, scene->vertex_capacity, view, projection, style);
}

/* Axis triad of joint j: its matrix's columns, normalised, `length` long. */
static void push_axes(TeachingAids *scene, int *count, const Animator *animator, int joint, float length)
{
    const vec4 *m = animator->joint_model[joint];
    for (int axis = 0; axis < 3; axis++) {
        vec3 direction;
        glm_vec3_normalize_to((float *)m[axis], direction);
        float tip[3] = {m[3][0] + length * direction[0], m[3][1] + length * direction[1],
                        m[3][2] + length * direction[2]};
        push_segment(scene, count, m[3], tip, axis_colors[axis]);
    }
}

/* Draws the segments pushed so far twice: a dark halo `halo` pixels wider, then the colours. */
static void draw_with_halo(TeachingAids *scene, int count, const mat4 view, const mat4 projection, const LineStyle *style,
                           float halo)
{
    LineStyle wide = *style;
    wide.width = style->width + halo;
    float saved[4];   /* halo pass: recolour in place, keep the colours in the scratch's upper half */
    for (int i = 0; i < 2 * count; i++) {
        memcpy(saved, scene->vertices[i].color, sizeof saved);
        memcpy(scene->vertices[i].color, halo_color, sizeof saved);
        scene->vertices[i].color[3] *= saved[3];
        /* keep the original colour in a spare slot: the scratch is twice as large as needed */
        memcpy(scene->vertices[scene->vertex_capacity / 2 + i].color, saved, sizeof saved);
    }
    lines_draw(&scene->lines, scene->vertices, count, view, projection, &wide);
    for (int i = 0; i < 2 * count; i++)
        memcpy(scene->vertices[i].color, scene->vertices[scene->vertex_capacity / 2 + i].color, sizeof saved);
    lines_draw(&scene->lines, scene->vertices, count, view, projection, style);
}

static void draw_skeleton(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                          const LineStyle *style, float scale)
{
    const Skeleton *skeleton = &scene->model->skeleton;
    int count = 0;
    if (scene->shown.show_skeleton)
        for (int s = 0; s < scene->segment_count; s++) {
            int joint = scene->line_joints[s];
            if (!scene_joint_visible(scene, joint) || !scene_joint_visible(scene, skeleton->parent[joint])) continue;
            bool bone = skeleton->is_bone[joint];
            push_segment(scene, &count, animator->joint_model[skeleton->parent[joint]][3],
                         animator->joint_model[joint][3], bone ? bone_color : helper_color);
        }
    float axis_length = 0.1f * scene->size;
    if (scene->shown.axes == AXES_ALL) {
        for (int d = 0; d < scene->dot_count; d++)
            if (scene_joint_visible(scene, scene->dot_joints[d]))
                push_axes(scene, &count, animator, scene->dot_joints[d], 0.5f * axis_length);
    } else if (scene->shown.axes == AXES_SELECTED && scene->selected_joint >= 0)
        push_axes(scene, &count, animator, scene->selected_joint, axis_length);
    if (count > 0 && count <= scene->vertex_capacity / 4) {
        LineStyle bones = *style;
        bones.width = 2.0f * scale;
        draw_with_halo(scene, count, view, projection, &bones, 2.5f * scale);
    }
    if (!scene->shown.show_skeleton && scene->selected_joint < 0) return;
    /* joint dots: halo, then fill; root large orange, bones yellow-green, helpers small grey;
     * the selected joint large magenta */
    static const float sizes[3] = {7.0f, 10.0f, 5.0f};   /* JointDotKind */
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < scene->dot_count; d++) {
            int joint = scene->dot_joints[d];
            bool selected = joint == scene->selected_joint;
            if ((!scene->shown.show_skeleton || !scene_joint_visible(scene, joint)) && !selected) continue;
            int kind = scene->dot_kinds[d];
            const float *fill = selected ? selected_color
                                : kind == JOINT_DOT_ROOT ? root_color
                                : kind == JOINT_DOT_BONE ? bone_color
                                                         : helper_color;
            float size = (selected ? 11.0f : sizes[kind]) * scale + (pass == 0 ? 3.0f * scale : 0.0f);
            LineVertex dot;
            memcpy(dot.position, animator->joint_model[joint][3], sizeof dot.position);
            memcpy(dot.color, pass == 0 ? halo_color : fill, sizeof dot.color);
            lines_draw_points(&scene->lines, &dot, 1, view, projection, style, size);
        }
}

/* The heat-map (or influence-count) legend: the colour bar with its title and labels. */
static void draw_legend(TeachingAids *scene, Text *text, int fb_width, int fb_height, float scale)
{
    static const unsigned char white[4] = {255, 255, 255, 255};
    bool weights = scene->renderer->mode == RENDER_WEIGHTS;
    float left, right, top, bottom;
    scene_legend_bar(scene, fb_width, fb_height, scale, weights, &left, &right, &top, &bottom);
    float bar_width = right - left;
    /* labels: the title above the bar, the ends (or the counts) below it */
    float pad = text_pad(text), ly = bottom + pad + 2.0f * scale, w, h;
    if (weights) {
        char title[SV_NAME_MAX + 32];
        const char *name = scene->selected_joint >= 0 ? scene->model->skeleton.names[scene->selected_joint] : "(none)";
        snprintf(title, sizeof title, "weight on %s", name);
        text_measure(text, title, &w, &h);
        text_block(text, fmaxf(pad, fminf(left, right - w)), top - h - pad - 2.0f * scale, title, white);
        text_block(text, left, ly, "0", white);
        text_measure(text, "1", &w, &h);
        text_block(text, right - w, ly, "1", white);
    } else {
        static const char *const labels[5] = {"1", "2", "3", "4", "5+"};
        for (int i = 0; i < 5; i++) {
            text_measure(text, labels[i], &w, &h);
            text_block(text, left + bar_width * ((float)i + 0.5f) / 5.0f - 0.5f * w, ly, labels[i], white);
        }
        text_measure(text, "influences per vertex", &w, &h);
        text_block(text, left, top - h - pad - 2.0f * scale, "influences per vertex", white);
        /* what the magenta swatch means, and how many vertices it marks */
        char cut[96];
        snprintf(cut, sizeof cut, "5+: cut to 4 at import\n(%d vertices)", scene->lost_influence_vertices);
        text_block(text, left, ly + h + 3.0f * pad, cut, white);
    }
}

/* Placement priority of a dot joint: 0 the selected joint, 1 its ancestors, 2 its descendants,
 * 3 the rest; within a class shallower joints first (ancestors: nearest first). */
static int label_rank(const TeachingAids *scene, int joint)
{
    const Skeleton *skeleton = &scene->model->skeleton;
    int selected = scene->selected_joint, depth = skeleton_joint_depth(skeleton, joint);
    if (joint == selected) return 0;   /* (scene_descends_from counts a joint as its own descendant) */
    if (selected >= 0 && scene_descends_from(skeleton, selected, joint)) return 1 * 4096 + (4095 - depth);
    if (selected >= 0 && scene_descends_from(skeleton, joint, selected)) return 2 * 4096 + depth;
    return 3 * 4096 + depth;
}

static bool labels_overlap(const NameLabel *a, const NameLabel *b)
{
    return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height && b->y < a->y + a->height;
}

int scene_place_names(TeachingAids *scene, const Text *text, const Animator *animator, const mat4 view, const mat4 projection,
                      int fb_width, int fb_height, NameLabel *labels)
{
    const Skeleton *skeleton = &scene->model->skeleton;
    int *order = scene->label_order;
    /* insertion sort by rank (stable: hierarchy order within a rank); a few dozen dots */
    for (int d = 0; d < scene->dot_count; d++) {
        int joint = scene->dot_joints[d], rank = label_rank(scene, joint), k = d;
        while (k > 0 && label_rank(scene, order[k - 1]) > rank) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = joint;
    }
    float screen_w = (float)fb_width, screen_h = (float)fb_height;
    const float pad = text_pad(text), gap = pad + 1.0f;   /* panel margin, dot to panel (pixels) */
    int placed = 0;
    for (int i = 0; i < scene->dot_count; i++) {
        int joint = order[i];
        if (!scene_joint_visible(scene, joint)) continue;
        float x, y;
        if (!scene_project_joint(animator, joint, view, projection, fb_width, fb_height, &x, &y)) continue;
        float w, h;
        text_measure(text, skeleton->names[joint] + scene->name_prefix, &w, &h);
        w += 2.0f * pad;
        h += 2.0f * pad;
        /* spots around the dot (x, y), nearest first: panel top-left corners */
        const float right = x + gap, left = x - gap - w, middle = x - 0.5f * w;
        const float spots[12][2] = {{right, y - 0.5f * h},        {left, y - 0.5f * h},
                                    {right, y - gap - h},         {right, y + gap},
                                    {left, y - gap - h},          {left, y + gap},
                                    {middle, y - gap - h},        {middle, y + gap},
                                    {right, y - 2.0f * gap - 1.5f * h}, {right, y + 2.0f * gap + 0.5f * h},
                                    {left, y - 2.0f * gap - 1.5f * h},  {left, y + 2.0f * gap + 0.5f * h}};
        for (int s = 0; s < 12; s++) {
            NameLabel label = {joint, spots[s][0], spots[s][1], w, h};
            if (label.x < 0.0f || label.y < 0.0f || label.x + w > screen_w || label.y + h > screen_h) continue;
            bool free_spot = true;
            for (int p = 0; p < placed && free_spot; p++) free_spot = !labels_overlap(&label, &labels[p]);
            if (!free_spot) continue;
            labels[placed++] = label;
            break;
        }
    }
    return placed;
}

static void draw_names(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                       Text *text, int fb_width, int fb_height)
{
    static const unsigned char name_color[4] = {235, 235, 235, 255};
    static const unsigned char selected_name[4] = {255, 140, 250, 255};
    int placed = scene_place_names(scene, text, animator, view, projection, fb_width, fb_height, scene->labels);
    float pad = text_pad(text);
    for (int i = 0; i < placed; i++) {
        const NameLabel *label = &scene->labels[i];
        text_block(text, label->x + pad, label->y + pad,
                     scene->model->skeleton.names[label->joint] + scene->name_prefix,
                     label->joint == scene->selected_joint ? selected_name : name_color);
    }
}

void scene_draw(TeachingAids *scene, const Animator *animator, const mat4 view, const mat4 projection,
                const RenderLight *light, Text *text, int fb_width, int fb_height)
{
    Renderer *renderer = scene->renderer;
    float scale = text_scale_for(fb_width, fb_height);
    renderer->mode = scene->shown.compare || scene->shown.show_weights ? RENDER_WEIGHTS : scene->shown.show_influences ? RENDER_INFLUENCES
                                                                                              : RENDER_LIT;
    if (scene->shown.shadow)   /* before the model, which covers it */
        renderer_draw_shadow(renderer, animator, view, projection, light, scene->grid.y, scene->grid.center,
                             scene->grid.spacing * (float)scene->grid.half_lines);
    renderer_draw(renderer, animator, view, projection, light);
    if (scene->shown.wireframe) renderer_draw_wireframe(renderer, animator, view, projection, light);
    if (scene->shown.show_normals)
        renderer_draw_normals(renderer, animator, view, projection, 0.012f * scene->size, normal_color);
    LineStyle style = {1.0f * scale, true, {fb_width, fb_height}};
    if (scene->shown.grid) draw_grid(scene, view, projection, &style);
    style.depth_test = false;
    scene_teach_draw(scene, animator, view, projection, fb_width, fb_height, scale, true);
    draw_skeleton(scene, animator, view, projection, &style, scale);
    if (scene->shown.show_source_rig)
        source_rig_view_draw(&scene->source_rig, scene->model, (const mat4 *)animator->joint_model, view, projection, &style,
                             scale);
    scene_teach_draw(scene, animator, view, projection, fb_width, fb_height, scale, false);

    if (!text) return;
    text_set_size(text, scene_text_pixels(fb_width, fb_height));
    text_begin(text);
    if (scene->shown.show_names) draw_names(scene, animator, view, projection, text, fb_width, fb_height);
    if (renderer->mode != RENDER_LIT && !scene->shown.compare) draw_legend(scene, text, fb_width, fb_height, scale);
    scene_teach_text(scene, animator, text, fb_width, fb_height, scale);
    if (scene->hud || scene->shown.joint_values) {
        static char panel[4096];
        char method[512], shown[512], joint[2048];
        scene_format_method(scene, method, sizeof method);
        scene_format_shown(scene, shown, sizeof shown);
        scene_format_joint(scene, animator, scene->shown.joint_values, joint, sizeof joint);
        float w, h, margin = 6.0f * scale + text_pad(text);
        /* the two long lines wrap at the window's width (a narrow window shows them whole) */
        char method_rows[600], shown_rows[600];
        float room = (float)fb_width - 2.0f * margin - 2.0f * text_pad(text);
        text_wrap(text, method, room, 3, method_rows, sizeof method_rows);
        text_wrap(text, shown, room, 3, shown_rows, sizeof shown_rows);
        snprintf(panel, sizeof panel, "%s%s%s%s%s", scene->hud ? method_rows : "", scene->hud ? "\n" : "", shown_rows,
                 joint[0] ? "\n" : "", joint);
        text_measure(text, panel, &w, &h);
        /* in the window (scene->hud) the player's timeline takes the bottom band: the panel stands on it */
        float hud_top, hud_bottom = 0.0f;
        if (scene->hud) hud_reserved_bands(fb_width, fb_height, scene->model->clip_count > 0, &hud_top, &hud_bottom);
        text_block(text, margin, (float)fb_height * (1.0f - hud_bottom) - h - margin, panel,
                   (const unsigned char[4]){255, 255, 255, 255});
    }
    text_flush(text, fb_width, fb_height);
    scene_teach_finish(scene, fb_width, fb_height);
}

/* ---- text --------------------------------------------------------------- */

float scene_text_pixels(int fb_width, int fb_height)
{
    /* narrow windows: the vertex inspector's widest row (about 48 characters' worth) still fits */
    float size = fminf(0.8f * hud_font_pixels(fb_width, fb_height), (float)fb_width / 48.0f);
    return fmaxf(11.0f, floorf(size + 0.5f));
}

void scene_format_method(const TeachingAids *scene, char *out, size_t out_size)
{
    const Renderer *renderer = scene->renderer;
    char fallback[160] = "";
    if (renderer->method == SKINNING_GPU_DQ && renderer->dq_fallback_meshes > 0) {
        SkinDqStatus why = SKIN_DQ_OK;
        for (int m = 0; m < renderer->dq_pose.mesh_count && why == SKIN_DQ_OK; m++) why = renderer->dq_pose.status[m];
        snprintf(fallback, sizeof fallback, "  (%d mesh%s on LBS: %s)", renderer->dq_fallback_meshes,
                 renderer->dq_fallback_meshes == 1 ? "" : "es", skin_dq_status_text(why));
    }
    /* Shift+R: which functions evaluate the pose, and (HUD shown, a clip playing) the other's time */
    const char *path = scene->shown.reference ? "reference" : "fast path";
    char other[64] = "";
    if (scene->shown_us[2] >= 0.0)
        snprintf(other, sizeof other, " (%s %.1f us)", scene->shown.reference ? "fast path" : "reference",
                 scene->shown_us[2]);
    snprintf(out, out_size, "K: %s   Shift+R: %s   CPU per frame: animation %.1f us%s, skinning %.1f us%s",
             skinning_method_label(renderer->method), path, scene->shown_us[0], other, scene->shown_us[1], fallback);
}

void scene_format_shown(const TeachingAids *scene, char *out, size_t out_size)
{
    const AidOptions *a = &scene->shown;
    const char *joint = scene->selected_joint >= 0 ? scene->model->skeleton.names[scene->selected_joint] : "(none)";
    char cut[64] = "";
    if (a->show_influences && !a->show_weights)
        snprintf(cut, sizeof cut, " (%d vertices had 5+, cut to 4)", scene->lost_influence_vertices);
    snprintf(out, out_size, "shown: %s%s%s%s%s%s%s%s%s%s%s%s%s", a->show_weights ? "weights of " : "",
             a->show_weights ? joint : "", a->show_influences && !a->show_weights ? "influence count" : "", cut,
             !a->show_weights && !a->show_influences ? "lit surface" : "", a->show_skeleton ? ", skeleton" : "",
             a->axes == AXES_ALL ? ", axes (all)" : a->axes == AXES_SELECTED ? ", axes (selected)" : "",
             a->show_names ? ", names" : "", a->wireframe ? ", wireframe" : "", a->show_normals ? ", normals" : "",
             a->grid ? ", grid" : "", scene->dot_count == 0 && a->show_skeleton ? " (no skeleton)" : "",
             !a->show_source_rig ? "" : scene->source_rig.rig >= 0 ? ", source rig" : ", source rig (none: the clip is the model's own)");
    static const char *const method_names[SKINNING_METHOD_COUNT] = {"lbs", "lbs", "dq", "rigid"};
    size_t length = strlen(out);
    char against[1400] = "";
    if (scene->against) {   /* --against: the other file and how its vertices are paired */
        const char *path = scene->against->other_path, *slash = strrchr(path, '/');
        snprintf(against, sizeof against, ", difference to %.200s: %s", slash ? slash + 1 : path,
                 scene->against->pairing_text);
    }
    bool methods = a->compare && !scene->against;
    if (length + 1 < out_size)
        snprintf(out + length, out_size - length, "%s%s%s%s%s%s%s%s%s", methods ? ", difference " : "",
                 methods ? method_names[a->compare_a] : "", methods ? "-" : "",
                 methods ? method_names[a->compare_b] : "", a->compare ? against : "", a->inspector ? ", inspector" : "",
                 a->show_bone_space ? ", bone space" : "", a->show_morphs ? ", morph sliders" : "",
                 a->isolate_joint ? ", joint chain only" : "");
}

void scene_format_joint(const TeachingAids *scene, const Animator *animator, bool values, char *out, size_t out_size)
{
    out[0] = '\0';
    int j = scene->selected_joint;
    if (j < 0) return;
    const Skeleton *skeleton = &scene->model->skeleton;
    int parent = skeleton->parent[j];
    int length = snprintf(out, out_size, "joint %d \"%s\"\nparent %s  depth %d%s", j, skeleton->names[j],
                          parent >= 0 ? skeleton->names[parent] : "(none)", skeleton_joint_depth(skeleton, j),
                          skeleton->is_bone[j] ? "  (bone)" : "  (not skinned to)");
    if (!values || length < 0 || (size_t)length >= out_size) return;
    vec3 t, axis, s;
    float angle;
    joint_matrix_decompose(animator->local[j], t, axis, &angle, s);
    int more = snprintf(out + length, out_size - (size_t)length,
                        "\nlocal  T (%.3g, %.3g, %.3g)\n       R %.1f deg about (%.2f, %.2f, %.2f)\n       S (%.3g, %.3g, %.3g)",
                        t[0], t[1], t[2], angle, axis[0], axis[1], axis[2], s[0], s[1], s[2]);
    if (more < 0 || (size_t)(length + more) >= out_size) return;
    length += more;
    joint_matrix_decompose(animator->joint_model[j], t, axis, &angle, s);
    snprintf(out + length, out_size - (size_t)length,
             "\nmodel  T (%.3g, %.3g, %.3g)\n       R %.1f deg about (%.2f, %.2f, %.2f)\n       S (%.3g, %.3g, %.3g)", t[0], t[1],
             t[2], angle, axis[0], axis[1], axis[2], s[0], s[1], s[2]);
}
