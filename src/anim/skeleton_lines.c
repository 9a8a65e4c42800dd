/* skeleton_lines.c — which parent -> child segments draw the skeleton, and where they are
 * (see skeleton_lines.h for the rule). */
#include "skeleton_lines.h"

#include <math.h>

/* Per-joint facts, as bits in the caller's out_joints[] before it is compacted. */
enum {
    JOINT_BONE = 1,         /* a mesh is skinned to it (not as its rigid "own node" bone) */
    JOINT_BONE_ABOVE = 2,   /* a proper ancestor is a bone */
    JOINT_BONE_BELOW = 4,   /* a proper descendant is a bone */
    JOINT_HAS_CHILD = 8,
    JOINT_HOLDS_MESH = 16,
    JOINT_DRAWN = 32        /* segment parent[j] -> j */
};

static bool is_skeleton_joint(int flags)
{
    return (flags & JOINT_BONE) || ((flags & JOINT_BONE_ABOVE) && (flags & JOINT_BONE_BELOW));
}

int skeleton_line_joints(const Model *model, int *out_joints)
{
    const Skeleton *skeleton = &model->skeleton;
    const int count = skeleton->joint_count;
    int *flags = out_joints;
    for (int j = 0; j < count; j++) flags[j] = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->node_joint >= 0 && mesh->node_joint < count) flags[mesh->node_joint] |= JOINT_HOLDS_MESH;
        for (int b = 0; b < mesh->bone_count; b++) {
            int joint = mesh->bone_joint[b];
            /* NOTE: the importer's rigid bone for unweighted vertices is the mesh's own node. */
            if (joint >= 0 && joint < count && joint != mesh->node_joint) flags[joint] |= JOINT_BONE;
        }
    }
    /* Parents are stored before children: "bone above" flows down in a forward loop,
     * "bone below" and "has a child" flow up in a backward loop. */
    for (int j = 0; j < count; j++) {
        int parent = skeleton->parent[j];
        if (parent >= 0 && (flags[parent] & (JOINT_BONE | JOINT_BONE_ABOVE))) flags[j] |= JOINT_BONE_ABOVE;
    }
    for (int j = count - 1; j >= 0; j--) {
        int parent = skeleton->parent[j];
        if (parent < 0) continue;
        flags[parent] |= JOINT_HAS_CHILD;
        if (flags[j] & (JOINT_BONE | JOINT_BONE_BELOW)) flags[parent] |= JOINT_BONE_BELOW;
    }
    for (int j = 0; j < count; j++) {
        int parent = skeleton->parent[j];
        if (parent < 0 || !is_skeleton_joint(flags[parent])) continue;
        bool end_site = !(flags[j] & (JOINT_HAS_CHILD | JOINT_HOLDS_MESH));
        if (is_skeleton_joint(flags[j]) || end_site) flags[j] |= JOINT_DRAWN;
    }
    /* Compact in place: slot k <= j, so flags[j] is read before anything overwrites it. */
    int segments = 0;
    for (int j = 0; j < count; j++)
        if (flags[j] & JOINT_DRAWN) out_joints[segments++] = j;
    return segments;
}

int skeleton_lines_write(const Skeleton *skeleton, const int *line_joints, int segment_count,
                         const mat4 *joint_model, vec3 *out_endpoints)
{
    for (int s = 0; s < segment_count; s++) {
        int joint = line_joints[s];
        /* a joint's origin in model space is its matrix's translation column: M * (0,0,0,1) = M[3] */
        glm_vec3_copy((float *)joint_model[skeleton->parent[joint]][3], out_endpoints[2 * s]);
        glm_vec3_copy((float *)joint_model[joint][3], out_endpoints[2 * s + 1]);
    }
    return segment_count;
}

int skeleton_dot_joints(const Model *model, const int *line_joints, int segment_count, int *out_joints,
                        unsigned char *out_kinds)
{
    const Skeleton *skeleton = &model->skeleton;
    enum { NOT_DRAWN = 0, SEGMENT_START = 1, SEGMENT_END = 2 };
    for (int j = 0; j < skeleton->joint_count; j++) out_kinds[j] = NOT_DRAWN;
    for (int s = 0; s < segment_count; s++) {
        int joint = line_joints[s];
        out_kinds[joint] |= SEGMENT_END;
        out_kinds[skeleton->parent[joint]] |= SEGMENT_START;
    }
    /* Compact in place: slot n <= j, so out_kinds[j] is read before anything overwrites it. */
    int count = 0;
    for (int j = 0; j < skeleton->joint_count; j++) {
        unsigned char marks = out_kinds[j];
        if (marks == NOT_DRAWN) continue;
        out_joints[count] = j;
        out_kinds[count] = !(marks & SEGMENT_END) ? JOINT_DOT_ROOT
                           : skeleton->is_bone[j] ? JOINT_DOT_BONE
                                                  : JOINT_DOT_HELPER;
        count++;
    }
    return count;
}

int skeleton_joint_depth(const Skeleton *skeleton, int joint)
{
    int depth = 0;
    for (int j = skeleton->parent[joint]; j >= 0; j = skeleton->parent[j]) depth++;
    return depth;
}

void joint_matrix_decompose(const mat4 m, vec3 t, vec3 axis, float *angle_degrees, vec3 s)
{
    mat4 copy, rotation;
    vec4 translation;
    glm_mat4_copy((vec4 *)m, copy);
    glm_decompose(copy, translation, rotation, s);   /* m = T * R * S, s = column lengths */
    glm_vec3_copy(translation, t);
    vec3 cross;
    glm_vec3_cross(rotation[0], rotation[1], cross);
    if (glm_vec3_dot(cross, rotation[2]) < 0.0f) {   /* a mirror: put it in the x scale */
        s[0] = -s[0];
        glm_vec3_negate(rotation[0]);
    }
    versor q;
    glm_mat4_quat(rotation, q);
    if (q[3] < 0.0f) glm_vec4_negate(q);             /* angle in 0..180 */
    float w = q[3] > 1.0f ? 1.0f : q[3];
    float half_sine = sqrtf(1.0f - w * w);
    *angle_degrees = glm_deg(2.0f * acosf(w));
    if (half_sine > 1e-6f) {
        glm_vec3_copy((vec3){q[0] / half_sine, q[1] / half_sine, q[2] / half_sine}, axis);
    } else {
        glm_vec3_copy((vec3){1.0f, 0.0f, 0.0f}, axis);
        *angle_degrees = 0.0f;
    }
}
