/* test_import_bindpose — every skinned test model, at bind pose:
 * each bone's joint model matrix = inverse(inverse_bind), palette via skin_palette(),
 * CPU skinning with skin_vertices_lbs() gives back the mesh positions (within 1e-5 of
 * the mesh's bounding-box diagonal). Also: weights sum to 1, indices < bone_count. */
#include "anim/anim.h"
#include "io/import.h"
#include "testutil.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdlib.h>

/* Does Assimp (no post-processing) see any bone in the file? Morph-only models
 * (AnimatedMorphCube, SimpleMorph) have none, so no skinned mesh is expected there.
 * Files Assimp cannot open without the importer's IO are assumed skinned. */
static bool file_has_bones(const char *path)
{
    const struct aiScene *scene = aiImportFile(path, 0);
    if (!scene) return true;
    bool bones = false;
    for (unsigned m = 0; m < scene->mNumMeshes; m++)
        if (scene->mMeshes[m]->mNumBones > 0) bones = true;
    aiReleaseImport(scene);
    return bones;
}

static float bbox_diagonal(const vec3 *p, int count)
{
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < count; v++) {
        glm_vec3_minv(lo, (float *)p[v], lo);
        glm_vec3_maxv(hi, (float *)p[v], hi);
    }
    return count > 0 ? glm_vec3_distance(lo, hi) : 0.0f;
}

static void check_model(const char *path, float *worst_relative)
{
    Model model;
    char error[512];
    ImportOptions options = {0};
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(ok, "%s: import failed: %s", path, error);
    if (!ok) return;

    int skinned = 0;
    mat4 *joint_model = malloc(sizeof(mat4) * (size_t)model.skeleton.joint_count);
    for (int m = 0; m < model.mesh_count; m++) {
        const Mesh *mesh = &model.meshes[m];
        if (!mesh->skinned) continue;
        skinned++;
        CHECK(mesh->bone_count > 0 && mesh->bone_joint && mesh->inverse_bind && mesh->joint_indices && mesh->weights,
              "%s mesh %d: skinned without skin data", path, m);

        /* weights sum to 1, indices in range, bones name real joints */
        int bad_sum = 0, bad_index = 0;
        for (int v = 0; v < mesh->vertex_count; v++) {
            float sum = 0.0f;
            for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                sum += mesh->weights[v][k];
                if (mesh->joint_indices[v][k] >= mesh->bone_count) bad_index++;
                if (mesh->weights[v][k] < 0.0f) bad_sum++;
            }
            if (fabsf(sum - 1.0f) > 1e-5f) bad_sum++;
        }
        CHECK(bad_sum == 0, "%s mesh %d: %d vertices whose weights do not sum to 1", path, m, bad_sum);
        CHECK(bad_index == 0, "%s mesh %d: %d bone indices >= bone_count %d", path, m, bad_index, mesh->bone_count);
        for (int b = 0; b < mesh->bone_count; b++)
            CHECK(mesh->bone_joint[b] >= 0 && mesh->bone_joint[b] < model.skeleton.joint_count &&
                      model.skeleton.is_bone[mesh->bone_joint[b]],
                  "%s mesh %d bone %d: joint %d", path, m, b, mesh->bone_joint[b]);

        /* bind pose: joint model matrix = inverse(inverse_bind) */
        for (int j = 0; j < model.skeleton.joint_count; j++) glm_mat4_identity(joint_model[j]);
        for (int b = 0; b < mesh->bone_count; b++) glm_mat4_inv(mesh->inverse_bind[b], joint_model[mesh->bone_joint[b]]);
        mat4 *palette = malloc(sizeof(mat4) * (size_t)mesh->bone_count);
        vec3 *out = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        vec3 *normals = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        mat4 identity = GLM_MAT4_IDENTITY_INIT;
        skin_palette(mesh, (const mat4 *)joint_model, palette);
        skin_vertices_lbs(mesh, (const mat4 *)palette, identity, out, normals);
        float diagonal = bbox_diagonal((const vec3 *)mesh->positions, mesh->vertex_count);
        float worst = 0.0f;
        for (int v = 0; v < mesh->vertex_count; v++) {
            float d = glm_vec3_distance(out[v], mesh->positions[v]);
            if (!(d <= worst)) worst = d;   /* NaN counts as worst */
        }
        float relative = diagonal > 0.0f ? worst / diagonal : worst;
        if (!(relative <= *worst_relative)) *worst_relative = relative;
        CHECK(relative <= 1e-5f, "%s mesh %d (%s): bind pose error %g of the bbox diagonal %g", path, m, mesh->name,
              (double)relative, (double)diagonal);
        free(palette);
        free(out);
        free(normals);
    }
    free(joint_model);
    if (file_has_bones(path))
        CHECK(skinned > 0, "%s: no skinned mesh", path);
    else
        CHECK(skinned == 0, "%s: %d skinned meshes, the file has no bones", path, skinned);
    printf("%-70s meshes %d (skinned %d), joints %d, clips %d\n", path, model.mesh_count, skinned,
           model.skeleton.joint_count, model.clip_count);
    model_free(&model);
}

int main(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    float worst = 0.0f;
    for (int i = 0; i < count; i++) check_model(models[i].path, &worst);
    printf("worst bind-pose error: %g of the bbox diagonal over %d models\n", (double)worst, count);
    return test_finish();
}
