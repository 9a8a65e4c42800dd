/* import.c — Assimp scene -> skinview Model, once per file.
 *
 * The only file that walks Assimp's structures. Everything is copied into the
 * plain arrays of model.h and converted to skinview's conventions here:
 *   - Assimp matrices are row-major (a1..a4 is the first row, a4/b4/c4 the
 *     translation); cglm's mat4 is column-major (m[column][row]), so every
 *     matrix is transposed on the way in: m[c][r] = ai[r][c].
 *   - aiQuaternion is (w, x, y, z); cglm's versor is (x, y, z, w).
 *   - key times: ticks -> seconds.
 * Name lookups (bone -> joint, channel -> joint) happen here and never again.
 */
#include "import.h"

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* stb_image is compiled here (the one STB_IMAGE_IMPLEMENTATION of src/io). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include "stb_image.h"
#pragma GCC diagnostic pop

/* Assimp leaves mTicksPerSecond at 0 when the file does not say. Assimp's own
 * viewer (tools/assimp_view/AnimEvaluator.cpp: `mAnim->mTicksPerSecond != 0.0
 * ? mAnim->mTicksPerSecond : 25.0`) then assumes 25 ticks per second; so do we. */
#define DEFAULT_TICKS_PER_SECOND 25.0

#define MAX_NODE_DEPTH 4096       /* deeper node trees are treated as corrupt */

/* ---- the import context ------------------------------------------------- */

typedef struct NameEntry {
    const char *name;             /* points into the aiScene (full, untruncated name) */
    int         joint;
} NameEntry;

typedef struct Importer {
    const struct aiScene *scene;
    const char           *path;
    char                  directory[1024];   /* the model's folder, with a trailing '/' or "" */
    bool                  is_gltf;
    Model                *model;
    char                 *error;
    size_t                error_size;
    const struct aiNode **nodes;             /* [joint_count] joint -> aiNode */
    NameEntry            *by_name;           /* [joint_count] sorted by name, then joint */
    int                  *depth;             /* [joint_count] 0 for the root */
    bool                 *channel_taken;     /* [joint_count] joints a channel of the current clip drives */
    char                **texture_keys;      /* [texture_count] full source string of each texture */
    char                **failed_textures;   /* sources already reported missing */
    int                   failed_count;
} Importer;

static bool fail(Importer *im, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(im->error, im->error_size, format, args);
    va_end(args);
    return false;
}

/* Names are stored as valid UTF-8 (they reach JSON, the overlay and OBJ group names):
 * bytes that are not UTF-8 become U+FFFD and a long name is cut between characters.
 * Lookups by name (bones, channels) use the untouched aiScene strings. */
static void copy_name(char dst[SV_NAME_MAX], const struct aiString *src)
{
    size_t length = src->length < MAXLEN ? src->length : MAXLEN;
    utf8_copy_valid(dst, SV_NAME_MAX, src->data, length);
}

static bool finite3(float x, float y, float z) { return isfinite(x) && isfinite(y) && isfinite(z); }

static bool matrix_is_finite(const struct aiMatrix4x4 *m)
{
    const float *f = &m->a1;
    for (int i = 0; i < 16; i++)
        if (!isfinite(f[i])) return false;
    return true;
}

/* Row-major aiMatrix4x4 -> column-major cglm mat4: out[column][row] = ai[row][column]. */
static void matrix_from_assimp(const struct aiMatrix4x4 *m, mat4 out)
{
    out[0][0] = m->a1; out[0][1] = m->b1; out[0][2] = m->c1; out[0][3] = m->d1;
    out[1][0] = m->a2; out[1][1] = m->b2; out[1][2] = m->c2; out[1][3] = m->d2;
    out[2][0] = m->a3; out[2][1] = m->b3; out[2][2] = m->c3; out[2][3] = m->d3;
    out[3][0] = m->a4; out[3][1] = m->b4; out[3][2] = m->c4; out[3][3] = m->d4;
}

/* aiQuaternion (w, x, y, z) -> unit cglm versor (x, y, z, w); a zero quaternion becomes the identity. */
static void quat_from_assimp(const struct aiQuaternion *q, versor out)
{
    float len = sqrtf(q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w);
    if (!(len > 1e-12f) || !isfinite(len)) {
        glm_quat_identity(out);
        return;
    }
    out[0] = q->x / len;
    out[1] = q->y / len;
    out[2] = q->z / len;
    out[3] = q->w / len;
}

/* ---- skeleton: the whole node tree, parents before children -------------- */

static int count_nodes(const struct aiNode *node, int depth)
{
    if (depth > MAX_NODE_DEPTH) return -1;
    int count = 1;
    for (unsigned c = 0; c < node->mNumChildren; c++) {
        if (!node->mChildren[c]) return -1;
        int sub = count_nodes(node->mChildren[c], depth + 1);
        if (sub < 0 || count > 10000000 - sub) return -1;
        count += sub;
    }
    return count;
}

