/* fbx_apply.c — stage 8: the FBX file's own transforms, clips and skins put into the Model.
 *
 * This file: the FBX Models as nodes (parents first), matching Assimp's joints to them, and the
 * stage itself (import_fbx_apply), which runs the steps in order (the small readers every step
 * uses are fbx_apply_common.c's):
 * rest pose and scale helpers (fbx_apply_rest.c), dropped skins and DQ shares (fbx_apply_skin.c),
 * blend shapes (fbx_apply_blend.c), geometric transforms, bind matrices, --info's list of what is
 * not applied (fbx_apply_unhandled.c), clips (fbx_apply_clip.c).
 *
 * Rules of this step (see fbx_apply.h for what the stage replaces and why):
 *   - Matching (fbx_match_joints): Assimp 5.2.5 (pivots off) makes one node per FBX Model, named
 *     like it, under a "RootNode" that stands for the FBX scene root. Walking the joints parents
 *     first, a joint is the not yet matched Model with its name among the children of the Model
 *     its parent joint matched (trap 10: names repeat, the parent chain tells them apart). A mesh
 *     belongs to the Model of its node joint.
 *   - Nodes: every Model, parents before children (sorted by depth, then object order), with its
 *     static transform properties, its geometric transform and the node whose scale it inherits.
 */
#include "fbx_apply.h"
#include "fbx_apply_common.h"

static void read_vec3(const FbxScene *scene, int object, const char *name, double out[3])
{
    double v[3];
    if (fbx_object_property_numbers(scene, object, name, v, 3) == 3 && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]))
        memcpy(out, v, sizeof v);
}

/* ---- the FBX Models ---------------------------------------------------------------- */

static int compare_depth(const void *a, const void *b)
{
    const Node *x = a, *y = b;
    if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
    return (x->object > y->object) - (x->object < y->object);
}

/* The Model a Model hangs under (its OO connection to another Model), or -1 for the root. */
static int model_parent_object(const FbxScene *scene, int object)
{
    for (int k = 0;; k++) {
        int c = fbx_connection_from(scene, object, k);
        if (c < 0) return -1;
        const FbxConnection *connection = &scene->connections[c];
        if (connection->property) continue;
        if (connection->dst < 0) return -1;
        if (connection->dst != object && fbx_is_kind(scene, connection->dst, "Model")) return connection->dst;
    }
}

static void read_node_properties(const FbxScene *scene, int object, FbxNodeProperties *p)
{
    fbx_node_properties_default(p);
    for (int k = 0; k < FBX_NODE_VEC3_PROPERTY_COUNT; k++)
        read_vec3(scene, object, fbx_node_vec3_properties[k].name, (double *)((char *)p + fbx_node_vec3_properties[k].offset));
    int order = fbx_real_to_int(fbx_read_number(scene, object, "RotationOrder", 0));
    p->rotation_order = order >= 0 && order <= 5 ? order : 0;
    p->rotation_active = fbx_read_number(scene, object, "RotationActive", 1) != 0;
    p->rotation_space_for_limit_only = fbx_read_number(scene, object, "RotationSpaceForLimitOnly", 0) != 0;
    int inherit = fbx_real_to_int(fbx_read_number(scene, object, "InheritType", FBX_INHERIT_RSrs));
    p->inherit_type = inherit >= 0 && inherit <= 2 ? inherit : FBX_INHERIT_RSrs;
}

