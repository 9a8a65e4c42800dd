/* test_gltf_interpolation — glTF STEP and CUBICSPLINE samplers (src/io/gltf/gltf_anim.c,
 * src/anim/sample.c; trap 13 in docs/skinning.md) and a clip whose keys start after 0.
 *
 * Assimp 5.2.5 keeps a sampler's keys but not its interpolation, and for CUBICSPLINE it keeps
 * the values and drops the tangents. The test writes one glTF twice — a .gltf whose buffer is
 * a base64 data: URI, and a .glb with a BIN chunk — with four animated nodes:
 *   Stepper  translation STEP         keys at 1, 2, 3 s
 *   Spline   translation CUBICSPLINE  keys at 1, 3 s (tangents 9 where they must not matter)
 *            rotation    CUBICSPLINE  keys at 1, 3 s
 *   Linear   translation LINEAR       keys at 1, 3 s
 * and checks the imported kinds, tangents and values against the file, the clip's span
 * [1 s, 3 s], and sampled values against ones worked out by hand from the glTF spec's
 * formula (Appendix C), the same numbers as tests/anim/test_sampling.c. */
#include "anim/anim.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char temp_dir[256];

/* ---- the file's data ---------------------------------------------------------- */

static const float step_times[3] = {1, 2, 3};
static const float step_values[3][3] = {{0, 0, 0}, {2, 4, 6}, {10, 0, -2}};
static const float spline_times[2] = {1, 3};
/* output = per key: in-tangent, value, out-tangent */
static const float spline_translation[6][3] = {{9, 9, 9}, {1, 0, 0}, {1, 1, 0}, {0, -1, 2}, {3, 2, 0}, {9, 9, 9}};
#define R 0.70710678f
static const float spline_rotation[6][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0.5f, 0},
                                            {0, 0, 0, -0.25f}, {0, 0, R, R}, {0, 0, 0, 0}};
static const float linear_values[2][3] = {{0, 0, 0}, {2, 0, 0}};
static const float triangle[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

/* The JSON, with `buffer` the buffers array's one entry. */
static int write_json(char *out, size_t size, const char *buffer, const size_t off[8], const size_t len[8])
{
    int n = snprintf(out, size, "{\"asset\": {\"version\": \"2.0\", \"generator\": \"skinview test_gltf_interpolation\"},\n"
                                "\"buffers\": [%s],\n\"bufferViews\": [", buffer);
    for (int i = 0; i < 8; i++)
        n += snprintf(out + n, size - (size_t)n, "%s{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}", i ? ", " : "",
                      off[i], len[i]);
    n += snprintf(out + n, size - (size_t)n,
                  "],\n\"accessors\": [\n"
                  "{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": [1], \"max\": [3]},\n"
                  "{\"bufferView\": 1, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"},\n"
                  "{\"bufferView\": 2, \"componentType\": 5126, \"count\": 2, \"type\": \"SCALAR\", \"min\": [1], \"max\": [3]},\n"
                  "{\"bufferView\": 3, \"componentType\": 5126, \"count\": 6, \"type\": \"VEC3\"},\n"
                  "{\"bufferView\": 4, \"componentType\": 5126, \"count\": 6, \"type\": \"VEC4\"},\n"
                  "{\"bufferView\": 5, \"componentType\": 5126, \"count\": 2, \"type\": \"VEC3\"},\n"
                  "{\"bufferView\": 6, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], "
                  "\"max\": [1, 1, 0]},\n"
                  "{\"bufferView\": 7, \"componentType\": 5123, \"count\": 3, \"type\": \"SCALAR\"}\n],\n"
                  "\"meshes\": [{\"name\": \"Tri\", \"primitives\": [{\"attributes\": {\"POSITION\": 6}, \"indices\": 7}]}],\n"
                  "\"nodes\": [{\"name\": \"Root\", \"children\": [1, 2, 3, 4]}, {\"name\": \"Stepper\"}, "
                  "{\"name\": \"Spline\"}, {\"name\": \"Linear\"}, {\"name\": \"Mesh\", \"mesh\": 0}],\n"
                  "\"scenes\": [{\"nodes\": [0]}], \"scene\": 0,\n"
                  "\"animations\": [{\"name\": \"Kinds\", \"samplers\": ["
                  "{\"input\": 0, \"output\": 1, \"interpolation\": \"STEP\"}, "
                  "{\"input\": 2, \"output\": 3, \"interpolation\": \"CUBICSPLINE\"}, "
                  "{\"input\": 2, \"output\": 4, \"interpolation\": \"CUBICSPLINE\"}, "
                  "{\"input\": 2, \"output\": 5}], \"channels\": ["
                  "{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"translation\"}}, "
                  "{\"sampler\": 1, \"target\": {\"node\": 2, \"path\": \"translation\"}}, "
                  "{\"sampler\": 2, \"target\": {\"node\": 2, \"path\": \"rotation\"}}, "
                  "{\"sampler\": 3, \"target\": {\"node\": 3, \"path\": \"translation\"}}]}]\n}\n");
    return n;
}

