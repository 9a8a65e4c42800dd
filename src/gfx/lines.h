/* lines.h — coloured 3D line segments (and their endpoints as round points) drawn on top of
 * everything: the viewer's skeleton overlay (key B).
 *
 * One tiny embedded shader, one VAO, one VBO sized once by lines_init() for the most segments
 * the caller will ever draw; lines_draw() only copies the endpoints in (glBufferSubData),
 * never allocates. Needs a current GL 3.3 core context with glad loaded.
 *
 * Typical use (the viewer):
 *     lines_init(&lines, max_segments, error, sizeof error);
 *     each frame, after renderer_draw(), before overlay_draw():
 *         lines_draw(&lines, endpoints, segment_count, view, projection, color, point_size);
 *     lines_free(&lines);
 */
#ifndef SKINVIEW_LINES_H
#define SKINVIEW_LINES_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct Lines {
    unsigned int program, vao, vbo;               /* GL names */
    int          u_view_projection, u_color, u_point_size; /* uniform locations (looked up once) */
    int          max_segments;                    /* the VBO holds 2 * max_segments vertices */
} Lines;

/* Compiles the shader and allocates a VBO for max_segments segments (>= 0; 0 allocates room
 * for one, draws nothing). On failure returns false with a one-line cause in error. */
bool lines_init(Lines *lines, int max_segments, char *error, size_t error_size);

/* Deletes the GL objects (safe on a zeroed Lines). */
void lines_free(Lines *lines);

/* Draws segment s from endpoints[2s] to endpoints[2s+1] (scene space) as 1-pixel lines, and
 * every endpoint as a round point of point_size pixels (0: no points), in `color` (RGBA 0..1,
 * written to the framebuffer as is), with the depth test OFF so they show through the mesh.
 * Segments beyond max_segments are not drawn. Restores the depth-test enable and
 * GL_PROGRAM_POINT_SIZE; leaves the program and VAO unbound. */
void lines_draw(Lines *lines, const vec3 *endpoints, int segment_count, const mat4 view, const mat4 projection,
                const float color[4], float point_size);

#endif
