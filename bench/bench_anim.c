/* bench_anim.c — what one frame of the animation core costs, job by job.
 *
 *   bench_anim [MODEL] [--clip NAME|INDEX] [--optimize-keys [TOL]] [--json] [--threads N] [--frames N]
 *              [--batches N] [--joints N] [--vertices N] [--keys N]   (the last three: synthetic model)
 *
 * Without MODEL it builds a synthetic character in code (64 joints, every joint a
 * bone with T/R/S tracks of 121 keys at 30 fps, 50000 vertices with 4 influences each), so it
 * runs anywhere. With MODEL it imports the file (src/io/import.c) and plays one clip (the
 * one named or numbered by --clip, counted from 0; else the clip with the most keys).
 *
 * Each job is timed over the same frames (60 fps forward playback, looping; or uniformly
 * random times for seeks) with clock_gettime(CLOCK_MONOTONIC), in --batches batches (default 21,
 * at least 7) of about a millisecond each (--frames pose frames, default 500; ~300 000 skinned
 * vertices). Every figure is the best batch (the one least disturbed by other processes) and
 * the median batch. Jobs:
 *   pose_forward    animator_evaluate at 60 fps: sampling, local->model, palettes (pose_fast.c)
 *   pose_seek       the same at random times
 *   sample_forward  packed_clip_sample_forward alone; local_to_model_palette: the second pass alone;
 *                   palette: pose_palettes alone
 *   pose_reference  the reference jobs: pose_set_rest + clip_sample + pose_local_to_model +
 *                   skin_palette (what the Animator ran before pose_fast.c)
 *   skin            CPU skinning of every mesh, positions + normals, one thread (skin_fast.c),
 *                   normals not renormalised (as ozz-animation's skinning job); also:
 *                   renormalised, without influence runs, on the --threads pool (default: the
 *                   online CPUs), and the reference skin_vertices_lbs
 *   naive           the same pose the way the common tutorial computes it (see naive_pose()):
 *                   its time divided by pose_forward is printed as "naive / fast pose".
 *   optimized       pose_forward, pose_seek and sample_forward again on the same clip after the
 *                   key-frame optimiser (anim/key_reduce.h; tolerance --optimize-keys TOL, default
 *                   1e-5 of the bbox diagonal): keys before/after and the measured worst pose change.
 * Not a test: numbers depend on the machine (docs/performance.md). */
#include "anim/animator.h"
#include "anim/key_reduce.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count > 0 ? count : 1, size);
    if (!p) {
        fprintf(stderr, "bench_anim: out of memory\n");
        exit(1);
    }
    return p;
}

