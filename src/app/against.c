/* against.c — MODEL against OTHER (against.h): set-up (import, clip and vertex pairing) and --report.
 * The per-frame pose of OTHER and the distances, what the difference view calls each frame:
 * teach/against.c. */
#include "against.h"
#include "view/framing.h"
#include "commands.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void box_of(const vec3 *points, int count, vec3 lo, vec3 hi)
{
    glm_vec3_fill(lo, FLT_MAX);
    glm_vec3_fill(hi, -FLT_MAX);
    for (int i = 0; i < count; i++) {
        glm_vec3_minv(lo, (float *)points[i], lo);
        glm_vec3_maxv(hi, (float *)points[i], hi);
    }
}

/* ---- nearest point: a uniform grid over a point set, searched in growing shells ------------- */

typedef struct PointGrid {
    const vec3 *points;
    vec3        lo;
    float       cell;
    int         n[3];
    int        *start;   /* [cells + 1]: cell c holds order[start[c] .. start[c + 1]) */
    int        *order;   /* [count] point indices, cell by cell */
} PointGrid;

static int grid_index(const PointGrid *g, int x, int y, int z) { return (z * g->n[1] + y) * g->n[0] + x; }

static void grid_cell(const PointGrid *g, const vec3 p, int c[3])
{
    for (int k = 0; k < 3; k++) {
        float f = floorf((p[k] - g->lo[k]) / g->cell);
        c[k] = !(f >= 0.0f) ? 0 : f >= (float)g->n[k] ? g->n[k] - 1 : (int)f;
    }
}

/* About two points per cell, at most 128 cells along an axis. False when out of memory. */
static bool grid_build(PointGrid *g, const vec3 *points, int count)
{
    memset(g, 0, sizeof *g);
    g->points = points;
    vec3 hi;
    box_of(points, count, g->lo, hi);
    float extent = fmaxf(fmaxf(hi[0] - g->lo[0], hi[1] - g->lo[1]), hi[2] - g->lo[2]);
    int per_axis = (int)ceil(cbrt((double)count / 2.0));
    per_axis = per_axis < 1 ? 1 : per_axis > 128 ? 128 : per_axis;
    g->cell = extent > 0.0f ? extent / (float)per_axis : 1.0f;
    int cells = 1;
    for (int k = 0; k < 3; k++) {
        int n = (int)floorf((hi[k] - g->lo[k]) / g->cell) + 1;
        g->n[k] = n < 1 ? 1 : n > per_axis ? per_axis : n;
        cells *= g->n[k];
    }
    g->start = calloc((size_t)cells + 1, sizeof(int));
    g->order = malloc(sizeof(int) * (size_t)count);
    int *cell_of = malloc(sizeof(int) * (size_t)count);
    int *fill = malloc(sizeof(int) * (size_t)cells);
    bool ok = g->start && g->order && cell_of && fill;
    if (ok) {
        for (int i = 0; i < count; i++) {
            int c[3];
            grid_cell(g, points[i], c);
            cell_of[i] = grid_index(g, c[0], c[1], c[2]);
            g->start[cell_of[i] + 1]++;
        }
        for (int c = 0; c < cells; c++) g->start[c + 1] += g->start[c];
        memcpy(fill, g->start, sizeof(int) * (size_t)cells);
        for (int i = 0; i < count; i++) g->order[fill[cell_of[i]]++] = i;
    }
    free(cell_of);
    free(fill);
    return ok;
}

static void grid_free(PointGrid *g)
{
    free(g->start);
    free(g->order);
}

/* The index of the point nearest q (the first of equals), and its distance in *distance. Shell r
 * (the cells r steps from q's cell) holds no point nearer than (r - 1) cells when q lies inside the
 * grid; the search stops once the best found is nearer than r cells. */
