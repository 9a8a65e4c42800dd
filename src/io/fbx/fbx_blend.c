/* fbx_blend.c — blend-shape channels and their in-between targets as morph targets (fbx_blend.h). */
#include "fbx_blend.h"
#include "io/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FBX_MAX_BLEND_TARGETS 1024            /* morph targets one mesh may get from its blend shapes */
#define FBX_MAX_BLEND_BYTES ((size_t)1 << 31) /* their deltas (positions + normals) */

/* Knot j of a channel's path: the targets' full weights with the undeformed mesh (0) inserted
 * after the `below` negative ones. Its value, and its target (-1: the undeformed knot). */
static double knot_value(const double *w, int below, int j)
{
    return j < below ? w[j] : j == below ? 0.0 : w[j - 1];
}

static int knot_target(int below, int j)
{
    return j < below ? j : j == below ? -1 : j - 1;
}

void fbx_blend_target_weights(const double *full_weights, int target_count, double percent, float *weights)
{
    for (int i = 0; i < target_count; i++) weights[i] = 0.0f;
    if (target_count <= 0) return;
    int below = 0;
    while (below < target_count && full_weights[below] < 0) below++;
    int knots = target_count + 1, s = 0;
    /* the segment [knot s, knot s+1] that holds the value; the end segments extend outwards */
    while (s < knots - 2 && percent > knot_value(full_weights, below, s + 1)) s++;
    double a = knot_value(full_weights, below, s), b = knot_value(full_weights, below, s + 1);
    double t = b > a ? (percent - a) / (b - a) : 1.0;   /* share of knot s+1: (v - a) / (b - a) */
    int ta = knot_target(below, s), tb = knot_target(below, s + 1);
    if (ta >= 0) weights[ta] += (float)(1.0 - t);
    if (tb >= 0) weights[tb] += (float)t;
}

void fbx_blend_mesh_free(FbxBlendMesh *blend)
{
    for (int c = 0; c < blend->channel_count; c++) {
        free(blend->channels[c].full_weights);
        free(blend->channels[c].shape_object);
    }
    free(blend->channels);
    memset(blend, 0, sizeof *blend);
}

static bool blend_fail(char *error, size_t error_size, const char *message)
{
    if (error && error_size) io_fail(error, error_size, "%s", message);
    return false;
}

static bool is_object(const FbxScene *s, int o, const char *kind, const char *subclass)
{
    return o >= 0 && o < s->object_count && strcmp(s->objects[o].kind, kind) == 0 && strcmp(s->objects[o].subclass, subclass) == 0;
}

/* The k-th object of this kind/subclass connected to `dst` (in connection order), or -1. */
static int source_of(const FbxScene *s, int dst, const char *kind, const char *subclass, int k)
{
    for (int i = 0, c; (c = fbx_connection_to(s, dst, i)) >= 0; i++) {
        int src = s->connections[c].src;
        if (is_object(s, src, kind, subclass) && k-- == 0) return src;
    }
    return -1;
}

/* A channel's stored value: its DeformPercent property, else its DeformPercent record. */
static double deform_percent(const FbxScene *s, int channel)
{
    double v = 0;
    if (fbx_object_property_numbers(s, channel, "DeformPercent", &v, 1) > 0) return v;
    const FbxRecord *r = fbx_record_child(s->objects[channel].record, "DeformPercent");
    if (r && r->value_count > 0) return r->values[0].type == FBX_VALUE_INTEGER ? (double)r->values[0].integer : r->values[0].real;
    return 0;
}

/* Grows the mesh's morph arrays by `added` targets (zeroed). */
static bool grow_targets(Mesh *mesh, int added)
{
    size_t old = (size_t)mesh->morph_target_count, count = old + (size_t)added, vertices = (size_t)mesh->vertex_count;
    size_t deltas = count * (vertices ? vertices : 1);
    vec3 *positions = calloc(deltas, sizeof *positions), *normals = calloc(deltas, sizeof *normals);
    char(*names)[SV_NAME_MAX] = calloc(count, sizeof *names);
    float *defaults = calloc(count, sizeof *defaults);
    if (!positions || !normals || !names || !defaults) {
        free(positions), free(normals), free(names), free(defaults);
        return false;
    }
    if (old) {
        if (mesh->morph_position_deltas) memcpy(positions, mesh->morph_position_deltas, old * vertices * sizeof *positions);
        if (mesh->morph_normal_deltas) memcpy(normals, mesh->morph_normal_deltas, old * vertices * sizeof *normals);
        if (mesh->morph_target_names) memcpy(names, mesh->morph_target_names, old * sizeof *names);
        if (mesh->morph_default_weights) memcpy(defaults, mesh->morph_default_weights, old * sizeof *defaults);
    }
    free(mesh->morph_position_deltas), free(mesh->morph_normal_deltas), free(mesh->morph_target_names), free(mesh->morph_default_weights);
    mesh->morph_position_deltas = positions;
    mesh->morph_normal_deltas = normals;
    mesh->morph_target_names = names;
    mesh->morph_default_weights = defaults;
    mesh->morph_target_count = (int)count;
    return true;
}

