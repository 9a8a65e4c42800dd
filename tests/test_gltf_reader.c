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

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char temp_dir[256];

enum { BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126 };

static int component_size(int type)
{
    return type == BYTE || type == UNSIGNED_BYTE ? 1 : type == SHORT || type == UNSIGNED_SHORT ? 2 : 4;
}

/* The spec's normalized-integer formulas (glTF 2.0, 3.11), written out independently of the reader. */
static double spec_normalized(double c, int type)
{
    switch (type) {
    case BYTE: return c / 127.0 < -1.0 ? -1.0 : c / 127.0;
    case UNSIGNED_BYTE: return c / 255.0;
    case SHORT: return c / 32767.0 < -1.0 ? -1.0 : c / 32767.0;
    case UNSIGNED_SHORT: return c / 65535.0;
    default: return c;
    }
}

/* Stores integer (or float) value c as one component of `type` at p, little-endian. */
static void store(unsigned char *p, int type, double c)
{
    if (type == FLOAT) {
        float f = (float)c;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        for (int i = 0; i < 4; i++) p[i] = (unsigned char)(bits >> (8 * i));
        return;
    }
    int64_t v = (int64_t)c;
    for (int i = 0; i < component_size(type); i++) p[i] = (unsigned char)((uint64_t)v >> (8 * i));
}

static bool import_quiet(const char *path, Model *model, char *error, size_t error_size, int max_bones)
{
    ImportOptions options = {.quiet = true, .max_bones_per_mesh = max_bones};
    return import_model(path, &options, model, error, error_size);
}

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
    char path[512];
    snprintf(path, sizeof path, "%s/position.%s", temp_dir, glb ? "glb" : "gltf");
    CHECK(test_gltf_write(&g, path, members, glb), "write %s", path);
    test_gltf_free(&g);

    Model model;
    char error[512];
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
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
    char path[512];
    snprintf(path, sizeof path, "%s/flat.gltf", temp_dir);
    CHECK(test_gltf_write(&g, path, members, false), "write %s", path);
    test_gltf_free(&g);
    Model model;
    char error[512];
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
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
    char path[512];
    snprintf(path, sizeof path, "%s/attributes.glb", temp_dir);
    CHECK(test_gltf_write(&g, path, members, true), "write %s", path);
    test_gltf_free(&g);

    Model model;
    char error[512];
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
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

/* ---- refusals ------------------------------------------------------------------------------ */

/* A triangle that lists `required` as extensionsRequired (and used). */
static bool write_requiring(const char *path, const char *required)
{
    TestGltf g;
    test_gltf_init(&g);
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int p = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false, 3, "VEC3", NULL);
    char members[512];
    snprintf(members, sizeof members,
             "\"extensionsUsed\":[\"%s\"],\"extensionsRequired\":[\"%s\"],\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d}}]}]",
             required, required, p);
    bool ok = test_gltf_write(&g, path, members, strstr(path, ".glb") != NULL);
    test_gltf_free(&g);
    return ok;
}

/* Runs the binary on path with --info; exit code, stderr into err. */
static int run_info(const char *path, char *err, size_t err_size)
{
    char command[1200];
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1 >/dev/null", SKINVIEW_BINARY, path);
    return test_run_capture(command, err, err_size);
}

static bool one_line(const char *text)
{
    size_t n = strlen(text);
    return n > 0 && strchr(text, '\n') == text + n - 1;
}

