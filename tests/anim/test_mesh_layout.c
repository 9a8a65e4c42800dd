/* test_mesh_layout — skinned meshes sorted by influence count at import (src/anim/mesh_layout.c,
 * called from the common tail of src/io/import.c).
 *
 * Hand-built mesh: influence counts 1..4 interleaved, two UV sets, influences_in_file, two morph
 * targets. After mesh_sort_by_influences: at most 4 runs, counts ascending, stable within a
 * count, and every triangle corner carries exactly the data it had (position, normal, uvs, joint
 * indices, weights, influences_in_file, morph deltas), so the surface and its skinning are the
 * same. Real models (assimp-testmodels, ../shared/models when present): imported with the file's
 * order (ImportOptions.keep_vertex_order) and sorted, the triangles corner by corner carry the
 * same data, and skinned by the Animator at a time inside the first clip they land in the same
 * places (1e-6 of the diagonal); the influence-run counts before/after are printed. */
#include "anim/animator.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Corner c of the mesh: does it carry the same vertex data as corner c of `original`? */
static bool same_corner(const Mesh *a, const Mesh *b, int c)
{
    uint32_t va = a->indices[c], vb = b->indices[c];
    if (memcmp(a->positions[va], b->positions[vb], sizeof(vec3)) != 0) return false;
    if (memcmp(a->normals[va], b->normals[vb], sizeof(vec3)) != 0) return false;
    if (memcmp(a->uvs[va], b->uvs[vb], sizeof(vec2)) != 0) return false;
    if ((a->uvs2 != NULL) != (b->uvs2 != NULL) || (a->uvs2 && memcmp(a->uvs2[va], b->uvs2[vb], sizeof(vec2)) != 0))
        return false;
    if (a->skinned && (memcmp(a->joint_indices[va], b->joint_indices[vb], sizeof a->joint_indices[0]) != 0 ||
                       memcmp(a->weights[va], b->weights[vb], sizeof a->weights[0]) != 0))
        return false;
    if ((a->influences_in_file != NULL) != (b->influences_in_file != NULL) ||
        (a->influences_in_file && a->influences_in_file[va] != b->influences_in_file[vb]))
        return false;
    for (int t = 0; t < a->morph_target_count; t++) {
        size_t ia = (size_t)t * a->vertex_count + va, ib = (size_t)t * b->vertex_count + vb;
        if (memcmp(a->morph_position_deltas[ia], b->morph_position_deltas[ib], sizeof(vec3)) != 0) return false;
        if (a->morph_normal_deltas && memcmp(a->morph_normal_deltas[ia], b->morph_normal_deltas[ib], sizeof(vec3)) != 0)
            return false;
    }
    return true;
}

static int slot_count(const float w[4])
{
    int n = 1;
    for (int k = 1; k < 4; k++)
        if (w[k] != 0.0f) n = k + 1;
    return n;
}

