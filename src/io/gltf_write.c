/* gltf_write.c — --export-gltf: the container (GLB or .gltf + .bin), the buffer and its views
 * (EXT_meshopt_compression through meshoptimizer's encoders), nodes, meshes, skins, materials and
 * textures. Clips are in gltf_write_anim.c. The mapping is described in gltf_write.h and docs/export.md.
 *
 * Rules of this writer (glTF 2.0, checked by the Khronos glTF-Validator in tests/test_export_gltf.c):
 *   - Nodes are written in depth-first pre-order of the tree they form (a parent before its
 *     children), so a reader that numbers nodes that way (skinview's does) keeps the order:
 *     the skeleton's roots (under one common root node when there are several, so that every skin's
 *     joints have a common root), then the skinned mesh nodes (root nodes: glTF ignores their
 *     transform, and the validator warns about a skinned mesh under a parent).
 *   - skin.joints are unique: a mesh that lists one joint twice (skinview's extra bone for unweighted
 *     vertices, the mesh's own node, with an identity inverse bind) gets an identity child node of that
 *     joint for the second entry.
 *   - WEIGHTS_0 sum to 1 in float; a slot with weight 0 has joint 0; a joint twice in one vertex is
 *     merged (the validator refuses duplicates).
 *   - TEXCOORD_n are written as glTF wants them, v' = 1 - v (the reader flips them back).
 *   - NORMAL / TANGENT xyz are unit length (normalised; a zero vector becomes +Y / +X).
 */
#include "gltf_write_internal.h"
#include "atomic_file.h"
#include "../anim/anim.h"

#include <meshoptimizer.h>
#include <png.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

bool gltf_writer_fail(GltfWriter *w, const char *format, ...)
{
    if (!w->failed) {
        va_list args;
        va_start(args, format);
        vsnprintf(w->error, w->error_size, format, args);
        va_end(args);
    }
    w->failed = true;
    return false;
}

void gltf_writer_name(cJSON *object, const char *name)
{
    char valid[4 * SV_NAME_MAX + 64];
    utf8_copy_valid(valid, sizeof valid, name, strlen(name));
    cJSON_AddStringToObject(object, "name", valid);
}

/* ---- the buffer ------------------------------------------------------------------------------------------- */

static bool bin_reserve(GltfWriter *w, size_t more)
{
    if (w->bin_size + more + 4 <= w->bin_capacity) return true;
    size_t capacity = w->bin_capacity ? w->bin_capacity : 1 << 16;
    while (capacity < w->bin_size + more + 4) capacity *= 2;
    uint8_t *grown = realloc(w->bin, capacity);
    if (!grown) return gltf_writer_fail(w, "out of memory");
    w->bin = grown;
    w->bin_capacity = capacity;
    return true;
}

/* bufferView offsets are multiples of 4 (every accessor's component size divides 4) */
static void bin_align(GltfWriter *w)
{
    while (w->bin_size % 4) w->bin[w->bin_size++] = 0;
}

int gltf_writer_view(GltfWriter *w, const void *data, size_t count, size_t element_size, GltfViewKind kind,
                     const uint32_t *indices)
{
    if (w->failed) return -1;
    size_t size = count * element_size;
    cJSON *view = cJSON_CreateObject();
    if (!view) return gltf_writer_fail(w, "out of memory"), -1;
    cJSON_AddItemToArray(w->buffer_views, view);
    if (!w->options->meshopt || w->plain_views) {
        if (!bin_reserve(w, size + 4)) return -1;
        bin_align(w);
        cJSON_AddNumberToObject(view, "buffer", 0);
        cJSON_AddNumberToObject(view, "byteOffset", (double)w->bin_size);
        memcpy(w->bin + w->bin_size, data, size);
        w->bin_size += size;
    } else {
        /* EXT_meshopt_compression: the view lives in buffer 1 (a fallback with no data), its bytes are
         * decoded from the stream in buffer 0 (meshopt_encodeVertexBuffer / IndexBuffer / IndexSequence) */
        size_t bound = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBufferBound(count, count)
                       : kind == GW_VIEW_INDICES ? meshopt_encodeIndexSequenceBound(count, count)
                                                 : meshopt_encodeVertexBufferBound(count, element_size);
        if (kind == GW_VIEW_TRIANGLES || kind == GW_VIEW_INDICES) {   /* bounds from the largest index */
            uint32_t largest = 0;
            for (size_t i = 0; i < count; i++) largest = indices[i] > largest ? indices[i] : largest;
            bound = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBufferBound(count, (size_t)largest + 1)
                                              : meshopt_encodeIndexSequenceBound(count, (size_t)largest + 1);
        }
        if (!bin_reserve(w, bound + 4)) return -1;
        bin_align(w);
        size_t encoded = kind == GW_VIEW_TRIANGLES ? meshopt_encodeIndexBuffer(w->bin + w->bin_size, bound, indices, count)
                         : kind == GW_VIEW_INDICES ? meshopt_encodeIndexSequence(w->bin + w->bin_size, bound, indices, count)
                                                   : meshopt_encodeVertexBuffer(w->bin + w->bin_size, bound, data, count,
                                                                                element_size);
        if (encoded == 0) return gltf_writer_fail(w, "meshoptimizer could not encode a bufferView"), -1;
        cJSON *extension = cJSON_CreateObject(), *extensions = cJSON_CreateObject();
        if (!extension || !extensions) {
            cJSON_Delete(extension);
            cJSON_Delete(extensions);
            return gltf_writer_fail(w, "out of memory"), -1;
        }
        cJSON_AddNumberToObject(extension, "buffer", 0);
        cJSON_AddNumberToObject(extension, "byteOffset", (double)w->bin_size);
        cJSON_AddNumberToObject(extension, "byteLength", (double)encoded);
        cJSON_AddNumberToObject(extension, "byteStride", (double)element_size);
        cJSON_AddNumberToObject(extension, "count", (double)count);
        cJSON_AddStringToObject(extension, "mode", kind == GW_VIEW_TRIANGLES ? "TRIANGLES"
                                                   : kind == GW_VIEW_INDICES ? "INDICES"
                                                                             : "ATTRIBUTES");
        cJSON_AddItemToObject(extensions, "EXT_meshopt_compression", extension);
        w->bin_size += encoded;
        w->fallback_size = (w->fallback_size + 3) & ~(size_t)3;
        cJSON_AddNumberToObject(view, "buffer", 1);
        cJSON_AddNumberToObject(view, "byteOffset", (double)w->fallback_size);
        w->fallback_size += size;
        cJSON_AddItemToObject(view, "extensions", extensions);
    }
    cJSON_AddNumberToObject(view, "byteLength", (double)size);
    if (kind == GW_VIEW_VERTEX) {
        cJSON_AddNumberToObject(view, "byteStride", (double)element_size);
        cJSON_AddNumberToObject(view, "target", GW_ARRAY_BUFFER);
    } else if (kind == GW_VIEW_TRIANGLES || kind == GW_VIEW_INDICES)
        cJSON_AddNumberToObject(view, "target", GW_ELEMENT_ARRAY_BUFFER);
    return w->view_count++;
}

