/* test_fbx_authored — FBX features as the authoring tools write them (issue 27), each on a small
 * ASCII FBX written here and checked against positions worked out by hand from the FBX rules
 * (src/io/fbx/; docs/skinning.md "The FBX node transform, takes and skins").
 *
 *   test_fbx_authored takes58     FBX 5.8 (3ds Max 2009's plug-ins): the Model records carry no
 *                                 transform, the rest pose is in the current take's channel
 *                                 Defaults (unkeyed T and S of an animated Model too), and a
 *                                 Model's Limits RXAxis is its PostRotation (the 6.1 export of the
 *                                 same light writes PostRotation -90, 0, 0). Rest and t = 0.5 s.
 *   test_fbx_authored links58     FBX 5.8 skins: Links named "SubDeformer::_ncl1_1" (3ds Max 2009), each
 *                                 bound to the bind pose's Model whose matrix is its TransformLink.
 *   test_fbx_authored instances   FBX 6.1 (Maya): one skinned shape instanced under two Models; both
 *                                 name the geometry "Geometry::Skinned_ncl1_1", the skin hangs from
 *                                 the first only. Both instances are skinned, the second placed by
 *                                 its own node as Maya shows it (M_copy · M_bind⁻¹ · bones).
 *   test_fbx_authored shape_weights  FBX 7.4 (Blender): a BlendShapeChannel whose FullWeights hold one
 *                                 weight per Shape vertex (the shape key's vertex-group mask, 100 /
 *                                 50 / 0), the channel's DeformPercent keyed 0 -> 100: each delta
 *                                 scaled by its vertex's weight, at rest and at t = 0.5 s.
 *   test_fbx_authored zero_scale  FBX 6.1: a parent with rotate and scale pivots at (1, 0, 0) whose
 *                                 scale is keyed (1,1,1) (0,1,1) (1,1,1) (0,0,0) (1,1,1) at 0..4 s; an
 *                                 RSrs child (flattened, then collapsed with it) and a Rrs child
 *                                 (keeps its size): every sample finite, exact at each key time; the
 *                                 same scene as FBX 7.4 (through Assimp) too.
 *   test_fbx_authored not_applied  --info's list of what a file uses and skinview does not apply
 *                                 (Model.source_unhandled): rotation limits switched on, an animated
 *                                 Model with QuaternionInterpolate, a hidden mesh, an Additive
 *                                 cluster, one line each, and nothing for a file that uses none.
 * Each of the first four failed before issue 27's change (the check names the old error).
 */
#include "anim/animator.h"
#include "io/import.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------ */

static bool load(const char *text, Model *model)
{
    char error[512];
    bool ok = import_model_from_memory(text, strlen(text), "fbx", &(ImportOptions){.quiet = true}, model, error, sizeof error);
    CHECK(ok, "the written FBX reads (%s)", error);
    return ok;
}

static int mesh_named(const Model *model, const char *name)
{
    for (int m = 0; m < model->mesh_count; m++)
        if (strcmp(model->meshes[m].name, name) == 0) return m;
    return -1;
}

/* Scene position of the vertex of mesh `name` stored at `stored` (mesh space), at clip `clip`
 * (or ANIMATOR_REST_POSE) and time t: through the animator, as every command poses it. */
static bool posed(const Model *model, int clip, float t, const char *name, const float stored[3], float out[3])
{
    int m = mesh_named(model, name);
    if (m < 0) return false;
    const Mesh *mesh = &model->meshes[m];
    int v = -1;
    for (int i = 0; i < mesh->vertex_count && v < 0; i++)
        if (fabsf(mesh->positions[i][0] - stored[0]) < 1e-6f && fabsf(mesh->positions[i][1] - stored[1]) < 1e-6f &&
            fabsf(mesh->positions[i][2] - stored[2]) < 1e-6f)
            v = i;
    if (v < 0) return false;
    Animator animator;
    if (!animator_init(&animator, model)) return false;
    animator_evaluate(&animator, clip, t);
    vec3 *positions = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    if (positions) {
        animator_skin_mesh(&animator, m, positions, NULL);
        memcpy(out, positions[v], sizeof(float) * 3);
    }
    free(positions);
    animator_free(&animator);
    return positions != NULL;
}

static float largest_error;   /* over every expect() of the run: printed at the end */

