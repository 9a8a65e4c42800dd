/* inspect_cmd.c — `skinview MODEL --inspect-vertex MESH:INDEX [--json]`: one vertex through the
 * skinning formula at --clip / --time, printed without a window (src/anim/inspect.h).
 *
 * --json prints one object (numbers with 8 significant digits; matrices as 4 rows of 4, i.e. row r
 * is (M[0][r], M[1][r], M[2][r], M[3][r]) of cglm's column-major storage: translation in the last
 * column):
 *   model, clip (name, or "bind" / "rest"), clip_index, time, method ("gpu" | "cpu" | "dq" | "rigid"),
 *   mesh, mesh_name, vertex, skinned, follows_node, formula (string),
 *   stored_position [3], stored_normal [3],
 *   morphs: [{target, name, weight, delta [3], weighted [3]}], morphed_position [3],
 *   influences: [{slot, bone, joint (name), joint_index, weight, joint_model [4][4], offset [4][4],
 *                 palette [4][4], bone_space [3], moved [3], term [3]}],
 *   heaviest (index into influences, -1 for a static mesh), node_model [4][4] (static meshes),
 *   sum [3], lbs [3], rigid [3], dq [3], dq_valid, final [3] (by --skinning: lbs, dq or rigid). */
#include "commands.h"
#include "anim/inspect.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool app_parse_vertex_spec(const Model *model, const char *spec, int *mesh, int *vertex, char *error, size_t error_size)
{
    const char *colon = strrchr(spec, ':');   /* the last ':' (mesh names may contain one) */
    if (!colon || colon == spec || !colon[1]) {
        snprintf(error, error_size, "--inspect-vertex needs MESH:INDEX (mesh index or name, vertex index), got '%s'",
                 spec);
        return false;
    }
    char *end = NULL;
    long index = strtol(colon + 1, &end, 10);
    if (*end != '\0' || index < 0 || index > 2000000000L) {
        snprintf(error, error_size, "--inspect-vertex: vertex index '%s' is not a number >= 0", colon + 1);
        return false;
    }
    int length = (int)(colon - spec);
    int found = -1;
    long number = strtol(spec, &end, 10);
    if (end == colon && number >= 0 && number < model->mesh_count) found = (int)number;
    for (int m = 0; m < model->mesh_count && found < 0; m++)
        if ((int)strlen(model->meshes[m].name) == length && strncmp(model->meshes[m].name, spec, (size_t)length) == 0)
            found = m;
    if (found < 0) {
        snprintf(error, error_size, "--inspect-vertex: no mesh '%.*s' (%d meshes: index 0..%d or a name, see --info)",
                 length, spec, model->mesh_count, model->mesh_count - 1);
        return false;
    }
    if (index >= model->meshes[found].vertex_count) {
        snprintf(error, error_size, "--inspect-vertex: mesh %d \"%s\" has %d vertices, no vertex %ld", found,
                 model->meshes[found].name, model->meshes[found].vertex_count, index);
        return false;
    }
    *mesh = found;
    *vertex = (int)index;
    return true;
}

/* A float as JSON shows it: 8 significant digits (0.1f prints as 0.1, not 0.100000001490116). */
static double tidy(float value)
{
    char text[32];
    snprintf(text, sizeof text, "%.8g", value);
    return strtod(text, NULL);
}

static void add_vec3(cJSON *object, const char *key, const vec3 v)
{
    cJSON *array = cJSON_AddArrayToObject(object, key);
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(array, cJSON_CreateNumber(tidy(v[i])));
}

/* 4 rows of 4: row r = (m[0][r], m[1][r], m[2][r], m[3][r]) */
static void add_matrix(cJSON *object, const char *key, const mat4 m)
{
    cJSON *rows = cJSON_AddArrayToObject(object, key);
    for (int r = 0; r < 4; r++) {
        cJSON *row = cJSON_CreateArray();
        for (int c = 0; c < 4; c++) cJSON_AddItemToArray(row, cJSON_CreateNumber(tidy(m[c][r])));
        cJSON_AddItemToArray(rows, row);
    }
}

/* cJSON wants UTF-8: names are (the importer made them so); the path may not be: bytes > 127 -> '?'. */
static void add_path(cJSON *object, const char *key, const char *path)
{
    char text[1024];
    snprintf(text, sizeof text, "%s", path);
    for (char *p = text; *p; p++)
        if ((unsigned char)*p > 127) *p = '?';
    cJSON_AddStringToObject(object, key, text);
}

static const char *method_word(SkinningMethod method)
{
    static const char *const words[SKINNING_METHOD_COUNT] = {"gpu", "cpu", "dq", "rigid"};
    return method >= 0 && method < SKINNING_METHOD_COUNT ? words[method] : "gpu";
}

