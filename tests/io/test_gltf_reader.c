/* test_gltf_reader — skinview's own glTF 2.0 reader (src/io/gltf/), on files the test writes.
 *
 *   test_gltf_reader accessors    every component type, normalized or not, tightly packed,
 *                                 strided, sparse over a bufferView and sparse without one, as
 *                                 POSITION (KHR_mesh_quantization); normalized NORMAL and
 *                                 TEXCOORD; rotation keys as normalized BYTE / SHORT; weights as
 *                                 normalized UNSIGNED_BYTE / SHORT; sparse morph deltas. Each value
 *                                 is checked against the spec's formula, written out here.
 *   test_gltf_reader refusals     every unsupported extensionsRequired entry refused by name (one
 *                                 line, exit 1 through the binary); supported ones load.
 *   test_gltf_reader damaged      damaged GLB chunks and JSON, accessors and views out of range:
 *                                 one line, exit 1, never a crash.
 *   test_gltf_reader once         a .glb is read from disk once (gltf_file_reads()).
 *   test_gltf_reader skins        one mesh used by two nodes with two skins: two meshes, each bent by
 *                                 its own joints; --max-bones splits a mesh and keeps its pose.
 *   test_gltf_reader conformance  ../shared/models/gltf-asset-generator (skipped without it):
 *                                 SamplerType_01 (normalized BYTE rotations) poses exactly as its
 *                                 float twin and turns +-90 degrees about Y; SkinType_01 (normalized
 *                                 UNSIGNED_BYTE weights) as its float twin, and folds; Skin_11 draws
 *                                 two planes, each with its own skin.
 */
#include "anim/animator.h"
#include "io/gltf/gltf_import.h"
#include "io/import.h"
#include "testutil.h"
#include "gltf_reader_fixture.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- accessors ---------------------------------------------------------------------------- */

/* Raw values per component type: extremes, zero, small and odd ones. */
static void raw_values(int type, double out[9])
{
    static const double byte_values[9] = {-128, -127, -1, 0, 1, 63, 64, 126, 127};
    static const double ubyte_values[9] = {0, 1, 2, 127, 128, 200, 254, 255, 3};
    static const double short_values[9] = {-32768, -32767, -1, 0, 1, 1000, 16384, 32766, 32767};
    static const double ushort_values[9] = {0, 1, 2, 32767, 32768, 50000, 65534, 65535, 7};
    static const double uint_values[9] = {0, 1, 2, 70000, 100, 5, 9, 11, 4000000};
    static const double float_values[9] = {0.5, -1.25, 3, 1e-3, -7.75, 0, 2.5, 100, -0.125};
    const double *from = type == BYTE ? byte_values : type == UNSIGNED_BYTE ? ubyte_values : type == SHORT ? short_values
                         : type == UNSIGNED_SHORT ? ushort_values : type == UNSIGNED_INT ? uint_values : float_values;
    memcpy(out, from, sizeof(double) * 9);
}

typedef enum Form { FORM_TIGHT, FORM_STRIDED, FORM_SPARSE, FORM_SPARSE_ONLY, FORM_COUNT } Form;

static const char *const form_names[FORM_COUNT] = {"tightly packed", "strided (16 bytes)", "sparse over a view",
                                                    "sparse without a view"};

