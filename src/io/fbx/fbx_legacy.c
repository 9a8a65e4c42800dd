/* fbx_legacy.c — a Model from the FBX scene graph alone, for the files Assimp refuses (FBX 5.0–6.1).
 *
 * Rules (fbx_import.h has the contract):
 *   - Joints: joint 0 the scene root ("RootNode", no Model: map -1), then every Model object,
 *     parents before children (breadth first from the scene root, in file order). Rest transforms: T * Rz * Ry * Rx * S from Lcl Translation / Rotation /
 *     Scaling only, a stand-in that the FBX transform stage replaces by the full formula.
 *   - Meshes, normals, UVs and skins: fbx_legacy_mesh.c (its rules at its top).
 *   - Materials: LayerElementMaterial (AllSame or ByPolygon) picks among the Model's connected
 *     Material objects, in connection order. Colour: DiffuseColor (FBX 6: also Diffuse). Texture:
 *     a Texture connected to the material (7.x: its DiffuseColor), else to the Model (FBX 6); its
 *     file from RelativeFilename, else FileName / Filename, else its Video's (left in the map for
 *     the import to load).
 */
#include "fbx_legacy_common.h"
#include "fbx_legacy_mesh.h"

/* ---------------------------------------------------------------- the map */

void fbx_model_map_free(FbxModelMap *map)
{
    int **per_mesh[2] = {map->mesh_control_point, map->mesh_bone_cluster};   /* [mesh] arrays of their own */
    for (int k = 0; k < 2; k++)
        for (int m = 0; per_mesh[k] && m < map->mesh_count; m++) free(per_mesh[k][m]);
    for (int m = 0; map->material_texture && m < map->material_count; m++) free(map->material_texture[m]);
    void *arrays[] = {map->joint_object,       map->mesh_model_object, map->mesh_geometry_object,
                      map->mesh_control_point, map->mesh_bone_cluster, map->material_texture};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
    memset(map, 0, sizeof *map);
}

bool fbx_model_map_alloc(FbxModelMap *map, int joint_count, int mesh_count)
{
    memset(map, 0, sizeof *map);
    map->joint_object = malloc((size_t)(joint_count > 0 ? joint_count : 1) * sizeof *map->joint_object);
    map->mesh_model_object = malloc((size_t)(mesh_count > 0 ? mesh_count : 1) * sizeof *map->mesh_model_object);
    map->mesh_geometry_object = malloc((size_t)(mesh_count > 0 ? mesh_count : 1) * sizeof *map->mesh_geometry_object);
    map->mesh_control_point = calloc((size_t)(mesh_count > 0 ? mesh_count : 1), sizeof *map->mesh_control_point);
    map->mesh_bone_cluster = calloc((size_t)(mesh_count > 0 ? mesh_count : 1), sizeof *map->mesh_bone_cluster);
    if (!map->joint_object || !map->mesh_model_object || !map->mesh_geometry_object || !map->mesh_control_point ||
        !map->mesh_bone_cluster) {
        fbx_model_map_free(map);
        return false;
    }
    map->joint_count = joint_count;
    map->mesh_count = mesh_count;
    for (int j = 0; j < joint_count; j++) map->joint_object[j] = -1;
    for (int m = 0; m < mesh_count; m++) map->mesh_model_object[m] = map->mesh_geometry_object[m] = -1;
    return true;
}

/* ---------------------------------------------------------------- joints */

/* The Model (or -1: the root) a Model hangs from: its first OO connection to a Model. */
static int parent_model(const FbxScene *s, int model)
{
    for (int k = 0, c; (c = fbx_connection_from(s, model, k)) >= 0; k++) {
        const FbxConnection *con = &s->connections[c];
        if (!con->property && fbx_legacy_is_kind(s, con->dst, "Model") && con->dst != model) return con->dst;
    }
    return -1;
}

static void euler_xyz_degrees(const double r[3], versor out)
{
    /* R = Rz * Ry * Rx (FBX's default rotation order eEulerXYZ: x applied first) */
    versor qx, qy, qz, qzy;
    glm_quatv(qx, glm_rad((float)r[0]), (vec3){1, 0, 0});
    glm_quatv(qy, glm_rad((float)r[1]), (vec3){0, 1, 0});
    glm_quatv(qz, glm_rad((float)r[2]), (vec3){0, 0, 1});
    glm_quat_mul(qz, qy, qzy);
    glm_quat_mul(qzy, qx, out);
}

