/* import_morph.c — morph targets (blend shapes) and their weight channels: Assimp -> Model.
 *
 * Rules of this step (Assimp 5.2.5, checked on the glTF sample models and its FBX converter):
 *   - A target is an aiAnimMesh of the mesh, one per glTF `targets` entry / FBX shape, in file
 *     order: target t = mAnimMeshes[t], and morph channel keys name targets by that index.
 *   - Assimp stores ABSOLUTE attributes in an anim mesh: glTF adds the file's delta to a copy of
 *     the base mesh, FBX adds the shape's offsets and re-normalises the normal. skinview stores
 *     deltas: delta = anim - stored (positions and normals), so morphing is
 *     p = p_stored + sum_t w_t * delta_t, the same relative form glTF and three.js use.
 *     An anim mesh without positions (or normals) has zero deltas for them.
 *   - Default weights: glTF puts mesh.weights into aiAnimMesh::mWeight. Assimp's FBX converter
 *     writes 1.0 there for a plain blend shape (the weight at which the shape is reached, not
 *     the channel's value), so for every other format the default weight is 0.
 *   - Channels (aiMeshMorphAnim) are named after the NODE holding the mesh: glTF uses the
 *     node's name; FBX appends "*" and the geometry's index in its model ("Face*0"), so when
 *     no node has the full name, a name ending in "*digits" names the node before the '*'.
 *     Every mesh on that node with targets follows the channel (FBX splits a geometry with
 *     several materials into several meshes, each with all the targets). Key times are in
 *     ticks; each key lists (target, weight) pairs. glTF lists every target in every key;
 *     FBX only the channels animated at that time, so each target gets its own track with
 *     the keys that mention it. FBX key values are the channel's index in its BlendShape
 *     deformer: the same as the target index for the usual file (one BlendShape deformer per
 *     mesh, one shape per channel), not for in-between shapes, which Assimp flattens. glTF never
 *     comes here (src/io/gltf/ reads it). Tracks built here are LINEAR (the other formats have
 *     nothing else).
 */
#include "import_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MORPH_TARGETS 65536          /* more targets on one mesh: treated as a broken file */
#define MAX_MORPH_DELTA_BYTES (1ull << 31) /* 2 GiB of deltas per mesh */

static bool finite_vector(const struct aiVector3D *v) { return isfinite(v->x) && isfinite(v->y) && isfinite(v->z); }

bool import_morph_targets(Importer *im, const struct aiMesh *src, Mesh *mesh)
{
    if (src->mNumAnimMeshes == 0 || !src->mAnimMeshes) return true;
    if (src->mNumAnimMeshes > MAX_MORPH_TARGETS)
        return import_fail(im, "mesh '%s' has %u morph targets (at most %d supported)", QUOTED(mesh->name),
                          src->mNumAnimMeshes, MAX_MORPH_TARGETS);
    size_t targets = src->mNumAnimMeshes, vertices = (size_t)mesh->vertex_count;
    if ((unsigned long long)targets * vertices * sizeof(vec3) > MAX_MORPH_DELTA_BYTES)
        return import_fail(im, "mesh '%s': %zu morph targets x %zu vertices is too large", QUOTED(mesh->name),
                          targets, vertices);

    mesh->morph_target_names = calloc(targets, sizeof *mesh->morph_target_names);
    mesh->morph_position_deltas = calloc(targets * (vertices > 0 ? vertices : 1), sizeof(vec3));
    mesh->morph_normal_deltas = calloc(targets * (vertices > 0 ? vertices : 1), sizeof(vec3));
    mesh->morph_default_weights = calloc(targets, sizeof(float));
    if (!mesh->morph_target_names || !mesh->morph_position_deltas || !mesh->morph_normal_deltas ||
        !mesh->morph_default_weights)
        return import_fail(im, "out of memory");
    mesh->morph_target_count = (int)targets;

    for (size_t t = 0; t < targets; t++) {
        const struct aiAnimMesh *target = src->mAnimMeshes[t];
        if (!target) continue;   /* kept as a target that moves nothing, so channel indices still match */
        import_copy_name(mesh->morph_target_names[t], &target->mName);
        if (target->mNumVertices != src->mNumVertices && (target->mVertices || target->mNormals))
            return import_fail(im, "mesh '%s': morph target %zu has %u vertices, the mesh %u", QUOTED(mesh->name),
                              t, target->mNumVertices, src->mNumVertices);
        vec3 *position_delta = mesh->morph_position_deltas + t * vertices;
        vec3 *normal_delta = mesh->morph_normal_deltas + t * vertices;
        for (size_t v = 0; target->mVertices && v < vertices; v++) {
            if (!finite_vector(&target->mVertices[v]))
                return import_fail(im, "mesh '%s': morph target %zu has a non-finite position", QUOTED(mesh->name),
                                  t);
            /* Assimp's anim mesh holds the absolute position: delta = target - stored */
            position_delta[v][0] = target->mVertices[v].x - src->mVertices[v].x;
            position_delta[v][1] = target->mVertices[v].y - src->mVertices[v].y;
            position_delta[v][2] = target->mVertices[v].z - src->mVertices[v].z;
        }
        for (size_t v = 0; target->mNormals && src->mNormals && v < vertices; v++) {
            const struct aiVector3D *n = &target->mNormals[v], *base = &src->mNormals[v];
            if (!finite_vector(n) || !finite_vector(base)) continue;   /* as build_mesh: no usable normal, no delta */
            normal_delta[v][0] = n->x - base->x;
            normal_delta[v][1] = n->y - base->y;
            normal_delta[v][2] = n->z - base->z;
        }
        mesh->morph_default_weights[t] = 0.0f;   /* see the rules above: mWeight is not a default here */
    }
    return true;
}