static void test_hand_built(void)
{
    enum { V = 23, T = 2 };
    Mesh mesh = {0}, original = {0};
    mesh.vertex_count = V;
    mesh.skinned = true;
    mesh.bone_count = 4;
    mesh.positions = test_calloc(V, sizeof(vec3));
    mesh.normals = test_calloc(V, sizeof(vec3));
    mesh.uvs = test_calloc(V, sizeof(vec2));
    mesh.uvs2 = test_calloc(V, sizeof(vec2));
    mesh.joint_indices = test_calloc(V, sizeof *mesh.joint_indices);
    mesh.weights = test_calloc(V, sizeof *mesh.weights);
    mesh.influences_in_file = test_calloc(V, 1);
    mesh.morph_target_count = T;
    mesh.morph_position_deltas = test_calloc((size_t)V * T, sizeof(vec3));
    mesh.morph_normal_deltas = test_calloc((size_t)V * T, sizeof(vec3));
    for (int v = 0; v < V; v++) {
        int influences = 1 + (v * 7 + v / 3) % 4;
        glm_vec3_copy((vec3){(float)v, (float)(v * v), -(float)v}, mesh.positions[v]);
        glm_vec3_copy((vec3){0, 1, (float)v}, mesh.normals[v]);
        mesh.uvs[v][0] = (float)v / V, mesh.uvs2[v][1] = (float)(V - v);
        for (int k = 0; k < influences; k++) mesh.joint_indices[v][k] = (uint16_t)((v + k) % 4), mesh.weights[v][k] = 1.0f / influences;
        mesh.influences_in_file[v] = (uint8_t)(influences + (v % 5 == 0 ? 2 : 0));
        for (int t = 0; t < T; t++) {
            glm_vec3_copy((vec3){(float)t, (float)v, 0.5f}, mesh.morph_position_deltas[t * V + v]);
            glm_vec3_copy((vec3){(float)v, (float)t, 0.25f}, mesh.morph_normal_deltas[t * V + v]);
        }
    }
    mesh.index_count = 3 * (V - 2);
    mesh.indices = test_calloc((size_t)mesh.index_count, sizeof(uint32_t));
    for (int i = 0; i < V - 2; i++) mesh.indices[3 * i] = i, mesh.indices[3 * i + 1] = (i * 5 + 1) % V, mesh.indices[3 * i + 2] = V - 1 - i;
    /* a deep copy of the unsorted mesh to compare with */
    original = mesh;
#define DUP(field, bytes) original.field = memcpy(test_calloc(1, bytes), mesh.field, bytes)
    DUP(positions, V * sizeof(vec3));
    DUP(normals, V * sizeof(vec3));
    DUP(uvs, V * sizeof(vec2));
    DUP(uvs2, V * sizeof(vec2));
    DUP(joint_indices, V * sizeof *mesh.joint_indices);
    DUP(weights, V * sizeof *mesh.weights);
    DUP(influences_in_file, V);
    DUP(morph_position_deltas, (size_t)V * T * sizeof(vec3));
    DUP(morph_normal_deltas, (size_t)V * T * sizeof(vec3));
    DUP(indices, (size_t)mesh.index_count * sizeof(uint32_t));
#undef DUP
    int runs_before = mesh_influence_runs(&mesh);
    CHECK(mesh_sort_by_influences(&mesh), "sort succeeds");
    int runs_after = mesh_influence_runs(&mesh);
    CHECK(runs_before > 8 && runs_after == 4, "hand-built mesh: %d influence runs -> %d", runs_before, runs_after);
    bool ascending = true, stable = true;
    for (int v = 1; v < V; v++) {
        int a = slot_count(mesh.weights[v - 1]), b = slot_count(mesh.weights[v]);
        if (a > b) ascending = false;
        if (a == b && mesh.positions[v - 1][0] >= mesh.positions[v][0]) stable = false;   /* x = old index */
    }
    CHECK(ascending && stable, "influence counts ascending, file order kept within a count");
    bool corners = true;
    for (int c = 0; c < mesh.index_count; c++) corners = corners && same_corner(&mesh, &original, c);
    CHECK(corners, "every triangle corner carries the data it had (positions .. morph deltas)");
    /* the skinned surface is the same: the reference skinning at each corner */
    mat4 palette[4], identity = GLM_MAT4_IDENTITY_INIT;
    for (int b = 0; b < 4; b++) glm_rotate_make(palette[b], 0.3f * (float)(b + 1), (vec3){0, 0, 1}), palette[b][3][0] = (float)b;
    vec3 *sorted_out = test_calloc(V, sizeof(vec3)), *original_out = test_calloc(V, sizeof(vec3));
    skin_vertices_lbs(&mesh, (const mat4 *)palette, identity, sorted_out, NULL);
    skin_vertices_lbs(&original, (const mat4 *)palette, identity, original_out, NULL);
    bool skinned_same = true;
    for (int c = 0; c < mesh.index_count; c++)
        if (memcmp(sorted_out[mesh.indices[c]], original_out[original.indices[c]], sizeof(vec3)) != 0) skinned_same = false;
    CHECK(skinned_same, "skinned corners identical, bit for bit");
    /* sorting again changes nothing; a static mesh is left alone */
    uint32_t first_index = mesh.indices[0];
    CHECK(mesh_sort_by_influences(&mesh) && mesh.indices[0] == first_index && mesh_influence_runs(&mesh) == 4,
          "sorting a sorted mesh keeps it");
    Mesh still = {.vertex_count = 3, .index_count = 3, .indices = (uint32_t[]){0, 1, 2}};
    CHECK(mesh_sort_by_influences(&still) && mesh_influence_runs(&still) == 0, "a static mesh: nothing to do");
    free(sorted_out), free(original_out);
    Model holder = {.mesh_count = 2, .meshes = test_calloc(2, sizeof(Mesh))};
    holder.meshes[0] = mesh, holder.meshes[1] = original;
    model_free(&holder);
}

static double model_diagonal(const Model *m)
{
    vec3 lo = {1e30f, 1e30f, 1e30f}, hi = {-1e30f, -1e30f, -1e30f};
    for (int i = 0; i < m->mesh_count; i++)
        for (int v = 0; v < m->meshes[i].vertex_count; v++) glm_vec3_minv(lo, m->meshes[i].positions[v], lo), glm_vec3_maxv(hi, m->meshes[i].positions[v], hi);
    double d = glm_vec3_distance(lo, hi);
    return d > 0.0 ? d : 1.0;
}

/* Do two imports of the file in the file's vertex order give the same meshes? (One glTF of the
 * asset generator does not: its normalised byte weights come out differently from run to run.) */
