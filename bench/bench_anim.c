/* bench_anim.c — what one frame of the animation core costs, job by job.
 *
 *   bench_anim [MODEL] [--clip INDEX] [--frames N] [--joints N] [--vertices N] [--keys N]
 *
 * Without MODEL it builds a synthetic character in code (64 joints, every joint a
 * bone with T/R/S tracks of 121 keys at 30 fps, 50000 vertices with 4 influences each), so it
 * runs anywhere. With MODEL it imports the file (src/io/import.c) and plays one clip.
 *
 * Every job is timed over the same frames (60 fps playback, looping) with
 * clock_gettime(CLOCK_MONOTONIC), seven times; it prints the fastest run in microseconds
 * per frame (CPU skinning runs 1/40 of the frames: it is a thousand times slower).
 * Forward playback (the key cursor's O(1) path) is compared with random seeks (binary
 * search) and with a linear key search from key 0 every frame (LearnOpenGL's way).
 * Not a test: numbers depend on the machine. */
#include "anim/animator.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ---- the linear-search baseline ------------------------------------------------ */

static int linear_key(const float *times, int count, float t)
{
    int k = 0;
    while (k + 1 < count && times[k + 1] <= t) k++;
    return k;
}

/* Finds every key by scanning from key 0, then samples (clip_sample takes its O(1) path). */
static void clip_sample_linear(const Clip *clip, const Skeleton *skeleton, float time, TrackCursor *cursors,
                               mat4 *local)
{
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        if (t->translation_count > 0) cursors[i].translation_key = linear_key(t->translation_times, t->translation_count, time);
        if (t->rotation_count > 0) cursors[i].rotation_key = linear_key(t->rotation_times, t->rotation_count, time);
        if (t->scale_count > 0) cursors[i].scale_key = linear_key(t->scale_times, t->scale_count, time);
    }
    clip_sample(clip, skeleton, time, cursors, local);
}

/* ---- the benchmark ----------------------------------------------------------------- */

typedef enum Job {
    JOB_SAMPLE_FORWARD, JOB_SAMPLE_RANDOM, JOB_SAMPLE_LINEAR, JOB_HIERARCHY, JOB_PALETTE, JOB_ANIMATOR, JOB_SKINNING,
    JOB_COUNT
} Job;

static const char *const job_names[JOB_COUNT] = {
    "clip_sample, forward playback (key cursor)",
    "clip_sample, random seeks (binary search)",
    "clip_sample, linear search from key 0",
    "pose_set_rest + pose_local_to_model",
    "skin_palette (every skinned mesh)",
    "animator_evaluate (all of the above, forward)",
    "skin_vertices_lbs, CPU (positions + normals)",
};

typedef struct Bench {
    const Model    *model;
    const Skeleton *skeleton;
    const Clip     *clip;           /* NULL: no clips, rest pose only */
    int             clip_index;
    Animator       *animator;
    const float    *forward_times;  /* [frames] 60 fps, looping */
    const float    *random_times;   /* [frames] uniform in [0, duration] */
    vec3           *positions, *normals;
    int             frames, skin_frames;
    double          checksum;       /* keeps the compiler from dropping the work */
} Bench;

/* Runs one job over the frames; returns the seconds it took. */
static double run_job(Bench *b, Job job)
{
    Animator *a = b->animator;
    const Model *model = b->model;
    size_t cursor_bytes = sizeof(TrackCursor) * (size_t)(b->clip && b->clip->track_count > 0 ? b->clip->track_count : 1);
    memset(a->cursors, 0, cursor_bytes);
    double t0 = now_seconds();
    switch (job) {
    case JOB_SAMPLE_FORWARD:
        for (int f = 0; f < b->frames; f++) clip_sample(b->clip, b->skeleton, b->forward_times[f], a->cursors, a->local);
        break;
    case JOB_SAMPLE_RANDOM:
        for (int f = 0; f < b->frames; f++) clip_sample(b->clip, b->skeleton, b->random_times[f], a->cursors, a->local);
        break;
    case JOB_SAMPLE_LINEAR:
        for (int f = 0; f < b->frames; f++)
            clip_sample_linear(b->clip, b->skeleton, b->forward_times[f], a->cursors, a->local);
        break;
    case JOB_HIERARCHY:
        for (int f = 0; f < b->frames; f++) {
            pose_set_rest(b->skeleton, a->local);
            pose_local_to_model(b->skeleton, (const mat4 *)a->local, a->joint_model);
        }
        break;
    case JOB_PALETTE:
        for (int f = 0; f < b->frames; f++)
            for (int m = 0; m < model->mesh_count; m++)
                if (model->meshes[m].skinned) skin_palette(&model->meshes[m], (const mat4 *)a->joint_model, a->palettes[m]);
        break;
    case JOB_ANIMATOR:
        for (int f = 0; f < b->frames; f++)
            animator_evaluate(a, b->clip ? b->clip_index : ANIMATOR_REST_POSE, b->forward_times[f]);
        break;
    case JOB_SKINNING:   /* every mesh, at the pose the previous job left */
        for (int f = 0; f < b->skin_frames; f++)
            for (int m = 0; m < model->mesh_count; m++) {
                animator_skin_mesh(a, m, b->positions, b->normals);
                b->checksum += b->positions[f % model->meshes[m].vertex_count][1];
            }
        break;
    default:
        break;
    }
    double seconds = now_seconds() - t0;
    if (b->skeleton->joint_count > 0) b->checksum += a->local[0][3][1] + a->joint_model[0][3][0];
    return seconds;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_anim [MODEL] [--clip INDEX] [--frames N]\n"
                    "                  [--joints N] [--vertices N] [--keys N]   (synthetic model)\n");
}


