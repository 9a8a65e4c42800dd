/* import_guard.c — the crash guard: one bad file must never crash or hang the program importing it
 * (import_guard.h lists what it does; docs/robustness.md the layers around it).
 *
 * Assimp is a large C++ library reading untrusted files. The files known to take it out of bounds
 * are refused before it runs (stage 1, import_assimp.c); for the rest, three guards here:
 *   1. a memory budget while it reads (a corrupt count must not reach the OOM killer);
 *   2. a big stack for the whole import (deep node trees make it recurse once per level);
 *   3. for programs (ImportOptions.guard): a few corrupt files still make it abort (a debug
 *      assertion in its FBX converter, on a damaged cluster index) or loop forever (a Collada index
 *      list with a stray byte). So while one is imported, fatal signals and a watchdog alarm print
 *      one line naming the file and exit 1 (under a sanitizer, its death callback too: a double free
 *      is its report, not a signal). Only async-signal-safe calls in the handler: the
 *      messages are formatted before the import starts. The alternate signal stack of (2) lets even
 *      a stack overflow inside Assimp reach the handler.
 */
/* MAP_NORESERVE, MAP_STACK, sigaltstack, SA_ONSTACK: Linux / XSI beyond POSIX.1-2008 base */
#define _DEFAULT_SOURCE
#include "import_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- a memory budget for Assimp -------------------------------------------------------
 * A few bytes can make Assimp allocate gigabytes: a 9 KiB bzip-compressed X file from the fuzzer
 * declares faces with ~190 000 indices each, and Assimp 5.2's X reader reserves them all before it
 * notices the data ends (2.4 GiB resident, tests/fuzz/regressions/x-face-index-count.x). A
 * larger count would push a user's machine into the OOM killer, which is a crash. So while
 * Assimp runs, the process's address space (RLIMIT_AS, soft limit) may grow by at most
 *     budget = 2 GiB + 128 x file size, never more than the machine's physical memory
 * and a larger request throws std::bad_alloc inside Assimp, which Assimp catches and reports as a
 * failed import: one line, exit 1. SKINVIEW_IMPORT_MEMORY_MB sets the budget (0 = none). The
 * previous limit is restored afterwards. Not applied in sanitizer builds: their allocators reserve
 * terabytes of address space up front, which an address-space limit cannot tell from real use. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IMPORT_BUDGET_USABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define IMPORT_BUDGET_USABLE 0
#endif
#endif
#ifndef IMPORT_BUDGET_USABLE
#define IMPORT_BUDGET_USABLE 1
#endif
#define IMPORT_BUDGET_BASE_BYTES ((unsigned long long)2 << 30)
#define IMPORT_BUDGET_PER_FILE_BYTE 128ull

/* The budget in bytes for a file of `file_size` bytes; 0 = no limit. */
static unsigned long long import_memory_budget(unsigned long long file_size)
{
    const char *text = getenv("SKINVIEW_IMPORT_MEMORY_MB");
    if (text && *text) {
        char *end = NULL;
        unsigned long long megabytes = strtoull(text, &end, 10);
        if (end != text && *end == '\0' && megabytes < (1ull << 40)) return megabytes << 20;
    }
    unsigned long long budget = IMPORT_BUDGET_BASE_BYTES + IMPORT_BUDGET_PER_FILE_BYTE * file_size;
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0 && budget > (unsigned long long)pages * (unsigned long long)page_size)
        budget = (unsigned long long)pages * (unsigned long long)page_size;
    return budget;
}

/* Address space in use now (first field of /proc/self/statm, in pages), or 0 if unknown. */
static unsigned long long address_space_in_use(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long pages = 0;
    if (fscanf(f, "%llu", &pages) != 1) pages = 0;
    fclose(f);
    long page_size = sysconf(_SC_PAGESIZE);
    return page_size > 0 ? pages * (unsigned long long)page_size : 0;
}

