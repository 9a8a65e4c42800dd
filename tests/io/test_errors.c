/* test_errors — files skinview cannot use, through the real binary and through
 * import_model(): exit code exactly 1 (never a signal), exactly one line on stderr
 * naming the file; import_model() returns false with a one-line cause and a zeroed
 * Model. Bad usage (unknown option, --time abc) exits 2. */
#include "io/import.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char temp_dir[256];

/* Writes the first `keep` bytes (or half when keep == 0) of src to dst. */
static bool write_truncated(const char *src, const char *dst, long keep)
{
    FILE *f = fopen(src, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (keep <= 0 || keep > size) keep = size / 2;
    char *data = malloc((size_t)keep);
    bool ok = data && fread(data, 1, (size_t)keep, f) == (size_t)keep;
    fclose(f);
    ok = ok && test_write_file(dst, data, (size_t)keep);
    free(data);
    return ok;
}

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *c = text; *c; c++)
        if (*c == '\n') lines++;
    if (text[0] && text[strlen(text) - 1] != '\n') lines++;
    return lines;
}

static void expect_unusable(const char *label, const char *path)
{
    char args[2200], err[8192];
    snprintf(args, sizeof args, "--info '%.1024s'", path);
    int status = test_skinview_status(args, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s (%s): exit %d%s, expected exit 1", label, path,
          WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), WIFSIGNALED(status) ? " (signal)" : "");
    CHECK(count_lines(err) == 1, "%s: %d stderr lines, expected 1:\n%s", label, count_lines(err), err);
    CHECK(strstr(err, path) != NULL, "%s: stderr does not name the file: %s", label, err);
    printf("%-22s exit %d: %s", label, WIFEXITED(status) ? WEXITSTATUS(status) : -1, err);

    /* the same through the library */
    Model model;
    memset(&model, 0x5a, sizeof model);
    char error[512] = "";
    ImportOptions options = {0};
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(!ok, "%s: import_model accepted it", label);
    CHECK(error[0] != '\0' && strchr(error, '\n') == NULL, "%s: error text '%s'", label, error);
    Model zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&model, &zero, sizeof model) == 0, "%s: model not zeroed after failure", label);
    if (ok) model_free(&model);
}

static void expect_usage_error(const char *label, const char *args)
{
    char err[8192];
    int status = test_skinview_status(args, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2, "%s: exit %d%s, expected 2", label,
          WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), WIFSIGNALED(status) ? " (signal)" : "");
    CHECK(err[0] != '\0', "%s: no message on stderr", label);
}

int main(void)
{
    if (!test_file_exists(SKINVIEW_BINARY)) {
        printf("skinview binary not built: %s\n", SKINVIEW_BINARY);
        return TEST_SKIP_CODE;
    }
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview-errors")) return 1;
    char path[1024];

    snprintf(path, sizeof path, "%s/does-not-exist.fbx", temp_dir);
    expect_unusable("missing file", path);

    expect_unusable("directory", temp_dir);

    snprintf(path, sizeof path, "%s/empty.glb", temp_dir);
    CHECK(test_write_file(path, "", 0), "write %s", path);
    expect_unusable("empty file", path);

    const char *text = "These are notes, not a model.\nLine two.\n";
    snprintf(path, sizeof path, "%s/notes.txt", temp_dir);
    CHECK(test_write_file(path, text, strlen(text)), "write %s", path);
    expect_unusable("text file", path);
    snprintf(path, sizeof path, "%s/notes.fbx", temp_dir);
    CHECK(test_write_file(path, text, strlen(text)), "write %s", path);
    expect_unusable("text file as .fbx", path);
    snprintf(path, sizeof path, "%s/notes.gltf", temp_dir);
    CHECK(test_write_file(path, text, strlen(text)), "write %s", path);
    expect_unusable("text file as .gltf", path);

    /* truncated copies of real files: half, and just the header */
    struct { const char *label, *source, *name; long keep; } truncated[] = {
        {"truncated GLB (half)", SKINVIEW_TESTMODELS_DIR "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", "box.glb", 0},
        {"truncated GLB (100 B)", SKINVIEW_TESTMODELS_DIR "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", "box100.glb", 100},
        {"truncated FBX (half)", SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", "huesitos.fbx", 0},
        {"truncated FBX (200 B)", SKINVIEW_TESTMODELS_DIR "/FBX/animation_with_skeleton.fbx", "skeleton.fbx", 200},
        {"truncated Fox.glb", SKINVIEW_SHARED_MODELS_DIR "/khronos-fox/Fox.glb", "fox.glb", 0},
        {"truncated mixamo.fbx", SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx", "mixamo.fbx", 0},
    };
    for (size_t i = 0; i < sizeof truncated / sizeof truncated[0]; i++) {
        if (!test_file_exists(truncated[i].source)) continue;   /* ../shared is optional */
        snprintf(path, sizeof path, "%s/%s", temp_dir, truncated[i].name);
        CHECK(write_truncated(truncated[i].source, path, truncated[i].keep), "copy %s", truncated[i].source);
        expect_unusable(truncated[i].label, path);
    }

    /* real files with data skinview rejects */
    expect_unusable("Inf vertex positions",
                    SKINVIEW_TESTMODELS_DIR "/glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb");
    expect_unusable("no meshes", SKINVIEW_TESTMODELS_DIR "/glTF2/TestNoRootNode/SceneWithoutNodes.gltf");
    expect_unusable("Assimp rejects (schema)", SKINVIEW_TESTMODELS_DIR "/glTF2/wrongTypes/badArray.gltf");
    /* a header that would make Assimp allocate gigabytes and loop for minutes: must not hang */
    expect_unusable("absurd OFF counts", SKINVIEW_TESTMODELS_DIR "/invalid/OutOfMemory.off");
    expect_unusable("empty .x (package)", SKINVIEW_TESTMODELS_DIR "/invalid/empty.x");
    expect_unusable("malformed.obj", SKINVIEW_TESTMODELS_DIR "/invalid/malformed.obj");
    /* a valid file of a format nothing here reads: said as what it is, not "damaged" */
    const char *gltf1_binary = SKINVIEW_TESTMODELS_DIR "/glTF/BoxTextured-glTF-Binary/BoxTextured.glb";
    expect_unusable("glTF 1.0 binary", gltf1_binary);
    {
        char gltf1_args[1200], gltf1_err[4096];
        snprintf(gltf1_args, sizeof gltf1_args, "--info '%s'", gltf1_binary);
        test_skinview_status(gltf1_args, gltf1_err, sizeof gltf1_err);
        CHECK(strstr(gltf1_err, "glTF 1.0 binary") && !strstr(gltf1_err, "damaged"), "glTF 1.0 binary: named as such: %s",
              gltf1_err);
    }

    /* bad usage: exit 2 */
    expect_usage_error("unknown option", "--no-such-option");
    char args[1200];
    snprintf(args, sizeof args, "'%s' --info --time abc", SKINVIEW_TESTMODELS_DIR "/glTF2/simple_skin/simple_skin.gltf");
    expect_usage_error("--time abc", args);
    snprintf(args, sizeof args, "'%s' --info --clip no-such-clip --export-pose /dev/null",
             SKINVIEW_TESTMODELS_DIR "/glTF2/simple_skin/simple_skin.gltf");
    expect_usage_error("--info with --export-pose", args);

    test_remove_folder(temp_dir);
    return test_finish();
}
