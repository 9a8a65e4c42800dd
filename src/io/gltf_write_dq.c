/* gltf_write_dq.c — --export-gltf for meshes skinview skins otherwise than by linear blend skinning: dual
 * quaternions (FBX SkinningType DualQuaternion), DQ and LBS blended per vertex (SkinningType Blend,
 * Mesh.dq_weight), or rigid (--skinning rigid). glTF has only LBS; what it does have is morph targets, applied in
 * bind space before skinning. So each such mesh keeps its skin and gets corrective morph targets:
 *
 *   - For the rest pose and for every clip at every written key time t_k (every joint and morph channel's key,
 *     the --fps grid, the clip's end), skinview's own pose of each vertex, p_sv (morph targets first, then DQ /
 *     blend / rigid, as skinview draws it), and the LBS pose of the same palette on the same morphed bind-space
 *     vertex v', p_lbs = A v' + b, are computed; the correction is the bind-space delta d = A^-1 (p_sv - p_lbs)
 *     (corrective_delta), so that glTF's LBS of v' + d lands exactly on p_sv.
 *   - Each key whose delta is not zero everywhere gets one target (a key with the same delta as the key before it,
 *     a held pose, shares that key's target); its weight is 1 at its key and falls linearly to 0 at the
 *     neighbouring keys (LINEAR), 0 elsewhere and in every other clip. Between keys glTF thus shows LBS plus the
 *     linear interpolation of the two neighbouring corrections: not skinview's pose exactly. Where that misses
 *     skinview's pose halfway by more than CORRECTIVE_BETWEEN, a key is added in the middle (refine), and so on
 *     GLTF_CORRECTIVE_DEPTH deep; --check-export measures the rest (docs/export.md "Dual quaternion skins").
 *   - The rest pose's correction is a target of its own with default weight 1 (mesh.weights), 0 in every clip.
 *   - Only vertices with a delta are written (sparse accessors): a vertex bound to one joint moves the same by
 *     every method, so most of a mesh is usually absent.
 *   - A mesh whose corrections would take more than GLTF_CORRECTIVE_MAX_BYTES is written as plain LBS (reported).
 *
 * Runs before the writer's other steps; gltf_write_mesh.c writes the targets after the mesh's own, and
 * gltf_write_anim.c adds the weight tracks to the mesh's weights channel. */
#include "gltf_write_internal.h"
#include "../anim/anim.h"
#include "../anim/key_reduce.h"   /* model_bind_diagonal */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CORRECTIVE_ZERO        5e-7   /* of the mesh's bind-space diagonal: a position delta this small is none (a vertex
                                         left out is off by about this much at keys; 1e-7 doubled the demo's file) */
#define CORRECTIVE_NORMAL_ZERO 1e-5   /* a normal delta this small (unit normals) is none */
#define CORRECTIVE_SINGULAR    1e-9   /* |det A| below this times the cube of A's size: A is taken as singular */
#define CORRECTIVE_BETWEEN     5e-5   /* of the model's bind-pose diagonal: a key interval whose halfway pose is further
                                         from skinview's gets a key in the middle (gltf_write.h: GLTF_CORRECTIVE_DEPTH) */
#define SLOTS (GLTF_CORRECTIVE_DEPTH + 3)   /* dense deltas: the two ends of a key interval, a midpoint per level */


/* ---- the written key times of a clip ------------------------------------------------------------------------- */

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Every time, from the clip's start, at which the export writes a key of clip `clip` (joint and morph channels,
 * the --fps grid) and its end, sorted, unique. Returns the count (-1: out of memory); *out is malloc'ed. */
