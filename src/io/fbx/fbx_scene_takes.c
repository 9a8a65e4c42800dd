/* fbx_scene_takes.c — FBX 6 / 5 forms made into the 7.x objects of fbx_scene.h.
 *
 * Rules of this step (the rows of fbx_scene.c's table for FBX 6 and 5):
 *   blend shapes 7.x: Deformer "BlendShape" / "BlendShapeChannel" and Geometry "Shape" objects.
 *                FBX 6 and 5: `Shape: "NAME" { Indexes, Vertices, Normals }` records inside the mesh
 *                Model; made here into the 7.x objects (one BlendShape per mesh, one channel per
 *                Shape, full weight 100, the Shape record as its Shape geometry), the channel's
 *                DeformPercent from the Model's property named NAME (0 without one), and a take's
 *                channel NAME (FBX 5: "NAME (Shape)") in that Model as its DeformPercent curve.
 *   properties   7.x Properties70 `P: name, type, label, flags, values…`; FBX 6 Properties60
 *                `Property: name, type, flags, values…`; FBX 5 has none: its Models' rest
 *                Lcl Translation / Rotation / Scaling come from the Defaults of their Transform
 *                channel (the Model's own, FBX 5.0; else its current take's, FBX 5.8), PostRotation
 *                from its Limits RXAxis / RYAxis / RZAxis (fbx_scene_legacy_transform_properties).
 *   animation    7.x AnimationStack/Layer/CurveNode/Curve objects. FBX 6 and 5: Takes/Take/Model/
 *                Channel "Transform"/"T"|"R"|"S"/"X"|"Y"|"Z" with `Key:` lists: one stack per Take
 *                (LocalTime -> LocalStart/LocalStop, ReferenceTime -> ReferenceStart/ReferenceStop in a
 *                made Properties70), one layer, a curve node per channel (d|X d|Y d|Z from the
 *                Defaults) connected to the Model's Lcl property, a curve per keyed axis.
 */
#include "fbx_scene_builder.h"

/* ---------------------------------------------------------------- FBX 6 / 5 takes */

int fbx_scene_make_object(Builder *b, const char *kind, const char *subclass, const char *name, const FbxRecord *record,
                          const FbxRecord *properties)
{
    FbxObject o = {.id = b->scene->object_count + 1, .kind = kind, .subclass = subclass, .name = name, .record = record,
                   .properties = properties};
    return fbx_scene_add_object(b, &o, kind);
}

double fbx_scene_record_number(const FbxRecord *r, int i, double fallback)
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
        return fbx_scene_record_number(p, p->value_count - 1, fallback);
    }
    return fallback;
}

/* FBX 6 / 5 inline blend shapes of the mesh Model `model` (its Geometry `geometry`): a BlendShape
 * deformer on the geometry, per Shape record a BlendShapeChannel (DeformPercent from the Model's
 * property of the shape's name) with the record itself as its Shape geometry. */
void fbx_scene_make_legacy_blend_shapes(Builder *b, int model, int geometry)
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
            deformer = fbx_scene_make_object(b, "Deformer", "BlendShape", model_name, record, NULL);
            fbx_scene_add_connection(b, deformer, geometry, NULL);
        }
        const char *name = shape->values[0].string;
        FbxRecord *list = fbx_scene_make_records(b, 1), *p = fbx_scene_make_records(b, 1);
        if (!list || !p) return;
        double percent = legacy_property_number(record, name, 0.0);
        if (!fbx_scene_make_property(b, p, "DeformPercent", "Number", &percent, 1, NULL)) return;
        list->name = "Properties70";
        list->children = p;
        list->child_count = 1;
        int channel = fbx_scene_make_object(b, "Deformer", "BlendShapeChannel", name, shape, list);
        int geometry_shape = fbx_scene_make_object(b, "Geometry", "Shape", name, shape, NULL);
        fbx_scene_add_connection(b, channel, deformer, NULL);
        fbx_scene_add_connection(b, geometry_shape, channel, NULL);
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
    FbxRecord *list = fbx_scene_make_records(b, 1), *p = fbx_scene_make_records(b, 4);
    if (!list || !p) return NULL;
    const char *names[4] = {"LocalStart", "LocalStop", "ReferenceStart", "ReferenceStop"};
    int count = 0;
    for (int i = 0; i < 4; i++) {
        const FbxRecord *r = i < 2 ? local : reference;
        if (!r || r->value_count < 2) continue;
        const FbxValue *v = &r->values[i % 2];
        int64_t ticks = v->type == FBX_VALUE_INTEGER ? v->integer : fbx_real_to_integer(fbx_scene_record_number(r, i % 2, 0));
        if (!fbx_scene_make_property(b, &p[count++], names[i], "KTime", NULL, 0, &ticks)) return NULL;
    }
    list->name = "Properties70";
    list->children = p;
    list->child_count = count;
    return list;
}

