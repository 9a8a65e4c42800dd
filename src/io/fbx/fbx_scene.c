/* fbx_scene.c — the object graph of fbx_scene.h, built from the records of fbx_doc.h.
 *
 * Where each form keeps what:
 *   objects      7.x: Objects/<Kind>: id, "Name\0\1Class" (binary) or "Class::Name" (ASCII),
 *                "Subclass". FBX 6: the same without the id (named "Class::Name" / "Name\0\1Class").
 *                FBX 5: Model (and Material, Texture, Video, Pose) records at the top of the file.
 *   geometry     7.x: Geometry objects. FBX 6 and 5: inside the mesh Model's own record; a Geometry
 *                object is made here from that record (same record, so Vertices etc. are its
 *                children) and connected to the Model.
 *   blend shapes 7.x: Deformer "BlendShape" / "BlendShapeChannel" and Geometry "Shape" objects.
 *                FBX 6 and 5: `Shape: "NAME" { Indexes, Vertices, Normals }` records inside the mesh
 *                Model; made here into the 7.x objects (one BlendShape per mesh, one channel per
 *                Shape, full weight 100, the Shape record as its Shape geometry), the channel's
 *                DeformPercent from the Model's property named NAME (0 without one), and a take's
 *                channel NAME (FBX 5: "NAME (Shape)") in that Model as its DeformPercent curve.
 *   skins        7.x and 6: Deformer "Skin" / "Cluster" objects (FBX 6 connects the skin to the
 *                Model: redirected here to its Geometry). FBX 5: `Link: "Bone"` records inside the
 *                mesh Model (Indexes, Weights, Transform, TransformLink): one Skin for the mesh and
 *                a Cluster per Link are made here, connected as 7.x connects them.
 *   properties   7.x Properties70 `P: name, type, label, flags, values…`; FBX 6 Properties60
 *                `Property: name, type, flags, values…`; FBX 5 has none: its Models' rest
 *                Lcl Translation / Rotation / Scaling come from the Defaults of their Transform
 *                channels, written here into a made Properties70.
 *   connections  7.x `C: "OO"|"OP", src id, dst id[, property]`; FBX 6 `Connect:` with names;
 *                FBX 5 `Children: "a", "b"` lists in each Model (child -> parent).
 *   animation    7.x AnimationStack/Layer/CurveNode/Curve objects. FBX 6 and 5: Takes/Take/Model/
 *                Channel "Transform"/"T"|"R"|"S"/"X"|"Y"|"Z" with `Key:` lists: one stack per Take
 *                (LocalTime -> LocalStart/LocalStop, ReferenceTime -> ReferenceStart/ReferenceStop in a
 *                made Properties70), one layer, a curve node per channel (d|X d|Y d|Z from the
 *                Defaults) connected to the Model's Lcl property, a curve per keyed axis.
 * Curve keys (fbx_scene.h FbxCurve):
 *   7.x   KeyTime (int64 ticks), KeyValueFloat or KeyValueDouble, KeyAttrFlags, KeyAttrDataFloat
 *         (4 per attribute: right slope, next-left slope, packed weights, packed velocities),
 *         KeyAttrRefCount (attribute i applies to the next RefCount[i] keys). Flags: 0x2 constant,
 *         0x4 linear, 0x8 cubic; 0x100 with constant = constant-next; 0x01000000 right weighted,
 *         0x02000000 next-left weighted. Packed weights (the float's 32 bits as an integer): low 16
 *         bits = right weight x 9999, high 16 = next-left weight x 9999; an unweighted side is 1/3.
 *         ASCII files write KeyAttrDataFloat as those 32-bit patterns, as integers.
 *   FBX 6 `Key: time, value, mode…` per key, mode: L (linear); C then s (constant, standard) or
 *         n (constant-next); U (cubic) then a tangent letter (a auto, s user, b break: s and b are
 *         followed by two slopes, right and next-left, in value per second; t TCB; numbers of other
 *         letters are skipped) and a weight letter (a: right and next-left weights follow; r: right;
 *         l: next-left; n: none). The letters become the KeyAttrFlags a 7.x file would carry.
 *         Binary files store the letters as one-byte 'C' values.
 */
#include "fbx_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FBX_MAX_OBJECTS (1 << 24)

/* What the scene keeps besides its public arrays. */
typedef struct SceneIndex {
    int          count;          /* objects indexed */
    int         *by_id;          /* object indices sorted by id */
    int         *by_name;        /* object indices sorted by (class, name) */
    const char **class_name;     /* [object] "Model", "SubDeformer", … from the file's full name */
} SceneIndex;

typedef struct Builder {
    FbxScene  *scene;
    FbxDocument *doc;
    int        object_capacity, connection_capacity;
    const char **class_name;     /* [object] while building */
    char      *error;
    size_t     error_size;
    bool       failed;
} Builder;

static bool build_fail(Builder *b, const char *message)
{
    if (!b->failed && b->error && b->error_size) snprintf(b->error, b->error_size, "%s", message);
    b->failed = true;
    return false;
}

/* ---------------------------------------------------------------- made records */

static FbxRecord *make_records(Builder *b, int count)
{
    FbxRecord *r = fbx_document_alloc(b->doc, (size_t)(count > 0 ? count : 1) * sizeof *r);
    if (!r) build_fail(b, "FBX: out of memory");
    else memset(r, 0, (size_t)(count > 0 ? count : 1) * sizeof *r);
    return r;
}

static FbxValue *make_values(Builder *b, int count)
{
    FbxValue *v = fbx_document_alloc(b->doc, (size_t)(count > 0 ? count : 1) * sizeof *v);
    if (!v) build_fail(b, "FBX: out of memory");
    else memset(v, 0, (size_t)(count > 0 ? count : 1) * sizeof *v);
    return v;
}

static void set_string(FbxValue *v, const char *s)
{
    v->type = FBX_VALUE_STRING;
    v->string = s;
    v->length = strlen(s);
}

static void set_real(FbxValue *v, double d)
{
    v->type = FBX_VALUE_REAL;
    v->real = d;
    v->integer = d > -9.2e18 && d < 9.2e18 ? (int64_t)d : 0;
}

static void set_integer(FbxValue *v, int64_t i)
{
    v->type = FBX_VALUE_INTEGER;
    v->integer = i;
    v->real = (double)i;
}