/* Checks the posed vertex against the position worked out by hand. Returns the distance. */
static float expect(const Model *model, int clip, float t, const char *name, const float stored[3], const float want[3],
                    const char *why)
{
    float got[3] = {NAN, NAN, NAN};
    bool found = posed(model, clip, t, name, stored, got);
    float d = sqrtf((got[0] - want[0]) * (got[0] - want[0]) + (got[1] - want[1]) * (got[1] - want[1]) +
                    (got[2] - want[2]) * (got[2] - want[2]));
    CHECK(found && d < 1e-4f, "%s at %s t=%g: vertex (%g %g %g) -> (%g %g %g), expected (%g %g %g) [%s]", name,
          clip == ANIMATOR_REST_POSE ? "rest" : "clip", t, stored[0], stored[1], stored[2], got[0], got[1], got[2], want[0],
          want[1], want[2], why);
    largest_error = fmaxf(largest_error, found ? d : INFINITY);
    return found ? d : INFINITY;
}

#define V(x, y, z) ((const float[3]){(x), (y), (z)})

/* ---- FBX 5.8: the take's Defaults are the rest pose; Limits RXAxis is PostRotation --------- */

#define CHANNEL_DEFAULT(axis, value) "                    Channel: \"" axis "\" {\n                        Default: " value "\n                    }\n"
#define TRS_DEFAULTS(letter, layer, x, y, z)                                                                            \
    "                Channel: \"" letter "\" {\n" CHANNEL_DEFAULT("X", x) CHANNEL_DEFAULT("Y", y) CHANNEL_DEFAULT("Z", z) \
    "                    LayerType: " layer "\n                }\n"

static const char takes58_text[] =
    "; FBX 5.8.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 5800\n"
    "    Creator: \"FBX SDK/FBX Plugins build 20080212\"\n}\n"
    "Model: \"Model::Lamp\" {\n    Version: 194\n"
    "    Limits:  {\n        TAuto: 1\n        RAuto: 0\n        SAuto: 1\n        REnable: 0\n        RXAxis: -90\n    }\n"
    "    Type: \"Light\"\n    Children: \"Model::Shade\"\n}\n"
    "Model: \"Model::Shade\" {\n    Version: 194\n    Vertices: 0,0,0,1,0,0,0,1,0\n    PolygonVertexIndex: 0,1,-3\n}\n"
    "Model: \"Model::Box\" {\n    Version: 194\n    Vertices: 0,0,0,1,0,0,0,1,0\n    PolygonVertexIndex: 0,1,-3\n"
    "    Children: \"Model::Child\"\n}\n"
    "Model: \"Model::Child\" {\n    Version: 194\n    Vertices: 0,0,0,1,0,0,0,1,0\n    PolygonVertexIndex: 0,1,-3\n}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n        FileName: \"Take_001.tak\"\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::Lamp\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    TRS_DEFAULTS("T", "1", "0", "0", "5") TRS_DEFAULTS("R", "2", "0", "0", "0") TRS_DEFAULTS("S", "3", "1", "1", "1")
    "            }\n        }\n"
    "        Model: \"Model::Shade\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    TRS_DEFAULTS("T", "1", "0", "1", "0") TRS_DEFAULTS("R", "2", "0", "0", "0") TRS_DEFAULTS("S", "3", "1", "1", "1")
    "            }\n        }\n"
    "        Model: \"Model::Box\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    "                Channel: \"R\" {\n" CHANNEL_DEFAULT("X", "0") CHANNEL_DEFAULT("Y", "0")
    "                    Channel: \"Z\" {\n                        Default: 0\n                        KeyVer: 4005\n"
    "                        KeyCount: 2\n                        Key: 0,0,L,46186158000,90,L\n                    }\n"
    "                    LayerType: 2\n                }\n"
    TRS_DEFAULTS("T", "1", "10", "0", "0") TRS_DEFAULTS("S", "3", "2", "2", "2")
    "            }\n        }\n"
    "        Model: \"Model::Child\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    TRS_DEFAULTS("T", "1", "1", "0", "0") TRS_DEFAULTS("R", "2", "0", "0", "0") TRS_DEFAULTS("S", "3", "1", "1", "1")
    "            }\n        }\n"
    "    }\n}\n"
    "Settings:  {\n    FrameRate: \"30\"\n}\n";

