/* fbx_apply_rest.c — stage 8, the transform steps: poses, the rest pose, geometric transforms,
 * scale helper joints and --info's source features.
 *
 * Rules of this step:
 *   - Scene space: a joint's scene matrix = the scene matrix of Assimp's root joint · the Model's
 *     FBX node-to-world (fbx_node_world, with its InheritType), in double precision; a joint
 *     without a Model keeps Assimp's local transform. The Model's local transform of a joint is
 *     then inverse(parent's scene matrix) · its scene matrix. For RSrs that is the FBX local
 *     transform itself; for RrSs / Rrs under a parent with a non-uniform scale it can hold a
 *     shear that translation · rotation · scale cannot: rest_local keeps the exact matrix, the
 *     keys the TRS part (the error this leaves is measured in docs/accuracy.md).
 *   - Geometric transforms move a Model's geometry only: a mesh's vertices (and normals, morph
 *     deltas) get G, so that mesh space is the node's space, as for every other format.
 *   - Scale helpers: a parent whose scale is ever non-uniform gets a helper joint for its RrSs /
 *     Rrs children (the rule where it is built, below).
 *   - --info: each joint's Skeleton.source_features say what its node uses beyond a plain TRS.
 */
#include "fbx_apply_common.h"

/* ---- poses: every node's world, then every joint's local ----------------------------- */

/* World of every node for the given properties (props[i] for node i). */
void fbx_nodes_world(const Apply *a, const FbxNodeProperties *props, FbxNodeWorld *world)
{
    for (int i = 0; i < a->node_count; i++) {
        const Node *node = &a->nodes[i];
        FbxTrs local;
        fbx_node_local(&props[i], &local);
        fbx_node_world(node->parent >= 0 ? &world[node->parent] : NULL,
                       node->scale_source >= 0 ? &world[node->scale_source] : NULL, props[i].inherit_type, &local,
                       &world[i]);
    }
}

/* Scene matrix of every joint (double) from the nodes' worlds; unmatched joints keep
 * Assimp's local transform `assimp_local` (float mat4s) on their parent. */
void fbx_joints_scene(const Apply *a, const FbxNodeWorld *world, double *scene_world /* [joint*16] */)
{
    const Skeleton *sk = &a->im->model->skeleton;
    for (int j = 0; j < sk->joint_count; j++) {
        int node = a->joint_node[j];
        double *out = &scene_world[16 * j];
        if (node >= 0) {
            fbx_matrix_mul(a->root_matrix, world[node].node_to_world, out);
        } else if (a->helper_node && a->helper_node[j] >= 0) {
            fbx_matrix_mul(a->root_matrix, world[a->helper_node[j]].unscaled_node_to_world, out);
        } else {
            double local[16];
            fbx_from_mat4(sk->rest_local[j], local);
            if (sk->parent[j] < 0) memcpy(out, local, sizeof local);
            else fbx_matrix_mul(&scene_world[16 * sk->parent[j]], local, out);
        }
    }
}

/* The frame a node's frame_local is given in, as a joint: the scene root joint for a top-level
 * node; its parent's joint for RSrs; its parent's scale helper for RrSs / Rrs. True when joint
 * `parent_joint` is that frame. */
static bool joint_is_frame_of(const Apply *a, int node, int parent_joint)
{
    const Skeleton *sk = &a->im->model->skeleton;
    int parent_node = a->nodes[node].parent;
    if (parent_node < 0)   /* the scene root: Assimp's root joint, whose scene matrix is root_matrix */
        return sk->parent[parent_joint] < 0 && a->map.joint_object[parent_joint] == FBX_JOINT_ROOT;
    if (a->nodes[node].props.inherit_type == FBX_INHERIT_RSrs)
        return a->joint_node[parent_joint] == parent_node && a->helper_node[parent_joint] < 0;
    return a->helper_node[parent_joint] == parent_node;
}