/* A Properties70 `P: name, type, "", "", numbers…` into *p (numbers as reals, or one integer). */
static bool make_property(Builder *b, FbxRecord *p, const char *name, const char *type, const double *numbers, int n,
                          const int64_t *integer)
{
    FbxValue *v = make_values(b, 4 + (integer ? 1 : n));
    if (!v) return false;
    set_string(&v[0], name);
    set_string(&v[1], type);
    set_string(&v[2], "");
    set_string(&v[3], "");
    if (integer) set_integer(&v[4], *integer);
    else for (int i = 0; i < n; i++) set_real(&v[4 + i], numbers[i]);
    p->name = "P";
    p->values = v;
    p->value_count = 4 + (integer ? 1 : n);
    return true;
}

/* ---------------------------------------------------------------- objects */

static int add_object(Builder *b, const FbxObject *o, const char *class_name)
{
    FbxScene *s = b->scene;
    if (s->object_count >= FBX_MAX_OBJECTS) return build_fail(b, "FBX: too many objects"), -1;
    if (s->object_count == b->object_capacity) {
        int capacity = b->object_capacity ? b->object_capacity * 2 : 64;
        FbxObject *objects = realloc(s->objects, (size_t)capacity * sizeof *objects);
        const char **names = objects ? realloc(b->class_name, (size_t)capacity * sizeof *names) : NULL;
        if (objects) s->objects = objects;
        if (names) b->class_name = names;
        if (!objects || !names) return build_fail(b, "FBX: out of memory"), -1;
        b->object_capacity = capacity;
    }
    s->objects[s->object_count] = *o;
    b->class_name[s->object_count] = class_name;
    return s->object_count++;
}

static void add_connection(Builder *b, int src, int dst, const char *property)
{
    FbxScene *s = b->scene;
    if (src < 0 || b->failed) return;
    if (s->connection_count == b->connection_capacity) {
        int capacity = b->connection_capacity ? b->connection_capacity * 2 : 64;
        if (capacity > FBX_MAX_OBJECTS * 4) {
            build_fail(b, "FBX: too many connections");
            return;
        }
        FbxConnection *c = realloc(s->connections, (size_t)capacity * sizeof *c);
        if (!c) {
            build_fail(b, "FBX: out of memory");
            return;
        }
        s->connections = c;
        b->connection_capacity = capacity;
    }
    s->connections[s->connection_count++] = (FbxConnection){src, dst, property};
}

/* A piece of a string (not NUL-terminated). */
typedef struct Span {
    const char *s;
    size_t      n;
} Span;

/* Splits a full object name: "Name\0\1Class" (binary) or "Class::Name" (ASCII) or a bare name
 * (class: `fallback_class`). */
static void split_span(const FbxValue *v, const char *fallback_class, Span *class_name, Span *name)
{
    *class_name = (Span){fallback_class, strlen(fallback_class)};
    *name = (Span){"", 0};
    if (!v || (v->type != FBX_VALUE_STRING && v->type != FBX_VALUE_RAW)) return;
    const char *s = v->string;
    size_t length = v->length;
    for (size_t i = 0; i + 1 < length; i++) {
        if (s[i] == '\0' && s[i + 1] == '\x01') {
            *name = (Span){s, i};
            *class_name = (Span){s + i + 2, length - i - 2};
            return;
        }
    }
    for (size_t i = 0; i + 1 < length; i++) {
        if (s[i] == ':' && s[i + 1] == ':') {
            *class_name = (Span){s, i};
            *name = (Span){s + i + 2, length - i - 2};
            return;
        }
    }
    *name = (Span){s, length};
}

static const char *span_copy(Builder *b, Span span)
{
    char *copy = fbx_document_alloc(b->doc, span.n + 1);
    if (!copy) return build_fail(b, "FBX: out of memory"), "";
    memcpy(copy, span.s, span.n);
    copy[span.n] = '\0';
    return copy;
}

/* strcmp of a span against a C string. */
static int span_compare(Span a, const char *z)
{
    size_t zn = strlen(z);
    int c = memcmp(a.s, z, a.n < zn ? a.n : zn);
    if (c) return c;
    return a.n < zn ? -1 : a.n > zn ? 1 : 0;
}

static const FbxRecord *record_properties(const FbxRecord *r)
{
    const FbxRecord *p = fbx_record_child(r, "Properties70");
    return p ? p : fbx_record_child(r, "Properties60");
}

/* The PropertyTemplate of this kind: the one named after the subclass ("FbxMesh" for "Mesh") when
 * the ObjectType has several, else its first. */
static const FbxRecord *find_template(const FbxRecord *definitions, const char *kind, const char *subclass)
{
    if (!definitions) return NULL;
    for (int i = 0; i < definitions->child_count; i++) {
        const FbxRecord *t = &definitions->children[i];
        if (strcmp(t->name, "ObjectType") != 0 || t->value_count < 1 || t->values[0].type != FBX_VALUE_STRING ||
            strcmp(t->values[0].string, kind) != 0)
            continue;
        const FbxRecord *first = NULL;
        for (int k = 0; k < t->child_count; k++) {
            const FbxRecord *pt = &t->children[k];
            if (strcmp(pt->name, "PropertyTemplate") != 0) continue;
            const FbxRecord *props = record_properties(pt);
            if (!props) continue;
            if (!first) first = props;
            if (pt->value_count > 0 && pt->values[0].type == FBX_VALUE_STRING && strncmp(pt->values[0].string, "Fbx", 3) == 0 &&
                subclass && strcmp(pt->values[0].string + 3, subclass) == 0)
                return props;
        }
        return first;
    }
    return NULL;
}