static int grid_nearest(const PointGrid *g, const vec3 q, float *distance)
{
    int c[3];
    grid_cell(g, q, c);
    float best = FLT_MAX;
    int found = -1, max_r = g->n[0] + g->n[1] + g->n[2];
    for (int r = 0; r <= max_r; r++) {
        for (int z = c[2] - r; z <= c[2] + r; z++)
            for (int y = c[1] - r; y <= c[1] + r; y++)
                for (int x = c[0] - r; x <= c[0] + r; x++) {
                    if (x < 0 || y < 0 || z < 0 || x >= g->n[0] || y >= g->n[1] || z >= g->n[2]) continue;
                    if (abs(x - c[0]) != r && abs(y - c[1]) != r && abs(z - c[2]) != r) continue;
                    int cell = grid_index(g, x, y, z);
                    for (int i = g->start[cell]; i < g->start[cell + 1]; i++) {
                        int p = g->order[i];
                        float d = glm_vec3_distance2((float *)q, (float *)g->points[p]);
                        if (d < best || (d == best && p < found)) best = d, found = p;
                    }
                }
        /* outside the grid the shells are not that far from q: search on until they cover it all */
        float reach = (float)r * g->cell;
        if (found >= 0 && best <= reach * reach) break;
    }
    *distance = sqrtf(best);
    return found;
}

/* ---- set-up ------------------------------------------------------------------------------------ */

/* A joint name without a "namespace:" or "path|" prefix, compared without case. */
static const char *bare_name(const char *name)
{
    const char *bare = name;
    for (const char *c = name; *c; c++)
        if (*c == ':' || *c == '|') bare = c + 1;
    return bare;
}

static bool has_skinned_mesh(const Model *model)
{
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) return true;
    return false;
}

/* Some bone of MODEL names a joint of OTHER (namespaces and case aside). */
static bool share_a_joint(const Model *model, const Model *other)
{
    const Skeleton *a = &model->skeleton, *b = &other->skeleton;
    for (int i = 0; i < a->joint_count; i++) {
        if (!a->is_bone[i]) continue;
        for (int j = 0; j < b->joint_count; j++)
            if (strcasecmp(bare_name(a->names[i]), bare_name(b->names[j])) == 0) return true;
    }
    return false;
}

/* MODEL's clip c -> OTHER's clip of the same name; else OTHER's clip c when none of MODEL's clips
 * claims it by name. */
static bool pair_clips(Against *a, char *error, size_t error_size)
{
    const Model *model = a->model, *other = &a->other;
    size_t count = (size_t)(model->clip_count > 0 ? model->clip_count : 1);
    a->clip_of = malloc(sizeof(int) * count);
    bool *claimed = calloc((size_t)(other->clip_count > 0 ? other->clip_count : 1), sizeof(bool));
    if (!a->clip_of || !claimed) {
        free(claimed);
        snprintf(error, error_size, "out of memory");
        return false;
    }
    for (int c = 0; c < model->clip_count; c++) {
        a->clip_of[c] = model->clips[c].name[0] ? model_find_clip(other, model->clips[c].name) : -1;
        if (a->clip_of[c] >= 0) claimed[a->clip_of[c]] = true;
    }
    for (int c = 0; c < model->clip_count; c++)
        if (a->clip_of[c] < 0 && c < other->clip_count && !claimed[c]) {
            bool named_in_model = other->clips[c].name[0] && model_find_clip(model, other->clips[c].name) >= 0;
            if (!named_in_model) a->clip_of[c] = c;
        }
    free(claimed);
    a->paired_clips = 0;
    for (int c = 0; c < model->clip_count; c++) a->paired_clips += a->clip_of[c] >= 0;
    if (model->clip_count > 0 && a->paired_clips == 0) {
        snprintf(error, error_size, "no clip in common with the model (it has %d clip%s, %d here, none by name or index)",
                 model->clip_count, model->clip_count == 1 ? "" : "s", other->clip_count);
        return false;
    }
    return true;
}

/* Both files at the static pose `pose` (bind or rest), every vertex, OTHER's moved onto MODEL's bounding
 * box (q = (p - c_OTHER) * s + c_MODEL, s = the ratio of the diagonals) so that another unit still pairs.
 * Returns MODEL's diagonal at that pose. */