static unsigned int rng_state = 2024u;
static float rng_uniform(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

/* ---- the synthetic character ------------------------------------------------ */

static void fill_track(JointTrack *t, int joint, int keys, float duration)
{
    t->joint = joint;
    t->translation_count = t->rotation_count = t->scale_count = keys;
    t->translation_times = xcalloc((size_t)keys, sizeof(float));
    t->rotation_times = xcalloc((size_t)keys, sizeof(float));
    t->scale_times = xcalloc((size_t)keys, sizeof(float));
    t->translation_values = xcalloc((size_t)keys, sizeof(vec3));
    t->rotation_values = xcalloc((size_t)keys, sizeof(versor));
    t->scale_values = xcalloc((size_t)keys, sizeof(vec3));
    vec3 axis = {rng_uniform(-1, 1), rng_uniform(-1, 1), rng_uniform(0.2f, 1)};
    glm_vec3_normalize(axis);
    for (int k = 0; k < keys; k++) {
        float time = duration * (float)k / (float)(keys - 1);
        t->translation_times[k] = t->rotation_times[k] = t->scale_times[k] = time;
        glm_vec3_copy((vec3){0.0f, 0.1f, 0.01f * sinf(time)}, t->translation_values[k]);
        glm_quatv(t->rotation_values[k], 0.6f * sinf(2.0f * time + (float)joint), axis);
        glm_vec3_fill(t->scale_values[k], 1.0f);
    }
}

/* joints: a spine with limbs (chains of 6) hanging off it; parents before children. */
static void build_synthetic(Model *m, int joints, int vertices, int keys)
{
    memset(m, 0, sizeof *m);
    snprintf(m->source_path, sizeof m->source_path, "(synthetic)");
    Skeleton *s = &m->skeleton;
    if (!skeleton_alloc(s, joints)) {
        fprintf(stderr, "bench_anim: out of memory\n");
        exit(1);
    }
    for (int j = 0; j < joints; j++) {
        snprintf(s->names[j], SV_NAME_MAX, "joint%d", j);
        s->parent[j] = j == 0 ? -1 : (j % 6 == 1 ? (j - 1) / 2 : j - 1);
        JointTransform *trs = &s->rest_trs[j];
        glm_vec3_copy((vec3){rng_uniform(-0.1f, 0.1f), 0.1f, 0.0f}, trs->translation);
        glm_quat_identity(trs->rotation);
        glm_vec3_fill(trs->scale, 1.0f);
        joint_transform_to_matrix(trs, s->rest_local[j]);
        s->is_bone[j] = true;
    }
    mat4 *rest_model = xcalloc((size_t)joints, sizeof(mat4));
    pose_local_to_model(s, (const mat4 *)s->rest_local, rest_model);

    m->mesh_count = 1;
    m->meshes = xcalloc(1, sizeof(Mesh));
    Mesh *mesh = &m->meshes[0];
    snprintf(mesh->name, sizeof mesh->name, "body");
    mesh->vertex_count = vertices;
    mesh->positions = xcalloc((size_t)vertices, sizeof(vec3));
    mesh->normals = xcalloc((size_t)vertices, sizeof(vec3));
    mesh->uvs = xcalloc((size_t)vertices, sizeof(vec2));
    mesh->joint_indices = xcalloc((size_t)vertices, sizeof *mesh->joint_indices);
    mesh->weights = xcalloc((size_t)vertices, sizeof *mesh->weights);
    mesh->skinned = true;
    mesh->material = -1;
    mesh->bone_count = joints;
    mesh->bone_joint = xcalloc((size_t)joints, sizeof(int));
    mesh->inverse_bind = xcalloc((size_t)joints, sizeof(mat4));
    for (int b = 0; b < joints; b++) {
        mesh->bone_joint[b] = b;
        glm_mat4_inv(rest_model[b], mesh->inverse_bind[b]);
    }
    for (int v = 0; v < vertices; v++) {
        int home = (int)rng_uniform(0.0f, (float)joints - 0.01f);
        glm_vec3_copy(rest_model[home][3], mesh->positions[v]);
        mesh->positions[v][0] += rng_uniform(-0.05f, 0.05f);
        glm_vec3_copy((vec3){rng_uniform(-1, 1), rng_uniform(-1, 1), 1.0f}, mesh->normals[v]);
        glm_vec3_normalize(mesh->normals[v]);
        float sum = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {   /* home joint, its parent chain, a neighbour */
            int bone = home - k >= 0 ? home - k : home + k;
            if (bone >= joints) bone = 0;
            mesh->joint_indices[v][k] = (uint16_t)bone;
            mesh->weights[v][k] = rng_uniform(0.1f, 1.0f);
            sum += mesh->weights[v][k];
        }
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) mesh->weights[v][k] /= sum;
    }
    free(rest_model);

    m->clip_count = 1;
    m->clips = xcalloc(1, sizeof(Clip));
    Clip *clip = &m->clips[0];
    snprintf(clip->name, sizeof clip->name, "synthetic");
    clip->duration = (float)(keys - 1) / 30.0f;   /* keyed at 30 fps */
    clip->track_count = joints;
    clip->tracks = xcalloc((size_t)joints, sizeof(JointTrack));
    for (int j = 0; j < joints; j++) fill_track(&clip->tracks[j], j, keys, clip->duration);
}

/* ---- the naive baseline: the common tutorial's way ------------------------------
 *
 * Written the way LearnOpenGL's skeletal animation chapter (and many engines' first
 * version) does it, on the same Model: every frame, a recursive walk of the node tree
 * from the root; at each node a search BY NAME for its track and for its bone; every
 * channel's key found by scanning from key 0; T, R, S interpolated (lerp, slerp) and
 * turned into matrices multiplied in full. The results must agree with the fast path
 * (checked in main). */

typedef struct NaiveTree {
    int *first_child, *next_sibling;   /* node tree built once, like the tutorial's AssimpNodeData */
} NaiveTree;

static int naive_key(const float *times, int count, float t)
{
    for (int k = 0; k + 1 < count; k++)   /* linear scan from key 0 */
        if (t < times[k + 1]) return k;
    return count - 1;
}

static float naive_factor(const float *times, int count, int k, float t)
{
    if (k + 1 >= count) return 0.0f;
    float f = (t - times[k]) / (times[k + 1] - times[k]);
    return f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
}

