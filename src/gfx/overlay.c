/* overlay.c — stb_easy_font quads on translucent panels, one indexed draw call. */
#include "overlay.h"
#include "gl.h"
#include "shader.h"

/* stb_easy_font is a header of static functions written for brevity, not -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_easy_font.h"
#pragma GCC diagnostic pop

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OVERLAY_VERTEX_BYTES 16      /* stb_easy_font layout: float x, y, z; RGBA8 */

static const char *const overlay_vertex_source =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_position;  // overlay pixels, y down\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform vec2 u_viewport;                   // framebuffer size in pixels\n"
    "uniform float u_scale;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    vec2 p = floor(a_position * u_scale) / u_viewport;\n"
    "    gl_Position = vec4(p.x * 2.0 - 1.0, 1.0 - p.y * 2.0, 0.0, 1.0);\n"
    "    v_color = a_color;\n"
    "}\n";

static const char *const overlay_fragment_source =
    "#version 330 core\n"
    "in vec4 v_color;\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = v_color; }\n";

bool overlay_init(Overlay *overlay, char *error, size_t error_size)
{
    memset(overlay, 0, sizeof *overlay);
    overlay->program =
        gfx_program_from_sources("overlay", overlay_vertex_source, overlay_fragment_source, error, error_size);
    if (!overlay->program) return false;
    overlay->u_viewport = glGetUniformLocation(overlay->program, "u_viewport");
    overlay->u_scale = glGetUniformLocation(overlay->program, "u_scale");

    overlay->vertices = malloc((size_t)OVERLAY_MAX_QUADS * 4 * OVERLAY_VERTEX_BYTES);
    /* Quads -> triangles through a fixed index list: quad q = (4q, 4q+1, 4q+2), (4q, 4q+2, 4q+3). */
    GLuint *indices = malloc((size_t)OVERLAY_MAX_QUADS * 6 * sizeof(GLuint));
    if (!overlay->vertices || !indices) {
        free(indices);
        overlay_free(overlay);
        snprintf(error, error_size, "overlay: out of memory");
        return false;
    }
    for (GLuint q = 0; q < OVERLAY_MAX_QUADS; q++) {
        GLuint *i = indices + 6 * q;
        i[0] = 4 * q; i[1] = 4 * q + 1; i[2] = 4 * q + 2;
        i[3] = 4 * q; i[4] = 4 * q + 2; i[5] = 4 * q + 3;
    }

    glGenVertexArrays(1, &overlay->vao);
    glGenBuffers(1, &overlay->vbo);
    glGenBuffers(1, &overlay->ebo);
    glBindVertexArray(overlay->vao);
    glBindBuffer(GL_ARRAY_BUFFER, overlay->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)OVERLAY_MAX_QUADS * 4 * OVERLAY_VERTEX_BYTES, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, OVERLAY_VERTEX_BYTES, (const void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, OVERLAY_VERTEX_BYTES, (const void *)12);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, overlay->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)OVERLAY_MAX_QUADS * 6 * sizeof(GLuint), indices, GL_STATIC_DRAW);
    glBindVertexArray(0);
    free(indices);

    stb_easy_font_spacing(0.0f);
    return true;
}

void overlay_free(Overlay *overlay)
{
    if (overlay->ebo) glDeleteBuffers(1, &overlay->ebo);
    if (overlay->vbo) glDeleteBuffers(1, &overlay->vbo);
    if (overlay->vao) glDeleteVertexArrays(1, &overlay->vao);
    if (overlay->program) glDeleteProgram(overlay->program);
    free(overlay->vertices);
    memset(overlay, 0, sizeof *overlay);
}

void overlay_begin(Overlay *overlay)
{
    overlay->quad_count = 0;
}

