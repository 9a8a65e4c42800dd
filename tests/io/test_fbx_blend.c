/* test_fbx_blend — FBX blend-shape channels with in-between targets (src/io/fbx/fbx_blend.c).
 *
 * 1. fbx_blend_target_weights against values worked out by hand from the rule in fbx_blend.h
 *    (one target; two targets at 50 and 100; Maya's negative in-betweens -49.9, -24.9, 100;
 *    extrapolation past the end knots).
 * 2. fbx_blend_add_targets on a small ASCII 7.x scene written here: a channel with two Shapes
 *    (FullWeights 100 and 50, listed out of order), DeformPercent 75; a 6-vertex mesh whose vertices
 *    map to 4 control points: each vertex's delta is its control point's, the targets are sorted by
 *    full weight and the default weights are those of the stored value.
 * 3. ../shared/models/ufbx-dcc/maya_blend_inbetween_7500_{ascii,binary}.fbx (skipped when absent):
 *    two channels, five targets, full weights and stored values as the file states them.
 */
#include "io/fbx/fbx_blend.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void expect_weights(const double *full, int n, double percent, const float *expected)
{
    float w[8];
    fbx_blend_target_weights(full, n, percent, w);
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && fabsf(w[i] - expected[i]) < 1e-5f;
    CHECK(ok, "%d targets at %g%%: got %g %g %g, expected %g %g %g", n, percent, w[0], n > 1 ? w[1] : 0, n > 2 ? w[2] : 0,
          expected[0], n > 1 ? expected[1] : 0, n > 2 ? expected[2] : 0);
}

static void weights_by_hand(void)
{
    const double one[1] = {100};
    expect_weights(one, 1, 0, (float[]){0});
    expect_weights(one, 1, 50, (float[]){0.5f});
    expect_weights(one, 1, 100, (float[]){1});
    expect_weights(one, 1, 200, (float[]){2});     /* past the last knot: the end segment extended */
    expect_weights(one, 1, -100, (float[]){-1});
    const double two[2] = {50, 100};
    expect_weights(two, 2, 25, (float[]){0.5f, 0});     /* below w1: v / w1 on the in-between */
    expect_weights(two, 2, 50, (float[]){1, 0});
    expect_weights(two, 2, 75, (float[]){0.5f, 0.5f});  /* between: (v - 50) / 50 to the full target */
    expect_weights(two, 2, 100, (float[]){0, 1});
    expect_weights(two, 2, 150, (float[]){-1, 2});      /* t = (150 - 50) / 50 = 2 */
    expect_weights(two, 2, -100, (float[]){-2, 0});     /* -100 / 50 */
    const double maya[3] = {-49.9, -24.9, 100};
    expect_weights(maya, 3, 200, (float[]){0, 0, 2});
    expect_weights(maya, 3, 50, (float[]){0, 0, 0.5f});
    /* -30 lies between -49.9 and -24.9: t = (-30 + 49.9) / 25 = 0.796 */
    expect_weights(maya, 3, -30, (float[]){0.204f, 0.796f, 0});
    /* -10 lies between -24.9 and the undeformed knot 0: target 2 keeps 1 - (-10 + 24.9) / 24.9 */
    expect_weights(maya, 3, -10, (float[]){0, (float)(1.0 - 14.9 / 24.9), 0});
    expect_weights(maya, 3, -60, (float[]){(float)(1.0 + 10.1 / 25.0), (float)(-10.1 / 25.0), 0});
}

static const char scene_text[] =
    "FBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n"
    "Objects:  {\n"
    "\tGeometry: 1, \"Geometry::Quad\", \"Mesh\" {\n\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,1,1,0,0,1,0\n\t\t}\n"
    "\t\tPolygonVertexIndex: *4 {\n\t\t\ta: 0,1,2,-4\n\t\t}\n\t}\n"
    "\tDeformer: 2, \"Deformer::Blend\", \"BlendShape\" {\n\t}\n"
    "\tDeformer: 3, \"SubDeformer::Blend.Lift\", \"BlendShapeChannel\" {\n"
    "\t\tProperties70:  {\n\t\t\tP: \"DeformPercent\", \"Number\", \"\", \"A+\",75\n\t\t}\n"
    "\t\tFullWeights: *2 {\n\t\t\ta: 100,50\n\t\t}\n\t}\n"
    "\tGeometry: 4, \"Geometry::Lift\", \"Shape\" {\n\t\tIndexes: *2 {\n\t\t\ta: 2,3\n\t\t}\n"
    "\t\tVertices: *6 {\n\t\t\ta: 0,0,2,0,0,4\n\t\t}\n\t\tNormals: *6 {\n\t\t\ta: 0,1,0,0,1,0\n\t\t}\n\t}\n"
    "\tGeometry: 5, \"Geometry::Lift50\", \"Shape\" {\n\t\tIndexes: *1 {\n\t\t\ta: 0\n\t\t}\n"
    "\t\tVertices: *3 {\n\t\t\ta: 7,0,0\n\t\t}\n\t}\n"
    "}\n"
    "Connections:  {\n\tC: \"OO\",2,1\n\tC: \"OO\",3,2\n\tC: \"OO\",4,3\n\tC: \"OO\",5,3\n}\n";

