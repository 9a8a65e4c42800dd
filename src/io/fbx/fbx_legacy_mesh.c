/* fbx_legacy_mesh.c — the meshes of a Model built from the FBX scene graph alone (FBX 5.0–6.1).
 *
 * Rules of this step (fbx_import.h has the contract):
 *   - Meshes: one per (Model, Geometry, material used). Every polygon-vertex is a vertex (the FBX
 *     control point it came from kept in the map); a polygon ends at a negative index (-1 - i is
 *     the last control point i) and becomes a fan of triangles (p0, pk, pk+1).
 *   - Normals / UVs: the first LayerElementNormal / LayerElementUV (FBX 5: the Model's Normals,
 *     GeometryUVInfo TextureUV + TextureUVVerticeIndex), by MappingInformationType
 *     ByPolygonVertex | ByVertice (ByVertex, ByControlPoint) | ByPolygon | AllSame and
 *     ReferenceInformationType Direct | IndexToDirect (Index). An element whose data or index array
 *     has one entry per polygon-vertex is read per polygon-vertex whatever it says (FBX 5 writes
 *     "ByPolygon" for per-corner UVs). No normals: smooth ones, the area-weighted face normals
 *     summed per control point.
 *   - Skins: Skin deformers of the Geometry, their Clusters, each cluster's bone = the Model
 *     connected to it. Indexes / Weights per control point; each vertex keeps its four largest
 *     weights, renormalised to 1. The file's Transform is mesh space -> bone space at bind time
 *     (the inverse bind matrix itself) and TransformLink the bone's global matrix then (FBX
 *     matrices are stored column by column, translation in 12..14; TransformLink * Transform is the
 *     mesh's matrix at bind time). A cluster with TransformLink only gets TransformLink^-1, one with
 *     neither the identity (the FBX transform stage falls back to the bind pose / rest pose). The
 *     mesh's N is its node's rest scene matrix, as for every file (model.h).
 *     Vertices no cluster weights follow the mesh's node (an extra bone, identity inverse bind).
 */
#include "fbx_legacy_mesh.h"

/* ---------------------------------------------------------------- layer elements */

typedef enum Mapping { MAP_NONE, MAP_POLYGON_VERTEX, MAP_CONTROL_POINT, MAP_POLYGON, MAP_ALL_SAME } Mapping;

/* One per-vertex attribute as the file stores it. */
typedef struct Element {
    Mapping        mapping;
    const double  *data;
    size_t         data_count;    /* numbers */
    int            width;         /* numbers per item: 3 normals, 2 UVs */
    const int64_t *index;         /* IndexToDirect: item per mapped slot; NULL: Direct */
    size_t         index_count;
} Element;

static Mapping mapping_of(const char *name)
{
    if (strcasecmp(name, "ByPolygonVertex") == 0) return MAP_POLYGON_VERTEX;
    if (strcasecmp(name, "ByVertice") == 0 || strcasecmp(name, "ByVertex") == 0 || strcasecmp(name, "ByControlPoint") == 0)
        return MAP_CONTROL_POINT;
    if (strcasecmp(name, "ByPolygon") == 0) return MAP_POLYGON;
    if (strcasecmp(name, "AllSame") == 0) return MAP_ALL_SAME;
    return MAP_NONE;
}

/* Reads an element record (LayerElementNormal, GeometryUVInfo …): its data array `data_name` and
 * index array `index_name`. polygon_vertices: the mesh's count (see the FBX 5 rule above). */
static Element read_element(FbxDocument *doc, const FbxRecord *r, const char *data_name, const char *index_name, int width,
                            size_t polygon_vertices, size_t polygons)
{
    Element e = {.mapping = MAP_NONE, .width = width};
    if (!r) return e;
    e.mapping = mapping_of(fbx_legacy_record_string(fbx_record_child(r, "MappingInformationType")));
    e.data = fbx_record_reals(doc, fbx_record_child(r, data_name), &e.data_count);
    const char *reference = fbx_legacy_record_string(fbx_record_child(r, "ReferenceInformationType"));
    const FbxRecord *index_record = index_name ? fbx_record_child(r, index_name) : NULL;
    if (index_record && strcasecmp(reference, "Direct") != 0) e.index = fbx_record_integers(doc, index_record, &e.index_count);
    size_t items = e.data_count / (size_t)width;
    if (!e.data || items == 0) e.mapping = MAP_NONE;
    /* one entry per polygon-vertex (index or data): per polygon-vertex, whatever the mapping says */
    if (e.mapping != MAP_NONE && e.mapping != MAP_CONTROL_POINT && polygon_vertices != polygons &&
        ((e.index && e.index_count == polygon_vertices) || (!e.index && items == polygon_vertices)))
        e.mapping = MAP_POLYGON_VERTEX;
    return e;
}

