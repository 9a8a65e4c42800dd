/* hud.c — status line with badges, timeline, clip browser, mesh list, help (layout + drawing). */
#include "view/hud.h"
#include "view/keys.h"
#include "anim/animator.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HUD_MESSAGE_LINES 3   /* the most rows a message takes (draw_message) */

static const unsigned char color_text[4] = {235, 238, 242, 255};
static const unsigned char color_dim[4] = {160, 168, 178, 255};
static const unsigned char color_key[4] = {255, 214, 120, 255};
static const unsigned char color_panel[4] = {12, 14, 18, 190};
static const unsigned char color_highlight[4] = {60, 110, 190, 230};
static const unsigned char color_current[4] = {255, 214, 120, 255};
static const unsigned char color_bar[4] = {70, 76, 86, 230};
static const unsigned char color_progress[4] = {90, 160, 240, 255};
static const unsigned char color_playhead[4] = {255, 255, 255, 255};
static const unsigned char color_mark[4] = {255, 214, 120, 200};

float hud_font_pixels(int fb_width, int fb_height)
{
    float px = (float)fb_height / 45.0f;
    float by_width = (float)fb_width / 28.0f;
    if (by_width < px) px = by_width;
    px = px < 12.0f ? 12.0f : px > 30.0f ? 30.0f : px;
    return floorf(px + 0.5f);
}

void hud_layout(int fb_width, int fb_height, const HudInfo *info, HudLayout *layout)
{
    memset(layout, 0, sizeof *layout);
    const float px = hud_font_pixels(fb_width, fb_height);
    const float line = floorf(px * 1.25f + 0.5f);
    const float margin = floorf(px * 0.6f + 0.5f);
    const float w = (float)fb_width, h = (float)fb_height;
    layout->font_pixels = px;
    layout->line_height = line;
    layout->margin = margin;

    /* timeline: a text row and the bar, along the bottom */
    const Playback *p = info->playback;
    layout->has_timeline = p && p->clip >= 0;
    float bar_height = floorf(px * 0.8f + 0.5f);
    layout->timeline.x = margin;
    layout->timeline.width = w - 2.0f * margin;
    layout->timeline.height = bar_height;
    layout->timeline.y = h - margin - bar_height;
    layout->timeline_top = layout->has_timeline ? layout->timeline.y - line - 0.25f * margin : h - margin;

    /* panels between the status lines (two at most, plus extra lines) and the timeline */
    float top = margin + (2.0f + (float)info->extra_count) * line + margin;
    float bottom = layout->timeline_top - margin;
    float panel_height = bottom - top;
    if (panel_height < 3.0f * line) panel_height = 3.0f * line;

    float browser_width = w * 0.42f;
    if (browser_width < 22.0f * px) browser_width = 22.0f * px;
    if (browser_width > w - 2.0f * margin) browser_width = w - 2.0f * margin;
    BrowserLayout *b = &layout->browser;
    b->x = margin;
    b->y = top;
    b->width = browser_width;
    b->height = panel_height;
    b->row_height = line;
    b->list_y = top + 1.5f * line;                      /* title row, then the list */
    b->visible_rows = (int)((top + panel_height - 1.2f * line - b->list_y) / line);   /* a footer row */
    if (b->visible_rows < 1) b->visible_rows = 1;

    BrowserLayout *m = &layout->mesh_list;
    m->width = browser_width;
    m->x = w - margin - browser_width;
    if (m->x < margin) m->x = margin;
    m->y = top;
    m->height = panel_height;
    m->row_height = line;
    m->list_y = top + 1.5f * line;
    m->visible_rows = (int)((top + panel_height - m->list_y) / line);
    if (m->visible_rows < 1) m->visible_rows = 1;
}

