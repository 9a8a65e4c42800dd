/* import_skeleton.c — stage 2: the node tree as joints, and which joint a name means.
 *
 * Rules of this stage:
 *   - The skeleton is the WHOLE node tree, not the bone list (trap 4 in docs/skinning.md): nodes
 *     that are not bones still move the bones below them. Joints are numbered depth-first
 *     pre-order, so a parent always comes before its children.
 *   - Each joint keeps its node's rest transform, as a matrix and as TRS.
 *   - Nothing recurses (files nest nodes tens of thousands deep): the tree is checked and
 *     numbered with explicit stacks; a cycle, a node under two parents, an empty child slot
 *     or more than VALIDATE_MAX_JOINTS nodes is an error.
 *   - Names are not unique (trap 10): bones and channels are bound to joints here, once.
 *     They name armature nodes: among nodes of one name, a node holding no mesh wins over
 *     one holding meshes (a Blender mesh "Torso" under bone "Torso"); among what is left,
 *     a bone takes the joint nearest its mesh (two characters with one rig) and a channel
 *     the joint whose rest is nearest its first keys (import_find_bone_joint,
 *     import_find_channel_joint).
 */
#include "import_internal.h"

#include <assimp/cimport.h>

#include "validate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- walking Assimp's node tree without recursion ----------------------------------
 * A file can nest nodes tens of thousands deep; recursion over them would overflow the stack.
 * Both walks below keep their own stack on the heap. Before anything else the tree is checked
 * as Assimp hands it over: no NULL child, no node reached twice (a cycle, or one node under two
 * parents: Assimp's structures allow both and a tree walk would never end or count twice), at
 * most VALIDATE_MAX_JOINTS nodes. */

/* Pointer set (open addressing) of the nodes seen so far. */
typedef struct NodeSet {
    const struct aiNode **slots;
    size_t                capacity;   /* a power of two, at least twice the count */
} NodeSet;

static size_t node_hash(const struct aiNode *node, size_t capacity)
{
    uintptr_t x = (uintptr_t)node;
    x ^= x >> 17;
    x *= (uintptr_t)0x9E3779B97F4A7C15ull;   /* Fibonacci hashing */
    return (size_t)(x ^ (x >> 29)) & (capacity - 1);
}

/* Adds node; false if it was already there. */
static bool node_set_add(NodeSet *set, const struct aiNode *node)
{
    size_t i = node_hash(node, set->capacity);
    while (set->slots[i]) {
        if (set->slots[i] == node) return false;
        i = (i + 1) & (set->capacity - 1);
    }
    set->slots[i] = node;
    return true;
}

/* Counts the nodes under (and with) root and checks the tree. Returns the count, or -1 with
 * im->error set. */
static int count_nodes(Importer *im, const struct aiNode *root)
{
    size_t capacity = 1024;
    while (capacity < 2u * (VALIDATE_MAX_JOINTS + 1)) capacity *= 2;
    NodeSet seen = {calloc(capacity, sizeof *seen.slots), capacity};
    const struct aiNode **pending = malloc(sizeof *pending * (VALIDATE_MAX_JOINTS + 1));
    if (!seen.slots || !pending) {
        free(seen.slots);
        free(pending);
        return import_fail(im, "out of memory"), -1;
    }
    int count = 0, top = 0;
    bool ok = true;
    pending[top++] = root;
    node_set_add(&seen, root);
    while (top > 0 && ok) {
        const struct aiNode *node = pending[--top];
        count++;
        if (node->mNumChildren > 0 && !node->mChildren) {
            ok = import_fail(im, "node '%s' lists %u children but has none", QUOTED(node->mName.data), node->mNumChildren);
            break;
        }
        for (unsigned c = 0; c < node->mNumChildren && ok; c++) {
            const struct aiNode *child = node->mChildren[c];
            if (!child) ok = import_fail(im, "node '%s' has an empty child slot", QUOTED(node->mName.data));
            else if ((size_t)count + (size_t)top + 1 > VALIDATE_MAX_JOINTS)
                ok = import_fail(im, "the node hierarchy has more than %d nodes, more than skinview accepts",
                                 VALIDATE_MAX_JOINTS);
            else if (!node_set_add(&seen, child))
                ok = import_fail(im, "node '%s' is reached twice in the node hierarchy (a cycle or two parents)",
                                 QUOTED(child->mName.data));
            else pending[top++] = child;
        }
    }
    free(seen.slots);
    free(pending);
    return ok ? count : -1;
}

/* Depth-first pre-order, children in file order: a node gets its index before any of its
 * children (the order the recursive walk would give). pending[] holds (node, parent joint). */
static bool add_nodes(Importer *im, const struct aiNode *root, int count)
{
    typedef struct Pending {
        const struct aiNode *node;
        int                  parent;
    } Pending;
    Pending *pending = malloc(sizeof *pending * (size_t)count);
    if (!pending) return import_fail(im, "out of memory");
    int top = 0, next = 0;
    pending[top++] = (Pending){root, -1};
    while (top > 0) {
        Pending item = pending[--top];
        int joint = next++;
        im->nodes[joint] = item.node;
        im->model->skeleton.parent[joint] = item.parent;
        for (unsigned c = item.node->mNumChildren; c-- > 0;)   /* reversed: the first child pops first */
            pending[top++] = (Pending){item.node->mChildren[c], joint};
    }
    free(pending);
    return true;
}

static int compare_name_entries(const void *a, const void *b)
{
    const NameEntry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return (x->joint > y->joint) - (x->joint < y->joint);
}

/* Index in by_name[] of the first entry with this name (entries with one name are
 * contiguous, in pre-order), or -1. */
static int find_name(const Importer *im, const char *name)
{
    int lo = 0, hi = im->model->skeleton.joint_count;   /* lower bound */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(im->by_name[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < im->model->skeleton.joint_count && strcmp(im->by_name[lo].name, name) == 0) return lo;
    return -1;
}

/* Depth of the lowest common ancestor of joints a and b. */
static int common_ancestor_depth(const Importer *im, int a, int b)
{
    const int *parent = im->model->skeleton.parent;
    while (im->depth[a] > im->depth[b]) a = parent[a];
    while (im->depth[b] > im->depth[a]) b = parent[b];
    while (a != b) {
        a = parent[a];
        b = parent[b];
        if (a < 0 || b < 0) return -1;
    }
    return im->depth[a];
}

/* Bones and channels name ARMATURE nodes (trap 10 in docs/skinning.md). Blender exports often name a
 * mesh object after the bone it hangs under (mesh "Torso" under bone "Torso"): among the
 * joints of one name, those holding no mesh are the candidates, unless every one of them
 * holds meshes. True if joint `joint` (one of the joints named like by_name[first]) is one. */
static bool is_candidate(const Importer *im, int first, int joint)
{
    if (im->nodes[joint]->mNumMeshes == 0) return true;
    int count = im->model->skeleton.joint_count;
    const char *name = im->by_name[first].name;
    for (int i = first; i < count && strcmp(im->by_name[i].name, name) == 0; i++)
        if (im->nodes[im->by_name[i].joint]->mNumMeshes == 0) return false;   /* an armature node exists */
    return true;
}

/* The joint a bone of the mesh on joint `mesh_joint` binds to. Assimp names bones by
 * node name only, and names repeat: a mesh node named like its bone, two characters with
 * the same rig in one file, two Blender armatures that both have a "Bone". Among the
 * candidate joints of that name (is_candidate: no mesh node if an armature node exists),
 * the one nearest the mesh (deepest common ancestor: the same character) wins; ties go to
 * the first in pre-order, as with Assimp's FindNode. */
int import_find_bone_joint(const Importer *im, const char *name, int mesh_joint)
{
    int first = find_name(im, name);
    if (first < 0) return -1;
    int count = im->model->skeleton.joint_count;
    int best = -1, best_depth = -2;
    for (int i = first; i < count && strcmp(im->by_name[i].name, name) == 0; i++) {
        int joint = im->by_name[i].joint;
        if (!is_candidate(im, first, joint)) continue;
        int depth = common_ancestor_depth(im, joint, mesh_joint);
        if (best < 0 || depth > best_depth) {
            best = joint;
            best_depth = depth;
        }
    }
    return best;
}

/* How far a channel's first keys are from a joint's rest transform (0 = identical). */
static double channel_rest_distance(const Importer *im, const struct aiNodeAnim *channel, int joint)
{
    const JointTransform *rest = &im->model->skeleton.rest_trs[joint];
    double distance = 0.0;
    if (channel->mNumPositionKeys > 0 && channel->mPositionKeys) {
        const struct aiVector3D *t = &channel->mPositionKeys[0].mValue;
        double dx = t->x - rest->translation[0], dy = t->y - rest->translation[1], dz = t->z - rest->translation[2];
        distance += dx * dx + dy * dy + dz * dz;
    }
    if (channel->mNumRotationKeys > 0 && channel->mRotationKeys) {
        versor q;
        import_quat_from_assimp(&channel->mRotationKeys[0].mValue, q);
        distance += 1.0 - fabs((double)glm_vec4_dot(q, (float *)rest->rotation));
    }
    if (channel->mNumScalingKeys > 0 && channel->mScalingKeys) {
        const struct aiVector3D *v = &channel->mScalingKeys[0].mValue;
        double dx = v->x - rest->scale[0], dy = v->y - rest->scale[1], dz = v->z - rest->scale[2];
        distance += dx * dx + dy * dy + dz * dz;
    }
    return isfinite(distance) ? distance : HUGE_VAL;
}

/* The joint an animation channel drives. Assimp names channels by node name only, and
 * names repeat (a mesh node named like its bone, two characters with one rig in one file).
 * Among the candidate joints of that name (is_candidate: no mesh node if an armature node
 * exists) that no earlier channel of this clip drives, the one whose rest transform is nearest
 * the channel's first keys wins (Assimp's glTF importer fills missing channels with the
 * target node's own rest values); ties go to the first in pre-order, as Assimp's FindNode.
 * Before, every such channel landed on the first joint: the other character froze or
 * took the wrong motion. */
int import_find_channel_joint(const Importer *im, const struct aiNodeAnim *channel)
{
    const char *name = channel->mNodeName.data;
    int first = find_name(im, name);
    if (first < 0) return -1;
    int count = im->model->skeleton.joint_count;
    if (first + 1 >= count || strcmp(im->by_name[first + 1].name, name) != 0)
        return im->by_name[first].joint;   /* the usual case: a unique name */
    int best = -1;
    double best_distance = HUGE_VAL;
    for (int i = first; i < count && strcmp(im->by_name[i].name, name) == 0; i++) {
        int joint = im->by_name[i].joint;
        if (im->channel_taken[joint] || !is_candidate(im, first, joint)) continue;
        double distance = channel_rest_distance(im, channel, joint);
        if (best < 0 || distance < best_distance - 1e-9 * (1.0 + best_distance)) {
            best = joint;
            best_distance = distance;
        }
    }
    return best >= 0 ? best : im->by_name[first].joint;   /* more channels than joints: the first, as Assimp */
}

bool import_skeleton(Importer *im)
{
    Skeleton *sk = &im->model->skeleton;
    const struct aiNode *root = im->scene->mRootNode;
    if (!root) return import_fail(im, "the scene has no root node");
    int count = count_nodes(im, root);
    if (count <= 0) return false;

    bool skeleton_ok = skeleton_alloc(sk, count);
    im->nodes = calloc((size_t)count, sizeof *im->nodes);
    im->by_name = calloc((size_t)count, sizeof *im->by_name);
    im->depth = calloc((size_t)count, sizeof *im->depth);
    im->channel_taken = calloc((size_t)count, sizeof *im->channel_taken);
    if (!skeleton_ok || !im->nodes || !im->by_name || !im->depth || !im->channel_taken)
        return import_fail(im, "out of memory");

    if (!add_nodes(im, root, count)) return false;
    for (int j = 0; j < count; j++) im->depth[j] = sk->parent[j] < 0 ? 0 : im->depth[sk->parent[j]] + 1;

    for (int j = 0; j < count; j++) {
        const struct aiNode *node = im->nodes[j];
        import_copy_name(sk->names[j], &node->mName);
        if (!import_matrix_is_finite(&node->mTransformation))
            return import_fail(im, "node '%s' has a non-finite transform", QUOTED(sk->names[j]));
        import_matrix_from_assimp(&node->mTransformation, sk->rest_local[j]);

        struct aiVector3D scaling, position;
        struct aiQuaternion rotation;
        aiDecomposeMatrix(&node->mTransformation, &scaling, &rotation, &position);
        JointTransform *trs = &sk->rest_trs[j];
        trs->translation[0] = position.x;
        trs->translation[1] = position.y;
        trs->translation[2] = position.z;
        import_quat_from_assimp(&rotation, trs->rotation);
        trs->scale[0] = scaling.x;
        trs->scale[1] = scaling.y;
        trs->scale[2] = scaling.z;
        if (!import_finite3(scaling.x, scaling.y, scaling.z)) glm_vec3_one(trs->scale);

        im->by_name[j].name = node->mName.data;
        im->by_name[j].joint = j;
    }
    qsort(im->by_name, (size_t)count, sizeof *im->by_name, compare_name_entries);
    return true;
}