static void naive_node(const Model *m, const Clip *clip, const NaiveTree *tree, int joint, const mat4 parent,
                       float t, mat4 *joint_model, mat4 **palettes)
{
    const Skeleton *s = &m->skeleton;
    const char *name = s->names[joint];
    const JointTrack *track = NULL;
    for (int i = 0; clip && i < clip->track_count; i++)   /* FindBone(name): linear search by name */
        if (strcmp(s->names[clip->tracks[i].joint], name) == 0) {
            track = &clip->tracks[i];
            break;
        }
    mat4 local;
    if (track) {
        JointTransform trs = s->rest_trs[joint];
        if (track->translation_count > 0) {
            int k = naive_key(track->translation_times, track->translation_count, t);
            int k1 = k + 1 < track->translation_count ? k + 1 : k;
            glm_vec3_lerp(track->translation_values[k], track->translation_values[k1],
                          naive_factor(track->translation_times, track->translation_count, k, t), trs.translation);
        }
        if (track->rotation_count > 0) {
            int k = naive_key(track->rotation_times, track->rotation_count, t);
            int k1 = k + 1 < track->rotation_count ? k + 1 : k;
            quat_slerp_shortest(track->rotation_values[k], track->rotation_values[k1],
                                naive_factor(track->rotation_times, track->rotation_count, k, t), trs.rotation);
        }
        if (track->scale_count > 0) {
            int k = naive_key(track->scale_times, track->scale_count, t);
            int k1 = k + 1 < track->scale_count ? k + 1 : k;
            glm_vec3_lerp(track->scale_values[k], track->scale_values[k1],
                          naive_factor(track->scale_times, track->scale_count, k, t), trs.scale);
        }
        mat4 translation, rotation, scale;   /* local = T * R * S, three full matrices */
        glm_translate_make(translation, trs.translation);
        glm_quat_mat4(trs.rotation, rotation);
        glm_scale_make(scale, trs.scale);
        glm_mat4_mul(translation, rotation, local);
        glm_mat4_mul(local, scale, local);
    } else {
        glm_mat4_copy(s->rest_local[joint], local);
    }
    mat4 global;
    glm_mat4_mul((vec4 *)parent, local, global);
    glm_mat4_copy(global, joint_model[joint]);
    for (int mi = 0; mi < m->mesh_count; mi++) {   /* m_BoneInfoMap[name]: a lookup by name per mesh */
        const Mesh *mesh = &m->meshes[mi];
        if (!mesh->skinned) continue;
        for (int b = 0; b < mesh->bone_count; b++)
            if (strcmp(s->names[mesh->bone_joint[b]], name) == 0)
                glm_mat4_mul(global, mesh->inverse_bind[b], palettes[mi][b]);
    }
    for (int c = tree->first_child[joint]; c >= 0; c = tree->next_sibling[c])   /* recursion over children */
        naive_node(m, clip, tree, c, global, t, joint_model, palettes);
}

static void naive_pose(const Model *m, const Clip *clip, const NaiveTree *tree, float t, mat4 *joint_model,
                       mat4 **palettes)
{
    if (clip) t = t < 0.0f ? 0.0f : (t > clip->duration ? clip->duration : t);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    for (int j = 0; j < m->skeleton.joint_count; j++)
        if (m->skeleton.parent[j] < 0) naive_node(m, clip, tree, j, identity, t, joint_model, palettes);
}

/* ---- the benchmark ----------------------------------------------------------------- */

typedef enum Job {
    JOB_POSE_FORWARD, JOB_POSE_SEEK, JOB_SAMPLE_FORWARD, JOB_HIERARCHY, JOB_PALETTE, JOB_POSE_REFERENCE,
    JOB_SAMPLE_REFERENCE, JOB_SKIN_REFERENCE, JOB_SKIN, JOB_SKIN_THREADS,
    JOB_SKIN_RENORMALIZED, JOB_SKIN_NO_RUNS, JOB_NAIVE, JOB_COUNT
} Job;

static const char *const job_names[JOB_COUNT] = {
    "pose, forward playback (sample+model+palette)",
    "pose, random seeks",
    "  sampling alone (packed_clip_sample_forward)",
    "  local->model + palettes (second pass)",
    "  palettes alone (pose_palettes)",
    "reference jobs: rest+clip_sample+model+palette",
    "  reference clip_sample alone, forward",
    "reference CPU skinning (skin_vertices_lbs)",
    "CPU skinning, positions + normals, 1 thread",
    "CPU skinning, positions + normals, threads",
    "CPU skinning, + normals renormalised, 1 thread",
    "CPU skinning, no influence runs (4 per vertex)",
    "naive baseline (tutorial's way), forward",
};

typedef struct Bench {
    const Model    *model;
    const Clip     *clip;           /* NULL: no clips, rest pose only */
    int             clip_index;
    Animator       *animator;
    const float    *forward_times;  /* [frames] 60 fps, looping */
    const float    *random_times;   /* [frames] uniform in [0, duration] */
    vec3           *positions, *normals;   /* [total vertices] */
    int             frames, skin_frames;
    SkinThreads    *pool;
    SkinJob        *jobs;           /* [mesh_count] */
    bool            normalize_normals;
    NaiveTree       tree;
    mat4           *naive_model;
    mat4          **naive_palettes;
    double          checksum;       /* keeps the compiler from dropping the work */
} Bench;

/* Skins every mesh: skinned ones through the fast path (normals as the animator does them),
 * on one thread or the pool; static ones follow their node. */
static void skin_all(Bench *b, SkinThreads *pool)
{
    const Model *model = b->model;
    int offset = 0, job_count = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->skinned) {
            b->jobs[job_count] = animator_skin_job(b->animator, m, (const vec3 *)mesh->positions,
                                                   (const vec3 *)mesh->normals, b->positions + offset, b->normals + offset);
            b->jobs[job_count++].normalize_normals = b->normalize_normals;
        } else {
            animator_skin_mesh(b->animator, m, b->positions + offset, b->normals + offset);
        }
        offset += mesh->vertex_count;
    }
    skin_threads_run(pool, b->jobs, job_count);
}

