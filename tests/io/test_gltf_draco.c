/* test_gltf_draco.c — KHR_draco_mesh_compression decoding (src/io/gltf/gltf_draco.cpp).
 * Round trips: a skinned-looking grid (positions, a lossless uint32 vertex id, uint16 joints,
 * float weights) encoded here with libdraco's encoder (test_draco_encoder.cpp) decodes back:
 * the id attribute says which input vertex each decoded point is (Draco reorders points), and
 * through it every value matches (exactly when not quantized; positions within half a quantization
 * step of the bounding box's largest extent when quantized) and the triangles are the input's.
 * Then damaged input: a missing unique id, a point cloud, every truncation, garbage, flipped bits:
 * false with one line (or, where a damaged stream still decodes, indices inside the mesh), no crash. */
#include "io/gltf/gltf_draco.h"
#include "test_draco_encoder.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { GRID = 12, VERTICES = GRID * GRID, INDICES = (GRID - 1) * (GRID - 1) * 6 };

static float positions[VERTICES * 3], weights[VERTICES * 4];
static uint32_t vertex_ids[VERTICES], indices[INDICES];
static uint16_t joints[VERTICES * 4];

static uint32_t rng_state = 987654321u;
static uint32_t next_random(void)   /* xorshift32 */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static bool one_line(const char *error) { return error[0] != '\0' && strchr(error, '\n') == NULL; }

static void build_grid(void)
{
    for (int y = 0; y < GRID; y++)
        for (int x = 0; x < GRID; x++) {
            int v = y * GRID + x;
            positions[v * 3 + 0] = (float)x * 0.25f - 1.5f;
            positions[v * 3 + 1] = 0.3f * sinf((float)x * 0.7f) * cosf((float)y * 0.4f);
            positions[v * 3 + 2] = (float)y * 0.125f;
            vertex_ids[v] = (uint32_t)v * 7919u + 3u;   /* distinct, not the index itself */
            float w[4] = {0.5f + 0.01f * (float)(v % 13), 0.25f, 0.125f, 0.0625f};
            float sum = w[0] + w[1] + w[2] + w[3];
            for (int k = 0; k < 4; k++) {
                weights[v * 4 + k] = w[k] / sum;
                joints[v * 4 + k] = (uint16_t)((v * (k + 3)) % 300);   /* > 255: needs the 16 bits */
            }
        }
    int n = 0;
    for (int y = 0; y + 1 < GRID; y++)
        for (int x = 0; x + 1 < GRID; x++) {
            uint32_t a = (uint32_t)(y * GRID + x), b = a + 1, c = a + GRID, d = c + 1;
            uint32_t quad[6] = {a, c, b, b, c, d};
            memcpy(&indices[n], quad, sizeof quad);
            n += 6;
        }
}

/* A triangle written with its smallest vertex first (same winding), for comparing triangle sets. */
static void canonical_triangle(const uint32_t in[3], uint32_t out[3])
{
    int first = in[0] <= in[1] && in[0] <= in[2] ? 0 : in[1] <= in[2] ? 1 : 2;
    for (int c = 0; c < 3; c++)
        out[c] = in[(first + c) % 3];
}
static int compare_triangles(const void *a, const void *b) { return memcmp(a, b, 3 * sizeof(uint32_t)); }

/* Input vertex of each input id value (ids are v * 7919 + 3). */
static int vertex_of_id(float id_value)
{
    double v = ((double)id_value - 3.0) / 7919.0;
    int vertex = (int)lround(v);
    return vertex >= 0 && vertex < VERTICES && (uint32_t)vertex * 7919u + 3u == (uint32_t)id_value ? vertex : -1;
}

