/* test_fbx_legacy — FBX older than 7.1, built without Assimp (src/io/fbx/fbx_legacy.c).
 *
 *   test_fbx_legacy scene   an FBX 6.1 ASCII file written here: a quad and a triangle (four
 *                           triangles), normals ByPolygonVertex Direct, UVs ByPolygonVertex
 *                           IndexToDirect, two materials ByPolygon (two meshes), a skin of two
 *                           clusters (one vertex with weights 3 and 1, renormalised), a texture.
 *                           Checked: joints (the root first, parents first), triangles, the
 *                           control point of each vertex, normals, UVs, weights, the inverse bind
 *                           = the cluster's Transform, the material colours and texture file; a
 *                           mesh without normals gets smooth ones; import_model reads the file.
 *                           Blend shapes, FBX 6.1 (a file written here): a Shape record in the mesh
 *                           Model, its stored weight from the Model's property of the shape's
 *                           name (25), a take channel of that name keyed 0 -> 100 over 1 s: one
 *                           morph target with the shape's delta on its control point, default
 *                           weight 0.25, the clip's weight 0.5 at 0.5 s (the vertex halfway).
 *   test_fbx_legacy files   every FBX < 7.1 in ../shared/models (skipped when absent): import_model
 *                           reads it (meshes with vertices), and for the ufbx-dcc 3ds Max 7 file
 *                           `skinview --info` and `--export-pose` work (the OBJ has vertices).
 */
#include "anim/animator.h"
#include "io/fbx/fbx_import.h"
#include "io/import.h"
#include "testio.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char scene_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Body\", \"Mesh\" {\n"
    "        Properties60:  {\n            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,0,0\n        }\n"
    "        Vertices: 0,0,0, 1,0,0, 1,1,0, 0,1,0, 2,0,0\n"
    "        PolygonVertexIndex: 0,1,2,-4,1,4,-3\n"
    "        LayerElementNormal: 0 {\n            MappingInformationType: \"ByPolygonVertex\"\n"
    "            ReferenceInformationType: \"Direct\"\n"
    "            Normals: 0,0,1,0,0,1,0,0,1,0,0,1,0,0,-1,0,0,-1,0,0,-1\n        }\n"
    "        LayerElementUV: 0 {\n            MappingInformationType: \"ByPolygonVertex\"\n"
    "            ReferenceInformationType: \"IndexToDirect\"\n"
    "            UV: 0,0,1,0,1,1,0,1\n            UVIndex: 0,1,2,3,1,0,2\n        }\n"
    "        LayerElementMaterial: 0 {\n            MappingInformationType: \"ByPolygon\"\n"
    "            ReferenceInformationType: \"IndexToDirect\"\n            Materials: 1,0\n        }\n"
    "    }\n"
    "    Model: \"Model::Hip\", \"Limb\" {\n        Properties60:  {\n"
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,2,0\n        }\n    }\n"
    "    Model: \"Model::Knee\", \"Limb\" {\n    }\n"
    "    Model: \"Model::Plain\", \"Mesh\" {\n        Vertices: 0,0,0, 1,0,0, 0,1,0\n"
    "        PolygonVertexIndex: 0,1,-3\n    }\n"
    "    Material: \"Material::Red\", \"\" {\n        Properties60:  {\n"
    "            Property: \"DiffuseColor\", \"ColorRGB\", \"\",1,0,0\n        }\n    }\n"
    "    Material: \"Material::Green\", \"\" {\n        Properties60:  {\n"
    "            Property: \"DiffuseColor\", \"ColorRGB\", \"\",0,1,0\n        }\n    }\n"
    "    Texture: \"Texture::Skin\", \"TextureVideoClip\" {\n        FileName: \"C:\\\\old\\\\skin.png\"\n"
    "        RelativeFilename: \"skin.png\"\n    }\n"
    "    Deformer: \"Deformer::Skin Body\", \"Skin\" {\n    }\n"
    "    Deformer: \"SubDeformer::Cluster Hip\", \"Cluster\" {\n        Indexes: 0,1,2,3\n        Weights: 1,3,1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,-2,0,1\n        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,0,2,0,1\n    }\n"
    "    Deformer: \"SubDeformer::Cluster Knee\", \"Cluster\" {\n        Indexes: 1,4\n        Weights: 1,1\n"
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,-5,0,0,1\n    }\n"
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Body\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Knee\", \"Model::Hip\"\n"
    "    Connect: \"OO\", \"Model::Hip\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Plain\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Material::Red\", \"Model::Body\"\n"
    "    Connect: \"OO\", \"Material::Green\", \"Model::Body\"\n"
    "    Connect: \"OO\", \"Texture::Skin\", \"Model::Body\"\n"
    "    Connect: \"OO\", \"Deformer::Skin Body\", \"Model::Body\"\n"
    "    Connect: \"OO\", \"SubDeformer::Cluster Hip\", \"Deformer::Skin Body\"\n"
    "    Connect: \"OO\", \"SubDeformer::Cluster Knee\", \"Deformer::Skin Body\"\n"
    "    Connect: \"OO\", \"Model::Hip\", \"SubDeformer::Cluster Hip\"\n"
    "    Connect: \"OO\", \"Model::Knee\", \"SubDeformer::Cluster Knee\"\n"
    "}\n";

