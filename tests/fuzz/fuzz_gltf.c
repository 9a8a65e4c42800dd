/* fuzz_gltf.c — libFuzzer target for skinview's own glTF 2.0 reader (src/io/gltf/), no Assimp.
 *
 * Each input is one .gltf (JSON) or .glb file in memory, handed straight to the reader, whatever
 * its first bytes are (fuzz_import.c only sends what looks like glTF). It then goes the way every
 * glTF goes through skinview:
 *   gltf_import()        GLB chunks, JSON, data: URIs, accessors (every component type, sparse,
 *                        quantized), meshopt / Draco / WebP decoders, skins, morphs, animations
 *   model_validate()     the rules every import ends with
 *   animator_evaluate()  every clip (at most 8) at 0, 1/3, its end and past it, rest and bind poses
 *   animator_skin_mesh() every mesh on the CPU
 * and checks the reader's promises: a refusal is one line, and what validation lets through
 * skins to finite numbers. A broken promise aborts (a crash for libFuzzer). Files the model
 * points at are not read (from memory, external URIs give "cannot read").
 *
 * Built only with clang (cmake -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh builds and runs it).
 */
#include "anim/animator.h"
#include "io/gltf/gltf_import.h"
#include "io/validate.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(bool promise, const char *what)
{
    if (promise) return;
    fprintf(stderr, "fuzz_gltf: broken promise: %s\n", what);
    abort();
}

static void require_finite(const float *values, size_t count, const char *what)
{
    for (size_t i = 0; i < count; i++) check(isfinite(values[i]), what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Model model;
    memset(&model, 0, sizeof model);
    char error[512] = "";
    bool version_1 = false;
    bool read = gltf_import(NULL, data, size, 0, NULL, &model, &version_1, error, sizeof error);
    if (read) {
        error[0] = '\0';
        int repairs = 0;
        read = model_validate(&model, NULL, &repairs, error, sizeof error);
    }
    if (!read) {
        check(version_1 || (error[0] != '\0' && strchr(error, '\n') == NULL), "a refusal is one line");
        model_free(&model);
        return 0;
    }
    Animator animator;
    if (!animator_init(&animator, &model)) {
        model_free(&model);
        return 0;
    }
    int most_vertices = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > most_vertices) most_vertices = model.meshes[m].vertex_count;
    vec3 *positions = malloc(sizeof(vec3) * (size_t)most_vertices);
    vec3 *normals = malloc(sizeof(vec3) * (size_t)most_vertices);
    int clips = model.clip_count < 8 ? model.clip_count : 8;
    for (int c = ANIMATOR_BIND_POSE; positions && normals && c < clips; c++) {   /* bind, rest, then clips */
        float duration = c >= 0 ? model.clips[c].duration : 0.0f;
        const float times[4] = {0.0f, duration / 3.0f, duration, duration + 1.0f};
        for (int t = 0; t < (c >= 0 ? 4 : 1); t++) {
            animator_evaluate(&animator, c, times[t]);
            require_finite(&animator.joint_model[0][0][0], (size_t)model.skeleton.joint_count * 16, "joint matrix");
            for (int m = 0; m < model.mesh_count; m++) {
                animator_skin_mesh(&animator, m, positions, normals);
                require_finite(&positions[0][0], (size_t)model.meshes[m].vertex_count * 3, "skinned position");
                require_finite(&normals[0][0], (size_t)model.meshes[m].vertex_count * 3, "skinned normal");
            }
        }
    }
    free(positions);
    free(normals);
    animator_free(&animator);
    model_free(&model);
    return 0;
}