/* Encodes the grid (quantized to position_bits, 0 = lossless), decodes it and checks every value. */
static void check_round_trip(int position_bits)
{
    TestDracoInput input = {VERTICES, positions, vertex_ids, joints, weights, INDICES, indices, position_bits, 0};
    TestDracoIds ids;
    size_t size = 0;
    unsigned char *stream = test_draco_encode(&input, &ids, &size);
    CHECK(stream != NULL, "draco encodes the grid (%d bits)", position_bits);
    if (!stream)
        return;
    /* Asked in another order than stored: the result follows the order asked. */
    int asked[4] = {ids.weights, ids.position, ids.id, ids.joints};
    GltfDracoMesh mesh;
    char error[256] = "";
    bool ok = gltf_draco_decode(stream, size, asked, 4, &mesh, error, sizeof error);
    CHECK(ok, "decode (%d bits): %s", position_bits, error);
    if (!ok) {
        free(stream);
        return;
    }
    CHECK(mesh.vertex_count == VERTICES && mesh.index_count == INDICES, "%d bits: %d points, %d indices (want %d, %d)",
          position_bits, mesh.vertex_count, mesh.index_count, VERTICES, INDICES);
    CHECK(mesh.attribute_count == 4, "4 attributes, got %d", mesh.attribute_count);
    const GltfDracoAttribute *w = &mesh.attributes[0], *p = &mesh.attributes[1], *id = &mesh.attributes[2], *j = &mesh.attributes[3];
    CHECK(w->unique_id == ids.weights && p->unique_id == ids.position && id->unique_id == ids.id && j->unique_id == ids.joints,
          "attributes in the order asked");
    CHECK(w->components == 4 && p->components == 3 && id->components == 1 && j->components == 4,
          "components 4 3 1 4, got %d %d %d %d", w->components, p->components, id->components, j->components);

    /* The bounding box's largest extent: Draco quantizes every component on that one range. */
    float low[3] = {1e30f, 1e30f, 1e30f}, high[3] = {-1e30f, -1e30f, -1e30f};
    for (int v = 0; v < VERTICES; v++)
        for (int c = 0; c < 3; c++) {
            low[c] = fminf(low[c], positions[v * 3 + c]);
            high[c] = fmaxf(high[c], positions[v * 3 + c]);
        }
    double range = fmax(high[0] - low[0], fmax(high[1] - low[1], high[2] - low[2]));
    /* Quantized to B bits: value = low + q * range / (2^B - 1), so rounding errs by half a step
     * (plus float rounding: one full step allowed); lossless: exact. */
    double position_tolerance = position_bits > 0 ? range / (double)((1 << position_bits) - 1) : 0.0;

    int point_vertex[VERTICES];
    int unmapped = 0, seen[VERTICES] = {0};
    double worst_position = 0.0;
    int joint_mismatches = 0, weight_mismatches = 0;
    for (int point = 0; point < mesh.vertex_count && point < VERTICES; point++) {
        int vertex = vertex_of_id(id->values[point]);
        point_vertex[point] = vertex;
        if (vertex < 0 || seen[vertex]++) {
            unmapped++;
            continue;
        }
        for (int c = 0; c < 3; c++)
            worst_position = fmax(worst_position, fabs((double)p->values[point * 3 + c] - positions[vertex * 3 + c]));
        for (int k = 0; k < 4; k++) {
            joint_mismatches += j->values[point * 4 + k] != (float)joints[vertex * 4 + k];
            weight_mismatches += w->values[point * 4 + k] != weights[vertex * 4 + k];
        }
    }
    CHECK(unmapped == 0, "%d bits: every point's id names one input vertex (%d do not)", position_bits, unmapped);
    CHECK(worst_position <= position_tolerance, "%d bits: position error %g > %g", position_bits, worst_position,
          position_tolerance);
    CHECK(joint_mismatches == 0 && weight_mismatches == 0, "%d bits: %d joints, %d weights differ", position_bits,
          joint_mismatches, weight_mismatches);

    /* Triangles: the decoded ones, through point -> input vertex, are the input's (same winding). */
    if (unmapped == 0 && mesh.index_count == INDICES) {
        static uint32_t want[INDICES], got[INDICES];
        int bad_index = 0;
        for (int t = 0; t < INDICES; t += 3) {
            uint32_t mapped[3];
            for (int c = 0; c < 3; c++) {
                uint32_t point = mesh.indices[t + c];
                bad_index += point >= (uint32_t)mesh.vertex_count;
                mapped[c] = point < (uint32_t)mesh.vertex_count ? (uint32_t)point_vertex[point] : 0;
            }
            canonical_triangle(mapped, &got[t]);
            canonical_triangle(&indices[t], &want[t]);
        }
        qsort(want, INDICES / 3, 3 * sizeof(uint32_t), compare_triangles);
        qsort(got, INDICES / 3, 3 * sizeof(uint32_t), compare_triangles);
        CHECK(bad_index == 0 && memcmp(want, got, sizeof want) == 0, "%d bits: the triangles are the input's", position_bits);
    }
    gltf_draco_free(&mesh);
    CHECK(mesh.indices == NULL && mesh.attributes == NULL && mesh.attribute_count == 0, "gltf_draco_free zeroes the mesh");
    free(stream);
}

