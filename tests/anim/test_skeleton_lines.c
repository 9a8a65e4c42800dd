/* test_skeleton_lines.c — the skeleton overlay's segments (src/anim/skeleton_lines.c):
 * which joints get a segment on a hand-built scene, that the endpoints are the joints'
 * model-space origins, and the counts on real files (assimp-testmodels, ../shared/models). */
#include "anim/anim.h"
#include "anim/skeleton_lines.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { JOINTS = 13 };

/* The hand-built scene (B = bone of the skinned mesh):
 *   0 RootNode
 *   1   Armature
 *   2     Hips B              topmost bone: no segment from Armature
 *   3       Hips_pivot        helper between bones: Hips -> pivot -> Spine
 *   4         Spine B
 *   5           Head B
 *   6             HeadTop_End end site: Head -> HeadTop_End
 *   7       LeftLeg B         Hips -> LeftLeg
 *   8         Shield          leaf holding a static mesh: no segment
 *   9       IK_target         non-bone subtree under a bone with a child: no segment
 *  10         IK_pole         its leaf: parent is not a skeleton joint, no segment
 *  11   Body                  the skinned mesh's node (also its rigid bone for unweighted vertices)
 *  12   Camera                leaf outside the bone tree: no segment */
static const int parents[JOINTS] = {-1, 0, 1, 2, 3, 4, 5, 2, 7, 2, 9, 0, 0};
static const int expected_joints[] = {3, 4, 5, 6, 7};
enum { EXPECTED = (int)(sizeof expected_joints / sizeof expected_joints[0]) };

typedef struct TeachingAids {
    Model    model;
    int      parent[JOINTS];
    mat4     local[JOINTS];
    mat4     joint_model[JOINTS];
    Mesh     meshes[2];
    int      bone_joint[5];
} TeachingAids;

static void build_scene(TeachingAids *scene)
{
    memset(scene, 0, sizeof *scene);
    memcpy(scene->parent, parents, sizeof parents);
    scene->model.skeleton.joint_count = JOINTS;
    scene->model.skeleton.parent = scene->parent;
    /* every joint one step up (+y) and a little to the side from its parent; the Hips turn
     * 90 degrees about z, so the endpoints are not a plain sum of translations */
    for (int j = 0; j < JOINTS; j++) {
        glm_mat4_identity(scene->local[j]);
        glm_translate(scene->local[j], (vec3){0.1f * (float)j, 1.0f, 0.0f});
    }
    glm_rotate(scene->local[2], GLM_PI_2f, (vec3){0.0f, 0.0f, 1.0f});
    pose_local_to_model(&scene->model.skeleton, (const mat4 *)scene->local, scene->joint_model);

    const int bones[5] = {2, 4, 5, 7, 11};   /* the last one is the mesh's own node (rigid bone) */
    memcpy(scene->bone_joint, bones, sizeof bones);
    Mesh *skinned = &scene->meshes[0];
    skinned->skinned = true;
    skinned->node_joint = 11;
    skinned->bone_count = 5;
    skinned->bone_joint = scene->bone_joint;
    Mesh *shield = &scene->meshes[1];
    shield->node_joint = 8;
    scene->model.mesh_count = 2;
    scene->model.meshes = scene->meshes;
}

/* Origin of joint j in model space, walked up the parents by hand: o = L_root * ... * L_j * (0,0,0,1). */
static void origin_by_hand(const TeachingAids *scene, int joint, vec3 out)
{
    vec4 p = {0.0f, 0.0f, 0.0f, 1.0f};
    for (int j = joint; j >= 0; j = scene->parent[j]) glm_mat4_mulv((vec4 *)scene->local[j], p, p);
    glm_vec3_copy(p, out);
}

