/* import.c — a model file -> skinview Model, once per file: the pipeline.
 *
 * The import runs in stages, one file each (the list and the conventions are in
 * import_internal.h): the file read once, the Assimp call, skeleton and name binding, meshes and
 * skins, morph targets, materials, clips, then Collada's and FBX's own readings of the same bytes.
 * This file runs them in order, inside the crash guard (import_guard.c); the conversions every
 * stage shares (matrices, quaternions, names) are import_common.c's.
 */
#include "import_internal.h"
#include "import_guard.h"
#include "fbx/fbx_apply.h"
#include "validate.h"
#include "anim/anim.h"
#include "anim/key_reduce.h"
#include "base/whole_file.h"
#include "gltf/gltf_import.h"

#include <assimp/cimport.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

ImportOptions import_options_default(void)
{
    return (ImportOptions){0};
}

/* ---- the common tail: after validation, for every reader ------------------------ */

/* Skinned meshes laid out for the skinning loop (mesh_layout.c): vertices grouped by influence
 * count, triangles re-indexed; the runs before and after are counted in the stats. */
static bool import_finish_layout(Model *model, const ImportOptions *options, char *error, size_t error_size)
{
    bool keep_order = options->keep_vertex_order;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        model->stats.influence_runs_in_file += mesh_influence_runs(mesh);
        if (!keep_order && !mesh_sort_by_influences(mesh)) {
            snprintf(error, error_size, "out of memory sorting the vertices of mesh '%s'", QUOTED(mesh->name));
            return false;
        }
        model->stats.influence_runs += mesh_influence_runs(mesh);
    }
    return true;
}

/* A deep copy of a clip's joint tracks (morph tracks left out): what key_reduce_measure compares
 * the reduced clip with. False when out of memory (the copy is then freed). */
static bool copy_joint_tracks(const Clip *clip, Clip *copy)
{
    *copy = *clip;
    copy->morph_track_count = 0;
    copy->morph_tracks = NULL;
    copy->tracks = calloc((size_t)(clip->track_count > 0 ? clip->track_count : 1), sizeof(JointTrack));
    if (!copy->tracks) return false;
    bool ok = true;
    for (int t = 0; t < clip->track_count; t++) {
        const JointTrack *in = &clip->tracks[t];
        JointTrack *out = &copy->tracks[t];
        *out = *in;
#define COPY_KEYS(field, count, size)                                                                               \
    out->field = in->field ? malloc((size_t)(count) * (size) + 1) : NULL;                                           \
    if (in->field && out->field) memcpy(out->field, in->field, (size_t)(count) * (size));                            \
    ok = ok && (!in->field || out->field);
        COPY_KEYS(translation_times, in->translation_count, sizeof(float))
        COPY_KEYS(translation_values, in->translation_count, sizeof(vec3))
        COPY_KEYS(translation_tangents, 2 * in->translation_count, sizeof(vec3))
        COPY_KEYS(rotation_times, in->rotation_count, sizeof(float))
        COPY_KEYS(rotation_values, in->rotation_count, sizeof(versor))
        COPY_KEYS(rotation_tangents, 2 * in->rotation_count, sizeof(versor))
        COPY_KEYS(scale_times, in->scale_count, sizeof(float))
        COPY_KEYS(scale_values, in->scale_count, sizeof(vec3))
        COPY_KEYS(scale_tangents, 2 * in->scale_count, sizeof(vec3))
#undef COPY_KEYS
    }
    if (!ok) {
        for (int t = 0; t < clip->track_count; t++) joint_track_free(&copy->tracks[t]);
        free(copy->tracks);
        copy->tracks = NULL;
    }
    return ok;
}

/* The key-frame optimiser (key_reduce.c) when asked for: every clip's T/R/S keys reduced; with
 * measure_key_error, the worst pose difference over every clip is measured against copies of the
 * original clips, sampled at 120 Hz and at every key time. */
