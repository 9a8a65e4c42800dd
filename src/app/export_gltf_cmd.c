/* export_gltf_cmd.c — --export-gltf OUT.glb|OUT.gltf: the model as glTF 2.0 (io/gltf_write.h), and with
 * --check-export the proof: the file read back by skinview's own glTF reader and posed against MODEL.
 *
 * --check-export poses every written clip, in both models, at 0, 1/3, 2/3 and the end of the clip, at
 * every key time of the clip (T, R, S and morph channels, from the clip's start) and halfway between
 * consecutive ones, plus the rest pose; per clip it prints the worst distance of any vertex (same mesh,
 * same vertex: the writer keeps the order and the reader is asked to keep it) over the model's bind-pose
 * bounding-box diagonal (both in glTF's axes and unit: MODEL's pose goes through gltf_export_axes), and exits 1
 * when one is above EXPORT_CHECK_TOLERANCE. Both sides are skinned by
 * linear blend skinning (the only method glTF has), morph targets first. */
#include "commands.h"
#include "anim/key_reduce.h"
#include "io/gltf_write.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define EXPORT_CHECK_TOLERANCE 1e-4   /* of the bind-pose diagonal */
#define EXPORT_CHECK_BETWEEN_TOLERANCE 1e-4   /* halfway between keys, when a mesh carries corrective targets: LBS plus the
                                                 linear interpolation of the keys' corrections, refined by the export to
                                                 5e-5 where GLTF_CORRECTIVE_DEPTH allows (gltf_write_dq.c) */

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The progress line (stderr on a terminal, not with --quiet). */
typedef struct ExportProgress {
    bool        enabled;
    const char *what;
} ExportProgress;