/* One triangle whose POSITION is `type` (normalized or not) in `form`; checks the imported positions. */
static void check_position_form(int type, bool normalized, Form form, bool glb)
{
    double raw[9], sparse_raw[3] = {5, 6, 7};
    raw_values(type, raw);
    if (type == FLOAT) sparse_raw[0] = 0.25, sparse_raw[1] = -4.5, sparse_raw[2] = 9;
    int size = component_size(type), element = 3 * size;
    int stride = form == FORM_STRIDED ? 16 : 0;
    unsigned char data[64];
    memset(data, 0xAB, sizeof data);   /* junk between strided elements */
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 3; c++) store(data + (stride ? stride : element) * v + size * c, type, raw[3 * v + c]);
    TestGltf g;
    test_gltf_init(&g);
    int data_bytes = stride ? stride * 2 + element : 3 * element;
    int view = form == FORM_SPARSE_ONLY ? -1 : test_gltf_view(&g, data, (size_t)data_bytes, stride);
    char extra[512] = "";
    double expected_raw[9];
    memcpy(expected_raw, raw, sizeof raw);
    if (form == FORM_SPARSE || form == FORM_SPARSE_ONLY) {
        unsigned char indices[2] = {form == FORM_SPARSE ? 1 : 2, 0}, values[12];
        for (int c = 0; c < 3; c++) store(values + size * c, type, sparse_raw[c]);
        int index_view = test_gltf_view(&g, indices, 1, 0), value_view = test_gltf_view(&g, values, (size_t)element, 0);
        snprintf(extra, sizeof extra,
                 "\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
                 "\"values\":{\"bufferView\":%d}}", index_view, value_view);
        if (form == FORM_SPARSE_ONLY)
            for (int i = 0; i < 9; i++) expected_raw[i] = 0.0;   /* no bufferView: zeros */
        int target = indices[0];
        for (int c = 0; c < 3; c++) expected_raw[3 * target + c] = sparse_raw[c];
    }
    int positions = test_gltf_accessor(&g, view, 0, type, normalized, 3, "VEC3", extra[0] ? extra : NULL);
    float normals[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    int normal_accessor = test_gltf_accessor(&g, test_gltf_view(&g, normals, sizeof normals, 0), 0, FLOAT, false, 3, "VEC3",
                                             NULL);
    char members[1024];
    snprintf(members, sizeof members,
             "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":[\"KHR_mesh_quantization\"],"
             "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"tri\",\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d}}]}]",
             positions, normal_accessor);
    char name[128];
    snprintf(name, sizeof name, "position.%s", glb ? "glb" : "gltf");
    Model model;
    char error[512];
    bool ok = write_and_import(&g, name, members, glb, &model, error, sizeof error);
    CHECK(ok, "POSITION %d%s %s: import failed: %s", type, normalized ? " normalized" : "", form_names[form], error);
    if (!ok) return;
    CHECK(model.mesh_count == 1 && model.meshes[0].vertex_count == 3, "POSITION %d %s: %d meshes", type, form_names[form],
          model.mesh_count);
    if (model.mesh_count == 1 && model.meshes[0].vertex_count == 3) {
        double worst = 0.0;
        for (int v = 0; v < 3; v++)
            for (int c = 0; c < 3; c++) {
                double want = normalized ? spec_normalized(expected_raw[3 * v + c], type) : expected_raw[3 * v + c];
                double got = model.meshes[0].positions[v][c];
                double d = fabs(got - want) / (1.0 + fabs(want));
                if (d > worst) worst = d;
            }
        CHECK(worst <= 1e-6, "POSITION componentType %d%s, %s, %s: off by %g (relative)", type,
              normalized ? " normalized" : "", form_names[form], glb ? "GLB" : "glTF", worst);
    }
    model_free(&model);
}

/* No NORMAL: the spec's flat normals. A bent quad (two triangles sharing an edge, at 90 degrees)
 * with UVs: 6 vertices (one per corner), each corner with its triangle's own normal (+Z for the
 * first, +X for the second: shared corners differ), its UV and position from its source vertex. */
static void check_flat_normals(void)
{
    /* vertices 0..3: triangle 0 = (0, 1, 2) in the z = 0 plane, triangle 1 = (1, 3, 2) in the x = 1 plane */
    float positions[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, -1};
    float uvs[8] = {0.0f, 0.0f, 0.25f, 0.0f, 0.25f, 0.5f, 1.0f, 0.0f};
    uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
    TestGltf g;
    test_gltf_init(&g);
    int pos = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false, 4, "VEC3", NULL);
    int uv = test_gltf_accessor(&g, test_gltf_view(&g, uvs, sizeof uvs, 0), 0, FLOAT, false, 4, "VEC2", NULL);
    int idx = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof indices, 0), 0, UNSIGNED_SHORT, false, 6, "SCALAR",
                                 NULL);
    char members[512];
    snprintf(members, sizeof members,
             "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"fold\",\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"TEXCOORD_0\":%d},\"indices\":%d}]}]",
             pos, uv, idx);
    Model model;
    char error[512];
    bool ok = write_and_import(&g, "flat.gltf", members, false, &model, error, sizeof error);
    CHECK(ok, "no NORMAL: import failed: %s", error);
    if (!ok) return;
    const Mesh *mesh = model.mesh_count == 1 ? &model.meshes[0] : NULL;
    CHECK(mesh && mesh->vertex_count == 6 && mesh->index_count == 6, "no NORMAL: %d vertices (6 corners wanted)",
          mesh ? mesh->vertex_count : -1);
    if (mesh && mesh->vertex_count == 6 && mesh->index_count == 6) {
        const float face[2][3] = {{0, 0, 1}, {1, 0, 0}};   /* (b - a) x (c - a) of each triangle, normalised */
        for (int corner = 0; corner < 6; corner++) {
            int source = indices[corner], t = corner / 3;
            uint32_t v = mesh->indices[corner];
            CHECK(v < 6, "no NORMAL: index %u", v);
            if (v >= 6) continue;
            float dn = 0, dp = 0;
            for (int c = 0; c < 3; c++) {
                dn = fmaxf(dn, fabsf(mesh->normals[v][c] - face[t][c]));
                dp = fmaxf(dp, fabsf(mesh->positions[v][c] - positions[3 * source + c]));
            }
            CHECK(dn < 1e-6f, "no NORMAL: corner %d of triangle %d has normal (%g %g %g)", corner, t, mesh->normals[v][0],
                  mesh->normals[v][1], mesh->normals[v][2]);
            CHECK(dp == 0.0f, "no NORMAL: corner %d is not at its source vertex %d", corner, source);
            /* glTF v runs down the image, skinview's up: v' = 1 - v */
            CHECK(mesh->uvs[v][0] == uvs[2 * source] && mesh->uvs[v][1] == 1.0f - uvs[2 * source + 1],
                  "no NORMAL: corner %d lost its UV", corner);
        }
    }
    model_free(&model);
}

