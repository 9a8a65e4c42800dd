/* test_export_gltf_dq — dual quaternion skins through --export-gltf's corrective morph targets (gltf_write_dq.c).
 *
 * A "candy wrapper" built in memory: a tube along +x from 0 to 2 (radius 0.25), joint "arm" at the origin and its
 * child "forearm" at x = 1, vertices blended from the arm to the forearm between x = 0.5 and 1.5; the clip "Twist"
 * turns the forearm about its own axis (x) from 0 to 170 degrees, a key every 0.1 s, LINEAR, while a blend shape
 * "bulge" (the middle ring pushed out) goes 0 -> 1 -> 0. The file asks for dual quaternion skinning.
 *   - exported with the DQ corrections (GltfExportOptions.skinning = SKINNING_GPU_DQ) and read back by skinview's glTF
 *     reader, posed by LBS (glTF's only method): at every key it is skinview's DQ pose of the source (morph first)
 *     within 1e-6 of the diagonal, and its normals within 1e-4 (radians); between keys (at 1/3, 1/2, 2/3 and 0.9 of
 *     each 0.1 s interval: 1/3, 2/3 and 0.9 are no key the refinement adds) within the stated bound BETWEEN_BOUND,
 *     and far closer than plain LBS;
 *   - targetNames: the file's "bulge" first, then the corrections, "skinview_dq_Twist_K";
 *   - exported plain (skinning LBS): read back it differs from the DQ pose by exactly what LBS differs from DQS on
 *     the source (the candy wrapper's collapse, about 0.1 of the diagonal at 170 degrees), to 1e-6;
 *   - with a cap below what the corrections take (GltfExportOptions.corrective_max_bytes): plain LBS, reported. */
#include "testutil.h"

#include "anim/key_reduce.h"   /* model_bind_diagonal */
#include "anim/skin_dq.h"
#include "io/gltf_write.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RINGS 33
#define SIDES 16
#define RADIUS 0.25f
#define KEYS 18             /* 0, 0.1, ..., 1.7 s: 10 degrees a key */
#define BETWEEN_BOUND 1e-4  /* of the diagonal, between keys: LBS + the linear interpolation of the
                               corrections, the keys refined where the halfway pose misses by > 5e-5 */

static float twist_degrees(int key) { return 10.0f * (float)key; }