static bool is_object_kind(const char *name)
{
    static const char *const kinds[] = {"Model", "Geometry", "NodeAttribute", "Deformer", "Material", "Texture", "Video",
                                        "Pose", "AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(name, kinds[i]) == 0) return true;
    return false;
}

/* One Objects (or FBX 5 top-level) record as an object. */
static int read_object(Builder *b, const FbxRecord *r, const FbxRecord *definitions, int64_t id_if_none)
{
    FbxObject o = {0};
    int first_string = 0;
    if (r->value_count > 0 && r->values[0].type == FBX_VALUE_INTEGER) {
        o.id = r->values[0].integer;
        first_string = 1;
    } else {
        o.id = id_if_none;
    }
    Span class_span, name_span;
    split_span(first_string < r->value_count ? &r->values[first_string] : NULL, r->name, &class_span, &name_span);
    const char *class_name = span_copy(b, class_span);
    o.name = span_copy(b, name_span);
    o.kind = r->name;
    o.subclass = "";
    for (int i = r->value_count - 1; i > first_string; i--)
        if (r->values[i].type == FBX_VALUE_STRING) {
            o.subclass = r->values[i].string;
            break;
        }
    if (!o.subclass[0] && strcmp(o.kind, "Model") == 0) {   /* FBX 5: Type: "LimbNode" or the mesh's Vertices */
        const FbxRecord *type = fbx_record_child(r, "Type");
        if (fbx_record_child(r, "Vertices")) o.subclass = "Mesh";
        else if (type && type->value_count > 0 && type->values[0].type == FBX_VALUE_STRING) o.subclass = type->values[0].string;
    }
    o.record = r;
    o.properties = record_properties(r);
    o.template_properties = find_template(definitions, o.kind, o.subclass);
    return add_object(b, &o, class_name);
}

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

static void free_index(SceneIndex *index)
{
    if (!index) return;
    free(index->by_id);
    free(index->by_name);
    free(index->class_name);
    free(index);
}

static bool build_index(Builder *b)
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
        return build_fail(b, "FBX: out of memory");
    }
    if (n) memcpy(index->class_name, b->class_name, n * sizeof *index->class_name);
    index->count = (int)n;
    for (size_t i = 0; i < n; i++) keys[i] = (SortKey){s->objects[i].id, index->class_name[i], s->objects[i].name, (int)i};
    qsort(keys, n, sizeof *keys, compare_by_id);
    for (size_t i = 0; i < n; i++) index->by_id[i] = keys[i].object;
    qsort(keys, n, sizeof *keys, compare_by_name);
    for (size_t i = 0; i < n; i++) index->by_name[i] = keys[i].object;
    free(keys);
    free_index(s->index);
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
        int c = -span_compare(class_name, index->class_name[o]);
        if (c == 0) c = -span_compare(name, scene->objects[o].name);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= index->count) return -1;
    int o = index->by_name[lo];
    return span_compare(class_name, index->class_name[o]) == 0 && span_compare(name, scene->objects[o].name) == 0 ? o : -1;
}

