/* fbx_apply.c — stage 9: the FBX file's own transforms, clips and skins put into the Model.
 *
 * Rules of this stage (see fbx_apply.h for what it replaces and why):
 *   - Matching (fbx_match_joints): Assimp 5.2.5 (pivots off) makes one node per FBX Model, named
 *     like it, under a "RootNode" that stands for the FBX scene root. Walking the joints parents
 *     first, a joint is the not yet matched Model with its name among the children of the Model
 *     its parent joint matched (trap 10: names repeat, the parent chain tells them apart). A mesh
 *     belongs to the Model of its node joint.
 *   - Scene space: a joint's scene matrix = the scene matrix of Assimp's root joint · the Model's
 *     FBX node-to-world (fbx_node_world, with its InheritType), in double precision; a joint
 *     without a Model keeps Assimp's local transform. The Model's local transform of a joint is
 *     then inverse(parent's scene matrix) · its scene matrix. For RSrs that is the FBX local
 *     transform itself; for RrSs / Rrs under a parent with a non-uniform scale it can hold a
 *     shear that translation · rotation · scale cannot: rest_local keeps the exact matrix, the
 *     keys the TRS part (the error this leaves is measured in docs/accuracy.md).
 *   - Geometric transforms move a Model's geometry only: a mesh's vertices (and normals, morph
 *     deltas) get G, so that mesh space is the node's space, as for every other format.
 *   - Clips: one per AnimationStack, in file order, named like it, covering LocalStart ..
 *     LocalStop (a key a float rounding past an edge widens it: the take-edge rule of
 *     import_fbx.c). The base layer's curve nodes drive the Models' transform properties; the
 *     curves are evaluated exactly (fbx_curve.c: cubic, extrapolation) and every affected joint
 *     gets LINEAR keys at every frame of the file's frame rate and at every key time: at those
 *     times the pose is the FBX pose exactly, between them the TRS is interpolated (why, and the
 *     error: docs/accuracy.md). Morph tracks Assimp made for a clip of the same name are kept.
 *   - Skins: a bone's inverse bind = the cluster's Transform (the mesh node's space -> the
 *     bone's at bind time; the geometric transform is already in the vertices), the mesh's bind
 *     matrix N = its node's rest scene matrix. A cluster without Transform takes
 *     TransformLink⁻¹ · the mesh's bind world, with TransformLink (the bone's bind world) and the
 *     mesh's bind world from the bind Pose when the cluster lacks them, else the rest pose.
 */
#include "fbx_apply.h"
#include "fbx_blend.h"
#include "fbx_curve.h"
#include "fbx_transform.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES_PER_CLIP 200000      /* frames + key times of one stack */
#define MAX_SAMPLE_VALUES (16u << 20)    /* samples x animated joints of one stack (x 10 floats) */

/* ---- small helpers ---------------------------------------------------------------- */

static bool is_kind(const FbxScene *scene, int object, const char *kind)
{
    return object >= 0 && object < scene->object_count && scene->objects[object].kind &&
           strcmp(scene->objects[object].kind, kind) == 0;
}

static bool is_subclass(const FbxScene *scene, int object, const char *subclass)
{
    return object >= 0 && object < scene->object_count && scene->objects[object].subclass &&
           strcmp(scene->objects[object].subclass, subclass) == 0;
}

/* The application that wrote the file: SceneInfo's "Original|ApplicationName" ("Maya", "3ds Max",
 * "MotionBuilder", "Blender" ...; in FBXHeaderExtension for 7.x, among the Objects for 6.1), else
 * the top-level Creator string (the FBX 6.1 exporter of Blender 2.79 writes only "Blender version
 * 2.79 (sub 0)" there); "" when neither is there. */
static const char *writing_application(const FbxScene *scene)
{
    static const char *const parents[2] = {"FBXHeaderExtension", "Objects"};
    for (int w = 0; w < 2; w++) {
        const FbxRecord *parent = fbx_record_child(&scene->doc.root, parents[w]);
        const FbxRecord *info = parent ? fbx_record_child(parent, "SceneInfo") : NULL;
        const FbxRecord *props = info ? fbx_record_child(info, "Properties70") : NULL;
        if (info && !props) props = fbx_record_child(info, "Properties60");
        for (int i = 0; props && i < props->child_count; i++) {
            const FbxRecord *p = &props->children[i];
            if (p->value_count < 2 || p->values[0].type != FBX_VALUE_STRING || !p->values[0].string ||
                strcmp(p->values[0].string, "Original|ApplicationName") != 0)
                continue;
            const FbxValue *last = &p->values[p->value_count - 1];
            if (last->type == FBX_VALUE_STRING && last->string) return last->string;
        }
    }
    const FbxRecord *creator = fbx_record_child(&scene->doc.root, "Creator");
    if (creator && creator->value_count > 0 && creator->values[0].type == FBX_VALUE_STRING && creator->values[0].string)
        return creator->values[0].string;
    return "";
}

static void read_vec3(const FbxScene *scene, int object, const char *name, double out[3])
{
    double v[3];
    if (fbx_object_property_numbers(scene, object, name, v, 3) == 3 && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]))
        memcpy(out, v, sizeof v);
}

static double read_number(const FbxScene *scene, int object, const char *name, double fallback)
{
    double v;
    return fbx_object_property_numbers(scene, object, name, &v, 1) >= 1 && isfinite(v) ? v : fallback;
}

static void to_mat4(const double m[16], mat4 out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[c][r] = (float)m[4 * c + r];
}

static void from_mat4(mat4 m, double out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[4 * c + r] = m[c][r];
}

/* The 16 numbers of a child record (Cluster Transform / TransformLink, PoseNode Matrix). */
static bool record_matrix(const FbxScene *scene, const FbxRecord *record, const char *name, double out[16])
{
    const FbxRecord *child = record ? fbx_record_child(record, name) : NULL;
    size_t count = 0;
    const double *values = child ? fbx_record_reals((FbxDocument *)&scene->doc, child, &count) : NULL;
    if (!values || count != 16) return false;
    for (int i = 0; i < 16; i++)
        if (!isfinite(values[i])) return false;
    memcpy(out, values, sizeof(double) * 16);
    return true;
}

/* ---- the FBX Models ---------------------------------------------------------------- */