static bool import_finish_keys(Model *model, const ImportOptions *options, char *error, size_t error_size)
{
    model->stats.keys_in_file = model_key_count(model);
    model->stats.keys = model->stats.keys_in_file;
    if (!(options->optimize_keys > 0.0f)) return true;
    Clip *originals = NULL;
    if (options->measure_key_error && model->clip_count > 0) {
        originals = calloc((size_t)model->clip_count, sizeof(Clip));
        for (int c = 0; originals && c < model->clip_count; c++)
            if (!copy_joint_tracks(&model->clips[c], &originals[c])) {
                for (int d = 0; d < c; d++) {
                    for (int t = 0; t < originals[d].track_count; t++) joint_track_free(&originals[d].tracks[t]);
                    free(originals[d].tracks);
                }
                free(originals);
                originals = NULL;
            }
        if (!originals) {
            snprintf(error, error_size, "out of memory copying the clips to measure --optimize-keys");
            return false;
        }
    }
    KeyReduceStats reduced;
    bool ok = model_reduce_keys(model, options->optimize_keys, &reduced);
    if (!ok) snprintf(error, error_size, "out of memory reducing keys");
    model->stats.keys = (int)reduced.keys_after;
    model->stats.key_tolerance = options->optimize_keys;
    model->stats.key_error = -1.0f;
    for (int c = 0; originals && c < model->clip_count; c++) {
        if (ok) {
            double worst = key_reduce_measure(model, &originals[c], &model->clips[c], 120);
            if (worst < 0.0) {
                snprintf(error, error_size, "out of memory measuring --optimize-keys");
                ok = false;
            }
            float relative = (float)(worst / reduced.diagonal);
            if (relative > model->stats.key_error) model->stats.key_error = relative;
        }
        for (int t = 0; t < originals[c].track_count; t++) joint_track_free(&originals[c].tracks[t]);
        free(originals[c].tracks);
    }
    free(originals);
    return ok;
}

/* ---- the pipeline ------------------------------------------------------------ */

/* Stage 8 for an FBX file (by its extension, or the hint of an import from memory): the file's
 * own transforms, clips and skins (fbx/fbx_apply.c), from the same bytes Assimp read. */
static bool import_fbx_stage(Importer *im, const char *path, const void *data, size_t size, const char *hint)
{
    if (!import_is_fbx_name(path, hint)) return true;
    return import_fbx_apply(im, data, size);
}

/* One import: a file (path; its bytes read once into data, size) or bytes in memory (data, size,
 * hint), run by import_run(). */
typedef struct ImportJob {
    const char          *path;
    const void          *data;
    size_t               size;
    const char          *hint;
    const ImportOptions *options;
    Model               *model;
    char                *error;
    size_t               error_size;
    bool                 ok;
} ImportJob;

/* Stage 0, for a file: what it is (a regular file, not empty) and its bytes, read whole once;
 * NULL with a one-line cause. Every stage after works on these bytes. */
static uint8_t *read_model_file(const char *path, size_t *size, char *error, size_t error_size)
{
    struct stat st;
    int error_number = 0;
    uint8_t *bytes = NULL;
    if (stat(path, &st) != 0) error_number = errno;
    else if (S_ISDIR(st.st_mode)) snprintf(error, error_size, "is a directory, not a model file");
    else if (!S_ISREG(st.st_mode)) snprintf(error, error_size, "is not a regular file");
    else if (st.st_size == 0) snprintf(error, error_size, "the file is empty");
    else bytes = whole_file_read(path, (size_t)-1 / 2, size, &error_number);
    if (!bytes && (error_number || !error[0]))
        snprintf(error, error_size, "cannot open: %s", strerror(error_number ? error_number : EIO));
    return bytes;
}