static void progress_line(void *user, int done, int total)
{
    ExportProgress *p = user;
    if (!p->enabled) return;
    fprintf(stderr, "\rskinview: %s clip %d/%d", p->what, done, total);
    if (done == total) fputs("\n", stderr);
    fflush(stderr);
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Playback times to check clip c at: every key (of every channel, from the start; with --fps N also its grid, which
 * the export writes as keys; the weight keys of the export's clip `back`), 0 and the end first (*keys of them), then
 * every midpoint between consecutive keys and 1/3, 2/3 of the clip. */
static int check_times(const Clip *clip, const Clip *back, float fps, float **out, int *keys_out)
{
    int keys = 0;
    for (int i = 0; i < back->morph_track_count; i++) keys += back->morph_tracks[i].key_count;
    for (int i = 0; i < clip->track_count; i++)
        keys += clip->tracks[i].translation_count + clip->tracks[i].rotation_count + clip->tracks[i].scale_count;
    for (int i = 0; i < clip->morph_track_count; i++) keys += clip->morph_tracks[i].key_count;
    int grid = fps > 0 ? (int)fminf(clip->duration * fps + 2.0f, 1e7f) : 0;
    float *times = malloc(sizeof(float) * (size_t)(2 * (keys + grid) + 8));
    if (!times) return -1;
    int n = 0;
    float d = clip->duration;
    times[n++] = 0, times[n++] = d;
    for (int f = 1; f < grid; f++) times[n++] = (float)f / fps;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *t = &clip->tracks[i];
        for (int k = 0; k < t->translation_count; k++) times[n++] = t->translation_times[k] - clip->start;
        for (int k = 0; k < t->rotation_count; k++) times[n++] = t->rotation_times[k] - clip->start;
        for (int k = 0; k < t->scale_count; k++) times[n++] = t->scale_times[k] - clip->start;
    }
    for (int i = 0; i < clip->morph_track_count; i++)
        for (int k = 0; k < clip->morph_tracks[i].key_count; k++) times[n++] = clip->morph_tracks[i].times[k] - clip->start;
    /* the export's weight keys (read back): corrective keys added between the clip's own (gltf_write_dq.c) */
    for (int i = 0; i < back->morph_track_count; i++)
        for (int k = 0; k < back->morph_tracks[i].key_count; k++) times[n++] = back->morph_tracks[i].times[k] - back->start;
    qsort(times, (size_t)n, sizeof(float), compare_floats);
    int unique = 0;
    for (int i = 0; i < n; i++)
        if (times[i] >= 0 && times[i] <= d && (unique == 0 || times[i] > times[unique - 1])) times[unique++] = times[i];
    int keys_unique = unique;
    for (int i = 0; i + 1 < keys_unique; i++) times[unique++] = 0.5f * (times[i] + times[i + 1]);
    times[unique++] = d / 3, times[unique++] = 2 * d / 3;
    *out = times;
    *keys_out = keys_unique;
    return unique;
}

/* Worst distance between the posed vertices of the two models (mesh m of a = mesh order[m] of b), a's skinned by
 * `method` (skinview's view of it: dq_pose updated here for SKINNING_GPU_DQ) and placed in glTF's axes and unit by
 * to_gltf (gltf_export_axes), b's by LBS (glTF's). */
static double pose_distance(Animator *a, int clip_a, Animator *b, int clip_b, float time, const int *order, vec3 *pa, vec3 *pb,
                            mat4 to_gltf, SkinningMethod method, SkinDqPose *dq_pose)
{
    animator_evaluate(a, clip_a, time);
    animator_evaluate(b, clip_b, time);
    if (method == SKINNING_GPU_DQ) skin_dq_pose_update(dq_pose, a);
    double worst = 0;
    for (int m = 0; m < a->model->mesh_count; m++) {
        int n = a->model->meshes[m].vertex_count;
        skin_mesh_by_method(method, dq_pose, a, m, pa, NULL);
        animator_skin_mesh(b, order[m], pb, NULL);
        for (int v = 0; v < n; v++) {
            glm_mat4_mulv3(to_gltf, pa[v], 1.0f, pa[v]);
            double dx = pa[v][0] - pb[v][0], dy = pa[v][1] - pb[v][1], dz = pa[v][2] - pb[v][2];
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (!(d <= worst)) worst = d;   /* NaN counts as the worst */
        }
    }
    return worst;
}

/* summary += ", NAME 1.2e-07" while it fits */
static void summary_add(char *summary, size_t summary_size, const char *name, double relative)
{
    if (!summary) return;
    size_t n = strlen(summary);
    char entry[160];
    snprintf(entry, sizeof entry, "%s%.40s %.1e", n ? ", " : "", name, relative);
    if (n + strlen(entry) + 8 < summary_size) memcpy(summary + n, entry, strlen(entry) + 1);
    else if (n + 6 < summary_size && strcmp(summary + n - 3, "...") != 0) memcpy(summary + n, ", ...", 6);
}

/* The check: prints its table when `print`; summary (may be NULL): "(rest pose) 0.0e+00, CLIP 1.2e-07, ..." (what
 * fits), the window's message. 0 when every pose is within the tolerance, else 1. */
static int check_export(const Model *model, const char *path, const GltfExportReport *report, SkinningMethod method, float fps,
                        bool progress_on, bool print, char *summary, size_t summary_size)
{
    if (summary && summary_size) summary[0] = '\0';
    Model back = {0};
    char error[512];
    ImportOptions import_options = {.quiet = true, .keep_vertex_order = true};
    if (!import_model(path, &import_options, &back, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: --check-export: the export does not read back: %s\n", path, error);
        return 1;
    }
    int status = 0, largest = 1;
    if (back.mesh_count != model->mesh_count) {
        fprintf(stderr, "skinview: %s: --check-export: %d meshes read back, %d written\n", path, back.mesh_count,
                model->mesh_count);
        model_free(&back);
        return 1;
    }
    for (int m = 0; m < model->mesh_count; m++) {
        int o = report->mesh_order[m];
        if (o < 0 || o >= back.mesh_count || back.meshes[o].vertex_count != model->meshes[m].vertex_count) {
            fprintf(stderr, "skinview: %s: --check-export: mesh '%s' reads back with another vertex count\n", path,
                    model->meshes[m].name);
            model_free(&back);
            return 1;
        }
        if (model->meshes[m].vertex_count > largest) largest = model->meshes[m].vertex_count;
    }
    Animator a, b;
    SkinDqPose dq_pose;
    vec3 *pa = malloc(sizeof(vec3) * (size_t)largest), *pb = malloc(sizeof(vec3) * (size_t)largest);
    bool a_ok = animator_init(&a, model), b_ok = a_ok && animator_init(&b, &back);
    bool dq_ok = b_ok && skin_dq_pose_init(&dq_pose, model);
    if (!pa || !pb || !a_ok || !b_ok || !dq_ok) {
        fprintf(stderr, "skinview: %s: out of memory\n", path);
        if (dq_ok) skin_dq_pose_free(&dq_pose);
        if (b_ok) animator_free(&b);
        if (a_ok) animator_free(&a);
        free(pa), free(pb);
        model_free(&back);
        return 1;
    }
    mat4 to_gltf;
    gltf_export_axes(model, to_gltf);
    double diagonal = model_bind_diagonal(model) * glm_vec3_norm(to_gltf[0]), limit = EXPORT_CHECK_TOLERANCE * diagonal;
    /* between keys a corrected mesh (DQ, blended, rigid: gltf_write_dq.c) shows LBS plus the linear interpolation of
     * the corrections at the keys around: its own bound there */
    bool corrected = report->meshes_corrected > 0;
    double between_tolerance = corrected ? EXPORT_CHECK_BETWEEN_TOLERANCE : EXPORT_CHECK_TOLERANCE;
    double between_limit = between_tolerance * diagonal;
    if (print) {
        printf("check-export: %s read back by skinview's glTF reader against MODEL skinned by %s; worst vertex distance / "
               "bind-pose diagonal (%.6g), tolerance %.0e at keys, %.0e between\n", path,
               method == SKINNING_GPU_DQ ? "dual quaternions" : method == SKINNING_RIGID ? "rigid skinning" : "LBS",
               diagonal, EXPORT_CHECK_TOLERANCE, between_tolerance);
        printf("  %-40s %6s        %-9s  %s\n", "clip", "poses", "at keys", "halfway between keys");
    }
    double worst_rest = pose_distance(&a, ANIMATOR_REST_POSE, &b, ANIMATOR_REST_POSE, 0, report->mesh_order, pa, pb, to_gltf,
                                      method, &dq_pose);
    bool rest_ok = worst_rest <= limit;
    if (print) printf("  %-40s %6d poses  %.3e  %-9s  %s\n", "(rest pose)", 1, worst_rest / diagonal, "-", rest_ok ? "ok" : "FAILED");
    summary_add(summary, summary_size, "rest", worst_rest / diagonal);
    if (!rest_ok) status = 1;
    int written = 0;
    for (int c = 0; c < model->clip_count; c++) written += report->clip_animation[c] >= 0;
    ExportProgress progress = {progress_on, "checking"};
    int done = 0;
    for (int c = 0; c < model->clip_count; c++) {
        int animation = report->clip_animation[c];
        if (animation < 0) continue;
        if (animation >= back.clip_count) {
            fprintf(stderr, "skinview: %s: --check-export: animation %d does not read back\n", path, animation);
            status = 1;
            break;
        }
        float *times = NULL;
        int keys = 0, count = check_times(&model->clips[c], &back.clips[animation], fps, &times, &keys);
        if (count < 0) {
            fprintf(stderr, "skinview: %s: out of memory\n", path);
            status = 1;
            break;
        }
        double worst_keys = 0, worst_between = 0;
        float worst_time = 0, worst_between_time = 0;
        for (int i = 0; i < count; i++) {
            double d = pose_distance(&a, c, &b, animation, times[i], report->mesh_order, pa, pb, to_gltf, method, &dq_pose);
            if (i < keys && !(d <= worst_keys)) worst_keys = d, worst_time = times[i];
            if (i >= keys && !(d <= worst_between)) worst_between = d, worst_between_time = times[i];
        }
        free(times);
        bool keys_ok = worst_keys <= limit, between_ok = worst_between <= between_limit;
        if (!keys_ok || !between_ok) status = 1;
        progress_line(&progress, ++done, written);
        const char *name = model->clips[c].name[0] ? model->clips[c].name : "(unnamed)";
        summary_add(summary, summary_size, name, fmax(worst_keys, worst_between) / diagonal);
        if (!print) continue;
        printf("  %-40.40s %6d poses  %.3e  %.3e  %s", name, count, worst_keys / diagonal, worst_between / diagonal,
               keys_ok && between_ok ? "ok" : "FAILED");
        if (!keys_ok) printf(" (worst key at %.4g s)", worst_time);
        if (!between_ok) printf(" (worst between keys at %.4g s)", worst_between_time);
        printf("\n");
    }
    skin_dq_pose_free(&dq_pose);
    animator_free(&b);
    animator_free(&a);
    free(pa), free(pb);
    model_free(&back);
    if (status) fprintf(stderr, "skinview: %s: --check-export: the export differs from the model by more than %.0e of its size\n",
                        path, EXPORT_CHECK_TOLERANCE);
    return status;
}

bool app_export_gltf_checked(const Model *model, const char *path, const Options *options, SkinningMethod method,
                             char *summary, size_t summary_size)
{
    GltfExportReport report = {0};
    report.clip_animation = malloc(sizeof(int) * ((size_t)model->clip_count + 1));
    report.mesh_order = malloc(sizeof(int) * ((size_t)model->mesh_count + 1));
    char error[512];
    /* the command line's export options (the window's model was imported with its --max-influences and kept the
     * images' bytes: app_import_options) */
    GltfExportOptions export_options = {.skinning = method,
                                        .max_influences = options ? options->max_influences : 0,
                                        .meshopt = options && options->compress_meshopt};
    bool ok = report.clip_animation && report.mesh_order;
    if (!ok) snprintf(summary, summary_size, "out of memory");
    else if (!(ok = gltf_export(model, path, &export_options, &report, error, sizeof error)))
        snprintf(summary, summary_size, "%.400s", error);
    else {
        char table[1024];
        int status = check_export(model, path, &report, method, 0.0f, false, false, table, sizeof table);
        snprintf(summary, summary_size, "%s (%s %.0e)", table[0] ? table : "does not read back",
                 status == 0 ? "ok, within" : "FAILED: above", EXPORT_CHECK_TOLERANCE);
        ok = status == 0;
    }
    free(report.clip_animation);
    free(report.mesh_order);
    return ok;
}

int command_export_gltf(const Options *options, const char *model_path)
{
    const char *out = options->export_gltf_path;
    size_t length = strlen(out);
    if (!(length > 4 && strcasecmp(out + length - 4, ".glb") == 0) && !(length > 5 && strcasecmp(out + length - 5, ".gltf") == 0)) {
        fprintf(stderr, "skinview: --export-gltf %s: the output must end in .glb or .gltf (try --help)\n", out);
        return 2;
    }
    Model model = {0};
    ImportOptions import = app_import_options(options);
    import.max_bones_per_mesh = 0;
    if (!app_load_model(model_path, &import, &model)) return 1;
    int status = 0;
    bool *selected = calloc((size_t)model.clip_count + 1, sizeof(bool));
    int *list = malloc(sizeof(int) * ((size_t)model.clip_count + 1));
    GltfExportReport report = {0};
    report.clip_animation = malloc(sizeof(int) * ((size_t)model.clip_count + 1));
    report.mesh_order = malloc(sizeof(int) * ((size_t)model.mesh_count + 1));
    char error[512];
    if (!selected || !list || !report.clip_animation || !report.mesh_order) {
        fprintf(stderr, "skinview: %s: out of memory\n", model_path);
        status = 1;
        goto done;
    }
    if (options->clips && strcmp(options->clips, "all") != 0 && model.clip_count == 0) {
        fprintf(stderr, "skinview: %s: --clips %s: the model has no clips\n", model_path, options->clips);
        status = 2;
        goto done;
    }
    int count = app_select_clips(&model, options->clips, list, error, sizeof error);
    if (count < 0) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        status = 2;
        goto done;
    }
    for (int i = 0; i < count; i++) selected[list[i]] = true;
    bool terminal = !options->quiet && isatty(STDERR_FILENO);
    /* what skinview shows: --skinning, else dual quaternions when the file asks them for every skinned mesh */
    SkinningMethod skinning = options->skinning_given            ? options->aids.skinning
                              : model_asks_dual_quaternion(&model) ? SKINNING_GPU_DQ
                                                                   : SKINNING_GPU_LBS;
    ExportProgress progress = {terminal, "exporting"};
    GltfExportOptions export_options = {.clip_selected = selected,
                                        .fps = options->fps_given ? options->fps : 0.0f,
                                        .meshopt = options->compress_meshopt,
                                        .max_influences = options->max_influences,
                                        .skinning = skinning,
                                        .progress = progress_line,
                                        .progress_user = &progress};
    double start = seconds_now();
    if (!gltf_export(&model, out, &export_options, &report, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", out, error);
        status = 1;
        goto done;
    }
    double elapsed = seconds_now() - start;
    if (!options->quiet) {
        if (report.meshes_lbs_for_dq && report.meshes_over_cap)
            fprintf(stderr, "skinview: %s: %d mesh(es) skinned by %s written as plain LBS (glTF has only linear blend "
                            "skinning): their corrective morph targets would take %.1f MiB, over the cap of %zu MiB\n",
                    out, report.meshes_lbs_for_dq, skinning == SKINNING_RIGID ? "rigid skinning" : "dual quaternions",
                    (double)report.over_cap_bytes / 1048576.0, GLTF_CORRECTIVE_MAX_BYTES >> 20);
        else if (report.meshes_lbs_for_dq)
            fprintf(stderr, "skinview: %s: %d mesh(es) the file skins by dual quaternions written as LBS, as skinview "
                            "shows them %s (--skinning dq: corrective morph targets)\n", out, report.meshes_lbs_for_dq,
                    options->skinning_given ? "with --skinning lbs/gpu/cpu" : "(not every skinned mesh asks for DQ)");
        if (report.meshes_corrected)
            fprintf(stderr, "skinview: %s: %d mesh(es) skinned by %s: written as LBS + %d corrective morph target(s) "
                            "(%ld keys, %.1f KiB), exact at every key, interpolated between (docs/export.md)%s\n",
                    out, report.meshes_corrected, skinning == SKINNING_RIGID ? "rigid skinning" : "dual quaternions",
                    report.corrective_targets, report.corrective_keys, (double)report.corrective_bytes / 1024.0,
                    report.corrective_singular ? "; some vertices left LBS where their blended matrix is singular" : "");
        if (report.meshes_follow_node)
            fprintf(stderr, "skinview: %s: %d skinned mesh(es) follow their node's motion since binding (Maya): written "
                            "with a copy of their joints under the mesh node (docs/export.md)\n", out, report.meshes_follow_node);
        if (report.sheared_joints)
            fprintf(stderr, "skinview: %s: %d joint(s) with a sheared rest matrix written as the nearest T, R, S "
                            "(largest element off by %.3g)\n", out, report.sheared_joints, report.worst_shear);
        if (report.morph_samplers_resampled)
            fprintf(stderr, "skinview: %s: %d morph weight sampler(s) resampled LINEAR (--fps, or targets with mixed "
                            "interpolations)\n", out,
                    report.morph_samplers_resampled);
        if (report.clips_without_keys)
            fprintf(stderr, "skinview: %s: %d clip(s) without keys not written (glTF needs a channel)\n", out,
                    report.clips_without_keys);
    }
    /* --quiet: nothing on success (the notes above, this line, the progress line); --check-export's table is the
     * answer the user asked for and still prints */
    if (!options->quiet)
        printf("wrote %s: %d nodes, %d meshes, %d skins, %d materials, %d textures, %d animations (%d channels, %ld keys), "
               "%zu bytes in %.3f s\n", out, report.nodes, report.meshes, report.skins, report.materials, report.textures,
               report.animations, report.channels, report.keys, report.bytes, elapsed);
    if (options->check_export) {
        fflush(stdout);
        status = check_export(&model, out, &report, skinning, export_options.fps, terminal, true, NULL, 0);
    }
done:
    free(report.clip_animation);
    free(report.mesh_order);
    free(list);
    free(selected);
    model_free(&model);
    return status;
}
