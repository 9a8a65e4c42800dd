/* test_gltf_meshopt.c — EXT_meshopt_compression decoding (src/io/gltf/gltf_meshopt.c).
 * Round trips: data encoded here with meshoptimizer's own encoders (vertex codec, index buffer,
 * index sequence, the three filters) decodes back exactly (codecs) or within the filter's
 * precision; then the spec's stride and count rules, unknown modes and filters, newer stream
 * versions, every truncation of a stream and garbage: false with one line, nothing read or
 * written outside the buffers (each lies in its own exactly-sized allocation: ASan sees a stray byte). */
#include "io/gltf/gltf_meshopt.h"
#include "testutil.h"

#include <meshoptimizer.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng_state = 12345u;
static uint32_t next_random(void)   /* xorshift32: the same data on every run */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static float random_unit(void) { return (float)(next_random() % 2000001u) / 1000000.0f - 1.0f; }   /* [-1, 1] */

static bool one_line(const char *error) { return error[0] != '\0' && strchr(error, '\n') == NULL; }

/* Copies `size` bytes into their own allocation, so that a read past them is an ASan error. */
static unsigned char *exact_copy(const unsigned char *bytes, size_t size)
{
    unsigned char *copy = malloc(size ? size : 1);
    if (size)
        memcpy(copy, bytes, size);
    return copy;
}

/* Vertex codec: `count` vertices of `stride` bytes, smooth-ish data (what the codec is for) plus noise. */
static void check_attributes_round_trip(size_t count, size_t stride)
{
    unsigned char *vertices = malloc(count * stride);
    for (size_t v = 0; v < count; v++)
        for (size_t b = 0; b < stride; b++)
            vertices[v * stride + b] = (unsigned char)((b & 1) ? v * (b + 1) : next_random());
    size_t bound = meshopt_encodeVertexBufferBound(count, stride);
    unsigned char *encoded = malloc(bound);
    size_t encoded_size = meshopt_encodeVertexBuffer(encoded, bound, vertices, count, stride);
    CHECK(encoded_size > 0, "encode %zu x %zu", count, stride);
    unsigned char *source = exact_copy(encoded, encoded_size);
    unsigned char *decoded = malloc(count * stride);
    char error[256] = "";
    bool ok = gltf_meshopt_decode(decoded, count, stride, source, encoded_size, "ATTRIBUTES", "NONE", error, sizeof error);
    CHECK(ok, "ATTRIBUTES %zu x %zu: %s", count, stride, error);
    CHECK(ok && memcmp(decoded, vertices, count * stride) == 0, "ATTRIBUTES %zu x %zu decodes to the original bytes", count,
          stride);
    free(decoded);
    free(source);
    free(encoded);
    free(vertices);
}

static int index_codec_version = 1;   /* what meshopt_encodeIndexVersion was last given (main) */

/* TRIANGLES (index buffer codec) and INDICES (index sequence codec), 16- and 32-bit. */
static void check_indices_round_trip(const char *mode, size_t index_size)
{
    enum { GRID = 20, INDEX_COUNT = (GRID - 1) * (GRID - 1) * 6 };
    unsigned int indices[INDEX_COUNT];
    size_t n = 0;
    for (unsigned y = 0; y + 1 < GRID; y++)
        for (unsigned x = 0; x + 1 < GRID; x++) {   /* two triangles per grid cell */
            unsigned a = y * GRID + x, b = a + 1, c = a + GRID, d = c + 1;
            unsigned quad[6] = {a, c, b, b, c, d};
            memcpy(&indices[n], quad, sizeof quad);
            n += 6;
        }
    bool triangles = strcmp(mode, "TRIANGLES") == 0;
    size_t bound = triangles ? meshopt_encodeIndexBufferBound(n, GRID * GRID) : meshopt_encodeIndexSequenceBound(n, GRID * GRID);
    unsigned char *encoded = malloc(bound);
    size_t encoded_size = triangles ? meshopt_encodeIndexBuffer(encoded, bound, indices, n)
                                    : meshopt_encodeIndexSequence(encoded, bound, indices, n);
    CHECK(encoded_size > 0, "encode %s", mode);
    CHECK(encoded_size > 0 && encoded[0] == (triangles ? 0xE0 : 0xD0) + index_codec_version, "%s header 0x%02X", mode,
          encoded_size ? encoded[0] : 0);
    unsigned char *source = exact_copy(encoded, encoded_size);
    unsigned char *decoded = malloc(n * index_size);
    char error[256] = "";
    bool ok = gltf_meshopt_decode(decoded, n, index_size, source, encoded_size, mode, NULL, error, sizeof error);
    CHECK(ok, "%s stride %zu: %s", mode, index_size, error);
    size_t mismatches = 0;
    for (size_t i = 0; ok && i < n; i++) {
        uint32_t value;
        if (index_size == 2) {
            uint16_t v16;
            memcpy(&v16, decoded + i * 2, 2);
            value = v16;
        } else {
            memcpy(&value, decoded + i * 4, 4);
        }
        mismatches += value != indices[i];
    }
    CHECK(ok && mismatches == 0, "%s stride %zu: %zu indices differ", mode, index_size, mismatches);

    /* Every truncation of the stream fails (or, for a stream that still parses, stays inside it). */
    size_t truncated_failures = 0;
    for (size_t size = 0; size < encoded_size; size++) {
        unsigned char *part = exact_copy(encoded, size);
        error[0] = '\0';
        if (!gltf_meshopt_decode(decoded, n, index_size, part, size, mode, NULL, error, sizeof error)) {
            truncated_failures++;
            CHECK(one_line(error), "%s truncated to %zu: one line", mode, size);
        }
        free(part);
    }
    CHECK(truncated_failures == encoded_size, "%s: %zu of %zu truncations refused", mode, truncated_failures, encoded_size);
    free(decoded);
    free(source);
    free(encoded);
}