bool fbx_joint_local(const Apply *a, const FbxNodeWorld *world, const double *scene_world, int j, FbxTrs *trs, double local[16])
{
    const Skeleton *sk = &a->im->model->skeleton;
    int parent = sk->parent[j], node = a->joint_node[j], helper = a->helper_node ? a->helper_node[j] : -1;
    /* a node (or a helper: the node's unscaled frame) under the joint of its own frame: its TRS as
     * fbx_node_world made it, no inversion (exact, and finite with a scale of 0) */
    int owner = node >= 0 ? node : helper;
    if (parent >= 0 && owner >= 0 && joint_is_frame_of(a, owner, parent)) {
        *trs = world[owner].frame_local;
        if (node < 0) trs->scale[0] = trs->scale[1] = trs->scale[2] = 1.0;   /* the unscaled frame */
        fbx_trs_to_matrix(trs, local);
        return true;
    }
    /* any other joint: local_j = inverse(scene_parent) · scene_j, decomposed */
    if (parent < 0) {
        memcpy(local, &scene_world[16 * j], sizeof(double) * 16);
    } else {
        double inverse[16];
        if (!fbx_matrix_invert(&scene_world[16 * parent], inverse)) return false;
        fbx_matrix_mul(inverse, &scene_world[16 * j], local);
    }
    fbx_matrix_to_trs(local, trs);
    return true;
}

void fbx_trs_to_joint(const FbxTrs *trs, JointTransform *out)
{
    for (int k = 0; k < 3; k++) {
        out->translation[k] = (float)trs->translation[k];
        out->scale[k] = (float)trs->scale[k];
    }
    for (int k = 0; k < 4; k++) out->rotation[k] = (float)trs->rotation[k];
}

/* ---- rest pose ------------------------------------------------------------------------ */

double fbx_apply_rest(Apply *a, double *scene_world)
{
    Skeleton *sk = &a->im->model->skeleton;
    FbxNodeProperties *props = malloc(sizeof *props * (size_t)(a->node_count > 0 ? a->node_count : 1));
    FbxNodeWorld *world = malloc(sizeof *world * (size_t)(a->node_count > 0 ? a->node_count : 1));
    double worst_shear = 0;
    if (!props || !world) {
        free(props);
        free(world);
        return -1;
    }
    for (int i = 0; i < a->node_count; i++) props[i] = a->nodes[i].props;
    fbx_nodes_world(a, props, world);
    fbx_joints_scene(a, world, scene_world);
    for (int j = 0; j < sk->joint_count; j++) {
        if (a->joint_node[j] < 0 && a->helper_node[j] < 0) continue;
        double local[16], back[16], largest = 0, worst = 0;
        FbxTrs trs;
        if (!fbx_joint_local(a, world, scene_world, j, &trs, local)) continue;   /* a singular parent: Assimp's */
        fbx_trs_to_matrix(&trs, back);   /* how much of the local matrix the TRS misses (shear) */
        for (int i = 0; i < 16; i++) {
            largest = fmax(largest, fabs(local[i]));
            worst = fmax(worst, fabs(local[i] - back[i]));
        }
        worst_shear = fmax(worst_shear, largest > 0 ? worst / largest : 0.0);
        fbx_to_mat4(local, sk->rest_local[j]);
        fbx_trs_to_joint(&trs, &sk->rest_trs[j]);
    }
    free(props);
    free(world);
    return worst_shear;
}

/* ---- geometric transforms: into the vertices (mesh space = the node's space) ------------------------------------------ */