/* The element's item for one polygon-vertex: `out` (width numbers); false if it has none. */
static bool element_item(const Element *e, size_t polygon_vertex, size_t control_point, size_t polygon, float *out)
{
    size_t slot;
    switch (e->mapping) {
    case MAP_POLYGON_VERTEX: slot = polygon_vertex; break;
    case MAP_CONTROL_POINT: slot = control_point; break;
    case MAP_POLYGON: slot = polygon; break;
    case MAP_ALL_SAME: slot = 0; break;
    default: return false;
    }
    if (e->index) {
        if (slot >= e->index_count || e->index[slot] < 0) return false;
        slot = (size_t)e->index[slot];
    }
    if (slot >= e->data_count / (size_t)e->width) return false;
    for (int k = 0; k < e->width; k++) {
        double v = e->data[slot * (size_t)e->width + (size_t)k];
        out[k] = isfinite(v) ? (float)v : 0.0f;
    }
    return true;
}

/* The first child named `name` whose first value is 0 (the layer 0 element), else the first. */
static const FbxRecord *layer_zero(const FbxRecord *geometry, const char *name)
{
    const FbxRecord *first = NULL;
    for (int i = 0; i < geometry->child_count; i++) {
        const FbxRecord *r = &geometry->children[i];
        if (strcmp(r->name, name) != 0) continue;
        if (!first) first = r;
        if (r->value_count > 0 && r->values[0].type == FBX_VALUE_INTEGER && r->values[0].integer == 0) return r;
    }
    return first;
}

/* ---------------------------------------------------------------- meshes */

/* The Model's materials in connection order (as LayerElementMaterial indexes them). */
static int model_materials(const Legacy *l, int model_object, int *out, int capacity)
{
    int n = 0;
    for (int k = 0, c; (c = fbx_connection_to(l->scene, model_object, k)) >= 0; k++) {
        int src = l->scene->connections[c].src;
        if (fbx_legacy_is_kind(l->scene, src, "Material") && n < capacity) out[n++] = l->material_of_object[src];
    }
    return n;
}

/* One control point's skin influences, gathered from every cluster. */
typedef struct Influence {
    int   bone;
    float weight;
} Influence;

typedef struct Skin {
    int        bone_count;
    int       *bone_joint;
    int       *bone_cluster;
    mat4      *inverse_bind;
    int       *first;          /* [control_point + 1] offsets into influences */
    Influence *influences;
} Skin;

static void skin_free(Skin *skin)
{
    free(skin->bone_joint), free(skin->bone_cluster), free(skin->inverse_bind), free(skin->first), free(skin->influences);
    memset(skin, 0, sizeof *skin);
}

/* A cluster matrix record (16 numbers, column by column) into m; false if it has no 16 finite ones. */
static bool cluster_matrix(FbxDocument *doc, const FbxRecord *cluster, const char *name, mat4 m)
{
    size_t n;
    const double *v = fbx_record_reals(doc, fbx_record_child(cluster, name), &n);
    if (!v || n < 16) return false;
    for (int i = 0; i < 16; i++)
        if (!isfinite(v[i])) return false;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) m[c][r] = (float)v[4 * c + r];
    return true;
}

