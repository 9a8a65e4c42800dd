/* dcc_common.h — the ufbx-dcc check (../shared/models/ufbx-dcc/manifest.tsv: FBX variants against the
 * authoring tool's OBJ at a stated moment), shared by io_fbx_dcc and io_export_gltf_dcc (dcc_common.c). */
#ifndef SKINVIEW_DCC_COMMON_H
#define SKINVIEW_DCC_COMMON_H

#include <stdbool.h>
#include <stddef.h>

/* Rows not expected to match yet: case (GROUP:OBJNAME) prefix and why. */
typedef struct OpenRow {
    const char *case_prefix;
    const char *variant;   /* the one FBX file it concerns, or NULL: every variant */
    const char *reason;
} OpenRow;

typedef struct DccRun {
    const OpenRow *open_rows;   /* ends with a NULL case_prefix; may be NULL */
    /* NULL: skinview poses each FBX; else the FBX is converted first (extra: the row's import flags for
     * skinview) into out_path, which is posed instead (false with a one-line cause in error); the posed
     * points are mapped back to the FBX's space by to_fbx (column-major 4x4, identity when left alone) */
    bool (*convert)(const char *fbx_path, const char *extra, char *out_path, size_t out_size, double to_fbx[16],
                    char *error, size_t error_size);
    /* NULL: skinview --export-pose poses the (converted) file; else another reader poses `path` at clip index
     * `clip` (-1: the rest pose, the file's node transforms) and `time` (seconds from the clip's start) into
     * out_path (".xyz": "x y z" lines, a '# mesh "NAME" ...' line before each mesh's points, as the oracle's
     * pose.mjs writes them); false with a one-line cause in error */
    bool (*pose)(const char *path, int clip, double time, const char *out_path, char *error, size_t error_size);
    bool forgive_axes;          /* also try the posed points turned by every signed axis permutation and scaled
                                   to the reference's size (unit and axis differences forgiven): the best */
    bool report_only;           /* every row open: print the table, fail nothing (another converter) */
} DccRun;

/* Every row and variant of the manifest, one line each; the test's exit code (TEST_SKIP_CODE without
 * ../shared). */
int dcc_run_manifest(const DccRun *run);

#endif
