/* test_skin_fast_models — the fast skinning path (skin_fast.c, skin_threads.c) against the
 * scalar reference skin_vertices_lbs (skin.c) on every real skinned test model.
 *
 * For every clip of every model (assimp-testmodels, and ../shared/models when present), at
 * 7 times across the clip, positions and normals are skinned three ways: the reference (float),
 * the Animator's fast path (float, matrices blended first), and the same formula in double
 * precision (the "exact" answer). Both float results carry rounding error; where the palette
 * holds large translations that cancel (FBX rigs far from the origin) it reaches 1e-5 of the
 * posed bbox diagonal for the reference itself. So the check is: the fast path's error is at
 * most twice the reference's own error, plus 1e-6 of the diagonal. Normals: within 1e-5 of the
 * reference (unit vectors; rsqrt + one Newton step). The threaded result (3 threads) must equal
 * the one-thread result bit for bit.
 * The fast pose (pose_fast.c, what the Animator runs) and the reference jobs (clip_sample +
 * pose_local_to_model + skin_palette) against the same pose computed in double precision, over
 * 24 times of every clip: the worst vertex skinned with the fast palette may be off (relative to
 * the posed bbox diagonal) by at most twice the reference palette's worst, plus 1e-6. */
#include "anim/animator.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p' = (sum_k w_k palette[j_k]) (p, 1) in double precision. */
static void exact_position(const Mesh *mesh, const mat4 *palette, int v, double out[3])
{
    for (int r = 0; r < 3; r++) {
        double sum = 0.0;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            double w = mesh->weights[v][k];
            if (w == 0.0) continue;
            const vec4 *m = palette[mesh->joint_indices[v][k]];
            const float *p = mesh->positions[v];
            sum += w * ((double)m[0][r] * p[0] + (double)m[1][r] * p[1] + (double)m[2][r] * p[2] + (double)m[3][r]);
        }
        out[r] = sum;
    }
}

static double distance3(const float a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* ---- the pose in double precision: the "exact" answer both float pipelines approximate ---- */

typedef struct D4 { double m[4][4]; } D4;   /* column-major, as cglm */

static int exact_key(const float *times, int count, double t)
{
    if (count <= 1 || t <= times[0]) return 0;
    if (t >= times[count - 1]) return count - 1;
    int k = 0;
    while (k + 1 < count && times[k + 1] <= t) k++;
    return k;
}

/* One channel of n floats at t, as sample.c defines it (hold, lerp, slerp, Hermite), in double. */
static void exact_channel(const float *times, const float *values, const float *tangents, int count, Interpolation kind,
                          int n, double t, double *out)
{
    int k = exact_key(times, count, t);
    const float *v0 = values + n * k;
    bool hold = k >= count - 1 || kind == INTERPOLATION_STEP ||
                (kind == INTERPOLATION_CUBICSPLINE && tangents && t <= times[k]);
    if (hold) {
        for (int i = 0; i < n; i++) out[i] = v0[i];
        return;
    }
    const float *v1 = v0 + n;
    double span = (double)times[k + 1] - times[k], a = span > 0.0 ? (t - times[k]) / span : 0.0;
    a = a < 0.0 ? 0.0 : (a > 1.0 ? 1.0 : a);
    if (kind == INTERPOLATION_CUBICSPLINE && tangents) {
        const float *b0 = tangents + n * (2 * k + 1), *a1 = tangents + n * (2 * k + 2);
        double s2 = a * a, s3 = s2 * a;
        for (int i = 0; i < n; i++)
            out[i] = (2 * s3 - 3 * s2 + 1) * v0[i] + span * (s3 - 2 * s2 + a) * b0[i] + (-2 * s3 + 3 * s2) * v1[i] +
                     span * (s3 - s2) * a1[i];
        return;
    }
    if (n == 3) {
        for (int i = 0; i < 3; i++) out[i] = v0[i] + a * ((double)v1[i] - v0[i]);
        return;
    }
    double q0[4], q1[4], n0 = 0, n1 = 0, d = 0, minus = 0, plus = 0;   /* slerp, the short way */
    for (int i = 0; i < 4; i++) n0 += (double)v0[i] * v0[i], n1 += (double)v1[i] * v1[i];
    for (int i = 0; i < 4; i++) q0[i] = v0[i] / sqrt(n0), q1[i] = v1[i] / sqrt(n1), d += q0[i] * q1[i];
    if (d < 0)
        for (int i = 0; i < 4; i++) q1[i] = -q1[i];
    for (int i = 0; i < 4; i++) minus += (q1[i] - q0[i]) * (q1[i] - q0[i]), plus += (q1[i] + q0[i]) * (q1[i] + q0[i]);
    double theta = 2.0 * atan2(sqrt(minus), sqrt(plus));
    for (int i = 0; i < 4; i++)
        out[i] = theta < 1e-12 ? q0[i] : (sin((1 - a) * theta) * q0[i] + sin(a * theta) * q1[i]) / sin(theta);
}

static D4 d4_mul(const D4 *a, const D4 *b)
{
    D4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a->m[k][row] * b->m[c][k];
            r.m[c][row] = s;
        }
    return r;
}