void hud_reserved_bands(int fb_width, int fb_height, bool has_timeline, float *top, float *bottom)
{
    *top = *bottom = 0.0f;
    if (fb_height <= 0) return;
    const float px = hud_font_pixels(fb_width, fb_height);
    const float line = floorf(px * 1.25f + 0.5f), margin = floorf(px * 0.6f + 0.5f);
    const float bar_height = floorf(px * 0.8f + 0.5f);
    *top = (2.0f * margin + line) / (float)fb_height;
    *bottom = has_timeline ? (2.25f * margin + line + bar_height) / (float)fb_height : 0.0f;
}

/* ---- status line ---------------------------------------------------------- */

typedef struct Badge {
    const char   *label;
    unsigned char color[4];
} Badge;

static int collect_badges(const HudInfo *info, Badge *badges, char *speed_label, size_t speed_size)
{
    const Playback *p = info->playback;
    int n = 0;
    if (p->clip >= 0) {
        if (p->paused) badges[n++] = (Badge){"PAUSED", {230, 140, 40, 255}};
        if (p->speed < 0.0f) badges[n++] = (Badge){"REVERSE", {60, 170, 190, 255}};
        if (p->loop_mode == PLAYBACK_ONCE) badges[n++] = (Badge){"ONCE", {120, 110, 200, 255}};
        else if (p->loop_mode == PLAYBACK_PING_PONG) badges[n++] = (Badge){"PING-PONG", {120, 110, 200, 255}};
        else badges[n++] = (Badge){"LOOP", {80, 88, 100, 255}};
        if (fabsf(p->speed) != 1.0f) {
            snprintf(speed_label, speed_size, "%gx", (double)fabsf(p->speed));
            badges[n++] = (Badge){speed_label, {80, 88, 100, 255}};
        }
        if (p->root_motion == ROOT_MOTION_IN_PLACE) badges[n++] = (Badge){"IN PLACE", {70, 140, 90, 255}};
        if (p->root_motion == ROOT_MOTION_FOLLOW) badges[n++] = (Badge){"FOLLOW", {70, 140, 90, 255}};
    }
    if (p->cull_back_faces) badges[n++] = (Badge){"CULL", {150, 90, 90, 255}};
    if (info->no_skeleton) badges[n++] = (Badge){"NO SKELETON", {150, 90, 90, 255}};
    return n;
}

/* A clip's name, or "(unnamed)". */
static const char *clip_name(const Model *model, int clip)
{
    return model->clips[clip].name[0] ? model->clips[clip].name : "(unnamed)";
}

/* "[3] Walk" or "[1] Idle > [3] Walk" (cross-fade), or the static pose. */
static void clip_label(const HudInfo *info, char *out, size_t size)
{
    const Playback *p = info->playback;
    const Model *model = info->model;
    if (p->clip >= 0 && p->clip < model->clip_count) {
        if (p->fading && p->fade_clip >= 0 && p->fade_clip < model->clip_count)
            snprintf(out, size, "[%d] %s > [%d] %s", p->fade_clip, clip_name(model, p->fade_clip), p->clip,
                     clip_name(model, p->clip));
        else
            snprintf(out, size, "[%d] %s", p->clip, clip_name(model, p->clip));
    } else {
        const char *pose = p->clip == ANIMATOR_BIND_POSE ? "bind pose" : "rest pose";
        if (model->clip_count > 0)
            snprintf(out, size, "%s (L: %d clip%s)", pose, model->clip_count, model->clip_count == 1 ? "" : "s");
        else
            snprintf(out, size, "%s (no clips)", pose);
    }
}

/* Draws the badges from x; returns the x after them. */
static float draw_badges(Text *text, const Badge *badges, int count, float x, float y, float line, float pad)
{
    for (int i = 0; i < count; i++) {
        float w = text_width(text, badges[i].label) + 2.0f * pad;
        text_rect(text, x, y + 0.08f * line, w, 0.84f * line, badges[i].color);
        text_draw(text, x + pad, y, badges[i].label, color_text);
        x += w + pad;
    }
    return x;
}

