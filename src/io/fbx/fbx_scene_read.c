/* fbx_scene_read.c — the object graph of fbx_scene.h, built from the records of fbx_doc.h
 * (fbx_scene_read; fbx_scene_free).
 *
 * Where each form keeps what:
 *   objects      7.x: Objects/<Kind>: id, "Name\0\1Class" (binary) or "Class::Name" (ASCII),
 *                "Subclass". FBX 6: the same without the id (named "Class::Name" / "Name\0\1Class").
 *                FBX 5: Model (and Material, Texture, Video, Pose) records at the top of the file.
 *   geometry     7.x: Geometry objects. FBX 6 and 5: inside the mesh Model's own record; a Geometry
 *                object is made here from that record (same record, so Vertices etc. are its
 *                children) and connected to the Model. FBX 6.1 instances (Models naming the same
 *                NodeAttributeName "Geometry::…") share the first one's Geometry, as 7.x shares one.
 *   blend shapes 7.x: Deformer "BlendShape" / "BlendShapeChannel" and Geometry "Shape" objects.
 *                FBX 6 and 5: `Shape: "NAME" { Indexes, Vertices, Normals }` records inside the mesh
 *                Model; made here into the 7.x objects (one BlendShape per mesh, one channel per
 *                Shape, full weight 100, the Shape record as its Shape geometry), the channel's
 *                DeformPercent from the Model's property named NAME (0 without one), and a take's
 *                channel NAME (FBX 5: "NAME (Shape)") in that Model as its DeformPercent curve.
 *   skins        7.x and 6: Deformer "Skin" / "Cluster" objects (FBX 6 connects the skin to the
 *                Model: redirected here to its Geometry). FBX 5: `Link: "Bone"` records inside the
 *                mesh Model (Indexes, Weights, Transform, TransformLink): one Skin for the mesh and
 *                a Cluster per Link are made here, connected as 7.x connects them; a Link whose
 *                name names no Model (5.8: "SubDeformer::_ncl1_1") is the bind pose's Model whose
 *                matrix is its TransformLink.
 *   properties   7.x Properties70 `P: name, type, label, flags, values…`; FBX 6 Properties60
 *                `Property: name, type, flags, values…`; FBX 5 has none: its Models' rest
 *                Lcl Translation / Rotation / Scaling come from the Defaults of their Transform
 *                channel (in the Model record, FBX 5.0; else in the current take, FBX 5.8) and
 *                PostRotation from Limits RXAxis / RYAxis / RZAxis, written into a made Properties70.
 *   connections  7.x `C: "OO"|"OP", src id, dst id[, property]`; FBX 6 `Connect:` with names;
 *                FBX 5 `Children: "a", "b"` lists in each Model (child -> parent).
 *   animation    7.x AnimationStack/Layer/CurveNode/Curve objects. FBX 6 and 5: Takes/Take/Model/
 *                Channel "Transform"/"T"|"R"|"S"/"X"|"Y"|"Z" with `Key:` lists: one stack per Take
 *                (LocalTime -> LocalStart/LocalStop, ReferenceTime -> ReferenceStart/ReferenceStop in a
 *                made Properties70), one layer, a curve node per channel (d|X d|Y d|Z from the
 *                Defaults) connected to the Model's Lcl property, a curve per keyed axis.
 * Curve keys: fbx_scene_curve.c; the FBX 6 / 5 takes, blend shapes and transforms: fbx_scene_takes.c;
 * the lookups: fbx_scene_lookup.c; made records, objects and connections: fbx_scene_builder.c.
 */
#include "fbx_scene_builder.h"

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
    fbx_scene_split_span(first_string < r->value_count ? &r->values[first_string] : NULL, r->name, &class_span, &name_span);
    const char *class_name = fbx_scene_span_copy(b, class_span);
    o.name = fbx_scene_span_copy(b, name_span);
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
    return fbx_scene_add_object(b, &o, class_name);
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
    s->settings_found = props != NULL;
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
            if (fbx_object_property_numbers(&view, 0, axes[i].name, &v, 1) > 0) *axes[i].field = fbx_real_to_int(v);
        if (fbx_object_property_numbers(&view, 0, "UnitScaleFactor", &v, 1) > 0 && v > 0) s->unit_scale_factor = v;
        if (fbx_object_property_numbers(&view, 0, "TimeMode", &v, 1) > 0) {
            s->frame_rate = frame_rate_of_time_mode(fbx_real_to_int(v));
            if (fbx_real_to_int(v) == 14 && fbx_object_property_numbers(&view, 0, "CustomFrameRate", &v, 1) > 0 && v > 0) s->frame_rate = v;
        }
    }
    if (s->frame_rate == 0) {   /* FBX 6 / 5: [Version5/]Settings/FrameRate: "30" */
        const FbxRecord *old = fbx_record_child(&b->doc->root, "Settings");
        if (!old) old = fbx_record_child(fbx_record_child(&b->doc->root, "Version5"), "Settings");
        const FbxRecord *rate = old ? fbx_record_child(old, "FrameRate") : NULL;
        if (rate && rate->value_count > 0) {
            const FbxValue *v = &rate->values[0];
            double r = v->type == FBX_VALUE_STRING ? atof(v->string) : fbx_scene_record_number(rate, 0, 0);
            if (r > 0 && r < 1e6) s->frame_rate = r;
        }
        const FbxRecord *mode = old ? fbx_record_child(old, "TimeMode") : NULL;
        if (s->frame_rate == 0 && mode) s->frame_rate = frame_rate_of_time_mode(fbx_real_to_int(fbx_scene_record_number(mode, 0, 0)));
    }
}

