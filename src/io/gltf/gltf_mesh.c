/* gltf_mesh.c — step 4 of the glTF reader: one Model Mesh per (node, primitive), with its skin.
 *
 * Rules of this step (glTF 2.0 sections 3.7 "Geometry", 3.8 "Skins"; KHR_mesh_quantization;
 * KHR_draco_mesh_compression):
 *   - Meshes are made in joint order (parents first), and per node in primitive order: a mesh that
 *     several nodes use is one Model Mesh per node, each with THAT node's skin (a mesh used by two
 *     nodes with two skins draws twice, each bent by its own joints). Names: the mesh's name (or
 *     "meshes[N]"), with "-P" appended when the mesh has several primitives (as Assimp named them).
 *   - mode TRIANGLES (4, the default), TRIANGLE_STRIP (5: triangle i is v_i, v_(i+1+i%2),
 *     v_(i+2-i%2)) and TRIANGLE_FAN (6: v_0, v_(i+1), v_(i+2)) become triangle lists (MESH_TRIANGLES);
 *     LINES (1: segment i is v_2i, v_(2i+1)), LINE_STRIP (3: v_i, v_(i+1)) and LINE_LOOP (2: the
 *     strip plus v_(n-1), v_0) become segment lists (MESH_LINES); POINTS (0) a point list
 *     (MESH_POINTS). No `indices`: vertices 0, 1, 2, ... in order. An element with an index past the
 *     vertex count is dropped (one warning per primitive, a repair). Lines and points are skinned and
 *     morphed like triangles; without NORMAL they get +Y normals (they are drawn unlit) and no
 *     tangents.
 *   - UVs: v' = 1 - v (glTF's origin is the image's top-left corner, skinview's the bottom-left, as
 *     Assimp delivered every format).
 *   - Attributes: POSITION, NORMAL, TEXCOORD_0, TEXCOORD_1, TANGENT, COLOR_0, JOINTS_0/_1, WEIGHTS_0/_1, each read by
 *     gltf_accessor.c, so any component type is read right: KHR_mesh_quantization's integer
 *     positions (their integer values, or normalized) and normalized normals and UVs, and normalized
 *     UNSIGNED_BYTE / UNSIGNED_SHORT weights.
 *   - No NORMAL: flat normals, as the spec asks ("client implementations MUST calculate flat
 *     normals"): every triangle corner becomes its own vertex (mesh vertex 3t + k = the primitive
 *     vertex of corner k of triangle t, so a mesh of T triangles has 3T vertices and indices
 *     0, 1, 2, ...), and the three share the triangle's normal, normalize((b - a) x (c - a)). Skin
 *     weights, UVs and morph deltas follow each corner's source vertex. A zero (degenerate
 *     triangle) or non-finite normal becomes +Y.
 *   - Morph targets: each target's POSITION and NORMAL are deltas already (the spec); default
 *     weights are the node's `weights`, else the mesh's `weights`, else 0; names from
 *     mesh.extras.targetNames.
 *   - Skin: the node's `skin`. Bones are the skin's joints, in skin order (a joint outside the scene
 *     is dropped with its weights, counted in stats.bones_without_node; with none left the mesh is
 *     static); inverseBindMatrices (MAT4 float) or identities when
 *     absent (the spec). Per vertex, the (joint, weight) pairs of JOINTS_0/WEIGHTS_0 and _1 with a
 *     weight > 0: the SV_MAX_INFLUENCES largest are kept, renormalised to sum 1; a vertex that had
 *     more is counted (stats.vertices_influences_cut) and marked in Mesh.influences_in_file. A vertex
 *     with no weight is bound to one extra bone, the mesh's node, with an identity inverse bind. A
 *     skinned mesh's bind_matrix is the identity (the spec ignores a skinned mesh node's transform).
 *   - KHR_draco_mesh_compression: the primitive's indices and the attributes the extension lists come
 *     from the decoded Draco stream (gltf_draco.h); the accessors still give componentType and
 *     normalized, and the normalized rule is applied here to the decoded integer values.
 */
#include "gltf_internal.h"
#include "gltf_draco.h"
#include "io/validate.h"

#include <stdlib.h>
#include <string.h>

/* The vertex data of one primitive, as read. */
typedef struct Primitive {
    int       vertex_count;
    float    *positions;   /* 3 per vertex */
    float    *normals;     /* 3 per vertex, NULL: none in the file */
    float    *uv0, *uv1;   /* 2 per vertex, NULL: none */
    float    *tangents;    /* 4 per vertex (xyz, w = handedness), NULL: none */
    float    *colors;      /* 4 per vertex (RGBA, linear; VEC3 files get alpha 1), NULL: none */
    float    *joints[2];   /* 4 per vertex (integer values), NULL: none */
    float    *weights[2];  /* 4 per vertex */
    uint32_t *elements;    /* 3 per triangle, 2 per segment or 1 per point (kind) */
    int       index_count;
    MeshPrimitive kind;
    int       target_count;
    float   **target_positions;   /* [target] 3 per vertex or NULL */
    float   **target_normals;
    GltfDracoMesh draco;
    bool      have_draco;
} Primitive;

