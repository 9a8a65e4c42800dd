/* test_key_reduce — the key-frame optimiser (src/anim/key_reduce.c, --optimize-keys).
 *
 * Hand-built chain of three joints and a skinned mesh around it, one clip:
 *   - translation keys on a straight line at uneven times: the middle keys go, 2 stay;
 *   - rotation keys on one slerp arc: 2 stay; a bump key in a second arc stays;
 *   - a STEP channel with repeated holds: the repeats go, every change of value stays;
 *   - a CUBICSPLINE channel: untouched (count and tangents);
 *   - first and last key of every channel stay; a tighter tolerance never keeps fewer keys;
 *   - the measured pose change (key_reduce_measure) is at most a few times the tolerance, and 0
 *     when nothing was dropped.
 * Real models (assimp-testmodels, ../shared/models when present), imported with --optimize-keys
 * at the default tolerance and measured: the worst pose change over every clip is at most 1e-4
 * of the bbox diagonal, and keys never increase. */
#include "anim/key_reduce.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { KEYS = 9 };

/* joints 0 -> 1 -> 2 along +y, a skinned "tube" of 24 vertices around joints 1 and 2 */
static void build_model(Model *m)
{
    memset(m, 0, sizeof *m);
    skeleton_alloc(&m->skeleton, 3);
    for (int j = 0; j < 3; j++) {
        snprintf(m->skeleton.names[j], SV_NAME_MAX, "j%d", j);
        m->skeleton.parent[j] = j - 1;
        JointTransform *trs = &m->skeleton.rest_trs[j];
        glm_vec3_copy((vec3){0, j == 0 ? 0.0f : 1.0f, 0}, trs->translation);
        glm_quat_identity(trs->rotation);
        glm_vec3_one(trs->scale);
        joint_transform_to_matrix(trs, m->skeleton.rest_local[j]);
        m->skeleton.is_bone[j] = true;
    }
    m->mesh_count = 1;
    m->meshes = test_calloc(1, sizeof(Mesh));
    Mesh *mesh = &m->meshes[0];
    mesh->vertex_count = 24;
    mesh->skinned = true;
    mesh->bone_count = 3;
    mesh->bone_joint = test_calloc(3, sizeof(int));
    mesh->inverse_bind = test_calloc(3, sizeof(mat4));
    for (int b = 0; b < 3; b++) {
        mesh->bone_joint[b] = b;
        glm_translate_make(mesh->inverse_bind[b], (vec3){0, -(float)b, 0});
    }
    glm_mat4_identity(mesh->bind_matrix);
    mesh->positions = test_calloc(24, sizeof(vec3));
    mesh->normals = test_calloc(24, sizeof(vec3));
    mesh->uvs = test_calloc(24, sizeof(vec2));
    mesh->joint_indices = test_calloc(24, sizeof *mesh->joint_indices);
    mesh->weights = test_calloc(24, sizeof *mesh->weights);
    for (int v = 0; v < 24; v++) {
        float angle = (float)v * 0.785398f, y = 0.5f + (float)(v / 8) * 0.75f;
        glm_vec3_copy((vec3){0.3f * cosf(angle), y, 0.3f * sinf(angle)}, mesh->positions[v]);
        glm_vec3_copy((vec3){cosf(angle), 0, sinf(angle)}, mesh->normals[v]);
        mesh->joint_indices[v][0] = (uint16_t)(v / 8), mesh->joint_indices[v][1] = (uint16_t)(v / 8 < 2 ? v / 8 + 1 : 2);
        mesh->weights[v][0] = 0.7f, mesh->weights[v][1] = 0.3f;
    }
    mesh->index_count = 3;
    mesh->indices = test_calloc(3, sizeof(uint32_t));
    mesh->indices[1] = 1, mesh->indices[2] = 2;

    Clip *clip = test_clip_init(test_add_clips(m, 1), "test", 2.0f, 3);
    const float times[KEYS] = {0.0f, 0.1f, 0.35f, 0.5f, 0.9f, 1.2f, 1.5f, 1.9f, 2.0f};
    for (int t = 0; t < 3; t++) {
        JointTrack *track = &clip->tracks[t];
        track->joint = t;
        track->translation_count = track->rotation_count = track->scale_count = KEYS;
        track->translation_times = test_calloc(KEYS, sizeof(float));
        track->rotation_times = test_calloc(KEYS, sizeof(float));
        track->scale_times = test_calloc(KEYS, sizeof(float));
        track->translation_values = test_calloc(KEYS, sizeof(vec3));
        track->rotation_values = test_calloc(KEYS, sizeof(versor));
        track->scale_values = test_calloc(KEYS, sizeof(vec3));
        memcpy(track->translation_times, times, sizeof times);
        memcpy(track->rotation_times, times, sizeof times);
        memcpy(track->scale_times, times, sizeof times);
        for (int k = 0; k < KEYS; k++) {
            float s = times[k] / 2.0f;
            glm_vec3_copy((vec3){0.2f * s, t == 0 ? 0.0f : 1.0f, -0.1f * s}, track->translation_values[k]);   /* a line */
            versor a, b;
            glm_quatv(a, 0.0f, (vec3){0, 0, 1});
            glm_quatv(b, 1.2f, (vec3){0, 0, 1});
            glm_quat_slerp(a, b, s, track->rotation_values[k]);   /* one arc */
            glm_vec3_one(track->scale_values[k]);
        }
    }
    /* joint 1: a bump in the middle of its rotation (must stay) */
    glm_quatv(m->clips[0].tracks[1].rotation_values[4], 0.3f, (vec3){1, 0, 0});
    /* joint 2: STEP scale with holds 1, 1, 1.5, 1.5, 1.5, 1, 1, 1, 1 */
    JointTrack *step = &m->clips[0].tracks[2];
    step->scale_interpolation = INTERPOLATION_STEP;
    for (int k = 0; k < KEYS; k++) glm_vec3_fill(step->scale_values[k], k >= 2 && k <= 4 ? 1.5f : 1.0f);
    /* joint 0: CUBICSPLINE scale (zero tangents) */
    JointTrack *cubic = &m->clips[0].tracks[0];
    cubic->scale_interpolation = INTERPOLATION_CUBICSPLINE;
    cubic->scale_tangents = test_calloc(2 * KEYS, sizeof(vec3));
}

