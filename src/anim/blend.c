/* blend.c — cross-fading two local poses, and removing root motion (pure jobs, no allocation). */
#include "anim.h"

void pose_blend(const JointTransform *a, const JointTransform *b, int joint_count, float weight,
                JointTransform *out)
{
    if (!(weight > 0.0f)) weight = 0.0f;   /* also NaN */
    if (weight > 1.0f) weight = 1.0f;
    const float keep = 1.0f - weight;
    for (int j = 0; j < joint_count; j++) {
        /* the short way: q and -q are one rotation, so flip b into a's hemisphere */
        float dot = glm_vec4_dot((float *)a[j].rotation, (float *)b[j].rotation);
        float sign = dot < 0.0f ? -1.0f : 1.0f;
        versor rotation;
        for (int i = 0; i < 4; i++) rotation[i] = keep * a[j].rotation[i] + weight * sign * b[j].rotation[i];
        float length = glm_vec4_norm(rotation);
        vec3 translation, scale;
        glm_vec3_lerp((float *)a[j].translation, (float *)b[j].translation, weight, translation);
        glm_vec3_lerp((float *)a[j].scale, (float *)b[j].scale, weight, scale);
        glm_vec3_copy(translation, out[j].translation);
        glm_vec3_copy(scale, out[j].scale);
        if (length > 1e-12f)
            glm_vec4_scale(rotation, 1.0f / length, out[j].rotation);
        else   /* only for zero input: after the flip, |sum|^2 >= (1-w)^2 + w^2 > 0 for unit quaternions */
            glm_vec4_copy((float *)a[j].rotation, out[j].rotation);
    }
}

int clip_root_motion_joint(const Clip *clip)
{
    int root = -1;
    for (int i = 0; i < clip->track_count; i++) {
        const JointTrack *track = &clip->tracks[i];
        if (track->translation_count > 1 && (root < 0 || track->joint < root)) root = track->joint;
    }
    return root;
}

void pose_remove_ground_motion(const Skeleton *skeleton, int root, const vec3 anchor, mat4 *model)
{
    if (root < 0 || root >= skeleton->joint_count) return;
    /* d = (p.x - anchor.x, 0, p.z - anchor.z), p = the root joint's position; model'[j] = T(-d) model[j] */
    float dx = model[root][3][0] - anchor[0], dz = model[root][3][2] - anchor[2];
    for (int j = 0; j < skeleton->joint_count; j++) {
        model[j][3][0] -= dx;
        model[j][3][2] -= dz;
    }
}