int main(int argc, char **argv)
{
    const char *path = NULL;
    int clip_index = -1, frames = 2000, joints = 64, vertices = 50000, keys = 121;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--clip") == 0 && has_value) clip_index = atoi(argv[++i]);
        else if (strcmp(a, "--frames") == 0 && has_value) frames = atoi(argv[++i]);
        else if (strcmp(a, "--joints") == 0 && has_value) joints = atoi(argv[++i]);
        else if (strcmp(a, "--vertices") == 0 && has_value) vertices = atoi(argv[++i]);
        else if (strcmp(a, "--keys") == 0 && has_value) keys = atoi(argv[++i]);
        else if (a[0] == '-' || path) { usage(); return 2; }
        else path = a;
    }
    if (frames < 1 || joints < 1 || joints > 65535 || vertices < 1 || keys < 2) { usage(); return 2; }

    Model model;
    if (path) {
        char error[512];
        ImportOptions options = {0};
        double t0 = now_seconds();
        if (!import_model(path, &options, &model, error, sizeof error)) {
            fprintf(stderr, "bench_anim: %s: %s\n", path, error);
            return 1;
        }
        printf("%s: imported in %.1f ms\n", path, (now_seconds() - t0) * 1e3);
    } else {
        build_synthetic(&model, joints, vertices, keys);
        printf("synthetic model (built in bench_anim.c)\n");
    }

    /* The clip to play: the one asked for, else the one with the most keys. */
    int keys_total = 0;
    if (clip_index < 0) {
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
    if (clip_index >= model.clip_count) {
        fprintf(stderr, "bench_anim: clip %d: the model has %d clips\n", clip_index, model.clip_count);
        model_free(&model);
        return 2;
    }
    const Clip *clip = clip_index >= 0 ? &model.clips[clip_index] : NULL;
    int max_keys = 0;
    if (clip)
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *tr = &clip->tracks[t];
            keys_total += tr->translation_count + tr->rotation_count + tr->scale_count;
            if (tr->rotation_count > max_keys) max_keys = tr->rotation_count;
            if (tr->translation_count > max_keys) max_keys = tr->translation_count;
        }
    int skinned_vertices = 0, bones = 0, skinned_meshes = 0, static_vertices = 0;
    for (int m = 0; m < model.mesh_count; m++) {
        if (model.meshes[m].skinned) {
            skinned_meshes++;
            skinned_vertices += model.meshes[m].vertex_count;
            bones += model.meshes[m].bone_count;
        } else {
            static_vertices += model.meshes[m].vertex_count;
        }
    }
    printf("  %d joints, %d meshes (%d skinned: %d vertices, %d bones in all; %d static vertices)\n",
           model.skeleton.joint_count, model.mesh_count, skinned_meshes, skinned_vertices, bones, static_vertices);
    if (clip)
        printf("  clip %d \"%s\": %.3f s, %d tracks, %d keys (longest channel %d keys)\n", clip_index, clip->name,
               clip->duration, clip->track_count, keys_total, max_keys);
    else
        printf("  no clips: timing the rest pose\n");

    Animator animator;
    if (!animator_init(&animator, &model)) {
        fprintf(stderr, "bench_anim: out of memory\n");
        return 1;
    }
    const Skeleton *skeleton = &model.skeleton;
    float duration = clip && clip->duration > 0.0f ? clip->duration : 1.0f;
    float *forward_times = xcalloc((size_t)frames, sizeof(float));
    float *random_times = xcalloc((size_t)frames, sizeof(float));
    for (int f = 0; f < frames; f++) {
        forward_times[f] = fmodf((float)f / 60.0f, duration);
        random_times[f] = rng_uniform(0.0f, duration);
    }
    int max_vertices = 1;
    for (int m = 0; m < model.mesh_count; m++)
        if (model.meshes[m].vertex_count > max_vertices) max_vertices = model.meshes[m].vertex_count;
    vec3 *positions = xcalloc((size_t)max_vertices, sizeof(vec3));
    vec3 *normals = xcalloc((size_t)max_vertices, sizeof(vec3));
    Bench b = {&model, skeleton, clip, clip_index, &animator, forward_times, random_times, positions, normals, frames,
               frames / 40 > 10 ? frames / 40 : 10, 0.0};
    enum { REPEATS = 7 };
    double best[JOB_COUNT];
    run_job(&b, JOB_SKINNING);                       /* warm-up: caches, page faults */
    for (int job = 0; job < JOB_COUNT; job++) {
        double runs[REPEATS];
        if (!clip && job <= JOB_SAMPLE_LINEAR) continue;
        for (int r = 0; r < REPEATS; r++) runs[r] = run_job(&b, (Job)job) / (job == JOB_SKINNING ? b.skin_frames : frames);
        best[job] = runs[0];   /* the fastest run: the least disturbed by other processes */
        for (int r = 1; r < REPEATS; r++)
            if (runs[r] < best[job]) best[job] = runs[r];
    }

    printf("  best of %d runs of %d frames (CPU skinning: %d frames)\n", REPEATS, frames, b.skin_frames);
    printf("\n  job (src/anim/)                                    time\n");
    for (int job = 0; job < JOB_COUNT; job++) {
        if (!clip && job <= JOB_SAMPLE_LINEAR) continue;
        char extra[128] = "";
        if (job == JOB_SKINNING)
            snprintf(extra, sizeof extra, "  (%.1f M vertices/s)", (double)(skinned_vertices + static_vertices) / best[job] * 1e-6);
        printf("  %-46s %10.2f us/frame%s\n", job_names[job], best[job] * 1e6, extra);
    }
    printf("  (checksum %.3g)\n", b.checksum);

    free(forward_times);
    free(random_times);
    free(positions);
    free(normals);
    animator_free(&animator);
    model_free(&model);
    return 0;
}
