/* text.c — stb_truetype glyph atlas (or stb_easy_font fallback) drawn as textured quads. */
#include "text.h"
#include "base/whole_file.h"
#include "gl.h"
#include "shader.h"

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_truetype.h"
#pragma GCC diagnostic pop
/* stb_easy_font is a header of static functions written for brevity, not -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_easy_font.h"
#pragma GCC diagnostic pop

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_VERTEX_BYTES 20           /* float x, y, u, v; RGBA8 */
#define TEXT_WHITE_ROWS 2              /* solid rows at the atlas bottom: the texel rectangles use */
#define TEXT_EASY_FONT_HEIGHT 10.0f    /* stb_easy_font's line height at scale 1, pixels */

static const char *const text_vertex_source =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_position;  // pixels, y down\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "layout(location = 2) in vec4 a_color;\n"
    "uniform vec2 u_viewport;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    vec2 p = a_position / u_viewport;\n"
    "    gl_Position = vec4(p.x * 2.0 - 1.0, 1.0 - p.y * 2.0, 0.0, 1.0);\n"
    "    v_uv = a_uv;\n"
    "    v_color = a_color;\n"
    "}\n";

static const char *const text_fragment_source =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "in vec4 v_color;\n"
    "uniform sampler2D u_atlas;   // coverage in .r\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = vec4(v_color.rgb, v_color.a * texture(u_atlas, v_uv).r); }\n";

static bool readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

bool text_find_font(char *path, size_t path_size)
{
    static const char *const candidates[] = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",          /* fonts-dejavu-core (Debian) */
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",                    /* Fedora */
        "/usr/share/fonts/TTF/DejaVuSans.ttf",                       /* Arch */
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    };
    const char *env = getenv("SKINVIEW_FONT");
    if (env && env[0] && readable(env)) {
        snprintf(path, path_size, "%s", env);
        return true;
    }
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (readable(candidates[i])) {
            snprintf(path, path_size, "%s", candidates[i]);
            return true;
        }
    return false;
}

/* Bakes the glyphs at text->pixel_height into the atlas and uploads it. */
static void bake(Text *text)
{
    const int size = TEXT_ATLAS_SIZE;
    memset(text->atlas, 0, (size_t)size * size);
    bool baked = false;
    if (text->font_data) {
        stbtt_bakedchar chars[TEXT_CHAR_COUNT];
        int rows = stbtt_BakeFontBitmap(text->font_data, 0, text->pixel_height, text->atlas, size,
                                        size - TEXT_WHITE_ROWS, TEXT_FIRST_CHAR, TEXT_CHAR_COUNT, chars);
        if (rows != 0) {   /* negative: not all glyphs fit; the ones that did are usable */
            for (int i = 0; i < TEXT_CHAR_COUNT; i++) {
                text->glyphs[i].x0 = chars[i].x0; text->glyphs[i].y0 = chars[i].y0;
                text->glyphs[i].x1 = chars[i].x1; text->glyphs[i].y1 = chars[i].y1;
                text->glyphs[i].xoff = chars[i].xoff; text->glyphs[i].yoff = chars[i].yoff;
                text->glyphs[i].xadvance = chars[i].xadvance;
            }
            stbtt_fontinfo info;
            int ascent = 0, descent = 0, gap = 0;
            if (stbtt_InitFont(&info, text->font_data, stbtt_GetFontOffsetForIndex(text->font_data, 0))) {
                stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
                text->ascent = (float)ascent * stbtt_ScaleForPixelHeight(&info, text->pixel_height);
            } else {
                text->ascent = 0.8f * text->pixel_height;
            }
            baked = true;
        }
    }
    if (!baked) {   /* the fallback draws stb_easy_font quads with the white texel */
        free(text->font_data);
        text->font_data = NULL;
        text->font_path[0] = '\0';
    }
    memset(text->atlas + (size_t)size * (size - TEXT_WHITE_ROWS), 255, (size_t)size * TEXT_WHITE_ROWS);
    glBindTexture(GL_TEXTURE_2D, text->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, size, size, 0, GL_RED, GL_UNSIGNED_BYTE, text->atlas);
    glBindTexture(GL_TEXTURE_2D, 0);
}

