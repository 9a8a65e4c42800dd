/* test_gfx_verify.c — `skinview MODEL --verify` on every skinned test model: the real
 * shaders/skinned.vert, captured through transform feedback, matches the CPU's skinning (the fast
 * path's; with --reference the lesson's functions, and the header line says which)
 * within 1e-4 of the bounding-box diagonal for every clip (8 times) and the bind pose —
 * with the GL's own palette size and again with --max-bones 16 (meshes split by Assimp).
 * The skinned normals too: every clip line and the final line print "max normal angle A deg",
 * the largest angle between the GPU's and the CPU's normals, and it stays within 0.1 degree
 * (float rounding gives about 1e-5 degree on Mesa llvmpipe; a wrong normal matrix, degrees).
 * With --skinning dq, also the FBX files of ../shared/models/ufbx-dcc that ask for DQS with a
 * non-uniformly scaled bone and for SkinningType Blend (per-vertex LBS shares; the GPU reads them
 * from vertex attribute 9): skinned by DQS, no mesh falling back to LBS (skipped without ../shared). */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUTPUT 65536

/* Runs the binary with `arguments`; returns its exit code, output (stdout + stderr) in out. */
static int run(const char *model_path, const char *arguments, char *out, size_t out_size)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' '%s' %s 2>&1", SKINVIEW_BINARY, model_path, arguments);
    return test_run_capture(command, out, out_size);
}

/* Checks every "max error E" in the output: a number, <= 1e-4. Returns how many lines. */
static int check_errors(const char *output, const char *label)
{
    int lines = 0;
    for (const char *p = strstr(output, "max error "); p; p = strstr(p + 1, "max error ")) {
        double error = NAN;
        int parsed = sscanf(p, "max error %lf", &error);
        CHECK(parsed == 1 && isfinite(error) && error >= 0.0 && error <= 1e-4, "%s: '%.60s'", label, p);
        lines++;
    }
    return lines;
}

/* Checks every "max normal angle A deg" in the output: a number, <= 0.1. Returns how many. */
static int check_normal_angles(const char *output, const char *label)
{
    int lines = 0;
    for (const char *p = strstr(output, "max normal angle "); p; p = strstr(p + 1, "max normal angle ")) {
        double degrees = NAN;
        int parsed = sscanf(p, "max normal angle %lf deg", &degrees);
        CHECK(parsed == 1 && isfinite(degrees) && degrees >= 0.0 && degrees <= 0.1, "%s: '%.60s'", label, p);
        lines++;
    }
    return lines;
}

static void verify_model(const char *path, const char *extra, int expected_limit)
{
    static char output[MAX_OUTPUT];
    char label[1200], arguments[256];
    snprintf(label, sizeof label, "%s --verify %s", path, extra);
    snprintf(arguments, sizeof arguments, "--verify %s", extra);
    int code = run(path, arguments, output, sizeof output);
    CHECK(code == 0, "%s: exit %d\n%s", label, code, output);
    int clip_lines = 0;
    for (const char *p = output; (p = strstr(p, "\nclip ")); p++) clip_lines++;
    CHECK(clip_lines >= 2, "%s: at least one clip (or rest) line and the bind pose line\n%s", label, output);
    /* clip lines + the final line */
    CHECK(check_errors(output, label) == clip_lines + 1, "%s: every clip line has a max error\n%s", label, output);
    CHECK(check_normal_angles(output, label) == clip_lines + 1, "%s: every clip line has a max normal angle\n%s",
          label, output);
    CHECK(strstr(output, "verify passed") != NULL, "%s: final line\n%s", label, output);
    const char *path_word = strstr(extra, "--reference") ? "pose by the reference functions" : "pose by the fast path";
    CHECK(strstr(output, path_word) != NULL, "%s: the header says \"%s\"", label, path_word);
    const char *limit = strstr(output, "bones per mesh ");
    int used = 0;
    CHECK(limit && sscanf(limit, "bones per mesh %d", &used) == 1 && (expected_limit == 0 || used == expected_limit),
          "%s: the limit used is printed (%d)", label, used);
    const char *most = strstr(output, "at most ");
    int bones = -1;
    CHECK(most && sscanf(most, "at most %d bones", &bones) == 1 && bones <= used,
          "%s: meshes have at most %d bones, limit %d", label, bones, used);
    printf("%s: ok (%d poses, limit %d, at most %d bones per mesh)\n", label, clip_lines, used, bones);
}

/* No argument: every model with the GL's palette size and with --max-bones 16.
 * Arguments (e.g. --skinning dq): every model once with those. */
int main(int argc, char **argv)
{
    char extra[256] = "";
    for (int i = 1; i < argc; i++) {
        strncat(extra, argv[i], sizeof extra - strlen(extra) - 2);
        strcat(extra, " ");
    }
    TestModel models[64];
    int count = test_skinned_models(models, 64);
    CHECK(count >= test_required_skinned_count, "skinned test models found: %d", count);
    for (int i = 0; i < count; i++) {
        if (!test_file_exists(models[i].path)) {
            CHECK(false, "required test model missing: %s", models[i].path);
            continue;
        }
        if (argc > 1) {
            verify_model(models[i].path, extra, 0);
            continue;
        }
        verify_model(models[i].path, "", 0);
        verify_model(models[i].path, "--max-bones 16", 16);
    }

    static const char *const dq_files[] = {"maya_dual_quaternion_scale_7500_ascii.fbx", "maya_dq_weights_7500_binary.fbx"};
    for (int i = 0; argc > 1 && strstr(extra, "dq") && i < 2; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/ufbx-dcc/%s", SKINVIEW_SHARED_MODELS_DIR, dq_files[i]);
        if (!test_file_exists(path)) {
            printf("%s: absent, skipped\n", path);
            continue;
        }
        verify_model(path, extra, 0);
        static char dq_output[MAX_OUTPUT];
        run(path, "--verify --skinning dq", dq_output, sizeof dq_output);
        CHECK(strstr(dq_output, "skinning GPU DQS") && !strstr(dq_output, "skinned with LBS, not DQS"),
              "%s: every mesh skinned by DQS\n%s", path, dq_output);
    }

    /* a file that is not a model: one line on stderr, exit 1 */
    static char output[MAX_OUTPUT];
    int code = run(SKINVIEW_SOURCE_DIR "/CMakeLists.txt", "--verify", output, sizeof output);
    CHECK(code == 1, "a bad file: exit %d\n%s", code, output);
    CHECK(strncmp(output, "skinview: ", 10) == 0 && strchr(output, '\n') == output + strlen(output) - 1,
          "a bad file: one line 'skinview: ...': %s", output);
    return test_finish();
}