/* Blender writes a channel's FullWeights as one weight per vertex of its one Shape (percent: the
 * shape key's vertex-group weight, 100 without a group), where the FBX SDK writes one full weight
 * per target. A channel with one Shape whose FullWeights count is the Shape's Indexes count holds
 * such per-vertex factors; with one index and one target both readings fit and the file's writer
 * decides (Blender: per vertex). Returns the factors (percent, one per Shape index) or NULL. */
static const double *vertex_full_weights(const FbxScene *s, int channel, int shape, int target_count)
{
    FbxDocument *doc = (FbxDocument *)&s->doc;
    size_t full_count = 0, index_count = 0;
    const double *full = fbx_record_reals(doc, fbx_record_child(s->objects[channel].record, "FullWeights"), &full_count);
    fbx_record_integers(doc, fbx_record_child(s->objects[shape].record, "Indexes"), &index_count);
    if (target_count != 1 || !full || full_count != index_count) return NULL;
    if (full_count == 1 && strncmp(fbx_writing_application(s), "Blender", 7) != 0) return NULL;
    return full;
}

/* One Shape's deltas into target `target` of the mesh, by control point: each Shape index's delta
 * times its Weights entry (when the Shape has one per index) and its per-vertex full weight / 100
 * (vertex_full_weights; NULL: 1). */
static void shape_deltas(const FbxScene *s, int shape, Mesh *mesh, int target, const int *control_point, int *entry_of,
                         const double *vertex_factors)
{
    FbxDocument *doc = (FbxDocument *)&s->doc;
    const FbxRecord *r = s->objects[shape].record;
    size_t index_count, vertex_count, normal_count, weight_count;
    const int64_t *indexes = fbx_record_integers(doc, fbx_record_child(r, "Indexes"), &index_count);
    const double *vertices = fbx_record_reals(doc, fbx_record_child(r, "Vertices"), &vertex_count);
    const double *normals = fbx_record_reals(doc, fbx_record_child(r, "Normals"), &normal_count);
    const double *weights = fbx_record_reals(doc, fbx_record_child(r, "Weights"), &weight_count);
    if (weight_count != index_count) weights = NULL;
    int max_cp = -1;
    for (int v = 0; v < mesh->vertex_count; v++)
        if (control_point[v] > max_cp) max_cp = control_point[v];
    for (int cp = 0; cp <= max_cp; cp++) entry_of[cp] = -1;
    for (size_t i = 0; i < index_count; i++)
        if (indexes[i] >= 0 && indexes[i] <= max_cp) entry_of[indexes[i]] = (int)i;
    vec3 *dp = mesh->morph_position_deltas + (size_t)target * (size_t)mesh->vertex_count;
    vec3 *dn = mesh->morph_normal_deltas + (size_t)target * (size_t)mesh->vertex_count;
    for (int v = 0; v < mesh->vertex_count; v++) {
        int e = control_point[v] >= 0 ? entry_of[control_point[v]] : -1;
        if (e < 0) continue;
        double factor = vertex_factors && isfinite(vertex_factors[e]) ? vertex_factors[e] / 100.0 : 1.0;
        float scale = (float)((weights ? weights[e] : 1.0) * factor);   /* per-index weight x per-vertex factor */
        if (3 * (size_t)e + 2 < vertex_count)
            for (int k = 0; k < 3; k++) dp[v][k] = scale * (float)vertices[3 * (size_t)e + (size_t)k];
        if (3 * (size_t)e + 2 < normal_count)
            for (int k = 0; k < 3; k++) dn[v][k] = scale * (float)normals[3 * (size_t)e + (size_t)k];
    }
}

