/* morph_fixture.c — the hand-written morph quad of test_morph and its expected poses (morph_fixture.h). */
#include "morph_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char temp_dir[256];

const float stored[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};

const float stored_normal[3] = {0, 0, 1};

const float delta0[4][3] = {{0, 0, 0}, {0.5f, 0, 0}, {0.5f, 0.5f, 0}, {0, 0.5f, 0}};

const float normal_delta0[3] = {0, 0.5f, 0};   /* every vertex of target 0 */

const float delta1[4][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, -1}, {0, 0, -1}};

const float default_weights[2] = {0.25f, 0.0f};

const float key_times[3] = {0, 1, 2};

const float key_weights[3][2] = {{0, 0}, {1, 0}, {0, 1}};

void weights_at(float t, float w[2])
{
    if (t <= 0.0f) t = 0.0f;
    if (t >= 2.0f) t = 2.0f;
    int k = t < 1.0f ? 0 : 1;
    float a = (t - key_times[k]) / (key_times[k + 1] - key_times[k]);
    for (int i = 0; i < 2; i++) w[i] = key_weights[k][i] + a * (key_weights[k + 1][i] - key_weights[k][i]);
}

float angle_at(float t)
{
    if (t <= 0.0f) return 0.0f;
    if (t >= 1.0f) return GLM_PIf / 2.0f;
    /* slerp between identity and 90 degrees is linear in the angle */
    return t * GLM_PIf / 2.0f;
}

void expected_position(bool skinned, int v, const float w[2], float angle, float out[3])
{
    float p[3];
    for (int i = 0; i < 3; i++) p[i] = stored[v][i] + w[0] * delta0[v][i] + w[1] * delta1[v][i];
    if (!skinned) {
        for (int i = 0; i < 3; i++) out[i] = STATIC_SCALE * p[i];
        return;
    }
    if (v < 2) angle = 0.0f;
    out[0] = cosf(angle) * p[0] - sinf(angle) * p[1];
    out[1] = sinf(angle) * p[0] + cosf(angle) * p[1];
    out[2] = p[2];
}

void expected_normal(bool skinned, int v, const float w[2], float angle, float out[3])
{
    float n[3];
    for (int i = 0; i < 3; i++) n[i] = stored_normal[i] + w[0] * normal_delta0[i];
    if (!skinned || v < 2) angle = 0.0f;
    out[0] = cosf(angle) * n[0] - sinf(angle) * n[1];
    out[1] = sinf(angle) * n[0] + cosf(angle) * n[1];
    out[2] = n[2];
    float length = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    for (int i = 0; i < 3; i++) out[i] /= length;
}

float distance3(const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Index of the stored quad vertex at p (the importer may reorder vertices), or -1. */
int stored_vertex(const vec3 p)
{
    for (int s = 0; s < 4; s++)
        if (distance3(p, stored[s]) < 1e-6f) return s;
    return -1;
}
