/* test_import_bindpose — every skinned test model, at bind pose:
 * - mesh space: each bone's joint model matrix = inverse(inverse_bind), palette via
 *   skin_palette(), CPU skinning with skin_vertices_lbs() gives back the mesh positions
 *   (within 1e-5 of the mesh's bounding-box diagonal);
 * - scene space (the Animator's ANIMATOR_BIND_POSE, what --clip bind draws): every skinned
 *   mesh = stored vertices x N (N = its node's rest scene matrix, glTF: identity, Collada: the
 *   root's rest matrix x the skin's bind_shape_matrix; worked out here independently), every bound joint at N * inverse(offset), and the skeleton
 *   overlay's segment ends at those joints (trap 11 in docs/skinning.md).
 * Also: weights sum to 1, indices < bone_count. */
#include "anim/anim.h"
#include "anim/animator.h"
#include "anim/skeleton_lines.h"
#include "io/import.h"
#include "testio.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdlib.h>

/* Does Assimp (no post-processing) see any bone in the file? Morph-only models
 * (AnimatedMorphCube, SimpleMorph) have none, so no skinned mesh is expected there.
 * Files Assimp cannot open without the importer's IO are assumed skinned. */
static bool file_has_bones(const char *path)
{
    if (test_fbx_is_legacy(path)) {   /* Assimp refuses it: does the file hold a skin (a Cluster, FBX 5: a Link)? */
        FILE *f = fopen(path, "rb");
        if (!f) return true;
        static char bytes[1 << 22];
        size_t n = fread(bytes, 1, sizeof bytes, f);
        fclose(f);
        for (size_t i = 0; i + 13 <= n; i++)
            if (memcmp(bytes + i, "Cluster", 7) == 0 || memcmp(bytes + i, "TransformLink", 13) == 0) return true;
        return false;
    }
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

static float max_abs(const float a[4][4], const float b[4][4])
{
    float worst = 0.0f;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float d = fabsf(a[c][r] - b[c][r]);
            if (!(d <= worst)) worst = d;
        }
    return worst;
}

/* Where joint bone `bone` of mesh `m` sits in the bind pose, by hand: the translation of
 * N * inverse(offset), N the mesh's bind matrix (test_mesh_bind_matrix). */
static void bind_origin(const char *path, const Model *model, int m, int bone, vec3 origin)
{
    float n[4][4], bone_bind[4][4], want[4][4];
    test_mesh_bind_matrix(path, model, m, n);
    glm_mat4_inv(model->meshes[m].inverse_bind[bone], bone_bind);
    test_naive_mat4_mul(n, (const float(*)[4])bone_bind, want);
    glm_vec3_copy((vec3){want[3][0], want[3][1], want[3][2]}, origin);
}

/* The bind pose in scene space, as the Animator (and so --clip bind, the overlay, the export,
 * the screenshot) has it. */
static void check_scene_bind_pose(const char *path, const Model *model, float *worst_relative)
{
    Animator animator;
    if (!animator_init(&animator, model)) {
        CHECK(false, "%s: animator_init", path);
        return;
    }
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    int joints = model->skeleton.joint_count;
    int *bound_by_mesh = malloc(sizeof(int) * (size_t)joints), *bound_by_bone = malloc(sizeof(int) * (size_t)joints);
    for (int j = 0; j < joints; j++) bound_by_mesh[j] = bound_by_bone[j] = -1;
    float scene_diagonal = 0.0f;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        float n[4][4];
        test_mesh_bind_matrix(path, model, m, n);
        float scale = fabsf(n[3][0]) + fabsf(n[3][1]) + fabsf(n[3][2]) + 1.0f;
        CHECK(max_abs(n, mesh->bind_matrix) <= 1e-5f * scale, "%s mesh %d: bind_matrix is not N (off by %g)", path, m,
              (double)max_abs(n, mesh->bind_matrix));
        vec3 *want = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        vec3 *got = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
        for (int v = 0; v < mesh->vertex_count; v++) glm_mat4_mulv3(n, mesh->positions[v], 1.0f, want[v]);
        animator_skin_mesh(&animator, m, got, NULL);
        float diagonal = bbox_diagonal((const vec3 *)want, mesh->vertex_count), worst = 0.0f;
        if (diagonal > scene_diagonal) scene_diagonal = diagonal;
        for (int v = 0; v < mesh->vertex_count; v++) {
            float d = glm_vec3_distance(got[v], want[v]);
            if (!(d <= worst)) worst = d;
        }
        float relative = diagonal > 0.0f ? worst / diagonal : worst;
        if (!(relative <= *worst_relative)) *worst_relative = relative;
        CHECK(relative <= 1e-5f, "%s mesh %d (%s): --clip bind is %g of the diagonal off stored x N", path, m,
              mesh->name, (double)relative);
        free(want);
        free(got);
        for (int b = 0; b < mesh->bone_count; b++) {
            int j = mesh->bone_joint[b];
            bool unweighted_bone = j == mesh->node_joint && max_abs(mesh->inverse_bind[b], GLM_MAT4_IDENTITY) == 0.0f;
            if (bound_by_mesh[j] < 0 && !unweighted_bone) bound_by_mesh[j] = m, bound_by_bone[j] = b;
        }
    }
    /* every bound joint at N * inverse(offset), and the overlay draws its end there */
    int wrong_joints = 0, wrong_ends = 0;
    float tolerance = 1e-5f * (scene_diagonal > 0.0f ? scene_diagonal : 1.0f);
    for (int j = 0; j < joints; j++) {
        if (bound_by_mesh[j] < 0) continue;
        vec3 origin;
        bind_origin(path, model, bound_by_mesh[j], bound_by_bone[j], origin);
        if (glm_vec3_distance(origin, animator.joint_model[j][3]) > tolerance) wrong_joints++;
    }
    CHECK(wrong_joints == 0, "%s: %d bound joints not at N * inverse(offset) in the bind pose", path, wrong_joints);
    int *line_joints = malloc(sizeof(int) * (size_t)joints);
    int segments = skeleton_line_joints(model, line_joints);
    vec3 *ends = malloc(sizeof(vec3) * 2 * (size_t)(segments > 0 ? segments : 1));
    skeleton_lines_write(&model->skeleton, line_joints, segments, (const mat4 *)animator.joint_model, ends);
    int checked = 0;
    for (int s = 0; s < segments; s++) {
        int j = line_joints[s];
        if (bound_by_mesh[j] < 0) continue;
        vec3 origin;
        bind_origin(path, model, bound_by_mesh[j], bound_by_bone[j], origin);
        if (glm_vec3_distance(origin, ends[2 * s + 1]) > tolerance) wrong_ends++;
        checked++;
    }
    CHECK(wrong_ends == 0, "%s: overlay in the bind pose: %d of %d bone ends not at N * inverse(offset)",
          path, wrong_ends, checked);
    free(line_joints);
    free(ends);
    free(bound_by_mesh);
    free(bound_by_bone);
    animator_free(&animator);
}

static void check_model(const char *path, float *worst_relative)
{
    Model model;
    if (!test_import(path, NULL, &model)) return;

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
    else   /* (FBX: unless skinview rebuilt a skin Assimp dropped from the clusters) */
        CHECK(skinned == 0 || model.stats.skins_rebuilt > 0, "%s: %d skinned meshes, the file has no bones", path, skinned);
    if (skinned > 0) check_scene_bind_pose(path, &model, worst_relative);
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