static bool read_skin(Legacy *l, int geometry, size_t control_points, Skin *skin)
{
    const FbxScene *s = l->scene;
    FbxDocument *doc = (FbxDocument *)&s->doc;
    memset(skin, 0, sizeof *skin);
    int clusters = 0;
    for (int k = 0, c; (c = fbx_connection_to(s, geometry, k)) >= 0; k++) {
        int deformer = s->connections[c].src;
        if (!fbx_legacy_is_kind(s, deformer, "Deformer") || strcmp(s->objects[deformer].subclass, "Skin") != 0) continue;
        for (int i = 0, d; (d = fbx_connection_to(s, deformer, i)) >= 0; i++)
            if (fbx_legacy_is_kind(s, s->connections[d].src, "Deformer") && strcmp(s->objects[s->connections[d].src].subclass, "Cluster") == 0)
                clusters++;
    }
    if (clusters == 0) return true;
    skin->bone_joint = malloc((size_t)clusters * sizeof *skin->bone_joint);
    skin->bone_cluster = malloc((size_t)clusters * sizeof *skin->bone_cluster);
    skin->inverse_bind = malloc((size_t)(clusters + 1) * sizeof *skin->inverse_bind);
    skin->first = calloc(control_points + 2, sizeof *skin->first);
    if (!skin->bone_joint || !skin->bone_cluster || !skin->inverse_bind || !skin->first) return fbx_legacy_fail(l, "out of memory%s", NULL);
    /* two passes over the clusters' weights: count per control point, then fill */
    for (int pass = 0; pass < 2; pass++) {
        int *fill = NULL;
        if (pass == 1) {
            for (size_t cp = 0; cp < control_points; cp++) skin->first[cp + 1] += skin->first[cp];
            size_t total = (size_t)skin->first[control_points];
            skin->influences = malloc((total ? total : 1) * sizeof *skin->influences);
            fill = calloc(control_points + 1, sizeof *fill);
            if (!skin->influences || !fill) {
                free(fill);
                return fbx_legacy_fail(l, "out of memory%s", NULL);
            }
        }
        skin->bone_count = 0;
        for (int k = 0, c; (c = fbx_connection_to(s, geometry, k)) >= 0; k++) {
            int deformer = s->connections[c].src;
            if (!fbx_legacy_is_kind(s, deformer, "Deformer") || strcmp(s->objects[deformer].subclass, "Skin") != 0) continue;
            for (int i = 0, d; (d = fbx_connection_to(s, deformer, i)) >= 0; i++) {
                int cluster = s->connections[d].src;
                if (!fbx_legacy_is_kind(s, cluster, "Deformer") || strcmp(s->objects[cluster].subclass, "Cluster") != 0) continue;
                int bone = -1;
                for (int b = 0, e; bone < 0 && (e = fbx_connection_to(s, cluster, b)) >= 0; b++)
                    if (fbx_legacy_is_kind(s, s->connections[e].src, "Model")) bone = s->connections[e].src;
                if (bone < 0 || l->joint_of_object[bone] < 0) continue;
                int index = skin->bone_count++;
                const FbxRecord *r = s->objects[cluster].record;
                if (pass == 1) {
                    skin->bone_joint[index] = l->joint_of_object[bone];
                    skin->bone_cluster[index] = cluster;
                    l->model->skeleton.is_bone[skin->bone_joint[index]] = true;
                    /* Transform = mesh space -> bone space at bind time (the inverse bind itself);
                     * TransformLink = the bone's global matrix then; their product the mesh's (N) */
                    mat4 transform, link;
                    bool has_transform = cluster_matrix(doc, r, "Transform", transform);
                    bool has_link = cluster_matrix(doc, r, "TransformLink", link);
                    if (has_transform) glm_mat4_copy(transform, skin->inverse_bind[index]);
                    else if (has_link) glm_mat4_inv(link, skin->inverse_bind[index]);
                    else glm_mat4_identity(skin->inverse_bind[index]);
                }
                size_t n, wn;
                const int64_t *indexes = fbx_record_integers(doc, fbx_record_child(r, "Indexes"), &n);
                const double *weights = fbx_record_reals(doc, fbx_record_child(r, "Weights"), &wn);
                if (wn < n) n = wn;
                for (size_t i2 = 0; i2 < n; i2++) {
                    if (indexes[i2] < 0 || (size_t)indexes[i2] >= control_points || !(weights[i2] > 0) || !isfinite(weights[i2])) continue;
                    size_t cp = (size_t)indexes[i2];
                    if (pass == 0) skin->first[cp + 1]++;
                    else skin->influences[skin->first[cp] + fill[cp]++] = (Influence){index, (float)weights[i2]};
                }
            }
        }
        free(fill);
    }
    return true;
}

