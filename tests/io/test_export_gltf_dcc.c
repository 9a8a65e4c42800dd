/* test_export_gltf_dcc — --export-gltf against the authoring tools: every row and variant of
 * ../shared/models/ufbx-dcc (skipped without it), as io_fbx_dcc checks skinview's own pose of the FBX, but
 * the FBX is first exported:
 *   skinview FILE [row flags] --export-gltf OUT.glb --quiet
 * and the GLB is posed by skinview's glTF reader at the manifest moment (its clip found by the row's stack
 * name; the export starts every clip at 0, so --time is the same time from the clip's start):
 *   skinview OUT.glb --clip C --time T --export-pose POSE.obj
 * the GLB's points are taken back to the FBX's axes and unit through the inverse of its root node
 * "skinview_axes_and_unit" (the export's one conversion, read from the file), then compared with the tool's
 * OBJ by io_fbx_dcc's rule (dcc_common.c: symmetric Hausdorff distance over
 * the reference's diagonal <= 1e-3).
 *
 * The Maya files whose mesh the tool skins by dual quaternions, alone or blended per vertex (FBX SkinningType
 * DualQuaternion / Blend), are no open rows: glTF has only linear blend skinning, and the export adds corrective
 * morph targets (gltf_write_dq.c) so that the GLB's LBS is skinview's DQ pose at every key; the manifest's moments
 * are keys (frames 10 and 18, the rest pose). (max_transformed_skin is SkinningType Blend too, but
 * its blend weights are 0: linear blend skinning is what 3ds Max shows, and the row matches.) */
#include "dcc_common.h"
#include "export_glb.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* SKINVIEW_DCC_CONVERTER="COMMAND" (e.g. FBX2glTF -b --input %1$s --output %2$s): that converter instead,
 * report only, with unit and axis differences forgiven (the comparison in docs/export.md); %1$s is the FBX,
 * %2$s the output path without ".glb". */
static const char *converter;

static bool export_other(const char *fbx_path, const char *extra, char *out_path, size_t out_size, double to_fbx[16],
                         char *error, size_t error_size)
{
    (void)extra, (void)to_fbx;
    char stem[256], command[8192], output[8192];
    snprintf(stem, sizeof stem, "/tmp/skinview_export_dcc_other_%d", (int)getpid());
    snprintf(out_path, out_size, "%s.glb", stem);
    char quoted_in[2100], quoted_out[300];
    snprintf(quoted_in, sizeof quoted_in, "'%s'", fbx_path);
    snprintf(quoted_out, sizeof quoted_out, "'%s'", stem);
    int n = snprintf(command, sizeof command, converter, quoted_in, quoted_out);
    snprintf(command + n, sizeof command - (size_t)n, " >/dev/null 2>&1");
    int rc = test_run_capture(command, output, sizeof output);
    if (rc != 0 || access(out_path, R_OK) != 0) {
        snprintf(error, error_size, "the converter failed (exit %d)", rc);
        unlink(out_path);
        return false;
    }
    return true;
}

int main(void)
{
    converter = getenv("SKINVIEW_DCC_CONVERTER");
    if (converter && converter[0]) {
        printf("converter: %s (report only, unit and axes forgiven)\n", converter);
        DccRun other = {.convert = export_other, .forgive_axes = true, .report_only = true};
        return dcc_run_manifest(&other);
    }
    DccRun run = {.convert = export_glb, .forgive_axes = getenv("SKINVIEW_DCC_FORGIVE") != NULL};
    return dcc_run_manifest(&run);
}