static int clip_key_times(const GltfWriter *w, const Clip *clip, float **out)
{
    long total = 2;
    for (int i = 0; i < clip->track_count; i++)
        total += clip->tracks[i].translation_count + clip->tracks[i].rotation_count + clip->tracks[i].scale_count;
    for (int i = 0; i < clip->morph_track_count; i++) total += clip->morph_tracks[i].key_count;
    float fps = w->options->fps;
    long grid = fps > 0 ? (long)fminf(clip->duration * fps + 3.0f, 1e8f) : 0;
    float *file_times = malloc(sizeof(float) * (size_t)total), *times = malloc(sizeof(float) * (size_t)(total + grid + 2));
    if (!file_times || !times) {
        free(file_times), free(times);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        for (int k = 0; k < t->translation_count; k++) file_times[n++] = t->translation_times[k];
        for (int k = 0; k < t->rotation_count; k++) file_times[n++] = t->rotation_times[k];
        for (int k = 0; k < t->scale_count; k++) file_times[n++] = t->scale_times[k];
    }
    for (int i = 0; i < clip->morph_track_count; i++)
        for (int k = 0; k < clip->morph_tracks[i].key_count; k++) file_times[n++] = clip->morph_tracks[i].times[k];
    qsort(file_times, (size_t)n, sizeof(float), compare_floats);
    int count = 0;
    if (fps > 0) count = gltf_writer_resample_times(clip, file_times, n, fps, times, (int)(total + grid));
    else
        for (int i = 0; i < n; i++) times[count++] = file_times[i] - clip->start;
    times[count++] = 0.0f;
    times[count++] = clip->duration;
    qsort(times, (size_t)count, sizeof(float), compare_floats);
    int unique = 0;
    for (int i = 0; i < count; i++)
        if (times[i] >= 0 && times[i] <= clip->duration && (unique == 0 || times[i] > times[unique - 1])) times[unique++] = times[i];
    free(file_times);
    *out = times;
    return unique;
}

/* ---- one key's correction of one mesh ------------------------------------------------------------------------ */

/* What the computation of one mesh keeps between keys. */
typedef struct MeshWork {
    bool      corrected;      /* skinned: skinview's method applies */
    int       slots;          /* influences per vertex as written (4 or 8) */
    uint16_t *joints;         /* [vertex_count * slots], as written (gltf_writer_clean_influences) */
    float    *weights;        /* [vertex_count * slots] */
    double    zero;           /* CORRECTIVE_ZERO of the bind-space diagonal */
    int       capacity;       /* targets allocated in the MeshCorrectives */
    int       previous;       /* target of the previous key of the clip, -1 */
    int     **key_target;     /* [clip_count][key]: the target of each key, -1: none */
    long      keys_corrected;
    float    *delta[SLOTS];   /* [3 * vertex_count] each: dense position deltas of the keys being refined */
    float    *normal_delta[SLOTS]; /* the same for normals (NULL without normals) */
} MeshWork;

/* Scratch shared by every mesh: sized for the largest. */
typedef struct Scratch {
    vec3     *skinned, *skinned_normals;   /* skinview's pose */
    CorrectiveTarget candidate;            /* this key's delta, before it is kept or shared */
} Scratch;

/* The correction of mesh m at the animator's current pose, every vertex, into slot `slot` of the mesh's dense deltas.
 * With ends a, b (slots, >= 0): returns how far glTF's pose here would be from skinview's if this key were not written
 * (LBS plus the mean of the two ends' corrections: the halfway point of a LINEAR weight), scene units; else 0. */