static bool import_repeats(const char *path)
{
    Model a, b;
    char error[512];
    ImportOptions keep = {.quiet = true, .keep_vertex_order = true};
    bool ok_a = import_model(path, &keep, &a, error, sizeof error), ok_b = import_model(path, &keep, &b, error, sizeof error);
    bool same = ok_a && ok_b && a.mesh_count == b.mesh_count;
    for (int m = 0; same && m < a.mesh_count; m++) {
        same = a.meshes[m].index_count == b.meshes[m].index_count && a.meshes[m].vertex_count == b.meshes[m].vertex_count;
        for (int c = 0; same && c < a.meshes[m].index_count; c++) same = same_corner(&a.meshes[m], &b.meshes[m], c);
    }
    if (ok_a) model_free(&a);
    if (ok_b) model_free(&b);
    return same;
}

static void test_real_models(void)
{
    static TestModel models[256];
    int count = test_present_skinned_models(models, 256);
    int checked = 0, runs_file = 0, runs_sorted = 0;
    for (int i = 0; i < count; i++) {
        Model kept, sorted;
        char error[512];
        ImportOptions keep = {.quiet = true, .keep_vertex_order = true}, sort = {.quiet = true};
        if (!import_model(models[i].path, &keep, &kept, error, sizeof error)) continue;   /* test_skin_fast_models reports those */
        if (!import_model(models[i].path, &sort, &sorted, error, sizeof error)) {
            CHECK(false, "%s: imports unsorted but not sorted: %s", models[i].path, error);
            model_free(&kept);
            continue;
        }
        bool same_shape = kept.mesh_count == sorted.mesh_count, corners = same_shape, few_runs = true;
        for (int m = 0; same_shape && m < kept.mesh_count; m++) {
            const Mesh *a = &sorted.meshes[m], *b = &kept.meshes[m];
            if (a->vertex_count != b->vertex_count || a->index_count != b->index_count) {
                same_shape = corners = false;
                break;
            }
            for (int c = 0; c < a->index_count; c++) corners = corners && same_corner(a, b, c);
            if (a->skinned && mesh_influence_runs(a) > SV_MAX_INFLUENCES) few_runs = false;
        }
        if (same_shape && !corners && !import_repeats(models[i].path)) {
            /* two imports with the same options already disagree: nothing to learn about sorting */
            printf("  %s: skipped, two imports of the file disagree (not repeatable; not the sort)\n", models[i].path);
            model_free(&kept);
            model_free(&sorted);
            continue;
        }
        CHECK(same_shape && corners && few_runs, "%s: sorted mesh = file's mesh corner by corner, <= 4 runs per mesh",
              models[i].path);
        CHECK(kept.stats.influence_runs_in_file == sorted.stats.influence_runs_in_file &&
                  sorted.stats.influence_runs <= sorted.stats.influence_runs_in_file &&
                  kept.stats.influence_runs == kept.stats.influence_runs_in_file,
              "%s: stats count the runs (%d in the file, %d sorted)", models[i].path, sorted.stats.influence_runs_in_file,
              sorted.stats.influence_runs);
        runs_file += sorted.stats.influence_runs_in_file, runs_sorted += sorted.stats.influence_runs;
        if (strstr(models[i].path, "Xbot") || strstr(models[i].path, "Fox") || strstr(models[i].path, "Wizard"))
            printf("  %s: %d influence runs in the file, %d sorted\n", models[i].path, sorted.stats.influence_runs_in_file,
                   sorted.stats.influence_runs);
        /* skinned by the Animator (fast path, morphs included) at a third of the first clip */
        Animator ak, as;
        if (same_shape && animator_init(&ak, &kept) && animator_init(&as, &sorted)) {
            int clip = kept.clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
            float t = kept.clip_count > 0 ? kept.clips[0].duration / 3.0f : 0.0f;
            animator_evaluate(&ak, clip, t);
            animator_evaluate(&as, clip, t);
            double worst = 0.0, diagonal = model_diagonal(&kept);
            for (int m = 0; m < kept.mesh_count; m++) {
                int n = kept.meshes[m].vertex_count;
                vec3 *pk = test_calloc((size_t)n, sizeof(vec3)), *nk = test_calloc((size_t)n, sizeof(vec3));
                vec3 *ps = test_calloc((size_t)n, sizeof(vec3)), *ns = test_calloc((size_t)n, sizeof(vec3));
                animator_skin_mesh(&ak, m, pk, nk);
                animator_skin_mesh(&as, m, ps, ns);
                for (int c = 0; c < kept.meshes[m].index_count; c++)
                    worst = fmax(worst, glm_vec3_distance(pk[kept.meshes[m].indices[c]], ps[sorted.meshes[m].indices[c]]));
                free(pk), free(nk), free(ps), free(ns);
            }
            CHECK(worst <= 1e-6 * diagonal, "%s: skinned corners agree within %.2g of the diagonal", models[i].path,
                  worst / diagonal);
            animator_free(&ak);
            animator_free(&as);
        }
        checked++;
        model_free(&kept);
        model_free(&sorted);
    }
    printf("%d models: %d influence runs in the files, %d after sorting\n", checked, runs_file, runs_sorted);
    CHECK(checked > 0, "some models checked");
}

int main(void)
{
    test_hand_built();
    test_real_models();
    return test_finish();
}