/* A mesh for (model, geometry) with the polygons of material slot `slot` (-1: all). */
static bool build_mesh(Legacy *l, int model_object, int geometry, int slot_filter, const int *polygon_slot, int material,
                       const Skin *skin)
{
    const FbxScene *s = l->scene;
    FbxDocument *doc = (FbxDocument *)&s->doc;
    const FbxRecord *g = s->objects[geometry].record;
    size_t point_numbers, pv_count;
    const double *points = fbx_record_reals(doc, fbx_record_child(g, "Vertices"), &point_numbers);
    const int64_t *pvi = fbx_record_integers(doc, fbx_record_child(g, "PolygonVertexIndex"), &pv_count);
    size_t control_points = point_numbers / 3;
    /* count this mesh's polygon-vertices and triangles */
    size_t vertices = 0, triangles = 0, polygon = 0, corners = 0;
    for (size_t i = 0; i < pv_count; i++) {
        corners++;
        if (pvi[i] < 0 || i + 1 == pv_count) {
            if (slot_filter < 0 || polygon_slot[polygon] == slot_filter) {
                vertices += corners;
                if (corners >= 3) triangles += corners - 2;
            }
            corners = 0;
            polygon++;
        }
    }
    if (triangles == 0) return true;
    if (vertices > (size_t)INT32_MAX / 4 || triangles > (size_t)INT32_MAX / 4) return fbx_legacy_fail(l, "FBX: mesh too large%s", NULL);
    Model *model = l->model;
    Mesh *grown = realloc(model->meshes, (size_t)(model->mesh_count + 1) * sizeof *grown);
    if (!grown) return fbx_legacy_fail(l, "out of memory%s", NULL);
    model->meshes = grown;
    int m = model->mesh_count;
    Mesh *mesh = &model->meshes[m];
    memset(mesh, 0, sizeof *mesh);
    model->mesh_count++;
    /* the map grows with the meshes */
    int *mo = realloc(l->map->mesh_model_object, (size_t)(m + 1) * sizeof *mo);
    if (mo) l->map->mesh_model_object = mo;
    int *go = realloc(l->map->mesh_geometry_object, (size_t)(m + 1) * sizeof *go);
    if (go) l->map->mesh_geometry_object = go;
    int **cp_map = realloc(l->map->mesh_control_point, (size_t)(m + 1) * sizeof *cp_map);
    if (cp_map) l->map->mesh_control_point = cp_map;
    int **cl_map = realloc(l->map->mesh_bone_cluster, (size_t)(m + 1) * sizeof *cl_map);
    if (cl_map) l->map->mesh_bone_cluster = cl_map;
    if (!mo || !go || !cp_map || !cl_map) return fbx_legacy_fail(l, "out of memory%s", NULL);
    l->map->mesh_count = m + 1;
    l->map->mesh_model_object[m] = model_object;
    l->map->mesh_geometry_object[m] = geometry;
    l->map->mesh_control_point[m] = NULL;
    l->map->mesh_bone_cluster[m] = NULL;

    const char *name = s->objects[model_object].name;
    utf8_copy_valid(mesh->name, SV_NAME_MAX, name, strlen(name));
    mesh->node_joint = l->joint_of_object[model_object];
    mesh->material = material;
    mesh->vertex_count = (int)vertices;
    mesh->index_count = (int)(triangles * 3);
    mesh->positions = malloc(vertices * sizeof *mesh->positions);
    mesh->normals = calloc(vertices, sizeof *mesh->normals);
    mesh->uvs = calloc(vertices, sizeof *mesh->uvs);
    mesh->indices = malloc(triangles * 3 * sizeof *mesh->indices);
    int *control_point = malloc(vertices * sizeof *control_point);
    l->map->mesh_control_point[m] = control_point;
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices || !control_point) return fbx_legacy_fail(l, "out of memory%s", NULL);

    size_t polygons = polygon;
    const FbxRecord *normal_record = layer_zero(g, "LayerElementNormal");
    Element normals = normal_record ? read_element(doc, normal_record, "Normals", "NormalsIndex", 3, pv_count, polygons)
                                    : (Element){.mapping = MAP_NONE, .width = 3};
    if (!normal_record && fbx_record_child(g, "Normals")) {   /* FBX 5: the Model's Normals, per control point */
        normals.data = fbx_record_reals(doc, fbx_record_child(g, "Normals"), &normals.data_count);
        normals.mapping = normals.data_count / 3 == pv_count && pv_count != control_points ? MAP_POLYGON_VERTEX : MAP_CONTROL_POINT;
    }
    const FbxRecord *uv_record = layer_zero(g, "LayerElementUV");
    Element uvs = uv_record ? read_element(doc, uv_record, "UV", "UVIndex", 2, pv_count, polygons)
                            : read_element(doc, fbx_record_child(g, "GeometryUVInfo"), "TextureUV", "TextureUVVerticeIndex", 2,
                                           pv_count, polygons);
    if (!uv_record && uvs.mapping != MAP_NONE && !uvs.index) {   /* FBX 5 writes no ReferenceInformationType */
        const FbxRecord *info = fbx_record_child(g, "GeometryUVInfo");
        uvs.index = fbx_record_integers(doc, fbx_record_child(info, "TextureUVVerticeIndex"), &uvs.index_count);
        if (uvs.index && uvs.index_count == pv_count) uvs.mapping = MAP_POLYGON_VERTEX;
    }
    bool have_normals = normals.mapping != MAP_NONE;

    size_t v = 0, t = 0, start = 0;
    polygon = 0;
    for (size_t i = 0; i < pv_count; i++) {
        if (!(pvi[i] < 0 || i + 1 == pv_count)) continue;
        size_t n = i + 1 - start;
        if (slot_filter < 0 || polygon_slot[polygon] == slot_filter) {
            size_t first = v;
            for (size_t k = 0; k < n; k++) {
                int64_t raw = pvi[start + k];
                int64_t cp = raw < 0 ? -1 - raw : raw;   /* a polygon's last index is stored as -1 - i */
                if (cp < 0 || (size_t)cp >= control_points) cp = 0;
                control_point[v] = (int)cp;
                for (int c = 0; c < 3; c++) {
                    double p = control_points ? points[3 * (size_t)cp + (size_t)c] : 0;
                    mesh->positions[v][c] = isfinite(p) ? (float)p : 0.0f;
                }
                if (have_normals) element_item(&normals, start + k, (size_t)cp, polygon, mesh->normals[v]);
                element_item(&uvs, start + k, (size_t)cp, polygon, mesh->uvs[v]);
                v++;
            }
            for (size_t k = 1; k + 1 < n; k++) {   /* fan (p0, pk, pk+1) */
                mesh->indices[t++] = (uint32_t)first;
                mesh->indices[t++] = (uint32_t)(first + k);
                mesh->indices[t++] = (uint32_t)(first + k + 1);
            }
        }
        start = i + 1;
        polygon++;
    }
    if (!have_normals) {   /* smooth normals: area-weighted face normals summed per control point */
        vec3 *sum = calloc(control_points ? control_points : 1, sizeof *sum);
        if (!sum) return fbx_legacy_fail(l, "out of memory%s", NULL);
        for (size_t k = 0; k + 2 < (size_t)mesh->index_count; k += 3) {
            uint32_t a = mesh->indices[k], b = mesh->indices[k + 1], c = mesh->indices[k + 2];
            vec3 e1, e2, n;
            glm_vec3_sub(mesh->positions[b], mesh->positions[a], e1);
            glm_vec3_sub(mesh->positions[c], mesh->positions[a], e2);
            glm_vec3_cross(e1, e2, n);   /* |n| = twice the triangle's area */
            for (int q = 0; q < 3; q++) glm_vec3_add(sum[control_point[mesh->indices[k + (size_t)q]]], n, sum[control_point[mesh->indices[k + (size_t)q]]]);
        }
        for (size_t k = 0; k < vertices; k++) {
            glm_vec3_copy(sum[control_point[k]], mesh->normals[k]);
            float len = glm_vec3_norm(mesh->normals[k]);
            if (len > 0 && isfinite(len)) glm_vec3_scale(mesh->normals[k], 1.0f / len, mesh->normals[k]);
            else glm_vec3_copy((vec3){0, 0, 1}, mesh->normals[k]);
        }
        free(sum);
    }
    glm_mat4_identity(mesh->bind_matrix);

    if (skin->bone_count > 0) {   /* the four largest weights per vertex, renormalised (eight when asked) */
        int bones = skin->bone_count;
        bool any_unweighted = false, any_fifth = false;
        int slots = l->keep_more_influences ? SV_MAX_INFLUENCES_KEPT : SV_MAX_INFLUENCES;
        mesh->joint_indices = calloc(vertices, sizeof *mesh->joint_indices);
        mesh->weights = calloc(vertices, sizeof *mesh->weights);
        if (l->keep_more_influences) {   /* the 5th..8th: for --export-gltf --max-influences 8 only */
            mesh->joint_indices_more = calloc(vertices, sizeof *mesh->joint_indices_more);
            mesh->weights_more = calloc(vertices, sizeof *mesh->weights_more);
            if (!mesh->joint_indices_more || !mesh->weights_more) return fbx_legacy_fail(l, "out of memory%s", NULL);
        }
        mesh->bone_joint = malloc((size_t)(bones + 1) * sizeof *mesh->bone_joint);
        mesh->inverse_bind = malloc((size_t)(bones + 1) * sizeof *mesh->inverse_bind);
        int *clusters = malloc((size_t)(bones + 1) * sizeof *clusters);
        l->map->mesh_bone_cluster[m] = clusters;
        if (!mesh->joint_indices || !mesh->weights || !mesh->bone_joint || !mesh->inverse_bind || !clusters)
            return fbx_legacy_fail(l, "out of memory%s", NULL);
        memcpy(mesh->bone_joint, skin->bone_joint, (size_t)bones * sizeof *mesh->bone_joint);
        memcpy(mesh->inverse_bind, skin->inverse_bind, (size_t)bones * sizeof *mesh->inverse_bind);
        memcpy(clusters, skin->bone_cluster, (size_t)bones * sizeof *clusters);
        for (size_t k = 0; k < vertices; k++) {
            int cp = control_point[k];
            Influence best[SV_MAX_INFLUENCES_KEPT] = {{0, 0}};
            int kept = 0, in_file = 0;
            for (int q = skin->first[cp]; q < skin->first[cp + 1]; q++) {
                Influence in = skin->influences[q];
                in_file++;
                int at;
                if (kept < slots) at = kept++;
                else if (in.weight > best[slots - 1].weight) at = slots - 1;
                else continue;
                best[at] = in;
                for (int z = at; z > 0 && best[z - 1].weight < best[z].weight; z--) {   /* largest first */
                    Influence swap = best[z];
                    best[z] = best[z - 1];
                    best[z - 1] = swap;
                }
            }
            float sum = 0;   /* of the four the renderer draws; the 5th..8th share the divisor (model.h) */
            for (int q = 0; q < kept && q < SV_MAX_INFLUENCES; q++) sum += best[q].weight;
            if (in_file > SV_MAX_INFLUENCES) model->stats.vertices_influences_cut++;
            if (!(sum > 0)) {
                any_unweighted = true;
                mesh->joint_indices[k][0] = (uint16_t)bones;   /* the mesh node's bone, added below */
                mesh->weights[k][0] = 1.0f;
                model->stats.vertices_unweighted++;
                continue;
            }
            if (fabsf(sum - 1.0f) > 1e-4f) model->stats.vertices_renormalized++;
            for (int q = 0; q < kept && q < SV_MAX_INFLUENCES; q++) {
                mesh->joint_indices[k][q] = (uint16_t)best[q].bone;
                mesh->weights[k][q] = best[q].weight / sum;   /* w_i / sum of the kept */
            }
            for (int q = SV_MAX_INFLUENCES; q < kept; q++) {
                mesh->joint_indices_more[k][q - SV_MAX_INFLUENCES] = (uint16_t)best[q].bone;
                mesh->weights_more[k][q - SV_MAX_INFLUENCES] = best[q].weight / sum;
                any_fifth = true;
            }
        }
        if (!any_fifth) {   /* as mesh_normalize_weights: the arrays only when some vertex has a 5th */
            free(mesh->joint_indices_more), free(mesh->weights_more);
            mesh->joint_indices_more = NULL, mesh->weights_more = NULL;
        }
        mesh->bone_count = bones;
        if (any_unweighted) {   /* the mesh's node, identity inverse bind (model.h) */
            mesh->bone_joint[bones] = mesh->node_joint;
            glm_mat4_identity(mesh->inverse_bind[bones]);
            clusters[bones] = -1;
            model->skeleton.is_bone[mesh->node_joint] = true;
            mesh->bone_count++;
        }
        mesh->skinned = true;
        /* N: the mesh node's rest scene matrix (model.h; the --clip bind definition) */
        const Skeleton *sk = &model->skeleton;
        glm_mat4_identity(mesh->bind_matrix);
        for (int j = mesh->node_joint; j >= 0; j = sk->parent[j]) glm_mat4_mul(sk->rest_local[j], mesh->bind_matrix, mesh->bind_matrix);
    }
    return true;
}

