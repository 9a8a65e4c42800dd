/* test_damaged_corpus.c — thousands of damaged model files through the real binary (issue 12).
 *
 * From one real file per format of the test set (glTF, GLB, binary and ASCII FBX, Collada, text
 * and binary DirectX, MD5, SMD, MS3D, B3D, OBJ, HL1 MDL) it writes 160 damaged copies each, with
 * a fixed seed: truncations, bit flips, and chunk swaps (text formats: two lines exchanged; binary
 * formats: two 4-byte-aligned blocks; GLB also its JSON and BIN chunks). Every copy goes through
 *     skinview FILE --info
 *     skinview FILE --export-pose OUT.obj
 *     skinview FILE --screenshot OUT.png --size 64x64
 * run by a small pool of child processes (one per core). Every run must exit 0 or 1 within the
 * time limit, never by a signal; a failure (exit 1) prints exactly one line that is not a warning;
 * an exported OBJ holds no NaN/Inf. Prints how many runs were accepted, repaired (exit 0 with
 * warning lines) and rejected, per mode.
 *
 * In a sanitizer build each run's report goes to a file of its own (log_path): one inside Assimp is
 * counted (the run still prints its one line, through the guard's death callback), any other fails.
 *
 *   test_damaged_corpus [--every N [--offset K]]   only damaged copies n with n % N == K (the
 *       release build runs N=2 K=0, the even half of the 2080 copies in about half the time of all
 *       of them; the sanitizer build N=4 K=1, a quarter it never sees; scripts/fuzz.sh goes deeper)
 *   test_damaged_corpus --write S N PATH   write damaged copy N of source S to PATH (to debug one)
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COPIES_PER_SOURCE 160
#define RUN_SECONDS 60          /* per run; the import watchdog is set to 10 s below */
#define MAX_WORKERS 16

typedef struct Source {
    const char *path;           /* relative to assimp-testmodels, or "@" + path in the source tree */
    const char *extension;
    bool        text;           /* chunk swaps exchange lines */
} Source;

static const Source sources[] = {
    {"glTF2/simple_skin/simple_skin.gltf", "gltf", true},
    {"@assets/demo.glb", "glb", false},
    {"FBX/huesitos.fbx", "fbx", false},
    {"FBX/box_orphant_embedded_texture.fbx", "fbx", true},
    {"Collada/box_nested_animation.dae", "dae", true},
    {"X/test_cube_text.x", "x", true},
    {"X/test_cube_binary.x", "x", false},
    {"MD5/SimpleCube.md5mesh", "md5mesh", true},
    {"SMD/triangle.smd", "smd", true},
    {"MS3D/twospheres.ms3d", "ms3d", false},
    {"B3D/WusonBlitz.b3d", "b3d", false},
    {"OBJ/box.obj", "obj", true},
    {"MDL/MDL (HL1)/man.mdl", "mdl", false},
};
enum { SOURCE_COUNT = sizeof sources / sizeof sources[0] };

enum Mode { MODE_INFO, MODE_EXPORT, MODE_SCREENSHOT, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"--info", "--export-pose", "--screenshot"};

typedef struct Tally {
    int accepted, repaired, rejected;
} Tally;

static Tally tallies[MODE_COUNT];
static int runs, failures, slowest_ms;
static char folder[] = "/tmp/skinview_damaged_XXXXXX";

/* xorshift64*: the fixed-seed generator of the damage */
static uint64_t rng_state;
static uint64_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
static size_t random_below(size_t n) { return n ? (size_t)(next_random() % n) : 0; }

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n))) {
            if (fread(data, 1, (size_t)n, f) != (size_t)n) {
                free(data);
                data = NULL;
            } else
                *size = (size_t)n;
        }
    }
    fclose(f);
    return data;
}

/* Swaps two non-overlapping ranges [a, a+la) and [b, b+lb) (a + la <= b) of buf[0..size). */
static void swap_ranges(unsigned char *buf, size_t size, size_t a, size_t la, size_t b, size_t lb)
{
    unsigned char *copy = malloc(size);
    if (!copy) return;
    memcpy(copy, buf, size);
    size_t at = a;
    memcpy(buf + at, copy + b, lb);
    at += lb;
    memcpy(buf + at, copy + a + la, b - (a + la));
    at += b - (a + la);
    memcpy(buf + at, copy + a, la);
    free(copy);
}

/* Line k of text: [start, end) including its newline. False if there are fewer lines. */
static bool line_range(const unsigned char *buf, size_t size, size_t k, size_t *start, size_t *end)
{
    size_t line = 0, s = 0;
    for (size_t i = 0; i < size; i++)
        if (buf[i] == '\n') {
            if (line == k) {
                *start = s;
                *end = i + 1;
                return true;
            }
            line++;
            s = i + 1;
        }
    return false;
}

