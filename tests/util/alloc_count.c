/* alloc_count.c — counts every malloc / calloc / realloc into test_allocations (testutil.h), so a
 * test can show that a path allocates nothing. Linked only into the programs that skinview_test()
 * builds with WRAP_MALLOC (tests/CMakeLists.txt): -Wl,--wrap=malloc sends the program's calls
 * here, and __real_malloc is the C library's. */
#include "testutil.h"

#include <stddef.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

void *__wrap_malloc(size_t size) { test_allocations++; return __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { test_allocations++; return __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { test_allocations++; return __real_realloc(p, size); }