/* Appends one solid quad [x0,x1] x [y0,y1] in stb_easy_font's vertex layout. */
static void overlay_quad(Overlay *overlay, float x0, float y0, float x1, float y1, const unsigned char color[4])
{
    if (overlay->quad_count >= OVERLAY_MAX_QUADS) return;
    unsigned char *v = overlay->vertices + (size_t)overlay->quad_count * 4 * OVERLAY_VERTEX_BYTES;
    const float corners[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (int k = 0; k < 4; k++, v += OVERLAY_VERTEX_BYTES) {
        const float xyz[3] = {corners[k][0], corners[k][1], 0.0f};
        memcpy(v, xyz, sizeof xyz);
        memcpy(v + 12, color, 4);
    }
    overlay->quad_count++;
}

/* Copies text, keeping to printable ASCII: stb_easy_font indexes its glyph table with (c - 32). */
static size_t clean_text(const char *text, char clean[OVERLAY_MAX_TEXT])
{
    size_t n = 0;
    for (; text[n] && n + 1 < OVERLAY_MAX_TEXT; n++) {
        unsigned char c = (unsigned char)text[n];
        clean[n] = (c == '\n' || (c >= 32 && c < 127)) ? (char)c : '?';
    }
    clean[n] = '\0';
    return n;
}

static void measure_clean(char *clean, size_t n, float *width, float *height)
{
    int lines = 1;
    for (size_t i = 0; i < n; i++) lines += clean[i] == '\n';
    *width = (float)stb_easy_font_width(clean);
    *height = (float)lines * OVERLAY_LINE_HEIGHT - 3.0f; /* glyphs are 7-9 px high in a 12 px line */
}

void overlay_measure(const char *text, float *width, float *height)
{
    char clean[OVERLAY_MAX_TEXT];
    size_t n = clean_text(text, clean);
    measure_clean(clean, n, width, height);
}

void overlay_panel(Overlay *overlay, float x, float y, float width, float height)
{
    static const unsigned char panel[4] = {0, 0, 0, 170};
    overlay_quad(overlay, x - OVERLAY_PANEL_PAD, y - OVERLAY_PANEL_PAD, x + width + OVERLAY_PANEL_PAD,
                 y + height + OVERLAY_PANEL_PAD, panel);
}

/* Appends the glyph quads of an already cleaned text. */
static void print_clean(Overlay *overlay, float x, float y, char *clean, const unsigned char color[4])
{
    int free_quads = OVERLAY_MAX_QUADS - overlay->quad_count;
    if (free_quads <= 0 || !overlay->vertices) return;
    unsigned char rgba[4] = {color[0], color[1], color[2], color[3]};
    unsigned char *out = overlay->vertices + (size_t)overlay->quad_count * 4 * OVERLAY_VERTEX_BYTES;
    overlay->quad_count += stb_easy_font_print(x, y, clean, rgba, out, free_quads * 4 * OVERLAY_VERTEX_BYTES);
}

float overlay_label(Overlay *overlay, float x, float y, const char *text, const unsigned char color[4])
{
    char clean[OVERLAY_MAX_TEXT];
    size_t n = clean_text(text, clean);
    float width, height;
    measure_clean(clean, n, &width, &height);
    print_clean(overlay, x, y, clean, color);
    return width;
}

float overlay_text(Overlay *overlay, float x, float y, const char *text, const unsigned char color[4])
{
    char clean[OVERLAY_MAX_TEXT];
    size_t n = clean_text(text, clean);
    if (n == 0) return 0.0f;
    float width, height;
    measure_clean(clean, n, &width, &height);
    overlay_panel(overlay, x, y, width, height);
    print_clean(overlay, x, y, clean, color);
    return height + 2.0f * OVERLAY_PANEL_PAD;
}

void overlay_draw(Overlay *overlay, int fb_width, int fb_height, float scale)
{
    if (overlay->quad_count == 0 || fb_width <= 0 || fb_height <= 0) return;
    GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
    GLboolean blend = glIsEnabled(GL_BLEND);
    GLboolean cull = glIsEnabled(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

    glUseProgram(overlay->program);
    glUniform2f(overlay->u_viewport, (float)fb_width, (float)fb_height);
    glUniform1f(overlay->u_scale, scale > 0.0f ? scale : 1.0f);
    glBindVertexArray(overlay->vao);
    glBindBuffer(GL_ARRAY_BUFFER, overlay->vbo);
    GLsizeiptr bytes = (GLsizeiptr)overlay->quad_count * 4 * OVERLAY_VERTEX_BYTES;
    /* NOTE: orphan the old storage so the driver need not wait for last frame's draw. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)OVERLAY_MAX_QUADS * 4 * OVERLAY_VERTEX_BYTES, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, overlay->vertices);
    glDrawElements(GL_TRIANGLES, overlay->quad_count * 6, GL_UNSIGNED_INT, (const void *)0);
    glBindVertexArray(0);
    glUseProgram(0);

    if (depth_test) glEnable(GL_DEPTH_TEST);
    if (cull) glEnable(GL_CULL_FACE);
    if (!blend) glDisable(GL_BLEND);
}

float overlay_scale_for(int fb_width, int fb_height)
{
    (void)fb_width;
    /* 1x up to ~900 pixels high, 2x for 1080p-class windows, up to 4x on 4K */
    int s = (fb_height + 300) / 600;
    return (float)(s < 1 ? 1 : s > 4 ? 4 : s);
}