ImportMemoryLimit import_memory_limit_begin(unsigned long long file_size)
{
    ImportMemoryLimit limit = {0};
    limit.budget = IMPORT_BUDGET_USABLE ? import_memory_budget(file_size) : 0;
    unsigned long long in_use = address_space_in_use();
    struct rlimit previous;
    if (limit.budget == 0 || in_use == 0 || getrlimit(RLIMIT_AS, &previous) != 0) return limit;
    limit.previous_soft = previous.rlim_cur, limit.previous_hard = previous.rlim_max;
    rlim_t wanted = (rlim_t)(in_use + limit.budget);
    if (previous.rlim_cur != RLIM_INFINITY && previous.rlim_cur <= wanted) return limit;   /* stricter already */
    if (previous.rlim_max != RLIM_INFINITY && wanted > previous.rlim_max) wanted = previous.rlim_max;
    struct rlimit bounded = {wanted, previous.rlim_max};
    limit.set = setrlimit(RLIMIT_AS, &bounded) == 0;
    return limit;
}

void import_memory_limit_end(const ImportMemoryLimit *limit)
{
    struct rlimit previous = {(rlim_t)limit->previous_soft, (rlim_t)limit->previous_hard};
    if (limit->set) setrlimit(RLIMIT_AS, &previous);
}

/* ---- a big stack for Assimp -------------------------------------------------------
 * Assimp's readers and post-processing steps recurse once per level of the node tree (glTF
 * ImportNode, ValidateDataStructure, the aiNode destructor, ...): a file that nests 100 000
 * nodes needs far more than the 8 MiB main-thread stack, and running off its end is a SIGSEGV
 * with no stack left to even report it. So the whole import runs on a thread whose stack is
 * IMPORT_STACK_BYTES of address space, reserved but not committed (MAP_NORESERVE: pages cost
 * memory only once touched), with a PROT_NONE guard at its far end. If even that runs out (an
 * endless recursion), the SIGSEGV is taken on an alternate signal stack installed on that thread,
 * so the guard's handler (SA_ONSTACK, below) can still print its one line and exit 1. */
#define IMPORT_STACK_BYTES ((size_t)1 << 30)          /* 1 GiB */
#define IMPORT_STACK_GUARD_BYTES ((size_t)1 << 16)
#define IMPORT_SIGNAL_STACK_BYTES ((size_t)1 << 18)   /* 256 KiB: room for a sanitizer's report too */

typedef struct StackJob {
    void (*run)(void *);
    void *argument;
} StackJob;

/* Runs job->run with an alternate signal stack on the calling thread (restored after). */
static void run_with_signal_stack(StackJob *job)
{
    stack_t alternate = {0}, previous = {0};
    alternate.ss_sp = malloc(IMPORT_SIGNAL_STACK_BYTES);
    alternate.ss_size = IMPORT_SIGNAL_STACK_BYTES;
    bool installed = alternate.ss_sp && sigaltstack(&alternate, &previous) == 0;
    job->run(job->argument);
    if (installed) {
        if (previous.ss_flags & SS_DISABLE) {
            stack_t off = {.ss_flags = SS_DISABLE};
            sigaltstack(&off, NULL);
        } else {
            sigaltstack(&previous, NULL);
        }
    }
    free(alternate.ss_sp);
}

static void *stack_thread_main(void *argument)
{
    run_with_signal_stack(argument);
    return NULL;
}

void import_run_on_big_stack(void (*run)(void *), void *argument)
{
    StackJob job = {run, argument};
    size_t size = IMPORT_STACK_BYTES;
    const char *megabytes = getenv("SKINVIEW_IMPORT_STACK_MB");   /* tests: overflow it on purpose */
    if (megabytes && atoi(megabytes) >= 1 && atoi(megabytes) <= 4096) size = (size_t)atoi(megabytes) << 20;
    void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                       -1, 0);
    if (stack == MAP_FAILED) {   /* address space limited (ulimit -v): a quarter, then the caller's stack */
        size /= 4;
        stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    }
    pthread_attr_t attributes;
    pthread_t thread;
    bool started = false;
    if (stack != MAP_FAILED && mprotect(stack, IMPORT_STACK_GUARD_BYTES, PROT_NONE) == 0 &&
        pthread_attr_init(&attributes) == 0) {
        /* the stack grows down towards the guard at the mapping's start */
        if (pthread_attr_setstack(&attributes, stack, size) == 0)
            started = pthread_create(&thread, &attributes, stack_thread_main, &job) == 0;
        pthread_attr_destroy(&attributes);
    }
    if (started) pthread_join(thread, NULL);
    else run_with_signal_stack(&job);
    if (stack != MAP_FAILED) munmap(stack, size);
}