static float badges_width(const Text *text, const Badge *badges, int count, float pad)
{
    float w = 0.0f;
    for (int i = 0; i < count; i++) w += text_width(text, badges[i].label) + 3.0f * pad;
    return w;
}

/* The status line(s); returns the y below them. */
static float draw_status(Text *text, const HudInfo *info, const HudLayout *layout, int fb_width)
{
    const float m = layout->margin, line = layout->line_height, pad = floorf(0.35f * layout->font_pixels);
    const float width = (float)fb_width - 2.0f * m;
    Badge badges[8];
    char speed_label[16];
    int badge_count = collect_badges(info, badges, speed_label, sizeof speed_label);
    char label[2 * SV_NAME_MAX + 64], tail[64] = "", fitted[2 * SV_NAME_MAX + 64];
    clip_label(info, label, sizeof label);
    if (info->playback->clip >= 0)
        snprintf(tail, sizeof tail, "  of %d", info->model->clip_count);
    char right[64] = "";
    if (info->fps >= 0.0f) snprintf(right, sizeof right, "%.0f fps%s", (double)info->fps,
                                     info->playback->show_help ? "" : "   H: keys");
    float tail_w = text_width(text, tail), right_w = text_width(text, right);
    float badge_w = badges_width(text, badges, badge_count, pad);

    /* one line when the name keeps at least 12 characters' room, else badges on a second line */
    float room = width - tail_w - badge_w - right_w - 2.0f * pad;
    bool two_lines = room < 12.0f * 0.55f * layout->font_pixels;
    if (two_lines) room = width - tail_w - 2.0f * pad;
    float label_w = text_fit(text, label, room, fitted, sizeof fitted);
    float first_w = label_w + tail_w + pad + (two_lines ? 0.0f : badge_w + right_w + pad);
    text_rect(text, m - pad, m, first_w + 2.0f * pad, line, color_panel);
    float x = text_draw(text, m, m, fitted, color_text);
    x = text_draw(text, x, m, tail, color_dim) + pad;
    float y = m;
    if (two_lines) {
        y += line;
        char right_fit[64];
        float rest = width - badge_w;
        float rw = right[0] ? text_fit(text, right, rest > 0.0f ? rest : 0.0f, right_fit, sizeof right_fit) : 0.0f;
        text_rect(text, m - pad, y, badge_w + rw + 2.0f * pad, line, color_panel);
        x = m;
        x = draw_badges(text, badges, badge_count, x, y, line, pad);
        if (rw > 0.0f) text_draw(text, x, y, right_fit, color_dim);
    } else {
        x = draw_badges(text, badges, badge_count, x, y, line, pad);
        text_draw(text, x, y, right, color_dim);
    }
    y += line;
    for (int i = 0; i < info->extra_count; i++) {
        char fit[512];
        float w = text_fit(text, info->extra_lines[i], width, fit, sizeof fit);
        text_rect(text, m - pad, y, w + 2.0f * pad, line, color_panel);
        text_draw(text, m, y, fit, color_text);
        y += line;
    }
    return y;
}

/* ---- timeline ------------------------------------------------------------- */

