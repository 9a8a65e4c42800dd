/* test_pose.c — the joint hierarchy (src/anim/pose.c) and local T*R*S matrices:
 * one forward loop against a naive recursive evaluation on hand-built skeletons. */
#include "anim/anim.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

enum { JOINTS = 9 };

/*            0 (root)                 8 (second root)
 *          /    \
 *         1      6
 *        / \      \
 *       2   4      7
 *       |   |
 *       3   5
 * Parents are stored before children, as the importer guarantees. */
static const int parents[JOINTS] = {-1, 0, 1, 2, 1, 4, 0, 6, -1};

static unsigned int rng_state = 777u;
static float rng_uniform(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}


/* model(j) = model(parent(j)) * local(j), by recursion up to the root. */
static void naive_model(const int *parent, const mat4 *local, int j, mat4 out)
{
    if (parent[j] < 0) {
        memcpy(out, local[j], sizeof(mat4));
        return;
    }
    mat4 up;
    naive_model(parent, local, parent[j], up);
    test_naive_mat4_mul(up, local[j], out);
}

static bool mat4_near(const mat4 a, const mat4 b, float eps)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (fabsf(a[c][r] - b[c][r]) > eps) return false;
    return true;
}

static void random_trs(JointTransform *trs)
{
    for (int i = 0; i < 3; i++) trs->translation[i] = rng_uniform(-2.0f, 2.0f);
    vec3 axis = {rng_uniform(-1, 1), rng_uniform(-1, 1), rng_uniform(0.2f, 1)};
    glm_vec3_normalize(axis);
    glm_quatv(trs->rotation, rng_uniform(-3.0f, 3.0f), axis);
    for (int i = 0; i < 3; i++) trs->scale[i] = rng_uniform(0.5f, 1.5f);
}

static void test_transform_order(void)
{
    /* S, then R, then T on a point: p = (1,1,1), S = (2,3,4) -> (2,3,4);
     * R = 90° about z -> (-3,2,4); T = (1,2,3) -> (-2,4,7). */
    JointTransform trs = {{1, 2, 3}, {0, 0, 0, 1}, {2, 3, 4}};
    vec3 z = {0, 0, 1};
    glm_quatv(trs.rotation, GLM_PI_2f, z);
    mat4 m;
    joint_transform_to_matrix(&trs, m);
    vec3 p = {1, 1, 1}, out;
    glm_mat4_mulv3(m, p, 1.0f, out);
    CHECK(fabsf(out[0] + 2.0f) < 1e-5f && fabsf(out[1] - 4.0f) < 1e-5f && fabsf(out[2] - 7.0f) < 1e-5f,
          "T*R*S applied to (1,1,1) = (-2,4,7), got (%g %g %g)", out[0], out[1], out[2]);
    /* Directions ignore T: (1,0,0) -> S (2,0,0) -> R (0,2,0). */
    vec3 d = {1, 0, 0};
    glm_mat4_mulv3(m, d, 0.0f, out);
    CHECK(fabsf(out[0]) < 1e-5f && fabsf(out[1] - 2.0f) < 1e-5f && fabsf(out[2]) < 1e-5f,
          "direction (1,0,0) -> (0,2,0), got (%g %g %g)", out[0], out[1], out[2]);
    /* Identity TRS gives the identity matrix. */
    JointTransform id = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    mat4 identity;
    glm_mat4_identity(identity);
    joint_transform_to_matrix(&id, m);
    CHECK(mat4_near(m, identity, 0.0f), "identity TRS -> identity matrix");
}