/* ---- the signal guard and the watchdog ------------------------------------------------------ */

/* watchdog: 20 s + 1 s per MiB of file (a 100 MiB FBX gets 2 minutes) */
#define IMPORT_TIMEOUT_BASE_SECONDS 20
static char import_crash_message[1400], import_timeout_message[1400];
static size_t import_crash_length, import_timeout_length;
/* Where the handler writes: the real stderr. During the import fd 2 points at a temporary file,
 * because what dies inside Assimp may print first (glibc's "free(): double free detected",
 * Assimp's own chatter): a failure must stay ONE line. Afterwards skinview's own lines (warnings)
 * are copied to the real stderr and the rest is dropped. */
static volatile sig_atomic_t import_stderr = STDERR_FILENO;

static const int guarded_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM};
enum { GUARDED_COUNT = sizeof guarded_signals / sizeof guarded_signals[0] };
static struct sigaction previous_actions[GUARDED_COUNT];
static int real_stderr = -1;
static FILE *capture;

int import_guard_error_fd(void) { return import_stderr; }

/* Under AddressSanitizer / UndefinedBehaviorSanitizer, a memory error inside the importer (Assimp
 * freeing a block twice on a damaged FBX) is no signal: the sanitizer prints its report on fd 2 --
 * the capture -- and exits. Its death callback is where the one line goes to the real stderr.
 * Declared weak: a build without a sanitizer runtime links with the symbol absent (NULL) and
 * registers nothing. Sanitizer tests that want the report itself set ASAN_OPTIONS=log_path=... */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void import_guard_sanitizer_death(void)
{
    ssize_t ignored = write(import_stderr, import_crash_message, import_crash_length);
    (void)ignored;
    _exit(1);   /* the release build's exit code; and no second line from an abort_on_error SIGABRT */
}

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

static unsigned import_timeout_seconds(unsigned long long file_size)
{
    unsigned by_size = IMPORT_TIMEOUT_BASE_SECONDS + (unsigned)(file_size >> 20);
    const char *text = getenv("SKINVIEW_IMPORT_TIMEOUT");   /* seconds; 0 = no watchdog */
    if (!text || !*text) return by_size;
    char *end = NULL;
    long seconds = strtol(text, &end, 10);
    return (end != text && *end == '\0' && seconds >= 0 && seconds < 86400) ? (unsigned)seconds : by_size;
}

void import_guard_begin(const char *name, unsigned long long file_size)
{
    unsigned timeout = import_timeout_seconds(file_size);
    import_crash_length = (size_t)snprintf(import_crash_message, sizeof import_crash_message,
                                           "skinview: %.1200s: the importer crashed on it (corrupt file?)\n", name);
    import_timeout_length = (size_t)snprintf(import_timeout_message, sizeof import_timeout_message,
                                             "skinview: %.1200s: import did not finish in %u s (corrupt file? "
                                             "SKINVIEW_IMPORT_TIMEOUT=0 disables this limit)\n", name, timeout);
    if (import_crash_length >= sizeof import_crash_message) import_crash_length = sizeof import_crash_message - 1;
    if (import_timeout_length >= sizeof import_timeout_message) import_timeout_length = sizeof import_timeout_message - 1;

    struct sigaction guard = {0};
    guard.sa_handler = import_guard_handler;
    guard.sa_flags = SA_ONSTACK;   /* the import thread has an alternate signal stack: a stack overflow still reports */
    sigemptyset(&guard.sa_mask);
    for (int i = 0; i < GUARDED_COUNT; i++) sigaction(guarded_signals[i], &guard, &previous_actions[i]);
    fflush(stderr);
    real_stderr = dup(STDERR_FILENO);
    capture = real_stderr >= 0 ? tmpfile() : NULL;
    if (capture && dup2(fileno(capture), STDERR_FILENO) >= 0) import_stderr = real_stderr;
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(import_guard_sanitizer_death);
    alarm(timeout);
}

void import_guard_end(void)
{
    alarm(0);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(NULL);   /* later reports: as they are */
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
    capture = NULL;
    if (real_stderr >= 0) close(real_stderr);
    real_stderr = -1;
    for (int i = 0; i < GUARDED_COUNT; i++) sigaction(guarded_signals[i], &previous_actions[i], NULL);
}
