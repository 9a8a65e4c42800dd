/* load.c — model loading with uniform error messages, clip lookup, data files. */
#include "commands.h"
#include "anim/animator.h"
#include "io/import.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool app_load_model(const char *path, int max_bones, Model *model)
{
    char error[512];
    ImportOptions import_options = {.max_bones_per_mesh = max_bones};
    if (!import_model(path, &import_options, model, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
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
    char *end = NULL;
    long index = strtol(text, &end, 10);
    if (end != text && *end == '\0') {
        if (index >= 0 && index < model->clip_count) {
            *clip = (int)index;
            return true;
        }
        snprintf(error, error_size, "clip index %ld out of range (the model has %d clip%s)", index,
                 model->clip_count, model->clip_count == 1 ? "" : "s");
        return false;
    }
    snprintf(error, error_size, "no clip named '%s' (see --info)", text);
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
