/* info.c — `skinview MODEL --info [--json]`: what the importer made of a file. */
#include "commands.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct StatField {
    const char *name;
    int         value;
} StatField;

/* The import stats in a fixed order (names = the ImportStats fields). */
/* "+X", "-Z", ...: an axis index 0..2 with its sign */
static void axis_text(int axis, int sign, char out[3])
{
    out[0] = sign < 0 ? '-' : '+';
    out[1] = (char)('X' + (axis >= 0 && axis <= 2 ? axis : 0));
    out[2] = '\0';
}

static int stat_fields(const ImportStats *s, StatField out[24])
{
    int n = 0;
    out[n++] = (StatField){"vertices_influences_cut", s->vertices_influences_cut};
    out[n++] = (StatField){"vertices_renormalized", s->vertices_renormalized};
    out[n++] = (StatField){"vertices_unweighted", s->vertices_unweighted};
    out[n++] = (StatField){"bones_without_node", s->bones_without_node};
    out[n++] = (StatField){"clips_renamed", s->clips_renamed};
    out[n++] = (StatField){"channels_without_node", s->channels_without_node};
    out[n++] = (StatField){"meshes_split_by_bones", s->meshes_split_by_bones};
    out[n++] = (StatField){"textures_missing", s->textures_missing};
    out[n++] = (StatField){"repairs", s->repairs};
    out[n++] = (StatField){"skins_rebuilt", s->skins_rebuilt};
    out[n++] = (StatField){"scale_helpers", s->scale_helpers};
    out[n++] = (StatField){"influence_runs_in_file", s->influence_runs_in_file};
    out[n++] = (StatField){"influence_runs", s->influence_runs};
    out[n++] = (StatField){"keys_in_file", s->keys_in_file};
    out[n++] = (StatField){"keys", s->keys};
    out[n++] = (StatField){"blend_shapes_from_file", s->blend_shapes_from_file};
    return n;
}

/* JSON strings must be UTF-8: names from the importer already are (see import_internal.h),
 * but the file path comes from the command line as raw bytes. Invalid bytes -> U+FFFD. */
static void add_string(cJSON *object, const char *key, const char *text)
{
    size_t length = strlen(text);
    char *valid = malloc(3 * length + 1);
    if (!valid) return;
    utf8_copy_valid(valid, 3 * length + 1, text, length);
    cJSON_AddStringToObject(object, key, valid);
    free(valid);
}

/* The same for an array item. */
static void add_string_item(cJSON *array, const char *text)
{
    size_t length = strlen(text);
    char *valid = malloc(3 * length + 1);
    if (!valid) return;
    utf8_copy_valid(valid, 3 * length + 1, text, length);
    cJSON_AddItemToArray(array, cJSON_CreateString(valid));
    free(valid);
}

/* Text mode is one item per line: a control character in a name (a newline in an
 * FBX node name) must not start a new line. Writes `text` or `fallback`, controls as '?'. */
static void print_name(const char *text, const char *fallback)
{
    if (!text[0]) text = fallback;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) putchar(*c < 0x20 || *c == 0x7f ? '?' : *c);
}

/* The interpolation kinds a clip's channels use, e.g. "linear+step" ("no keys" if none). */
static void print_interpolations(const Clip *clip)
{
    unsigned kinds = clip_interpolation_kinds(clip);
    if (!kinds) printf("no keys");
    const char *separator = "";
    for (int k = 0; k < INTERPOLATION_KINDS; k++)
        if (kinds & (1u << k)) {
            printf("%s%s", separator, interpolation_name((Interpolation)k));
            separator = "+";
        }
}

/* FBX: the curve kinds a clip was resampled from and its extrapolations, e.g. "cubic+linear". */
static const char *const source_interpolation_names[] = {"constant", "linear", "cubic"};
static const char *const source_extrapolation_names[] = {"constant", "repetition", "mirror", "keep-slope",
                                                         "relative-repetition"};
#define SOURCE_INTERPOLATION_KINDS 3
#define SOURCE_EXTRAPOLATION_KINDS 5

static void print_bits(unsigned bits, const char *const *names, int count)
{
    const char *separator = "";
    for (int k = 0; k < count; k++)
        if (bits & (1u << k)) {
            printf("%s%s", separator, names[k]);
            separator = "+";
        }
}