static void test_refusals(void)
{
    const char *unsupported[] = {"KHR_texture_basisu", "KHR_materials_pbrSpecularGlossiness", "EXT_mesh_gpu_instancing",
                                 "KHR_technique_webgl", "KHR_materials_variants", "MSFT_lod", "ACME_made_up"};
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++) {
        char path[512], error[512], want[256], err[4096];
        snprintf(path, sizeof path, "%s/requires.%s", temp_dir, i % 2 ? "glb" : "gltf");
        CHECK(write_requiring(path, unsupported[i]), "write %s", path);
        Model model;
        bool ok = import_quiet(path, &model, error, sizeof error, 0);
        snprintf(want, sizeof want, "requires glTF extension '%s', which skinview does not support", unsupported[i]);
        CHECK(!ok && strstr(error, want) != NULL, "%s: import %s (error '%s')", unsupported[i], ok ? "succeeded" : "failed",
              error);
        if (ok) model_free(&model);
        int code = run_info(path, err, sizeof err);
        CHECK(code == 1 && one_line(err) && strstr(err, want), "%s: binary exit %d: %s", unsupported[i], code, err);
    }
    const char *supported[] = {"KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_emissive_strength"};
    for (size_t i = 0; i < sizeof supported / sizeof *supported; i++) {
        char path[512], error[512];
        snprintf(path, sizeof path, "%s/requires_ok.gltf", temp_dir);
        CHECK(write_requiring(path, supported[i]), "write %s", path);
        Model model;
        bool ok = import_quiet(path, &model, error, sizeof error, 0);
        CHECK(ok, "%s is supported, yet: %s", supported[i], error);
        if (ok) {
            CHECK(strcmp(model.extensions_required, supported[i]) == 0 && strcmp(model.extensions_used, supported[i]) == 0,
                  "extensions kept: used '%s', required '%s'", model.extensions_used, model.extensions_required);
            model_free(&model);
        }
    }
}

/* ---- damaged files ----------------------------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Writes `size` bytes, imports them (must fail with one line), and runs the binary (exit 1, one line). */
static void expect_damaged(const char *what, const char *name, const void *bytes, size_t size, const char *word)
{
    char path[512], error[512], err[4096];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, size, f) == size, "write %s", path);
    if (f) fclose(f);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(!ok && error[0] && !strchr(error, '\n'), "%s: import %s: '%s'", what, ok ? "succeeded" : "failed", error);
    if (word) CHECK(strstr(error, word) != NULL, "%s: the error '%s' does not say '%s'", what, error, word);
    if (ok) model_free(&model);
    int code = run_info(path, err, sizeof err);
    CHECK(code == 1 && one_line(err), "%s: binary exit %d, stderr: %s", what, code, err);
    printf("%-44s %s", what, err);
}

/* A valid triangle as GLB bytes (malloc) plus, for the JSON-level damage, a template. */
static size_t valid_glb(unsigned char **out, const char *accessor_patch)
{
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    char json[1024];
    int n = snprintf(json, sizeof json,
                     "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
                     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],\"buffers\":[{\"byteLength\":36}],"
                     "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36}],"
                     "\"accessors\":[%s]}",
                     accessor_patch ? accessor_patch : "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}");
    return test_glb_bytes(json, (size_t)n, positions, sizeof positions, out);
}

