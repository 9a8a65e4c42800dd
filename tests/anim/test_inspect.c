/* test_inspect.c — the teaching tools of issue 19, without a window:
 *   inspector  every number of vertex_inspect() recomputed here from the Model and the pose
 *              (the animator's local matrices and morph weights) with this file's own double
 *              matrix math: model-space joints, palette, bone-space point, terms, sum, rigid;
 *              and the LBS / rigid / DQS positions against the renderer's CPU references;
 *   rigid      every vertex moves exactly with one joint: p' = palette_heaviest * p (double);
 *   spaces     a vertex bound 100 % to one joint keeps its bone-space coordinates over a clip
 *              (inverse(M_j now) * p' = B^-1 * p) while its scene position moves;
 *   compare    the difference view is 0 for the same method on both sides and |p_lbs - p_dq|
 *              for lbs,dq (the references run here);
 *   morph      --morph / the sliders set exactly the weights they name, and release restores the clip's.
 * Models: the bundled demo (always) and ../shared/models when present (SimpleMorph, CesiumMan,
 * Xbot, AnimatedMorphCube). */
#include "anim/inspect.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef double dmat4[4][4];   /* [column][row], as cglm */

static void dmat_from(const mat4 m, dmat4 out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[c][r] = m[c][r];
}

static void dmat_mul(const dmat4 a, const dmat4 b, dmat4 out)
{
    dmat4 t;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += a[k][r] * b[c][k];
            t[c][r] = s;
        }
    memcpy(out, t, sizeof t);
}

