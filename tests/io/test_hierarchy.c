/* test_hierarchy — on every test model: parents come before children (parent[j] < j),
 * and pose_local_to_model() (one forward loop) equals a naive evaluation that walks
 * each joint's parent chain up to the root, at the rest pose and at the midpoint of
 * every clip (pose_set_rest, then clip_sample). Also: names and rest data are finite. */
#include "anim/anim.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* model_j = local_root * ... * local_parent * local_j, built by walking up the chain */
static void naive_model_matrix(const Skeleton *sk, const mat4 *local, int j, mat4 out)
{
    glm_mat4_copy((vec4 *)local[j], out);
    for (int p = sk->parent[j]; p >= 0; p = sk->parent[p]) {
        mat4 tmp;
        glm_mat4_mul((vec4 *)local[p], out, tmp);
        glm_mat4_copy(tmp, out);
    }
}

/* largest |a-b| over the matrix, relative to 1 + the largest entry */
static float matrix_difference(const mat4 a, const mat4 b)
{
    float diff = 0.0f, scale = 1.0f;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float d = fabsf(a[c][r] - b[c][r]);
            if (!(d <= diff)) diff = d;
            if (fabsf(a[c][r]) > scale) scale = fabsf(a[c][r]);
        }
    return diff / scale;
}

static float compare_pose(const Skeleton *sk, const mat4 *local, mat4 *model)
{
    pose_local_to_model(sk, local, model);
    float worst = 0.0f;
    for (int j = 0; j < sk->joint_count; j++) {
        mat4 naive;
        naive_model_matrix(sk, local, j, naive);
        float d = matrix_difference(naive, model[j]);
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

static void check_model(const char *path)
{
    Model model;
    if (!test_import(path, NULL, &model)) return;
    const Skeleton *sk = &model.skeleton;
    CHECK(sk->joint_count > 0, "%s: no joints", path);

    int bad_parent = 0, roots = 0, bad_rest = 0;
    for (int j = 0; j < sk->joint_count; j++) {
        if (sk->parent[j] < 0) roots++;
        else if (sk->parent[j] >= j) bad_parent++;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                if (!isfinite(sk->rest_local[j][c][r])) bad_rest++;
        /* rest_trs recomposed gives rest_local back (no shear in these files) */
        mat4 recomposed;
        joint_transform_to_matrix(&sk->rest_trs[j], recomposed);
        if (matrix_difference(sk->rest_local[j], recomposed) > 1e-4f) bad_rest++;
        float qlen = glm_vec4_norm(sk->rest_trs[j].rotation);
        if (fabsf(qlen - 1.0f) > 1e-4f) bad_rest++;
    }
    CHECK(bad_parent == 0, "%s: %d joints with parent >= own index", path, bad_parent);
    CHECK(roots == 1 && sk->parent[0] == -1, "%s: %d roots (expected one: the scene root first)", path, roots);
    CHECK(bad_rest == 0, "%s: %d bad rest transforms (non-finite, TRS != matrix, or non-unit rotation)", path,
          bad_rest);

    mat4 *local = malloc(sizeof(mat4) * (size_t)sk->joint_count);
    mat4 *global = malloc(sizeof(mat4) * (size_t)sk->joint_count);
    pose_set_rest(sk, local);
    float worst = compare_pose(sk, local, global);
    CHECK(worst <= 1e-5f, "%s: rest pose: forward loop and naive chain differ by %g", path, (double)worst);

    for (int c = 0; c < model.clip_count; c++) {
        const Clip *clip = &model.clips[c];
        CHECK(isfinite(clip->duration) && clip->duration >= 0.0f, "%s clip %d: duration %g", path, c,
              (double)clip->duration);
        int bad_keys = 0;
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *tr = &clip->tracks[t];
            if (tr->joint < 0 || tr->joint >= sk->joint_count) bad_keys++;
            const float *times[3] = {tr->translation_times, tr->rotation_times, tr->scale_times};
            int counts[3] = {tr->translation_count, tr->rotation_count, tr->scale_count};
            for (int ch = 0; ch < 3; ch++)
                for (int k = 0; k < counts[ch]; k++) {
                    if (!isfinite(times[ch][k])) bad_keys++;
                    if (k > 0 && !(times[ch][k] > times[ch][k - 1])) bad_keys++;
                    /* a clip is [first key, last key]: every key lies in [start, start + duration] */
                    if (times[ch][k] > clip->start + clip->duration || times[ch][k] < clip->start) bad_keys++;
                }
            for (int k = 0; k < tr->rotation_count; k++)
                if (fabsf(glm_vec4_norm(tr->rotation_values[k]) - 1.0f) > 1e-4f) bad_keys++;
        }
        CHECK(bad_keys == 0, "%s clip %d: %d bad keys (unsorted/repeated times, outside [start, start + duration], bad joint, non-unit rotation)",
              path, c, bad_keys);

        TrackCursor *cursors = calloc((size_t)(clip->track_count > 0 ? clip->track_count : 1), sizeof *cursors);
        pose_set_rest(sk, local);
        clip_sample(clip, sk, clip->duration * 0.5f, cursors, local);
        worst = compare_pose(sk, local, global);
        CHECK(worst <= 1e-5f, "%s clip %d (%s) at %g s: forward loop and naive chain differ by %g", path, c,
              clip->name, (double)(clip->duration * 0.5f), (double)worst);
        free(cursors);
    }
    printf("%-70s joints %d, clips %d\n", path, sk->joint_count, model.clip_count);
    free(local);
    free(global);
    model_free(&model);
}

int main(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    for (int i = 0; i < count; i++) check_model(models[i].path);
    /* static models too: a file without bones or clips still has a hierarchy */
    const char *more[] = {"glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", "MS3D/jeep1.ms3d",
                          "Collada/anims_with_full_rotations_between_keys.DAE"};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_TESTMODELS_DIR, more[i]);
        CHECK(test_file_exists(path), "required test model missing: %s", path);
        if (test_file_exists(path)) check_model(path);
    }
    return test_finish();
}
