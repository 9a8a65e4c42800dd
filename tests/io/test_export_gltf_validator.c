/* test_export_gltf_validator — the Khronos glTF-Validator on skinview's exports: 0 errors, 0 warnings.
 *
 * Skipped cleanly without node or without the validator (npm install --prefix tools/web installs it from
 * tools/web/package.json; tools/web/validate_gltf.js runs it). The exports: every FBX of
 * ../shared/models/ufbx-dcc and every model of io_export_gltf_roundtrip's shared list as GLB, a few also as
 * meshopt-compressed GLB and as .gltf (+ .bin + PNG images), two with --max-influences 8 (JOINTS_1 / WEIGHTS_1),
 * dual quaternion skins with corrective morph targets (sparse accessors: maya_dq_weights also meshopt-compressed
 * and as .gltf; --skinning dq on cesium_man, SimpleSkin and Male_Casual with 8 influences), and some
 * assimp-testmodels. One node process
 * validates them all; one line per file. */
#include "testutil.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];
static char files[16384];
static size_t files_length;
static int exported;

static void export(const char *model, const char *name, const char *extra)
{
    char out[512], command[4096], output[4096];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' %s --quiet 2>&1", SKINVIEW_BINARY, model, out, extra);
    int rc = test_run_capture(command, output, sizeof output);
    CHECK(rc == 0, "%s: --export-gltf exit %d: %s", name, rc, output);
    if (rc == 0 && files_length + strlen(out) + 4 < sizeof files) {
        files_length += (size_t)snprintf(files + files_length, sizeof files - files_length, " '%s'", out);
        exported++;
    }
}