/* Depth-first pre-order: a node gets its index before any of its children. */
static void add_nodes(Importer *im, const struct aiNode *node, int parent, int *next)
{
    int joint = (*next)++;
    im->nodes[joint] = node;
    im->model->skeleton.parent[joint] = parent;
    for (unsigned c = 0; c < node->mNumChildren; c++) add_nodes(im, node->mChildren[c], joint, next);
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

/* The joint a bone of the mesh on joint `mesh_joint` binds to. Assimp names bones by
 * node name only, and names repeat: two characters with the same rig in one file, two
 * Blender armatures that both have a "Bone". Among joints of that name, the one nearest
 * the mesh (deepest common ancestor: the same character) wins; ties go to the first in
 * pre-order, as with Assimp's FindNode. */
static int find_bone_joint(const Importer *im, const char *name, int mesh_joint)
{
    int first = find_name(im, name);
    if (first < 0) return -1;
    int best = im->by_name[first].joint, best_depth = common_ancestor_depth(im, best, mesh_joint);
    int count = im->model->skeleton.joint_count;
    for (int i = first + 1; i < count && strcmp(im->by_name[i].name, name) == 0; i++) {
        int depth = common_ancestor_depth(im, im->by_name[i].joint, mesh_joint);
        if (depth > best_depth) {
            best = im->by_name[i].joint;
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
        quat_from_assimp(&channel->mRotationKeys[0].mValue, q);
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
 * names repeat (two characters with one rig in one file). Among the joints of that name
 * that no earlier channel of this clip drives, the one whose rest transform is nearest
 * the channel's first keys wins (Assimp's glTF importer fills missing channels with the
 * target node's own rest values); ties go to the first in pre-order, as Assimp's FindNode.
 * Before, every such channel landed on the first joint: the other character froze or
 * took the wrong motion. */
static int find_channel_joint(const Importer *im, const struct aiNodeAnim *channel)
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
        if (im->channel_taken[joint]) continue;
        double distance = channel_rest_distance(im, channel, joint);
        if (best < 0 || distance < best_distance - 1e-9 * (1.0 + best_distance)) {
            best = joint;
            best_distance = distance;
        }
    }
    return best >= 0 ? best : im->by_name[first].joint;   /* more channels than joints: the first, as Assimp */
}

static bool build_skeleton(Importer *im)
{
    Skeleton *sk = &im->model->skeleton;
    const struct aiNode *root = im->scene->mRootNode;
    if (!root) return fail(im, "the scene has no root node");
    int count = count_nodes(root, 0);
    if (count <= 0) return fail(im, "the node hierarchy is corrupt or deeper than %d levels", MAX_NODE_DEPTH);

    bool skeleton_ok = skeleton_alloc(sk, count);
    im->nodes = calloc((size_t)count, sizeof *im->nodes);
    im->by_name = calloc((size_t)count, sizeof *im->by_name);
    im->depth = calloc((size_t)count, sizeof *im->depth);
    im->channel_taken = calloc((size_t)count, sizeof *im->channel_taken);
    if (!skeleton_ok || !im->nodes || !im->by_name || !im->depth || !im->channel_taken)
        return fail(im, "out of memory");

    int next = 0;
    add_nodes(im, root, -1, &next);
    for (int j = 0; j < count; j++) im->depth[j] = sk->parent[j] < 0 ? 0 : im->depth[sk->parent[j]] + 1;

    for (int j = 0; j < count; j++) {
        const struct aiNode *node = im->nodes[j];
        copy_name(sk->names[j], &node->mName);
        if (!matrix_is_finite(&node->mTransformation))
            return fail(im, "node '%s' has a non-finite transform", sk->names[j]);
        matrix_from_assimp(&node->mTransformation, sk->rest_local[j]);

        struct aiVector3D scaling, position;
        struct aiQuaternion rotation;
        aiDecomposeMatrix(&node->mTransformation, &scaling, &rotation, &position);
        JointTransform *trs = &sk->rest_trs[j];
        trs->translation[0] = position.x;
        trs->translation[1] = position.y;
        trs->translation[2] = position.z;
        quat_from_assimp(&rotation, trs->rotation);
        trs->scale[0] = scaling.x;
        trs->scale[1] = scaling.y;
        trs->scale[2] = scaling.z;
        if (!finite3(scaling.x, scaling.y, scaling.z)) glm_vec3_one(trs->scale);

        im->by_name[j].name = node->mName.data;
        im->by_name[j].joint = j;
    }
    qsort(im->by_name, (size_t)count, sizeof *im->by_name, compare_name_entries);
    return true;
}

/* ---- meshes --------------------------------------------------------------- */

static bool mesh_has_triangles(const struct aiMesh *mesh)
{
    if (!mesh || mesh->mNumVertices == 0 || !mesh->mVertices || mesh->mNumFaces == 0) return false;
    for (unsigned f = 0; f < mesh->mNumFaces; f++)
        if (mesh->mFaces[f].mNumIndices == 3) return true;
    return false;
}

/* Keeps the SV_MAX_INFLUENCES largest weights of one vertex, sorted descending. */
static void influence_insert(uint16_t index[SV_MAX_INFLUENCES], float weight[SV_MAX_INFLUENCES], int bone, float w)
{
    int k = SV_MAX_INFLUENCES - 1;
    if (w <= weight[k]) return;
    while (k > 0 && weight[k - 1] < w) {
        weight[k] = weight[k - 1];
        index[k] = index[k - 1];
        k--;
    }
    weight[k] = w;
    index[k] = (uint16_t)bone;
}

static bool build_skin(Importer *im, const struct aiMesh *src, Mesh *mesh, const char *mesh_name)
{
    ImportStats *stats = &im->model->stats;
    Skeleton *sk = &im->model->skeleton;
    int vertex_count = mesh->vertex_count;

    /* bones whose node exists (+ possibly one extra bone for unweighted vertices) */
    int *bone_of_src = malloc(sizeof(int) * src->mNumBones);
    mesh->bone_joint = malloc(sizeof(int) * ((size_t)src->mNumBones + 1));
    mesh->inverse_bind = malloc(sizeof(mat4) * ((size_t)src->mNumBones + 1));
    mesh->joint_indices = calloc((size_t)vertex_count, sizeof *mesh->joint_indices);
    mesh->weights = calloc((size_t)vertex_count, sizeof *mesh->weights);
    if (!bone_of_src || !mesh->bone_joint || !mesh->inverse_bind || !mesh->joint_indices || !mesh->weights) {
        free(bone_of_src);
        return fail(im, "out of memory");
    }
    if (src->mNumBones >= 65535) {
        free(bone_of_src);
        return fail(im, "mesh '%s' has %u bones (at most 65534 supported)", mesh_name, src->mNumBones);
    }

    int bone_count = 0;
    for (unsigned b = 0; b < src->mNumBones; b++) {
        const struct aiBone *bone = src->mBones[b];
        bone_of_src[b] = -1;
        if (!bone) continue;
        int joint = find_bone_joint(im, bone->mName.data, mesh->node_joint);
        if (joint < 0) {
            stats->bones_without_node++;
            continue;
        }
        if (!matrix_is_finite(&bone->mOffsetMatrix)) {
            free(bone_of_src);
            return fail(im, "bone '%.100s' of mesh '%s' has a non-finite offset matrix", bone->mName.data, mesh_name);
        }
        bone_of_src[b] = bone_count;
        mesh->bone_joint[bone_count] = joint;
        matrix_from_assimp(&bone->mOffsetMatrix, mesh->inverse_bind[bone_count]);
        bone_count++;
    }

    /* top four influences per vertex */
    for (unsigned b = 0; b < src->mNumBones; b++) {
        const struct aiBone *bone = src->mBones[b];
        if (!bone) continue;
        if (bone->mNumWeights > 0 && !bone->mWeights) {
            free(bone_of_src);
            return fail(im, "bone '%.100s' has no weight array", bone->mName.data);
        }
        for (unsigned w = 0; w < bone->mNumWeights; w++) {
            unsigned v = bone->mWeights[w].mVertexId;
            float weight = bone->mWeights[w].mWeight;
            if (v >= (unsigned)vertex_count) {
                free(bone_of_src);
                return fail(im, "bone '%.100s' weights vertex %u of mesh '%s' (it has %d)", bone->mName.data, v,
                            mesh_name, vertex_count);
            }
            if (!isfinite(weight)) {
                free(bone_of_src);
                return fail(im, "bone '%.100s' has a non-finite weight", bone->mName.data);
            }
            if (bone_of_src[b] < 0 || weight <= 0.0f) continue;
            influence_insert(mesh->joint_indices[v], mesh->weights[v], bone_of_src[b], weight);
        }
    }
    free(bone_of_src);

    if (bone_count == 0) {   /* every bone was dropped: the mesh is static after all */
        free(mesh->bone_joint);
        free(mesh->inverse_bind);
        free(mesh->joint_indices);
        free(mesh->weights);
        mesh->bone_joint = NULL;
        mesh->inverse_bind = NULL;
        mesh->joint_indices = NULL;
        mesh->weights = NULL;
        return true;
    }

    /* renormalise to sum 1; bind unweighted vertices to an extra bone = the mesh's node */
    int extra_bone = -1;
    for (int v = 0; v < vertex_count; v++) {
        float *w = mesh->weights[v];
        float sum = w[0] + w[1] + w[2] + w[3];
        if (sum <= 0.0f) {
            if (extra_bone < 0) {
                extra_bone = bone_count++;
                mesh->bone_joint[extra_bone] = mesh->node_joint;
                glm_mat4_identity(mesh->inverse_bind[extra_bone]);
            }
            mesh->joint_indices[v][0] = (uint16_t)extra_bone;
            w[0] = 1.0f;
            stats->vertices_unweighted++;
            continue;
        }
        if (fabsf(sum - 1.0f) > 1e-4f) stats->vertices_renormalized++;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            w[k] /= sum;
            if (w[k] == 0.0f) mesh->joint_indices[v][k] = 0;
        }
    }
    mesh->bone_count = bone_count;
    mesh->skinned = true;
    for (int i = 0; i < bone_count; i++) sk->is_bone[mesh->bone_joint[i]] = true;
    return true;
}

static bool build_mesh(Importer *im, const struct aiMesh *src, int node_joint, Mesh *mesh)
{
    const struct aiNode *node = im->nodes[node_joint];
    if (src->mName.length > 0) copy_name(mesh->name, &src->mName);
    else copy_name(mesh->name, &node->mName);
    mesh->node_joint = node_joint;
    mesh->material = (src->mMaterialIndex < im->scene->mNumMaterials) ? (int)src->mMaterialIndex : -1;

    if (src->mNumVertices > 0x7fffffffu / 4) return fail(im, "mesh '%s' has too many vertices", mesh->name);
    int vertex_count = (int)src->mNumVertices;
    int triangles = 0;
    for (unsigned f = 0; f < src->mNumFaces; f++)
        if (src->mFaces[f].mNumIndices == 3) triangles++;
    if (triangles > 0x7fffffff / 3) return fail(im, "mesh '%s' has too many triangles", mesh->name);

    mesh->vertex_count = vertex_count;
    mesh->index_count = triangles * 3;
    mesh->positions = malloc(sizeof(vec3) * (size_t)vertex_count);
    mesh->normals = malloc(sizeof(vec3) * (size_t)vertex_count);
    mesh->uvs = calloc((size_t)vertex_count, sizeof(vec2));
    mesh->indices = malloc(sizeof(uint32_t) * (size_t)mesh->index_count);
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices) return fail(im, "out of memory");

    for (int v = 0; v < vertex_count; v++) {
        const struct aiVector3D *p = &src->mVertices[v];
        if (!finite3(p->x, p->y, p->z))
            return fail(im, "mesh '%s' has a non-finite vertex position (vertex %d)", mesh->name, v);
        mesh->positions[v][0] = p->x;
        mesh->positions[v][1] = p->y;
        mesh->positions[v][2] = p->z;
        /* GenSmoothNormals leaves NaN on degenerate faces: fall back to +Y there */
        const struct aiVector3D *n = src->mNormals ? &src->mNormals[v] : NULL;
        if (n && finite3(n->x, n->y, n->z) && (n->x != 0.0f || n->y != 0.0f || n->z != 0.0f)) {
            mesh->normals[v][0] = n->x;
            mesh->normals[v][1] = n->y;
            mesh->normals[v][2] = n->z;
        } else {
            mesh->normals[v][0] = 0.0f;
            mesh->normals[v][1] = 1.0f;
            mesh->normals[v][2] = 0.0f;
        }
        if (src->mTextureCoords[0]) {
            const struct aiVector3D *t = &src->mTextureCoords[0][v];
            if (isfinite(t->x) && isfinite(t->y)) {
                mesh->uvs[v][0] = t->x;
                mesh->uvs[v][1] = t->y;
            }
        }
    }

    int i = 0;
    for (unsigned f = 0; f < src->mNumFaces; f++) {
        const struct aiFace *face = &src->mFaces[f];
        if (face->mNumIndices != 3) continue;
        for (int k = 0; k < 3; k++) {
            unsigned index = face->mIndices[k];
            if (index >= src->mNumVertices)
                return fail(im, "mesh '%s' has a vertex index out of range (%u >= %u)", mesh->name, index,
                            src->mNumVertices);
            mesh->indices[i++] = index;
        }
    }

    if (src->mNumBones > 0 && src->mBones) return build_skin(im, src, mesh, mesh->name);
    return true;
}

