/* test_morph_fbx.c — the static morph quad once more as an FBX blend shape (Assimp's FBX conventions
 * differ from its glTF ones: see check_fbx). Part of the program test_morph (morph_fixture.h). */
#include "morph_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The same quad as an ASCII FBX 7.4 (tab-indented, as FBX SDK and three.js's reader expect): node
 * scaled by 2, one BlendShape deformer with the channels Grow (= target 0) and Fold (= target 1),
 * each one shape at 100 % (FullWeights) with DeformPercent 0, and a take whose DeformPercent
 * curves key the same weights (x 100) at 0, 1 and 2 s. Assimp 5.2.5 writes mWeight = 1 for
 * such a shape and names the channel "Quad*0": the default weights must still be 0 and the
 * channel must reach the mesh on node "Quad". */
static const char quad_fbx[] =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXHeaderVersion: 1003\n"
    "\tFBXVersion: 7400\n"
    "\tCreator: \"skinview test_morph\"\n"
    "}\n"
    "GlobalSettings:  {\n"
    "\tVersion: 1000\n"
    "\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",2\n"
    "\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n"
    "\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n"
    "\t\tP: \"TimeMode\", \"enum\", \"\", \"\",11\n"
    "\t}\n"
    "}\n"
    "Objects:  {\n"
    "\tGeometry: 100, \"Geometry::Quad\", \"Mesh\" {\n"
    "\t\tVertices: *12 {\n"
    "\t\t\ta: 0,0,0,1,0,0,1,1,0,0,1,0\n"
    "\t\t}\n"
    "\t\tPolygonVertexIndex: *4 {\n"
    "\t\t\ta: 0,1,2,-4\n"
    "\t\t}\n"
    "\t\tGeometryVersion: 124\n"
    "\t\tLayerElementNormal: 0 {\n"
    "\t\t\tVersion: 101\n"
    "\t\t\tName: \"\"\n"
    "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n"
    "\t\t\tReferenceInformationType: \"Direct\"\n"
    "\t\t\tNormals: *12 {\n"
    "\t\t\t\ta: 0,0,1,0,0,1,0,0,1,0,0,1\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t\tLayer: 0 {\n"
    "\t\t\tVersion: 100\n"
    "\t\t\tLayerElement:  {\n"
    "\t\t\t\tType: \"LayerElementNormal\"\n"
    "\t\t\t\tTypedIndex: 0\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: 200, \"Model::Quad\", \"Mesh\" {\n"
    "\t\tVersion: 232\n"
    "\t\tProperties70:  {\n"
    "\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",2,2,2\n"
    "\t\t}\n"
    "\t\tShading: T\n"
    "\t\tCulling: \"CullingOff\"\n"
    "\t}\n"
    "\tGeometry: 300, \"Geometry::Grow\", \"Shape\" {\n"
    "\t\tVersion: 100\n"
    "\t\tIndexes: *3 {\n"
    "\t\t\ta: 1,2,3\n"
    "\t\t}\n"
    "\t\tVertices: *9 {\n"
    "\t\t\ta: 0.5,0,0,0.5,0.5,0,0,0.5,0\n"
    "\t\t}\n"
    "\t\tNormals: *9 {\n"
    "\t\t\ta: 0,0,0,0,0,0,0,0,0\n"
    "\t\t}\n"
    "\t}\n"
    "\tGeometry: 301, \"Geometry::Fold\", \"Shape\" {\n"
    "\t\tVersion: 100\n"
    "\t\tIndexes: *4 {\n"
    "\t\t\ta: 0,1,2,3\n"
    "\t\t}\n"
    "\t\tVertices: *12 {\n"
    "\t\t\ta: 0,0,1,0,0,1,0,0,-1,0,0,-1\n"
    "\t\t}\n"
    "\t\tNormals: *12 {\n"
    "\t\t\ta: 0,0,0,0,0,0,0,0,0,0,0,0\n"
    "\t\t}\n"
    "\t}\n"
    "\tDeformer: 400, \"Deformer::QuadBlend\", \"BlendShape\" {\n"
    "\t\tVersion: 100\n"
    "\t}\n"
    "%s"   /* the two channels (channel_fbx) */
    "\tAnimationStack: 500, \"AnimStack::Morph\", \"\" {\n"
    "\t\tProperties70:  {\n"
    "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n"
    "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",92372316000\n"
    "\t\t}\n"
    "\t}\n"
    "\tAnimationLayer: 501, \"AnimLayer::BaseLayer\", \"\" {\n"
    "\t}\n";

/* One blend shape channel (id, name) with its one full-weight target. */
static const char channel_fbx[] =
    "\tDeformer: %d, \"SubDeformer::%s\", \"BlendShapeChannel\" {\n"
    "\t\tVersion: 100\n"
    "\t\tDeformPercent: 0\n"
    "\t\tFullWeights: *1 {\n"
    "\t\t\ta: 100\n"
    "\t\t}\n"
    "\t}\n";

