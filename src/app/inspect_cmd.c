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
#include "teach/teaching_aids.h"   /* scene_parse_vertex_spec */
#include "anim/inspect.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One member of a JSON object, for add_members: a number, a string, a bool, 3 floats or a 4x4 matrix. */
typedef enum JsonKind { JSON_NUMBER, JSON_TEXT, JSON_BOOL, JSON_VEC3, JSON_MATRIX } JsonKind;
typedef struct JsonMember {
    const char  *key;
    JsonKind     kind;
    double       number;   /* JSON_NUMBER, JSON_BOOL */
    const char  *text;     /* JSON_TEXT */
    const float *values;   /* JSON_VEC3: 3, JSON_MATRIX: 16 column-major */
} JsonMember;
#define NUMBER(key, v) {key, JSON_NUMBER, (double)(v), NULL, NULL}
#define TEXT(key, v) {key, JSON_TEXT, 0.0, v, NULL}
#define BOOL(key, v) {key, JSON_BOOL, (v) ? 1.0 : 0.0, NULL, NULL}
#define VEC3(key, v) {key, JSON_VEC3, 0.0, NULL, v}
#define MATRIX(key, m) {key, JSON_MATRIX, 0.0, NULL, &(m)[0][0]}

/* Adds the members in order (the order --json prints them). */
static void add_members(cJSON *object, const JsonMember *members, int count)
{
    for (int i = 0; i < count; i++) {
        const JsonMember *m = &members[i];
        if (m->kind == JSON_NUMBER) cJSON_AddNumberToObject(object, m->key, m->number);
        else if (m->kind == JSON_TEXT) cJSON_AddStringToObject(object, m->key, m->text);
        else if (m->kind == JSON_BOOL) cJSON_AddBoolToObject(object, m->key, m->number != 0.0);
        else if (m->kind == JSON_VEC3) add_vec3(object, m->key, m->values);
        else add_matrix(object, m->key, (const vec4 *)(const void *)m->values);
    }
}
#define ADD_MEMBERS(object, ...)                                                                    \
    do {                                                                                            \
        const JsonMember members_[] = {__VA_ARGS__};                                                \
        add_members(object, members_, (int)(sizeof members_ / sizeof members_[0]));                 \
    } while (0)

static void print_json(const Model *model, int clip, float time, SkinningMethod method, bool reference,
                       const VertexInspection *info)
{
    cJSON *root = cJSON_CreateObject();
    add_path(root, "model", model->source_path);
    const char *clip_name = clip >= 0 ? model->clips[clip].name : clip == ANIMATOR_BIND_POSE ? "bind" : "rest";
    ADD_MEMBERS(root, TEXT("clip", clip_name), NUMBER("clip_index", clip), NUMBER("time", tidy(time)),
                TEXT("method", method_word(method)), TEXT("evaluation", reference ? "reference" : "fast"),
                NUMBER("mesh", info->mesh), TEXT("mesh_name", info->mesh_name),
                NUMBER("vertex", info->vertex), BOOL("skinned", info->skinned), BOOL("follows_node", info->follows_node),
                TEXT("formula", vertex_inspect_formula()), VEC3("stored_position", info->stored_position),
                VEC3("stored_normal", info->stored_normal));
    cJSON *morphs = cJSON_AddArrayToObject(root, "morphs");
    for (int i = 0; i < info->morph_listed; i++) {
        const InspectMorph *m = &info->morphs[i];
        cJSON *item = cJSON_CreateObject();
        ADD_MEMBERS(item, NUMBER("target", m->target), TEXT("name", m->name), NUMBER("weight", tidy(m->weight)),
                    VEC3("delta", m->delta), VEC3("weighted", m->weighted));
        cJSON_AddItemToArray(morphs, item);
    }
    ADD_MEMBERS(root, NUMBER("morph_count", info->morph_count), VEC3("morphed_position", info->position));
    cJSON *influences = cJSON_AddArrayToObject(root, "influences");
    for (int i = 0; i < info->influence_count; i++) {
        const InspectInfluence *k = &info->influences[i];
        cJSON *item = cJSON_CreateObject();
        ADD_MEMBERS(item, NUMBER("slot", k->slot), NUMBER("bone", k->bone), TEXT("joint", k->joint_name),
                    NUMBER("joint_index", k->joint), NUMBER("weight", tidy(k->weight)), MATRIX("joint_model", k->joint_model),
                    MATRIX("offset", k->offset), MATRIX("palette", k->palette), VEC3("bone_space", k->bone_space),
                    VEC3("moved", k->moved), VEC3("term", k->term));
        cJSON_AddItemToArray(influences, item);
    }
    const float *final = method == SKINNING_GPU_DQ ? info->dq : method == SKINNING_RIGID ? info->rigid : info->lbs;
    ADD_MEMBERS(root, NUMBER("heaviest", info->heaviest), MATRIX("node_model", info->node_model), VEC3("sum", info->sum),
                VEC3("lbs", info->lbs), VEC3("rigid", info->rigid), VEC3("dq", info->dq), BOOL("dq_valid", info->dq_valid),
                VEC3("final", final));
    char *text = cJSON_Print(root);
    if (text) puts(text);
    free(text);
    cJSON_Delete(root);
}

int command_inspect_vertex(const Model *model, int clip, float time, SkinningMethod method, bool reference,
                           const char *spec, bool json, const char *morph_spec)
{
    char error[512];
    int mesh, vertex;
    if (!scene_parse_vertex_spec(model, spec, &mesh, &vertex, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model->source_path, error);
        return 2;
    }
    Animator animator;
    SkinDqPose dq_pose;
    if (!app_pose_init(model, reference, &animator, &dq_pose)) return 1;
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
            print_json(model, clip, time, method, reference, &info);
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