static void takes58(void)
{
    Model model;
    if (!load(takes58_text, &model)) return;
    CHECK(model.clip_count == 1, "one clip (%d)", model.clip_count);
    const char *why = "before: the Model records' identity, the take's unkeyed Defaults and RXAxis ignored";
    /* Box = T(10,0,0) · Rz(θ) · S(2), θ = 0 at rest, 45° at 0.5 s; Child = Box · T(1,0,0) */
    expect(&model, ANIMATOR_REST_POSE, 0, "Box", V(1, 0, 0), V(12, 0, 0), why);
    expect(&model, ANIMATOR_REST_POSE, 0, "Box", V(0, 1, 0), V(10, 2, 0), why);
    expect(&model, ANIMATOR_REST_POSE, 0, "Child", V(0, 1, 0), V(12, 2, 0), why);
    expect(&model, ANIMATOR_REST_POSE, 0, "Child", V(1, 0, 0), V(14, 0, 0), why);
    float c = (float)(sqrt(2.0) / 2.0);
    if (model.clip_count == 1) {
        expect(&model, 0, 0.5f, "Box", V(1, 0, 0), V(10 + 2 * c, 2 * c, 0), why);        /* (10 + 2cos45, 2sin45) */
        expect(&model, 0, 0.5f, "Child", V(0, 1, 0), V(10, 4 * c, 0), why);              /* Box · (1, 1, 0) */
        expect(&model, 0, 0.5f, "Child", V(1, 0, 0), V(10 + 4 * c, 4 * c, 0), why);      /* Box · (2, 0, 0) */
    }
    /* Lamp = T(0,0,5) · Rpost⁻¹, PostRotation (-90, 0, 0): Rpost⁻¹ = Rx(+90), y -> z;
     * Shade = Lamp · T(0,1,0): (1,0,0) -> Lamp · (1,1,0) = (1, 0, 1) + (0,0,5) */
    expect(&model, ANIMATOR_REST_POSE, 0, "Shade", V(1, 0, 0), V(1, 0, 6), why);
    expect(&model, ANIMATOR_REST_POSE, 0, "Shade", V(0, 1, 0), V(0, 0, 7), why);
    if (model.clip_count == 1) expect(&model, 0, 0.5f, "Shade", V(0, 0, 0), V(0, 0, 6), why);
    model_free(&model);
}

/* FBX 5.8 skins: the plug-in names each Link "SubDeformer::…", not after its bone; the bone is the
 * bind pose's Model whose matrix is the Link's TransformLink. B2 (child of B1, at x = 2) turns about
 * z 0 -> 90° over 1 s and carries control points 3 and 4. */
static const char links58_text[] =
    "; FBX 5.8.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 5800\n}\n"
    "Model: \"Model::Body\" {\n    Version: 194\n"
    "    Link: \"SubDeformer::\" {\n        Indexes: 0,1,2\n        Weights: 1,1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n    }\n"
    "    Link: \"SubDeformer::_ncl1_1\" {\n        Indexes: 3,4\n        Weights: 1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,-2,0,0,1\n        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,2,0,0,1\n    }\n"
    "    Vertices: 0,0,0,1,0,0,0,1,0,2,0,0,2,1,0\n    PolygonVertexIndex: 0,1,-3,1,3,-5\n}\n"
    "Model: \"Model::B1\" {\n    Version: 194\n    Type: \"LimbNode\"\n    Children: \"Model::B2\"\n}\n"
    "Model: \"Model::B2\" {\n    Version: 194\n    Type: \"LimbNode\"\n}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::B2\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    TRS_DEFAULTS("T", "1", "2", "0", "0")
    "                Channel: \"R\" {\n" CHANNEL_DEFAULT("X", "0") CHANNEL_DEFAULT("Y", "0")
    "                    Channel: \"Z\" {\n                        Default: 0\n                        KeyVer: 4005\n"
    "                        KeyCount: 2\n                        Key: 0,0,L,46186158000,90,L\n                    }\n"
    "                    LayerType: 2\n                }\n"
    "            }\n        }\n"
    "    }\n}\n"
    "SceneGenericPersistence:  {\n    Pose: \"Pose::BIND_POSES\" {\n        Type: \"BindPose\"\n        NbPoseNodes: 3\n"
    "        PoseNode:  {\n            Node: \"Model::B2\"\n            Matrix: 1,0,0,0,0,1,0,0,0,0,1,0,2,0,0,1\n        }\n"
    "        PoseNode:  {\n            Node: \"Model::B1\"\n            Matrix: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n        }\n"
    "        PoseNode:  {\n            Node: \"Model::Body\"\n            Matrix: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n        }\n"
    "    }\n}\n"
    "Settings:  {\n    FrameRate: \"30\"\n}\n";

static void links58(void)
{
    Model model;
    if (!load(links58_text, &model)) return;
    int body = mesh_named(&model, "Body");
    CHECK(body >= 0 && model.meshes[body].skinned, "the 5.8 mesh is skinned [before: static, no Link named a bone]");
    CHECK(model.clip_count == 1, "one clip (%d)", model.clip_count);
    if (body >= 0 && model.clip_count == 1) {
        const char *why = "before: the Links' bones unresolved, the mesh static";
        float c = (float)(sqrt(2.0) / 2.0);
        /* B2 = T(2,0,0) · Rz(45°) at 0.5 s: control point 4 (2,1,0) is (0,1,0) in B2 -> (2 - c, c, 0) */
        expect(&model, 0, 0.5f, "Body", V(2, 1, 0), V(2 - c, c, 0), why);
        expect(&model, 0, 1.0f, "Body", V(2, 1, 0), V(1, 0, 0), why);
        expect(&model, 0, 1.0f, "Body", V(2, 0, 0), V(2, 0, 0), why);
        expect(&model, 0, 1.0f, "Body", V(0, 1, 0), V(0, 1, 0), why);   /* on B1, which stays */
    }
    model_free(&model);
}