/* Makes damaged copy number `n` of `original` into out (same size or shorter); returns its size. */
static size_t damage(const Source *source, const unsigned char *original, size_t size, int n, unsigned char *out)
{
    memcpy(out, original, size);
    int kind = n % 3;
    if (kind == 0) {   /* truncation: anywhere, but often near the start where headers live */
        size_t cut = n % 2 ? random_below(size) : random_below(size < 512 ? size : 512);
        return cut > 0 ? cut : 1;
    }
    if (kind == 1) {   /* 1 to 16 flipped bits */
        int flips = 1 + (int)random_below(16);
        for (int f = 0; f < flips; f++) out[random_below(size)] ^= (unsigned char)(1u << random_below(8));
        return size;
    }
    /* chunk swap */
    if (source->text) {
        size_t lines = 0;
        for (size_t i = 0; i < size; i++) lines += original[i] == '\n';
        if (lines >= 2) {
            size_t x = random_below(lines), y = random_below(lines);
            if (x > y) { size_t t = x; x = y; y = t; }
            size_t xs, xe, ys, ye;
            if (x != y && line_range(out, size, x, &xs, &xe) && line_range(out, size, y, &ys, &ye))
                swap_ranges(out, size, xs, xe - xs, ys, ye - ys);
            return size;
        }
    }
    if (strcmp(source->extension, "glb") == 0 && n % 9 == 2 && size >= 28) {   /* the JSON and BIN chunks */
        uint32_t json_length;
        memcpy(&json_length, out + 12, 4);
        size_t json_end = 20 + (size_t)json_length;
        if (json_end < size) swap_ranges(out, size, 12, json_end - 12, json_end, size - json_end);
        return size;
    }
    size_t block = 4 * (1 + random_below(16));
    if (size >= 2 * block + 8) {
        size_t a = random_below(size / 4 - 2 * block / 4) * 4;
        size_t b = a + block + random_below((size - a - 2 * block) / 4 + 1) * 4;
        if (b + block <= size) swap_ranges(out, size, a, block, b, block);
    }
    return size;
}

/* ---- the pool of runs ---------------------------------------------------------------- */

typedef struct Run {
    pid_t           pid;
    int             mode;
    char            input[512];
    char            output[512];
    char            stderr_path[512];
    int             serial;   /* a sanitizer build's report: folder/san-SERIAL.PID (log_path) */
    struct timespec started;
} Run;

static Run pool[MAX_WORKERS];
static int busy;

static long elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000L + (now.tv_nsec - since->tv_nsec) / 1000000L;
}

static bool file_has_nonfinite(const char *path)
{
    size_t size = 0;
    unsigned char *data = read_file(path, &size);
    if (!data) return false;
    bool bad = false;
    for (size_t i = 0; i + 3 <= size && !bad; i++) {
        unsigned char c0 = data[i] | 0x20, c1 = data[i + 1] | 0x20, c2 = data[i + 2] | 0x20;
        bad = (c0 == 'n' && c1 == 'a' && c2 == 'n') || (c0 == 'i' && c1 == 'n' && c2 == 'f');
    }
    free(data);
    return bad;
}

/* Sanitizer builds: the report of run `run`, if its sanitizer wrote one (ASAN_OPTIONS and
 * UBSAN_OPTIONS log_path, set in start_run), judged and removed. The importer's one-line promise
 * holds under the sanitizers too (the guard's death callback), so the report is where a memory
 * error shows: one inside Assimp (its first stack frame past the sanitizer's and the C/C++
 * runtimes' is in libassimp) is counted, anything else -- skinview's own code, or any UBSan report
 * (Assimp is not instrumented) -- fails the run. */
static int reports_in_assimp;
static bool judge_sanitizer_report(const Run *run)
{
    char path[600];
    snprintf(path, sizeof path, "%s/san-%d.%d", folder, run->serial, (int)run->pid);
    size_t size = 0;
    unsigned char *bytes = read_file(path, &size);
    if (!bytes) return true;
    char *report = calloc(size + 1, 1);
    if (report) memcpy(report, bytes, size);
    free(bytes);
    unlink(path);
    if (!report) return false;
    if (!strstr(report, "ERROR: ") && !strstr(report, "runtime error")) {   /* warnings only (ASan's on the big stack) */
        free(report);
        return true;
    }
    const char *in = NULL;   /* the first frame that is neither the sanitizer's nor a runtime's */
    static const char *const runtimes[] = {"libsanitizer", "libasan", "libubsan", "libc.so", "libstdc++", "libgcc_s",
                                           "/nptl/", "sysdeps/"};
    for (char *line = strstr(report, "    #"); line && !in; line = strstr(line + 1, "    #")) {
        char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        bool runtime = false;
        for (size_t r = 0; r < sizeof runtimes / sizeof runtimes[0] && !runtime; r++) {
            const char *hit = strstr(line, runtimes[r]);
            runtime = hit && hit < line + length;
        }
        if (!runtime) in = line;
    }
    const char *in_end = in ? strchr(in, '\n') : NULL;
    const char *assimp = in ? strstr(in, "libassimp") : NULL;
    bool inside_assimp = !strstr(report, "runtime error") && assimp && (!in_end || assimp < in_end);
    if (inside_assimp) reports_in_assimp++;
    CHECK(inside_assimp, "%s %s: the sanitizer reports an error outside Assimp:\n%.3000s", run->input,
          mode_names[run->mode], report);
    free(report);
    return inside_assimp;
}