/* ---- weight channels ------------------------------------------------------ */

typedef struct MorphKey {
    double time;     /* seconds */
    int    order;    /* position in the channel: among equal times the later key wins */
    float  weight;
} MorphKey;

static int compare_morph_keys(const void *a, const void *b)
{
    const MorphKey *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Does mesh m have targets and hang on the node named by the first `length` bytes of name? */
static bool mesh_on_node(const Model *model, const struct aiNode *const *joint_nodes, int m, const char *name,
                         size_t length)
{
    const Mesh *mesh = &model->meshes[m];
    if (mesh->morph_target_count <= 0 || mesh->node_joint < 0) return false;
    const struct aiString *node_name = &joint_nodes[mesh->node_joint]->mName;
    return node_name->length == length && memcmp(node_name->data, name, length) == 0;
}

/* Length of the node name a channel names: the whole name if some mesh with targets hangs on
 * a node of that name, else (FBX: "Node*0") the part before a final "*digits"; 0: no mesh. */
static size_t channel_node_name_length(const Model *model, const struct aiNode *const *joint_nodes,
                                       const struct aiString *name)
{
    for (int m = 0; m < model->mesh_count; m++)
        if (mesh_on_node(model, joint_nodes, m, name->data, name->length)) return name->length;
    const char *star = NULL;
    for (const char *c = name->data; c < name->data + name->length; c++)
        if (*c == '*') star = c;
    if (!star || star + 1 == name->data + name->length) return 0;
    for (const char *c = star + 1; c < name->data + name->length; c++)
        if (*c < '0' || *c > '9') return 0;
    size_t length = (size_t)(star - name->data);
    for (int m = 0; m < model->mesh_count; m++)
        if (mesh_on_node(model, joint_nodes, m, name->data, length)) return length;
    return 0;
}

/* One track: the keys of `channel` that mention `target`, sorted, repeated times dropped. */
static bool build_morph_track(const struct aiMeshMorphAnim *channel, double ticks_per_second, int mesh, int target,
                              MorphKey *scratch, MorphTrack *track, float *last_time)
{
    int count = 0;
    for (unsigned k = 0; k < channel->mNumKeys; k++) {
        const struct aiMeshMorphKey *key = &channel->mKeys[k];
        for (unsigned j = 0; j < key->mNumValuesAndWeights; j++) {
            if (key->mValues[j] != (unsigned)target) continue;
            scratch[count].time = key->mTime / ticks_per_second;
            scratch[count].order = count;
            scratch[count].weight = (float)key->mWeights[j];
            count++;
        }
    }
    if (count == 0) return true;   /* the channel does not drive this target */
    qsort(scratch, (size_t)count, sizeof *scratch, compare_morph_keys);
    track->times = malloc(sizeof(float) * (size_t)count);
    track->weights = malloc(sizeof(float) * (size_t)count);
    if (!track->times || !track->weights) {
        free(track->times);
        free(track->weights);
        track->times = track->weights = NULL;
        return false;
    }
    int kept = 0;
    for (int k = 0; k < count; k++) {
        float t = (float)scratch[k].time;
        if (kept > 0 && track->times[kept - 1] == t) kept--;   /* repeated time: the later key wins */
        track->times[kept] = t;
        track->weights[kept] = scratch[k].weight;
        kept++;
    }
    track->mesh = mesh;
    track->target = target;
    track->key_count = kept;
    if (track->times[kept - 1] > *last_time) *last_time = track->times[kept - 1];
    return true;
}

bool import_morph_channels(Importer *im, const struct aiAnimation *anim, double ticks_per_second, Clip *clip,
                           float *last_time)
{
    const Model *model = im->model;
    const struct aiNode *const *joint_nodes = im->nodes;
    if (anim->mNumMorphMeshChannels == 0 || !anim->mMorphMeshChannels) return true;

    /* check every key first; count the tracks (at most one per target of every matched mesh) */
    size_t most_tracks = 0, most_keys = 0;
    for (unsigned c = 0; c < anim->mNumMorphMeshChannels; c++) {
        const struct aiMeshMorphAnim *channel = anim->mMorphMeshChannels[c];
        if (!channel) continue;
        if (channel->mNumKeys > 0 && !channel->mKeys)
            return import_fail(im, "morph channel '%s' has no key data", QUOTED(channel->mName.data));
        size_t pairs = 0;
        for (unsigned k = 0; k < channel->mNumKeys; k++) {
            const struct aiMeshMorphKey *key = &channel->mKeys[k];
            if (key->mNumValuesAndWeights > 0 && (!key->mValues || !key->mWeights))
                return import_fail(im, "morph channel '%s' has a key without values",
                                  QUOTED(channel->mName.data));
            if (!isfinite(key->mTime))
                return import_fail(im, "morph channel '%s': non-finite key time", QUOTED(channel->mName.data));
            for (unsigned j = 0; j < key->mNumValuesAndWeights; j++)
                if (!isfinite(key->mWeights[j]))
                    return import_fail(im, "morph channel '%s': non-finite weight",
                                      QUOTED(channel->mName.data));
            pairs += key->mNumValuesAndWeights;
        }
        if (pairs > 100000000u) return import_fail(im, "morph channel '%s' has an absurd number of keys",
                                                  QUOTED(channel->mName.data));
        if (pairs > most_keys) most_keys = pairs;
        size_t node_length = channel_node_name_length(model, joint_nodes, &channel->mName);
        for (int m = 0; node_length > 0 && m < model->mesh_count; m++)
            if (mesh_on_node(model, joint_nodes, m, channel->mName.data, node_length))
                most_tracks += (size_t)model->meshes[m].morph_target_count;
        if (node_length == 0) im->model->stats.channels_without_node++;
    }
    if (most_tracks == 0) return true;

    clip->morph_tracks = calloc(most_tracks, sizeof *clip->morph_tracks);
    MorphKey *scratch = malloc(sizeof *scratch * (most_keys > 0 ? most_keys : 1));
    if (!clip->morph_tracks || !scratch) {
        free(scratch);
        return import_fail(im, "out of memory");
    }
    for (unsigned c = 0; c < anim->mNumMorphMeshChannels; c++) {
        const struct aiMeshMorphAnim *channel = anim->mMorphMeshChannels[c];
        if (!channel) continue;
        size_t node_length = channel_node_name_length(model, joint_nodes, &channel->mName);
        for (int m = 0; node_length > 0 && m < model->mesh_count; m++) {
            if (!mesh_on_node(model, joint_nodes, m, channel->mName.data, node_length)) continue;
            for (int t = 0; t < model->meshes[m].morph_target_count; t++) {
                MorphTrack *track = &clip->morph_tracks[clip->morph_track_count];
                if (!build_morph_track(channel, ticks_per_second, m, t, scratch, track, last_time)) {
                    free(scratch);
                    return import_fail(im, "out of memory");
                }
                if (track->key_count > 0) clip->morph_track_count++;
            }
        }
    }
    free(scratch);
    return true;
}