bool text_init(Text *text, char *error, size_t error_size)
{
    memset(text, 0, sizeof *text);
    text->program = gfx_program_from_sources("text", text_vertex_source, text_fragment_source, error, error_size);
    if (!text->program) return false;
    text->u_viewport = glGetUniformLocation(text->program, "u_viewport");
    text->atlas = malloc((size_t)TEXT_ATLAS_SIZE * TEXT_ATLAS_SIZE);
    text->vertices = malloc((size_t)TEXT_MAX_QUADS * 4 * TEXT_VERTEX_BYTES);
    GLuint *indices = malloc((size_t)TEXT_MAX_QUADS * 6 * sizeof(GLuint));
    if (!text->atlas || !text->vertices || !indices) {
        free(indices);
        text_free(text);
        snprintf(error, error_size, "text: out of memory");
        return false;
    }
    /* quad q = triangles (4q, 4q+1, 4q+2), (4q, 4q+2, 4q+3) */
    for (GLuint q = 0; q < TEXT_MAX_QUADS; q++) {
        GLuint *i = indices + 6 * q;
        i[0] = 4 * q; i[1] = 4 * q + 1; i[2] = 4 * q + 2;
        i[3] = 4 * q; i[4] = 4 * q + 2; i[5] = 4 * q + 3;
    }
    glGenVertexArrays(1, &text->vao);
    glGenBuffers(1, &text->vbo);
    glGenBuffers(1, &text->ebo);
    glBindVertexArray(text->vao);
    glBindBuffer(GL_ARRAY_BUFFER, text->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)TEXT_MAX_QUADS * 4 * TEXT_VERTEX_BYTES, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, TEXT_VERTEX_BYTES, (const void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, TEXT_VERTEX_BYTES, (const void *)8);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, TEXT_VERTEX_BYTES, (const void *)16);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, text->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)TEXT_MAX_QUADS * 6 * sizeof(GLuint), indices, GL_STATIC_DRAW);
    glBindVertexArray(0);
    free(indices);

    glGenTextures(1, &text->texture);
    glBindTexture(GL_TEXTURE_2D, text->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);

    size_t font_size = 0;
    if (text_find_font(text->font_path, sizeof text->font_path))
        text->font_data = whole_file_read(text->font_path, 64u << 20, &font_size, NULL);
    if (!text->font_data) text->font_path[0] = '\0';
    text->pixel_height = 16.0f;
    bake(text);
    stb_easy_font_spacing(0.0f);
    return true;
}

void text_free(Text *text)
{
    if (text->program) {   /* the GL objects come after the program; GL ignores the names still 0 */
        const GLuint buffers[2] = {text->vbo, text->ebo};
        glDeleteTextures(1, &text->texture);
        glDeleteBuffers(2, buffers);
        glDeleteVertexArrays(1, &text->vao);
        glDeleteProgram(text->program);
    }
    free(text->font_data);
    free(text->atlas);
    free(text->vertices);
    memset(text, 0, sizeof *text);
}

void text_set_size(Text *text, float pixel_height)
{
    if (!(pixel_height >= 8.0f)) pixel_height = 8.0f;   /* also NaN */
    if (pixel_height > 96.0f) pixel_height = 96.0f;
    pixel_height = floorf(pixel_height + 0.5f);
    if (pixel_height == text->pixel_height) return;
    text->pixel_height = pixel_height;
    if (text->font_data) bake(text);
}

float text_line_height(const Text *text)
{
    return floorf(text->pixel_height * 1.25f + 0.5f);
}