static double corrective_delta(const GltfWriter *w, const Animator *animator, const SkinDqPose *pose, int m, MeshWork *work,
                               Scratch *scratch, int slot, int a_slot, int b_slot)
{
    const Mesh *mesh = &w->model->meshes[m];
    SkinningMethod method = w->options->skinning;
    bool normals = mesh->normals != NULL;
    skin_mesh_by_method(method, pose, animator, m, scratch->skinned, normals ? scratch->skinned_normals : NULL);
    const vec3 *positions = mesh->positions, *morphed_normals = mesh->normals;
    if (animator_morph_mesh(animator, m)) {   /* v': the morphed bind-space vertex both methods start from */
        positions = animator->morph.meshes[m].positions;
        morphed_normals = animator->morph.meshes[m].normals;
    }
    const mat4 *palette = (const mat4 *)animator->palettes[m];
    float *out = work->delta[slot], *out_normal = normals ? work->normal_delta[slot] : NULL;
    const float *end_a = a_slot >= 0 ? work->delta[a_slot] : NULL, *end_b = b_slot >= 0 ? work->delta[b_slot] : NULL;
    double worst = 0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        double a[3][3] = {{0}}, b[3] = {0};   /* a[column][row] */
        for (int s = 0; s < work->slots; s++) {
            float weight = work->weights[(size_t)v * (size_t)work->slots + (size_t)s];
            if (weight == 0.0f) continue;
            const vec4 *p = palette[work->joints[(size_t)v * (size_t)work->slots + (size_t)s]];
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) a[c][r] += weight * p[c][r];
            for (int r = 0; r < 3; r++) b[r] += weight * p[3][r];
        }
        /* glTF's LBS of a bind-space point x is A x + b with A = sum_i w_i mat3(palette_i), b = sum_i w_i t_i: affine
         * in x. So A (v' + d) + b = p_lbs + A d, and d = A^-1 (p_sv - p_lbs) puts it on skinview's p_sv. */
        double lbs[3], error[3];
        for (int r = 0; r < 3; r++) {
            lbs[r] = a[0][r] * positions[v][0] + a[1][r] * positions[v][1] + a[2][r] * positions[v][2] + b[r];
            error[r] = scratch->skinned[v][r] - lbs[r];
        }
        /* A^-1 = adj(A) / det(A): the rows of A^-1 are the cross products of A's columns over det */
        double cross[3][3];
        for (int c = 0; c < 3; c++) {
            const double *u = a[(c + 1) % 3], *x = a[(c + 2) % 3];
            cross[c][0] = u[1] * x[2] - u[2] * x[1], cross[c][1] = u[2] * x[0] - u[0] * x[2], cross[c][2] = u[0] * x[1] - u[1] * x[0];
        }
        double det = a[0][0] * cross[0][0] + a[0][1] * cross[0][1] + a[0][2] * cross[0][2], size = 0;
        for (int c = 0; c < 3; c++) size = fmax(size, fabs(a[c][0]) + fabs(a[c][1]) + fabs(a[c][2]));
        double d[3] = {0, 0, 0}, dn[3] = {0, 0, 0};
        if (end_a) {   /* |A (a + b) / 2 - (p_sv - p_lbs)| */
            double mean[3], miss = 0;
            for (int k = 0; k < 3; k++) mean[k] = 0.5 * ((double)end_a[3 * v + k] + end_b[3 * v + k]);
            for (int r = 0; r < 3; r++) {
                double e = a[0][r] * mean[0] + a[1][r] * mean[1] + a[2][r] * mean[2] - error[r];
                miss += e * e;
            }
            worst = fmax(worst, sqrt(miss));
        }
        for (int k = 0; k < 3; k++) {
            out[3 * v + k] = 0.0f;
            if (out_normal) out_normal[3 * v + k] = 0.0f;
        }
        if (!(fabs(det) > CORRECTIVE_SINGULAR * size * size * size) || !isfinite(det)) {
            /* collapsed scale (a joint scaled to zero): no bind-space delta reaches p_sv; the vertex stays LBS */
            bool differs = sqrt(error[0] * error[0] + error[1] * error[1] + error[2] * error[2]) > work->zero * fmax(size, 1e-30);
            if (differs) w->report->corrective_singular++;
            continue;
        }
        /* row r of A^-1 = cross[r] / det:  d_r = dot(cross[r], error) / det */
        for (int r = 0; r < 3; r++) d[r] = (cross[r][0] * error[0] + cross[r][1] * error[1] + cross[r][2] * error[2]) / det;
        if (normals) {
            /* glTF's normal: normalize(A (n' + dn)), n' the written (unit) normal plus the morph's normal delta; with
             * dn = A^-1 (|A n'| n_sv) - n' it is n_sv, skinview's normal */
            const float *stored = mesh->normals[v];
            double length = sqrt((double)stored[0] * stored[0] + (double)stored[1] * stored[1] + (double)stored[2] * stored[2]);
            double n[3], g[3], target[3];
            for (int k = 0; k < 3; k++)
                n[k] = (length > 1e-20 ? stored[k] / length : (k == 1)) + (morphed_normals[v][k] - stored[k]);
            for (int r = 0; r < 3; r++) g[r] = a[0][r] * n[0] + a[1][r] * n[1] + a[2][r] * n[2];
            double scale = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
            const float *ns = scratch->skinned_normals[v];
            double ns_length = sqrt((double)ns[0] * ns[0] + (double)ns[1] * ns[1] + (double)ns[2] * ns[2]);
            if (ns_length > 1e-20 && isfinite(ns_length)) {
                for (int k = 0; k < 3; k++) target[k] = scale * ns[k] / ns_length;
                for (int r = 0; r < 3; r++)
                    dn[r] = (cross[r][0] * target[0] + cross[r][1] * target[1] + cross[r][2] * target[2]) / det - n[r];
            }
        }
        for (int k = 0; k < 3; k++) {
            out[3 * v + k] = (float)d[k];
            if (out_normal) out_normal[3 * v + k] = (float)dn[k];
        }
    }
    return worst;
}