/* ---------------------------------------------------------------- the scene */

static bool is_kind(const FbxScene *s, int o, const char *kind)
{
    return o >= 0 && strcmp(s->objects[o].kind, kind) == 0;
}

/* The bind-pose Model of a FBX 5 `Link` whose name names no Model (3ds Max 2009's 5.8 plug-in names
 * them "SubDeformer::", "SubDeformer::_ncl1_1", …): the Model of the bind pose whose PoseNode Matrix
 * is the Link's TransformLink (each entry within 1e-4 of the larger of 1 and its size), searched
 * in every Pose record of the file (5.8 keeps them in SceneGenericPersistence); -1 when none or
 * more than one Model fits. */
static int legacy_link_bone(const FbxScene *scene, const FbxRecord *link)
{
    FbxDocument *doc = (FbxDocument *)&scene->doc;
    size_t count = 0;
    const double *bind = fbx_record_reals(doc, fbx_record_child(link, "TransformLink"), &count);
    if (!bind || count != 16) return -1;
    int found = -1;
    const FbxRecord *stack[4] = {&scene->doc.root};
    int index[4] = {0}, depth = 0;
    while (depth >= 0) {   /* the records down to depth 3, looking for Pose / PoseNode */
        const FbxRecord *r = stack[depth];
        if (index[depth] >= r->child_count) {
            depth--;
            continue;
        }
        const FbxRecord *child = &r->children[index[depth]++];
        if (strcmp(child->name, "PoseNode") == 0) {
            size_t n = 0;
            const double *m = fbx_record_reals(doc, fbx_record_child(child, "Matrix"), &n);
            const FbxRecord *node = fbx_record_child(child, "Node");
            bool same = m && n == 16 && node && node->value_count > 0;
            for (int i = 0; same && i < 16; i++) same = fabs(m[i] - bind[i]) <= 1e-4 * fmax(1.0, fabs(bind[i]));
            int model = same ? fbx_object_by_reference(scene, &node->values[0]) : -1;
            if (model >= 0 && is_kind(scene, model, "Model") && model != found) {
                if (found >= 0) return -1;   /* two Models bound at the same matrix: no way to tell */
                found = model;
            }
        } else if (depth + 1 < 4 && child->child_count > 0) {
            stack[++depth] = child;
            index[depth] = 0;
        }
    }
    return found;
}

/* FBX 6.1 instancing: every instance of one shape is a mesh Model with the geometry written inline
 * again, and all name it by the same `NodeAttributeName: "Geometry::NAME"` (Maya: the first
 * instance's shape, "pCube1_ncl1_1"); the skin and blend shapes are connected to the first instance
 * only. The earlier mesh Model (index below `model`, its name in shape_name[]) that names the same
 * geometry with the same number of control points and polygon-vertices, or -1. Sets
 * shape_name[model] to this Model's NodeAttributeName (NULL: none). */
