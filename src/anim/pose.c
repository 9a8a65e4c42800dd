/* pose.c — local joint transforms -> model (scene) space, one forward loop; the bind pose. */
#include "anim.h"

#include <string.h>

void pose_set_rest(const Skeleton *skeleton, mat4 *local)
{
    if (skeleton->joint_count > 0)   /* a model without joints has rest_local == NULL */
        memcpy(local, skeleton->rest_local, sizeof(mat4) * (size_t)skeleton->joint_count);
}

void pose_local_to_model(const Skeleton *skeleton, const mat4 *local, mat4 *model)
{
    for (int j = 0; j < skeleton->joint_count; j++) {
        int parent = skeleton->parent[j];
        if (parent < 0)
            glm_mat4_copy((vec4 *)local[j], model[j]);
        else   /* model_j = model_parent * local_j  (parent already done: parent < j) */
            glm_mat4_mul(model[parent], (vec4 *)local[j], model[j]);
    }
}

/* The extra bone build_skin adds for unweighted vertices (the mesh's own node, identity
 * inverse bind) says nothing about where the skeleton was bound. */
static bool is_unweighted_bone(const Mesh *mesh, int bone)
{
    if (mesh->bone_joint[bone] != mesh->node_joint) return false;
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    return memcmp(mesh->inverse_bind[bone], identity, sizeof identity) == 0;
}

void pose_bind(const Model *model, bool *bound, mat4 *local, mat4 *joint_model)
{
    const Skeleton *skeleton = &model->skeleton;
    int count = skeleton->joint_count;
    if (count <= 0) return;
    memset(bound, 0, sizeof(bool) * (size_t)count);
    /* a bound joint sits where its first mesh was bound: N * inverse(inverse_bind) */
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned) continue;
        for (int b = 0; b < mesh->bone_count; b++) {
            int joint = mesh->bone_joint[b];
            if (bound[joint] || is_unweighted_bone(mesh, b)) continue;
            mat4 bone_bind;
            glm_mat4_inv((vec4 *)mesh->inverse_bind[b], bone_bind);
            glm_mat4_mul((vec4 *)mesh->bind_matrix, bone_bind, joint_model[joint]);
            bound[joint] = true;
        }
    }
    /* every other joint hangs off its parent with its rest local transform */
    for (int j = 0; j < count; j++) {
        int parent = skeleton->parent[j];
        if (!bound[j]) {
            if (parent < 0) glm_mat4_copy(skeleton->rest_local[j], joint_model[j]);
            else glm_mat4_mul(joint_model[parent], skeleton->rest_local[j], joint_model[j]);
        }
        /* local_j = inverse(model_parent) * model_j, so that local -> model gives the same pose */
        if (parent < 0) {
            glm_mat4_copy(joint_model[j], local[j]);
        } else {
            mat4 parent_inverse;
            glm_mat4_inv(joint_model[parent], parent_inverse);
            glm_mat4_mul(parent_inverse, joint_model[j], local[j]);
        }
    }
}