static void judge(Run *run, int status)
{
    runs++;
    long ms = elapsed_ms(&run->started);
    if (ms > slowest_ms) slowest_ms = (int)ms;
    size_t size = 0;
    unsigned char *text = read_file(run->stderr_path, &size);
    char *err = calloc(size + 1, 1);
    if (err && text) memcpy(err, text, size);
    free(text);
    int error_lines = 0, warning_lines = 0;
    bool well_formed = true;
    for (char *line = err; line && *line;) {
        char *end = strchr(line, '\n');
        if (!end) { well_formed = false; break; }
        if (strncmp(line, "skinview: warning: ", 19) == 0) warning_lines++;
        else {
            error_lines++;
            if (strncmp(line, "skinview: ", 10) != 0) well_formed = false;
        }
        line = end + 1;
    }
    const char *what = mode_names[run->mode];
    bool ok = true;
    if (WIFSIGNALED(status)) {
        CHECK(false, "%s %s: killed by signal %d%s", run->input, what, WTERMSIG(status),
              WTERMSIG(status) == SIGKILL ? " (time limit)" : "");
        ok = false;
    } else if (WEXITSTATUS(status) == 0) {
        if (run->mode == MODE_EXPORT) {
            CHECK(!file_has_nonfinite(run->output), "%s %s: the OBJ has NaN/Inf", run->input, what);
        }
        if (run->mode != MODE_INFO) CHECK(test_file_exists(run->output), "%s %s: exit 0 but no output", run->input, what);
        CHECK(error_lines == 0 && well_formed, "%s %s: exit 0 with other output: %s", run->input, what, err ? err : "");
        if (warning_lines) tallies[run->mode].repaired++;
        else tallies[run->mode].accepted++;
    } else if (WEXITSTATUS(status) == 1) {
        CHECK(error_lines == 1 && well_formed, "%s %s: exit 1 should print one 'skinview: ' line, got: %s",
              run->input, what, err ? err : "");
        CHECK(run->mode == MODE_INFO || !test_file_exists(run->output), "%s %s: failed but left an output file",
              run->input, what);
        tallies[run->mode].rejected++;
    } else {
        CHECK(false, "%s %s: exit code %d: %s", run->input, what, WEXITSTATUS(status), err ? err : "");
        ok = false;
    }
    if (SKINVIEW_SANITIZED && !judge_sanitizer_report(run)) ok = false;
    if (!ok) failures++;
    free(err);
    unlink(run->stderr_path);
    if (run->mode != MODE_INFO) unlink(run->output);
}

/* Waits for one run to end (killing it past RUN_SECONDS) and judges it. */
static void reap_one(void)
{
    for (;;) {
        int status = 0;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int i = 0; i < MAX_WORKERS; i++)
                if (pool[i].pid == pid) {
                    judge(&pool[i], status);
                    pool[i].pid = 0;
                    busy--;
                    return;
                }
            continue;
        }
        for (int i = 0; i < MAX_WORKERS; i++)
            if (pool[i].pid > 0 && elapsed_ms(&pool[i].started) > RUN_SECONDS * 1000L) kill(pool[i].pid, SIGKILL);
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
}

