/* import_fbx.c — part of stage 1: an FBX take's last (and first) key, kept as the file means it.
 *
 * Rules (binary FBX only; called by import_guard.c before Assimp reads the file):
 *   - A take (AnimationStack) plays its curves from LocalStart to LocalStop, in KTime ticks
 *     (46 186 158 000 per second). Assimp 5.2.5 keeps a curve's key only within 10 000 ticks
 *     (0.2 µs) of that window (FBXConverter GetKeyframeList) and drops the rest.
 *   - Exporters that keep key times as 32-bit float seconds write a take's last frame up to half
 *     a float step away from the frame: Mixamo's mixamo.fbx has LocalStop 777 466 993 000
 *     (16.8333 s, frame 505 at 30 fps) and its Hips rotation curves end at 777 467 022 128,
 *     29 128 ticks (0.63 µs) later. Assimp drops that key, so at the end of the clip the hips
 *     hold the frame before (2.3e-3 of the figure's diagonal off three.js, which keeps it).
 *   - The rule here, the one three.js' FBXLoader applies when it trims a clip: a key whose time
 *     in seconds rounds to the same 32-bit float as LocalStop (LocalStart) lies ON it. When such
 *     a key lies past LocalStop (before LocalStart), the take's window is widened to that key in
 *     a copy of the file's bytes, and Assimp reads the copy: the key is kept, the clip grows by
 *     that sliver (0.63 µs for Mixamo). Nothing else changes; files that need nothing are read
 *     as they are.
 *   - The file is read by the FBX document reader (fbx/fbx_doc.h: the one binary reader, with its
 *     limits); only the Objects' AnimationStack (Properties70 LocalStart / LocalStop, whose value
 *     offsets say where to patch) and AnimationCurve (KeyTime) records are looked at. A file the
 *     reader refuses is handed to Assimp unchanged.
 */
#include "import_internal.h"

#include "fbx/fbx_apply.h"
#include "fbx/fbx_doc.h"
#include "fbx/fbx_import.h"
#include "validate.h"

#include <stdint.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#define FBX_TICKS_PER_SECOND_F 46186158000.0
#define FBX_MAX_STACKS 256

/* One LocalStart or LocalStop value: where its int64 sits in the file, and the value. */
typedef struct FbxTime {
    size_t  offset;
    int64_t ticks;
    int64_t widened;   /* the value after the scan (== ticks: unchanged) */
    bool    is_stop;
} FbxTime;

typedef struct FbxTakes {
    FbxTime times[2 * FBX_MAX_STACKS];
    int     time_count;
    float   edge[2 * FBX_MAX_STACKS];      /* seconds_f32 of each time, sorted */
    int     edge_time[2 * FBX_MAX_STACKS]; /* the time each sorted edge belongs to */
} FbxTakes;

/* A Properties70 "P" record: "LocalStart" / "LocalStop" with its int64 value -> takes->times. */
static void read_time_property(FbxTakes *takes, const FbxRecord *p)
{
    if (p->value_count < 5 || p->values[0].type != FBX_VALUE_STRING || p->values[4].code != 'L') return;
    bool start = strcmp(p->values[0].string, "LocalStart") == 0;
    bool stop = strcmp(p->values[0].string, "LocalStop") == 0;
    if ((!start && !stop) || takes->time_count == 2 * FBX_MAX_STACKS) return;
    FbxTime *t = &takes->times[takes->time_count++];
    t->offset = p->values[4].offset;
    t->ticks = t->widened = p->values[4].integer;
    t->is_stop = stop;
}

/* Seconds as a 32-bit float, as three.js and float-seconds exporters hold key times. */
static float seconds_f32(int64_t ticks)
{
    return (float)((double)ticks / FBX_TICKS_PER_SECOND_F);
}