static void primitive_free(Primitive *p)
{
    free(p->positions), free(p->normals), free(p->uv0), free(p->uv1), free(p->tangents), free(p->colors);
    for (int s = 0; s < 2; s++) free(p->joints[s]), free(p->weights[s]);
    free(p->elements);
    for (int t = 0; t < p->target_count; t++) {
        if (p->target_positions) free(p->target_positions[t]);
        if (p->target_normals) free(p->target_normals[t]);
    }
    free(p->target_positions);
    free(p->target_normals);
    if (p->have_draco) gltf_draco_free(&p->draco);
    memset(p, 0, sizeof *p);
}

/* Attribute `name` of the primitive into out[count * components] (NULL and true when absent). */
static bool read_attribute(Gltf *g, const cJSON *primitive, const Primitive *p, const char *name, int components,
                           float **out, int *count)
{
    *out = NULL;
    const cJSON *attributes = gltf_item(primitive, "attributes");
    const cJSON *accessor = gltf_item(attributes, name);
    if (!accessor) return true;
    if (!cJSON_IsNumber(accessor)) return gltf_fail(g, "damaged glTF file: attribute %s is not an accessor index", QUOTED(name));
    int index = accessor->valueint;
    const cJSON *draco = gltf_extension(primitive, "KHR_draco_mesh_compression");
    const cJSON *draco_id = gltf_item(gltf_item(draco, "attributes"), name);
    if (p->have_draco && cJSON_IsNumber(draco_id)) {
        const GltfDracoAttribute *found = NULL;
        for (int a = 0; a < p->draco.attribute_count; a++)
            if (p->draco.attributes[a].unique_id == draco_id->valueint) found = &p->draco.attributes[a];
        if (!found || found->components < components)
            return gltf_fail(g, "KHR_draco_mesh_compression: attribute %s has %d components, %d expected", QUOTED(name),
                             found ? found->components : 0, components);
        bool normalized = false;
        int type = gltf_accessor_component_type(g, index, &normalized);
        size_t n = (size_t)p->draco.vertex_count;
        float *values = malloc(sizeof(float) * n * (size_t)components + 1);
        if (!values) return gltf_fail(g, "out of memory");
        for (size_t v = 0; v < n; v++)
            for (int c = 0; c < components; c++) {
                float x = found->values[v * (size_t)found->components + (size_t)c];
                values[v * (size_t)components + (size_t)c] = normalized && type != GLTF_FLOAT ? gltf_normalize(x, type) : x;
            }
        *out = values;
        *count = p->draco.vertex_count;
        return true;
    }
    return gltf_read_floats(g, index, components, out, count, NULL);
}

/* Same vertex count for every attribute. */
static bool check_count(Gltf *g, const char *mesh_name, const char *attribute, int count, int vertex_count)
{
    if (count == vertex_count) return true;
    return gltf_fail(g, "damaged glTF file: mesh '%s': %s has %d elements, POSITION %d", QUOTED(mesh_name), attribute, count,
                     vertex_count);
}

/* The primitive's kind for glTF mode 0-6 (POINTS, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, ...). */
static MeshPrimitive primitive_kind(int mode)
{
    return mode == 0 ? MESH_POINTS : mode <= 3 ? MESH_LINES : MESH_TRIANGLES;
}

/* How many elements (triangles, segments, points) `count` indices of `mode` make. */
static int element_count(int mode, int count)
{
    switch (mode) {
    case 0: return count;                              /* points */
    case 1: return count / 2;                          /* lines */
    case 2: return count >= 2 ? count : 0;             /* line loop: the strip and the closing segment */
    case 3: return count >= 2 ? count - 1 : 0;         /* line strip */
    case 4: return count / 3;                          /* triangles */
    default: return count >= 3 ? count - 2 : 0;        /* triangle strip and fan */
    }
}

/* Corner k of element e of `mode`, as an index into indices[count]. */
static int element_corner(int mode, int e, int k, int count)
{
    switch (mode) {
    case 0: return e;
    case 1: return 2 * e + k;
    case 2: return (e + k) % count;                    /* the last segment closes the loop: v_(n-1), v_0 */
    case 3: return e + k;
    case 4: return 3 * e + k;
    case 5: return k == 0 ? e : k == 1 ? e + 1 + e % 2 : e + 2 - e % 2;   /* strip: every other one flipped
                                                                            to keep the winding */
    default: return k == 0 ? 0 : e + k;                /* fan: v_0, v_(e+1), v_(e+2) */
    }
}

