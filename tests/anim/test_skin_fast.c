/* test_skin_fast.c — the fast skinning paths (src/anim/skin_fast.c, skin_threads.c) against the
 * reference skin_vertices_lbs: influence runs, every SIMD kernel, renormalised normals, threads.
 * Part of the program test_skin (skin_fixture.h). */
#include "skin_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_skin_runs(void)
{
    const float weights[7][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.2f, 0.3f, 0.1f, 0.4f},
                                 {0, 0, 0, 1}, {0.5f, 0, 0.5f, 0}, {0.5f, 0, 0.5f, 0}};
    SkinRun runs[7];
    int count = skin_runs_build(weights, 7, NULL);
    CHECK(count == 4, "runs counted: %d, want 4 (1 1 | 2 | 4 4 | 3 3)", count);
    CHECK(skin_runs_build(weights, 7, runs) == count, "runs built = runs counted");
    const SkinRun want[4] = {{0, 2, 1}, {2, 1, 2}, {3, 2, 4}, {5, 2, 3}};
    for (int r = 0; r < 4 && r < count; r++)
        CHECK(runs[r].first == want[r].first && runs[r].count == want[r].count && runs[r].influences == want[r].influences,
              "run %d = (first %d, count %d, influences %d), want (%d, %d, %d)", r, runs[r].first, runs[r].count,
              runs[r].influences, want[r].first, want[r].count, want[r].influences);
    CHECK(skin_runs_build(weights, 0, runs) == 0, "no vertices, no runs");
}

void test_fast_matches_reference(void)
{
    enum { N = 5000 };
    RandomSkin r;
    random_skin_build(&r, N, 40, 7u);
    Mesh mesh = random_skin_mesh(&r);
    vec3 *want = test_calloc(N, sizeof(vec3)), *want_normals = test_calloc(N, sizeof(vec3));
    vec3 *got = test_calloc(N + 1, sizeof(vec3)), *got_normals = test_calloc(N + 1, sizeof(vec3));
    mat4 identity;
    glm_mat4_identity(identity);
    skin_vertices_lbs(&mesh, (const mat4 *)r.palette, identity, want, want_normals);

    int run_count = skin_runs_build((const float (*)[4])r.weights, N, NULL);
    SkinRun *runs = test_calloc((size_t)run_count, sizeof(SkinRun));
    skin_runs_build((const float (*)[4])r.weights, N, runs);
    int by_count[5] = {0};
    for (int i = 0; i < run_count; i++) by_count[runs[i].influences] += runs[i].count;
    CHECK(by_count[1] > 0 && by_count[2] > 0 && by_count[3] > 0 && by_count[4] > 0,
          "test setup: runs of 1, 2, 3 and 4 influences (%d %d %d %d vertices)", by_count[1], by_count[2], by_count[3],
          by_count[4]);

    /* With runs, and without (every vertex as 4 influences). The sentinel after the last
     * vertex shows that nothing past the array is written. */
    for (int with_runs = 0; with_runs < 2; with_runs++) {
        memset(got, 0x7f, sizeof(vec3) * (N + 1));
        memset(got_normals, 0x7f, sizeof(vec3) * (N + 1));
        SkinJob job = random_skin_job(&r, with_runs ? runs : NULL, with_runs ? run_count : 0, got, got_normals);
        skin_job_run(&job, 0, N);
        double dp = vec3_max_difference(want, got, N), dn = vec3_max_difference(want_normals, got_normals, N);
        CHECK(dp <= 1e-6 && dn <= 1e-6, "fast path (%s runs) = reference: positions within %.2g, normals %.2g",
              with_runs ? "with" : "without", dp, dn);
        CHECK(((unsigned char *)got[N])[0] == 0x7f &&
                  ((unsigned char *)got_normals[N])[11] == 0x7f,
              "nothing written past the last vertex");
        float longest = 0.0f, shortest = 2.0f;
        for (int v = 0; v < N; v++) {
            float length = glm_vec3_norm(got_normals[v]);
            longest = fmaxf(longest, length), shortest = fminf(shortest, length);
        }
        CHECK(shortest > 1.0f - 1e-6f && longest < 1.0f + 1e-6f, "renormalised normals: lengths in [%.8f, %.8f]",
              shortest, longest);
    }

    /* Ranges: skinning [a, b) writes exactly those vertices. */
    memset(got, 0, sizeof(vec3) * N);
    SkinJob job = random_skin_job(&r, runs, run_count, got, NULL);
    skin_job_run(&job, 1234, 3210);
    bool outside_untouched = true, inside_right = true;
    for (int v = 0; v < N; v++) {
        bool inside = v >= 1234 && v < 3210;
        if (!inside && (got[v][0] != 0.0f || got[v][1] != 0.0f || got[v][2] != 0.0f)) outside_untouched = false;
        if (inside && vec3_max_difference(&want[v], &got[v], 1) > 1e-6) inside_right = false;
    }
    CHECK(outside_untouched && inside_right, "a range [1234, 3210) writes only those vertices, right");

    /* Without renormalisation the normal is mat3(blended palette) * n, exactly what the
     * reference blends before it normalises: same direction. */
    job = random_skin_job(&r, runs, run_count, got, got_normals);
    job.normalize_normals = false;
    skin_job_run(&job, 0, N);
    double worst_direction = 0.0;
    for (int v = 0; v < N; v++) {
        vec3 n;
        glm_vec3_normalize_to(got_normals[v], n);
        worst_direction = fmax(worst_direction, glm_vec3_distance(n, want_normals[v]));
    }
    CHECK(worst_direction < 1e-5, "unnormalised normals point the reference's way (%.2g)", worst_direction);

    /* A vertex whose blended normal is 0 gets 0, as glm_vec3_normalize does (no NaN). */
    vec3 zero_normal = {0, 0, 0}, out_p, out_n = {1, 1, 1};
    uint16_t one_index[1][4] = {{0, 0, 0, 0}};
    float one_weight[1][4] = {{1, 0, 0, 0}};
    SkinJob tiny = {.vertex_count = 1, .palette = (const mat4 *)r.palette, .joint_indices = (const uint16_t (*)[4])one_index,
                    .weights = (const float (*)[4])one_weight, .positions = (const vec3 *)&r.positions[0],
                    .normals = (const vec3 *)&zero_normal, .out_positions = &out_p, .out_normals = &out_n,
                    .normalize_normals = true};
    skin_job_run(&tiny, 0, 1);
    CHECK(out_n[0] == 0.0f && out_n[1] == 0.0f && out_n[2] == 0.0f, "zero normal stays zero (%g %g %g)", out_n[0],
          out_n[1], out_n[2]);

    free(runs);
    free(want), free(want_normals), free(got), free(got_normals);
    random_skin_free(&r);
}

