/* validate.c — repair-or-reject rules on an imported Model (see validate.h and docs/robustness.md).
 *
 * Order: skeleton first (meshes and tracks point into it), then textures and materials
 * (meshes point at materials), meshes, clips (validate_clips.c), magnitudes. Each rule aggregates over one mesh / clip so
 * a broken file gives a few warning lines, not one per vertex.
 */
#include "validate_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- skeleton ------------------------------------------------------------------ */

static bool check_skeleton(Validator *v)
{
    Skeleton *sk = &v->model->skeleton;
    int count = sk->joint_count;
    if (count < 1 || !sk->names || !sk->parent || !sk->rest_local || !sk->rest_trs || !sk->is_bone)
        return validate_reject(v, "the model has no node hierarchy (not even a root node)");
    if (count > VALIDATE_MAX_JOINTS)
        return validate_reject(v, "the node hierarchy has %d nodes, more than the %d skinview accepts", count,
                      VALIDATE_MAX_JOINTS);

    /* parents stored before children is what makes model space one forward loop; a parent index
     * >= the joint's own is either a cycle or a wrong order. Tell which: walk up from each joint
     * (state 1 = on the current walk, 2 = known to reach a root), linear overall. */
    for (int j = 0; j < count; j++) {
        sk->names[j][SV_NAME_MAX - 1] = '\0';
        int parent = sk->parent[j];
        if (parent == j) return validate_reject(v, "node '%s' is its own parent", QUOTED(sk->names[j]));
        if (parent < -1 || parent >= count)
            return validate_reject(v, "node '%s' has parent %d, outside the %d nodes", QUOTED(sk->names[j]), parent, count);
    }
    unsigned char *state = calloc((size_t)count, 1);
    if (!state) return validate_reject(v, "out of memory");
    bool ordered = true;
    for (int j = 0; j < count; j++) {
        if (sk->parent[j] > j) ordered = false;
        int k = j;
        while (k >= 0 && state[k] == 0) {
            state[k] = 1;
            k = sk->parent[k];
        }
        if (k >= 0 && state[k] == 1) {
            int in_cycle = k;
            free(state);
            return validate_reject(v, "the node hierarchy has a cycle through node '%s'", QUOTED(sk->names[in_cycle]));
        }
        for (k = j; k >= 0 && state[k] == 1; k = sk->parent[k]) state[k] = 2;
    }
    free(state);
    if (!ordered) return validate_reject(v, "the node hierarchy is not stored parents before children");

    int bad_trs = 0;
    for (int j = 0; j < count; j++) {
        if (!validate_finite(&sk->rest_local[j][0][0], 16))
            return validate_reject(v, "node '%s' has a NaN or infinite transform", QUOTED(sk->names[j]));
        JointTransform *trs = &sk->rest_trs[j];
        bool bad = false;
        if (!validate_finite(trs->translation, 3)) { glm_vec3_zero(trs->translation); bad = true; }
        if (!validate_finite(trs->scale, 3)) { glm_vec3_one(trs->scale); bad = true; }
        float length = sqrtf(glm_vec4_norm2(trs->rotation));
        if (!isfinite(length) || length < 1e-12f) { glm_quat_identity(trs->rotation); bad = true; }
        else if (fabsf(length - 1.0f) > 1e-3f) { glm_vec4_scale(trs->rotation, 1.0f / length, trs->rotation); bad = true; }
        if (bad) bad_trs++;
    }
    if (bad_trs)
        validate_repaired(v, "%d node rest transforms had NaN/infinite parts or a non-unit rotation; replaced by identity "
                    "parts / normalised", bad_trs);
    return true;
}

/* ---- textures and materials ------------------------------------------------------ */