/* The candy wrapper (see the top). */
static bool build_model(Model *model)
{
    memset(model, 0, sizeof *model);
    snprintf(model->source_path, sizeof model->source_path, "candy_wrapper (built in memory)");
    if (!skeleton_alloc(&model->skeleton, 2)) return false;
    Skeleton *s = &model->skeleton;
    snprintf(s->names[0], SV_NAME_MAX, "arm");
    snprintf(s->names[1], SV_NAME_MAX, "forearm");
    s->parent[0] = -1, s->parent[1] = 0;
    for (int j = 0; j < 2; j++) {
        glm_mat4_identity(s->rest_local[j]);
        glm_quat_identity(s->rest_trs[j].rotation);
        glm_vec3_one(s->rest_trs[j].scale);
        s->is_bone[j] = true;
    }
    s->rest_local[1][3][0] = 1.0f;
    s->rest_trs[1].translation[0] = 1.0f;

    model->mesh_count = 1;
    model->meshes = calloc(1, sizeof(Mesh));
    Mesh *mesh = &model->meshes[0];
    int n = RINGS * SIDES;
    snprintf(mesh->name, sizeof mesh->name, "tube");
    mesh->vertex_count = n;
    mesh->index_count = (RINGS - 1) * SIDES * 6;
    mesh->positions = calloc((size_t)n, sizeof(vec3));
    mesh->normals = calloc((size_t)n, sizeof(vec3));
    mesh->uvs = calloc((size_t)n, sizeof(vec2));
    mesh->indices = calloc((size_t)mesh->index_count, sizeof(uint32_t));
    mesh->bone_count = 2;
    mesh->bone_joint = calloc(2, sizeof(int));
    mesh->inverse_bind = calloc(2, sizeof(mat4));
    mesh->joint_indices = calloc((size_t)n, sizeof *mesh->joint_indices);
    mesh->weights = calloc((size_t)n, sizeof *mesh->weights);
    mesh->morph_target_count = 1;
    mesh->morph_target_names = calloc(1, sizeof *mesh->morph_target_names);
    mesh->morph_position_deltas = calloc((size_t)n, sizeof(vec3));
    mesh->morph_normal_deltas = calloc((size_t)n, sizeof(vec3));
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices || !mesh->bone_joint || !mesh->inverse_bind ||
        !mesh->joint_indices || !mesh->weights || !mesh->morph_target_names || !mesh->morph_position_deltas ||
        !mesh->morph_normal_deltas)
        return false;
    mesh->skinned = true;
    mesh->skinning_in_file = MESH_SKINNING_DUAL_QUATERNION;
    mesh->material = -1;
    mesh->node_joint = 0;
    glm_mat4_identity(mesh->bind_matrix);
    glm_mat4_identity(mesh->skin_bind_node_inverse);
    mesh->bone_joint[0] = 0, mesh->bone_joint[1] = 1;
    glm_mat4_identity(mesh->inverse_bind[0]);
    glm_mat4_identity(mesh->inverse_bind[1]);
    mesh->inverse_bind[1][3][0] = -1.0f;   /* the forearm bound at x = 1 */
    snprintf(mesh->morph_target_names[0], SV_NAME_MAX, "bulge");
    for (int r = 0; r < RINGS; r++)
        for (int k = 0; k < SIDES; k++) {
            int v = r * SIDES + k;
            float x = 2.0f * (float)r / (RINGS - 1), angle = 2.0f * GLM_PIf * (float)k / SIDES;
            float y = cosf(angle), z = sinf(angle);
            mesh->positions[v][0] = x, mesh->positions[v][1] = RADIUS * y, mesh->positions[v][2] = RADIUS * z;
            mesh->normals[v][1] = y, mesh->normals[v][2] = z;
            float forearm = fminf(fmaxf(x - 0.5f, 0.0f), 1.0f);   /* 0 below x = 0.5, 1 above x = 1.5 */
            mesh->joint_indices[v][0] = 0, mesh->joint_indices[v][1] = 1;
            mesh->weights[v][0] = 1.0f - forearm, mesh->weights[v][1] = forearm;
            if (forearm == 1.0f) mesh->joint_indices[v][0] = 1, mesh->weights[v][0] = 1, mesh->joint_indices[v][1] = 0,
                                 mesh->weights[v][1] = 0;
            float bulge = fmaxf(0.0f, 1.0f - fabsf(x - 1.0f) * 4.0f) * 0.1f;   /* the rings near x = 1 pushed out */
            mesh->morph_position_deltas[v][1] = bulge * y, mesh->morph_position_deltas[v][2] = bulge * z;
            if (r + 1 < RINGS) {
                uint32_t *t = &mesh->indices[(size_t)(r * SIDES + k) * 6];
                uint32_t a = (uint32_t)v, b = (uint32_t)(r * SIDES + (k + 1) % SIDES), c = a + SIDES, d = b + SIDES;
                t[0] = a, t[1] = c, t[2] = b, t[3] = b, t[4] = c, t[5] = d;
            }
        }

    model->clip_count = 1;
    model->clips = calloc(1, sizeof(Clip));
    Clip *clip = &model->clips[0];
    snprintf(clip->name, sizeof clip->name, "Twist");
    clip->duration = 0.1f * (KEYS - 1);
    clip->track_count = 1;
    clip->tracks = calloc(1, sizeof(JointTrack));
    JointTrack *track = &clip->tracks[0];
    track->joint = 1;
    track->rotation_count = KEYS;
    track->rotation_times = calloc(KEYS, sizeof(float));
    track->rotation_values = calloc(KEYS, sizeof(versor));
    clip->morph_track_count = 1;
    clip->morph_tracks = calloc(1, sizeof(MorphTrack));
    MorphTrack *weights = &clip->morph_tracks[0];
    weights->mesh = 0, weights->target = 0, weights->key_count = 3;
    weights->times = calloc(3, sizeof(float));
    weights->weights = calloc(3, sizeof(float));
    if (!track->rotation_times || !track->rotation_values || !weights->times || !weights->weights) return false;
    for (int k = 0; k < KEYS; k++) {
        track->rotation_times[k] = 0.1f * (float)k;
        glm_quatv(track->rotation_values[k], glm_rad(twist_degrees(k)), (vec3){1, 0, 0});
    }
    weights->times[0] = 0, weights->times[1] = clip->duration / 2, weights->times[2] = clip->duration;
    weights->weights[1] = 1.0f;
    return true;
}

