/* test_export_gltf_roundtrip — gltf_export() (src/io/gltf_export.c) read back by skinview's own glTF reader
 * poses like the model it was written from.
 *
 * For every animated model of ../shared/models (skipped when absent), a selection of assimp-testmodels
 * (X, BVH, Collada, SMD, glTF) and tests/data/export/interpolation.gltf (STEP and CUBICSPLINE joints and
 * morph weights): import, export as GLB (and for a few as meshopt GLB and as .gltf), import the
 * export with keep_vertex_order (the writer keeps the vertex order), then for the rest pose and every clip at
 * 0, 1/3, 2/3, the end, at the first keys and halfway between them, pose both with an Animator and compare
 * every vertex of every mesh (paired by GltfExportReport.mesh_order): the worst distance over the bind-pose
 * diagonal must be <= 1e-4. Also: the clip count, names and durations (1e-5 s), every morph target weight
 * (1e-5), skinned / static per mesh. One line per model: the table docs/export.md quotes.
 * Last, the command line: skinview MODEL --export-gltf OUT.glb --check-export exits 0 and prints a line per clip. */
#include "testutil.h"

#include "anim/animator.h"
#include "anim/key_reduce.h"
#include "io/gltf_write.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOLERANCE 1e-4

typedef struct Case {
    const char *path;     /* relative to its directory */
    bool        shared;   /* ../shared/models, else assimp-testmodels (or the source tree: "tests/...") */
    bool        variants; /* also meshopt GLB and .gltf */
} Case;

static const Case cases[] = {
    /* every glTF sampler kind on joints and morph weights, a clip starting at 0.5 s (make_interpolation.py) */
    {"tests/data/export/interpolation.gltf", false, true},
    {"khronos-cesiumman/cesium_man.gltf", true, true},
    {"khronos-fox/Fox.glb", true, false},
    {"khronos-animatedmorphcube/AnimatedMorphCube.glb", true, true},
    {"khronos-simplemorph/SimpleMorph.gltf", true, false},
    {"khronos-simpleskin/SimpleSkin.gltf", true, false},
    {"khronos-riggedfigure/RiggedFigure.glb", true, false},
    {"gltf-asset-generator/Animation_SamplerType_01.gltf", true, false},
    {"gltf-asset-generator/Animation_SkinType_01.gltf", true, false},
    {"gltf-asset-generator/Animation_Skin_11.gltf", true, false},
    {"threejs-xbot/Xbot.glb", true, true},
    {"threejs-mixamo-fbx/mixamo.fbx", true, false},
    {"quaternius-male-casual/Male_Casual.fbx", true, false},
    {"quaternius-wizard/Wizard.glb", true, true},
    {"ufbx-dcc/maya_transformed_skin_7700_binary.fbx", true, true},
    {"ufbx-dcc/maya_blend_inbetween_7500_binary.fbx", true, true},
    {"ufbx-dcc/maya_game_sausage_7500_binary_wiggle.fbx", true, false},
    {"ufbx-dcc/maya_pivots_7500_binary.fbx", true, false},
    {"ufbx-dcc/maya_mixed_inherit_mode_7700_ascii.fbx", true, false},
    {"ufbx-dcc/maya_extrapolate_cube_7700_binary.fbx", true, false},
    {"ufbx-dcc/max_geometry_transform_7700_binary.fbx", true, false},
    {"ufbx-dcc/blender_331_static_blend_shape_7400_binary.fbx", true, false},
    {"X/anim_test.x", false, false},
    {"X/BCN_Epileptic.X", false, false},
    {"BVH/01_01.bvh", false, false},
    {"Collada/anims_with_full_rotations_between_keys.DAE", false, false},
    {"Collada/box_nested_animation.dae", false, false},
    {"glTF2/simple_skin/simple_skin.gltf", false, false},
    {"SMD/triangle.smd", false, false},
    {"MS3D/jeep1.ms3d", false, false},
};

enum { MAX_KEY_TIMES = 400 };   /* per clip: the first keys and their midpoints (enough to cross every kind) */

/* The times to pose clip c at: 0, 1/3, 2/3, end, the first key times of every channel and their midpoints. */
static int clip_times(const Clip *clip, float *times, int capacity)
{
    int n = 0;
    times[n++] = 0, times[n++] = clip->duration / 3, times[n++] = 2 * clip->duration / 3, times[n++] = clip->duration;
    const float *keys = NULL;
    int count = 0;
    for (int i = 0; i < clip->track_count && !keys; i++) {   /* the first track's densest channel */
        const JointTrack *t = &clip->tracks[i];
        if (t->rotation_count > 1) keys = t->rotation_times, count = t->rotation_count;
        else if (t->translation_count > 1) keys = t->translation_times, count = t->translation_count;
    }
    if (!keys && clip->morph_track_count > 0) keys = clip->morph_tracks[0].times, count = clip->morph_tracks[0].key_count;
    for (int k = 0; k < count && n + 2 <= capacity; k++) {
        times[n++] = keys[k] - clip->start;
        if (k + 1 < count) times[n++] = 0.5f * (keys[k] + keys[k + 1]) - clip->start;
    }
    return n;
}

