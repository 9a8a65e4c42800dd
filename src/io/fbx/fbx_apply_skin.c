/* fbx_apply_skin.c — stage 8, the skin steps: skins Assimp dropped, bind matrices, SkinningType.
 *
 * Rules of this step:
 *   - Skins: a bone's inverse bind = the cluster's Transform (the mesh node's space -> the
 *     bone's at bind time; the geometric transform is already in the vertices), the mesh's bind
 *     matrix N = its node's rest scene matrix. A cluster without Transform takes
 *     TransformLink⁻¹ · the mesh's bind world, with TransformLink (the bone's bind world) and the
 *     mesh's bind world from the bind Pose when the cluster lacks them, else the rest pose.
 *   - A mesh whose clusters Assimp dropped gets its skin back from them (below).
 *   - The Skin's SkinningType (linear, dual quaternion, blend) is kept per mesh; Blend's per-vertex
 *     BlendWeights become Mesh.dq_weight.
 */
#include "fbx_apply_common.h"

/* ---- skins Assimp dropped ----------------------------------------------------------------
 * Assimp 5.2.5 drops a cluster without Transform / TransformLink, and a mesh whose clusters all
 * lack them comes out unskinned (the synthetic_sausage_wiggle_no_link rows). Such a mesh gets its
 * skin back from the clusters: each vertex is matched to its control point (the Geometry's
 * Vertices) by its position, bit for bit as Assimp copied it; the clusters' Indexes / Weights give
 * the influences (the four largest kept, renormalised; unweighted vertices follow the mesh node
 * through an extra bone, as import_mesh.c does). fbx_apply_skins then sets the bind matrices. */

typedef struct PointKey {
    float xyz[3];
    int   index;
} PointKey;

static int compare_point_keys(const void *a, const void *b)
{
    const PointKey *x = a, *y = b;
    int c = memcmp(x->xyz, y->xyz, sizeof x->xyz);
    if (c) return c;
    return (x->index > y->index) - (x->index < y->index);
}

/* by x, then by index */
static int compare_x_order(const void *a, const void *b)
{
    const PointKey *x = a, *y = b;
    if (x->xyz[0] != y->xyz[0]) return x->xyz[0] < y->xyz[0] ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

int fbx_geometry_of(const FbxScene *scene, int model_object)
{
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, model_object, k);
        if (c < 0) return -1;
        if (fbx_is_kind(scene, scene->connections[c].src, "Geometry")) return scene->connections[c].src;
    }
}

/* The control point (Vertices index) of each mesh vertex, matched by position bit for bit as
 * Assimp copied it (the first of equal control points); a vertex without an exact match (Assimp
 * parses ASCII numbers to within a few float ulps of strtod) takes the nearest control point
 * within 1e-6 of the points' bounding-box diagonal, found among the points sorted by x; -1 when
 * none is that near. *out malloc'ed. */
bool fbx_mesh_control_points(const FbxScene *scene, int geometry, const Mesh *mesh, int **out)
{
    *out = NULL;
    size_t point_count = 0;
    const double *points = fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(scene->objects[geometry].record, "Vertices"),
                                            &point_count);
    point_count /= 3;
    int *vertex_point = malloc(sizeof(int) * (size_t)(mesh->vertex_count > 0 ? mesh->vertex_count : 1));
    PointKey *keys = malloc(sizeof *keys * (point_count > 0 ? point_count : 1));
    PointKey *by_x = malloc(sizeof *by_x * (point_count > 0 ? point_count : 1));
    if (!vertex_point || !keys || !by_x) {
        free(vertex_point);
        free(keys);
        free(by_x);
        return false;
    }
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (size_t p = 0; p < point_count; p++) {
        for (int k = 0; k < 3; k++) {
            keys[p].xyz[k] = (float)points[3 * p + (size_t)k];
            lo[k] = fmin(lo[k], keys[p].xyz[k]);
            hi[k] = fmax(hi[k], keys[p].xyz[k]);
        }
        keys[p].index = (int)p;
    }
    memcpy(by_x, keys, sizeof *keys * point_count);
    qsort(keys, point_count, sizeof *keys, compare_point_keys);
    qsort(by_x, point_count, sizeof *by_x, compare_x_order);
    double diagonal = point_count > 0 ? sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                             (hi[2] - lo[2]) * (hi[2] - lo[2]))
                                      : 0.0;
    double near = 1e-6 * diagonal;
    for (int v = 0; v < mesh->vertex_count; v++) {
        PointKey probe = {{mesh->positions[v][0], mesh->positions[v][1], mesh->positions[v][2]}, -1};
        size_t lo_i = 0, hi_i = point_count;
        while (lo_i < hi_i) {
            size_t mid = (lo_i + hi_i) / 2;
            if (memcmp(keys[mid].xyz, probe.xyz, sizeof probe.xyz) < 0) lo_i = mid + 1;
            else hi_i = mid;
        }
        vertex_point[v] = lo_i < point_count && memcmp(keys[lo_i].xyz, probe.xyz, sizeof probe.xyz) == 0 ? keys[lo_i].index : -1;
        if (vertex_point[v] >= 0 || !(near > 0.0)) continue;
        /* the nearest within `near`: the points whose x lies within it, from the first x >= x - near */
        size_t first = 0, last = point_count;
        while (first < last) {
            size_t mid = (first + last) / 2;
            if (by_x[mid].xyz[0] < probe.xyz[0] - near) first = mid + 1;
            else last = mid;
        }
        double best = near * near;
        for (size_t i = first; i < point_count && by_x[i].xyz[0] <= probe.xyz[0] + near; i++) {
            double d = 0.0;
            for (int k = 0; k < 3; k++) d += ((double)by_x[i].xyz[k] - probe.xyz[k]) * ((double)by_x[i].xyz[k] - probe.xyz[k]);
            if (d <= best && (d < best || vertex_point[v] < 0 || by_x[i].index < vertex_point[v])) {
                best = d;
                vertex_point[v] = by_x[i].index;
            }
        }
    }
    free(keys);
    free(by_x);
    *out = vertex_point;
    return true;
}