static void test_damaged(void)
{
    unsigned char *glb = NULL;
    size_t size = valid_glb(&glb, NULL);
    char path[512], error[512];
    snprintf(path, sizeof path, "%s/valid.glb", temp_dir);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(glb, 1, size, f) == size, "write");
    if (f) fclose(f);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "the undamaged GLB: %s", error);
    if (ok) model_free(&model);

    unsigned char *copy = malloc(size + 64);
    memcpy(copy, glb, size);
    put32(copy + 8, (uint32_t)size + 100);
    expect_damaged("GLB header length past the file", "long.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    put32(copy + 12, (uint32_t)size);
    expect_damaged("JSON chunk length past the end", "json_chunk.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    memcpy(copy + 16, "BIN", 4);
    expect_damaged("first chunk not JSON", "first_chunk.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    put32(copy + 4, 3);
    expect_damaged("GLB version 3", "version.glb", copy, size, "version");
    expect_damaged("GLB cut after 15 bytes", "cut15.glb", glb, 15, "truncated or damaged glTF binary");
    expect_damaged("GLB cut inside the BIN chunk", "cut_bin.glb", glb, size - 8, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    uint32_t json_length = (uint32_t)copy[12] | (uint32_t)copy[13] << 8;
    copy[20] = '#';   /* the opening brace */
    expect_damaged("GLB with damaged JSON", "json.glb", copy, size, "JSON");
    /* BIN chunk shorter than the buffer's byteLength */
    memcpy(copy, glb, size);
    uint32_t bin_at = 20 + ((json_length + 3) & ~3u);
    put32(copy + bin_at, 24);
    put32(copy + 8, bin_at + 8 + 24);
    expect_damaged("BIN chunk shorter than the buffer", "short_bin.glb", copy, bin_at + 8 + 24, "fewer than its byteLength");
    free(copy);
    free(glb);

    const char *text = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0}";
    expect_damaged("truncated .gltf JSON", "cut.gltf", text, strlen(text), "JSON");
    const char *patches[][2] = {
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}", "accessor past its bufferView"},
        {"{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", "accessor offset past its view"},
        {"{\"bufferView\":7,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", "bufferView that does not exist"},
        {"{\"bufferView\":0,\"componentType\":5127,\"count\":3,\"type\":\"VEC3\"}", "unknown componentType"},
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC7\"}", "unknown type"},
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,\"indices\":"
         "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5125},\"values\":{\"bufferView\":0}}}",
         "sparse index past count"},   /* index = the bits of 1.0f */
        {"{\"componentType\":5126,\"count\":300000000,\"type\":\"VEC3\"}", "absurd count without a view"},
    };
    for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
        size = valid_glb(&glb, patches[i][0]);
        char name[64];
        snprintf(name, sizeof name, "patch%zu.glb", i);
        expect_damaged(patches[i][1], name, glb, size, NULL);
        free(glb);
    }
    const char *cycle = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[1]},"
                        "{\"children\":[0]}]}";
    expect_damaged("a node cycle", "cycle.gltf", cycle, strlen(cycle), "recursive reference");
    const char *child = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[5]}]}";
    expect_damaged("a child that does not exist", "child.gltf", child, strlen(child), "child");
}

/* ---- read once ------------------------------------------------------------------------------------- */

static void test_read_once(void)
{
    unsigned char *glb = NULL;
    size_t size = valid_glb(&glb, NULL);
    char path[512], error[512];
    snprintf(path, sizeof path, "%s/once.glb", temp_dir);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(glb, 1, size, f) == size, "write");
    if (f) fclose(f);
    free(glb);
    long before = gltf_file_reads();
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "import: %s", error);
    if (ok) model_free(&model);
    CHECK(gltf_file_reads() - before == 1, "the .glb was read %ld times", gltf_file_reads() - before);
    /* the demo (a real skinned, animated .glb) */
    before = gltf_file_reads();
    ok = import_quiet(SKINVIEW_SOURCE_DIR "/assets/demo.glb", &model, error, sizeof error, 0);
    CHECK(ok, "demo.glb: %s", error);
    if (ok) model_free(&model);
    CHECK(gltf_file_reads() - before == 1, "demo.glb was read %ld times", gltf_file_reads() - before);
}

/* ---- skins per node, --max-bones ------------------------------------------------------------------- */

/* A strip of `quads` quads up the Y axis, one joint per row (a chain), each row weighted to its
 * joint; used by `uses` nodes with skins of their own (skin s: joints chain s). */
