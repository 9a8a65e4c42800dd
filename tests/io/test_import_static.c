/* test_import_static — a model is still a model without bones or clips (DESIGN trap 9):
 *   - BoxTextured.glb: no bones, no animation -> static meshes, 0 clips, embedded texture decoded;
 *   - BoxTextured.gltf: the same with the texture as a file next to the model;
 *   - anims_with_full_rotations_between_keys.DAE: node animation but no bones -> static meshes
 *     that follow their animated nodes;
 *   - Wizard.glb (../shared, optional): rigid meshes inside a skinned model;
 *   - OBJ testline.obj / testpoints.obj: `l` and `p` elements come through Assimp as line-segment
 *     and point meshes, each element at the file's own vertex positions.
 * And `--info --json` reports them static. */
#include "anim/animator.h"
#include "io/import.h"
#include "testio.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int static_meshes(const Model *model)
{
    int n = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->skinned) continue;
        n++;
        CHECK(mesh->bone_count == 0 && !mesh->bone_joint && !mesh->weights && !mesh->joint_indices,
              "%s mesh %d: static mesh with skin data", model->source_path, m);
        CHECK(mesh->node_joint >= 0 && mesh->node_joint < model->skeleton.joint_count, "%s mesh %d: node_joint %d",
              model->source_path, m, mesh->node_joint);
    }
    return n;
}

/* --info --json agrees: every mesh "skinned": false, and the clip count */
static void check_json_static(const char *path, int clips)
{
    char command[2200];
    snprintf(command, sizeof command, "'%s' --info --json '%.1024s' 2>/dev/null", SKINVIEW_BINARY, path);
    static char text[1 << 20];
    int status = test_run_status(command, text, sizeof text);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: --info --json status %d", path, status);
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL, "%s: --info --json is not JSON", path);
    if (!root) return;
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    CHECK(cJSON_GetArraySize(meshes) > 0, "%s: no meshes in JSON", path);
    const cJSON *mesh;
    cJSON_ArrayForEach(mesh, meshes)
        CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(mesh, "skinned")), "%s: a mesh reported skinned", path);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "clips")) == clips, "%s: clip count", path);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "bone_count")->valuedouble == 0, "%s: bone_count not 0", path);
    cJSON_Delete(root);
}

static void check_box(const char *path, const char *texture_source_prefix)
{
    Model model;
    if (!test_import(path, NULL, &model)) return;
    CHECK(model.clip_count == 0, "%s: %d clips", path, model.clip_count);
    CHECK(model.mesh_count >= 1 && static_meshes(&model) == model.mesh_count, "%s: all meshes static", path);
    for (int j = 0; j < model.skeleton.joint_count; j++)
        CHECK(!model.skeleton.is_bone[j], "%s: joint %d marked as a bone", path, j);
    CHECK(model.texture_count == 1 && model.textures[0].width > 0 && model.textures[0].height > 0 &&
              model.textures[0].rgba,
          "%s: texture not decoded (%d textures)", path, model.texture_count);
    if (model.texture_count == 1)
        CHECK(strncmp(model.textures[0].source, texture_source_prefix, strlen(texture_source_prefix)) == 0,
              "%s: texture source '%s'", path, model.textures[0].source);
    CHECK(model.mesh_count >= 1 && model.meshes[0].material >= 0 &&
              model.materials[model.meshes[0].material].diffuse_texture == 0,
          "%s: material does not use the texture", path);

    /* the animator copes: rest pose = node transform applied to the static mesh */
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator_init");
    animator_evaluate(&animator, 0, 0.0f);   /* no clip 0: falls back to the rest pose */
    vec3 *out = malloc(sizeof(vec3) * (size_t)model.meshes[0].vertex_count);
    animator_skin_mesh(&animator, 0, out, NULL);
    mat4 node;
    animator_mesh_matrix(&animator, 0, node);
    vec3 expected;
    glm_mat4_mulv3(node, model.meshes[0].positions[0], 1.0f, expected);
    CHECK(glm_vec3_distance(expected, out[0]) < 1e-5f, "%s: static vertex not at its node transform", path);
    free(out);
    animator_free(&animator);
    model_free(&model);
    check_json_static(path, 0);
}

/* An OBJ's `l` (polyline: n indices, n - 1 segments) or `p` (n points) elements, read here from the
 * text: each element's corner positions, in order, into corners (room for `room` vec3). */
