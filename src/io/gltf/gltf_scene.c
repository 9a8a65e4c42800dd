/* gltf_scene.c — step 3 of the glTF reader: the scene's node tree as the skeleton.
 *
 * Rules of this step (glTF 2.0 section 3.5 "Scenes", 3.7.3 "Transformations"):
 *   - The scene is scenes[scene], else scenes[0]; a file without scenes uses every node that is
 *     no other node's child, in index order.
 *   - The skeleton is the whole node tree of that scene (trap 4 in docs/skinning.md),
 *     numbered depth-first pre-order, children in file order: parents before children. A scene
 *     with one root node makes that node joint 0; with several, joint 0 is a "ROOT" joint with the
 *     identity transform above them (the tree Assimp built, so --info and joint names are as before).
 *   - Nothing recurses; a node listed twice (a cycle, two parents, twice in the scene) or an index
 *     out of range is a damaged file; more than VALIDATE_MAX_JOINTS joints are refused.
 *   - A node's rest transform is its `matrix` (column-major, as cglm) or T * R * S from
 *     translation, rotation (x, y, z, w, normalised) and scale; both are kept as a matrix and as TRS
 *     (a matrix decomposed into T, R, S).
 *   - Names are the node's name, else "nodes_N" (N: its index; what Assimp called them), stored as
 *     valid UTF-8.
 */
#include "gltf_internal.h"
#include "io/validate.h"

#include <stdlib.h>
#include <string.h>

static void node_rest(const cJSON *node, mat4 local, JointTransform *trs)
{
    float m[16];
    glm_vec3_zero(trs->translation);
    glm_quat_identity(trs->rotation);
    glm_vec3_one(trs->scale);
    if (gltf_numbers(node, "matrix", m, 16) == 16) {
        memcpy(local, m, sizeof(mat4));   /* column-major, as cglm: local[column][row] */
        mat4 rotation;
        vec4 translation;
        glm_decompose(local, translation, rotation, trs->scale);
        glm_vec3_copy(translation, trs->translation);
        glm_mat4_quat(rotation, trs->rotation);
        if (!(isfinite(trs->scale[0]) && isfinite(trs->scale[1]) && isfinite(trs->scale[2]))) glm_vec3_one(trs->scale);
        return;
    }
    float v[4];
    if (gltf_numbers(node, "translation", v, 3) == 3) glm_vec3_copy(v, trs->translation);
    if (gltf_numbers(node, "rotation", v, 4) == 4) {
        float length = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (length > 1e-12f && isfinite(length))
            for (int i = 0; i < 4; i++) trs->rotation[i] = v[i] / length;
    }
    if (gltf_numbers(node, "scale", v, 3) == 3) glm_vec3_copy(v, trs->scale);
    /* local = T * R * S */
    glm_mat4_identity(local);
    glm_translate(local, trs->translation);
    glm_quat_rotate(local, trs->rotation, local);
    glm_scale(local, trs->scale);
}

