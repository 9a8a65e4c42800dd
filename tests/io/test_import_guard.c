/* test_import_guard — corrupt files that make Assimp 5.2 itself abort or loop forever
 * still end skinview with exit 1 and one line naming the file (the crash guard, src/io/import_guard.c).
 * The files are made here from assimp-testmodels by changing one byte:
 *   - FBX/huesitos.fbx, byte 50916 (0-based) 0x00 -> 0x40: a cluster index out of range
 *     trips an assertion in Assimp's FBX converter (abort);
 *   - Collada/box_nested_animation.dae, byte 3532 '5' -> 0x80: Assimp's Collada parser
 *     never returns, allocating as it goes: the watchdog (shortened with SKINVIEW_IMPORT_TIMEOUT,
 *     the memory budget lifted) ends it, and with a 512 MiB budget the budget ends it first
 *     (release builds; sanitizer builds have no budget, there the watchdog still does);
 *   - FBX/box_orphant_embedded_texture.fbx, byte 28418 0x52 -> 0xD2 (one bit in the embedded
 *     texture's base64; io_damaged_corpus's copies 1 and 97 of that file have it too): Assimp frees a
 *     block twice. The release build's glibc aborts (the signal guard's line); AddressSanitizer
 *     reports it itself and exits, its report on the import's captured stderr: the guard's sanitizer
 *     death callback writes the line. Either way exactly one line, naming the file, and exit 1. A
 *     release build whose C library does not notice the double free cannot exercise this: that case
 *     is skipped there (said on stdout), never in the sanitizer build. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool mutate_copy(const char *source, const char *target, long offset, unsigned char value)
{
    FILE *in = fopen(source, "rb");
    if (!in) return false;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)size);
    bool ok = bytes && fread(bytes, 1, (size_t)size, in) == (size_t)size && offset < size;
    fclose(in);
    if (ok) {
        bytes[offset] = value;
        FILE *out = fopen(target, "wb");
        ok = out && fwrite(bytes, 1, (size_t)size, out) == (size_t)size;
        if (out) fclose(out);
    }
    free(bytes);
    return ok;
}

/* Runs skinview on path with --info; returns its exit status (-1 if killed by a signal). */
static int run_info(const char *env, const char *path, char *stderr_text, size_t size)
{
    char command[2048];
    snprintf(command, sizeof command, "%s '%s' '%s' --info 2>&1 >/dev/null", env, SKINVIEW_BINARY, path);
    return test_run_capture(command, stderr_text, size);
}

static void check_guarded(const char *env, const char *source, long offset, unsigned char value, const char *name,
                          const char *expected)
{
    char path[1024], text[4096];
    if (!test_file_exists(source)) {
        CHECK(false, "required test model missing: %s", source);
        return;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/%s", tmp && *tmp ? tmp : "/tmp", name);
    CHECK(mutate_copy(source, path, offset, value), "cannot write %s", path);
    int status = run_info(env, path, text, sizeof text);
    CHECK(status == 1, "%s: exit %d, expected 1 (stderr: %s)", name, status, text);
    char line[1200];
    snprintf(line, sizeof line, "skinview: %s: %s", path, expected);
    CHECK(strstr(text, line) != NULL, "%s: stderr lacks '%s': %s", name, line, text);
    unlink(path);
}

/* The double free: exactly one line "skinview: PATH: the importer crashed on it ...", exit 1. */
static void check_double_free(void)
{
    const char *source = SKINVIEW_TESTMODELS_DIR "/FBX/box_orphant_embedded_texture.fbx";
    if (!test_file_exists(source)) {
        CHECK(false, "required test model missing: %s", source);
        return;
    }
    char path[1024], text[8192], expected[1200];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/skinview_guard_double_free.fbx", tmp && *tmp ? tmp : "/tmp");
    CHECK(mutate_copy(source, path, 28418, 0xD2), "cannot write %s", path);
    int status = run_info("", path, text, sizeof text);
    snprintf(expected, sizeof expected, "skinview: %s: the importer crashed on it", path);
    bool crashed = strncmp(text, expected, strlen(expected)) == 0;
    if (!SKINVIEW_SANITIZED && !crashed) {
        printf("skipped: this C library does not notice Assimp's double free (exit %d: %s)\n", status, text);
    } else {
        const char *newline = strchr(text, '\n');
        CHECK(status == 1, "double free: exit %d, expected 1 (stderr: %s)", status, text);
        CHECK(crashed && newline && newline[1] == '\0', "double free: stderr should be the one line '%s ...': %s",
              expected, text);
    }
    unlink(path);
}

int main(void)
{
    check_guarded("", SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", 50916, 0x40, "skinview_guard_abort.fbx",
                  "the importer crashed on it");
    check_guarded("SKINVIEW_IMPORT_MEMORY_MB=0 SKINVIEW_IMPORT_TIMEOUT=3 timeout 60", SKINVIEW_TESTMODELS_DIR "/Collada/box_nested_animation.dae",
                  3532, 0x80, "skinview_guard_hang.dae", "import did not finish in 3 s");
    /* the budget case gets a long watchdog: on a loaded machine growing to 512 MiB took over 3 s */
    check_guarded(SKINVIEW_SANITIZED ? "SKINVIEW_IMPORT_MEMORY_MB=512 SKINVIEW_IMPORT_TIMEOUT=3 timeout 60"
                                     : "SKINVIEW_IMPORT_MEMORY_MB=512 SKINVIEW_IMPORT_TIMEOUT=40 timeout 90",
                  SKINVIEW_TESTMODELS_DIR "/Collada/box_nested_animation.dae", 3532, 0x80, "skinview_guard_grow.dae",
                  SKINVIEW_SANITIZED ? "import did not finish in 3 s"
                                     : "reading it needs more than the import's memory budget of 512 MiB");
    check_double_free();
    return test_finish();
}
