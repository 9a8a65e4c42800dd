/* test_skin_dq.c — dual quaternion skinning on the CPU (src/anim/skin_dq.c):
 *   - a rigid matrix -> dual quaternion -> the same point as the matrix (many random ones);
 *   - the antipodality fix: q and -q on two bones blend like q and q;
 *   - on every real test model, every rigid (single-influence) vertex: DQS == LBS to 1e-5 of
 *     the model's size, at 8 times of every clip (scale factored out where the palette has one);
 *   - scale: palettes with a uniform scale of 100 (an FBX unit scale), a non-uniform scale, a
 *     shear, and different scales per bone convert (the polar split M = D P) and match LBS on
 *     rigid vertices; two bones with the same stretch blend it unchanged; a per-vertex LBS share
 *     of 1 (SkinningType Blend) gives LBS exactly, 1/2 the midpoint; mirrors and a bone scaled
 *     to zero are refused (LBS fallback);
 *   - the demo's Twist clip: the limb's radius at the twisting elbow, LBS vs DQS (measured). */
#include "anim/skin_dq.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p' = m * (p, 1), written out (no cglm) */
static void transform_point(const mat4 m, const vec3 p, vec3 out)
{
    for (int r = 0; r < 3; r++) out[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
}

static float frand(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;   /* [-1, 1) */
}

/* A random rigid matrix: rotation about a random axis, random translation. */
static void random_rigid(unsigned *state, mat4 out)
{
    vec3 axis = {frand(state), frand(state), frand(state) + 0.01f};
    glm_vec3_normalize(axis);
    glm_rotate_make(out, 3.14159f * frand(state), axis);
    out[3][0] = 5.0f * frand(state);
    out[3][1] = 5.0f * frand(state);
    out[3][2] = 5.0f * frand(state);
}

static void test_rigid_matrix_roundtrip(void)
{
    unsigned state = 7;
    float worst = 0.0f;
    for (int i = 0; i < 1000; i++) {
        mat4 m;
        random_rigid(&state, m);
        DualQuat q;
        dq_from_rigid_matrix(m, &q);
        vec3 p = {frand(&state), frand(&state), frand(&state)}, by_matrix, by_dq;
        transform_point(m, p, by_matrix);
        dq_transform_point(&q, p, by_dq);
        float error = glm_vec3_distance(by_matrix, by_dq);
        if (error > worst) worst = error;
        CHECK(fabsf(glm_vec4_norm(q.real) - 1.0f) < 1e-5f, "unit rotation part");
        /* a unit dual quaternion has real . dual = 0 */
        CHECK(fabsf(glm_vec4_dot(q.real, q.dual)) < 1e-5f, "real and dual parts orthogonal");
    }
    CHECK(worst < 1e-5f, "1000 random rigid transforms: dual quaternion == matrix within %g", worst);
    printf("rigid matrix -> dual quaternion: worst point error %.2g over 1000 transforms\n", worst);
}

/* A two-bone mesh of one vertex, for blending tests. */
typedef struct TinyMesh {
    Mesh     mesh;
    vec3     position, normal;
    uint16_t joints[1][4];
    float    weights[1][4];
    int      bone_joint[2];
    mat4     inverse_bind[2];
} TinyMesh;

static void tiny_mesh(TinyMesh *t, float w0, float w1)
{
    memset(t, 0, sizeof *t);
    glm_vec3_copy((vec3){0.0f, 1.0f, 0.0f}, t->position);
    glm_vec3_copy((vec3){0.0f, 1.0f, 0.0f}, t->normal);
    t->joints[0][0] = 0;
    t->joints[0][1] = 1;
    t->weights[0][0] = w0;
    t->weights[0][1] = w1;
    t->mesh.vertex_count = 1;
    t->mesh.positions = &t->position;
    t->mesh.normals = &t->normal;
    t->mesh.joint_indices = t->joints;
    t->mesh.weights = t->weights;
    t->mesh.bone_count = 2;
    t->mesh.bone_joint = t->bone_joint;
    t->mesh.inverse_bind = t->inverse_bind;
    t->mesh.skinned = true;
}

static void test_antipodality_and_twist(void)
{
    TinyMesh t;
    tiny_mesh(&t, 0.5f, 0.5f);
    mat4 palette[2], identity = GLM_MAT4_IDENTITY_INIT;
    glm_mat4_identity(palette[0]);
    glm_rotate_make(palette[1], glm_rad(150.0f), (vec3){1.0f, 0.0f, 0.0f});   /* twist about the limb (x) */
    DualQuat dq[2];
    DqStretch stretch[2];
    CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_OK &&
              fabsf(stretch[1].v[0][0] - 1.0f) < 1e-6f && fabsf(stretch[1].v[0][3]) < 1e-6f,
          "rigid palette converts, stretch identity");
    vec3 lbs, dqs, dqs_flipped, n;
    skin_vertices_lbs(&t.mesh, (const mat4 *)palette, identity, &lbs, NULL);
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &dqs, &n);
    float r_lbs = hypotf(lbs[1], lbs[2]), r_dqs = hypotf(dqs[1], dqs[2]);
    /* LBS: the chord, r cos(75 deg) = 0.259; DQS: the arc, radius 1, at half the angle (75 deg) */
    CHECK(fabsf(r_lbs - cosf(glm_rad(75.0f))) < 1e-5f, "LBS radius at a 150 deg twist: %g (cos 75 deg)", r_lbs);
    CHECK(fabsf(r_dqs - 1.0f) < 1e-5f, "DQS keeps the radius at a 150 deg twist: %g", r_dqs);
    CHECK(fabsf(atan2f(dqs[2], dqs[1]) - glm_rad(75.0f)) < 1e-4f, "DQS turns the vertex half way (75 deg)");
    CHECK(fabsf(glm_vec3_norm(n) - 1.0f) < 1e-5f, "DQS normal is unit");
    /* the same transform with the other sign of the quaternion: the hemisphere fix hides it */
    glm_vec4_negate(dq[1].real);
    glm_vec4_negate(dq[1].dual);
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &dqs_flipped, NULL);
    CHECK(glm_vec3_distance(dqs, dqs_flipped) < 1e-5f, "q and -q blend the same (antipodality fix): %g",
          glm_vec3_distance(dqs, dqs_flipped));
    printf("150 deg twist, 50/50 weights: LBS radius %.3f, DQS radius %.3f (bind radius 1)\n", r_lbs, r_dqs);
}

