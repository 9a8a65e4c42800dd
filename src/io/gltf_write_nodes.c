/* gltf_write_nodes.c — the node tree of an export (gltf_writer_build_tree) and its nodes (gltf_writer_nodes):
 * the joints with their rest T, R, S, the mesh nodes, the helpers (a common root, the axes-and-unit root, skin
 * copies, follow frames), written in depth-first pre-order; gltf_export_axes, the one place units and axes
 * change. Rules (docs/export.md "What maps how"):
 *   - a parent before its children, so a reader that numbers nodes that way (skinview's does) keeps the order:
 *     the skeleton's roots (under one common root node when there are several, so that every skin's joints
 *     have a common root), then the skinned mesh nodes (root nodes: glTF ignores their transform, and the
 *     validator warns about a skinned mesh under a parent);
 *   - skin.joints are unique: a mesh that lists one joint twice (skinview's extra bone for unweighted vertices,
 *     the mesh's own node, with an identity inverse bind) gets an identity child node of that joint for the
 *     second entry;
 *   - a static mesh named as its joint is carried by the joint's node; a node the export adds gets a name no
 *     earlier node has. */
#include "gltf_write_internal.h"
#include "../anim/anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* skinview's extra bone for unweighted vertices: the mesh's own node with an identity inverse bind */
static bool is_unweighted_bone(const Mesh *mesh, int bone)
{
    if (mesh->bone_joint[bone] != mesh->node_joint) return false;
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    return memcmp(mesh->inverse_bind[bone], identity, sizeof identity) == 0;
}

static int tree_add(NodeTree *t, NodeKind kind, int parent, int item)
{
    BuildNode *n = &t->nodes[t->count];
    *n = (BuildNode){.kind = kind, .parent = parent, .item = item, .mesh = -1, .final = -1, .first_child = -1,
                     .next_sibling = -1, .last_child = -1};
    if (parent >= 0) {
        BuildNode *p = &t->nodes[parent];
        if (p->last_child >= 0) t->nodes[p->last_child].next_sibling = t->count;
        else p->first_child = t->count;
        p->last_child = t->count;
    }
    return t->count++;
}

