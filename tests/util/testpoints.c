/* testpoints.c — point sets and their distances (testpoints.h): a uniform grid over the set searched
 * in shells of cells around the query. */
#include "testpoints.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_points_add(TestPoints *p, double x, double y, double z)
{
    if (p->count == p->capacity) {
        p->capacity = p->capacity ? 2 * p->capacity : 1024;
        p->xyz = realloc(p->xyz, sizeof(double) * 3 * (size_t)p->capacity);
        if (!p->xyz) abort();
    }
    p->xyz[3 * p->count] = x;
    p->xyz[3 * p->count + 1] = y;
    p->xyz[3 * p->count + 2] = z;
    p->count++;
}

void test_points_free(TestPoints *p)
{
    free(p->xyz);
    *p = (TestPoints){0};
}

double test_points_diagonal(const TestPoints *p)
{
    if (p->count == 0) return 0.0;
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < p->count; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], p->xyz[3 * i + k]);
            hi[k] = fmax(hi[k], p->xyz[3 * i + k]);
        }
    double d = 0;
    for (int k = 0; k < 3; k++) d += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    return sqrt(d);
}

/* A uniform grid over a point set: cell_start[c] .. cell_start[c + 1] index order[]. */
typedef struct Grid {
    const TestPoints *points;
    double        lo[3], cell;
    int           n[3];
    int          *cell_start, *order;
} Grid;

static int grid_cell_index(const Grid *g, const int c[3]) { return (c[2] * g->n[1] + c[1]) * g->n[0] + c[0]; }

static void grid_cell_of(const Grid *g, const double *p, int c[3])
{
    for (int k = 0; k < 3; k++) {
        int i = (int)floor((p[k] - g->lo[k]) / g->cell);
        c[k] = i < 0 ? 0 : i >= g->n[k] ? g->n[k] - 1 : i;
    }
}

static void grid_build(Grid *g, const TestPoints *p)
{
    memset(g, 0, sizeof *g);
    g->points = p;
    double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < 3; k++) g->lo[k] = HUGE_VAL;
    for (int i = 0; i < p->count; i++)
        for (int k = 0; k < 3; k++) {
            g->lo[k] = fmin(g->lo[k], p->xyz[3 * i + k]);
            hi[k] = fmax(hi[k], p->xyz[3 * i + k]);
        }
    double extent = 0;
    for (int k = 0; k < 3; k++) extent = fmax(extent, hi[k] - g->lo[k]);
    int per_axis = (int)ceil(cbrt((double)p->count / 2.0));
    if (per_axis < 1) per_axis = 1;
    if (per_axis > 128) per_axis = 128;
    g->cell = extent > 0 ? extent / per_axis : 1.0;
    int cells = 1;
    for (int k = 0; k < 3; k++) {
        g->n[k] = (int)floor((hi[k] - g->lo[k]) / g->cell) + 1;
        if (g->n[k] > per_axis) g->n[k] = per_axis;
        cells *= g->n[k];
    }
    g->cell_start = calloc((size_t)cells + 1, sizeof(int));
    g->order = malloc(sizeof(int) * (size_t)(p->count > 0 ? p->count : 1));
    int *cell_of = malloc(sizeof(int) * (size_t)(p->count > 0 ? p->count : 1));
    if (!g->cell_start || !g->order || !cell_of) abort();
    for (int i = 0; i < p->count; i++) {
        int c[3];
        grid_cell_of(g, &p->xyz[3 * i], c);
        cell_of[i] = grid_cell_index(g, c);
        g->cell_start[cell_of[i] + 1]++;
    }
    for (int c = 0; c < cells; c++) g->cell_start[c + 1] += g->cell_start[c];
    int *fill = malloc(sizeof(int) * (size_t)cells);
    if (!fill) abort();
    memcpy(fill, g->cell_start, sizeof(int) * (size_t)cells);
    for (int i = 0; i < p->count; i++) g->order[fill[cell_of[i]]++] = i;
    free(fill);
    free(cell_of);
}

static void grid_free(Grid *g)
{
    free(g->cell_start);
    free(g->order);
}

/* Distance from q to the nearest point of the grid's set. */
static double grid_nearest(const Grid *g, const double *q)
{
    int c[3];
    grid_cell_of(g, q, c);
    double best = HUGE_VAL;
    int max_r = g->n[0] + g->n[1] + g->n[2];
    for (int r = 0; r <= max_r; r++) {
        /* the query may lie outside the grid: shell r is >= (r - 1) cells away from it only
         * when it lies inside; outside, keep searching until the shell covers everything */
        for (int z = c[2] - r; z <= c[2] + r; z++)
            for (int y = c[1] - r; y <= c[1] + r; y++)
                for (int x = c[0] - r; x <= c[0] + r; x++) {
                    if (x < 0 || y < 0 || z < 0 || x >= g->n[0] || y >= g->n[1] || z >= g->n[2]) continue;
                    if (abs(x - c[0]) != r && abs(y - c[1]) != r && abs(z - c[2]) != r) continue;
                    int cell[3] = {x, y, z}, index = grid_cell_index(g, cell);
                    for (int i = g->cell_start[index]; i < g->cell_start[index + 1]; i++) {
                        const double *p = &g->points->xyz[3 * g->order[i]];
                        double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
                        double d = dx * dx + dy * dy + dz * dz;
                        if (d < best) best = d;
                    }
                }
        double reach = (double)r * g->cell;   /* every point within `reach` of q's cell is seen */
        if (best <= reach * reach) break;
    }
    return sqrt(best);
}

double test_points_directed_distance(const TestPoints *a, const TestPoints *b)
{
    Grid grid;
    grid_build(&grid, b);
    double worst = 0;
    for (int i = 0; i < a->count; i++) worst = fmax(worst, grid_nearest(&grid, &a->xyz[3 * i]));
    grid_free(&grid);
    return worst;
}

double test_points_distance(const TestPoints *a, const TestPoints *b)
{
    if (a->count == 0 || b->count == 0) return INFINITY;
    return fmax(test_points_directed_distance(a, b), test_points_directed_distance(b, a));
}
