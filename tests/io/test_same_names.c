/* test_same_names — a mesh node named like the bone it hangs under (trap 10 in docs/skinning.md).
 *
 * Blender exports name a mesh object after the bone it is parented to: mesh node "Torso"
 * under bone "Torso", "Head" under "Head". Bones and channels name ARMATURE nodes: among
 * nodes of that name, one holding no mesh wins over one holding meshes.
 *
 * The test writes one glTF twice (to a temp folder): once with the mesh nodes named like
 * their bones ("clash") and once with unique names ("unique"). Layout (Y up):
 *
 *   Armature  scale 2, turned 90° about X (as an FBX-made rig)
 *   └─ Torso  bone, at (0, 1, 0)                     animated: translation + rotation
 *      ├─ Torso / TorsoMesh   mesh node at (0.3, 0, 0), turned 30° about Z: holds the
 *      │                      SKINNED body (skin joints: bone Torso, bone Head)
 *      └─ Head  bone, at (0, 1, 0)                    animated: rotation
 *         └─ Head / HeadMesh  mesh node at (0, 0.2, 0.1): a rigid (static) hat
 *
 * The channel on bone Torso starts at the mesh node's rest translation, so "the nearest rest
 * transform" alone would hand it to the mesh node. Checks: every bone and every channel binds
 * to a joint that holds no mesh, and the posed vertices of both files agree (CPU skinning, bind
 * pose, rest pose, the clip at 4 times) — the mesh follows the bone, the bone is not moved by
 * the mesh node's transform. */
#include "anim/animator.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char temp_dir[256];

/* ---- the glTF --------------------------------------------------------------- */

enum { BODY_VERTICES = 4, HAT_VERTICES = 3 };
static const float body_positions[BODY_VERTICES][3] = {{-0.2f, 0.0f, 0.0f}, {0.2f, 0.0f, 0.0f}, {0.2f, 1.5f, 0.0f},
                                                       {-0.2f, 1.5f, 0.0f}};
