/* hud.h — what the viewer draws over the model: the status line with state badges, the
 * timeline along the bottom, the clip browser, the mesh list, the key help and a short
 * message. Layout (hud_layout) is pure arithmetic on the window size and the font size, so
 * the viewer hit-tests clicks with the same rectangles hud_draw() used; drawing goes through
 * gfx/text.h. --screenshot --show-hud / --show-browser draw the same HUD.
 *
 * Clip numbers are the indices --clip and --info use (from 0): "[3] Walk".
 */
#ifndef SKINVIEW_HUD_H
#define SKINVIEW_HUD_H

#include "view/browser.h"
#include "view/playback.h"
#include "view/timeline.h"
#include "gfx/text.h"

#define HUD_MAX_EXTRA_LINES 8

/* Everything the HUD shows (read only). */
typedef struct HudInfo {
    const Model       *model;
    const Playback    *playback;
    const ClipBrowser *browser;        /* drawn when browser->open */
    const float       *key_times;      /* of the current clip, sorted (timeline marks) */
    int                key_count;
    float              frame_rate;     /* of the current clip, frames per second */
    float              fps;            /* drawing rate; < 0: not shown (screenshots) */
    const char        *message;        /* a short notice ("saved shot-001.png"), NULL for none */
    bool               show_mesh_list; /* U */
    const bool        *mesh_visible;   /* [mesh_count] */
    int                mesh_selected;  /* highlighted row of the mesh list */
    bool               no_skeleton;    /* B is on but the model has no bones */
    const char        *extra_lines[HUD_MAX_EXTRA_LINES]; /* more status lines (other features) */
    int                extra_count;
    unsigned           key_mode;       /* the help panel's rows (keys.h KeyMode); 0: the skinned viewer's */
} HudInfo;

/* Rectangles of one frame's HUD, pixels, y down. */
typedef struct HudLayout {
    float          font_pixels;
    float          line_height;
    float          margin;
    bool           has_timeline;
    TimelineLayout timeline;          /* the bar (scrub target) */
    float          timeline_top;      /* top of the timeline block (text row above the bar) */
    BrowserLayout  browser;
    BrowserLayout  mesh_list;
} HudLayout;

/* Font size for a framebuffer: about 1/45 of the height, at most 1/28 of the width, in [12, 30]
 * pixels. (Framebuffer pixels already carry the display's scale on HiDPI screens.) */
float hud_font_pixels(int fb_width, int fb_height);

/* The layout for this window and content (pure). */
void hud_layout(int fb_width, int fb_height, const HudInfo *info, HudLayout *layout);

/* Fractions of the window height the status line (top) and the timeline (bottom) cover, for
 * framing the model in the band between them (no timeline: nothing kept at the bottom). */
void hud_reserved_bands(int fb_width, int fb_height, bool has_timeline, float *top, float *bottom);

/* Draws the HUD (text_set_size to layout->font_pixels first happens inside). */
void hud_draw(Text *text, const HudInfo *info, const HudLayout *layout, int fb_width, int fb_height);

#endif