static bool write_strip(const char *path, int quads, int uses)
{
    enum { MAX_QUADS = 16 };
    if (quads > MAX_QUADS) return false;
    TestGltf g;
    test_gltf_init(&g);
    int rows = quads + 1, vertices = 2 * rows;
    float positions[2 * (MAX_QUADS + 1) * 3];
    uint8_t joints[2 * (MAX_QUADS + 1) * 4];
    float weights[2 * (MAX_QUADS + 1) * 4];
    uint16_t indices[MAX_QUADS * 6];
    memset(joints, 0, sizeof joints);
    memset(weights, 0, sizeof weights);
    for (int r = 0; r < rows; r++)
        for (int side = 0; side < 2; side++) {
            int v = 2 * r + side;
            positions[3 * v] = (float)side, positions[3 * v + 1] = (float)r, positions[3 * v + 2] = 0;
            joints[4 * v] = (uint8_t)r;
            weights[4 * v] = 1.0f;
        }
    for (int q = 0; q < quads; q++) {
        uint16_t a = (uint16_t)(2 * q), b = (uint16_t)(a + 1), c = (uint16_t)(a + 2), d = (uint16_t)(a + 3);
        uint16_t quad[6] = {a, b, d, a, d, c};
        memcpy(indices + 6 * q, quad, sizeof quad);
    }
    int p = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof(float) * 3 * (size_t)vertices, 0), 0, FLOAT, false,
                               vertices, "VEC3", NULL);
    int j = test_gltf_accessor(&g, test_gltf_view(&g, joints, 4 * (size_t)vertices, 0), 0, UNSIGNED_BYTE, false, vertices,
                               "VEC4", NULL);
    int w = test_gltf_accessor(&g, test_gltf_view(&g, weights, sizeof(float) * 4 * (size_t)vertices, 0), 0, FLOAT, false,
                               vertices, "VEC4", NULL);
    int ix = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof(uint16_t) * 6 * (size_t)quads, 0), 0,
                                UNSIGNED_SHORT, false, 6 * quads, "SCALAR", NULL);
    const float times[2] = {0, 1}, turn[8] = {0, 0, 0, 1, 0, 0, 0.2588190f, 0.9659258f};
    int ti = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, FLOAT, false, 2, "SCALAR",
                                "\"min\":[0],\"max\":[1]");
    int tu = test_gltf_accessor(&g, test_gltf_view(&g, turn, sizeof turn, 0), 0, FLOAT, false, 2, "VEC4", NULL);
    /* nodes: 0 root; then per use: a mesh node and a chain of `rows` joints (each one unit above
     * its parent; inverse binds missing: identities, so the chain's rest must put joint r at 0) */
    char *members = malloc(65536);
    int n = snprintf(members, 65536, "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"root\",\"children\":[");
    int node = 1;
    for (int u = 0; u < uses; u++) n += snprintf(members + n, 65536 - (size_t)n, "%s%d,%d", u ? "," : "", node + u * (rows + 1), node + u * (rows + 1) + 1);
    n += snprintf(members + n, 65536 - (size_t)n, "]}");
    for (int u = 0; u < uses; u++) {
        int base = node + u * (rows + 1);
        n += snprintf(members + n, 65536 - (size_t)n, ",{\"name\":\"strip%d\",\"mesh\":0,\"skin\":%d}", u, u);
        for (int r = 0; r < rows; r++) {
            n += snprintf(members + n, 65536 - (size_t)n, ",{\"name\":\"u%d_j%d\",\"translation\":[%g,0,0]", u, r,
                          r == 0 ? 3.0 * u : 0.0);
            if (r + 1 < rows) n += snprintf(members + n, 65536 - (size_t)n, ",\"children\":[%d]", base + 2 + r);
            n += snprintf(members + n, 65536 - (size_t)n, "}");
        }
    }
    n += snprintf(members + n, 65536 - (size_t)n, "],\"skins\":[");
    for (int u = 0; u < uses; u++) {
        int base = node + u * (rows + 1);
        n += snprintf(members + n, 65536 - (size_t)n, "%s{\"joints\":[", u ? "," : "");
        for (int r = 0; r < rows; r++) n += snprintf(members + n, 65536 - (size_t)n, "%s%d", r ? "," : "", base + 1 + r);
        n += snprintf(members + n, 65536 - (size_t)n, "]}");
    }
    n += snprintf(members + n, 65536 - (size_t)n,
                  "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},"
                  "\"indices\":%d}]}],\"animations\":[{\"name\":\"bend\",\"channels\":[",
                  p, j, w, ix);
    for (int r = 1; r < rows; r++)
        n += snprintf(members + n, 65536 - (size_t)n, "%s{\"sampler\":0,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                      r > 1 ? "," : "", node + 1 + r);
    snprintf(members + n, 65536 - (size_t)n, "],\"samplers\":[{\"input\":%d,\"output\":%d}]}]", ti, tu);
    bool ok = test_gltf_write(&g, path, members, false);
    free(members);
    test_gltf_free(&g);
    return ok;
}

