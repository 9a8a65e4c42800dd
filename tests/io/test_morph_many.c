/* test_morph_many.c — more active morph targets than the shader's list holds (the CPU against the sum by hand, the
 * GPU against the CPU), and the Khronos SimpleMorph sample against the glTF tutorial's numbers. Part of
 * the program test_morph (morph_fixture.h). */
#include "morph_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* More active targets than the shader's list holds (RENDERER_MAX_MORPH_ACTIVE = 64): the quad with
 * MANY_TARGETS targets, every weight keyed non-zero at 0 s and 1 s. The CPU must match the sum by
 * hand and the GPU (which then sums them on the CPU into one spare target) the CPU. */
#define MANY_TARGETS 70

static void many_delta(int t, int v, float out[3])
{
    out[0] = 0.05f * sinf((float)(t + 3 * v));
    out[1] = 0.05f * cosf(1.3f * (float)t + (float)v);
    out[2] = 0.01f * (float)(t % 7) - 0.03f;
}

static float many_weight(int key, int t) { return key == 0 ? 0.5f + 0.01f * (float)t : 1.0f - 0.01f * (float)t; }

void check_many_targets(void)
{
    char gltf[512], bin[512];
    snprintf(gltf, sizeof gltf, "%s/many.gltf", temp_dir);
    snprintf(bin, sizeof bin, "%s/many.bin", temp_dir);
    /* buffer: positions, normals, indices, times, weights, then one position-delta block per target */
    size_t target_offset = 48 + 48 + 12 + 8 + 8 * MANY_TARGETS;
    size_t size = target_offset + 48 * MANY_TARGETS;
    unsigned char *blob = calloc(1, size);
    float normals[4][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    float times[2] = {0, 1};
    memcpy(blob, stored, 48);
    memcpy(blob + 48, normals, 48);
    memcpy(blob + 96, indices, 12);
    memcpy(blob + 108, times, 8);
    float *weights = (float *)(blob + 116);
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < MANY_TARGETS; t++) weights[k * MANY_TARGETS + t] = many_weight(k, t);
    for (int t = 0; t < MANY_TARGETS; t++)
        for (int v = 0; v < 4; v++) many_delta(t, v, (float *)(blob + target_offset + 48 * (size_t)t) + 3 * v);
    FILE *out = fopen(bin, "wb");
    bool ok = out && fwrite(blob, 1, size, out) == size;
    if (out) ok = fclose(out) == 0 && ok;
    free(blob);
    out = ok ? fopen(gltf, "w") : NULL;
    CHECK(out != NULL, "cannot write %s", gltf);
    if (!out) return;
    fprintf(out, "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"uri\": \"many.bin\", \"byteLength\": %zu}],\n",
            size);
    fprintf(out, "\"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 48}, {\"buffer\": 0, "
                 "\"byteOffset\": 48, \"byteLength\": 48}, {\"buffer\": 0, \"byteOffset\": 96, \"byteLength\": 12}, "
                 "{\"buffer\": 0, \"byteOffset\": 108, \"byteLength\": 8}, {\"buffer\": 0, \"byteOffset\": 116, "
                 "\"byteLength\": %d}", 8 * MANY_TARGETS);
    for (int t = 0; t < MANY_TARGETS; t++)
        fprintf(out, ", {\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": 48}", target_offset + 48 * (size_t)t);
    fprintf(out, "],\n\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\", "
                 "\"min\": [0, 0, 0], \"max\": [1, 1, 0]}, {\"bufferView\": 1, \"componentType\": 5126, \"count\": 4, "
                 "\"type\": \"VEC3\"}, {\"bufferView\": 2, \"componentType\": 5123, \"count\": 6, \"type\": \"SCALAR\"}, "
                 "{\"bufferView\": 3, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\", \"min\": [0], "
                 "\"max\": [1]}, {\"bufferView\": 4, \"componentType\": 5126, \"count\": %d, \"type\": \"SCALAR\"}",
            2 * MANY_TARGETS);
    for (int t = 0; t < MANY_TARGETS; t++)
        fprintf(out, ", {\"bufferView\": %d, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\", \"min\": [-1, -1, "
                     "-1], \"max\": [1, 1, 1]}", 5 + t);
    fprintf(out, "],\n\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0, \"NORMAL\": 1}, \"indices\": 2, "
                 "\"targets\": [");
    for (int t = 0; t < MANY_TARGETS; t++) fprintf(out, "%s{\"POSITION\": %d}", t ? ", " : "", 5 + t);
    fprintf(out, "]}]}],\n\"nodes\": [{\"name\": \"Many\", \"mesh\": 0}], \"scenes\": [{\"nodes\": [0]}], \"scene\": 0,\n");
    fprintf(out, "\"animations\": [{\"samplers\": [{\"input\": 3, \"output\": 4}], \"channels\": [{\"sampler\": 0, "
                 "\"target\": {\"node\": 0, \"path\": \"weights\"}}]}]}\n");
    CHECK(fclose(out) == 0, "cannot write %s", gltf);

    Model model;
    char error[512];
    ImportOptions options = {0};
    ok = import_model(gltf, &options, &model, error, sizeof error);
    CHECK(ok, "many targets: import failed: %s", error);
    if (!ok) return;
    if (model.mesh_count == 1 && model.meshes[0].morph_target_count == MANY_TARGETS && model.clip_count == 1) {
        Animator animator;
        animator_init(&animator, &model);
        animator_evaluate(&animator, 0, 0.5f);
        CHECK(animator.morph.meshes[0].active_count == MANY_TARGETS, "many targets: %d active",
              animator.morph.meshes[0].active_count);
        vec3 posed[4];
        animator_skin_mesh(&animator, 0, posed, NULL);
        float worst = 0.0f;
        for (int v = 0; v < 4; v++) {
            int source = stored_vertex(model.meshes[0].positions[v]);
            float want[3] = {stored[source < 0 ? 0 : source][0], stored[source < 0 ? 0 : source][1], 0.0f};
            for (int t = 0; t < MANY_TARGETS; t++) {
                float d[3], w = 0.5f * (many_weight(0, t) + many_weight(1, t));
                many_delta(t, source < 0 ? 0 : source, d);
                for (int i = 0; i < 3; i++) want[i] += w * d[i];
            }
            worst = fmaxf(worst, source < 0 ? INFINITY : distance3(posed[v], want));
        }
        CHECK(worst <= 1e-5f, "many targets at 0.5 s: off by %g", worst);
        animator_free(&animator);
    } else {
        CHECK(false, "many targets: 1 mesh with %d targets and 1 clip expected", MANY_TARGETS);
    }
    model_free(&model);

    char output[8192];
    test_verify("many targets", gltf, "", output, sizeof output);
    const char *line = strstr(output, "verify passed");
    if (line) printf("%d targets active: %.*s\n", MANY_TARGETS, (int)strcspn(line, "\n"), line);
}

