/* fuzz_fbx.c — libFuzzer target for skinview's own FBX reader (src/io/fbx/), no Assimp involved.
 *
 * Each input is one FBX file in memory (binary or ASCII, any version). It goes through every
 * layer of the reader:
 *   fbx_scene_read()          the record tree (fbx_doc_read.c) and the object graph (fbx_scene_read.c):
 *                             templates, connections, FBX 6 / 5 objects and takes, curve keys
 *   the graph's accessors     every object's properties and references, every connection
 *   fbx_build_model()         the legacy Model builder (fbx_legacy.c), on any version
 *   fbx_blend_add_targets()   each mesh's blend shapes, by control point
 *   model_validate()          the rules every import ends with
 * and checks the graph's promises: connection indices in range, curve key times strictly
 * increasing, every mesh vertex's control point inside its geometry, every error one line with no
 * control character (base/quote.h: quote_is_clean). A broken promise aborts (a
 * crash for libFuzzer). Memory stays bounded by the reader's limits (fbx_doc_arena.h) and libFuzzer's
 * -rss_limit_mb.
 *
 * Built only with clang (cmake -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh builds and runs it).
 */
#include "base/quote.h"
#include "io/fbx/fbx_blend.h"
#include "io/fbx/fbx_import.h"
#include "io/validate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(bool promise, const char *what)
{
    if (promise) return;
    fprintf(stderr, "fuzz_fbx: broken promise: %s\n", what);
    abort();
}

static void walk_graph(const FbxScene *s)
{
    for (int i = 0; i < s->connection_count; i++) {
        const FbxConnection *c = &s->connections[i];
        check(c->src >= 0 && c->src < s->object_count && c->dst >= -1 && c->dst < s->object_count, "connection in range");
    }
    static const char *const names[] = {"Lcl Translation", "Lcl Rotation", "RotationOrder", "DeformPercent", "LocalStart",
                                        "DiffuseColor", "RelativeFilename", "InheritType"};
    for (int i = 0; i < s->object_count; i++) {
        const FbxObject *o = &s->objects[i];
        check(o->kind && o->subclass && o->name, "object strings");
        check(fbx_object_by_id(s, o->id) >= 0, "every id found");
        double v[4];
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            fbx_object_property_numbers(s, i, names[k], v, 4);
            fbx_object_property_string(s, i, names[k]);
        }
        for (int k = 0; k < o->record->value_count && k < 4; k++) fbx_object_by_reference(s, &o->record->values[k]);
        const FbxCurve *curve = &s->curves[i];
        for (int k = 1; k < curve->key_count; k++) check(curve->keys[k].time > curve->keys[k - 1].time, "key times increasing");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FbxScene scene;
    char error[256];
    if (!fbx_scene_read(&scene, data, size, error, sizeof error)) {
        check(error[0] != '\0' && quote_is_clean(error, strlen(error)), "one-line error, no control character");
        return 0;
    }
    walk_graph(&scene);
    Model model;
    FbxModelMap map;
    if (fbx_build_model(&scene, &model, &map, false, error, sizeof error)) {
        for (int m = 0; m < model.mesh_count; m++) {
            const int *cp = map.mesh_control_point[m];
            int geometry = map.mesh_geometry_object[m];
            size_t points = 0;
            fbx_record_reals(&scene.doc, fbx_record_child(scene.objects[geometry].record, "Vertices"), &points);
            for (int v = 0; cp && v < model.meshes[m].vertex_count; v++)
                check(cp[v] >= 0 && (size_t)cp[v] < points / 3, "control point inside the geometry");
            FbxBlendMesh blend;
            if (fbx_blend_add_targets(&scene, geometry, &model.meshes[m], cp, &blend, error, sizeof error))
                fbx_blend_mesh_free(&blend);
            else
                check(quote_is_clean(error, strlen(error)), "blend-shape error without control characters");
        }
        int repairs = 0;
        if (!model_validate(&model, NULL, &repairs, error, sizeof error))
            check(error[0] != '\0' && quote_is_clean(error, strlen(error)), "one-line validation error");
        fbx_model_map_free(&map);
        model_free(&model);
    } else {
        check(error[0] != '\0' && quote_is_clean(error, strlen(error)), "one-line build error, no control character");
    }
    fbx_scene_free(&scene);
    return 0;
}
