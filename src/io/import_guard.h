/* import_guard.h — the crash guard: what keeps one bad file from crashing or hanging the program
 * that imports it (import_guard.c; docs/robustness.md tells the layers).
 *   - the import runs on a thread with a 1 GiB stack and an alternate signal stack (deep node
 *     trees make Assimp recurse once per level);
 *   - while Assimp reads, the address space may grow by a budget only (a corrupt count would
 *     otherwise reach the OOM killer);
 *   - with ImportOptions.guard (the programs set it; tests of the import itself do not), a fatal
 *     signal or the watchdog's alarm prints one line "skinview: FILE: ..." and exits 1, and what
 *     the importer prints on stderr meanwhile is dropped (skinview's own lines are kept); under a
 *     sanitizer, its death callback (an error it reports inside the import) prints the same line.
 * The files' own pre-checks (formats that take Assimp out of bounds) are stage 1's
 * (import_assimp.c). */
#ifndef SKINVIEW_IMPORT_GUARD_H
#define SKINVIEW_IMPORT_GUARD_H

#include <stdbool.h>

/* The file descriptor of the real stderr, for signal handlers: while a guarded import runs, fd 2
 * is a temporary capture (so a crash inside Assimp stays one line). Async-signal-safe. */
int import_guard_error_fd(void);

/* ---- for the import (src/io) ---- */

/* The signal guard and watchdog around one import of `name` (a path, or "(memory).HINT"); the
 * watchdog's time grows with `file_size` (20 s + 1 s per MiB; SKINVIEW_IMPORT_TIMEOUT seconds,
 * 0 = none). import_guard_end() restores stderr and the previous handlers. */
void import_guard_begin(const char *name, unsigned long long file_size);
void import_guard_end(void);

/* The memory budget while Assimp reads a file of `file_size` bytes (import_guard.c tells it). */
typedef struct ImportMemoryLimit {
    bool               set;
    unsigned long long previous_soft, previous_hard;
    unsigned long long budget;   /* bytes; 0 = none */
} ImportMemoryLimit;
ImportMemoryLimit import_memory_limit_begin(unsigned long long file_size);
void import_memory_limit_end(const ImportMemoryLimit *limit);

/* Calls run(argument) on a thread with a 1 GiB stack (reserved, not committed) and an
 * alternate signal stack; returns when it is done. Falls back to the calling thread. */
void import_run_on_big_stack(void (*run)(void *), void *argument);

#endif