static bool rebuild_dropped_skin(Apply *a, Mesh *mesh)
{
    const FbxScene *scene = a->scene;
    Skeleton *sk = &a->im->model->skeleton;
    int node = a->joint_node[mesh->node_joint];
    int geometry = fbx_geometry_of(scene, a->nodes[node].object);
    if (geometry < 0) return true;
    /* the clusters with weights, and the joint of each one's link */
    int cluster_count = 0, capacity = 0;
    int *clusters = NULL, *cluster_joint = NULL;
    for (int k = 0;; k++) {
        int cs = fbx_connection_to(scene, geometry, k);
        if (cs < 0) break;
        int skin = scene->connections[cs].src;
        if (!fbx_is_subclass(scene, skin, "Skin")) continue;
        for (int u = 0;; u++) {
            int cu = fbx_connection_to(scene, skin, u);
            if (cu < 0) break;
            int cluster = scene->connections[cu].src;
            if (!fbx_is_subclass(scene, cluster, "Cluster")) continue;
            int joint = -1;
            for (int l = 0; joint < 0; l++) {
                int cl = fbx_connection_to(scene, cluster, l);
                if (cl < 0) break;
                int link = scene->connections[cl].src;
                int link_node = link >= 0 && link < scene->object_count ? a->node_of_object[link] : -1;
                for (int j = 0; link_node >= 0 && j < sk->joint_count && joint < 0; j++)
                    if (a->joint_node[j] == link_node) joint = j;
            }
            if (joint < 0) continue;
            if (cluster_count == capacity) {
                capacity = capacity ? 2 * capacity : 16;
                int *c2 = realloc(clusters, sizeof(int) * (size_t)capacity), *j2 = c2 ? realloc(cluster_joint, sizeof(int) * (size_t)capacity) : NULL;
                if (c2) clusters = c2;
                if (j2) cluster_joint = j2;
                if (!c2 || !j2) {
                    free(clusters);
                    free(cluster_joint);
                    return false;
                }
            }
            clusters[cluster_count] = cluster;
            cluster_joint[cluster_count++] = joint;
        }
    }
    size_t point_count = 0;
    fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(scene->objects[geometry].record, "Vertices"), &point_count);
    point_count /= 3;
    if (cluster_count == 0 || point_count == 0 || mesh->vertex_count <= 0) {
        free(clusters);
        free(cluster_joint);
        return true;
    }
    int *vertex_point = NULL;
    int *order = malloc(sizeof(int) * (size_t)mesh->vertex_count), *point_start = calloc(point_count + 1, sizeof(int));
    mesh->bone_joint = malloc(sizeof(int) * (size_t)(cluster_count + 1));
    mesh->inverse_bind = malloc(sizeof(mat4) * (size_t)(cluster_count + 1));
    mesh->joint_indices = calloc((size_t)mesh->vertex_count, sizeof *mesh->joint_indices);
    mesh->weights = calloc((size_t)mesh->vertex_count, sizeof *mesh->weights);
    bool ok = fbx_mesh_control_points(scene, geometry, mesh, &vertex_point) && order && point_start && mesh->bone_joint &&
              mesh->inverse_bind && mesh->joint_indices && mesh->weights;
    for (int v = 0; ok && v < mesh->vertex_count; v++)
        if (vertex_point[v] >= 0) point_start[vertex_point[v] + 1]++;
    for (size_t p = 0; ok && p < point_count; p++) point_start[p + 1] += point_start[p];
    int *fill = ok ? malloc(sizeof(int) * (point_count + 1)) : NULL;
    ok = ok && fill;
    if (ok) {
        memcpy(fill, point_start, sizeof(int) * (point_count + 1));
        for (int v = 0; v < mesh->vertex_count; v++)
            if (vertex_point[v] >= 0) order[fill[vertex_point[v]]++] = v;
    }
    for (int c = 0; ok && c < cluster_count; c++) {
        const FbxRecord *record = scene->objects[clusters[c]].record;
        size_t index_count = 0, weight_count = 0;
        const int64_t *indexes = fbx_record_integers((FbxDocument *)&scene->doc, fbx_record_child(record, "Indexes"), &index_count);
        const double *weights = fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(record, "Weights"), &weight_count);
        mesh->bone_joint[c] = cluster_joint[c];
        glm_mat4_identity(mesh->inverse_bind[c]);
        for (size_t i = 0; indexes && weights && i < index_count && i < weight_count; i++) {
            int64_t p = indexes[i];
            float w = (float)weights[i];
            if (p < 0 || (size_t)p >= point_count || !(w > 0.0f) || !isfinite(w)) continue;
            for (int k = point_start[p]; k < point_start[p + 1]; k++) influence_keep_largest(mesh->joint_indices[order[k]], mesh->weights[order[k]], c, w);
        }
    }
    /* renormalised; unweighted vertices on one extra bone = the mesh's node (as every reader) */
    int bone_count = ok ? mesh_normalize_weights(mesh, cluster_count, NULL) : cluster_count;
    if (ok) {
        mesh->bone_count = bone_count;
        mesh->skinned = true;
        for (int b = 0; b < bone_count; b++) sk->is_bone[mesh->bone_joint[b]] = true;
        a->im->model->stats.skins_rebuilt++;
    }
    free(fill), free(vertex_point), free(order), free(point_start), free(clusters), free(cluster_joint);
    return ok;
}