void test_renormalized_normals(const char *kernel)
{
    enum { N = 2000 };
    RandomSkin r;
    random_skin_build(&r, N, 16, 21u);
    for (int v = 0; v < N; v += 97) glm_vec3_scale(r.normals[v], 1e-4f, r.normals[v]);   /* short, still normalised */
    Mesh mesh = random_skin_mesh(&r);
    vec3 *want = test_calloc(N, sizeof(vec3)), *want_normals = test_calloc(N, sizeof(vec3));
    vec3 *got = test_calloc(N, sizeof(vec3)), *got_normals = test_calloc(N, sizeof(vec3));
    mat4 identity;
    glm_mat4_identity(identity);
    skin_vertices_lbs(&mesh, (const mat4 *)r.palette, identity, want, want_normals);
    SkinRun *runs = test_calloc(N, sizeof(SkinRun));
    double worst = 0.0;
    for (int length = 1; length <= 9; length++) {   /* runs of `length` vertices, influence count cycling */
        int run_count = 0;
        for (int first = 0; first < N; first += length, run_count++)
            runs[run_count] = (SkinRun){first, first + length <= N ? length : N - first, 4};
        SkinJob job = random_skin_job(&r, runs, run_count, got, got_normals);
        skin_job_run(&job, 0, N);
        worst = fmax(worst, vec3_max_difference(want_normals, got_normals, N));
    }
    CHECK(worst <= 1e-6, "%s: renormalised normals = scalar reference within %.2g (runs of 1..9 vertices)", kernel, worst);

    vec3 tiny[5] = {{0, 0, 0}, {1e-9f, 0, 0}, {0, 3e-7f, 0}, {0, 0, 2e-7f}, {0.6f, 0.8f, 0}};
    uint16_t index[5][4] = {{0}};
    float weight[5][4] = {{1}, {1}, {1}, {1}, {1}};
    mat4 one = GLM_MAT4_IDENTITY_INIT;
    vec3 out[5], out_n[5];
    SkinRun all = {0, 5, 1};
    SkinJob small = {.vertex_count = 5, .palette = (const mat4 *)&one, .joint_indices = (const uint16_t (*)[4])index,
                     .weights = (const float (*)[4])weight, .runs = &all, .run_count = 1, .positions = (const vec3 *)tiny,
                     .normals = (const vec3 *)tiny, .out_positions = out, .out_normals = out_n, .normalize_normals = true};
    skin_job_run(&small, 0, 5);
    /* 0 -> 0 and |n| < FLT_EPSILON -> 0 (no NaN, no huge 1/|n|); above it, unit length */
    bool zeros = out_n[0][0] == 0.0f && out_n[0][1] == 0.0f && out_n[0][2] == 0.0f && out_n[1][0] == 0.0f;
    bool units = fabsf(out_n[2][1] - 1.0f) < 1e-6f && fabsf(out_n[3][2] - 1.0f) < 1e-6f &&
                 fabsf(out_n[4][0] - 0.6f) < 1e-6f && fabsf(out_n[4][1] - 0.8f) < 1e-6f;
    CHECK(zeros && units, "%s: zero and sub-epsilon normals give 0 (%g, %g), 3e-7 and 2e-7 give unit normals (%g %g)",
          kernel, out_n[0][0], out_n[1][0], out_n[2][1], out_n[3][2]);
    free(runs);
    free(want), free(want_normals), free(got), free(got_normals);
    random_skin_free(&r);
}

