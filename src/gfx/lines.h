/* lines.h — coloured 3D line segments of any pixel width, and round points, for the viewer's
 * aids: the skeleton (B), joint axes (A), the ground grid and world axes (G), legends.
 *
 * Core-profile GL has no wide lines (glLineWidth > 1 is not guaranteed), so a small geometry
 * shader turns each segment into a screen-aligned quad `width` pixels wide. Points are
 * gl_PointSize squares cut to discs in the fragment shader. One VBO, sized once by
 * lines_init() for the most segments the caller will draw; drawing only copies vertices in
 * (glBufferSubData), never allocates. Needs a current GL 3.3 core context with glad loaded.
 *
 * Typical use:
 *     lines_init(&lines, max_segments, error, sizeof error);
 *     each frame, after renderer_draw():
 *         LineStyle style = {.width = 2, .depth_test = false, .viewport = {w, h}};
 *         lines_draw(&lines, vertices, segment_count, view, projection, &style);   // 2 per segment
 *         lines_draw_points(&lines, vertices, point_count, view, projection, &style, 8.0f);
 *     lines_free(&lines);
 */
#ifndef SKINVIEW_LINES_H
#define SKINVIEW_LINES_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>

/* One endpoint: scene-space position and a colour (RGBA 0..1, written to the framebuffer as is,
 * blended by alpha). */
typedef struct LineVertex {
    float position[3];
    float color[4];
} LineVertex;

typedef struct LineStyle {
    float width;          /* pixels */
    bool  depth_test;     /* false: drawn over everything (skeleton); true: the mesh hides them (grid) */
    int   viewport[2];    /* framebuffer width, height in pixels (for the pixel width) */
} LineStyle;

typedef struct Lines {
    unsigned int line_program, point_program, vao, vbo;   /* GL names */
    int          line_view_projection, line_viewport, line_width;   /* uniform locations */
    int          point_view_projection, point_size;
    int          max_vertices;                    /* the VBO holds this many LineVertex */
} Lines;

/* Compiles the shaders and allocates a VBO for max_segments segments (2 vertices each; >= 0).
 * On failure returns false with a one-line cause in error. */
bool lines_init(Lines *lines, int max_segments, char *error, size_t error_size);

/* Deletes the GL objects (safe on a zeroed Lines). */
void lines_free(Lines *lines);

/* Draws segment s from vertices[2s] to vertices[2s+1], style->width pixels wide, each vertex in
 * its own colour (interpolated along the segment). Segments beyond the VBO are not drawn.
 * Restores depth-test and blend enables; leaves the program and VAO unbound. */
void lines_draw(Lines *lines, const LineVertex *vertices, int segment_count, const mat4 view, const mat4 projection,
                const LineStyle *style);

/* Draws vertices[0 .. count-1] as round points `size` pixels across (style: depth test, viewport). */
void lines_draw_points(Lines *lines, const LineVertex *vertices, int count, const mat4 view, const mat4 projection,
                       const LineStyle *style, float size);

#endif
