/* arm_model.h — the two-bone arm of docs/skinning.md, defined once: tools/make_arm_model.c writes it
 * as assets/arm.gltf, tools/skinning_numbers.c pushes it through src/anim for the doc's numbers and
 * checks them against `skinview assets/arm.gltf --inspect-vertex ...`.
 *
 * Joint 0 `upper_arm` is a root at (1, 0, 0) (the shoulder); joint 1 `forearm` its child 2 units
 * further along +x (the elbow, at (3, 0, 0)). The skin is a tube of radius 0.5 along x from 1 to 5,
 * bound in this straight pose with mesh space = model space (glTF: N = identity). */
#ifndef SKINVIEW_ARM_MODEL_H
#define SKINVIEW_ARM_MODEL_H

enum { ARM_JOINTS = 2, ARM_VERTICES = 5, ARM_RINGS = 13, ARM_AROUND = 8 };

/* The five vertices the doc follows: 0 on top of the elbow, half on each bone; 1 its mirror
 * underneath; 2 and 3 underneath, just before and just after the elbow; 4 on top of the forearm,
 * on the forearm only (the offset-matrix figure's vertex). Each is a vertex of the tube. */
static const float ARM_POSITIONS[ARM_VERTICES][3] = {
    {3.0f, 0.5f, 0.0f}, {3.0f, -0.5f, 0.0f}, {2.9f, -0.5f, 0.0f}, {3.1f, -0.5f, 0.0f}, {4.0f, 0.5f, 0.0f},
};
/* their weights: upper_arm, forearm */
static const float ARM_WEIGHTS[ARM_VERTICES][2] = {
    {0.5f, 0.5f}, {0.5f, 0.5f}, {0.6f, 0.4f}, {0.4f, 0.6f}, {0.0f, 1.0f},
};

/* The tube's rings: x and the forearm's weight there (upper_arm: 1 - it). The weight ramps from 0 at
 * x = 2.5 to 1 at x = 3.5, half and half at the elbow: w_forearm = x - 2.5 in between. */
static const float ARM_RING_X[ARM_RINGS] = {1.0f, 1.5f, 2.0f, 2.5f, 2.7f, 2.9f, 3.0f, 3.1f, 3.3f, 3.5f, 4.0f, 4.5f, 5.0f};
static const float ARM_RING_FOREARM[ARM_RINGS] = {0.0f, 0.0f, 0.0f, 0.0f, 0.2f, 0.4f, 0.5f, 0.6f, 0.8f, 1.0f, 1.0f, 1.0f, 1.0f};
/* Around each ring, every 45° starting at +y (so (x, 0.5, 0) and (x, -0.5, 0) are vertices): (y, z) / r. */
#define ARM_SQRT_HALF 0.70710678f
static const float ARM_AROUND_YZ[ARM_AROUND][2] = {
    {1.0f, 0.0f}, {ARM_SQRT_HALF, ARM_SQRT_HALF}, {0.0f, 1.0f}, {-ARM_SQRT_HALF, ARM_SQRT_HALF},
    {-1.0f, 0.0f}, {-ARM_SQRT_HALF, -ARM_SQRT_HALF}, {0.0f, -1.0f}, {ARM_SQRT_HALF, -ARM_SQRT_HALF},
};
#define ARM_RADIUS 0.5f

/* The clips, each a rotation track of the forearm (the upper arm never moves):
 *   Bend:  about z, 0° at 0 s, 90° at 1 s;
 *   Twist: about x (the arm's axis), 0° at 0 s, 150° at 1 s, 180° at 2 s. */
enum { ARM_BEND_KEYS = 2, ARM_TWIST_KEYS = 3 };
static const float ARM_BEND_TIMES[ARM_BEND_KEYS] = {0.0f, 1.0f};
static const float ARM_BEND_DEGREES[ARM_BEND_KEYS] = {0.0f, 90.0f};
static const float ARM_TWIST_TIMES[ARM_TWIST_KEYS] = {0.0f, 1.0f, 2.0f};
static const float ARM_TWIST_DEGREES[ARM_TWIST_KEYS] = {0.0f, 150.0f, 180.0f};

#endif