int gltf_writer_accessor(GltfWriter *w, int view, int component_type, int count, const char *type, int components,
                         const float *float_data, bool with_bounds)
{
    if (w->failed || view < 0) return -1;
    cJSON *accessor = cJSON_CreateObject();
    if (!accessor) return gltf_writer_fail(w, "out of memory"), -1;
    cJSON_AddItemToArray(w->accessors, accessor);
    cJSON_AddNumberToObject(accessor, "bufferView", view);
    cJSON_AddNumberToObject(accessor, "componentType", component_type);
    cJSON_AddNumberToObject(accessor, "count", count);
    cJSON_AddStringToObject(accessor, "type", type);
    if (with_bounds && float_data && count > 0) {
        float lo[16], hi[16];
        for (int k = 0; k < components; k++) lo[k] = hi[k] = float_data[k];
        for (int i = 1; i < count; i++)
            for (int k = 0; k < components; k++) {
                float v = float_data[(size_t)i * (size_t)components + (size_t)k];
                lo[k] = v < lo[k] ? v : lo[k];
                hi[k] = v > hi[k] ? v : hi[k];
            }
        cJSON_AddItemToObject(accessor, "min", cJSON_CreateFloatArray(lo, components));
        cJSON_AddItemToObject(accessor, "max", cJSON_CreateFloatArray(hi, components));
    }
    return w->accessor_count++;
}

int gltf_writer_floats(GltfWriter *w, const float *data, int count, int components, GltfViewKind kind, bool with_bounds)
{
    static const char *const types[] = {NULL, "SCALAR", "VEC2", "VEC3", "VEC4"};
    const char *type = components == 16 ? "MAT4" : types[components];
    int view = gltf_writer_view(w, data, (size_t)count, sizeof(float) * (size_t)components, kind, NULL);
    return gltf_writer_accessor(w, view, GW_FLOAT, count, type, components, data, with_bounds);
}

/* ---- nodes: the joints, the mesh nodes, helpers; written in depth-first pre-order ----------------------------- */

typedef enum {
    NODE_JOINT, NODE_COMMON_ROOT, NODE_STATIC_MESH, NODE_SKINNED_MESH,
    NODE_JOINT_COPY,       /* identity child of a joint: a second skin entry of the same joint */
    NODE_FOLLOW_FRAME,     /* child of a follow-node mesh's node with T, R, S of skin_bind_node_inverse */
    NODE_FOLLOW_JOINT,     /* a joint copied under a follow frame, with the joint's rest and channels */
    NODE_AXES,             /* the root that converts the file's axes and unit to glTF's (gltf_export_axes) */
} NodeKind;

typedef struct BuildNode {
    NodeKind kind;
    int      parent;       /* build index, -1: a scene root */
    int      item;         /* joint (JOINT, JOINT_COPY) or mesh (the mesh kinds) */
    int      final;        /* index in the file */
    int      first_child, next_sibling, last_child;
} BuildNode;

typedef struct NodeTree {
    BuildNode *nodes;
    int        count;
    int       *skin_joint_node;   /* per skinned mesh bone, in mesh order: build index of its joint node */
    int       *skin_offset;       /* [mesh_count]: first entry of mesh m in skin_joint_node */
    int      **follow_copy;       /* [mesh_count]: a follow-node mesh's joint copies (build index per joint, -1), else NULL */
} NodeTree;

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
    *n = (BuildNode){.kind = kind, .parent = parent, .item = item, .final = -1, .first_child = -1, .next_sibling = -1,
                     .last_child = -1};
    if (parent >= 0) {
        BuildNode *p = &t->nodes[parent];
        if (p->last_child >= 0) t->nodes[p->last_child].next_sibling = t->count;
        else p->first_child = t->count;
        p->last_child = t->count;
    }
    return t->count++;
}

