/* test_morph_interpolation — glTF morph weights as the file states them (src/io/gltf/gltf_anim.c):
 * STEP and CUBICSPLINE `weights` samplers, and a node's own `weights`.
 *
 * The glTF this test writes: a triangle with 2 morph targets, mesh.weights [0.1, 0.2], on three
 * nodes, and a second mesh with TWO primitives (two skinview meshes) sharing the same data:
 *   node 0 "StepNode"    (mesh Tri, at x = 0):  weights channel, STEP, keys at 0, 1, 2 s
 *   node 1 "CubicNode"   (mesh TwoPrims, x = 5): weights channel, CUBICSPLINE, keys at 0, 1, 3 s
 *                         (unequal intervals, non-zero tangents, a negative weight)
 *   node 2 "WeightsNode" (mesh Tri, x = 10): node.weights [0.7, -0.3], which override mesh.weights
 * Checked against hand-computed values: the sampled weights (STEP holds key k until key k+1;
 * CUBICSPLINE follows the glTF spec's Hermite formula, Appendix C, evaluated here independently
 * and, for one point, worked out by hand in the comment), the morphed scene-space positions of
 * every skinview mesh, the rest pose (no clip: WeightsNode uses the node's weights, the others the
 * mesh's), `--export-pose`, `--info` (the clip's interpolation kinds) and `--verify` (GPU = CPU). */
#include "anim/animator.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char temp_dir[256];

