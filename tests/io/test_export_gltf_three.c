/* test_export_gltf_three — skinview's GLBs read by another glTF reader: three.js (r187, its GLTFLoader and CPU
 * skinning, through the oracle's pose.mjs: ../shared/tools/oracle). Every row and variant of
 * ../shared/models/ufbx-dcc is exported as io_export_gltf_dcc does (export_glb.c), then posed by three.js at the
 * manifest moment (the clip by the index skinview's reader gives it, the time from the clip's start, which is
 * file time in the GLB: every clip starts at 0) and compared with the authoring tool's OBJ by io_fbx_dcc's rule
 * (dcc_common.c: symmetric Hausdorff distance over the reference's diagonal <= 1e-3; exclude_objects= by the
 * three.js mesh names, which are the GLB's node names). A second, independent reader: what the file says, not
 * what skinview's reader makes of it.
 *
 * Skipped cleanly (77) without node, without ../shared, or without a copy of the oracle with three.js installed:
 * $SKINVIEW_ORACLE_DIR, else ../shared/tools/oracle when it has node_modules, else /tmp/oracle (the oracle
 * README's setup: cp -r ../shared/tools/oracle /tmp/oracle && cd /tmp/oracle && npm ci), else
 * /tmp/skinview-dcc-tools/oracle (tools/dcc_converters.sh's copy).
 *
 * No open rows: the Maya files skinned by dual quaternions (or blended) are read by three.js as LBS plus the
 * export's corrective morph targets (gltf_write_dq.c), which three.js applies before skinning as glTF says. */
#include "dcc_common.h"
#include "export_glb.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char oracle[2048];

/* node pose.mjs GLB (--clip N --time T | --bind) --out OUT */
static bool three_pose(const char *path, int clip, double time, const char *out_path, char *error, size_t error_size)
{
    char command[8192], moment[128];
    if (clip < 0) snprintf(moment, sizeof moment, "--bind");
    else snprintf(moment, sizeof moment, "--clip %d --time %.9g", clip, time);
    snprintf(command, sizeof command, "node '%s/pose.mjs' '%s' %s --out '%s' 2>&1", oracle, path, moment, out_path);
    int rc = test_run_capture(command, error, error_size);
    if (rc == 0) return true;
    size_t n = strlen(error);
    while (n > 0 && (error[n - 1] == '\n' || error[n - 1] == '\r')) error[--n] = '\0';
    return false;
}

static bool oracle_at(const char *dir)
{
    char three[2300], pose[2300];
    snprintf(three, sizeof three, "%s/node_modules/three/package.json", dir);
    snprintf(pose, sizeof pose, "%s/pose.mjs", dir);
    if (access(three, R_OK) != 0 || access(pose, R_OK) != 0) return false;
    snprintf(oracle, sizeof oracle, "%s", dir);
    return true;
}

int main(void)
{
    char output[256];
    if (test_run_capture("node --version 2>&1", output, sizeof output) != 0) {
        printf("skipped: node is not installed\n");
        return TEST_SKIP_CODE;
    }
    const char *given = getenv("SKINVIEW_ORACLE_DIR");
    char shared[1200];
    snprintf(shared, sizeof shared, "%s/../tools/oracle", SKINVIEW_SHARED_MODELS_DIR);
    if (!(given && given[0] && oracle_at(given)) && !oracle_at(shared) && !oracle_at("/tmp/oracle") &&
        !oracle_at("/tmp/skinview-dcc-tools/oracle")) {
        printf("skipped: no copy of ../shared/tools/oracle with three.js installed (SKINVIEW_ORACLE_DIR, /tmp/oracle: "
               "see the oracle's README)\n");
        return TEST_SKIP_CODE;
    }
    printf("three.js: %s/pose.mjs\n", oracle);
    DccRun run = {.convert = export_glb, .pose = three_pose};
    return dcc_run_manifest(&run);
}
