/* fbx_scene_builder.c — what the builder of the FBX object graph (fbx_scene_read.c) and its steps
 * (fbx_scene_takes.c, fbx_scene_lookup.c, fbx_scene_curve.c) all call: made records and values,
 * objects and connections added, name spans, the one-line failure. A leaf: it calls none of them.
 */
#include "fbx_scene_builder.h"

bool fbx_scene_build_fail(Builder *b, const char *message)
{
    if (!b->failed && b->error && b->error_size) io_fail(b->error, b->error_size, "%s", message);
    b->failed = true;
    return false;
}

/* ---------------------------------------------------------------- made records */

FbxRecord *fbx_scene_make_records(Builder *b, int count)
{
    FbxRecord *r = fbx_document_alloc(b->doc, (size_t)(count > 0 ? count : 1) * sizeof *r);
    if (!r) fbx_scene_build_fail(b, "FBX: out of memory");
    else memset(r, 0, (size_t)(count > 0 ? count : 1) * sizeof *r);
    return r;
}

static FbxValue *make_values(Builder *b, int count)
{
    FbxValue *v = fbx_document_alloc(b->doc, (size_t)(count > 0 ? count : 1) * sizeof *v);
    if (!v) fbx_scene_build_fail(b, "FBX: out of memory");
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
    v->integer = fbx_real_to_integer(d);
}

static void set_integer(FbxValue *v, int64_t i)
{
    v->type = FBX_VALUE_INTEGER;
    v->integer = i;
    v->real = (double)i;
}

/* A Properties70 `P: name, type, "", "", numbers…` into *p (numbers as reals, or one integer). */
bool fbx_scene_make_property(Builder *b, FbxRecord *p, const char *name, const char *type, const double *numbers, int n,
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

int fbx_scene_add_object(Builder *b, const FbxObject *o, const char *class_name)
{
    FbxScene *s = b->scene;
    if (s->object_count >= FBX_MAX_OBJECTS) return fbx_scene_build_fail(b, "FBX: too many objects"), -1;
    if (s->object_count == b->object_capacity) {
        int capacity = b->object_capacity ? b->object_capacity * 2 : 64;
        FbxObject *objects = realloc(s->objects, (size_t)capacity * sizeof *objects);
        const char **names = objects ? realloc(b->class_name, (size_t)capacity * sizeof *names) : NULL;
        if (objects) s->objects = objects;
        if (names) b->class_name = names;
        if (!objects || !names) return fbx_scene_build_fail(b, "FBX: out of memory"), -1;
        b->object_capacity = capacity;
    }
    s->objects[s->object_count] = *o;
    b->class_name[s->object_count] = class_name;
    return s->object_count++;
}

void fbx_scene_add_connection(Builder *b, int src, int dst, const char *property)
{
    FbxScene *s = b->scene;
    if (src < 0 || b->failed) return;
    if (s->connection_count == b->connection_capacity) {
        int capacity = b->connection_capacity ? b->connection_capacity * 2 : 64;
        if (capacity > FBX_MAX_OBJECTS * 4) {
            fbx_scene_build_fail(b, "FBX: too many connections");
            return;
        }
        FbxConnection *c = realloc(s->connections, (size_t)capacity * sizeof *c);
        if (!c) {
            fbx_scene_build_fail(b, "FBX: out of memory");
            return;
        }
        s->connections = c;
        b->connection_capacity = capacity;
    }
    s->connections[s->connection_count++] = (FbxConnection){src, dst, property};
}

/* Splits a full object name: "Name\0\1Class" (binary) or "Class::Name" (ASCII) or a bare name
 * (class: `fallback_class`). */
void fbx_scene_split_span(const FbxValue *v, const char *fallback_class, Span *class_name, Span *name)
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

const char *fbx_scene_span_copy(Builder *b, Span span)
{
    char *copy = fbx_document_alloc(b->doc, span.n + 1);
    if (!copy) return fbx_scene_build_fail(b, "FBX: out of memory"), "";
    memcpy(copy, span.s, span.n);
    copy[span.n] = '\0';
    return copy;
}

/* strcmp of a span against a C string. */
int fbx_scene_span_compare(Span a, const char *z)
{
    size_t zn = strlen(z);
    int c = memcmp(a.s, z, a.n < zn ? a.n : zn);
    if (c) return c;
    return a.n < zn ? -1 : a.n > zn ? 1 : 0;
}
