/* draw.c — the drawing helpers every teaching aid uses (teaching_aids.h): a segment into the
 * scratch vertices, the legends' colour bar. */
#include "teach/teaching_aids.h"
#include "gfx/colormap.h"

#include <math.h>
#include <string.h>

/* Influence-count colours as the shader's countColors (linear) look once sRGB-encoded:
 * 1, 2, 3, 4 influences, and "5+": vertices whose 5th+ influences the import cut. */
static const float count_colors[5][4] = {{0.25f, 0.35f, 0.91f, 1.0f}, {0.25f, 0.80f, 0.25f, 1.0f},
                                         {0.95f, 0.89f, 0.16f, 1.0f}, {0.91f, 0.16f, 0.16f, 1.0f},
                                         {0.91f, 0.16f, 0.91f, 1.0f}};

void scene_push_segment(LineVertex *vertices, int capacity, int *count, const float a[3], const float b[3],
                              const float color[4])
{
    if (2 * (*count + 1) > capacity) return;
    LineVertex *v = vertices + 2 * *count;
    memcpy(v[0].position, a, sizeof v[0].position);
    memcpy(v[1].position, b, sizeof v[1].position);
    memcpy(v[0].color, color, sizeof v[0].color);
    memcpy(v[1].color, color, sizeof v[1].color);
    (*count)++;
}

/* The heat-map (or influence-count) legend: a colour bar at the bottom right, in pixels. */
void scene_legend_bar(TeachingAids *scene, int fb_width, int fb_height, float scale, bool viridis, float *left, float *right,
                      float *top, float *bottom)
{
    mat4 identity, pixels;
    glm_mat4_identity(identity);
    glm_ortho(0.0f, (float)fb_width, (float)fb_height, 0.0f, -1.0f, 1.0f, pixels);   /* y down */
    float bar_width = fminf(220.0f * scale, 0.4f * (float)fb_width), bar_height = 12.0f * scale;
    /* top right (the status line and help sit at the top left) */
    *right = (float)fb_width - 14.0f * scale;
    *top = 30.0f * scale;
    *left = *right - bar_width;
    *bottom = *top + bar_height;
    float y = *top + 0.5f * bar_height;
    int count = 0, steps = viridis ? LEGEND_STEPS : 5;
    for (int i = 0; i < steps; i++) {
        float color[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        if (viridis) {
            unsigned char rgb[3];
            colormap_viridis_srgb8(((float)i + 0.5f) / (float)steps, rgb);
            for (int c = 0; c < 3; c++) color[c] = rgb[c] / 255.0f;
        } else {
            memcpy(color, count_colors[i], sizeof color);
        }
        float x0 = *left + bar_width * (float)i / (float)steps, x1 = *left + bar_width * (float)(i + 1) / (float)steps;
        scene_push_segment(scene->vertices, scene->vertex_capacity, &count, (float[3]){x0, y, 0.0f}, (float[3]){x1, y, 0.0f},
                           color);
    }
    LineStyle style = {bar_height, false, {fb_width, fb_height}};
    lines_draw(&scene->lines, scene->vertices, count, identity, pixels, &style);
}