/* A key: every take edge with the same float of seconds moves out to it (binary search). */
static void key_on_edges(FbxTakes *takes, int64_t key)
{
    float f = seconds_f32(key);
    int lo = 0, hi = takes->time_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (takes->edge[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    for (int i = lo; i < takes->time_count && takes->edge[i] == f; i++) {
        FbxTime *t = &takes->times[takes->edge_time[i]];
        if (t->is_stop ? key > t->widened : key < t->widened) t->widened = key;
    }
}

uint8_t *import_fbx_widen_takes(const void *data, size_t size, int *widened)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    *widened = 0;
    if (size < 27 || memcmp(data, magic, sizeof magic - 1) != 0) return NULL;   /* ASCII FBX: as it is */
    FbxDocument doc;
    if (!fbx_document_read(&doc, data, size, NULL, 0)) return NULL;
    const FbxRecord *objects = fbx_record_child(&doc.root, "Objects");
    FbxTakes *takes = calloc(1, sizeof *takes);
    if (!takes || !objects) {
        free(takes);
        fbx_document_free(&doc);
        return NULL;
    }
    for (int i = 0; i < objects->child_count; i++) {   /* the takes' LocalStart / LocalStop */
        const FbxRecord *stack = &objects->children[i];
        if (strcmp(stack->name, "AnimationStack") != 0) continue;
        const FbxRecord *props = fbx_record_child(stack, "Properties70");
        for (int k = 0; props && k < props->child_count; k++)
            if (strcmp(props->children[k].name, "P") == 0) read_time_property(takes, &props->children[k]);
    }
    for (int i = 0; i < takes->time_count; i++) {   /* their floats, sorted (insertion: a few takes) */
        float f = seconds_f32(takes->times[i].ticks);
        int k = i;
        while (k > 0 && takes->edge[k - 1] > f) {
            takes->edge[k] = takes->edge[k - 1];
            takes->edge_time[k] = takes->edge_time[k - 1];
            k--;
        }
        takes->edge[k] = f;
        takes->edge_time[k] = i;
    }
    for (int i = 0; takes->time_count > 0 && i < objects->child_count; i++) {   /* every key against them */
        const FbxRecord *curve = &objects->children[i];
        if (strcmp(curve->name, "AnimationCurve") != 0) continue;
        size_t count;
        const int64_t *keys = fbx_record_integers(&doc, fbx_record_child(curve, "KeyTime"), &count);
        for (size_t k = 0; k < count; k++) key_on_edges(takes, keys[k]);
    }
    /* a take with no window at all (0, 0) takes every key in Assimp: leave it */
    uint8_t *copy = NULL;
    for (int i = 0; i < takes->time_count; i++) {
        FbxTime *t = &takes->times[i];
        if (t->widened == t->ticks || t->ticks == 0 || t->offset + 8 > size) continue;
        if (!copy) {
            copy = malloc(size);
            if (!copy) break;
            memcpy(copy, data, size);
        }
        for (int b = 0; b < 8; b++) copy[t->offset + (size_t)b] = (uint8_t)((uint64_t)t->widened >> (8 * b));
        (*widened)++;
    }
    free(takes);
    fbx_document_free(&doc);
    return copy;
}

/* ---- FBX older than 7.1: read without Assimp --------------------------------------------- */

bool import_fbx_is_legacy(const void *data, size_t size)
{
    static const size_t probe = 64 << 10;   /* the header: FBXHeaderExtension comes first */
    int version = fbx_document_version(data, size < probe ? size : probe);
    return version > 0 && version < 7100;
}

bool import_fbx_legacy(const char *path, const void *data, size_t size, int max_bones, int max_influences, bool hold_end_keys,
                       Model *model, FILE *warnings, char *error, size_t error_size)
{
    char source[1024];
    if (path) snprintf(source, sizeof source, "%s", path);
    else snprintf(source, sizeof source, "(memory).fbx");
    FbxScene scene;
    FbxModelMap map = {0};
    char cause[512] = "";
    const void *file = data;
    bool ok = fbx_scene_read(&scene, file, size, cause, sizeof cause);
    if (ok) {
        ok = fbx_build_model(&scene, model, &map, max_influences == SV_MAX_INFLUENCES_KEPT, cause, sizeof cause);
        if (ok) snprintf(model->source_path, sizeof model->source_path, "%s", source);
        /* textures: files next to the model, as import_material.c finds them */
        Importer im = {.path = source, .model = model, .error = cause, .error_size = sizeof cause, .warnings = warnings,
                       .hold_end_keys = hold_end_keys};
        const char *slash = path ? strrchr(path, '/') : NULL;
        if (slash && (size_t)(slash - path + 1) < sizeof im.directory) {
            memcpy(im.directory, path, (size_t)(slash - path + 1));
            im.directory[slash - path + 1] = '\0';
        }
        for (int m = 0; ok && m < model->material_count && m < map.material_count; m++)
            if (map.material_texture[m]) model->materials[m].diffuse_texture = import_load_texture(&im, map.material_texture[m]);
        /* then the FBX stage, as after Assimp: rest transforms by the FBX formula, clips, skins
         * (fbx/fbx_apply.c; its joints are matched to the Models by their names) */
        if (ok) ok = import_fbx_apply(&im, file, size);
        for (int t = 0; t < model->texture_count; t++) free(im.texture_keys[t]);
        free(im.texture_keys);
        for (int i = 0; i < im.failed_count; i++) free(im.failed_textures[i]);
        free(im.failed_textures);
        fbx_model_map_free(&map);
        fbx_scene_free(&scene);
    }
    if (!ok) {
        snprintf(error, error_size, "%s", cause);
        import_one_line(error, error_size);
        model_free(model);
        return false;
    }
    for (int m = 0; m < model->mesh_count; m++)
        if (max_bones > 0 && model->meshes[m].bone_count > max_bones) {
            snprintf(error, error_size, "mesh '%s' needs %d bones, more than the limit of %d (FBX older than 7.1 is not split)",
                     QUOTED(model->meshes[m].name), model->meshes[m].bone_count, max_bones);
            model_free(model);
            return false;
        }
    return true;   /* then the common tail of import.c (validation, layout, keys), as for every reader */
}