bool fbx_rebuild_dropped_skins(Apply *a)
{
    Model *model = a->im->model;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (mesh->skinned || mesh->bone_count > 0 || fbx_mesh_node(a, mesh) < 0) continue;
        if (!rebuild_dropped_skin(a, mesh)) return false;
    }
    return true;
}

/* ---- skins ------------------------------------------------------------------------------- */

/* The bind Pose's matrix of a Model (any Pose object of type BindPose), or false. */
static bool bind_pose_matrix(const FbxScene *scene, int64_t model_id, double out[16])
{
    for (int o = 0; o < scene->object_count; o++) {
        if (!fbx_is_kind(scene, o, "Pose")) continue;
        const FbxRecord *record = scene->objects[o].record;
        for (int c = 0; record && c < record->child_count; c++) {
            const FbxRecord *pose_node = &record->children[c];
            if (strcmp(pose_node->name, "PoseNode") != 0) continue;
            const FbxRecord *node = fbx_record_child(pose_node, "Node");
            if (!node || node->value_count < 1) continue;
            const FbxValue *v = &node->values[0];
            bool same = v->type == FBX_VALUE_INTEGER ? v->integer == model_id : false;
            if (!same && v->type == FBX_VALUE_STRING && v->string) {   /* FBX 6: by name */
                int object = -1;
                for (int m = 0; m < scene->object_count && object < 0; m++)
                    if (scene->objects[m].id == model_id) object = m;
                const char *name = object >= 0 ? scene->objects[object].name : NULL;
                const char *s = v->string;
                if (strncmp(s, "Model::", 7) == 0) s += 7;
                same = name && strcmp(s, name) == 0;
            }
            if (same && fbx_record_matrix(scene, pose_node, "Matrix", out)) return true;
        }
    }
    return false;
}

