/* make_arm_model.c — writes the two-bone arm of docs/skinning.md (tools/arm_model.h) as a glTF 2
 * file a student can open and read:
 *
 *     make_arm_model OUTDIR   ->  OUTDIR/arm.gltf (JSON, written with cJSON) + OUTDIR/arm.bin (its buffer)
 *
 * The file: nodes `arm` (the mesh, skinned by skin 0), `upper_arm` at (1, 0, 0) and its child
 * `forearm` at (2, 0, 0); one skin with both joints and their inverse bind matrices (the joints'
 * scene matrices in the straight pose, inverted: translations by -1 and -3 along x); one mesh,
 * a tube of radius 0.5 along x, every vertex weighted by its ring (JOINTS_0 = (0, 1, 0, 0),
 * WEIGHTS_0 = (1 - w, w, 0, 0), w the forearm's weight); two clips, `Bend` (the forearm about z,
 * 0° -> 90°) and `Twist` (about x, 0° -> 150° -> 180°), LINEAR rotation keys.
 * The buffer holds little-endian floats and unsigned shorts, as glTF requires (this tool refuses
 * to run on a big-endian machine rather than write a wrong file). The output is deterministic. */
#include "arm_model.h"

#include <cglm/cglm.h>
#include <cjson/cJSON.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VERTEX_COUNT = ARM_RINGS * ARM_AROUND, TRIANGLE_COUNT = (ARM_RINGS - 1) * ARM_AROUND * 2 };

/* Everything of the buffer, in the order it is written; each part's size is a multiple of 4. */
typedef struct ArmBuffer {
    float    positions[VERTEX_COUNT][3];
    float    normals[VERTEX_COUNT][3];
    float    weights[VERTEX_COUNT][4];
    uint16_t joints[VERTEX_COUNT][4];
    uint16_t indices[TRIANGLE_COUNT * 3];
    float    inverse_bind[ARM_JOINTS][16];
    float    bend_times[ARM_BEND_KEYS];
    float    bend_rotations[ARM_BEND_KEYS][4];
    float    twist_times[ARM_TWIST_KEYS];
    float    twist_rotations[ARM_TWIST_KEYS][4];
} ArmBuffer;

static void fill(ArmBuffer *b)
{
    memset(b, 0, sizeof *b);
    for (int r = 0; r < ARM_RINGS; r++)
        for (int k = 0; k < ARM_AROUND; k++) {
            int v = r * ARM_AROUND + k;
            float y = ARM_AROUND_YZ[k][0], z = ARM_AROUND_YZ[k][1];
            b->positions[v][0] = ARM_RING_X[r];
            b->positions[v][1] = ARM_RADIUS * y;
            b->positions[v][2] = ARM_RADIUS * z;
            b->normals[v][1] = y, b->normals[v][2] = z;
            b->joints[v][0] = 0, b->joints[v][1] = 1;   /* upper_arm, forearm */
            b->weights[v][0] = 1.0f - ARM_RING_FOREARM[r];
            b->weights[v][1] = ARM_RING_FOREARM[r];
        }
    int i = 0;
    for (int r = 0; r + 1 < ARM_RINGS; r++)
        for (int k = 0; k < ARM_AROUND; k++) {   /* a quad between ring r and r + 1, counter-clockwise from outside */
            uint16_t a = (uint16_t)(r * ARM_AROUND + k), b2 = (uint16_t)(r * ARM_AROUND + (k + 1) % ARM_AROUND);
            uint16_t c = (uint16_t)(a + ARM_AROUND), d = (uint16_t)(b2 + ARM_AROUND);
            uint16_t quad[6] = {a, b2, d, a, d, c};
            memcpy(&b->indices[i], quad, sizeof quad);
            i += 6;
        }
    /* B_j = the joint's scene matrix in the straight pose (T(1,0,0), T(3,0,0)); the file stores B_j^-1 */
    static const float bind_x[ARM_JOINTS] = {1.0f, 3.0f};
    for (int j = 0; j < ARM_JOINTS; j++) {
        mat4 inverse = GLM_MAT4_IDENTITY_INIT;
        inverse[3][0] = -bind_x[j];
        memcpy(b->inverse_bind[j], inverse, sizeof inverse);   /* column-major, as glTF */
    }
    vec3 z = {0.0f, 0.0f, 1.0f}, x = {1.0f, 0.0f, 0.0f};
    for (int k = 0; k < ARM_BEND_KEYS; k++) {
        b->bend_times[k] = ARM_BEND_TIMES[k];
        glm_quatv(b->bend_rotations[k], glm_rad(ARM_BEND_DEGREES[k]), z);   /* (x, y, z, w), as glTF */
    }
    for (int k = 0; k < ARM_TWIST_KEYS; k++) {
        b->twist_times[k] = ARM_TWIST_TIMES[k];
        glm_quatv(b->twist_rotations[k], glm_rad(ARM_TWIST_DEGREES[k]), x);
    }
}

