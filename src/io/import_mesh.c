/* import_mesh.c — stage 3: meshes and their skins.
 *
 * Rules of this stage:
 *   - One skinview Mesh per (node, mesh) reference, in joint order: a mesh that several
 *     nodes reference is instanced once per node. Meshes with nothing to draw are skipped.
 *   - A mesh draws triangles when it has any, else line segments, else points (Mesh.primitive:
 *     SortByPType leaves one kind per Assimp mesh; elements of the other kinds are dropped).
 *   - Positions, normals (non-finite or zero normals become +Y: lines and points have none),
 *     first UV set, the elements' indices.
 *   - A skin keeps the bones whose node exists, bound by import_find_bone_joint; each
 *     vertex keeps its SV_MAX_INFLUENCES largest weights, renormalised to sum 1; vertices
 *     whose further weights LimitBoneWeights cut are marked in influences_in_file.
 *     Vertices without any weight follow one extra bone: the mesh's own node.
 *   - A mesh whose every bone was dropped is static after all.
 *   - A skinned mesh's bind_matrix N is its node's rest scene matrix (Collada:
 *     set again by stage 7 from the skin's bind_shape_matrix, import_collada.c): the bind pose
 *     draws the stored vertices placed by N (trap 11 in docs/skinning.md).
 */
#include "import_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* What an Assimp mesh draws: triangles if it has any, else line segments, else points; *count is
 * the number of those elements (0: nothing to draw). */
static MeshPrimitive mesh_primitive_of(const struct aiMesh *mesh, long *count)
{
    long per_corners[4] = {0, 0, 0, 0};   /* faces by index count 1, 2, 3 */
    if (mesh && mesh->mNumVertices > 0 && mesh->mVertices && mesh->mFaces)
        for (unsigned f = 0; f < mesh->mNumFaces; f++)
            if (mesh->mFaces[f].mNumIndices >= 1 && mesh->mFaces[f].mNumIndices <= 3) per_corners[mesh->mFaces[f].mNumIndices]++;
    MeshPrimitive kind = per_corners[3] > 0 ? MESH_TRIANGLES : per_corners[2] > 0 ? MESH_LINES : MESH_POINTS;
    *count = per_corners[mesh_primitive_corners(kind)];
    return kind;
}

static bool mesh_has_elements(const struct aiMesh *mesh)
{
    long count;
    mesh_primitive_of(mesh, &count);
    return count > 0;
}

/* N of a skinned mesh: its node's rest scene matrix, the product of the rest transforms from
 * the root down to the node. (glTF, read by src/io/gltf/, has the identity: the spec ignores the
 * transform of the node that holds a skinned mesh.) */