static void draw_timeline(Text *text, const HudInfo *info, const HudLayout *layout)
{
    const Playback *p = info->playback;
    const float duration = p->clip >= 0 ? info->model->clips[p->clip].duration : 0.0f;
    const TimelineLayout *bar = &layout->timeline;
    const float m = layout->margin, line = layout->line_height, pad = floorf(0.35f * layout->font_pixels);
    float fps = info->frame_rate > 0.0f ? info->frame_rate : 30.0f;
    char label[160], fitted[160];
    snprintf(label, sizeof label, "%.2f / %.2f s   frame %d / %d at %g fps   %d key%s", (double)p->time,
             (double)duration, timeline_frame_number(p->time, fps), timeline_frame_number(duration, fps), (double)fps,
             info->key_count, info->key_count == 1 ? "" : "s");
    float w = text_fit(text, label, bar->width, fitted, sizeof fitted);
    text_rect(text, m - pad, layout->timeline_top, w + 2.0f * pad, line, color_panel);
    text_draw(text, m, layout->timeline_top, fitted, color_text);

    text_rect(text, bar->x - 2.0f, bar->y - 2.0f, bar->width + 4.0f, bar->height + 4.0f, color_panel);
    text_rect(text, bar->x, bar->y, bar->width, bar->height, color_bar);
    float head = timeline_x_of(bar, p->time, duration);
    text_rect(text, bar->x, bar->y, head - bar->x, bar->height, color_progress);
    /* key marks: one pixel column each (neighbours in the same column drawn once) */
    float last_x = -1.0f;
    for (int k = 0; k < info->key_count; k++) {
        float x = floorf(timeline_x_of(bar, info->key_times[k], duration));
        if (x == last_x) continue;
        last_x = x;
        text_rect(text, x, bar->y + 0.6f * bar->height, 1.0f, 0.4f * bar->height, color_mark);
    }
    float head_w = fmaxf(2.0f, floorf(0.2f * layout->font_pixels));
    text_rect(text, head - 0.5f * head_w, bar->y - 3.0f, head_w, bar->height + 6.0f, color_playhead);
}

/* ---- clip browser and mesh list --------------------------------------------- */

static void draw_browser(Text *text, const HudInfo *info, const HudLayout *layout)
{
    const ClipBrowser *browser = info->browser;
    const BrowserLayout *b = &layout->browser;
    const Model *model = info->model;
    const float line = layout->line_height, pad = floorf(0.35f * layout->font_pixels);
    text_rect(text, b->x, b->y, b->width, b->height, color_panel);
    char title[BROWSER_QUERY_MAX + 96], fitted[BROWSER_QUERY_MAX + 96];
    if (browser->query[0])
        snprintf(title, sizeof title, "Clips %d of %d: \"%s_\"", browser->row_count, model->clip_count, browser->query);
    else
        snprintf(title, sizeof title, "Clips (%d): type to filter", model->clip_count);
    text_fit(text, title, b->width - 2.0f * pad, fitted, sizeof fitted);
    text_draw(text, b->x + pad, b->y + 0.25f * line, fitted, color_key);

    float index_w = text_width(text, "[000]  ");
    float duration_w = text_width(text, "00.00 s");
    for (int v = 0; v < b->visible_rows; v++) {
        int row = browser->scroll + v;
        if (row >= browser->row_count) break;
        int clip = browser->rows[row];
        float y = b->list_y + (float)v * b->row_height;
        if (row == browser->selected) text_rect(text, b->x, y, b->width, b->row_height, color_highlight);
        const unsigned char *color = clip == info->playback->clip ? color_current : color_text;
        char index[16], duration[32], name[2 * SV_NAME_MAX + 8], shown[2 * SV_NAME_MAX + 8];
        snprintf(index, sizeof index, "[%d]", clip);
        snprintf(duration, sizeof duration, "%.2f s", (double)model->clips[clip].duration);
        text_draw(text, b->x + pad, y, index, color_dim);
        float name_room = b->width - 3.0f * pad - index_w - duration_w;
        /* a clip added from another file (--animations, a Shift-drop) shows where it came from */
        if (model->clips[clip].source_file[0])
            snprintf(shown, sizeof shown, "%s  < %s", clip_name(model, clip), model->clips[clip].source_file);
        else
            snprintf(shown, sizeof shown, "%s", clip_name(model, clip));
        text_fit(text, shown, name_room, name, sizeof name);
        text_draw(text, b->x + pad + index_w, y, name, color);
        text_draw(text, b->x + b->width - pad - text_width(text, duration), y, duration, color_dim);
    }
    /* scroll bar when not everything fits */
    if (browser->row_count > b->visible_rows) {
        float track = (float)b->visible_rows * b->row_height;
        float thumb = track * (float)b->visible_rows / (float)browser->row_count;
        float at = track * (float)browser->scroll / (float)browser->row_count;
        text_rect(text, b->x + b->width - 3.0f, b->list_y + at, 3.0f, thumb, color_dim);
    }
    const char *footer = "Up/Down wheel click: select   Enter: play   Esc: close";
    text_fit(text, footer, b->width - 2.0f * pad, fitted, sizeof fitted);
    text_draw(text, b->x + pad, b->y + b->height - 1.1f * line, fitted, color_dim);
}

