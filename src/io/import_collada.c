/* import_collada.c — stage 7: where a Collada skin was bound, read from the file itself.
 *
 * Rules of this stage (Collada files only: a path ending in .dae, or bytes with the hint "dae";
 * only when the model has a skinned mesh):
 *   - Collada skins a vertex as  v' = sum_i w_i * J_i * IBM_i * BSM * v  (COLLADA 1.4.1, "Skin
 *     deformation"): J_i the joint's world matrix, IBM_i its <INV_BIND_MATRIX>, BSM the skin's
 *     <bind_shape_matrix>. The node holding the <instance_controller> does not move the result.
 *     At bind time every joint stands at J_i = inverse(IBM_i), so the mesh was bound at BSM * v:
 *     in the scene, the bind pose is the stored vertices placed by BSM.
 *   - Assimp 5.2.5 folds BSM into each bone's offset (mOffsetMatrix = IBM_i * BSM, ColladaLoader
 *     CreateMesh) and keeps the vertices as stored; the node holding the controller becomes the
 *     mesh's node. Its rest scene matrix (stage 3's N) is therefore not where the mesh was bound.
 *     So N = R * BSM, with R the rest matrix of Assimp's root node: the Collada world, which is
 *     where Assimp puts the file's <unit> scale and <up_axis> turn. Every bound joint then stands
 *     at N * inverse(offset) = R * inverse(IBM_i), the joint matrix the file states.
 *   - The mesh's node is found the way Assimp names nodes (the Collada id, else the sid); each
 *     <instance_controller> directly under it names a <controller><skin>; a skin without
 *     <bind_shape_matrix> has the identity. A node whose controllers disagree, or a file the XML
 *     reader refuses, keeps stage 3's N, with one warning.
 * The XML is read with libxml2, without network access and without expanding entities.
 */
#include "import_internal.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One <controller> with a <skin>: its id and bind shape matrix (row-major, as written). */
typedef struct ColladaSkin {
    const xmlChar *id;
    float          bind_shape[16];
} ColladaSkin;

typedef struct ColladaFile {
    xmlDocPtr    doc;
    ColladaSkin *skins;
    int          skin_count;
    int          skin_capacity;
} ColladaFile;

static bool is_element(const xmlNode *node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && xmlStrcmp(node->name, (const xmlChar *)name) == 0;
}

static const xmlNode *first_child(const xmlNode *node, const char *name)
{
    for (const xmlNode *c = node->children; c; c = c->next)
        if (is_element(c, name)) return c;
    return NULL;
}

/* The attribute's value if the element has it (pointer into the document), else NULL. */
static const xmlChar *attribute(const xmlNode *node, const char *name)
{
    xmlAttrPtr a = xmlHasProp((xmlNodePtr)node, (const xmlChar *)name);
    return a && a->children ? a->children->content : NULL;
}

/* Reads 16 numbers from an element's text; false if there are fewer or any is not finite. */
static bool read_matrix(const xmlNode *element, float out[16])
{
    xmlChar *text = xmlNodeGetContent(element);
    if (!text) return false;
    const char *p = (const char *)text;
    int n = 0;
    while (n < 16) {
        char *end;
        float v = strtof(p, &end);
        if (end == p || !isfinite(v)) break;
        out[n++] = v;
        p = end;
    }
    xmlFree(text);
    return n == 16;
}

/* Collects every <controller id="..."><skin> of the document (any depth: libraries may nest). */
static bool collect_skins(ColladaFile *file, const xmlNode *node)
{
    for (const xmlNode *c = node; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (is_element(c, "controller")) {
            const xmlNode *skin = first_child(c, "skin");
            const xmlChar *id = attribute(c, "id");
            if (skin && id) {
                if (file->skin_count == file->skin_capacity) {
                    int capacity = file->skin_capacity ? 2 * file->skin_capacity : 8;
                    ColladaSkin *grown = realloc(file->skins, sizeof *grown * (size_t)capacity);
                    if (!grown) return false;
                    file->skins = grown;
                    file->skin_capacity = capacity;
                }
                ColladaSkin *s = &file->skins[file->skin_count++];
                s->id = id;
                float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
                const xmlNode *bsm = first_child(skin, "bind_shape_matrix");
                if (!bsm || !read_matrix(bsm, s->bind_shape)) memcpy(s->bind_shape, identity, sizeof identity);
            }
            continue;
        }
        if (!collect_skins(file, c->children)) return false;
    }
    return true;
}