/* palette[1] = rotation * the given 3x3 (column-major) stretch, with a translation */
static void stretched_bone(mat4 out, const float stretch3[3][3], float angle)
{
    mat4 rotation, stretch = GLM_MAT4_IDENTITY_INIT;
    glm_rotate_make(rotation, angle, (vec3){0.3f, 0.8f, 0.52f});
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) stretch[c][r] = stretch3[c][r];
    glm_mat4_mul(rotation, stretch, out);
    out[3][0] = 0.5f, out[3][1] = -1.0f, out[3][2] = 2.0f;
}

static void test_scale_handling(void)
{
    TinyMesh t;
    tiny_mesh(&t, 1.0f, 0.0f);   /* rigid: bone 0 only */
    mat4 palette[2], identity = GLM_MAT4_IDENTITY_INIT;
    DualQuat dq[2];
    DqStretch stretch[2];
    /* uniform 100 on every bone (cm -> m the other way round) */
    unsigned state = 3;
    for (int b = 0; b < 2; b++) {
        random_rigid(&state, palette[b]);
        glm_scale_uni(palette[b], 100.0f);
    }
    CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_OK, "uniform scale 100 converts");
    CHECK(fabsf(stretch[0].v[0][0] - 100.0f) < 1e-3f && fabsf(stretch[0].v[0][3]) < 1e-3f,
          "the stretch is 100 I: %g", stretch[0].v[0][0]);
    vec3 lbs, dqs;
    skin_vertices_lbs(&t.mesh, (const mat4 *)palette, identity, &lbs, NULL);
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &dqs, NULL);
    CHECK(glm_vec3_distance(lbs, dqs) < 1e-5f * glm_vec3_norm(lbs) + 1e-4f, "scaled rigid vertex: DQS == LBS (%g)",
          glm_vec3_distance(lbs, dqs));
    /* non-uniform scale, shear, and different scales per bone: every rigid vertex as LBS */
    static const float stretches[3][3][3] = {
        {{1.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}, {0.0f, 0.0f, 0.5f}},   /* non-uniform scale */
        {{1.0f, 0.0f, 0.0f}, {0.7f, 1.0f, 0.0f}, {0.0f, 0.3f, 1.2f}},   /* shear */
        {{3.0f, 0.0f, 0.0f}, {0.0f, 3.0f, 0.0f}, {0.0f, 0.0f, 3.0f}},   /* uniform, another scale than bone 0 */
    };
    for (int k = 0; k < 3; k++) {
        tiny_mesh(&t, 0.0f, 1.0f);   /* rigid: bone 1 only */
        glm_mat4_identity(palette[0]);
        stretched_bone(palette[1], stretches[k], 1.1f);
        CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_OK, "stretch %d converts", k);
        skin_vertices_lbs(&t.mesh, (const mat4 *)palette, identity, &lbs, NULL);
        skin_vertices_dq(&t.mesh, dq, stretch, identity, &dqs, NULL);
        CHECK(glm_vec3_distance(lbs, dqs) < 1e-5f, "stretch %d: rigid vertex DQS == LBS (%g)", k, glm_vec3_distance(lbs, dqs));
        /* the stretch is symmetric and D is the rotation: P = R^T M3 */
        CHECK(fabsf(glm_vec4_norm(dq[1].real) - 1.0f) < 1e-5f, "stretch %d: unit rotation", k);
    }
    /* two bones with the same stretch S and rotations R0, R1, 50/50: DQS blends the rotation,
     * the stretch stays S (p' = R_half S p), where LBS would shrink it */
    tiny_mesh(&t, 0.5f, 0.5f);
    mat4 s3 = GLM_MAT4_IDENTITY_INIT;
    glm_scale(s3, (vec3){1.0f, 2.0f, 1.0f});
    glm_mat4_copy(s3, palette[0]);
    glm_rotate_make(palette[1], glm_rad(90.0f), (vec3){1.0f, 0.0f, 0.0f});
    glm_mat4_mul(palette[1], s3, palette[1]);
    CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_OK, "scaled 50/50 converts");
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &dqs, NULL);
    /* stored (0, 1, 0) -> S: (0, 2, 0) -> turned 45 deg about x: (0, 2 cos 45, 2 sin 45) */
    CHECK(fabsf(dqs[0]) < 1e-5f && fabsf(dqs[1] - 2.0f * cosf(glm_rad(45.0f))) < 1e-5f &&
              fabsf(dqs[2] - 2.0f * sinf(glm_rad(45.0f))) < 1e-5f,
          "same stretch, 90 deg apart: the stretched point turns 45 deg (%g %g %g)", dqs[0], dqs[1], dqs[2]);
    /* SkinningType Blend: the LBS share */
    float dq_weight = 0.0f;
    t.mesh.dq_weight = &dq_weight;
    skin_vertices_lbs(&t.mesh, (const mat4 *)palette, identity, &lbs, NULL);
    vec3 blended, pure_dq;
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &blended, NULL);
    CHECK(glm_vec3_distance(lbs, blended) < 1e-5f, "dq_weight 0: LBS exactly (%g)", glm_vec3_distance(lbs, blended));
    dq_weight = 0.5f;
    skin_vertices_dq(&t.mesh, dq, stretch, identity, &blended, NULL);
    glm_vec3_copy(dqs, pure_dq);
    vec3 midpoint;
    glm_vec3_lerp(lbs, pure_dq, 0.5f, midpoint);
    CHECK(glm_vec3_distance(midpoint, blended) < 1e-5f, "dq_weight 1/2: the midpoint of LBS and DQS (%g)",
          glm_vec3_distance(midpoint, blended));
    t.mesh.dq_weight = NULL;
    /* a mirror */
    glm_mat4_identity(palette[1]);
    glm_scale(palette[1], (vec3){-1.0f, 1.0f, 1.0f});
    CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_MIRROR, "a mirror is refused");
    /* a bone scaled to zero */
    glm_mat4_identity(palette[1]);
    glm_scale(palette[1], (vec3){1.0f, 0.0f, 1.0f});
    CHECK(skin_palette_to_dq(&t.mesh, (const mat4 *)palette, dq, stretch) == SKIN_DQ_DEGENERATE, "a zero scale is refused");
    /* a static mesh converts trivially */
    Mesh static_mesh = {0};
    CHECK(skin_palette_to_dq(&static_mesh, NULL, dq, stretch) == SKIN_DQ_OK, "static mesh: OK");
}