static bool check_textures_and_materials(Validator *v)
{
    Model *model = v->model;
    if (model->texture_count < 0 || (model->texture_count > 0 && !model->textures))
        return validate_reject(v, "the texture list is corrupt");
    if (model->material_count < 0 || (model->material_count > 0 && !model->materials))
        return validate_reject(v, "the material list is corrupt");

    /* unusable textures are dropped; materials that used them fall back to their colour */
    int *new_index = malloc(sizeof(int) * (size_t)(model->texture_count + 1));
    if (!new_index) return validate_reject(v, "out of memory");
    int kept = 0;
    for (int t = 0; t < model->texture_count; t++) {
        Texture *texture = &model->textures[t];
        texture->source[SV_NAME_MAX - 1] = '\0';
        if (!texture->rgba || texture->width <= 0 || texture->height <= 0 ||
            texture->width > VALIDATE_MAX_TEXTURE_SIDE || texture->height > VALIDATE_MAX_TEXTURE_SIDE) {
            validate_repaired(v, "texture '%s' (%d x %d) is empty or larger than %d pixels a side; dropped, its materials "
                        "use their colour", texture->source, texture->width, texture->height, VALIDATE_MAX_TEXTURE_SIDE);
            free(texture->rgba);
            new_index[t] = -1;
            continue;
        }
        new_index[t] = kept;
        if (kept != t) model->textures[kept] = *texture;
        kept++;
    }
    int old_count = model->texture_count;
    model->texture_count = kept;

    int bad_texture_refs = 0, bad_colours = 0;
    for (int m = 0; m < model->material_count; m++) {
        Material *material = &model->materials[m];
        material->name[SV_NAME_MAX - 1] = '\0';
        int t = material->diffuse_texture;
        if (t < -1 || t >= old_count) {
            material->diffuse_texture = -1;
            bad_texture_refs++;
        } else if (t >= 0) {
            material->diffuse_texture = new_index[t];
        }
        MaterialMap *maps[5] = {&material->diffuse_map, &material->metallic_roughness_map, &material->normal_map,
                                &material->occlusion_map, &material->emissive_map};
        for (int k = 0; k < 5; k++) {   /* the PBR maps: the same remapping, silently (-1 when dropped) */
            int u = maps[k]->texture;
            maps[k]->texture = u >= 0 && u < old_count ? new_index[u] : -1;
        }
        if (!validate_finite(material->diffuse_color, 4)) {
            glm_vec4_one(material->diffuse_color);
            bad_colours++;
        }
    }
    free(new_index);
    if (bad_texture_refs) validate_repaired(v, "%d materials referred to textures that do not exist; they use their colour", bad_texture_refs);
    if (bad_colours) validate_repaired(v, "%d materials had a NaN/infinite colour; set to white", bad_colours);
    return true;
}

/* ---- meshes ---------------------------------------------------------------------- */

/* |det| of the 3x3 part against the product of its column lengths: 0 when the columns are
 * coplanar (space squashed flat), 1 when they are orthogonal. */
static float matrix_flatness(mat4 m)
{
    vec3 c0, c1, c2, cross;
    glm_vec3(m[0], c0);
    glm_vec3(m[1], c1);
    glm_vec3(m[2], c2);
    glm_vec3_cross(c1, c2, cross);
    float det = glm_vec3_dot(c0, cross);   /* det = c0 . (c1 x c2) */
    float lengths = glm_vec3_norm(c0) * glm_vec3_norm(c1) * glm_vec3_norm(c2);
    if (!(lengths > 0.0f) || !isfinite(det)) return 0.0f;
    return fabsf(det) / lengths;
}

/* Index of a bone of this mesh bound to its own node with an identity inverse bind (the bone
 * unweighted vertices follow, model.h), appended if missing; -1 when it cannot be added. */
static int rigid_bone(Mesh *mesh, bool *is_bone)
{
    for (int b = 0; b < mesh->bone_count; b++) {
        if (mesh->bone_joint[b] != mesh->node_joint) continue;
        mat4 identity = GLM_MAT4_IDENTITY_INIT;
        if (memcmp(mesh->inverse_bind[b], identity, sizeof identity) == 0) return b;
    }
    if (mesh->bone_count >= VALIDATE_MAX_BONES) return -1;
    int *joints = realloc(mesh->bone_joint, sizeof(int) * (size_t)(mesh->bone_count + 1));
    if (!joints) return -1;
    mesh->bone_joint = joints;
    mat4 *binds = realloc(mesh->inverse_bind, sizeof(mat4) * (size_t)(mesh->bone_count + 1));
    if (!binds) return -1;
    mesh->inverse_bind = binds;
    mesh->bone_joint[mesh->bone_count] = mesh->node_joint;
    glm_mat4_identity(mesh->inverse_bind[mesh->bone_count]);
    is_bone[mesh->node_joint] = true;
    return mesh->bone_count++;
}

