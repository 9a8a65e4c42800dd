/* test_reference_mode — `--reference` is a user-visible claim: the functions docs/skinning.md
 * teaches (clip_sample -> pose_local_to_model -> skin_palette -> skin_vertices_lbs, what
 * Animator.reference runs) and the fast path playback runs otherwise (pose_evaluate_packed: packed
 * keys, SIMD lanes, pose_fast.c; skin_job_run) give the same pose.
 *
 * On every skinned model of assimp-testmodels, of ../shared/models (when present) and the bundled
 * assets (demo.fbx, demo.glb, arm.gltf), for every clip, two Animators play the clip forward at 9
 * times (as the viewer does: cursors kept), then seek back to 3 earlier times (cursors jump):
 *   - every joint's model-space matrix: translation within 1e-5 of the posed bounding-box diagonal,
 *     the 3x3 part within 1e-5 of its largest column (FBX rigs carry a 0.01 scale there);
 *   - every mesh's skinned vertices (animator_skin_mesh: skin_vertices_lbs vs skin_job_run), positions
 *     within 1e-5 of the diagonal, normals within 1e-4;
 *   - the morph weights, within 1e-6.
 * Also: an Animator switched between the paths every frame (fast -> reference -> fast: the fast
 * path starts over after each reference frame) agrees with the fresh reference one within the same
 * bounds, so the switch leaves no stale state. Skips (77) only when no model can be read at all. */
#include "anim/animator.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOUND 1e-5

typedef struct Worst {
    double joint, rotation, position, normal, morph;
    int    poses, degenerate_normals;
} Worst;

static double max3(double a, double b, double c) { return fmax(a, fmax(b, c)); }

/* Bounding-box diagonal of the pose: every mesh's skinned vertices (reference) and every joint. */
static double pose_diagonal(const Model *model, const Animator *a, vec3 *scratch)
{
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(a, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++) glm_vec3_minv(lo, scratch[v], lo), glm_vec3_maxv(hi, scratch[v], hi);
    }
    for (int j = 0; j < model->skeleton.joint_count; j++)
        glm_vec3_minv(lo, a->joint_model[j][3], lo), glm_vec3_maxv(hi, a->joint_model[j][3], hi);
    double d = isfinite(lo[0]) ? glm_vec3_distance(lo, hi) : 1.0;
    return d > 1e-12 ? d : 1.0;
}

/* Compares the two Animators' current poses into w (relative errors). */
static void compare_pose(const Model *model, const Animator *fast, const Animator *ref, vec3 *buffers[4], Worst *w)
{
    double diagonal = pose_diagonal(model, ref, buffers[0]);
    for (int j = 0; j < model->skeleton.joint_count; j++) {
        const vec4 *f = fast->joint_model[j], *r = ref->joint_model[j];
        double column = 0.0, rotation = 0.0;
        for (int c = 0; c < 3; c++) column = fmax(column, glm_vec3_norm((float *)r[c]));
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) rotation = fmax(rotation, fabs((double)f[c][k] - r[c][k]));
        w->rotation = fmax(w->rotation, rotation / (column > 1e-12 ? column : 1.0));
        w->joint = fmax(w->joint, glm_vec3_distance((float *)f[3], (float *)r[3]) / diagonal);
    }
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        animator_skin_mesh(fast, m, buffers[0], buffers[1]);
        animator_skin_mesh(ref, m, buffers[2], buffers[3]);
        for (int v = 0; v < mesh->vertex_count; v++) {
            w->position = fmax(w->position, glm_vec3_distance(buffers[0][v], buffers[2][v]) / diagonal);
            /* where the blended normal cancels (half on two bones turned 180° apart: the arm's Twist
             * at 2 s) it has no direction, and the two normalisations differ: counted, not compared */
            vec3 blended = {0.0f, 0.0f, 0.0f};   /* sum_k w_k mat3(palette_k) n, before normalising */
            for (int k = 0; mesh->skinned && k < SV_MAX_INFLUENCES; k++) {
                vec3 nk;
                glm_mat4_mulv3(ref->palettes[m][mesh->joint_indices[v][k]], mesh->normals[v], 0.0f, nk);
                glm_vec3_muladds(nk, mesh->weights[v][k], blended);
            }
            if (mesh->skinned && glm_vec3_norm(blended) < 1e-3f) w->degenerate_normals++;
            else w->normal = fmax(w->normal, glm_vec3_distance(buffers[1][v], buffers[3][v]));
        }
        for (int t = 0; t < mesh->morph_target_count; t++)
            w->morph = fmax(w->morph, fabs((double)fast->morph.weights[m][t] - ref->morph.weights[m][t]));
    }
    w->poses++;
}