typedef struct Node {
    int               object;
    int               parent;        /* index into nodes[], -1: under the scene root */
    int               depth;
    FbxNodeProperties props;         /* the static values */
    FbxTrs            geometric;
    bool              has_geometric;
    int               scale_source;  /* index into nodes[] or -1 (fbx_scale_source) */
} Node;

typedef struct Apply {
    Importer       *im;
    const FbxScene *scene;
    int             node_count;
    Node           *nodes;           /* parents before children */
    int            *node_of_object;  /* [object_count] -> index into nodes[], -1 */
    FbxJointMap     map;
    int            *joint_node;      /* [joint] -> node index, -1 none (root, unmatched or a helper) */
    int            *helper_node;     /* [joint] -> for a scale helper joint, the node whose unscaled
                                        world it is (insert_scale_helpers); -1 for every other joint */
    double          root_matrix[16]; /* the scene matrix of the FBX scene root (Assimp's root joint) */
    FbxBlendMesh   *blends;          /* [mesh_count] the FBX blend shapes that replaced Assimp's morph
                                        targets of each mesh (channel_count 0: none) */
} Apply;

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
        if (connection->dst != object && is_kind(scene, connection->dst, "Model")) return connection->dst;
    }
}

static void read_node_properties(const FbxScene *scene, int object, FbxNodeProperties *p)
{
    fbx_node_properties_default(p);
    read_vec3(scene, object, "Lcl Translation", p->translation);
    read_vec3(scene, object, "Lcl Rotation", p->rotation);
    read_vec3(scene, object, "Lcl Scaling", p->scaling);
    read_vec3(scene, object, "PreRotation", p->pre_rotation);
    read_vec3(scene, object, "PostRotation", p->post_rotation);
    read_vec3(scene, object, "RotationOffset", p->rotation_offset);
    read_vec3(scene, object, "RotationPivot", p->rotation_pivot);
    read_vec3(scene, object, "ScalingOffset", p->scaling_offset);
    read_vec3(scene, object, "ScalingPivot", p->scaling_pivot);
    read_vec3(scene, object, "GeometricTranslation", p->geometric_translation);
    read_vec3(scene, object, "GeometricRotation", p->geometric_rotation);
    read_vec3(scene, object, "GeometricScaling", p->geometric_scaling);
    int order = (int)read_number(scene, object, "RotationOrder", 0);
    p->rotation_order = order >= 0 && order <= 5 ? order : 0;
    p->rotation_active = read_number(scene, object, "RotationActive", 1) != 0;
    p->rotation_space_for_limit_only = read_number(scene, object, "RotationSpaceForLimitOnly", 0) != 0;
    int inherit = (int)read_number(scene, object, "InheritType", FBX_INHERIT_RSrs);
    p->inherit_type = inherit >= 0 && inherit <= 2 ? inherit : FBX_INHERIT_RSrs;
}

static bool collect_nodes(Apply *a)
{
    const FbxScene *scene = a->scene;
    int count = 0;
    for (int o = 0; o < scene->object_count; o++) count += is_kind(scene, o, "Model");
    a->nodes = calloc((size_t)(count > 0 ? count : 1), sizeof *a->nodes);
    a->node_of_object = malloc(sizeof(int) * (size_t)(scene->object_count > 0 ? scene->object_count : 1));
    if (!a->nodes || !a->node_of_object) return false;
    int *parent_object = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
    if (!parent_object) return false;
    for (int o = 0; o < scene->object_count; o++) a->node_of_object[o] = -1;
    int n = 0;
    for (int o = 0; o < scene->object_count; o++)
        if (is_kind(scene, o, "Model")) {
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
            if (taken[o] || !is_kind(scene, o, "Model") || !scene->objects[o].name) continue;
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

/* ---- poses: every node's world, then every joint's local ----------------------------- */

/* World of every node for the given properties (props[i] for node i). */
static void nodes_world(const Apply *a, const FbxNodeProperties *props, FbxNodeWorld *world)
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
static void joints_scene(const Apply *a, const FbxNodeWorld *world, double *scene_world /* [joint*16] */)
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
            from_mat4(sk->rest_local[j], local);
            if (sk->parent[j] < 0) memcpy(out, local, sizeof local);
            else fbx_matrix_mul(&scene_world[16 * sk->parent[j]], local, out);
        }
    }
}

/* local_j = inverse(scene_parent) · scene_j; false if the parent's matrix is singular */
static bool joint_local(const Skeleton *sk, const double *scene_world, int j, double local[16])
{
    int parent = sk->parent[j];
    if (parent < 0) {
        memcpy(local, &scene_world[16 * j], sizeof(double) * 16);
        return true;
    }
    double inverse[16];
    if (!fbx_matrix_invert(&scene_world[16 * parent], inverse)) return false;
    fbx_matrix_mul(inverse, &scene_world[16 * j], local);
    return true;
}

static void trs_to_joint(const FbxTrs *trs, JointTransform *out)
{
    for (int k = 0; k < 3; k++) {
        out->translation[k] = (float)trs->translation[k];
        out->scale[k] = (float)trs->scale[k];
    }
    for (int k = 0; k < 4; k++) out->rotation[k] = (float)trs->rotation[k];
}

/* ---- rest pose ------------------------------------------------------------------------ */

static double apply_rest(Apply *a, double *scene_world)
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
    nodes_world(a, props, world);
    joints_scene(a, world, scene_world);
    for (int j = 0; j < sk->joint_count; j++) {
        if (a->joint_node[j] < 0 && a->helper_node[j] < 0) continue;
        double local[16];
        if (!joint_local(sk, scene_world, j, local)) continue;
        FbxTrs trs;
        double shear = fbx_matrix_to_trs(local, &trs);
        worst_shear = fmax(worst_shear, shear);
        to_mat4(local, sk->rest_local[j]);
        trs_to_joint(&trs, &sk->rest_trs[j]);
    }
    free(props);
    free(world);
    return worst_shear;
}

/* ---- geometric transforms: into the vertices (mesh space = the node's space) ------------------------------------------ */