/* Assimp's part of an import (every format but glTF): the scene, then the stages in order. */
static bool import_with_assimp(ImportJob *job, int max_bones, FILE *warnings)
{
    Model *model = job->model;
    char *error = job->error;
    size_t error_size = job->error_size;
    InfluenceCuts cuts = {0, NULL};
    int max_influences = job->options->max_influences;
    const struct aiScene *scene = import_read_scene(job->path, job->data, job->size, job->hint, max_bones, max_influences,
                                                    &model->stats, &cuts, error, error_size);
    if (!scene) return false;

    char source[1024];
    if (job->path) snprintf(source, sizeof source, "%s", job->path);
    else snprintf(source, sizeof source, "(memory).%s", job->hint ? job->hint : "");
    const char *path = source;
    Importer im = {.scene = scene, .path = path, .model = model, .error = error, .error_size = error_size,
                   .warnings = warnings, .influence_cuts = cuts,
                   .hold_end_keys = job->options->hold_end_keys,
                   .keep_more_influences = max_influences == SV_MAX_INFLUENCES_KEPT,
                   .keep_image_bytes = job->options->keep_image_bytes};
    snprintf(model->source_path, sizeof model->source_path, "%s", path);
    const char *slash = strrchr(path, '/');
    if (job->path && slash && (size_t)(slash - path + 1) < sizeof im.directory) {
        memcpy(im.directory, path, (size_t)(slash - path + 1));
        im.directory[slash - path + 1] = '\0';
    }

    /* the stages, in order (morph targets, import_morph.c, go after the meshes) */
    bool ok = import_skeleton(&im) && import_meshes(&im) && import_materials(&im) && import_clips(&im) &&
              import_collada_bind_shape(&im, job->path, job->data, job->size, job->hint) &&
              import_fbx_stage(&im, job->path, job->data, job->size, job->hint);
    for (int t = 0; t < model->texture_count; t++) free(im.texture_keys[t]);
    free(im.texture_keys);
    for (int i = 0; i < im.failed_count; i++) free(im.failed_textures[i]);
    free(im.failed_textures);
    free(im.nodes);
    free(im.by_name);
    free(im.depth);
    free(im.channel_taken);
    import_influence_cuts_free(&im.influence_cuts);
    aiReleaseImport(scene);   /* recursive over the node tree too: still on the big stack */
    return ok;
}