/* ---- FBX 6.1: one skinned shape, two instances ---------------------------------------------- */

static const char instances_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Skinned\", \"Mesh\" {\n        Version: 232\n"
    "        Properties60:  {\n            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,0,0\n        }\n"
    "        Vertices: 0,0,0,1,0,0,0,1,0\n        PolygonVertexIndex: 0,1,-3\n"
    "        NodeAttributeName: \"Geometry::Skinned_ncl1_1\"\n    }\n"
    "    Model: \"Model::Copy\", \"Mesh\" {\n        Version: 232\n"
    "        Properties60:  {\n            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",5,0,0\n"
    "            Property: \"Lcl Rotation\", \"Lcl Rotation\", \"A+\",0,0,90\n        }\n"
    "        Vertices: 0,0,0,1,0,0,0,1,0\n        PolygonVertexIndex: 0,1,-3\n"
    "        NodeAttributeName: \"Geometry::Skinned_ncl1_1\"\n    }\n"
    "    Model: \"Model::Bone\", \"LimbNode\" {\n        Version: 232\n"
    "        Properties60:  {\n            Property: \"Lcl Translation\", \"Lcl Translation\", \"A\",0,0,0\n        }\n"
    "        TypeFlags: \"Skeleton\"\n    }\n"
    "    SceneInfo: \"SceneInfo::GlobalInfo\", \"UserData\" {\n        Type: \"UserData\"\n"
    "        Properties60:  {\n            Property: \"Original|ApplicationName\", \"KString\", \"\", \"Maya\"\n        }\n    }\n"
    "    Deformer: \"Deformer::Skin Skinned\", \"Skin\" {\n        Version: 100\n    }\n"
    "    Deformer: \"SubDeformer::Cluster Bone\", \"Cluster\" {\n        Version: 100\n"
    "        Indexes: 0,1,2\n        Weights: 1,1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n    }\n"
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Skinned\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Copy\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Deformer::Skin Skinned\", \"Model::Skinned\"\n"
    "    Connect: \"OO\", \"SubDeformer::Cluster Bone\", \"Deformer::Skin Skinned\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"SubDeformer::Cluster Bone\"\n"
    "}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::Bone\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    "                Channel: \"T\" {\n" CHANNEL_DEFAULT("X", "0")
    "                    Channel: \"Y\" {\n                        Default: 0\n                        KeyVer: 4005\n"
    "                        KeyCount: 2\n                        Key: 0,0,L,46186158000,2,L\n                    }\n"
    CHANNEL_DEFAULT("Z", "0") "                    LayerType: 1\n                }\n"
    "            }\n        }\n"
    "    }\n}\n";

static void instances(void)
{
    Model model;
    if (!load(instances_text, &model)) return;
    int skinned = mesh_named(&model, "Skinned"), copy = mesh_named(&model, "Copy");
    CHECK(skinned >= 0 && copy >= 0 && model.meshes[skinned].skinned, "both instances read, the first skinned");
    if (copy >= 0) CHECK(model.meshes[copy].skinned, "the second instance is skinned too [before: static]");
    const char *why = "before: the instance without the skin, static at its node";
    /* the bone rises 0 -> 2 in y over 1 s: at 0.5 s it is at (0, 1, 0). The first instance is
     * where it was bound: v + (0, 1, 0). The copy: M_copy · M_bind⁻¹ · bone · v, M_bind = identity
     * (TransformLink · Transform), M_copy = T(5,0,0) · Rz(90): (x, y) -> (5 - y, x) */
    expect(&model, 0, 0.5f, "Skinned", V(1, 0, 0), V(1, 1, 0), why);
    expect(&model, 0, 0.5f, "Copy", V(1, 0, 0), V(4, 1, 0), why);     /* bone: (1, 1, 0) -> (5 - 1, 1) */
    expect(&model, 0, 0.5f, "Copy", V(0, 1, 0), V(3, 0, 0), why);     /* bone: (0, 2, 0) -> (5 - 2, 0) */
    expect(&model, 0, 1.0f, "Copy", V(0, 0, 0), V(3, 0, 0), why);     /* bone: (0, 2, 0) */
    expect(&model, ANIMATOR_REST_POSE, 0, "Copy", V(1, 0, 0), V(5, 1, 0), why);
    model_free(&model);
}

/* ---- FBX 7.4 (Blender): FullWeights per shape vertex ----------------------------------------- */