static bool check_skin(Validator *v, Mesh *mesh)
{
    Skeleton *sk = &v->model->skeleton;
    if (mesh->bone_count < 1 || mesh->bone_count > VALIDATE_MAX_BONES || !mesh->bone_joint || !mesh->inverse_bind ||
        !mesh->joint_indices || !mesh->weights)
        return validate_reject(v, "skinned mesh '%s' has %d bones or lacks its bone / weight arrays", QUOTED(mesh->name),
                      mesh->bone_count);
    int non_affine = 0;
    for (int b = 0; b < mesh->bone_count; b++) {
        int joint = mesh->bone_joint[b];
        if (joint < 0 || joint >= sk->joint_count)
            return validate_reject(v, "bone %d of mesh '%s' refers to node %d, outside the %d nodes", b, QUOTED(mesh->name), joint,
                          sk->joint_count);
        float (*m)[4] = mesh->inverse_bind[b];
        if (!validate_finite(&m[0][0], 16))
            return validate_reject(v, "bone '%s' of mesh '%s' has a NaN or infinite inverse bind matrix", QUOTED(sk->names[joint]),
                          QUOTED(mesh->name));
        /* affine = last row (0, 0, 0, 1); cglm is column-major, so the last row is m[c][3] */
        if (fabsf(m[0][3]) > 1e-6f || fabsf(m[1][3]) > 1e-6f || fabsf(m[2][3]) > 1e-6f || fabsf(m[3][3] - 1.0f) > 1e-5f) {
            bool pure_w = fabsf(m[0][3]) <= 1e-6f && fabsf(m[1][3]) <= 1e-6f && fabsf(m[2][3]) <= 1e-6f &&
                          fabsf(m[3][3]) > 1e-6f;
            if (pure_w) glm_mat4_scale(m, 1.0f / m[3][3]);   /* a homogeneous scale: divide it out */
            m[0][3] = m[1][3] = m[2][3] = 0.0f;
            m[3][3] = 1.0f;
            non_affine++;
        }
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                if (fabsf(m[c][r]) > VALIDATE_MAX_COORDINATE)
                    return validate_reject(v, "bone '%s' of mesh '%s' has an absurd inverse bind matrix (an entry beyond %g)",
                                  QUOTED(sk->names[joint]), QUOTED(mesh->name), (double)VALIDATE_MAX_COORDINATE);
        for (int c = 0; c < 3; c++) {
            float axis = glm_vec3_norm(m[c]);
            if (axis > 0.0f && (axis < VALIDATE_MIN_BIND_SCALE || axis > 1.0f / VALIDATE_MIN_BIND_SCALE))
                return validate_reject(v, "bone '%s' of mesh '%s' has an absurd scale in its inverse bind matrix (axis length %g)",
                              QUOTED(sk->names[joint]), QUOTED(mesh->name), (double)axis);
        }
        if (matrix_flatness(m) < 1e-6f)
            return validate_reject(v, "bone '%s' of mesh '%s' has a singular inverse bind matrix (it squashes space flat)",
                          QUOTED(sk->names[joint]), QUOTED(mesh->name));
        sk->is_bone[joint] = true;
    }
    if (non_affine)
        validate_repaired(v, "mesh '%s': %d inverse bind matrices were not affine (last row not 0 0 0 1); made affine",
                 QUOTED(mesh->name), non_affine);

    int bad_weights = 0, bad_indices = 0, zero_sums = 0, renormalised = 0;
    for (int i = 0; i < mesh->vertex_count; i++) {
        float *w = mesh->weights[i];
        uint16_t *index = mesh->joint_indices[i];
        float sum = 0.0f;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
            if (!isfinite(w[k]) || w[k] < 0.0f) {
                w[k] = 0.0f;
                bad_weights++;
            }
            if (index[k] >= mesh->bone_count) {
                if (w[k] != 0.0f) bad_indices++;
                w[k] = 0.0f;
                index[k] = 0;
            }
            sum += w[k];
        }
        if (!(sum > 0.0f) || !isfinite(sum)) {   /* nothing left: the vertex follows its mesh's node */
            int rigid = rigid_bone(mesh, sk->is_bone);
            if (rigid < 0) return validate_reject(v, "mesh '%s': no room for the bone unweighted vertices follow", QUOTED(mesh->name));
            memset(w, 0, sizeof(float) * SV_MAX_INFLUENCES);
            memset(index, 0, sizeof(uint16_t) * SV_MAX_INFLUENCES);
            index[0] = (uint16_t)rigid;
            w[0] = 1.0f;
            zero_sums++;
            continue;
        }
        if (fabsf(sum - 1.0f) > 1e-3f) renormalised++;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) w[k] /= sum;   /* w_k / sum: the weights sum to 1 */
    }
    for (int i = 0; mesh->weights_more && mesh->joint_indices_more && i < mesh->vertex_count; i++)
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {   /* the 5th..8th (kept for the export): the same rules */
            float *w = &mesh->weights_more[i][k];
            if (!isfinite(*w) || *w < 0.0f || mesh->joint_indices_more[i][k] >= mesh->bone_count) {
                if (*w != 0.0f) bad_weights++;
                *w = 0.0f;
                mesh->joint_indices_more[i][k] = 0;
            }
        }
    if (bad_weights) validate_repaired(v, "mesh '%s': %d negative or NaN weights set to 0", QUOTED(mesh->name), bad_weights);
    if (bad_indices)
        validate_repaired(v, "mesh '%s': %d weights named a bone past the mesh's %d bones; dropped", QUOTED(mesh->name), bad_indices,
                 mesh->bone_count);
    if (zero_sums)
        validate_repaired(v, "mesh '%s': %d vertices had weights summing to 0; bound rigidly to the mesh's node", QUOTED(mesh->name),
                 zero_sums);
    if (renormalised) validate_repaired(v, "mesh '%s': %d vertices' weights did not sum to 1; renormalised", QUOTED(mesh->name), renormalised);
    return true;
}