static bool collect_nodes(Apply *a)
{
    const FbxScene *scene = a->scene;
    int count = 0;
    for (int o = 0; o < scene->object_count; o++) count += fbx_is_kind(scene, o, "Model");
    a->nodes = calloc((size_t)(count > 0 ? count : 1), sizeof *a->nodes);
    a->node_of_object = malloc(sizeof(int) * (size_t)(scene->object_count > 0 ? scene->object_count : 1));
    if (!a->nodes || !a->node_of_object) return false;
    int *parent_object = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
    if (!parent_object) return false;
    for (int o = 0; o < scene->object_count; o++) a->node_of_object[o] = -1;
    int n = 0;
    for (int o = 0; o < scene->object_count; o++)
        if (fbx_is_kind(scene, o, "Model")) {
            a->nodes[n].object = o;
            parent_object[n] = model_parent_object(scene, o);
            a->node_of_object[o] = n++;
        }
    a->node_count = n;
    /* depths by walking up (a cycle stops at `count` steps and hangs under the root) */
    for (int i = 0; i < n; i++) {
        int depth = 0, p = parent_object[i];
        while (p >= 0 && depth <= n) {
            depth++;
            int pi = a->node_of_object[p];
            p = pi >= 0 ? parent_object[pi] : -1;
        }
        a->nodes[i].depth = depth > n ? 0 : depth;
        if (depth > n) parent_object[i] = -1;
        a->nodes[i].parent = parent_object[i];   /* an object index for now */
    }
    free(parent_object);
    qsort(a->nodes, (size_t)n, sizeof *a->nodes, compare_depth);
    for (int i = 0; i < n; i++) a->node_of_object[a->nodes[i].object] = i;
    for (int i = 0; i < n; i++) {
        Node *node = &a->nodes[i];
        node->parent = node->parent >= 0 ? a->node_of_object[node->parent] : -1;
        read_node_properties(scene, node->object, &node->props);
        fbx_node_geometric(&node->props, &node->geometric);
        const FbxNodeProperties *p = &node->props;
        node->has_geometric = p->geometric_translation[0] != 0 || p->geometric_translation[1] != 0 ||
                              p->geometric_translation[2] != 0 || p->geometric_rotation[0] != 0 ||
                              p->geometric_rotation[1] != 0 || p->geometric_rotation[2] != 0 ||
                              p->geometric_scaling[0] != 1 || p->geometric_scaling[1] != 1 || p->geometric_scaling[2] != 1;
        int parent = node->parent;
        node->scale_source = fbx_scale_source(p->inherit_type, parent, parent >= 0 ? a->nodes[parent].props.inherit_type : 0,
                                              parent >= 0 ? a->nodes[parent].scale_source : -1);
    }
    return true;
}

/* ---- matching Assimp's joints to the Models ---------------------------------------- */

int fbx_match_joints(const FbxScene *scene, const Importer *im, FbxJointMap *map)
{
    const Skeleton *sk = &im->model->skeleton;
    map->joint_count = sk->joint_count;
    map->joint_object = malloc(sizeof(int) * (size_t)(sk->joint_count > 0 ? sk->joint_count : 1));
    bool *taken = calloc((size_t)(scene->object_count > 0 ? scene->object_count : 1), sizeof(bool));
    if (!map->joint_object || !taken) {
        free(taken);
        return -1;
    }
    int unmatched = 0;
    for (int j = 0; j < sk->joint_count; j++) {
        int parent = sk->parent[j];
        /* Assimp's node name; a Model built by fbx_legacy.c has no nodes: its joints carry the Models' names */
        const char *name = im->nodes ? im->nodes[j]->mName.data : sk->names[j];
        if (parent < 0) {   /* Assimp's root stands for the scene root */
            map->joint_object[j] = FBX_JOINT_ROOT;
            continue;
        }
        /* the nearest matched ancestor's Model (or the root) */
        int above = parent;
        while (above >= 0 && map->joint_object[above] == FBX_JOINT_NONE) above = sk->parent[above];
        int parent_object = above >= 0 ? map->joint_object[above] : FBX_JOINT_ROOT;
        int found = FBX_JOINT_NONE;
        for (int o = 0; o < scene->object_count && found == FBX_JOINT_NONE; o++) {
            if (taken[o] || !fbx_is_kind(scene, o, "Model") || !scene->objects[o].name) continue;
            if (strcmp(scene->objects[o].name, name) != 0) continue;
            int p = model_parent_object(scene, o);
            if ((parent_object == FBX_JOINT_ROOT && p < 0) || p == parent_object) found = o;
        }
        if (found >= 0) taken[found] = true;
        else unmatched++;
        map->joint_object[j] = found;
    }
    free(taken);
    return unmatched;
}

void fbx_joint_map_free(FbxJointMap *map)
{
    free(map->joint_object);
    map->joint_object = NULL;
    map->joint_count = 0;
}

/* ---- the stage ---------------------------------------------------------------------------- */