static bool build_joints(Legacy *l)
{
    const FbxScene *s = l->scene;
    int models = 0;
    for (int i = 0; i < s->object_count; i++) models += fbx_legacy_is_kind(s, i, "Model");
    if (models == 0) return fbx_legacy_fail(l, "FBX: the file has no Model objects%s", NULL);
    int *parent = malloc((size_t)s->object_count * sizeof *parent), *order = malloc((size_t)models * sizeof *order);
    if (!parent || !order) {
        free(parent), free(order);
        return fbx_legacy_fail(l, "out of memory%s", NULL);
    }
    for (int i = 0; i < s->object_count; i++) {
        parent[i] = fbx_legacy_is_kind(s, i, "Model") ? parent_model(s, i) : -2;
        l->joint_of_object[i] = -1;
    }
    /* breadth first: roots (and Models in a cycle, taken as roots when nothing else is left) */
    int count = 0;
    while (count < models) {
        int before = count;
        for (int i = 0; i < s->object_count; i++)
            if (parent[i] != -2 && l->joint_of_object[i] < 0 && (parent[i] == -1 || l->joint_of_object[parent[i]] >= 0)) {
                l->joint_of_object[i] = count;
                order[count++] = i;
            }
        if (count == before)   /* a cycle: its first Model becomes a root */
            for (int i = 0; i < s->object_count; i++)
                if (parent[i] != -2 && l->joint_of_object[i] < 0) {
                    parent[i] = -1;
                    break;
                }
    }
    Skeleton *sk = &l->model->skeleton;
    int joints = models + 1;   /* joint 0: the scene root ("RootNode", as Assimp names it), no Model */
    if (!skeleton_alloc(sk, joints)) {
        free(parent), free(order);
        return fbx_legacy_fail(l, "out of memory%s", NULL);
    }
    l->map->joint_object = malloc((size_t)joints * sizeof *l->map->joint_object);
    if (!l->map->joint_object) {
        free(parent), free(order);
        return fbx_legacy_fail(l, "out of memory%s", NULL);
    }
    l->map->joint_count = joints;
    l->map->joint_object[0] = -1;
    snprintf(sk->names[0], SV_NAME_MAX, "RootNode");
    sk->parent[0] = -1;
    glm_mat4_identity(sk->rest_local[0]);
    glm_quat_identity(sk->rest_trs[0].rotation);
    glm_vec3_one(sk->rest_trs[0].scale);
    for (int i = 0; i < s->object_count; i++)
        if (l->joint_of_object[i] >= 0) l->joint_of_object[i]++;
    for (int j = 1; j < joints; j++) {
        int o = order[j - 1];
        l->map->joint_object[j] = o;
        const char *name = s->objects[o].name;
        utf8_copy_valid(sk->names[j], SV_NAME_MAX, name, strlen(name));
        sk->parent[j] = parent[o] >= 0 ? l->joint_of_object[parent[o]] : 0;
        double t[3] = {0, 0, 0}, r[3] = {0, 0, 0}, sc[3] = {1, 1, 1};
        fbx_object_property_numbers(s, o, "Lcl Translation", t, 3);
        fbx_object_property_numbers(s, o, "Lcl Rotation", r, 3);
        fbx_object_property_numbers(s, o, "Lcl Scaling", sc, 3);
        JointTransform *trs = &sk->rest_trs[j];
        for (int k = 0; k < 3; k++) {
            trs->translation[k] = isfinite(t[k]) ? (float)t[k] : 0.0f;
            trs->scale[k] = isfinite(sc[k]) ? (float)sc[k] : 1.0f;
            if (!isfinite(r[k])) r[k] = 0;
        }
        euler_xyz_degrees(r, trs->rotation);
        /* rest_local = T * R * S */
        glm_mat4_identity(sk->rest_local[j]);
        glm_translate(sk->rest_local[j], trs->translation);
        glm_quat_rotate(sk->rest_local[j], trs->rotation, sk->rest_local[j]);
        glm_scale(sk->rest_local[j], trs->scale);
    }
    free(parent);
    free(order);
    return true;
}

/* ---------------------------------------------------------------- materials */

