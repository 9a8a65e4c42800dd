/* alloc.h — the zeroed allocation of src/anim's set-up code (private to src/anim): every buffer
 * of a part is asked for in a row, and one test at the end says whether all of them came. */
#ifndef SKINVIEW_ANIM_ALLOC_H
#define SKINVIEW_ANIM_ALLOC_H

#include <stdbool.h>
#include <stdlib.h>

/* calloc of `count` elements (at least one, so that an empty model still gets valid pointers);
 * clears *ok when out of memory. */
static inline void *anim_zeroed(size_t count, size_t size, bool *ok)
{
    void *p = calloc(count > 0 ? count : 1, size);
    if (!p) *ok = false;
    return p;
}

/* free() of each of `count` pointers (a part's buffers listed in a table). */
static inline void anim_free_each(void *const *pointers, size_t count)
{
    for (size_t i = 0; i < count; i++) free(pointers[i]);
}

#endif