/* Encodes `count` vectors of 4 floats with filter `filter` (stride, bits), compresses, decodes with
 * gltf_meshopt_decode and returns the largest component error of the decoded values, read as
 * normalized integers of the stride's width (OCTAHEDRAL, QUATERNION; a quaternion compared up to
 * sign, q and -q being one rotation) or floats (EXPONENTIAL). Returns -1 if a step failed. */
static double filter_round_trip_error(const char *filter, size_t count, size_t stride, int bits, const float *data)
{
    unsigned char *filtered = calloc(count, stride);
    if (strcmp(filter, "OCTAHEDRAL") == 0)
        meshopt_encodeFilterOct(filtered, count, stride, bits, data);
    else if (strcmp(filter, "QUATERNION") == 0)
        meshopt_encodeFilterQuat(filtered, count, stride, bits, data);
    else
        meshopt_encodeFilterExp(filtered, count, stride, bits, data);
    size_t bound = meshopt_encodeVertexBufferBound(count, stride);
    unsigned char *encoded = malloc(bound);
    size_t encoded_size = meshopt_encodeVertexBuffer(encoded, bound, filtered, count, stride);
    unsigned char *source = exact_copy(encoded, encoded_size);
    unsigned char *decoded = malloc(count * stride);
    char error[256] = "";
    double worst = -1.0;
    if (encoded_size > 0 && gltf_meshopt_decode(decoded, count, stride, source, encoded_size, "ATTRIBUTES", filter, error, sizeof error)) {
        worst = 0.0;
        size_t floats_per_vector = strcmp(filter, "EXPONENTIAL") == 0 ? stride / 4 : 4;
        for (size_t v = 0; v < count; v++) {
            float value[64];
            for (size_t c = 0; c < floats_per_vector; c++) {
                if (strcmp(filter, "EXPONENTIAL") == 0) {
                    memcpy(&value[c], decoded + v * stride + c * 4, 4);
                } else if (stride == 4) {   /* normalized int8: q / 127 */
                    int8_t q;
                    memcpy(&q, decoded + v * stride + c, 1);
                    value[c] = fmaxf((float)q / 127.0f, -1.0f);
                } else {                    /* normalized int16: q / 32767 */
                    int16_t q;
                    memcpy(&q, decoded + v * stride + c * 2, 2);
                    value[c] = fmaxf((float)q / 32767.0f, -1.0f);
                }
            }
            size_t compared = strcmp(filter, "OCTAHEDRAL") == 0 ? 3 : floats_per_vector;   /* W of a normal: not encoded */
            double direct = 0.0, flipped = 0.0;
            for (size_t c = 0; c < compared; c++) {
                direct = fmax(direct, fabs((double)value[c] - data[v * floats_per_vector + c]));
                flipped = fmax(flipped, fabs((double)value[c] + data[v * floats_per_vector + c]));
            }
            worst = fmax(worst, strcmp(filter, "QUATERNION") == 0 ? fmin(direct, flipped) : direct);
        }
    } else {
        fprintf(stderr, "filter %s stride %zu: %s\n", filter, stride, error);
    }
    free(decoded);
    free(source);
    free(encoded);
    free(filtered);
    return worst;
}