typedef struct Poses {
    Animator   source, back;
    SkinDqPose dq;
    vec3      *dq_positions, *dq_normals, *lbs_positions, *back_positions, *back_normals;
} Poses;

/* At clip time t: the worst position distance GLB (LBS) vs source (DQS), of the source's LBS vs its DQS, and the
 * worst normal angle GLB vs source (DQS). */
static void compare(Poses *p, float t, double *distance, double *lbs_distance, double *normal_angle, double *back_vs_lbs)
{
    animator_evaluate(&p->source, 0, t);
    animator_evaluate(&p->back, 0, t);
    skin_dq_pose_update(&p->dq, &p->source);
    skin_dq_pose_skin_mesh(&p->dq, &p->source, 0, p->dq_positions, p->dq_normals);
    animator_skin_mesh(&p->source, 0, p->lbs_positions, NULL);
    animator_skin_mesh(&p->back, 0, p->back_positions, p->back_normals);
    *distance = *lbs_distance = *normal_angle = *back_vs_lbs = 0;
    for (int v = 0; v < p->source.model->meshes[0].vertex_count; v++) {
        *distance = fmax(*distance, glm_vec3_distance(p->dq_positions[v], p->back_positions[v]));
        *lbs_distance = fmax(*lbs_distance, glm_vec3_distance(p->dq_positions[v], p->lbs_positions[v]));
        *back_vs_lbs = fmax(*back_vs_lbs, glm_vec3_distance(p->back_positions[v], p->lbs_positions[v]));
        /* the angle as atan2(|a x b|, a . b): acos of a float dot product near 1 is off by up to 3e-4 */
        const float *a = p->dq_normals[v], *b = p->back_normals[v];
        double cx = (double)a[1] * b[2] - (double)a[2] * b[1], cy = (double)a[2] * b[0] - (double)a[0] * b[2],
               cz = (double)a[0] * b[1] - (double)a[1] * b[0];
        double dot = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
        *normal_angle = fmax(*normal_angle, atan2(sqrt(cx * cx + cy * cy + cz * cz), dot));
    }
}

/* Exports `model` with `method`, reads it back; false when either fails (checked). */
static bool export_and_read(const Model *model, SkinningMethod method, size_t cap, const char *out, Model *back,
                            GltfExportReport *report)
{
    char error[512];
    report->clip_animation = calloc(2, sizeof(int));
    report->mesh_order = calloc(2, sizeof(int));
    GltfExportOptions options = {.skinning = method, .corrective_max_bytes = cap};
    bool ok = gltf_export(model, out, &options, report, error, sizeof error);
    CHECK(ok, "export (%s): %s", skinning_method_label(method), error);
    ImportOptions import = {.quiet = true, .keep_vertex_order = true};
    ok = ok && import_model(out, &import, back, error, sizeof error);
    CHECK(ok, "the export (%s) does not read back: %s", skinning_method_label(method), error);
    ok = ok && back->mesh_count == 1 && back->meshes[0].vertex_count == model->meshes[0].vertex_count && back->clip_count == 1;
    CHECK(ok, "the export (%s) reads back with another shape", skinning_method_label(method));
    free(report->clip_animation), free(report->mesh_order);
    return ok;
}