static const char blend_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Face\", \"Mesh\" {\n"
    "        Properties60:  {\n            Property: \"Smile\", \"Number\", \"AN\",25\n        }\n"
    "        Shape: \"Smile\" {\n            Indexes: 2\n            Vertices: 0,0,2\n            Normals: 0,0,0\n        }\n"
    "        Vertices: 0,0,0, 1,0,0, 0,1,0\n"
    "        PolygonVertexIndex: 0,1,-3\n"
    "    }\n"
    "}\n"
    "Connections:  {\n    Connect: \"OO\", \"Model::Face\", \"Model::Scene\"\n}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::Face\" {\n            Version: 1.1\n"
    "            Channel: \"Smile\" {\n                Default: 25\n                KeyVer: 4005\n"
    "                KeyCount: 2\n                Key: 0,0,L,46186158000,100,L\n            }\n"
    "        }\n    }\n}\n";

static void blend_shapes(void)
{
    Model model;
    char error[256];
    bool ok = import_model_from_memory(blend_text, strlen(blend_text), "fbx", &(ImportOptions){.quiet = true}, &model, error,
                                       sizeof error);
    CHECK(ok, "FBX 6.1 with a Shape reads (%s)", error);
    if (!ok) return;
    const Mesh *mesh = model.mesh_count == 1 ? &model.meshes[0] : NULL;
    CHECK(mesh && mesh->morph_target_count == 1 && strcmp(mesh->morph_target_names[0], "Smile") == 0,
          "one morph target named Smile (%d)", mesh ? mesh->morph_target_count : -1);
    if (!mesh || mesh->morph_target_count != 1) goto done;
    int top = -1;   /* the vertex of control point 2, (0, 1, 0) */
    for (int v = 0; v < mesh->vertex_count; v++)
        if (mesh->positions[v][1] == 1.0f) top = v;
    CHECK(top >= 0 && mesh->morph_position_deltas[top][2] == 2.0f && mesh->morph_position_deltas[top][0] == 0.0f,
          "the delta (0, 0, 2) on control point 2");
    CHECK(fabsf(mesh->morph_default_weights[0] - 0.25f) < 1e-6f, "stored weight 25%%: %g", mesh->morph_default_weights[0]);
    CHECK(model.clip_count == 1 && model.clips[0].morph_track_count == 1, "the take drives the weight (%d clips)", model.clip_count);
    if (model.clip_count == 1 && top >= 0) {
        Animator animator;
        if (animator_init(&animator, &model)) {
            animator_evaluate(&animator, 0, 0.5f);
            bool morphed = animator_morph_mesh(&animator, 0);
            float z = morphed ? animator.morph.meshes[0].positions[top][2] : -1.0f;
            CHECK(morphed && fabsf(z - 1.0f) < 1e-5f, "at 0.5 s the weight is 0.5: z = %g (1)", z);
            animator_free(&animator);
        }
    }
done:
    model_free(&model);
}