static bool build_meshes(Importer *im)
{
    const struct aiScene *scene = im->scene;
    Model *model = im->model;
    int joint_count = model->skeleton.joint_count;

    /* one skinview Mesh per (node, mesh) reference, in joint order (instancing) */
    long references = 0;
    for (int j = 0; j < joint_count; j++) {
        const struct aiNode *node = im->nodes[j];
        for (unsigned k = 0; k < node->mNumMeshes; k++) {
            unsigned index = node->mMeshes[k];
            if (index >= scene->mNumMeshes) return fail(im, "node '%s' references mesh %u of %u", model->skeleton.names[j], index, scene->mNumMeshes);
            if (mesh_has_triangles(scene->mMeshes[index])) references++;
        }
    }
    if (references == 0) return fail(im, "no triangle meshes in the file");
    if (references > 1000000) return fail(im, "too many mesh instances (%ld)", references);

    model->meshes = calloc((size_t)references, sizeof *model->meshes);
    if (!model->meshes) return fail(im, "out of memory");
    for (int j = 0; j < joint_count; j++) {
        const struct aiNode *node = im->nodes[j];
        for (unsigned k = 0; k < node->mNumMeshes; k++) {
            const struct aiMesh *src = scene->mMeshes[node->mMeshes[k]];
            if (!mesh_has_triangles(src)) continue;
            Mesh *mesh = &model->meshes[model->mesh_count++];
            if (!build_mesh(im, src, j, mesh)) return false;
        }
    }
    return true;
}

/* ---- materials and textures --------------------------------------------- */

static void path_basename(const char *path, char *out, size_t out_size)
{
    const char *base = path;
    for (const char *c = path; *c; c++)
        if (*c == '/' || *c == '\\') base = c + 1;
    snprintf(out, out_size, "%s", base);
}

/* glTF URIs are percent-encoded (RFC 3986): Blender writes "My%20Character.bin" and
 * "skin%20diffuse.png" for files with spaces, three.js decodes them, Assimp 5.2 does not.
 * Decodes %XX into out; returns false if `in` has no valid escape (nothing to retry). */
static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool percent_decode(const char *in, char *out, size_t out_size)
{
    bool changed = false;
    size_t n = 0;
    for (const char *c = in; *c && n + 1 < out_size; c++) {
        int hi = c[0] == '%' && c[1] ? hex_value(c[1]) : -1;
        int lo = hi >= 0 && c[2] ? hex_value(c[2]) : -1;
        if (hi >= 0 && lo >= 0 && (hi | lo) != 0) {   /* %00 stays as it is */
            out[n++] = (char)(hi * 16 + lo);
            c += 2;
            changed = true;
        } else
            out[n++] = *c;
    }
    out[n] = '\0';
    return changed;
}

static void warn_texture(Importer *im, const char *source, const char *why)
{
    for (int i = 0; i < im->failed_count; i++)
        if (strcmp(im->failed_textures[i], source) == 0) return;   /* already reported */
    char **grown = realloc(im->failed_textures, sizeof(char *) * (size_t)(im->failed_count + 1));
    if (grown) {
        im->failed_textures = grown;
        char *copy = strdup(source);
        if (copy) im->failed_textures[im->failed_count++] = copy;
    }
    fprintf(stderr, "skinview: warning: %s: texture '%s' %s; using the material colour\n", im->path, source, why);
}

