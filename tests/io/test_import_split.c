/* test_import_split — DESIGN trap 5 bookkeeping, on every test model:
 *   - stats.vertices_influences_cut = vertices with more than 4 non-zero weights, counted
 *     straight from Assimp without LimitBoneWeights (Male_Casual.fbx: 40, SOURCES.md);
 *   - after the import no vertex uses more than 4 influences (by construction of the layout)
 *     and their sum is 1;
 *   - with a bones-per-mesh limit, stats.meshes_split_by_bones counts the extra meshes, the
 *     triangle count is unchanged and every mesh fits the limit.
 * (The skinned result under the split is compared with Assimp in test_import_reference.) */
#include "assimp_reference.h"
#include "io/import.h"
#include "testutil.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include <stdlib.h>
#include <string.h>

static int raw_influences_over_4(const char *path)
{
    const struct aiScene *scene = assimp_reference_import(path, false, 0);
    if (!scene) return -1;
    int over = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        int *count = calloc(mesh->mNumVertices + 1, sizeof *count);
        for (unsigned b = 0; b < mesh->mNumBones; b++)
            for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; w++)
                if (mesh->mBones[b]->mWeights[w].mWeight > 0.0f) count[mesh->mBones[b]->mWeights[w].mVertexId]++;
        for (unsigned v = 0; v < mesh->mNumVertices; v++)
            if (count[v] > 4) over++;
        free(count);
    }
    aiReleaseImport(scene);
    return over;
}

static int triangles(const Model *model)
{
    int n = 0;
    for (int m = 0; m < model->mesh_count; m++) n += model->meshes[m].index_count / 3;
    return n;
}

static void check_model(const char *path)
{
    Model whole, split;
    char error[512];
    ImportOptions no_limit = {0}, limit = {.max_bones_per_mesh = 12};
    bool ok = import_model(path, &no_limit, &whole, error, sizeof error);
    CHECK(ok, "%s: import failed: %s", path, error);
    if (!ok) return;
    int raw = raw_influences_over_4(path);
    CHECK(whole.stats.vertices_influences_cut == raw, "%s: vertices_influences_cut %d, Assimp raw %d", path,
          whole.stats.vertices_influences_cut, raw);
    CHECK(whole.stats.meshes_split_by_bones == 0, "%s: split without a limit", path);
    if (strstr(path, "Male_Casual.fbx"))
        CHECK(whole.stats.vertices_influences_cut == 40, "%s: %d vertices over 4 influences, SOURCES.md says 40", path,
              whole.stats.vertices_influences_cut);

    ok = import_model(path, &limit, &split, error, sizeof error);
    CHECK(ok, "%s: import with a 12-bone limit failed: %s", path, error);
    if (ok) {
        int max_bones = 0;
        for (int m = 0; m < whole.mesh_count; m++)
            if (whole.meshes[m].bone_count > max_bones) max_bones = whole.meshes[m].bone_count;
        CHECK(triangles(&split) == triangles(&whole), "%s: %d triangles after the split, %d before", path,
              triangles(&split), triangles(&whole));
        CHECK(split.mesh_count >= whole.mesh_count && split.stats.meshes_split_by_bones >= 0,
              "%s: %d meshes after the split, %d before", path, split.mesh_count, whole.mesh_count);
        if (max_bones > 12)
            CHECK(split.stats.meshes_split_by_bones > 0, "%s: a mesh with %d bones was not split", path, max_bones);
        for (int m = 0; m < split.mesh_count; m++)
            CHECK(split.meshes[m].bone_count <= 12,
                  "%s: mesh %d has %d bones after a 12-bone split", path, m, split.meshes[m].bone_count);
        printf("%-70s cut %d, renormalized %d, unweighted %d; 12-bone split: %d -> %d meshes (+%d)\n", path,
               whole.stats.vertices_influences_cut, whole.stats.vertices_renormalized, whole.stats.vertices_unweighted,
               whole.mesh_count, split.mesh_count, split.stats.meshes_split_by_bones);
        model_free(&split);
    }
    model_free(&whole);
}

int main(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    for (int i = 0; i < count; i++)
        if (!test_fbx_is_legacy(models[i].path)) check_model(models[i].path);   /* legacy FBX: Assimp never splits it */
    return test_finish();
}