/* Element list of the primitive (triangles, segments or points) from its indices (or 0..n-1) and mode. */
static bool build_elements(Gltf *g, const cJSON *primitive, Primitive *p, int mode, const char *mesh_name)
{
    uint32_t *indices = NULL;
    int count = 0;
    if (p->have_draco) {
        count = p->draco.index_count;
        indices = malloc(sizeof(uint32_t) * ((size_t)count + 1));
        if (!indices) return gltf_fail(g, "out of memory");
        memcpy(indices, p->draco.indices, sizeof(uint32_t) * (size_t)count);
    } else if (gltf_item(primitive, "indices")) {
        if (!gltf_read_uints(g, gltf_int(primitive, "indices", -1), 1, &indices, &count)) return false;
    } else {
        count = p->vertex_count;
        indices = malloc(sizeof(uint32_t) * ((size_t)count + 1));
        if (!indices) return gltf_fail(g, "out of memory");
        for (int i = 0; i < count; i++) indices[i] = (uint32_t)i;
    }
    p->kind = primitive_kind(mode);
    int corners = mesh_primitive_corners(p->kind);
    int elements = element_count(mode, count);
    p->elements = malloc(sizeof(uint32_t) * (size_t)corners * ((size_t)elements + 1));
    if (!p->elements) {
        free(indices);
        return gltf_fail(g, "out of memory");
    }
    int kept = 0, dropped = 0;
    uint32_t n = (uint32_t)p->vertex_count;
    for (int e = 0; e < elements; e++) {
        uint32_t *out = p->elements + (size_t)corners * (size_t)kept;
        bool inside = true;
        for (int k = 0; k < corners; k++) {
            out[k] = indices[element_corner(mode, e, k, count)];
            inside = inside && out[k] < n;
        }
        if (inside) kept++;
        else dropped++;
    }
    p->index_count = corners * kept;
    free(indices);
    if (dropped > 0)
        gltf_warn(g, "mesh '%s': %d %s with a vertex index past its %d vertices dropped", QUOTED(mesh_name), dropped,
                  mesh_primitive_plural(p->kind),
                  p->vertex_count);
    return true;
}

/* COLOR_0 as 4 floats per vertex (VEC3: alpha 1). A Draco-compressed primitive's colours are read
 * as its RGB. */
static bool read_colors(Gltf *g, const cJSON *primitive, Primitive *p, const char *mesh_name)
{
    const cJSON *accessor = gltf_item(gltf_item(primitive, "attributes"), "COLOR_0");
    if (!accessor) return true;
    if (!cJSON_IsNumber(accessor)) return gltf_fail(g, "damaged glTF file: attribute COLOR_0 is not an accessor index");
    float *raw = NULL;
    int count = 0, components = 3;
    if (p->have_draco) {
        if (!read_attribute(g, primitive, p, "COLOR_0", 3, &raw, &count)) return false;
    } else if (!gltf_read_floats(g, accessor->valueint, 0, &raw, &count, &components)) {
        return false;
    }
    if (!raw) return true;
    if ((components != 3 && components != 4) || !check_count(g, mesh_name, "COLOR_0", count, p->vertex_count)) {
        free(raw);
        return components == 3 || components == 4 ? false
                                                   : gltf_fail(g, "damaged glTF file: mesh '%s': COLOR_0 is not VEC3 or VEC4",
                                                               QUOTED(mesh_name));
    }
    p->colors = malloc(sizeof(float) * 4 * (size_t)count + 1);
    if (!p->colors) {
        free(raw);
        return gltf_fail(g, "out of memory");
    }
    for (int v = 0; v < count; v++)
        for (int c = 0; c < 4; c++) {
            float x = c < components ? raw[(size_t)v * (size_t)components + (size_t)c] : 1.0f;
            p->colors[4 * (size_t)v + (size_t)c] = isfinite(x) ? x : 1.0f;
        }
    free(raw);
    return true;
}