static void apply_geometric(Apply *a)
{
    Model *model = a->im->model;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (mesh->node_joint < 0 || mesh->node_joint >= model->skeleton.joint_count) continue;
        int node = a->joint_node[mesh->node_joint];
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

/* ---- skins Assimp dropped ----------------------------------------------------------------
 * Assimp 5.2.5 drops a cluster without Transform / TransformLink, and a mesh whose clusters all
 * lack them comes out unskinned (the synthetic_sausage_wiggle_no_link rows). Such a mesh gets its
 * skin back from the clusters: each vertex is matched to its control point (the Geometry's
 * Vertices) by its position, bit for bit as Assimp copied it; the clusters' Indexes / Weights give
 * the influences (the four largest kept, renormalised; unweighted vertices follow the mesh node
 * through an extra bone, as import_mesh.c does). apply_skins then sets the bind matrices. */

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

static int geometry_of(const FbxScene *scene, int model_object)
{
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, model_object, k);
        if (c < 0) return -1;
        if (is_kind(scene, scene->connections[c].src, "Geometry")) return scene->connections[c].src;
    }
}

/* The control point (Vertices index) of each mesh vertex, matched by position bit for bit as
 * Assimp copied it (the first of equal control points); a vertex without an exact match (Assimp
 * parses ASCII numbers to within a few float ulps of strtod) takes the nearest control point
 * within 1e-6 of the points' bounding-box diagonal, found among the points sorted by x; -1 when
 * none is that near. *out malloc'ed. */
static bool mesh_control_points(const FbxScene *scene, int geometry, const Mesh *mesh, int **out)
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
    int geometry = geometry_of(scene, a->nodes[node].object);
    if (geometry < 0) return true;
    /* the clusters with weights, and the joint of each one's link */
    int cluster_count = 0, capacity = 0;
    int *clusters = NULL, *cluster_joint = NULL;
    for (int k = 0;; k++) {
        int cs = fbx_connection_to(scene, geometry, k);
        if (cs < 0) break;
        int skin = scene->connections[cs].src;
        if (!is_subclass(scene, skin, "Skin")) continue;
        for (int u = 0;; u++) {
            int cu = fbx_connection_to(scene, skin, u);
            if (cu < 0) break;
            int cluster = scene->connections[cu].src;
            if (!is_subclass(scene, cluster, "Cluster")) continue;
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
    bool ok = mesh_control_points(scene, geometry, mesh, &vertex_point) && order && point_start && mesh->bone_joint &&
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
    free(fill);
    free(vertex_point);
    free(order);
    free(point_start);
    free(clusters);
    free(cluster_joint);
    return ok;
}

static bool rebuild_dropped_skins(Apply *a)
{
    Model *model = a->im->model;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (mesh->skinned || mesh->bone_count > 0 || mesh->node_joint < 0 || mesh->node_joint >= model->skeleton.joint_count ||
            a->joint_node[mesh->node_joint] < 0)
            continue;
        if (!rebuild_dropped_skin(a, mesh)) return false;
    }
    return true;
}

/* ---- skins ------------------------------------------------------------------------------- */

/* The bind Pose's matrix of a Model (any Pose object of type BindPose), or false. */
static bool bind_pose_matrix(const FbxScene *scene, int64_t model_id, double out[16])
{
    for (int o = 0; o < scene->object_count; o++) {
        if (!is_kind(scene, o, "Pose")) continue;
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
            if (same && record_matrix(scene, pose_node, "Matrix", out)) return true;
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
        if (!is_kind(scene, geometry, "Geometry")) continue;
        for (int s = 0;; s++) {   /* skin deformers on it */
            int cs = fbx_connection_to(scene, geometry, s);
            if (cs < 0) break;
            int skin = scene->connections[cs].src;
            if (!is_kind(scene, skin, "Deformer") || !is_subclass(scene, skin, "Skin")) continue;
            for (int u = 0;; u++) {   /* its clusters */
                int cu = fbx_connection_to(scene, skin, u);
                if (cu < 0) break;
                int cluster = scene->connections[cu].src;
                if (!is_subclass(scene, cluster, "Cluster")) continue;
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
        if (is_subclass(scene, scene->connections[c].src, "Skin")) return scene->connections[c].src;
    }
    return -1;
}

/* The SkinningType the Skin deformer of a mesh Model's geometry names (MESH_SKINNING_*). */
static int skinning_type(const FbxScene *scene, int mesh_object)
{
    int skin = skin_of(scene, geometry_of(scene, mesh_object));
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
 * by position as the rebuilt skins are; before apply_geometric moves the vertices). */
static bool apply_dq_weights(Apply *a)
{
    Model *model = a->im->model;
    const FbxScene *scene = a->scene;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned || mesh->vertex_count <= 0 || mesh->node_joint < 0 ||
            mesh->node_joint >= model->skeleton.joint_count || a->joint_node[mesh->node_joint] < 0)
            continue;
        int mesh_object = a->nodes[a->joint_node[mesh->node_joint]].object;
        if (skinning_type(scene, mesh_object) != MESH_SKINNING_BLEND) continue;
        int geometry = geometry_of(scene, mesh_object), skin = skin_of(scene, geometry);
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
        bool ok = point_weight && mesh->dq_weight && mesh_control_points(scene, geometry, mesh, &vertex_point);
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

static void apply_skins(Apply *a, const double *rest_scene, const bool *node_animated)
{
    Model *model = a->im->model;
    const FbxScene *scene = a->scene;
    bool from_maya = strcmp(writing_application(scene), "Maya") == 0;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned || mesh->node_joint < 0 || mesh->node_joint >= model->skeleton.joint_count) continue;
        int mesh_node = a->joint_node[mesh->node_joint];
        if (mesh_node < 0) continue;
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
            bool have_offset = record_matrix(scene, record, "Transform", node_to_bone);
            bool have_link = record_matrix(scene, record, "TransformLink", bone_bind);
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
             * applied by apply_geometric) -> the bone at bind time */
            to_mat4(node_to_bone, mesh->inverse_bind[b]);
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
                to_mat4(inverse, mesh->skin_bind_node_inverse);
            }
        }
        /* N: the mesh node's rest scene matrix (docs/skinning.md: where --clip bind places it) */
        to_mat4(&rest_scene[16 * mesh->node_joint], mesh->bind_matrix);
    }
}

/* ---- clips ------------------------------------------------------------------------------- */

/* The transform properties a curve node can drive, and where they live in FbxNodeProperties. */
typedef struct AnimatedProperty {
    const char *name;
    size_t      offset;
} AnimatedProperty;