int fbx_object_by_reference(const FbxScene *scene, const FbxValue *value)
{
    if (!value) return -1;
    if (value->type == FBX_VALUE_INTEGER) return fbx_object_by_id(scene, value->integer);
    if (value->type != FBX_VALUE_STRING && value->type != FBX_VALUE_RAW) return -1;
    Span class_name, name;
    split_span(value, "Model", &class_name, &name);
    int o = object_by_name(scene, class_name, name);
    if (o < 0 && span_compare(class_name, "SubDeformer") == 0) o = object_by_name(scene, (Span){"Deformer", 8}, name);
    if (o < 0 && span_compare(class_name, "Deformer") == 0) o = object_by_name(scene, (Span){"SubDeformer", 11}, name);
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

/* ---------------------------------------------------------------- curves */

/* A 32-bit pattern of KeyAttrDataFloat entry i (binary: the float's bits; ASCII: the integer). */
static uint32_t attr_bits(const FbxRecord *data, size_t i)
{
    const FbxValue *v = data && data->value_count == 1 ? &data->values[0] : NULL;
    if (!v || i >= v->length) return 0;
    if (v->type == FBX_VALUE_INTEGER_ARRAY) return (uint32_t)v->integers[i];
    if (v->type == FBX_VALUE_REAL_ARRAY) {
        float f = (float)v->reals[i];
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    return 0;
}

static float bits_to_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static FbxExtrapolation extrapolation_of(const FbxRecord *r, int *repetitions)
{
    *repetitions = -1;
    if (!r) return FBX_EXTRAPOLATION_CONSTANT;
    const FbxRecord *type = fbx_record_child(r, "Type"), *rep = fbx_record_child(r, "Repetition");
    if (rep && rep->value_count > 0 && rep->values[0].type == FBX_VALUE_INTEGER) *repetitions = (int)rep->values[0].integer;
    int letter = 0;
    if (type && type->value_count > 0) {
        const FbxValue *v = &type->values[0];
        if (v->type == FBX_VALUE_STRING && v->length > 0) letter = v->string[0];
        else if (v->type == FBX_VALUE_INTEGER) letter = (int)v->integer;
    }
    switch (letter) {
    case 'R': return FBX_EXTRAPOLATION_REPETITION;
    case 'M': return FBX_EXTRAPOLATION_MIRROR_REPETITION;
    case 'K': return FBX_EXTRAPOLATION_KEEP_SLOPE;
    case 'A': return FBX_EXTRAPOLATION_RELATIVE_REPETITION;
    default: return FBX_EXTRAPOLATION_CONSTANT;
    }
}

/* Keeps keys in strictly increasing time (a damaged file's repeats and reversals are dropped). */
static int keep_increasing(FbxCurveKey *keys, int count)
{
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (kept == 0 || keys[i].time > keys[kept - 1].time) keys[kept++] = keys[i];
    return kept;
}

static bool decode_curve_7x(Builder *b, const FbxRecord *r, FbxCurve *curve)
{
    size_t time_count, value_count;
    const int64_t *times = fbx_record_integers(b->doc, fbx_record_child(r, "KeyTime"), &time_count);
    const FbxRecord *value_record = fbx_record_child(r, "KeyValueFloat");
    if (!value_record) value_record = fbx_record_child(r, "KeyValueDouble");
    const double *values = fbx_record_reals(b->doc, value_record, &value_count);
    size_t flag_count, ref_count;
    const int64_t *flags = fbx_record_integers(b->doc, fbx_record_child(r, "KeyAttrFlags"), &flag_count);
    const int64_t *refs = fbx_record_integers(b->doc, fbx_record_child(r, "KeyAttrRefCount"), &ref_count);
    const FbxRecord *data = fbx_record_child(r, "KeyAttrDataFloat");
    const FbxRecord *def = fbx_record_child(r, "Default");
    if (def && def->value_count > 0) curve->default_value = def->values[0].type == FBX_VALUE_INTEGER ? (double)def->values[0].integer : def->values[0].real;
    curve->pre = extrapolation_of(fbx_record_child(r, "Pre-Extrapolation"), &curve->pre_repetitions);
    curve->post = extrapolation_of(fbx_record_child(r, "Post-Extrapolation"), &curve->post_repetitions);
    size_t n = time_count < value_count ? time_count : value_count;
    if (n == 0) return true;
    if (n > (size_t)1 << 28) return build_fail(b, "FBX: curve with too many keys");
    FbxCurveKey *keys = fbx_document_alloc(b->doc, n * sizeof *keys);
    if (!keys) return build_fail(b, "FBX: out of memory");
    size_t attr = 0;          /* the attribute entry of key i */
    int64_t left_in_run = ref_count > 0 ? refs[0] : (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        while (left_in_run <= 0 && attr + 1 < ref_count) left_in_run = refs[++attr];
        left_in_run--;
        FbxCurveKey *k = &keys[i];
        memset(k, 0, sizeof *k);
        k->time = times[i];
        k->value = values[i];
        uint32_t f = flag_count > 0 ? (uint32_t)flags[attr < flag_count ? attr : flag_count - 1] : 0x4;
        k->attr_flags = f;
        k->interpolation = (f & 0x2) ? FBX_INTERPOLATION_CONSTANT : (f & 0x8) ? FBX_INTERPOLATION_CUBIC : FBX_INTERPOLATION_LINEAR;
        k->constant_next = k->interpolation == FBX_INTERPOLATION_CONSTANT && (f & 0x100);
        size_t d = 4 * (attr < flag_count || flag_count == 0 ? attr : flag_count - 1);
        k->right_slope = bits_to_float(attr_bits(data, d));
        k->next_left_slope = bits_to_float(attr_bits(data, d + 1));
        uint32_t weights = attr_bits(data, d + 2);
        /* packed weights: low 16 bits right x 9999, high 16 next-left x 9999; 1/3 when not weighted */
        k->right_weight = (f & 0x01000000) ? (double)(weights & 0xffff) / 9999.0 : 1.0 / 3.0;
        k->next_left_weight = (f & 0x02000000) ? (double)(weights >> 16) / 9999.0 : 1.0 / 3.0;
        if (!isfinite(k->right_slope)) k->right_slope = 0;
        if (!isfinite(k->next_left_slope)) k->next_left_slope = 0;
    }
    curve->keys = keys;
    curve->key_count = keep_increasing(keys, (int)n);
    return true;
}

/* One token of an FBX 6 key list: a letter or a number. */
typedef struct KeyToken {
    int     letter;        /* 0 for a number */
    int64_t integer;
    double  number;
} KeyToken;

static size_t key_tokens(Builder *b, const FbxRecord *channel, KeyToken **out)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (int c = 0; c < channel->child_count; c++) {
            const FbxRecord *key = &channel->children[c];
            if (strcmp(key->name, "Key") != 0) continue;
            for (int i = 0; i < key->value_count; i++) {
                const FbxValue *v = &key->values[i];
                if (v->type == FBX_VALUE_INTEGER_ARRAY || v->type == FBX_VALUE_REAL_ARRAY) {
                    for (size_t j = 0; j < v->length; j++, k++)
                        if (pass) (*out)[k] = (KeyToken){0, v->type == FBX_VALUE_INTEGER_ARRAY ? v->integers[j] : (int64_t)v->reals[j],
                                                         v->type == FBX_VALUE_INTEGER_ARRAY ? (double)v->integers[j] : v->reals[j]};
                } else if (v->type == FBX_VALUE_STRING || v->code == 'C') {
                    if (pass) (*out)[k] = (KeyToken){v->type == FBX_VALUE_STRING ? (v->length ? v->string[0] : ' ') : (int)v->integer, 0, 0};
                    k++;
                } else if (v->type == FBX_VALUE_INTEGER || v->type == FBX_VALUE_REAL) {
                    if (pass) (*out)[k] = (KeyToken){0, v->type == FBX_VALUE_INTEGER ? v->integer : (int64_t)0,
                                                     v->type == FBX_VALUE_INTEGER ? (double)v->integer : v->real};
                    k++;
                }
            }
        }
        if (pass == 0) {
            n = k;
            if (n == 0) return 0;
            *out = fbx_document_alloc(b->doc, n * sizeof **out);
            if (!*out) return build_fail(b, "FBX: out of memory"), 0;
        }
    }
    return n;
}

/* Whether a key starts at token i: time, value, then a letter (or the list's end). */
static bool key_starts(const KeyToken *t, size_t n, size_t i)
{
    return i + 1 < n && !t[i].letter && !t[i + 1].letter && (i + 2 >= n || t[i + 2].letter);
}