void fbx_scene_read_takes(Builder *b, const FbxRecord *takes)
{
    static const char *const channels[3][2] = {{"T", "Lcl Translation"}, {"R", "Lcl Rotation"}, {"S", "Lcl Scaling"}};
    static const char *const axes[3][2] = {{"X", "d|X"}, {"Y", "d|Y"}, {"Z", "d|Z"}};
    for (int t = 0; t < takes->child_count && !b->failed; t++) {
        const FbxRecord *take = &takes->children[t];
        if (strcmp(take->name, "Take") != 0) continue;
        const char *take_name = take->value_count > 0 && take->values[0].type == FBX_VALUE_STRING ? take->values[0].string : "Take";
        int stack = fbx_scene_make_object(b, "AnimationStack", "", take_name, take, take_properties(b, take));
        int layer = fbx_scene_make_object(b, "AnimationLayer", "", "BaseLayer", take, NULL);
        fbx_scene_add_connection(b, layer, stack, NULL);
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
                FbxRecord *list = fbx_scene_make_records(b, 1), *p = fbx_scene_make_records(b, 1);
                if (!list || !p) return;
                double d = fbx_scene_record_number(fbx_record_child(ch, "Default"), 0, 0.0);
                if (!fbx_scene_make_property(b, p, "d|DeformPercent", "Number", &d, 1, NULL)) return;
                list->name = "Properties70";
                list->children = p;
                list->child_count = 1;
                int curve_node = fbx_scene_make_object(b, "AnimationCurveNode", "", "DeformPercent", ch, list);
                fbx_scene_add_connection(b, curve_node, layer, NULL);
                fbx_scene_add_connection(b, curve_node, blend_channel, "DeformPercent");
                int curve = fbx_scene_make_object(b, "AnimationCurve", "", "", ch, NULL);
                fbx_scene_add_connection(b, curve, curve_node, "d|DeformPercent");
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
                FbxRecord *list = fbx_scene_make_records(b, 1), *p = fbx_scene_make_records(b, 3);
                if (!list || !p) return;
                int props = 0;
                for (int k = 0; k < 3; k++) {
                    if (!axis_records[k]) continue;
                    double d = fbx_scene_record_number(fbx_record_child(axis_records[k], "Default"), 0, which == 2 ? 1.0 : 0.0);
                    if (!fbx_scene_make_property(b, &p[props++], axes[k][1], "Number", &d, 1, NULL)) return;
                }
                list->name = "Properties70";
                list->children = p;
                list->child_count = props;
                int curve_node = fbx_scene_make_object(b, "AnimationCurveNode", channels[which][0], channels[which][0], trs, list);
                fbx_scene_add_connection(b, curve_node, layer, NULL);
                fbx_scene_add_connection(b, curve_node, node, channels[which][1]);
                for (int k = 0; k < 3; k++) {
                    if (!axis_records[k] || !fbx_record_child(axis_records[k], "Key")) continue;
                    int curve = fbx_scene_make_object(b, "AnimationCurve", "", "", axis_records[k], NULL);
                    fbx_scene_add_connection(b, curve, curve_node, axes[k][1]);
                }
            }
        }
    }
}

/* The Channel child named `name` of a take or Model record, or NULL. */
static const FbxRecord *channel_named(const FbxRecord *r, const char *name)
{
    for (int c = 0; r && c < r->child_count; c++) {
        const FbxRecord *ch = &r->children[c];
        if (strcmp(ch->name, "Channel") == 0 && ch->value_count > 0 && ch->values[0].type == FBX_VALUE_STRING &&
            ch->values[0].string && strcmp(ch->values[0].string, name) == 0)
            return ch;
    }
    return NULL;
}

