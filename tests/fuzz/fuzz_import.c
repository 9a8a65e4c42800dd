/* fuzz_import.c — libFuzzer target: bytes -> import -> validation -> animation -> CPU skinning.
 *
 * Each input is one model file in memory. Its format hint comes from its first bytes (as a
 * file name's extension would), then the whole path a file takes through skinview runs on it:
 *   import_model_from_memory()  glTF 2.0: skinview's own reader (src/io/gltf/), the fuzzer's
 *                               "gltf" group (JSON and GLB seeds); every other format: Assimp
 *                               (aiImportFileFromMemory) + our stages; then validate.h, on the
 *                               1 GiB-stack thread
 *   animator_evaluate()         every clip (at most 8) at 0, 1/3, the end and past the end,
 *                               plus the rest and bind poses
 *   animator_skin_mesh()        every mesh, CPU linear blend skinning (with morph targets)
 * and checks that what comes out is finite: validation promises the animation path only ever
 * sees usable data, so a NaN here is a validation bug and aborts (a crash for libFuzzer).
 *
 * Built only with clang (cmake -DSKINVIEW_FUZZ=ON, see tests/io.cmake and scripts/fuzz.sh):
 *   clang -fsanitize=fuzzer,address,undefined
 */
#include "fuzz_animate.h"
#include "io/import.h"
#include "base/quote.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sanitizer/common_interface_defs.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Assimp 5.2.5 itself crashes on some inputs (a double free in its FBX reader was the first the
 * fuzzer found) and loops forever on others. skinview survives those through its guard (a
 * fatal-signal handler and a watchdog around the import, src/io/import_guard.c): one line, exit 1.
 * Assimp is not ours to fix, so before the real run each input goes through Assimp alone in a
 * child process (import_probe_assimp_from_memory); if that child dies, hangs or outgrows
 * PROBE_MEMORY_BYTES, the input is recorded in $SKINVIEW_FUZZ_ASSIMP_CRASHES (a folder; scripts/fuzz.sh then checks that skinview's
 * guard ends each one cleanly) and skipped. Everything else runs in-process, where a crash,
 * leak or sanitizer report is skinview's own and stops the fuzzer. */
#define PROBE_SECONDS 10
/* Assimp may also allocate gigabytes for a few bytes (an X file's face with a corrupt index count).
 * In the release binary the import's memory budget (src/io/import_guard.c) turns that into a
 * one-line error, but that budget is an address-space limit, which sanitizer builds cannot use.
 * So the probe child is watched from here and killed past PROBE_MEMORY_BYTES resident: with
 * libFuzzer's -rss_limit_mb=3072 the in-process run after a passing probe still fits. */
#define PROBE_MEMORY_BYTES (2048ull << 20)

static void record_assimp_crash(const uint8_t *data, size_t size, const char *hint, const char *kind)
{
    const char *folder = getenv("SKINVIEW_FUZZ_ASSIMP_CRASHES");
    if (!folder || !*folder) return;
    unsigned long hash = 5381;   /* djb2: one file per distinct input */
    for (size_t i = 0; i < size; i++) hash = hash * 33u + data[i];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s-%016lx.%s", folder, kind, hint[0] ? hint : "unknown", hash,
             hint[0] ? hint : "bin");
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