static bool mesh_is_skinned(const Mesh *mesh) { return mesh->skinned && mesh->bone_count > 0; }

static bool build_tree(GltfWriter *w, NodeTree *t)
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
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh_is_skinned(mesh)) continue;
        int joint = mesh->node_joint >= 0 && mesh->node_joint < sk->joint_count ? mesh->node_joint : -1;
        tree_add(t, NODE_STATIC_MESH, joint >= 0 ? joint_build[joint] : axes_root, m);
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

static bool write_nodes(GltfWriter *w, NodeTree *t, const int *mesh_index, const int *skin_index)
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
            gltf_writer_name(node, name);
            add_trs(node, &sk->rest_trs[b->item]);
        } else if (b->kind == NODE_FOLLOW_FRAME) {
            const Mesh *mesh = &model->meshes[b->item];
            char name[SV_NAME_MAX + 32];
            snprintf(name, sizeof name, "%s (bind frame)", mesh->name);
            gltf_writer_name(node, name);
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
            gltf_writer_name(node, name);
        } else {
            const Mesh *mesh = &model->meshes[b->item];
            gltf_writer_name(node, mesh->name);
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

/* ---- meshes and skins ------------------------------------------------------------------------------------- */

static bool any_nonzero(const float *values, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (values[i] != 0.0f) return true;
    return false;
}

/* unit xyz (a zero or non-finite vector becomes `fallback`) */
static void unit3(const float *in, float *out, const float *fallback)
{
    double x = in[0], y = in[1], z = in[2], length = sqrt(x * x + y * y + z * z);
    if (!(length > 1e-20) || !isfinite(length)) {
        memcpy(out, fallback, sizeof(float) * 3);
        return;
    }
    out[0] = (float)(x / length), out[1] = (float)(y / length), out[2] = (float)(z / length);
}

/* One vertex's four (joint, weight) slots as glTF wants them: duplicates merged, zero slots on joint 0,
 * the float sum 1 (the rounding left goes to the largest weight). */
static void clean_influences(const uint16_t joints_in[4], const float weights_in[4], uint16_t joints[4], float weights[4])
{
    double w[4] = {0};
    uint16_t j[4] = {0};
    int n = 0;
    for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
        if (!(weights_in[k] > 0)) continue;
        int at = 0;
        while (at < n && j[at] != joints_in[k]) at++;
        if (at == n) j[n++] = joints_in[k];
        w[at] += weights_in[k];
    }
    double sum = 0;
    for (int k = 0; k < n; k++) sum += w[k];
    if (!(sum > 0)) {   /* cannot happen after the import's rule; keep the vertex on its first slot */
        n = 1, j[0] = joints_in[0], w[0] = 1, sum = 1;
    }
    int largest = 0;
    float total = 0;
    for (int k = 0; k < 4; k++) {
        joints[k] = k < n ? j[k] : 0;
        weights[k] = k < n ? (float)(w[k] / sum) : 0.0f;
        if (weights[k] > weights[largest]) largest = k;
    }
    total = weights[0] + weights[1] + weights[2] + weights[3];
    weights[largest] += 1.0f - total;
}

static int write_indices(GltfWriter *w, const Mesh *mesh)
{
    bool small = mesh->vertex_count <= 65535;
    GltfViewKind kind = mesh->primitive == MESH_TRIANGLES ? GW_VIEW_TRIANGLES : GW_VIEW_INDICES;
    size_t count = (size_t)mesh->index_count;
    int view;
    if (small) {
        uint16_t *shorts = malloc(sizeof(uint16_t) * (count + 1));
        if (!shorts) return gltf_writer_fail(w, "out of memory"), -1;
        for (size_t i = 0; i < count; i++) shorts[i] = (uint16_t)mesh->indices[i];
        view = gltf_writer_view(w, shorts, count, 2, kind, mesh->indices);
        free(shorts);
    } else
        view = gltf_writer_view(w, mesh->indices, count, 4, kind, mesh->indices);
    return gltf_writer_accessor(w, view, small ? GW_UNSIGNED_SHORT : GW_UNSIGNED_INT, (int)count, "SCALAR", 1, NULL, false);
}

/* glTF UVs: v' = 1 - v */
static int write_uvs(GltfWriter *w, const vec2 *uvs, int count)
{
    float *flipped = malloc(sizeof(float) * 2 * (size_t)(count + 1));
    if (!flipped) return gltf_writer_fail(w, "out of memory"), -1;
    for (int v = 0; v < count; v++) flipped[2 * v] = uvs[v][0], flipped[2 * v + 1] = 1.0f - uvs[v][1];
    int accessor = gltf_writer_floats(w, flipped, count, 2, GW_VIEW_VERTEX, false);
    free(flipped);
    return accessor;
}

