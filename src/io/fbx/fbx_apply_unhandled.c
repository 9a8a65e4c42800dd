/* fbx_apply_unhandled.c — stage 8, the --info step: what the file sets that changes a pose, a skin
 * or a shape and that skinview does not apply (Model.source_unhandled, one line each).
 *
 * Rules of this step (docs/skinning.md "FBX properties" has the whole table: every property name
 * found in the FBX files at hand and in the FBX SDK's node, deformer and layer classes, and what
 * became of each — applied, reported here, or why it cannot change the picture):
 *   - A feature is reported only where the file actually uses it: a property at a value that
 *     changes something (limits switched on with an axis flag set, a hidden Model, a quaternion
 *     interpolated rotation that is animated…), a connection that drives one (LookAtProperty), an
 *     object skinview does not evaluate (constraints, vertex caches, other deformers).
 *   - One line per feature: what it is, the FBX names, how many objects use it and the first few
 *     of their names, and what skinview does instead.
 */
#include "fbx_apply_common.h"

#include <stdarg.h>
#include <stdio.h>

#define NAMES_SHOWN 3

/* One reported feature while objects are counted. */
typedef struct Finding {
    int         count;
    const char *names[NAMES_SHOWN];
} Finding;

/* Counts one more object by name (one name counts once: two deformers of one mesh are one mesh). */
static void found(Finding *f, const char *name)
{
    if (!name || !name[0]) name = "(unnamed)";
    for (int i = 0; i < f->count && i < NAMES_SHOWN; i++)
        if (strcmp(f->names[i], name) == 0) return;
    if (f->count < NAMES_SHOWN) f->names[f->count] = name;
    f->count++;
}

