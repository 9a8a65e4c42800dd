/* skeleton_lines.c — which parent -> child segments draw the skeleton, and where they are
 * (see skeleton_lines.h for the rule). */
#include "skeleton_lines.h"

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