/* The Cluster of the skin on the mesh Model `mesh_object` whose link is `bone_object`, or -1. */
static int find_cluster(const FbxScene *scene, int mesh_object, int bone_object)
{
    for (int k = 0;; k++) {   /* geometry of the mesh Model */
        int c = fbx_connection_to(scene, mesh_object, k);
        if (c < 0) return -1;
        int geometry = scene->connections[c].src;
        if (!fbx_is_kind(scene, geometry, "Geometry")) continue;
        for (int s = 0;; s++) {   /* skin deformers on it */
            int cs = fbx_connection_to(scene, geometry, s);
            if (cs < 0) break;
            int skin = scene->connections[cs].src;
            if (!fbx_is_kind(scene, skin, "Deformer") || !fbx_is_subclass(scene, skin, "Skin")) continue;
            for (int u = 0;; u++) {   /* its clusters */
                int cu = fbx_connection_to(scene, skin, u);
                if (cu < 0) break;
                int cluster = scene->connections[cu].src;
                if (!fbx_is_subclass(scene, cluster, "Cluster")) continue;
                for (int l = 0;; l++) {   /* the cluster's link Model */
                    int cl = fbx_connection_to(scene, cluster, l);
                    if (cl < 0) break;
                    if (scene->connections[cl].src == bone_object) return cluster;
                }
            }
        }
    }
}

/* The Skin deformer on a Geometry, or -1. */
static int skin_of(const FbxScene *scene, int geometry)
{
    for (int k = 0; geometry >= 0; k++) {
        int c = fbx_connection_to(scene, geometry, k);
        if (c < 0) break;
        if (fbx_is_subclass(scene, scene->connections[c].src, "Skin")) return scene->connections[c].src;
    }
    return -1;
}

/* The SkinningType the Skin deformer of a mesh Model's geometry names (MESH_SKINNING_*). */
static int skinning_type(const FbxScene *scene, int mesh_object)
{
    int skin = skin_of(scene, fbx_geometry_of(scene, mesh_object));
    if (skin < 0) return MESH_SKINNING_LINEAR;
    const FbxRecord *type = fbx_record_child(scene->objects[skin].record, "SkinningType");
    const char *name = type && type->value_count > 0 && type->values[0].type == FBX_VALUE_STRING ? type->values[0].string : NULL;
    if (!name) name = fbx_object_property_string(scene, skin, "SkinningType");
    if (name && strcmp(name, "DualQuaternion") == 0) return MESH_SKINNING_DUAL_QUATERNION;
    if (name && strcmp(name, "Blend") == 0) return MESH_SKINNING_BLEND;
    return MESH_SKINNING_LINEAR;
}

/* SkinningType Blend: the Skin lists a DQS share per control point (Indexes / BlendWeights, 0 for
 * the points it does not list); each vertex takes its control point's (Mesh.dq_weight, matched
 * by position as the rebuilt skins are; before fbx_apply_geometric moves the vertices). */
bool fbx_apply_dq_weights(Apply *a)
{
    Model *model = a->im->model;
    const FbxScene *scene = a->scene;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        int mesh_node = fbx_mesh_node(a, mesh);
        if (!mesh->skinned || mesh->vertex_count <= 0 || mesh_node < 0) continue;
        int mesh_object = a->nodes[mesh_node].object;
        if (skinning_type(scene, mesh_object) != MESH_SKINNING_BLEND) continue;
        int geometry = fbx_geometry_of(scene, mesh_object), skin = skin_of(scene, geometry);
        const FbxRecord *record = scene->objects[skin].record;
        size_t point_count = 0, index_count = 0, weight_count = 0;
        fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(scene->objects[geometry].record, "Vertices"), &point_count);
        point_count /= 3;
        const int64_t *indexes = fbx_record_integers((FbxDocument *)&scene->doc, fbx_record_child(record, "Indexes"), &index_count);
        const double *weights = fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(record, "BlendWeights"), &weight_count);
        int *vertex_point = NULL;
        float *point_weight = calloc(point_count + 1, sizeof *point_weight);
        free(mesh->dq_weight);
        mesh->dq_weight = calloc((size_t)mesh->vertex_count, sizeof *mesh->dq_weight);
        bool ok = point_weight && mesh->dq_weight && fbx_mesh_control_points(scene, geometry, mesh, &vertex_point);
        for (size_t i = 0; ok && indexes && weights && i < index_count && i < weight_count; i++)
            if (indexes[i] >= 0 && (size_t)indexes[i] < point_count && isfinite(weights[i]))
                point_weight[indexes[i]] = (float)(weights[i] < 0.0 ? 0.0 : weights[i] > 1.0 ? 1.0 : weights[i]);
        for (int v = 0; ok && v < mesh->vertex_count; v++)
            mesh->dq_weight[v] = vertex_point[v] >= 0 ? point_weight[vertex_point[v]] : 0.0f;
        free(point_weight);
        free(vertex_point);
        if (!ok) return false;
    }
    return true;
}