/* Appends "WHAT: N KIND (a, b, c, …); HOW" to the model's list, if anything was found. */
static void report(Model *model, const Finding *f, const char *kind, const char *what, const char *how)
{
    if (f->count == 0) return;
    char line[512];
    int n = snprintf(line, sizeof line, "%s: %d %s (", what, f->count, kind);
    for (int i = 0; i < f->count && i < NAMES_SHOWN && n > 0 && (size_t)n < sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", i ? ", " : "", f->names[i]);
    if (n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "%s); %s\n", f->count > NAMES_SHOWN ? ", …" : "", how);
    for (char *c = line; *c; c++)   /* one line each: a control character in a name must not break it */
        if ((unsigned char)*c < 0x20 && !(c[0] == '\n' && c[1] == '\0')) *c = '?';
    size_t used = strlen(model->source_unhandled);
    if (used + strlen(line) < sizeof model->source_unhandled) memcpy(model->source_unhandled + used, line, strlen(line) + 1);
}

static double number(const FbxScene *scene, int object, const char *name, double fallback)
{
    return fbx_read_number(scene, object, name, fallback);
}

/* Limits of one kind switched on: the Active switch and at least one Min/Max axis flag. */
static bool limits_on(const FbxScene *scene, int model, const char *kind)
{
    char name[48];
    snprintf(name, sizeof name, "%sActive", kind);
    if (number(scene, model, name, 0) == 0) return false;
    static const char *const ends[6] = {"MinX", "MinY", "MinZ", "MaxX", "MaxY", "MaxZ"};
    for (int k = 0; k < 6; k++) {
        snprintf(name, sizeof name, "%s%s", kind, ends[k]);
        if (number(scene, model, name, 0) != 0) return true;
    }
    return false;
}

/* The curve node that drives `property` of `object` in any stack, and whether one of its curves
 * (or its default) ever goes below `below`. */
static bool driven_below(const FbxScene *scene, int object, const char *property, double below)
{
    for (int k = 0, c; (c = fbx_connection_to(scene, object, k)) >= 0; k++) {
        const FbxConnection *con = &scene->connections[c];
        if (!con->property || strcmp(con->property, property) != 0 || !fbx_is_kind(scene, con->src, "AnimationCurveNode")) continue;
        for (int u = 0, cu; (cu = fbx_connection_to(scene, con->src, u)) >= 0; u++) {
            int curve = scene->connections[cu].src;
            if (!fbx_is_kind(scene, curve, "AnimationCurve")) continue;
            for (int i = 0; i < scene->curves[curve].key_count; i++)
                if (scene->curves[curve].keys[i].value < below) return true;
        }
    }
    return false;
}

/* An OP connection that drives this property of the object (a look-at or up-vector target). */
static bool property_connected(const FbxScene *scene, int object, const char *property)
{
    for (int k = 0, c; (c = fbx_connection_to(scene, object, k)) >= 0; k++) {
        const FbxConnection *con = &scene->connections[c];
        if (con->property && strcmp(con->property, property) == 0 && !fbx_is_kind(scene, con->src, "AnimationCurveNode"))
            return true;
    }
    return false;
}

static bool rotation_animated(const Stack *stacks, int stack_count, int node)
{
    for (int k = 0; k < stack_count; k++)
        for (int c = 0; c < stacks[k].channel_count; c++)
            if (stacks[k].channels[c].node == node && stacks[k].channels[c].offset == offsetof(FbxNodeProperties, rotation) &&
                (stacks[k].channels[c].curves[0] || stacks[k].channels[c].curves[1] || stacks[k].channels[c].curves[2]))
                return true;
    return false;
}

static bool has_blend_shape(const FbxScene *scene, int model)
{
    int geometry = fbx_geometry_of(scene, model);
    for (int k = 0, c; geometry >= 0 && (c = fbx_connection_to(scene, geometry, k)) >= 0; k++)
        if (fbx_is_subclass(scene, scene->connections[c].src, "BlendShape")) return true;
    return false;
}

/* The name of the Model a deformer deforms (deformer -> Geometry -> Model; FBX 6: -> Model), else
 * the deformer's own. */
static const char *deformed_model_name(const FbxScene *scene, int deformer)
{
    for (int k = 0, c; (c = fbx_connection_from(scene, deformer, k)) >= 0; k++) {
        int dst = scene->connections[c].dst;
        if (fbx_is_kind(scene, dst, "Model")) return scene->objects[dst].name;
        if (!fbx_is_kind(scene, dst, "Geometry")) continue;
        for (int g = 0, cg; (cg = fbx_connection_from(scene, dst, g)) >= 0; g++)
            if (fbx_is_kind(scene, scene->connections[cg].dst, "Model")) return scene->objects[scene->connections[cg].dst].name;
    }
    return scene->objects[deformer].name;
}

void fbx_report_unhandled(Apply *a, const Stack *stacks, int stack_count)
{
    const FbxScene *scene = a->scene;
    Model *model = a->im->model;
    model->source_unhandled[0] = '\0';
    Finding translation_limits = {0}, rotation_limits = {0}, scaling_limits = {0}, quaternion = {0}, hidden = {0};
    Finding hidden_animated = {0}, negative_shapes = {0}, look_at = {0}, up_vector = {0};
    for (int i = 0; i < a->node_count; i++) {
        int o = a->nodes[i].object;
        const char *name = scene->objects[o].name;
        if (limits_on(scene, o, "Translation")) found(&translation_limits, name);
        if (limits_on(scene, o, "Rotation")) found(&rotation_limits, name);
        if (limits_on(scene, o, "Scaling")) found(&scaling_limits, name);
        if (number(scene, o, "QuaternionInterpolate", 0) != 0 && rotation_animated(stacks, stack_count, i)) found(&quaternion, name);
        bool mesh = fbx_geometry_of(scene, o) >= 0;
        if (mesh && number(scene, o, "Visibility", 1) < 0.5) found(&hidden, name);
        else if (mesh && driven_below(scene, o, "Visibility", 0.5)) found(&hidden_animated, name);
        if (number(scene, o, "NegativePercentShapeSupport", 1) == 0 && has_blend_shape(scene, o)) found(&negative_shapes, name);
        if (property_connected(scene, o, "LookAtProperty")) found(&look_at, name);
        if (property_connected(scene, o, "UpVectorProperty")) found(&up_vector, name);
    }
    Finding additive = {0}, vertex_cache = {0}, other_deformer = {0}, constraints = {0}, layer_weight = {0}, layers = {0};
    for (int k = 0; k < stack_count; k++)
        if (stacks[k].layer_count > 1) found(&layers, scene->objects[stacks[k].object].name);
    for (int o = 0; o < scene->object_count; o++) {
        const FbxObject *obj = &scene->objects[o];
        if (fbx_is_kind(scene, o, "Deformer")) {
            if (fbx_is_subclass(scene, o, "Cluster")) {
                const FbxRecord *mode = fbx_record_child(obj->record, "Mode");
                const char *m = mode && mode->value_count > 0 && mode->values[0].type == FBX_VALUE_STRING ? mode->values[0].string : "";
                if (strcmp(m, "Additive") == 0) found(&additive, obj->name);
            } else if (fbx_is_subclass(scene, o, "VertexCacheDeformer")) {
                found(&vertex_cache, deformed_model_name(scene, o));
            } else if (!fbx_is_subclass(scene, o, "Skin") && !fbx_is_subclass(scene, o, "BlendShape") &&
                       !fbx_is_subclass(scene, o, "BlendShapeChannel")) {
                found(&other_deformer, obj->subclass && obj->subclass[0] ? obj->subclass : obj->name);
            }
        } else if (fbx_is_kind(scene, o, "Constraint")) {
            found(&constraints, obj->name);
        } else if (fbx_is_kind(scene, o, "AnimationStack")) {
            for (int k = 0, c, layer = 0; (c = fbx_connection_to(scene, o, k)) >= 0 && layer == 0; k++) {
                int src = scene->connections[c].src;
                if (!fbx_is_kind(scene, src, "AnimationLayer")) continue;
                layer = 1;   /* the base layer: the one that plays */
                if (number(scene, src, "Weight", 100) != 100 || number(scene, src, "Mute", 0) != 0) found(&layer_weight, obj->name);
            }
        }
    }
    report(model, &translation_limits, "Models", "translation limits (TranslationActive with TranslationMin/Max X/Y/Z)",
           "not applied: the curves' values are used as they are");
    report(model, &rotation_limits, "Models", "rotation limits (RotationActive with RotationMin/Max X/Y/Z)",
           "not applied: the curves' values are used as they are");
    report(model, &scaling_limits, "Models", "scaling limits (ScalingActive with ScalingMin/Max X/Y/Z)",
           "not applied: the curves' values are used as they are");
    report(model, &quaternion, "animated Models", "QuaternionInterpolate",
           "not applied: the Euler curves are evaluated at every frame and key, the rotation interpolated between");
    report(model, &hidden, "meshes", "Visibility 0", "not applied: the meshes are drawn");
    report(model, &hidden_animated, "meshes", "animated Visibility that hides", "not applied: the meshes are drawn all along");
    report(model, &negative_shapes, "meshes", "NegativePercentShapeSupport 0",
           "not applied: a negative DeformPercent deforms as it says");
    report(model, &look_at, "Models", "LookAtProperty (an aim target)", "not applied: the Models keep their own rotation");
    report(model, &up_vector, "Models", "UpVectorProperty (an up target)", "not applied: the Models keep their own rotation");
    report(model, &additive, "clusters", "Cluster Mode Additive", "not applied: the weights are normalised as for Normalize");
    report(model, &vertex_cache, "meshes", "VertexCacheDeformer (a geometry cache file)",
           "not read: the meshes keep their stored shape");
    report(model, &other_deformer, "deformers", "other deformers", "not applied");
    report(model, &constraints, "objects", "Constraint", "not evaluated: the constrained Models follow their own curves");
    report(model, &layers, "stacks", "AnimationLayers above the base layer", "not applied: only the base layer plays");
    report(model, &layer_weight, "stacks", "base AnimationLayer Weight other than 100 or Mute",
           "not applied: the base layer plays at full weight");
}
