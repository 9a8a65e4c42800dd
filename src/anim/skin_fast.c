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
 *     Newton-Raphson step (relative error < 2e-7) instead of sqrt and a division, four normals
 *     at a time (one rsqrt for four squared lengths gathered in one register).
 *  6. On CPUs with AVX2 + FMA (checked once at run time, simd.c) a second kernel blends two
 *     matrix columns per 8-float register with fused multiply-adds and takes the coordinates as
 *     broadcast loads (skin_vertex_avx2); SKINVIEW_SIMD=sse2 forces the SSE2 kernel.
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

/* v / |v|, or 0 when |v| < FLT_EPSILON (no NaN or huge 1/|v|); lane 3 of v is ignored.
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

/* normalize3 of four vectors at once: their squared lengths gathered into one register
 * (a 4x3 transpose of the squares, then two adds), one rsqrt + Newton step for all four,
 * each vector scaled by its lane. About half the instructions of four normalize3 calls. */
static inline __attribute__((always_inline)) void normalize3_x4(__m128 *n0, __m128 *n1, __m128 *n2, __m128 *n3)
{
    __m128 s0 = _mm_mul_ps(*n0, *n0), s1 = _mm_mul_ps(*n1, *n1), s2 = _mm_mul_ps(*n2, *n2), s3 = _mm_mul_ps(*n3, *n3);
    __m128 xy01 = _mm_unpacklo_ps(s0, s1), zw01 = _mm_unpackhi_ps(s0, s1);   /* x0 x1 y0 y1, z0 z1 . . */
    __m128 xy23 = _mm_unpacklo_ps(s2, s3), zw23 = _mm_unpackhi_ps(s2, s3);   /* x2 x3 y2 y3, z2 z3 . . */
    /* d_i = (x_i² + y_i²) + z_i², the reference's order */
    __m128 d = _mm_add_ps(_mm_add_ps(_mm_movelh_ps(xy01, xy23), _mm_movehl_ps(xy23, xy01)), _mm_movelh_ps(zw01, zw23));
    __m128 r = _mm_rsqrt_ps(d);   /* r' = r (1.5 - 0.5 d r²) */
    r = _mm_mul_ps(r, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), d), _mm_mul_ps(r, r))));
    r = _mm_and_ps(r, _mm_cmpge_ps(d, _mm_set1_ps(FLT_EPSILON * FLT_EPSILON)));   /* |n| < eps: 0 (also d = 0: NaN) */
    *n0 = _mm_mul_ps(*n0, SPLAT(r, 0));
    *n1 = _mm_mul_ps(*n1, SPLAT(r, 1));
    *n2 = _mm_mul_ps(*n2, SPLAT(r, 2));
    *n3 = _mm_mul_ps(*n3, SPLAT(r, 3));
}

/* The job's arrays as local values: the kernels' stores go through float pointers, which could
 * alias the SkinJob itself; reading every pointer once per run keeps them in registers. */
typedef struct SkinStreams {
    const float *palette;
    const uint16_t (*joint_indices)[SV_MAX_INFLUENCES];
    const float (*weights)[SV_MAX_INFLUENCES];
    const vec3 *positions, *normals;
    vec3 *out_positions, *out_normals;
} SkinStreams;

static inline void store_vertex(float *p, __m128 v, bool wide)
{
    if (wide) _mm_storeu_ps(p, v);
    else store_vec3(p, v);
}

/* Vertex v blending `influences` matrices. `wide`: v is not the last vertex of the range, so
 * its vec3 may be read and written as 4 floats — the 4th is the next vertex's x, which the
 * next iteration reads as its own and then overwrites (one load and one store instead of
 * three each); the last vertex of a range takes the exact-size load_vec3 / store_vec3.
 * Returns the skinned normal, not normalised and not stored (the caller stores it). */