void test_kernels_agree(void)
{
    int original = anim_simd_level();
    if (anim_simd_set(ANIM_SIMD_AVX2) != ANIM_SIMD_AVX2) {
        printf("  (this CPU or build has no AVX2 + FMA kernel: only the baseline is tested)\n");
        anim_simd_set(original);
        return;
    }
    enum { N = 3001 };
    RandomSkin r;
    random_skin_build(&r, N, 50, 31u);
    int run_count = skin_runs_build((const float (*)[4])r.weights, N, NULL);
    SkinRun *runs = test_calloc((size_t)run_count, sizeof(SkinRun));
    skin_runs_build((const float (*)[4])r.weights, N, runs);
    vec3 *wide = test_calloc(N, sizeof(vec3)), *wide_n = test_calloc(N, sizeof(vec3));
    vec3 *base = test_calloc(N, sizeof(vec3)), *base_n = test_calloc(N, sizeof(vec3));
    for (int renormalize = 0; renormalize < 2; renormalize++) {
        SkinJob job = random_skin_job(&r, runs, run_count, wide, wide_n);
        job.normalize_normals = renormalize;
        anim_simd_set(ANIM_SIMD_AVX2);
        skin_job_run(&job, 0, N);
        job.out_positions = base, job.out_normals = base_n;
        anim_simd_set(ANIM_SIMD_BASELINE);
        skin_job_run(&job, 0, N);
        double dp = vec3_max_difference(wide, base, N), dn = vec3_max_difference(wide_n, base_n, N);
        CHECK(dp <= 2e-6 && dn <= 2e-6 && memcmp(wide, base, sizeof(vec3) * N) != 0,
              "avx2+fma kernel = sse2 kernel (normals %s): positions within %.2g, normals %.2g (not the same code: "
              "some bits differ)",
              renormalize ? "renormalised" : "as blended", dp, dn);
    }
    anim_simd_set(original);
    free(runs), free(wide), free(wide_n), free(base), free(base_n);
    random_skin_free(&r);
}

void test_threads_match_one_thread(void)
{
    enum { N = 30011 };
    RandomSkin a, b;
    random_skin_build(&a, N, 60, 11u);
    random_skin_build(&b, 9000, 7, 12u);
    SkinRun *runs_a = test_calloc(N, sizeof(SkinRun)), *runs_b = test_calloc(9000, sizeof(SkinRun));
    int count_a = skin_runs_build((const float (*)[4])a.weights, N, runs_a);
    int count_b = skin_runs_build((const float (*)[4])b.weights, 9000, runs_b);
    vec3 *one = test_calloc(N + 9000, sizeof(vec3)), *one_n = test_calloc(N + 9000, sizeof(vec3));
    vec3 *many = test_calloc(N + 9000, sizeof(vec3)), *many_n = test_calloc(N + 9000, sizeof(vec3));
    SkinJob jobs[2] = {random_skin_job(&a, runs_a, count_a, one, one_n),
                       random_skin_job(&b, runs_b, count_b, one + N, one_n + N)};
    skin_threads_run(NULL, jobs, 2);   /* no pool: the caller does it all */
    for (int threads = 1; threads <= 5; threads += 2) {
        SkinThreads *pool = skin_threads_create(threads);
        CHECK(pool && skin_threads_count(pool) == threads, "a pool of %d threads", threads);
        jobs[0].out_positions = many, jobs[0].out_normals = many_n;
        jobs[1].out_positions = many + N, jobs[1].out_normals = many_n + N;
        for (int repeat = 0; repeat < 3; repeat++) {
            memset(many, 0, sizeof(vec3) * (N + 9000));
            memset(many_n, 0, sizeof(vec3) * (N + 9000));
            skin_threads_run(pool, jobs, 2);
            CHECK(memcmp(one, many, sizeof(vec3) * (N + 9000)) == 0 &&
                      memcmp(one_n, many_n, sizeof(vec3) * (N + 9000)) == 0,
                  "%d threads (repeat %d): bit-identical to one thread, both meshes, every vertex", threads, repeat);
        }
        skin_threads_destroy(pool);
    }
    CHECK(skin_threads_create(0) == NULL, "a pool of 0 threads is refused");
    skin_threads_destroy(NULL);
    free(runs_a), free(runs_b), free(one), free(one_n), free(many), free(many_n);
    random_skin_free(&a);
    random_skin_free(&b);
}