void fbx_apply_skins(Apply *a, const double *rest_scene, const bool *node_animated)
{
    Model *model = a->im->model;
    const FbxScene *scene = a->scene;
    bool from_maya = strcmp(fbx_writing_application(scene), "Maya") == 0;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        int mesh_node = fbx_mesh_node(a, mesh);
        if (!mesh->skinned || mesh_node < 0) continue;
        int mesh_object = a->nodes[mesh_node].object;
        mesh->skinning_in_file = (uint8_t)skinning_type(scene, mesh_object);
        double bind_world[16];
        bool have_bind_world = false;
        for (int b = 0; b < mesh->bone_count; b++) {
            int joint = mesh->bone_joint[b];
            int bone_node = joint >= 0 && joint < model->skeleton.joint_count ? a->joint_node[joint] : -1;
            if (bone_node < 0) continue;
            int bone_object = a->nodes[bone_node].object;
            int cluster = find_cluster(scene, mesh_object, bone_object);
            if (cluster < 0) continue;   /* the extra bone of unweighted vertices, or not a cluster */
            const FbxRecord *record = scene->objects[cluster].record;
            /* Transform: the mesh node's space -> the bone's space at bind time (what ufbx calls
             * mesh_node_to_bone); TransformLink: the bone's world at bind time */
            double node_to_bone[16], bone_bind[16], root_inverse[16];
            bool have_offset = fbx_record_matrix(scene, record, "Transform", node_to_bone);
            bool have_link = fbx_record_matrix(scene, record, "TransformLink", bone_bind);
            if (!fbx_matrix_invert(a->root_matrix, root_inverse)) fbx_matrix_identity(root_inverse);
            /* missing: the bind pose's matrices of the bone and mesh Models, else their rest worlds */
            if (!have_link && !bind_pose_matrix(scene, scene->objects[bone_object].id, bone_bind))
                fbx_matrix_mul(root_inverse, &rest_scene[16 * joint], bone_bind);
            if (!have_offset) {
                double mesh_world[16], link_inverse[16];
                if (!bind_pose_matrix(scene, scene->objects[mesh_object].id, mesh_world))
                    fbx_matrix_mul(root_inverse, &rest_scene[16 * mesh->node_joint], mesh_world);
                if (!fbx_matrix_invert(bone_bind, link_inverse)) continue;
                fbx_matrix_mul(link_inverse, mesh_world, node_to_bone);
            }
            /* inverse bind = Transform: the mesh node's space (the geometry, its geometric transform
             * applied by fbx_apply_geometric) -> the bone at bind time */
            fbx_to_mat4(node_to_bone, mesh->inverse_bind[b]);
            if (!have_bind_world) {   /* the mesh node's world at bind: TransformLink · Transform */
                fbx_matrix_mul(bone_bind, node_to_bone, bind_world);
                have_bind_world = true;
            }
        }
        /* Maya shows a skinned mesh whose node moved (or moves) after binding following that
         * motion (maya_transformed_skin): palette = M_node(now) · inverse(M_node(bind)) · ...
         * Only Maya: the FBX SDK's own deformation (and ufbx) moves the vertices by the bones
         * alone, and so does Blender's export of its FBX 6.1 files, whose mesh node is not where
         * TransformLink · Transform puts it (blender_279_sausage_6100_ascii: 0.82 off when followed) */
        if (have_bind_world) {
            double scene_bind[16], inverse[16], largest = 0, worst = 0;
            fbx_matrix_mul(a->root_matrix, bind_world, scene_bind);
            for (int i = 0; i < 16; i++) {
                largest = fmax(largest, fabs(scene_bind[i]));
                worst = fmax(worst, fabs(scene_bind[i] - rest_scene[16 * mesh->node_joint + i]));
            }
            bool animated = node_animated && node_animated[mesh_node];
            if (from_maya && (animated || worst > 1e-6 * fmax(largest, 1.0)) && fbx_matrix_invert(scene_bind, inverse)) {
                mesh->skin_follows_node = true;
                fbx_to_mat4(inverse, mesh->skin_bind_node_inverse);
            }
        }
        /* N: the mesh node's rest scene matrix (docs/skinning.md: where --clip bind places it) */
        fbx_to_mat4(&rest_scene[16 * mesh->node_joint], mesh->bind_matrix);
    }
}