static const char shape_weights_text[] =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n"
    "\tCreator: \"Blender (stable FBX IO) - 4.4.1 - 5.12.6\"\n"
    "\tSceneInfo: \"SceneInfo::GlobalInfo\", \"UserData\" {\n\t\tType: \"UserData\"\n\t\tVersion: 100\n"
    "\t\tProperties70:  {\n\t\t\tP: \"Original|ApplicationName\", \"KString\", \"\", \"\", \"Blender (stable FBX IO)\"\n\t\t}\n\t}\n}\n"
    "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",2\n\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n\t\tP: \"TimeMode\", \"enum\", \"\", \"\",11\n\t}\n}\n"
    "Objects:  {\n"
    "\tGeometry: 100, \"Geometry::Quad\", \"Mesh\" {\n"
    "\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,1,1,0,0,1,0\n\t\t}\n"
    "\t\tPolygonVertexIndex: *4 {\n\t\t\ta: 0,1,2,-4\n\t\t}\n\t\tGeometryVersion: 124\n"
    "\t\tLayerElementNormal: 0 {\n\t\t\tVersion: 101\n\t\t\tName: \"\"\n"
    "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n\t\t\tReferenceInformationType: \"Direct\"\n"
    "\t\t\tNormals: *12 {\n\t\t\t\ta: 0,0,1,0,0,1,0,0,1,0,0,1\n\t\t\t}\n\t\t}\n"
    "\t\tLayer: 0 {\n\t\t\tVersion: 100\n\t\t\tLayerElement:  {\n\t\t\t\tType: \"LayerElementNormal\"\n"
    "\t\t\t\tTypedIndex: 0\n\t\t\t}\n\t\t}\n\t}\n"
    "\tModel: 200, \"Model::Quad\", \"Mesh\" {\n\t\tVersion: 232\n"
    "\t\tProperties70:  {\n\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,0,0\n\t\t}\n"
    "\t\tShading: T\n\t\tCulling: \"CullingOff\"\n\t}\n"
    "\tGeometry: 300, \"Geometry::Lift\", \"Shape\" {\n\t\tVersion: 100\n"
    "\t\tIndexes: *3 {\n\t\t\ta: 1,2,3\n\t\t}\n"
    "\t\tVertices: *9 {\n\t\t\ta: 0,0,2,0,0,2,0,0,2\n\t\t}\n"
    "\t\tNormals: *9 {\n\t\t\ta: 0,0,0,0,0,0,0,0,0\n\t\t}\n\t}\n"
    "\tDeformer: 400, \"Deformer::Quad\", \"BlendShape\" {\n\t\tVersion: 100\n\t}\n"
    "\tDeformer: 401, \"SubDeformer::Lift\", \"BlendShapeChannel\" {\n\t\tVersion: 100\n\t\tDeformPercent: 0\n"
    "\t\tFullWeights: *3 {\n\t\t\ta: 100,50,0\n\t\t}\n\t}\n"
    "\tAnimationStack: 500, \"AnimStack::Quad|Lift\", \"\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158000\n\t\t}\n\t}\n"
    "\tAnimationLayer: 501, \"AnimLayer::BaseLayer\", \"\" {\n\t}\n"
    "\tAnimationCurveNode: 502, \"AnimCurveNode::DeformPercent\", \"\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"d|DeformPercent\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n"
    "\tAnimationCurve: 503, \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n\t\tKeyVer: 4008\n"
    "\t\tKeyTime: *2 {\n\t\t\ta: 0,46186158000\n\t\t}\n\t\tKeyValueFloat: *2 {\n\t\t\ta: 0,100\n\t\t}\n"
    "\t\tKeyAttrFlags: *1 {\n\t\t\ta: 24836\n\t\t}\n\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,0,0\n\t\t}\n"
    "\t\tKeyAttrRefCount: *1 {\n\t\t\ta: 2\n\t\t}\n\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tC: \"OO\",200,0\n\tC: \"OO\",100,200\n\tC: \"OO\",400,100\n\tC: \"OO\",401,400\n\tC: \"OO\",300,401\n"
    "\tC: \"OO\",501,500\n\tC: \"OO\",502,501\n\tC: \"OP\",502,401, \"DeformPercent\"\n"
    "\tC: \"OP\",503,502, \"d|DeformPercent\"\n"
    "}\n";