static const AnimatedProperty animated_properties[] = {
    {"Lcl Translation", offsetof(FbxNodeProperties, translation)},
    {"Lcl Rotation", offsetof(FbxNodeProperties, rotation)},
    {"Lcl Scaling", offsetof(FbxNodeProperties, scaling)},
    {"PreRotation", offsetof(FbxNodeProperties, pre_rotation)},
    {"PostRotation", offsetof(FbxNodeProperties, post_rotation)},
    {"RotationOffset", offsetof(FbxNodeProperties, rotation_offset)},
    {"RotationPivot", offsetof(FbxNodeProperties, rotation_pivot)},
    {"ScalingOffset", offsetof(FbxNodeProperties, scaling_offset)},
    {"ScalingPivot", offsetof(FbxNodeProperties, scaling_pivot)},
};
#define ANIMATED_PROPERTY_COUNT (int)(sizeof animated_properties / sizeof animated_properties[0])

/* One animated property of one node in one stack: up to three curves (x, y, z). */
typedef struct Channel {
    int             node;
    size_t          offset;
    const FbxCurve *curves[3];
    double          defaults[3];
} Channel;

/* A blend shape channel's DeformPercent curve in one stack. */
typedef struct MorphChannel {
    int             channel_object;
    const FbxCurve *curve;
} MorphChannel;

typedef struct Stack {
    int      object;
    double   start, stop;          /* seconds */
    int      channel_count;
    Channel *channels;
    int           morph_count;
    MorphChannel *morphs;
    int      layer_count;
    int      time_count;           /* the sample times (sample_times) */
    double  *times;
} Stack;

/* ---- blend shapes ---------------------------------------------------------------------------
 * Assimp 5.2.5 turns a channel's in-between targets into separate full targets driven by the
 * wrong channel and ignores FullWeights and the stored weight at rest (issue item 7). A mesh whose
 * Model's geometry has a BlendShape deformer gets its morph targets from the file instead
 * (fbx_blend.c: one target per Shape, deltas by control point, defaults from DeformPercent), and
 * every clip its weights: the channel's DeformPercent curve, sampled at the clip's times, mapped to
 * the targets' weights by fbx_blend_target_weights (piecewise linear: exact at the samples). */

static bool has_blend_shape(const FbxScene *scene, int geometry)
{
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, geometry, k);
        if (c < 0) return false;
        if (is_subclass(scene, scene->connections[c].src, "BlendShape")) return true;
    }
}

static bool apply_blend_shapes(Apply *a)
{
    Model *model = a->im->model;
    a->blends = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof *a->blends);
    if (!a->blends) return false;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (mesh->node_joint < 0 || mesh->node_joint >= model->skeleton.joint_count || a->joint_node[mesh->node_joint] < 0)
            continue;
        int geometry = geometry_of(a->scene, a->nodes[a->joint_node[mesh->node_joint]].object);
        if (geometry < 0 || !has_blend_shape(a->scene, geometry)) continue;
        int *control_point = NULL;
        if (!mesh_control_points(a->scene, geometry, mesh, &control_point)) return false;
        free(mesh->morph_target_names), mesh->morph_target_names = NULL;
        free(mesh->morph_position_deltas), mesh->morph_position_deltas = NULL;
        free(mesh->morph_normal_deltas), mesh->morph_normal_deltas = NULL;
        free(mesh->morph_default_weights), mesh->morph_default_weights = NULL;
        mesh->morph_target_count = 0;
        char error[256];
        bool ok = fbx_blend_add_targets(a->scene, geometry, mesh, control_point, &a->blends[m], error, sizeof error);
        free(control_point);
        if (ok && a->blends[m].channel_count > 0) model->stats.blend_shapes_from_file++;
        if (!ok) {
            import_warn(a->im, "mesh '%s': blend shapes dropped (%s)", mesh->name, error);
            fbx_blend_mesh_free(&a->blends[m]);
            memset(&a->blends[m], 0, sizeof a->blends[m]);
        }
    }
    return true;
}

/* The clip's morph tracks from the stack's DeformPercent curves. */
static bool build_morph_tracks(Apply *a, const Stack *stack, Clip *clip)
{
    Model *model = a->im->model;
    int wanted = 0;
    for (int c = 0; c < stack->morph_count; c++)
        for (int m = 0; m < model->mesh_count; m++)
            for (int k = 0; k < a->blends[m].channel_count; k++)
                if (a->blends[m].channels[k].channel_object == stack->morphs[c].channel_object)
                    wanted += a->blends[m].channels[k].target_count;
    if (wanted == 0 || stack->time_count == 0) return true;
    clip->morph_tracks = calloc((size_t)wanted, sizeof *clip->morph_tracks);
    float *weights = malloc(sizeof(float) * (size_t)wanted);
    if (!clip->morph_tracks || !weights) {
        free(weights);
        return false;
    }
    int n = 0;
    bool ok = true;
    for (int c = 0; ok && c < stack->morph_count; c++)
        for (int m = 0; ok && m < model->mesh_count; m++)
            for (int k = 0; ok && k < a->blends[m].channel_count; k++) {
                const FbxBlendChannel *channel = &a->blends[m].channels[k];
                if (channel->channel_object != stack->morphs[c].channel_object) continue;
                int first = n;
                for (int t = 0; ok && t < channel->target_count; t++) {
                    MorphTrack *track = &clip->morph_tracks[n++];
                    track->mesh = m;
                    track->target = channel->first_target + t;
                    track->key_count = stack->time_count;
                    track->interpolation = INTERPOLATION_LINEAR;
                    track->times = malloc(sizeof(float) * (size_t)stack->time_count);
                    track->weights = malloc(sizeof(float) * (size_t)stack->time_count);
                    ok = track->times && track->weights;
                }
                for (int s = 0; ok && s < stack->time_count; s++) {
                    double percent = fbx_curve_evaluate(stack->morphs[c].curve, stack->times[s]);
                    fbx_blend_target_weights(channel->full_weights, channel->target_count, isfinite(percent) ? percent : 0.0,
                                             weights);
                    for (int t = 0; t < channel->target_count; t++) {
                        clip->morph_tracks[first + t].times[s] = (float)stack->times[s];
                        clip->morph_tracks[first + t].weights[s] = weights[t];
                    }
                }
            }
    clip->morph_track_count = n;
    free(weights);
    return ok;
}