/* A decode that must fail: false, one line containing `expected` (NULL: any), *out zeroed. */
static void check_refused(const char *what, const void *data, size_t size, const int *unique_ids, int id_count, const char *expected)
{
    GltfDracoMesh mesh;
    memset(&mesh, 0xAB, sizeof mesh);
    char error[256] = "";
    bool ok = gltf_draco_decode(data, size, unique_ids, id_count, &mesh, error, sizeof error);
    CHECK(!ok, "%s: refused", what);
    CHECK(one_line(error) && (!expected || strstr(error, expected)), "%s: one line naming '%s', got '%s'", what,
          expected ? expected : "", error);
    CHECK(mesh.indices == NULL && mesh.attributes == NULL && mesh.vertex_count == 0, "%s: the mesh owns nothing", what);
    if (ok)
        gltf_draco_free(&mesh);
}

/* Decodes damaged data: refused with one line, or decoded into a mesh whose indices lie inside it. */
static bool check_damaged(const unsigned char *data, size_t size, const int *unique_ids, int id_count, const char *what)
{
    unsigned char *copy = malloc(size ? size : 1);   /* its own allocation: a read past it is an ASan error */
    if (size)
        memcpy(copy, data, size);
    GltfDracoMesh mesh;
    char error[256] = "";
    bool ok = gltf_draco_decode(copy, size, unique_ids, id_count, &mesh, error, sizeof error);
    if (ok) {
        int outside = 0;
        for (int i = 0; i < mesh.index_count; i++)
            outside += mesh.indices[i] >= (uint32_t)mesh.vertex_count;
        CHECK(outside == 0 && mesh.attribute_count == id_count, "%s: decoded, with %d indices outside", what, outside);
        gltf_draco_free(&mesh);
    } else {
        CHECK(one_line(error), "%s: one line", what);
    }
    free(copy);
    return !ok;
}

static void check_damage(void)
{
    TestDracoInput input = {VERTICES, positions, vertex_ids, joints, weights, INDICES, indices, 14, 0};
    TestDracoIds ids;
    size_t size = 0;
    unsigned char *stream = test_draco_encode(&input, &ids, &size);
    CHECK(stream != NULL, "draco encodes the grid");
    if (!stream)
        return;
    int all_ids[4] = {ids.position, ids.id, ids.joints, ids.weights};
    int missing[2] = {ids.position, 999};
    check_refused("unique id 999", stream, size, missing, 2, "unique id 999");
    check_refused("empty", stream, 0, all_ids, 4, "empty");
    check_refused("garbage", "this is not a draco bitstream at all", 36, all_ids, 4, "not a Draco bitstream");

    TestDracoInput cloud_input = input;
    cloud_input.point_cloud = 1;
    size_t cloud_size = 0;
    TestDracoIds cloud_ids;
    unsigned char *cloud = test_draco_encode(&cloud_input, &cloud_ids, &cloud_size);
    CHECK(cloud != NULL, "draco encodes a point cloud");
    if (cloud)
        check_refused("point cloud", cloud, cloud_size, all_ids, 1, "point cloud");
    free(cloud);

    /* Every truncation of the stream. */
    size_t refused = 0;
    for (size_t cut = 0; cut < size; cut++)
        refused += check_damaged(stream, cut, all_ids, 4, "truncated");
    CHECK(refused == size, "%zu of %zu truncations refused", refused, size);

    /* Flipped bytes and garbage behind a valid header: refused or a consistent mesh, never a crash. */
    unsigned char *flipped = malloc(size);
    for (int run = 0; run < 300; run++) {
        memcpy(flipped, stream, size);
        int flips = 1 + (int)(next_random() % 4);
        for (int f = 0; f < flips; f++)
            flipped[next_random() % size] ^= (unsigned char)(1u << (next_random() % 8));
        check_damaged(flipped, size, all_ids, 4, "flipped bits");
    }
    for (int run = 0; run < 100; run++) {
        size_t garbage_size = 8 + next_random() % 400;
        unsigned char *garbage = malloc(garbage_size);
        memcpy(garbage, stream, 8 < size ? 8 : size);   /* "DRACO", version, geometry type */
        for (size_t b = 8; b < garbage_size; b++)
            garbage[b] = (unsigned char)next_random();
        check_damaged(garbage, garbage_size, all_ids, 4, "garbage after the header");
        free(garbage);
    }
    free(flipped);
    free(stream);
}

int main(void)
{
    build_grid();
    check_round_trip(0);    /* lossless */
    check_round_trip(14);   /* gltf-transform draco's default POSITION bits */
    check_round_trip(11);   /* Draco's usual default */
    check_damage();
    return test_finish();
}
