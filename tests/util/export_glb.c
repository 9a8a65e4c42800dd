/* export_glb.c — see export_glb.h. */
#include "export_glb.h"
#include "testutil.h"

#include <cjson/cJSON.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

bool export_glb(const char *fbx_path, const char *extra, char *out_path, size_t out_size, double to_fbx[16],
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
        unlink(out_path);
        return false;
    }
    return true;
}
