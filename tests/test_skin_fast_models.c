/* test_skin_fast_models — the fast skinning path (skin_fast.c, skin_threads.c) against the
 * scalar reference skin_vertices_lbs (skin.c) on every real skinned test model.
 *
 * For every clip of every model (assimp-testmodels, and ../shared/models when present), at
 * 7 times across the clip, positions and normals are skinned three ways: the reference (float),
 * the Animator's fast path (float, matrices blended first), and the same formula in double
 * precision (the "exact" answer). Both float results carry rounding error; where the palette
 * holds large translations that cancel (FBX rigs far from the origin) it reaches 1e-5 of the
 * posed bbox diagonal for the reference itself. So the check is: the fast path's error is at
 * most twice the reference's own error, plus 1e-6 of the diagonal. Normals: within 1e-5 of the
 * reference (unit vectors; rsqrt + one Newton step). The threaded result (3 threads) must equal
 * the one-thread result bit for bit. */
#include "anim/animator.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p' = (sum_k w_k palette[j_k]) (p, 1) in double precision. */
static void exact_position(const Mesh *mesh, const mat4 *palette, int v, double out[3])
{
    for (int r = 0; r < 3; r++) {
        double sum = 0.0;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            double w = mesh->weights[v][k];
            if (w == 0.0) continue;
            const vec4 *m = palette[mesh->joint_indices[v][k]];
            const float *p = mesh->positions[v];
            sum += w * ((double)m[0][r] * p[0] + (double)m[1][r] * p[1] + (double)m[2][r] * p[2] + (double)m[3][r]);
        }
        out[r] = sum;
    }
}

static double distance3(const float a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static void check_model(const char *path, SkinThreads *pool, double *worst_position, double *worst_normal)
{
    Model model;
    char error[512];
    ImportOptions options = {0};
    if (!import_model(path, &options, &model, error, sizeof error)) {
        CHECK(false, "%s: %s", path, error);
        return;
    }
    Animator animator;
    CHECK(animator_init(&animator, &model), "%s: animator_init", path);
    int max_vertices = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > max_vertices) max_vertices = model.meshes[m].vertex_count;
    vec3 *reference = calloc((size_t)max_vertices, sizeof(vec3)), *reference_n = calloc((size_t)max_vertices, sizeof(vec3));
    vec3 *fast = calloc((size_t)max_vertices, sizeof(vec3)), *fast_n = calloc((size_t)max_vertices, sizeof(vec3));
    vec3 *threaded = calloc((size_t)max_vertices, sizeof(vec3)), *threaded_n = calloc((size_t)max_vertices, sizeof(vec3));
    int compared = 0, threads_differ = 0, too_far = 0;
    double model_worst_p = 0.0, model_worst_n = 0.0, reference_worst = 0.0;
    for (int c = ANIMATOR_REST_POSE; c < model.clip_count; c++) {
        for (int step = 0; step < 7; step++) {
            float time = c >= 0 ? model.clips[c].duration * (float)step / 6.0f : 0.0f;
            animator_evaluate(&animator, c, time);
            for (int m = 0; m < model.mesh_count; m++) {
                const Mesh *mesh = &model.meshes[m];
                if (!mesh->skinned || !mesh->normals) continue;
                mat4 identity;
                glm_mat4_identity(identity);
                skin_vertices_lbs(mesh, (const mat4 *)animator.palettes[m], identity, reference, reference_n);
                animator_skin_mesh(&animator, m, fast, fast_n);
                SkinJob job = animator_skin_job(&animator, m, (const vec3 *)mesh->positions, (const vec3 *)mesh->normals,
                                                threaded, threaded_n);
                skin_threads_run(pool, &job, 1);
                /* the posed bbox diagonal: the scale of this pose */
                vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
                for (int v = 0; v < mesh->vertex_count; v++) glm_vec3_minv(lo, reference[v], lo), glm_vec3_maxv(hi, reference[v], hi);
                double diagonal = glm_vec3_distance(lo, hi);
                if (!(diagonal > 0.0)) diagonal = 1.0;
                for (int v = 0; v < mesh->vertex_count; v++) {
                    double exact[3];
                    exact_position(mesh, (const mat4 *)animator.palettes[m], v, exact);
                    double fast_error = distance3(fast[v], exact), reference_error = distance3(reference[v], exact);
                    if (fast_error > 2.0 * reference_error + 1e-6 * diagonal) too_far++;
                    model_worst_p = fmax(model_worst_p, glm_vec3_distance(reference[v], fast[v]) / diagonal);
                    reference_worst = fmax(reference_worst, reference_error / diagonal);
                    model_worst_n = fmax(model_worst_n, glm_vec3_distance(reference_n[v], fast_n[v]));
                }
                if (memcmp(fast, threaded, sizeof(vec3) * (size_t)mesh->vertex_count) != 0 ||
                    memcmp(fast_n, threaded_n, sizeof(vec3) * (size_t)mesh->vertex_count) != 0)
                    threads_differ++;
                compared++;
            }
            if (c < 0) break;
        }
    }
    CHECK(too_far == 0, "%s: %d vertices where the fast path's rounding error exceeds twice the reference's + 1e-6 "
          "of the diagonal", path, too_far);
    CHECK(model_worst_n <= 1e-5, "%s: fast normals within %.2g (want <= 1e-5)", path, model_worst_n);
    CHECK(threads_differ == 0, "%s: %d of %d threaded skinnings differ from one thread", path, threads_differ, compared);
    printf("%s: %d mesh poses; fast - reference: positions %.2g of the diagonal, normals %.2g; "
           "reference - exact: %.2g\n", path, compared, model_worst_p, model_worst_n, reference_worst);
    *worst_position = fmax(*worst_position, model_worst_p);
    *worst_normal = fmax(*worst_normal, model_worst_n);
    free(reference), free(reference_n), free(fast), free(fast_n), free(threaded), free(threaded_n);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    SkinThreads *pool = skin_threads_create(3);
    CHECK(pool != NULL, "a pool of 3 threads");
    double worst_position = 0.0, worst_normal = 0.0;
    for (int i = 0; i < count; i++) check_model(models[i].path, pool, &worst_position, &worst_normal);
    printf("%d models: fast - reference within %.2g of the diagonal (positions), %.2g (normals)\n", count,
           worst_position, worst_normal);
    skin_threads_destroy(pool);
    return test_finish();
}