static mat4 to_gltf;   /* the model's scene space -> the export's (gltf_export_axes) */

static double pose_worst(Animator *a, int clip_a, Animator *b, int clip_b, float time, const int *order, vec3 *pa, vec3 *pb,
                         double *weight_worst)
{
    animator_evaluate(a, clip_a, time);
    animator_evaluate(b, clip_b, time);
    double worst = 0;
    for (int m = 0; m < a->model->mesh_count; m++) {
        const Mesh *mesh = &a->model->meshes[m];
        animator_skin_mesh(a, m, pa, NULL);
        animator_skin_mesh(b, order[m], pb, NULL);
        for (int v = 0; v < mesh->vertex_count; v++) {
            glm_mat4_mulv3(to_gltf, pa[v], 1.0f, pa[v]);
            double d = sqrt(pow(pa[v][0] - pb[v][0], 2) + pow(pa[v][1] - pb[v][1], 2) + pow(pa[v][2] - pb[v][2], 2));
            if (!(d <= worst)) worst = d;
        }
        for (int t = 0; t < mesh->morph_target_count; t++) {
            double d = fabs(a->morph.weights[m][t] - b->morph.weights[order[m]][t]);
            if (!(d <= *weight_worst)) *weight_worst = d;
        }
    }
    return worst;
}