/* Normalized NORMAL (BYTE) and TEXCOORD_0 (UNSIGNED_SHORT), WEIGHTS_0 (UNSIGNED_BYTE or SHORT),
 * rotation keys (BYTE or SHORT), sparse morph deltas: one skinned, animated, morphing triangle. */
static void check_attributes(int weight_type, int rotation_type)
{
    TestGltf g;
    test_gltf_init(&g);
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int position_accessor = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false,
                                               3, "VEC3", "\"min\":[0,0,0],\"max\":[1,1,0]");
    /* normals as normalized BYTE, padded to 4 bytes per vertex (the spec's alignment) */
    const int8_t normals[12] = {0, 0, 127, 0, /**/ 0, 0, -127, 0, /**/ 0, 90, 90, 0};
    int normal_accessor = test_gltf_accessor(&g, test_gltf_view(&g, normals, sizeof normals, 4), 0, BYTE, true, 3,
                                             "VEC3", NULL);
    const uint16_t uvs[6] = {0, 65535, 32768, 0, 65535, 16384};
    int uv_accessor = test_gltf_accessor(&g, test_gltf_view(&g, uvs, sizeof uvs, 0), 0, UNSIGNED_SHORT, true, 3, "VEC2",
                                         NULL);
    const uint8_t joints[12] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    int joint_accessor = test_gltf_accessor(&g, test_gltf_view(&g, joints, sizeof joints, 0), 0, UNSIGNED_BYTE, false, 3,
                                            "VEC4", NULL);
    const double weight_raw[3][2] = {{255, 0}, {128, 127}, {51, 204}};
    double weight_scale = weight_type == UNSIGNED_BYTE ? 1.0 : 257.0;   /* the same fractions as 16-bit values */
    unsigned char weights[3 * 4 * 2];
    memset(weights, 0, sizeof weights);
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 2; k++)
            store(weights + (size_t)component_size(weight_type) * (4 * v + k), weight_type, weight_raw[v][k] * weight_scale);
    int weight_accessor = test_gltf_accessor(&g, test_gltf_view(&g, weights, (size_t)component_size(weight_type) * 12, 0),
                                             0, weight_type, true, 3, "VEC4", NULL);
    float binds[32] = {0};
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 4; i++) binds[16 * m + 5 * i] = 1.0f;
    int bind_accessor = test_gltf_accessor(&g, test_gltf_view(&g, binds, sizeof binds, 0), 0, FLOAT, false, 2, "MAT4", NULL);
    /* morph target: POSITION deltas sparse without a view (vertex 2 moves by (0, 0, 2)) */
    const uint8_t delta_index[1] = {2};
    const float delta_value[3] = {0, 0, 2};
    int di = test_gltf_view(&g, delta_index, 1, 0), dv = test_gltf_view(&g, delta_value, sizeof delta_value, 0);
    char sparse[256];
    snprintf(sparse, sizeof sparse,
             "\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":%d,\"componentType\":5121},\"values\":{\"bufferView\":%d}}",
             di, dv);
    int delta_accessor = test_gltf_accessor(&g, -1, 0, FLOAT, false, 3, "VEC3", sparse);
    /* rotation keys: identity, then 90 degrees about Y stored unnormalized-looking: (0, 90, 0, 90) / max */
    const float times[2] = {0, 1};
    int time_accessor = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, FLOAT, false, 2, "SCALAR",
                                           "\"min\":[0],\"max\":[1]");
    double max = rotation_type == BYTE ? 127.0 : 32767.0;
    const double rotation_raw[8] = {0, 0, 0, max, 0, 90.0 / 127.0 * max, 0, 90.0 / 127.0 * max};
    unsigned char rotations[16];
    for (int i = 0; i < 8; i++) store(rotations + (size_t)component_size(rotation_type) * i, rotation_type, round(rotation_raw[i]));
    int rotation_accessor = test_gltf_accessor(
        &g, test_gltf_view(&g, rotations, (size_t)component_size(rotation_type) * 8, 0), 0, rotation_type, true, 2, "VEC4",
        NULL);
    char members[2048];
    snprintf(members, sizeof members,
             "\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
             "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"root\",\"children\":[1,2]},{\"name\":\"body\",\"mesh\":0,\"skin\":0},"
             "{\"name\":\"hip\",\"children\":[3]},{\"name\":\"knee\",\"translation\":[0,1,0]}],"
             "\"skins\":[{\"joints\":[2,3],\"inverseBindMatrices\":%d}],"
             "\"meshes\":[{\"weights\":[0.5],\"extras\":{\"targetNames\":[\"lift\"]},\"primitives\":[{\"attributes\":"
             "{\"POSITION\":%d,\"NORMAL\":%d,\"TEXCOORD_0\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"targets\":[{\"POSITION\":%d}]}]}],"
             "\"animations\":[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}],"
             "\"samplers\":[{\"input\":%d,\"output\":%d}]}]",
             bind_accessor, position_accessor, normal_accessor, uv_accessor, joint_accessor, weight_accessor, delta_accessor,
             time_accessor, rotation_accessor);
    Model model;
    char error[512];
    bool ok = write_and_import(&g, "attributes.glb", members, true, &model, error, sizeof error);
    CHECK(ok, "attributes (weights %d, rotations %d): import failed: %s", weight_type, rotation_type, error);
    if (!ok) return;
    const Mesh *mesh = &model.meshes[0];
    /* normals: normalized BYTE; the reader keeps the file's (non-unit) length for (0, 90, 90)/127 */
    const double want_normals[3][3] = {{0, 0, 1}, {0, 0, -1}, {0, 90.0 / 127, 90.0 / 127}};
    double worst = 0.0;
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(mesh->normals[v][c] - want_normals[v][c]));
    CHECK(worst <= 1e-6, "normalized BYTE normals off by %g", worst);
    worst = 0.0;
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 2; c++) {   /* v flipped: skinview's UV origin is bottom-left */
            double want = uvs[2 * v + c] / 65535.0;
            worst = fmax(worst, fabs(mesh->uvs[v][c] - (c == 1 ? 1.0 - want : want)));
        }
    CHECK(worst <= 1e-6, "normalized UNSIGNED_SHORT uvs off by %g", worst);
    /* weights: c / max, then renormalised to sum 1 (they already do, up to rounding) */
    CHECK(mesh->skinned && mesh->bone_count == 2, "skin: %d bones", mesh->bone_count);
    worst = 0.0;
    for (int v = 0; mesh->skinned && v < 3; v++) {
        double a = spec_normalized(weight_raw[v][0] * weight_scale, weight_type);
        double b = spec_normalized(weight_raw[v][1] * weight_scale, weight_type);
        double want[2] = {a / (a + b), b / (a + b)};   /* bone k = joint k here */
        double got[2] = {0, 0};
        for (int k = 0; k < SV_MAX_INFLUENCES; k++)
            if (mesh->weights[v][k] > 0.0f) got[mesh->joint_indices[v][k]] += mesh->weights[v][k];
        worst = fmax(worst, fmax(fabs(got[0] - want[0]), fabs(got[1] - want[1])));
    }
    CHECK(worst <= 1e-6, "normalized weights (componentType %d) off by %g", weight_type, worst);
    /* morph: sparse deltas without a view, default weight and name from the mesh */
    CHECK(mesh->morph_target_count == 1 && strcmp(mesh->morph_target_names[0], "lift") == 0 &&
              mesh->morph_default_weights[0] == 0.5f,
          "morph target: %d targets", mesh->morph_target_count);
    if (mesh->morph_target_count == 1)
        CHECK(mesh->morph_position_deltas[2][2] == 2.0f && mesh->morph_position_deltas[0][2] == 0.0f &&
                  mesh->morph_position_deltas[1][0] == 0.0f,
              "sparse morph deltas: vertex 2 z %g", mesh->morph_position_deltas[2][2]);
    /* rotation keys: normalized integers, then made unit quaternions */
    CHECK(model.clip_count == 1 && model.clips[0].track_count == 1 && model.clips[0].tracks[0].rotation_count == 2,
          "rotation clip: %d clips", model.clip_count);
    if (model.clip_count == 1 && model.clips[0].track_count == 1 && model.clips[0].tracks[0].rotation_count == 2) {
        const float *q = model.clips[0].tracks[0].rotation_values[1];
        double r = 0.70710678118654752;
        CHECK(fabs(q[0]) < 1e-6 && fabs(q[1] - r) < 1e-6 && fabs(q[2]) < 1e-6 && fabs(q[3] - r) < 1e-6,
              "rotation key (componentType %d): (%g %g %g %g), 90 degrees about Y expected", rotation_type, q[0], q[1],
              q[2], q[3]);
        const float *q0 = model.clips[0].tracks[0].rotation_values[0];
        CHECK(fabs(q0[3] - 1.0) < 1e-6, "rotation key 0: w %g", q0[3]);
    }
    model_free(&model);
}

