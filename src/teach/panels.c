/* panels.c — the panels and legends of the aids that teach the formula (formula.c), drawn as text
 * after the 3D pass: the difference view's legend (D, --compare, --against), the vertex inspector's
 * panel (E: the formula, each influence's matrices and terms, in the screen corner farthest from the
 * vertex), the bone-space view's legend (Y) and the morph target sliders (Z) with their mouse.
 * No allocation: the text goes through the aids' Text, the bars through their line scratch. */
#include "teach/teaching_aids.h"
#include "teach/against.h"
#include "anim/inspect.h"
#include "view/hud.h"   /* hud_reserved_bands: the inspector keeps off the timeline */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLIDER_ROWS_MAX 24
static const unsigned char white[4] = {255, 255, 255, 255};
static const unsigned char dim[4] = {170, 175, 185, 255};

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
                const float *p = info->influences[i].bone_space, *q = scene_inspected_position(scene);
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