static bool write_mesh(GltfWriter *w, cJSON *meshes, const Mesh *mesh)
{
    int n = mesh->vertex_count;
    cJSON *json = cJSON_CreateObject(), *primitives = cJSON_CreateArray(), *primitive = cJSON_CreateObject(),
          *attributes = cJSON_CreateObject();
    if (!json || !primitives || !primitive || !attributes) {
        cJSON_Delete(json), cJSON_Delete(primitives), cJSON_Delete(primitive), cJSON_Delete(attributes);
        return gltf_writer_fail(w, "out of memory");
    }
    cJSON_AddItemToArray(meshes, json);
    gltf_writer_name(json, mesh->name);
    cJSON_AddItemToObject(json, "primitives", primitives);
    cJSON_AddItemToArray(primitives, primitive);
    cJSON_AddItemToObject(primitive, "attributes", attributes);
    cJSON_AddNumberToObject(attributes, "POSITION",
                            gltf_writer_floats(w, (const float *)mesh->positions, n, 3, GW_VIEW_VERTEX, true));
    float *scratch = malloc(sizeof(float) * 4 * (size_t)(n + 1));
    if (!scratch) return gltf_writer_fail(w, "out of memory");
    static const float up[3] = {0, 1, 0}, along_x[3] = {1, 0, 0};
    if (mesh->normals) {
        for (int v = 0; v < n; v++) unit3(mesh->normals[v], &scratch[3 * v], up);
        cJSON_AddNumberToObject(attributes, "NORMAL", gltf_writer_floats(w, scratch, n, 3, GW_VIEW_VERTEX, false));
    }
    if (mesh->tangents) {
        for (int v = 0; v < n; v++) {
            unit3(mesh->tangents[v], &scratch[4 * v], along_x);
            scratch[4 * v + 3] = mesh->tangents[v][3] < 0 ? -1.0f : 1.0f;
        }
        cJSON_AddNumberToObject(attributes, "TANGENT", gltf_writer_floats(w, scratch, n, 4, GW_VIEW_VERTEX, false));
    }
    if (mesh->uvs && any_nonzero((const float *)mesh->uvs, 2 * (size_t)n))
        cJSON_AddNumberToObject(attributes, "TEXCOORD_0", write_uvs(w, mesh->uvs, n));
    if (mesh->uvs2) cJSON_AddNumberToObject(attributes, "TEXCOORD_1", write_uvs(w, mesh->uvs2, n));
    if (mesh->colors)
        cJSON_AddNumberToObject(attributes, "COLOR_0",
                                gltf_writer_floats(w, (const float *)mesh->colors, n, 4, GW_VIEW_VERTEX, false));
    if (mesh_is_skinned(mesh)) {
        uint16_t *joints = malloc(sizeof(uint16_t) * 4 * (size_t)(n + 1));
        if (!joints) {
            free(scratch);
            return gltf_writer_fail(w, "out of memory");
        }
        for (int v = 0; v < n; v++) clean_influences(mesh->joint_indices[v], mesh->weights[v], &joints[4 * v], &scratch[4 * v]);
        int view = gltf_writer_view(w, joints, (size_t)n, 8, GW_VIEW_VERTEX, NULL);
        cJSON_AddNumberToObject(attributes, "JOINTS_0",
                                gltf_writer_accessor(w, view, GW_UNSIGNED_SHORT, n, "VEC4", 4, NULL, false));
        cJSON_AddNumberToObject(attributes, "WEIGHTS_0", gltf_writer_floats(w, scratch, n, 4, GW_VIEW_VERTEX, false));
        free(joints);
    }
    free(scratch);
    if (mesh->index_count > 0) cJSON_AddNumberToObject(primitive, "indices", write_indices(w, mesh));
    if (mesh->primitive != MESH_TRIANGLES) cJSON_AddNumberToObject(primitive, "mode", mesh->primitive == MESH_LINES ? 1 : 0);
    if (mesh->material >= 0 && mesh->material < w->model->material_count)
        cJSON_AddNumberToObject(primitive, "material", mesh->material);
    if (mesh->morph_target_count > 0) {
        cJSON *targets = cJSON_AddArrayToObject(primitive, "targets");
        bool normals = mesh->morph_normal_deltas &&
                       any_nonzero((const float *)mesh->morph_normal_deltas, 3 * (size_t)n * (size_t)mesh->morph_target_count);
        cJSON *names = cJSON_CreateArray();
        for (int t = 0; t < mesh->morph_target_count; t++) {
            cJSON *target = cJSON_CreateObject();
            cJSON_AddItemToArray(targets, target);
            cJSON_AddNumberToObject(target, "POSITION",
                                    gltf_writer_floats(w, (const float *)&mesh->morph_position_deltas[(size_t)t * (size_t)n], n,
                                                       3, GW_VIEW_VERTEX, true));
            if (normals)
                cJSON_AddNumberToObject(target, "NORMAL",
                                        gltf_writer_floats(w, (const float *)&mesh->morph_normal_deltas[(size_t)t * (size_t)n],
                                                           n, 3, GW_VIEW_VERTEX, false));
            char valid[4 * SV_NAME_MAX];
            const char *name = mesh->morph_target_names ? mesh->morph_target_names[t] : "";
            utf8_copy_valid(valid, sizeof valid, name, strlen(name));
            cJSON_AddItemToArray(names, cJSON_CreateString(valid));
        }
        if (mesh->morph_default_weights)
            cJSON_AddItemToObject(json, "weights", cJSON_CreateFloatArray(mesh->morph_default_weights, mesh->morph_target_count));
        cJSON *extras = cJSON_AddObjectToObject(json, "extras");
        cJSON_AddItemToObject(extras, "targetNames", names);
    }
    return !w->failed;
}