static int obj_elements(const char *path, char kind, vec3 *corners, int room)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return 0;
    vec3 vertices[64];
    int vertex_count = 0, count = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'v' && line[1] == ' ' && vertex_count < 64) {
            float *v = vertices[vertex_count++];
            sscanf(line + 2, "%f %f %f", &v[0], &v[1], &v[2]);
        } else if (line[0] == kind && line[1] == ' ') {
            int index[16], n = 0, used;
            for (const char *at = line + 2; n < 16 && sscanf(at, "%d%n", &index[n], &used) == 1; at += used) n++;
            for (int k = 0; k < n; k++) {
                if (kind == 'l' && k + 1 >= n) break;
                int ends = kind == 'l' ? 2 : 1;
                for (int e = 0; e < ends && count < room; e++) glm_vec3_copy(vertices[index[k + e] - 1], corners[count++]);
            }
        }
    }
    fclose(f);
    return count;
}

static void check_obj_elements(const char *name, char kind, MeshPrimitive primitive)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/OBJ/%s", SKINVIEW_TESTMODELS_DIR, name);
    vec3 expected[256];
    int corners = obj_elements(path, kind, expected, 256);
    Model model;
    if (!test_import(path, NULL, &model)) return;
    CHECK(model.mesh_count == 1 && model.meshes[0].primitive == primitive, "%s: expected one %s mesh", path,
          mesh_primitive_plural(primitive));
    if (model.mesh_count == 1) {
        const Mesh *mesh = &model.meshes[0];
        CHECK(mesh->index_count == corners && corners > 0, "%s: %d indices, the file's elements have %d corners", path,
              mesh->index_count, corners);
        int matched = 0;   /* every element's corners at the file's positions, in the file's order */
        for (int i = 0; i < mesh->index_count && i < corners; i++)
            matched += mesh->indices[i] < (uint32_t)mesh->vertex_count &&
                       glm_vec3_distance(mesh->positions[mesh->indices[i]], expected[i]) < 1e-6f;
        CHECK(matched == corners, "%s: %d of %d corners at the file's positions", path, matched, corners);
        printf("%s: %d %s, %d of %d corners where the file puts them\n", path, mesh_element_count(mesh),
               mesh_primitive_plural(primitive), matched, corners);
    }
    model_free(&model);
}

int main(void)
{
    check_obj_elements("testline.obj", 'l', MESH_LINES);
    check_obj_elements("testpoints.obj", 'p', MESH_POINTS);

    char path[1024];
    snprintf(path, sizeof path, "%s/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", SKINVIEW_TESTMODELS_DIR);
    check_box(path, "*");   /* embedded in the GLB */
    snprintf(path, sizeof path, "%s/glTF2/BoxTextured-glTF/BoxTextured.gltf", SKINVIEW_TESTMODELS_DIR);
    check_box(path, "CesiumLogoFlat.png");   /* a file next to the .gltf */

    /* node animation, no bones: static meshes follow their animated node */
    snprintf(path, sizeof path, "%s/Collada/anims_with_full_rotations_between_keys.DAE", SKINVIEW_TESTMODELS_DIR);
    Model model;
    if (test_import(path, NULL, &model)) {
        CHECK(static_meshes(&model) == model.mesh_count, "%s: all static", path);
        CHECK(model.clip_count == 1 && model.clips[0].track_count > 0 && model.clips[0].duration > 0.0f,
              "%s: expected one clip with tracks", path);
        Animator animator;
        CHECK(animator_init(&animator, &model), "animator_init");
        int moved = 0;
        if (model.clip_count == 1) {
            mat4 rest, posed;
            for (int m = 0; m < model.mesh_count; m++) {
                animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
                animator_mesh_matrix(&animator, m, rest);
                animator_evaluate(&animator, 0, model.clips[0].duration * 0.5f);
                animator_mesh_matrix(&animator, m, posed);
                float d = 0.0f;
                for (int c = 0; c < 4; c++)
                    for (int r = 0; r < 4; r++) d = fmaxf(d, fabsf(rest[c][r] - posed[c][r]));
                if (d > 1e-4f) moved++;
            }
        }
        CHECK(moved > 0, "%s: no static mesh moves with the clip", path);
        printf("%s: %d static meshes, %d move at mid-clip\n", path, model.mesh_count, moved);
        animator_free(&animator);
        model_free(&model);
        check_json_static(path, 1);
    }

    /* rigid meshes inside a skinned model (optional model) */
    snprintf(path, sizeof path, "%s/quaternius-wizard/Wizard.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (test_file_exists(path) && test_import(path, NULL, &model)) {
        int rigid = static_meshes(&model);
        CHECK(rigid == 5 && model.mesh_count == 6, "%s: %d static meshes of %d, expected 5 of 6", path, rigid,
              model.mesh_count);
        for (int m = 0; m < model.mesh_count; m++)
            if (!model.meshes[m].skinned)
                CHECK(model.skeleton.parent[model.meshes[m].node_joint] >= 0, "%s: rigid mesh %d at the root", path, m);
        CHECK(model.texture_count >= 1, "%s: embedded textures not decoded", path);
        model_free(&model);
    }
    return test_finish();
}