static const float stored[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
static const float delta[2][3][3] = {{{0, 0, 0}, {1, 0, 0}, {0, 0, 0}},     /* target 0: stretches x */
                                     {{0, 0, 0}, {0, 0, 0}, {0, 0, 2}}};    /* target 1: lifts the top */
static const float mesh_weights[2] = {0.1f, 0.2f};
static const float node_weights[2] = {0.7f, -0.3f};
static const float node_x[3] = {0.0f, 5.0f, 10.0f};

/* STEP sampler: keys (t, w0, w1) */
static const float step_times[3] = {0, 1, 2};
static const float step_values[3][2] = {{0.0f, 0.5f}, {1.0f, 0.25f}, {0.5f, 1.0f}};

/* CUBICSPLINE sampler: per key, per target: in-tangent a, value v, out-tangent b (the file stores
 * a of both targets, v of both, b of both, key after key) */
static const float cubic_times[3] = {0, 1, 3};
static const float cubic_in[3][2] = {{0.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}};
static const float cubic_value[3][2] = {{0.0f, 0.5f}, {1.0f, -0.5f}, {0.25f, 0.0f}};
static const float cubic_out[3][2] = {{2.0f, 0.0f}, {0.5f, -1.0f}, {0.0f, 0.0f}};

/* glTF 2.0 Appendix C: with s = (t - t_k) / dt, dt = t_k+1 - t_k,
 *   p = (2s^3 - 3s^2 + 1) v_k + (s^3 - 2s^2 + s) dt b_k + (-2s^3 + 3s^2) v_k+1 + (s^3 - s^2) dt a_k+1
 * By hand for target 0 at 0.5 s (k = 0, dt = 1, s = 0.5): 0.5 * 0 + 0.125 * 1 * 2 + 0.5 * 1 + (-0.125) * 0
 * = 0.75. */
static float cubic_weight(int target, float t)
{
    if (t <= cubic_times[0]) return cubic_value[0][target];
    if (t >= cubic_times[2]) return cubic_value[2][target];
    int k = t < cubic_times[1] ? 0 : 1;
    float dt = cubic_times[k + 1] - cubic_times[k], s = (t - cubic_times[k]) / dt;
    float s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * cubic_value[k][target] + (s3 - 2 * s2 + s) * dt * cubic_out[k][target] +
           (-2 * s3 + 3 * s2) * cubic_value[k + 1][target] + (s3 - s2) * dt * cubic_in[k + 1][target];
}

static float step_weight(int target, float t)
{
    int k = 0;
    while (k < 2 && t >= step_times[k + 1]) k++;   /* the last key at or before t holds */
    return step_values[k][target];
}

/* Weights of node n at clip time t (t < 0: the rest pose, no clip). */
static void weights_of_node(int n, float t, float w[2])
{
    for (int i = 0; i < 2; i++) {
        if (n == 2) w[i] = node_weights[i];   /* not animated: its node's weights, clip or not */
        else if (t < 0.0f) w[i] = mesh_weights[i];
        else w[i] = n == 0 ? step_weight(i, t) : cubic_weight(i, t);
    }
}

static void expected_position(int n, int v, const float w[2], float out[3])
{
    for (int i = 0; i < 3; i++) out[i] = stored[v][i] + w[0] * delta[0][v][i] + w[1] * delta[1][v][i];
    out[0] += node_x[n];
}

/* ---- writing the glTF --------------------------------------------------------- */

static bool write_gltf(const char *path_gltf, const char *bin_name, const char *path_bin)
{
    /* the buffer: positions, 2 deltas, indices (padded), step times, step weights, cubic times,
     * cubic outputs */
    float data[9 + 9 + 9 + 2 + 3 + 6 + 3 + 18];
    size_t n = 0;
    memcpy(data + n, stored, sizeof stored), n += 9;
    memcpy(data + n, delta, sizeof delta), n += 18;
    uint16_t indices[4] = {0, 1, 2, 0};   /* 3 used, padded to 8 bytes */
    memcpy(data + n, indices, sizeof indices), n += 2;
    memcpy(data + n, step_times, sizeof step_times), n += 3;
    memcpy(data + n, step_values, sizeof step_values), n += 6;
    memcpy(data + n, cubic_times, sizeof cubic_times), n += 3;
    for (int k = 0; k < 3; k++) {
        for (int t = 0; t < 2; t++) data[n++] = cubic_in[k][t];
        for (int t = 0; t < 2; t++) data[n++] = cubic_value[k][t];
        for (int t = 0; t < 2; t++) data[n++] = cubic_out[k][t];
    }
    if (!test_write_file(path_bin, data, sizeof data)) return false;

    FILE *out = fopen(path_gltf, "w");
    if (!out) return false;
    fprintf(out, "{\"asset\": {\"version\": \"2.0\", \"generator\": \"skinview test_morph_interpolation\"},\n");
    fprintf(out, "\"buffers\": [{\"uri\": \"%s\", \"byteLength\": %zu}],\n", bin_name, sizeof data);
    /* views: 0 positions (36 B at 0), 1 delta 0 (36), 2 delta 1 (36), 3 indices (6 at 108),
     * 4 step times (12 at 116), 5 step weights (24 at 128), 6 cubic times (12 at 152), 7 cubic out (72 at 164) */
    fprintf(out, "\"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 36}, "
                 "{\"buffer\": 0, \"byteOffset\": 36, \"byteLength\": 36}, {\"buffer\": 0, \"byteOffset\": 72, "
                 "\"byteLength\": 36}, {\"buffer\": 0, \"byteOffset\": 108, \"byteLength\": 6}, "
                 "{\"buffer\": 0, \"byteOffset\": 116, \"byteLength\": 12}, {\"buffer\": 0, \"byteOffset\": 128, "
                 "\"byteLength\": 24}, {\"buffer\": 0, \"byteOffset\": 152, \"byteLength\": 12}, "
                 "{\"buffer\": 0, \"byteOffset\": 164, \"byteLength\": 72}],\n");
    fprintf(out, "\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", "
                 "\"min\": [0, 0, 0], \"max\": [1, 1, 0]},\n"
                 "{\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], "
                 "\"max\": [1, 0, 0]},\n"
                 "{\"bufferView\": 2, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], "
                 "\"max\": [0, 0, 2]},\n"
                 "{\"bufferView\": 3, \"componentType\": 5123, \"count\": 3, \"type\": \"SCALAR\"},\n"
                 "{\"bufferView\": 4, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": [0], "
                 "\"max\": [2]},\n"
                 "{\"bufferView\": 5, \"componentType\": 5126, \"count\": 6, \"type\": \"SCALAR\"},\n"
                 "{\"bufferView\": 6, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": [0], "
                 "\"max\": [3]},\n"
                 "{\"bufferView\": 7, \"componentType\": 5126, \"count\": 18, \"type\": \"SCALAR\"}],\n");
    const char *primitive = "{\"attributes\": {\"POSITION\": 0}, \"indices\": 3, \"targets\": [{\"POSITION\": 1}, "
                            "{\"POSITION\": 2}]}";
    fprintf(out, "\"meshes\": [{\"name\": \"Tri\", \"primitives\": [%s], \"weights\": [%g, %g]},\n"
                 "{\"name\": \"TwoPrims\", \"primitives\": [%s, %s], \"weights\": [%g, %g]}],\n",
            primitive, mesh_weights[0], mesh_weights[1], primitive, primitive, mesh_weights[0], mesh_weights[1]);
    fprintf(out, "\"nodes\": [{\"name\": \"StepNode\", \"mesh\": 0, \"translation\": [%g, 0, 0]},\n"
                 "{\"name\": \"CubicNode\", \"mesh\": 1, \"translation\": [%g, 0, 0]},\n"
                 "{\"name\": \"WeightsNode\", \"mesh\": 0, \"translation\": [%g, 0, 0], \"weights\": [%g, %g]}],\n",
            node_x[0], node_x[1], node_x[2], node_weights[0], node_weights[1]);
    fprintf(out, "\"scenes\": [{\"nodes\": [0, 1, 2]}], \"scene\": 0,\n");
    fprintf(out, "\"animations\": [{\"name\": \"Weights\", \"samplers\": [{\"input\": 4, \"output\": 5, "
                 "\"interpolation\": \"STEP\"}, {\"input\": 6, \"output\": 7, \"interpolation\": \"CUBICSPLINE\"}], "
                 "\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, \"path\": \"weights\"}}, "
                 "{\"sampler\": 1, \"target\": {\"node\": 1, \"path\": \"weights\"}}]}]\n}\n");
    return fclose(out) == 0;
}

/* ---- checks ----------------------------------------------------------------- */

static float distance3(const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* glTF node (0, 1, 2) of skinview mesh m, from its node's name; -1 if unknown. */
static int node_of_mesh(const Model *model, int m)
{
    const char *name = model->skeleton.names[model->meshes[m].node_joint];
    if (strcmp(name, "StepNode") == 0) return 0;
    if (strcmp(name, "CubicNode") == 0) return 1;
    if (strcmp(name, "WeightsNode") == 0) return 2;
    return -1;
}

/* Sampled weights and morphed positions of every mesh at clip time t (t < 0: rest pose). */
static void check_pose(const Model *model, Animator *animator, float t)
{
    animator_evaluate(animator, t < 0.0f ? ANIMATOR_REST_POSE : 0, t < 0.0f ? 0.0f : t);
    for (int m = 0; m < model->mesh_count; m++) {
        int n = node_of_mesh(model, m);
        float w[2];
        weights_of_node(n, t, w);
        const float *got = animator->morph.weights[m];
        CHECK(fabsf(got[0] - w[0]) <= 1e-6f && fabsf(got[1] - w[1]) <= 1e-6f,
              "mesh %d (node %d) at %g s: weights (%g, %g), expected (%g, %g)", m, n, t, got[0], got[1], w[0], w[1]);
        vec3 positions[3];
        animator_skin_mesh(animator, m, positions, NULL);
        float worst = 0.0f;
        for (int v = 0; v < 3; v++) {
            float want[3];
            expected_position(n, v, w, want);
            worst = fmaxf(worst, distance3(positions[v], want));
        }
        CHECK(worst <= 1e-5f, "mesh %d (node %d) at %g s: positions off by %g", m, n, t, worst);
    }
}

/* The real binary: --export-pose (every expected vertex is in the OBJ), --info, --verify. */
static void check_binary(const char *gltf)
{
    char command[2048], output[8192], obj[512];
    snprintf(obj, sizeof obj, "%s/pose.obj", temp_dir);
    static const float times[] = {0.5f, 1.5f, 2.0f};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        snprintf(command, sizeof command, "'%s' '%s' --clip 0 --time %g --export-pose '%s' 2>&1", SKINVIEW_BINARY, gltf,
                 times[i], obj);
        int code = test_run_capture(command, output, sizeof output);
        CHECK(code == 0, "--export-pose at %g s: exit %d: %s", times[i], code, output);
        float got[32][3];
        int count = test_read_obj_positions(obj, got, 32);
        CHECK(count == 12, "--export-pose: %d vertices, 12 expected (4 meshes x 3)", count);
        float worst = 0.0f;
        for (int n = 0; n < 3; n++) {
            float w[2];
            weights_of_node(n, times[i], w);
            for (int v = 0; v < 3; v++) {
                float want[3], nearest = INFINITY;
                expected_position(n, v, w, want);
                for (int g = 0; g < count; g++) nearest = fminf(nearest, distance3(got[g], want));
                worst = fmaxf(worst, nearest);
            }
        }
        CHECK(worst <= 1e-5f, "--export-pose at %g s: an expected vertex is %g from the nearest exported one", times[i],
              worst);
    }

    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, gltf);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0 && strstr(output, "step+cubicspline") && strstr(output, "3 keys, step") &&
              strstr(output, "3 keys, cubicspline"),
          "--info does not report the clip and its morph channels as step / cubicspline:\n%s", output);

    test_verify("morph interpolation", gltf, "--clip 0 --time 0.5", output, sizeof output);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_test_morph_interp")) return 1;
    char gltf[512], bin[512];
    snprintf(gltf, sizeof gltf, "%s/morph_interpolation.gltf", temp_dir);
    snprintf(bin, sizeof bin, "%s/morph_interpolation.bin", temp_dir);
    CHECK(write_gltf(gltf, "morph_interpolation.bin", bin), "cannot write %s", gltf);

    Model model;
    char error[512];
    ImportOptions options = {0};
    bool ok = import_model(gltf, &options, &model, error, sizeof error);
    CHECK(ok, "import failed: %s", error);
    if (ok) {
        int nodes_seen[3] = {0, 0, 0};
        bool known = model.mesh_count == 4;
        for (int m = 0; known && m < model.mesh_count; m++) {
            int n = node_of_mesh(&model, m);
            known = n >= 0 && model.meshes[m].morph_target_count == 2 && model.meshes[m].vertex_count == 3;
            if (known) nodes_seen[n]++;
        }
        CHECK(known && nodes_seen[0] == 1 && nodes_seen[1] == 2 && nodes_seen[2] == 1,
              "4 meshes with 2 targets expected (1 on StepNode, 2 on CubicNode, 1 on WeightsNode), got %d",
              model.mesh_count);
        CHECK(model.clip_count == 1 && model.clips[0].morph_track_count == 6,
              "1 clip with 6 morph tracks expected (2 meshes x 2 targets on CubicNode, 2 on StepNode)");
        if (known && model.clip_count == 1) {
            const Clip *clip = &model.clips[0];
            CHECK(fabsf(clip->duration - 3.0f) < 1e-6f && clip->start == 0.0f, "clip: start %g s, %g s long",
                  clip->start, clip->duration);
            unsigned kinds = clip_interpolation_kinds(clip);
            CHECK(kinds == (1u << INTERPOLATION_STEP | 1u << INTERPOLATION_CUBICSPLINE),
                  "interpolation kinds 0x%x, step + cubicspline expected", kinds);
            for (int t = 0; t < clip->morph_track_count; t++) {
                const MorphTrack *track = &clip->morph_tracks[t];
                int n = node_of_mesh(&model, track->mesh);
                CHECK(track->key_count == 3 && track->interpolation == (n == 0 ? INTERPOLATION_STEP
                                                                                : INTERPOLATION_CUBICSPLINE),
                      "morph track %d (node %d): %d keys, interpolation %d", t, n, track->key_count,
                      (int)track->interpolation);
                CHECK((track->tangents != NULL) == (n == 1), "morph track %d: tangents only for the spline", t);
            }
            /* the hand-worked point of the comment above cubic_weight() */
            CHECK(fabsf(cubic_weight(0, 0.5f) - 0.75f) < 1e-6f, "Hermite by hand: %g", cubic_weight(0, 0.5f));

            Animator animator;
            CHECK(animator_init(&animator, &model), "animator_init");
            /* key times, between keys, just before a key (STEP still holds), past the end, then the rest pose */
            static const float times[] = {0.0f, 0.25f, 0.5f, 0.999f, 1.0f, 1.5f, 2.0f, 2.7f, 3.0f, 9.0f, -1.0f};
            for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) check_pose(&model, &animator, times[i]);
            animator_free(&animator);
        }
        model_free(&model);
    }
    check_binary(gltf);

    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", temp_dir);
    if (getenv("SKINVIEW_KEEP_TEST_FILES")) printf("test files kept in %s\n", temp_dir);   /* e.g. for the oracle */
    else if (system(command) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
    return test_finish();
}