/* Converts Assimp's uncompressed BGRA texels to RGBA8. */
static unsigned char *decode_texels(const struct aiTexture *texture, int *width, int *height)
{
    if (texture->mWidth == 0 || texture->mHeight == 0 || texture->mWidth > 65536 || texture->mHeight > 65536)
        return NULL;
    size_t count = (size_t)texture->mWidth * texture->mHeight;
    unsigned char *rgba = malloc(count * 4);
    if (!rgba) return NULL;
    for (size_t i = 0; i < count; i++) {
        const struct aiTexel *t = &texture->pcData[i];
        rgba[4 * i + 0] = t->r;
        rgba[4 * i + 1] = t->g;
        rgba[4 * i + 2] = t->b;
        rgba[4 * i + 3] = t->a;
    }
    *width = (int)texture->mWidth;
    *height = (int)texture->mHeight;
    return rgba;
}

static unsigned char *decode_embedded(const struct aiTexture *texture, int *width, int *height)
{
    if (!texture->pcData) return NULL;
    if (texture->mHeight > 0) return decode_texels(texture, width, height);
    if (texture->mWidth == 0 || texture->mWidth > 0x7fffffffu) return NULL;
    int channels;
    return stbi_load_from_memory((const stbi_uc *)texture->pcData, (int)texture->mWidth, width, height, &channels, 4);
}

static const struct aiTexture *find_embedded(const Importer *im, const char *source)
{
    const struct aiScene *scene = im->scene;
    if (source[0] == '*') {
        char *end;
        long index = strtol(source + 1, &end, 10);
        if (end != source + 1 && *end == '\0' && index >= 0 && index < (long)scene->mNumTextures)
            return scene->mTextures[index];
        return NULL;
    }
    char base[1024], texture_base[1024];
    path_basename(source, base, sizeof base);
    for (unsigned t = 0; t < scene->mNumTextures; t++) {
        const struct aiTexture *texture = scene->mTextures[t];
        if (!texture || texture->mFilename.length == 0) continue;
        if (strcmp(texture->mFilename.data, source) == 0) return texture;
        path_basename(texture->mFilename.data, texture_base, sizeof texture_base);
        if (strcmp(texture_base, base) == 0) return texture;
    }
    return NULL;
}

/* Loads the texture `source` (embedded "*N", an embedded file name, or a file next to
 * the model) once; returns its index in model->textures, or -1 with a warning. */
