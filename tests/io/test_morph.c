/* test_morph — morph targets (blend shapes) end to end, on small glTF files this test writes.
 *
 * A quad with 2 morph targets (position and normal deltas, default weights [0.25, 0]) and a
 * `weights` channel keyed (0,0) at 0 s, (1,0) at 1 s, (0,1) at 2 s, in two variants:
 *   static:  the quad's node is scaled by 2 (scene = N * (stored + sum_t w_t * delta_t));
 *   skinned: the same quad skinned to two joints at the origin (identity inverse binds), the
 *            second one turning 90 degrees about Z by 1 s, so vertices 2 and 3 land at
 *            R * (stored + sum_t w_t * delta_t): morph BEFORE skinning (trap 12 in docs/skinning.md);
 *            skinning first would give R * stored + deltas, which differs.
 * Checked against hand-computed positions: the import (deltas, not Assimp's absolute target
 * shapes; default weights; one morph track per target), the CPU reference (Animator) at
 * weights 0, 1 and 0.5 and in the rest and bind poses, normals, `--export-pose`, and
 * `--verify` (the GPU shader through transform feedback equals the CPU). The morph path
 * allocates nothing per frame. The static quad once more as an FBX blend shape (Assimp's FBX
 * conventions differ from its glTF ones: see check_fbx). Also the Khronos SimpleMorph sample from ../shared/models
 * (when present) against the glTF tutorial's numbers. */
#include "anim/animator.h"
#include "io/import.h"
#include "io/validate.h"
#include "testutil.h"
#include "morph_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- writing the glTF ----------------------------------------------------- */

static void min_max(const float (*p)[3], int count, float lo[3], float hi[3])
{
    for (int i = 0; i < 3; i++) lo[i] = hi[i] = p[0][i];
    for (int v = 1; v < count; v++)
        for (int i = 0; i < 3; i++) {
            if (p[v][i] < lo[i]) lo[i] = p[v][i];
            if (p[v][i] > hi[i]) hi[i] = p[v][i];
        }
}