static void draw_mesh_list(Text *text, const HudInfo *info, const HudLayout *layout)
{
    const BrowserLayout *b = &layout->mesh_list;
    const Model *model = info->model;
    const float line = layout->line_height, pad = floorf(0.35f * layout->font_pixels);
    text_rect(text, b->x, b->y, b->width, b->height, color_panel);
    char title[96], fitted[SV_NAME_MAX + 32];
    snprintf(title, sizeof title, "Meshes (%d): click or Enter shows / hides", model->mesh_count);
    text_fit(text, title, b->width - 2.0f * pad, fitted, sizeof fitted);
    text_draw(text, b->x + pad, b->y + 0.25f * line, fitted, color_key);
    int first = info->mesh_selected >= b->visible_rows ? info->mesh_selected - b->visible_rows + 1 : 0;
    for (int v = 0; v < b->visible_rows && first + v < model->mesh_count; v++) {
        int mesh = first + v;
        float y = b->list_y + (float)v * b->row_height;
        if (mesh == info->mesh_selected) text_rect(text, b->x, y, b->width, b->row_height, color_highlight);
        bool shown = info->mesh_visible ? info->mesh_visible[mesh] : true;
        char row[SV_NAME_MAX + 32];
        snprintf(row, sizeof row, "%s [%d] %s", shown ? "[x]" : "[  ]", mesh, model->meshes[mesh].name);
        text_fit(text, row, b->width - 2.0f * pad, fitted, sizeof fitted);
        text_draw(text, b->x + pad, y, fitted, shown ? color_text : color_dim);
    }
}

/* The help panel: the key table's rows (keys.h) that apply to this player, between `top` and
 * `bottom` (the timeline's text row): as many columns as it takes for every row to show (a
 * 1280x720 window needs two, 800x600 two), each column as wide as its own keys and actions, cut
 * with "..." only when the window is too narrow for them. */
static void draw_help(Text *text, const HudLayout *layout, float top, float bottom, int fb_width, unsigned mode)
{
    const float m = layout->margin, line = layout->line_height, pad = floorf(0.35f * layout->font_pixels);
    int count;
    const KeyRow *table = keys_table(&count);
    int rows = 0;
    for (int i = 0; i < count; i++) rows += table[i].keys && (table[i].modes & mode);
    if (rows == 0) return;
    int per_column = (int)((bottom - top - pad) / line);
    if (per_column < 1) per_column = 1;
    int columns = (rows + per_column - 1) / per_column;
    per_column = (rows + columns - 1) / columns;   /* balanced: the last column is not a stub */
    float room = (float)fb_width - 2.0f * m - (float)(columns - 1) * 2.0f * pad;   /* all columns together */
    /* each column's natural widths, then all scaled into the room when they do not fit */
    float keys_w[8] = {0}, actions_w[8] = {0}, total = 0.0f;
    if (columns > 8) columns = 8;
    for (int i = 0, row = 0; i < count; i++) {
        if (!table[i].keys || !(table[i].modes & mode)) continue;
        int c = row++ / per_column;
        if (c >= columns) break;
        keys_w[c] = fmaxf(keys_w[c], text_width(text, table[i].keys));
        actions_w[c] = fmaxf(actions_w[c], text_width(text, table[i].help));
    }
    for (int c = 0; c < columns; c++) total += keys_w[c] + actions_w[c] + 3.0f * pad;
    for (int c = 0; c < columns && total > room; c++) {   /* too wide: actions give way first, keys keep 45 % */
        float share = room / (float)columns - 3.0f * pad;
        if (keys_w[c] > 0.45f * share) keys_w[c] = 0.45f * share;
        if (keys_w[c] + actions_w[c] > share) actions_w[c] = share - keys_w[c];
    }
    float x = m;
    for (int c = 0, i = 0; c < columns; c++) {
        int in_column = rows - c * per_column < per_column ? rows - c * per_column : per_column;
        text_rect(text, x - pad, top, keys_w[c] + actions_w[c] + 3.0f * pad, (float)per_column * line + pad, color_panel);
        for (int r = 0; r < in_column && i < count; i++) {
            if (!table[i].keys || !(table[i].modes & mode)) continue;
            char fit[128];
            float y = top + 0.5f * pad + (float)r++ * line;
            text_fit(text, table[i].keys, keys_w[c], fit, sizeof fit);
            text_draw(text, x, y, fit, color_key);
            text_fit(text, table[i].help, actions_w[c], fit, sizeof fit);
            text_draw(text, x + keys_w[c] + 2.0f * pad, y, fit, color_text);
        }
        x += keys_w[c] + actions_w[c] + 3.0f * pad + 2.0f * pad;
    }
}