static void small_scene(void)
{
    FbxScene s;
    if (!test_fbx_scene_read(&s, scene_text)) return;
    char error[256];
    bool ok;
    Mesh mesh = {0};
    mesh.vertex_count = 6;
    int control_point[6] = {0, 1, 2, 2, 3, 0};
    FbxBlendMesh blend;
    ok = fbx_blend_add_targets(&s, 0, &mesh, control_point, &blend, error, sizeof error);
    CHECK(ok && blend.channel_count == 1 && mesh.morph_target_count == 2, "one channel, two targets (%s)", error);
    if (ok && mesh.morph_target_count == 2) {
        const FbxBlendChannel *ch = &blend.channels[0];
        CHECK(ch->full_weights[0] == 50 && ch->full_weights[1] == 100 && ch->deform_percent == 75, "sorted full weights, stored value");
        CHECK(strcmp(mesh.morph_target_names[0], "Lift50") == 0 && strcmp(mesh.morph_target_names[1], "Lift") == 0, "names '%s' '%s'",
              mesh.morph_target_names[0], mesh.morph_target_names[1]);
        vec3 *in_between = mesh.morph_position_deltas, *full = mesh.morph_position_deltas + 6;
        CHECK(in_between[0][0] == 7 && in_between[5][0] == 7 && in_between[1][0] == 0 && in_between[2][0] == 0,
              "in-between deltas at control point 0 (vertices 0 and 5)");
        CHECK(full[2][2] == 2 && full[3][2] == 2 && full[4][2] == 4 && full[0][2] == 0 && full[1][2] == 0,
              "full deltas at control points 2 (vertices 2, 3) and 3 (vertex 4)");
        CHECK(mesh.morph_normal_deltas[6 + 4][1] == 1 && mesh.morph_normal_deltas[6 + 0][1] == 0, "normal deltas by control point");
        CHECK(fabsf(mesh.morph_default_weights[0] - 0.5f) < 1e-6f && fabsf(mesh.morph_default_weights[1] - 0.5f) < 1e-6f,
              "default weights at 75%%: %g %g", mesh.morph_default_weights[0], mesh.morph_default_weights[1]);
    }
    fbx_blend_mesh_free(&blend);
    /* a geometry without blend shapes: nothing added */
    Mesh plain = {0};
    plain.vertex_count = 6;
    ok = fbx_blend_add_targets(&s, 4, &plain, control_point, &blend, error, sizeof error);
    CHECK(ok && blend.channel_count == 0 && plain.morph_target_count == 0, "no blend shapes: nothing added");
    model_free(&(Model){.mesh_count = 1, .meshes = memcpy(malloc(sizeof mesh), &mesh, sizeof mesh)});
    fbx_scene_free(&s);
}

static void maya_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *bytes = malloc((size_t)n);
    bool read = fread(bytes, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    FbxScene s;
    char error[256];
    bool ok = read && fbx_scene_read(&s, bytes, (size_t)n, error, sizeof error);
    free(bytes);
    CHECK(ok, "%s: read", path);
    if (!ok) return;
    int geometry = -1;
    for (int i = 0; i < s.object_count; i++)
        if (strcmp(s.objects[i].kind, "Geometry") == 0 && strcmp(s.objects[i].subclass, "Mesh") == 0) geometry = i;
    size_t points = 0;
    fbx_record_reals(&s.doc, geometry >= 0 ? fbx_record_child(s.objects[geometry].record, "Vertices") : NULL, &points);
    points /= 3;
    Mesh mesh = {0};
    mesh.vertex_count = (int)points;
    int *control_point = malloc((points ? points : 1) * sizeof *control_point);
    for (size_t i = 0; i < points; i++) control_point[i] = (int)i;
    FbxBlendMesh blend;
    ok = geometry >= 0 && fbx_blend_add_targets(&s, geometry, &mesh, control_point, &blend, error, sizeof error);
    CHECK(ok && blend.channel_count == 2 && mesh.morph_target_count == 5, "%s: 2 channels, %d targets", path, mesh.morph_target_count);
    if (ok && blend.channel_count == 2) {
        const FbxBlendChannel *lift = &blend.channels[0], *side = &blend.channels[1];
        if (lift->target_count == 3) lift = &blend.channels[1], side = &blend.channels[0];
        CHECK(lift->target_count == 2 && lift->full_weights[0] == 50 && lift->full_weights[1] == 100 && lift->deform_percent == -100,
              "%s: LiftTop full weights 50, 100 at -100%%", path);
        CHECK(side->target_count == 3 && fabs(side->full_weights[0] + 49.9) < 1e-9 && fabs(side->full_weights[1] + 24.9) < 1e-9 &&
                  side->full_weights[2] == 100 && side->deform_percent == 200,
              "%s: MoveToSide full weights -49.9, -24.9, 100 at 200%%", path);
        float moved = 0;
        for (int t = 0; t < mesh.morph_target_count; t++)
            for (int v = 0; v < mesh.vertex_count; v++) moved += fabsf(mesh.morph_position_deltas[(size_t)t * points + (size_t)v][1]);
        CHECK(moved > 0, "%s: the shapes move vertices", path);
    }
    fbx_blend_mesh_free(&blend);
    free(control_point);
    model_free(&(Model){.mesh_count = 1, .meshes = memcpy(malloc(sizeof mesh), &mesh, sizeof mesh)});
    fbx_scene_free(&s);
}

int main(void)
{
    weights_by_hand();
    small_scene();
    maya_file(SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/maya_blend_inbetween_7500_ascii.fbx");
    maya_file(SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/maya_blend_inbetween_7500_binary.fbx");
    return test_finish();
}