static void shape_weights(void)
{
    Model model;
    if (!load(shape_weights_text, &model)) return;
    int quad = mesh_named(&model, "Quad");
    CHECK(quad >= 0 && model.meshes[quad].morph_target_count == 1, "one morph target (%d)",
          quad >= 0 ? model.meshes[quad].morph_target_count : -1);
    CHECK(model.clip_count == 1, "one clip (%d)", model.clip_count);
    if (quad < 0 || model.clip_count != 1) {
        model_free(&model);
        return;
    }
    const char *why = "before: the full delta on every vertex, the per-vertex weights read as one full weight of 100";
    /* delta (0,0,2) on control points 1, 2, 3 with vertex weights 100, 50, 0 percent; the value
     * 0 -> 100 over 1 s: z = 2 · value/100 · weight/100 */
    expect(&model, 0, 0.5f, "Quad", V(1, 0, 0), V(1, 0, 1.0f), why);
    expect(&model, 0, 0.5f, "Quad", V(1, 1, 0), V(1, 1, 0.5f), why);
    expect(&model, 0, 0.5f, "Quad", V(0, 1, 0), V(0, 1, 0), why);
    expect(&model, 0, 1.0f, "Quad", V(1, 1, 0), V(1, 1, 1.0f), why);
    expect(&model, 0, 1.0f, "Quad", V(0, 1, 0), V(0, 1, 0), why);
    expect(&model, 0, 0.5f, "Quad", V(0, 0, 0), V(0, 0, 0), why);
    model_free(&model);
}

/* ---- a parent scaled to 0 about its pivots -------------------------------------------------- */

#define SCALE_AXIS(axis, keys) \
    "                    Channel: \"" axis "\" {\n                        Default: 1\n                        KeyVer: 4005\n" \
    "                        KeyCount: 5\n                        Key: " keys "\n                    }\n"

static const char zero_scale_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Pivoted\", \"Null\" {\n        Version: 232\n        Properties60:  {\n"
    "            Property: \"RotationPivot\", \"Vector3D\", \"\",1,0,0\n"
    "            Property: \"ScalingPivot\", \"Vector3D\", \"\",1,0,0\n"
    "            Property: \"InheritType\", \"enum\", \"\",1\n"
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,0,0\n"
    "            Property: \"Lcl Rotation\", \"Lcl Rotation\", \"A+\",0,0,90\n"
    "            Property: \"Lcl Scaling\", \"Lcl Scaling\", \"A+\",1,1,1\n        }\n    }\n"
    "    Model: \"Model::Held\", \"Mesh\" {\n        Version: 232\n        Properties60:  {\n"
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",2,0,0\n        }\n"
    "        Vertices: 0,0,0,1,0,0,0,1,0,0,0,1\n        PolygonVertexIndex: 0,1,-3,0,2,-4\n    }\n"
    "    Model: \"Model::Compensated\", \"Mesh\" {\n        Version: 232\n        Properties60:  {\n"
    "            Property: \"InheritType\", \"enum\", \"\",2\n"
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,1,0\n        }\n"
    "        Vertices: 0,0,0,1,0,0,0,1,0,0,0,1\n        PolygonVertexIndex: 0,1,-3,0,2,-4\n    }\n"
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Pivoted\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Held\", \"Model::Pivoted\"\n"
    "    Connect: \"OO\", \"Model::Compensated\", \"Model::Pivoted\"\n"
    "}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,184744632000\n        ReferenceTime: 0,184744632000\n"
    "        Model: \"Model::Pivoted\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    "                Channel: \"S\" {\n"
    SCALE_AXIS("X", "0,1,L,46186158000,0,L,92372316000,1,L,138558474000,0,L,184744632000,1,L")
    SCALE_AXIS("Y", "0,1,L,46186158000,1,L,92372316000,1,L,138558474000,0,L,184744632000,1,L")
    SCALE_AXIS("Z", "0,1,L,46186158000,1,L,92372316000,1,L,138558474000,0,L,184744632000,1,L")
    "                    LayerType: 3\n                }\n"
    "            }\n        }\n"
    "    }\n}\n";

/* The same scene as FBX 7.4 (through Assimp, then the FBX stage): Model properties in Properties70,
 * the scale keys as an AnimationCurveNode "S" with three linear curves. */
#define GEOMETRY_74(id, name)                                                                            \
    "\tGeometry: " id ", \"Geometry::" name "\", \"Mesh\" {\n\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0,0,0,1\n\t\t}\n" \
    "\t\tPolygonVertexIndex: *6 {\n\t\t\ta: 0,1,-3,0,2,-4\n\t\t}\n\t\tGeometryVersion: 124\n\t}\n"
#define SCALE_CURVE_74(id, values)                                                                        \
    "\tAnimationCurve: " id ", \"AnimCurve::\", \"\" {\n\t\tDefault: 1\n\t\tKeyVer: 4008\n"                     \
    "\t\tKeyTime: *5 {\n\t\t\ta: 0,46186158000,92372316000,138558474000,184744632000\n\t\t}\n"               \
    "\t\tKeyValueFloat: *5 {\n\t\t\ta: " values "\n\t\t}\n\t\tKeyAttrFlags: *1 {\n\t\t\ta: 4\n\t\t}\n"      \
    "\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,0,0\n\t\t}\n\t\tKeyAttrRefCount: *1 {\n\t\t\ta: 5\n\t\t}\n\t}\n"