static int component_of(const char *property)
{
    if (!property) return -1;
    const char *bar = strrchr(property, '|');
    const char *c = bar ? bar + 1 : property;
    if (c[0] && !c[1]) return c[0] == 'X' ? 0 : c[0] == 'Y' ? 1 : c[0] == 'Z' ? 2 : -1;
    return -1;
}

/* The curve nodes of the stack's base layer that drive a Model's transform property. */
static bool collect_channels(const Apply *a, int stack_object, Stack *stack)
{
    const FbxScene *scene = a->scene;
    int base_layer = -1;
    stack->layer_count = 0;
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, stack_object, k);
        if (c < 0) break;
        int layer = scene->connections[c].src;
        if (!is_kind(scene, layer, "AnimationLayer")) continue;
        if (base_layer < 0) base_layer = layer;
        stack->layer_count++;
    }
    stack->channel_count = 0;
    stack->channels = NULL;
    stack->morph_count = 0;
    stack->morphs = NULL;
    if (base_layer < 0) return true;
    int capacity = 0;
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, base_layer, k);
        if (c < 0) break;
        int curve_node = scene->connections[c].src;
        if (!is_kind(scene, curve_node, "AnimationCurveNode")) continue;
        for (int d = 0;; d++) {   /* what the curve node drives */
            int cd = fbx_connection_from(scene, curve_node, d);
            if (cd < 0) break;
            const FbxConnection *drive = &scene->connections[cd];
            int node = drive->dst >= 0 && drive->dst < scene->object_count ? a->node_of_object[drive->dst] : -1;
            if (node < 0 && drive->property && strcmp(drive->property, "DeformPercent") == 0 &&
                is_subclass(scene, drive->dst, "BlendShapeChannel")) {   /* a blend shape weight */
                const FbxCurve *curve = NULL;
                for (int u = 0; !curve; u++) {
                    int cu = fbx_connection_to(scene, curve_node, u);
                    if (cu < 0) break;
                    if (is_kind(scene, scene->connections[cu].src, "AnimationCurve")) curve = &scene->curves[scene->connections[cu].src];
                }
                if (!curve || curve->key_count == 0) continue;
                MorphChannel *grown = realloc(stack->morphs, sizeof *grown * (size_t)(stack->morph_count + 1));
                if (!grown) return false;
                stack->morphs = grown;
                stack->morphs[stack->morph_count++] = (MorphChannel){drive->dst, curve};
                continue;
            }
            if (node < 0 || !drive->property) continue;
            int property = -1;
            for (int p = 0; p < ANIMATED_PROPERTY_COUNT && property < 0; p++)
                if (strcmp(drive->property, animated_properties[p].name) == 0) property = p;
            if (property < 0) continue;
            Channel channel = {.node = node, .offset = animated_properties[property].offset};
            const double *current = (const double *)((const char *)&a->nodes[node].props + channel.offset);
            for (int i = 0; i < 3; i++) channel.defaults[i] = current[i];
            double d3[3];
            const char *names[3][2] = {{"d|X", "X"}, {"d|Y", "Y"}, {"d|Z", "Z"}};
            for (int i = 0; i < 3; i++)
                for (int n = 0; n < 2; n++)
                    if (fbx_object_property_numbers(scene, curve_node, names[i][n], d3, 1) == 1 && isfinite(d3[0])) {
                        channel.defaults[i] = d3[0];
                        break;
                    }
            bool any = false;
            for (int u = 0;; u++) {
                int cu = fbx_connection_to(scene, curve_node, u);
                if (cu < 0) break;
                int curve = scene->connections[cu].src;
                int component = component_of(scene->connections[cu].property);
                if (!is_kind(scene, curve, "AnimationCurve") || component < 0) continue;
                channel.curves[component] = &scene->curves[curve];
                any = true;
            }
            if (!any) continue;
            if (stack->channel_count == capacity) {
                capacity = capacity ? 2 * capacity : 16;
                Channel *grown = realloc(stack->channels, sizeof *grown * (size_t)capacity);
                if (!grown) return false;
                stack->channels = grown;
            }
            stack->channels[stack->channel_count++] = channel;
        }
    }
    return true;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sample times of a stack: the frames of the file's rate in [start, stop] and every key time
 * inside, sorted, one per distinct float. Returns the count (times malloc'ed), -1 out of memory. */
static int sample_times(const Apply *a, Stack *stack, double **out)
{
    double fps = a->scene->frame_rate > 0 && a->scene->frame_rate < 10000 ? a->scene->frame_rate : 0.0;   /* 0: unknown */
    int keys = 0;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++)
            if (stack->channels[c].curves[i]) keys += stack->channels[c].curves[i]->key_count;
    for (int c = 0; c < stack->morph_count; c++) keys += stack->morphs[c].curve->key_count;
    double span = stack->stop - stack->start;
    double frames = fps > 0 ? span * fps + 3 : 0;      /* no frame rate in the file: key times only */
    if (!(frames < MAX_SAMPLES_PER_CLIP)) frames = 0;   /* too long to sample every frame: key times only */
    size_t capacity = (size_t)keys + (size_t)frames + 2;
    double *times = malloc(sizeof(double) * capacity);
    if (!times) return -1;
    size_t n = 0;
    times[n++] = stack->start;
    times[n++] = stack->stop;
    if (frames > 0)
        for (double f = ceil(stack->start * fps - 1e-6); f / fps <= stack->stop + 1e-9 && n < capacity; f++)
            times[n++] = f / fps;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++) {
            const FbxCurve *curve = stack->channels[c].curves[i];
            for (int k = 0; curve && k < curve->key_count && n < capacity; k++) {
                double t = (double)curve->keys[k].time / FBX_TICKS_PER_SECOND;
                if (t >= stack->start && t <= stack->stop) times[n++] = t;
            }
        }
    for (int c = 0; c < stack->morph_count; c++)
        for (int k = 0; k < stack->morphs[c].curve->key_count && n < capacity; k++) {
            double t = (double)stack->morphs[c].curve->keys[k].time / FBX_TICKS_PER_SECOND;
            if (t >= stack->start && t <= stack->stop) times[n++] = t;
        }
    qsort(times, n, sizeof(double), compare_doubles);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept > 0 && (float)times[i] == (float)times[kept - 1]) continue;
        times[kept++] = times[i];
    }
    if (kept > MAX_SAMPLES_PER_CLIP) kept = MAX_SAMPLES_PER_CLIP;
    *out = times;
    return (int)kept;
}

