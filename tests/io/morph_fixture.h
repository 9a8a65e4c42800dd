/* morph_fixture.h — what the three files of test_morph share: the temporary folder, the hand-written
 * quad with its two morph targets and keyed weights, and its positions worked out by hand. */
#ifndef SKINVIEW_TEST_MORPH_FIXTURE_H
#define SKINVIEW_TEST_MORPH_FIXTURE_H

#include "anim/animator.h"
#include "io/import.h"
#include "io/validate.h"
#include "testio.h"

extern char temp_dir[256];

/* ---- the hand-written model ------------------------------------------------ */

extern const float stored[4][3];
extern const float stored_normal[3];
extern const float delta0[4][3];
extern const float normal_delta0[3];
extern const float delta1[4][3];
extern const float default_weights[2];
extern const float key_times[3];
extern const float key_weights[3][2];
#define STATIC_SCALE 2.0f

/* Weights of the channel at time t (linear between keys, as glTF LINEAR says). */
void weights_at(float t, float w[2]);

/* Rotation angle (radians, about +Z) of the second joint at time t: 0 at 0 s, 90 degrees from 1 s. */
float angle_at(float t);

/* Expected scene-space position of vertex v: p = stored + sum_t w_t * delta_t, then either the
 * static node's scale or, skinned, the joint of the vertex (vertices 2, 3: the turning joint). */
void expected_position(bool skinned, int v, const float w[2], float angle, float out[3]);

/* Expected normal direction (normalised) at weight w0 of target 0: normalize(n + w0 * dn), rotated. */
void expected_normal(bool skinned, int v, const float w[2], float angle, float out[3]);

/* ---- checks ------------------------------------------------------------- */

float distance3(const float a[3], const float b[3]);

/* Index of the stored quad vertex at p (the importer may reorder vertices), or -1. */
int stored_vertex(const vec3 p);

/* ---- what main runs from the other files of the program ---- */
void check_fbx(void);
void check_many_targets(void);

/* Khronos SimpleMorph (the glTF tutorial's example): a triangle whose top vertex (0.5, 0.5, 0)
 * moves by (-1, 1, 0) with target 0 and (1, 1, 0) with target 1; default weights 0.5, 0.5;
 * keys (0,0) (0,1) (1,1) (1,0) (0,0) at 0..4 s. */
void check_simple_morph(void);

#endif
