/* skin_fast.c — linear blend skinning at SIMD speed: the same formula as skin_vertices_lbs()
 * (skin.c, the scalar reference), computed in the order that costs least.
 *
 * What makes it fast, each one measured in docs/performance.md:
 *  1. Blend the matrices, then transform once. The reference transforms the position and the
 *     normal by every influencing bone and blends the results (2 matrix-vector products per
 *     influence); by linearity  sum_k w_k (M_k p) = (sum_k w_k M_k) p,  so blending the 3x4
 *     matrices first leaves ONE position and ONE normal transform per vertex.
 *  2. No branch per influence slot: vertices are grouped into runs of consecutive vertices
 *     that use the same number of slots (SkinRun, built once per mesh). Each run calls a loop
 *     specialised for 1, 2, 3 or 4 influences: real characters are mostly 1-bone vertices
 *     (Xbot: 95 %), which then cost one matrix instead of four. Unused slots inside a run carry
 *     weight 0 and add exactly 0 (finite matrices).
 *  3. SSE2 (always present on x86-64): one matrix column = one __m128, so blending a column
 *     is one multiply-add on 4 floats, and a transform is 3 broadcasts + 3 multiply-adds.
 *     Elsewhere the same code runs on plain floats (SKIN_SCALAR below).
 *  4. The normal's renormalisation (optional) uses the hardware reciprocal square root plus one
 *     Newton-Raphson step (relative error < 2e-7) instead of sqrt and a division.
 *  5. Positions and normals move as 4 floats (one load, one store) where the 4th float belongs
 *     to the next vertex of the same range, which rewrites it right after; only the last vertex
 *     of a range uses exact 3-float accesses: it may end the array, and in the threaded path it
 *     borders another thread's range.
 */
#include "anim.h"

#include <float.h>
#include <string.h>

#if defined(__SSE2__) && !defined(SKINVIEW_NO_SIMD)
#include <emmintrin.h>
#define SKIN_SSE2 1
#endif

/* influences = 1 + index of the last non-zero slot (at least 1: every vertex moves with a bone). */
static int vertex_influences(const float weights[SV_MAX_INFLUENCES])
{
    int influences = 1;
    for (int k = 1; k < SV_MAX_INFLUENCES; k++)
        if (weights[k] != 0.0f) influences = k + 1;
    return influences;
}

int skin_runs_build(const float (*weights)[SV_MAX_INFLUENCES], int vertex_count, SkinRun *runs)
{
    int run_count = 0, previous = 0;
    for (int v = 0; v < vertex_count; v++) {
        int influences = vertex_influences(weights[v]);
        if (v > 0 && influences == previous) {
            if (runs) runs[run_count - 1].count++;
        } else {
            if (runs) runs[run_count] = (SkinRun){.first = v, .count = 1, .influences = influences};
            run_count++;
        }
        previous = influences;
    }
    return run_count;
}

#ifdef SKIN_SSE2

/* (x, y, z, ?) from a vec3 without reading past it: two loads, one shuffle. */
static inline __m128 load_vec3(const float *p)
{
    double xy_bits;                                             /* 8 bytes through memcpy: p is only */
    memcpy(&xy_bits, p, sizeof xy_bits);                        /* 4-byte aligned (no double* load)   */
    __m128 xy = _mm_castpd_ps(_mm_set_sd(xy_bits));             /* (x, y, 0, 0) */
    __m128 z = _mm_load_ss(p + 2);                              /* (z, 0, 0, 0) */
    return _mm_movelh_ps(xy, z);                                /* (x, y, z, 0) */
}

/* Writes lanes x, y, z of v to p, leaving p[3] (the next vertex) alone. */
static inline void store_vec3(float *p, __m128 v)
{
    double xy_bits = _mm_cvtsd_f64(_mm_castps_pd(v));   /* lanes x, y; memcpy: p is 4-byte aligned */
    memcpy(p, &xy_bits, sizeof xy_bits);
    _mm_store_ss(p + 2, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2)));
}

#define SPLAT(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))

/* v / |v|, or 0 when |v| < FLT_EPSILON (as glm_vec3_normalize).
 * 1/sqrt(d) ~ r = rsqrt(d) (12 bits), refined once: r' = r (1.5 - 0.5 d r^2) (~23 bits). */
static inline __m128 normalize3(__m128 v)
{
    __m128 squares = _mm_mul_ps(v, v);
    __m128 d = _mm_add_ss(_mm_add_ss(squares, SPLAT(squares, 1)), SPLAT(squares, 2));
    __m128 r = _mm_rsqrt_ss(d);
    __m128 half_d_r2 = _mm_mul_ss(_mm_mul_ss(_mm_set_ss(0.5f), d), _mm_mul_ss(r, r));
    r = _mm_mul_ss(r, _mm_sub_ss(_mm_set_ss(1.5f), half_d_r2));
    __m128 keep = _mm_cmpge_ss(d, _mm_set_ss(FLT_EPSILON * FLT_EPSILON));
    r = _mm_and_ps(r, keep);
    return _mm_mul_ps(v, SPLAT(r, 0));
}

/* Vertex v blending `influences` matrices. `wide`: v is not the last vertex of the range, so
 * its vec3 may be read and written as 4 floats — the 4th is the next vertex's x, which the
 * next iteration reads as its own and then overwrites (one load and one store instead of
 * three each); the last vertex of a range takes the exact-size load_vec3 / store_vec3. */