/* Slot `slot`'s dense deltas of mesh m as a sparse candidate: the vertices with a delta above the tolerances. */
static void sparse_candidate(const Mesh *mesh, const MeshWork *work, int slot, CorrectiveTarget *out)
{
    const float *d = work->delta[slot], *dn = mesh->normals ? work->normal_delta[slot] : NULL;
    out->count = 0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        const float *p = &d[3 * v], *n = dn ? &dn[3 * v] : NULL;
        bool moved = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) > work->zero;
        bool turned = n && sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) > CORRECTIVE_NORMAL_ZERO;
        if (!moved && !turned) continue;
        int i = out->count++;
        out->vertices[i] = (uint32_t)v;
        memcpy(&out->positions[3 * i], p, sizeof(float) * 3);
        if (out->normals) memcpy(&out->normals[3 * i], n ? n : (const float[3]){0, 0, 0}, sizeof(float) * 3);
    }
}

/* The candidate equals target t (the same vertices, deltas within the tolerances). */
static bool same_delta(const CorrectiveTarget *a, const CorrectiveTarget *t, double zero)
{
    if (a->count != t->count || memcmp(a->vertices, t->vertices, sizeof(uint32_t) * (size_t)a->count) != 0) return false;
    for (int i = 0; i < 3 * a->count; i++) {
        if (fabsf(a->positions[i] - t->positions[i]) > zero) return false;
        if (a->normals && fabsf(a->normals[i] - t->normals[i]) > CORRECTIVE_NORMAL_ZERO) return false;
    }
    return true;
}

static void target_free(CorrectiveTarget *t)
{
    free(t->vertices), free(t->positions), free(t->normals);
    memset(t, 0, sizeof *t);
}

/* The candidate as a target of mesh m (shared with the previous key's when equal): its index, -1 for no delta,
 * -2 out of memory. */
static int keep_delta(GltfWriter *w, int m, MeshWork *work, const CorrectiveTarget *candidate, const char *clip_name, int key)
{
    if (candidate->count == 0) return -1;
    MeshCorrectives *mc = &w->correctives->meshes[m];
    if (work->previous >= 0 && same_delta(candidate, &mc->targets[work->previous], work->zero)) return work->previous;
    if (mc->count == work->capacity) {
        int capacity = work->capacity ? 2 * work->capacity : 16;
        CorrectiveTarget *grown = realloc(mc->targets, sizeof *grown * (size_t)capacity);
        if (!grown) return -2;
        mc->targets = grown;
        work->capacity = capacity;
    }
    CorrectiveTarget *t = &mc->targets[mc->count];
    memset(t, 0, sizeof *t);
    size_t n = (size_t)candidate->count;
    t->count = candidate->count;
    t->vertices = malloc(sizeof(uint32_t) * n);
    t->positions = malloc(sizeof(float) * 3 * n);
    t->normals = candidate->normals ? malloc(sizeof(float) * 3 * n) : NULL;
    if (!t->vertices || !t->positions || (candidate->normals && !t->normals)) {
        target_free(t);
        return -2;
    }
    memcpy(t->vertices, candidate->vertices, sizeof(uint32_t) * n);
    memcpy(t->positions, candidate->positions, sizeof(float) * 3 * n);
    if (t->normals) memcpy(t->normals, candidate->normals, sizeof(float) * 3 * n);
    if (key < 0) snprintf(t->name, sizeof t->name, "skinview_dq_rest");
    else snprintf(t->name, sizeof t->name, "skinview_dq_%s_%d", clip_name, key);
    return mc->count++;
}

/* ---- the weight tracks ----------------------------------------------------------------------------------------- */

/* Appends one LINEAR corrective track to clip c's list. */
static bool push_track(GltfCorrectives *gc, int c, int *capacity, MorphTrack track)
{
    if (gc->track_count[c] == *capacity) {
        int grown_capacity = *capacity ? 2 * *capacity : 8;
        MorphTrack *grown = realloc(gc->tracks[c], sizeof *grown * (size_t)grown_capacity);
        if (!grown) return false;
        gc->tracks[c] = grown;
        *capacity = grown_capacity;
    }
    gc->tracks[c][gc->track_count[c]++] = track;
    return true;
}

