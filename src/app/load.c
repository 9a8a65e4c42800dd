/* load.c — model loading with uniform error messages, clip lookup, data files. */
/* SA_ONSTACK: XSI, beyond the POSIX.1-2008 base the build asks for */
#define _DEFAULT_SOURCE
#include "commands.h"
#include "anim/animator.h"
#include "io/import.h"

#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Assimp is a large C++ library reading untrusted files, and a few corrupt files still
 * make it abort (a debug assertion in its FBX converter, on a damaged cluster index) or
 * loop forever (a Collada index list with a stray byte). A file must never crash or hang
 * skinview, so while one is imported, fatal signals and a watchdog alarm print one line
 * naming the file and exit 1. Only async-signal-safe calls in the handler: the messages
 * are formatted before the import starts. The import itself runs on a thread with a 1 GiB stack
 * and an alternate signal stack (src/io/import_guard.c), so even a stack overflow inside Assimp
 * reaches this handler. */
/* watchdog: 20 s + 1 s per MiB of file (a 100 MiB FBX gets 2 minutes) */
#define IMPORT_TIMEOUT_BASE_SECONDS 20
static char import_crash_message[1400], import_timeout_message[1400];
static size_t import_crash_length, import_timeout_length;
/* Where the handler writes: the real stderr. During the import fd 2 points at a temporary file,
 * because what dies inside Assimp may print first (glibc's "free(): double free detected",
 * Assimp's own chatter): a failure must stay ONE line. Afterwards skinview's own lines (warnings)
 * are copied to the real stderr and the rest is dropped. */
static volatile sig_atomic_t import_stderr = STDERR_FILENO;

int app_error_fd(void) { return import_stderr; }

static void import_guard_handler(int signal_number)
{
    if (signal_number == SIGALRM) {
        ssize_t ignored = write(import_stderr, import_timeout_message, import_timeout_length);
        (void)ignored;
    } else {
        ssize_t ignored = write(import_stderr, import_crash_message, import_crash_length);
        (void)ignored;
    }
    _exit(1);
}

static unsigned import_timeout_seconds(const char *path)
{
    struct stat st;
    unsigned by_size = IMPORT_TIMEOUT_BASE_SECONDS;
    if (stat(path, &st) == 0 && st.st_size > 0) by_size += (unsigned)(st.st_size >> 20);
    const char *text = getenv("SKINVIEW_IMPORT_TIMEOUT");   /* seconds; 0 = no watchdog */
    if (!text || !*text) return by_size;
    char *end = NULL;
    long seconds = strtol(text, &end, 10);
    return (end != text && *end == '\0' && seconds >= 0 && seconds < 86400) ? (unsigned)seconds : by_size;
}

static float key_tolerance;   /* --optimize-keys, set once by main */
static bool key_measure;
static bool hold_end_keys;    /* --no-extrapolation, set once by main */
static int max_influences;    /* --max-influences 8 (--export-gltf), set once by main */
static bool keep_image_bytes; /* --export-gltf: textures keep their PNG / JPEG bytes, set once by main */

void app_set_key_optimizer(float tolerance, bool measure)
{
    key_tolerance = tolerance;
    key_measure = measure;
}

void app_set_hold_end_keys(bool hold)
{
    hold_end_keys = hold;
}

void app_set_max_influences(int influences)
{
    max_influences = influences;
}

void app_set_keep_image_bytes(bool keep)
{
    keep_image_bytes = keep;
}

/* The import alone, guarded (what app_load_model does before --animations). */
static bool import_guarded(const char *path, int max_bones, bool quiet, Model *model)
{
    char error[512];
    unsigned timeout = import_timeout_seconds(path);
    import_crash_length = (size_t)snprintf(import_crash_message, sizeof import_crash_message,
                                           "skinview: %.1200s: the importer crashed on it (corrupt file?)\n", path);
    import_timeout_length = (size_t)snprintf(import_timeout_message, sizeof import_timeout_message,
                                             "skinview: %.1200s: import did not finish in %u s (corrupt file? "
                                             "SKINVIEW_IMPORT_TIMEOUT=0 disables this limit)\n", path, timeout);
    if (import_crash_length >= sizeof import_crash_message) import_crash_length = sizeof import_crash_message - 1;
    if (import_timeout_length >= sizeof import_timeout_message) import_timeout_length = sizeof import_timeout_message - 1;

    static const int guarded[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM};
    enum { GUARDED_COUNT = sizeof guarded / sizeof guarded[0] };
    struct sigaction guard = {0}, previous[GUARDED_COUNT];
    guard.sa_handler = import_guard_handler;
    guard.sa_flags = SA_ONSTACK;   /* the import thread has an alternate signal stack: a stack overflow still reports */
    sigemptyset(&guard.sa_mask);
    for (int i = 0; i < GUARDED_COUNT; i++) sigaction(guarded[i], &guard, &previous[i]);
    fflush(stderr);
    int real_stderr = dup(STDERR_FILENO);
    FILE *capture = real_stderr >= 0 ? tmpfile() : NULL;
    if (capture && dup2(fileno(capture), STDERR_FILENO) >= 0) import_stderr = real_stderr;
    alarm(timeout);

    ImportOptions import_options = {.max_bones_per_mesh = max_bones, .optimize_keys = key_tolerance,
                                    .measure_key_error = key_measure, .hold_end_keys = hold_end_keys, .quiet = quiet,
                                    .max_influences = max_influences, .keep_image_bytes = keep_image_bytes};
    bool ok = import_model(path, &import_options, model, error, sizeof error);

    alarm(0);
    fflush(stderr);
    if (import_stderr != STDERR_FILENO) {   /* back to the real stderr, with skinview's own lines */
        dup2(real_stderr, STDERR_FILENO);
        import_stderr = STDERR_FILENO;
        rewind(capture);
        char line[2048];
        while (fgets(line, sizeof line, capture))
            if (strncmp(line, "skinview: ", 10) == 0) fputs(line, stderr);
    }
    if (capture) fclose(capture);
    if (real_stderr >= 0) close(real_stderr);
    for (int i = 0; i < GUARDED_COUNT; i++) sigaction(guarded[i], &previous[i], NULL);
    if (!ok) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        return false;
    }
    return true;
}

bool app_load_model(const char *path, int max_bones, Model *model)
{
    if (!import_guarded(path, max_bones, false, model)) return false;
    if (app_animations_wanted(path) && !app_add_configured_animations(model)) {   /* --animations (animations.c) */
        model_free(model);
        return false;
    }
    return true;
}

bool app_load_animation_file(const char *path, Model *model)
{
    return import_guarded(path, 0, true, model);
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
    if (!app_load_model(path, options->max_bones, model)) return 1;
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

bool app_fit_bone_limit(const char *path, int limit, Model *model)
{
    bool fits = true;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].bone_count > limit) fits = false;
    if (fits || limit < 1) return true;
    model_free(model);
    return app_load_model(path, limit, model);
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