static inline __attribute__((always_inline)) void skin_vertex(const SkinJob *job, const float *palette, int v,
                                                              int influences, bool wide)
{
    const uint16_t *bone = job->joint_indices[v];
    __m128 weights = _mm_loadu_ps(job->weights[v]);
    /* blended columns c_i = sum_k w_k * palette[bone_k] column i (rows x, y, z, w) */
    const float *m = palette + 16 * (size_t)bone[0];
    __m128 w = SPLAT(weights, 0);
    __m128 c0 = _mm_mul_ps(w, _mm_loadu_ps(m + 0));
    __m128 c1 = _mm_mul_ps(w, _mm_loadu_ps(m + 4));
    __m128 c2 = _mm_mul_ps(w, _mm_loadu_ps(m + 8));
    __m128 c3 = _mm_mul_ps(w, _mm_loadu_ps(m + 12));
    for (int k = 1; k < influences; k++) {
        m = palette + 16 * (size_t)bone[k];
        w = k == 1 ? SPLAT(weights, 1) : k == 2 ? SPLAT(weights, 2) : SPLAT(weights, 3);
        c0 = _mm_add_ps(c0, _mm_mul_ps(w, _mm_loadu_ps(m + 0)));
        c1 = _mm_add_ps(c1, _mm_mul_ps(w, _mm_loadu_ps(m + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(w, _mm_loadu_ps(m + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(w, _mm_loadu_ps(m + 12)));
    }
    /* p' = c0 px + c1 py + c2 pz + c3 */
    __m128 p = wide ? _mm_loadu_ps(job->positions[v]) : load_vec3(job->positions[v]);
    __m128 out = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(p, 0)), _mm_mul_ps(c1, SPLAT(p, 1))),
                            _mm_add_ps(_mm_mul_ps(c2, SPLAT(p, 2)), c3));
    if (wide) _mm_storeu_ps(job->out_positions[v], out);
    else store_vec3(job->out_positions[v], out);
    if (job->out_normals) {
        /* n' = c0 nx + c1 ny + c2 nz  (the blended upper 3x3, as the reference) */
        __m128 n = wide ? _mm_loadu_ps(job->normals[v]) : load_vec3(job->normals[v]);
        __m128 nout = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(n, 0)), _mm_mul_ps(c1, SPLAT(n, 1))),
                                 _mm_mul_ps(c2, SPLAT(n, 2)));
        if (job->normalize_normals) nout = normalize3(nout);
        if (wide) _mm_storeu_ps(job->out_normals[v], nout);
        else store_vec3(job->out_normals[v], nout);
    }
}

/* One run of vertices [first, end), every one blending `influences` matrices. `influences`
 * is a constant at each call site (skin_job_run's switch), so the compiler unrolls the blend. */
static inline __attribute__((always_inline)) void skin_run(const SkinJob *job, int first, int end, int influences,
                                                           int range_end)
{
    const float *palette = (const float *)job->palette;
    int wide_end = end < range_end ? end : end - 1;   /* the range's last vertex: exact-size access */
    int v = first;
    for (; v < wide_end; v++) skin_vertex(job, palette, v, influences, true);
    for (; v < end; v++) skin_vertex(job, palette, v, influences, false);
}

#else /* plain C: the same order of operations, one float at a time */

static inline void skin_run(const SkinJob *job, int first, int end, int influences, int range_end)
{
    (void)range_end;
    for (int v = first; v < end; v++) {
        const uint16_t *bone = job->joint_indices[v];
        const float *w = job->weights[v];
        float c[4][3] = {{0}};   /* blended columns, rows x, y, z */
        for (int k = 0; k < influences; k++) {
            const vec4 *m = job->palette[bone[k]];
            for (int i = 0; i < 4; i++)
                for (int r = 0; r < 3; r++) c[i][r] += w[k] * m[i][r];
        }
        const float *p = job->positions[v];
        for (int r = 0; r < 3; r++) job->out_positions[v][r] = c[0][r] * p[0] + c[1][r] * p[1] + c[2][r] * p[2] + c[3][r];
        if (job->out_normals) {
            const float *n = job->normals[v];
            float *out = job->out_normals[v];
            for (int r = 0; r < 3; r++) out[r] = c[0][r] * n[0] + c[1][r] * n[1] + c[2][r] * n[2];
            if (job->normalize_normals) glm_vec3_normalize(out);
        }
    }
}

#endif

void skin_job_run(const SkinJob *job, int first, int end)
{
    if (first < 0) first = 0;
    if (end > job->vertex_count) end = job->vertex_count;
    if (!job->runs) {   /* no runs: treat every vertex as 4 influences (always correct) */
        if (first < end) skin_run(job, first, end, 4, end);
        return;
    }
    for (int r = 0; r < job->run_count; r++) {
        const SkinRun *run = &job->runs[r];
        int run_first = run->first > first ? run->first : first;
        int run_end = run->first + run->count < end ? run->first + run->count : end;
        if (run_first >= run_end) continue;
        switch (run->influences) {   /* one specialised loop per influence count */
        case 1: skin_run(job, run_first, run_end, 1, end); break;
        case 2: skin_run(job, run_first, run_end, 2, end); break;
        case 3: skin_run(job, run_first, run_end, 3, end); break;
        default: skin_run(job, run_first, run_end, 4, end); break;
        }
    }
}