static void dmat_point(const dmat4 m, const double p[3], double out[3])
{
    double t[3];
    for (int r = 0; r < 3; r++) t[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
    memcpy(out, t, sizeof t);
}

/* Inverse of an affine matrix (last row 0 0 0 1) by the 3x3 adjugate. */
static void dmat_inverse_affine(const dmat4 m, dmat4 out)
{
    double a = m[0][0], b = m[1][0], c = m[2][0], d = m[0][1], e = m[1][1], f = m[2][1], g = m[0][2], h = m[1][2],
           i = m[2][2];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    double inv[3][3] = {{(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det},
                        {(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det},
                        {(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det}};   /* [row][col] */
    memset(out, 0, sizeof(dmat4));
    for (int r = 0; r < 3; r++) {
        for (int col = 0; col < 3; col++) out[col][r] = inv[r][col];
        out[3][r] = -(inv[r][0] * m[3][0] + inv[r][1] * m[3][1] + inv[r][2] * m[3][2]);
    }
    out[3][3] = 1.0;
}

static double vec_distance(const double a[3], const float b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double mat_difference(const dmat4 a, const mat4 b)
{
    double worst = 0.0;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) worst = fmax(worst, fabs(a[c][r] - b[c][r]));
    return worst;
}

static bool load(const char *path, Model *model)
{
    char error[512];
    ImportOptions options = {0};
    memset(model, 0, sizeof *model);
    if (!import_model(path, &options, model, error, sizeof error)) {
        CHECK(false, "%s: %s", path, error);
        return false;
    }
    return true;
}

/* The worst errors of one model's inspections, relative to the model's scale (`size`). */
typedef struct Worst {
    double joint, palette, bone_space, moved, term, sum, rigid, reference_lbs, reference_rigid, reference_dq;
    int inspected, morphed;
} Worst;

/* Every number of the inspection of vertex v of mesh m against this file's own recomputation. */
static void check_vertex(const Animator *animator, const SkinDqPose *dq, int m, int v, dmat4 *joint_model,
                         const vec3 *lbs, const vec3 *rigid, const vec3 *dqs, double size, Worst *worst)
{
    const Model *model = animator->model;
    const Mesh *mesh = &model->meshes[m];
    VertexInspection info;
    if (!vertex_inspect(animator, dq, m, v, &info)) {
        CHECK(false, "vertex_inspect(%d, %d) refused", m, v);
        return;
    }
    worst->inspected++;
    /* p = p_stored + sum_t w_t * delta_t with the pose's weights */
    double p[3] = {mesh->positions[v][0], mesh->positions[v][1], mesh->positions[v][2]};
    int active = 0;
    for (int t = 0; t < mesh->morph_target_count; t++) {
        double w = animator->morph.weights[m][t];
        if (w == 0.0) continue;
        active++;
        for (int i = 0; i < 3; i++) p[i] += w * mesh->morph_position_deltas[(size_t)t * mesh->vertex_count + v][i];
    }
    if (active) worst->morphed++;
    CHECK(info.morph_count == active, "mesh %d vertex %d: %d morph steps, expected %d", m, v, info.morph_count, active);
    CHECK(vec_distance(p, info.position) <= 1e-5 * size, "mesh %d vertex %d: morphed position", m, v);
    CHECK(info.skinned == mesh->skinned, "skinned flag");
    if (!mesh->skinned) return;
    double sum[3] = {0, 0, 0};
    int count = 0, heaviest = 0;
    for (int k = 1; k < SV_MAX_INFLUENCES; k++)
        if (mesh->weights[v][k] > mesh->weights[v][heaviest]) heaviest = k;
    double rigid_expected[3] = {0, 0, 0};
    for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
        double w = mesh->weights[v][k];
        if (w == 0.0) continue;
        int bone = mesh->joint_indices[v][k], joint = mesh->bone_joint[bone];
        const InspectInfluence *in = &info.influences[count++];
        CHECK(in->slot == k && in->bone == bone && in->joint == joint && in->weight == (float)w &&
                  strcmp(in->joint_name, model->skeleton.names[joint]) == 0,
              "mesh %d vertex %d slot %d: bone %d joint %d \"%s\" weight %g", m, v, k, bone, joint,
              model->skeleton.names[joint], w);
        /* palette = M_j * B^-1 (F * M_j * B^-1 when the mesh follows its node) */
        dmat4 offset, palette;
        dmat_from(mesh->inverse_bind[bone], offset);
        dmat_mul(joint_model[joint], offset, palette);
        mat4 identity = GLM_MAT4_IDENTITY_INIT;
        bool unweighted = joint == mesh->node_joint && memcmp(mesh->inverse_bind[bone], identity, sizeof identity) == 0;
        if (mesh->skin_follows_node && mesh->node_joint >= 0 && !unweighted) {
            dmat4 bind_inverse, follow;
            dmat_from(mesh->skin_bind_node_inverse, bind_inverse);
            dmat_mul(joint_model[mesh->node_joint], bind_inverse, follow);
            dmat_mul(follow, palette, palette);
        }
        if (animator->playback.clip == ANIMATOR_BIND_POSE) dmat_from(mesh->bind_matrix, palette);   /* the bind pose: N */
        double scale = 1.0 + fabs(joint_model[joint][0][0]) + fabs(joint_model[joint][1][1]) + fabs(joint_model[joint][2][2]);
        if (animator->playback.clip != ANIMATOR_BIND_POSE)
            worst->joint = fmax(worst->joint, mat_difference(joint_model[joint], in->joint_model) / (scale + size));
        worst->palette = fmax(worst->palette, mat_difference(palette, in->palette) / (scale + size));
        CHECK(mat_difference(offset, in->offset) == 0.0, "offset matrix is the mesh's inverse bind");
        double bone_space[3], moved[3], term[3];
        dmat_point(offset, p, bone_space);
        dmat_point(palette, p, moved);
        for (int i = 0; i < 3; i++) term[i] = w * moved[i], sum[i] += term[i];
        double bone_size = 1.0 + sqrt(bone_space[0] * bone_space[0] + bone_space[1] * bone_space[1] + bone_space[2] * bone_space[2]);
        worst->bone_space = fmax(worst->bone_space, vec_distance(bone_space, in->bone_space) / bone_size);
        worst->moved = fmax(worst->moved, vec_distance(moved, in->moved) / size);
        worst->term = fmax(worst->term, vec_distance(term, in->term) / size);
        if (k == heaviest) {
            memcpy(rigid_expected, moved, sizeof moved);
            CHECK(info.heaviest == count - 1, "heaviest influence index");
        }
    }
    CHECK(info.influence_count == count, "mesh %d vertex %d: %d influences, expected %d", m, v, info.influence_count, count);
    worst->sum = fmax(worst->sum, vec_distance(sum, info.sum) / size);
    worst->rigid = fmax(worst->rigid, vec_distance(rigid_expected, info.rigid) / size);
    double lbs_ref[3] = {lbs[v][0], lbs[v][1], lbs[v][2]}, rigid_ref[3] = {rigid[v][0], rigid[v][1], rigid[v][2]};
    double dq_ref[3] = {dqs[v][0], dqs[v][1], dqs[v][2]};
    worst->reference_lbs = fmax(worst->reference_lbs, vec_distance(lbs_ref, info.lbs) / size);
    worst->reference_rigid = fmax(worst->reference_rigid, vec_distance(rigid_ref, info.rigid) / size);
    worst->reference_dq = fmax(worst->reference_dq, vec_distance(dq_ref, info.dq) / size);
}

static void model_joints_double(const Animator *animator, dmat4 *out)
{
    const Skeleton *s = &animator->model->skeleton;
    for (int j = 0; j < s->joint_count; j++) {
        dmat4 local;
        dmat_from(animator->local[j], local);
        if (s->parent[j] < 0) memcpy(out[j], local, sizeof local);
        else dmat_mul(out[s->parent[j]], local, out[j]);   /* M_j = M_parent * L_j */
    }
}

static double model_size(const Model *model)
{
    vec3 lo = {1e30f, 1e30f, 1e30f}, hi = {-1e30f, -1e30f, -1e30f};
    for (int m = 0; m < model->mesh_count; m++)
        for (int v = 0; v < model->meshes[m].vertex_count; v++) {
            glm_vec3_minv(lo, model->meshes[m].positions[v], lo);
            glm_vec3_maxv(hi, model->meshes[m].positions[v], hi);
        }
    return glm_vec3_distance(lo, hi);
}

/* Inspector, rigid and compare on one model: every clip at 3 times and the bind pose; every
 * `stride`-th vertex inspected, every vertex for rigid and compare. */
static void test_model(const char *path, int stride)
{
    Model model;
    if (!load(path, &model)) return;
    Animator animator;
    SkinDqPose dq;
    if (!animator_init(&animator, &model) || !skin_dq_pose_init(&dq, &model)) {
        CHECK(false, "%s: out of memory", path);
        model_free(&model);
        return;
    }
    int largest = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > largest) largest = model.meshes[m].vertex_count;
    vec3 *lbs = malloc(sizeof(vec3) * largest), *rigid = malloc(sizeof(vec3) * largest), *dqs = malloc(sizeof(vec3) * largest);
    vec3 *a = malloc(sizeof(vec3) * largest), *b = malloc(sizeof(vec3) * largest);
    float *distance = malloc(sizeof(float) * largest);
    dmat4 *joints = calloc((size_t)(model.skeleton.joint_count + 1), sizeof(dmat4));
    double size = model_size(&model);
    /* the scene is the scale of the posed model: the stored size times the bind matrix's scale */
    Worst worst = {0};
    double rigid_worst = 0.0, compare_same = 0.0, compare_lbs_dq = 0.0, lbs_dq_largest = 0.0;
    int rigid_vertices = 0;
    int poses = model.clip_count * 3 + 1;
    for (int pose = 0; pose < poses; pose++) {
        int clip = pose == poses - 1 ? ANIMATOR_BIND_POSE : pose / 3;
        float time = clip >= 0 ? model.clips[clip].duration * (float)(pose % 3) / 2.0f : 0.0f;
        animator_evaluate(&animator, clip, time);
        skin_dq_pose_update(&dq, &animator);
        model_joints_double(&animator, joints);
        for (int m = 0; m < model.mesh_count; m++) {
            const Mesh *mesh = &model.meshes[m];
            double scene_size = size;
            if (mesh->skinned) {   /* the scene's size: the scaled mesh (FBX unit scale lives in the palette) */
                float s = glm_vec3_norm(animator.palettes[m][0][0]);
                if (s > 0.0f) scene_size = size * s;
            }
            animator_skin_mesh(&animator, m, lbs, NULL);
            skin_mesh_by_method(SKINNING_RIGID, &dq, &animator, m, rigid, NULL);
            skin_dq_pose_skin_mesh(&dq, &animator, m, dqs, NULL);
            for (int v = 0; v < mesh->vertex_count; v += stride)
                check_vertex(&animator, &dq, m, v, joints, lbs, rigid, dqs, scene_size, &worst);
            /* rigid: every vertex exactly with one joint, p' = palette_h * p (double here) */
            const mat4 *palette = (const mat4 *)animator.palettes[m];
            if (mesh->skinned && !animator_morph_mesh(&animator, m))
                for (int v = 0; v < mesh->vertex_count; v++) {
                    int h = skin_heaviest_slot(mesh->weights[v]);
                    dmat4 pal;
                    dmat_from(palette[mesh->joint_indices[v][h]], pal);
                    double p[3] = {mesh->positions[v][0], mesh->positions[v][1], mesh->positions[v][2]}, q[3];
                    dmat_point(pal, p, q);
                    rigid_worst = fmax(rigid_worst, vec_distance(q, rigid[v]) / scene_size);
                    rigid_vertices++;
                }
            /* the difference view: same method 0, lbs vs dq = |lbs - dq| */
            if (!mesh->skinned) continue;
            for (int method = 0; method < 3; method++) {
                static const SkinningMethod methods[3] = {SKINNING_GPU_LBS, SKINNING_GPU_DQ, SKINNING_RIGID};
                float largest_same = skin_compare_mesh(methods[method], methods[method], &dq, &animator, m, a, b, distance);
                compare_same = fmax(compare_same, largest_same);
            }
            float largest_lbs_dq = skin_compare_mesh(SKINNING_GPU_LBS, SKINNING_GPU_DQ, &dq, &animator, m, a, b, distance);
            double largest_expected = 0.0;
            for (int v = 0; v < mesh->vertex_count; v++) {
                double expected = glm_vec3_distance(lbs[v], dqs[v]);
                compare_lbs_dq = fmax(compare_lbs_dq, fabs(expected - distance[v]) / scene_size);
                largest_expected = fmax(largest_expected, expected);
            }
            CHECK(fabs(largest_expected - largest_lbs_dq) <= 1e-6 * scene_size, "%s mesh %d: compare's largest distance",
                  path, m);
            lbs_dq_largest = fmax(lbs_dq_largest, largest_lbs_dq / scene_size);
        }
    }
    printf("%s: %d vertex inspections (%d morphed), worst relative: joint %.2g palette %.2g bone-space %.2g "
           "moved %.2g term %.2g sum %.2g rigid %.2g; vs the references: LBS %.2g rigid %.2g DQS %.2g\n",
           path, worst.inspected, worst.morphed, worst.joint, worst.palette, worst.bone_space, worst.moved, worst.term,
           worst.sum, worst.rigid, worst.reference_lbs, worst.reference_rigid, worst.reference_dq);
    printf("  rigid: %d vertex poses, worst |p' - palette_h p| %.2g of the size; compare: same method %.2g, "
           "lbs,dq vs |p_lbs - p_dq| %.2g (largest lbs-dq distance %.3g of the size)\n",
           rigid_vertices, rigid_worst, compare_same, compare_lbs_dq, lbs_dq_largest);
    CHECK(worst.inspected > 0, "%s: some vertex inspected", path);
    CHECK(worst.joint <= 1e-5, "%s: joint matrices %.3g", path, worst.joint);
    /* float (the pose path) vs double: the palette's translation cancels M_j's and B^-1's */
    CHECK(worst.palette <= 5e-5, "%s: palette matrices %.3g", path, worst.palette);
    CHECK(worst.bone_space <= 1e-5, "%s: bone-space points %.3g", path, worst.bone_space);
    CHECK(worst.moved <= 1e-5 && worst.term <= 1e-5 && worst.sum <= 1e-5, "%s: terms and sum %.3g %.3g %.3g", path,
          worst.moved, worst.term, worst.sum);
    CHECK(worst.rigid <= 1e-5, "%s: rigid position %.3g", path, worst.rigid);
    CHECK(worst.reference_lbs <= 1e-5 && worst.reference_rigid <= 1e-6 && worst.reference_dq <= 1e-5,
          "%s: the inspector agrees with the CPU references (LBS %.3g rigid %.3g DQS %.3g)", path, worst.reference_lbs,
          worst.reference_rigid, worst.reference_dq);
    CHECK(rigid_worst <= 1e-6, "%s: rigid vertices move with one joint (%.3g)", path, rigid_worst);
    CHECK(compare_same == 0.0, "%s: the difference view of a method with itself is 0 (%.3g)", path, compare_same);
    CHECK(compare_lbs_dq <= 1e-7, "%s: lbs,dq difference = |p_lbs - p_dq| (%.3g)", path, compare_lbs_dq);
    free(joints);
    free(distance);
    free(a);
    free(b);
    free(lbs);
    free(rigid);
    free(dqs);
    skin_dq_pose_free(&dq);
    animator_free(&animator);
    model_free(&model);
}

/* The three spaces on the demo: a vertex bound 100 % to one joint keeps B^-1 * p in every frame of
 * Walk, and inverse(M_j now) * p' gives it back, while p' itself moves. */
static void test_three_spaces(void)
{
    Model model;
    if (!load(SKINVIEW_SOURCE_DIR "/assets/demo.glb", &model)) return;
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator");
    int clip = model_find_clip(&model, "Walk"), mesh = 0, vertex = -1;
    const Mesh *m = &model.meshes[mesh];
    /* a fully bound vertex of a moving joint: the forearm (its hand swings in Walk) */
    for (int v = 0; v < m->vertex_count && vertex < 0; v++)
        if (m->weights[v][0] == 1.0f && strcmp(model.skeleton.names[m->bone_joint[m->joint_indices[v][0]]], "forearm.L") == 0)
            vertex = v;
    CHECK(clip >= 0 && vertex >= 0, "demo: Walk and a vertex bound only to forearm.L");
    if (clip < 0 || vertex < 0) {
        animator_free(&animator);
        model_free(&model);
        return;
    }
    double first_bone[3] = {0}, first_scene[3] = {0}, worst_bone = 0.0, worst_back = 0.0, moved = 0.0;
    for (int frame = 0; frame <= 30; frame++) {
        animator_evaluate(&animator, clip, model.clips[clip].duration * (float)frame / 30.0f);
        VertexInspection info;
        vertex_inspect(&animator, NULL, mesh, vertex, &info);
        const InspectInfluence *k = &info.influences[0];
        /* back to bone space from the posed vertex: inverse(M_j now) * p' (this file's math) */
        dmat4 joint, inverse;
        dmat_from(k->joint_model, joint);
        dmat_inverse_affine(joint, inverse);
        double scene[3] = {info.lbs[0], info.lbs[1], info.lbs[2]}, back[3];
        dmat_point(inverse, scene, back);
        if (frame == 0) {
            for (int i = 0; i < 3; i++) first_bone[i] = k->bone_space[i], first_scene[i] = scene[i];
        }
        worst_bone = fmax(worst_bone, vec_distance(first_bone, k->bone_space));
        worst_back = fmax(worst_back, vec_distance(back, k->bone_space) / (1.0 + vec_distance((double[3]){0, 0, 0}, k->bone_space)));
        moved = fmax(moved, vec_distance(first_scene, info.lbs));
    }
    printf("three spaces: demo vertex %d (forearm.L, weight 1) over 31 frames of Walk: bone space changed by %.3g, "
           "inverse(M_j) p' vs B^-1 p %.3g relative, scene position moved up to %.3g\n",
           vertex, worst_bone, worst_back, moved);
    CHECK(worst_bone == 0.0, "bone-space coordinates are the same in every frame (%.3g)", worst_bone);
    CHECK(worst_back <= 1e-5, "inverse(M_j now) * p' = B^-1 * p (%.3g)", worst_back);
    CHECK(moved > 0.05, "while the scene position moves (%.3g)", moved);
    animator_free(&animator);
    model_free(&model);
}

/* --morph / sliders: exactly the named weights change; clearing one restores the clip's. */
static void test_morph_override(const char *path)
{
    Model model;
    if (!load(path, &model)) return;
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator");
    int mesh = -1;
    for (int m = 0; m < model.mesh_count && mesh < 0; m++)
        if (model.meshes[m].morph_target_count >= 2) mesh = m;
    CHECK(mesh >= 0, "%s: a mesh with two morph targets", path);
    if (mesh >= 0) {
        const Mesh *m = &model.meshes[mesh];
        int clip = model.clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
        float time = clip >= 0 ? 0.37f * model.clips[clip].duration : 0.0f;
        animator_evaluate(&animator, clip, time);
        float clip_weights[64];
        int targets = m->morph_target_count < 64 ? m->morph_target_count : 64;
        memcpy(clip_weights, animator.morph.weights[mesh], sizeof(float) * (size_t)targets);
        MorphOverride o;
        char error[256], spec[64];
        snprintf(spec, sizeof spec, "1=0.625");   /* by index */
        CHECK(morph_override_parse(&model, spec, &o, error, sizeof error), "--morph %s: %s", spec, error);
        animator_evaluate(&animator, clip, time);
        morph_override_apply(&o, &animator);
        int changed_other = 0;
        for (int t = 0; t < targets; t++)
            if (t != 1 && animator.morph.weights[mesh][t] != clip_weights[t]) changed_other++;
        CHECK(animator.morph.weights[mesh][1] == 0.625f && changed_other == 0,
              "--morph 1=0.625 sets target 1 (%g) and nothing else (%d changed)", animator.morph.weights[mesh][1],
              changed_other);
        VertexInspection info;
        vertex_inspect(&animator, NULL, mesh, 0, &info);
        bool listed = false;
        for (int i = 0; i < info.morph_listed; i++) listed |= info.morphs[i].target == 1 && info.morphs[i].weight == 0.625f;
        CHECK(listed, "the inspector lists the hand-set weight");
        /* release (slider let go): the clip's weight comes back */
        morph_override_clear(&o, mesh, 1);
        animator_evaluate(&animator, clip, time);
        morph_override_apply(&o, &animator);
        CHECK(memcmp(animator.morph.weights[mesh], clip_weights, sizeof(float) * (size_t)targets) == 0,
              "released: every weight is the clip's again");
        morph_override_free(&o);
        if (m->morph_target_names && m->morph_target_names[0][0]) {   /* by name */
            snprintf(spec, sizeof spec, "%s=0.25", m->morph_target_names[0]);
            CHECK(morph_override_parse(&model, spec, &o, error, sizeof error), "--morph %s: %s", spec, error);
            animator_evaluate(&animator, clip, time);
            morph_override_apply(&o, &animator);
            CHECK(animator.morph.weights[mesh][0] == 0.25f, "--morph NAME=0.25 by name");
            morph_override_free(&o);
        }
        CHECK(!morph_override_parse(&model, "no-such-target=1", &o, error, sizeof error) && strstr(error, "no morph"),
              "an unknown target is refused: %s", error);
        morph_override_free(&o);
        CHECK(!morph_override_parse(&model, "1=abc", &o, error, sizeof error), "a bad weight is refused");
        morph_override_free(&o);
    }
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    test_model(SKINVIEW_SOURCE_DIR "/assets/demo.glb", 7);
    test_model(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", 13);
    test_three_spaces();
    static const char *const shared[] = {"khronos-cesiumman/cesium_man.gltf", "threejs-xbot/Xbot.glb",
                                         "khronos-simplemorph/SimpleMorph.gltf",
                                         "khronos-animatedmorphcube/AnimatedMorphCube.glb"};
    for (int i = 0; i < 4; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_SHARED_MODELS_DIR, shared[i]);
        if (!test_file_exists(path)) {
            printf("skipped (absent): %s\n", path);
            continue;
        }
        test_model(path, 31);
        if (i >= 2) test_morph_override(path);
    }
    return test_finish();
}