static int load_texture(Importer *im, const char *source)
{
    Model *model = im->model;
    for (int t = 0; t < model->texture_count; t++)
        if (strcmp(im->texture_keys[t], source) == 0) return t;
    for (int i = 0; i < im->failed_count; i++)
        if (strcmp(im->failed_textures[i], source) == 0) return -1;

    int width = 0, height = 0;
    unsigned char *rgba = NULL;
    const char *why = "could not be found";
    const struct aiTexture *embedded = find_embedded(im, source);
    if (embedded) {
        rgba = decode_embedded(embedded, &width, &height);
        if (!rgba) why = "(embedded) could not be decoded";
    } else if (source[0] != '*') {
        char normalized[1024], base[1024], candidate[2300];
        snprintf(normalized, sizeof normalized, "%s", source);
        for (char *c = normalized; *c; c++)
            if (*c == '\\') *c = '/';
        path_basename(normalized, base, sizeof base);
        char decoded[1024], decoded_base[1024];
        bool has_escapes = percent_decode(normalized, decoded, sizeof decoded);
        path_basename(decoded, decoded_base, sizeof decoded_base);
        /* as written, absolute as written, its file name; then the same percent-decoded */
        const char *tries[6] = {normalized, NULL, base, NULL, NULL, NULL};
        char absolute[1024];
        if (normalized[0] == '/') {   /* an absolute path is tried as it is, then next to the model */
            snprintf(absolute, sizeof absolute, "%s", normalized);
            tries[1] = absolute;
        }
        if (has_escapes) {
            tries[3] = decoded;
            tries[4] = decoded[0] == '/' ? decoded : NULL;
            tries[5] = decoded_base;
        }
        for (int k = 0; k < 6 && !rgba; k++) {
            if (!tries[k] || !tries[k][0]) continue;
            if (k == 1 || k == 4) snprintf(candidate, sizeof candidate, "%s", tries[k]);
            else snprintf(candidate, sizeof candidate, "%s%s", im->directory, tries[k]);
            struct stat st;
            if (stat(candidate, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            int channels;
            rgba = stbi_load(candidate, &width, &height, &channels, 4);
            if (!rgba) why = "could not be decoded";
        }
    } else {
        why = "refers to a missing embedded texture";
    }
    if (!rgba) {
        model->stats.textures_missing++;
        warn_texture(im, source, why);
        return -1;
    }

    Texture *grown = realloc(model->textures, sizeof(Texture) * (size_t)(model->texture_count + 1));
    char **keys = realloc(im->texture_keys, sizeof(char *) * (size_t)(model->texture_count + 1));
    if (grown) model->textures = grown;
    if (keys) im->texture_keys = keys;
    char *key = strdup(source);
    if (!grown || !keys || !key) {
        free(key);
        stbi_image_free(rgba);
        return -1;
    }
    Texture *texture = &model->textures[model->texture_count];
    memset(texture, 0, sizeof *texture);
    utf8_copy_valid(texture->source, sizeof texture->source, source, strlen(source));
    texture->width = width;
    texture->height = height;
    texture->rgba = rgba;   /* stb_image allocates with malloc: model_free's free() matches */
    im->texture_keys[model->texture_count] = key;
    return model->texture_count++;
}

static bool build_materials(Importer *im)
{
    const struct aiScene *scene = im->scene;
    Model *model = im->model;
    if (scene->mNumMaterials == 0) return true;
    model->materials = calloc(scene->mNumMaterials, sizeof *model->materials);
    if (!model->materials) return fail(im, "out of memory");
    model->material_count = (int)scene->mNumMaterials;

    for (unsigned m = 0; m < scene->mNumMaterials; m++) {
        const struct aiMaterial *src = scene->mMaterials[m];
        Material *material = &model->materials[m];
        glm_vec4_one(material->diffuse_color);
        material->diffuse_texture = -1;
        if (!src) continue;

        struct aiString name;
        if (aiGetMaterialString(src, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS) copy_name(material->name, &name);

        /* glTF: the base colour factor is the colour; elsewhere the diffuse colour */
        struct aiColor4D color;
        bool have = false;
        if (im->is_gltf) have = aiGetMaterialColor(src, AI_MATKEY_BASE_COLOR, &color) == aiReturn_SUCCESS;
        if (!have) have = aiGetMaterialColor(src, AI_MATKEY_COLOR_DIFFUSE, &color) == aiReturn_SUCCESS;
        if (!have) have = aiGetMaterialColor(src, AI_MATKEY_BASE_COLOR, &color) == aiReturn_SUCCESS;
        if (have && isfinite(color.r) && isfinite(color.g) && isfinite(color.b) && isfinite(color.a)) {
            material->diffuse_color[0] = color.r;
            material->diffuse_color[1] = color.g;
            material->diffuse_color[2] = color.b;
            material->diffuse_color[3] = color.a;
        }

        struct aiString path;
        bool found = aiGetMaterialTexture(src, aiTextureType_DIFFUSE, 0, &path, NULL, NULL, NULL, NULL, NULL,
                                          NULL) == aiReturn_SUCCESS;
        if (!found)
            found = aiGetMaterialTexture(src, aiTextureType_BASE_COLOR, 0, &path, NULL, NULL, NULL, NULL, NULL,
                                         NULL) == aiReturn_SUCCESS;
        if (found && path.length > 0) material->diffuse_texture = load_texture(im, path.data);
    }
    return true;
}

/* ---- clips ---------------------------------------------------------------- */

typedef struct KeyRef {
    double time;
    int    index;
} KeyRef;

static int compare_keys(const void *a, const void *b)
{
    const KeyRef *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);   /* stable: file order among equal times */
}

/* Orders one channel's keys by time and keeps, for each distinct time (in float seconds),
 * the last key of the file. Writes the kept key indices to keep[] and their times to times[].
 * Returns the kept count, or -1 on a non-finite time. */
static int clean_key_times(const double *ticks, int count, double ticks_per_second, KeyRef *scratch, int *keep,
                           float *times, float *last_time)
{
    for (int k = 0; k < count; k++) {
        if (!isfinite(ticks[k])) return -1;
        scratch[k].time = ticks[k] / ticks_per_second;
        scratch[k].index = k;
    }
    bool sorted = true;
    for (int k = 1; k < count && sorted; k++) sorted = scratch[k - 1].time <= scratch[k].time;
    if (!sorted) qsort(scratch, (size_t)count, sizeof *scratch, compare_keys);
    int kept = 0;
    for (int k = 0; k < count; k++) {
        float t = (float)scratch[k].time;
        if (kept > 0 && times[kept - 1] == t) {   /* repeated time: the later key wins */
            keep[kept - 1] = scratch[k].index;
            continue;
        }
        times[kept] = t;
        keep[kept] = scratch[k].index;
        kept++;
    }
    if (kept > 0 && times[kept - 1] > *last_time) *last_time = times[kept - 1];
    return kept;
}

static bool build_track(Importer *im, const struct aiNodeAnim *channel, double tps, const char *clip_name,
                        JointTrack *track, float *last_time)
{
    unsigned counts[3] = {channel->mNumPositionKeys, channel->mNumRotationKeys, channel->mNumScalingKeys};
    unsigned most = 0;
    for (int c = 0; c < 3; c++) {
        if (counts[c] > 50000000u) return fail(im, "clip '%s' has an absurd number of keys", clip_name);
        if (counts[c] > most) most = counts[c];
    }
    if ((channel->mNumPositionKeys && !channel->mPositionKeys) || (channel->mNumRotationKeys && !channel->mRotationKeys) ||
        (channel->mNumScalingKeys && !channel->mScalingKeys))
        return fail(im, "clip '%s' has a channel without key data", clip_name);
    if (most == 0) return true;
    /* every key is checked, also those a repeated time would drop: NaN/Inf means a broken file */
    for (unsigned k = 0; k < channel->mNumPositionKeys; k++) {
        const struct aiVector3D *v = &channel->mPositionKeys[k].mValue;
        if (!finite3(v->x, v->y, v->z))
            return fail(im, "clip '%s', channel '%.100s': non-finite translation key", clip_name, channel->mNodeName.data);
    }
    for (unsigned k = 0; k < channel->mNumRotationKeys; k++) {
        const struct aiQuaternion *q = &channel->mRotationKeys[k].mValue;
        if (!isfinite(q->w) || !finite3(q->x, q->y, q->z))
            return fail(im, "clip '%s', channel '%.100s': non-finite rotation key", clip_name, channel->mNodeName.data);
    }
    for (unsigned k = 0; k < channel->mNumScalingKeys; k++) {
        const struct aiVector3D *v = &channel->mScalingKeys[k].mValue;
        if (!finite3(v->x, v->y, v->z))
            return fail(im, "clip '%s', channel '%.100s': non-finite scale key", clip_name, channel->mNodeName.data);
    }

    KeyRef *scratch = malloc(sizeof(KeyRef) * most);
    int *keep = malloc(sizeof(int) * most);
    double *ticks = malloc(sizeof(double) * most);
    if (!scratch || !keep || !ticks) {
        free(scratch);
        free(keep);
        free(ticks);
        return fail(im, "out of memory");
    }
    bool ok = true;
    const char *channel_name = channel->mNodeName.data;

    /* translation */
    int n = (int)channel->mNumPositionKeys;
    if (n > 0) {
        for (int k = 0; k < n; k++) ticks[k] = channel->mPositionKeys[k].mTime;
        track->translation_times = malloc(sizeof(float) * (size_t)n);
        track->translation_values = malloc(sizeof(vec3) * (size_t)n);
        if (!track->translation_times || !track->translation_values) ok = fail(im, "out of memory");
        else {
            int kept = clean_key_times(ticks, n, tps, scratch, keep, track->translation_times, last_time);
            if (kept < 0) ok = fail(im, "clip '%s', channel '%.100s': non-finite key time", clip_name, channel_name);
            for (int k = 0; ok && k < kept; k++) {
                const struct aiVector3D *v = &channel->mPositionKeys[keep[k]].mValue;
                track->translation_values[k][0] = v->x;
                track->translation_values[k][1] = v->y;
                track->translation_values[k][2] = v->z;
            }
            track->translation_count = ok ? kept : 0;
        }
    }
    /* rotation */
    n = (int)channel->mNumRotationKeys;
    if (ok && n > 0) {
        for (int k = 0; k < n; k++) ticks[k] = channel->mRotationKeys[k].mTime;
        track->rotation_times = malloc(sizeof(float) * (size_t)n);
        track->rotation_values = malloc(sizeof(versor) * (size_t)n);
        if (!track->rotation_times || !track->rotation_values) ok = fail(im, "out of memory");
        else {
            int kept = clean_key_times(ticks, n, tps, scratch, keep, track->rotation_times, last_time);
            if (kept < 0) ok = fail(im, "clip '%s', channel '%.100s': non-finite key time", clip_name, channel_name);
            for (int k = 0; ok && k < kept; k++) {
                const struct aiQuaternion *q = &channel->mRotationKeys[keep[k]].mValue;
                quat_from_assimp(q, track->rotation_values[k]);
            }
            track->rotation_count = ok ? kept : 0;
        }
    }
    /* scale */
    n = (int)channel->mNumScalingKeys;
    if (ok && n > 0) {
        for (int k = 0; k < n; k++) ticks[k] = channel->mScalingKeys[k].mTime;
        track->scale_times = malloc(sizeof(float) * (size_t)n);
        track->scale_values = malloc(sizeof(vec3) * (size_t)n);
        if (!track->scale_times || !track->scale_values) ok = fail(im, "out of memory");
        else {
            int kept = clean_key_times(ticks, n, tps, scratch, keep, track->scale_times, last_time);
            if (kept < 0) ok = fail(im, "clip '%s', channel '%.100s': non-finite key time", clip_name, channel_name);
            for (int k = 0; ok && k < kept; k++) {
                const struct aiVector3D *v = &channel->mScalingKeys[keep[k]].mValue;
                track->scale_values[k][0] = v->x;
                track->scale_values[k][1] = v->y;
                track->scale_values[k][2] = v->z;
            }
            track->scale_count = ok ? kept : 0;
        }
    }
    free(scratch);
    free(keep);
    free(ticks);
    return ok;
}

/* Gives a clip name that repeats an earlier one a suffix: "Walk", "Walk (2)", ... Empty names stay "". */
static void unique_clip_name(Model *model, int c, const struct aiString *source)
{
    Clip *clip = &model->clips[c];
    copy_name(clip->name, source);
    if (clip->name[0] == '\0' || model_find_clip(model, clip->name) < c) {
        if (clip->name[0] == '\0') return;
        char base[SV_NAME_MAX];
        snprintf(base, sizeof base, "%s", clip->name);
        for (int n = 2;; n++) {
            char suffix[24];
            snprintf(suffix, sizeof suffix, " (%d)", n);
            size_t room = SV_NAME_MAX - strlen(suffix);   /* base cut between characters, then the suffix */
            size_t kept = utf8_copy_valid(clip->name, room, base, strlen(base));
            memcpy(clip->name + kept, suffix, strlen(suffix) + 1);
            if (model_find_clip(model, clip->name) == c) break;   /* no earlier clip has it */
        }
        model->stats.clips_renamed++;
    }
}

static bool build_clips(Importer *im)
{
    const struct aiScene *scene = im->scene;
    Model *model = im->model;
    if (scene->mNumAnimations == 0 || !scene->mAnimations) return true;
    model->clips = calloc(scene->mNumAnimations, sizeof *model->clips);
    if (!model->clips) return fail(im, "out of memory");

    for (unsigned a = 0; a < scene->mNumAnimations; a++) {
        const struct aiAnimation *anim = scene->mAnimations[a];
        Clip *clip = &model->clips[model->clip_count++];
        if (!anim) continue;
        unique_clip_name(model, (int)a, &anim->mName);

        double tps = anim->mTicksPerSecond;
        clip->source_ticks_per_second = isfinite(tps) ? (float)tps : 0.0f;
        if (!(tps > 0.0) || !isfinite(tps)) tps = DEFAULT_TICKS_PER_SECOND;
        double duration = anim->mDuration / tps;
        float last_time = (isfinite(duration) && duration > 0.0) ? (float)duration : 0.0f;

        if (anim->mNumChannels > 0 && anim->mChannels) {
            clip->tracks = calloc(anim->mNumChannels, sizeof *clip->tracks);
            if (!clip->tracks) return fail(im, "out of memory");
        }
        for (unsigned ch = 0; ch < anim->mNumChannels && anim->mChannels; ch++) {
            const struct aiNodeAnim *channel = anim->mChannels[ch];
            if (!channel) continue;
            int joint = find_channel_joint(im, channel);
            if (joint < 0) {
                model->stats.channels_without_node++;
                continue;
            }
            im->channel_taken[joint] = true;
            JointTrack *track = &clip->tracks[clip->track_count++];
            track->joint = joint;
            if (!build_track(im, channel, tps, clip->name, track, &last_time)) return false;
            if (track->translation_count + track->rotation_count + track->scale_count == 0) {
                clip->track_count--;   /* a channel without keys changes nothing */
                joint_track_free(track);
            }
        }
        /* the last key must be reachable: the clip lasts at least until it */
        clip->duration = last_time;
        for (int t = 0; t < clip->track_count; t++) im->channel_taken[clip->tracks[t].joint] = false;
    }
    return true;
}

/* ---- the entry point ------------------------------------------------------ */

/* Counts vertices with more than SV_MAX_INFLUENCES non-zero weights (before LimitBoneWeights). */
static int count_vertices_over_limit(const struct aiScene *scene)
{
    int over = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        if (!mesh || mesh->mNumBones == 0 || mesh->mNumVertices == 0 || !mesh->mBones) continue;
        unsigned char *counts = calloc(mesh->mNumVertices, 1);
        if (!counts) continue;
        for (unsigned b = 0; b < mesh->mNumBones; b++) {
            const struct aiBone *bone = mesh->mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; w++) {
                unsigned v = bone->mWeights[w].mVertexId;
                if (v < mesh->mNumVertices && bone->mWeights[w].mWeight > 0.0f && counts[v] < 255) counts[v]++;
            }
        }
        for (unsigned v = 0; v < mesh->mNumVertices; v++)
            if (counts[v] > SV_MAX_INFLUENCES) over++;
        free(counts);
    }
    return over;
}