static int joint_named(const Model *model, const char *name)
{
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], name) == 0) return j;
    return -1;
}

static void written_scene(void)
{
    FbxScene scene;
    if (!test_fbx_scene_read(&scene, scene_text)) return;
    char error[256];
    bool ok;
    Model model;
    FbxModelMap map;
    ok = fbx_build_model(&scene, &model, &map, false, error, sizeof error);
    CHECK(ok, "built (%s)", error);
    if (!ok) {
        fbx_scene_free(&scene);
        return;
    }
    const Skeleton *sk = &model.skeleton;
    CHECK(sk->joint_count == 5 && strcmp(sk->names[0], "RootNode") == 0 && sk->parent[0] == -1 && map.joint_object[0] == -1,
          "5 joints, the root first (%d)", sk->joint_count);
    bool parents_first = true;
    for (int j = 1; j < sk->joint_count; j++) parents_first = parents_first && sk->parent[j] >= 0 && sk->parent[j] < j;
    CHECK(parents_first, "parents before children");
    int hip = joint_named(&model, "Hip"), knee = joint_named(&model, "Knee"), body = joint_named(&model, "Body");
    CHECK(hip > 0 && knee > 0 && body > 0 && sk->parent[knee] == hip && sk->parent[hip] == 0, "Knee under Hip under the root");
    CHECK(hip > 0 && fabsf(sk->rest_trs[hip].translation[1] - 2.0f) < 1e-6f, "Hip rest translation from Lcl Translation");
    CHECK(model.mesh_count == 3, "3 meshes (Body: 2 materials, Plain): %d", model.mesh_count);
    if (model.mesh_count != 3) goto done;
    /* Body's slot 0 (Red) holds the triangle, slot 1 (Green) the quad */
    const Mesh *tri = &model.meshes[0], *quad = &model.meshes[1], *plain = &model.meshes[2];
    CHECK(tri->index_count == 3 && tri->vertex_count == 3 && quad->index_count == 6 && quad->vertex_count == 4,
          "triangle %d/%d, quad %d/%d", tri->vertex_count, tri->index_count, quad->vertex_count, quad->index_count);
    CHECK(tri->material >= 0 && model.materials[tri->material].diffuse_color[0] == 1 && quad->material >= 0 &&
              model.materials[quad->material].diffuse_color[1] == 1,
          "materials by polygon (Red triangle, Green quad)");
    const int *cp_quad = map.mesh_control_point[1], *cp_tri = map.mesh_control_point[0];
    CHECK(cp_quad && cp_quad[0] == 0 && cp_quad[3] == 3 && cp_tri && cp_tri[0] == 1 && cp_tri[1] == 4 && cp_tri[2] == 2,
          "control points of the vertices");
    CHECK(quad->indices[3] == 0 && quad->indices[4] == 2 && quad->indices[5] == 3, "fan triangulation (0, 2, 3)");
    CHECK(quad->normals[0][2] == 1 && tri->normals[0][2] == -1, "normals ByPolygonVertex");
    CHECK(quad->uvs[2][0] == 1 && quad->uvs[2][1] == 1 && tri->uvs[0][0] == 1 && tri->uvs[1][0] == 0, "UVs by index");
    CHECK(quad->positions[2][0] == 1 && quad->positions[2][1] == 1 && tri->positions[1][0] == 2, "positions");
    CHECK(quad->skinned && quad->bone_count == 2, "the quad is skinned to 2 bones (%d)", quad->bone_count);
    if (quad->skinned && quad->bone_count == 2) {
        int hip_bone = quad->bone_joint[0] == hip ? 0 : 1;
        /* control point 1: Hip 3, Knee 1 -> 0.75, 0.25 */
        CHECK(fabsf(quad->weights[1][0] - 0.75f) < 1e-6f && fabsf(quad->weights[1][1] - 0.25f) < 1e-6f &&
                  quad->joint_indices[1][0] == hip_bone,
              "weights renormalised, largest first: %g %g", quad->weights[1][0], quad->weights[1][1]);
        CHECK(quad->inverse_bind[hip_bone][3][1] == -2, "inverse bind = the cluster's Transform");
        CHECK(map.mesh_bone_cluster[1] != NULL, "bone clusters in the map");
    }
    CHECK(tri->skinned && tri->weights[1][0] == 1.0f, "control point 4: Knee alone");
    CHECK(fabsf(plain->normals[0][2] - 1.0f) < 1e-6f && plain->normals[0][0] == 0, "smooth normals made: %g %g %g",
          plain->normals[0][0], plain->normals[0][1], plain->normals[0][2]);
    CHECK(!plain->skinned, "Plain is static");
    int red = tri->material;
    CHECK(red >= 0 && red < map.material_count && map.material_texture[red] && strcmp(map.material_texture[red], "skin.png") == 0,
          "texture file from RelativeFilename (FBX 6: hangs from the Model)");
done:
    fbx_model_map_free(&map);
    model_free(&model);
    fbx_scene_free(&scene);
    /* the import itself (from memory: the legacy path, validated) */
    ok = import_model_from_memory(scene_text, strlen(scene_text), "fbx", &(ImportOptions){.quiet = true}, &model, error, sizeof error);
    CHECK(ok && model.mesh_count == 3, "import_model_from_memory reads FBX 6.1 (%s)", error);
    if (ok) model_free(&model);
}