/* Runs one batch of a job; returns the seconds per frame. */
static double run_batch(Bench *b, Job job)
{
    Animator *a = b->animator;
    const Model *model = b->model;
    int clip = b->clip ? b->clip_index : ANIMATOR_REST_POSE;
    animator_evaluate(a, ANIMATOR_REST_POSE, 0.0f);   /* cursors start from scratch */
    animator_evaluate(a, clip, 0.0f);
    bool skinning = job == JOB_SKIN || job == JOB_SKIN_THREADS || job == JOB_SKIN_RENORMALIZED ||
                    job == JOB_SKIN_REFERENCE || job == JOB_SKIN_NO_RUNS;
    int frames = skinning ? b->skin_frames : b->frames;
    b->normalize_normals = job == JOB_SKIN_RENORMALIZED;
    double t0 = now_seconds();
    switch (job) {
    case JOB_POSE_FORWARD:
        for (int f = 0; f < frames; f++) animator_evaluate(a, clip, b->forward_times[f]);
        break;
    case JOB_POSE_SEEK:
        for (int f = 0; f < frames; f++) animator_evaluate(a, clip, b->random_times[f]);
        break;
    case JOB_SAMPLE_FORWARD:
        for (int f = 0; f < frames; f++)
            if (b->clip) packed_clip_sample_forward(&a->playback.packed[clip], b->forward_times[f], &a->playback.cursor, a->local);
        break;
    case JOB_HIERARCHY:
        for (int f = 0; f < frames; f++)
            pose_model_and_palettes(&model->skeleton, &a->playback.targets, (const mat4 *)a->local, a->joint_model);
        break;
    case JOB_PALETTE:
        for (int f = 0; f < frames; f++) pose_palettes(&a->playback.targets, model->skeleton.joint_count, (const mat4 *)a->joint_model);
        break;
    case JOB_POSE_REFERENCE:   /* the pipeline as it was before the fast path (animator.c's rest-pose route) */
        for (int f = 0; f < frames; f++) {
            pose_set_rest(&model->skeleton, a->local);
            if (b->clip) clip_sample(b->clip, &model->skeleton, b->forward_times[f], a->playback.cursors, a->local);
            pose_local_to_model(&model->skeleton, (const mat4 *)a->local, a->joint_model);
            for (int m = 0; m < model->mesh_count; m++)
                if (model->meshes[m].skinned) skin_palette(&model->meshes[m], (const mat4 *)a->joint_model, a->palettes[m]);
        }
        break;
    case JOB_SAMPLE_REFERENCE:
        for (int f = 0; f < frames; f++)
            if (b->clip) clip_sample(b->clip, &model->skeleton, b->forward_times[f], a->playback.cursors, a->local);
        break;
    case JOB_SKIN_REFERENCE: {
        mat4 identity;
        glm_mat4_identity(identity);
        for (int f = 0; f < frames; f++) {
            int offset = 0;
            for (int m = 0; m < model->mesh_count; m++) {
                const Mesh *mesh = &model->meshes[m];
                if (mesh->skinned)
                    skin_vertices_lbs(mesh, (const mat4 *)a->palettes[m], identity, b->positions + offset, b->normals + offset);
                else
                    animator_skin_mesh(a, m, b->positions + offset, b->normals + offset);
                offset += mesh->vertex_count;
            }
            b->checksum += b->positions[f][1];
        }
        break;
    }
    case JOB_SKIN_NO_RUNS:
        for (int f = 0; f < frames; f++) {
            int offset = 0;
            for (int m = 0; m < model->mesh_count; m++) {
                const Mesh *mesh = &model->meshes[m];
                SkinJob job_m = animator_skin_job(a, m, (const vec3 *)mesh->positions, (const vec3 *)mesh->normals,
                                                  b->positions + offset, b->normals + offset);
                job_m.runs = NULL;   /* every vertex blends 4 matrices */
                job_m.normalize_normals = false;
                skin_job_run(&job_m, 0, job_m.vertex_count);
                offset += mesh->vertex_count;
            }
            b->checksum += b->positions[f][1];
        }
        break;
    case JOB_SKIN:
    case JOB_SKIN_RENORMALIZED:
    case JOB_SKIN_THREADS:
        for (int f = 0; f < frames; f++) {
            skin_all(b, job == JOB_SKIN ? NULL : b->pool);
            b->checksum += b->positions[f][1];
        }
        break;
    case JOB_NAIVE:
        for (int f = 0; f < frames; f++)
            naive_pose(model, b->clip, &b->tree, b->forward_times[f], b->naive_model, b->naive_palettes);
        break;
    default:
        break;
    }
    double seconds = now_seconds() - t0;
    if (model->skeleton.joint_count > 0) b->checksum += a->local[0][3][1] + a->joint_model[0][3][0];
    return seconds / frames;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_anim [MODEL] [--clip NAME|INDEX] [--optimize-keys [TOL]] [--json] [--threads N]\n"
                    "                  [--frames N] [--batches N]\n"
                    "                  [--joints N] [--vertices N] [--keys N]   (synthetic model)\n");
}