static bool write_files(const char *gltf_path, const char *glb_path)
{
    TestBlob blob = {.size = 0};
    uint16_t indices[3] = {0, 1, 2};
    size_t off[8], len[8] = {sizeof step_times, sizeof step_values, sizeof spline_times, sizeof spline_translation,
                             sizeof spline_rotation, sizeof linear_values, sizeof triangle, sizeof indices};
    const void *data[8] = {step_times, step_values, spline_times, spline_translation, spline_rotation, linear_values,
                           triangle, indices};
    for (int i = 0; i < 8; i++) off[i] = test_blob_add(&blob, data[i], len[i]);

    static char json[16384], buffer[4096], encoded[2048];
    test_base64(blob.bytes, blob.size, encoded);
    snprintf(buffer, sizeof buffer, "{\"byteLength\": %zu, \"uri\": \"data:application/octet-stream;base64,%s\"}", blob.size,
             encoded);
    write_json(json, sizeof json, buffer, off, len);
    FILE *f = fopen(gltf_path, "w");
    if (!f) return false;
    bool ok = fputs(json, f) >= 0;
    if (fclose(f) != 0 || !ok) return false;

    snprintf(buffer, sizeof buffer, "{\"byteLength\": %zu}", blob.size);
    size_t json_length = (size_t)write_json(json, sizeof json, buffer, off, len);
    while (json_length % 4) json[json_length++] = ' ';
    uint32_t header[5] = {0x46546C67u, 2, (uint32_t)(12 + 8 + json_length + 8 + blob.size), (uint32_t)json_length,
                          0x4E4F534Au};
    uint32_t bin_header[2] = {(uint32_t)blob.size, 0x004E4942u};
    f = fopen(glb_path, "wb");
    if (!f) return false;
    ok = fwrite(header, 4, 5, f) == 5 && fwrite(json, 1, json_length, f) == json_length &&
         fwrite(bin_header, 4, 2, f) == 2 && fwrite(blob.bytes, 1, blob.size, f) == blob.size;
    return fclose(f) == 0 && ok;
}

/* ---- checks ------------------------------------------------------------------ */

static int joint_named(const Model *model, const char *name)
{
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], name) == 0) return j;
    return -1;
}

static const JointTrack *track_of(const Clip *clip, int joint)
{
    for (int t = 0; t < clip->track_count; t++)
        if (clip->tracks[t].joint == joint) return &clip->tracks[t];
    return NULL;
}

static bool near(const float *a, const float *b, int n, float eps)
{
    for (int i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= eps)) return false;
    return true;
}

