/* test_thumbnail.c — `skinview --thumbnail IN OUT SIZE` (src/app/thumbnail.c) on every test
 * model: exit 0 within the time budget,
 * a SIZE x SIZE RGBA PNG with a transparent background, the model covering a sensible share of
 * the square and wholly inside it (the outermost rows and columns stay transparent), and no
 * temporary file left beside OUT. Then the failures: damaged files, a file that makes Assimp
 * abort, a file that makes it hang and a budget too small to finish — each exits 1 and writes
 * nothing. Prints the seconds each thumbnail took. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The budget this test gives each good file (tests/app.cmake: 20 s, 60 s under the
 * sanitizers): a safety net on a loaded machine, not a speed check (TEAM rule: speed is
 * measured, never asserted). The seconds are printed; the default 5 s budget itself is
 * exercised by the refusals at the end. */
#define BUDGET_FLAG " --thumbnail-budget " SKINVIEW_TEST_THUMBNAIL_BUDGET

#define MIN_COVERAGE 0.01   /* share of the square's pixels the model covers, at least */
#define MAX_COVERAGE 0.90   /* ... and at most (framed with a margin, never a filled square) */
#define MIN_EXTENT 0.8      /* the longer side of the model spans at least 0.8 of the square (0.9 asked) */

static char work_dir[1024];

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Files in work_dir other than the inputs we made (names starting "in-"), hidden temporary
 * files included. */
static int stray_files(void)
{
    DIR *dir = opendir(work_dir);
    int count = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        if (strncmp(entry->d_name, "in-", 3) == 0) continue;
        count++;
    }
    if (dir) closedir(dir);
    return count;
}

/* Runs the thumbnailer; returns the exit code, stderr in `errors`, seconds in *seconds. */
static int run_thumbnail(const char *model, const char *out, int size, const char *extra, char *errors,
                         size_t errors_size, double *seconds)
{
    char command[4096];
    int length = snprintf(command, sizeof command, "'%s' --thumbnail '%s' '%s' %d%s %s 2>&1 >/dev/null", SKINVIEW_BINARY,
                          model, out, size, BUDGET_FLAG, extra);
    if (length < 0 || length >= (int)sizeof command) return -1;   /* the command would be cut */
    double start = now_seconds();
    int status = test_run_capture(command, errors, errors_size);
    *seconds = now_seconds() - start;
    return status;
}

/* One good model: the picture's checks. Returns the seconds it took (or -1). */
static double check_thumbnail(const char *model, int size)
{
    char out[1200], errors[4096];
    snprintf(out, sizeof out, "%s/thumb.png", work_dir);
    double seconds = 0.0;
    int status = run_thumbnail(model, out, size, "", errors, sizeof errors, &seconds);
    CHECK(status == 0, "%s: exit %d (%s)", model, status, errors);
    if (status != 0) return -1.0;
    int width = 0, height = 0, channels = 0;
    unsigned char *pixels = stbi_load(out, &width, &height, &channels, 0);
    CHECK(pixels != NULL, "%s: output is not a PNG", model);
    if (!pixels) return -1.0;
    CHECK(width == size && height == size, "%s: %dx%d, expected %dx%d", model, width, height, size, size);
    CHECK(channels == 4, "%s: %d channels, expected RGBA", model, channels);
    if (width == size && height == size && channels == 4) {
        long covered = 0, border_covered = 0;
        int x0 = size, y0 = size, x1 = -1, y1 = -1;   /* box of the covered pixels */
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                if (pixels[4 * ((size_t)y * (size_t)size + (size_t)x) + 3] == 0) continue;
                covered++;
                if (x == 0 || y == 0 || x == size - 1 || y == size - 1) border_covered++;
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
        double coverage = (double)covered / ((double)size * size);
        /* the longer side of the model's box, as a share of the square's side */
        double extent = covered ? (double)((x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0) + 1) / size : 0.0;
        CHECK(coverage >= MIN_COVERAGE && coverage <= MAX_COVERAGE, "%s: the model covers %.3f of the square",
              model, coverage);
        CHECK(extent >= MIN_EXTENT, "%s: the model spans only %.2f of the square's side", model, extent);
        CHECK(border_covered == 0, "%s: %ld border pixels covered (model cut off by the frame)", model,
              border_covered);
        printf("%6.3f s  coverage %.3f  extent %.2f  %dx%d  %s\n", seconds, coverage, extent, size, size, model);
    }
    stbi_image_free(pixels);
    unlink(out);
    CHECK(stray_files() == 0, "%s: files left beside the output", model);
    return seconds;
}