bool gltf_writer_build_tree(GltfWriter *w, NodeTree *t)
{
    const Model *model = w->model;
    const Skeleton *sk = &model->skeleton;
    int bones = 0, roots = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (mesh_is_skinned(&model->meshes[m])) bones += model->meshes[m].bone_count;
    for (int j = 0; j < sk->joint_count; j++) roots += sk->parent[j] < 0;
    int follow = 0;
    for (int m = 0; m < model->mesh_count; m++) follow += model->meshes[m].skin_follows_node;
    int capacity = sk->joint_count + 2 + model->mesh_count + bones + follow * (sk->joint_count + 1);   /* + axes, common root */
    t->nodes = malloc(sizeof *t->nodes * (size_t)capacity);
    t->follow_copy = calloc((size_t)model->mesh_count + 1, sizeof *t->follow_copy);
    if (!t->follow_copy) return gltf_writer_fail(w, "out of memory");
    t->skin_joint_node = malloc(sizeof(int) * (size_t)(bones + 1));
    t->skin_offset = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    int *joint_build = malloc(sizeof(int) * (size_t)(sk->joint_count + 1));
    if (!t->nodes || !t->skin_joint_node || !t->skin_offset || !joint_build) {
        free(joint_build);
        return gltf_writer_fail(w, "out of memory");
    }
    mat4 axes;
    int axes_root = gltf_export_axes(model, axes) ? tree_add(t, NODE_AXES, -1, -1) : -1;
    if (axes_root >= 0) w->report->helper_nodes++;
    int common_root = roots > 1 ? tree_add(t, NODE_COMMON_ROOT, axes_root, -1) : axes_root;
    for (int j = 0; j < sk->joint_count; j++)
        joint_build[j] = tree_add(t, NODE_JOINT, sk->parent[j] >= 0 ? joint_build[sk->parent[j]] : common_root, j);
    /* A static mesh named as its joint is the file's object (FBX: the node is the mesh): the joint's own node
     * carries it, so that the object has one name in glTF (three.js names the mesh after its node; an identity
     * child named like its parent made two "Y" nodes, and the mesh came out as "Y_1"). Other static meshes
     * (a second one on the joint, or named otherwise): an identity child of the joint. */
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh_is_skinned(mesh)) continue;
        int joint = mesh->node_joint >= 0 && mesh->node_joint < sk->joint_count ? mesh->node_joint : -1;
        BuildNode *own = joint >= 0 ? &t->nodes[joint_build[joint]] : NULL;
        if (own && own->mesh < 0 && strcmp(mesh->name, sk->names[joint]) == 0) own->mesh = m;
        else tree_add(t, NODE_STATIC_MESH, joint >= 0 ? joint_build[joint] : axes_root, m);
    }
    for (int m = 0; m < model->mesh_count; m++)
        if (mesh_is_skinned(&model->meshes[m])) tree_add(t, NODE_SKINNED_MESH, -1, m);
    /* A skin that follows its mesh node (FBX from Maya): palette_i = M_node(now) * B * model[j_i] * IBM_i with
     * B = skin_bind_node_inverse. glTF says it with a frame node under the mesh node, local transform B (so
     * its world is M_node(now) * B), and under it a copy of the joints the skin needs (bones and their
     * ancestors, with their rest transforms and channels): copy world = M_node(now) * B * model[j]. */
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        t->follow_copy[m] = NULL;
        if (!mesh_is_skinned(mesh) || !mesh->skin_follows_node || mesh->node_joint < 0 ||
            mesh->node_joint >= sk->joint_count)
            continue;
        int *copy = malloc(sizeof(int) * (size_t)(sk->joint_count + 1));
        if (!copy) {
            free(joint_build);
            return gltf_writer_fail(w, "out of memory");
        }
        t->follow_copy[m] = copy;
        for (int j = 0; j < sk->joint_count; j++) copy[j] = 0;
        for (int b = 0; b < mesh->bone_count; b++)
            if (!is_unweighted_bone(mesh, b))
                for (int j = mesh->bone_joint[b]; j >= 0 && !copy[j]; j = sk->parent[j]) copy[j] = 1;
        int frame = tree_add(t, NODE_FOLLOW_FRAME, joint_build[mesh->node_joint], m);
        w->report->helper_nodes++;
        for (int j = 0; j < sk->joint_count; j++)   /* parents first: a parent's copy exists before its children's */
            copy[j] = copy[j] ? tree_add(t, NODE_FOLLOW_JOINT, sk->parent[j] >= 0 ? copy[sk->parent[j]] : frame, j) : -1;
    }
    /* skin joints: a joint listed twice by one mesh gets an identity child for its second entry */
    int entry = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        t->skin_offset[m] = entry;
        if (!mesh_is_skinned(mesh)) continue;
        for (int b = 0; b < mesh->bone_count; b++) {
            int joint = mesh->bone_joint[b], node = joint_build[joint];
            if (t->follow_copy[m] && !is_unweighted_bone(mesh, b)) node = t->follow_copy[m][joint];
            for (int e = t->skin_offset[m]; e < entry; e++)
                if (t->skin_joint_node[e] == node) {   /* an identity child of the node the entry names */
                    node = tree_add(t, NODE_JOINT_COPY, node, joint);
                    w->report->helper_nodes++;
                    break;
                }
            t->skin_joint_node[entry++] = node;
        }
    }
    t->skin_offset[model->mesh_count] = entry;
    if (roots > 1) w->report->helper_nodes++;
    free(joint_build);
    /* depth-first pre-order: roots in build order, children in build order (no recursion) */
    int *stack = malloc(sizeof(int) * (size_t)(t->count + 1));
    if (!stack) return gltf_writer_fail(w, "out of memory");
    int next = 0;
    for (int r = 0; r < t->count; r++) {
        if (t->nodes[r].parent >= 0) continue;
        int top = 0;
        stack[top++] = r;
        while (top > 0) {
            int n = stack[--top];
            t->nodes[n].final = next++;
            /* push children in reverse so that the first child comes out first */
            int count = 0;
            for (int c = t->nodes[n].first_child; c >= 0; c = t->nodes[c].next_sibling) count++;
            int at = top + count;
            for (int c = t->nodes[n].first_child; c >= 0; c = t->nodes[c].next_sibling) stack[--at] = c;
            top += count;
        }
    }
    free(stack);
    /* the copies of animated joints get the joints' channels too (gltf_write_anim.c) */
    w->copy_joint = malloc(sizeof(int) * (size_t)(t->count + 1));
    w->copy_node = malloc(sizeof(int) * (size_t)(t->count + 1));
    if (!w->copy_joint || !w->copy_node) return gltf_writer_fail(w, "out of memory");
    for (int n = 0; n < t->count; n++)
        if (t->nodes[n].kind == NODE_FOLLOW_JOINT) {
            w->copy_joint[w->copy_count] = t->nodes[n].item;
            w->copy_node[w->copy_count++] = t->nodes[n].final;
        }
    return true;
}