static bool decode_curve_legacy(Builder *b, const FbxRecord *channel, FbxCurve *curve)
{
    const FbxRecord *def = fbx_record_child(channel, "Default");
    if (def && def->value_count > 0) curve->default_value = def->values[0].type == FBX_VALUE_INTEGER ? (double)def->values[0].integer : def->values[0].real;
    curve->pre_repetitions = curve->post_repetitions = -1;
    KeyToken *t = NULL;
    size_t n = key_tokens(b, channel, &t);
    if (n < 2) return !b->failed;
    FbxCurveKey *keys = fbx_document_alloc(b->doc, (n / 2) * sizeof *keys);
    if (!keys) return build_fail(b, "FBX: out of memory");
    int count = 0;
    size_t i = 0;
    while (i + 1 < n && !t[i].letter && !t[i + 1].letter) {
        FbxCurveKey *k = &keys[count++];
        memset(k, 0, sizeof *k);
        k->time = t[i].integer ? t[i].integer : (int64_t)t[i].number;
        k->value = t[i + 1].number;
        k->interpolation = FBX_INTERPOLATION_LINEAR;
        k->right_weight = k->next_left_weight = 1.0 / 3.0;
        i += 2;
        if (i >= n || !t[i].letter) continue;
        int mode = t[i++].letter;
        if (mode == 'C') {
            k->interpolation = FBX_INTERPOLATION_CONSTANT;
            k->attr_flags = 0x2;
            if (i < n && t[i].letter) k->constant_next = t[i++].letter == 'n';   /* s: standard, n: next */
            if (k->constant_next) k->attr_flags |= 0x100;
        } else if (mode == 'L') {
            k->attr_flags = 0x4;
        } else {
            k->interpolation = FBX_INTERPOLATION_CUBIC;
            k->attr_flags = 0x8;
            int tangent = i < n && t[i].letter ? t[i++].letter : 0;
            /* the tangent letter as the KeyAttrFlags a 7.x file of the same scene carries: a auto
             * (with time-independent, clamp-progressive: 0x6100), s user (0x400), b break (0xC00),
             * t TCB (0x200) */
            k->attr_flags |= tangent == 'a' ? 0x6100u : tangent == 's' ? 0x400u : tangent == 'b' ? 0xC00u : tangent == 't' ? 0x200u : 0u;
            if (tangent == 's' || tangent == 'b') {   /* right slope, next-left slope */
                if (i < n && !t[i].letter) k->right_slope = t[i++].number;
                if (i < n && !t[i].letter) k->next_left_slope = t[i++].number;
            } else {
                while (i < n && !t[i].letter && !key_starts(t, n, i)) i++;
            }
            int weight = i < n && t[i].letter ? t[i++].letter : 0;
            if (weight == 'a' || weight == 'r') {
                if (i < n && !t[i].letter && !key_starts(t, n, i)) k->right_weight = t[i++].number, k->attr_flags |= 0x01000000;
            }
            if (weight == 'a' || weight == 'l') {
                if (i < n && !t[i].letter && !key_starts(t, n, i)) k->next_left_weight = t[i++].number, k->attr_flags |= 0x02000000;
            }
        }
        while (i < n && !key_starts(t, n, i)) i++;   /* anything else this key carries */
    }
    curve->keys = keys;
    curve->key_count = keep_increasing(keys, count);
    return true;
}

/* ---------------------------------------------------------------- FBX 6 / 5 takes */

static int make_object(Builder *b, const char *kind, const char *subclass, const char *name, const FbxRecord *record,
                       const FbxRecord *properties)
{
    FbxObject o = {.id = b->scene->object_count + 1, .kind = kind, .subclass = subclass, .name = name, .record = record,
                   .properties = properties};
    return add_object(b, &o, kind);
}

static double record_number(const FbxRecord *r, int i, double fallback)
{
    if (!r || i >= r->value_count) return fallback;
    const FbxValue *v = &r->values[i];
    return v->type == FBX_VALUE_INTEGER ? (double)v->integer : v->type == FBX_VALUE_REAL ? v->real : fallback;
}

/* The number of a legacy Model's Properties60 `Property: NAME, type, flags, value`, or fallback. */
static double legacy_property_number(const FbxRecord *model, const char *name, double fallback)
{
    const FbxRecord *props = fbx_record_child(model, "Properties60");
    for (int i = 0; props && i < props->child_count; i++) {
        const FbxRecord *p = &props->children[i];
        if (p->value_count < 4 || p->values[0].type != FBX_VALUE_STRING || !p->values[0].string ||
            strcmp(p->values[0].string, name) != 0)
            continue;
        return record_number(p, p->value_count - 1, fallback);
    }
    return fallback;
}

/* FBX 6 / 5 inline blend shapes of the mesh Model `model` (its Geometry `geometry`): a BlendShape
 * deformer on the geometry, per Shape record a BlendShapeChannel (DeformPercent from the Model's
 * property of the shape's name) with the record itself as its Shape geometry. */
static void make_legacy_blend_shapes(Builder *b, int model, int geometry)
{
    const FbxRecord *record = b->scene->objects[model].record;
    const char *model_name = b->scene->objects[model].name;
    int deformer = -1;
    for (int c = 0; c < record->child_count && !b->failed; c++) {
        const FbxRecord *shape = &record->children[c];
        if (strcmp(shape->name, "Shape") != 0 || shape->value_count < 1 || shape->values[0].type != FBX_VALUE_STRING ||
            !shape->values[0].string || !fbx_record_child(shape, "Vertices"))
            continue;
        if (deformer < 0) {
            deformer = make_object(b, "Deformer", "BlendShape", model_name, record, NULL);
            add_connection(b, deformer, geometry, NULL);
        }
        const char *name = shape->values[0].string;
        FbxRecord *list = make_records(b, 1), *p = make_records(b, 1);
        if (!list || !p) return;
        double percent = legacy_property_number(record, name, 0.0);
        if (!make_property(b, p, "DeformPercent", "Number", &percent, 1, NULL)) return;
        list->name = "Properties70";
        list->children = p;
        list->child_count = 1;
        int channel = make_object(b, "Deformer", "BlendShapeChannel", name, shape, list);
        int geometry_shape = make_object(b, "Geometry", "Shape", name, shape, NULL);
        add_connection(b, channel, deformer, NULL);
        add_connection(b, geometry_shape, channel, NULL);
    }
}

/* The BlendShapeChannel made from the Shape named `name` (FBX 5: "NAME (Shape)") inside the
 * record of Model `model`, or -1. */
static int legacy_blend_channel(const FbxScene *s, int model, const char *name)
{
    const FbxRecord *record = s->objects[model].record;
    size_t length = strlen(name);
    static const char suffix[] = " (Shape)";
    if (length > sizeof suffix - 1 && strcmp(name + length - (sizeof suffix - 1), suffix) == 0) length -= sizeof suffix - 1;
    for (int o = 0; o < s->object_count; o++) {
        const FbxObject *obj = &s->objects[o];
        if (strcmp(obj->kind, "Deformer") != 0 || strcmp(obj->subclass, "BlendShapeChannel") != 0) continue;
        if (obj->record < record->children || obj->record >= record->children + record->child_count) continue;
        if (strlen(obj->name) == length && strncmp(obj->name, name, length) == 0) return o;
    }
    return -1;
}