static bool read_primitive(Gltf *g, const cJSON *primitive, Primitive *p, int mode, const char *mesh_name)
{
    memset(p, 0, sizeof *p);
    const cJSON *draco = gltf_extension(primitive, "KHR_draco_mesh_compression");
    if (draco) {
        const cJSON *attributes = gltf_item(draco, "attributes"), *item;
        int ids[64], id_count = 0;
        cJSON_ArrayForEach(item, gltf_members(attributes))
            if (cJSON_IsNumber(item) && id_count < 64) ids[id_count++] = item->valueint;
        const GltfView *view = gltf_view(g, gltf_int(draco, "bufferView", -1));
        if (!view) return false;
        char why[200] = "";
        if (!gltf_draco_decode(view->bytes, view->size, ids, id_count, &p->draco, why, sizeof why))
            return gltf_fail(g, "mesh '%s': KHR_draco_mesh_compression data cannot be decoded: %s", QUOTED(mesh_name), why);
        p->have_draco = true;
        if (p->draco.vertex_count <= 0) return gltf_fail(g, "mesh '%s': the Draco stream has no vertices", QUOTED(mesh_name));
    }
    int count = 0;
    if (!read_attribute(g, primitive, p, "POSITION", 3, &p->positions, &p->vertex_count)) return false;
    if (!p->positions) return true;   /* no positions: nothing to draw */
    float **slots[6] = {&p->normals, &p->uv0, &p->uv1, NULL, NULL, NULL};
    const char *names[3] = {"NORMAL", "TEXCOORD_0", "TEXCOORD_1"};
    int components[3] = {3, 2, 2};
    for (int a = 0; a < 3; a++) {
        if (!read_attribute(g, primitive, p, names[a], components[a], slots[a], &count)) return false;
        if (*slots[a] && !check_count(g, mesh_name, names[a], count, p->vertex_count)) return false;
    }
    /* TANGENT (VEC4 float) and COLOR_0 (VEC3 or VEC4; float or normalized unsigned byte / short) */
    if (!read_attribute(g, primitive, p, "TANGENT", 4, &p->tangents, &count)) return false;
    if (p->tangents && !check_count(g, mesh_name, "TANGENT", count, p->vertex_count)) return false;
    if (!read_colors(g, primitive, p, mesh_name)) return false;
    for (int s = 0; s < 2; s++) {
        char joints[16], weights[16];
        snprintf(joints, sizeof joints, "JOINTS_%d", s);
        snprintf(weights, sizeof weights, "WEIGHTS_%d", s);
        if (!read_attribute(g, primitive, p, joints, 4, &p->joints[s], &count)) return false;
        if (p->joints[s] && !check_count(g, mesh_name, joints, count, p->vertex_count)) return false;
        if (!read_attribute(g, primitive, p, weights, 4, &p->weights[s], &count)) return false;
        if (p->weights[s] && !check_count(g, mesh_name, weights, count, p->vertex_count)) return false;
        if (!p->joints[s] || !p->weights[s]) {   /* a set needs both */
            free(p->joints[s]), free(p->weights[s]);
            p->joints[s] = p->weights[s] = NULL;
        }
    }
    const cJSON *targets = gltf_item(primitive, "targets");
    p->target_count = cJSON_IsArray(targets) ? cJSON_GetArraySize(targets) : 0;
    if (p->target_count > 65536) return gltf_fail(g, "mesh '%s' has %d morph targets (at most 65536 supported)", QUOTED(mesh_name), p->target_count);
    if (p->target_count > 0) {
        p->target_positions = calloc((size_t)p->target_count, sizeof(float *));
        p->target_normals = calloc((size_t)p->target_count, sizeof(float *));
        if (!p->target_positions || !p->target_normals) return gltf_fail(g, "out of memory");
        for (int t = 0; t < p->target_count; t++) {
            const cJSON *target = cJSON_GetArrayItem(targets, t);
            const char *what[2] = {"POSITION", "NORMAL"};
            float **into[2] = {&p->target_positions[t], &p->target_normals[t]};
            for (int k = 0; k < 2; k++) {
                const cJSON *index = gltf_item(target, what[k]);
                if (!cJSON_IsNumber(index)) continue;
                if (!gltf_read_floats(g, index->valueint, 3, into[k], &count, NULL)) return false;
                if (count != p->vertex_count)
                    return gltf_fail(g, "mesh '%s': morph target %d has %d vertices, the mesh %d", QUOTED(mesh_name), t, count,
                                     p->vertex_count);
            }
        }
    }
    return build_elements(g, primitive, p, mode, mesh_name);
}