/* ---- the JSON ---------------------------------------------------------------------------------- */

static cJSON *numbers(const float *v, int n)
{
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(array, cJSON_CreateNumber((double)v[i]));
    return array;
}

/* A bufferView over [offset, offset + size) of buffer 0 and one accessor on it; returns the accessor. */
static int accessor(cJSON *views, cJSON *accessors, size_t offset, size_t size, int component, int count,
                    const char *type, int target)
{
    cJSON *view = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", 0);
    cJSON_AddNumberToObject(view, "byteOffset", (double)offset);
    cJSON_AddNumberToObject(view, "byteLength", (double)size);
    if (target) cJSON_AddNumberToObject(view, "target", target);
    cJSON_AddItemToArray(views, view);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", cJSON_GetArraySize(views) - 1);
    cJSON_AddNumberToObject(a, "componentType", component);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", type);
    cJSON_AddItemToArray(accessors, a);
    return cJSON_GetArraySize(accessors) - 1;
}

#define FLOAT 5126
#define USHORT 5123
#define ARRAY_BUFFER 34962
#define ELEMENT_ARRAY_BUFFER 34963
#define PART(field) offsetof(ArmBuffer, field), sizeof(((ArmBuffer *)0)->field)

/* One clip: the forearm's rotation keyed at `times`. */
static void add_clip(cJSON *animations, const char *name, int times, int rotations)
{
    cJSON *clip = cJSON_CreateObject();
    cJSON_AddStringToObject(clip, "name", name);
    cJSON *sampler = cJSON_CreateObject();
    cJSON_AddNumberToObject(sampler, "input", times);
    cJSON_AddStringToObject(sampler, "interpolation", "LINEAR");
    cJSON_AddNumberToObject(sampler, "output", rotations);
    cJSON *samplers = cJSON_AddArrayToObject(clip, "samplers");
    cJSON_AddItemToArray(samplers, sampler);
    cJSON *channel = cJSON_CreateObject(), *target = cJSON_CreateObject();
    cJSON_AddNumberToObject(channel, "sampler", 0);
    cJSON_AddNumberToObject(target, "node", 2);   /* forearm */
    cJSON_AddStringToObject(target, "path", "rotation");
    cJSON_AddItemToObject(channel, "target", target);
    cJSON *channels = cJSON_AddArrayToObject(clip, "channels");
    cJSON_AddItemToArray(channels, channel);
    cJSON_AddItemToArray(animations, clip);
}

static cJSON *node(const char *name, float x)
{
    cJSON *n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "name", name);
    if (x != 0.0f) {
        float t[3] = {x, 0.0f, 0.0f};
        cJSON_AddItemToObject(n, "translation", numbers(t, 3));
    }
    return n;
}

