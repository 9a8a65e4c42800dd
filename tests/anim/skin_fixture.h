/* skin_fixture.h — what the three files of test_skin share: small matrix checks, the hand-built
 * model (5 joints, a skinned mesh with 3 bones, a static mesh, 2 clips) and random skinned meshes
 * for the fast paths. */
#ifndef SKINVIEW_TEST_SKIN_FIXTURE_H
#define SKINVIEW_TEST_SKIN_FIXTURE_H

#include "anim/animator.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------- */

bool vec3_near(const vec3 a, const vec3 b, float eps);
bool mat4_near(const mat4 a, const mat4 b, float eps);
bool mat4_is_identity(const mat4 m, float eps);
void transform_point(const mat4 m, const vec3 p, vec3 out);
void trs_set(JointTransform *trs, float tx, float ty, float tz, float angle, float ax, float ay, float az,
             float scale);

/* ---- the hand-built model -------------------------------------------------
 *
 *   joint 0 root        rest: translate (0,0,0), turn 0.3 rad about y
 *   joint 1 hip         parent 0, translate (0,1,0)
 *   joint 2 knee        parent 1, translate (0,1,0), turn 0.2 about x
 *   joint 3 foot        parent 2, translate (0,1,0)
 *   joint 4 prop        parent 1, translate (1,0,0)   (holds the static mesh)
 *
 * Mesh 0 (skinned, its node is joint 0): bones in a deliberately different order
 * than the joints: bone 0 = knee (joint 2), bone 1 = hip (joint 1), bone 2 = foot (joint 3).
 * Mesh 1 (static, node joint 4): a triangle. */
enum { JOINTS = 5, SKIN_VERTICES = 7, STATIC_VERTICES = 3 };
extern const int bone_joints[3];
extern const float skin_positions[SKIN_VERTICES][3];
extern const uint16_t skin_indices[SKIN_VERTICES][4];
extern const float skin_weights[SKIN_VERTICES][4];
void build_skeleton(Skeleton *s);
void build_skinned_mesh(Mesh *mesh, const Skeleton *skeleton);
void build_static_mesh(Mesh *mesh, int node_joint);
void track_rotation(JointTrack *t, int count, float duration, float axis_x, float axis_y, float axis_z,
                    float amplitude);
void track_translation(JointTrack *t, int count, float duration, float x, float y, float z);

/* Skeleton + skinned mesh + static mesh + clip "Walk" (3 tracks) and "Wave" (1 track). */
void build_model(Model *m);

/* Any pose: local = T*R*S with varied values, including a non-uniform scale on the hip. */
void posed_model_matrices(const Skeleton *s, mat4 *model, bool scaled);

/* ---- fast skinning (skin_fast.c, skin_threads.c) against the reference ---------- */

/* Largest |a - b| over n vec3, divided by max(1, largest |a|): a relative difference. */
double vec3_max_difference(const vec3 *a, const vec3 *b, int n);

/* A random skinned mesh: 1 to 4 influences in runs of random length (and some zero slots
 * in the middle), posed with a random palette that has non-uniform scale. */
typedef struct RandomSkin {
    int       vertex_count, bone_count;
    vec3     *positions, *normals;
    uint16_t (*indices)[4];
    float    (*weights)[4];
    mat4     *palette;
} RandomSkin;
float random_unit(unsigned int *state);
void random_skin_build(RandomSkin *r, int vertex_count, int bone_count, unsigned int seed);
void random_skin_free(RandomSkin *r);
Mesh random_skin_mesh(const RandomSkin *r);
SkinJob random_skin_job(const RandomSkin *r, const SkinRun *runs, int run_count, vec3 *out, vec3 *out_normals);

/* ---- what main runs from the other files of the program ---- */
void test_skin_runs(void);
void test_fast_matches_reference(void);

/* Renormalised normals (four at a time through rsqrt + one Newton step, normalize3_x4 in
 * skin_fast.c, and one at a time at the end of a run) against the scalar reference (sqrt and a
 * division): within 1e-6 on every vertex, for every run length 1..9 (so that every split of a
 * run into groups of four and a tail is covered), on the kernel in use. Zero normals and those
 * shorter than FLT_EPSILON become 0. */
void test_renormalized_normals(const char *kernel);

/* The AVX2 + FMA kernel and the SSE2 kernel compute the same vertices (float rounding apart). */
void test_kernels_agree(void);
void test_threads_match_one_thread(void);
void test_animator_basics(const Model *m);
void test_animator_switch_resets_cursors(const Model *m);
void test_animator_no_allocation(const Model *m);
void test_animator_static_model(void);

#endif