/* Before SplitByBoneCount (DESIGN.md trap 5): the split cannot put a triangle whose
 * vertices use more distinct bones than the limit into any sub-mesh, and Assimp 5.2
 * then loops forever. So: the largest number of distinct bones one face uses
 * (counting every weight Assimp stores for it). */
static int max_bones_per_face(const struct aiScene *scene)
{
    int max_face_bones = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        if (!mesh || mesh->mNumBones == 0 || mesh->mNumVertices == 0 || !mesh->mBones) continue;
        /* after LimitBoneWeights a vertex has at most 4 weights; keep up to 8 to be safe */
        enum { SLOTS = 8 };
        unsigned (*bones)[SLOTS] = calloc(mesh->mNumVertices, sizeof *bones);
        unsigned char *counts = calloc(mesh->mNumVertices, 1);
        if (!bones || !counts) {
            free(bones);
            free(counts);
            continue;
        }
        for (unsigned b = 0; b < mesh->mNumBones; b++) {
            const struct aiBone *bone = mesh->mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; w++) {
                unsigned v = bone->mWeights[w].mVertexId;
                if (v < mesh->mNumVertices && counts[v] < SLOTS) bones[v][counts[v]++] = b;
            }
        }
        for (unsigned f = 0; f < mesh->mNumFaces; f++) {
            const struct aiFace *face = &mesh->mFaces[f];
            unsigned distinct[3 * SLOTS];
            int n = 0;
            for (unsigned i = 0; i < face->mNumIndices && i < 3; i++) {
                unsigned v = face->mIndices[i];
                if (v >= mesh->mNumVertices) continue;
                for (int k = 0; k < counts[v]; k++) {
                    int seen = 0;
                    for (int j = 0; j < n && !seen; j++) seen = distinct[j] == bones[v][k];
                    if (!seen) distinct[n++] = bones[v][k];
                }
            }
            if (n > max_face_bones) max_face_bones = n;
        }
        free(bones);
        free(counts);
    }
    return max_face_bones;
}

/* Assimp's OFF reader trusts the header's element counts: a file that declares billions
 * of vertices makes it reserve gigabytes and loop for minutes (assimp-testmodels
 * invalid/OutOfMemory.off). Every OFF vertex or face takes at least 4 bytes of text,
 * so counts beyond size/4 cannot be real. Returns false with a cause for such a header. */
static bool off_header_is_plausible(FILE *f, long long size, char *error, size_t error_size)
{
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    const char *c = head;
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') c++;
    const char *token = c;
    while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n') c++;
    size_t length = (size_t)(c - token);
    if (length < 3 || length > 8 || strncmp(c - 3, "OFF", 3) != 0) return true;   /* not an OFF file */
    unsigned long long counts[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        for (;;) {   /* skip blanks and # comment lines */
            while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') c++;
            if (*c != '#') break;
            while (*c && *c != '\n') c++;
        }
        char *end;
        counts[i] = strtoull(c, &end, 10);
        if (end == c) return true;   /* let Assimp report it */
        c = end;
    }
    unsigned long long limit = (unsigned long long)(size / 4) + 1;
    if (counts[0] > limit || counts[1] > limit) {
        snprintf(error, error_size, "the OFF header declares %llu vertices and %llu faces, more than a %lld-byte file can hold",
                 counts[0], counts[1], size);
        return false;
    }
    return true;
}

/* Assimp 5.2's MD5 loader trusts every index in a .md5mesh: a vertex number past
 * numverts, a weight range past numweights, a weight's joint past numJoints or a
 * triangle corner past numverts corrupts its heap (abort or SIGSEGV inside
 * aiImportFile; found by bit-flipping assimp-testmodels MD5/SimpleCube.md5mesh).
 * The format is plain text, so the indices are checked here first. Returns false with
 * a cause for a file that would take Assimp out of bounds; other files pass. */