static void mesh_bind_matrix(const Importer *im, int node_joint, mat4 out)
{
    const Skeleton *sk = &im->model->skeleton;
    glm_mat4_identity(out);
    for (int j = node_joint; j >= 0; j = sk->parent[j]) glm_mat4_mul(sk->rest_local[j], out, out);
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
    if (im->keep_more_influences) {   /* the 5th..8th too (LimitBoneWeights kept 8): for --export-gltf only */
        mesh->joint_indices_more = calloc((size_t)vertex_count, sizeof *mesh->joint_indices_more);
        mesh->weights_more = calloc((size_t)vertex_count, sizeof *mesh->weights_more);
        if (!mesh->joint_indices_more || !mesh->weights_more) {
            free(bone_of_src);
            return import_fail(im, "out of memory");
        }
    }
    if (!bone_of_src || !mesh->bone_joint || !mesh->inverse_bind || !mesh->joint_indices || !mesh->weights) {
        free(bone_of_src);
        return import_fail(im, "out of memory");
    }
    if (src->mNumBones >= 65535) {
        free(bone_of_src);
        return import_fail(im, "mesh '%s' has %u bones (at most 65534 supported)", QUOTED(mesh_name), src->mNumBones);
    }

    int bone_count = 0;
    for (unsigned b = 0; b < src->mNumBones; b++) {
        const struct aiBone *bone = src->mBones[b];
        bone_of_src[b] = -1;
        if (!bone) continue;
        int joint = import_find_bone_joint(im, bone->mName.data, mesh->node_joint);
        if (joint < 0) {
            stats->bones_without_node++;
            continue;
        }
        if (!import_matrix_is_finite(&bone->mOffsetMatrix)) {
            free(bone_of_src);
            return import_fail(im, "bone '%s' of mesh '%s' has a non-finite offset matrix", QUOTED(bone->mName.data), QUOTED(mesh_name));
        }
        bone_of_src[b] = bone_count;
        mesh->bone_joint[bone_count] = joint;
        import_matrix_from_assimp(&bone->mOffsetMatrix, mesh->inverse_bind[bone_count]);
        bone_count++;
    }

    /* top four influences per vertex */
    for (unsigned b = 0; b < src->mNumBones; b++) {
        const struct aiBone *bone = src->mBones[b];
        if (!bone) continue;
        if (bone->mNumWeights > 0 && !bone->mWeights) {
            free(bone_of_src);
            return import_fail(im, "bone '%s' has no weight array", QUOTED(bone->mName.data));
        }
        for (unsigned w = 0; w < bone->mNumWeights; w++) {
            unsigned v = bone->mWeights[w].mVertexId;
            float weight = bone->mWeights[w].mWeight;
            if (v >= (unsigned)vertex_count) {
                free(bone_of_src);
                return import_fail(im, "bone '%s' weights vertex %u of mesh '%s' (it has %d)", QUOTED(bone->mName.data), v,
                            QUOTED(mesh_name), vertex_count);
            }
            if (!isfinite(weight)) {
                free(bone_of_src);
                return import_fail(im, "bone '%s' has a non-finite weight", QUOTED(bone->mName.data));
            }
            if (bone_of_src[b] < 0 || weight <= 0.0f) continue;
            if (mesh->weights_more)
                influence_keep_largest_more(mesh->joint_indices[v], mesh->weights[v], mesh->joint_indices_more[v],
                                            mesh->weights_more[v], bone_of_src[b], weight);
            else
                influence_keep_largest(mesh->joint_indices[v], mesh->weights[v], bone_of_src[b], weight);
        }
    }
    free(bone_of_src);

    if (bone_count == 0) {   /* every bone was dropped: the mesh is static after all */
        free(mesh->bone_joint), free(mesh->inverse_bind), free(mesh->joint_indices), free(mesh->weights);
        free(mesh->joint_indices_more), free(mesh->weights_more);
        mesh->bone_joint = NULL, mesh->inverse_bind = NULL, mesh->joint_indices = NULL, mesh->weights = NULL;
        mesh->joint_indices_more = NULL, mesh->weights_more = NULL;
        return true;
    }

    /* vertices whose 5th+ influences LimitBoneWeights cut (stage 1 listed them): the influence view marks them */
    for (int v = 0; v < vertex_count && im->influence_cuts.count > 0; v++) {
        int influences = import_influences_before_cut(&im->influence_cuts, &src->mVertices[v],
                                                      src->mNormals ? &src->mNormals[v] : NULL);
        if (influences <= SV_MAX_INFLUENCES) continue;
        if (!mesh->influences_in_file) {
            mesh->influences_in_file = malloc((size_t)vertex_count);
            if (!mesh->influences_in_file) return import_fail(im, "out of memory");
            for (int u = 0; u < vertex_count; u++) {   /* the others: the weights they kept */
                int kept = 0;
                for (int k = 0; k < SV_MAX_INFLUENCES; k++) kept += mesh->weights[u][k] > 0.0f;
                mesh->influences_in_file[u] = (uint8_t)kept;
            }
        }
        mesh->influences_in_file[v] = (uint8_t)(influences > 255 ? 255 : influences);
    }
    bone_count = mesh_normalize_weights(mesh, bone_count, stats);   /* renormalised; unweighted: on the mesh's node */
    mesh->bone_count = bone_count;
    mesh->skinned = true;
    mesh_bind_matrix(im, mesh->node_joint, mesh->bind_matrix);
    for (int i = 0; i < bone_count; i++) sk->is_bone[mesh->bone_joint[i]] = true;
    return true;
}