static const uint16_t body_joints[BODY_VERTICES][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
static const float body_weights[BODY_VERTICES][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
static const uint16_t body_indices[6] = {0, 1, 2, 0, 2, 3};
static const float hat_positions[HAT_VERTICES][3] = {{0, 0, 0}, {0.3f, 0, 0}, {0, 0.3f, 0}};
static const uint16_t hat_indices[3] = {0, 1, 2};
static const float key_times[3] = {0.0f, 0.5f, 1.0f};
static const float torso_translations[3][3] = {{0.3f, 0, 0}, {0.3f, 0.4f, 0}, {0.0f, 1.0f, 0.2f}};

static void quat_axis_angle(float angle, float x, float y, float z, float out[4])
{
    float s = sinf(angle / 2.0f);
    out[0] = x * s, out[1] = y * s, out[2] = z * s, out[3] = cosf(angle / 2.0f);
}

static bool write_file(const char *gltf_path, const char *bin_name, const char *bin_path, bool clash)
{
    /* inverse bind matrices: the joints' scene matrices at bind time = the rest pose
     * (Armature: scale 2, 90° about X; Torso at (0,1,0); Head at (0,1,0) below it), inverted */
    mat4 armature, torso, head, inverse_binds[2];
    glm_mat4_identity(armature);
    glm_rotate(armature, 1.5707963f, (vec3){1, 0, 0});
    glm_scale_uni(armature, 2.0f);
    glm_translate_to(armature, (vec3){0, 1, 0}, torso);
    glm_translate_to(torso, (vec3){0, 1, 0}, head);
    glm_mat4_inv(torso, inverse_binds[0]);
    glm_mat4_inv(head, inverse_binds[1]);
    float torso_rotations[3][4], head_rotations[3][4];
    for (int k = 0; k < 3; k++) {
        quat_axis_angle(0.6f * (float)k, 0, 0, 1, torso_rotations[k]);
        quat_axis_angle(-0.8f * (float)k, 1, 0, 0, head_rotations[k]);
    }

    TestBlob blob = {.size = 0};
    size_t off[10];
    size_t len[10] = {sizeof body_positions, sizeof body_joints, sizeof body_weights, sizeof body_indices,
                      sizeof hat_positions, sizeof hat_indices, sizeof key_times, sizeof torso_translations,
                      sizeof torso_rotations, sizeof inverse_binds};
    off[0] = test_blob_add(&blob, body_positions, len[0]);
    off[1] = test_blob_add(&blob, body_joints, len[1]);
    off[2] = test_blob_add(&blob, body_weights, len[2]);
    off[3] = test_blob_add(&blob, body_indices, len[3]);
    off[4] = test_blob_add(&blob, hat_positions, len[4]);
    off[5] = test_blob_add(&blob, hat_indices, len[5]);
    off[6] = test_blob_add(&blob, key_times, len[6]);
    off[7] = test_blob_add(&blob, torso_translations, len[7]);
    off[8] = test_blob_add(&blob, torso_rotations, len[8]);
    off[9] = test_blob_add(&blob, inverse_binds, len[9]);
    size_t head_offset = test_blob_add(&blob, head_rotations, sizeof head_rotations);

    FILE *bin = fopen(bin_path, "wb");
    if (!bin) return false;
    bool ok = fwrite(blob.bytes, 1, blob.size, bin) == blob.size;
    if (fclose(bin) != 0 || !ok) return false;

    FILE *out = fopen(gltf_path, "w");
    if (!out) return false;
    fprintf(out, "{\"asset\": {\"version\": \"2.0\", \"generator\": \"skinview test_same_names\"},\n");
    fprintf(out, "\"buffers\": [{\"uri\": \"%s\", \"byteLength\": %zu}],\n\"bufferViews\": [", bin_name, blob.size);
    for (int i = 0; i < 10; i++) fprintf(out, "{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}, ", off[i], len[i]);
    fprintf(out, "{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}],\n", head_offset, sizeof head_rotations);
    fprintf(out,
            "\"accessors\": [\n"
            "{\"bufferView\": 0, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\", \"min\": [-0.2, 0, 0], "
            "\"max\": [0.2, 1.5, 0]},\n"
            "{\"bufferView\": 1, \"componentType\": 5123, \"count\": 4, \"type\": \"VEC4\"},\n"
            "{\"bufferView\": 2, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC4\"},\n"
            "{\"bufferView\": 3, \"componentType\": 5123, \"count\": 6, \"type\": \"SCALAR\"},\n"
            "{\"bufferView\": 4, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], "
            "\"max\": [0.3, 0.3, 0]},\n"
            "{\"bufferView\": 5, \"componentType\": 5123, \"count\": 3, \"type\": \"SCALAR\"},\n"
            "{\"bufferView\": 6, \"componentType\": 5126, \"count\": 3, \"type\": \"SCALAR\", \"min\": [0], \"max\": [1]},\n"
            "{\"bufferView\": 7, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"},\n"
            "{\"bufferView\": 8, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC4\"},\n"
            "{\"bufferView\": 9, \"componentType\": 5126, \"count\": 2, \"type\": \"MAT4\"},\n"
            "{\"bufferView\": 10, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC4\"}\n],\n");
    fprintf(out, "\"meshes\": [{\"name\": \"Body\", \"primitives\": [{\"attributes\": {\"POSITION\": 0, \"JOINTS_0\": 1, "
                 "\"WEIGHTS_0\": 2}, \"indices\": 3}]}, {\"name\": \"Hat\", \"primitives\": [{\"attributes\": "
                 "{\"POSITION\": 4}, \"indices\": 5}]}],\n");
    fprintf(out, "\"skins\": [{\"joints\": [1, 3], \"inverseBindMatrices\": 9}],\n");
    float s = sqrtf(0.5f), turn[4];
    quat_axis_angle(0.5235988f, 0, 0, 1, turn);
    fprintf(out,
            "\"nodes\": [\n"
            "{\"name\": \"Armature\", \"rotation\": [%.9g, 0, 0, %.9g], \"scale\": [2, 2, 2], \"children\": [1]},\n"
            "{\"name\": \"Torso\", \"translation\": [0, 1, 0], \"children\": [2, 3]},\n"
            "{\"name\": \"%s\", \"translation\": [0.3, 0, 0], \"rotation\": [0, 0, %.9g, %.9g], \"mesh\": 0, \"skin\": 0},\n"
            "{\"name\": \"Head\", \"translation\": [0, 1, 0], \"children\": [4]},\n"
            "{\"name\": \"%s\", \"translation\": [0, 0.2, 0.1], \"mesh\": 1}\n],\n",
            s, s, clash ? "Torso" : "TorsoMesh", turn[2], turn[3], clash ? "Head" : "HeadMesh");
    fprintf(out, "\"scenes\": [{\"nodes\": [0]}], \"scene\": 0,\n");
    fprintf(out, "\"animations\": [{\"name\": \"Bend\", \"samplers\": ["
                 "{\"input\": 6, \"output\": 7}, {\"input\": 6, \"output\": 8}, {\"input\": 6, \"output\": 10}], "
                 "\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 1, \"path\": \"translation\"}}, "
                 "{\"sampler\": 1, \"target\": {\"node\": 1, \"path\": \"rotation\"}}, "
                 "{\"sampler\": 2, \"target\": {\"node\": 3, \"path\": \"rotation\"}}]}]\n}\n");
    return fclose(out) == 0;
}

/* ---- checks ------------------------------------------------------------------- */

static bool joint_holds_mesh(const Model *model, int joint)
{
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].node_joint == joint) return true;
    return false;
}