/* A texture object's file: RelativeFilename, else FileName / Filename; else its Video's. */
static const char *texture_file(const FbxScene *s, int texture, int depth)
{
    static const char *const names[] = {"RelativeFilename", "FileName", "Filename"};
    for (int k = 0; k < 3; k++) {
        const char *f = fbx_legacy_record_string(fbx_record_child(s->objects[texture].record, names[k]));
        if (f[0]) return f;
        f = fbx_object_property_string(s, texture, names[k]);
        if (f && f[0]) return f;
        if (k == 1) {
            f = fbx_object_property_string(s, texture, "Path");
            if (f && f[0]) return f;
        }
    }
    for (int k = 0, c; depth == 0 && (c = fbx_connection_to(s, texture, k)) >= 0; k++)
        if (fbx_legacy_is_kind(s, s->connections[c].src, "Video")) {
            const char *f = texture_file(s, s->connections[c].src, 1);
            if (f) return f;
        }
    return NULL;
}

/* The diffuse texture of a material (or of the Model that holds it): a Texture connected to it
 * with DiffuseColor, or without a property; -1 none. */
static int diffuse_texture_of(const FbxScene *s, int object)
{
    int plain = -1;
    for (int k = 0, c; (c = fbx_connection_to(s, object, k)) >= 0; k++) {
        const FbxConnection *con = &s->connections[c];
        if (!fbx_legacy_is_kind(s, con->src, "Texture")) continue;
        if (con->property && strncmp(con->property, "Diffuse", 7) == 0) return con->src;
        if (!con->property && plain < 0) plain = con->src;
    }
    return plain;
}

static bool build_materials(Legacy *l)
{
    const FbxScene *s = l->scene;
    Model *model = l->model;
    int count = 0;
    for (int i = 0; i < s->object_count; i++) {
        l->material_of_object[i] = -1;
        if (fbx_legacy_is_kind(s, i, "Material")) l->material_of_object[i] = count++;
    }
    if (count == 0) return true;
    model->materials = calloc((size_t)count, sizeof *model->materials);
    l->map->material_texture = calloc((size_t)count, sizeof *l->map->material_texture);
    if (!model->materials || !l->map->material_texture) return fbx_legacy_fail(l, "out of memory%s", NULL);
    model->material_count = l->map->material_count = count;
    for (int i = 0; i < s->object_count; i++) {
        int m = l->material_of_object[i];
        if (m < 0) continue;
        Material *material = &model->materials[m];
        utf8_copy_valid(material->name, SV_NAME_MAX, s->objects[i].name, strlen(s->objects[i].name));
        glm_vec4_one(material->diffuse_color);
        material->diffuse_texture = -1;
        double color[3];
        if (fbx_object_property_numbers(s, i, "DiffuseColor", color, 3) >= 3 || fbx_object_property_numbers(s, i, "Diffuse", color, 3) >= 3)
            for (int k = 0; k < 3; k++) material->diffuse_color[k] = isfinite(color[k]) ? (float)color[k] : 1.0f;
        int texture = diffuse_texture_of(s, i);
        if (texture < 0)   /* FBX 6: the texture hangs from the Model that uses the material */
            for (int k = 0, c; texture < 0 && (c = fbx_connection_from(s, i, k)) >= 0; k++)
                if (fbx_legacy_is_kind(s, s->connections[c].dst, "Model")) texture = diffuse_texture_of(s, s->connections[c].dst);
        const char *file = texture >= 0 ? texture_file(s, texture, 0) : NULL;
        if (file && file[0]) {
            l->map->material_texture[m] = strdup(file);
            if (!l->map->material_texture[m]) return fbx_legacy_fail(l, "out of memory%s", NULL);
        }
    }
    return true;
}

bool fbx_build_model(const FbxScene *scene, Model *model, FbxModelMap *map, bool keep_more_influences, char *error,
                     size_t error_size)
{
    memset(model, 0, sizeof *model);
    memset(map, 0, sizeof *map);
    if (error && error_size) error[0] = '\0';
    Legacy l = {.scene = scene, .model = model, .map = map, .keep_more_influences = keep_more_influences,
                .error = error, .error_size = error_size};
    size_t objects = (size_t)(scene->object_count > 0 ? scene->object_count : 1);
    l.joint_of_object = malloc(objects * sizeof *l.joint_of_object);
    l.material_of_object = malloc(objects * sizeof *l.material_of_object);
    bool ok = l.joint_of_object && l.material_of_object ? true : fbx_legacy_fail(&l, "out of memory%s", NULL);
    ok = ok && build_joints(&l) && build_materials(&l) && fbx_legacy_build_meshes(&l);
    free(l.joint_of_object);
    free(l.material_of_object);
    if (!ok) {
        model_free(model);
        fbx_model_map_free(map);
        if (error && error_size && !error[0]) snprintf(error, error_size, "FBX: the scene could not be built");
    }
    return ok;
}