static bool check_model(const char *path, Worst *all)
{
    Model model;
    if (!test_import(path, NULL, &model)) return false;
    Animator fast, ref, switched;
    bool ready = animator_init(&fast, &model) && animator_init(&ref, &model) && animator_init(&switched, &model);
    CHECK(ready, "%s: animator_init", path);
    if (!ready) {
        model_free(&model);
        return false;
    }
    ref.reference = true;
    int max_vertices = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > max_vertices) max_vertices = model.meshes[m].vertex_count;
    vec3 *buffers[4];
    for (int b = 0; b < 4; b++) buffers[b] = calloc((size_t)max_vertices, sizeof(vec3));
    Worst w = {0}, switched_worst = {0};
    for (int c = 0; c < model.clip_count; c++) {
        float duration = model.clips[c].duration;
        static const float seeks[] = {0.5f, 0.1f, 0.9f};   /* backwards and forwards jumps */
        for (int step = 0; step < 9 + 3; step++) {
            float time = step < 9 ? duration * (float)step / 8.0f : duration * seeks[step - 9];
            animator_evaluate(&fast, c, time);
            animator_evaluate(&ref, c, time);
            compare_pose(&model, &fast, &ref, buffers, &w);
            /* the switch: every other frame on the other path */
            switched.reference = step % 2 == 1;
            animator_evaluate(&switched, c, time);
            compare_pose(&model, &switched, &ref, buffers, &switched_worst);
        }
    }
    CHECK(max3(w.joint, w.rotation, w.position) <= BOUND,
          "%s: reference vs fast path: joints %.2g, rotations %.2g, vertices %.2g of the diagonal (want <= %g)", path,
          w.joint, w.rotation, w.position, BOUND);
    CHECK(w.normal <= 1e-4, "%s: normals differ by %.2g (want <= 1e-4)", path, w.normal);
    CHECK(w.morph <= 1e-6, "%s: morph weights differ by %.2g", path, w.morph);
    CHECK(max3(switched_worst.joint, switched_worst.rotation, switched_worst.position) <= BOUND,
          "%s: switching paths every frame: joints %.2g, rotations %.2g, vertices %.2g (want <= %g)", path,
          switched_worst.joint, switched_worst.rotation, switched_worst.position, BOUND);
    printf("%s: %d clips, %d poses: joints %.2g, rotations %.2g, vertices %.2g of the diagonal, normals %.2g "
           "(%d without a direction); switching every frame: %.2g\n", path, model.clip_count, w.poses, w.joint,
           w.rotation, w.position, w.normal, w.degenerate_normals,
           max3(switched_worst.joint, switched_worst.rotation, switched_worst.position));
    all->joint = fmax(all->joint, w.joint);
    all->rotation = fmax(all->rotation, w.rotation);
    all->position = fmax(all->position, w.position);
    all->normal = fmax(all->normal, w.normal);
    all->poses += w.poses;
    for (int b = 0; b < 4; b++) free(buffers[b]);
    animator_free(&switched);
    animator_free(&ref);
    animator_free(&fast);
    model_free(&model);
    return true;
}

int main(void)
{
    TestModel models[80];
    int count = test_present_skinned_models(models, 72);
    static const char *const assets[] = {"demo.fbx", "demo.glb", "arm.gltf"};
    for (size_t a = 0; a < sizeof assets / sizeof assets[0]; a++) {
        snprintf(models[count].path, sizeof models[count].path, "%s/assets/%s", SKINVIEW_SOURCE_DIR, assets[a]);
        if (test_file_exists(models[count].path)) count++;
    }
    Worst all = {0};
    int read = 0;
    for (int i = 0; i < count; i++) read += check_model(models[i].path, &all);
    if (read == 0) {
        printf("no model could be read: skipped\n");
        return 77;
    }
    printf("%d models, %d poses: reference = fast path within %.2g (joints), %.2g (rotations), %.2g (vertices) of "
           "the diagonal, normals %.2g\n", read, all.poses, all.joint, all.rotation, all.position, all.normal);
    return test_finish();
}