static const char zero_scale_74_text[] =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
    "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",2\n\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n\t\tP: \"TimeMode\", \"enum\", \"\", \"\",6\n\t}\n}\n"
    "Objects:  {\n"
    "\tModel: 10, \"Model::Pivoted\", \"Null\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
    "\t\t\tP: \"RotationPivot\", \"Vector3D\", \"Vector\", \"\",1,0,0\n"
    "\t\t\tP: \"ScalingPivot\", \"Vector3D\", \"Vector\", \"\",1,0,0\n"
    "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",1\n"
    "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",0,0,90\n\t\t}\n\t}\n"
    "\tModel: 20, \"Model::Held\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
    "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",1\n"
    "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",2,0,0\n\t\t}\n\t}\n"
    "\tModel: 30, \"Model::Compensated\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
    "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",2\n"
    "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,1,0\n\t\t}\n\t}\n"
    GEOMETRY_74("21", "Held") GEOMETRY_74("31", "Compensated")
    "\tAnimationStack: 40, \"AnimStack::Take 001\", \"\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",184744632000\n\t\t}\n\t}\n"
    "\tAnimationLayer: 41, \"AnimLayer::BaseLayer\", \"\" {\n\t}\n"
    "\tAnimationCurveNode: 42, \"AnimCurveNode::S\", \"\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"d|X\", \"Number\", \"\", \"A\",1\n\t\t\tP: \"d|Y\", \"Number\", \"\", \"A\",1\n"
    "\t\t\tP: \"d|Z\", \"Number\", \"\", \"A\",1\n\t\t}\n\t}\n"
    SCALE_CURVE_74("43", "1,0,1,0,1") SCALE_CURVE_74("44", "1,1,1,0,1") SCALE_CURVE_74("45", "1,1,1,0,1")
    "}\n"
    "Connections:  {\n"
    "\tC: \"OO\",10,0\n\tC: \"OO\",20,10\n\tC: \"OO\",30,10\n\tC: \"OO\",21,20\n\tC: \"OO\",31,30\n"
    "\tC: \"OO\",41,40\n\tC: \"OO\",42,41\n\tC: \"OP\",42,10, \"Lcl Scaling\"\n"
    "\tC: \"OP\",43,42, \"d|X\"\n\tC: \"OP\",44,42, \"d|Y\"\n\tC: \"OP\",45,42, \"d|Z\"\n"
    "}\n";

/* The parent's world for a point q of its space, worked out from T · Rp · R · Rp⁻¹ · Sp · S · Sp⁻¹
 * with T = 0, Rp = Sp = (1, 0, 0), R = Rz(90°): Sp·S·Sp⁻¹ q = (1 + sx (qx - 1), sy qy, sz qz), then
 * about the pivot Rz(90) (x, y) -> (-y, x): W(q) = (1 - sy qy, sx (qx - 1), sz qz).
 * Held (RSrs, T (2,0,0)): W(v + (2,0,0)) = (1 - sy vy, sx (vx + 1), sz vz).
 * Compensated (Rrs, T (0,1,0)): the parent's unscaled frame U(p) = Rz90 p + (1, -sx, 0) (W's TRS
 * without the scale), its translation times the parent's scale (0, sy, 0), its own size kept:
 * U(v + (0, sy, 0)) = (1 - vy - sy, vx - sx, vz). */
static void held_by_hand(const double s[3], const float v[3], float out[3])
{
    out[0] = (float)(1.0 - s[1] * v[1]);
    out[1] = (float)(s[0] * (v[0] + 1.0));
    out[2] = (float)(s[2] * v[2]);
}

static void compensated_by_hand(const double s[3], const float v[3], float out[3])
{
    out[0] = (float)(1.0 - v[1] - s[1]);
    out[1] = (float)(v[0] - s[0]);
    out[2] = v[2];
}