/* The entry of Model `name` in the take the file calls current (Takes/Current; else its first Take), or NULL. */
static const FbxRecord *current_take_model(const FbxRecord *takes, const char *name)
{
    if (!takes) return NULL;
    const FbxRecord *current = fbx_record_child(takes, "Current"), *take = NULL;
    const char *current_name = current && current->value_count > 0 && current->values[0].type == FBX_VALUE_STRING ?
                               current->values[0].string : NULL;
    for (int t = 0; t < takes->child_count; t++) {
        const FbxRecord *r = &takes->children[t];
        if (strcmp(r->name, "Take") != 0) continue;
        if (!take) take = r;
        if (current_name && r->value_count > 0 && r->values[0].type == FBX_VALUE_STRING && r->values[0].string &&
            strcmp(r->values[0].string, current_name) == 0) {
            take = r;
            break;
        }
    }
    for (int m = 0; take && m < take->child_count; m++) {
        const FbxRecord *r = &take->children[m];
        if (strcmp(r->name, "Model") != 0 || r->value_count < 1) continue;
        Span class_name, model_name;
        fbx_scene_split_span(&r->values[0], "Model", &class_name, &model_name);
        if (fbx_scene_span_compare(model_name, name) == 0) return r;
    }
    return NULL;
}

/* FBX 5: a Model's rest transform as a made Properties70. Lcl Translation / Rotation / Scaling are
 * the Defaults of its Transform channel: the one inside the Model record (FBX 5.0), else the one of
 * its entry in the current take (FBX 5.8 writes the Model record without it: the take is the only
 * place its rest pose is stored). PostRotation is the Model's Limits RXAxis / RYAxis / RZAxis: the
 * same node's 6.1 export writes PostRotation (-90, 0, 0) where 5.8 writes RXAxis: -90 (3ds Max 2009
 * lights and cameras). Nothing of either: NULL (every property at its default). */
const FbxRecord *fbx_scene_legacy_transform_properties(Builder *b, const FbxRecord *model, const FbxRecord *takes, const char *name)
{
    const FbxRecord *transform = channel_named(model, "Transform");
    if (!transform) transform = channel_named(current_take_model(takes, name), "Transform");
    const FbxRecord *limits = fbx_record_child(model, "Limits");
    static const char *const axis_names[3] = {"RXAxis", "RYAxis", "RZAxis"};
    double post[3] = {0, 0, 0};
    bool has_post = false;
    for (int k = 0; limits && k < 3; k++) {
        const FbxRecord *axis = fbx_record_child(limits, axis_names[k]);
        double v = fbx_scene_record_number(axis, 0, 0.0);
        if (axis && isfinite(v)) post[k] = v, has_post = true;
    }
    if (!transform && !has_post) return NULL;
    static const char *const channels[3][2] = {{"T", "Lcl Translation"}, {"R", "Lcl Rotation"}, {"S", "Lcl Scaling"}};
    static const char *const axes[3] = {"X", "Y", "Z"};
    FbxRecord *list = fbx_scene_make_records(b, 1), *p = fbx_scene_make_records(b, 4);
    if (!list || !p) return NULL;
    int count = 0;
    for (int c = 0; transform && c < transform->child_count; c++) {
        const FbxRecord *trs = &transform->children[c];
        if (strcmp(trs->name, "Channel") != 0 || trs->value_count < 1 || trs->values[0].type != FBX_VALUE_STRING) continue;
        for (int k = 0; k < 3; k++) {
            if (strcmp(trs->values[0].string, channels[k][0]) != 0) continue;
            double xyz[3] = {k == 2, k == 2, k == 2};
            for (int a = 0; a < 3; a++) xyz[a] = fbx_scene_record_number(fbx_record_child(channel_named(trs, axes[a]), "Default"), 0, xyz[a]);
            if (count < 3 && !fbx_scene_make_property(b, &p[count++], channels[k][1], channels[k][1], xyz, 3, NULL)) return NULL;
        }
    }
    if (has_post && !fbx_scene_make_property(b, &p[count++], "PostRotation", "Vector3D", post, 3, NULL)) return NULL;
    list->name = "Properties70";
    list->children = p;
    list->child_count = count;
    return list;
}