bool fbx_legacy_build_meshes(Legacy *l)
{
    const FbxScene *s = l->scene;
    FbxDocument *doc = (FbxDocument *)&s->doc;
    for (int j = 0; j < l->map->joint_count; j++) {
        int model_object = l->map->joint_object[j];
        for (int k = 0, c; (c = fbx_connection_to(s, model_object, k)) >= 0; k++) {
            int geometry = s->connections[c].src;
            if (s->connections[c].property || !fbx_legacy_is_kind(s, geometry, "Geometry") || strcmp(s->objects[geometry].subclass, "Shape") == 0)
                continue;
            const FbxRecord *g = s->objects[geometry].record;
            size_t pv_count, point_numbers;
            const int64_t *pvi = fbx_record_integers(doc, fbx_record_child(g, "PolygonVertexIndex"), &pv_count);
            fbx_record_reals(doc, fbx_record_child(g, "Vertices"), &point_numbers);
            if (!pvi || pv_count == 0 || point_numbers < 3) continue;
            if (pv_count > FBX_LEGACY_MAX_POLYGON_VERTICES) return fbx_legacy_fail(l, "FBX: mesh '%s' is too large", QUOTED(s->objects[model_object].name));
            size_t polygons = 0;
            for (size_t i = 0; i < pv_count; i++) polygons += pvi[i] < 0 || i + 1 == pv_count;
            /* per polygon: its material slot (LayerElementMaterial; FBX 5: Materials) */
            int *slot = calloc(polygons, sizeof *slot);
            if (!slot) return fbx_legacy_fail(l, "out of memory%s", NULL);
            const FbxRecord *layer = layer_zero(g, "LayerElementMaterial");
            size_t mc = 0;
            const int64_t *materials = fbx_record_integers(doc, fbx_record_child(layer ? layer : g, "Materials"), &mc);
            const char *assignment = fbx_legacy_record_string(fbx_record_child(layer ? layer : g, layer ? "MappingInformationType" : "MaterialAssignation"));
            bool by_polygon = mc >= polygons && strcasecmp(assignment, "AllSame") != 0;
            for (size_t p = 0; p < polygons; p++) {
                int64_t value = by_polygon ? materials[p] : mc > 0 ? materials[0] : 0;
                slot[p] = value >= 0 && value < 4096 ? (int)value : 0;
            }
            int model_material[4096];
            int material_count = model_materials(l, model_object, model_material, 4096);
            Skin skin;
            bool ok = read_skin(l, geometry, point_numbers / 3, &skin);
            /* one mesh per slot used, in slot order */
            int max_slot = 0;
            for (size_t p = 0; p < polygons; p++)
                if (slot[p] > max_slot) max_slot = slot[p];
            for (int sl = 0; ok && sl <= max_slot; sl++) {
                bool used = false;
                for (size_t p = 0; p < polygons && !used; p++) used = slot[p] == sl;
                if (!used) continue;
                int material = sl < material_count ? model_material[sl] : -1;
                ok = build_mesh(l, model_object, geometry, max_slot == 0 ? -1 : sl, slot, material, &skin);
            }
            skin_free(&skin);
            free(slot);
            if (!ok) return false;
        }
    }
    return true;
}
