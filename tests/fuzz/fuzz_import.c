/* fuzz_import.c — libFuzzer target: bytes -> import -> validation -> animation -> CPU skinning.
 *
 * Each input is one model file in memory. Its format hint comes from its first bytes (as a
 * file name's extension would), then the whole path a file takes through skinview runs on it:
 *   import_model_from_memory()  Assimp (aiImportFileFromMemory) + our stages + validate.h,
 *                               on the 1 GiB-stack thread
 *   animator_evaluate()         every clip (at most 8) at 0, 1/3, the end and past the end,
 *                               plus the rest and bind poses
 *   animator_skin_mesh()        every mesh, CPU linear blend skinning (with morph targets)
 * and checks that what comes out is finite: validation promises the animation path only ever
 * sees usable data, so a NaN here is a validation bug and aborts (a crash for libFuzzer).
 *
 * Built only with clang (cmake -DSKINVIEW_FUZZ=ON, see tests/robust.cmake and scripts/fuzz.sh):
 *   clang -fsanitize=fuzzer,address,undefined
 */
#include "anim/animator.h"
#include "io/import.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts_with(const uint8_t *data, size_t size, const char *prefix)
{
    size_t n = strlen(prefix);
    return size >= n && memcmp(data, prefix, n) == 0;
}

static bool contains(const uint8_t *data, size_t size, size_t limit, const char *word)
{
    size_t n = strlen(word);
    if (size > limit) size = limit;
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, word, n) == 0) return true;
    return false;
}

/* The extension Assimp would see on a file with these first bytes ("" = let Assimp guess). */
static const char *format_hint(const uint8_t *data, size_t size)
{
    if (starts_with(data, size, "glTF")) return "glb";
    if (starts_with(data, size, "Kaydara FBX Binary")) return "fbx";
    if (starts_with(data, size, "xof ")) return "x";
    if (starts_with(data, size, "MS3D000000")) return "ms3d";
    if (starts_with(data, size, "BB3D")) return "b3d";
    if (starts_with(data, size, "INTERQUAKEMODEL")) return "iqm";
    if (starts_with(data, size, "MD5Version") || contains(data, size, 256, "MD5Version")) return "md5mesh";
    if (contains(data, size, 512, "COLLADA")) return "dae";
    if (contains(data, size, 512, "FBXHeaderExtension") || starts_with(data, size, "; FBX")) return "fbx";
    if (contains(data, size, 512, "\"asset\"") || starts_with(data, size, "{")) return "gltf";
    if (starts_with(data, size, "version 1")) return "smd";
    if (starts_with(data, size, "ply")) return "ply";
    if (starts_with(data, size, "solid")) return "stl";
    if (contains(data, size, 256, "\nv ") || starts_with(data, size, "v ") || starts_with(data, size, "# ")) return "obj";
    return "";
}

static void require_finite(const float *values, size_t count, const char *what)
{
    for (size_t i = 0; i < count; i++)
        if (!isfinite(values[i])) {
            fprintf(stderr, "fuzz_import: non-finite %s after validation\n", what);
            abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Model model;
    char error[512];
    ImportOptions options = {.max_bones_per_mesh = 0, .quiet = true};
    if (!import_model_from_memory(data, size, format_hint(data, size), &options, &model, error, sizeof error))
        return 0;   /* rejected with a message: fine */

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
    for (int c = -2; positions && normals && c < clips; c++) {   /* -2 bind pose, -1 rest pose, then clips */
        float duration = c >= 0 ? model.clips[c].duration : 0.0f;
        const float times[4] = {0.0f, duration / 3.0f, duration, duration + 1.0f};
        for (int t = 0; t < (c >= 0 ? 4 : 1); t++) {
            animator_evaluate(&animator, c, times[t]);
            require_finite(&animator.joint_model[0][0][0], (size_t)model.skeleton.joint_count * 16, "joint matrix");
            for (int m = 0; m < model.mesh_count; m++) {
                animator_skin_mesh(&animator, m, positions, normals);
                require_finite(&positions[0][0], (size_t)model.meshes[m].vertex_count * 3, "skinned position");
            }
        }
    }
    free(positions);
    free(normals);
    animator_free(&animator);
    model_free(&model);
    return 0;
}
