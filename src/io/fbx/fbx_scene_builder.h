/* fbx_scene_builder.h — what the FBX object graph's files (fbx_scene*.c) share: the builder's
 * state, the scene's lookup index, name spans.
 *
 *   fbx_scene_read.c     the graph built: objects, global settings, the legacy forms, fbx_scene_read
 *   fbx_scene_builder.c  made records and values, objects and connections added, spans (a leaf)
 *   fbx_scene_lookup.c   the index: objects by id and by (class, name), connections, properties
 *   fbx_scene_curve.c    animation curves decoded: 7.x KeyAttr arrays, FBX 6 / 5 key lists
 *   fbx_scene_takes.c    FBX 6 / 5 forms made into 7.x objects: takes, blend shapes, transforms
 */
#ifndef SKINVIEW_FBX_SCENE_BUILDER_H
#define SKINVIEW_FBX_SCENE_BUILDER_H

#include "fbx_scene.h"
#include "io/report.h"

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

/* A piece of a string (not NUL-terminated). */
typedef struct Span {
    const char *s;
    size_t      n;
} Span;

/* fbx_scene_builder.c */
bool fbx_scene_build_fail(Builder *b, const char *message);
FbxRecord *fbx_scene_make_records(Builder *b, int count);
bool fbx_scene_make_property(Builder *b, FbxRecord *p, const char *name, const char *type, const double *numbers, int n,
                             const int64_t *integer);
int fbx_scene_add_object(Builder *b, const FbxObject *o, const char *class_name);
void fbx_scene_add_connection(Builder *b, int src, int dst, const char *property);
void fbx_scene_split_span(const FbxValue *v, const char *fallback_class, Span *class_name, Span *name);
int fbx_scene_span_compare(Span a, const char *z);
/* The span as a NUL-terminated string in the document's memory; "" (the build failed) when out of memory. */
const char *fbx_scene_span_copy(Builder *b, Span span);

/* fbx_scene_lookup.c */
void fbx_scene_free_index(SceneIndex *index);
bool fbx_scene_build_index(Builder *b);

/* fbx_scene_curve.c */
bool fbx_scene_decode_curve_7x(Builder *b, const FbxRecord *r, FbxCurve *curve);
bool fbx_scene_decode_curve_legacy(Builder *b, const FbxRecord *channel, FbxCurve *curve);

/* fbx_scene_takes.c */
int fbx_scene_make_object(Builder *b, const char *kind, const char *subclass, const char *name, const FbxRecord *record,
                          const FbxRecord *properties);
double fbx_scene_record_number(const FbxRecord *r, int i, double fallback);
void fbx_scene_make_legacy_blend_shapes(Builder *b, int model, int geometry);
void fbx_scene_read_takes(Builder *b, const FbxRecord *takes);
const FbxRecord *fbx_scene_legacy_transform_properties(Builder *b, const FbxRecord *model, const FbxRecord *takes,
                                                       const char *name);

#endif