/* Clip c's weight tracks of mesh m: target j is 1 at its keys, 0 at their neighbours (linear between), so the
 * weight of j at any time is the linear interpolation of [key k uses j] between the keys around it; the rest
 * target is held at 0. */
static bool build_tracks(GltfWriter *w, int c, int m, const MeshWork *work, const float *times, int key_count,
                         int *capacity, int *stamp)
{
    GltfCorrectives *gc = w->correctives;
    const Clip *clip = &w->model->clips[c];
    int own = w->model->meshes[m].morph_target_count;
    const int *target = work->key_target[c];
    if (gc->meshes[m].rest >= 0) {
        float *time = malloc(sizeof(float)), *value = malloc(sizeof(float));
        if (!time || !value) return free(time), free(value), false;
        *time = clip->start, *value = 0.0f;
        MorphTrack held = {.mesh = m, .target = own + gc->meshes[m].rest, .key_count = 1, .times = time, .weights = value,
                           .interpolation = INTERPOLATION_LINEAR};
        if (!push_track(gc, c, capacity, held)) return free(time), free(value), false;
    }
    for (int k = 0; k < key_count; k++) {
        int j = target[k];
        if (j < 0 || stamp[j] == c) continue;   /* none, or j's track is made */
        stamp[j] = c;
        int n = 0;
        for (int i = 0; i < key_count; i++)
            n += target[i] == j || (i > 0 && target[i - 1] == j) || (i + 1 < key_count && target[i + 1] == j);
        float *key_times = malloc(sizeof(float) * (size_t)n), *values = malloc(sizeof(float) * (size_t)n);
        if (!key_times || !values) return free(key_times), free(values), false;
        n = 0;
        for (int i = 0; i < key_count; i++)
            if (target[i] == j || (i > 0 && target[i - 1] == j) || (i + 1 < key_count && target[i + 1] == j)) {
                key_times[n] = clip->start + times[i];
                values[n++] = target[i] == j ? 1.0f : 0.0f;
            }
        MorphTrack track = {.mesh = m, .target = own + j, .key_count = n, .times = key_times, .weights = values,
                            .interpolation = INTERPOLATION_LINEAR};
        if (!push_track(gc, c, capacity, track)) return free(key_times), free(values), false;
    }
    return true;
}

/* ---- one clip's keys, refined where the halfway pose misses -------------------------------------------------- */

typedef struct Pass {
    GltfWriter *w;
    Animator   *animator;
    SkinDqPose *pose;
    MeshWork   *work;
    Scratch    *scratch;
    float      *normal_deltas;   /* the candidate's normal buffer */
    int         clip;            /* -1: the rest pose */
    float      *times;           /* the keys written so far (from the clip's start) */
    int         count;
    double      between;         /* CORRECTIVE_BETWEEN of the model's diagonal, scene units */
    bool        ok;
} Pass;

/* The pose at time t into slot `slot` of every corrected mesh; with ends a, b: the worst halfway miss (corrective_delta). */
static double evaluate_key(Pass *p, float t, int slot, int a, int b)
{
    const Model *model = p->w->model;
    animator_evaluate(p->animator, p->clip >= 0 ? p->clip : ANIMATOR_REST_POSE, t);
    if (p->w->options->skinning == SKINNING_GPU_DQ) skin_dq_pose_update(p->pose, p->animator);
    double worst = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (p->work[m].corrected)
            worst = fmax(worst, corrective_delta(p->w, p->animator, p->pose, m, &p->work[m], p->scratch, slot, a, b));
    return worst;
}

/* Key t written from slot `slot`: each corrected mesh's target for it (new, shared with the key before, or none). */
static void push_key(Pass *p, float t, int slot)
{
    const Model *model = p->w->model;
    int k = p->count++;
    p->times[k] = t;
    for (int m = 0; p->ok && m < model->mesh_count; m++) {
        MeshWork *mw = &p->work[m];
        if (!mw->corrected) continue;
        CorrectiveTarget *candidate = &p->scratch->candidate;
        candidate->normals = model->meshes[m].normals ? p->normal_deltas : NULL;
        sparse_candidate(&model->meshes[m], mw, slot, candidate);
        int j = keep_delta(p->w, m, mw, candidate, p->clip >= 0 ? model->clips[p->clip].name : "", k);
        if (j == -2) p->ok = false;
        mw->previous = j;
        mw->keys_corrected += j >= 0;
        if (p->clip < 0) p->w->correctives->meshes[m].rest = j;
        else mw->key_target[p->clip][k] = j;
    }
}