/* Morph targets (applied before skinning): deltas and default weights finite. */
static bool check_morph_targets(Validator *v, Mesh *mesh)
{
    int targets = mesh->morph_target_count;
    if (targets == 0) return true;
    if (targets < 0 || !mesh->morph_position_deltas || !mesh->morph_default_weights || !mesh->morph_target_names)
        return validate_reject(v, "mesh '%s' has %d morph targets but lacks their arrays", QUOTED(mesh->name), targets);
    int bad_deltas = 0, bad_weights = 0;
    size_t deltas = (size_t)targets * (size_t)mesh->vertex_count;
    for (size_t i = 0; i < deltas; i++) {
        if (!validate_finite(mesh->morph_position_deltas[i], 3) ||
            glm_vec3_norm(mesh->morph_position_deltas[i]) > VALIDATE_MAX_COORDINATE) {
            glm_vec3_zero(mesh->morph_position_deltas[i]);
            bad_deltas++;
        }
        if (mesh->morph_normal_deltas && (!validate_finite(mesh->morph_normal_deltas[i], 3) ||
                                          glm_vec3_norm(mesh->morph_normal_deltas[i]) > VALIDATE_MAX_NORMAL_DELTA)) {
            glm_vec3_zero(mesh->morph_normal_deltas[i]);
            bad_deltas++;
        }
    }
    for (int t = 0; t < targets; t++) {
        mesh->morph_target_names[t][SV_NAME_MAX - 1] = '\0';
        if (!isfinite(mesh->morph_default_weights[t]) || fabsf(mesh->morph_default_weights[t]) > VALIDATE_MAX_MORPH_WEIGHT) {
            mesh->morph_default_weights[t] = 0.0f;
            bad_weights++;
        }
    }
    if (bad_deltas) validate_repaired(v, "mesh '%s': %d NaN, infinite or absurd morph target deltas set to 0", QUOTED(mesh->name), bad_deltas);
    if (bad_weights) validate_repaired(v, "mesh '%s': %d NaN, infinite or absurd default morph weights set to 0", QUOTED(mesh->name), bad_weights);
    return true;
}

