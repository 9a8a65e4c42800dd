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
 * Open rows (printed with their error, not failing): the Maya files whose mesh the tool skins by dual
 * quaternions, alone or blended per vertex (FBX SkinningType DualQuaternion / Blend): glTF has only linear
 * blend skinning, and the export says so in one line. (max_transformed_skin is SkinningType Blend too, but
 * its blend weights are 0: linear blend skinning is what 3ds Max shows, and the row matches.) */
#include "dcc_common.h"
#include "testutil.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const OpenRow open_rows[] = {
    {"maya_dq_weights", NULL, "Maya dual quaternion / blend skinning: glTF has only linear blend skinning"},
    {"maya_dual_quaternion", NULL, "Maya dual quaternion skinning: glTF has only linear blend skinning"},
    {NULL, NULL, NULL},
};

/* The inverse of the GLB's "skinview_axes_and_unit" node (rotation q, scale s): p_fbx = S^-1 R^T p; false when
 * the GLB cannot be read. Left alone (identity) when it has no such node. */
static bool read_axes(const char *path, double to_fbx[16])
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t header[20];
    bool ok = fread(header, 1, 20, f) == 20 && memcmp(header, "glTF", 4) == 0;
    uint32_t length = ok ? (uint32_t)header[12] | (uint32_t)header[13] << 8 | (uint32_t)header[14] << 16 |
                               (uint32_t)header[15] << 24
                         : 0;
    char *json = ok ? malloc((size_t)length + 1) : NULL;
    ok = json && fread(json, 1, length, f) == length;
    fclose(f);
    cJSON *root = ok ? (json[length] = '\0', cJSON_Parse(json)) : NULL;
    free(json);
    if (!root) return false;
    const cJSON *node = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "nodes"), 0);
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(node, "name"));
    if (name && strcmp(name, "skinview_axes_and_unit") == 0) {
        double q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        const cJSON *r = cJSON_GetObjectItem(node, "rotation"), *k = cJSON_GetObjectItem(node, "scale");
        for (int i = 0; i < 4 && r; i++) q[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(r, i));
        for (int i = 0; i < 3 && k; i++) s[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(k, i));
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double rot[3][3] = {/* rot[column][row] */
                            {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)},
                            {2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)},
                            {2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)}};
        /* (R S)^-1 = S^-1 R^T: element (row i, column j) = rot[i][j] / s[i] */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) to_fbx[4 * j + i] = rot[i][j] / s[i];
    }
    cJSON_Delete(root);
    return true;
}

static bool export_glb(const char *fbx_path, const char *extra, char *out_path, size_t out_size, double to_fbx[16],
                       char *error, size_t error_size)
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
    if (!read_axes(out_path, to_fbx)) {
        snprintf(error, error_size, "the GLB's JSON cannot be read");
        return false;
    }
    return true;
}

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
    DccRun run = {.open_rows = open_rows, .convert = export_glb, .forgive_axes = getenv("SKINVIEW_DCC_FORGIVE") != NULL};
    return dcc_run_manifest(&run);
}