/* The skin of node `node_json` applied to mesh (vertex v of the mesh = vertex source[v] of p). */
static bool build_skin(Gltf *g, const Primitive *p, const uint32_t *source, int skin_index, Mesh *mesh)
{
    ImportStats *stats = &g->model->stats;
    const cJSON *skin = gltf_get(&g->skin_list, skin_index);
    if (!skin) return gltf_fail(g, "damaged glTF file: skin %d does not exist", skin_index);
    const cJSON *joints = gltf_item(skin, "joints");
    int joint_count = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
    if (joint_count <= 0) return true;   /* a skin without joints moves nothing: static */
    if (joint_count >= 65535) return gltf_fail(g, "skin %d has %d joints (at most 65534 supported)", skin_index, joint_count);
    int vertex_count = mesh->vertex_count;

    /* every weight finite, every joint index inside the skin */
    int *bone_of = malloc(sizeof(int) * (size_t)joint_count);
    int *skin_joint = malloc(sizeof(int) * (size_t)joint_count);
    if (!bone_of || !skin_joint) {
        free(bone_of);
        free(skin_joint);
        return gltf_fail(g, "out of memory");
    }
    bool ok = true;
    const cJSON *item = joints->child;
    for (int k = 0; k < joint_count; k++, item = item ? item->next : NULL) {
        int node = cJSON_IsNumber(item) ? item->valueint : -1;
        skin_joint[k] = node >= 0 && node < g->node_count ? g->joint_of_node[node] : -1;
        bone_of[k] = -1;
    }
    for (int v = 0; ok && v < vertex_count; v++) {
        size_t s = source[v];
        for (int set = 0; set < 2 && ok; set++) {
            if (!p->joints[set]) continue;
            for (int i = 0; i < 4; i++) {
                float w = p->weights[set][4 * s + (size_t)i], j = p->joints[set][4 * s + (size_t)i];
                if (!isfinite(w)) {
                    ok = gltf_fail(g, "mesh '%s': vertex %zu has a non-finite weight", QUOTED(mesh->name), s);
                    break;
                }
                if (!(w > 0.0f)) continue;
                if (!(j >= 0.0f && j < (float)joint_count)) {
                    ok = gltf_fail(g, "mesh '%s': vertex %zu names joint %g of a skin with %d joints", QUOTED(mesh->name), s, j,
                                   joint_count);
                    break;
                }
            }
        }
    }
    /* the inverse bind matrices: the accessor, or identities */
    float *matrices = NULL;
    if (ok && gltf_item(skin, "inverseBindMatrices")) {
        int count = 0;
        ok = gltf_read_floats(g, gltf_int(skin, "inverseBindMatrices", -1), 16, &matrices, &count, NULL);
        if (ok && count < joint_count)
            ok = gltf_fail(g, "damaged glTF file: skin %d has %d joints but %d inverse bind matrices", skin_index, joint_count,
                           count);
    }
    int bone_count = 0;
    if (ok) {
        mesh->bone_joint = malloc(sizeof(int) * ((size_t)joint_count + 1));
        mesh->inverse_bind = malloc(sizeof(mat4) * ((size_t)joint_count + 1));
        mesh->joint_indices = calloc((size_t)vertex_count, sizeof *mesh->joint_indices);
        mesh->weights = calloc((size_t)vertex_count, sizeof *mesh->weights);
        if (g->keep_more_influences && p->joints[1]) {   /* JOINTS_1: the 5th..8th kept too (--export-gltf only) */
            mesh->joint_indices_more = calloc((size_t)vertex_count, sizeof *mesh->joint_indices_more);
            mesh->weights_more = calloc((size_t)vertex_count, sizeof *mesh->weights_more);
            if (!mesh->joint_indices_more || !mesh->weights_more) ok = gltf_fail(g, "out of memory");
        }
        if (!mesh->bone_joint || !mesh->inverse_bind || !mesh->joint_indices || !mesh->weights)
            ok = gltf_fail(g, "out of memory");
    }
    for (int k = 0; ok && k < joint_count; k++) {
        if (skin_joint[k] < 0) {   /* a joint outside the scene: its weights are dropped */
            stats->bones_without_node++;
            continue;
        }
        bone_of[k] = bone_count;
        mesh->bone_joint[bone_count] = skin_joint[k];
        if (matrices) memcpy(mesh->inverse_bind[bone_count], matrices + 16 * (size_t)k, sizeof(mat4));   /* column-major */
        else glm_mat4_identity(mesh->inverse_bind[bone_count]);
        const float *m = &mesh->inverse_bind[bone_count][0][0];
        for (int i = 0; i < 16; i++)
            if (!isfinite(m[i])) {
                ok = gltf_fail(g, "bone '%s' of mesh '%s' has a non-finite inverse bind matrix",
                               QUOTED(g->model->skeleton.names[skin_joint[k]]), QUOTED(mesh->name));
                break;
            }
        bone_count++;
    }
    free(matrices);
    free(skin_joint);
    if (ok && bone_count == 0) {   /* every joint outside the scene: static after all */
        free(mesh->bone_joint), free(mesh->inverse_bind), free(mesh->joint_indices), free(mesh->weights);
        free(mesh->joint_indices_more), free(mesh->weights_more);
        mesh->bone_joint = NULL, mesh->inverse_bind = NULL, mesh->joint_indices = NULL, mesh->weights = NULL;
        mesh->joint_indices_more = NULL, mesh->weights_more = NULL;
        free(bone_of);
        return true;
    }

    /* per vertex: the four largest (renormalised below, with the unweighted ones) */
    for (int v = 0; ok && v < vertex_count; v++) {
        size_t s = source[v];
        int influences = 0;
        for (int set = 0; set < 2; set++) {
            if (!p->joints[set]) continue;
            for (int i = 0; i < 4; i++) {
                float w = p->weights[set][4 * s + (size_t)i];
                if (!(w > 0.0f)) continue;
                influences++;
                int bone = bone_of[(int)p->joints[set][4 * s + (size_t)i]];
                if (bone >= 0 && mesh->weights_more)
                    influence_keep_largest_more(mesh->joint_indices[v], mesh->weights[v], mesh->joint_indices_more[v],
                                                mesh->weights_more[v], bone, w);
                else if (bone >= 0)
                    influence_keep_largest(mesh->joint_indices[v], mesh->weights[v], bone, w);
            }
        }
        if (influences > SV_MAX_INFLUENCES) {
            stats->vertices_influences_cut++;
            if (!mesh->influences_in_file) {
                mesh->influences_in_file = calloc((size_t)vertex_count, 1);
                if (!mesh->influences_in_file) ok = gltf_fail(g, "out of memory");
            }
        }
    }
    /* influences_in_file: every vertex's count in the file (capped at 255), once some vertex lost one */
    for (int v = 0; ok && mesh->influences_in_file && v < vertex_count; v++) {
        size_t s = source[v];
        int influences = 0;
        for (int set = 0; set < 2; set++)
            for (int i = 0; p->joints[set] && i < 4; i++) influences += p->weights[set][4 * s + (size_t)i] > 0.0f;
        mesh->influences_in_file[v] = (uint8_t)(influences > 255 ? 255 : influences);
    }
    free(bone_of);
    if (!ok) return false;
    bone_count = mesh_normalize_weights(mesh, bone_count, stats);   /* renormalised; unweighted: on the mesh's node */
    mesh->bone_count = bone_count;
    mesh->skinned = true;
    glm_mat4_identity(mesh->bind_matrix);   /* glTF: the skinned mesh node's transform is ignored */
    for (int i = 0; i < bone_count; i++) g->model->skeleton.is_bone[mesh->bone_joint[i]] = true;
    return true;
}