static void import_run(void *argument)
{
    ImportJob *job = argument;
    Model *model = job->model;
    char *error = job->error;
    size_t error_size = job->error_size;
    int max_bones = job->options->max_bones_per_mesh;
    FILE *warnings = job->options->quiet ? NULL : stderr;

    /* glTF: skinview's own reader (src/io/gltf/, which reads a file once itself); every other
     * format: the file read once here, then the stages on its bytes */
    bool gltf = job->path ? gltf_is_gltf_name(job->path) : gltf_is_gltf_name(job->hint);
    bool version_1 = false;
    uint8_t *file_bytes = NULL;
    bool ok = true;
    if (!gltf && job->path) {
        file_bytes = read_model_file(job->path, &job->size, error, error_size);
        job->data = file_bytes;
        ok = file_bytes != NULL;
    }
    /* FBX older than 7.1, which Assimp refuses ("FBX-DOM unsupported"): skinview's FBX reader */
    bool legacy_fbx = ok && !gltf && import_is_fbx_name(job->path, job->hint) && import_fbx_is_legacy(job->data, job->size);
    int max_influences = job->options->max_influences;
    bool keep_image_bytes = job->options->keep_image_bytes;
    if (ok)
        ok = gltf         ? gltf_import(job->path, job->data, job->size, max_bones, max_influences, keep_image_bytes,
                                        warnings, model, &version_1, error, error_size)
             : legacy_fbx ? import_fbx_legacy(job->path, job->data, job->size, max_bones, max_influences, job->options->hold_end_keys,
                                              model, warnings, error, error_size)
                          : import_with_assimp(job, max_bones, warnings);
    if (version_1) {   /* glTF 1.0: Assimp's own glTF 1 reader (the file read again: glTF 1 only) */
        model_free(model);
        memset(model, 0, sizeof *model);
        gltf = false;
        error[0] = '\0';
        if (job->path) {
            file_bytes = read_model_file(job->path, &job->size, error, error_size);
            job->data = file_bytes;
        }
        ok = job->data && import_with_assimp(job, max_bones, warnings);
        const char *name = job->path ? job->path : job->hint ? job->hint : "";
        size_t length = strlen(name);
        bool binary = length >= 3 && strcasecmp(name + length - 3, "glb") == 0;
        if (!ok && binary)   /* Assimp 5.2's glTF 1 reader does not take the binary (KHR_binary_glTF) form */
            snprintf(error, error_size, "a glTF 1.0 binary (KHR_binary_glTF), which neither skinview's glTF 2.0 reader "
                                        "nor Assimp 5.2 reads: convert it to glTF 2.0");
    }
    if (gltf && job->path) snprintf(model->source_path, sizeof model->source_path, "%s", job->path);
    else if (gltf) snprintf(model->source_path, sizeof model->source_path, "(memory).%s", job->hint ? job->hint : "");
    /* the common tail, for every format */
    for (int m = 0; ok && max_bones > 0 && m < model->mesh_count; m++) {
        if (model->meshes[m].bone_count > max_bones) {   /* a vertex with > limit bones cannot be split */
            snprintf(error, error_size, "mesh '%s' needs %d bones, more than the limit of %d even after splitting",
                     QUOTED(model->meshes[m].name), model->meshes[m].bone_count, max_bones);
            ok = false;
        }
    }
    /* last: the rules on the finished Model (validate.h): repair with a warning, or refuse */
    int repairs = 0;
    if (ok) ok = model_validate(model, warnings, &repairs, error, error_size);
    model->stats.repairs += repairs;
    for (int m = 0; ok && max_bones > 0 && m < model->mesh_count; m++)
        if (model->meshes[m].bone_count > max_bones) {   /* the rigid bone validation may add */
            snprintf(error, error_size, "mesh '%s' needs %d bones after repairs, more than the limit of %d",
                     QUOTED(model->meshes[m].name), model->meshes[m].bone_count, max_bones);
            ok = false;
        }
    if (ok) ok = import_finish_keys(model, job->options, error, error_size);
    if (ok) ok = import_finish_layout(model, job->options, error, error_size);

    if (!ok) {
        import_one_line(error, error_size);
        model_free(model);
        memset(model, 0, sizeof *model);
    }
    free(file_bytes);
    job->ok = ok;
}

/* The import on the big stack, inside the signal guard when the options ask for it. */
static void import_guarded(ImportJob *job)
{
    if (!job->options) {
        snprintf(job->error, job->error_size, "no import options given (import_options_default())");
        return;
    }
    if (job->options->guard) {
        struct stat st;
        char name[1024];
        if (job->path) snprintf(name, sizeof name, "%s", job->path);
        else snprintf(name, sizeof name, "(memory).%s", job->hint ? job->hint : "");
        unsigned long long file_size = job->path ? (stat(job->path, &st) == 0 && st.st_size > 0 ? (unsigned long long)st.st_size : 0)
                                                 : job->size;
        import_guard_begin(name, file_size);
    }
    import_run_on_big_stack(import_run, job);
    if (job->options->guard) import_guard_end();
}

bool import_model(const char *path, const ImportOptions *options, Model *model, char *error, size_t error_size)
{
    memset(model, 0, sizeof *model);
    if (error_size > 0) error[0] = '\0';
    ImportJob job = {.path = path, .options = options, .model = model, .error = error, .error_size = error_size};
    import_guarded(&job);
    return job.ok;
}

bool import_model_from_memory(const void *data, size_t size, const char *hint, const ImportOptions *options,
                              Model *model, char *error, size_t error_size)
{
    memset(model, 0, sizeof *model);
    if (error_size > 0) error[0] = '\0';
    ImportJob job = {.data = data, .size = size, .hint = hint, .options = options, .model = model, .error = error,
                     .error_size = error_size};
    import_guarded(&job);
    return job.ok;
}