/* Posed vertices of every mesh, per triangle corner (so split and unsplit meshes compare). */
static int posed_corners(const Model *model, int clip, float time, vec3 *out, int capacity)
{
    Animator animator;
    if (!animator_init(&animator, model)) return -1;
    animator_evaluate(&animator, clip, time);
    int n = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        vec3 *posed = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        animator_skin_mesh(&animator, m, posed, NULL);
        for (int i = 0; i < mesh->index_count && n < capacity; i++) glm_vec3_copy(posed[mesh->indices[i]], out[n++]);
        free(posed);
    }
    animator_free(&animator);
    return n;
}

static void test_skins(void)
{
    char path[512], error[512];
    snprintf(path, sizeof path, "%s/strip2.gltf", temp_dir);
    CHECK(write_strip(path, 6, 2), "write %s", path);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "two skins: %s", error);
    if (ok) {
        CHECK(model.mesh_count == 2, "one mesh used by two nodes: %d meshes", model.mesh_count);
        if (model.mesh_count == 2) {
            const Mesh *a = &model.meshes[0], *b = &model.meshes[1];
            CHECK(a->skinned && b->skinned && a->bone_count == 7 && b->bone_count == 7, "bones %d and %d", a->bone_count,
                  b->bone_count);
            bool disjoint = true;
            for (int i = 0; i < a->bone_count; i++)
                for (int k = 0; k < b->bone_count; k++) disjoint = disjoint && a->bone_joint[i] != b->bone_joint[k];
            CHECK(disjoint, "the two uses share bones: each should have its own skin");
            /* the second use's skin sits 3 units along X: its posed vertices are there */
            vec3 corners[200];
            int n = posed_corners(&model, 0, 1.0f, corners, 200);
            CHECK(n == 2 * 36, "%d corners", n);
            float min_b = HUGE_VALF, max_a = -HUGE_VALF;
            for (int i = 0; i < 36 && i < n; i++) max_a = fmaxf(max_a, corners[i][0]);
            for (int i = 36; i < n; i++) min_b = fminf(min_b, corners[i][0]);
            CHECK(max_a < min_b, "the planes overlap: each use must follow its own skin (max x %g, min x %g)", max_a, min_b);
        }
        model_free(&model);
    }

    /* --max-bones: a 7-bone strip at a limit of 3 */
    snprintf(path, sizeof path, "%s/strip1.gltf", temp_dir);
    CHECK(write_strip(path, 6, 1), "write %s", path);
    Model whole, split;
    bool ok_whole = import_quiet(path, &whole, error, sizeof error, 0);
    CHECK(ok_whole, "strip: %s", error);
    bool ok_split = import_quiet(path, &split, error, sizeof error, 3);
    CHECK(ok_split, "strip with --max-bones 3: %s", error);
    if (ok_whole && ok_split) {
        CHECK(split.mesh_count > 1 && split.stats.meshes_split_by_bones == split.mesh_count - 1, "%d meshes, %d split",
              split.mesh_count, split.stats.meshes_split_by_bones);
        int triangles = 0;
        for (int m = 0; m < split.mesh_count; m++) {
            CHECK(split.meshes[m].bone_count <= 3, "piece %d has %d bones", m, split.meshes[m].bone_count);
            triangles += split.meshes[m].index_count / 3;
        }
        CHECK(triangles == whole.meshes[0].index_count / 3, "%d triangles after the split, %d before", triangles,
              whole.meshes[0].index_count / 3);
        vec3 a[64], b[64];
        float times[3] = {0.0f, 0.5f, 1.0f};
        for (int t = 0; t < 3; t++) {
            int na = posed_corners(&whole, 0, times[t], a, 64), nb = posed_corners(&split, 0, times[t], b, 64);
            float worst = 0.0f;
            for (int i = 0; i < na && i < nb; i++) worst = fmaxf(worst, glm_vec3_distance(a[i], b[i]));
            CHECK(na == nb && worst <= 1e-5f, "t=%g: split pose differs by %g (%d / %d corners)", times[t], worst, na, nb);
        }
    }
    if (ok_whole) model_free(&whole);
    if (ok_split) model_free(&split);
    ok = import_quiet(path, &model, error, sizeof error, 1);
    CHECK(!ok && strstr(error, "a triangle uses 2 bones"), "--max-bones 1: %s", ok ? "accepted" : error);
    if (ok) model_free(&model);
}