static void start_run(const char *input, int mode, int serial)
{
    Run *run = NULL;
    for (int i = 0; i < MAX_WORKERS && !run; i++)
        if (pool[i].pid == 0) run = &pool[i];
    run->mode = mode;
    run->serial = serial;
    snprintf(run->input, sizeof run->input, "%s", input);
    snprintf(run->stderr_path, sizeof run->stderr_path, "%s/err-%d", folder, serial);
    snprintf(run->output, sizeof run->output, "%s/out-%d.%s", folder, serial, mode == MODE_EXPORT ? "obj" : "png");
    clock_gettime(CLOCK_MONOTONIC, &run->started);
    pid_t pid = fork();
    if (pid == 0) {
        int err = open(run->stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (err < 0 || null < 0) _exit(126);
        dup2(null, 1);
        dup2(err, 2);
        setenv("SKINVIEW_IMPORT_TIMEOUT", "10", 1);
        if (SKINVIEW_SANITIZED) {   /* reports to a file of their own (judge_sanitizer_report) */
            static const char *const names[] = {"ASAN_OPTIONS", "UBSAN_OPTIONS"};
            for (int i = 0; i < 2; i++) {
                char options[2048];
                const char *before = getenv(names[i]);
                snprintf(options, sizeof options, "%s%slog_path=%s/san-%d", before ? before : "",
                         before && *before ? ":" : "", folder, serial);
                setenv(names[i], options, 1);
            }
        }
        if (mode == MODE_INFO) execl(SKINVIEW_BINARY, "skinview", input, "--info", (char *)NULL);
        else if (mode == MODE_EXPORT)
            execl(SKINVIEW_BINARY, "skinview", input, "--export-pose", run->output, "--time", "0.5", (char *)NULL);
        else
            execl(SKINVIEW_BINARY, "skinview", input, "--screenshot", run->output, "--size", "64x64", (char *)NULL);
        _exit(127);
    }
    if (pid < 0) {
        CHECK(false, "fork: %s", strerror(errno));
        return;
    }
    run->pid = pid;
    busy++;
}

int main(int argc, char **argv)
{
    int every = 1, offset = 0;
    if (argc > 2 && strcmp(argv[1], "--every") == 0) every = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
    if (argc > 4 && strcmp(argv[3], "--offset") == 0) offset = atoi(argv[4]) >= 0 ? atoi(argv[4]) % every : 0;
    int write_source = -1, write_copy = -1;
    const char *write_path = NULL;
    if (argc > 4 && strcmp(argv[1], "--write") == 0) {
        write_source = atoi(argv[2]);
        write_copy = atoi(argv[3]);
        write_path = argv[4];
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : (int)cores;
    if (!mkdtemp(folder)) return 1;

    int files = 0, serial = 0;
    for (int s = 0; s < SOURCE_COUNT; s++) {
        const Source *source = &sources[s];
        char path[1024];
        if (source->path[0] == '@') snprintf(path, sizeof path, "%s/%s", SKINVIEW_SOURCE_DIR, source->path + 1);
        else snprintf(path, sizeof path, "%s/%s", SKINVIEW_TESTMODELS_DIR, source->path);
        size_t size = 0;
        unsigned char *original = read_file(path, &size);
        CHECK(original != NULL, "source model missing: %s", path);
        if (!original) continue;
        unsigned char *copy = malloc(size);
        rng_state = 0x5EED0012ULL + (uint64_t)s * 0x9E3779B97F4A7C15ULL;   /* fixed seed per source */
        for (int n = 0; copy && n < COPIES_PER_SOURCE; n++) {
            size_t damaged = damage(source, original, size, n, copy);
            if (write_path) {
                if (s == write_source && n == write_copy) {
                    FILE *out = fopen(write_path, "wb");
                    bool ok = out && fwrite(copy, 1, damaged, out) == damaged;
                    if (out) fclose(out);
                    rmdir(folder);
                    return ok ? 0 : 1;
                }
                continue;
            }
            if (n % every != offset) continue;
            char input[512];
            snprintf(input, sizeof input, "%s/s%02d-%03d.%s", folder, s, n, source->extension);
            FILE *f = fopen(input, "wb");
            if (!f || fwrite(copy, 1, damaged, f) != damaged) CHECK(false, "cannot write %s", input);
            if (f) fclose(f);
            files++;
            for (int mode = 0; mode < MODE_COUNT; mode++) {
                while (busy >= workers) reap_one();
                start_run(input, mode, serial++);
            }
        }
        while (busy > 0) reap_one();
        for (int n = offset; n < COPIES_PER_SOURCE; n += every) {   /* done with this source's copies */
            char input[512];
            snprintf(input, sizeof input, "%s/s%02d-%03d.%s", folder, s, n, source->extension);
            unlink(input);
        }
        free(copy);
        free(original);
    }
    while (busy > 0) reap_one();
    rmdir(folder);

    printf("damaged corpus: %d files from %d formats' sources, %d runs, %d ended badly; slowest run %d ms\n", files,
           SOURCE_COUNT, runs, failures, slowest_ms);
    if (SKINVIEW_SANITIZED) printf("  sanitizer reports inside Assimp (one line each): %d\n", reports_in_assimp);
    for (int mode = 0; mode < MODE_COUNT; mode++)
        printf("  %-13s accepted %d, repaired %d, rejected %d\n", mode_names[mode], tallies[mode].accepted,
               tallies[mode].repaired, tallies[mode].rejected);
    int expected = 0;   /* copies n < COPIES_PER_SOURCE with n % every == offset, for every source */
    for (int n = offset; n < COPIES_PER_SOURCE; n += every) expected += SOURCE_COUNT;
    CHECK(files == expected, "only %d of %d damaged files written", files, expected);
    return test_finish();
}
