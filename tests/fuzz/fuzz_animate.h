/* fuzz_animate.h — what every fuzz target does with a model that validation let through: the
 * animation path must only ever see usable data, so a NaN here is a validation bug and aborts
 * (a crash for libFuzzer). Included by fuzz_import.c and fuzz_gltf.c (one translation unit each). */
#ifndef SKINVIEW_FUZZ_ANIMATE_H
#define SKINVIEW_FUZZ_ANIMATE_H

#include "anim/animator.h"
#include "io/gltf_write.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void fuzz_require_finite(const float *values, size_t count, const char *what)
{
    for (size_t i = 0; i < count; i++)
        if (!isfinite(values[i])) {
            fprintf(stderr, "fuzz: non-finite %s after validation\n", what);
            abort();
        }
}

/* Every clip (at most 8) at 0, 1/3, its end and past it, plus the bind and rest poses; every
 * mesh CPU-skinned at each; joints and vertices must stay finite. Frees nothing of the model. */
static void fuzz_animate(const Model *model)
{
    Animator animator;
    if (!animator_init(&animator, model)) return;
    int most_vertices = 1;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > most_vertices) most_vertices = model->meshes[m].vertex_count;
    vec3 *positions = malloc(sizeof(vec3) * (size_t)most_vertices);
    vec3 *normals = malloc(sizeof(vec3) * (size_t)most_vertices);
    int clips = model->clip_count < 8 ? model->clip_count : 8;
    for (int c = ANIMATOR_BIND_POSE; positions && normals && c < clips; c++) {   /* bind, rest, then clips */
        float duration = c >= 0 ? model->clips[c].duration : 0.0f;
        const float times[4] = {0.0f, duration / 3.0f, duration, duration + 1.0f};
        for (int t = 0; t < (c >= 0 ? 4 : 1); t++) {
            animator_evaluate(&animator, c, times[t]);
            fuzz_require_finite(&animator.joint_model[0][0][0], (size_t)model->skeleton.joint_count * 16, "joint matrix");
            for (int m = 0; m < model->mesh_count; m++) {
                animator_skin_mesh(&animator, m, positions, normals);
                fuzz_require_finite(&positions[0][0], (size_t)model->meshes[m].vertex_count * 3, "skinned position");
                fuzz_require_finite(&normals[0][0], (size_t)model->meshes[m].vertex_count * 3, "skinned normal");
            }
        }
    }
    free(positions);
    free(normals);
    animator_free(&animator);
}

/* The glTF export of whatever validation let through (issue 26): written (GLB, meshopt GLB, DQ correctives), read
 * back by skinview's own reader and animated like the original. A file the writer wrote that the reader
 * refuses, or a non-finite number after the round trip, is a bug: abort. */
static void fuzz_export(const Model *model)
{
    char path[64], error[512];
    snprintf(path, sizeof path, "/tmp/skinview_fuzz_export_%d.glb", (int)getpid());
    int vertices = 0;
    for (int m = 0; m < model->mesh_count; m++) vertices += model->meshes[m].vertex_count;
    /* pass 0: GLB; 1: meshopt GLB; 2: dual-quaternion skinning written as LBS + corrective morph targets
     * (gltf_write_dq.c), on models small enough for the fuzzer's pace */
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 2 && vertices > 4096) break;
        GltfExportReport report = {0};
        GltfExportOptions options = {.meshopt = pass == 1, .max_influences = SV_MAX_INFLUENCES_KEPT,
                                     .skinning = pass == 2 ? SKINNING_GPU_DQ : SKINNING_GPU_LBS};
        if (!gltf_export(model, path, &options, &report, error, sizeof error)) return;   /* refused with a line: fine */
        Model back = {0};
        ImportOptions import_options = {.quiet = true, .keep_vertex_order = true, .max_influences = SV_MAX_INFLUENCES_KEPT};
        bool read = import_model(path, &import_options, &back, error, sizeof error);
        unlink(path);
        if (!read) {
            fprintf(stderr, "fuzz: the export does not read back: %s\n", error);
            abort();
        }
        fuzz_animate(&back);
        model_free(&back);
    }
}

#endif