/* ---- conformance models ------------------------------------------------------------------------------ */

/* Writes the float twin of a conformance model: accessor `accessor` (normalized integers) replaced
 * by FLOAT values worked out here with the spec's formula, in a buffer of its own; the other
 * buffers keep their files (absolute paths). */
static bool write_float_twin(const char *folder, const char *name, int accessor, const char *out_path)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    char *text = test_read_file(path, NULL);
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!json) return false;
    cJSON *accessors = cJSON_GetObjectItem(json, "accessors"), *views = cJSON_GetObjectItem(json, "bufferViews"),
          *buffers = cJSON_GetObjectItem(json, "buffers");
    cJSON *a = cJSON_GetArrayItem(accessors, accessor);
    cJSON *view = cJSON_GetArrayItem(views, cJSON_GetObjectItem(a, "bufferView")->valueint);
    cJSON *buffer = cJSON_GetArrayItem(buffers, cJSON_GetObjectItem(view, "buffer")->valueint);
    snprintf(path, sizeof path, "%s/%s", folder, cJSON_GetObjectItem(buffer, "uri")->valuestring);
    char *bin = test_read_file(path, NULL);
    int type = cJSON_GetObjectItem(a, "componentType")->valueint, count = cJSON_GetObjectItem(a, "count")->valueint;
    const char *kind = cJSON_GetObjectItem(a, "type")->valuestring;
    int components = strcmp(kind, "SCALAR") == 0 ? 1 : kind[3] - '0';
    int size = component_size(type);
    cJSON *stride_item = cJSON_GetObjectItem(view, "byteStride");
    int stride = stride_item ? stride_item->valueint : size * components;
    cJSON *vo = cJSON_GetObjectItem(view, "byteOffset"), *ao = cJSON_GetObjectItem(a, "byteOffset");
    long start = (vo ? vo->valueint : 0) + (ao ? ao->valueint : 0);
    float *floats = malloc(sizeof(float) * (size_t)count * (size_t)components);
    for (int i = 0; bin && floats && i < count; i++)
        for (int c = 0; c < components; c++) {
            const unsigned char *p = (const unsigned char *)bin + start + (long)stride * i + size * c;
            double v = type == BYTE ? (int8_t)p[0] : type == UNSIGNED_BYTE ? p[0]
                       : type == SHORT ? (int16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] | p[1] << 8);
            floats[i * components + c] = (float)spec_normalized(v, type);
        }
    free(bin);
    size_t bytes = sizeof(float) * (size_t)count * (size_t)components;
    char *encoded = malloc(4 * (bytes / 3 + 1) + 64);
    strcpy(encoded, "data:application/octet-stream;base64,");
    test_base64((const unsigned char *)floats, bytes, encoded + strlen(encoded));
    free(floats);
    cJSON *item;
    cJSON_ArrayForEach(item, buffers) {   /* the other buffers stay where they are */
        cJSON *uri = cJSON_GetObjectItem(item, "uri");
        if (cJSON_IsString(uri) && strncmp(uri->valuestring, "data:", 5) != 0) {
            snprintf(path, sizeof path, "%s/%s", folder, uri->valuestring);
            cJSON_SetValuestring(uri, path);
        }
    }
    cJSON *new_buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(new_buffer, "byteLength", (double)bytes);
    cJSON_AddStringToObject(new_buffer, "uri", encoded);
    free(encoded);
    cJSON_AddItemToArray(buffers, new_buffer);
    cJSON *new_view = cJSON_CreateObject();
    cJSON_AddNumberToObject(new_view, "buffer", cJSON_GetArraySize(buffers) - 1);
    cJSON_AddNumberToObject(new_view, "byteLength", (double)bytes);
    cJSON_AddItemToArray(views, new_view);
    cJSON_ReplaceItemInObject(a, "bufferView", cJSON_CreateNumber(cJSON_GetArraySize(views) - 1));
    cJSON_ReplaceItemInObject(a, "componentType", cJSON_CreateNumber(FLOAT));
    cJSON_DeleteItemFromObject(a, "normalized");
    cJSON_DeleteItemFromObject(a, "byteOffset");
    char *printed = cJSON_Print(json);
    cJSON_Delete(json);
    FILE *f = fopen(out_path, "w");
    bool ok = f && printed && fputs(printed, f) >= 0;
    if (f) ok = fclose(f) == 0 && ok;
    free(printed);
    return ok;
}