/* Next code point of a UTF-8 string (advances *s); malformed bytes count as '?'. */
static unsigned next_codepoint(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    unsigned c = p[0];
    int extra = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (extra < 0) {
        *s += 1;
        return '?';
    }
    unsigned code = extra == 0 ? c : c & (0x3f >> extra);
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s += i;
            return '?';
        }
        code = (code << 6) | (p[i] & 0x3f);
    }
    *s += 1 + extra;
    return code;
}

/* Glyph slot for a code point: U+0020..U+00FF, else '?'. */
static int glyph_index(unsigned code)
{
    if (code < TEXT_FIRST_CHAR || code >= TEXT_FIRST_CHAR + TEXT_CHAR_COUNT || (code >= 0x7f && code < 0xa0))
        code = '?';
    return (int)code - TEXT_FIRST_CHAR;
}

/* Scale of the stb_easy_font fallback for the current size. */
static float easy_scale(const Text *text)
{
    return text->pixel_height / TEXT_EASY_FONT_HEIGHT;
}

static float advance_of(const Text *text, unsigned code)
{
    if (text->font_data) return text->glyphs[glyph_index(code)].xadvance;
    char one[2] = {(char)(glyph_index(code) + TEXT_FIRST_CHAR < 127 ? glyph_index(code) + TEXT_FIRST_CHAR : '?'), 0};
    return (float)stb_easy_font_width(one) * easy_scale(text);
}

float text_width(const Text *text, const char *utf8)
{
    float width = 0.0f;
    while (*utf8) width += advance_of(text, next_codepoint(&utf8));
    return width;
}

int text_wrap(const Text *text, const char *utf8, float max_width, int max_lines, char *out, size_t out_size)
{
    size_t written = 0;
    int lines = 0;
    if (out_size == 0) return 0;
    out[0] = '\0';
    while (*utf8 == ' ') utf8++;
    while (*utf8 && lines < max_lines && written + 1 < out_size) {
        char *line = out + written;
        size_t room = out_size - written;
        if (lines > 0) {   /* the separator of the line before */
            if (room < 3) break;
            *line++ = '\n', room--, written++;
        }
        if (lines == max_lines - 1 || text_width(text, utf8) <= max_width) {   /* the last line: the rest, fitted */
            text_fit(text, utf8, max_width, line, room);
            lines++;
            break;
        }
        /* the longest run of whole characters that fits, then back to its last space (if any) */
        const char *p = utf8, *fits = utf8, *space = NULL;
        float used = 0.0f;
        while (*p) {
            const char *at = p;
            float w = advance_of(text, next_codepoint(&p));
            if (used + w > max_width) break;
            used += w;
            if (*at == ' ') space = at;
            fits = p;
        }
        const char *end = *fits == ' ' || !space ? fits : space;
        if (end == utf8) end = p > utf8 ? p : utf8 + 1;   /* not even one character fits: one anyway */
        size_t bytes = (size_t)(end - utf8);
        if (bytes + 1 > room) bytes = room - 1;
        memcpy(line, utf8, bytes);
        line[bytes] = '\0';
        while (bytes > 0 && line[bytes - 1] == ' ') line[--bytes] = '\0';
        written = (size_t)(line - out) + bytes;
        lines++;
        utf8 = end;
        while (*utf8 == ' ') utf8++;
    }
    return lines;
}