static D4 d4_from(const mat4 m)
{
    D4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) r.m[c][row] = m[c][row];
    return r;
}

/* Joint model matrices of clip c at playback time `time`, in double. */
static void exact_pose(const Model *model, int c, float time, D4 *joint_model)
{
    const Skeleton *s = &model->skeleton;
    const Clip *clip = &model->clips[c];
    double t = (double)clip->start + fmin(fmax((double)time, 0.0), (double)clip->duration);
    for (int j = 0; j < s->joint_count; j++) {
        const JointTrack *track = NULL;
        for (int i = 0; i < clip->track_count; i++)
            if (clip->tracks[i].joint == j) track = &clip->tracks[i];
        D4 local = d4_from(s->rest_local[j]);
        if (track) {
            const JointTransform *rest = &s->rest_trs[j];
            double tr[3] = {rest->translation[0], rest->translation[1], rest->translation[2]};
            double q[4] = {rest->rotation[0], rest->rotation[1], rest->rotation[2], rest->rotation[3]};
            double sc[3] = {rest->scale[0], rest->scale[1], rest->scale[2]};
            if (track->translation_count > 0)
                exact_channel(track->translation_times, (const float *)track->translation_values,
                              (const float *)track->translation_tangents, track->translation_count,
                              track->translation_interpolation, 3, t, tr);
            if (track->rotation_count > 0)
                exact_channel(track->rotation_times, (const float *)track->rotation_values,
                              (const float *)track->rotation_tangents, track->rotation_count,
                              track->rotation_interpolation, 4, t, q);
            if (track->scale_count > 0)
                exact_channel(track->scale_times, (const float *)track->scale_values, (const float *)track->scale_tangents,
                              track->scale_count, track->scale_interpolation, 3, t, sc);
            double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
            double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                              {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                              {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
            for (int col = 0; col < 3; col++) {
                for (int row = 0; row < 3; row++) local.m[col][row] = r[col][row] * sc[col];
                local.m[col][3] = 0.0;
            }
            for (int row = 0; row < 3; row++) local.m[3][row] = tr[row];
            local.m[3][3] = 1.0;
        }
        joint_model[j] = s->parent[j] < 0 ? local : d4_mul(&joint_model[s->parent[j]], &local);
    }
}

static void check_model(const char *path, SkinThreads *pool, double *worst_position, double *worst_normal)
{
    Model model;
    if (!test_import(path, NULL, &model)) return;
    Animator animator;
    CHECK(animator_init(&animator, &model), "%s: animator_init", path);
    int max_vertices = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > max_vertices) max_vertices = model.meshes[m].vertex_count;
    vec3 *reference = calloc((size_t)max_vertices, sizeof(vec3)), *reference_n = calloc((size_t)max_vertices, sizeof(vec3));
    vec3 *fast = calloc((size_t)max_vertices, sizeof(vec3)), *fast_n = calloc((size_t)max_vertices, sizeof(vec3));
    vec3 *threaded = calloc((size_t)max_vertices, sizeof(vec3)), *threaded_n = calloc((size_t)max_vertices, sizeof(vec3));
    int compared = 0, threads_differ = 0, too_far = 0;
    double model_worst_p = 0.0, model_worst_n = 0.0, reference_worst = 0.0;
    for (int c = ANIMATOR_REST_POSE; c < model.clip_count; c++) {
        for (int step = 0; step < 7; step++) {
            float time = c >= 0 ? model.clips[c].duration * (float)step / 6.0f : 0.0f;
            animator_evaluate(&animator, c, time);
            for (int m = 0; m < model.mesh_count; m++) {
                const Mesh *mesh = &model.meshes[m];
                if (!mesh->skinned || !mesh->normals) continue;
                mat4 identity;
                glm_mat4_identity(identity);
                skin_vertices_lbs(mesh, (const mat4 *)animator.palettes[m], identity, reference, reference_n);
                animator_skin_mesh(&animator, m, fast, fast_n);
                SkinJob job = animator_skin_job(&animator, m, (const vec3 *)mesh->positions, (const vec3 *)mesh->normals,
                                                threaded, threaded_n);
                skin_threads_run(pool, &job, 1);
                /* the posed bbox diagonal: the scale of this pose */
                vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
                for (int v = 0; v < mesh->vertex_count; v++) glm_vec3_minv(lo, reference[v], lo), glm_vec3_maxv(hi, reference[v], hi);
                double diagonal = glm_vec3_distance(lo, hi);
                if (!(diagonal > 0.0)) diagonal = 1.0;
                for (int v = 0; v < mesh->vertex_count; v++) {
                    double exact[3];
                    exact_position(mesh, (const mat4 *)animator.palettes[m], v, exact);
                    double fast_error = distance3(fast[v], exact), reference_error = distance3(reference[v], exact);
                    if (fast_error > 2.0 * reference_error + 1e-6 * diagonal) too_far++;
                    model_worst_p = fmax(model_worst_p, glm_vec3_distance(reference[v], fast[v]) / diagonal);
                    reference_worst = fmax(reference_worst, reference_error / diagonal);
                    model_worst_n = fmax(model_worst_n, glm_vec3_distance(reference_n[v], fast_n[v]));
                }
                if (memcmp(fast, threaded, sizeof(vec3) * (size_t)mesh->vertex_count) != 0 ||
                    memcmp(fast_n, threaded_n, sizeof(vec3) * (size_t)mesh->vertex_count) != 0)
                    threads_differ++;
                compared++;
            }
            if (c < 0) break;
        }
    }
    /* The fast pose against the reference jobs, both against the pose in double precision:
     * vertices skinned (in double) with each palette; the fast pose's error must be at most
     * twice the reference's own plus 1e-6 of the posed diagonal. */
    int max_bones = 1, max_tracks = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].bone_count > max_bones) max_bones = model.meshes[m].bone_count;
    for (int c = 0; c < model.clip_count; c++)
        if (model.clips[c].track_count > max_tracks) max_tracks = model.clips[c].track_count;
    int joints = model.skeleton.joint_count > 0 ? model.skeleton.joint_count : 1;
    TrackCursor *cursors = calloc((size_t)max_tracks, sizeof(TrackCursor));
    mat4 *local = calloc((size_t)joints, sizeof(mat4)), *joint_model = calloc((size_t)joints, sizeof(mat4));
    mat4 *palette = calloc((size_t)max_bones, sizeof(mat4));
    D4 *exact_model = calloc((size_t)joints, sizeof(D4)), *exact_palette = calloc((size_t)max_bones, sizeof(D4));
    double pose_fast_worst = 0.0, pose_reference_worst = 0.0;
    for (int c = 0; c < model.clip_count; c++) {
        memset(cursors, 0, sizeof(TrackCursor) * (size_t)max_tracks);
        for (int f = 0; f < 24; f++) {
            float time = f < 16 ? (float)f / 60.0f : model.clips[c].duration * (float)(f - 16) / 7.0f;
            animator_evaluate(&animator, c, time);
            pose_set_rest(&model.skeleton, local);
            clip_sample(&model.clips[c], &model.skeleton, time, cursors, local);
            pose_local_to_model(&model.skeleton, (const mat4 *)local, joint_model);
            exact_pose(&model, c, time, exact_model);
            for (int m = 0; m < model.mesh_count; m++) {
                const Mesh *mesh = &model.meshes[m];
                if (!mesh->skinned) continue;
                skin_palette(mesh, (const mat4 *)joint_model, palette);
                skin_palette_follow_node(mesh, (const mat4 *)joint_model, palette);
                /* FBX skin_follows_node: F = M_node(now) * inverse(M_node(bind)) before every bone but
                 * the unweighted vertices' own (anim.h), here in double */
                bool follows = mesh->skin_follows_node && mesh->node_joint >= 0;
                D4 follow = {0};
                if (follows) {
                    D4 bind_node_inverse = d4_from(mesh->skin_bind_node_inverse);
                    follow = d4_mul(&exact_model[mesh->node_joint], &bind_node_inverse);
                }
                mat4 identity = GLM_MAT4_IDENTITY_INIT;
                for (int b = 0; b < mesh->bone_count; b++) {
                    D4 inverse_bind = d4_from(mesh->inverse_bind[b]);
                    exact_palette[b] = d4_mul(&exact_model[mesh->bone_joint[b]], &inverse_bind);
                    bool unweighted = mesh->bone_joint[b] == mesh->node_joint &&
                                      memcmp(mesh->inverse_bind[b], identity, sizeof identity) == 0;
                    if (follows && !unweighted) exact_palette[b] = d4_mul(&follow, &exact_palette[b]);
                }
                double worst_fast = 0.0, worst_reference = 0.0, diagonal = 0.0;
                double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
                for (int v = 0; v < mesh->vertex_count; v++) {
                    double exact[3] = {0, 0, 0}, with_fast[3] = {0, 0, 0}, with_reference[3] = {0, 0, 0};
                    for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                        double w = mesh->weights[v][k];
                        if (w == 0.0) continue;
                        int bone = mesh->joint_indices[v][k];
                        const float *p = mesh->positions[v];
                        for (int r = 0; r < 3; r++) {
                            const D4 *e = &exact_palette[bone];
                            exact[r] += w * (e->m[0][r] * p[0] + e->m[1][r] * p[1] + e->m[2][r] * p[2] + e->m[3][r]);
                            const vec4 *a = animator.palettes[m][bone], *b = palette[bone];
                            with_fast[r] += w * ((double)a[0][r] * p[0] + (double)a[1][r] * p[1] + (double)a[2][r] * p[2] + a[3][r]);
                            with_reference[r] +=
                                w * ((double)b[0][r] * p[0] + (double)b[1][r] * p[1] + (double)b[2][r] * p[2] + b[3][r]);
                        }
                    }
                    double df = 0, dr = 0;
                    for (int r = 0; r < 3; r++) {
                        df += (with_fast[r] - exact[r]) * (with_fast[r] - exact[r]);
                        dr += (with_reference[r] - exact[r]) * (with_reference[r] - exact[r]);
                        lo[r] = fmin(lo[r], exact[r]), hi[r] = fmax(hi[r], exact[r]);
                    }
                    worst_fast = fmax(worst_fast, sqrt(df)), worst_reference = fmax(worst_reference, sqrt(dr));
                }
                for (int r = 0; r < 3; r++) diagonal += (hi[r] - lo[r]) * (hi[r] - lo[r]);
                diagonal = sqrt(diagonal) > 0.0 ? sqrt(diagonal) : 1.0;
                pose_fast_worst = fmax(pose_fast_worst, worst_fast / diagonal);
                pose_reference_worst = fmax(pose_reference_worst, worst_reference / diagonal);
            }
        }
    }
    CHECK(pose_fast_worst <= 2.0 * pose_reference_worst + 1e-6, "%s: the fast pose's error (%.2g of the diagonal) "
          "exceeds twice the reference's (%.2g) + 1e-6", path, pose_fast_worst, pose_reference_worst);
    printf("%s: pose error vs double precision, of the diagonal: fast %.2g, reference %.2g\n", path, pose_fast_worst,
           pose_reference_worst);
    free(cursors), free(local), free(joint_model), free(palette), free(exact_model), free(exact_palette);

    CHECK(too_far == 0, "%s: %d vertices where the fast path's rounding error exceeds twice the reference's + 1e-6 "
          "of the diagonal", path, too_far);
    CHECK(model_worst_n <= 1e-5, "%s: fast normals within %.2g (want <= 1e-5)", path, model_worst_n);
    CHECK(threads_differ == 0, "%s: %d of %d threaded skinnings differ from one thread", path, threads_differ, compared);
    printf("%s: %d mesh poses; fast - reference: positions %.2g of the diagonal, normals %.2g; "
           "reference - exact: %.2g\n", path, compared, model_worst_p, model_worst_n, reference_worst);
    *worst_position = fmax(*worst_position, model_worst_p);
    *worst_normal = fmax(*worst_normal, model_worst_n);
    free(reference), free(reference_n), free(fast), free(fast_n), free(threaded), free(threaded_n);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    SkinThreads *pool = skin_threads_create(3);
    CHECK(pool != NULL, "a pool of 3 threads");
    double worst_position = 0.0, worst_normal = 0.0;
    for (int i = 0; i < count; i++) check_model(models[i].path, pool, &worst_position, &worst_normal);
    printf("%d models: fast - reference within %.2g of the diagonal (positions), %.2g (normals)\n", count,
           worst_position, worst_normal);
    skin_threads_destroy(pool);
    return test_finish();
}