/* Keys between ta (slot a, written) and tb (slot b, written next): where the halfway pose misses skinview's by more
 * than `between`, a key in the middle (its slot: 2 + depth), and the same on both halves, GLTF_CORRECTIVE_DEPTH deep. */
static void refine(Pass *p, float ta, int a, float tb, int b, int depth)
{
    if (!p->ok || depth >= GLTF_CORRECTIVE_DEPTH) return;
    float tm = 0.5f * (ta + tb);
    if (!(tm > ta && tm < tb)) return;
    int slot = 2 + depth;
    if (evaluate_key(p, tm, slot, a, b) <= p->between) return;
    refine(p, ta, a, tm, slot, depth + 1);
    push_key(p, tm, slot);
    refine(p, tm, slot, tb, b, depth + 1);
}

/* ---- the whole computation ------------------------------------------------------------------------------------ */

static double mesh_diagonal(const Mesh *mesh)
{
    vec3 lo = {0, 0, 0}, hi = {0, 0, 0};
    for (int v = 0; v < mesh->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            if (v == 0 || mesh->positions[v][k] < lo[k]) lo[k] = mesh->positions[v][k];
            if (v == 0 || mesh->positions[v][k] > hi[k]) hi[k] = mesh->positions[v][k];
        }
    return glm_vec3_distance(lo, hi);
}

/* Bytes mesh m's corrections add: the sparse targets, and at every key of every clip's weights channel (its corrective
 * keys and the mesh's own morph keys) the mesh's own weights plus about one corrective weight with its index (the
 * channel's output is sparse: gltf_write_anim.c). */
static size_t mesh_bytes(const GltfWriter *w, int m, const int *key_counts)
{
    const MeshCorrectives *mc = &w->correctives->meshes[m];
    const Model *model = w->model;
    size_t bytes = 0;
    for (int j = 0; j < mc->count; j++) bytes += (size_t)mc->targets[j].count * (4 + 12 + (mc->targets[j].normals ? 12 : 0));
    size_t own = (size_t)model->meshes[m].morph_target_count;
    for (int c = 0; c < model->clip_count; c++) {
        size_t keys = (size_t)key_counts[c];
        for (int i = 0; i < model->clips[c].morph_track_count; i++)
            if (model->clips[c].morph_tracks[i].mesh == m) keys += (size_t)model->clips[c].morph_tracks[i].key_count;
        bytes += keys * (own * 4 + 12);
    }
    return bytes;
}

void gltf_writer_correctives_free(GltfWriter *w)
{
    GltfCorrectives *gc = w->correctives;
    if (!gc) return;
    for (int m = 0; gc->meshes && m < w->model->mesh_count; m++) {
        for (int j = 0; j < gc->meshes[m].count; j++) target_free(&gc->meshes[m].targets[j]);
        free(gc->meshes[m].targets);
    }
    for (int c = 0; gc->tracks && c < w->model->clip_count; c++) {
        for (int i = 0; i < gc->track_count[c]; i++) free(gc->tracks[c][i].times), free(gc->tracks[c][i].weights);
        free(gc->tracks[c]);
    }
    free(gc->meshes), free(gc->tracks), free(gc->track_count);
    free(gc);
    w->correctives = NULL;
}