static bool poses_init(Poses *p, const Model *model, const Model *back)
{
    size_t n = (size_t)model->meshes[0].vertex_count;
    p->dq_positions = calloc(n, sizeof(vec3)), p->dq_normals = calloc(n, sizeof(vec3));
    p->lbs_positions = calloc(n, sizeof(vec3)), p->back_positions = calloc(n, sizeof(vec3));
    p->back_normals = calloc(n, sizeof(vec3));
    return p->dq_positions && p->dq_normals && p->lbs_positions && p->back_positions && p->back_normals &&
           animator_init(&p->source, model) && animator_init(&p->back, back) && skin_dq_pose_init(&p->dq, model);
}

static void poses_free(Poses *p)
{
    skin_dq_pose_free(&p->dq);
    animator_free(&p->source), animator_free(&p->back);
    free(p->dq_positions), free(p->dq_normals), free(p->lbs_positions), free(p->back_positions), free(p->back_normals);
}

int main(void)
{
    Model model;
    bool built = build_model(&model);
    CHECK(built, "out of memory building the candy wrapper");
    if (!built) return test_finish();
    double diagonal = model_bind_diagonal(&model);
    char out[256];
    snprintf(out, sizeof out, "/tmp/skinview_export_dq_%d.glb", (int)getpid());

    /* 1. with the corrections */
    Model back = {0};
    GltfExportReport report = {0};
    if (export_and_read(&model, SKINNING_GPU_DQ, 0, out, &back, &report)) {
        CHECK(report.meshes_corrected == 1 && report.corrective_targets > 0 && report.meshes_lbs_for_dq == 0,
              "report: %d meshes corrected, %d targets, %d plain LBS", report.meshes_corrected, report.corrective_targets,
              report.meshes_lbs_for_dq);
        const Mesh *mesh = &back.meshes[0];
        CHECK(mesh->morph_target_count == 1 + report.corrective_targets, "%d targets read back, %d written",
              mesh->morph_target_count, 1 + report.corrective_targets);
        CHECK(mesh->morph_target_names && strcmp(mesh->morph_target_names[0], "bulge") == 0 &&
                  strncmp(mesh->morph_target_names[mesh->morph_target_count - 1], "skinview_dq_Twist_", 18) == 0,
              "targetNames: '%s' ... '%s'", mesh->morph_target_names ? mesh->morph_target_names[0] : "",
              mesh->morph_target_names ? mesh->morph_target_names[mesh->morph_target_count - 1] : "");
        Poses p = {0};
        bool ok = poses_init(&p, &model, &back);
        CHECK(ok, "out of memory");
        double worst_key = 0, worst_key_normal = 0, worst_between = 0, worst_lbs = 0;
        for (int k = 0; ok && k < KEYS; k++) {
            double d, lbs, angle, unused;
            compare(&p, 0.1f * (float)k, &d, &lbs, &angle, &unused);
            worst_key = fmax(worst_key, d), worst_key_normal = fmax(worst_key_normal, angle), worst_lbs = fmax(worst_lbs, lbs);
            static const float between[] = {1.0f / 3, 0.5f, 2.0f / 3, 0.9f};   /* 1/3, 2/3, 0.9: never a refined key */
            for (int q = 0; k + 1 < KEYS && q < 4; q++) {
                compare(&p, 0.1f * ((float)k + between[q]), &d, &lbs, &angle, &unused);
                worst_between = fmax(worst_between, d);
                worst_lbs = fmax(worst_lbs, lbs);
            }
        }
        printf("DQ export, %d corrective targets, %zu bytes: at keys %.2e of the diagonal (normals %.1e rad), between keys "
               "%.2e (bound %.0e); plain LBS is off by %.2e\n",
               report.corrective_targets, report.bytes, worst_key / diagonal, worst_key_normal, worst_between / diagonal,
               BETWEEN_BOUND, worst_lbs / diagonal);
        CHECK(worst_key <= 1e-6 * diagonal, "at keys: %.3e of the diagonal, over 1e-6", worst_key / diagonal);
        CHECK(worst_key_normal <= 1e-4, "normals at keys: %.3e rad, over 1e-4", worst_key_normal);
        CHECK(worst_between <= BETWEEN_BOUND * diagonal, "between keys: %.3e of the diagonal, over %.0e",
              worst_between / diagonal, BETWEEN_BOUND);
        CHECK(worst_lbs > 0.05 * diagonal && worst_between < 0.1 * worst_lbs,
              "the candy wrapper: LBS off by %.3e, the export between keys by %.3e", worst_lbs / diagonal,
              worst_between / diagonal);
        if (ok) poses_free(&p);
    }
    model_free(&back);
    unlink(out);

    /* 2. plain LBS: off by the candy wrapper's known amount, exactly LBS's */
    Model plain = {0};
    GltfExportReport plain_report = {0};
    if (export_and_read(&model, SKINNING_GPU_LBS, 0, out, &plain, &plain_report)) {
        CHECK(plain_report.meshes_corrected == 0 && plain_report.meshes_lbs_for_dq == 1 && plain.meshes[0].morph_target_count == 1,
              "plain LBS: %d corrected, %d counted as LBS, %d targets", plain_report.meshes_corrected,
              plain_report.meshes_lbs_for_dq, plain.meshes[0].morph_target_count);
        Poses p = {0};
        bool ok = poses_init(&p, &model, &plain);
        CHECK(ok, "out of memory");
        double worst_gap = 0, worst_lbs = 0;
        for (int k = 0; ok && k < KEYS; k++) {
            double d, lbs, angle, back_vs_lbs;
            compare(&p, 0.1f * (float)k, &d, &lbs, &angle, &back_vs_lbs);
            worst_gap = fmax(worst_gap, back_vs_lbs);
            worst_lbs = fmax(worst_lbs, d);
        }
        printf("plain LBS export: off by %.3e of the diagonal (the source's LBS vs DQS: the same to %.1e)\n",
               worst_lbs / diagonal, worst_gap / diagonal);
        CHECK(worst_lbs > 0.05 * diagonal, "plain LBS: only %.3e of the diagonal from DQS", worst_lbs / diagonal);
        CHECK(worst_gap <= 1e-6 * diagonal, "plain LBS export vs the source's LBS: %.3e of the diagonal", worst_gap / diagonal);
        if (ok) poses_free(&p);
    }
    model_free(&plain);
    unlink(out);

    /* 3. over the cap (here 10 000 bytes; the corrections take about 700 000): plain LBS, reported */
    Model capped = {0};
    GltfExportReport capped_report = {0};
    if (export_and_read(&model, SKINNING_GPU_DQ, 10000, out, &capped, &capped_report)) {
        printf("over a 10 000-byte cap: %d mesh over the cap (%zu bytes of corrections), %d written as plain LBS, %d "
               "targets read back\n", capped_report.meshes_over_cap, capped_report.over_cap_bytes,
               capped_report.meshes_lbs_for_dq, capped.meshes[0].morph_target_count);
        CHECK(capped_report.meshes_over_cap == 1 && capped_report.meshes_lbs_for_dq == 1 &&
                  capped_report.meshes_corrected == 0 && capped_report.over_cap_bytes > 10000 &&
                  capped.meshes[0].morph_target_count == 1,
              "over the cap: %d over, %d plain, %d corrected, %zu bytes, %d targets", capped_report.meshes_over_cap,
              capped_report.meshes_lbs_for_dq, capped_report.meshes_corrected, capped_report.over_cap_bytes,
              capped.meshes[0].morph_target_count);
    }
    model_free(&capped);
    unlink(out);
    model_free(&model);
    return test_finish();
}