static float fitted_pose(Against *a, Animator *model_animator, const SkinDqPose *model_dq, int pose, vec3 *model_points,
                         vec3 *other_points)
{
    animator_evaluate(model_animator, pose, 0.0f);
    against_skin_all(a->model, SKINNING_GPU_LBS, model_dq, model_animator, model_points);
    animator_evaluate(&a->other_animator, pose, 0.0f);
    against_skin_all(&a->other, SKINNING_GPU_LBS, &a->other_dq, &a->other_animator, other_points);
    vec3 model_lo, model_hi, other_lo, other_hi, model_centre, other_centre;
    box_of(model_points, a->model_vertices, model_lo, model_hi);
    box_of(other_points, a->other_vertices, other_lo, other_hi);
    glm_vec3_center(model_lo, model_hi, model_centre);
    glm_vec3_center(other_lo, other_hi, other_centre);
    float model_size = glm_vec3_distance(model_lo, model_hi), other_size = glm_vec3_distance(other_lo, other_hi);
    float scale = other_size > 0.0f && model_size > 0.0f ? model_size / other_size : 1.0f;
    for (int i = 0; i < a->other_vertices; i++) {
        glm_vec3_sub(other_points[i], other_centre, other_points[i]);
        glm_vec3_scale(other_points[i], scale, other_points[i]);
        glm_vec3_add(other_points[i], model_centre, other_points[i]);
    }
    return model_size;
}

/* Pairs at `pose`: equal totals by order, except a vertex whose own partner is further than
 * AGAINST_SAME_POINT of the diagonal while another OTHER vertex lies within it (the two files list
 * those vertices in another order: skinview sorts a skinned mesh's vertices by influence count, and a
 * converter may change a count); other totals each with the nearest. *gap: the mean distance to the
 * partner, of the diagonal; *reordered: the vertices paired by nearest point despite equal totals.
 * False when out of memory. */
static bool pair_at_pose(Against *a, Animator *model_animator, const SkinDqPose *model_dq, int pose, vec3 *model_points,
                         vec3 *other_points, float *gap, int *reordered)
{
    float size = fitted_pose(a, model_animator, model_dq, pose, model_points, other_points);
    PointGrid grid;
    if (!grid_build(&grid, (const vec3 *)other_points, a->other_vertices)) {
        grid_free(&grid);
        return false;
    }
    bool by_order = a->pairing == AGAINST_BY_ORDER;
    float same = AGAINST_SAME_POINT * size;
    double sum = 0.0;
    *reordered = 0;
    for (int v = 0; v < a->model_vertices; v++) {
        float d;
        int nearest = grid_nearest(&grid, model_points[v], &d);
        if (by_order) {
            float own = glm_vec3_distance(model_points[v], other_points[v]);
            bool elsewhere = own > same && d <= same;
            a->partner[v] = elsewhere ? nearest : v;
            *reordered += elsewhere;
            if (!elsewhere) d = own;
        } else {
            a->partner[v] = nearest;
        }
        sum += d;
    }
    grid_free(&grid);
    double mean = a->model_vertices > 0 ? sum / a->model_vertices : 0.0;
    *gap = (float)(size > 0.0f ? mean / size : mean);
    return true;
}