bool gltf_scene(Gltf *g)
{
    Skeleton *sk = &g->model->skeleton;
    int node_count = g->node_count;
    g->joint_of_node = malloc(sizeof(int) * ((size_t)node_count + 1));
    int *pending = malloc(sizeof(int) * ((size_t)node_count + 1) * 2);
    int *roots = malloc(sizeof(int) * ((size_t)node_count + 1));
    if (!g->joint_of_node || !pending || !roots) {
        free(pending);
        free(roots);
        return gltf_fail(g, "out of memory");
    }
    for (int n = 0; n < node_count; n++) g->joint_of_node[n] = -1;

    /* the roots */
    int root_count = 0;
    const cJSON *scenes = gltf_item(g->json, "scenes");
    int scene_index = gltf_int(g->json, "scene", 0);
    const cJSON *scene = gltf_at(scenes, scene_index);
    if (!scene) scene = gltf_at(scenes, 0);
    bool ok = true;
    if (scene) {
        const cJSON *item;
        cJSON_ArrayForEach(item, gltf_list(gltf_item(scene, "nodes"))) {
            int n = cJSON_IsNumber(item) ? item->valueint : -1;
            if (n < 0 || n >= node_count) {
                ok = gltf_fail(g, "damaged glTF file: the scene lists node %d (%d nodes)", n, node_count);
                break;
            }
            if (root_count >= node_count) {
                ok = gltf_fail(g, "damaged glTF file: the scene lists a node twice");
                break;
            }
            roots[root_count++] = n;
        }
    } else {   /* no scene: the nodes nobody lists as a child */
        bool *is_child = calloc((size_t)node_count + 1, 1);
        if (!is_child) ok = gltf_fail(g, "out of memory");
        for (int n = 0; ok && n < node_count; n++) {
            const cJSON *child;
            cJSON_ArrayForEach(child, gltf_list(gltf_item(gltf_get(&g->node_list, n), "children")))
                if (cJSON_IsNumber(child) && child->valueint >= 0 && child->valueint < node_count)
                    is_child[child->valueint] = true;
        }
        for (int n = 0; ok && n < node_count; n++)
            if (!is_child[n]) roots[root_count++] = n;
        free(is_child);
    }
    if (ok && root_count == 0) ok = gltf_fail(g, "no triangle meshes in the file (the scene has no nodes)");

    /* count and number: depth-first pre-order with an explicit stack of (node, parent joint) */
    int synthetic = ok && root_count > 1 ? 1 : 0;
    int joint_count = synthetic;
    int top = 0;
    for (int r = root_count - 1; ok && r >= 0; r--) pending[top++] = roots[r], pending[top++] = synthetic ? 0 : -1;
    /* first pass: assign joints (a node seen twice is an error), parents recorded in a scratch array */
    int *parent_of = malloc(sizeof(int) * ((size_t)node_count + 1));
    int *order = malloc(sizeof(int) * ((size_t)node_count + 1));
    if (ok && (!parent_of || !order)) ok = gltf_fail(g, "out of memory");
    while (ok && top > 0) {
        int parent = pending[--top];
        int n = pending[--top];
        if (g->joint_of_node[n] >= 0) {
            ok = gltf_fail(g, "damaged glTF file: node %d is reached twice in the node hierarchy (a recursive reference: a cycle or two parents)", n);
            break;
        }
        if (joint_count >= VALIDATE_MAX_JOINTS) {
            ok = gltf_fail(g, "the node hierarchy has more than %d nodes, more than skinview accepts", VALIDATE_MAX_JOINTS);
            break;
        }
        int joint = joint_count++;
        g->joint_of_node[n] = joint;
        order[joint - synthetic] = n;
        parent_of[joint - synthetic] = parent;
        const cJSON *children = gltf_item(gltf_get(&g->node_list, n), "children");
        int child_count = cJSON_IsArray(children) ? cJSON_GetArraySize(children) : 0;
        /* pushed last child first, so the first child pops first: walk the list to its end, then back */
        const cJSON *child = child_count > 0 ? children->child : NULL;
        while (child && child->next) child = child->next;
        for (int c = child_count - 1; c >= 0 && child; c--, child = child->prev) {
            int m = cJSON_IsNumber(child) ? child->valueint : -1;
            if (m < 0 || m >= node_count) {
                ok = gltf_fail(g, "damaged glTF file: node %d lists child %d (%d nodes)", n, m, node_count);
                break;
            }
            if (g->joint_of_node[m] >= 0 || top + 2 > 2 * (node_count + 1)) {
                ok = gltf_fail(g, "damaged glTF file: node %d is reached twice in the node hierarchy (a recursive reference: a cycle or two parents)", m);
                break;
            }
            pending[top++] = m;
            pending[top++] = joint;
        }
    }
    free(pending);
    free(roots);
    if (ok && !skeleton_alloc(sk, joint_count)) ok = gltf_fail(g, "out of memory");
    if (ok) g->node_of_joint = malloc(sizeof(int) * (size_t)joint_count);
    if (ok && !g->node_of_joint) ok = gltf_fail(g, "out of memory");
    if (ok && synthetic) {
        snprintf(sk->names[0], SV_NAME_MAX, "ROOT");
        sk->parent[0] = -1;
        glm_mat4_identity(sk->rest_local[0]);
        glm_vec3_zero(sk->rest_trs[0].translation);
        glm_quat_identity(sk->rest_trs[0].rotation);
        glm_vec3_one(sk->rest_trs[0].scale);
        g->node_of_joint[0] = -1;
    }
    for (int j = synthetic; ok && j < joint_count; j++) {
        int n = order[j - synthetic];
        const cJSON *node = gltf_get(&g->node_list, n);
        g->node_of_joint[j] = n;
        sk->parent[j] = parent_of[j - synthetic];
        const char *name = gltf_string(node, "name");
        if (name && name[0]) utf8_copy_valid(sk->names[j], SV_NAME_MAX, name, strlen(name));
        else snprintf(sk->names[j], SV_NAME_MAX, "nodes_%d", n);
        node_rest(node, sk->rest_local[j], &sk->rest_trs[j]);
        const float *m = &sk->rest_local[j][0][0];
        for (int i = 0; i < 16; i++)
            if (!isfinite(m[i])) {
                ok = gltf_fail(g, "node '%s' has a non-finite transform", QUOTED(sk->names[j]));
                break;
            }
    }
    free(parent_of);
    free(order);
    return ok;
}