/* A Take's stack properties: LocalStart/LocalStop from LocalTime, ReferenceStart/Stop from ReferenceTime. */
static const FbxRecord *take_properties(Builder *b, const FbxRecord *take)
{
    const FbxRecord *local = fbx_record_child(take, "LocalTime"), *reference = fbx_record_child(take, "ReferenceTime");
    FbxRecord *list = make_records(b, 1), *p = make_records(b, 4);
    if (!list || !p) return NULL;
    const char *names[4] = {"LocalStart", "LocalStop", "ReferenceStart", "ReferenceStop"};
    int count = 0;
    for (int i = 0; i < 4; i++) {
        const FbxRecord *r = i < 2 ? local : reference;
        if (!r || r->value_count < 2) continue;
        const FbxValue *v = &r->values[i % 2];
        int64_t ticks = v->type == FBX_VALUE_INTEGER ? v->integer : (int64_t)record_number(r, i % 2, 0);
        if (!make_property(b, &p[count++], names[i], "KTime", NULL, 0, &ticks)) return NULL;
    }
    list->name = "Properties70";
    list->children = p;
    list->child_count = count;
    return list;
}

static void read_takes(Builder *b, const FbxRecord *takes)
{
    static const char *const channels[3][2] = {{"T", "Lcl Translation"}, {"R", "Lcl Rotation"}, {"S", "Lcl Scaling"}};
    static const char *const axes[3][2] = {{"X", "d|X"}, {"Y", "d|Y"}, {"Z", "d|Z"}};
    for (int t = 0; t < takes->child_count && !b->failed; t++) {
        const FbxRecord *take = &takes->children[t];
        if (strcmp(take->name, "Take") != 0) continue;
        const char *take_name = take->value_count > 0 && take->values[0].type == FBX_VALUE_STRING ? take->values[0].string : "Take";
        int stack = make_object(b, "AnimationStack", "", take_name, take, take_properties(b, take));
        int layer = make_object(b, "AnimationLayer", "", "BaseLayer", take, NULL);
        add_connection(b, layer, stack, NULL);
        for (int m = 0; m < take->child_count && !b->failed; m++) {
            const FbxRecord *model = &take->children[m];
            if (strcmp(model->name, "Model") != 0 || model->value_count < 1) continue;
            int node = fbx_object_by_reference(b->scene, &model->values[0]);
            const FbxRecord *transform = NULL;
            for (int c = 0; c < model->child_count && node >= 0 && !b->failed; c++) {
                const FbxRecord *ch = &model->children[c];
                if (strcmp(ch->name, "Channel") != 0 || ch->value_count < 1 || ch->values[0].type != FBX_VALUE_STRING ||
                    !ch->values[0].string)
                    continue;
                if (strcmp(ch->values[0].string, "Transform") == 0) {
                    transform = ch;
                    continue;
                }
                /* a blend shape's weight: the channel of the Model's Shape of that name */
                int blend_channel = legacy_blend_channel(b->scene, node, ch->values[0].string);
                if (blend_channel < 0 || !fbx_record_child(ch, "Key")) continue;
                FbxRecord *list = make_records(b, 1), *p = make_records(b, 1);
                if (!list || !p) return;
                double d = record_number(fbx_record_child(ch, "Default"), 0, 0.0);
                if (!make_property(b, p, "d|DeformPercent", "Number", &d, 1, NULL)) return;
                list->name = "Properties70";
                list->children = p;
                list->child_count = 1;
                int curve_node = make_object(b, "AnimationCurveNode", "", "DeformPercent", ch, list);
                add_connection(b, curve_node, layer, NULL);
                add_connection(b, curve_node, blend_channel, "DeformPercent");
                int curve = make_object(b, "AnimationCurve", "", "", ch, NULL);
                add_connection(b, curve, curve_node, "d|DeformPercent");
            }
            if (node < 0 || !transform) continue;
            for (int c = 0; c < transform->child_count; c++) {
                const FbxRecord *trs = &transform->children[c];
                if (strcmp(trs->name, "Channel") != 0 || trs->value_count < 1 || trs->values[0].type != FBX_VALUE_STRING) continue;
                int which = -1;
                for (int k = 0; k < 3; k++)
                    if (strcmp(trs->values[0].string, channels[k][0]) == 0) which = k;
                if (which < 0) continue;
                /* the curve node's d|X d|Y d|Z from the axes' Defaults */
                const FbxRecord *axis_records[3] = {0};
                for (int a = 0; a < trs->child_count; a++) {
                    const FbxRecord *ax = &trs->children[a];
                    if (strcmp(ax->name, "Channel") != 0 || ax->value_count < 1 || ax->values[0].type != FBX_VALUE_STRING) continue;
                    for (int k = 0; k < 3; k++)
                        if (strcmp(ax->values[0].string, axes[k][0]) == 0) axis_records[k] = ax;
                }
                FbxRecord *list = make_records(b, 1), *p = make_records(b, 3);
                if (!list || !p) return;
                int props = 0;
                for (int k = 0; k < 3; k++) {
                    if (!axis_records[k]) continue;
                    double d = record_number(fbx_record_child(axis_records[k], "Default"), 0, which == 2 ? 1.0 : 0.0);
                    if (!make_property(b, &p[props++], axes[k][1], "Number", &d, 1, NULL)) return;
                }
                list->name = "Properties70";
                list->children = p;
                list->child_count = props;
                int curve_node = make_object(b, "AnimationCurveNode", channels[which][0], channels[which][0], trs, list);
                add_connection(b, curve_node, layer, NULL);
                add_connection(b, curve_node, node, channels[which][1]);
                for (int k = 0; k < 3; k++) {
                    if (!axis_records[k] || !fbx_record_child(axis_records[k], "Key")) continue;
                    int curve = make_object(b, "AnimationCurve", "", "", axis_records[k], NULL);
                    add_connection(b, curve, curve_node, axes[k][1]);
                }
            }
        }
    }
}