static bool pair_vertices(Against *a, char *error, size_t error_size)
{
    a->partner = malloc(sizeof(int) * (size_t)a->model_vertices);
    if (!a->partner) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    double ratio = (double)a->model_vertices / (double)a->other_vertices;
    if (ratio > AGAINST_MAX_COUNT_RATIO || ratio < 1.0 / AGAINST_MAX_COUNT_RATIO) {
        snprintf(error, error_size, "%d vertices against the model's %d: too different to pair (not the same character?)",
                 a->other_vertices, a->model_vertices);
        return false;
    }
    a->pairing = a->model_vertices == a->other_vertices ? AGAINST_BY_ORDER : AGAINST_BY_NEAREST;
    Animator model_animator;
    SkinDqPose model_dq;
    vec3 *model_points = malloc(sizeof(vec3) * (size_t)a->model_vertices);
    vec3 *other_points = malloc(sizeof(vec3) * (size_t)a->other_vertices);
    bool ok = model_points && other_points && animator_init(&model_animator, a->model);
    if (ok && !skin_dq_pose_init(&model_dq, a->model)) {
        animator_free(&model_animator);
        ok = false;
    }
    const char *pose_name = "bind";
    int reordered = 0;
    bool refused = false;
    if (ok) {
        ok = pair_at_pose(a, &model_animator, &model_dq, ANIMATOR_BIND_POSE, model_points, other_points, &a->pairing_gap,
                          &reordered);
        /* by nearest point, a gap this large is another shape: a file whose bind pose is off gets its rest pose */
        if (ok && a->pairing == AGAINST_BY_NEAREST && a->pairing_gap > AGAINST_MAX_PAIRING_GAP) {
            float bind_gap = a->pairing_gap;
            ok = pair_at_pose(a, &model_animator, &model_dq, ANIMATOR_REST_POSE, model_points, other_points,
                              &a->pairing_gap, &reordered);
            pose_name = "rest";
            if (ok && a->pairing_gap > AGAINST_MAX_PAIRING_GAP) {
                snprintf(error, error_size,
                         "its shape does not match the model's (nearest-point gap %.3g of the diagonal at the bind "
                         "pose, %.3g at the rest pose; %d vertices against %d): not the same character?",
                         bind_gap, a->pairing_gap, a->other_vertices, a->model_vertices);
                refused = true;
            }
        }
        skin_dq_pose_free(&model_dq);
        animator_free(&model_animator);
    }
    free(model_points);
    free(other_points);
    if (refused) return false;
    if (!ok) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    if (a->pairing == AGAINST_BY_NEAREST)
        snprintf(a->pairing_text, sizeof a->pairing_text,
                 "vertices paired by nearest point at the %s pose (%d against %d; mean gap %.2g of the diagonal)",
                 pose_name, a->model_vertices, a->other_vertices, a->pairing_gap);
    else if (reordered > 0)
        snprintf(a->pairing_text, sizeof a->pairing_text,
                 "vertices paired by order (%d), but %d listed in another order paired by nearest point at the bind pose",
                 a->model_vertices, reordered);
    else
        snprintf(a->pairing_text, sizeof a->pairing_text, "vertices paired by order (%d)", a->model_vertices);
    a->reordered = reordered;
    return true;
}

static float model_diagonal(const Model *model, Animator *animator)
{
    vec3 lo, hi;
    return view_model_bounds(model, animator, lo, hi) ? glm_vec3_distance(lo, hi) : 0.0f;
}

bool against_bind(Against *a, const Model *model, char *error, size_t error_size)
{
    a->model = model;
    free(a->clip_of);
    free(a->partner);
    a->clip_of = NULL;
    a->partner = NULL;
    a->hint[0] = '\0';
    a->model_vertices = model_total_vertices(model);
    if (a->model_vertices <= 0) {
        snprintf(error, error_size, "the model has no vertices to compare");
        return false;
    }
    if (has_skinned_mesh(model) && has_skinned_mesh(&a->other) && !share_a_joint(model, &a->other)) {
        snprintf(error, error_size, "another skeleton: none of its %d joints has the name of one of the model's bones",
                 a->other.skeleton.joint_count);
        return false;
    }
    if (!pair_clips(a, error, error_size) || !pair_vertices(a, error, error_size)) return false;
    a->model_meshes = model->mesh_count;
    Animator scratch;
    if (animator_init(&scratch, model)) {
        a->model_diagonal = model_diagonal(model, &scratch);
        animator_free(&scratch);
    }
    float ratio = a->model_diagonal > 0.0f ? a->other_diagonal / a->model_diagonal : 1.0f;
    if (ratio > AGAINST_SCALE_HINT || ratio < 1.0f / AGAINST_SCALE_HINT)
        snprintf(a->hint, sizeof a->hint,
                 "its bounding box is %.3gx the model's (another unit or scale?): distances are in the model's scene "
                 "units, as skinview shows both", ratio);
    return true;
}