static bool parse_int(const char *text, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < -1000000000L || v > 1000000000L) return false;
    *out = (int)v;
    return true;
}

/* Largest |a - b| over the joint matrices and palettes of the fast and the naive pose. */
static double naive_difference(const Bench *b)
{
    const Model *model = b->model;
    double worst = 0.0;
    for (int j = 0; j < model->skeleton.joint_count; j++)
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                worst = fmax(worst, fabs(b->animator->joint_model[j][c][r] - b->naive_model[j][c][r]));
    for (int m = 0; m < model->mesh_count; m++)
        for (int i = 0; model->meshes[m].skinned && i < model->meshes[m].bone_count; i++)
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++)
                    worst = fmax(worst, fabs(b->animator->palettes[m][i][c][r] - b->naive_palettes[m][i][c][r]));
    return worst;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *clip_arg = NULL;
    int frames = 500, joints = 64, vertices = 50000, keys = 121, batches = 21, threads = 0;
    bool json = false;
    float tolerance = KEY_REDUCE_DEFAULT_TOLERANCE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc, ok = true;
        if (strcmp(a, "--clip") == 0 && has_value) clip_arg = argv[++i];
        else if (strcmp(a, "--json") == 0) json = true;
        else if (strcmp(a, "--optimize-keys") == 0) {   /* optional TOL: the next argument if it is a number */
            char *end = NULL;
            float value = has_value ? strtof(argv[i + 1], &end) : 0.0f;
            if (has_value && end != argv[i + 1] && *end == '\0') {
                ok = value > 0.0f && value <= 0.1f;
                tolerance = value;
                i++;
            }
        }
        else if (strcmp(a, "--frames") == 0 && has_value) ok = parse_int(argv[++i], &frames);
        else if (strcmp(a, "--batches") == 0 && has_value) ok = parse_int(argv[++i], &batches);
        else if (strcmp(a, "--threads") == 0 && has_value) ok = parse_int(argv[++i], &threads);
        else if (strcmp(a, "--joints") == 0 && has_value) ok = parse_int(argv[++i], &joints);
        else if (strcmp(a, "--vertices") == 0 && has_value) ok = parse_int(argv[++i], &vertices);
        else if (strcmp(a, "--keys") == 0 && has_value) ok = parse_int(argv[++i], &keys);
        else if (a[0] == '-' || path) ok = false;
        else path = a;
        if (!ok) { usage(); return 2; }
    }
    if (frames < 1 || joints < 1 || joints > 65535 || vertices < 1 || keys < 2 || batches < 7 || batches > 1000 ||
        threads < 0 || threads > 256) {
        usage();
        return 2;
    }
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)(cpus < 64 ? cpus : 64) : 1;
    }
    FILE *text = json ? stderr : stdout;   /* --json: stdout holds the JSON object alone */

    Model model, reduced;
    unsigned int synthetic_seed = rng_state;
    if (path) {
        char error[512];
        ImportOptions options = {0};
        double t0 = now_seconds();
        if (!import_model(path, &options, &model, error, sizeof error)) {
            fprintf(stderr, "bench_anim: %s: %s\n", path, error);
            return 1;
        }
        if (!json) fprintf(text, "%s: imported in %.1f ms\n", path, (now_seconds() - t0) * 1e3);
        ImportOptions optimized = {.optimize_keys = tolerance, .quiet = true};
        if (!import_model(path, &optimized, &reduced, error, sizeof error)) {
            fprintf(stderr, "bench_anim: %s: %s\n", path, error);
            return 1;
        }
    } else {
        build_synthetic(&model, joints, vertices, keys);
        rng_state = synthetic_seed;   /* the same character again, then its keys reduced */
        build_synthetic(&reduced, joints, vertices, keys);
        KeyReduceStats stats;
        if (!model_reduce_keys(&reduced, tolerance, &stats)) {
            fprintf(stderr, "bench_anim: out of memory\n");
            return 1;
        }
        if (!json) fprintf(text, "synthetic model (built in bench_anim.c)\n");
    }

    /* The clip to play: the one asked for (name, else index from 0), else the one with the most keys. */
    int clip_index = -1;
    if (clip_arg) {
        clip_index = model_find_clip(&model, clip_arg);
        int number;
        if (clip_index < 0 && parse_int(clip_arg, &number) && number >= 0 && number < model.clip_count)
            clip_index = number;
        if (clip_index < 0) {
            fprintf(stderr, "bench_anim: %s: no clip named or numbered \"%s\" (%d clips)\n", model.source_path,
                    clip_arg, model.clip_count);
            model_free(&model);
            return 2;
        }
    } else {
        int most_keys = -1;
        for (int c = 0; c < model.clip_count; c++) {
            int clip_keys = 0;
            for (int t = 0; t < model.clips[c].track_count; t++) {
                const JointTrack *tr = &model.clips[c].tracks[t];
                clip_keys += tr->translation_count + tr->rotation_count + tr->scale_count;
            }
            if (clip_keys > most_keys) most_keys = clip_keys, clip_index = c;
        }
    }
    const Clip *clip = clip_index >= 0 ? &model.clips[clip_index] : NULL;
    int keys_total = 0, max_keys = 0;
    if (clip)
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *tr = &clip->tracks[t];
            keys_total += tr->translation_count + tr->rotation_count + tr->scale_count;
            if (tr->rotation_count > max_keys) max_keys = tr->rotation_count;
            if (tr->translation_count > max_keys) max_keys = tr->translation_count;
        }
    /* skinned_vertices: what the no-runs job blends (animator_skin_job skips static meshes), its
     * rate's divisor; the other skinning jobs handle every vertex (static ones placed rigidly) */
    int total_vertices = 0, skinned_vertices = 0, bones = 0, skinned_meshes = 0;
    for (int m = 0; m < model.mesh_count; m++) {
        total_vertices += model.meshes[m].vertex_count;
        if (model.meshes[m].skinned)
            skinned_meshes++, bones += model.meshes[m].bone_count, skinned_vertices += model.meshes[m].vertex_count;
    }
    if (!json) {
        fprintf(text, "  %d joints, %d meshes (%d skinned), %d vertices, %d bones in all\n", model.skeleton.joint_count,
                model.mesh_count, skinned_meshes, total_vertices, bones);
        if (clip)
            fprintf(text, "  clip %d \"%s\": %.3f s, %d tracks, %d keys (longest channel %d keys)\n", clip_index,
                    clip->name, clip->duration, clip->track_count, keys_total, max_keys);
        else
            fprintf(text, "  no clips: timing the rest pose\n");
    }

    Animator animator;
    if (!animator_init(&animator, &model)) {
        fprintf(stderr, "bench_anim: out of memory\n");
        return 1;
    }
    float duration = clip && clip->duration > 0.0f ? clip->duration : 1.0f;
    float *forward_times = xcalloc((size_t)frames, sizeof(float));
    float *random_times = xcalloc((size_t)frames, sizeof(float));
    for (int f = 0; f < frames; f++) {
        forward_times[f] = fmodf((float)f / 60.0f, duration);
        random_times[f] = rng_uniform(0.0f, duration);
    }
    /* Short batches (~1 ms) so that some of them run undisturbed on a busy machine. CPU skinning:
     * ~300 000 vertices per batch (~1 ms at 300 M/s), at least 3 frames. */
    int skin_frames = total_vertices > 0 ? 300000 / total_vertices : 3;
    if (skin_frames < 3) skin_frames = 3;
    if (skin_frames > frames) skin_frames = frames;
    Bench b = {0};
    b.model = &model;
    b.clip = clip;
    b.clip_index = clip_index;
    b.animator = &animator;
    b.forward_times = forward_times;
    b.random_times = random_times;
    b.positions = xcalloc((size_t)(total_vertices > 0 ? total_vertices : 1), sizeof(vec3));
    b.normals = xcalloc((size_t)(total_vertices > 0 ? total_vertices : 1), sizeof(vec3));
    b.frames = frames;
    b.skin_frames = skin_frames;
    b.pool = skin_threads_create(threads);
    if (!b.pool) {
        fprintf(stderr, "bench_anim: cannot start %d threads\n", threads);
        return 1;
    }
    threads = skin_threads_count(b.pool);
    b.jobs = xcalloc((size_t)(model.mesh_count > 0 ? model.mesh_count : 1), sizeof(SkinJob));
    int joint_count = model.skeleton.joint_count > 0 ? model.skeleton.joint_count : 1;
    b.tree.first_child = xcalloc((size_t)joint_count, sizeof(int));
    b.tree.next_sibling = xcalloc((size_t)joint_count, sizeof(int));
    for (int j = 0; j < joint_count; j++) b.tree.first_child[j] = b.tree.next_sibling[j] = -1;
    for (int j = model.skeleton.joint_count - 1; j >= 0; j--) {   /* children in file order */
        int p = model.skeleton.parent[j];
        if (p >= 0) b.tree.next_sibling[j] = b.tree.first_child[p], b.tree.first_child[p] = j;
    }
    b.naive_model = xcalloc((size_t)joint_count, sizeof(mat4));
    b.naive_palettes = xcalloc((size_t)(model.mesh_count > 0 ? model.mesh_count : 1), sizeof(mat4 *));
    for (int m = 0; m < model.mesh_count; m++)
        b.naive_palettes[m] = xcalloc((size_t)(model.meshes[m].bone_count > 0 ? model.meshes[m].bone_count : 1), sizeof(mat4));

    /* The naive baseline must compute the same pose: compare at a few times (max |difference|). */
    double naive_max_difference = 0.0;
    for (int f = 0; f < frames && f < 200; f += 7) {
        animator_evaluate(&animator, clip ? clip_index : ANIMATOR_REST_POSE, random_times[f]);
        naive_pose(&model, clip, &b.tree, random_times[f], b.naive_model, b.naive_palettes);
        naive_max_difference = fmax(naive_max_difference, naive_difference(&b));
    }

    double best[JOB_COUNT] = {0}, median[JOB_COUNT] = {0};
    double *runs = xcalloc((size_t)batches, sizeof(double));
    run_batch(&b, JOB_SKIN);   /* warm-up: caches, page faults */
    for (int job = 0; job < JOB_COUNT; job++) {
        for (int r = 0; r < batches; r++) runs[r] = run_batch(&b, (Job)job);
        qsort(runs, (size_t)batches, sizeof(double), compare_double);
        best[job] = runs[0];
        median[job] = runs[batches / 2];
    }
    free(runs);

    /* The same clip after the key-frame optimiser: keys before/after, the measured worst pose
     * change (joint origins and skinned vertices, 120 Hz and every key time), and its pose timings. */
    Animator reduced_animator;
    if (!animator_init(&reduced_animator, &reduced)) {
        fprintf(stderr, "bench_anim: out of memory\n");
        return 1;
    }
    const Clip *reduced_clip = clip ? &reduced.clips[clip_index] : NULL;
    int reduced_keys = 0;
    for (int t = 0; reduced_clip && t < reduced_clip->track_count; t++)
        reduced_keys += reduced_clip->tracks[t].translation_count + reduced_clip->tracks[t].rotation_count +
                        reduced_clip->tracks[t].scale_count;
    double reduced_error = clip ? key_reduce_measure(&model, clip, reduced_clip, 120) / model_bind_diagonal(&model) : 0.0;
    enum { OPT_FORWARD, OPT_SEEK, OPT_SAMPLE, OPT_COUNT };
    const Job optimized_jobs[OPT_COUNT] = {JOB_POSE_FORWARD, JOB_POSE_SEEK, JOB_SAMPLE_FORWARD};
    double optimized_best[OPT_COUNT], optimized_median[OPT_COUNT];
    {
        Bench r = b;
        r.model = &reduced;
        r.clip = reduced_clip;
        r.animator = &reduced_animator;
        double *times = xcalloc((size_t)batches, sizeof(double));
        for (int job = 0; job < OPT_COUNT; job++) {
            for (int i = 0; i < batches; i++) times[i] = run_batch(&r, optimized_jobs[job]);
            qsort(times, (size_t)batches, sizeof(double), compare_double);
            optimized_best[job] = times[0];
            optimized_median[job] = times[batches / 2];
        }
        b.checksum += r.checksum;
        free(times);
    }

    double us = 1e6;
    double skin_rate = total_vertices / best[JOB_SKIN], skin_rate_median = total_vertices / median[JOB_SKIN];
    double skin_rate_threads = total_vertices / best[JOB_SKIN_THREADS];
    double skin_rate_threads_median = total_vertices / median[JOB_SKIN_THREADS];
    double skin_rate_renormalized = total_vertices / best[JOB_SKIN_RENORMALIZED];
    double skin_rate_renormalized_median = total_vertices / median[JOB_SKIN_RENORMALIZED];
    double naive_ratio = best[JOB_NAIVE] / best[JOB_POSE_FORWARD];
    if (json) {
        printf("{\"model\": \"%s\", \"clip\": %d, \"clip_name\": \"%s\", \"joints\": %d, \"tracks\": %d, \"keys\": %d, "
               "\"bones\": %d, \"vertices\": %d, \"batches\": %d, \"frames\": %d, \"skin_frames\": %d,\n",
               path ? path : "(synthetic)", clip_index, clip ? clip->name : "", model.skeleton.joint_count,
               clip ? clip->track_count : 0, keys_total, bones, total_vertices, batches, frames, skin_frames);
        printf(" \"pose_forward_us\": %.4f, \"pose_forward_us_median\": %.4f,\n", best[JOB_POSE_FORWARD] * us,
               median[JOB_POSE_FORWARD] * us);
        printf(" \"pose_seek_us\": %.4f, \"pose_seek_us_median\": %.4f,\n", best[JOB_POSE_SEEK] * us,
               median[JOB_POSE_SEEK] * us);
        printf(" \"sample_forward_us\": %.4f, \"sample_forward_us_median\": %.4f,\n", best[JOB_SAMPLE_FORWARD] * us,
               median[JOB_SAMPLE_FORWARD] * us);
        printf(" \"local_to_model_palette_us\": %.4f, \"local_to_model_palette_us_median\": %.4f,\n", best[JOB_HIERARCHY] * us,
               median[JOB_HIERARCHY] * us);
        printf(" \"palette_us\": %.4f, \"palette_us_median\": %.4f,\n", best[JOB_PALETTE] * us, median[JOB_PALETTE] * us);
        printf(" \"pose_reference_us\": %.4f, \"pose_reference_us_median\": %.4f, \"sample_reference_us\": %.4f,\n",
               best[JOB_POSE_REFERENCE] * us, median[JOB_POSE_REFERENCE] * us, best[JOB_SAMPLE_REFERENCE] * us);
        printf(" \"skin_reference_vertices_per_second\": %.0f, \"skin_no_runs_vertices_per_second\": %.0f,\n",
               total_vertices / best[JOB_SKIN_REFERENCE], skinned_vertices / best[JOB_SKIN_NO_RUNS]);
        printf(" \"skin_vertices_per_second\": %.0f, \"skin_vertices_per_second_median\": %.0f,\n", skin_rate,
               skin_rate_median);
        printf(" \"skin_vertices_per_second_threads\": %.0f, \"skin_vertices_per_second_threads_median\": %.0f, "
               "\"threads\": %d,\n", skin_rate_threads, skin_rate_threads_median, threads);
        printf(" \"skin_vertices_per_second_renormalized\": %.0f, \"skin_vertices_per_second_renormalized_median\": %.0f,\n",
               skin_rate_renormalized, skin_rate_renormalized_median);
        printf(" \"optimize_keys_tolerance\": %g, \"keys_optimized\": %d, \"optimized_max_error\": %.3g,\n"
               " \"pose_forward_us_optimized\": %.4f, \"pose_forward_us_optimized_median\": %.4f,\n"
               " \"pose_seek_us_optimized\": %.4f, \"pose_seek_us_optimized_median\": %.4f,\n"
               " \"sample_forward_us_optimized\": %.4f, \"simd\": \"%s\",\n",
               tolerance, reduced_keys, reduced_error, optimized_best[OPT_FORWARD] * us, optimized_median[OPT_FORWARD] * us,
               optimized_best[OPT_SEEK] * us, optimized_median[OPT_SEEK] * us, optimized_best[OPT_SAMPLE] * us,
               anim_simd_name(anim_simd_level()));
        printf(" \"naive_pose_us\": %.4f, \"naive_pose_us_median\": %.4f, \"naive_ratio\": %.2f, "
               "\"naive_max_difference\": %.3g, \"checksum\": %.6g}\n",
               best[JOB_NAIVE] * us, median[JOB_NAIVE] * us, naive_ratio, naive_max_difference, b.checksum);
    } else {
        printf("  %d batches of %d frames (CPU skinning: %d frames); best and median batch\n\n", batches, frames,
               skin_frames);
        printf("  job (src/anim/)                                        best      median\n");
        for (int job = 0; job < JOB_COUNT; job++) {
            char extra[128] = "";
            if (job == JOB_SKIN_REFERENCE)
                snprintf(extra, sizeof extra, "  %.1f M vertices/s", total_vertices / best[job] * 1e-6);
            if (job == JOB_SKIN_NO_RUNS)
                snprintf(extra, sizeof extra, "  %.1f M skinned vertices/s", skinned_vertices / best[job] * 1e-6);
            if (job == JOB_SKIN_RENORMALIZED)
                snprintf(extra, sizeof extra, "  %.1f M vertices/s", skin_rate_renormalized * 1e-6);
            if (job == JOB_SKIN) snprintf(extra, sizeof extra, "  %.1f M vertices/s", skin_rate * 1e-6);
            if (job == JOB_SKIN_THREADS)
                snprintf(extra, sizeof extra, "  %.1f M vertices/s, %d threads", skin_rate_threads * 1e-6, threads);
            printf("  %-48s %9.3f %9.3f us/frame%s\n", job_names[job], best[job] * us, median[job] * us, extra);
        }
        printf("  key-reduced clip (--optimize-keys %g): %d -> %d keys, worst pose change %.3g of the diagonal\n",
               tolerance, keys_total, reduced_keys, reduced_error);
        const char *optimized_names[OPT_COUNT] = {"  pose, forward playback, key-reduced clip", "  pose, random seeks, key-reduced clip",
                                                  "  sampling alone, forward, key-reduced clip"};
        for (int job = 0; job < OPT_COUNT; job++)
            printf("  %-48s %9.3f %9.3f us/frame\n", optimized_names[job], optimized_best[job] * us, optimized_median[job] * us);
        printf("  kernels: %s\n", anim_simd_name(anim_simd_level()));
        printf("\n  naive / fast pose: %.1fx (max |difference| %.2g)\n", naive_ratio, naive_max_difference);
        printf("  random seek / forward: %.2fx\n", best[JOB_POSE_SEEK] / best[JOB_POSE_FORWARD]);
        printf("  reference jobs / fast pose: %.1fx; fast / reference skinning: %.1fx\n",
               best[JOB_POSE_REFERENCE] / best[JOB_POSE_FORWARD], best[JOB_SKIN_REFERENCE] / best[JOB_SKIN]);
        printf("  (checksum %.6g)\n", b.checksum);
    }

    for (int m = 0; m < model.mesh_count; m++) free(b.naive_palettes[m]);
    free(b.naive_palettes);
    free(b.jobs);
    skin_threads_destroy(b.pool);
    free(b.naive_model);
    free(b.tree.first_child);
    free(b.tree.next_sibling);
    free(forward_times);
    free(random_times);
    free(b.positions);
    free(b.normals);
    animator_free(&animator);
    animator_free(&reduced_animator);
    model_free(&model);
    model_free(&reduced);
    return 0;
}