/* The stack's time window: LocalStart .. LocalStop (ReferenceStart/Stop, then the keys, when
 * those are empty), each widened onto a key that lies on it in float seconds. */
static void stack_window(const Apply *a, Stack *stack)
{
    const FbxScene *scene = a->scene;
    double start = read_number(scene, stack->object, "LocalStart", 0) / FBX_TICKS_PER_SECOND;
    double stop = read_number(scene, stack->object, "LocalStop", 0) / FBX_TICKS_PER_SECOND;
    if (!(stop > start)) {
        start = read_number(scene, stack->object, "ReferenceStart", 0) / FBX_TICKS_PER_SECOND;
        stop = read_number(scene, stack->object, "ReferenceStop", 0) / FBX_TICKS_PER_SECOND;
    }
    double first = HUGE_VAL, last = -HUGE_VAL;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++) {
            const FbxCurve *curve = stack->channels[c].curves[i];
            for (int k = 0; curve && k < curve->key_count; k++) {
                double t = (double)curve->keys[k].time / FBX_TICKS_PER_SECOND;
                first = fmin(first, t);
                last = fmax(last, t);
                if ((float)t == (float)stop && t > stop) stop = t;    /* the take-edge rule */
                if ((float)t == (float)start && t < start) start = t;
            }
        }
    for (int c = 0; c < stack->morph_count; c++)
        for (int k = 0; k < stack->morphs[c].curve->key_count; k++) {
            double t = (double)stack->morphs[c].curve->keys[k].time / FBX_TICKS_PER_SECOND;
            first = fmin(first, t);
            last = fmax(last, t);
        }
    if (!(stop > start) && last >= first) {
        start = first;
        stop = last;
    }
    stack->start = start;
    stack->stop = stop > start ? stop : start;
}

static bool alloc_channel(int count, float **times, void **values, size_t value_size)
{
    *times = malloc(sizeof(float) * (size_t)count);
    *values = malloc(value_size * (size_t)count);
    return *times && *values;
}

/* Every node's properties at time t of a stack: the static values, the stack's curves on top. */
static void stack_properties(const Apply *a, const Stack *stack, double t, FbxNodeProperties *props)
{
    for (int i = 0; i < a->node_count; i++) props[i] = a->nodes[i].props;
    for (int c = 0; c < stack->channel_count; c++) {
        const Channel *channel = &stack->channels[c];
        double *field = (double *)((char *)&props[channel->node] + channel->offset);
        for (int i = 0; i < 3; i++) {
            double v = channel->curves[i] ? fbx_curve_evaluate(channel->curves[i], t) : channel->defaults[i];
            if (isfinite(v)) field[i] = v;
        }
    }
}