static inline __attribute__((always_inline)) __m128 skin_vertex_sse2(const SkinStreams *job, int v, int influences,
                                                                    bool wide)
{
    const uint16_t *bone = job->joint_indices[v];
    const float *palette = job->palette;
    __m128 weights = _mm_loadu_ps(job->weights[v]);
    /* blended columns c_i = sum_k w_k * palette[bone_k] column i (rows x, y, z, w) */
    const float *m = palette + 16 * (size_t)bone[0];
    __m128 w = SPLAT(weights, 0);
    __m128 c0 = _mm_mul_ps(w, _mm_loadu_ps(m + 0));
    __m128 c1 = _mm_mul_ps(w, _mm_loadu_ps(m + 4));
    __m128 c2 = _mm_mul_ps(w, _mm_loadu_ps(m + 8));
    __m128 c3 = _mm_mul_ps(w, _mm_loadu_ps(m + 12));
    /* written out, not a loop over k: gcc -O2 does not unroll it (influences is a constant) */
#define BLEND_SSE2(k, lane)                                                                                         \
    if (influences > k) {                                                                                           \
        m = palette + 16 * (size_t)bone[k];                                                                         \
        w = SPLAT(weights, lane);                                                                                   \
        c0 = _mm_add_ps(c0, _mm_mul_ps(w, _mm_loadu_ps(m + 0)));                                                    \
        c1 = _mm_add_ps(c1, _mm_mul_ps(w, _mm_loadu_ps(m + 4)));                                                    \
        c2 = _mm_add_ps(c2, _mm_mul_ps(w, _mm_loadu_ps(m + 8)));                                                    \
        c3 = _mm_add_ps(c3, _mm_mul_ps(w, _mm_loadu_ps(m + 12)));                                                   \
    }
    BLEND_SSE2(1, 1)
    BLEND_SSE2(2, 2)
    BLEND_SSE2(3, 3)
#undef BLEND_SSE2
    /* p' = c0 px + c1 py + c2 pz + c3 */
    __m128 p = wide ? _mm_loadu_ps(job->positions[v]) : load_vec3(job->positions[v]);
    __m128 out = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(p, 0)), _mm_mul_ps(c1, SPLAT(p, 1))),
                            _mm_add_ps(_mm_mul_ps(c2, SPLAT(p, 2)), c3));
    store_vertex(job->out_positions[v], out, wide);
    if (!job->out_normals) return out;
    /* n' = c0 nx + c1 ny + c2 nz  (the blended upper 3x3, as the reference) */
    __m128 n = wide ? _mm_loadu_ps(job->normals[v]) : load_vec3(job->normals[v]);
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(n, 0)), _mm_mul_ps(c1, SPLAT(n, 1))), _mm_mul_ps(c2, SPLAT(n, 2)));
}

#if ANIM_HAVE_AVX2_KERNELS
#include <immintrin.h>
#define AVX2_TARGET __attribute__((target("avx2,fma")))

/* The same vertex with AVX2 + FMA (chosen at run time). Blending: a 4x4 palette matrix is two
 * 8-float registers (columns 0|1 and 2|3), so each further bone costs two FMAs instead of four
 * multiplies and four adds. Transform: p' = c0 px + c1 py + c2 pz + c3 as FMAs with px, py, pz
 * broadcast straight from memory (a broadcast load uses a load port, not the shuffle port that
 * limits the SSE2 kernel). One influence: p' = w (M0 px + M1 py + M2 pz + M3), the reference's
 * own order, with no blend at all. FMA rounds once where SSE2 rounds twice (float rounding). */
static inline __attribute__((always_inline)) AVX2_TARGET __m128 skin_vertex_avx2(const SkinStreams *job,
                                                                                int v, int influences, bool wide)
{
    const uint16_t *bone = job->joint_indices[v];
    const float *weights = job->weights[v], *palette = job->palette;
    const float *m = palette + 16 * (size_t)bone[0];
    __m128 c0, c1, c2, c3, w = _mm_broadcast_ss(&weights[0]);
    if (influences == 1) {
        c0 = _mm_loadu_ps(m), c1 = _mm_loadu_ps(m + 4), c2 = _mm_loadu_ps(m + 8), c3 = _mm_loadu_ps(m + 12);
    } else {
        __m256 w8 = _mm256_broadcast_ss(&weights[0]);
        __m256 c01 = _mm256_mul_ps(w8, _mm256_loadu_ps(m)), c23 = _mm256_mul_ps(w8, _mm256_loadu_ps(m + 8));
#define BLEND_AVX2(k) /* c += w_k palette[bone_k] */                                                              \
    if (influences > k) {                                                                                           \
        m = palette + 16 * (size_t)bone[k];                                                                         \
        w8 = _mm256_broadcast_ss(&weights[k]);                                                                      \
        c01 = _mm256_fmadd_ps(w8, _mm256_loadu_ps(m), c01);                                                         \
        c23 = _mm256_fmadd_ps(w8, _mm256_loadu_ps(m + 8), c23);                                                     \
    }
        BLEND_AVX2(1)
        BLEND_AVX2(2)
        BLEND_AVX2(3)
#undef BLEND_AVX2
        c0 = _mm256_castps256_ps128(c01), c1 = _mm256_extractf128_ps(c01, 1);
        c2 = _mm256_castps256_ps128(c23), c3 = _mm256_extractf128_ps(c23, 1);
    }
    const float *p = job->positions[v];
    __m128 out = _mm_fmadd_ps(c0, _mm_broadcast_ss(p),
                              _mm_fmadd_ps(c1, _mm_broadcast_ss(p + 1), _mm_fmadd_ps(c2, _mm_broadcast_ss(p + 2), c3)));
    if (influences == 1) out = _mm_mul_ps(w, out);
    store_vertex(job->out_positions[v], out, wide);
    if (!job->out_normals) return out;
    /* n' = c0 nx + c1 ny + c2 nz  (the blended upper 3x3) */
    const float *n = job->normals[v];
    __m128 nout = _mm_fmadd_ps(c0, _mm_broadcast_ss(n), _mm_fmadd_ps(c1, _mm_broadcast_ss(n + 1), _mm_mul_ps(c2, _mm_broadcast_ss(n + 2))));
    return influences == 1 ? _mm_mul_ps(w, nout) : nout;
}
#endif

