/* fbx_scene_lookup.c — finding things in the FBX object graph of fbx_scene.h.
 *
 * Rules of this step:
 *   - Objects by id: a binary search over the ids sorted once (equal ids: the first in file order);
 *     by (class, name): the same over (class, name), the class from the file's full object name.
 *   - A reference value (an id, or a name in FBX 6 / 5 connections) is resolved by id when it is an
 *     integer, else by name (class "Model" when the name carries none; Deformer and SubDeformer
 *     are tried for each other).
 *   - Connections to / from an object: the k-th in file order.
 *   - Properties: the P (Properties70) / Property (Properties60) record of that name in the
 *     object's own list, else in its kind's Definitions template; its values start after the
 *     name, type, label and flags (Properties70: value 4; Properties60, without a label: 3).
 */
#include "fbx_scene_builder.h"

/* ---------------------------------------------------------------- lookups */

static const SceneIndex *scene_index(const FbxScene *s)
{
    return s->index;
}

typedef struct SortKey {
    int64_t     id;
    const char *class_name, *name;
    int         object;
} SortKey;

static int compare_by_id(const void *a, const void *b)
{
    const SortKey *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->object - y->object;
}

static int compare_by_name(const void *a, const void *b)
{
    const SortKey *x = a, *y = b;
    int c = strcmp(x->class_name, y->class_name);
    if (c == 0) c = strcmp(x->name, y->name);
    return c ? c : x->object - y->object;
}

void fbx_scene_free_index(SceneIndex *index)
{
    if (!index) return;
    free(index->by_id);
    free(index->by_name);
    free(index->class_name);
    free(index);
}

bool fbx_scene_build_index(Builder *b)
{
    FbxScene *s = b->scene;
    SceneIndex *index = calloc(1, sizeof *index);
    size_t n = (size_t)s->object_count;
    SortKey *keys = malloc((n ? n : 1) * sizeof *keys);
    if (index) {
        index->by_id = malloc((n ? n : 1) * sizeof *index->by_id);
        index->by_name = malloc((n ? n : 1) * sizeof *index->by_name);
        index->class_name = malloc((n ? n : 1) * sizeof *index->class_name);
    }
    if (!index || !keys || !index->by_id || !index->by_name || !index->class_name) {
        if (index) {
            free(index->by_id);
            free(index->by_name);
            free(index->class_name);
        }
        free(index);
        free(keys);
        return fbx_scene_build_fail(b, "FBX: out of memory");
    }
    if (n) memcpy(index->class_name, b->class_name, n * sizeof *index->class_name);
    index->count = (int)n;
    for (size_t i = 0; i < n; i++) keys[i] = (SortKey){s->objects[i].id, index->class_name[i], s->objects[i].name, (int)i};
    qsort(keys, n, sizeof *keys, compare_by_id);
    for (size_t i = 0; i < n; i++) index->by_id[i] = keys[i].object;
    qsort(keys, n, sizeof *keys, compare_by_name);
    for (size_t i = 0; i < n; i++) index->by_name[i] = keys[i].object;
    free(keys);
    fbx_scene_free_index(s->index);
    s->index = index;
    return true;
}

int fbx_object_by_id(const FbxScene *scene, int64_t id)
{
    const SceneIndex *index = scene_index(scene);
    if (!index) return -1;
    int lo = 0, hi = index->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (scene->objects[index->by_id[mid]].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < index->count && scene->objects[index->by_id[lo]].id == id ? index->by_id[lo] : -1;
}

/* The first object of this class and name (classes: "Model", "Deformer", "SubDeformer", …). */
static int object_by_name(const FbxScene *scene, Span class_name, Span name)
{
    const SceneIndex *index = scene_index(scene);
    if (!index) return -1;
    int lo = 0, hi = index->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int o = index->by_name[mid];
        int c = -fbx_scene_span_compare(class_name, index->class_name[o]);
        if (c == 0) c = -fbx_scene_span_compare(name, scene->objects[o].name);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= index->count) return -1;
    int o = index->by_name[lo];
    return fbx_scene_span_compare(class_name, index->class_name[o]) == 0 && fbx_scene_span_compare(name, scene->objects[o].name) == 0 ? o : -1;
}