static bool build_mesh(Importer *im, const struct aiMesh *src, int node_joint, Mesh *mesh)
{
    const struct aiNode *node = im->nodes[node_joint];
    if (src->mName.length > 0) import_copy_name(mesh->name, &src->mName);
    else import_copy_name(mesh->name, &node->mName);
    mesh->node_joint = node_joint;
    glm_mat4_identity(mesh->bind_matrix);
    mesh->material = (src->mMaterialIndex < im->scene->mNumMaterials) ? (int)src->mMaterialIndex : -1;

    if (src->mNumVertices > 0x7fffffffu / 4) return import_fail(im, "mesh '%s' has too many vertices", QUOTED(mesh->name));
    int vertex_count = (int)src->mNumVertices;
    long elements;
    mesh->primitive = mesh_primitive_of(src, &elements);
    int corners = mesh_primitive_corners(mesh->primitive);
    if (elements > 0x7fffffff / 3)
        return import_fail(im, "mesh '%s' has too many %s", QUOTED(mesh->name), mesh_primitive_plural(mesh->primitive));

    mesh->vertex_count = vertex_count;
    mesh->index_count = (int)elements * corners;
    mesh->positions = malloc(sizeof(vec3) * (size_t)vertex_count);
    mesh->normals = malloc(sizeof(vec3) * (size_t)vertex_count);
    mesh->uvs = calloc((size_t)vertex_count, sizeof(vec2));
    mesh->indices = malloc(sizeof(uint32_t) * (size_t)mesh->index_count);
    if (src->mTextureCoords[1]) mesh->uvs2 = calloc((size_t)vertex_count, sizeof(vec2));
    if (src->mColors[0]) mesh->colors = malloc(sizeof(vec4) * (size_t)vertex_count);
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices || (src->mTextureCoords[1] && !mesh->uvs2) ||
        (src->mColors[0] && !mesh->colors))
        return import_fail(im, "out of memory");

    for (int v = 0; v < vertex_count; v++) {
        const struct aiVector3D *p = &src->mVertices[v];
        if (!import_finite3(p->x, p->y, p->z))
            return import_fail(im, "mesh '%s' has a non-finite vertex position (vertex %d)", QUOTED(mesh->name), v);
        mesh->positions[v][0] = p->x;
        mesh->positions[v][1] = p->y;
        mesh->positions[v][2] = p->z;
        /* GenSmoothNormals leaves NaN on degenerate faces: fall back to +Y there */
        const struct aiVector3D *n = src->mNormals ? &src->mNormals[v] : NULL;
        if (n && import_finite3(n->x, n->y, n->z) && (n->x != 0.0f || n->y != 0.0f || n->z != 0.0f)) {
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
        if (mesh->colors) {   /* colour set 0: FBX / Collada / PLY store display (sRGB) values: to linear */
            const struct aiColor4D *c = &src->mColors[0][v];
            const float rgba[4] = {c->r, c->g, c->b, c->a};
            for (int k = 0; k < 4; k++) {
                float x = isfinite(rgba[k]) ? fminf(fmaxf(rgba[k], 0.0f), 1.0f) : 1.0f;
                /* sRGB decode: x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055)^2.4 (alpha stays linear) */
                mesh->colors[v][k] = k == 3 ? x : x <= 0.04045f ? x / 12.92f : powf((x + 0.055f) / 1.055f, 2.4f);
            }
        }
        if (mesh->uvs2) {   /* the second UV set: a VAT mesh.glb's vertex ids (vat_mesh.h) */
            const struct aiVector3D *t = &src->mTextureCoords[1][v];
            if (isfinite(t->x) && isfinite(t->y)) {
                mesh->uvs2[v][0] = t->x;
                mesh->uvs2[v][1] = t->y;
            }
        }
    }

    int i = 0;
    for (unsigned f = 0; f < src->mNumFaces; f++) {
        const struct aiFace *face = &src->mFaces[f];
        if (face->mNumIndices != (unsigned)corners) continue;
        for (int k = 0; k < corners; k++) {
            unsigned index = face->mIndices[k];
            if (index >= src->mNumVertices)
                return import_fail(im, "mesh '%s' has a vertex index out of range (%u >= %u)", QUOTED(mesh->name), index,
                            src->mNumVertices);
            mesh->indices[i++] = index;
        }
    }

    if (!import_morph_targets(im, src, mesh)) return false;   /* stage 4: morph targets, before the skin */
    if (src->mNumBones > 0 && src->mBones) return build_skin(im, src, mesh, mesh->name);
    return true;
}

bool import_meshes(Importer *im)
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
            if (index >= scene->mNumMeshes) return import_fail(im, "node '%s' references mesh %u of %u", QUOTED(model->skeleton.names[j]), index, scene->mNumMeshes);
            if (mesh_has_elements(scene->mMeshes[index])) references++;
        }
    }
    if (references == 0) return import_fail(im, "no meshes in the file (no triangles, lines or points)");
    if (references > 1000000) return import_fail(im, "too many mesh instances (%ld)", references);

    model->meshes = calloc((size_t)references, sizeof *model->meshes);
    if (!model->meshes) return import_fail(im, "out of memory");
    for (int j = 0; j < joint_count; j++) {
        const struct aiNode *node = im->nodes[j];
        for (unsigned k = 0; k < node->mNumMeshes; k++) {
            const struct aiMesh *src = scene->mMeshes[node->mMeshes[k]];
            if (!mesh_has_elements(src)) continue;
            Mesh *mesh = &model->meshes[model->mesh_count++];
            if (!build_mesh(im, src, j, mesh)) return false;
        }
    }
    return true;
}