bool gltf_export_axes(const Model *model, mat4 to_gltf)
{
    glm_mat4_identity(to_gltf);
    const SceneAxes *a = &model->axes;
    if (!a->known || !(a->metres_per_unit > 0) || !isfinite(a->metres_per_unit)) return false;
    mat4 c = GLM_MAT4_ZERO_INIT;
    float s = (float)a->metres_per_unit;
    /* column = the file's axis: C * e_file_right = +X, C * e_file_up = +Y, C * e_file_front = +Z (times s) */
    c[a->right_axis][0] = s * a->right_sign;
    c[a->up_axis][1] = s * a->up_sign;
    c[a->front_axis][2] = s * a->front_sign;
    c[3][3] = 1;
    bool identity = true;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) identity = identity && c[i][k] == (i == k ? 1.0f : 0.0f);
    if (identity) return false;
    glm_mat4_copy(c, to_gltf);
    return true;
}

/* |rest_local - T*R*S(rest_trs)|: what a node's TRS cannot say (shear) */
static float trs_residual(const Skeleton *sk, int j)
{
    mat4 trs;
    joint_transform_to_matrix(&sk->rest_trs[j], trs);
    float worst = 0;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) worst = fmaxf(worst, fabsf(trs[c][r] - sk->rest_local[j][c][r]));
    return worst;
}

/* the follow frame above a joint copy */
static int find_frame(const NodeTree *t, int n)
{
    while (n >= 0 && t->nodes[n].kind != NODE_FOLLOW_FRAME) n = t->nodes[n].parent;
    return n;
}

static void add_trs(cJSON *node, const JointTransform *trs)
{
    const float *t = trs->translation, *s = trs->scale;
    versor q;
    glm_quat_copy((float *)trs->rotation, q);
    float length = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(length > 0) || !isfinite(length)) glm_quat_identity(q);
    else glm_vec4_scale(q, 1.0f / length, q);
    if (t[0] != 0 || t[1] != 0 || t[2] != 0) cJSON_AddItemToObject(node, "translation", cJSON_CreateFloatArray(t, 3));
    if (q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 1) cJSON_AddItemToObject(node, "rotation", cJSON_CreateFloatArray(q, 4));
    if (s[0] != 1 || s[1] != 1 || s[2] != 1) cJSON_AddItemToObject(node, "scale", cJSON_CreateFloatArray(s, 3));
}

static bool name_taken(cJSON *const *ordered, int count, const char *name)
{
    for (int i = 0; i < count; i++) {
        const char *other = ordered[i] ? cJSON_GetStringValue(cJSON_GetObjectItem(ordered[i], "name")) : NULL;
        if (other && strcmp(other, name) == 0) return true;
    }
    return false;
}