/* Every bone (but the rigid bone for unweighted vertices, the mesh's own node) and every
 * track names a joint that holds no mesh. */
static void check_binding(const Model *model, const char *label)
{
    int bones = 0, tracks = 0;
    for (int m = 0; m < model->mesh_count; m++)
        for (int b = 0; b < model->meshes[m].bone_count; b++) {
            int joint = model->meshes[m].bone_joint[b];
            if (joint == model->meshes[m].node_joint) continue;
            bones++;
            CHECK(!joint_holds_mesh(model, joint), "%s: bone %d of mesh %d binds to joint %d '%s', a mesh node", label,
                  b, m, joint, model->skeleton.names[joint]);
        }
    CHECK(bones == 2, "%s: %d bones (want Torso and Head)", label, bones);
    for (int c = 0; c < model->clip_count; c++)
        for (int t = 0; t < model->clips[c].track_count; t++) {
            int joint = model->clips[c].tracks[t].joint;
            tracks++;
            CHECK(!joint_holds_mesh(model, joint), "%s: clip %d track %d drives joint %d '%s', a mesh node", label, c, t,
                  joint, model->skeleton.names[joint]);
        }
    CHECK(tracks == 2, "%s: %d tracks (want Torso and Head)", label, tracks);
}

/* All vertices of all meshes, CPU-skinned, at one pose. Returns the count. */
static int posed_vertices(Animator *animator, const Model *model, int clip, float time, vec3 *out)
{
    animator_evaluate(animator, clip, time);
    int n = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, out + n, NULL);
        n += model->meshes[m].vertex_count;
    }
    return n;
}

static void check_same_poses(const Model *clash, const Model *unique)
{
    Animator a, b;
    CHECK(animator_init(&a, clash) && animator_init(&b, unique), "animator_init");
    enum { MAX_VERTICES = 64 };
    vec3 pa[MAX_VERTICES], pb[MAX_VERTICES];
    const struct { int clip; float time; const char *name; } poses[] = {
        {ANIMATOR_BIND_POSE, 0, "bind"}, {ANIMATOR_REST_POSE, 0, "rest"}, {0, 0.0f, "t=0"},
        {0, 0.3f, "t=0.3"}, {0, 0.7f, "t=0.7"}, {0, 1.0f, "t=1"}};
    for (size_t p = 0; p < sizeof poses / sizeof poses[0]; p++) {
        int na = posed_vertices(&a, clash, poses[p].clip, poses[p].time, pa);
        int nb = posed_vertices(&b, unique, poses[p].clip, poses[p].time, pb);
        /* no NORMAL in either file: flat normals, one vertex per triangle corner (6 + 3) */
        CHECK(na == nb && na == 6 + HAT_VERTICES, "%s: %d and %d vertices", poses[p].name, na, nb);
        float worst = 0.0f;
        for (int v = 0; v < na && v < nb; v++) {
            float d = glm_vec3_distance(pa[v], pb[v]);
            if (!(d <= worst)) worst = d;
        }
        CHECK(worst <= 1e-5f, "%s: the same-named file is %g off the uniquely named one", poses[p].name,
              (double)worst);
    }
    /* the clip really moves the body (so that agreeing means something) */
    vec3 first[MAX_VERTICES], last[MAX_VERTICES];
    posed_vertices(&b, unique, 0, 0.0f, first);
    posed_vertices(&b, unique, 0, 1.0f, last);
    CHECK(glm_vec3_distance(first[3], last[3]) > 0.5f, "the clip moves the body's top by %g",
          (double)glm_vec3_distance(first[3], last[3]));
    animator_free(&a);
    animator_free(&b);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_same_names")) return 1;
    char gltf[2][512], bin[2][512];
    Model models[2];
    const char *names[2] = {"clash", "unique"};
    bool imported = true;
    for (int i = 0; i < 2; i++) {
        char bin_name[64];
        snprintf(bin_name, sizeof bin_name, "%s.bin", names[i]);
        snprintf(gltf[i], sizeof gltf[i], "%s/%s.gltf", temp_dir, names[i]);
        snprintf(bin[i], sizeof bin[i], "%s/%s", temp_dir, bin_name);
        CHECK(write_file(gltf[i], bin_name, bin[i], i == 0), "cannot write %s", gltf[i]);
        imported = test_import(gltf[i], NULL, &models[i]) && imported;
    }
    if (imported) {
        check_binding(&models[0], "clash");
        check_binding(&models[1], "unique");
        check_same_poses(&models[0], &models[1]);
        for (int i = 0; i < 2; i++) model_free(&models[i]);
    }
    for (int i = 0; i < 2; i++) {
        unlink(gltf[i]);
        unlink(bin[i]);
    }
    rmdir(temp_dir);
    return test_finish();
}
