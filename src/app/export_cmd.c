/* export_cmd.c — --export-pose: the CPU-skinned pose of every mesh, written as one OBJ. */
#include "commands.h"
#include "anim/animator.h"
#include "anim/skin_dq.h"
#include "io/export.h"

#include <stdio.h>
#include <stdlib.h>

bool app_pose_init(const Model *model, bool reference, Animator *animator, SkinDqPose *dq_pose)
{
    if (animator_init(animator, model)) {
        animator->reference = reference;
        if (skin_dq_pose_init(dq_pose, model)) return true;
        animator_free(animator);
    }
    fprintf(stderr, "skinview: %s: out of memory\n", model->source_path);
    return false;
}

int command_export_pose(const Model *model, int clip, float time, SkinningMethod method, bool reference,
                        const char *out_path)
{
    Animator animator;
    SkinDqPose dq_pose;
    if (!app_pose_init(model, reference, &animator, &dq_pose)) return 1;
    animator_evaluate(&animator, clip, time);
    if (method == SKINNING_GPU_DQ) skin_dq_pose_update(&dq_pose, &animator);

    /* Posed vertices of every mesh, in scene space, in model order:
     * skinned meshes through their palette, static meshes through their node. */
    int mesh_count = model->mesh_count;
    ExportMesh *out = calloc((size_t)(mesh_count > 0 ? mesh_count : 1), sizeof *out);
    vec3 *positions = calloc((size_t)(model_total_vertices(model) + 1), sizeof(vec3));
    vec3 *normals = calloc((size_t)(model_total_vertices(model) + 1), sizeof(vec3));
    int status = 0;
    if (!out || !positions || !normals) {
        fprintf(stderr, "skinview: %s: out of memory\n", model->source_path);
        status = 1;
    } else {
        int offset = 0;
        for (int m = 0; m < mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            vec3 *mesh_normals = mesh->normals ? normals + offset : NULL;
            skin_mesh_by_method(method, &dq_pose, &animator, m, positions + offset, mesh_normals);
            out[m] = (ExportMesh){
                .name = mesh->name,
                .vertex_count = mesh->vertex_count,
                .positions = positions + offset,
                .normals = mesh->normals ? normals + offset : NULL,
                .index_count = mesh->index_count,
                .indices = mesh->indices,
                .primitive = mesh->primitive,
            };
            offset += mesh->vertex_count;
        }
        char error[512];
        if (!export_obj(out_path, out, mesh_count, error, sizeof error)) {
            fprintf(stderr, "skinview: %s: %s\n", out_path, error);
            status = 1;
        }
    }
    free(normals);
    free(positions);
    free(out);
    skin_dq_pose_free(&dq_pose);
    animator_free(&animator);
    return status;
}