static cJSON *bits_array(unsigned bits, const char *const *names, int count)
{
    cJSON *array = cJSON_CreateArray();
    for (int k = 0; array && k < count; k++)
        if (bits & (1u << k)) cJSON_AddItemToArray(array, cJSON_CreateString(names[k]));
    return array;
}

#define INFO_FEATURE_NAMES 4   /* joints named on a feature's summary line (all: --verbose, --json) */

static int joints_with_source_features(const Skeleton *skeleton)
{
    int n = 0;
    for (int j = 0; skeleton->source_features && j < skeleton->joint_count; j++) n += skeleton->source_features[j] != 0;
    return n;
}

static long clip_key_count(const Clip *clip)
{
    long keys = 0;
    for (int t = 0; t < clip->track_count; t++)
        keys += clip->tracks[t].translation_count + clip->tracks[t].rotation_count + clip->tracks[t].scale_count;
    return keys;
}

static int bone_joint_count(const Skeleton *skeleton)
{
    int bones = 0;
    for (int j = 0; j < skeleton->joint_count; j++)
        if (skeleton->is_bone[j]) bones++;
    return bones;
}

static int print_text(const Model *model, bool verbose)
{
    printf("file: ");
    print_name(model->source_path, "");
    putchar('\n');
    int elements[3] = {0, 0, 0};   /* triangles, line segments, points (Mesh.primitive) */
    for (int m = 0; m < model->mesh_count; m++)
        elements[model->meshes[m].primitive] += mesh_element_count(&model->meshes[m]);
    printf("meshes: %d (%d vertices, %d triangles", model->mesh_count, model_total_vertices(model), elements[MESH_TRIANGLES]);
    if (elements[MESH_LINES]) printf(", %d line segments", elements[MESH_LINES]);
    if (elements[MESH_POINTS]) printf(", %d points", elements[MESH_POINTS]);
    printf(")\n");
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        printf("  [%d] ", m);
        print_name(mesh->name, "(unnamed)");
        printf(": %d vertices, %d %s, %d bones, %s", mesh->vertex_count, mesh_element_count(mesh),
               mesh_primitive_plural(mesh->primitive), mesh->bone_count, mesh->skinned ? "skinned" : "static");
        if (mesh->morph_target_count > 0) printf(", %d morph targets", mesh->morph_target_count);
        if (mesh->skinned && mesh->skinning_in_file != MESH_SKINNING_LINEAR)   /* FBX SkinningType */
            printf(", the file asks for %s skinning (%s)",
                   mesh->skinning_in_file == MESH_SKINNING_DUAL_QUATERNION ? "dual quaternion" : "blended (LBS/DQ per vertex)",
                   model_asks_dual_quaternion(model) ? "--export-gltf: LBS + corrective morph targets"
                                                     : "shown and exported as LBS: not every skinned mesh asks for it");
        putchar('\n');
        for (int t = 0; t < mesh->morph_target_count; t++) {
            printf("      morph target [%d] ", t);
            print_name(mesh->morph_target_names[t], "(unnamed)");
            printf(": default weight %g\n", (double)mesh->morph_default_weights[t]);
        }
    }
    printf("joints: %d (%d bones)\n", model->skeleton.joint_count, bone_joint_count(&model->skeleton));
    const Skeleton *sk = &model->skeleton;
    if (joints_with_source_features(sk) > 0) {   /* FBX: what the nodes use beyond T·R·S, one line per feature */
        printf("  FBX node features (%d joints%s):\n", joints_with_source_features(sk),
               verbose ? ", each listed at the end" : "; --verbose lists each joint's");
        for (int k = 0; k < JOINT_SOURCE_FEATURE_COUNT; k++) {
            int joints = 0;
            for (int j = 0; j < sk->joint_count; j++) joints += (sk->source_features[j] >> k) & 1u;
            if (joints == 0) continue;
            printf("    %s: %d joint%s (", joint_source_feature_name(k), joints, joints == 1 ? "" : "s");
            int named = 0;
            for (int j = 0; j < sk->joint_count && named < INFO_FEATURE_NAMES; j++) {
                if (!((sk->source_features[j] >> k) & 1u)) continue;
                if (named++) printf(", ");
                print_name(sk->names[j], "(unnamed)");
            }
            printf("%s)\n", joints > INFO_FEATURE_NAMES ? ", ..." : "");
        }
    }
    if (model->source_unhandled[0]) {   /* FBX: what the file uses and skinview does not apply */
        printf("  FBX features not applied:\n");
        for (const char *line = model->source_unhandled; *line;) {
            const char *end = strchr(line, '\n');
            size_t length = end ? (size_t)(end - line) : strlen(line);
            printf("    %.*s\n", (int)length, line);
            line += length + (end ? 1 : 0);
        }
    }
    if (model->extensions_used[0] || model->extensions_required[0])   /* glTF: the file's extensions */
        printf("glTF extensions: used %s; required %s\n", model->extensions_used[0] ? model->extensions_used : "none",
               model->extensions_required[0] ? model->extensions_required : "none");
    if (model->axes.known) {   /* FBX: the file's axes and unit; skinview shows them as they are */
        char right[3], up[3], front[3];
        axis_text(model->axes.right_axis, model->axes.right_sign, right);
        axis_text(model->axes.up_axis, model->axes.up_sign, up);
        axis_text(model->axes.front_axis, model->axes.front_sign, front);
        printf("axes: %s up, %s front, %s right; unit %g m (--export-gltf converts to +Y up, +Z front, metres)\n", up,
               front, right, model->axes.metres_per_unit);
    }
    printf("clips: %d\n", model->clip_count);
    for (int c = 0; c < model->clip_count; c++) {
        const Clip *clip = &model->clips[c];
        printf("  [%d] ", c);
        print_name(clip->name, "(unnamed)");
        printf(": %.3f s, %d tracks, %ld keys, ", (double)clip->duration, clip->track_count, clip_key_count(clip));
        print_interpolations(clip);
        if (clip->start - clip->file_time_shift != 0.0f)
            printf(", starts at %.3f s", (double)(clip->start - clip->file_time_shift));
        if (clip->source_interpolations) {
            printf(", FBX curves ");
            print_bits(clip->source_interpolations, source_interpolation_names, SOURCE_INTERPOLATION_KINDS);
            if (clip->source_extrapolations) {
                printf(", extrapolation ");
                print_bits(clip->source_extrapolations, source_extrapolation_names, SOURCE_EXTRAPOLATION_KINDS);
            }
        }
        if (clip->morph_track_count > 0) printf(", %d morph channels", clip->morph_track_count);
        if (clip->source_file[0]) printf(", from %s", clip->source_file);   /* --animations */
        printf("\n");
        for (int t = 0; t < clip->morph_track_count; t++) {
            const MorphTrack *track = &clip->morph_tracks[t];
            const Mesh *mesh = &model->meshes[track->mesh];
            printf("      morph weight: mesh [%d] ", track->mesh);
            print_name(mesh->name, "(unnamed)");
            printf(" target [%d] ", track->target);
            print_name(mesh->morph_target_names[track->target], "(unnamed)");
            printf(": %d keys, %s\n", track->key_count, interpolation_name(track->interpolation));
        }
    }
    StatField fields[24];
    int n = stat_fields(&model->stats, fields);
    bool header = false;
    for (int i = 0; i < n; i++) {
        if (fields[i].value == 0) continue;
        if (!header) printf("import:\n");
        header = true;
        printf("  %s: %d\n", fields[i].name, fields[i].value);
    }
    if (model->stats.key_tolerance > 0.0f) {
        printf("  optimize_keys: %ld -> %ld keys (tolerance %g of the diagonal)", (long)model->stats.keys_in_file,
               (long)model->stats.keys, model->stats.key_tolerance);
        if (model->stats.key_error >= 0.0f) printf(", worst pose change %.3g of the diagonal", model->stats.key_error);
        printf("\n");
    }
    if (verbose && joints_with_source_features(sk) > 0) {   /* --verbose: every joint's features, last */
        printf("FBX node features per joint:\n");
        for (int j = 0; j < sk->joint_count; j++) {
            if (!sk->source_features[j]) continue;
            printf("  ");
            print_name(sk->names[j], "(unnamed)");
            printf(": ");
            const char *separator = "";
            for (int k = 0; k < JOINT_SOURCE_FEATURE_COUNT; k++)
                if (sk->source_features[j] & (1u << k)) {
                    printf("%s%s", separator, joint_source_feature_name(k));
                    separator = ", ";
                }
            putchar('\n');
        }
    }
    return 0;
}