/* FBX 5: a Model's rest transform from its Transform channel's Defaults, as a made Properties70. */
static const FbxRecord *legacy_transform_properties(Builder *b, const FbxRecord *model)
{
    const FbxRecord *transform = NULL;
    for (int c = 0; c < model->child_count; c++) {
        const FbxRecord *ch = &model->children[c];
        if (strcmp(ch->name, "Channel") == 0 && ch->value_count > 0 && ch->values[0].type == FBX_VALUE_STRING &&
            strcmp(ch->values[0].string, "Transform") == 0)
            transform = ch;
    }
    if (!transform) return NULL;
    static const char *const channels[3][2] = {{"T", "Lcl Translation"}, {"R", "Lcl Rotation"}, {"S", "Lcl Scaling"}};
    static const char *const axes[3] = {"X", "Y", "Z"};
    FbxRecord *list = make_records(b, 1), *p = make_records(b, 3);
    if (!list || !p) return NULL;
    int count = 0;
    for (int c = 0; c < transform->child_count; c++) {
        const FbxRecord *trs = &transform->children[c];
        if (strcmp(trs->name, "Channel") != 0 || trs->value_count < 1 || trs->values[0].type != FBX_VALUE_STRING) continue;
        for (int k = 0; k < 3; k++) {
            if (strcmp(trs->values[0].string, channels[k][0]) != 0) continue;
            double xyz[3] = {k == 2, k == 2, k == 2};
            for (int a = 0; a < trs->child_count; a++) {
                const FbxRecord *ax = &trs->children[a];
                if (strcmp(ax->name, "Channel") != 0 || ax->value_count < 1 || ax->values[0].type != FBX_VALUE_STRING) continue;
                for (int i = 0; i < 3; i++)
                    if (strcmp(ax->values[0].string, axes[i]) == 0) xyz[i] = record_number(fbx_record_child(ax, "Default"), 0, xyz[i]);
            }
            if (count < 3 && !make_property(b, &p[count++], channels[k][1], channels[k][1], xyz, 3, NULL)) return NULL;
        }
    }
    list->name = "Properties70";
    list->children = p;
    list->child_count = count;
    return list;
}

/* ---------------------------------------------------------------- global settings */

static double frame_rate_of_time_mode(int mode)
{
    /* FbxTime::EMode */
    static const double rates[] = {0, 120, 100, 60, 50, 48, 30, 30, 29.97, 29.97, 25, 24, 1000, 23.976, 0, 96, 72, 59.94, 119.88};
    return mode >= 0 && mode < (int)(sizeof rates / sizeof rates[0]) ? rates[mode] : 0;
}

static void read_global_settings(Builder *b, const FbxRecord *settings)
{
    FbxScene *s = b->scene;
    s->up_axis = 1, s->up_axis_sign = 1, s->front_axis = 2, s->front_axis_sign = 1, s->coord_axis = 0, s->coord_axis_sign = 1;
    s->unit_scale_factor = 1;
    s->frame_rate = 0;
    const FbxRecord *props = settings ? record_properties(settings) : NULL;
    if (props) {
        FbxObject o = {.properties = props};
        FbxScene view = *s;
        view.objects = &o;
        view.object_count = 1;
        double v;
        struct { const char *name; int *field; } axes[] = {
            {"UpAxis", &s->up_axis}, {"UpAxisSign", &s->up_axis_sign}, {"FrontAxis", &s->front_axis},
            {"FrontAxisSign", &s->front_axis_sign}, {"CoordAxis", &s->coord_axis}, {"CoordAxisSign", &s->coord_axis_sign}};
        for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
            if (fbx_object_property_numbers(&view, 0, axes[i].name, &v, 1) > 0) *axes[i].field = (int)v;
        if (fbx_object_property_numbers(&view, 0, "UnitScaleFactor", &v, 1) > 0 && v > 0) s->unit_scale_factor = v;
        if (fbx_object_property_numbers(&view, 0, "TimeMode", &v, 1) > 0) {
            s->frame_rate = frame_rate_of_time_mode((int)v);
            if ((int)v == 14 && fbx_object_property_numbers(&view, 0, "CustomFrameRate", &v, 1) > 0 && v > 0) s->frame_rate = v;
        }
    }
    if (s->frame_rate == 0) {   /* FBX 6 / 5: [Version5/]Settings/FrameRate: "30" */
        const FbxRecord *old = fbx_record_child(&b->doc->root, "Settings");
        if (!old) old = fbx_record_child(fbx_record_child(&b->doc->root, "Version5"), "Settings");
        const FbxRecord *rate = old ? fbx_record_child(old, "FrameRate") : NULL;
        if (rate && rate->value_count > 0) {
            const FbxValue *v = &rate->values[0];
            double r = v->type == FBX_VALUE_STRING ? atof(v->string) : record_number(rate, 0, 0);
            if (r > 0 && r < 1e6) s->frame_rate = r;
        }
        const FbxRecord *mode = old ? fbx_record_child(old, "TimeMode") : NULL;
        if (s->frame_rate == 0 && mode) s->frame_rate = frame_rate_of_time_mode((int)record_number(mode, 0, 0));
    }
}

/* ---------------------------------------------------------------- the scene */

static bool is_kind(const FbxScene *s, int o, const char *kind)
{
    return o >= 0 && strcmp(s->objects[o].kind, kind) == 0;
}