static void print_json(const Model *model, int clip, float time, SkinningMethod method, const VertexInspection *info)
{
    cJSON *root = cJSON_CreateObject();
    add_path(root, "model", model->source_path);
    cJSON_AddStringToObject(root, "clip", clip >= 0 ? model->clips[clip].name
                                          : clip == ANIMATOR_BIND_POSE ? "bind" : "rest");
    cJSON_AddNumberToObject(root, "clip_index", clip);
    cJSON_AddNumberToObject(root, "time", tidy(time));
    cJSON_AddStringToObject(root, "method", method_word(method));
    cJSON_AddNumberToObject(root, "mesh", info->mesh);
    cJSON_AddStringToObject(root, "mesh_name", info->mesh_name);
    cJSON_AddNumberToObject(root, "vertex", info->vertex);
    cJSON_AddBoolToObject(root, "skinned", info->skinned);
    cJSON_AddBoolToObject(root, "follows_node", info->follows_node);
    cJSON_AddStringToObject(root, "formula", vertex_inspect_formula());
    add_vec3(root, "stored_position", info->stored_position);
    add_vec3(root, "stored_normal", info->stored_normal);
    cJSON *morphs = cJSON_AddArrayToObject(root, "morphs");
    for (int i = 0; i < info->morph_listed; i++) {
        const InspectMorph *m = &info->morphs[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "target", m->target);
        cJSON_AddStringToObject(item, "name", m->name);
        cJSON_AddNumberToObject(item, "weight", tidy(m->weight));
        add_vec3(item, "delta", m->delta);
        add_vec3(item, "weighted", m->weighted);
        cJSON_AddItemToArray(morphs, item);
    }
    cJSON_AddNumberToObject(root, "morph_count", info->morph_count);
    add_vec3(root, "morphed_position", info->position);
    cJSON *influences = cJSON_AddArrayToObject(root, "influences");
    for (int i = 0; i < info->influence_count; i++) {
        const InspectInfluence *k = &info->influences[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "slot", k->slot);
        cJSON_AddNumberToObject(item, "bone", k->bone);
        cJSON_AddStringToObject(item, "joint", k->joint_name);
        cJSON_AddNumberToObject(item, "joint_index", k->joint);
        cJSON_AddNumberToObject(item, "weight", tidy(k->weight));
        add_matrix(item, "joint_model", k->joint_model);
        add_matrix(item, "offset", k->offset);
        add_matrix(item, "palette", k->palette);
        add_vec3(item, "bone_space", k->bone_space);
        add_vec3(item, "moved", k->moved);
        add_vec3(item, "term", k->term);
        cJSON_AddItemToArray(influences, item);
    }
    cJSON_AddNumberToObject(root, "heaviest", info->heaviest);
    add_matrix(root, "node_model", info->node_model);
    add_vec3(root, "sum", info->sum);
    add_vec3(root, "lbs", info->lbs);
    add_vec3(root, "rigid", info->rigid);
    add_vec3(root, "dq", info->dq);
    cJSON_AddBoolToObject(root, "dq_valid", info->dq_valid);
    add_vec3(root, "final", method == SKINNING_GPU_DQ ? info->dq : method == SKINNING_RIGID ? info->rigid : info->lbs);
    char *text = cJSON_Print(root);
    if (text) puts(text);
    free(text);
    cJSON_Delete(root);
}

int command_inspect_vertex(const Model *model, int clip, float time, SkinningMethod method, const char *spec, bool json,
                           const char *morph_spec)
{
    char error[512];
    int mesh, vertex;
    if (!app_parse_vertex_spec(model, spec, &mesh, &vertex, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model->source_path, error);
        return 2;
    }
    Animator animator;
    SkinDqPose dq_pose;
    if (!animator_init(&animator, model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model->source_path);
        return 1;
    }
    if (!skin_dq_pose_init(&dq_pose, model)) {
        fprintf(stderr, "skinview: %s: out of memory\n", model->source_path);
        animator_free(&animator);
        return 1;
    }
    int status = 0;
    MorphOverride overrides;
    if (!morph_override_parse(model, morph_spec, &overrides, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model->source_path, error);
        status = 2;
    } else {
        animator_evaluate(&animator, clip, time);
        morph_override_apply(&overrides, &animator);
        skin_dq_pose_update(&dq_pose, &animator);
        VertexInspection info;
        vertex_inspect(&animator, &dq_pose, mesh, vertex, &info);
        if (json) {
            print_json(model, clip, time, method, &info);
        } else {
            static char text[1 << 16];
            vertex_inspect_format(&info, INSPECT_TEXT_STACKED, text, sizeof text);
            fputs(text, stdout);
        }
    }
    morph_override_free(&overrides);
    skin_dq_pose_free(&dq_pose);
    animator_free(&animator);
    return status;
}