/* Writes DIR/NAME.gltf + NAME.bin; returns false if a file could not be written. */
static bool write_gltf(const char *path_gltf, const char *bin_name, const char *path_bin, bool skinned)
{
    static TestBlob blob;
    blob.size = 0;
    float normals[4][3], normal_deltas[4][3];
    for (int v = 0; v < 4; v++)
        for (int i = 0; i < 3; i++) {
            normals[v][i] = stored_normal[i];
            normal_deltas[v][i] = normal_delta0[i];
        }
    uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    uint16_t joints[4][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    float joint_weights[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    float inverse_binds[2][16] = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
                                  {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    float s = sqrtf(0.5f);
    float rotations[3][4] = {{0, 0, 0, 1}, {0, 0, s, s}, {0, 0, s, s}};

    /* the buffer's views, in order (each 4-byte aligned) */
    const void *data[12] = {stored,  normals, delta0,        normal_deltas, delta1,        indices,
                            key_times, key_weights, joints, joint_weights, inverse_binds, rotations};
    static const size_t lengths[12] = {48, 48, 48, 48, 48, 12, 12, 24, 32, 64, 128, 48};
    size_t off[12];
    for (int i = 0; i < 12; i++) off[i] = test_blob_add(&blob, data[i], lengths[i]);

    FILE *bin = fopen(path_bin, "wb");
    if (!bin) return false;
    bool ok = fwrite(blob.bytes, 1, blob.size, bin) == blob.size;
    ok = fclose(bin) == 0 && ok;
    if (!ok) return false;

    float lo[3][3], hi[3][3];
    min_max(stored, 4, lo[0], hi[0]);
    min_max(delta0, 4, lo[1], hi[1]);
    min_max(delta1, 4, lo[2], hi[2]);

    FILE *out = fopen(path_gltf, "w");
    if (!out) return false;
    fprintf(out, "{\n\"asset\": {\"version\": \"2.0\", \"generator\": \"skinview test_morph\"},\n");
    fprintf(out, "\"buffers\": [{\"uri\": \"%s\", \"byteLength\": %zu}],\n", bin_name, blob.size);
    fprintf(out, "\"bufferViews\": [");
    for (int i = 0; i < 12; i++)
        fprintf(out, "%s{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}", i ? ", " : "", off[i], lengths[i]);
    fprintf(out, "],\n\"accessors\": [\n");
    const char *vec3_min_max = "{\"bufferView\": %d, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\", "
                               "\"min\": [%g, %g, %g], \"max\": [%g, %g, %g]},\n";
    fprintf(out, vec3_min_max, 0, lo[0][0], lo[0][1], lo[0][2], hi[0][0], hi[0][1], hi[0][2]);
    fprintf(out, "{\"bufferView\": 1, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\"},\n");
    fprintf(out, vec3_min_max, 2, lo[1][0], lo[1][1], lo[1][2], hi[1][0], hi[1][1], hi[1][2]);
    fprintf(out, "{\"bufferView\": 3, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\"},\n");
    fprintf(out, vec3_min_max, 4, lo[2][0], lo[2][1], lo[2][2], hi[2][0], hi[2][1], hi[2][2]);
    fprintf(out, "{\"bufferView\": 5, \"componentType\": 5123, \"count\": 6, \"type\": \"SCALAR\"},\n");
    fprintf(out, "{\"bufferView\": 6, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": [0], "
                 "\"max\": [2]},\n");
    fprintf(out, "{\"bufferView\": 7, \"componentType\": 5126, \"count\": 6, \"type\": \"SCALAR\"},\n");
    fprintf(out, "{\"bufferView\": 8, \"componentType\": 5123, \"count\": 4, \"type\": \"VEC4\"},\n");
    fprintf(out, "{\"bufferView\": 9, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC4\"},\n");
    fprintf(out, "{\"bufferView\": 10, \"componentType\": 5126, \"count\": 2, \"type\": \"MAT4\"},\n");
    fprintf(out, "{\"bufferView\": 11, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC4\"}\n],\n");
    fprintf(out, "\"meshes\": [{\"name\": \"Quad\", \"primitives\": [{\"attributes\": {\"POSITION\": 0, \"NORMAL\": 1%s}, "
                 "\"indices\": 5, \"targets\": [{\"POSITION\": 2, \"NORMAL\": 3}, {\"POSITION\": 4}]}], "
                 "\"weights\": [%g, %g], \"extras\": {\"targetNames\": [\"Grow\", \"Fold\"]}}],\n",
            skinned ? ", \"JOINTS_0\": 8, \"WEIGHTS_0\": 9" : "", default_weights[0], default_weights[1]);
    if (skinned) {
        fprintf(out, "\"skins\": [{\"joints\": [1, 2], \"inverseBindMatrices\": 10}],\n");
        fprintf(out, "\"nodes\": [{\"name\": \"QuadNode\", \"mesh\": 0, \"skin\": 0}, {\"name\": \"Root\", "
                     "\"children\": [2]}, {\"name\": \"Turn\"}],\n");
        fprintf(out, "\"scenes\": [{\"nodes\": [0, 1]}], \"scene\": 0,\n");
    } else {
        fprintf(out, "\"nodes\": [{\"name\": \"QuadNode\", \"mesh\": 0, \"scale\": [%g, %g, %g]}],\n", STATIC_SCALE,
                STATIC_SCALE, STATIC_SCALE);
        fprintf(out, "\"scenes\": [{\"nodes\": [0]}], \"scene\": 0,\n");
    }
    fprintf(out, "\"animations\": [{\"name\": \"Morph\", \"samplers\": [{\"input\": 6, \"output\": 7, "
                 "\"interpolation\": \"LINEAR\"}%s], \"channels\": [{\"sampler\": 0, \"target\": {\"node\": 0, "
                 "\"path\": \"weights\"}}%s]}]\n}\n",
            skinned ? ", {\"input\": 6, \"output\": 11, \"interpolation\": \"LINEAR\"}" : "",
            skinned ? ", {\"sampler\": 1, \"target\": {\"node\": 2, \"path\": \"rotation\"}}" : "");
    return fclose(out) == 0;
}

static void check_import(const Model *model, const char *label)
{
    CHECK(model->mesh_count == 1, "%s: %d meshes", label, model->mesh_count);
    if (model->mesh_count != 1) return;
    const Mesh *mesh = &model->meshes[0];
    CHECK(mesh->vertex_count == 4 && mesh->morph_target_count == 2, "%s: %d vertices, %d morph targets", label,
          mesh->vertex_count, mesh->morph_target_count);
    if (mesh->vertex_count != 4 || mesh->morph_target_count != 2) return;
    /* Assimp hands over absolute target shapes: the importer must store stored-relative deltas */
    float worst = 0.0f, worst_normal = 0.0f;
    for (int v = 0; v < 4; v++) {
        worst = fmaxf(worst, distance3(mesh->morph_position_deltas[v], delta0[v]));
        worst = fmaxf(worst, distance3(mesh->morph_position_deltas[4 + v], delta1[v]));
        worst_normal = fmaxf(worst_normal, distance3(mesh->morph_normal_deltas[v], normal_delta0));
        float zero[3] = {0, 0, 0};
        worst_normal = fmaxf(worst_normal, distance3(mesh->morph_normal_deltas[4 + v], zero));
    }
    CHECK(worst <= 1e-6f, "%s: position deltas off by %g", label, worst);
    CHECK(worst_normal <= 1e-6f, "%s: normal deltas off by %g", label, worst_normal);
    CHECK(mesh->morph_default_weights[0] == default_weights[0] && mesh->morph_default_weights[1] == default_weights[1],
          "%s: default weights %g %g", label, mesh->morph_default_weights[0], mesh->morph_default_weights[1]);
    CHECK(model->clip_count == 1 && model->clips[0].morph_track_count == 2, "%s: morph tracks", label);
    if (model->clip_count == 1 && model->clips[0].morph_track_count == 2) {
        const Clip *clip = &model->clips[0];
        CHECK(fabsf(clip->duration - 2.0f) < 1e-6f, "%s: clip lasts %g s", label, clip->duration);
        for (int t = 0; t < 2; t++) {
            const MorphTrack *track = &clip->morph_tracks[t];
            CHECK(track->mesh == 0 && track->target == t && track->key_count == 3, "%s: morph track %d", label, t);
            for (int k = 0; k < 3 && track->key_count == 3; k++)
                CHECK(track->times[k] == key_times[k] && track->weights[k] == key_weights[k][t],
                      "%s: track %d key %d = (%g s, %g)", label, t, k, track->times[k], track->weights[k]);
        }
    }
}

/* CPU reference at clip time t (or the rest / bind pose) against the hand-computed positions. */
static void check_pose(Animator *animator, bool skinned, int clip, float t, const char *label)
{
    float w[2] = {0, 0}, angle = 0.0f;
    if (clip >= 0) {
        weights_at(t, w);
        angle = angle_at(t);
    } else if (clip == ANIMATOR_REST_POSE) {
        w[0] = default_weights[0];
        w[1] = default_weights[1];
    }
    animator_evaluate(animator, clip, t);
    vec3 positions[4], normals[4];
    animator_skin_mesh(animator, 0, positions, normals);
    float worst = 0.0f, worst_normal = 0.0f;
    for (int v = 0; v < 4; v++) {
        float want[3], want_normal[3];
        expected_position(skinned, v, w, angle, want);
        expected_normal(skinned, v, w, angle, want_normal);
        worst = fmaxf(worst, distance3(positions[v], want));
        worst_normal = fmaxf(worst_normal, distance3(normals[v], want_normal));
    }
    CHECK(worst <= 1e-5f, "%s, clip %d at %g s (weights %g, %g): positions off by %g", label, clip, t, w[0], w[1],
          worst);
    CHECK(worst_normal <= 1e-5f, "%s, clip %d at %g s: normals off by %g", label, clip, t, worst_normal);
}

/* The real binary: --export-pose at 1 s and 0.5 s, --info, --verify (GPU vs CPU). */
static void check_binary(const char *path, bool skinned, const char *label)
{
    char command[2048], output[8192], obj[512];
    snprintf(obj, sizeof obj, "%s/pose.obj", temp_dir);
    static const float times[2] = {1.0f, 0.5f};
    for (int i = 0; i < 2; i++) {
        snprintf(command, sizeof command, "'%s' '%s' --clip 0 --time %g --export-pose '%s' 2>&1", SKINVIEW_BINARY, path,
                 times[i], obj);
        int code = test_run_capture(command, output, sizeof output);
        CHECK(code == 0, "%s: --export-pose exit %d: %s", label, code, output);
        float got[8][3];
        int count = test_read_obj_positions(obj, got, 8);
        CHECK(count == 4, "%s: OBJ has %d vertices", label, count);
        float w[2], worst = 0.0f;
        weights_at(times[i], w);
        for (int v = 0; v < 4 && count == 4; v++) {
            float want[3];
            expected_position(skinned, v, w, angle_at(times[i]), want);
            worst = fmaxf(worst, distance3(got[v], want));
        }
        CHECK(worst <= 1e-5f, "%s: --export-pose at %g s off by %g", label, times[i], worst);
    }

    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, path);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0 && strstr(output, "2 morph targets") && strstr(output, "morph target [0] Grow") &&
              strstr(output, "2 morph channels"),
          "%s: --info does not list the targets and channels:\n%s", label, output);

    test_verify(label, path, "", output, sizeof output);
    const char *line = strstr(output, "verify passed");
    if (line) printf("%s: %.*s\n", label, (int)strcspn(line, "\n"), line);
}

/* model_validate's morph rules (docs/robustness.md): a mesh dropped before the morphed one
 * renumbers the clip's morph tracks; NaN deltas and weights become 0; NaN keys go; keys out of
 * order are sorted; a track naming a target that does not exist goes. */
static void check_validation(const char *gltf)
{
    Model model;
    char error[512];
    ImportOptions options = {0};
    if (!import_model(gltf, &options, &model, error, sizeof error) || model.mesh_count != 1 || model.clip_count != 1 ||
        model.clips[0].morph_track_count != 2) {
        CHECK(false, "validation: %s did not import as expected", gltf);
        return;
    }
    Mesh *grown = realloc(model.meshes, 2 * sizeof *grown);
    MorphTrack *tracks = realloc(model.clips[0].morph_tracks, 3 * sizeof *tracks);
    if (!grown || !tracks) abort();
    model.meshes = grown;
    model.clips[0].morph_tracks = tracks;
    model.meshes[1] = model.meshes[0];
    memset(&model.meshes[0], 0, sizeof model.meshes[0]);   /* no vertices: dropped, mesh 1 becomes mesh 0 */
    model.mesh_count = 2;
    Mesh *mesh = &model.meshes[1];
    mesh->morph_position_deltas[5][1] = NAN;
    mesh->morph_default_weights[1] = INFINITY;
    Clip *clip = &model.clips[0];
    for (int t = 0; t < 2; t++) clip->morph_tracks[t].mesh = 1;
    MorphTrack *track = &clip->morph_tracks[0];   /* keys 0, 1, 2 s -> 2, 0, NaN, 1 s: sorted, NaN dropped */
    float *times = realloc(track->times, 4 * sizeof(float)), *weights = realloc(track->weights, 4 * sizeof(float));
    if (!times || !weights) abort();
    track->times = times;
    track->weights = weights;
    float new_times[4] = {2, 0, NAN, 1}, new_weights[4] = {key_weights[2][0], key_weights[0][0], 0.5f, key_weights[1][0]};
    memcpy(times, new_times, sizeof new_times);
    memcpy(weights, new_weights, sizeof new_weights);
    track->key_count = 4;
    clip->morph_tracks[2] = (MorphTrack){.mesh = 1, .target = 7, .key_count = 1};   /* no target 7 */
    clip->morph_tracks[2].times = calloc(1, sizeof(float));
    clip->morph_tracks[2].weights = calloc(1, sizeof(float));
    clip->morph_track_count = 3;

    int repairs = 0;
    bool ok = model_validate(&model, NULL, &repairs, error, sizeof error);
    CHECK(ok, "validation rejected the model: %s", error);
    CHECK(model.mesh_count == 1 && model.meshes[0].morph_target_count == 2, "validation: %d meshes left",
          model.mesh_count);
    CHECK(clip->morph_track_count == 2 && clip->morph_tracks[0].mesh == 0 && clip->morph_tracks[1].mesh == 0,
          "validation: morph tracks not renumbered (%d tracks)", clip->morph_track_count);
    CHECK(model.meshes[0].morph_position_deltas[5][1] == 0.0f && model.meshes[0].morph_default_weights[1] == 0.0f,
          "validation: NaN delta / weight not set to 0");
    CHECK(track->key_count == 3 && track->times[0] == 0.0f && track->times[1] == 1.0f && track->times[2] == 2.0f &&
              track->weights[1] == key_weights[1][0],
          "validation: morph keys not cleaned (%d keys)", track->key_count);
    CHECK(repairs >= 5, "validation: %d repairs counted", repairs);
    if (ok && model.mesh_count == 1) {   /* and it still animates as before */
        Animator animator;
        animator_init(&animator, &model);
        float w[2] = {0.5f, 0.0f};
        animator_evaluate(&animator, 0, 0.5f);
        vec3 posed[4];
        animator_skin_mesh(&animator, 0, posed, NULL);
        float want[3];
        expected_position(false, 2, w, 0.0f, want);
        CHECK(distance3(posed[2], want) <= 1e-5f, "validation: vertex 2 at 0.5 s off by %g", distance3(posed[2], want));
        animator_free(&animator);
    }
    model_free(&model);
}

static void check_variant(bool skinned)
{
    const char *name = skinned ? "morph_skinned" : "morph_static";
    char gltf[512], bin[512], bin_name[64];
    snprintf(gltf, sizeof gltf, "%s/%s.gltf", temp_dir, name);
    snprintf(bin_name, sizeof bin_name, "%s.bin", name);
    snprintf(bin, sizeof bin, "%s/%s", temp_dir, bin_name);
    CHECK(write_gltf(gltf, bin_name, bin, skinned), "%s: cannot write the test glTF", name);

    Model model;
    if (!test_import(gltf, NULL, &model)) return;
    check_import(&model, name);
    CHECK(model.meshes[0].skinned == skinned, "%s: skinned flag %d", name, model.meshes[0].skinned);
    if (model.mesh_count != 1 || model.meshes[0].morph_target_count != 2 || model.clip_count != 1) {
        model_free(&model);
        return;
    }

    Animator animator;
    CHECK(animator_init(&animator, &model), "%s: animator_init", name);
    /* weights 0, 1 and 0.5 of target 0, both targets at 0.5, target 1 alone, past the end */
    static const float times[] = {0.0f, 1.0f, 0.5f, 1.5f, 2.0f, 7.0f};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) check_pose(&animator, skinned, 0, times[i], name);
    check_pose(&animator, skinned, ANIMATOR_REST_POSE, 0.0f, name);   /* the default weights */
    check_pose(&animator, skinned, ANIMATOR_BIND_POSE, 0.0f, name);   /* no morph: as stored */

    /* only non-zero weights cost work: at 1 s target 1 has weight 0 and is not listed */
    animator_evaluate(&animator, 0, 1.0f);
    CHECK(animator.morph.meshes[0].active_count == 1 && animator.morph.meshes[0].active_targets[0] == 0,
          "%s: active targets at 1 s: %d", name, animator.morph.meshes[0].active_count);
    animator_evaluate(&animator, 0, 0.0f);
    CHECK(animator.morph.meshes[0].active_count == 0, "%s: active targets at 0 s: %d", name, animator.morph.meshes[0].active_count);

    /* the per-frame path allocates nothing */
    vec3 positions[4], normals[4];
    long before = test_allocations;
    float checksum = 0.0f;
    for (int i = 0; i < 2000; i++) {
        animator_evaluate(&animator, i % 3 == 0 ? 0 : (i % 3 == 1 ? ANIMATOR_REST_POSE : ANIMATOR_BIND_POSE),
                          (float)(i % 50) * 0.05f);
        animator_skin_mesh(&animator, 0, positions, normals);
        checksum += positions[2][0];
    }
#ifdef TEST_WRAP_MALLOC
    CHECK(test_allocations == before, "%s: 2000 morphed evaluations allocated %ld times", name, test_allocations - before);
#else
    (void)before;
#endif
    CHECK(isfinite(checksum), "%s: finite morphed vertices", name);
    animator_free(&animator);
    model_free(&model);

    check_binary(gltf, skinned, name);
    if (!skinned) check_validation(gltf);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_test_morph")) return 1;
    check_variant(false);
    check_variant(true);
    check_fbx();
    check_many_targets();
    check_simple_morph();

    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", temp_dir);
    if (getenv("SKINVIEW_KEEP_TEST_FILES")) printf("test files kept in %s\n", temp_dir);   /* e.g. for the oracle */
    else if (system(command) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
    return test_finish();
}