static cJSON *document(const ArmBuffer *b)
{
    cJSON *root = cJSON_CreateObject(), *asset = cJSON_CreateObject();
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "skinview tools/make_arm_model.c (the arm of docs/skinning.md)");
    cJSON_AddItemToObject(root, "asset", asset);
    cJSON *views = cJSON_CreateArray(), *accessors = cJSON_CreateArray();

    int positions = accessor(views, accessors, PART(positions), FLOAT, VERTEX_COUNT, "VEC3", ARRAY_BUFFER);
    float lo[3] = {ARM_RING_X[0], -ARM_RADIUS, -ARM_RADIUS}, hi[3] = {ARM_RING_X[ARM_RINGS - 1], ARM_RADIUS, ARM_RADIUS};
    cJSON *pa = cJSON_GetArrayItem(accessors, positions);
    cJSON_AddItemToObject(pa, "min", numbers(lo, 3));   /* the spec requires POSITION's bounds */
    cJSON_AddItemToObject(pa, "max", numbers(hi, 3));
    int normals = accessor(views, accessors, PART(normals), FLOAT, VERTEX_COUNT, "VEC3", ARRAY_BUFFER);
    int weights = accessor(views, accessors, PART(weights), FLOAT, VERTEX_COUNT, "VEC4", ARRAY_BUFFER);
    int joints = accessor(views, accessors, PART(joints), USHORT, VERTEX_COUNT, "VEC4", ARRAY_BUFFER);
    int indices = accessor(views, accessors, PART(indices), USHORT, TRIANGLE_COUNT * 3, "SCALAR", ELEMENT_ARRAY_BUFFER);
    int inverse_bind = accessor(views, accessors, PART(inverse_bind), FLOAT, ARM_JOINTS, "MAT4", 0);
    int bend_times = accessor(views, accessors, PART(bend_times), FLOAT, ARM_BEND_KEYS, "SCALAR", 0);
    int bend_rotations = accessor(views, accessors, PART(bend_rotations), FLOAT, ARM_BEND_KEYS, "VEC4", 0);
    int twist_times = accessor(views, accessors, PART(twist_times), FLOAT, ARM_TWIST_KEYS, "SCALAR", 0);
    int twist_rotations = accessor(views, accessors, PART(twist_rotations), FLOAT, ARM_TWIST_KEYS, "VEC4", 0);
    cJSON *bt = cJSON_GetArrayItem(accessors, bend_times), *tt = cJSON_GetArrayItem(accessors, twist_times);
    cJSON_AddItemToObject(bt, "min", numbers(&b->bend_times[0], 1));   /* animation inputs need bounds too */
    cJSON_AddItemToObject(bt, "max", numbers(&b->bend_times[ARM_BEND_KEYS - 1], 1));
    cJSON_AddItemToObject(tt, "min", numbers(&b->twist_times[0], 1));
    cJSON_AddItemToObject(tt, "max", numbers(&b->twist_times[ARM_TWIST_KEYS - 1], 1));

    cJSON *scenes = cJSON_AddArrayToObject(root, "scenes"), *scene = cJSON_CreateObject();
    int scene_nodes[2] = {0, 1};
    cJSON_AddItemToObject(scene, "nodes", cJSON_CreateIntArray(scene_nodes, 2));
    cJSON_AddItemToArray(scenes, scene);
    cJSON_AddNumberToObject(root, "scene", 0);

    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    cJSON *arm = node("arm", 0.0f), *upper_arm = node("upper_arm", 1.0f), *forearm = node("forearm", 2.0f);
    cJSON_AddNumberToObject(arm, "mesh", 0);
    cJSON_AddNumberToObject(arm, "skin", 0);
    int children[1] = {2};
    cJSON_AddItemToObject(upper_arm, "children", cJSON_CreateIntArray(children, 1));
    cJSON_AddItemToArray(nodes, arm);
    cJSON_AddItemToArray(nodes, upper_arm);
    cJSON_AddItemToArray(nodes, forearm);

    cJSON *skins = cJSON_AddArrayToObject(root, "skins"), *skin = cJSON_CreateObject();
    int skin_joints[ARM_JOINTS] = {1, 2};
    cJSON_AddItemToObject(skin, "joints", cJSON_CreateIntArray(skin_joints, ARM_JOINTS));
    cJSON_AddNumberToObject(skin, "inverseBindMatrices", inverse_bind);
    cJSON_AddNumberToObject(skin, "skeleton", 1);
    cJSON_AddItemToArray(skins, skin);

    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes"), *mesh = cJSON_CreateObject();
    cJSON_AddStringToObject(mesh, "name", "arm");
    cJSON *primitives = cJSON_AddArrayToObject(mesh, "primitives"), *primitive = cJSON_CreateObject();
    cJSON *attributes = cJSON_AddObjectToObject(primitive, "attributes");
    cJSON_AddNumberToObject(attributes, "POSITION", positions);
    cJSON_AddNumberToObject(attributes, "NORMAL", normals);
    cJSON_AddNumberToObject(attributes, "JOINTS_0", joints);
    cJSON_AddNumberToObject(attributes, "WEIGHTS_0", weights);
    cJSON_AddNumberToObject(primitive, "indices", indices);
    cJSON_AddItemToArray(primitives, primitive);
    cJSON_AddItemToArray(meshes, mesh);

    cJSON *animations = cJSON_AddArrayToObject(root, "animations");
    add_clip(animations, "Bend", bend_times, bend_rotations);
    add_clip(animations, "Twist", twist_times, twist_rotations);

    cJSON *buffers = cJSON_AddArrayToObject(root, "buffers"), *buffer = cJSON_CreateObject();
    cJSON_AddStringToObject(buffer, "uri", "arm.bin");
    cJSON_AddNumberToObject(buffer, "byteLength", (double)sizeof *b);
    cJSON_AddItemToArray(buffers, buffer);
    cJSON_AddItemToObject(root, "bufferViews", views);
    cJSON_AddItemToObject(root, "accessors", accessors);
    return root;
}

static bool write_file(const char *path, const void *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(bytes, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "make_arm_model: %s: cannot write\n", path);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_arm_model OUTDIR   (writes OUTDIR/arm.gltf and OUTDIR/arm.bin)\n");
        return 2;
    }
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe != 1) {
        fprintf(stderr, "make_arm_model: this machine is big-endian; glTF buffers are little-endian\n");
        return 1;
    }
    static ArmBuffer buffer;
    fill(&buffer);
    cJSON *root = document(&buffer);
    char *json = cJSON_Print(root);
    cJSON_Delete(root);
    char gltf[4096], bin[4096];
    snprintf(gltf, sizeof gltf, "%s/arm.gltf", argv[1]);
    snprintf(bin, sizeof bin, "%s/arm.bin", argv[1]);
    bool ok = json && write_file(gltf, json, strlen(json)) &&
              write_file(bin, &buffer, sizeof buffer);
    free(json);
    if (ok) printf("wrote %s (%d vertices, %d triangles, clips Bend and Twist) and %s (%zu bytes)\n", gltf,
                   VERTEX_COUNT, TRIANGLE_COUNT, bin, sizeof buffer);
    return ok ? 0 : 1;
}