static void test_hand_built(void)
{
    static TeachingAids scene;
    build_scene(&scene);
    int joints[JOINTS];
    int count = skeleton_line_joints(&scene.model, joints);
    CHECK(count == EXPECTED, "segment count %d, expected %d", count, EXPECTED);
    for (int s = 0; s < count && s < EXPECTED; s++)
        CHECK(joints[s] == expected_joints[s], "segment %d ends at joint %d, expected %d", s, joints[s],
              expected_joints[s]);
    for (int s = 0; s < count; s++)
        CHECK(joints[s] != 0 && joints[s] != 1 && joints[s] != 2 && joints[s] != 11,
              "no segment from the root, the Armature or to the mesh node (joint %d)", joints[s]);

    vec3 endpoints[2 * JOINTS];
    memset(endpoints, 0, sizeof endpoints);
    int written = skeleton_lines_write(&scene.model.skeleton, joints, count, (const mat4 *)scene.joint_model,
                                       endpoints);
    CHECK(written == count, "write returns the segment count: %d", written);
    for (int s = 0; s < count; s++) {
        int child = joints[s], parent = parents[child];
        vec3 from, to;
        origin_by_hand(&scene, parent, from);
        origin_by_hand(&scene, child, to);
        CHECK(glm_vec3_distance(endpoints[2 * s], from) < 1e-5f && glm_vec3_distance(endpoints[2 * s + 1], to) < 1e-5f,
              "segment %d: (%g %g %g)-(%g %g %g), expected the origins of joints %d and %d (%g %g %g)-(%g %g %g)", s,
              endpoints[2 * s][0], endpoints[2 * s][1], endpoints[2 * s][2], endpoints[2 * s + 1][0],
              endpoints[2 * s + 1][1], endpoints[2 * s + 1][2], parent, child, from[0], from[1], from[2], to[0],
              to[1], to[2]);
    }
    /* the Hips' 90-degree turn moves Spine sideways: its origin is not the sum of translations */
    vec3 spine;
    origin_by_hand(&scene, 4, spine);
    CHECK(fabsf(spine[0] - (0.0f + 0.1f + 0.2f + 0.3f + 0.4f)) > 0.5f, "the test pose has a rotation: x %g", spine[0]);

    /* a model without bones draws no skeleton */
    scene.meshes[0].bone_count = 1;   /* only the rigid own-node bone */
    count = skeleton_line_joints(&scene.model, joints);
    CHECK(count == 0, "no bones (only a rigid own-node bone): %d segments", count);
    scene.model.mesh_count = 0;
    count = skeleton_line_joints(&scene.model, joints);
    CHECK(count == 0, "no meshes: %d segments", count);
}

/* A real file: `expected` segments (-1: any), every one from a joint to its child. */
static void test_file(const char *path, int expected)
{
    if (!test_file_exists(path)) {
        printf("%s: not present, skipped\n", path);
        return;
    }
    Model model = {0};
    if (!test_import(path, NULL, &model)) return;
    int *joints = malloc(sizeof(int) * (size_t)model.skeleton.joint_count);
    int count = joints ? skeleton_line_joints(&model, joints) : -1;
    int bones = 0;
    for (int j = 0; j < model.skeleton.joint_count; j++) bones += model.skeleton.is_bone[j];
    CHECK(expected < 0 ? count > 0 : count == expected, "%s: %d segments, expected %d", path, count, expected);
    for (int s = 0; s < count; s++)
        CHECK(model.skeleton.parent[joints[s]] >= 0, "%s: segment %d has a parent joint", path, s);
    printf("%s: %d joints, %d bones, %d segments\n", path, model.skeleton.joint_count, bones, count);
    free(joints);
    model_free(&model);
}

int main(void)
{
    test_hand_built();
    /* huesitos: RootNode > Armature > Bone ... Bone.008 (9 bones) and two *_end leaves:
     * 8 bone-to-bone segments + 2 end sites; nothing to the Armature, Cylinder, Lamp or Camera */
    test_file(SKINVIEW_TESTMODELS_DIR "/FBX/huesitos.fbx", 10);
    /* Xbot: 54 bones below the Hips + 12 end sites (HeadTop_End, two eyes, 9 finger tips) = 66;
     * nothing to the Armature, nor to the mesh nodes Beta_Joints / Beta_Surface beside the Hips */
    test_file(SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb", 66);
    /* the demo character: 22 bones under RootNode, all but the topmost ("root") get a segment;
     * not the mesh node "body" */
    test_file(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", 21);
    return test_finish();
}