static int legacy_files;

static void check_file(const char *path)
{
    Model model;
    char error[512];
    bool ok = import_model(path, &(ImportOptions){.quiet = true}, &model, error, sizeof error);
    CHECK(ok, "%s: imported (%s)", path, error);
    if (!ok) return;
    legacy_files++;
    int vertices = model_total_vertices(&model);
    CHECK(model.mesh_count > 0 && vertices > 0 && model.skeleton.joint_count > 1, "%s: %d meshes, %d vertices, %d joints", path,
          model.mesh_count, vertices, model.skeleton.joint_count);
    model_free(&model);
}

/* Every legacy FBX below ../shared/models (test_walk_files' visitor). */
static void check_if_legacy(const char *path, void *unused)
{
    (void)unused;
    if (test_fbx_is_legacy(path)) check_file(path);
}

static void files(void)
{
    test_walk_files(SKINVIEW_SHARED_MODELS_DIR, 4, check_if_legacy, NULL);
    printf("%d legacy FBX files imported\n", legacy_files);
    const char *max7 = SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/max7_skin_5000_binary.fbx";
    if (!test_file_exists(max7) || !test_file_exists(SKINVIEW_BINARY)) return;
    char command[4096], out[8192];
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, max7);
    int code = test_run_capture(command, out, sizeof out);
    CHECK(code == 0 && strstr(out, "skinned") != NULL, "--info on FBX 5.0: exit %d: %.300s", code, out);
    char obj[] = "/tmp/skinview-test-legacy-XXXXXX";
    int fd = mkstemp(obj);
    if (fd >= 0) close(fd);
    snprintf(command, sizeof command, "'%s' '%s' --export-pose '%s' 2>&1", SKINVIEW_BINARY, max7, obj);
    code = test_run_capture(command, out, sizeof out);
    FILE *f = fopen(obj, "r");
    int v = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (line[0] == 'v' && line[1] == ' ') v++;
    if (f) fclose(f);
    unlink(obj);
    CHECK(code == 0 && v > 0, "--export-pose on FBX 5.0: exit %d, %d vertices (%.200s)", code, v, out);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "scene";
    if (strcmp(mode, "scene") == 0) {
        written_scene();
        blend_shapes();
    }
    else if (strcmp(mode, "files") == 0) files();
    else return 2;
    return test_finish();
}
