/* load.c — model loading with uniform error messages, clip lookup, data files. */
#include "commands.h"
#include "cli_check.h"
#include "anim/animator.h"
#include "io/import.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ImportOptions app_import_options(const Options *options)
{
    ImportOptions import = import_options_default();
    import.max_bones_per_mesh = options->max_bones;
    import.optimize_keys = options->optimize_keys;   /* --optimize-keys */
    import.measure_key_error = options->info;          /* --info reports the optimiser's error */
    import.hold_end_keys = options->no_extrapolation;  /* --no-extrapolation */
    import.max_influences = options->max_influences;   /* --max-influences 8: JOINTS_1 / WEIGHTS_1 */
    /* --export-gltf copies PNG / JPEG bytes, and so does the window's Ctrl+E: the window keeps them too */
    import.keep_image_bytes = options->export_gltf_path != NULL || app_opens_window(options);
    return import;
}

/* The import alone, guarded (what app_load_model does before --animations): a crash or hang
 * inside the importer ends the program with one line (io/import_guard.h). */
static bool import_guarded(const char *path, const ImportOptions *import, Model *model)
{
    char error[512];
    ImportOptions guarded = *import;
    guarded.guard = true;
    if (!import_model(path, &guarded, model, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        return false;
    }
    return true;
}

bool app_load_model(const char *path, const ImportOptions *import, Model *model)
{
    if (!import_guarded(path, import, model)) return false;
    if (app_animations_wanted(path) && !app_add_configured_animations(model, import)) {   /* --animations (animations.c) */
        model_free(model);
        return false;
    }
    return true;
}

bool app_resolve_clip(const Model *model, const char *text, int *clip, char *error, size_t error_size)
{
    if (!text) {
        *clip = model->clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
        return true;
    }
    int by_name = model_find_clip(model, text);
    if (by_name >= 0) {
        *clip = by_name;
        return true;
    }
    if (strcmp(text, "bind") == 0) {
        *clip = ANIMATOR_BIND_POSE;
        return true;
    }
    if (strcmp(text, "rest") == 0) {
        *clip = ANIMATOR_REST_POSE;
        return true;
    }
    int by_index = app_parse_clip_index(text, model->clip_count, "the model", clip, error, error_size);
    if (by_index >= 0) return by_index == 1;
    snprintf(error, error_size, "no clip named '%s' (see --info)", text);
    return false;
}

int app_parse_clip_index(const char *text, int clip_count, const char *owner, int *clip, char *error, size_t error_size)
{
    char *end = NULL;
    long index = strtol(text, &end, 10);
    if (end == text || *end != '\0') return -1;
    if (index >= 0 && index < clip_count) {
        *clip = (int)index;
        return 1;
    }
    snprintf(error, error_size, "clip index %ld out of range (%s has %d clip%s)", index, owner, clip_count,
             clip_count == 1 ? "" : "s");
    return 0;
}

int app_load_checked(const Options *options, const char *path, Model *model, int *clip)
{
    memset(model, 0, sizeof *model);
    ImportOptions import = app_import_options(options);
    if (!app_load_model(path, &import, model)) return 1;
    char error[512];
    if (!app_resolve_clip(model, options->clip, clip, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        model_free(model);
        return 2;
    }
    if (options->aids.joint) {   /* --joint / --show-weights JOINT: a joint of this file */
        bool found = false;
        for (int j = 0; j < model->skeleton.joint_count && !found; j++)
            found = strcmp(model->skeleton.names[j], options->aids.joint) == 0;
        if (!found) {
            fprintf(stderr, "skinview: %s: no joint named '%s' (see --info)\n", path, options->aids.joint);
            model_free(model);
            return 2;
        }
    }
    return 0;
}

bool app_fit_bone_limit(const char *path, const ImportOptions *import, int limit, Model *model)
{
    bool fits = true;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].bone_count > limit) fits = false;
    if (fits || limit < 1) return true;
    model_free(model);
    ImportOptions limited = *import;
    limited.max_bones_per_mesh = limit;
    return app_load_model(path, &limited, model);
}

bool app_next_screenshot_path(const char *model_path, char *out, size_t out_size)
{
    return app_next_output_path(model_path, "shot", "png", out, out_size);
}

bool app_next_output_path(const char *model_path, const char *kind, const char *extension, char *out, size_t out_size)
{
    const char *slash = strrchr(model_path, '/');
    const char *name = slash ? slash + 1 : model_path;
    const char *dot = strrchr(name, '.');
    int stem = (int)(dot && dot != name ? (size_t)(dot - name) : strlen(name));
    int dir = (int)(slash ? (size_t)(slash - model_path + 1) : 0);
    struct stat st;
    for (int n = 1; n <= 999; n++) {
        int written = snprintf(out, out_size, "%.*s%.*s-%s-%03d.%s", dir, model_path, stem, name, kind, n, extension);
        if (written < 0 || (size_t)written >= out_size) return false;
        if (stat(out, &st) != 0) return true;
    }
    return false;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool app_find_data(const char *relative, char *out, size_t out_size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        snprintf(out, out_size, "%s/%s", exe, relative);
        if (is_file(out)) return true;
        snprintf(out, out_size, "%s/../share/skinview/%s", exe, relative);
        if (is_file(out)) return true;
    }
#ifdef SKINVIEW_INSTALL_DATADIR
    snprintf(out, out_size, "%s/%s", SKINVIEW_INSTALL_DATADIR, relative);
    if (is_file(out)) return true;
#endif
    return false;
}

const char *app_model_or_demo(const char *model_path, const char *program, char *demo, size_t demo_size)
{
    if (model_path) return model_path;
    if (app_find_data("assets/demo.fbx", demo, demo_size)) return demo;
    fprintf(stderr, "%s: no MODEL given and the bundled assets/demo.fbx was not found\n", program);
    return NULL;
}