static void set_normal(float *n, float x, float y, float z)
{
    if (isfinite(x) && isfinite(y) && isfinite(z) && (x != 0.0f || y != 0.0f || z != 0.0f)) n[0] = x, n[1] = y, n[2] = z;
    else n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
}

/* One Model Mesh from primitive p on joint node_joint. */
static bool build_mesh(Gltf *g, const Primitive *p, const cJSON *mesh_json, const cJSON *node_json, int node_joint,
                       int skin_index, int material, const char *name, Mesh *mesh)
{
    utf8_copy_valid(mesh->name, SV_NAME_MAX, name, strlen(name));
    mesh->node_joint = node_joint;
    mesh->material = material;
    glm_mat4_identity(mesh->bind_matrix);
    mesh->primitive = p->kind;
    bool triangles = p->kind == MESH_TRIANGLES;
    bool flat = !p->normals && triangles;   /* no NORMAL: one vertex per triangle corner (flat normals) */
    int vertex_count = flat ? p->index_count : p->vertex_count;
    mesh->vertex_count = vertex_count;
    mesh->index_count = p->index_count;
    uint32_t *source = malloc(sizeof(uint32_t) * ((size_t)vertex_count + 1));   /* mesh vertex -> primitive vertex */
    mesh->positions = malloc(sizeof(vec3) * ((size_t)vertex_count + 1));
    mesh->normals = malloc(sizeof(vec3) * ((size_t)vertex_count + 1));
    mesh->uvs = calloc((size_t)vertex_count + 1, sizeof(vec2));
    mesh->indices = malloc(sizeof(uint32_t) * ((size_t)mesh->index_count + 1));
    if (p->uv1) mesh->uvs2 = calloc((size_t)vertex_count + 1, sizeof(vec2));
    if (p->colors) mesh->colors = malloc(sizeof(vec4) * ((size_t)vertex_count + 1));
    bool tangents = p->tangents && p->normals && triangles;
    if (tangents) mesh->tangents = malloc(sizeof(vec4) * ((size_t)vertex_count + 1));
    if (!source || !mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices || (p->uv1 && !mesh->uvs2) ||
        (p->colors && !mesh->colors) || (tangents && !mesh->tangents)) {
        free(source);
        return gltf_fail(g, "out of memory");
    }
    for (int v = 0; v < vertex_count; v++)   /* mesh vertex -> primitive vertex: 1:1, or corner v's vertex */
        source[v] = flat ? p->elements[v] : (uint32_t)v;
    for (int i = 0; i < mesh->index_count; i++) mesh->indices[i] = flat ? (uint32_t)i : p->elements[i];
    for (int v = 0; v < vertex_count; v++) {
        size_t s = source[v];
        const float *position = p->positions + 3 * s;
        if (!(isfinite(position[0]) && isfinite(position[1]) && isfinite(position[2]))) {
            free(source);
            return gltf_fail(g, "mesh '%s' has a non-finite vertex position (vertex %zu)", QUOTED(mesh->name), s);
        }
        glm_vec3_copy((float *)position, mesh->positions[v]);
        if (p->normals) set_normal(mesh->normals[v], p->normals[3 * s], p->normals[3 * s + 1], p->normals[3 * s + 2]);
        else if (!flat) set_normal(mesh->normals[v], 0.0f, 0.0f, 0.0f);   /* lines and points without NORMAL: +Y */
        /* glTF's UV origin is the image's top-left, skinview's (and Assimp's) the bottom-left: v' = 1 - v */
        if (p->uv0 && isfinite(p->uv0[2 * s]) && isfinite(p->uv0[2 * s + 1]))
            mesh->uvs[v][0] = p->uv0[2 * s], mesh->uvs[v][1] = 1.0f - p->uv0[2 * s + 1];
        if (p->uv1 && isfinite(p->uv1[2 * s]) && isfinite(p->uv1[2 * s + 1]))
            mesh->uvs2[v][0] = p->uv1[2 * s], mesh->uvs2[v][1] = 1.0f - p->uv1[2 * s + 1];
        if (mesh->colors) glm_vec4_copy(p->colors + 4 * s, mesh->colors[v]);
        if (mesh->tangents) {   /* glTF: only with NORMAL (generated normals get generated tangents) */
            const float *t = p->tangents + 4 * s;
            bool finite = isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2]);
            glm_vec4_copy(finite ? (float *)t : (vec4){1.0f, 0.0f, 0.0f, 1.0f}, mesh->tangents[v]);
            mesh->tangents[v][3] = t[3] < 0.0f ? -1.0f : 1.0f;
        }
    }
    if (flat) {   /* no normals in the file: each corner gets its triangle's normal */
        for (int t = 0; t < mesh->index_count / 3; t++) {
            float *a = mesh->positions[3 * t], *b = mesh->positions[3 * t + 1], *c = mesh->positions[3 * t + 2];
            vec3 ab, ac, n;
            glm_vec3_sub(b, a, ab);
            glm_vec3_sub(c, a, ac);
            glm_vec3_cross(ab, ac, n);   /* (b - a) x (c - a): counter-clockwise front face, as glTF winds */
            float length = glm_vec3_norm(n);
            if (length > 0.0f && isfinite(length)) glm_vec3_scale(n, 1.0f / length, n);
            for (int k = 0; k < 3; k++) set_normal(mesh->normals[3 * t + k], n[0], n[1], n[2]);
        }
    }

    /* morph targets: deltas as stored */
    if (p->target_count > 0) {
        size_t targets = (size_t)p->target_count, vertices = (size_t)vertex_count;
        if ((unsigned long long)targets * vertices * sizeof(vec3) > (1ull << 31)) {
            free(source);
            return gltf_fail(g, "mesh '%s': %zu morph targets x %zu vertices is too large", QUOTED(mesh->name), targets, vertices);
        }
        mesh->morph_target_names = calloc(targets, sizeof *mesh->morph_target_names);
        mesh->morph_position_deltas = calloc(targets * vertices + 1, sizeof(vec3));
        mesh->morph_normal_deltas = calloc(targets * vertices + 1, sizeof(vec3));
        mesh->morph_default_weights = calloc(targets, sizeof(float));
        if (!mesh->morph_target_names || !mesh->morph_position_deltas || !mesh->morph_normal_deltas ||
            !mesh->morph_default_weights) {
            free(source);
            return gltf_fail(g, "out of memory");
        }
        mesh->morph_target_count = (int)targets;
        const cJSON *names = gltf_item(gltf_item(mesh_json, "extras"), "targetNames");
        const cJSON *node_weights = gltf_item(node_json, "weights"), *mesh_weights = gltf_item(mesh_json, "weights");
        const cJSON *defaults = cJSON_IsArray(node_weights) && cJSON_GetArraySize(node_weights) == (int)targets ? node_weights
                                : cJSON_IsArray(mesh_weights) ? mesh_weights : NULL;
        for (size_t t = 0; t < targets; t++) {
            const cJSON *target_name = gltf_at(names, (int)t);
            if (cJSON_IsString(target_name))
                utf8_copy_valid(mesh->morph_target_names[t], SV_NAME_MAX, target_name->valuestring,
                                strlen(target_name->valuestring));
            const cJSON *w = gltf_at(defaults, (int)t);
            mesh->morph_default_weights[t] = cJSON_IsNumber(w) && isfinite(w->valuedouble) ? (float)w->valuedouble : 0.0f;
            for (size_t v = 0; v < vertices; v++) {
                size_t s = source[v];
                const float *dp = p->target_positions[t] ? p->target_positions[t] + 3 * s : NULL;
                const float *dn = p->target_normals[t] ? p->target_normals[t] + 3 * s : NULL;
                if (dp && !(isfinite(dp[0]) && isfinite(dp[1]) && isfinite(dp[2]))) {
                    free(source);
                    return gltf_fail(g, "mesh '%s': morph target %zu has a non-finite position", QUOTED(mesh->name), t);
                }
                if (dp) glm_vec3_copy((float *)dp, mesh->morph_position_deltas[t * vertices + v]);
                if (dn && isfinite(dn[0]) && isfinite(dn[1]) && isfinite(dn[2]))
                    glm_vec3_copy((float *)dn, mesh->morph_normal_deltas[t * vertices + v]);
            }
        }
    }
    bool ok = true;
    if (skin_index >= 0 && p->joints[0]) ok = build_skin(g, p, source, skin_index, mesh);
    free(source);
    return ok;
}

