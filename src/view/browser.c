/* browser.c — clip browser: filtering, selection, scrolling, hit-testing (pure). */
#include "view/browser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

/* ASCII case-insensitive substring test. */
static bool contains(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0) return true;
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && lower((unsigned char)h[i]) == lower((unsigned char)needle[i])) i++;
        if (i == n) return true;
    }
    return false;
}

bool browser_matches(const char *query, int index, const char *name)
{
    if (!query[0]) return true;
    char digits[16];
    snprintf(digits, sizeof digits, "%d", index);
    if (strncmp(digits, query, strlen(query)) == 0) return true;
    return contains(name, query);
}

bool browser_init(ClipBrowser *browser, const Clip *clips, int clip_count)
{
    memset(browser, 0, sizeof *browser);
    browser->clip_count = clip_count > 0 ? clip_count : 0;
    browser->rows = malloc(sizeof *browser->rows * (size_t)(browser->clip_count > 0 ? browser->clip_count : 1));
    if (!browser->rows) return false;
    browser->selected = -1;
    browser_refilter(browser, clips);
    return true;
}

void browser_free(ClipBrowser *browser)
{
    free(browser->rows);
    memset(browser, 0, sizeof *browser);
}

void browser_refilter(ClipBrowser *browser, const Clip *clips)
{
    int keep = browser_selected_clip(browser);
    browser->row_count = 0;
    for (int c = 0; c < browser->clip_count; c++)
        if (browser_matches(browser->query, c, clips[c].name)) browser->rows[browser->row_count++] = c;
    /* a query that is exactly an index: that clip */
    char *end = NULL;
    long typed = browser->query[0] ? strtol(browser->query, &end, 10) : -1;
    if (end && *end == '\0' && typed >= 0 && typed < browser->clip_count) keep = (int)typed;
    browser->selected = browser->row_count > 0 ? 0 : -1;
    for (int r = 0; r < browser->row_count; r++)
        if (browser->rows[r] == keep) browser->selected = r;
    browser->scroll = 0;
}

void browser_type(ClipBrowser *browser, const Clip *clips, unsigned int codepoint)
{
    char utf8[4];
    size_t n;
    if (codepoint < 0x20 || codepoint == 0x7f) return;   /* control characters */
    if (codepoint < 0x80) {
        utf8[0] = (char)codepoint;
        n = 1;
    } else if (codepoint < 0x800) {
        utf8[0] = (char)(0xc0 | (codepoint >> 6));
        utf8[1] = (char)(0x80 | (codepoint & 0x3f));
        n = 2;
    } else if (codepoint < 0x10000) {
        utf8[0] = (char)(0xe0 | (codepoint >> 12));
        utf8[1] = (char)(0x80 | ((codepoint >> 6) & 0x3f));
        utf8[2] = (char)(0x80 | (codepoint & 0x3f));
        n = 3;
    } else if (codepoint < 0x110000) {
        utf8[0] = (char)(0xf0 | (codepoint >> 18));
        utf8[1] = (char)(0x80 | ((codepoint >> 12) & 0x3f));
        utf8[2] = (char)(0x80 | ((codepoint >> 6) & 0x3f));
        utf8[3] = (char)(0x80 | (codepoint & 0x3f));
        n = 4;
    } else {
        return;
    }
    size_t length = strlen(browser->query);
    if (length + n >= sizeof browser->query) return;
    memcpy(browser->query + length, utf8, n);
    browser->query[length + n] = '\0';
    browser_refilter(browser, clips);
}

void browser_backspace(ClipBrowser *browser, const Clip *clips)
{
    size_t length = strlen(browser->query);
    if (length == 0) return;
    /* back over UTF-8 continuation bytes to the start of the last character */
    do length--;
    while (length > 0 && ((unsigned char)browser->query[length] & 0xc0) == 0x80);
    browser->query[length] = '\0';
    browser_refilter(browser, clips);
}

static void clamp_scroll(ClipBrowser *browser, int visible_rows)
{
    int max_scroll = browser->row_count - (visible_rows > 0 ? visible_rows : 1);
    if (browser->scroll > max_scroll) browser->scroll = max_scroll;
    if (browser->scroll < 0) browser->scroll = 0;
}

/* Scrolls just enough for the highlighted row to be shown. */
static void keep_visible(ClipBrowser *browser, int visible_rows)
{
    if (visible_rows < 1) visible_rows = 1;
    if (browser->selected >= 0) {
        if (browser->selected < browser->scroll) browser->scroll = browser->selected;
        if (browser->selected >= browser->scroll + visible_rows) browser->scroll = browser->selected - visible_rows + 1;
    }
    clamp_scroll(browser, visible_rows);
}

void browser_highlight_clip(ClipBrowser *browser, int clip, int visible_rows)
{
    for (int r = 0; r < browser->row_count; r++)
        if (browser->rows[r] == clip) browser->selected = r;
    keep_visible(browser, visible_rows);
}

void browser_move(ClipBrowser *browser, int delta, int visible_rows)
{
    if (browser->row_count == 0) return;
    long moved = (long)browser->selected + delta;
    if (moved < 0) moved = 0;
    if (moved >= browser->row_count) moved = browser->row_count - 1;
    browser->selected = (int)moved;
    keep_visible(browser, visible_rows);
}

void browser_scroll(ClipBrowser *browser, int delta, int visible_rows)
{
    browser->scroll += delta;
    clamp_scroll(browser, visible_rows);
}

int browser_selected_clip(const ClipBrowser *browser)
{
    if (browser->selected < 0 || browser->selected >= browser->row_count) return -1;
    return browser->rows[browser->selected];
}

int browser_row_at(const ClipBrowser *browser, const BrowserLayout *layout, float x, float y)
{
    if (x < layout->x || x >= layout->x + layout->width || y < layout->list_y || !(layout->row_height > 0.0f)) return -1;
    int visible = (int)((y - layout->list_y) / layout->row_height);
    if (visible >= layout->visible_rows) return -1;
    int row = browser->scroll + visible;
    return row < browser->row_count ? row : -1;
}