bool against_follow(Against *a, const Model *model, char *error, size_t error_size)
{
    if (model->mesh_count == a->model_meshes && model_total_vertices(model) == a->model_vertices) {
        a->model = model;
        return true;
    }
    return against_bind(a, model, error, error_size);
}

bool against_open(Against *a, const Model *model, const char *other_path, const ImportOptions *import,
                  char *error, size_t error_size)
{
    memset(a, 0, sizeof *a);
    snprintf(a->other_path, sizeof a->other_path, "%s", other_path);
    if (!app_load_model(other_path, import, &a->other)) {   /* it printed its one line on stderr */
        error[0] = '\0';
        return false;
    }
    a->other_vertices = model_total_vertices(&a->other);
    bool ok = false;
    if (a->other_vertices <= 0) {
        snprintf(error, error_size, "no vertices to compare");
    } else if (!(a->ready = app_pose_init(&a->other, false, &a->other_animator, &a->other_dq))) {
        error[0] = '\0';   /* app_pose_init said "out of memory" */
    } else if (!(a->other_positions = malloc(sizeof(vec3) * (size_t)a->other_vertices))) {
        snprintf(error, error_size, "out of memory");
    } else {
        a->other_method = model_asks_dual_quaternion(&a->other) ? SKINNING_GPU_DQ : SKINNING_GPU_LBS;
        a->other_diagonal = model_diagonal(&a->other, &a->other_animator);
        ok = against_bind(a, model, error, error_size);
    }
    if (!ok) against_free(a);
    return ok;
}

void against_free(Against *a)
{
    if (a->ready) {
        skin_dq_pose_free(&a->other_dq);
        animator_free(&a->other_animator);
    }
    free(a->clip_of);
    free(a->partner);
    free(a->other_positions);
    model_free(&a->other);
    memset(a, 0, sizeof *a);
}

/* ---- --report ------------------------------------------------------------------------------------ */

/* "mesh:index" of MODEL's concatenated vertex v. */
static void vertex_name(const Model *model, int v, char *out, size_t size)
{
    int m = 0;
    while (m + 1 < model->mesh_count && v >= model->meshes[m].vertex_count) v -= model->meshes[m++].vertex_count;
    if (model->meshes[m].name[0]) snprintf(out, size, "%s:%d", model->meshes[m].name, v);
    else snprintf(out, size, "%d:%d", m, v);
}

typedef struct ClipResult {
    double worst, sum;
    long   measured;
    float  worst_time;
    int    worst_vertex, times;
} ClipResult;

/* MODEL at `clip` over its sample times against OTHER; positions / distances: [model_vertices]. */
static ClipResult measure_clip(Against *a, Animator *animator, SkinDqPose *dq, SkinningMethod method, int clip,
                               vec3 *positions, float *distances)
{
    const Model *model = a->model;
    ClipResult r = {0.0, 0.0, 0, 0.0f, 0, 0};
    float duration = clip >= 0 ? model->clips[clip].duration : 0.0f;
    int steps = (int)ceilf(duration * AGAINST_REPORT_RATE - 1e-3f);   /* 0, 1/rate, ..., and the end */
    if (steps < 0) steps = 0;
    for (int s = 0; s <= steps; s++) {
        float t = s == steps ? duration : (float)s / AGAINST_REPORT_RATE;
        animator_evaluate(animator, clip, t);
        if (method == SKINNING_GPU_DQ) skin_dq_pose_update(dq, animator);
        against_skin_all(model, method, dq, animator, positions);
        against_pose(a, clip, t);
        against_measure(a, 0, a->model_vertices, (const vec3 *)positions, distances);
        for (int v = 0; v < a->model_vertices; v++) {
            double d = distances[v] == distances[v] ? distances[v] : INFINITY;
            r.sum += d;
            if (d > r.worst || (v == 0 && s == 0)) r.worst = d, r.worst_time = t, r.worst_vertex = v;
        }
        r.measured += a->model_vertices;
        r.times++;
    }
    return r;
}