bool fbx_blend_add_targets(const FbxScene *scene, int geometry, Mesh *mesh, const int *control_point, FbxBlendMesh *out,
                           char *error, size_t error_size)
{
    memset(out, 0, sizeof *out);
    if (!control_point || mesh->vertex_count <= 0) return true;
    /* count the channels and targets first */
    int channels = 0, targets = 0;
    for (int d = 0, deformer; (deformer = source_of(scene, geometry, "Deformer", "BlendShape", d)) >= 0; d++)
        for (int c = 0, channel; (channel = source_of(scene, deformer, "Deformer", "BlendShapeChannel", c)) >= 0; c++) {
            int shapes = 0;
            while (source_of(scene, channel, "Geometry", "Shape", shapes) >= 0) shapes++;
            if (shapes == 0) continue;
            channels++;
            targets += shapes;
            if (targets > FBX_MAX_BLEND_TARGETS) return blend_fail(error, error_size, "FBX: more blend-shape targets than 1024 on one mesh");
        }
    if (channels == 0) return true;
    if ((size_t)(mesh->morph_target_count + targets) * (size_t)mesh->vertex_count * 2 * sizeof(vec3) > FBX_MAX_BLEND_BYTES)
        return blend_fail(error, error_size, "FBX: blend shapes too large for one mesh");
    int max_cp = 0;
    for (int v = 0; v < mesh->vertex_count; v++)
        if (control_point[v] > max_cp) max_cp = control_point[v];
    int *entry_of = malloc(((size_t)max_cp + 1) * sizeof *entry_of);
    out->channels = calloc((size_t)channels, sizeof *out->channels);
    int first = mesh->morph_target_count;
    if (!entry_of || !out->channels || !grow_targets(mesh, targets)) {
        free(entry_of);
        fbx_blend_mesh_free(out);
        return blend_fail(error, error_size, "FBX: out of memory reading blend shapes");
    }
    int target = first;
    for (int d = 0, deformer; (deformer = source_of(scene, geometry, "Deformer", "BlendShape", d)) >= 0; d++)
        for (int c = 0, channel; (channel = source_of(scene, deformer, "Deformer", "BlendShapeChannel", c)) >= 0; c++) {
            int n = 0;
            while (source_of(scene, channel, "Geometry", "Shape", n) >= 0) n++;
            if (n == 0) continue;
            FbxBlendChannel *ch = &out->channels[out->channel_count++];
            ch->channel_object = channel;
            ch->first_target = target;
            ch->target_count = n;
            ch->deform_percent = deform_percent(scene, channel);
            ch->full_weights = malloc((size_t)n * sizeof *ch->full_weights);
            ch->shape_object = malloc((size_t)n * sizeof *ch->shape_object);
            if (!ch->full_weights || !ch->shape_object) {
                free(entry_of);
                fbx_blend_mesh_free(out);
                return blend_fail(error, error_size, "FBX: out of memory reading blend shapes");
            }
            size_t full_count;
            const double *full = fbx_record_reals((FbxDocument *)&scene->doc, fbx_record_child(scene->objects[channel].record, "FullWeights"), &full_count);
            const double *vertex_factors = vertex_full_weights(scene, channel, source_of(scene, channel, "Geometry", "Shape", 0), n);
            if (vertex_factors) full_count = 0;   /* per-vertex factors, not full weights: the target is full at 100 */
            for (int i = 0; i < n; i++) {
                ch->shape_object[i] = source_of(scene, channel, "Geometry", "Shape", i);
                /* FullWeights in the shapes' connection order; missing: evenly up to 100 */
                ch->full_weights[i] = full_count == (size_t)n && isfinite(full[i]) ? full[i] : 100.0 * (i + 1) / n;
            }
            for (int i = 1; i < n; i++)   /* increasing full weight (insertion: a few targets) */
                for (int k = i; k > 0 && ch->full_weights[k - 1] > ch->full_weights[k]; k--) {
                    double w = ch->full_weights[k];
                    ch->full_weights[k] = ch->full_weights[k - 1];
                    ch->full_weights[k - 1] = w;
                    int o = ch->shape_object[k];
                    ch->shape_object[k] = ch->shape_object[k - 1];
                    ch->shape_object[k - 1] = o;
                }
            for (int i = 0; i < n; i++) {
                const char *name = n == 1 ? scene->objects[channel].name : scene->objects[ch->shape_object[i]].name;
                utf8_copy_valid(mesh->morph_target_names[target + i], SV_NAME_MAX, name, strlen(name));
                shape_deltas(scene, ch->shape_object[i], mesh, target + i, control_point, entry_of, vertex_factors);
            }
            fbx_blend_target_weights(ch->full_weights, n, ch->deform_percent, &mesh->morph_default_weights[target]);
            target += n;
        }
    free(entry_of);
    return true;
}