typedef struct Md5MeshBlock {
    long verts, tris, weights;              /* declared counts (-1 until seen) */
    long max_vert, max_weight_end, max_tri, max_tri_corner, max_weight, max_weight_joint;
} Md5MeshBlock;

static bool md5_block_is_safe(const Md5MeshBlock *b, long joints, char *error, size_t error_size)
{
    const char *what = NULL;
    long value = 0, limit = 0;
    /* a maximum of -1 means no such line was seen */
    if (b->max_vert >= 0 && b->max_vert >= b->verts) what = "vertex", value = b->max_vert, limit = b->verts;
    else if (b->max_tri >= 0 && b->max_tri >= b->tris) what = "triangle", value = b->max_tri, limit = b->tris;
    else if (b->max_tri_corner >= 0 && b->max_tri_corner >= b->verts)
        what = "triangle corner vertex", value = b->max_tri_corner, limit = b->verts;
    else if (b->max_weight >= 0 && b->max_weight >= b->weights) what = "weight", value = b->max_weight, limit = b->weights;
    else if (b->max_weight_end > 0 && b->max_weight_end > b->weights)
        what = "weight", value = b->max_weight_end - 1, limit = b->weights;
    else if (b->max_weight_joint >= 0 && b->max_weight_joint >= joints)
        what = "weight joint", value = b->max_weight_joint, limit = joints;
    if (!what) return true;
    snprintf(error, error_size, "corrupt MD5 mesh: %s index %ld out of range (%ld declared)", what, value,
             limit < 0 ? 0 : limit);
    return false;
}

static bool md5mesh_is_safe(FILE *f, char *error, size_t error_size)
{
    char line[4096];
    if (!fgets(line, sizeof line, f)) return true;
    const char *c = line;
    while (*c == ' ' || *c == '\t') c++;
    if (strncmp(c, "MD5Version", 10) != 0) return true;   /* not an MD5 file */
    rewind(f);

    long joints = -1;
    bool in_joints = false, in_mesh = false;
    Md5MeshBlock b = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
    while (fgets(line, sizeof line, f)) {
        c = line;
        while (*c == ' ' || *c == '\t') c++;
        char *end;
        if (strncmp(c, "numJoints", 9) == 0) {
            joints = strtol(c + 9, &end, 10);
        } else if (strncmp(c, "joints", 6) == 0 && strchr(c, '{')) {
            in_joints = true;
        } else if (strncmp(c, "mesh", 4) == 0 && strchr(c, '{')) {
            in_mesh = true;
            b = (Md5MeshBlock){-1, -1, -1, -1, -1, -1, -1, -1, -1};
        } else if (*c == '}') {
            if (in_mesh && !md5_block_is_safe(&b, joints, error, error_size)) return false;
            in_joints = in_mesh = false;
        } else if (in_joints && *c == '"') {   /* "name" parent ( x y z ) ( qx qy qz ) */
            const char *quote = strchr(c + 1, '"');
            if (!quote) continue;
            long parent = strtol(quote + 1, &end, 10);
            if (end != quote + 1 && (parent < -1 || parent >= joints)) {
                snprintf(error, error_size, "corrupt MD5 mesh: joint parent %ld out of range (%ld joints)", parent,
                         joints < 0 ? 0 : joints);
                return false;
            }
        } else if (in_mesh) {
            long v[4] = {0, 0, 0, 0};
            int n = 0;
            const char *p = c;
            if (strncmp(c, "numverts", 8) == 0) b.verts = strtol(c + 8, &end, 10);
            else if (strncmp(c, "numtris", 7) == 0) b.tris = strtol(c + 7, &end, 10);
            else if (strncmp(c, "numweights", 10) == 0) b.weights = strtol(c + 10, &end, 10);
            else if (strncmp(c, "vert", 4) == 0 || strncmp(c, "tri", 3) == 0 || strncmp(c, "weight", 6) == 0) {
                char kind = c[0] == 'v' ? 'v' : (c[0] == 't' ? 't' : 'w');
                p = c + (kind == 'v' ? 4 : (kind == 't' ? 3 : 6));
                /* vert i ( u v ) start count | tri i a b c | weight i joint bias ( x y z ) */
                for (; n < 4 && *p && *p != '\n'; p++) {
                    if (*p == '(') {   /* skip the parenthesised floats */
                        const char *close = strchr(p, ')');
                        if (!close) break;
                        p = close;
                        continue;
                    }
                    if (*p == '-' || (*p >= '0' && *p <= '9')) {
                        long number = strtol(p, &end, 10);
                        if (end == p) continue;   /* a lone '-' */
                        v[n++] = number;
                        p = end - 1;
                        if (*end == '.') break;   /* a float (the weight bias): the indices are done */
                    }
                }
                if (kind == 'v' && n >= 3) {
                    if (v[0] < 0 || v[1] < 0 || v[2] < 0) v[0] = LONG_MAX;
                    if (v[0] > b.max_vert) b.max_vert = v[0];
                    if (v[1] + v[2] > b.max_weight_end) b.max_weight_end = v[1] + v[2];
                } else if (kind == 't' && n >= 4) {
                    for (int k = 1; k < 4; k++) {
                        if (v[k] < 0) v[k] = LONG_MAX;
                        if (v[k] > b.max_tri_corner) b.max_tri_corner = v[k];
                    }
                    if (v[0] < 0) v[0] = LONG_MAX;
                    if (v[0] > b.max_tri) b.max_tri = v[0];
                } else if (kind == 'w' && n >= 2) {
                    if (v[0] < 0) v[0] = LONG_MAX;
                    if (v[1] < 0) v[1] = LONG_MAX;
                    if (v[0] > b.max_weight) b.max_weight = v[0];
                    if (v[1] > b.max_weight_joint) b.max_weight_joint = v[1];
                }
            }
        }
    }
    if (in_mesh) {   /* a file cut inside a mesh block: Assimp reads past what it got */
        snprintf(error, error_size, "corrupt MD5 mesh: the file ends inside a mesh block (truncated?)");
        return false;
    }
    return true;
}

static bool check_file(const char *path, char *error, size_t error_size)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(error, error_size, "cannot open: %s", strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "is a directory, not a model file");
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "is not a regular file");
        return false;
    }
    if (st.st_size == 0) {
        snprintf(error, error_size, "the file is empty");
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(error, error_size, "cannot open: %s", strerror(errno));
        return false;
    }
    bool plausible = off_header_is_plausible(f, (long long)st.st_size, error, error_size);
    if (plausible) {
        rewind(f);
        plausible = md5mesh_is_safe(f, error, error_size);
    }
    fclose(f);
    return plausible;
}

static void one_line(char *text)
{
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == ' ') text[--n] = '\0';
}

/* ---- file access for Assimp: stdio, plus percent-decoded glTF URIs ---------- */

/* Assimp 5.2's glTF importer opens a buffer URI such as "My%20Character.bin" as that
 * literal file name and fails the whole import. Assimp reads every file of an import
 * through this aiFileIO: a name that cannot be opened is retried with the part after
 * the model's own folder percent-decoded. */
static size_t stdio_read(struct aiFile *file, char *buffer, size_t size, size_t count)
{
    return fread(buffer, size, count, (FILE *)file->UserData);
}