static int legacy_instance_of(const FbxScene *scene, const FbxValue **shape_name, int model)
{
    const FbxRecord *record = scene->objects[model].record, *name = fbx_record_child(record, "NodeAttributeName");
    shape_name[model] = NULL;
    if (!name || name->value_count < 1 || name->values[0].type != FBX_VALUE_STRING || !name->values[0].string) return -1;
    const FbxValue *mine = &name->values[0];
    shape_name[model] = mine;
    FbxDocument *doc = (FbxDocument *)&scene->doc;
    size_t points = 0, corners = 0;
    bool counted = false;
    for (int i = 0; i < model; i++) {
        const FbxValue *other = shape_name[i];
        if (!other || other->length != mine->length || memcmp(other->string, mine->string, mine->length) != 0) continue;
        if (!counted) {
            fbx_record_reals(doc, fbx_record_child(record, "Vertices"), &points);
            fbx_record_integers(doc, fbx_record_child(record, "PolygonVertexIndex"), &corners);
            counted = true;
        }
        size_t other_points = 0, other_corners = 0;
        fbx_record_reals(doc, fbx_record_child(scene->objects[i].record, "Vertices"), &other_points);
        fbx_record_integers(doc, fbx_record_child(scene->objects[i].record, "PolygonVertexIndex"), &other_corners);
        if (other_points == points && other_corners == corners) return i;
    }
    return -1;
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
        const FbxValue **shape_name = calloc((size_t)file_objects, sizeof *shape_name);   /* legacy_instance_of */
        if (!geometry_of || !shape_name) fbx_scene_build_fail(&b, "FBX: out of memory");
        for (int i = 0; i < file_objects && !b.failed; i++) {
            geometry_of[i] = -1;
            FbxObject *o = &scene->objects[i];
            if (strcmp(o->kind, "Model") != 0 || !fbx_record_child(o->record, "Vertices")) continue;
            int instance_of = legacy_instance_of(scene, shape_name, i);
            if (instance_of >= 0) {   /* an instance: the first Model's geometry, connected to this one too */
                geometry_of[i] = geometry_of[instance_of];
                fbx_scene_add_connection(&b, geometry_of[i], i, NULL);
                continue;
            }
            const FbxRecord *record = o->record;
            const char *name = o->name;
            geometry_of[i] = fbx_scene_make_object(&b, "Geometry", "Mesh", name, record, NULL);
            fbx_scene_add_connection(&b, geometry_of[i], i, NULL);
            fbx_scene_make_legacy_blend_shapes(&b, i, geometry_of[i]);
        }
        free(shape_name);
        for (int i = 0; i < file_objects && !b.failed; i++) {
            FbxObject *o = &scene->objects[i];
            if (strcmp(o->kind, "Model") == 0 && !o->properties)
                o->properties = fbx_scene_legacy_transform_properties(&b, o->record, fbx_record_child(root, "Takes"), o->name);
        }
    }
    if (!b.failed && !fbx_scene_build_index(&b)) b.failed = true;
    /* FBX 5 skins (Link records), after the index: their bones are found by name */
    if (legacy && !objects && !b.failed) {
        for (int i = 0; i < file_objects && !b.failed; i++) {
            if (geometry_of[i] < 0 || !fbx_record_child(scene->objects[i].record, "Link")) continue;
            const FbxRecord *record = scene->objects[i].record;
            int skin = fbx_scene_make_object(&b, "Deformer", "Skin", scene->objects[i].name, record, NULL);
            fbx_scene_add_connection(&b, skin, geometry_of[i], NULL);
            for (int c = 0; c < record->child_count && !b.failed; c++) {
                const FbxRecord *link = &record->children[c];
                if (strcmp(link->name, "Link") != 0 || link->value_count < 1) continue;
                int bone = fbx_object_by_reference(scene, &link->values[0]);
                if (bone < 0 || !is_kind(scene, bone, "Model")) bone = legacy_link_bone(scene, link);
                int cluster = fbx_scene_make_object(&b, "Deformer", "Cluster", bone >= 0 ? scene->objects[bone].name : "", link, NULL);
                fbx_scene_add_connection(&b, cluster, skin, NULL);
                fbx_scene_add_connection(&b, bone, cluster, NULL);
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
        fbx_scene_add_connection(&b, src, dst, property);
    }
    /* FBX 5: Children lists */
    if (legacy && !objects && !b.failed) {
        bool *has_parent = calloc((size_t)(file_objects ? file_objects : 1), 1);
        if (!has_parent) fbx_scene_build_fail(&b, "FBX: out of memory");
        for (int i = 0; i < file_objects && !b.failed; i++) {
            if (!is_kind(scene, i, "Model")) continue;
            const FbxRecord *children = fbx_record_child(scene->objects[i].record, "Children");
            for (int k = 0; children && k < children->value_count; k++) {
                int child = fbx_object_by_reference(scene, &children->values[k]);
                if (child < 0 || child >= file_objects || child == i || has_parent[child]) continue;
                has_parent[child] = true;
                fbx_scene_add_connection(&b, child, i, NULL);
            }
        }
        for (int i = 0; i < file_objects && !b.failed; i++)
            if (is_kind(scene, i, "Model") && !has_parent[i]) fbx_scene_add_connection(&b, i, -1, NULL);
        free(has_parent);
    }
    free(geometry_of);

    /* FBX 6 / 5 takes as stacks, layers, curve nodes and curves */
    const FbxRecord *takes = fbx_record_child(root, "Takes");
    if (legacy && takes && !b.failed) fbx_scene_read_takes(&b, takes);
    /* made objects after the index: rebuild it so ids and names find them too */
    if (!b.failed && scene->object_count > file_objects && !fbx_scene_build_index(&b)) b.failed = true;

    /* curves */
    if (!b.failed) {
        scene->curves = calloc((size_t)(scene->object_count ? scene->object_count : 1), sizeof *scene->curves);
        if (!scene->curves) fbx_scene_build_fail(&b, "FBX: out of memory");
    }
    for (int i = 0; i < scene->object_count && !b.failed; i++) {
        FbxObject *o = &scene->objects[i];
        scene->curves[i].pre_repetitions = scene->curves[i].post_repetitions = -1;
        if (strcmp(o->kind, "AnimationCurve") != 0) continue;
        if (fbx_record_child(o->record, "KeyTime")) fbx_scene_decode_curve_7x(&b, o->record, &scene->curves[i]);
        else fbx_scene_decode_curve_legacy(&b, o->record, &scene->curves[i]);
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
    fbx_scene_free_index(scene->index);
    free(scene->objects);
    free(scene->connections);
    free(scene->curves);
    fbx_document_free(&scene->doc);
    memset(scene, 0, sizeof *scene);
}