static bool write_meshes_and_skins(GltfWriter *w, const NodeTree *t, int *mesh_index, int *skin_index)
{
    const Model *model = w->model;
    if (model->mesh_count == 0) return true;
    cJSON *meshes = cJSON_AddArrayToObject(w->root, "meshes");
    cJSON *skins = NULL;
    for (int m = 0; m < model->mesh_count && !w->failed; m++) {
        const Mesh *mesh = &model->meshes[m];
        mesh_index[m] = m;
        skin_index[m] = -1;
        if (!write_mesh(w, meshes, mesh)) return false;
        if (mesh_is_skinned(mesh) && mesh->skin_follows_node) w->report->meshes_follow_node++;
        if (mesh->skinned && mesh->skinning_in_file != MESH_SKINNING_LINEAR) w->report->meshes_lbs_for_dq++;
        if (!mesh_is_skinned(mesh)) continue;
        if (!skins) skins = cJSON_AddArrayToObject(w->root, "skins");
        cJSON *skin = cJSON_CreateObject();
        if (!skin) return gltf_writer_fail(w, "out of memory");
        cJSON_AddItemToArray(skins, skin);
        char name[SV_NAME_MAX + 8];
        snprintf(name, sizeof name, "%s skin", mesh->name);
        gltf_writer_name(skin, name);
        /* glTF: vertex = sum w * jointWorld * IBM * v = skinview's palette model[joint] * inverse_bind */
        cJSON_AddNumberToObject(skin, "inverseBindMatrices",
                                gltf_writer_floats(w, (const float *)mesh->inverse_bind, mesh->bone_count, 16, GW_VIEW_DATA,
                                                   false));
        cJSON *joints = cJSON_AddArrayToObject(skin, "joints");
        for (int b = 0; b < mesh->bone_count; b++)
            cJSON_AddItemToArray(joints, cJSON_CreateNumber(t->nodes[t->skin_joint_node[t->skin_offset[m] + b]].final));
        skin_index[m] = w->report->skins++;
    }
    w->report->meshes = model->mesh_count;
    return !w->failed;
}

/* ---- materials and textures ------------------------------------------------------------------------------- */

typedef struct PngBytes {
    uint8_t *data;
    size_t   size, capacity;
    bool     failed;
} PngBytes;

static void png_bytes_write(png_structp png, png_bytep data, png_size_t length)
{
    PngBytes *out = png_get_io_ptr(png);
    if (out->failed) return;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 1 << 16;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) {
            out->failed = true;
            return;
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void png_bytes_flush(png_structp png) { (void)png; }

/* RGBA8 rows top to bottom -> PNG bytes (libpng); false on failure */
static bool encode_png(const Texture *texture, PngBytes *out)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)texture->height);
    if (!png || !info || !rows || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return false;
    }
    png_set_write_fn(png, out, png_bytes_write, png_bytes_flush);
    png_set_IHDR(png, info, (png_uint_32)texture->width, (png_uint_32)texture->height, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int y = 0; y < texture->height; y++) rows[y] = texture->rgba + (size_t)y * (size_t)texture->width * 4;
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return !out->failed;
}

typedef struct ImageFiles {
    char   (*paths)[4096];     /* .gltf: the PNG files written beside it (removed on failure) */
    int      count;
} ImageFiles;

static bool texture_usable(const Model *model, int texture)
{
    return texture >= 0 && texture < model->texture_count && model->textures[texture].rgba &&
           model->textures[texture].width > 0 && model->textures[texture].height > 0;
}

/* A textureInfo (index, texCoord, KHR_texture_transform) for map `map` of texture `texture` */
static cJSON *texture_info(GltfWriter *w, const MaterialMap *map, int texture, const int *texture_index, bool *transform_used)
{
    if (!texture_usable(w->model, texture) || texture_index[texture] < 0) return NULL;
    cJSON *info = cJSON_CreateObject();
    cJSON_AddNumberToObject(info, "index", texture_index[texture]);
    if (map->texcoord > 0) cJSON_AddNumberToObject(info, "texCoord", map->texcoord);
    if (map->has_transform) {
        cJSON *extensions = cJSON_AddObjectToObject(info, "extensions");
        cJSON *transform = cJSON_AddObjectToObject(extensions, "KHR_texture_transform");
        cJSON_AddItemToObject(transform, "offset", cJSON_CreateFloatArray(map->offset, 2));
        cJSON_AddNumberToObject(transform, "rotation", map->rotation);
        cJSON_AddItemToObject(transform, "scale", cJSON_CreateFloatArray(map->scale, 2));
        *transform_used = true;
    }
    return info;
}

static float clamp01(float x) { return x > 0 ? (x < 1 ? x : 1) : 0; }