static void zero_scale_file(const char *text, const char *version)
{
    printf("FBX %s:\n", version);
    Model model;
    if (!load(text, &model)) return;
    CHECK(model.clip_count == 1, "one clip (%d)", model.clip_count);
    if (model.clip_count != 1) {
        model_free(&model);
        return;
    }
    static const double scale_at[5][3] = {{1, 1, 1}, {0, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
    static const float corners[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const char *why = "before: the local under a singular parent taken as identity, the parent's rotation lost";
    float worst = 0;
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < 4; c++) {
            float want[3];
            held_by_hand(scale_at[k], corners[c], want);
            worst = fmaxf(worst, expect(&model, 0, (float)k, "Held", corners[c], want, why));
            compensated_by_hand(scale_at[k], corners[c], want);
            worst = fmaxf(worst, expect(&model, 0, (float)k, "Compensated", corners[c], want, why));
        }
    printf("zero scale, FBX %s: largest error at the 5 key times %g\n", version, worst);
    /* between the keys the scale passes through every value down to 0: every sample finite */
    bool finite = true;
    for (int step = 0; step <= 80 && finite; step++) {
        float t = 4.0f * step / 80.0f, got[3];
        for (int c = 0; c < 4 && finite; c++) {
            finite = posed(&model, 0, t, "Held", corners[c], got) && isfinite(got[0]) && isfinite(got[1]) && isfinite(got[2]);
            finite = finite && posed(&model, 0, t, "Compensated", corners[c], got) && isfinite(got[0]) && isfinite(got[1]) &&
                     isfinite(got[2]);
        }
        CHECK(finite, "finite pose at t = %g", t);
    }
    for (int j = 0; j < model.skeleton.joint_count; j++) {
        const JointTransform *r = &model.skeleton.rest_trs[j];
        CHECK(isfinite(r->translation[0] + r->translation[1] + r->translation[2] + r->rotation[0] + r->rotation[1] +
                       r->rotation[2] + r->rotation[3] + r->scale[0] + r->scale[1] + r->scale[2]),
              "joint %s: a finite rest transform", model.skeleton.names[j]);
    }
    model_free(&model);
}

static void zero_scale(void)
{
    zero_scale_file(zero_scale_text, "6.1");
    zero_scale_file(zero_scale_74_text, "7.4");
}

/* ---- what the reader does not apply: --info says so, one line each ---------------------------- */

static const char not_applied_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Limited\", \"Mesh\" {\n        Version: 232\n        Properties60:  {\n"
    "            Property: \"RotationActive\", \"bool\", \"\",1\n"
    "            Property: \"RotationMaxZ\", \"bool\", \"\",1\n"
    "            Property: \"RotationMax\", \"Vector3D\", \"\",0,0,30\n"
    "            Property: \"QuaternionInterpolate\", \"enum\", \"\",1\n"
    "            Property: \"Visibility\", \"Visibility\", \"A+\",0\n        }\n"
    "        Vertices: 0,0,0,1,0,0,0,1,0\n        PolygonVertexIndex: 0,1,-3\n    }\n"
    "    Model: \"Model::Bone\", \"LimbNode\" {\n        Version: 232\n    }\n"
    "    Deformer: \"Deformer::Skin Limited\", \"Skin\" {\n        Version: 100\n    }\n"
    "    Deformer: \"SubDeformer::Cluster Bone\", \"Cluster\" {\n        Version: 100\n        Mode: \"Additive\"\n"
    "        Indexes: 0,1,2\n        Weights: 1,1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n    }\n"
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Limited\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Deformer::Skin Limited\", \"Model::Limited\"\n"
    "    Connect: \"OO\", \"SubDeformer::Cluster Bone\", \"Deformer::Skin Limited\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"SubDeformer::Cluster Bone\"\n"
    "}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::Limited\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    "                Channel: \"R\" {\n" CHANNEL_DEFAULT("X", "0") CHANNEL_DEFAULT("Y", "0")
    "                    Channel: \"Z\" {\n                        Default: 0\n                        KeyVer: 4005\n"
    "                        KeyCount: 2\n                        Key: 0,0,L,46186158000,90,L\n                    }\n"
    "                    LayerType: 2\n                }\n"
    "            }\n        }\n"
    "    }\n}\n";

static void not_applied(void)
{
    Model model;
    if (!load(not_applied_text, &model)) return;
    const char *lines = model.source_unhandled;
    printf("not applied:\n%s", lines);
    static const char *const expected[] = {"rotation limits", "QuaternionInterpolate", "Visibility 0", "Cluster Mode Additive"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        CHECK(strstr(lines, expected[i]) != NULL, "--info names '%s'", expected[i]);
    CHECK(strstr(lines, "1 Models (Limited)") != NULL, "the Model is named");
    int count = 0;
    for (const char *c = lines; *c; c++) count += *c == '\n';
    CHECK(count == 4, "one line per feature (%d)", count);
    model_free(&model);
    /* a file that uses none of them says nothing */
    if (load(instances_text, &model)) {
        CHECK(model.source_unhandled[0] == '\0', "nothing to say on the instances file (%s)", model.source_unhandled);
        model_free(&model);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    static const TestMode modes[] = {{"takes58", takes58},           {"links58", links58},
                                     {"instances", instances},       {"shape_weights", shape_weights},
                                     {"zero_scale", zero_scale},     {"not_applied", not_applied}};
    if (!test_run_mode("test_fbx_authored", mode, modes, (int)(sizeof modes / sizeof modes[0]))) return 2;
    printf("%s: largest distance from the positions by hand %g\n", mode, largest_error);
    return test_finish();
}