/* Resident memory of process `pid` in bytes (second field of /proc/PID/statm), 0 if unknown. */
static unsigned long long resident_bytes(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long size = 0, resident = 0;
    if (fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
    fclose(f);
    return resident * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* True if Assimp alone reads these bytes without dying or hanging (in a child process). */
static bool assimp_survives(const uint8_t *data, size_t size, const char *hint)
{
    pid_t pid = fork();
    if (pid < 0) return true;   /* cannot probe: run it for real */
    if (pid == 0) {
        /* the child: plain default signal behaviour, no libFuzzer crash handling or artifacts,
         * quiet; a sanitizer report exits with status 1 */
        __sanitizer_set_death_callback(NULL);
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        alarm(PROBE_SECONDS);
        import_probe_assimp_from_memory(data, size, hint);
        _exit(0);
    }
    int status = 0;
    long pause_ns = 50000;   /* most inputs take a millisecond: poll fast first, then back off */
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return true;   /* lost the child: run it for real */
        if (resident_bytes(pid) > PROBE_MEMORY_BYTES) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            record_assimp_crash(data, size, hint, "memory");
            return false;
        }
        nanosleep(&(struct timespec){0, pause_ns}, NULL);
        if (pause_ns < 5000000) pause_ns *= 2;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    record_assimp_crash(data, size, hint,
                        WIFSIGNALED(status) ? (WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGKILL ? "hang" : "signal")
                                            : "sanitizer");
    return false;
}

static bool starts_with(const uint8_t *data, size_t size, const char *prefix)
{
    size_t n = strlen(prefix);
    return size >= n && memcmp(data, prefix, n) == 0;
}

static bool contains(const uint8_t *data, size_t size, size_t limit, const char *word)
{
    size_t n = strlen(word);
    if (size > limit) size = limit;
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, word, n) == 0) return true;
    return false;
}

/* The extension Assimp would see on a file with these first bytes ("" = let Assimp guess). */
static const char *format_hint(const uint8_t *data, size_t size)
{
    if (starts_with(data, size, "glTF")) return "glb";
    if (starts_with(data, size, "Kaydara FBX Binary")) return "fbx";
    if (starts_with(data, size, "xof ")) return "x";
    if (starts_with(data, size, "MS3D000000")) return "ms3d";
    if (starts_with(data, size, "BB3D")) return "b3d";
    if (starts_with(data, size, "INTERQUAKEMODEL")) return "iqm";
    if (starts_with(data, size, "MD5Version") || contains(data, size, 256, "MD5Version")) return "md5mesh";
    if (contains(data, size, 512, "COLLADA")) return "dae";
    if (contains(data, size, 512, "FBXHeaderExtension") || starts_with(data, size, "; FBX")) return "fbx";
    if (contains(data, size, 512, "\"asset\"") || starts_with(data, size, "{")) return "gltf";
    if (starts_with(data, size, "version 1")) return "smd";
    if (starts_with(data, size, "ply")) return "ply";
    if (starts_with(data, size, "solid")) return "stl";
    if (contains(data, size, 256, "\nv ") || starts_with(data, size, "v ") || starts_with(data, size, "# ")) return "obj";
    return "";
}

/* glTF 2.0 never reaches Assimp: skinview's own reader (src/io/gltf/) takes it, so a crash there is
 * ours and must not be skipped by the probe. (glTF 1.0 files are handed to Assimp: probed.) */
static bool read_by_skinview(const uint8_t *data, size_t size, const char *hint)
{
    if (strcmp(hint, "glb") == 0) return size >= 8 && data[4] == 2 && data[5] == 0 && data[6] == 0 && data[7] == 0;
    if (strcmp(hint, "gltf") == 0) return contains(data, size, size, "\"2.");
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *hint = format_hint(data, size);
    if (!read_by_skinview(data, size, hint) && !assimp_survives(data, size, hint))
        return 0;   /* Assimp's own crash: the guard's job */

    Model model;
    char error[512];
    ImportOptions options = {.max_bones_per_mesh = 0, .quiet = true};
    if (!import_model_from_memory(data, size, hint, &options, &model, error, sizeof error)) {
        /* rejected with a message: fine, if it is one line without control characters (base/quote.h) */
        if (!quote_is_clean(error, strlen(error))) {
            fprintf(stderr, "fuzz_import: broken promise: a refusal with a control character: %s\n", error);
            abort();
        }
        return 0;
    }

    fuzz_animate(&model);
    fuzz_export(&model);
    model_free(&model);
    return 0;
}