/* One run of vertices [first, end), every one blending `influences` matrices, with one vertex
 * kernel (SSE2 or AVX2). `influences` is a constant at each call site (the switch in
 * SKIN_JOB_RUN), so the compiler unrolls the blend. Renormalised normals go four at a time
 * (normalize3_x4): the four normals wait in registers while their positions are stored, then
 * are stored in order (each wide store's 4th float is rewritten by the next vertex's store). */
#define SKIN_RUN(NAME, VERTEX, TARGET)                                                                              \
    static inline __attribute__((always_inline)) TARGET void NAME(const SkinJob *job_, int first, int end,         \
                                                                  int influences, int range_end)                    \
    {                                                                                                               \
        const SkinStreams streams = {(const float *)job_->palette, job_->joint_indices, job_->weights,               \
                                     job_->positions, job_->normals, job_->out_positions, job_->out_normals};        \
        const SkinStreams *job = &streams;                                                                          \
        bool renormalize = job_->normalize_normals;                                                                 \
        int wide_end = end < range_end ? end : end - 1; /* the range's last vertex: exact-size access */            \
        int v = first;                                                                                              \
        if (job->out_normals && renormalize) {                                                                       \
            for (; v + 4 <= wide_end; v += 4) {                                                                   \
                __m128 n0 = VERTEX(job, v, influences, true), n1 = VERTEX(job, v + 1, influences, true);            \
                __m128 n2 = VERTEX(job, v + 2, influences, true), n3 = VERTEX(job, v + 3, influences, true);        \
                normalize3_x4(&n0, &n1, &n2, &n3);                                                                  \
                _mm_storeu_ps(job->out_normals[v], n0);                                                             \
                _mm_storeu_ps(job->out_normals[v + 1], n1);                                                         \
                _mm_storeu_ps(job->out_normals[v + 2], n2);                                                         \
                _mm_storeu_ps(job->out_normals[v + 3], n3);                                                         \
            }                                                                                                       \
            for (; v < end; v++)                                                                                    \
                store_vertex(job->out_normals[v], normalize3(VERTEX(job, v, influences, v < wide_end)),    \
                             v < wide_end);                                                                         \
            return;                                                                                                 \
        }                                                                                                           \
        for (; v < wide_end; v++) {                                                                                 \
            __m128 n = VERTEX(job, v, influences, true);                                                   \
            if (job->out_normals) _mm_storeu_ps(job->out_normals[v], n);                                            \
        }                                                                                                           \
        for (; v < end; v++) {                                                                                      \
            __m128 n = VERTEX(job, v, influences, false);                                                  \
            if (job->out_normals) store_vec3(job->out_normals[v], n);                                               \
        }                                                                                                           \
    }

/* Every run of the job that meets [first, end), each with the loop for its influence count. */
#define SKIN_JOB_RUN(NAME, RUN, TARGET)                                                                             \
    static TARGET void NAME(const SkinJob *job, int first, int end)                                                 \
    {                                                                                                               \
        if (!job->runs) { /* no runs: treat every vertex as 4 influences (always correct) */                       \
            if (first < end) RUN(job, first, end, 4, end);                                                          \
            return;                                                                                                 \
        }                                                                                                           \
        for (int r = 0; r < job->run_count; r++) {                                                                  \
            const SkinRun *run = &job->runs[r];                                                                     \
            int run_first = run->first > first ? run->first : first;                                                \
            int run_end = run->first + run->count < end ? run->first + run->count : end;                            \
            if (run_first >= run_end) continue;                                                                     \
            switch (run->influences) { /* one specialised loop per influence count */                              \
            case 1: RUN(job, run_first, run_end, 1, end); break;                                                    \
            case 2: RUN(job, run_first, run_end, 2, end); break;                                                    \
            case 3: RUN(job, run_first, run_end, 3, end); break;                                                    \
            default: RUN(job, run_first, run_end, 4, end); break;                                                   \
            }                                                                                                       \
        }                                                                                                           \
    }

#define NO_TARGET
SKIN_RUN(skin_run_sse2, skin_vertex_sse2, NO_TARGET)
SKIN_JOB_RUN(skin_job_run_sse2, skin_run_sse2, NO_TARGET)
#if ANIM_HAVE_AVX2_KERNELS
SKIN_RUN(skin_run_avx2, skin_vertex_avx2, AVX2_TARGET)
SKIN_JOB_RUN(skin_job_run_avx2, skin_run_avx2, AVX2_TARGET)
#endif

void skin_job_run(const SkinJob *job, int first, int end)
{
    if (first < 0) first = 0;
    if (end > job->vertex_count) end = job->vertex_count;
#if ANIM_HAVE_AVX2_KERNELS
    if (anim_simd_level() >= ANIM_SIMD_AVX2) {
        skin_job_run_avx2(job, first, end);
        return;
    }
#endif
    skin_job_run_sse2(job, first, end);
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
#endif