static Clip copy_clip(const Clip *clip)
{
    Clip copy = *clip;
    copy.tracks = test_calloc((size_t)clip->track_count, sizeof(JointTrack));
    for (int t = 0; t < clip->track_count; t++) {
        const JointTrack *in = &clip->tracks[t];
        JointTrack *out = &copy.tracks[t];
        *out = *in;
        out->translation_times = memcpy(test_calloc(KEYS, sizeof(float)), in->translation_times, KEYS * sizeof(float));
        out->rotation_times = memcpy(test_calloc(KEYS, sizeof(float)), in->rotation_times, KEYS * sizeof(float));
        out->scale_times = memcpy(test_calloc(KEYS, sizeof(float)), in->scale_times, KEYS * sizeof(float));
        out->translation_values = memcpy(test_calloc(KEYS, sizeof(vec3)), in->translation_values, KEYS * sizeof(vec3));
        out->rotation_values = memcpy(test_calloc(KEYS, sizeof(versor)), in->rotation_values, KEYS * sizeof(versor));
        out->scale_values = memcpy(test_calloc(KEYS, sizeof(vec3)), in->scale_values, KEYS * sizeof(vec3));
        out->scale_tangents = in->scale_tangents ? memcpy(test_calloc(2 * KEYS, sizeof(vec3)), in->scale_tangents, 2 * KEYS * sizeof(vec3)) : NULL;
    }
    return copy;
}

static void free_clip(Clip *clip)
{
    for (int t = 0; t < clip->track_count; t++) joint_track_free(&clip->tracks[t]);
    free(clip->tracks);
}