/* One bad case: exit 1, `expected` on stderr, nothing written. */
static void check_refused(const char *model, const char *extra, const char *expected, const char *what)
{
    char out[1200], errors[4096];
    snprintf(out, sizeof out, "%s/refused.png", work_dir);
    double seconds = 0.0;
    int status = run_thumbnail(model, out, 128, extra, errors, sizeof errors, &seconds);
    CHECK(status == 1, "%s: exit %d, expected 1 (%s)", what, status, errors);
    CHECK(strstr(errors, expected) != NULL, "%s: stderr lacks '%s': %s", what, expected, errors);
    CHECK(!test_file_exists(out), "%s: an output file was written", what);
    CHECK(stray_files() == 0, "%s: files left in the output folder", what);
    printf("%6.3f s  refused (%s)\n", seconds, what);
}

/* Copies the first `length` bytes of source (all if length < 0) to target, byte `offset`
 * replaced by `value` when offset >= 0. */
static bool make_damaged_copy(const char *source, const char *target, long length, long offset, int value)
{
    FILE *in = fopen(source, "rb");
    if (!in) return false;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    if (length < 0 || length > size) length = size;
    unsigned char *bytes = malloc((size_t)size);
    bool ok = bytes && fread(bytes, 1, (size_t)size, in) == (size_t)size;
    fclose(in);
    if (ok && offset >= 0 && offset < size) bytes[offset] = (unsigned char)value;
    FILE *out = ok ? fopen(target, "wb") : NULL;
    ok = out && fwrite(bytes, 1, (size_t)length, out) == (size_t)length;
    if (out) fclose(out);
    free(bytes);
    return ok;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(work_dir, sizeof work_dir, "%s/skinview-thumbnail-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    CHECK(mkdtemp(work_dir) != NULL, "cannot make a temporary folder");

    /* every skinned test model, the demo, and static models (bind pose) */
    static TestModel models[128];
    int count = test_present_skinned_models(models, 100);
    const char *extra[] = {
        SKINVIEW_SOURCE_DIR "/assets/demo.fbx",
        SKINVIEW_SOURCE_DIR "/assets/demo.glb",
        SKINVIEW_TESTMODELS_DIR "/OBJ/spider.obj",
        SKINVIEW_TESTMODELS_DIR "/STL/Spider_binary.stl",
        SKINVIEW_TESTMODELS_DIR "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb",
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        CHECK(test_file_exists(extra[i]), "test model missing: %s", extra[i]);
        if (test_file_exists(extra[i])) snprintf(models[count++].path, sizeof models[0].path, "%s", extra[i]);
    }
    double total = 0.0, slowest = 0.0;
    int timed = 0;
    for (int i = 0; i < count; i++) {
        double seconds = check_thumbnail(models[i].path, 128);
        if (seconds < 0.0) continue;
        total += seconds;
        timed++;
        if (seconds > slowest) slowest = seconds;
    }
    /* the sizes file managers ask for (normal, large, x-large) and an odd one */
    check_thumbnail(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", 256);
    check_thumbnail(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", 512);
    check_thumbnail(SKINVIEW_SOURCE_DIR "/assets/demo.glb", 97);
    printf("%d thumbnails at 128x128: %.2f s in all, %.3f s on average, slowest %.3f s\n", timed, total,
           timed ? total / timed : 0.0, slowest);

    /* damaged files */
    char path[1200];
    snprintf(path, sizeof path, "%s/in-truncated.glb", work_dir);
    CHECK(make_damaged_copy(SKINVIEW_SOURCE_DIR "/assets/demo.glb", path, 3000, -1, 0), "write %s", path);
    check_refused(path, "", "in-truncated.glb: ", "truncated glb");
    snprintf(path, sizeof path, "%s/in-truncated.fbx", work_dir);
    CHECK(make_damaged_copy(SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", path, 20000, -1, 0), "write %s", path);
    check_refused(path, "", "in-truncated.fbx: ", "truncated fbx");
    snprintf(path, sizeof path, "%s/in-empty.fbx", work_dir);
    CHECK(make_damaged_copy(SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", path, 0, -1, 0), "write %s", path);
    check_refused(path, "", "in-empty.fbx: ", "empty fbx");
    /* the two corrupt files of test_import_guard.c: one makes Assimp abort, one never return */
    snprintf(path, sizeof path, "%s/in-abort.fbx", work_dir);
    CHECK(make_damaged_copy(SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", path, -1, 50916, 0x40), "write %s", path);
    check_refused(path, "", "the importer crashed on it", "fbx that makes Assimp abort");
    snprintf(path, sizeof path, "%s/in-hang.dae", work_dir);
    CHECK(make_damaged_copy(SKINVIEW_TESTMODELS_DIR "/Collada/box_nested_animation.dae", path, -1, 3532, 0x80),
          "write %s", path);
    check_refused(path, "--thumbnail-budget 2", "budget", "dae that makes Assimp hang, budget 2 s");
    check_refused(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", "--thumbnail-budget 0.001", "budget", "budget 1 ms");
    check_refused(SKINVIEW_SOURCE_DIR "/no-such-model.fbx", "", "no-such-model.fbx", "missing file");

    rmdir(work_dir);
    return test_finish();
}