bool gltf_writer_correctives(GltfWriter *w)
{
    const Model *model = w->model;
    SkinningMethod method = w->options->skinning;
    bool lbs = method != SKINNING_GPU_DQ && method != SKINNING_RIGID;
    int skinned = 0, largest = 1;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh_is_skinned(mesh) || mesh->vertex_count <= 0) continue;
        skinned++;
        if (lbs && mesh->skinning_in_file != MESH_SKINNING_LINEAR) w->report->meshes_lbs_for_dq++;
        if (mesh->vertex_count > largest) largest = mesh->vertex_count;
    }
    if (lbs || skinned == 0) return true;
    GltfCorrectives *gc = calloc(1, sizeof *gc);
    if (!gc) return gltf_writer_fail(w, "out of memory");
    w->correctives = gc;
    size_t meshes = (size_t)model->mesh_count + 1, clips = (size_t)model->clip_count + 1;
    gc->meshes = calloc(meshes, sizeof *gc->meshes);
    gc->tracks = calloc(clips, sizeof *gc->tracks);
    gc->track_count = calloc(clips, sizeof *gc->track_count);
    MeshWork *work = calloc(meshes, sizeof *work);
    float **key_times = calloc(clips, sizeof *key_times);
    int *key_counts = calloc(clips, sizeof *key_counts), *stamp = NULL;
    Scratch scratch = {0};
    scratch.skinned = malloc(sizeof(vec3) * (size_t)largest);
    scratch.skinned_normals = malloc(sizeof(vec3) * (size_t)largest);
    scratch.candidate.vertices = malloc(sizeof(uint32_t) * (size_t)largest);
    scratch.candidate.positions = malloc(sizeof(float) * 3 * (size_t)largest);
    float *normal_deltas = malloc(sizeof(float) * 3 * (size_t)largest);   /* the candidate's, when the mesh has normals */
    int *track_capacity = calloc(clips, sizeof(int));
    Animator animator;
    SkinDqPose pose;
    bool animator_ok = false, pose_ok = false;
    bool ok = gc->meshes && gc->tracks && gc->track_count && work && key_times && key_counts && scratch.skinned &&
              scratch.skinned_normals && scratch.candidate.vertices && scratch.candidate.positions && normal_deltas &&
              track_capacity;
    ok = ok && (animator_ok = animator_init(&animator, model)) && (pose_ok = skin_dq_pose_init(&pose, model));
    for (int m = 0; ok && m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        gc->meshes[m].rest = -1;
        work[m].previous = -1;
        if (!mesh_is_skinned(mesh) || mesh->vertex_count <= 0) continue;
        MeshWork *mw = &work[m];
        mw->corrected = true;
        mw->slots = gltf_writer_influence_slots(w, mesh);
        mw->zero = CORRECTIVE_ZERO * mesh_diagonal(mesh);
        mw->joints = malloc(sizeof(uint16_t) * (size_t)mw->slots * (size_t)mesh->vertex_count);
        mw->weights = malloc(sizeof(float) * (size_t)mw->slots * (size_t)mesh->vertex_count);
        mw->key_target = calloc(clips, sizeof *mw->key_target);
        ok = mw->joints && mw->weights && mw->key_target;
        for (int slot = 0; ok && slot < SLOTS; slot++) {
            mw->delta[slot] = malloc(sizeof(float) * 3 * (size_t)mesh->vertex_count);
            mw->normal_delta[slot] = mesh->normals ? malloc(sizeof(float) * 3 * (size_t)mesh->vertex_count) : NULL;
            ok = mw->delta[slot] && (!mesh->normals || mw->normal_delta[slot]);
        }
        for (int v = 0; ok && v < mesh->vertex_count; v++) {   /* the influences exactly as gltf_write_mesh.c writes them */
            uint16_t joints_in[SV_MAX_INFLUENCES_KEPT];
            float weights_in[SV_MAX_INFLUENCES_KEPT];
            memcpy(joints_in, mesh->joint_indices[v], sizeof mesh->joint_indices[v]);
            memcpy(weights_in, mesh->weights[v], sizeof mesh->weights[v]);
            if (mw->slots > SV_MAX_INFLUENCES) {
                memcpy(joints_in + 4, mesh->joint_indices_more[v], sizeof mesh->joint_indices_more[v]);
                memcpy(weights_in + 4, mesh->weights_more[v], sizeof mesh->weights_more[v]);
            }
            gltf_writer_clean_influences(joints_in, weights_in, mw->slots, &mw->joints[(size_t)v * (size_t)mw->slots],
                                         &mw->weights[(size_t)v * (size_t)mw->slots]);
        }
    }
    /* the rest pose, then every selected clip at every written key (and the keys refinement adds) */
    Pass pass = {.w = w, .animator = &animator, .pose = &pose, .work = work, .scratch = &scratch,
                 .normal_deltas = normal_deltas, .ok = ok,
                 .between = CORRECTIVE_BETWEEN * (ok ? model_bind_diagonal(model) : 0.0f)};
    for (int c = -1; pass.ok && c < model->clip_count; c++) {
        if (c >= 0 && w->options->clip_selected && !w->options->clip_selected[c]) continue;
        int count = 1;
        float *times = NULL;
        if (c >= 0 && (count = clip_key_times(w, &model->clips[c], &times)) < 0) {
            pass.ok = false;
            break;
        }
        int capacity = c >= 0 ? (count - 1) * (1 << GLTF_CORRECTIVE_DEPTH) + 1 : 1;
        pass.clip = c, pass.count = 0;
        pass.times = malloc(sizeof(float) * (size_t)capacity);
        pass.ok = pass.times != NULL;
        for (int m = 0; pass.ok && m < model->mesh_count; m++) {
            work[m].previous = -1;
            if (c >= 0 && work[m].corrected && !(work[m].key_target[c] = malloc(sizeof(int) * (size_t)capacity))) pass.ok = false;
        }
        int left = 0, right = 1;
        if (pass.ok) {
            evaluate_key(&pass, c >= 0 ? times[0] : 0.0f, left, -1, -1);
            push_key(&pass, c >= 0 ? times[0] : 0.0f, left);
        }
        for (int k = 1; pass.ok && k < count; k++) {
            evaluate_key(&pass, times[k], right, -1, -1);
            refine(&pass, times[k - 1], left, times[k], right, 0);
            push_key(&pass, times[k], right);
            int swap = left;
            left = right, right = swap;
        }
        free(times);
        if (c >= 0) key_times[c] = pass.times, key_counts[c] = pass.count;
        else free(pass.times);
        pass.times = NULL;
    }
    ok = pass.ok;
    if (!ok) gltf_writer_fail(w, "out of memory");
    /* the cap, then the weight tracks */
    int most_targets = 1;
    for (int m = 0; ok && m < model->mesh_count; m++) {
        MeshCorrectives *mc = &gc->meshes[m];
        if (!work[m].corrected) continue;
        size_t bytes = mesh_bytes(w, m, key_counts);
        size_t cap = w->options->corrective_max_bytes ? w->options->corrective_max_bytes : GLTF_CORRECTIVE_MAX_BYTES;
        if (bytes > cap) {   /* plain LBS for this mesh */
            for (int j = 0; j < mc->count; j++) target_free(&mc->targets[j]);
            mc->count = 0, mc->rest = -1;
            work[m].corrected = false;
            w->report->meshes_lbs_for_dq++;
            w->report->meshes_over_cap++;
            if (bytes > w->report->over_cap_bytes) w->report->over_cap_bytes = bytes;
            continue;
        }
        if (mc->count == 0) continue;
        w->report->meshes_corrected++;
        w->report->corrective_targets += mc->count;
        w->report->corrective_keys += work[m].keys_corrected;
        w->report->corrective_bytes += bytes;
        if (mc->count > most_targets) most_targets = mc->count;
    }
    if (ok && !(stamp = malloc(sizeof(int) * (size_t)most_targets))) ok = gltf_writer_fail(w, "out of memory");
    for (int m = 0; ok && m < model->mesh_count; m++) {
        if (!work[m].corrected || gc->meshes[m].count == 0) continue;
        for (int j = 0; j < most_targets; j++) stamp[j] = -1;
        for (int c = 0; ok && c < model->clip_count; c++) {
            if (!work[m].key_target[c]) continue;
            ok = build_tracks(w, c, m, &work[m], key_times[c], key_counts[c], &track_capacity[c], stamp) ||
                 gltf_writer_fail(w, "out of memory");
        }
    }
    for (int m = 0; work && m < model->mesh_count; m++) {
        free(work[m].joints), free(work[m].weights);
        for (int slot = 0; slot < SLOTS; slot++) free(work[m].delta[slot]), free(work[m].normal_delta[slot]);
        for (int c = 0; work[m].key_target && c < model->clip_count; c++) free(work[m].key_target[c]);
        free(work[m].key_target);
    }
    for (int c = 0; key_times && c < model->clip_count; c++) free(key_times[c]);
    free(key_times), free(key_counts), free(work), free(stamp);
    free(scratch.skinned), free(scratch.skinned_normals);
    free(scratch.candidate.vertices), free(scratch.candidate.positions), free(normal_deltas), free(track_capacity);
    if (pose_ok) skin_dq_pose_free(&pose);
    if (animator_ok) animator_free(&animator);
    return ok && !w->failed;
}