static void check_filters(void)
{
    enum { COUNT = 500 };
    float units[COUNT * 4], quaternions[COUNT * 4], values[COUNT * 4];
    for (int v = 0; v < COUNT; v++) {
        float x = random_unit(), y = random_unit(), z = random_unit(), w = random_unit();
        float length3 = sqrtf(x * x + y * y + z * z) + 1e-6f, length4 = sqrtf(x * x + y * y + z * z + w * w) + 1e-6f;
        float unit[4] = {x / length3, y / length3, z / length3, 1.0f};
        float quaternion[4] = {x / length4, y / length4, z / length4, w / length4};
        float value[4] = {x * 1000.0f, y * 0.01f, z, w * 3.0f};
        memcpy(&units[v * 4], unit, sizeof unit);
        memcpy(&quaternions[v * 4], quaternion, sizeof quaternion);
        memcpy(&values[v * 4], value, sizeof value);
    }
    /* Octahedral, K bits: x and y of the octahedron are K-bit signed integers, step 1 / (2^(K-1) - 1);
     * rounding moves a unit vector by at most ~2 steps per component, then the output's own
     * normalized integer (int8: 1/127, int16: 1/32767) rounds once more. */
    struct { size_t stride; int bits; double output_step; } oct[] = {{4, 8, 1.0 / 127}, {8, 10, 1.0 / 32767}, {8, 16, 1.0 / 32767}};
    for (size_t i = 0; i < sizeof oct / sizeof oct[0]; i++) {
        double step = 1.0 / ((1 << (oct[i].bits - 1)) - 1);
        double error = filter_round_trip_error("OCTAHEDRAL", COUNT, oct[i].stride, oct[i].bits, units);
        CHECK(error >= 0.0 && error <= 2.0 * step + oct[i].output_step, "OCTAHEDRAL %d bits stride %zu: error %g > %g",
              oct[i].bits, oct[i].stride, error, 2.0 * step + oct[i].output_step);
    }
    /* Quaternion, K bits: the three smallest components (each within +-1/sqrt(2)) are K-bit
     * integers, step (1/sqrt(2)) / (2^(K-1) - 1); the fourth is rebuilt from unit length (error of
     * the same order); the output is normalized int16. */
    int quat_bits[] = {8, 12, 16};
    for (size_t i = 0; i < sizeof quat_bits / sizeof quat_bits[0]; i++) {
        double step = 0.70710678 / ((1 << (quat_bits[i] - 1)) - 1);
        double error = filter_round_trip_error("QUATERNION", COUNT, 8, quat_bits[i], quaternions);
        CHECK(error >= 0.0 && error <= 2.0 * step + 1.0 / 32767, "QUATERNION %d bits: error %g > %g", quat_bits[i], error,
              2.0 * step + 1.0 / 32767);
    }
    /* Exponential, K-bit mantissa, one exponent per vector (stride): each component is M * 2^E with
     * |M| < 2^(K-1) chosen for the vector's largest component, so the error is at most half a unit of
     * 2^E <= max|component| * 2^(1-K). Scalars (stride 4) and whole vec4s (stride 16). */
    struct { size_t stride; int bits; } exp_cases[] = {{4, 24}, {4, 12}, {16, 16}};
    for (size_t i = 0; i < sizeof exp_cases / sizeof exp_cases[0]; i++) {
        size_t per_vector = exp_cases[i].stride / 4, count = COUNT * 4 / per_vector;
        double largest = 0.0;
        for (int k = 0; k < COUNT * 4; k++)
            largest = fmax(largest, fabs(values[k]));
        double bound = largest * ldexp(1.0, 1 - exp_cases[i].bits);
        double error = filter_round_trip_error("EXPONENTIAL", count, exp_cases[i].stride, exp_cases[i].bits, values);
        CHECK(error >= 0.0 && error <= bound, "EXPONENTIAL %d bits stride %zu: error %g > %g", exp_cases[i].bits,
              exp_cases[i].stride, error, bound);
    }
    /* Stride 4 exponential per scalar, checked relative to each value (the exponent is the value's own). */
    {
        unsigned char filtered[COUNT * 4 * 4];
        meshopt_encodeFilterExp(filtered, COUNT * 4, 4, 16, values);
        size_t bound = meshopt_encodeVertexBufferBound(COUNT * 4, 4);
        unsigned char *encoded = malloc(bound);
        size_t size = meshopt_encodeVertexBuffer(encoded, bound, filtered, COUNT * 4, 4);
        float *decoded = malloc(sizeof(float) * COUNT * 4);
        char error[256] = "";
        bool ok = gltf_meshopt_decode(decoded, COUNT * 4, 4, encoded, size, "ATTRIBUTES", "EXPONENTIAL", error, sizeof error);
        double worst_relative = 0.0;
        for (int k = 0; ok && k < COUNT * 4; k++)
            if (values[k] != 0.0f)
                worst_relative = fmax(worst_relative, fabs(decoded[k] - values[k]) / fabs(values[k]));
        CHECK(ok && worst_relative <= ldexp(1.0, -15), "EXPONENTIAL 16 bits per scalar: relative error %g (%s)", worst_relative,
              error);
        free(decoded);
        free(encoded);
    }
}

