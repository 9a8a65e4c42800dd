/* test_fbx_dcc — skinview's pose of an FBX against the authoring tool's own OBJ export of it.
 *
 * ../shared/models/ufbx-dcc/manifest.tsv (skipped without it) pairs FBX files (one to four
 * format/version variants) with an OBJ that Maya, 3ds Max, Blender, MotionBuilder or the FBX SDK
 * exported at a stated moment. For every row and every variant this test runs the real binary:
 *   skinview FILE --clip C --time T --export-pose OUT.obj
 * where C is the stack the row names (empty: the first clip; "rest": --clip rest) and
 *   T = time_s - clip start      (time_s is absolute FBX time, --time counts from the clip's
 *                                 start: trap 15 of DESIGN.md; the start comes from --info --json)
 * and compares the posed vertices with the OBJ's as point sets (the OBJ splits vertices by
 * normal/UV, so order and count differ): the symmetric Hausdorff distance, over the bounding-box
 * diagonal of the reference, must be <= 1e-3. The notes' exclude_objects=NAME drops that object
 * from both sides (a mesh the tool drives by a geometry cache); ufbx_eval=no_extrapolation (a
 * reference posed with every curve holding its end keys, where the same file has other rows
 * with its extrapolation) adds --no-extrapolation to both commands.
 *
 * The distance: every point of one set against its nearest of the other, found in a uniform grid
 * over the other set searched in growing shells of cells (a shell r cells out holds no point
 * nearer than (r - 1) cell sizes, so the search stops once the best is nearer than that).
 *
 * Rows still open (a feature not built yet) are listed in open_rows[] with the reason: they are
 * printed, with their error, and do not fail the test; every other row must match. A variant that
 * does not load fails, except a legacy one (FBX < 7.1, which Assimp refuses) while skinview has no
 * builder of its own for those: it is reported as skipped, with the reason.
 * Prints one line per (row, variant): the table docs/accuracy.md quotes. */
#include "dcc_common.h"

static const OpenRow open_rows[] = {
    {NULL, NULL, NULL},
};

int main(void)
{
    DccRun run = {.open_rows = open_rows, .convert = NULL};
    return dcc_run_manifest(&run);
}