int main(void)
{
    char validator[2048], script[2048];
    snprintf(validator, sizeof validator, "%s/tools/web/node_modules/gltf-validator", SKINVIEW_SOURCE_DIR);
    snprintf(script, sizeof script, "%s/tools/web/validate_gltf.js", SKINVIEW_SOURCE_DIR);
    char output[1 << 12];
    if (test_run_capture("node --version 2>&1", output, sizeof output) != 0) {
        printf("skipped: node is not installed\n");
        return TEST_SKIP_CODE;
    }
    const char *prefix = getenv("SKINVIEW_NPM_PREFIX");   /* scripts/test.sh: the validator alone in build-npm/ */
    if (access(validator, R_OK) != 0 && prefix && prefix[0])
        snprintf(validator, sizeof validator, "%s/node_modules/gltf-validator", prefix);
    if (access(validator, R_OK) != 0) {
        printf("skipped: gltf-validator is not installed (npm install --prefix tools/web)\n");
        return TEST_SKIP_CODE;
    }
    snprintf(dir, sizeof dir, "/tmp/skinview_export_validator_%d", (int)getpid());
    mkdir(dir, 0700);
    char path[2048], name[512];
    /* every ufbx-dcc FBX */
    char dcc[1200];
    snprintf(dcc, sizeof dcc, "%s/ufbx-dcc", SKINVIEW_SHARED_MODELS_DIR);
    DIR *d = opendir(dcc);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".fbx") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dcc, e->d_name);
        /* a legacy FBX Assimp refuses cannot be exported: skip what does not load */
        char command[4096];
        snprintf(command, sizeof command, "'%s' '%s' --info >/dev/null 2>&1", SKINVIEW_BINARY, path);
        if (test_run_capture(command, output, sizeof output) != 0) continue;
        snprintf(name, sizeof name, "%.*s.glb", (int)(n - 4), e->d_name);
        export(path, name, "");
        if (strncmp(e->d_name, "maya_dq_weights_7500_binary", 27) == 0) {
            /* dual quaternion / blended: corrective morph targets (sparse accessors), meshopt-compressed and as .gltf */
            snprintf(name, sizeof name, "%.*s_meshopt.glb", (int)(n - 4), e->d_name);
            export(path, name, "--compress meshopt");
            snprintf(name, sizeof name, "%.*s.gltf", (int)(n - 4), e->d_name);
            export(path, name, "--fps 60");
        }
    }
    if (d) closedir(d);
    static const char *const shared[] = {
        "khronos-cesiumman/cesium_man.gltf", "khronos-fox/Fox.glb", "khronos-animatedmorphcube/AnimatedMorphCube.glb",
        "khronos-simplemorph/SimpleMorph.gltf", "khronos-simpleskin/SimpleSkin.gltf", "khronos-riggedfigure/RiggedFigure.glb",
        "gltf-asset-generator/Animation_SamplerType_01.gltf", "gltf-asset-generator/Animation_SkinType_01.gltf",
        "gltf-asset-generator/Animation_Skin_11.gltf", "threejs-xbot/Xbot.glb", "threejs-mixamo-fbx/mixamo.fbx",
        "quaternius-male-casual/Male_Casual.fbx", "quaternius-wizard/Wizard.glb"};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_SHARED_MODELS_DIR, shared[i]);
        if (access(path, R_OK) != 0) continue;
        snprintf(name, sizeof name, "shared_%zu.glb", i);
        export(path, name, "");
        if (i == 11) {   /* Male_Casual: 40 vertices with more than four influences, JOINTS_1 / WEIGHTS_1 */
            snprintf(name, sizeof name, "shared_%zu_8.glb", i);
            export(path, name, "--max-influences 8");
            snprintf(name, sizeof name, "shared_%zu_8_dq.glb", i);   /* with DQ corrections over 8 influences */
            export(path, name, "--max-influences 8 --skinning dq");
        }
        if (i == 0 || i == 4) {   /* --skinning dq on an LBS file: corrective targets beside none of the file's */
            snprintf(name, sizeof name, "shared_%zu_dq.glb", i);
            export(path, name, "--skinning dq");
        }
        if (i < 3 || i == 12) {   /* meshopt and .gltf of a few (Wizard: textures) */
            snprintf(name, sizeof name, "shared_%zu_meshopt.glb", i);
            export(path, name, "--compress meshopt");
            snprintf(name, sizeof name, "shared_%zu.gltf", i);
            export(path, name, "");
        }
    }
    static const char *const assimp[] = {"X/anim_test.x", "X/BCN_Epileptic.X", "BVH/01_01.bvh",
                                         "Collada/box_nested_animation.dae", "MS3D/jeep1.ms3d",
                                         "Collada/kwxport_test_vcolors.dae", "SMD/triangle.smd"};
    for (size_t i = 0; i < sizeof assimp / sizeof assimp[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_TESTMODELS_DIR, assimp[i]);
        if (access(path, R_OK) != 0) continue;
        snprintf(name, sizeof name, "assimp_%zu.glb", i);
        export(path, name, "");
    }
    snprintf(path, sizeof path, "%s/FBX/animation_with_skeleton.fbx", SKINVIEW_TESTMODELS_DIR);
    if (access(path, R_OK) == 0) export(path, "assimp_8.glb", "--max-influences 8");   /* 1 515 vertices with > 4 */
    snprintf(path, sizeof path, "%s/tests/data/export/interpolation.gltf", SKINVIEW_SOURCE_DIR);
    export(path, "interpolation.glb", "");
    export(path, "interpolation_fps.glb", "--fps 7");
    CHECK(exported > 0, "nothing exported");
    size_t command_size = files_length + 4096;
    char *command = malloc(command_size);
    static char report[1 << 20];
    snprintf(command, command_size, "node '%s'%s 2>&1", script, files);
    int rc = test_run_capture(command, report, sizeof report);
    free(command);
    CHECK(rc == 0, "validate_gltf.js exit %d", rc);
    int validated = 0;
    for (char *line = strtok(report, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *json = cJSON_Parse(line);
        if (!json) {
            printf("  %s\n", line);
            continue;
        }
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(json, "file"));
        int errors = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(json, "errors"));
        int warnings = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(json, "warnings"));
        const char *slash = file ? strrchr(file, '/') : NULL;
        printf("  %-60s %d errors, %d warnings\n", slash ? slash + 1 : file, errors, warnings);
        const cJSON *message;
        cJSON_ArrayForEach(message, cJSON_GetObjectItem(json, "messages")) printf("      %s\n", message->valuestring);
        CHECK(errors == 0 && warnings == 0, "%s: %d errors, %d warnings", file, errors, warnings);
        validated++;
        cJSON_Delete(json);
    }
    printf("validated %d of %d exports\n", validated, exported);
    CHECK(validated == exported, "validated %d of %d exports", validated, exported);
    test_remove_folder(dir);
    return test_finish();
}