/* Export `model` to out_path, read it back, compare. Returns the worst relative distance (or -1). */
static double roundtrip(const char *label, const Model *model, const char *out_path, bool meshopt, double *seconds,
                        size_t *bytes)
{
    GltfExportReport report = {0};
    report.clip_animation = calloc((size_t)model->clip_count + 1, sizeof(int));
    report.mesh_order = calloc((size_t)model->mesh_count + 1, sizeof(int));
    GltfExportOptions options = {.meshopt = meshopt};
    char error[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool written = gltf_export(model, out_path, &options, &report, error, sizeof error);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    *bytes = report.bytes;
    CHECK(written, "%s: export failed: %s", label, error);
    Model back = {0};
    ImportOptions import_options = {.quiet = true, .keep_vertex_order = true};
    bool read = written && import_model(out_path, &import_options, &back, error, sizeof error);
    CHECK(!written || read, "%s: the export does not read back: %s", label, error);
    double result = -1;
    if (read) {
        CHECK(back.mesh_count == model->mesh_count, "%s: %d meshes back, %d written", label, back.mesh_count,
              model->mesh_count);
        bool same = back.mesh_count == model->mesh_count;
        int largest = 1;
        for (int m = 0; same && m < model->mesh_count; m++) {
            const Mesh *a = &model->meshes[m], *b = &back.meshes[report.mesh_order[m]];
            same = a->vertex_count == b->vertex_count && a->index_count == b->index_count &&
                   (a->skinned && a->bone_count > 0) == (b->skinned && b->bone_count > 0) &&
                   a->morph_target_count == b->morph_target_count;
            CHECK(same, "%s: mesh %d (%s) reads back different", label, m, a->name);
            if (a->vertex_count > largest) largest = a->vertex_count;
            for (int t = 0; same && t < a->morph_target_count && a->morph_target_names; t++)
                CHECK(strcmp(a->morph_target_names[t], b->morph_target_names[t]) == 0, "%s: morph target %d named '%s', not '%s'",
                      label, t, b->morph_target_names[t], a->morph_target_names[t]);
        }
        int animations = 0;
        for (int c = 0; c < model->clip_count; c++) animations += report.clip_animation[c] >= 0;
        CHECK(back.clip_count == animations, "%s: %d clips back, %d written", label, back.clip_count, animations);
        same = same && back.clip_count == animations;
        Animator a, b;
        vec3 *pa = malloc(sizeof(vec3) * (size_t)largest), *pb = malloc(sizeof(vec3) * (size_t)largest);
        if (same && pa && pb && animator_init(&a, model)) {
            if (animator_init(&b, &back)) {
                gltf_export_axes(model, to_gltf);
                double diagonal = model_bind_diagonal(model) * glm_vec3_norm(to_gltf[0]), worst = 0, weights = 0;
                worst = pose_worst(&a, ANIMATOR_REST_POSE, &b, ANIMATOR_REST_POSE, 0, report.mesh_order, pa, pb, &weights);
                for (int c = 0; c < model->clip_count; c++) {
                    int k = report.clip_animation[c];
                    if (k < 0) continue;
                    const Clip *clip = &model->clips[c], *clip_back = &back.clips[k];
                    CHECK(strcmp(clip->name, clip_back->name) == 0, "%s: clip '%s' reads back as '%s'", label, clip->name,
                          clip_back->name);
                    CHECK(fabsf(clip->duration - clip_back->duration) <= 1e-5f * fmaxf(1, clip->duration),
                          "%s: clip '%s' lasts %.6f s, %.6f s back", label, clip->name, clip->duration, clip_back->duration);
                    CHECK(clip_back->start == 0.0f, "%s: clip '%s' starts at %g s back (0 expected)", label, clip->name,
                          clip_back->start);
                    float times[2 * MAX_KEY_TIMES + 8];
                    int n = clip_times(clip, times, 2 * MAX_KEY_TIMES + 8);
                    for (int i = 0; i < n; i++) {
                        double d = pose_worst(&a, c, &b, k, times[i], report.mesh_order, pa, pb, &weights);
                        if (!(d <= worst)) worst = d;
                    }
                }
                result = worst / diagonal;
                CHECK(result <= TOLERANCE, "%s: worst vertex %.3e of the diagonal > %.0e", label, result, TOLERANCE);
                CHECK(weights <= 1e-5, "%s: a morph weight off by %.3e", label, weights);
                animator_free(&b);
            }
            animator_free(&a);
        }
        free(pa);
        free(pb);
        model_free(&back);
    }
    free(report.clip_animation);
    free(report.mesh_order);
    return result;
}

int main(void)
{
    int done = 0;
    printf("  %-58s %-9s %10s %10s %9s\n", "model", "form", "worst/diag", "bytes", "export s");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s",
                 cases[i].shared                                ? SKINVIEW_SHARED_MODELS_DIR
                 : strncmp(cases[i].path, "tests/", 6) == 0     ? SKINVIEW_SOURCE_DIR
                                                                : SKINVIEW_TESTMODELS_DIR,
                 cases[i].path);
        if (access(path, R_OK) != 0) {
            printf("  %-58s skipped: absent\n", cases[i].path);
            continue;
        }
        Model model = {0};
        char error[512];
        ImportOptions options = {.quiet = true};
        bool loaded = import_model(path, &options, &model, error, sizeof error);
        CHECK(loaded, "%s does not load: %s", cases[i].path, error);
        if (!loaded) continue;
        static const char *const forms[] = {"glb", "meshopt", "gltf"};
        for (int f = 0; f < (cases[i].variants ? 3 : 1); f++) {
            char out[256];
            snprintf(out, sizeof out, "/tmp/skinview_roundtrip_%d.%s", (int)getpid(), f == 2 ? "gltf" : "glb");
            double seconds = 0;
            size_t bytes = 0;
            double worst = roundtrip(cases[i].path, &model, out, f == 1, &seconds, &bytes);
            printf("  %-58s %-9s %10.3e %10zu %9.3f\n", cases[i].path, forms[f], worst, bytes, seconds);
            unlink(out);
            if (f == 2) {   /* the .gltf's companions */
                char other[300];
                snprintf(other, sizeof other, "/tmp/skinview_roundtrip_%d.bin", (int)getpid());
                unlink(other);
                for (int t = 0; t < model.texture_count + 1; t++) {
                    snprintf(other, sizeof other, "/tmp/skinview_roundtrip_%d_image%d.png", (int)getpid(), t);
                    unlink(other);
                }
            }
        }
        model_free(&model);
        done++;
    }
    if (done == 0) {
        printf("skipped: no model found\n");
        return TEST_SKIP_CODE;
    }
    /* the command line: --check-export on a skinned, animated model with morph targets nowhere else: Fox */
    char fox[2048], command[4096], out[256];
    static char output[1 << 16];
    snprintf(fox, sizeof fox, "%s/khronos-fox/Fox.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (access(fox, R_OK) != 0) snprintf(fox, sizeof fox, "%s/glTF2/simple_skin/simple_skin.gltf", SKINVIEW_TESTMODELS_DIR);
    snprintf(out, sizeof out, "/tmp/skinview_roundtrip_cli_%d.glb", (int)getpid());
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' --check-export --quiet 2>&1", SKINVIEW_BINARY, fox, out);
    int rc = test_run_capture(command, output, sizeof output);
    printf("%s", output);
    CHECK(rc == 0, "--check-export exit %d", rc);
    CHECK(strstr(output, "(rest pose)") && strstr(output, " ok"), "--check-export printed no clip line");
    CHECK(!strstr(output, "FAILED"), "--check-export reported a failure");
    unlink(out);
    return test_finish();
}