/* Index of the accessor a JSON pointer-like walk names: animations[0].samplers[0].output or
 * meshes[0].primitives[0].attributes.WEIGHTS_0. */
static int find_accessor(const char *folder, const char *name, bool weights)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    char *text = test_read_file(path, NULL);
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    free(text);
    int index = -1;
    if (json && weights) {
        cJSON *attributes = cJSON_GetObjectItem(
            cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "meshes"), 0), "primitives"), 0),
            "attributes");
        cJSON *w = cJSON_GetObjectItem(attributes, "WEIGHTS_0");
        index = w ? w->valueint : -1;
    } else if (json) {
        cJSON *sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "animations"), 0),
                                                               "samplers"), 0);
        cJSON *o = cJSON_GetObjectItem(sampler, "output");
        index = o ? o->valueint : -1;
    }
    cJSON_Delete(json);
    return index;
}

/* Largest distance between the posed corners of two models over the first clip at 13 times. */
static float pose_difference(const Model *a, const Model *b, float *moved)
{
    float worst = 0.0f;
    *moved = 0.0f;
    if (a->clip_count < 1 || b->clip_count < 1) return HUGE_VALF;
    enum { CAP = 4096 };
    vec3 *pa = malloc(sizeof(vec3) * CAP), *pb = malloc(sizeof(vec3) * CAP), *rest = malloc(sizeof(vec3) * CAP);
    int nr = posed_corners(a, ANIMATOR_BIND_POSE, 0.0f, rest, CAP);
    for (int k = 0; k <= 12; k++) {
        float t = a->clips[0].duration * (float)k / 12.0f;
        int na = posed_corners(a, 0, t, pa, CAP), nb = posed_corners(b, 0, t, pb, CAP);
        if (na != nb) worst = HUGE_VALF;
        for (int i = 0; i < na && i < nb; i++) worst = fmaxf(worst, glm_vec3_distance(pa[i], pb[i]));
        for (int i = 0; i < na && i < nr; i++) *moved = fmaxf(*moved, glm_vec3_distance(pa[i], rest[i]));
    }
    free(pa), free(pb), free(rest);
    return worst;
}