/* Builds one clip from a stack: samples every joint below an animated Model. */
static bool build_clip(Apply *a, Stack *stack, Clip *clip, double *scene_world)
{
    Skeleton *sk = &a->im->model->skeleton;
    int joints = sk->joint_count;
    snprintf(clip->name, sizeof clip->name, "%s", a->scene->objects[stack->object].name ? a->scene->objects[stack->object].name : "");
    clip->start = (float)stack->start;
    clip->duration = (float)stack->stop - clip->start;   /* in float, start + duration reaches the last key */
    while (clip->start + clip->duration < (float)stack->stop) clip->duration = nextafterf(clip->duration, HUGE_VALF);
    clip->source_ticks_per_second = (float)(a->scene->frame_rate > 0 ? a->scene->frame_rate : 0);
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++)
            if (stack->channels[c].curves[i]) {
                clip->source_interpolations |= fbx_curve_interpolations(stack->channels[c].curves[i]);
                clip->source_extrapolations |= fbx_curve_extrapolations(stack->channels[c].curves[i]);
            }

    /* joints whose local transform can change: a Model with a channel, or below one */
    bool *animated_node = calloc((size_t)(a->node_count > 0 ? a->node_count : 1), sizeof(bool));
    bool *affected = calloc((size_t)(joints > 0 ? joints : 1), sizeof(bool));
    if (!animated_node || !affected) {
        free(animated_node);
        free(affected);
        return false;
    }
    for (int c = 0; c < stack->channel_count; c++) animated_node[stack->channels[c].node] = true;
    for (int i = 0; i < a->node_count; i++)
        if (a->nodes[i].parent >= 0 && animated_node[a->nodes[i].parent]) animated_node[i] = true;
    int affected_count = 0;
    for (int j = 0; j < joints; j++) {
        int node = a->joint_node[j];
        affected[j] = (node >= 0 && animated_node[node]) || (sk->parent[j] >= 0 && affected[sk->parent[j]]);
        affected_count += affected[j];
    }
    const double *times = stack->times;
    int count = affected_count > 0 ? stack->time_count : 0;
    if (count > 0 && (size_t)count * (size_t)affected_count > MAX_SAMPLE_VALUES) {
        import_warn(a->im, "clip '%s': %d samples x %d joints is too much to resample; its joints keep the rest pose",
                    clip->name, count, affected_count);
        count = 0;
    }
    clip->tracks = calloc((size_t)(affected_count > 0 ? affected_count : 1), sizeof *clip->tracks);
    int *track_of = malloc(sizeof(int) * (size_t)(joints > 0 ? joints : 1));
    FbxNodeProperties *props = malloc(sizeof *props * (size_t)(a->node_count > 0 ? a->node_count : 1));
    FbxNodeWorld *world = malloc(sizeof *world * (size_t)(a->node_count > 0 ? a->node_count : 1));
    bool ok = clip->tracks && track_of && props && world;
    int tracks = 0;
    for (int j = 0; ok && j < joints; j++) {
        track_of[j] = -1;
        if (!affected[j] || count == 0) continue;
        JointTrack *track = &clip->tracks[tracks];
        track->joint = j;
        track->translation_count = track->rotation_count = track->scale_count = count;
        ok = alloc_channel(count, &track->translation_times, (void **)&track->translation_values, sizeof(vec3)) &&
             alloc_channel(count, &track->rotation_times, (void **)&track->rotation_values, sizeof(versor)) &&
             alloc_channel(count, &track->scale_times, (void **)&track->scale_values, sizeof(vec3));
        track_of[j] = tracks++;
    }
    clip->track_count = tracks;
    for (int s = 0; ok && s < count; s++) {
        double t = times[s];
        stack_properties(a, stack, t, props);
        nodes_world(a, props, world);
        joints_scene(a, world, scene_world);
        for (int j = 0; j < joints; j++) {
            if (track_of[j] < 0) continue;
            JointTrack *track = &clip->tracks[track_of[j]];
            double local[16];
            FbxTrs trs;
            if (!joint_local(sk, scene_world, j, local)) fbx_matrix_identity(local);
            fbx_matrix_to_trs(local, &trs);
            JointTransform key;
            trs_to_joint(&trs, &key);
            if (s > 0 && glm_vec4_dot(key.rotation, track->rotation_values[s - 1]) < 0)   /* stay on one hemisphere */
                glm_vec4_negate(key.rotation);
            track->translation_times[s] = track->rotation_times[s] = track->scale_times[s] = (float)t;
            glm_vec3_copy(key.translation, track->translation_values[s]);
            glm_vec4_copy(key.rotation, track->rotation_values[s]);
            glm_vec3_copy(key.scale, track->scale_values[s]);
        }
    }
    /* channels that never leave the rest value are dropped (they keep it anyway) — unless every
     * channel would go while the stack has keyed curves: a take that poses the rest pose on
     * purpose (Blender 2.79's FBX 6.1 "Base") is still a clip */
    bool keyed = false, all_rest = true;
    for (int c = 0; c < stack->channel_count && !keyed; c++)
        for (int i = 0; i < 3; i++) keyed = keyed || (stack->channels[c].curves[i] && stack->channels[c].curves[i]->key_count > 0);
    for (int pass = 0; pass < 2; pass++) {   /* pass 0: is every channel at rest? pass 1: drop them */
        for (int k = 0; ok && k < clip->track_count; k++) {
            JointTrack *track = &clip->tracks[k];
            const JointTransform *rest = &sk->rest_trs[track->joint];
            bool t_rest = true, r_rest = true, s_rest = true;
            for (int s = 0; s < count; s++) {
                t_rest = t_rest && glm_vec3_eqv_eps(track->translation_values[s], (float *)rest->translation);
                r_rest = r_rest && fabsf(fabsf(glm_vec4_dot(track->rotation_values[s], (float *)rest->rotation)) - 1.0f) < 1e-7f;
                s_rest = s_rest && glm_vec3_eqv_eps(track->scale_values[s], (float *)rest->scale);
            }
            if (pass == 0) {
                all_rest = all_rest && t_rest && r_rest && s_rest;
                continue;
            }
            if (all_rest && keyed) break;
            if (t_rest) {
                free(track->translation_times), free(track->translation_values);
                track->translation_times = NULL, track->translation_values = NULL, track->translation_count = 0;
            }
            if (r_rest) {
                free(track->rotation_times), free(track->rotation_values);
                track->rotation_times = NULL, track->rotation_values = NULL, track->rotation_count = 0;
            }
            if (s_rest) {
                free(track->scale_times), free(track->scale_values);
                track->scale_times = NULL, track->scale_values = NULL, track->scale_count = 0;
            }
        }
    }
    int kept = 0;
    for (int k = 0; ok && k < clip->track_count; k++) {
        JointTrack *track = &clip->tracks[k];
        if (track->translation_count + track->rotation_count + track->scale_count == 0) continue;
        clip->tracks[kept++] = *track;
    }
    if (ok) clip->track_count = kept;
    if (ok && a->blends) ok = build_morph_tracks(a, stack, clip);
    free(track_of);
    free(props);
    free(world);
    free(animated_node);
    free(affected);
    return ok;
}

static void free_stacks(Stack *stacks, int count)
{
    for (int i = 0; stacks && i < count; i++) {
        free(stacks[i].channels);
        free(stacks[i].morphs);
        free(stacks[i].times);
    }
    free(stacks);
}

/* Every AnimationStack with its base layer's channels, window and sample times. -1: out of memory. */
static int collect_stacks(const Apply *a, Stack **out)
{
    const FbxScene *scene = a->scene;
    int count = 0;
    for (int o = 0; o < scene->object_count; o++) count += is_kind(scene, o, "AnimationStack");
    *out = NULL;
    if (count == 0) return 0;
    Stack *stacks = calloc((size_t)count, sizeof *stacks);
    if (!stacks) return -1;
    int n = 0;
    for (int o = 0; o < scene->object_count; o++) {
        if (!is_kind(scene, o, "AnimationStack")) continue;
        Stack *stack = &stacks[n++];
        stack->object = o;
        if (!collect_channels(a, o, stack)) return free_stacks(stacks, n), -1;
        stack_window(a, stack);
        stack->time_count = sample_times(a, stack, &stack->times);
        if (stack->time_count < 0) return free_stacks(stacks, n), -1;
    }
    *out = stacks;
    return n;
}

