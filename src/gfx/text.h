/* text.h — the one text system: the HUD, the help, the teaching aids' labels, legends and panels.
 * stb_truetype bakes a TrueType font (DejaVu Sans from fonts-dejavu-core, found at run time) into
 * one texture at the pixel size asked; every glyph and every solid rectangle of a frame is one
 * textured quad, drawn with one draw call. Without a font file it falls back to stb_easy_font's
 * built-in bitmap glyphs (same calls, blockier look), so text never disappears.
 *
 * Usage per frame:  text_set_size(); text_begin(); text_rect() / text_draw() / text_block() ...;
 * text_flush(). One Text per size a frame uses (baking is per size: the HUD and the aids keep one
 * each).
 * Coordinates are framebuffer pixels, y down from the top-left corner. Strings are UTF-8;
 * code points U+0020..U+00FF are drawn (Latin-1), others as '?'. Nothing is allocated per
 * frame; the atlas is baked again only when the size changes.
 * Needs a current GL 3.3 core context with glad loaded.
 */
#ifndef SKINVIEW_TEXT_H
#define SKINVIEW_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#define TEXT_MAX_QUADS 32768           /* a glyph is one quad (the bitmap fallback: ~4): the vertex inspector has ~3000 */
#define TEXT_ATLAS_SIZE 1024
#define TEXT_FIRST_CHAR 32
#define TEXT_CHAR_COUNT 224            /* U+0020 .. U+00FF */

typedef struct TextGlyph {             /* stbtt_bakedchar, without including stb here */
    unsigned short x0, y0, x1, y1;
    float xoff, yoff, xadvance;
} TextGlyph;

typedef struct Text {
    unsigned int   program, vao, vbo, ebo, texture;
    int            u_viewport;
    unsigned char *font_data;          /* the .ttf file, NULL for the built-in fallback */
    char           font_path[512];     /* "" for the built-in fallback */
    float          pixel_height;       /* size baked (line height basis) */
    float          ascent;             /* pixels above the baseline */
    unsigned char *atlas;              /* TEXT_ATLAS_SIZE^2 coverage bytes, last rows solid white */
    TextGlyph      glyphs[TEXT_CHAR_COUNT];
    unsigned char *vertices;           /* TEXT_MAX_QUADS * 4 vertices */
    int            quad_count;
} Text;

/* The font file text_init() uses: $SKINVIEW_FONT if it names a readable file, else the first
 * readable of the usual Debian paths (fonts-dejavu-core's DejaVuSans.ttf first). Returns false
 * when none is found (the built-in glyphs are used then). */
bool text_find_font(char *path, size_t path_size);

/* Loads the font (or falls back), creates the GL objects, bakes at 16 pixels. False with a
 * one-line cause only on GL or memory failure. */
bool text_init(Text *text, char *error, size_t error_size);
void text_free(Text *text);

/* Sets the text height in pixels (clamped to [8, 96]); re-bakes when it changes. */
void text_set_size(Text *text, float pixel_height);

/* Distance between two lines of text, pixels. */
float text_line_height(const Text *text);

/* Width of a UTF-8 string in pixels (one line). */
float text_width(const Text *text, const char *utf8);

/* Copies utf8 into out, shortened in the middle with "..." so that it is at most max_width
 * pixels wide (as much of both ends as fits). Returns the width of what was written. */
float text_fit(const Text *text, const char *utf8, float max_width, char *out, size_t out_size);

/* Breaks utf8 into at most max_lines lines, each at most max_width pixels wide, at spaces where it can (a
 * word wider than a line is cut between characters): out holds the lines separated by '\n', the last one
 * shortened in the middle (text_fit) if the rest still does not fit. Returns the number of lines (0 for ""). */
int text_wrap(const Text *text, const char *utf8, float max_width, int max_lines, char *out, size_t out_size);

void text_begin(Text *text);

/* Adds a solid rectangle. */
void text_rect(Text *text, float x, float y, float width, float height, const unsigned char rgba[4]);

/* Adds one line of text with its top at y. Returns the x where it ends. */
float text_draw(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4]);

/* Size of a multi-line text: its widest line, and its lines' height (the last line without the
 * spacing under it). */
void text_measure(const Text *text, const char *utf8, float *width, float *height);
/* Adds a multi-line text with its top-left corner at (x, y), no panel. Returns its width. */
float text_lines(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4]);

/* Panels: the dark translucent rectangle behind a label or a block of text, text_pad() pixels
 * larger than it on every side. */
float text_pad(const Text *text);
void text_panel(Text *text, float x, float y, float width, float height);
/* A multi-line text on its panel, text top-left at (x, y). Returns the panel's height (to stack
 * the next block below it). */
float text_block(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4]);

/* Layout scale of the window decorations drawn around text (line widths, dot sizes, margins): 1
 * below 900 pixels high, 2 from 900 (1080p), 3 from 1500, 4 from 2100. */
float text_scale_for(int fb_width, int fb_height);

/* Draws everything added since text_begin() over the current framebuffer, blended, no depth
 * test; restores the depth-test, face-culling and blend enables it changed. */
void text_flush(Text *text, int fb_width, int fb_height);

#endif