static void check_twin(const char *folder, const char *name, bool weights)
{
    char path[1024], twin[512], error[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    snprintf(twin, sizeof twin, "%s/twin_%s", temp_dir, name);
    int accessor = find_accessor(folder, name, weights);
    CHECK(accessor >= 0 && write_float_twin(folder, name, accessor, twin), "%s: float twin not written", name);
    Model model, float_model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "%s: %s", name, error);
    bool ok_twin = import_quiet(twin, &float_model, error, sizeof error, 0);
    CHECK(ok_twin, "%s float twin: %s", name, error);
    if (ok && ok_twin) {
        float moved = 0.0f, d = pose_difference(&model, &float_model, &moved);
        CHECK(d <= 1e-6f, "%s: poses differ from the float twin by %g", name, d);
        CHECK(moved > 0.1f, "%s: the clip moves the mesh by only %g", name, moved);
        printf("%s: float twin difference %g, the clip moves vertices up to %g\n", name, d, moved);
        if (!weights && model.clip_count == 1 && model.clips[0].track_count == 1) {   /* +-90 degrees about Y */
            const JointTrack *track = &model.clips[0].tracks[0];
            float most = 0.0f;
            bool about_y = true;
            for (int k = 0; k < track->rotation_count; k++) {
                const float *q = track->rotation_values[k];
                about_y = about_y && fabsf(q[0]) < 1e-3f && fabsf(q[2]) < 1e-3f;
                most = fmaxf(most, 2.0f * acosf(fminf(1.0f, fabsf(q[3]))) * 180.0f / 3.14159265f);
            }
            CHECK(about_y && fabsf(most - 90.0f) < 1.0f, "%s: keys turn %g degrees (about Y: %d)", name, most, about_y);
        }
    }
    if (ok) model_free(&model);
    if (ok_twin) model_free(&float_model);
}

static void test_conformance(void)
{
    const char *folder = SKINVIEW_SHARED_MODELS_DIR "/gltf-asset-generator";
    check_twin(folder, "Animation_SamplerType_01.gltf", false);
    check_twin(folder, "Animation_SkinType_01.gltf", true);

    char path[1024], error[512];
    snprintf(path, sizeof path, "%s/Animation_Skin_11.gltf", folder);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "Skin_11: %s", error);
    if (!ok) return;
    CHECK(model.mesh_count == 2 && model.meshes[0].skinned && model.meshes[1].skinned, "Skin_11: %d meshes", model.mesh_count);
    if (model.mesh_count == 2) {
        bool same_joints = model.meshes[0].bone_count == model.meshes[1].bone_count;
        for (int i = 0; same_joints && i < model.meshes[0].bone_count; i++)
            same_joints = model.meshes[0].bone_joint[i] == model.meshes[1].bone_joint[i];
        CHECK(!same_joints, "Skin_11: both uses bound to the same joints");
        vec3 corners[64];
        int n = posed_corners(&model, ANIMATOR_REST_POSE, 0.0f, corners, 64);
        float apart = 0.0f;
        for (int i = 0; i < n / 2; i++) apart = fmaxf(apart, glm_vec3_distance(corners[i], corners[i + n / 2]));
        CHECK(n == 24 && apart > 0.1f, "Skin_11: the two planes coincide (%d corners, up to %g apart)", n, apart);
        printf("Skin_11: two planes, corners up to %g apart\n", apart);
    }
    model_free(&model);
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
    if (strcmp(what, "accessors") == 0) test_accessors();
    else if (strcmp(what, "refusals") == 0) test_refusals();
    else if (strcmp(what, "damaged") == 0) test_damaged();
    else if (strcmp(what, "once") == 0) test_read_once();
    else if (strcmp(what, "skins") == 0) test_skins();
    else if (strcmp(what, "conformance") == 0) test_conformance();
    else {
        fprintf(stderr, "usage: test_gltf_reader accessors|refusals|damaged|once|skins|conformance\n");
        return 2;
    }
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", temp_dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
    return test_finish();
}
