/* test_weights_start.c — the weights view (W, --show-weights without a joint) starts on the joint
 * with the most weighted vertices (scene_most_weighted_joint), not on the skeleton's root, which
 * on most rigs carries no weight and shows the whole character in one flat colour. Checked
 * against a count made here on the demo and on the shared models that are present: the chosen
 * joint has the largest count, and it is weighted. */
#include "teach/teaching_aids.h"
#include "io/import.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(const char *path)
{
    ImportOptions options = {0};
    Model model = {0};
    char error[512];
    if (!import_model(path, &options, &model, error, sizeof error)) {
        CHECK(false, "%s: %s", path, error);
        return;
    }
    int joints = model.skeleton.joint_count;
    int *count = calloc((size_t)(joints > 0 ? joints : 1), sizeof *count);
    for (int m = 0; count && m < model.mesh_count; m++) {   /* vertices with a weight > 0 on each joint */
        const Mesh *mesh = &model.meshes[m];
        if (!mesh->skinned) continue;
        for (int v = 0; v < mesh->vertex_count; v++)
            for (int i = 0; i < SV_MAX_INFLUENCES; i++)
                if (mesh->weights[v][i] > 0.0f) count[mesh->bone_joint[mesh->joint_indices[v][i]]]++;
    }
    int most = 0;
    for (int j = 0; j < joints; j++)
        if (count[j] > most) most = count[j];
    TeachingAids scene;
    memset(&scene, 0, sizeof scene);
    scene.model = &model;
    scene.selected_joint = -1;
    int chosen = scene_most_weighted_joint(&scene);
    printf("%-70s root %-20.20s %5d weighted vertices; W starts on %-20.20s %5d (most %d)\n", path,
           model.skeleton.names[0], count[0], chosen >= 0 ? model.skeleton.names[chosen] : "-",
           chosen >= 0 ? count[chosen] : 0, most);
    CHECK(chosen >= 0 && count[chosen] == most && most > 0, "%s: W starts on a joint with the most weighted vertices "
          "(%d of %d)", path, chosen >= 0 ? count[chosen] : -1, most);
    free(count);
    model_free(&model);
}

int main(void)
{
    char demo[1024];
    snprintf(demo, sizeof demo, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    check(demo);
    TestModel models[64];
    int n = test_present_skinned_models(models, 64);
    for (int i = 0; i < n && i < 6; i++) check(models[i].path);
    return test_finish();
}