static const ColladaSkin *find_skin(const ColladaFile *file, const xmlChar *url)
{
    if (!url || url[0] != '#') return NULL;   /* only references inside this file */
    for (int i = 0; i < file->skin_count; i++)
        if (xmlStrcmp(file->skins[i].id, url + 1) == 0) return &file->skins[i];
    return NULL;
}

/* The first <node> (any depth) whose `key` attribute ("id" or "sid") is `name`. */
static const xmlNode *find_node(const xmlNode *node, const char *key, const char *name)
{
    for (const xmlNode *c = node; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (is_element(c, "node")) {
            const xmlChar *value = attribute(c, key);
            if (value && strcmp((const char *)value, name) == 0) return c;
        }
        const xmlNode *found = find_node(c->children, key, name);
        if (found) return found;
    }
    return NULL;
}

/* The bind shape matrix of the skins instanced directly under the Collada node that Assimp
 * named `name`. 1: found (out set), 0: the node has no skin here, -1: ambiguous. */
static int node_bind_shape(const ColladaFile *file, const char *name, float out[16])
{
    const xmlNode *root = xmlDocGetRootElement(file->doc);
    const xmlNode *node = find_node(root, "id", name);
    if (!node) node = find_node(root, "sid", name);
    if (!node) return 0;
    int found = 0;
    for (const xmlNode *c = node->children; c; c = c->next) {
        if (!is_element(c, "instance_controller")) continue;
        const ColladaSkin *skin = find_skin(file, attribute(c, "url"));
        if (!skin) continue;
        if (found && memcmp(out, skin->bind_shape, sizeof skin->bind_shape) != 0) return -1;
        memcpy(out, skin->bind_shape, sizeof skin->bind_shape);
        found = 1;
    }
    return found;
}

static bool is_collada(const char *path, const char *hint)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot) return strcasecmp(dot, ".dae") == 0;
    return hint && strcasecmp(hint, "dae") == 0;
}

bool import_collada_bind_shape(Importer *im, const char *path, const void *data, size_t size, const char *hint)
{
    Model *model = im->model;
    if (!is_collada(path, hint)) return true;
    bool any_skinned = false;
    for (int m = 0; m < model->mesh_count; m++) any_skinned |= model->meshes[m].skinned;
    if (!any_skinned) return true;

    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    ColladaFile file = {0};
    /* the bytes import.c read (the file is not read again); `path` is the document's URL */
    file.doc = size <= (size_t)0x7fffffff ? xmlReadMemory(data, (int)size, path ? path : "model.dae", NULL, options) : NULL;
    const xmlNode *root = file.doc ? xmlDocGetRootElement(file.doc) : NULL;
    if (!root || !is_element(root, "COLLADA")) {
        import_warn(im, "the XML reader cannot read this Collada file: skinned meshes are placed by their node "
                        "in the bind pose, not by the skin's bind_shape_matrix");
        if (file.doc) xmlFreeDoc(file.doc);
        return true;
    }
    bool ok = collect_skins(&file, root);
    if (!ok) {
        xmlFreeDoc(file.doc);
        free(file.skins);
        return import_fail(im, "out of memory reading the Collada skins");
    }

    /* R: the rest matrix of the root above each mesh's node (Assimp's root: unit scale, up axis) */
    const Skeleton *sk = &model->skeleton;
    int ambiguous = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        if (!mesh->skinned || mesh->node_joint < 0) continue;
        float bind_shape[16];
        int found = node_bind_shape(&file, im->nodes[mesh->node_joint]->mName.data, bind_shape);
        if (found < 0) ambiguous++;
        if (found <= 0) continue;
        /* Collada writes matrices row by row (column vectors); cglm is column-major. */
        mat4 bsm;
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) bsm[c][r] = bind_shape[4 * r + c];
        int root_joint = mesh->node_joint;
        while (sk->parent[root_joint] >= 0) root_joint = sk->parent[root_joint];
        /* N = R * BSM: the stored mesh, where the skin bound it, in the scene */
        glm_mat4_mul(sk->rest_local[root_joint], bsm, mesh->bind_matrix);
    }
    if (ambiguous > 0)
        import_warn(im, "%d skinned mesh node(s) instance skins with different bind_shape_matrix values: those "
                        "meshes are placed by their node in the bind pose", ambiguous);
    xmlFreeDoc(file.doc);
    free(file.skins);
    return true;
}
