/* skinning_numbers.h — the worked example of docs/skinning.md (a two-bone arm) as text, computed by
 * src/anim (tools/skinning_numbers.c). Shared by the tool and tests/test_doc_numbers.c. */
#ifndef SKINVIEW_SKINNING_NUMBERS_H
#define SKINVIEW_SKINNING_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>

#define SKINNING_NUMBERS_BLOCK_COUNT 5
#define SKINNING_NUMBERS_MAX_BLOCK (1 << 14)

/* The demo model the doc follows one vertex of (the build passes the source tree's). */
#ifndef SKINNING_NUMBERS_DEMO
#define SKINNING_NUMBERS_DEMO "assets/demo.fbx"
#endif

/* The block names, in the order the doc shows them. */
extern const char *const SKINNING_NUMBERS_BLOCKS[SKINNING_NUMBERS_BLOCK_COUNT];

/* The Markdown of block `name` (a fenced text block, ending in a newline) into out.
 * False for an unknown name or when out is too small. */
bool skinning_numbers_block(const char *name, char *out, size_t size);

/* docs/images/offset_matrix.svg, to scale, into out. False when out is too small. */
bool skinning_numbers_svg(char *out, size_t size);

#endif