/* The message line (player_message): word-wrapped to at most HUD_MESSAGE_LINES lines of the window's width, each
 * centred, stacked up from just above the timeline on one panel; a message longer than that is shortened in the
 * middle of its last line. */
static void draw_message(Text *text, const char *message, const HudLayout *layout, int fb_width)
{
    char lines[1400], *row[HUD_MESSAGE_LINES];
    const float pad = floorf(0.35f * layout->font_pixels);
    int count = text_wrap(text, message, (float)fb_width - 2.0f * layout->margin - 2.0f * pad, HUD_MESSAGE_LINES, lines,
                          sizeof lines);
    float widest = 0.0f;
    row[0] = lines;
    for (int i = 0; i < count; i++) {   /* '\n' -> '\0': one string a row */
        char *end = strchr(row[i], '\n');
        if (end) *end = '\0';
        if (i + 1 < count) row[i + 1] = end ? end + 1 : row[i] + strlen(row[i]);
        widest = fmaxf(widest, text_width(text, row[i]));
    }
    float top = layout->timeline_top - (0.5f + (float)count) * layout->line_height;
    if (count > 0)
        text_rect(text, 0.5f * ((float)fb_width - widest) - pad, top, widest + 2.0f * pad,
                  (float)count * layout->line_height, color_panel);
    for (int i = 0; i < count; i++)
        text_draw(text, 0.5f * ((float)fb_width - text_width(text, row[i])), top + (float)i * layout->line_height, row[i],
                  color_key);
}

void hud_draw(Text *text, const HudInfo *info, const HudLayout *layout, int fb_width, int fb_height)
{
    text_set_size(text, layout->font_pixels);
    text_begin(text);
    float below_status = draw_status(text, info, layout, fb_width);
    if (layout->has_timeline) draw_timeline(text, info, layout);
    if (info->browser && info->browser->open && info->model->clip_count > 0) draw_browser(text, info, layout);
    if (info->show_mesh_list) draw_mesh_list(text, info, layout);
    bool browser_open = info->browser && info->browser->open && info->model->clip_count > 0;
    /* the help never covers the clip browser or the mesh list (the player closes one when the
     * other opens; a screenshot with both asked shows the panel) */
    if (info->playback->show_help && !browser_open && !info->show_mesh_list)
        draw_help(text, layout, below_status + layout->margin, layout->timeline_top - 0.5f * layout->margin, fb_width,
                  info->key_mode ? info->key_mode : KEY_MODE_SKINNED);
    if (info->message && info->message[0]) draw_message(text, info->message, layout, fb_width);
    text_flush(text, fb_width, fb_height);
}