bool import_fbx_apply(Importer *im, const void *bytes, size_t size)
{
    FbxScene scene;
    char error[256];
    if (!fbx_scene_read(&scene, bytes, size, error, sizeof error)) {
        import_warn(im, "the FBX reader cannot read this file (%s); transforms, clips and skins are Assimp's", error);
        return true;
    }
    /* the file's axis system and unit, for --info and the glTF export (skinview keeps scene space as it is) */
    int axis_of[3] = {scene.coord_axis, scene.up_axis, scene.front_axis}, sign_of[3] = {scene.coord_axis_sign,
                                                                                         scene.up_axis_sign, scene.front_axis_sign};
    bool distinct = axis_of[0] != axis_of[1] && axis_of[1] != axis_of[2] && axis_of[0] != axis_of[2];
    for (int k = 0; k < 3; k++) distinct = distinct && axis_of[k] >= 0 && axis_of[k] <= 2;
    if (scene.settings_found && distinct)
        im->model->axes = (SceneAxes){.known = true,
                                      .right_axis = (int8_t)axis_of[0], .right_sign = (int8_t)(sign_of[0] < 0 ? -1 : 1),
                                      .up_axis = (int8_t)axis_of[1], .up_sign = (int8_t)(sign_of[1] < 0 ? -1 : 1),
                                      .front_axis = (int8_t)axis_of[2], .front_sign = (int8_t)(sign_of[2] < 0 ? -1 : 1),
                                      .metres_per_unit = scene.unit_scale_factor / 100.0};
    for (int o = 0; o < scene.object_count; o++) {
        if (scene.curves[o].key_count > 0) fbx_curve_solve_auto_tangents(&scene.curves[o]);
        if (im->hold_end_keys) scene.curves[o].pre = scene.curves[o].post = FBX_EXTRAPOLATION_CONSTANT;   /* --no-extrapolation */
    }
    Apply a = {.im = im, .scene = &scene};
    Stack *stacks = NULL;
    int stack_count = 0;
    double *scene_world = NULL, *rest_scene = NULL;
    bool ok = collect_nodes(&a);
    int unmatched = ok ? fbx_match_joints(&scene, im, &a.map) : -1;
    ok = ok && unmatched >= 0;
    if (ok) {
        Skeleton *sk = &im->model->skeleton;
        a.joint_node = malloc(sizeof(int) * (size_t)(sk->joint_count > 0 ? sk->joint_count : 1));
        a.helper_node = malloc(sizeof(int) * (size_t)(sk->joint_count > 0 ? sk->joint_count : 1));
        ok = a.joint_node && a.helper_node;
        fbx_matrix_identity(a.root_matrix);
        for (int j = 0; ok && j < sk->joint_count; j++) {
            int object = a.map.joint_object[j];
            a.joint_node[j] = object >= 0 ? a.node_of_object[object] : -1;
            a.helper_node[j] = -1;
            if (object == FBX_JOINT_ROOT && sk->parent[j] < 0) fbx_from_mat4(sk->rest_local[j], a.root_matrix);
        }
        if (unmatched > 0) import_warn(im, "%d nodes match no FBX Model; they keep Assimp's transform", unmatched);
    }
    if (ok) {
        stack_count = fbx_collect_stacks(&a, &stacks);
        ok = stack_count >= 0;
    }
    ok = ok && fbx_insert_scale_helpers(&a, stacks, stack_count) && fbx_set_source_features(&a, stacks, stack_count);
    if (ok) {
        int joints = im->model->skeleton.joint_count;
        scene_world = malloc(sizeof(double) * 16 * (size_t)(joints > 0 ? joints : 1));
        rest_scene = malloc(sizeof(double) * 16 * (size_t)(joints > 0 ? joints : 1));
        ok = scene_world && rest_scene && fbx_apply_rest(&a, scene_world) >= 0;
        if (ok) {
            memcpy(rest_scene, scene_world, sizeof(double) * 16 * (size_t)joints);
            ok = fbx_rebuild_dropped_skins(&a) && fbx_apply_dq_weights(&a) && fbx_apply_blend_shapes(&a);
            fbx_apply_geometric(&a);
            bool *node_animated = calloc((size_t)(a.node_count > 0 ? a.node_count : 1), sizeof(bool));
            for (int k = 0; node_animated && k < stack_count; k++)
                for (int c = 0; c < stacks[k].channel_count; c++) node_animated[stacks[k].channels[c].node] = true;
            fbx_apply_skins(&a, rest_scene, node_animated);
            free(node_animated);
            if (ok) fbx_report_unhandled(&a, stacks, stack_count);
            ok = ok && fbx_apply_clips(&a, stacks, stack_count, scene_world);
        }
    }
    if (!ok) import_fail(im, "out of memory");
    fbx_free_stacks(stacks, stack_count > 0 ? stack_count : 0);
    free(scene_world);
    free(rest_scene);
    free(a.joint_node);
    free(a.helper_node);
    free(a.nodes);
    free(a.node_of_object);
    for (int m = 0; a.blends && m < im->model->mesh_count; m++) fbx_blend_mesh_free(&a.blends[m]);
    free(a.blends);
    fbx_joint_map_free(&a.map);
    fbx_scene_free(&scene);
    return ok;
}