static void test_hand_built(void)
{
    Model m;
    build_model(&m);
    Clip original = copy_clip(&m.clips[0]);
    float tolerance = 1e-5f;
    KeyReduceStats stats;
    CHECK(model_reduce_keys(&m, tolerance, &stats), "reduction runs");
    const JointTrack *t0 = &m.clips[0].tracks[0], *t1 = &m.clips[0].tracks[1], *t2 = &m.clips[0].tracks[2];
    CHECK(t0->translation_count == 2 && t2->translation_count == 2, "keys on a straight line: %d and %d left of %d",
          t0->translation_count, t2->translation_count, KEYS);
    CHECK(t0->rotation_count == 2 && t2->rotation_count == 2, "rotation keys on one slerp arc: %d and %d left",
          t0->rotation_count, t2->rotation_count);
    CHECK(t1->rotation_count >= 3, "a bump in the arc keeps its key (%d keys left)", t1->rotation_count);
    bool bump_kept = false;
    for (int k = 0; k < t1->rotation_count; k++) bump_kept = bump_kept || t1->rotation_times[k] == original.tracks[1].rotation_times[4];
    CHECK(bump_kept, "the bump key itself is among them");
    CHECK(t2->scale_count == 4 && t2->scale_times[1] == 0.35f && t2->scale_times[2] == 1.2f && t2->scale_times[3] == 2.0f,
          "STEP: repeated holds dropped, changes kept (%d keys: %g %g %g ...)", t2->scale_count, t2->scale_times[0],
          t2->scale_count > 1 ? t2->scale_times[1] : -1.0, t2->scale_count > 2 ? t2->scale_times[2] : -1.0);
    CHECK(t0->scale_count == KEYS && t0->scale_tangents != NULL, "CUBICSPLINE channel untouched (%d keys)", t0->scale_count);
    bool ends = true;
    for (int t = 0; t < 3; t++) {
        const JointTrack *track = &m.clips[0].tracks[t];
        ends = ends && track->translation_times[0] == 0.0f && track->translation_times[track->translation_count - 1] == 2.0f &&
               track->rotation_times[0] == 0.0f && track->rotation_times[track->rotation_count - 1] == 2.0f &&
               track->scale_times[0] == 0.0f && track->scale_times[track->scale_count - 1] == 2.0f;
    }
    CHECK(ends, "first and last keys of every channel kept");
    CHECK(stats.keys_before == 3 * 3 * KEYS && stats.keys_after == model_key_count(&m) && stats.keys_after < stats.keys_before,
          "stats: %ld keys -> %ld", stats.keys_before, stats.keys_after);
    double error = key_reduce_measure(&m, &original, &m.clips[0], 240);
    CHECK(error >= 0.0 && error <= 4.0 * tolerance * stats.diagonal,
          "measured pose change %.3g of the diagonal (tolerance %g)", error / stats.diagonal, tolerance);
    CHECK(key_reduce_measure(&m, &original, &original, 60) == 0.0, "an unchanged clip measures 0");
    free_clip(&original);
    model_free(&m);

    /* a tighter tolerance never keeps fewer keys; a very loose one keeps the ends only */
    long previous = 0;
    bool monotonic = true;
    for (int i = 0; i < 4; i++) {
        float loose = 1e-6f * powf(100.0f, (float)(3 - i));   /* 1, 1e-2, 1e-4, 1e-6 */
        build_model(&m);
        model_reduce_keys(&m, loose, &stats);
        if (i > 0 && stats.keys_after < previous) monotonic = false;
        previous = stats.keys_after;
        model_free(&m);
    }
    CHECK(monotonic, "tighter tolerance, no fewer keys");
}

static void test_real_models(void)
{
    static TestModel models[256];
    int count = test_present_skinned_models(models, 256);
    int checked = 0;
    long before = 0, after = 0;
    float worst = 0.0f;
    const char *worst_model = "";
    for (int i = 0; i < count; i++) {
        Model model;
        char error[512];
        ImportOptions options = {.quiet = true, .optimize_keys = KEY_REDUCE_DEFAULT_TOLERANCE, .measure_key_error = true};
        if (!import_model(models[i].path, &options, &model, error, sizeof error)) continue;   /* others report those */
        if (model.clip_count > 0) {
            CHECK(model.stats.key_error >= 0.0f && model.stats.key_error <= 1e-4f,
                  "%s: worst pose change %.3g of the diagonal (%d -> %d keys)", models[i].path, model.stats.key_error,
                  model.stats.keys_in_file, model.stats.keys);
            CHECK(model.stats.keys <= model.stats.keys_in_file && model.stats.keys == model_key_count(&model),
                  "%s: keys %d -> %d", models[i].path, model.stats.keys_in_file, model.stats.keys);
            if (model.stats.key_error > worst) worst = model.stats.key_error, worst_model = models[i].path;
            before += model.stats.keys_in_file, after += model.stats.keys;
            if (strstr(models[i].path, "Xbot") || strstr(models[i].path, "Fox.glb") || strstr(models[i].path, "CesiumMan"))
                printf("  %s: %d -> %d keys, worst pose change %.3g of the diagonal\n", models[i].path,
                       model.stats.keys_in_file, model.stats.keys, model.stats.key_error);
            checked++;
        }
        model_free(&model);
    }
    printf("%d animated models at tolerance %g: %ld -> %ld keys, worst pose change %.3g of the diagonal (%s)\n", checked,
           KEY_REDUCE_DEFAULT_TOLERANCE, before, after, worst, worst_model);
    CHECK(checked > 0, "some animated models checked");
}

int main(void)
{
    test_hand_built();
    test_real_models();
    return test_finish();
}