void fbx_apply_geometric(Apply *a)
{
    Model *model = a->im->model;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        int node = fbx_mesh_node(a, mesh);
        if (node < 0 || !a->nodes[node].has_geometric) continue;
        double g[16], g_inverse[16];
        fbx_trs_to_matrix(&a->nodes[node].geometric, g);
        if (!fbx_matrix_invert(g, g_inverse)) continue;
        /* positions p' = G p; normals n' = inverse(G)ᵀ n (normalised); deltas by G's linear part */
        for (int v = 0; v < mesh->vertex_count; v++) {
            double p[3] = {mesh->positions[v][0], mesh->positions[v][1], mesh->positions[v][2]};
            for (int r = 0; r < 3; r++) mesh->positions[v][r] = (float)(g[r] * p[0] + g[4 + r] * p[1] + g[8 + r] * p[2] + g[12 + r]);
            if (mesh->normals) {
                double n[3] = {mesh->normals[v][0], mesh->normals[v][1], mesh->normals[v][2]}, out[3], len = 0;
                for (int r = 0; r < 3; r++) {
                    out[r] = g_inverse[4 * r] * n[0] + g_inverse[4 * r + 1] * n[1] + g_inverse[4 * r + 2] * n[2];
                    len += out[r] * out[r];
                }
                len = sqrt(len);
                if (len > 0)
                    for (int r = 0; r < 3; r++) mesh->normals[v][r] = (float)(out[r] / len);
            }
        }
        for (int t = 0; t < mesh->morph_target_count; t++)
            for (int v = 0; v < mesh->vertex_count; v++) {
                float *d = mesh->morph_position_deltas[(size_t)t * (size_t)mesh->vertex_count + (size_t)v];
                double p[3] = {d[0], d[1], d[2]};
                for (int r = 0; r < 3; r++) d[r] = (float)(g[r] * p[0] + g[4 + r] * p[1] + g[8 + r] * p[2]);
            }
    }
}

/* ---- scale helpers --------------------------------------------------------------------------
 * A RrSs or Rrs child sits in its parent's UNSCALED frame: world_c = unscaled_p · TRS(...). As a
 * joint under p that is inverse(world_p) · world_c = inverse(S_p) · TRS(...), which shears when
 * p's scale S_p is not uniform, and a joint's TRS cannot hold a shear (measured on
 * maya_game_sausage_deform: 0.38 of the matrix, 0.30 of the figure's diagonal), and has no value
 * at all when S_p has a 0. Such a parent gets a helper joint "NAME (unscaled)" placed at unscaled_p,
 * hung beside p from p's own parent joint: its local transform is p's T · R without the scale (the
 * frame_local of fbx_node_world, scale 1), the children's below it their exact TRS; no joint's local
 * is an inverse of a scale, so a scale of 0 leaves every local finite. Decided by sampling: only
 * parents whose scale is ever non-uniform or 0 (rest or any stack sample) get one. */

/* A RrSs / Rrs child under a parent of this scale can hang from the parent's joint: the scale is
 * uniform (no shear) and not 0 (inverse(S) exists: a parent scaled to 0 on any axis, even on all
 * three, would take the child's own size with it, which these inherit types keep). */
static bool scale_is_uniform(const double s[3])
{
    double a0 = fabs(s[0]), a1 = fabs(s[1]), a2 = fabs(s[2]);
    double hi = fmax(a0, fmax(a1, a2)), lo = fmin(a0, fmin(a1, a2));
    return hi - lo <= 1e-7 * hi && lo > 1e-9;
}

/* nonuniform[node]: the node's accumulated scale (what a RrSs / Rrs child meets) is ever non-uniform */
static bool probe_nonuniform(const Apply *a, const Stack *stacks, int stack_count, bool *nonuniform)
{
    FbxNodeProperties *props = malloc(sizeof *props * (size_t)(a->node_count > 0 ? a->node_count : 1));
    FbxNodeWorld *world = malloc(sizeof *world * (size_t)(a->node_count > 0 ? a->node_count : 1));
    if (!props || !world) {
        free(props);
        free(world);
        return false;
    }
    for (int i = 0; i < a->node_count; i++) props[i] = a->nodes[i].props;
    fbx_nodes_world(a, props, world);
    for (int i = 0; i < a->node_count; i++) nonuniform[i] = !scale_is_uniform(world[i].inherit_scale);
    for (int k = 0; k < stack_count; k++)
        for (int s = 0; s < stacks[k].time_count; s++) {
            fbx_stack_properties(a, &stacks[k], stacks[k].times[s], props);
            fbx_nodes_world(a, props, world);
            for (int i = 0; i < a->node_count; i++)
                if (!nonuniform[i]) nonuniform[i] = !scale_is_uniform(world[i].inherit_scale);
        }
    free(props);
    free(world);
    return true;
}

