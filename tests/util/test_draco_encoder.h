/* test_draco_encoder.h — the tests' Draco encoder (test_draco_encoder.cpp): libdraco has no C API. */
#ifndef SKINVIEW_TEST_DRACO_ENCODER_H
#define SKINVIEW_TEST_DRACO_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A triangle mesh to encode: per vertex a float3 position, a uint32 id (GENERIC, 1 component:
 * lossless, so a test can tell which input vertex a decoded point is) and four uint16 joints
 * (JOINTS-like GENERIC) and float4 weights (GENERIC, float: lossless unless quantized). */
typedef struct TestDracoInput {
    int vertex_count;
    const float *positions;    /* vertex_count * 3 */
    const uint32_t *ids;       /* vertex_count */
    const uint16_t *joints;    /* vertex_count * 4 */
    const float *weights;      /* vertex_count * 4 */
    int index_count;           /* 3 per triangle */
    const uint32_t *indices;
    int position_bits;         /* quantization of POSITION (Draco's default 11..14); 0: none (lossless floats) */
    int point_cloud;           /* nonzero: encode the points only, as a Draco point cloud */
} TestDracoInput;

/* The unique ids Draco gave the four attributes (position, id, joints, weights). */
typedef struct TestDracoIds {
    int position, id, joints, weights;
} TestDracoIds;

/* Encodes `input` (Draco's default Edgebreaker mesh encoder, speed 5); returns the malloc'd
 * bitstream and its size in *size, or NULL if draco refuses. */
unsigned char *test_draco_encode(const TestDracoInput *input, TestDracoIds *ids, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