static bool append_mesh(Gltf *g, int *capacity, Mesh **out)
{
    Model *model = g->model;
    if (model->mesh_count == *capacity) {
        int grown = *capacity ? 2 * *capacity : 16;
        if (grown > 1000000) return gltf_fail(g, "too many mesh instances (%d)", model->mesh_count);
        Mesh *bigger = realloc(model->meshes, sizeof *bigger * (size_t)grown);
        if (!bigger) return gltf_fail(g, "out of memory");
        memset(bigger + *capacity, 0, sizeof *bigger * (size_t)(grown - *capacity));
        model->meshes = bigger;
        *capacity = grown;
    }
    *out = &model->meshes[model->mesh_count++];
    return true;
}

bool gltf_meshes(Gltf *g)
{
    Model *model = g->model;
    int capacity = 0;
    int material_count = cJSON_IsArray(g->materials) ? cJSON_GetArraySize(g->materials) : 0;
    for (int j = 0; j < model->skeleton.joint_count; j++) {
        int n = g->node_of_joint[j];
        const cJSON *node = n >= 0 ? gltf_get(&g->node_list, n) : NULL;
        if (!gltf_item(node, "mesh")) continue;
        int mesh_index = gltf_int(node, "mesh", -1);
        const cJSON *mesh_json = gltf_get(&g->mesh_list, mesh_index);
        if (!mesh_json) return gltf_fail(g, "node '%s' references mesh %d of %d", QUOTED(model->skeleton.names[j]), mesh_index, g->mesh_count);
        int skin_index = gltf_item(node, "skin") ? gltf_int(node, "skin", -1) : -1;
        if (gltf_item(node, "skin") && !gltf_get(&g->skin_list, skin_index))
            return gltf_fail(g, "damaged glTF file: node '%s' references skin %d", QUOTED(model->skeleton.names[j]), skin_index);
        const cJSON *primitives = gltf_item(mesh_json, "primitives");
        int primitive_count = cJSON_IsArray(primitives) ? cJSON_GetArraySize(primitives) : 0;
        const char *mesh_name = gltf_string(mesh_json, "name");
        char base[SV_NAME_MAX];
        if (mesh_name && mesh_name[0]) snprintf(base, sizeof base, "%s", mesh_name);
        else snprintf(base, sizeof base, "meshes[%d]", mesh_index);
        for (int k = 0; k < primitive_count; k++) {
            const cJSON *primitive = cJSON_GetArrayItem(primitives, k);
            int mode = gltf_int(primitive, "mode", 4);
            if (mode < 0 || mode > 6) continue;   /* not a glTF mode: nothing to draw */
            char name[SV_NAME_MAX + 16];
            if (primitive_count > 1) snprintf(name, sizeof name, "%s-%d", base, k);
            else snprintf(name, sizeof name, "%s", base);
            Primitive p;
            if (!read_primitive(g, primitive, &p, mode, name)) {
                primitive_free(&p);
                return false;
            }
            if (!p.positions || p.index_count == 0) {   /* nothing to draw */
                primitive_free(&p);
                continue;
            }
            int material = gltf_item(primitive, "material") ? gltf_int(primitive, "material", -1) : material_count;
            if (material < 0 || material > material_count) material = material_count;   /* the default material */
            Mesh *mesh = NULL;
            bool ok = append_mesh(g, &capacity, &mesh) &&
                      build_mesh(g, &p, mesh_json, node, j, skin_index, material, name, mesh);
            primitive_free(&p);
            if (!ok) return false;
        }
    }
    if (model->mesh_count == 0) return gltf_fail(g, "no meshes in the file");
    return true;
}