/* Inserts the helpers (see above); false when out of memory. */
bool fbx_insert_scale_helpers(Apply *a, const Stack *stacks, int stack_count)
{
    Importer *im = a->im;
    Model *model = im->model;
    Skeleton *old = &model->skeleton;
    int count = old->joint_count;
    bool *nonuniform = calloc((size_t)(a->node_count > 0 ? a->node_count : 1), sizeof(bool));
    bool *needs = calloc((size_t)(count > 0 ? count : 1), sizeof(bool));
    if (!nonuniform || !needs || !probe_nonuniform(a, stacks, stack_count, nonuniform)) {
        free(nonuniform);
        free(needs);
        return false;
    }
    int helpers = 0;
    for (int j = 0; j < count; j++) {
        int parent = old->parent[j], node = a->joint_node[j];
        if (parent < 0 || node < 0 || a->nodes[node].props.inherit_type == FBX_INHERIT_RSrs) continue;
        int parent_node = a->joint_node[parent];
        if (parent_node < 0 || !nonuniform[parent_node] || needs[parent]) continue;
        needs[parent] = true;
        helpers++;
    }
    free(nonuniform);
    if (helpers == 0) {
        free(needs);
        return true;
    }
    int total = count + helpers;
    model->stats.scale_helpers += helpers;
    Skeleton sk = {0};
    int *new_index = malloc(sizeof(int) * (size_t)count), *helper_index = malloc(sizeof(int) * (size_t)count);
    int *joint_node = malloc(sizeof(int) * (size_t)total), *helper_node = malloc(sizeof(int) * (size_t)total);
    int *joint_object = malloc(sizeof(int) * (size_t)total);
    const struct aiNode **nodes = im->nodes ? malloc(sizeof *nodes * (size_t)total) : NULL;
    bool ok = skeleton_alloc(&sk, total) && new_index && helper_index && joint_node && helper_node && joint_object &&
              (nodes || !im->nodes);
    for (int j = 0, n = 0; ok && j < count; j++) {
        int parent = old->parent[j], node = a->joint_node[j];
        bool under_helper = parent >= 0 && needs[parent] && node >= 0 && a->nodes[node].props.inherit_type != FBX_INHERIT_RSrs;
        new_index[j] = n;
        memcpy(sk.names[n], old->names[j], SV_NAME_MAX);
        sk.parent[n] = parent < 0 ? -1 : under_helper ? helper_index[parent] : new_index[parent];
        glm_mat4_copy(old->rest_local[j], sk.rest_local[n]);
        sk.rest_trs[n] = old->rest_trs[j];
        sk.is_bone[n] = old->is_bone[j];
        joint_node[n] = node;
        helper_node[n] = -1;
        joint_object[n] = a->map.joint_object[j];
        if (nodes) nodes[n] = im->nodes[j];
        n++;
        helper_index[j] = -1;
        if (!needs[j]) continue;
        helper_index[j] = n;
        char name[SV_NAME_MAX + 16];
        snprintf(name, sizeof name, "%s (unscaled)", old->names[j]);
        utf8_copy_valid(sk.names[n], SV_NAME_MAX, name, strlen(name));
        sk.parent[n] = sk.parent[n - 1];   /* beside its node, in the node's own frame: local = T · R */
        glm_mat4_identity(sk.rest_local[n]);
        glm_vec3_zero(sk.rest_trs[n].translation);
        glm_quat_identity(sk.rest_trs[n].rotation);
        glm_vec3_one(sk.rest_trs[n].scale);
        sk.is_bone[n] = false;
        joint_node[n] = -1;
        helper_node[n] = node;
        joint_object[n] = FBX_JOINT_NONE;
        if (nodes) nodes[n] = im->nodes[j];
        n++;
    }
    if (ok) {
        for (int m = 0; m < model->mesh_count; m++) {
            Mesh *mesh = &model->meshes[m];
            for (int b = 0; b < mesh->bone_count; b++)
                if (mesh->bone_joint[b] >= 0 && mesh->bone_joint[b] < count) mesh->bone_joint[b] = new_index[mesh->bone_joint[b]];
            if (mesh->node_joint >= 0 && mesh->node_joint < count) mesh->node_joint = new_index[mesh->node_joint];
        }
        for (int c = 0; c < model->clip_count; c++)
            for (int t = 0; t < model->clips[c].track_count; t++) {
                JointTrack *track = &model->clips[c].tracks[t];
                if (track->joint >= 0 && track->joint < count) track->joint = new_index[track->joint];
            }
        free(old->names), free(old->parent), free(old->rest_local), free(old->rest_trs), free(old->is_bone);
        *old = sk;
        free(a->joint_node), a->joint_node = joint_node, joint_node = NULL;
        free(a->helper_node), a->helper_node = helper_node, helper_node = NULL;
        free(a->map.joint_object), a->map.joint_object = joint_object, joint_object = NULL;
        a->map.joint_count = total;
        if (nodes) free(im->nodes), im->nodes = nodes, nodes = NULL;
        /* the name index, depths and channel flags of the earlier stages are done with: keep them sized */
        free(im->by_name), im->by_name = NULL;
        free(im->depth), im->depth = NULL;
        free(im->channel_taken), im->channel_taken = NULL;
    } else {
        free(sk.names), free(sk.parent), free(sk.rest_local), free(sk.rest_trs), free(sk.is_bone);
    }
    free(new_index), free(helper_index), free(joint_node), free(helper_node), free(joint_object), free(nodes);
    free(needs);
    return ok;
}