float text_fit(const Text *text, const char *utf8, float max_width, char *out, size_t out_size)
{
    if (out_size == 0) return 0.0f;
    float full = text_width(text, utf8);
    size_t length = strlen(utf8);
    if (full <= max_width && length < out_size) {
        memcpy(out, utf8, length + 1);
        return full;
    }
    /* keep a head and a tail of whole characters, 60 % of the room for the head */
    const char *dots = "...";
    float room = max_width - text_width(text, dots);
    if (room <= 0.0f || out_size < 5) {
        out[0] = '\0';
        return 0.0f;
    }
    float head_room = 0.6f * room, used = 0.0f;
    const char *p = utf8, *head_end = utf8;
    while (*p) {
        const char *before = p;
        float w = advance_of(text, next_codepoint(&p));
        if (used + w > head_room) break;
        used += w;
        head_end = p;
        (void)before;
    }
    float tail_room = room - used, tail_used = 0.0f;
    const char *tail = utf8 + length;
    while (tail > head_end) {   /* step back one character at a time */
        const char *c = tail - 1;
        while (c > head_end && ((unsigned char)*c & 0xc0) == 0x80) c--;
        const char *q = c;
        float w = advance_of(text, next_codepoint(&q));
        if (tail_used + w > tail_room) break;
        tail_used += w;
        tail = c;
    }
    size_t head_bytes = (size_t)(head_end - utf8), tail_bytes = strlen(tail);
    if (head_bytes + 3 + tail_bytes + 1 > out_size) {
        tail_bytes = 0;
        if (head_bytes + 4 > out_size) head_bytes = out_size - 4;
        while (head_bytes > 0 && ((unsigned char)utf8[head_bytes] & 0xc0) == 0x80) head_bytes--;
    }
    memcpy(out, utf8, head_bytes);
    memcpy(out + head_bytes, dots, 3);
    memcpy(out + head_bytes + 3, tail + strlen(tail) - tail_bytes, tail_bytes);
    out[head_bytes + 3 + tail_bytes] = '\0';
    return text_width(text, out);
}

void text_begin(Text *text)
{
    text->quad_count = 0;
}

static void quad(Text *text, float x0, float y0, float x1, float y1, float u0, float v0, float u1, float v1,
                 const unsigned char rgba[4])
{
    if (text->quad_count >= TEXT_MAX_QUADS) return;
    unsigned char *v = text->vertices + (size_t)text->quad_count * 4 * TEXT_VERTEX_BYTES;
    const float corners[4][4] = {{x0, y0, u0, v0}, {x1, y0, u1, v0}, {x1, y1, u1, v1}, {x0, y1, u0, v1}};
    for (int k = 0; k < 4; k++, v += TEXT_VERTEX_BYTES) {
        memcpy(v, corners[k], 16);
        memcpy(v + 16, rgba, 4);
    }
    text->quad_count++;
}

/* Texture coordinates of the solid white rows. */
static void white_uv(float *u, float *v)
{
    *u = 0.5f / TEXT_ATLAS_SIZE;
    *v = ((float)TEXT_ATLAS_SIZE - 1.0f) / TEXT_ATLAS_SIZE;
}

void text_rect(Text *text, float x, float y, float width, float height, const unsigned char rgba[4])
{
    float u, v;
    white_uv(&u, &v);
    quad(text, x, y, x + width, y + height, u, v, u, v, rgba);
}

