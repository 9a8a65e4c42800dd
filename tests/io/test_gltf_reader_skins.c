/* test_gltf_reader_skins.c — one mesh under two skins, the --max-bones split, and the conformance
 * models of ../shared/models/gltf-asset-generator against their float twins. Part of the program
 * test_gltf_reader (gltf_reader_fixture.h; the modes skins, conformance). */
#include "gltf_reader_fixture.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

void test_skins(void)
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

void test_conformance(void)
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