/* A node skinview adds (a mesh's node, helpers) named `base`, or "base (role)", "base (role 2)", ... when an earlier
 * node has that name: glTF allows repeated names, but readers key objects by node name (three.js renames the
 * second "Y" to "Y_1", Blender to "Y.001"), so one name would stand for two things. Joints keep the file's names
 * (animations and --animations find them by name), and the joints come first in `ordered`. */
static void unique_node_name(cJSON *node, const char *base, const char *role, cJSON *const *ordered, int count)
{
    char valid[4 * SV_NAME_MAX + 64], name[sizeof valid + 48];
    utf8_copy_valid(valid, sizeof valid, base, strlen(base));
    snprintf(name, sizeof name, "%s", valid);
    for (int k = 1; name_taken(ordered, count, name); k++) {
        if (k == 1) snprintf(name, sizeof name, "%s (%s)", valid, role ? role : "node");
        else snprintf(name, sizeof name, "%s (%s %d)", valid, role ? role : "node", k);
    }
    cJSON_AddStringToObject(node, "name", name);
}

bool gltf_writer_nodes(GltfWriter *w, NodeTree *t, const int *mesh_index, const int *skin_index)
{
    const Model *model = w->model;
    const Skeleton *sk = &model->skeleton;
    cJSON **ordered = calloc((size_t)(t->count + 1), sizeof *ordered);
    if (!ordered) return gltf_writer_fail(w, "out of memory");
    for (int n = 0; n < t->count; n++) {
        const BuildNode *b = &t->nodes[n];
        cJSON *node = ordered[b->final] = cJSON_CreateObject();
        if (!node) break;
        if (b->kind == NODE_JOINT) {
            gltf_writer_name(node, sk->names[b->item]);
            add_trs(node, &sk->rest_trs[b->item]);
            w->joint_node[b->item] = b->final;
            if (b->mesh >= 0) {
                cJSON_AddNumberToObject(node, "mesh", mesh_index[b->mesh]);
                w->mesh_node[b->mesh] = b->final;
            }
            float residual = trs_residual(sk, b->item);
            float scale = 1.0f;
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++) scale = fmaxf(scale, fabsf(sk->rest_local[b->item][c][r]));
            if (residual > 1e-5f * scale) {
                w->report->sheared_joints++;
                w->report->worst_shear = fmaxf(w->report->worst_shear, residual);
            }
        } else if (b->kind == NODE_FOLLOW_JOINT) {
            char name[2 * SV_NAME_MAX + 16];
            snprintf(name, sizeof name, "%s (skin of %s)", sk->names[b->item], model->meshes[t->nodes[find_frame(t, n)].item].name);
            unique_node_name(node, name, NULL, ordered, t->count);
            add_trs(node, &sk->rest_trs[b->item]);
        } else if (b->kind == NODE_FOLLOW_FRAME) {
            const Mesh *mesh = &model->meshes[b->item];
            char name[SV_NAME_MAX + 32];
            snprintf(name, sizeof name, "%s (bind frame)", mesh->name);
            unique_node_name(node, name, NULL, ordered, t->count);
            /* T, R, S of B = skin_bind_node_inverse (what a TRS cannot say is reported as shear) */
            JointTransform trs;
            mat4 rotation, check;
            vec4 translation;
            glm_decompose((vec4 *)mesh->skin_bind_node_inverse, translation, rotation, trs.scale);
            glm_vec3_copy(translation, trs.translation);
            glm_mat4_quat(rotation, trs.rotation);
            add_trs(node, &trs);
            joint_transform_to_matrix(&trs, check);
            float residual = 0, size = 1;
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++) {
                    residual = fmaxf(residual, fabsf(check[c][r] - mesh->skin_bind_node_inverse[c][r]));
                    size = fmaxf(size, fabsf(mesh->skin_bind_node_inverse[c][r]));
                }
            if (residual > 1e-5f * size) {
                w->report->sheared_joints++;
                w->report->worst_shear = fmaxf(w->report->worst_shear, residual);
            }
        } else if (b->kind == NODE_AXES) {
            gltf_writer_name(node, "skinview_axes_and_unit");
            mat4 axes;
            gltf_export_axes(model, axes);
            /* C = s * A: a rotation and a uniform scale, or (a left-handed file, det A = -1) the rotation of
             * A * diag(-1, 1, 1) and the scale (-s, s, s) */
            float s = glm_vec3_norm(axes[0]);
            mat4 rotation = GLM_MAT4_IDENTITY_INIT;
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) rotation[c][r] = axes[c][r] / s;
            JointTransform trs = {.translation = {0, 0, 0}, .scale = {s, s, s}};
            if (glm_mat4_det(rotation) < 0) {
                glm_vec4_negate(rotation[0]);
                trs.scale[0] = -s;
            }
            glm_mat4_quat(rotation, trs.rotation);
            add_trs(node, &trs);
        } else if (b->kind == NODE_COMMON_ROOT) {
            gltf_writer_name(node, "skinview_common_root");
        } else if (b->kind == NODE_JOINT_COPY) {
            char name[SV_NAME_MAX + 16];
            snprintf(name, sizeof name, "%s (skin copy)", sk->names[b->item]);
            unique_node_name(node, name, NULL, ordered, t->count);
        } else {
            const Mesh *mesh = &model->meshes[b->item];
            unique_node_name(node, mesh->name, "mesh", ordered, t->count);
            cJSON_AddNumberToObject(node, "mesh", mesh_index[b->item]);
            if (b->kind == NODE_SKINNED_MESH) cJSON_AddNumberToObject(node, "skin", skin_index[b->item]);
            w->mesh_node[b->item] = b->final;
        }
        if (b->first_child >= 0) {
            cJSON *children = cJSON_AddArrayToObject(node, "children");
            for (int c = b->first_child; c >= 0; c = t->nodes[c].next_sibling)
                cJSON_AddItemToArray(children, cJSON_CreateNumber(t->nodes[c].final));
        }
    }
    cJSON *nodes = cJSON_AddArrayToObject(w->root, "nodes");
    cJSON *scene_nodes = cJSON_CreateArray();
    bool ok = nodes && scene_nodes;
    for (int n = 0; n < t->count; n++) {
        if (!ordered[n]) ok = false;
        else cJSON_AddItemToArray(nodes, ordered[n]);
    }
    for (int n = 0; n < t->count; n++)
        if (t->nodes[n].parent < 0) cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(t->nodes[n].final));
    free(ordered);
    cJSON *scenes = cJSON_AddArrayToObject(w->root, "scenes"), *scene = cJSON_CreateObject();
    if (!scenes || !scene) ok = false;
    else {
        cJSON_AddItemToObject(scene, "nodes", scene_nodes);
        scene_nodes = NULL;
        cJSON_AddItemToArray(scenes, scene);
        cJSON_AddNumberToObject(w->root, "scene", 0);
    }
    cJSON_Delete(scene_nodes);
    w->report->nodes = t->count;
    /* the reader makes its meshes in node order: each mesh's rank among the mesh nodes */
    if (w->report->mesh_order) {
        int rank = 0;
        for (int f = 0; f < t->count; f++)
            for (int m = 0; m < model->mesh_count; m++)
                if (w->mesh_node[m] == f) w->report->mesh_order[m] = rank++;
    }
    return ok ? true : gltf_writer_fail(w, "out of memory");
}

void gltf_writer_tree_free(NodeTree *t, int mesh_count)
{
    free(t->nodes);
    free(t->skin_joint_node);
    free(t->skin_offset);
    for (int m = 0; t->follow_copy && m < mesh_count; m++) free(t->follow_copy[m]);
    free(t->follow_copy);
}