static void check_file(const char *path)
{
    Model model;
    if (!test_import(path, NULL, &model)) return;
    CHECK(model.clip_count == 1, "%s: %d clips", path, model.clip_count);
    if (model.clip_count != 1) {
        model_free(&model);
        return;
    }
    const Clip *clip = &model.clips[0];
    CHECK(fabsf(clip->start - 1.0f) < 1e-6f && fabsf(clip->duration - 2.0f) < 1e-6f,
          "%s: the clip spans [%g, %g] s, want [1, 3] (keys start after 0)", path, (double)clip->start,
          (double)(clip->start + clip->duration));
    unsigned kinds = clip_interpolation_kinds(clip);
    CHECK(kinds == (1u << INTERPOLATION_LINEAR | 1u << INTERPOLATION_STEP | 1u << INTERPOLATION_CUBICSPLINE),
          "%s: interpolation kinds 0x%x", path, kinds);

    const JointTrack *stepper = track_of(clip, joint_named(&model, "Stepper"));
    const JointTrack *spline = track_of(clip, joint_named(&model, "Spline"));
    const JointTrack *linear = track_of(clip, joint_named(&model, "Linear"));
    CHECK(stepper && spline && linear, "%s: the three animated nodes have tracks", path);
    if (!stepper || !spline || !linear) {
        model_free(&model);
        return;
    }
    CHECK(stepper->translation_interpolation == INTERPOLATION_STEP && stepper->translation_tangents == NULL,
          "%s: Stepper is STEP", path);
    CHECK(spline->translation_interpolation == INTERPOLATION_CUBICSPLINE &&
              spline->rotation_interpolation == INTERPOLATION_CUBICSPLINE,
          "%s: Spline is CUBICSPLINE (translation and rotation)", path);
    CHECK(linear->translation_interpolation == INTERPOLATION_LINEAR, "%s: Linear stays LINEAR", path);

    /* values: Assimp's (the middle element of each spline key); tangents: read from the file */
    if (spline->translation_count == 2 && spline->translation_tangents && spline->rotation_count == 2 &&
        spline->rotation_tangents) {
        bool values = near(spline->translation_values[0], spline_translation[1], 3, 1e-6f) &&
                      near(spline->translation_values[1], spline_translation[4], 3, 1e-6f) &&
                      near(spline->rotation_values[0], spline_rotation[1], 4, 1e-6f) &&
                      near(spline->rotation_values[1], spline_rotation[4], 4, 1e-6f);
        CHECK(values, "%s: spline key values are the file's (element 3k+1)", path);
        bool tangents = near(spline->translation_tangents[0], spline_translation[0], 3, 0) &&
                        near(spline->translation_tangents[1], spline_translation[2], 3, 0) &&
                        near(spline->translation_tangents[2], spline_translation[3], 3, 0) &&
                        near(spline->translation_tangents[3], spline_translation[5], 3, 0) &&
                        near(spline->rotation_tangents[1], spline_rotation[2], 4, 0) &&
                        near(spline->rotation_tangents[2], spline_rotation[3], 4, 0);
        CHECK(tangents, "%s: spline tangents are the file's (in = element 3k, out = 3k+2)", path);
    } else {
        CHECK(false, "%s: spline tracks: %d / %d keys, tangents %p / %p", path, spline->translation_count,
              spline->rotation_count, (void *)spline->translation_tangents, (void *)spline->rotation_tangents);
    }

    /* sampled at playback times (file time = 1 s + t); expected values by hand (glTF spec) */
    TrackCursor *cursors = calloc((size_t)clip->track_count, sizeof *cursors);
    JointTransform *pose = calloc((size_t)model.skeleton.joint_count, sizeof *pose);
    const struct {
        float t;
        float step[3], spline[3], rotation[4], linear[3];
    } probes[] = {
        {0.0f, {0, 0, 0}, {1, 0, 0}, {0, 0, 0, 1}, {0, 0, 0}},
        {0.5f, {0, 0, 0}, {1.59375f, 0.6875f, -0.1875f}, {0, 0, 0.24877046f, 0.96856247f}, {0.5f, 0, 0}},
        {1.0f, {2, 4, 6}, {2.25f, 1.5f, -0.5f}, {0, 0, 0.46303177f, 0.88634169f}, {1, 0, 0}},
        {1.9f, {2, 4, 6}, {0, 0, 0}, {0, 0, 0, 0}, {1.9f, 0, 0}},
        {2.0f, {10, 0, -2}, {3, 2, 0}, {0, 0, R, R}, {2, 0, 0}},
    };
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
        memset(cursors, 0, sizeof *cursors * (size_t)clip->track_count);
        for (int j = 0; j < model.skeleton.joint_count; j++) pose[j] = model.skeleton.rest_trs[j];
        clip_sample_trs(clip, &model.skeleton, probes[p].t, cursors, pose);
        CHECK(near(pose[stepper->joint].translation, probes[p].step, 3, 1e-5f), "%s: STEP at t=%g: (%g %g %g)", path,
              (double)probes[p].t, (double)pose[stepper->joint].translation[0],
              (double)pose[stepper->joint].translation[1], (double)pose[stepper->joint].translation[2]);
        CHECK(near(pose[linear->joint].translation, probes[p].linear, 3, 1e-5f), "%s: LINEAR at t=%g", path,
              (double)probes[p].t);
        if (probes[p].rotation[3] == 0.0f) continue;   /* t = 1.9: the spline is not worked out by hand there */
        CHECK(near(pose[spline->joint].translation, probes[p].spline, 3, 1e-5f),
              "%s: CUBICSPLINE translation at t=%g: (%g %g %g)", path, (double)probes[p].t,
              (double)pose[spline->joint].translation[0], (double)pose[spline->joint].translation[1],
              (double)pose[spline->joint].translation[2]);
        CHECK(near(pose[spline->joint].rotation, probes[p].rotation, 4, 1e-5f),
              "%s: CUBICSPLINE rotation at t=%g: (%g %g %g %g)", path, (double)probes[p].t,
              (double)pose[spline->joint].rotation[0], (double)pose[spline->joint].rotation[1],
              (double)pose[spline->joint].rotation[2], (double)pose[spline->joint].rotation[3]);
    }
    free(cursors);
    free(pose);
    model_free(&model);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_interpolation")) return 1;
    char gltf[512], glb[512];
    snprintf(gltf, sizeof gltf, "%s/kinds.gltf", temp_dir);
    snprintf(glb, sizeof glb, "%s/kinds.glb", temp_dir);
    CHECK(write_files(gltf, glb), "cannot write the test files in %s", temp_dir);
    check_file(gltf);
    check_file(glb);
    if (!getenv("SKINVIEW_KEEP_TEST_FILES")) {
        unlink(gltf);
        unlink(glb);
        rmdir(temp_dir);
    }
    return test_finish();
}