/* Every single-influence vertex of every skinned mesh of `path`: DQS == LBS, at 8 times per clip. */
static void test_rigid_vertices_on_model(const char *path)
{
    Model model = {0};
    if (!test_import(path, NULL, &model)) return;
    Animator animator;
    SkinDqPose pose;
    int largest = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > largest) largest = model.meshes[m].vertex_count;
    vec3 *lbs = malloc(sizeof(vec3) * (size_t)largest), *dqs = malloc(sizeof(vec3) * (size_t)largest);
    if (!lbs || !dqs || !animator_init(&animator, &model) || !skin_dq_pose_init(&pose, &model)) {
        CHECK(false, "out of memory");
        exit(1);
    }
    double worst = 0.0, size = 0.0;
    long rigid = 0, fallbacks = 0;
    const char *why = "";
    int clips = model.clip_count > 0 ? model.clip_count : 1;
    for (int c = 0; c < clips; c++)
        for (int i = 0; i < 8; i++) {
            int clip = model.clip_count > 0 ? c : ANIMATOR_REST_POSE;
            float time = model.clip_count > 0 ? model.clips[c].duration * (float)i / 7.0f : 0.0f;
            animator_evaluate(&animator, clip, time);
            skin_dq_pose_update(&pose, &animator);
            for (int m = 0; m < model.mesh_count; m++) {
                const Mesh *mesh = &model.meshes[m];
                if (!mesh->skinned) continue;
                if (pose.status[m] != SKIN_DQ_OK) {
                    why = skin_dq_status_text(pose.status[m]);
                    fallbacks++;
                    continue;
                }
                animator_skin_mesh(&animator, m, lbs, NULL);
                skin_dq_pose_skin_mesh(&pose, &animator, m, dqs, NULL);
                for (int v = 0; v < mesh->vertex_count; v++) {
                    int influences = 0;
                    for (int k = 0; k < SV_MAX_INFLUENCES; k++) influences += mesh->weights[v][k] != 0.0f;
                    size = fmax(size, glm_vec3_norm(lbs[v]));
                    if (influences != 1) continue;
                    rigid++;
                    worst = fmax(worst, glm_vec3_distance(lbs[v], dqs[v]));
                }
            }
        }
    double relative = worst / (size > 0.0 ? size : 1.0);
    CHECK(relative <= 1e-5, "%s: rigid vertices DQS == LBS within %.2g of the model's size (1e-5)", path, relative);
    printf("%s: %ld rigid vertex samples, worst DQS - LBS %.2g of the size; %ld mesh poses fell back to LBS %s\n",
           path, rigid, relative, fallbacks, why);
    free(lbs);
    free(dqs);
    skin_dq_pose_free(&pose);
    animator_free(&animator);
    model_free(&model);
}

