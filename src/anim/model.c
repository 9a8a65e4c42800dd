/* model.c — freeing and small queries on the in-memory Model. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

static void mesh_free(Mesh *mesh)
{
    free(mesh->positions);
    free(mesh->normals);
    free(mesh->uvs);
    free(mesh->indices);
    free(mesh->bone_joint);
    free(mesh->inverse_bind);
    free(mesh->joint_indices);
    free(mesh->weights);
}

static void clip_free(Clip *clip)
{
    for (int t = 0; t < clip->track_count; t++) {
        JointTrack *track = &clip->tracks[t];
        free(track->translation_times);
        free(track->translation_values);
        free(track->rotation_times);
        free(track->rotation_values);
        free(track->scale_times);
        free(track->scale_values);
    }
    free(clip->tracks);
}

void model_free(Model *model)
{
    if (!model) return;
    for (int m = 0; m < model->mesh_count; m++) mesh_free(&model->meshes[m]);
    for (int c = 0; c < model->clip_count; c++) clip_free(&model->clips[c]);
    for (int t = 0; t < model->texture_count; t++) free(model->textures[t].rgba);
    free(model->meshes);
    free(model->clips);
    free(model->textures);
    free(model->materials);
    free(model->skeleton.names);
    free(model->skeleton.parent);
    free(model->skeleton.rest_local);
    free(model->skeleton.rest_trs);
    free(model->skeleton.is_bone);
    memset(model, 0, sizeof *model);
}

int model_find_clip(const Model *model, const char *name)
{
    for (int c = 0; c < model->clip_count; c++)
        if (strcmp(model->clips[c].name, name) == 0) return c;
    return -1;
}

int model_total_vertices(const Model *model)
{
    int total = 0;
    for (int m = 0; m < model->mesh_count; m++) total += model->meshes[m].vertex_count;
    return total;
}