/* 1: keep the mesh, 0: drop it (with a warning), -1: reject the model (error set). */
static int check_mesh(Validator *v, Mesh *mesh)
{
    Model *model = v->model;
    mesh->name[SV_NAME_MAX - 1] = '\0';
    if (mesh->primitive != MESH_TRIANGLES && mesh->primitive != MESH_LINES && mesh->primitive != MESH_POINTS)
        return validate_reject(v, "mesh '%s' has an unknown primitive kind %d", QUOTED(mesh->name), (int)mesh->primitive), -1;
    int corners = mesh_primitive_corners(mesh->primitive);   /* indices per element: 3, 2 or 1 */
    const char *elements = mesh_primitive_plural(mesh->primitive);
    if (mesh->vertex_count < 0 || mesh->index_count < 0)
        return validate_reject(v, "mesh '%s' has a negative vertex or index count", QUOTED(mesh->name)), -1;
    if (mesh->vertex_count == 0 || mesh->index_count < corners) {
        validate_repaired(v, "mesh '%s' has %d vertices and %d %s; dropped", QUOTED(mesh->name), mesh->vertex_count,
                 mesh->index_count / corners, elements);
        return 0;
    }
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices)
        return validate_reject(v, "mesh '%s' lacks its vertex or index arrays", QUOTED(mesh->name)), -1;
    if (mesh->node_joint < 0 || mesh->node_joint >= model->skeleton.joint_count)
        return validate_reject(v, "mesh '%s' hangs under node %d, outside the %d nodes", QUOTED(mesh->name), mesh->node_joint,
                      model->skeleton.joint_count), -1;
    if (mesh->index_count % corners) {
        validate_repaired(v, "mesh '%s': %d indices is not whole %s; the last %d dropped", QUOTED(mesh->name),
                 mesh->index_count, elements, mesh->index_count % corners);
        mesh->index_count -= mesh->index_count % corners;
    }

    int bad_normals = 0, scaled_normals = 0, bad_uvs = 0;
    for (int i = 0; i < mesh->vertex_count; i++) {
        if (!validate_finite(mesh->positions[i], 3))
            return validate_reject(v, "mesh '%s' has a NaN or infinite vertex position (vertex %d)", QUOTED(mesh->name), i), -1;
        if (fabsf(mesh->positions[i][0]) > VALIDATE_MAX_COORDINATE || fabsf(mesh->positions[i][1]) > VALIDATE_MAX_COORDINATE ||
            fabsf(mesh->positions[i][2]) > VALIDATE_MAX_COORDINATE)
            return validate_reject(v, "mesh '%s' has an absurd vertex position (vertex %d, beyond %g units)", QUOTED(mesh->name), i,
                          (double)VALIDATE_MAX_COORDINATE), -1;
        /* |n| without overflow: the largest component times the length of n / it */
        float *n = mesh->normals[i];
        float largest = fmaxf(fabsf(n[0]), fmaxf(fabsf(n[1]), fabsf(n[2])));
        float length = largest > 0.0f && isfinite(largest) ? largest * glm_vec3_norm((vec3){n[0] / largest, n[1] / largest, n[2] / largest})
                                                           : largest;
        if (!validate_finite(n, 3) || !isfinite(length) || length == 0.0f) {
            glm_vec3_copy((vec3){0.0f, 1.0f, 0.0f}, mesh->normals[i]);
            bad_normals++;
        } else if (length > 1e6f || length < 1e-6f) {   /* would overflow (or vanish) once skinned */
            for (int c = 0; c < 3; c++) n[c] /= largest;   /* divided, not times 1 / largest: that overflows */
            glm_vec3_normalize(n);
            scaled_normals++;
        }
        if (!validate_finite(mesh->uvs[i], 2)) {
            glm_vec2_zero(mesh->uvs[i]);
            bad_uvs++;
        }
    }
    if (bad_normals) validate_repaired(v, "mesh '%s': %d NaN, infinite or zero normals set to +Y", QUOTED(mesh->name), bad_normals);
    if (scaled_normals)
        validate_repaired(v, "mesh '%s': %d normals longer than 1e6 or shorter than 1e-6; normalised", QUOTED(mesh->name), scaled_normals);
    if (bad_uvs) validate_repaired(v, "mesh '%s': %d NaN or infinite texture coordinates set to 0", QUOTED(mesh->name), bad_uvs);

    /* elements with an index past the vertices are dropped (compacted in place) */
    int kept = 0, bad_elements = 0;
    for (int t = 0; t + corners <= mesh->index_count; t += corners) {
        uint32_t *element = &mesh->indices[t];
        bool inside = true;
        for (int k = 0; k < corners; k++) inside = inside && element[k] < (uint32_t)mesh->vertex_count;
        if (!inside) {
            bad_elements++;
            continue;
        }
        memmove(&mesh->indices[kept], element, sizeof(uint32_t) * (size_t)corners);
        kept += corners;
    }
    if (bad_elements) {
        validate_repaired(v, "mesh '%s': %d %s used vertex indices past its %d vertices; dropped", QUOTED(mesh->name),
                 bad_elements, elements, mesh->vertex_count);
        mesh->index_count = kept;
        if (kept == 0) {
            validate_repaired(v, "mesh '%s' has no %s left; dropped", QUOTED(mesh->name), elements);
            return 0;
        }
    }
    if (mesh->material < -1 || mesh->material >= model->material_count) {
        validate_repaired(v, "mesh '%s' refers to material %d of %d; drawn with the default colour", QUOTED(mesh->name),
                 mesh->material, model->material_count);
        mesh->material = -1;
    }
    if (mesh->skinned && !check_skin(v, mesh)) return -1;
    return check_morph_targets(v, mesh) ? 1 : -1;
}