/* Distance of p from the line through a with direction d (unit). */
static float distance_to_axis(const vec3 p, const vec3 a, const vec3 d)
{
    vec3 ap, along;
    glm_vec3_sub((float *)p, (float *)a, ap);
    glm_vec3_scale((float *)d, glm_vec3_dot(ap, (float *)d), along);
    return glm_vec3_distance(ap, along);
}

static int joint_named(const Model *model, const char *name)
{
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], name) == 0) return j;
    return -1;
}

/* The demo's Twist clip: the forearm turns +-170 deg about its own axis. At the most twisted
 * time, the vertices around the elbow (weights shared about evenly by upper_arm.L and
 * forearm.L) lie at some radius from the arm's axis; compare it with their bind radius. */
static void test_demo_twist(void)
{
    Model model = {0};
    char error[512];
    ImportOptions options = {0};
    if (!import_model(SKINVIEW_SOURCE_DIR "/assets/demo.glb", &options, &model, error, sizeof error)) {
        CHECK(false, "demo.glb: %s", error);
        return;
    }
    int clip = model_find_clip(&model, "Twist");
    int upper = joint_named(&model, "upper_arm.L"), forearm = joint_named(&model, "forearm.L");
    const Mesh *mesh = NULL;
    int mesh_index = -1, bone_upper = -1, bone_forearm = -1;
    for (int m = 0; m < model.mesh_count && !mesh; m++)
        if (model.meshes[m].skinned) mesh = &model.meshes[m], mesh_index = m;
    for (int b = 0; mesh && b < mesh->bone_count; b++) {
        if (mesh->bone_joint[b] == upper) bone_upper = b;
        if (mesh->bone_joint[b] == forearm) bone_forearm = b;
    }
    CHECK(clip >= 0 && mesh && bone_upper >= 0 && bone_forearm >= 0, "demo: Twist clip, arm bones");
    if (!(clip >= 0 && mesh && bone_upper >= 0 && bone_forearm >= 0)) {
        model_free(&model);
        return;
    }
    Animator animator;
    SkinDqPose pose;
    vec3 *lbs = malloc(sizeof(vec3) * (size_t)mesh->vertex_count), *dqs = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    float *bind_radius = malloc(sizeof(float) * (size_t)mesh->vertex_count);
    if (!lbs || !dqs || !bind_radius || !animator_init(&animator, &model) || !skin_dq_pose_init(&pose, &model)) exit(1);

    /* the elbow ring: both weights in [0.4, 0.6]; their bind radius about the arm's axis in the
     * bind pose (the stored vertices are in the bind pose; the demo's rest pose is an A-pose) */
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    vec3 axis_point, axis_direction;
    glm_vec3_copy(animator.joint_model[forearm][3], axis_point);
    glm_vec3_sub(animator.joint_model[forearm][3], animator.joint_model[upper][3], axis_direction);
    glm_vec3_normalize(axis_direction);
    int ring = 0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        float w_upper = 0.0f, w_forearm = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            if (mesh->joint_indices[v][k] == bone_upper) w_upper += mesh->weights[v][k];
            if (mesh->joint_indices[v][k] == bone_forearm) w_forearm += mesh->weights[v][k];
        }
        bool in_ring = w_upper >= 0.4f && w_upper <= 0.6f && w_forearm >= 0.4f && w_forearm <= 0.6f;
        bind_radius[v] = in_ring ? distance_to_axis(mesh->positions[v], axis_point, axis_direction) : -1.0f;
        ring += in_ring;
    }
    CHECK(ring >= 8, "demo: %d elbow vertices shared about evenly by upper_arm.L and forearm.L", ring);

    /* the most twisted time: the largest angle between the forearm's and the upper arm's frames */
    float worst_time = 0.0f, worst_angle = 0.0f;
    for (int i = 0; i <= 300; i++) {
        float t = model.clips[clip].duration * (float)i / 300.0f;
        animator_evaluate(&animator, clip, t);
        versor qa, qb;
        mat4 ra, rb;
        glm_mat4_copy(animator.joint_model[upper], ra);
        glm_mat4_copy(animator.joint_model[forearm], rb);
        glm_mat4_quat(ra, qa);
        glm_mat4_quat(rb, qb);
        float angle = 2.0f * acosf(fminf(1.0f, fabsf(glm_vec4_dot(qa, qb))));
        if (angle > worst_angle) worst_angle = angle, worst_time = t;
    }
    animator_evaluate(&animator, clip, worst_time);
    skin_dq_pose_update(&pose, &animator);
    CHECK(pose.status[mesh_index] == SKIN_DQ_OK, "demo: the palette converts to dual quaternions");
    animator_skin_mesh(&animator, mesh_index, lbs, NULL);
    skin_dq_pose_skin_mesh(&pose, &animator, mesh_index, dqs, NULL);
    glm_vec3_copy(animator.joint_model[forearm][3], axis_point);
    glm_vec3_sub(animator.joint_model[forearm][3], animator.joint_model[upper][3], axis_direction);
    glm_vec3_normalize(axis_direction);
    double lbs_sum = 0.0, dqs_sum = 0.0, bind_sum = 0.0, lbs_min = INFINITY, dqs_min = INFINITY;
    for (int v = 0; v < mesh->vertex_count; v++) {
        if (bind_radius[v] < 0.0f) continue;
        double r_lbs = distance_to_axis(lbs[v], axis_point, axis_direction) / bind_radius[v];
        double r_dqs = distance_to_axis(dqs[v], axis_point, axis_direction) / bind_radius[v];
        lbs_sum += distance_to_axis(lbs[v], axis_point, axis_direction);
        dqs_sum += distance_to_axis(dqs[v], axis_point, axis_direction);
        bind_sum += bind_radius[v];
        lbs_min = fmin(lbs_min, r_lbs);
        dqs_min = fmin(dqs_min, r_dqs);
    }
    double lbs_kept = lbs_sum / bind_sum, dqs_kept = dqs_sum / bind_sum;
    printf("demo Twist at %.2f s (forearm turned %.0f deg against the upper arm), %d elbow vertices:\n"
           "  LBS keeps %.1f %% of the bind radius on average (worst vertex %.1f %%)\n"
           "  DQS keeps %.1f %% on average (worst vertex %.1f %%)\n",
           worst_time, glm_deg(worst_angle), ring, 100.0 * lbs_kept, 100.0 * lbs_min, 100.0 * dqs_kept,
           100.0 * dqs_min);
    CHECK(glm_deg(worst_angle) > 150.0f, "Twist turns the forearm by more than 150 deg (%.0f)", glm_deg(worst_angle));
    CHECK(lbs_kept < 0.5, "LBS loses most of the limb's radius at the elbow: keeps %.1f %%", 100.0 * lbs_kept);
    CHECK(fabs(dqs_kept - 1.0) < 0.05 && dqs_min > 0.9, "DQS keeps the radius within a few per cent: %.1f %% (worst %.1f %%)",
          100.0 * dqs_kept, 100.0 * dqs_min);
    free(lbs);
    free(dqs);
    free(bind_radius);
    skin_dq_pose_free(&pose);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    test_rigid_matrix_roundtrip();
    test_antipodality_and_twist();
    test_scale_handling();
    test_demo_twist();
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    for (int i = 0; i < count; i++) test_rigid_vertices_on_model(models[i].path);
    test_rigid_vertices_on_model(SKINVIEW_SOURCE_DIR "/assets/demo.fbx");
    return test_finish();
}
