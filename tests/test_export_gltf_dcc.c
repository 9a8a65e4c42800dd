/* test_export_gltf_dcc — --export-gltf against the authoring tools: every row and variant of
 * ../shared/models/ufbx-dcc (skipped without it), as io_fbx_dcc checks skinview's own pose of the FBX, but
 * the FBX is first exported:
 *   skinview FILE [row flags] --export-gltf OUT.glb --quiet
 * and the GLB is posed by skinview's glTF reader at the manifest moment (its clip found by the row's stack
 * name; the export starts every clip at 0, so --time is the same time from the clip's start):
 *   skinview OUT.glb --clip C --time T --export-pose POSE.obj
 * then compared with the tool's OBJ by io_fbx_dcc's rule (dcc_common.c: symmetric Hausdorff distance over
 * the reference's diagonal <= 1e-3).
 *
 * Open rows (printed with their error, not failing): the Maya files whose mesh the tool skins by dual
 * quaternions, alone or blended per vertex (FBX SkinningType DualQuaternion / Blend): glTF has only linear
 * blend skinning, and the export says so in one line. (max_transformed_skin is SkinningType Blend too, but
 * its blend weights are 0: linear blend skinning is what 3ds Max shows, and the row matches.) */
#include "dcc_common.h"
#include "testutil.h"

#include <stdio.h>
#include <unistd.h>

static const OpenRow open_rows[] = {
    {"maya_dq_weights", NULL, "Maya dual quaternion / blend skinning: glTF has only linear blend skinning"},
    {"maya_dual_quaternion", NULL, "Maya dual quaternion skinning: glTF has only linear blend skinning"},
    {NULL, NULL, NULL},
};

static bool export_glb(const char *fbx_path, const char *extra, char *out_path, size_t out_size, char *error,
                       size_t error_size)
{
    snprintf(out_path, out_size, "/tmp/skinview_export_dcc_%d.glb", (int)getpid());
    char command[4096], output[4096];
    snprintf(command, sizeof command, "'%s' '%s' %s --export-gltf '%s' --quiet 2>&1", SKINVIEW_BINARY, fbx_path, extra,
             out_path);
    int rc = test_run_capture(command, output, sizeof output);
    if (rc != 0) {
        snprintf(error, error_size, "--export-gltf exit %d: %.300s", rc, output);
        unlink(out_path);
        return false;
    }
    return true;
}

int main(void)
{
    DccRun run = {.open_rows = open_rows, .convert = export_glb};
    return dcc_run_manifest(&run);
}