static void test_local_to_model_matches_recursion(void)
{
    int parent[JOINTS];
    memcpy(parent, parents, sizeof parent);
    Skeleton skeleton = {.joint_count = JOINTS, .parent = parent};
    mat4 local[JOINTS], model[JOINTS], expect;
    for (int trial = 0; trial < 20; trial++) {
        for (int j = 0; j < JOINTS; j++) {
            JointTransform trs;
            random_trs(&trs);
            joint_transform_to_matrix(&trs, local[j]);
        }
        memset(model, 0xff, sizeof model);   /* NaN garbage: every entry must be written */
        pose_local_to_model(&skeleton, local, model);
        int wrong = 0;
        for (int j = 0; j < JOINTS; j++) {
            naive_model(parent, local, j, expect);
            if (!mat4_near(model[j], expect, 1e-4f)) {
                wrong++;
                if (wrong == 1) fprintf(stderr, "trial %d: joint %d differs from the recursive evaluation\n", trial, j);
            }
        }
        CHECK(wrong == 0, "trial %d: %d joints differ from model = parent * local, recursively", trial, wrong);
    }

    /* A pure chain of 6 joints, each translated 1 along x and turned 90° about z:
     * a closed square walk — joint 4 lands back on the root's origin. */
    int chain_parent[6] = {-1, 0, 1, 2, 3, 4};
    Skeleton chain = {.joint_count = 6, .parent = chain_parent};
    mat4 chain_local[6], chain_model[6];
    for (int j = 0; j < 6; j++) {
        JointTransform trs = {{j == 0 ? 0.0f : 1.0f, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        vec3 z = {0, 0, 1};
        glm_quatv(trs.rotation, GLM_PI_2f, z);
        joint_transform_to_matrix(&trs, chain_local[j]);
    }
    pose_local_to_model(&chain, chain_local, chain_model);
    const float expect_xy[6][2] = {{0, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, 0}, {0, 1}};
    for (int j = 0; j < 6; j++)
        CHECK(fabsf(chain_model[j][3][0] - expect_xy[j][0]) < 1e-5f && fabsf(chain_model[j][3][1] - expect_xy[j][1]) < 1e-5f,
              "chain joint %d at (%g %g), want (%g %g)", j, chain_model[j][3][0], chain_model[j][3][1], expect_xy[j][0],
              expect_xy[j][1]);
}

static void test_root_translation_moves_descendants(void)
{
    int parent[JOINTS];
    memcpy(parent, parents, sizeof parent);
    Skeleton skeleton = {.joint_count = JOINTS, .parent = parent};
    mat4 local[JOINTS], model[JOINTS], moved[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        JointTransform trs;
        random_trs(&trs);
        joint_transform_to_matrix(&trs, local[j]);
    }
    pose_local_to_model(&skeleton, local, model);

    /* Move root 0 by d in its parent's (scene) space: local_0' = T(d) * local_0. */
    vec3 d = {3.0f, -1.5f, 0.25f};
    mat4 shift;
    glm_translate_make(shift, d);
    glm_mat4_mul(shift, local[0], local[0]);
    pose_local_to_model(&skeleton, local, moved);
    for (int j = 0; j < JOINTS; j++) {
        bool descendant = (j != 8);
        vec3 delta;
        for (int i = 0; i < 3; i++) delta[i] = moved[j][3][i] - model[j][3][i];
        float want[3] = {descendant ? d[0] : 0.0f, descendant ? d[1] : 0.0f, descendant ? d[2] : 0.0f};
        CHECK(fabsf(delta[0] - want[0]) < 1e-4f && fabsf(delta[1] - want[1]) < 1e-4f && fabsf(delta[2] - want[2]) < 1e-4f,
              "joint %d moved by (%g %g %g), want (%g %g %g)", j, delta[0], delta[1], delta[2], want[0], want[1], want[2]);
        /* Orientation is unchanged: the upper 3x3 is the same. */
        bool same_basis = true;
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) same_basis = same_basis && fabsf(moved[j][c][r] - model[j][c][r]) < 1e-5f;
        CHECK(same_basis, "joint %d keeps its orientation", j);
    }

    /* Moving the middle joint 1 moves only its subtree {1,2,3,4,5}. */
    glm_mat4_mul(shift, local[1], local[1]);
    mat4 moved2[JOINTS];
    pose_local_to_model(&skeleton, local, moved2);
    for (int j = 0; j < JOINTS; j++) {
        bool in_subtree = (j >= 1 && j <= 5);
        float dist = 0.0f;
        for (int i = 0; i < 3; i++) dist += fabsf(moved2[j][3][i] - moved[j][3][i]);
        CHECK(in_subtree ? dist > 1e-3f : dist == 0.0f, "joint %d %s when joint 1 moves (moved %g)", j,
              in_subtree ? "follows" : "stays", dist);
    }
}

static void test_rest_pose(void)
{
    int parent[3] = {-1, 0, 1};
    mat4 rest[3];
    for (int j = 0; j < 3; j++) {
        JointTransform trs;
        random_trs(&trs);
        joint_transform_to_matrix(&trs, rest[j]);
    }
    Skeleton skeleton = {.joint_count = 3, .parent = parent, .rest_local = rest};
    mat4 local[4];
    memset(local, 0x11, sizeof local);
    pose_set_rest(&skeleton, local);
    CHECK(memcmp(local, rest, sizeof rest) == 0, "pose_set_rest copies the rest transforms");
    unsigned char guard[sizeof(mat4)];
    memset(guard, 0x11, sizeof guard);
    CHECK(memcmp(local[3], guard, sizeof guard) == 0, "pose_set_rest writes joint_count matrices, no more");
}

int main(void)
{
    test_transform_order();
    test_local_to_model_matches_recursion();
    test_root_translation_moves_descendants();
    test_rest_pose();
    return test_finish();
}