static int print_json(const Model *model)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return 1;
    add_string(root, "file", model->source_path);

    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        cJSON *item = cJSON_CreateObject();
        add_string(item, "name", mesh->name);
        cJSON_AddNumberToObject(item, "vertices", mesh->vertex_count);
        cJSON_AddNumberToObject(item, "triangles", mesh->primitive == MESH_TRIANGLES ? mesh_element_count(mesh) : 0);
        if (mesh->primitive != MESH_TRIANGLES)   /* "lines": segments, "points": points */
            cJSON_AddNumberToObject(item, mesh->primitive == MESH_LINES ? "lines" : "points", mesh_element_count(mesh));
        cJSON_AddNumberToObject(item, "bones", mesh->bone_count);
        cJSON_AddBoolToObject(item, "skinned", mesh->skinned);
        cJSON_AddNumberToObject(item, "material", mesh->material);
        static const char *const file_skinning[] = {"linear", "dual_quaternion", "blend"};
        cJSON_AddStringToObject(item, "skinning_in_file", file_skinning[mesh->skinning_in_file <= 2 ? mesh->skinning_in_file : 0]);
        cJSON *targets = cJSON_AddArrayToObject(item, "morph_targets");
        for (int t = 0; t < mesh->morph_target_count; t++) {
            cJSON *target = cJSON_CreateObject();
            cJSON_AddNumberToObject(target, "index", t);
            add_string(target, "name", mesh->morph_target_names[t]);
            cJSON_AddNumberToObject(target, "default_weight", mesh->morph_default_weights[t]);
            cJSON_AddItemToArray(targets, target);
        }
        cJSON_AddItemToArray(meshes, item);
    }
    cJSON_AddNumberToObject(root, "vertex_count", model_total_vertices(model));
    cJSON_AddNumberToObject(root, "joint_count", model->skeleton.joint_count);
    cJSON_AddNumberToObject(root, "bone_count", bone_joint_count(&model->skeleton));
    if (joints_with_source_features(&model->skeleton) > 0) {   /* FBX node features, per joint that has any */
        cJSON *features = cJSON_AddArrayToObject(root, "fbx_node_features");
        const Skeleton *sk = &model->skeleton;
        for (int j = 0; j < sk->joint_count; j++) {
            if (!sk->source_features[j]) continue;
            cJSON *item = cJSON_CreateObject();
            cJSON_AddNumberToObject(item, "joint", j);
            add_string(item, "name", sk->names[j]);
            cJSON *list = cJSON_AddArrayToObject(item, "features");
            for (int k = 0; k < JOINT_SOURCE_FEATURE_COUNT; k++)
                if (sk->source_features[j] & (1u << k))
                    cJSON_AddItemToArray(list, cJSON_CreateString(joint_source_feature_name(k)));
            cJSON_AddItemToArray(features, item);
        }
    }
    if (model->axes.known) {   /* FBX: "axes": {"up": "+Z", "front": "-Y", "right": "+X", "metres_per_unit": 0.01} */
        cJSON *axes = cJSON_AddObjectToObject(root, "axes");
        char text[3];
        axis_text(model->axes.up_axis, model->axes.up_sign, text);
        cJSON_AddStringToObject(axes, "up", text);
        axis_text(model->axes.front_axis, model->axes.front_sign, text);
        cJSON_AddStringToObject(axes, "front", text);
        axis_text(model->axes.right_axis, model->axes.right_sign, text);
        cJSON_AddStringToObject(axes, "right", text);
        cJSON_AddNumberToObject(axes, "metres_per_unit", model->axes.metres_per_unit);
    }
    if (model->source_unhandled[0]) {   /* FBX: one string per feature the file uses and skinview does not apply */
        cJSON *list = cJSON_AddArrayToObject(root, "fbx_not_applied");
        for (const char *line = model->source_unhandled; list && *line;) {
            const char *end = strchr(line, '\n');
            size_t length = end ? (size_t)(end - line) : strlen(line);
            char copy[512];
            snprintf(copy, sizeof copy, "%.*s", (int)(length < sizeof copy ? length : sizeof copy - 1), line);
            add_string_item(list, copy);
            line += length + (end ? 1 : 0);
        }
    }
    cJSON_AddNumberToObject(root, "material_count", model->material_count);
    cJSON_AddNumberToObject(root, "texture_count", model->texture_count);
    /* glTF: extensionsUsed / extensionsRequired (empty arrays for every other format) */
    const char *lists[2] = {model->extensions_used, model->extensions_required};
    const char *keys[2] = {"extensions_used", "extensions_required"};
    for (int l = 0; l < 2; l++) {
        cJSON *array = cJSON_AddArrayToObject(root, keys[l]);
        char copy[sizeof model->extensions_used];
        snprintf(copy, sizeof copy, "%s", lists[l]);
        for (char *name = copy, *comma; name && *name; name = comma ? comma + 1 : NULL) {
            comma = strchr(name, ',');
            if (comma) *comma = '\0';
            if (*name) cJSON_AddItemToArray(array, cJSON_CreateString(name));
        }
    }

    cJSON *clips = cJSON_AddArrayToObject(root, "clips");
    for (int c = 0; c < model->clip_count; c++) {
        const Clip *clip = &model->clips[c];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "index", c);
        add_string(item, "name", clip->name);
        add_string(item, "source", clip->source_file);   /* "" for the model's own, else the file it came from */
        cJSON_AddNumberToObject(item, "duration", clip->duration);
        cJSON_AddNumberToObject(item, "tracks", clip->track_count);
        cJSON_AddNumberToObject(item, "keys", (double)clip_key_count(clip));
        cJSON_AddNumberToObject(item, "ticks_per_second", clip->source_ticks_per_second);
        cJSON_AddNumberToObject(item, "start", clip->start - clip->file_time_shift);   /* file time of the first key, seconds */
        cJSON *kinds = cJSON_AddArrayToObject(item, "interpolation");
        unsigned used = clip_interpolation_kinds(clip);
        for (int k = 0; k < INTERPOLATION_KINDS; k++)
            if (used & (1u << k)) cJSON_AddItemToArray(kinds, cJSON_CreateString(interpolation_name((Interpolation)k)));
        if (clip->source_interpolations) {   /* FBX: the curves the clip was resampled from */
            cJSON_AddItemToObject(item, "fbx_curve_interpolations",
                                  bits_array(clip->source_interpolations, source_interpolation_names, SOURCE_INTERPOLATION_KINDS));
            cJSON_AddItemToObject(item, "fbx_curve_extrapolations",
                                  bits_array(clip->source_extrapolations, source_extrapolation_names, SOURCE_EXTRAPOLATION_KINDS));
        }
        cJSON *channels = cJSON_AddArrayToObject(item, "morph_channels");   /* one per (mesh, target) keyed */
        for (int t = 0; t < clip->morph_track_count; t++) {
            const MorphTrack *track = &clip->morph_tracks[t];
            cJSON *channel = cJSON_CreateObject();
            cJSON_AddNumberToObject(channel, "mesh", track->mesh);
            cJSON_AddNumberToObject(channel, "target", track->target);
            add_string(channel, "target_name", model->meshes[track->mesh].morph_target_names[track->target]);
            cJSON_AddNumberToObject(channel, "keys", track->key_count);
            cJSON_AddStringToObject(channel, "interpolation", interpolation_name(track->interpolation));
            cJSON_AddItemToArray(channels, channel);
        }
        cJSON_AddItemToArray(clips, item);
    }

    cJSON *import = cJSON_AddObjectToObject(root, "import");
    StatField fields[24];
    int n = stat_fields(&model->stats, fields);
    for (int i = 0; i < n; i++) cJSON_AddNumberToObject(import, fields[i].name, fields[i].value);
    /* --optimize-keys: its tolerance and the measured worst pose change, relative to the diagonal */
    cJSON_AddNumberToObject(import, "key_tolerance", model->stats.key_tolerance);
    if (model->stats.key_tolerance > 0.0f && model->stats.key_error >= 0.0f)
        cJSON_AddNumberToObject(import, "key_error", model->stats.key_error);

    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) return 1;
    puts(text);
    cJSON_free(text);
    return 0;
}

int command_info(const Model *model, bool json, bool verbose)
{
    int status = json ? print_json(model) : print_text(model, verbose);
    if (fflush(stdout) != 0) return 1;
    return status;
}
