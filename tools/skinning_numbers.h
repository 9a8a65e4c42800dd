/* skinning_numbers.h — the worked examples of docs/skinning.md (a two-bone arm, one demo vertex) as
 * text, computed by src/anim and `skinview --inspect-vertex --json` (tools/skinning_numbers.c). Shared by the tool and tests/docs/test_doc_numbers.c. */
#ifndef SKINVIEW_SKINNING_NUMBERS_H
#define SKINVIEW_SKINNING_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>

#define SKINNING_NUMBERS_BLOCK_COUNT 6
#define SKINNING_NUMBERS_MAX_BLOCK (1 << 14)

/* The demo model the doc follows one vertex of (the build passes the source tree's). */
#ifndef SKINNING_NUMBERS_DEMO
#define SKINNING_NUMBERS_DEMO "assets/demo.fbx"
#endif

/* The lesson's arm as a file (tools/make_arm_model.c writes it): the arm blocks are checked against
 * `skinview ARM --inspect-vertex ...`. */
#ifndef SKINNING_NUMBERS_ARM
#define SKINNING_NUMBERS_ARM "assets/arm.gltf"
#endif

/* The skinview binary whose --inspect-vertex --json gives the demo vertex's numbers. */
#ifndef SKINNING_NUMBERS_SKINVIEW
#define SKINNING_NUMBERS_SKINVIEW "skinview"
#endif

/* The block names, in the order the doc shows them. */
extern const char *const SKINNING_NUMBERS_BLOCKS[SKINNING_NUMBERS_BLOCK_COUNT];

/* The Markdown of block `name` (a fenced text block, ending in a newline) into out.
 * False for an unknown name or when out is too small. */
bool skinning_numbers_block(const char *name, char *out, size_t size);

/* docs/images/offset_matrix.svg, to scale, into out. False when out is too small. */
bool skinning_numbers_svg(char *out, size_t size);

#endif