int command_against_report(const Model *model, const char *other_path, const ImportOptions *import,
                           SkinningMethod method, float tolerance, int only_clip)
{
    Against a;
    char error[512];
    if (!against_open(&a, model, other_path, import, error, sizeof error)) {
        if (error[0]) fprintf(stderr, "skinview: %s: %s\n", other_path, error);
        return 1;
    }
    Animator animator;
    SkinDqPose dq;
    vec3 *positions = malloc(sizeof(vec3) * (size_t)a.model_vertices);
    float *distances = malloc(sizeof(float) * (size_t)a.model_vertices);
    if (!positions || !distances || !app_pose_init(model, false, &animator, &dq)) {
        if (positions && distances) fprintf(stderr, "skinview: %s: out of memory\n", model->source_path);
        free(positions);
        free(distances);
        against_free(&a);
        return 1;
    }
    double diagonal = a.model_diagonal > 0.0f ? a.model_diagonal : 1.0;
    printf("against %s: %s; %d of %d clips paired; model diagonal %.6g\n", other_path, a.pairing_text, a.paired_clips,
           model->clip_count, diagonal);
    if (a.hint[0]) printf("hint: %s\n", a.hint);
    double worst_all = 0.0;
    int failed = 0, clips = only_clip != AGAINST_EVERY_CLIP ? 1 : model->clip_count > 0 ? model->clip_count : 2;
    for (int row = 0; row < clips; row++) {
        /* --clip: that one; a model without clips: its bind and rest poses */
        int clip = only_clip != AGAINST_EVERY_CLIP ? only_clip
                   : model->clip_count > 0 ? row : row == 0 ? ANIMATOR_BIND_POSE : ANIMATOR_REST_POSE;
        char label[SV_NAME_MAX + 32];
        if (clip >= 0) snprintf(label, sizeof label, "clip %d \"%s\"", clip, model->clips[clip].name);
        else snprintf(label, sizeof label, "%s pose", clip == ANIMATOR_BIND_POSE ? "bind" : "rest");
        int o = clip >= 0 ? a.clip_of[clip] : clip;
        if (clip >= 0 && o < 0) {
            printf("%s: no clip of that name or index in %s  FAILED\n", label, other_path);
            failed++;
            continue;
        }
        ClipResult r = measure_clip(&a, &animator, &dq, method, clip, positions, distances);
        double mean = r.measured > 0 ? r.sum / (double)r.measured : 0.0;
        bool ok = r.worst / diagonal <= tolerance;
        char where[SV_NAME_MAX + 16], partner[SV_NAME_MAX + 40] = "";
        vertex_name(model, r.worst_vertex, where, sizeof where);
        if (clip >= 0)
            snprintf(partner, sizeof partner, " -> %d \"%s\"%s", o, a.other.clips[o].name,
                     fabsf(a.other.clips[o].duration - model->clips[clip].duration) > 0.5f / AGAINST_REPORT_RATE
                         ? " (durations differ)" : "");
        printf("%s%s: %d times, worst %.4g = %.3g of the diagonal (t %.4g s, vertex %s), mean %.4g = %.3g  %s\n", label,
               partner, r.times, r.worst, r.worst / diagonal, r.worst_time, where, mean, mean / diagonal,
               ok ? "ok" : "FAILED");
        if (!(r.worst <= worst_all)) worst_all = r.worst;
        failed += !ok;
    }
    printf("against %s: worst %.3g of the diagonal over %d %s, tolerance %g: %s\n", other_path, worst_all / diagonal, clips,
           clips == 1 ? "row" : "rows", tolerance, failed ? "FAILED" : "ok");
    skin_dq_pose_free(&dq);
    animator_free(&animator);
    free(positions);
    free(distances);
    against_free(&a);
    return failed ? 1 : 0;
}