float text_draw(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4])
{
    if (!text->font_data) {   /* built-in bitmap glyphs: one solid quad per stroke */
        float scale = easy_scale(text), pen = x;
        static char stroke_buffer[4 * 4 * 16 * 64];   /* one character's quads, stb layout */
        while (*utf8) {
            unsigned code = next_codepoint(&utf8);
            int c = glyph_index(code) + TEXT_FIRST_CHAR;
            char one[2] = {(char)(c < 127 ? c : '?'), 0};
            unsigned char color[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
            int quads = stb_easy_font_print(0.0f, 0.0f, one, color, stroke_buffer, (int)sizeof stroke_buffer);
            for (int q = 0; q < quads; q++) {
                const float *a = (const float *)(stroke_buffer + (size_t)q * 64);        /* corner 0 */
                const float *b = (const float *)(stroke_buffer + (size_t)q * 64 + 32);   /* corner 2 */
                text_rect(text, pen + a[0] * scale, y + 1.0f + a[1] * scale, (b[0] - a[0]) * scale, (b[1] - a[1]) * scale,
                          rgba);
            }
            pen += (float)stb_easy_font_width(one) * scale;
        }
        return pen;
    }
    const float baseline = y + floorf(0.5f * (text_line_height(text) - text->pixel_height)) + text->ascent;
    float pen = x;
    const float inv = 1.0f / TEXT_ATLAS_SIZE;
    while (*utf8) {
        const TextGlyph *g = &text->glyphs[glyph_index(next_codepoint(&utf8))];
        float x0 = floorf(pen + g->xoff + 0.5f), y0 = floorf(baseline + g->yoff + 0.5f);
        float w = (float)(g->x1 - g->x0), h = (float)(g->y1 - g->y0);
        if (w > 0.0f && h > 0.0f)
            quad(text, x0, y0, x0 + w, y0 + h, g->x0 * inv, g->y0 * inv, g->x1 * inv, g->y1 * inv, rgba);
        pen += g->xadvance;
    }
    return pen;
}

/* The first line of utf8 into line (at most size - 1 bytes); returns where the next line starts. */
static const char *first_line(const char *utf8, char *line, size_t size)
{
    size_t length = strcspn(utf8, "\n"), kept = length < size ? length : size - 1;
    memcpy(line, utf8, kept);
    line[kept] = '\0';
    return utf8[length] == '\n' ? utf8 + length + 1 : NULL;
}

void text_measure(const Text *text, const char *utf8, float *width, float *height)
{
    char line[1024];
    int lines = 0;
    *width = 0.0f;
    for (const char *p = utf8; p;) {
        p = first_line(p, line, sizeof line);
        *width = fmaxf(*width, text_width(text, line));
        lines++;
    }
    /* the last line ends at its glyphs' bottom, not at the next line's top */
    *height = (float)lines * text_line_height(text) - floorf(0.2f * text->pixel_height);
}

float text_lines(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4])
{
    char line[1024];
    float width = 0.0f;
    for (const char *p = utf8; p; y += text_line_height(text)) {
        p = first_line(p, line, sizeof line);
        width = fmaxf(width, text_draw(text, x, y, line, rgba) - x);
    }
    return width;
}

float text_pad(const Text *text)
{
    return floorf(0.3f * text->pixel_height + 0.5f);
}

void text_panel(Text *text, float x, float y, float width, float height)
{
    static const unsigned char panel[4] = {0, 0, 0, 170};
    float pad = text_pad(text);
    text_rect(text, x - pad, y - pad, width + 2.0f * pad, height + 2.0f * pad, panel);
}

float text_block(Text *text, float x, float y, const char *utf8, const unsigned char rgba[4])
{
    if (!utf8[0]) return 0.0f;
    float width, height;
    text_measure(text, utf8, &width, &height);
    text_panel(text, x, y, width, height);
    text_lines(text, x, y, utf8, rgba);
    return height + 2.0f * text_pad(text);
}

float text_scale_for(int fb_width, int fb_height)
{
    (void)fb_width;
    int s = (fb_height + 300) / 600;   /* 1x up to ~900 pixels high, 2x for 1080p-class windows, 4x on 4K */
    return (float)(s < 1 ? 1 : s > 4 ? 4 : s);
}

void text_flush(Text *text, int fb_width, int fb_height)
{
    if (text->quad_count == 0 || fb_width <= 0 || fb_height <= 0) return;
    GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
    GLboolean blend = glIsEnabled(GL_BLEND);
    GLboolean cull = glIsEnabled(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(text->program);
    glUniform2f(text->u_viewport, (float)fb_width, (float)fb_height);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, text->texture);
    glBindVertexArray(text->vao);
    glBindBuffer(GL_ARRAY_BUFFER, text->vbo);
    /* NOTE: orphan the old storage so the driver need not wait for last frame's draw. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)TEXT_MAX_QUADS * 4 * TEXT_VERTEX_BYTES, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)text->quad_count * 4 * TEXT_VERTEX_BYTES, text->vertices);
    glDrawElements(GL_TRIANGLES, text->quad_count * 6, GL_UNSIGNED_INT, (const void *)0);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    if (depth_test) glEnable(GL_DEPTH_TEST);
    if (cull) glEnable(GL_CULL_FACE);
    if (!blend) glDisable(GL_BLEND);
}