/* ---- --info: what each joint's node uses ------------------------------------------------ */

static bool nonzero3(const double v[3]) { return v[0] != 0 || v[1] != 0 || v[2] != 0; }

bool fbx_set_source_features(Apply *a, const Stack *stacks, int stack_count)
{
    Skeleton *sk = &a->im->model->skeleton;
    free(sk->source_features);
    sk->source_features = calloc((size_t)(sk->joint_count > 0 ? sk->joint_count : 1), sizeof *sk->source_features);
    if (!sk->source_features) return false;
    for (int j = 0; j < sk->joint_count; j++) {
        uint16_t f = 0;
        if (a->helper_node[j] >= 0) f |= JOINT_SOURCE_SCALE_HELPER;
        int node = a->joint_node[j];
        if (node >= 0) {
            const FbxNodeProperties *p = &a->nodes[node].props;
            if (nonzero3(p->rotation_pivot) || nonzero3(p->scaling_pivot) || nonzero3(p->rotation_offset) ||
                nonzero3(p->scaling_offset))
                f |= JOINT_SOURCE_PIVOTS;
            if (nonzero3(p->pre_rotation)) f |= JOINT_SOURCE_PRE_ROTATION;
            if (nonzero3(p->post_rotation)) f |= JOINT_SOURCE_POST_ROTATION;
            if (p->rotation_order != FBX_ORDER_XYZ) f |= JOINT_SOURCE_ROTATION_ORDER;
            if (!p->rotation_active || p->rotation_space_for_limit_only) f |= JOINT_SOURCE_ROTATION_OFF;
            if (a->nodes[node].parent >= 0 && p->inherit_type == FBX_INHERIT_RrSs) f |= JOINT_SOURCE_INHERIT_RrSs;
            if (a->nodes[node].parent >= 0 && p->inherit_type == FBX_INHERIT_Rrs) f |= JOINT_SOURCE_INHERIT_Rrs;
            if (a->nodes[node].has_geometric) f |= JOINT_SOURCE_GEOMETRIC;
            for (int k = 0; k < stack_count; k++)
                for (int c = 0; c < stacks[k].channel_count; c++)
                    if (stacks[k].channels[c].node == node && stacks[k].channels[c].offset != offsetof(FbxNodeProperties, translation) &&
                        stacks[k].channels[c].offset != offsetof(FbxNodeProperties, rotation) &&
                        stacks[k].channels[c].offset != offsetof(FbxNodeProperties, scaling))
                        f |= JOINT_SOURCE_ANIMATED_PIVOTS;
        }
        sk->source_features[j] = f;
    }
    return true;
}
