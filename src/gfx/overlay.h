/* overlay.h — on-screen text (stb_easy_font) on dark translucent panels.
 *
 * Usage per frame:  overlay_begin(); overlay_text(...) ...; overlay_draw();
 * Text is built into a buffer allocated once by overlay_init(): nothing is
 * allocated per frame. Coordinates are in "overlay pixels" (y down from the
 * top-left corner); overlay_draw() multiplies them by `scale` (1 or 2 ...,
 * see overlay_scale_for()). One draw call for everything, no textures.
 * Needs a current GL 3.3 core context with glad loaded.
 */
#ifndef SKINVIEW_OVERLAY_H
#define SKINVIEW_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

#define OVERLAY_MAX_QUADS 32768      /* ~4 quads per glyph on average: room for ~8000 glyphs (the vertex inspector) */
#define OVERLAY_MAX_TEXT 2048        /* longest text one overlay_text() call draws */
#define OVERLAY_LINE_HEIGHT 12.0f    /* stb_easy_font line advance, in overlay pixels */
#define OVERLAY_PANEL_PAD 4.0f       /* panel margin around text, in overlay pixels */

typedef struct Overlay {
    unsigned int   program, vao, vbo, ebo;  /* GL names */
    int            u_viewport, u_scale;     /* uniform locations */
    unsigned char *vertices;                /* OVERLAY_MAX_QUADS * 4 vertices of 16 bytes */
    int            quad_count;
} Overlay;

/* Compiles the shader and allocates the buffers. On failure returns false
 * with a one-line cause in error (and leaves nothing allocated). */
bool overlay_init(Overlay *overlay, char *error, size_t error_size);

/* Deletes the GL objects and the buffer (safe on a zeroed Overlay). */
void overlay_free(Overlay *overlay);

/* Starts a new frame's text. */
void overlay_begin(Overlay *overlay);

/* Adds `text` (may hold '\n'; bytes outside printable ASCII show as '?') with its
 * top-left corner at (x, y) overlay pixels, on a dark panel with a few pixels of
 * margin. color = RGBA8. Returns the panel height (to stack the next block
 * below). Text that does not fit the buffer is cut off. */
float overlay_text(Overlay *overlay, float x, float y, const char *text, const unsigned char color[4]);

/* Adds `text` without a panel (for columns on a panel of their own). Returns its width. */
float overlay_label(Overlay *overlay, float x, float y, const char *text, const unsigned char color[4]);

/* Adds a dark translucent panel around the rectangle (x, y, width, height), plus margin. */
void overlay_panel(Overlay *overlay, float x, float y, float width, float height);

/* Size of `text` in overlay pixels (as overlay_label draws it). */
void overlay_measure(const char *text, float *width, float *height);

/* Draws everything added since overlay_begin() over the current framebuffer
 * (fb_width x fb_height pixels), blended, without depth test. Restores the
 * depth-test, face-culling and blend enables it changed (the blend function is
 * left at SRC_ALPHA, ONE_MINUS_SRC_ALPHA). Call it after renderer_draw(), which
 * leaves GL_FRAMEBUFFER_SRGB off, so the colours land unchanged. */
void overlay_draw(Overlay *overlay, int fb_width, int fb_height, float scale);

/* Text scale for a framebuffer: 1 below 900 pixels high, 2 from 900 (1080p), 3 from 1500, 4 from 2100. */
float overlay_scale_for(int fb_width, int fb_height);

#endif
