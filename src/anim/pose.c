/* pose.c — local joint transforms -> model (scene) space, one forward loop. */
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