static bool write_materials(GltfWriter *w, bool glb, const char *path, ImageFiles *files, cJSON *extensions_used)
{
    const Model *model = w->model;
    if (model->material_count == 0) return true;
    int *texture_index = malloc(sizeof(int) * (size_t)(model->texture_count + 1));
    if (!texture_index) return gltf_writer_fail(w, "out of memory");
    for (int t = 0; t < model->texture_count; t++) texture_index[t] = -1;
    /* the textures some material samples, in first-use order */
    cJSON *textures = NULL, *images = NULL;
    for (int m = 0; m < model->material_count && !w->failed; m++) {
        const Material *mat = &model->materials[m];
        int used[5] = {mat->diffuse_texture, mat->metallic_roughness_map.texture, mat->normal_map.texture,
                       mat->occlusion_map.texture, mat->emissive_map.texture};
        for (int u = 0; u < 5; u++) {
            int t = used[u];
            if (!texture_usable(model, t) || texture_index[t] >= 0) continue;
            PngBytes png = {0};
            if (!encode_png(&model->textures[t], &png)) {
                free(png.data);
                free(texture_index);
                return gltf_writer_fail(w, "texture %d (%s) cannot be encoded as PNG", t, model->textures[t].source);
            }
            if (!textures) {
                textures = cJSON_AddArrayToObject(w->root, "textures");
                images = cJSON_AddArrayToObject(w->root, "images");
                cJSON *samplers = cJSON_AddArrayToObject(w->root, "samplers"), *sampler = cJSON_CreateObject();
                cJSON_AddNumberToObject(sampler, "magFilter", 9729);    /* LINEAR */
                cJSON_AddNumberToObject(sampler, "minFilter", 9987);    /* LINEAR_MIPMAP_LINEAR */
                cJSON_AddItemToArray(samplers, sampler);
            }
            cJSON *image = cJSON_CreateObject();
            cJSON_AddItemToArray(images, image);
            int index = cJSON_GetArraySize(images) - 1;
            if (glb) {
                /* embedded: a bufferView of the one buffer (never meshopt-encoded: images are compressed already) */
                w->plain_views = true;
                int view = gltf_writer_view(w, png.data, png.size, 1, GW_VIEW_DATA, NULL);
                w->plain_views = false;
                cJSON_AddNumberToObject(image, "bufferView", view);
                cJSON_AddStringToObject(image, "mimeType", "image/png");
            } else {
                /* beside the .gltf: NAME_imageN.png */
                char image_path[4096], error[512];
                size_t stem = strlen(path) - 5;   /* ".gltf" */
                snprintf(image_path, sizeof image_path, "%.*s_image%d.png", (int)stem, path, index);
                AtomicFile out;
                bool ok = atomic_file_open(&out, image_path, error, sizeof error);
                if (ok) {
                    if (fwrite(png.data, 1, png.size, out.file) != png.size) {
                        atomic_file_abort(&out);
                        ok = false;
                        snprintf(error, sizeof error, "cannot write %.400s", image_path);
                    } else
                        ok = atomic_file_commit(&out, error, sizeof error);
                }
                if (!ok) {
                    free(png.data);
                    free(texture_index);
                    return gltf_writer_fail(w, "%s", error);
                }
                snprintf(files->paths[files->count++], 4096, "%s", image_path);
                const char *slash = strrchr(image_path, '/');
                cJSON_AddStringToObject(image, "uri", slash ? slash + 1 : image_path);
                w->report->bytes += png.size;
            }
            gltf_writer_name(image, model->textures[t].source);
            free(png.data);
            cJSON *texture = cJSON_CreateObject();
            cJSON_AddNumberToObject(texture, "sampler", 0);
            cJSON_AddNumberToObject(texture, "source", index);
            cJSON_AddItemToArray(textures, texture);
            texture_index[t] = index;
            w->report->textures++;
        }
    }
    bool transform = false, unlit = false, strength = false;
    cJSON *materials = cJSON_AddArrayToObject(w->root, "materials");
    for (int m = 0; m < model->material_count && !w->failed; m++) {
        const Material *mat = &model->materials[m];
        cJSON *json = cJSON_CreateObject();
        cJSON_AddItemToArray(materials, json);
        gltf_writer_name(json, mat->name);
        cJSON *pbr = cJSON_AddObjectToObject(json, "pbrMetallicRoughness");
        float base[4];
        for (int k = 0; k < 4; k++) base[k] = clamp01(mat->diffuse_color[k]);
        cJSON_AddItemToObject(pbr, "baseColorFactor", cJSON_CreateFloatArray(base, 4));
        cJSON *info = texture_info(w, &mat->diffuse_map, mat->diffuse_texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(pbr, "baseColorTexture", info);
        cJSON_AddNumberToObject(pbr, "metallicFactor", clamp01(mat->metallic_factor));
        cJSON_AddNumberToObject(pbr, "roughnessFactor", clamp01(mat->roughness_factor));
        info = texture_info(w, &mat->metallic_roughness_map, mat->metallic_roughness_map.texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(pbr, "metallicRoughnessTexture", info);
        info = texture_info(w, &mat->normal_map, mat->normal_map.texture, texture_index, &transform);
        if (info) {
            if (mat->normal_scale != 1.0f) cJSON_AddNumberToObject(info, "scale", mat->normal_scale);
            cJSON_AddItemToObject(json, "normalTexture", info);
        }
        info = texture_info(w, &mat->occlusion_map, mat->occlusion_map.texture, texture_index, &transform);
        if (info) {
            if (mat->occlusion_strength != 1.0f) cJSON_AddNumberToObject(info, "strength", clamp01(mat->occlusion_strength));
            cJSON_AddItemToObject(json, "occlusionTexture", info);
        }
        info = texture_info(w, &mat->emissive_map, mat->emissive_map.texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(json, "emissiveTexture", info);
        /* emissiveFactor is at most 1 per channel: a brighter one moves into KHR_materials_emissive_strength */
        float emissive[3] = {fmaxf(mat->emissive_factor[0], 0), fmaxf(mat->emissive_factor[1], 0),
                             fmaxf(mat->emissive_factor[2], 0)};
        float emissive_strength = mat->emissive_strength > 0 ? mat->emissive_strength : 1.0f;
        float largest = fmaxf(emissive[0], fmaxf(emissive[1], emissive[2]));
        if (largest > 1.0f) {
            for (int k = 0; k < 3; k++) emissive[k] /= largest;
            emissive_strength *= largest;
        }
        if (largest > 0) cJSON_AddItemToObject(json, "emissiveFactor", cJSON_CreateFloatArray(emissive, 3));
        cJSON *extensions = NULL;
        if (largest > 0 && emissive_strength != 1.0f) {
            extensions = cJSON_AddObjectToObject(json, "extensions");
            cJSON *e = cJSON_AddObjectToObject(extensions, "KHR_materials_emissive_strength");
            cJSON_AddNumberToObject(e, "emissiveStrength", emissive_strength);
            strength = true;
        }
        if (mat->unlit) {
            if (!extensions) extensions = cJSON_AddObjectToObject(json, "extensions");
            cJSON_AddObjectToObject(extensions, "KHR_materials_unlit");
            unlit = true;
        }
        if (mat->alpha_mode == MATERIAL_ALPHA_MASK) {
            cJSON_AddStringToObject(json, "alphaMode", "MASK");
            if (mat->alpha_cutoff != 0.5f) cJSON_AddNumberToObject(json, "alphaCutoff", fmaxf(mat->alpha_cutoff, 0));
        } else if (mat->alpha_mode == MATERIAL_ALPHA_BLEND)
            cJSON_AddStringToObject(json, "alphaMode", "BLEND");
        if (mat->double_sided) cJSON_AddTrueToObject(json, "doubleSided");
    }
    if (transform) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_texture_transform"));
    if (unlit) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_materials_unlit"));
    if (strength) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_materials_emissive_strength"));
    w->report->materials = model->material_count;
    free(texture_index);
    return !w->failed;
}

/* ---- the file --------------------------------------------------------------------------------------------- */

static bool ends_with(const char *text, const char *suffix)
{
    size_t n = strlen(text), k = strlen(suffix);
    return n >= k && strcasecmp(text + n - k, suffix) == 0;
}

static bool write_bytes(AtomicFile *out, const void *data, size_t size)
{
    return size == 0 || fwrite(data, 1, size, out->file) == size;
}

static void put_u32(uint8_t *at, uint32_t value)
{
    at[0] = (uint8_t)value, at[1] = (uint8_t)(value >> 8), at[2] = (uint8_t)(value >> 16), at[3] = (uint8_t)(value >> 24);
}

/* The JSON chunk and the BIN chunk, each padded to 4 bytes (spaces / zeros), behind the 12-byte header. */
static bool write_glb(const char *path, const char *json, const uint8_t *bin, size_t bin_size, size_t *bytes, char *error,
                      size_t error_size)
{
    size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3, bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin_size > 0 ? 8 + bin_padded : 0);
    if (total > 0xFFFFFFFFu) {
        snprintf(error, error_size, "the GLB would be %zu bytes, over the 4 GiB a GLB can hold", total);
        return false;
    }
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    uint8_t header[20];
    memcpy(header, "glTF", 4);
    put_u32(header + 4, 2);
    put_u32(header + 8, (uint32_t)total);
    put_u32(header + 12, (uint32_t)json_padded);
    memcpy(header + 16, "JSON", 4);
    static const uint8_t spaces[4] = {' ', ' ', ' ', ' '}, zeros[4] = {0};
    bool ok = write_bytes(&out, header, 20) && write_bytes(&out, json, json_size) &&
              write_bytes(&out, spaces, json_padded - json_size);
    if (ok && bin_size > 0) {
        uint8_t chunk[8];
        put_u32(chunk, (uint32_t)bin_padded);
        memcpy(chunk + 4, "BIN\0", 4);
        ok = write_bytes(&out, chunk, 8) && write_bytes(&out, bin, bin_size) && write_bytes(&out, zeros, bin_padded - bin_size);
    }
    if (!ok) {
        atomic_file_abort(&out);
        snprintf(error, error_size, "cannot write the file");
        return false;
    }
    *bytes = total;
    return atomic_file_commit(&out, error, error_size);
}

static bool write_file(const char *path, const void *data, size_t size, char *error, size_t error_size)
{
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    if (!write_bytes(&out, data, size)) {
        atomic_file_abort(&out);
        snprintf(error, error_size, "cannot write the file");
        return false;
    }
    return atomic_file_commit(&out, error, error_size);
}

bool gltf_export(const Model *model, const char *path, const GltfExportOptions *options, GltfExportReport *report,
                 char *error, size_t error_size)
{
    bool glb = ends_with(path, ".glb");
    if (!glb && !ends_with(path, ".gltf")) {
        snprintf(error, error_size, "the output must end in .glb or .gltf");
        return false;
    }
    if (model->mesh_count == 0 && model->skeleton.joint_count == 0) {
        snprintf(error, error_size, "nothing to export (no meshes, no nodes)");
        return false;
    }
    int *clip_animation = report->clip_animation, *mesh_order = report->mesh_order;
    memset(report, 0, sizeof *report);
    report->clip_animation = clip_animation;
    report->mesh_order = mesh_order;
    GltfExportOptions local_options = *options;
    GltfWriter w = {.model = model, .options = &local_options, .report = report, .error = error, .error_size = error_size};
    NodeTree tree = {0};
    ImageFiles files = {0};
    char bin_path[4096] = "";
    bool bin_written = false;
    w.root = cJSON_CreateObject();
    int *mesh_index = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    int *skin_index = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    w.joint_node = malloc(sizeof(int) * (size_t)(model->skeleton.joint_count + 1));
    w.mesh_node = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    files.paths = malloc(sizeof *files.paths * (size_t)(model->texture_count + 1));
    if (!w.root || !mesh_index || !skin_index || !w.joint_node || !w.mesh_node || !files.paths) {
        gltf_writer_fail(&w, "out of memory");
        goto done;
    }
    cJSON *asset = cJSON_AddObjectToObject(w.root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    char generator[1200];
    const char *slash = strrchr(model->source_path, '/');
    snprintf(generator, sizeof generator, "skinview --export-gltf (from %s)", slash ? slash + 1 : model->source_path);
    cJSON_AddStringToObject(asset, "generator", generator);
    cJSON *extensions_used = cJSON_CreateArray();
    w.buffer_views = cJSON_CreateArray();
    w.accessors = cJSON_CreateArray();
    if (!build_tree(&w, &tree)) goto done;
    /* meshes first (their accessors), then the nodes that name them */
    for (int m = 0; m < model->mesh_count; m++) w.mesh_node[m] = -1;
    if (!write_meshes_and_skins(&w, &tree, mesh_index, skin_index)) goto done;
    if (!write_nodes(&w, &tree, mesh_index, skin_index)) goto done;
    if (!write_materials(&w, glb, path, &files, extensions_used)) goto done;
    if (!gltf_write_animations(&w)) goto done;
    if (local_options.meshopt) {
        cJSON_AddItemToArray(extensions_used, cJSON_CreateString("EXT_meshopt_compression"));
        cJSON *required = cJSON_AddArrayToObject(w.root, "extensionsRequired");
        cJSON_AddItemToArray(required, cJSON_CreateString("EXT_meshopt_compression"));
    }
    if (cJSON_GetArraySize(extensions_used) > 0) {
        cJSON_AddItemToObject(w.root, "extensionsUsed", extensions_used);
        extensions_used = NULL;
    }
    cJSON_Delete(extensions_used);
    if (w.view_count > 0) {
        cJSON_AddItemToObject(w.root, "bufferViews", w.buffer_views);
        w.buffer_views = NULL;
        cJSON_AddItemToObject(w.root, "accessors", w.accessors);
        w.accessors = NULL;
        cJSON *buffers = cJSON_AddArrayToObject(w.root, "buffers"), *buffer = cJSON_CreateObject();
        cJSON_AddItemToArray(buffers, buffer);
        bin_align(&w);
        cJSON_AddNumberToObject(buffer, "byteLength", (double)w.bin_size);
        if (!glb) {
            size_t stem = strlen(path) - 5;
            snprintf(bin_path, sizeof bin_path, "%.*s.bin", (int)stem, path);
            const char *name = strrchr(bin_path, '/');
            cJSON_AddStringToObject(buffer, "uri", name ? name + 1 : bin_path);
        }
        if (local_options.meshopt) {
            cJSON *fallback = cJSON_CreateObject();
            cJSON_AddItemToArray(buffers, fallback);
            cJSON_AddNumberToObject(fallback, "byteLength", (double)(w.fallback_size > 0 ? w.fallback_size : 4));
            cJSON *ext = cJSON_AddObjectToObject(cJSON_AddObjectToObject(fallback, "extensions"), "EXT_meshopt_compression");
            cJSON_AddTrueToObject(ext, "fallback");
        }
    }
    char *json = cJSON_PrintUnformatted(w.root);
    if (!json) {
        gltf_writer_fail(&w, "out of memory");
        goto done;
    }
    if (glb) {
        size_t bytes = 0;
        if (!write_glb(path, json, w.bin, w.bin_size, &bytes, error, error_size)) w.failed = true;
        report->bytes = bytes;
    } else {
        if (bin_path[0]) {
            if (!write_file(bin_path, w.bin, w.bin_size, error, error_size)) w.failed = true;
            else bin_written = true;
            report->bytes += w.bin_size;
        }
        if (!w.failed && !write_file(path, json, strlen(json), error, error_size)) w.failed = true;
        report->bytes += strlen(json);
    }
    free(json);
done:
    if (w.failed) {   /* nothing left behind: the .gltf's companions written so far go too */
        for (int i = 0; i < files.count; i++) unlink(files.paths[i]);
        if (bin_written) unlink(bin_path);
    }
    cJSON_Delete(w.buffer_views);
    cJSON_Delete(w.accessors);
    cJSON_Delete(w.root);
    free(files.paths);
    free(tree.nodes);
    free(tree.skin_joint_node);
    free(tree.skin_offset);
    for (int m = 0; tree.follow_copy && m < model->mesh_count; m++) free(tree.follow_copy[m]);
    free(tree.follow_copy);
    free(w.copy_joint);
    free(w.copy_node);
    free(mesh_index);
    free(skin_index);
    free(w.joint_node);
    free(w.mesh_node);
    free(w.bin);
    return !w.failed;
}