/* One call that must be refused: false, one line that contains `expected`. */
static void check_refused(const char *what, size_t count, size_t stride, const void *source, size_t source_size, const char *mode,
                          const char *filter, const char *expected)
{
    size_t out_size = count * stride <= 1 << 20 ? count * stride : 16;
    unsigned char *out = malloc(out_size ? out_size : 1);
    char error[256] = "";
    bool ok = gltf_meshopt_decode(out, count, stride, source, source_size, mode, filter, error, sizeof error);
    CHECK(!ok, "%s: refused", what);
    CHECK(one_line(error) && strstr(error, expected), "%s: one line naming '%s', got '%s'", what, expected, error);
    free(out);
}

static void check_rules_and_damage(void)
{
    /* A valid 16 x 12 vertex stream and a valid 30-index triangle stream to break. */
    unsigned char vertices[16 * 12];
    for (size_t b = 0; b < sizeof vertices; b++)
        vertices[b] = (unsigned char)next_random();
    unsigned char vertex_stream[1024];
    size_t vertex_size = meshopt_encodeVertexBuffer(vertex_stream, sizeof vertex_stream, vertices, 16, 12);
    unsigned int tri[30];
    for (int i = 0; i < 30; i++)
        tri[i] = (unsigned)(i % 3 == 0 ? i / 3 : i % 3 == 1 ? i / 3 + 1 : i / 3 + 2);
    unsigned char index_stream[1024];
    size_t index_size = meshopt_encodeIndexBuffer(index_stream, sizeof index_stream, tri, 30);
    unsigned char sequence_stream[1024];
    size_t sequence_size = meshopt_encodeIndexSequence(sequence_stream, sizeof sequence_stream, tri, 30);
    CHECK(vertex_size > 0 && index_size > 0 && sequence_size > 0, "test streams encode");

    check_refused("ATTRIBUTES stride 6", 16, 6, vertex_stream, vertex_size, "ATTRIBUTES", NULL, "multiple of 4");
    check_refused("ATTRIBUTES stride 260", 16, 260, vertex_stream, vertex_size, "ATTRIBUTES", NULL, "at most 256");
    check_refused("ATTRIBUTES stride 0", 16, 0, vertex_stream, vertex_size, "ATTRIBUTES", NULL, "byteStride");
    check_refused("count 0", 0, 12, vertex_stream, vertex_size, "ATTRIBUTES", NULL, "count");
    check_refused("count x stride overflows", SIZE_MAX / 2, 12, vertex_stream, vertex_size, "ATTRIBUTES", NULL, "not a size");
    check_refused("TRIANGLES count 31", 31, 4, index_stream, index_size, "TRIANGLES", NULL, "multiple of 3");
    check_refused("TRIANGLES stride 3", 30, 3, index_stream, index_size, "TRIANGLES", NULL, "2 or 4");
    check_refused("TRIANGLES stride 8", 30, 8, index_stream, index_size, "TRIANGLES", NULL, "2 or 4");
    check_refused("INDICES stride 1", 30, 1, sequence_stream, sequence_size, "INDICES", NULL, "2 or 4");
    check_refused("unknown mode", 30, 4, index_stream, index_size, "LINES", NULL, "unknown mode");
    check_refused("unknown filter", 16, 12, vertex_stream, vertex_size, "ATTRIBUTES", "COLOR", "unknown filter");
    check_refused("filter with TRIANGLES", 30, 4, index_stream, index_size, "TRIANGLES", "OCTAHEDRAL", "ATTRIBUTES only");
    check_refused("OCTAHEDRAL stride 12", 16, 12, vertex_stream, vertex_size, "ATTRIBUTES", "OCTAHEDRAL", "4 or 8");
    check_refused("QUATERNION stride 12", 16, 12, vertex_stream, vertex_size, "ATTRIBUTES", "QUATERNION", "8");
    /* A stream of another codec than the mode says, and an empty one. */
    check_refused("index stream as ATTRIBUTES", 16, 12, index_stream, index_size, "ATTRIBUTES", NULL, "not a ATTRIBUTES stream");
    check_refused("vertex stream as TRIANGLES", 30, 4, vertex_stream, vertex_size, "TRIANGLES", NULL, "not a TRIANGLES stream");
    check_refused("index-buffer stream as INDICES", 30, 4, index_stream, index_size, "INDICES", NULL, "not a INDICES stream");
    check_refused("empty stream", 16, 12, vertex_stream, 0, "ATTRIBUTES", NULL, "empty");
    /* A newer codec version (the header's low nibble) than meshoptimizer 0.18 reads. */
    unsigned char newer[1024];
    memcpy(newer, vertex_stream, vertex_size);
    newer[0] = 0xA1;
    check_refused("vertex stream version 1", 16, 12, newer, vertex_size, "ATTRIBUTES", NULL, "version 1");
    memcpy(newer, index_stream, index_size);
    newer[0] = 0xE2;
    check_refused("index stream version 2", 30, 4, newer, index_size, "TRIANGLES", NULL, "version 2");
    memcpy(newer, sequence_stream, sequence_size);
    newer[0] = 0xD2;
    check_refused("index sequence version 2", 30, 4, newer, sequence_size, "INDICES", NULL, "version 2");

    /* Every truncation of the vertex stream is refused, and never read past. */
    size_t refused = 0;
    for (size_t size = 0; size < vertex_size; size++) {
        unsigned char *part = exact_copy(vertex_stream, size);
        unsigned char out[16 * 12];
        char error[256] = "";
        if (!gltf_meshopt_decode(out, 16, 12, part, size, "ATTRIBUTES", NULL, error, sizeof error))
            refused += one_line(error);
        free(part);
    }
    CHECK(refused == vertex_size, "ATTRIBUTES: %zu of %zu truncations refused with one line", refused, vertex_size);

    /* Garbage after a valid header: decoded or refused, never out of bounds (the decoders may
     * produce garbage values for garbage input; they must stay inside both buffers). */
    int garbage_refused = 0, garbage_runs = 200;
    for (int run = 0; run < garbage_runs; run++) {
        size_t size = 1 + next_random() % 300;
        unsigned char *garbage = malloc(size);
        for (size_t b = 0; b < size; b++)
            garbage[b] = (unsigned char)next_random();
        const char *modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
        const unsigned char headers[] = {0xA0, 0xE0, 0xD0};
        int m = run % 3;
        garbage[0] = (run % 7 == 0) ? garbage[0] : headers[m];
        size_t count = m == 1 ? 3 * (1 + next_random() % 40) : 1 + next_random() % 100;
        size_t stride = m == 0 ? 4 * (1 + next_random() % 8) : (run & 1 ? 2 : 4);
        unsigned char *out = malloc(count * stride);
        char error[256] = "";
        if (!gltf_meshopt_decode(out, count, stride, garbage, size, modes[m], m == 0 && run % 5 == 0 ? "EXPONENTIAL" : NULL, error,
                                 sizeof error)) {
            garbage_refused++;
            CHECK(one_line(error), "garbage run %d: one line", run);
        }
        free(out);
        free(garbage);
    }
    CHECK(garbage_refused > 0, "garbage: %d of %d runs refused (some must be)", garbage_refused, garbage_runs);
    /* No error buffer: still false, nothing written. */
    CHECK(!gltf_meshopt_decode(vertices, 16, 6, vertex_stream, vertex_size, "ATTRIBUTES", NULL, NULL, 0), "no error buffer");
}

int main(void)
{
    size_t strides[] = {4, 8, 12, 16, 20, 64, 256};
    size_t counts[] = {1, 3, 16, 17, 255, 256, 1000};
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            check_attributes_round_trip(counts[c], strides[s]);
    /* The index codecs as the extension writes them (headers 0xE1, 0xD1), then version 0 (0xE0, 0xD0). */
    meshopt_encodeIndexVersion(1);
    check_indices_round_trip("TRIANGLES", 2);
    check_indices_round_trip("TRIANGLES", 4);
    check_indices_round_trip("INDICES", 2);
    check_indices_round_trip("INDICES", 4);
    meshopt_encodeIndexVersion(0);
    index_codec_version = 0;
    check_indices_round_trip("TRIANGLES", 2);
    check_indices_round_trip("TRIANGLES", 4);
    check_indices_round_trip("INDICES", 2);
    check_indices_round_trip("INDICES", 4);
    check_filters();
    check_rules_and_damage();
    return test_finish();
}