/* One DeformPercent curve node (node_id) with its curve (curve_id): keys at 0, 1 and 2 s, `values` (0..100). */
static const char deform_curve_fbx[] =
    "\tAnimationCurveNode: %d, \"AnimCurveNode::DeformPercent\", \"\" {\n"
    "\t\tProperties70:  {\n"
    "\t\t\tP: \"d|DeformPercent\", \"Number\", \"\", \"A\",0\n"
    "\t\t}\n"
    "\t}\n"
    "\tAnimationCurve: %d, \"AnimCurve::\", \"\" {\n"
    "\t\tDefault: 0\n"
    "\t\tKeyVer: 4008\n"
    "\t\tKeyTime: *3 {\n"
    "\t\t\ta: 0,46186158000,92372316000\n"
    "\t\t}\n"
    "\t\tKeyValueFloat: *3 {\n"
    "\t\t\ta: %s\n"
    "\t\t}\n"
    "\t\tKeyAttrFlags: *1 {\n"
    "\t\t\ta: 24836\n"
    "\t\t}\n"
    "\t\tKeyAttrDataFloat: *4 {\n"
    "\t\t\ta: 0,0,0,0\n"
    "\t\t}\n"
    "\t\tKeyAttrRefCount: *1 {\n"
    "\t\t\ta: 3\n"
    "\t\t}\n"
    "\t}\n";

static const char connections_fbx[] =
    "Connections:  {\n"
    "\tC: \"OO\",200,0\n"
    "\tC: \"OO\",100,200\n"
    "\tC: \"OO\",400,100\n"
    "\tC: \"OO\",401,400\n"
    "\tC: \"OO\",402,400\n"
    "\tC: \"OO\",300,401\n"
    "\tC: \"OO\",301,402\n"
    "\tC: \"OO\",501,500\n"
    "\tC: \"OO\",502,501\n"
    "\tC: \"OP\",502,401, \"DeformPercent\"\n"
    "\tC: \"OP\",503,502, \"d|DeformPercent\"\n"
    "\tC: \"OO\",504,501\n"
    "\tC: \"OP\",504,402, \"DeformPercent\"\n"
    "\tC: \"OP\",505,504, \"d|DeformPercent\"\n"
    "}\n";

void check_fbx(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/morph_quad.fbx", temp_dir);
    FILE *file = fopen(path, "w");
    /* the quad, the two channels' curves (weights (0,0) (1,0) (0,1) at 0, 1, 2 s), the connections */
    char channels[512];
    snprintf(channels, sizeof channels, channel_fbx, 401, "Grow");
    snprintf(channels + strlen(channels), sizeof channels - strlen(channels), channel_fbx, 402, "Fold");
    bool written = file && fprintf(file, quad_fbx, channels) > 0 && fprintf(file, deform_curve_fbx, 502, 503, "0,100,0") > 0 &&
                   fprintf(file, deform_curve_fbx, 504, 505, "0,0,100") > 0 && fputs("}\n", file) >= 0 &&
                   fputs(connections_fbx, file) >= 0;
    CHECK(file && fclose(file) == 0 && written, "cannot write %s", path);
    Model model;
    if (!test_import(path, NULL, &model)) return;
    const Mesh *mesh = model.mesh_count == 1 ? &model.meshes[0] : NULL;
    CHECK(mesh && mesh->vertex_count == 4 && mesh->morph_target_count == 2, "FBX: one quad with 2 targets expected");
    CHECK(model.clip_count == 1 && model.clips[0].morph_track_count == 2, "FBX: the channel 'Quad*0' drives 2 targets");
    if (!mesh || mesh->vertex_count != 4 || mesh->morph_target_count != 2 || model.clip_count != 1) {
        model_free(&model);
        return;
    }
    CHECK(strcmp(mesh->morph_target_names[0], "Grow") == 0 && strcmp(mesh->morph_target_names[1], "Fold") == 0,
          "FBX: target names '%s' '%s'", mesh->morph_target_names[0], mesh->morph_target_names[1]);
    CHECK(mesh->morph_default_weights[0] == 0.0f && mesh->morph_default_weights[1] == 0.0f,
          "FBX: default weights %g %g (DeformPercent is 0)", mesh->morph_default_weights[0],
          mesh->morph_default_weights[1]);
    Animator animator;
    CHECK(animator_init(&animator, &model), "FBX: animator_init");
    static const float times[] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        float w[2];
        weights_at(times[i], w);
        animator_evaluate(&animator, 0, times[i]);
        vec3 posed[4];
        animator_skin_mesh(&animator, 0, posed, NULL);
        float worst = 0.0f;
        int matched = 0;
        for (int v = 0; v < 4; v++) {
            int source = stored_vertex(mesh->positions[v]);
            if (source < 0) continue;
            float want[3];
            expected_position(false, source, w, 0.0f, want);
            worst = fmaxf(worst, distance3(posed[v], want));
            matched++;
        }
        CHECK(matched == 4 && worst <= 1e-5f, "FBX at %g s (weights %g, %g): %d vertices matched, off by %g", times[i],
              w[0], w[1], matched, worst);
    }
    animator_free(&animator);
    model_free(&model);

    char output[8192];
    test_verify("FBX", path, "", output, sizeof output);
}