static bool check_meshes(Validator *v)
{
    Model *model = v->model;
    if (model->mesh_count < 0 || (model->mesh_count > 0 && !model->meshes)) return validate_reject(v, "the mesh list is corrupt");
    /* morph tracks name meshes by index: remember where each mesh went */
    v->old_mesh_count = model->mesh_count;
    v->mesh_index = malloc(sizeof(int) * (size_t)(model->mesh_count + 1));
    if (!v->mesh_index) return validate_reject(v, "out of memory");
    for (int m = 0; m < model->mesh_count; m++) v->mesh_index[m] = -1;
    int kept = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        int verdict = check_mesh(v, &model->meshes[m]);
        if (verdict < 0) {
            /* meshes already moved down keep the model consistent for model_free(): release the rest */
            for (int rest = m; rest < model->mesh_count; rest++)
                if (kept != rest) model->meshes[kept++] = model->meshes[rest];
                else kept++;
            model->mesh_count = kept;
            return false;
        }
        if (verdict == 0) {
            mesh_free(&model->meshes[m]);
            continue;
        }
        if (kept != m) model->meshes[kept] = model->meshes[m];
        v->mesh_index[m] = kept++;
    }
    model->mesh_count = kept;
    if (kept == 0) return validate_reject(v, "no mesh with triangles is left to draw");
    return true;
}

/* ---- magnitudes: how far a joint can get ----------------------------------------------
 * A conservative bound, one forward loop (parents first): with s_j the largest scale joint j's
 * local transform can have (rest or any key) and t_j the longest translation,
 *     S_j = S_parent * s_j          (accumulated scale)
 *     T_j = T_parent + S_parent * t_j   (distance from the origin)
 * If S and T stay under VALIDATE_MAX_SCALE / VALIDATE_MAX_EXTENT for every joint, no pose the
 * keys can produce overflows a float on the way to the skinned vertices. */

/* Largest axis length of the 3x3 part (the scale a matrix applies at most, up to shear). */
static float matrix_max_scale(mat4 m)
{
    float a = glm_vec3_norm(m[0]), b = glm_vec3_norm(m[1]), c = glm_vec3_norm(m[2]);
    return fmaxf(a, fmaxf(b, c));
}

/* Largest |value| (vec3 length for translations, largest component for scales) over a channel's
 * keys, with spline tangents counted too (a Hermite segment overshoots by at most about
 * (|in| + |out|) * span / 4; span * |tangent| is a safe over-estimate). */
static float channel_reach(const float *times, const float *values, const float *tangents, int count, bool length)
{
    float reach = 0.0f;
    float span = count > 1 ? times[count - 1] - times[0] : 0.0f;
    for (int k = 0; k < count; k++) {
        const float *x = &values[k * 3];
        float size = length ? sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])
                            : fmaxf(fabsf(x[0]), fmaxf(fabsf(x[1]), fabsf(x[2])));
        if (tangents)
            for (int i = 0; i < 6; i++) size += fabsf(tangents[k * 6 + i]) * span;
        reach = fmaxf(reach, size);
    }
    return reach;
}