static void test_accessors(void)
{
    const int types[6] = {BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, UNSIGNED_INT, FLOAT};
    for (int t = 0; t < 6; t++)
        for (int normalized = 0; normalized < 2; normalized++) {
            if (normalized && (types[t] == FLOAT || types[t] == UNSIGNED_INT)) continue;   /* the spec allows neither */
            for (int form = 0; form < FORM_COUNT; form++) check_position_form(types[t], normalized, (Form)form, form % 2 == 0);
        }
    check_attributes(UNSIGNED_BYTE, BYTE);
    check_attributes(UNSIGNED_SHORT, SHORT);
    check_flat_normals();
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    snprintf(temp_dir, sizeof temp_dir, "/tmp/skinview_gltf_reader_XXXXXX");
    if (!mkdtemp(temp_dir)) return 1;
    if (strcmp(what, "conformance") == 0 && !test_file_exists(SKINVIEW_SHARED_MODELS_DIR "/gltf-asset-generator")) {
        printf("../shared/models/gltf-asset-generator not present: skipped\n");
        rmdir(temp_dir);
        return TEST_SKIP_CODE;
    }
    static const TestMode modes[] = {{"accessors", test_accessors}, {"refusals", test_refusals},
                                     {"damaged", test_damaged},     {"once", test_read_once},
                                     {"skins", test_skins},         {"conformance", test_conformance}};
    if (!test_run_mode("test_gltf_reader", what, modes, (int)(sizeof modes / sizeof modes[0]))) return 2;
    test_remove_folder(temp_dir);
    return test_finish();
}