static size_t stdio_write(struct aiFile *file, const char *buffer, size_t size, size_t count)
{
    return fwrite(buffer, size, count, (FILE *)file->UserData);
}

static size_t stdio_tell(struct aiFile *file)
{
    long position = ftell((FILE *)file->UserData);
    return position < 0 ? 0 : (size_t)position;
}

static size_t stdio_size(struct aiFile *file)
{
    FILE *f = (FILE *)file->UserData;
    long position = ftell(f);
    if (position < 0 || fseek(f, 0, SEEK_END) != 0) return 0;
    long size = ftell(f);
    fseek(f, position, SEEK_SET);
    return size < 0 ? 0 : (size_t)size;
}

static enum aiReturn stdio_seek(struct aiFile *file, size_t offset, enum aiOrigin origin)
{
    int whence = origin == aiOrigin_CUR ? SEEK_CUR : origin == aiOrigin_END ? SEEK_END : SEEK_SET;
    if (offset > (size_t)LONG_MAX) return aiReturn_FAILURE;
    return fseek((FILE *)file->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static void stdio_flush(struct aiFile *file)
{
    fflush((FILE *)file->UserData);
}

static struct aiFile *stdio_open(struct aiFileIO *io, const char *name, const char *mode)
{
    FILE *f = fopen(name, mode);
    if (!f) {   /* "<model folder>/My%20Character.bin" -> "<model folder>/My Character.bin" */
        const char *directory = io->UserData;
        size_t skip = strncmp(name, directory, strlen(directory)) == 0 ? strlen(directory) : 0;
        char decoded[2048];
        if (skip < sizeof decoded && percent_decode(name + skip, decoded + skip, sizeof decoded - skip)) {
            memcpy(decoded, name, skip);
            f = fopen(decoded, mode);
        }
    }
    if (!f) return NULL;
    struct aiFile *file = calloc(1, sizeof *file);
    if (!file) {
        fclose(f);
        return NULL;
    }
    file->ReadProc = stdio_read;
    file->WriteProc = stdio_write;
    file->TellProc = stdio_tell;
    file->FileSizeProc = stdio_size;
    file->SeekProc = stdio_seek;
    file->FlushProc = stdio_flush;
    file->UserData = (aiUserData)f;
    return file;
}

static void stdio_close(struct aiFileIO *io, struct aiFile *file)
{
    (void)io;
    if (!file) return;
    fclose((FILE *)file->UserData);
    free(file);
}

bool import_model(const char *path, const ImportOptions *options, Model *model, char *error, size_t error_size)
{
    memset(model, 0, sizeof *model);
    if (error_size > 0) error[0] = '\0';
    if (!check_file(path, error, error_size)) return false;

    int max_bones = options ? options->max_bones_per_mesh : 0;
    struct aiPropertyStore *props = aiCreatePropertyStore();
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_LBW_MAX_WEIGHTS, SV_MAX_INFLUENCES);
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    /* aiApplyPostProcessing() takes no property store, but the Importer that
     * aiImportFileExWithProperties() creates keeps a copy of these properties and
     * the later post-processing call runs on that same Importer: so the bone limit
     * set here is what SplitByBoneCount reads below (checked by test_import_split).
     * One slot is kept free: a split mesh with unweighted vertices gets one extra
     * bone (its node, see model.h), and it must still fit the limit. */
    int split_limit = max_bones > 1 ? max_bones - 1 : 1;
    if (max_bones > 0) aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBBC_MAX_BONES, split_limit);
    /* glTF only (the one format whose references are URIs); the rest keep Assimp's own IO */
    const char *extension = strrchr(path, '.');
    bool uri_references = extension && strcasecmp(extension, ".gltf") == 0;
    char model_directory[1024] = "";
    const char *last_slash = strrchr(path, '/');
    if (last_slash && (size_t)(last_slash - path + 1) < sizeof model_directory) {
        memcpy(model_directory, path, (size_t)(last_slash - path + 1));
        model_directory[last_slash - path + 1] = '\0';
    }
    struct aiFileIO file_io = {stdio_open, stdio_close, model_directory};
    const struct aiScene *scene = aiImportFileExWithProperties(
        path,
        aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals | aiProcess_SortByPType |
            aiProcess_ValidateDataStructure,
        uri_references ? &file_io : NULL, props);
    aiReleasePropertyStore(props);
    if (!scene) {
        const char *why = aiGetErrorString();
        snprintf(error, error_size, "Assimp cannot read it: %s", why && why[0] ? why : "unknown error");
        one_line(error);
        return false;
    }

    /* influences are counted before LimitBoneWeights throws the extra ones away */
    model->stats.vertices_influences_cut = count_vertices_over_limit(scene);
    scene = aiApplyPostProcessing(scene, aiProcess_LimitBoneWeights);   /* on failure it releases the scene */
    if (scene && max_bones > 0) {
        int max_face_bones = max_bones_per_face(scene);
        if (max_face_bones > split_limit) {
            snprintf(error, error_size,
                     "a triangle uses %d bones, more than the bones-per-mesh limit of %d (one slot kept for "
                     "unweighted vertices) allows: the mesh cannot be split (raise --max-bones)",
                     max_face_bones, max_bones);
            aiReleaseImport(scene);
            memset(model, 0, sizeof *model);
            return false;
        }
        unsigned before = scene->mNumMeshes;
        scene = aiApplyPostProcessing(scene, aiProcess_SplitByBoneCount);
        /* the split copies every corner of every triangle: weld identical vertices again */
        if (scene) scene = aiApplyPostProcessing(scene, aiProcess_JoinIdenticalVertices);
        if (scene) model->stats.meshes_split_by_bones = (int)(scene->mNumMeshes - before);
    }
    if (!scene) {
        const char *why = aiGetErrorString();
        snprintf(error, error_size, "Assimp post-processing failed: %s", why && why[0] ? why : "unknown error");
        one_line(error);
        memset(model, 0, sizeof *model);
        return false;
    }

    Importer im = {.scene = scene, .path = path, .model = model, .error = error, .error_size = error_size};
    snprintf(model->source_path, sizeof model->source_path, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash && (size_t)(slash - path + 1) < sizeof im.directory) {
        memcpy(im.directory, path, (size_t)(slash - path + 1));
        im.directory[slash - path + 1] = '\0';
    }
    const char *dot = strrchr(path, '.');
    im.is_gltf = dot && (strcasecmp(dot, ".gltf") == 0 || strcasecmp(dot, ".glb") == 0);

    bool ok = build_skeleton(&im) && build_meshes(&im) && build_materials(&im) && build_clips(&im);
    for (int m = 0; ok && max_bones > 0 && m < model->mesh_count; m++) {
        if (model->meshes[m].bone_count > max_bones) {   /* a vertex with > limit bones cannot be split */
            snprintf(error, error_size, "mesh '%s' needs %d bones, more than the limit of %d even after splitting",
                     model->meshes[m].name, model->meshes[m].bone_count, max_bones);
            ok = false;
        }
    }

    for (int t = 0; t < model->texture_count; t++) free(im.texture_keys[t]);
    free(im.texture_keys);
    for (int i = 0; i < im.failed_count; i++) free(im.failed_textures[i]);
    free(im.failed_textures);
    free(im.nodes);
    free(im.by_name);
    free(im.depth);
    free(im.channel_taken);
    aiReleaseImport(scene);
    if (!ok) {
        one_line(error);
        model_free(model);
        return false;
    }
    return true;
}