void check_simple_morph(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/khronos-simplemorph/SimpleMorph.gltf", SKINVIEW_SHARED_MODELS_DIR);
    if (!test_file_exists(path)) {
        printf("SimpleMorph not present, skipped\n");
        return;
    }
    Model model;
    if (!test_import(path, NULL, &model)) return;
    CHECK(model.mesh_count == 1 && model.meshes[0].morph_target_count == 2 && model.clip_count == 1,
          "%s: 1 mesh with 2 targets and 1 clip expected", path);
    if (model.mesh_count == 1 && model.meshes[0].morph_target_count == 2 && model.clip_count == 1 &&
        model.meshes[0].vertex_count == 3) {
        Animator animator;
        animator_init(&animator, &model);
        static const struct { int clip; float time; float x, y; } expect[] = {
            {ANIMATOR_REST_POSE, 0, 0.5f, 1.5f}, {0, 0, 0.5f, 0.5f},   {0, 1, 1.5f, 1.5f}, {0, 2, 0.5f, 2.5f},
            {0, 2.5f, 0.0f, 2.0f},                {0, 3, -0.5f, 1.5f}, {0, 4, 0.5f, 0.5f},
        };
        for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
            animator_evaluate(&animator, expect[i].clip, expect[i].time);
            vec3 p[3];
            animator_skin_mesh(&animator, 0, p, NULL);
            /* the top vertex is the one that is neither (0,0,0) nor (1,0,0) in the stored mesh */
            int top = 0;
            for (int v = 0; v < 3; v++)
                if (model.meshes[0].positions[v][1] > 0.25f) top = v;
            float want[3] = {expect[i].x, expect[i].y, 0.0f};
            CHECK(distance3(p[top], want) <= 1e-6f, "SimpleMorph clip %d at %g s: top vertex (%g, %g), expected (%g, %g)",
                  expect[i].clip, expect[i].time, p[top][0], p[top][1], want[0], want[1]);
        }
        animator_free(&animator);
    }
    model_free(&model);
}