static bool apply_clips(Apply *a, Stack *stacks, int stack_count, double *scene_world)
{
    Model *model = a->im->model;
    if (stack_count == 0) return true;   /* no stacks: Assimp's clips (if any) stay */
    Clip *clips = calloc((size_t)stack_count, sizeof *clips);
    if (!clips) return false;
    int n = 0, extra_layers = 0;
    bool ok = true;
    for (int i = 0; ok && i < stack_count; i++) {
        ok = build_clip(a, &stacks[i], &clips[n], scene_world);
        if (stacks[i].layer_count > 1) extra_layers += stacks[i].layer_count - 1;
        if (!ok) {
            n++;
            break;
        }
        /* a stack that moves nothing is no clip (as Assimp has it), unless it has morph tracks
         * (from the file, or Assimp's for a mesh whose targets are still Assimp's: found by name below) */
        bool has_morph = clips[n].morph_track_count > 0;
        for (int old = 0; old < model->clip_count && !has_morph; old++)
            has_morph = model->clips[old].morph_track_count > 0 && strcmp(model->clips[old].name, clips[n].name) == 0;
        if (clips[n].track_count > 0 || has_morph) n++;
        else {
            free(clips[n].tracks);   /* no tracks: nothing else to free */
            memset(&clips[n], 0, sizeof clips[n]);
        }
    }
    if (!ok) {
        Model spare = {.clip_count = n, .clips = clips};
        model_free(&spare);
        return false;
    }
    if (extra_layers > 0)
        import_warn(a->im, "%d animation layers above the base layer are not applied (only the base layer plays)", extra_layers);
    /* Assimp's morph tracks of meshes whose targets are still Assimp's go with the clip of the same name */
    for (int c = 0; c < n; c++)
        for (int old = 0; old < model->clip_count; old++) {
            Clip *from = &model->clips[old];
            if (from->morph_track_count == 0 || strcmp(from->name, clips[c].name) != 0) continue;
            int keep = 0;
            for (int t = 0; t < from->morph_track_count; t++) {
                MorphTrack *track = &from->morph_tracks[t];
                bool replaced = track->mesh >= 0 && track->mesh < model->mesh_count && a->blends &&
                                a->blends[track->mesh].channel_count > 0;
                if (!replaced) keep++;
            }
            if (keep == 0) break;
            MorphTrack *merged = realloc(clips[c].morph_tracks, sizeof *merged * (size_t)(clips[c].morph_track_count + keep));
            if (!merged) return false;
            clips[c].morph_tracks = merged;
            for (int t = 0; t < from->morph_track_count; t++) {
                MorphTrack *track = &from->morph_tracks[t];
                bool replaced = track->mesh >= 0 && track->mesh < model->mesh_count && a->blends &&
                                a->blends[track->mesh].channel_count > 0;
                if (replaced) continue;
                clips[c].morph_tracks[clips[c].morph_track_count++] = *track;
                memset(track, 0, sizeof *track);   /* moved: the old clip's free sees NULL arrays */
            }
            break;
        }
    Model old = {.clip_count = model->clip_count, .clips = model->clips};
    model_free(&old);
    model->clips = clips;
    model->clip_count = n;
    for (int c = 0; c < n; c++) {   /* stack names as every reader gives them: valid UTF-8, no repeats */
        char stack_name[SV_NAME_MAX];
        memcpy(stack_name, clips[c].name, sizeof stack_name);
        clips[c].name[0] = '\0';
        model_name_clip(model, c, stack_name, strlen(stack_name));
    }
    return true;
}

/* ---- scale helpers --------------------------------------------------------------------------
 * A RrSs or Rrs child sits in its parent's UNSCALED frame: world_c = unscaled_p · TRS(...). As a
 * joint under p that is inverse(world_p) · world_c = inverse(S_p) · TRS(...), which shears when
 * p's scale S_p is not uniform, and a joint's TRS cannot hold a shear (measured on
 * maya_game_sausage_deform: 0.38 of the matrix, 0.30 of the figure's diagonal). Such a parent
 * gets a helper joint "NAME (unscaled)" between it and those children, placed at unscaled_p: its
 * local transform is the pure scale inverse(S_p), the children's the exact TRS. Decided by
 * sampling: only parents whose scale is ever non-uniform (rest or any stack sample) get one. */

static bool scale_is_uniform(const double s[3])
{
    double a0 = fabs(s[0]), a1 = fabs(s[1]), a2 = fabs(s[2]);
    double hi = fmax(a0, fmax(a1, a2)), lo = fmin(a0, fmin(a1, a2));
    return hi - lo <= 1e-7 * hi;
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
    nodes_world(a, props, world);
    for (int i = 0; i < a->node_count; i++) nonuniform[i] = !scale_is_uniform(world[i].inherit_scale);
    for (int k = 0; k < stack_count; k++)
        for (int s = 0; s < stacks[k].time_count; s++) {
            stack_properties(a, &stacks[k], stacks[k].times[s], props);
            nodes_world(a, props, world);
            for (int i = 0; i < a->node_count; i++)
                if (!nonuniform[i]) nonuniform[i] = !scale_is_uniform(world[i].inherit_scale);
        }
    free(props);
    free(world);
    return true;
}

/* Inserts the helpers (see above); false when out of memory. */
static bool insert_scale_helpers(Apply *a, const Stack *stacks, int stack_count)
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
        sk.parent[n] = n - 1;
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

static bool set_source_features(Apply *a, const Stack *stacks, int stack_count)
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

/* ---- the stage ---------------------------------------------------------------------------- */

bool import_fbx_apply(Importer *im, const void *bytes, size_t size)
{
    FbxScene scene;
    char error[256];
    if (!fbx_scene_read(&scene, bytes, size, error, sizeof error)) {
        import_warn(im, "the FBX reader cannot read this file (%s); transforms, clips and skins are Assimp's", error);
        return true;
    }
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
            if (object == FBX_JOINT_ROOT && sk->parent[j] < 0) from_mat4(sk->rest_local[j], a.root_matrix);
        }
        if (unmatched > 0) import_warn(im, "%d nodes match no FBX Model; they keep Assimp's transform", unmatched);
    }
    if (ok) {
        stack_count = collect_stacks(&a, &stacks);
        ok = stack_count >= 0;
    }
    ok = ok && insert_scale_helpers(&a, stacks, stack_count) && set_source_features(&a, stacks, stack_count);
    if (ok) {
        int joints = im->model->skeleton.joint_count;
        scene_world = malloc(sizeof(double) * 16 * (size_t)(joints > 0 ? joints : 1));
        rest_scene = malloc(sizeof(double) * 16 * (size_t)(joints > 0 ? joints : 1));
        ok = scene_world && rest_scene && apply_rest(&a, scene_world) >= 0;
        if (ok) {
            memcpy(rest_scene, scene_world, sizeof(double) * 16 * (size_t)joints);
            ok = rebuild_dropped_skins(&a) && apply_dq_weights(&a) && apply_blend_shapes(&a);
            apply_geometric(&a);
            bool *node_animated = calloc((size_t)(a.node_count > 0 ? a.node_count : 1), sizeof(bool));
            for (int k = 0; node_animated && k < stack_count; k++)
                for (int c = 0; c < stacks[k].channel_count; c++) node_animated[stacks[k].channels[c].node] = true;
            apply_skins(&a, rest_scene, node_animated);
            free(node_animated);
            ok = ok && apply_clips(&a, stacks, stack_count, scene_world);
        }
    }
    if (!ok) import_fail(im, "out of memory");
    free_stacks(stacks, stack_count > 0 ? stack_count : 0);
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