/* True when every joint stays in bounds with the local maxima in scale[] / reach[]. */
static bool joints_in_bounds(const Skeleton *sk, const float *scale, const float *reach, float *world_scale,
                             float *world_reach, int *worst_joint)
{
    for (int j = 0; j < sk->joint_count; j++) {
        int p = sk->parent[j];
        float parent_scale = p >= 0 ? world_scale[p] : 1.0f, parent_reach = p >= 0 ? world_reach[p] : 0.0f;
        world_scale[j] = parent_scale * scale[j];
        world_reach[j] = parent_reach + parent_scale * reach[j];
        if (!(world_scale[j] <= VALIDATE_MAX_SCALE) || !(world_reach[j] <= VALIDATE_MAX_EXTENT)) {
            *worst_joint = j;
            return false;
        }
    }
    return true;
}

static bool check_magnitudes(Validator *v)
{
    Model *model = v->model;
    Skeleton *sk = &model->skeleton;
    int n = sk->joint_count;
    float *scale = malloc(sizeof(float) * (size_t)n * 4);
    if (!scale) return validate_reject(v, "out of memory");
    float *reach = scale + n, *world_scale = scale + 2 * n, *world_reach = scale + 3 * n;
    for (int j = 0; j < n; j++) {
        scale[j] = fmaxf(matrix_max_scale(sk->rest_local[j]),
                         fmaxf(fabsf(sk->rest_trs[j].scale[0]), fmaxf(fabsf(sk->rest_trs[j].scale[1]), fabsf(sk->rest_trs[j].scale[2]))));
        reach[j] = fmaxf(glm_vec3_norm(sk->rest_local[j][3]), glm_vec3_norm(sk->rest_trs[j].translation));
    }
    int worst = 0;
    if (!joints_in_bounds(sk, scale, reach, world_scale, world_reach, &worst)) {
        free(scale);
        return validate_reject(v, "the node transforms multiply to absurd sizes (node '%s': scale beyond %g or beyond %g "
                         "units from the origin)", QUOTED(sk->names[worst]), (double)VALIDATE_MAX_SCALE,
                      (double)VALIDATE_MAX_EXTENT);
    }
    /* each clip: the rest maxima, raised by what its keys reach; a clip that could carry a joint
     * out of bounds is dropped */
    float *clip_scale = malloc(sizeof(float) * (size_t)n * 2);
    if (!clip_scale) {
        free(scale);
        return validate_reject(v, "out of memory");
    }
    float *clip_reach = clip_scale + n;
    int kept = 0;
    for (int c = 0; c < model->clip_count; c++) {
        Clip *clip = &model->clips[c];
        memcpy(clip_scale, scale, sizeof(float) * (size_t)n);
        memcpy(clip_reach, reach, sizeof(float) * (size_t)n);
        for (int t = 0; t < clip->track_count; t++) {
            const JointTrack *track = &clip->tracks[t];
            int j = track->joint;
            if (track->scale_count > 0)
                clip_scale[j] = fmaxf(clip_scale[j], channel_reach(track->scale_times, (const float *)track->scale_values,
                                                                   (const float *)track->scale_tangents,
                                                                   track->scale_count, false));
            if (track->translation_count > 0)
                clip_reach[j] = fmaxf(clip_reach[j], channel_reach(track->translation_times,
                                                                   (const float *)track->translation_values,
                                                                   (const float *)track->translation_tangents,
                                                                   track->translation_count, true));
        }
        bool in_bounds = joints_in_bounds(sk, clip_scale, clip_reach, world_scale, world_reach, &worst);
        if (!in_bounds)
            validate_repaired(v, "clip '%s': its keys could carry node '%s' to an absurd size or distance (scale beyond %g or "
                        "beyond %g units); clip dropped", QUOTED(clip->name), QUOTED(sk->names[worst]), (double)VALIDATE_MAX_SCALE,
                     (double)VALIDATE_MAX_EXTENT);
        validate_keep_clip(model, c, in_bounds, &kept);
    }
    model->clip_count = kept;
    free(clip_scale);
    free(scale);
    return true;
}

bool model_validate(Model *model, FILE *warnings, int *repairs, char *error, size_t error_size)
{
    Validator v = {.model = model, .warnings = warnings, .error = error, .error_size = error_size};
    if (error_size > 0) error[0] = '\0';
    model->source_path[sizeof model->source_path - 1] = '\0';
    bool ok = check_skeleton(&v) && check_textures_and_materials(&v) && check_meshes(&v) && validate_clips(&v) &&
              check_magnitudes(&v);
    free(v.mesh_index);
    if (repairs) *repairs = v.repairs;
    return ok;
}