bool fbx_scene_read(FbxScene *scene, const void *bytes, size_t size, char *error, size_t error_size)
{
    memset(scene, 0, sizeof *scene);
    if (!fbx_document_read(&scene->doc, bytes, size, error, error_size)) return false;
    Builder b = {.scene = scene, .doc = &scene->doc, .error = error, .error_size = error_size};
    const FbxRecord *root = &scene->doc.root;
    const FbxRecord *definitions = fbx_record_child(root, "Definitions");
    const FbxRecord *objects = fbx_record_child(root, "Objects");
    bool legacy = scene->doc.version < 7000;
    const FbxRecord *settings = fbx_record_child(root, "GlobalSettings");

    /* objects */
    const FbxRecord *list = objects ? objects : root;   /* FBX 5: at the top of the file */
    for (int i = 0; i < list->child_count && !b.failed; i++) {
        const FbxRecord *r = &list->children[i];
        if (strcmp(r->name, "GlobalSettings") == 0) {
            settings = r;
            continue;
        }
        if (r->value_count < 1 || (!objects && !is_object_kind(r->name))) continue;
        if (objects && r->values[0].type != FBX_VALUE_INTEGER && r->values[0].type != FBX_VALUE_STRING) continue;
        read_object(&b, r, definitions, scene->object_count + 1);
    }
    int file_objects = scene->object_count;
    /* FBX 6 / 5: each mesh Model's inline geometry as its own object; FBX 5: its Links as a skin */
    int *geometry_of = NULL;
    if (legacy && file_objects > 0 && !b.failed) {
        geometry_of = malloc((size_t)file_objects * sizeof *geometry_of);
        if (!geometry_of) build_fail(&b, "FBX: out of memory");
        for (int i = 0; i < file_objects && !b.failed; i++) {
            geometry_of[i] = -1;
            FbxObject *o = &scene->objects[i];
            if (strcmp(o->kind, "Model") != 0 || !fbx_record_child(o->record, "Vertices")) continue;
            const FbxRecord *record = o->record;
            const char *name = o->name;
            geometry_of[i] = make_object(&b, "Geometry", "Mesh", name, record, NULL);
            add_connection(&b, geometry_of[i], i, NULL);
            make_legacy_blend_shapes(&b, i, geometry_of[i]);
        }
        for (int i = 0; i < file_objects && !b.failed; i++) {
            FbxObject *o = &scene->objects[i];
            if (strcmp(o->kind, "Model") == 0 && !o->properties) o->properties = legacy_transform_properties(&b, o->record);
        }
    }
    if (!b.failed && !build_index(&b)) b.failed = true;
    /* FBX 5 skins (Link records), after the index: their bones are found by name */
    if (legacy && !objects && !b.failed) {
        for (int i = 0; i < file_objects && !b.failed; i++) {
            if (geometry_of[i] < 0 || !fbx_record_child(scene->objects[i].record, "Link")) continue;
            const FbxRecord *record = scene->objects[i].record;
            int skin = make_object(&b, "Deformer", "Skin", scene->objects[i].name, record, NULL);
            add_connection(&b, skin, geometry_of[i], NULL);
            for (int c = 0; c < record->child_count && !b.failed; c++) {
                const FbxRecord *link = &record->children[c];
                if (strcmp(link->name, "Link") != 0 || link->value_count < 1) continue;
                int bone = fbx_object_by_reference(scene, &link->values[0]);
                int cluster = make_object(&b, "Deformer", "Cluster", bone >= 0 ? scene->objects[bone].name : "", link, NULL);
                add_connection(&b, cluster, skin, NULL);
                add_connection(&b, bone, cluster, NULL);
            }
        }
    }

    /* connections */
    const FbxRecord *connections = fbx_record_child(root, "Connections");
    for (int i = 0; connections && i < connections->child_count && !b.failed; i++) {
        const FbxRecord *c = &connections->children[i];
        bool seven = strcmp(c->name, "C") == 0;
        if ((!seven && strcmp(c->name, "Connect") != 0) || c->value_count < 3) continue;
        const char *type = c->values[0].type == FBX_VALUE_STRING ? c->values[0].string : "OO";
        const char *property = type[0] && type[1] == 'P' && c->value_count > 3 && c->values[3].type == FBX_VALUE_STRING
                             ? c->values[3].string : NULL;
        int src = fbx_object_by_reference(scene, &c->values[1]);
        int dst = fbx_object_by_reference(scene, &c->values[2]);
        bool dst_root = (c->values[2].type == FBX_VALUE_INTEGER && c->values[2].integer == 0) ||
                        (c->values[2].type == FBX_VALUE_STRING && dst < 0 &&
                         (strcmp(c->values[2].string, "Model::Scene") == 0 || (c->values[2].length == 12 &&
                          memcmp(c->values[2].string, "Scene\0\1Model", 12) == 0)));
        if (src < 0 || (dst < 0 && !dst_root)) continue;
        /* FBX 6 connects a skin or blend shape to the Model: the one form is its Geometry */
        if (geometry_of && dst >= 0 && dst < file_objects && geometry_of[dst] >= 0 && is_kind(scene, src, "Deformer"))
            dst = geometry_of[dst];
        add_connection(&b, src, dst, property);
    }
    /* FBX 5: Children lists */
    if (legacy && !objects && !b.failed) {
        bool *has_parent = calloc((size_t)(file_objects ? file_objects : 1), 1);
        if (!has_parent) build_fail(&b, "FBX: out of memory");
        for (int i = 0; i < file_objects && !b.failed; i++) {
            if (!is_kind(scene, i, "Model")) continue;
            const FbxRecord *children = fbx_record_child(scene->objects[i].record, "Children");
            for (int k = 0; children && k < children->value_count; k++) {
                int child = fbx_object_by_reference(scene, &children->values[k]);
                if (child < 0 || child >= file_objects || child == i || has_parent[child]) continue;
                has_parent[child] = true;
                add_connection(&b, child, i, NULL);
            }
        }
        for (int i = 0; i < file_objects && !b.failed; i++)
            if (is_kind(scene, i, "Model") && !has_parent[i]) add_connection(&b, i, -1, NULL);
        free(has_parent);
    }
    free(geometry_of);

    /* FBX 6 / 5 takes as stacks, layers, curve nodes and curves */
    const FbxRecord *takes = fbx_record_child(root, "Takes");
    if (legacy && takes && !b.failed) read_takes(&b, takes);
    /* made objects after the index: rebuild it so ids and names find them too */
    if (!b.failed && scene->object_count > file_objects && !build_index(&b)) b.failed = true;

    /* curves */
    if (!b.failed) {
        scene->curves = calloc((size_t)(scene->object_count ? scene->object_count : 1), sizeof *scene->curves);
        if (!scene->curves) build_fail(&b, "FBX: out of memory");
    }
    for (int i = 0; i < scene->object_count && !b.failed; i++) {
        FbxObject *o = &scene->objects[i];
        scene->curves[i].pre_repetitions = scene->curves[i].post_repetitions = -1;
        if (strcmp(o->kind, "AnimationCurve") != 0) continue;
        if (fbx_record_child(o->record, "KeyTime")) decode_curve_7x(&b, o->record, &scene->curves[i]);
        else decode_curve_legacy(&b, o->record, &scene->curves[i]);
    }
    if (!b.failed) read_global_settings(&b, settings);
    if (b.failed) {
        free(b.class_name);
        fbx_scene_free(scene);
        return false;
    }
    free(b.class_name);
    return true;
}

void fbx_scene_free(FbxScene *scene)
{
    free_index(scene->index);
    free(scene->objects);
    free(scene->connections);
    free(scene->curves);
    fbx_document_free(&scene->doc);
    memset(scene, 0, sizeof *scene);
}