int fbx_object_by_reference(const FbxScene *scene, const FbxValue *value)
{
    if (!value) return -1;
    if (value->type == FBX_VALUE_INTEGER) return fbx_object_by_id(scene, value->integer);
    if (value->type != FBX_VALUE_STRING && value->type != FBX_VALUE_RAW) return -1;
    Span class_name, name;
    fbx_scene_split_span(value, "Model", &class_name, &name);
    int o = object_by_name(scene, class_name, name);
    if (o < 0 && fbx_scene_span_compare(class_name, "SubDeformer") == 0) o = object_by_name(scene, (Span){"Deformer", 8}, name);
    if (o < 0 && fbx_scene_span_compare(class_name, "Deformer") == 0) o = object_by_name(scene, (Span){"SubDeformer", 11}, name);
    return o;
}

int fbx_connection_to(const FbxScene *scene, int object, int k)
{
    for (int i = 0; i < scene->connection_count; i++)
        if (scene->connections[i].dst == object && k-- == 0) return i;
    return -1;
}

int fbx_connection_from(const FbxScene *scene, int object, int k)
{
    for (int i = 0; i < scene->connection_count; i++)
        if (scene->connections[i].src == object && k-- == 0) return i;
    return -1;
}

/* ---------------------------------------------------------------- properties */

/* The P / Property record named `name` in a Properties70 / 60 list, and where its values start. */
static const FbxRecord *find_property(const FbxRecord *list, const char *name, int *first_value)
{
    if (!list) return NULL;
    for (int i = 0; i < list->child_count; i++) {
        const FbxRecord *p = &list->children[i];
        if (p->value_count < 1 || p->values[0].type != FBX_VALUE_STRING || strcmp(p->values[0].string, name) != 0) continue;
        *first_value = strcmp(p->name, "Property") == 0 ? 3 : 4;
        return p;
    }
    return NULL;
}

static const FbxRecord *object_property(const FbxScene *scene, int object, const char *name, int *first_value)
{
    if (object < 0 || object >= scene->object_count) return NULL;
    const FbxObject *o = &scene->objects[object];
    const FbxRecord *p = find_property(o->properties, name, first_value);
    return p ? p : find_property(o->template_properties, name, first_value);
}

int fbx_object_property_numbers(const FbxScene *scene, int object, const char *name, double *out, int n)
{
    int first;
    const FbxRecord *p = object_property(scene, object, name, &first);
    if (!p) return 0;
    int count = 0;
    for (int i = first; i < p->value_count; i++) {
        const FbxValue *v = &p->values[i];
        if (v->type != FBX_VALUE_INTEGER && v->type != FBX_VALUE_REAL) continue;
        if (count < n) out[count] = v->type == FBX_VALUE_INTEGER ? (double)v->integer : v->real;
        count++;
    }
    return count;
}

const char *fbx_object_property_string(const FbxScene *scene, int object, const char *name)
{
    int first;
    const FbxRecord *p = object_property(scene, object, name, &first);
    if (!p) return NULL;
    for (int i = first; i < p->value_count; i++)
        if (p->values[i].type == FBX_VALUE_STRING) return p->values[i].string;
    return NULL;
}

/* ---------------------------------------------------------------- the writer */

/* The application that wrote the file: SceneInfo's "Original|ApplicationName" ("Maya", "3ds Max",
 * "MotionBuilder", "Blender" ...; in FBXHeaderExtension for 7.x, among the Objects for 6.1), else
 * the top-level Creator string (the FBX 6.1 exporter of Blender 2.79 writes only "Blender version
 * 2.79 (sub 0)" there); "" when neither is there. */
const char *fbx_writing_application(const FbxScene *scene)
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
