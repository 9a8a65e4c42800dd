/* browser.h — the clip browser's logic (L / Tab): filter by typing, selection, scrolling,
 * hit-testing. Pure: no window, no GL; the rows are allocated once per model
 * (browser_init), nothing per frame. Drawn by hud.c; unit-tested in tests/view/test_browser.c.
 *
 * Rows are the clips whose name contains the typed text (ASCII case-insensitive) or
 * whose index, written in decimal, starts with it ("4" finds clip 4 and 40..49), in clip
 * order. Indices count from 0, as --clip and --info do.
 */
#ifndef SKINVIEW_BROWSER_H
#define SKINVIEW_BROWSER_H

#include "anim/model.h"

#include <stdbool.h>

#define BROWSER_QUERY_MAX 64

typedef struct ClipBrowser {
    bool open;
    int  clip_count;
    int *rows;            /* [clip_count] clip index of each row that matches the filter */
    int  row_count;
    int  selected;        /* highlighted row, -1 when nothing matches */
    int  scroll;          /* first row shown */
    char query[BROWSER_QUERY_MAX];
} ClipBrowser;

/* Where the list is drawn, in pixels (y down): rows of row_height from list_y. */
typedef struct BrowserLayout {
    float x, y, width, height;   /* the whole panel */
    float list_y;                /* top of the first visible row */
    float row_height;
    int   visible_rows;
} BrowserLayout;

/* Allocates the rows for clip_count clips and shows them all. False on out of memory. */
bool browser_init(ClipBrowser *browser, const Clip *clips, int clip_count);
void browser_free(ClipBrowser *browser);

/* True when clip `index` named `name` matches `query` (see above). */
bool browser_matches(const char *query, int index, const char *name);

/* Re-filters with browser->query. The highlighted clip stays highlighted when it still
 * matches; a query that is exactly an index highlights that clip; else the first row. */
void browser_refilter(ClipBrowser *browser, const Clip *clips);

/* Typing: appends one Unicode code point (as UTF-8) / removes the last character. */
void browser_type(ClipBrowser *browser, const Clip *clips, unsigned int codepoint);
void browser_backspace(ClipBrowser *browser, const Clip *clips);

/* Highlights the row of `clip` (when the browser opens on the playing clip), if shown. */
void browser_highlight_clip(ClipBrowser *browser, int clip, int visible_rows);

/* Moves the highlight by delta rows (clamped), scrolling so it stays visible. */
void browser_move(ClipBrowser *browser, int delta, int visible_rows);

/* Scrolls by delta rows (wheel), clamped to [0, row_count - visible_rows]. */
void browser_scroll(ClipBrowser *browser, int delta, int visible_rows);

/* The highlighted clip, -1 if none. */
int browser_selected_clip(const ClipBrowser *browser);

/* Row index under the point (x, y), or -1 (outside the list, or past the last row). */
int browser_row_at(const ClipBrowser *browser, const BrowserLayout *layout, float x, float y);

#endif
