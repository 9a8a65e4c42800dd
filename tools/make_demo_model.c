/* make_demo_model.c — builds skinview's bundled demo character in code and
 * writes it with Assimp's exporters:
 *
 *     make_demo_model OUTDIR      ->  OUTDIR/demo.fbx (ASCII FBX), OUTDIR/demo.glb (binary glTF 2)
 *
 * The character: a simple humanoid (torso, neck, head with a nose, arms with
 * hands and thumbs, legs with feet) made of smooth capsules, all in ONE skinned
 * mesh with one material, bound in a T-pose to a 22-joint skeleton. Every
 * vertex is weighted along the chain of joints its capsule follows with a
 * smooth (C1) partition of unity, so the weights at every joint blend 2-3 bones
 * (at most 4) and sum to 1. Four loopable clips: Idle, Walk, Wave, Twist.
 *
 * Conventions of the design (everything below is written in them): metres, Y up,
 * the character faces +Z, its left side is +X. The mesh is bound in a T-pose with
 * every joint's bind rotation the identity, so in the bind pose a joint's local
 * axes are the scene axes and the arms point along +-X.
 *
 * What the files store is what real exporters write (see "the armature's space"):
 *   - the skeleton and the mesh in centimetres, Z up, under an `Armature` node and a
 *     mesh node `body` that both carry A = Rx(-90 deg) * S(0.01) (FBX's unit scale and
 *     Z-up -> Y-up axis change), so a node transform applied twice, not at all or in
 *     the wrong space shows (the demo's tests check the scene-space result);
 *   - a rest pose (the joints' node transforms) that is NOT the bind pose (the offset
 *     matrices): the rest pose has the arms lowered 45 degrees (an A-pose), the mesh is
 *     bound in the T-pose. `--clip rest` and `--clip bind` differ.
 *
 * What keeps the ASCII FBX readable by Assimp 5.2 with no loss (measured):
 * mTicksPerSecond = 1 with key times in seconds, whole-second clip lengths.
 * glTF 2 round-trips as is.
 * The output is deterministic: the FBX creation time stamps, which Assimp
 * fills from the clock, are rewritten to a fixed date (normalize_fbx_text), and
 * the GLB bytes Assimp leaves uninitialised are cleared (clear_unused_glb_bytes).
 */
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <cglm/cglm.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ skeleton */

enum {
    J_ROOT, J_HIPS, J_SPINE, J_CHEST, J_NECK, J_HEAD,
    J_SHOULDER_L, J_UPPER_ARM_L, J_FOREARM_L, J_HAND_L,
    J_SHOULDER_R, J_UPPER_ARM_R, J_FOREARM_R, J_HAND_R,
    J_THIGH_L, J_SHIN_L, J_FOOT_L, J_TOE_L,
    J_THIGH_R, J_SHIN_R, J_FOOT_R, J_TOE_R,
    JOINT_COUNT
};

typedef struct JointDef {
    const char *name;
    int         parent;
    float       head[3];   /* joint position in the bind pose, scene space */
} JointDef;

/* Parents before children. Right-side heads are the left ones mirrored in X. */
static const JointDef JOINTS[JOINT_COUNT] = {
    [J_ROOT]        = {"root",        -1,            {0.00f, 0.00f, 0.00f}},
    [J_HIPS]        = {"hips",        J_ROOT,        {0.00f, 0.95f, 0.00f}},
    [J_SPINE]       = {"spine",       J_HIPS,        {0.00f, 1.05f, 0.00f}},
    [J_CHEST]       = {"chest",       J_SPINE,       {0.00f, 1.25f, 0.00f}},
    [J_NECK]        = {"neck",        J_CHEST,       {0.00f, 1.47f, 0.00f}},
    [J_HEAD]        = {"head",        J_NECK,        {0.00f, 1.57f, 0.00f}},
    [J_SHOULDER_L]  = {"shoulder.L",  J_CHEST,       {0.05f, 1.42f, 0.00f}},
    [J_UPPER_ARM_L] = {"upper_arm.L", J_SHOULDER_L,  {0.18f, 1.42f, 0.00f}},
    [J_FOREARM_L]   = {"forearm.L",   J_UPPER_ARM_L, {0.46f, 1.42f, 0.00f}},
    [J_HAND_L]      = {"hand.L",      J_FOREARM_L,   {0.72f, 1.42f, 0.00f}},
    [J_SHOULDER_R]  = {"shoulder.R",  J_CHEST,       {-0.05f, 1.42f, 0.00f}},
    [J_UPPER_ARM_R] = {"upper_arm.R", J_SHOULDER_R,  {-0.18f, 1.42f, 0.00f}},
    [J_FOREARM_R]   = {"forearm.R",   J_UPPER_ARM_R, {-0.46f, 1.42f, 0.00f}},
    [J_HAND_R]      = {"hand.R",      J_FOREARM_R,   {-0.72f, 1.42f, 0.00f}},
    [J_THIGH_L]     = {"thigh.L",     J_HIPS,        {0.10f, 0.92f, 0.00f}},
    [J_SHIN_L]      = {"shin.L",      J_THIGH_L,     {0.10f, 0.50f, 0.00f}},
    [J_FOOT_L]      = {"foot.L",      J_SHIN_L,      {0.10f, 0.08f, 0.00f}},
    [J_TOE_L]       = {"toe.L",       J_FOOT_L,      {0.10f, 0.03f, 0.13f}},
    [J_THIGH_R]     = {"thigh.R",     J_HIPS,        {-0.10f, 0.92f, 0.00f}},
    [J_SHIN_R]      = {"shin.R",      J_THIGH_R,     {-0.10f, 0.50f, 0.00f}},
    [J_FOOT_R]      = {"foot.R",      J_SHIN_R,      {-0.10f, 0.08f, 0.00f}},
    [J_TOE_R]       = {"toe.R",       J_FOOT_R,      {-0.10f, 0.03f, 0.13f}},
};

/* ------------------------------------------------------------------ geometry */

typedef struct Vertex {
    vec3  position, normal;
    int   joint[4];
    float weight[4];
} Vertex;

typedef struct Geometry {
    Vertex   *vertices;
    int       vertex_count, vertex_capacity;
    unsigned *indices;
    int       index_count, index_capacity;
} Geometry;

static void *grow(void *data, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) return data;
    int cap = *capacity ? *capacity : 1024;
    while (cap < needed) cap *= 2;
    void *bigger = realloc(data, (size_t)cap * item);
    if (!bigger) {
        fputs("make_demo_model: out of memory\n", stderr);
        exit(1);
    }
    *capacity = cap;
    return bigger;
}

static int add_vertex(Geometry *g, const vec3 position)
{
    g->vertices = grow(g->vertices, &g->vertex_capacity, g->vertex_count + 1, sizeof(Vertex));
    Vertex *v = &g->vertices[g->vertex_count];
    memset(v, 0, sizeof *v);
    glm_vec3_copy((float *)position, v->position);
    return g->vertex_count++;
}

static void add_triangle(Geometry *g, int a, int b, int c)
{
    g->indices = grow(g->indices, &g->index_capacity, g->index_count + 3, sizeof(unsigned));
    g->indices[g->index_count++] = (unsigned)a;
    g->indices[g->index_count++] = (unsigned)b;
    g->indices[g->index_count++] = (unsigned)c;
}

/* The bones a capsule is weighted to, in order along its axis, and the joint
 * positions where one hands over to the next. */
typedef struct Chain {
    int   bone_count;          /* 1..5 */
    int   bones[5];
    int   cut_joint[4];        /* bones[i] hands over to bones[i+1] at this joint's head */
    float blend;               /* half-width of each hand-over zone, metres */
} Chain;

/* Smooth step from 0 (x <= -1) to 1 (x >= 1), C1: the integral of a smooth bump. */
static float smooth_cdf(float x)
{
    if (x <= -1.0f) return 0.0f;
    if (x >= 1.0f) return 1.0f;
    return 0.5f + 0.75f * x - 0.25f * x * x * x;
}

/* Weights along a chain at axial coordinate s (cuts at c_0 < c_1 < ...):
 *   w_i = F((s - c_{i-1}) / h) - F((s - c_i) / h),  F(-inf) = 0, F(+inf) = 1.
 * The sum telescopes to exactly 1; where cuts are closer than 2h, three bones overlap.
 * Keeps the 4 largest, drops those under 1e-3, renormalises. */
static void chain_weights(const Chain *chain, const float *cuts, float s, Vertex *v)
{
    float w[5];
    for (int i = 0; i < chain->bone_count; i++) {
        float upper = i == 0 ? 1.0f : smooth_cdf((s - cuts[i - 1]) / chain->blend);
        float lower = i == chain->bone_count - 1 ? 0.0f : smooth_cdf((s - cuts[i]) / chain->blend);
        w[i] = upper - lower;
    }
    int slot = 0;
    for (int pick = 0; pick < 4; pick++) {   /* largest first */
        int best = -1;
        for (int i = 0; i < chain->bone_count; i++)
            if (w[i] >= 1e-3f && (best < 0 || w[i] > w[best])) best = i;
        if (best < 0) break;
        v->joint[slot] = chain->bones[best];
        v->weight[slot] = w[best];
        w[best] = 0.0f;
        slot++;
    }
    float sum = 0.0f;
    for (int k = 0; k < slot; k++) sum += v->weight[k];
    for (int k = 0; k < slot; k++) v->weight[k] /= sum;
}

/* A smooth radius profile: (axial fraction 0..1, radius) control points, cosine-interpolated. */
typedef struct Profile {
    int   count;
    float t[8], r[8];
} Profile;

static float profile_radius(const Profile *p, float t)
{
    if (t <= p->t[0]) return p->r[0];
    for (int i = 0; i + 1 < p->count; i++)
        if (t <= p->t[i + 1]) {
            float a = (t - p->t[i]) / (p->t[i + 1] - p->t[i]);
            a = 0.5f - 0.5f * cosf(a * GLM_PIf);
            return p->r[i] + (p->r[i + 1] - p->r[i]) * a;
        }
    return p->r[p->count - 1];
}

/* A closed capsule from `a` to `b`: rings of `segments` vertices around the axis
 * with radius profile(t), hemispherical caps on both ends, an elliptic section
 * (scale `squash_u` along side_hint x axis, `squash_v` along the third axis).
 * Vertices are weighted along `chain` by their axial coordinate. */
static void add_capsule(Geometry *g, const vec3 a, const vec3 b, const vec3 side_hint, const Profile *profile,
                        float squash_u, float squash_v, int segments, float ring_spacing, const Chain *chain)
{
    vec3 axis, u, v;
    glm_vec3_sub((float *)b, (float *)a, axis);
    float length = glm_vec3_norm(axis);
    glm_vec3_scale(axis, 1.0f / length, axis);
    /* u: side_hint made perpendicular to the axis; v = axis x u */
    float along = glm_vec3_dot((float *)side_hint, axis);
    glm_vec3_copy((float *)side_hint, u);
    glm_vec3_muladds(axis, -along, u);
    glm_vec3_normalize(u);
    glm_vec3_cross(axis, u, v);

    float cuts[4];
    for (int i = 0; i + 1 < chain->bone_count; i++) {
        vec3 d;
        glm_vec3_sub((float *)JOINTS[chain->cut_joint[i]].head, (float *)a, d);
        cuts[i] = glm_vec3_dot(d, axis);
    }

    /* stations: (axial coordinate s, ring radius factor) — cap rings, then the body */
    enum { CAP_RINGS = 6 };
    int body_rings = (int)ceilf(length / ring_spacing) + 1;
    if (body_rings < 2) body_rings = 2;
    float r0 = profile_radius(profile, 0.0f), r1 = profile_radius(profile, 1.0f);
    int pole_start;
    {
        vec3 p;
        glm_vec3_copy((float *)a, p);
        glm_vec3_muladds(axis, -r0, p);
        pole_start = add_vertex(g, p);
        chain_weights(chain, cuts, -r0, &g->vertices[pole_start]);
    }
    int ring_count = 0;
    int total_rings = CAP_RINGS - 1 + body_rings + CAP_RINGS - 1;
    for (int ring = 0; ring < total_rings; ring++) {
        float s, radius;
        if (ring < CAP_RINGS - 1) {                 /* start cap: angle from the pole */
            float phi = (float)(ring + 1) / CAP_RINGS * GLM_PI_2f;
            s = -r0 * cosf(phi);
            radius = r0 * sinf(phi);
        } else if (ring < CAP_RINGS - 1 + body_rings) {
            float t = (float)(ring - (CAP_RINGS - 1)) / (float)(body_rings - 1);
            s = t * length;
            radius = profile_radius(profile, t);
        } else {                                    /* end cap */
            int k = ring - (CAP_RINGS - 1 + body_rings);
            float phi = (float)(k + 1) / CAP_RINGS * GLM_PI_2f;
            s = length + r1 * sinf(phi);
            radius = r1 * cosf(phi);
        }
        for (int i = 0; i < segments; i++) {
            float theta = (float)i / (float)segments * 2.0f * GLM_PIf;
            vec3 p;
            glm_vec3_copy((float *)a, p);
            glm_vec3_muladds(axis, s, p);
            glm_vec3_muladds(u, radius * squash_u * cosf(theta), p);
            glm_vec3_muladds(v, radius * squash_v * sinf(theta), p);
            int id = add_vertex(g, p);
            chain_weights(chain, cuts, s, &g->vertices[id]);
        }
        ring_count++;
    }
    int pole_end;
    {
        vec3 p;
        glm_vec3_copy((float *)b, p);
        glm_vec3_muladds(axis, r1, p);
        pole_end = add_vertex(g, p);
        chain_weights(chain, cuts, length + r1, &g->vertices[pole_end]);
    }

    /* triangles, counter-clockwise seen from outside (u, v, axis is right-handed) */
    int ring0 = pole_start + 1;
    for (int i = 0; i < segments; i++)
        add_triangle(g, pole_start, ring0 + (i + 1) % segments, ring0 + i);
    for (int ring = 0; ring + 1 < ring_count; ring++) {
        int r = ring0 + ring * segments, n = r + segments;
        for (int i = 0; i < segments; i++) {
            int j = (i + 1) % segments;
            add_triangle(g, r + i, r + j, n + j);
            add_triangle(g, r + i, n + j, n + i);
        }
    }
    int last = ring0 + (ring_count - 1) * segments;
    for (int i = 0; i < segments; i++)
        add_triangle(g, pole_end, last + i, last + (i + 1) % segments);
}

/* Smooth normals: area-weighted face normals summed per vertex (each capsule is closed, no seams). */
static void compute_normals(Geometry *g)
{
    for (int i = 0; i < g->vertex_count; i++) glm_vec3_zero(g->vertices[i].normal);
    for (int t = 0; t < g->index_count; t += 3) {
        Vertex *a = &g->vertices[g->indices[t]], *b = &g->vertices[g->indices[t + 1]],
               *c = &g->vertices[g->indices[t + 2]];
        vec3 e1, e2, n;
        glm_vec3_sub(b->position, a->position, e1);
        glm_vec3_sub(c->position, a->position, e2);
        glm_vec3_cross(e1, e2, n);   /* length = 2 * area */
        glm_vec3_add(a->normal, n, a->normal);
        glm_vec3_add(b->normal, n, b->normal);
        glm_vec3_add(c->normal, n, c->normal);
    }
    for (int i = 0; i < g->vertex_count; i++) glm_vec3_normalize(g->vertices[i].normal);
}

static Profile profile_make(int count, const float *t, const float *r)
{
    Profile p = {.count = count};
    for (int i = 0; i < count; i++) {
        p.t[i] = t[i];
        p.r[i] = r[i];
    }
    return p;
}

/* Builds the body. side = +1: left (+X), -1: right. */
static void build_limbs(Geometry *g, float side)
{
    int L = side > 0 ? 0 : 1;
    int shoulder = L ? J_SHOULDER_R : J_SHOULDER_L, upper_arm = L ? J_UPPER_ARM_R : J_UPPER_ARM_L;
    int forearm = L ? J_FOREARM_R : J_FOREARM_L, hand = L ? J_HAND_R : J_HAND_L;
    int thigh = L ? J_THIGH_R : J_THIGH_L, shin = L ? J_SHIN_R : J_SHIN_L;
    int foot = L ? J_FOOT_R : J_FOOT_L, toe = L ? J_TOE_R : J_TOE_L;
    const vec3 forward = {0.0f, 0.0f, 1.0f}, up = {0.0f, 1.0f, 0.0f};

    /* arm: from inside the chest to the wrist; chest -> shoulder -> upper arm -> forearm -> hand */
    {
        vec3 a = {side * 0.08f, 1.42f, 0.0f}, b = {side * 0.72f, 1.42f, 0.0f};
        const float t[] = {0.0f, 0.16f, 0.30f, 0.59f, 0.72f, 1.0f};
        const float r[] = {0.066f, 0.060f, 0.052f, 0.041f, 0.045f, 0.031f};
        Profile p = profile_make(6, t, r);
        Chain chain = {5, {J_CHEST, shoulder, upper_arm, forearm, hand}, {shoulder, upper_arm, forearm, hand}, 0.075f};
        add_capsule(g, a, b, up, &p, 0.95f, 1.0f, 16, 0.016f, &chain);
    }
    /* hand: a flat capsule past the wrist, and a thumb */
    {
        vec3 a = {side * 0.745f, 1.42f, 0.0f}, b = {side * 0.86f, 1.42f, 0.0f};
        const float t[] = {0.0f, 0.5f, 1.0f};
        const float r[] = {0.036f, 0.042f, 0.036f};
        Profile p = profile_make(3, t, r);
        Chain chain = {2, {forearm, hand}, {hand}, 0.025f};
        add_capsule(g, a, b, up, &p, 0.42f, 1.0f, 16, 0.012f, &chain);
        vec3 ta = {side * 0.76f, 1.41f, 0.03f}, tb = {side * 0.81f, 1.405f, 0.07f};
        const float tt[] = {0.0f, 1.0f};
        const float tr[] = {0.015f, 0.013f};
        Profile tp = profile_make(2, tt, tr);
        Chain thumb = {1, {hand}, {0}, 0.02f};
        add_capsule(g, ta, tb, up, &tp, 1.0f, 1.0f, 10, 0.012f, &thumb);
    }
    /* leg: from inside the pelvis to the ankle; hips -> thigh -> shin -> foot */
    {
        vec3 a = {side * 0.095f, 0.93f, 0.0f}, b = {side * 0.10f, 0.11f, 0.0f};
        const float t[] = {0.0f, 0.16f, 0.50f, 0.62f, 0.98f};
        const float r[] = {0.080f, 0.075f, 0.050f, 0.056f, 0.040f};
        Profile p = profile_make(5, t, r);
        Chain chain = {4, {J_HIPS, thigh, shin, foot}, {thigh, shin, foot}, 0.06f};
        add_capsule(g, a, b, forward, &p, 1.0f, 1.0f, 16, 0.018f, &chain);
    }
    /* foot: heel to toe tip, flat; shin -> foot -> toe */
    {
        vec3 a = {side * 0.10f, 0.045f, -0.04f}, b = {side * 0.10f, 0.035f, 0.18f};
        const float t[] = {0.0f, 0.5f, 1.0f};
        const float r[] = {0.042f, 0.048f, 0.040f};
        Profile p = profile_make(3, t, r);
        Chain chain = {2, {foot, toe}, {toe}, 0.03f};
        add_capsule(g, a, b, up, &p, 0.62f, 1.0f, 16, 0.014f, &chain);
    }
}

static void build_body(Geometry *g)
{
    const vec3 right = {1.0f, 0.0f, 0.0f};
    /* torso: pelvis to shoulders, wider than deep; hips -> spine -> chest -> neck */
    {
        vec3 a = {0.0f, 0.90f, 0.0f}, b = {0.0f, 1.46f, 0.0f};
        const float t[] = {0.0f, 0.18f, 0.36f, 0.62f, 0.82f, 1.0f};
        const float r[] = {0.170f, 0.158f, 0.130f, 0.155f, 0.165f, 0.100f};
        Profile p = profile_make(6, t, r);
        Chain chain = {4, {J_HIPS, J_SPINE, J_CHEST, J_NECK}, {J_SPINE, J_CHEST, J_NECK}, 0.06f};
        add_capsule(g, a, b, right, &p, 1.0f, 0.64f, 24, 0.016f, &chain);
    }
    /* neck: chest -> neck -> head */
    {
        vec3 a = {0.0f, 1.44f, 0.0f}, b = {0.0f, 1.62f, 0.0f};
        const float t[] = {0.0f, 1.0f};
        const float r[] = {0.052f, 0.048f};
        Profile p = profile_make(2, t, r);
        Chain chain = {3, {J_CHEST, J_NECK, J_HEAD}, {J_NECK, J_HEAD}, 0.06f};
        add_capsule(g, a, b, right, &p, 1.0f, 1.0f, 16, 0.015f, &chain);
    }
    /* head and nose */
    {
        vec3 a = {0.0f, 1.665f, 0.01f}, b = {0.0f, 1.745f, 0.01f};
        const float t[] = {0.0f, 0.5f, 1.0f};
        const float r[] = {0.090f, 0.104f, 0.100f};
        Profile p = profile_make(3, t, r);
        Chain chain = {2, {J_NECK, J_HEAD}, {J_HEAD}, 0.02f};
        add_capsule(g, a, b, right, &p, 0.95f, 1.05f, 24, 0.014f, &chain);
        vec3 na = {0.0f, 1.70f, 0.09f}, nb = {0.0f, 1.685f, 0.125f};
        const float nt[] = {0.0f, 1.0f};
        const float nr[] = {0.017f, 0.014f};
        Profile np = profile_make(2, nt, nr);
        Chain nose = {1, {J_HEAD}, {0}, 0.02f};
        add_capsule(g, na, nb, right, &np, 1.0f, 1.0f, 10, 0.012f, &nose);
    }
    build_limbs(g, 1.0f);
    build_limbs(g, -1.0f);
    compute_normals(g);
}

/* ------------------------------------------------------------------ clips */

#define KEYS_PER_SECOND 30

typedef struct LocalPose {
    vec3   translation[JOINT_COUNT];
    versor rotation[JOINT_COUNT];   /* cglm order x, y, z, w */
} LocalPose;

typedef void (*PoseFunction)(float phase, LocalPose *pose);

typedef struct ClipDef {
    const char  *name;
    int          seconds;           /* whole seconds: see the header note */
    PoseFunction pose;
} ClipDef;

static float rad(float degrees) { return degrees * GLM_PIf / 180.0f; }

/* pose->rotation[j] = q * pose->rotation[j]: rotate about a parent-frame axis, after what is there */
static void turn(LocalPose *pose, int joint, float degrees, float x, float y, float z)
{
    versor q;
    glm_quatv(q, rad(degrees), (vec3){x, y, z});
    glm_quat_mul(q, pose->rotation[joint], pose->rotation[joint]);
}

static void rest_pose(LocalPose *pose)
{
    for (int j = 0; j < JOINT_COUNT; j++) {
        const JointDef *joint = &JOINTS[j];
        if (joint->parent < 0)
            glm_vec3_copy((float *)joint->head, pose->translation[j]);
        else
            glm_vec3_sub((float *)joint->head, (float *)JOINTS[joint->parent].head, pose->translation[j]);
        glm_quat_identity(pose->rotation[j]);
    }
}

/* Arms lowered from the T-pose towards the sides by the given angles (degrees). */
static void arms_down(LocalPose *pose, float left_degrees, float right_degrees)
{
    turn(pose, J_UPPER_ARM_L, -left_degrees, 0, 0, 1);
    turn(pose, J_UPPER_ARM_R, right_degrees, 0, 0, 1);
}

/* The rest pose the file's node transforms hold: an A-pose (arms 45 degrees down). The mesh
 * is bound in the T-pose (rest_pose above), so rest != bind, as in many real files. */
#define FILE_REST_ARMS_DOWN_DEGREES 45.0f
static void file_rest_pose(LocalPose *pose)
{
    rest_pose(pose);
    arms_down(pose, FILE_REST_ARMS_DOWN_DEGREES, FILE_REST_ARMS_DOWN_DEGREES);
}

/* ------------------------------------------------------------------ the armature's space
 * The files store the skeleton and the mesh in an armature space of centimetres, Z up, as
 * Blender's and 3ds Max's FBX files do, and the `Armature` and `body` nodes carry
 *     A = Rx(-90 deg) * S(0.01)        (armature space -> scene: cm -> m, Z up -> Y up).
 * A scene-space point p is stored as A^-1 p = 100 * Rx(+90 deg) p = 100 * (x, -z, y); a
 * direction (normal) as Rx(+90 deg) n; a joint's local transform L as A^-1 L A, the same
 * motion in the armature's frame: its translation t becomes A^-1 t and its rotation q becomes
 * r q r^-1 with r = Rx(+90 deg) (the uniform scale cancels). Then every scene-space result
 * (A times the armature-space one) is the design's, exactly up to float rounding. */
#define ARMATURE_UNITS_PER_METRE 100.0f

static void to_armature_direction(const float n[3], float out[3])
{
    float x = n[0], y = n[1], z = n[2];
    out[0] = x;
    out[1] = -z;
    out[2] = y;
}

static void to_armature_point(const float p[3], float out[3])
{
    to_armature_direction(p, out);
    glm_vec3_scale(out, ARMATURE_UNITS_PER_METRE, out);
}

static void to_armature_rotation(const versor q, versor out)
{
    versor r, r_inverse, rq;
    glm_quatv(r, GLM_PI_2f, (vec3){1.0f, 0.0f, 0.0f});
    glm_quat_inv(r, r_inverse);
    glm_quat_mul(r, (float *)q, rq);
    glm_quat_mul(rq, r_inverse, out);
}

static float wave(float phase, float cycles, float offset)
{
    return sinf(2.0f * GLM_PIf * (cycles * phase + offset));
}

/* Idle: two breaths, one slow sway of the weight from foot to foot, a look around. */
static void pose_idle(float p, LocalPose *pose)
{
    float breath = wave(p, 2.0f, 0.0f), sway = wave(p, 1.0f, 0.0f);
    pose->translation[J_HIPS][0] += 0.012f * sway;
    pose->translation[J_HIPS][1] += -0.004f * (1.0f - wave(p, 2.0f, 0.25f));
    turn(pose, J_HIPS, 1.5f * sway, 0, 0, 1);
    turn(pose, J_THIGH_L, -1.5f * sway, 0, 0, 1);
    turn(pose, J_THIGH_R, -1.5f * sway, 0, 0, 1);
    turn(pose, J_SPINE, -1.2f * sway, 0, 0, 1);
    turn(pose, J_SPINE, 1.0f * breath, 1, 0, 0);
    turn(pose, J_CHEST, -2.0f * breath, 1, 0, 0);
    turn(pose, J_SHOULDER_L, 2.0f * breath, 0, 0, 1);
    turn(pose, J_SHOULDER_R, -2.0f * breath, 0, 0, 1);
    turn(pose, J_NECK, 1.5f * breath, 1, 0, 0);
    turn(pose, J_HEAD, 12.0f * wave(p, 1.0f, 0.15f), 0, 1, 0);
    turn(pose, J_HEAD, 2.0f * wave(p, 1.0f, 0.4f), 0, 0, 1);
    arms_down(pose, 72.0f + 2.0f * breath, 72.0f + 2.0f * breath);
    turn(pose, J_UPPER_ARM_L, -3.0f * sway, 1, 0, 0);
    turn(pose, J_UPPER_ARM_R, 3.0f * sway, 1, 0, 0);
    turn(pose, J_FOREARM_L, -(12.0f + 3.0f * breath), 0, 1, 0);
    turn(pose, J_FOREARM_R, 12.0f + 3.0f * breath, 0, 1, 0);
}

/* Walk in place, one gait cycle: legs alternate (knee flexes in swing, foot
 * kept near level, toe-off), arms counter-swing, hips bob twice and sway, the
 * pelvis turns with the forward leg and the chest turns against it. */
static void pose_walk(float p, LocalPose *pose)
{
    float s = wave(p, 1.0f, 0.0f), c = wave(p, 1.0f, 0.25f);   /* sin, cos of the cycle */
    pose->translation[J_HIPS][0] += 0.02f * s;
    pose->translation[J_HIPS][1] += 0.025f * wave(p, 2.0f, 0.25f) - 0.02f;
    turn(pose, J_HIPS, -6.0f * s, 0, 1, 0);
    turn(pose, J_HIPS, -2.0f * s, 0, 0, 1);
    turn(pose, J_SPINE, 4.0f, 1, 0, 0);
    turn(pose, J_SPINE, 4.0f * s, 0, 1, 0);
    turn(pose, J_CHEST, 5.0f * s, 0, 1, 0);
    turn(pose, J_NECK, -4.0f, 1, 0, 0);
    turn(pose, J_HEAD, -2.0f * s, 0, 1, 0);

    for (int side = 0; side < 2; side++) {
        float sign = side == 0 ? 1.0f : -1.0f;           /* right leg is half a cycle later */
        int thigh = side == 0 ? J_THIGH_L : J_THIGH_R, shin = side == 0 ? J_SHIN_L : J_SHIN_R;
        int foot = side == 0 ? J_FOOT_L : J_FOOT_R, toe = side == 0 ? J_TOE_L : J_TOE_R;
        float swing = 24.0f * sign * s;                  /* + = leg forward */
        float moving_forward = fmaxf(0.0f, sign * c);    /* swing phase */
        float behind = fmaxf(0.0f, -sign * s);
        float knee = 6.0f + 55.0f * moving_forward * moving_forward;
        turn(pose, thigh, -swing, 1, 0, 0);
        turn(pose, shin, knee, 1, 0, 0);
        turn(pose, foot, -0.75f * (knee - swing) + 12.0f * behind * behind, 1, 0, 0);
        turn(pose, toe, -25.0f * behind * behind, 1, 0, 0);
        turn(pose, thigh, 2.0f * s, 0, 0, 1);           /* follow the pelvis sway */
    }

    arms_down(pose, 78.0f, 78.0f);
    float arm_left = -18.0f * s, arm_right = 18.0f * s;   /* + = arm forward */
    turn(pose, J_UPPER_ARM_L, -arm_left, 1, 0, 0);
    turn(pose, J_UPPER_ARM_R, -arm_right, 1, 0, 0);
    turn(pose, J_FOREARM_L, -(14.0f + 12.0f * fmaxf(0.0f, -s)), 0, 1, 0);
    turn(pose, J_FOREARM_R, 14.0f + 12.0f * fmaxf(0.0f, s), 0, 1, 0);
}

/* Wave: the right arm raised to the side, the forearm waving twice; the left arm hangs. */
static void pose_wave(float p, LocalPose *pose)
{
    float w = wave(p, 2.0f, 0.0f), sway = wave(p, 1.0f, 0.0f);
    turn(pose, J_UPPER_ARM_R, -25.0f, 0, 0, 1);        /* above the horizontal */
    turn(pose, J_UPPER_ARM_R, 15.0f, 0, 1, 0);         /* a little forward */
    turn(pose, J_FOREARM_R, -(80.0f + 28.0f * w), 0, 0, 1);
    turn(pose, J_HAND_R, -12.0f * wave(p, 2.0f, -0.08f), 0, 0, 1);
    turn(pose, J_SHOULDER_R, -6.0f, 0, 0, 1);
    arms_down(pose, 74.0f, 0.0f);
    turn(pose, J_FOREARM_L, -10.0f, 0, 1, 0);
    turn(pose, J_SPINE, 2.0f + 1.0f * sway, 0, 0, 1);
    turn(pose, J_HEAD, -8.0f, 0, 1, 0);
    turn(pose, J_HEAD, -4.0f * w, 0, 0, 1);
    pose->translation[J_HIPS][0] += -0.01f * sway;
}

/* Twist: the left arm held out, its forearm turning +-170 degrees about its own
 * axis (local X). Linear blend skinning collapses the elbow ("candy wrapper");
 * dual quaternion skinning keeps its volume. */
static void pose_twist(float p, LocalPose *pose)
{
    turn(pose, J_UPPER_ARM_L, -10.0f, 0, 1, 0);        /* a little forward */
    turn(pose, J_FOREARM_L, 170.0f * wave(p, 1.0f, 0.0f), 1, 0, 0);
    arms_down(pose, 0.0f, 72.0f);
    turn(pose, J_FOREARM_R, 12.0f, 0, 1, 0);
    turn(pose, J_HEAD, 25.0f, 0, 1, 0);
    turn(pose, J_HEAD, -6.0f, 1, 0, 0);
}

static const ClipDef CLIPS[] = {
    {"Idle", 4, pose_idle},
    {"Walk", 1, pose_walk},
    {"Wave", 2, pose_wave},
    {"Twist", 3, pose_twist},
};
enum { CLIP_COUNT = (int)(sizeof CLIPS / sizeof CLIPS[0]) };

/* ------------------------------------------------------------------ aiScene */

static void set_name(struct aiString *s, const char *text)
{
    size_t n = strlen(text);
    s->length = (ai_uint32)n;
    memcpy(s->data, text, n + 1);
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) {
        fputs("make_demo_model: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* aiMatrix4x4 is row-major (a1..a4 = first row), translation in a4, b4, c4. */
static struct aiMatrix4x4 ai_translation(const float t[3])
{
    struct aiMatrix4x4 m;
    memset(&m, 0, sizeof m);
    m.a1 = m.b2 = m.c3 = m.d4 = 1.0f;
    m.a4 = t[0];
    m.b4 = t[1];
    m.c4 = t[2];
    return m;
}

/* A = Rx(-90 deg) * S(0.01), row-major: the Armature and body nodes (see "the armature's space"). */
static struct aiMatrix4x4 armature_matrix(void)
{
    const float s = 1.0f / ARMATURE_UNITS_PER_METRE;
    struct aiMatrix4x4 m;
    memset(&m, 0, sizeof m);
    m.a1 = s;    /* x' = s x */
    m.b3 = s;    /* y' = s z */
    m.c2 = -s;   /* z' = -s y */
    m.d4 = 1.0f;
    return m;
}

/* T(t) * R(q) as a row-major aiMatrix4x4 (cglm builds it column-major). */
static struct aiMatrix4x4 ai_rigid(const float t[3], const versor q)
{
    mat4 m;
    glm_quat_mat4((float *)q, m);
    m[3][0] = t[0];
    m[3][1] = t[1];
    m[3][2] = t[2];
    struct aiMatrix4x4 out;
    float *row_major = &out.a1;
    for (int row = 0; row < 4; row++)
        for (int column = 0; column < 4; column++) row_major[row * 4 + column] = m[column][row];
    return out;
}

static struct aiNode *new_node(const char *name, struct aiNode *parent, struct aiMatrix4x4 transform)
{
    struct aiNode *node = xcalloc(1, sizeof *node);
    set_name(&node->mName, name);
    node->mTransformation = transform;
    node->mParent = parent;
    return node;
}

static void add_child(struct aiNode *parent, struct aiNode *child)
{
    struct aiNode **children = xcalloc(parent->mNumChildren + 1, sizeof *children);
    if (parent->mNumChildren) memcpy(children, parent->mChildren, parent->mNumChildren * sizeof *children);
    free(parent->mChildren);
    children[parent->mNumChildren++] = child;
    parent->mChildren = children;
}

static void free_node(struct aiNode *node)
{
    for (unsigned i = 0; i < node->mNumChildren; i++) free_node(node->mChildren[i]);
    free(node->mChildren);
    free(node->mMeshes);
    free(node);
}

static struct aiMaterialProperty *material_property(const char *key, enum aiPropertyTypeInfo type,
                                                    const void *data, unsigned length)
{
    struct aiMaterialProperty *p = xcalloc(1, sizeof *p);
    set_name(&p->mKey, key);
    p->mType = type;
    p->mDataLength = length;
    p->mData = xcalloc(1, length);
    memcpy(p->mData, data, length);
    return p;
}

/* One material: name "body", a warm clay diffuse / base colour, fairly rough. */
static struct aiMaterial *new_material(void)
{
    struct aiMaterial *m = xcalloc(1, sizeof *m);
    m->mNumAllocated = 5;
    m->mProperties = xcalloc(m->mNumAllocated, sizeof *m->mProperties);
    /* a string property is stored as aiString: 32-bit length, characters, NUL */
    const char *name = "body";
    unsigned char string_data[4 + 8] = {0};
    ai_uint32 name_length = (ai_uint32)strlen(name);
    memcpy(string_data, &name_length, 4);
    memcpy(string_data + 4, name, name_length + 1);
    const float color[4] = {0.80f, 0.45f, 0.30f, 1.0f};
    const float metallic = 0.0f, roughness = 0.7f;
    m->mProperties[m->mNumProperties++] = material_property("?mat.name", aiPTI_String, string_data, 4 + name_length + 1);
    m->mProperties[m->mNumProperties++] = material_property("$clr.diffuse", aiPTI_Float, color, sizeof color);
    m->mProperties[m->mNumProperties++] = material_property("$clr.base", aiPTI_Float, color, sizeof color);
    m->mProperties[m->mNumProperties++] = material_property("$mat.metallicFactor", aiPTI_Float, &metallic, sizeof metallic);
    m->mProperties[m->mNumProperties++] = material_property("$mat.roughnessFactor", aiPTI_Float, &roughness, sizeof roughness);
    return m;
}

static void free_material(struct aiMaterial *m)
{
    for (unsigned i = 0; i < m->mNumProperties; i++) {
        free(m->mProperties[i]->mData);
        free(m->mProperties[i]);
    }
    free(m->mProperties);
    free(m);
}

/* Where the mesh lives in each file (see "the armature's space"). */
typedef enum MeshSpace {
    MESH_IN_ARMATURE_SPACE,   /* FBX: vertices in cm, Z up; the body node carries A */
    MESH_IN_SCENE_SPACE,      /* glTF: vertices in metres, Y up; the body node is the identity
                                 (the glTF spec ignores a skinned mesh node's transform) */
} MeshSpace;

static struct aiMesh *new_mesh(const Geometry *g, MeshSpace space)
{
    struct aiMesh *mesh = xcalloc(1, sizeof *mesh);
    set_name(&mesh->mName, "body");
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = (unsigned)g->vertex_count;
    mesh->mVertices = xcalloc(mesh->mNumVertices, sizeof *mesh->mVertices);
    mesh->mNormals = xcalloc(mesh->mNumVertices, sizeof *mesh->mNormals);
    for (int i = 0; i < g->vertex_count; i++) {
        const Vertex *v = &g->vertices[i];
        float position[3], normal[3];
        glm_vec3_copy((float *)v->position, position);
        glm_vec3_copy((float *)v->normal, normal);
        if (space == MESH_IN_ARMATURE_SPACE) {
            to_armature_point(v->position, position);
            to_armature_direction(v->normal, normal);
        }
        mesh->mVertices[i] = (struct aiVector3D){position[0], position[1], position[2]};
        mesh->mNormals[i] = (struct aiVector3D){normal[0], normal[1], normal[2]};
    }
    mesh->mNumFaces = (unsigned)(g->index_count / 3);
    mesh->mFaces = xcalloc(mesh->mNumFaces, sizeof *mesh->mFaces);
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = xcalloc(3, sizeof(unsigned));
        memcpy(mesh->mFaces[f].mIndices, &g->indices[3 * f], 3 * sizeof(unsigned));
    }
    mesh->mMaterialIndex = 0;

    /* One bone per joint (every joint weights some vertices), in joint order.
     * Offset matrix = inverse(bone's bind-pose scene matrix) * (mesh node's scene matrix).
     * The bone's bind-pose scene matrix is A * J', J' = its bind matrix in the armature's
     * space, with identity bind rotations a translation T(head') to the stored head, so
     * A * J' = T(head) * A. Then the offset is
     *   mesh in armature space (node A):  inverse(A * J') * A = T(-head')
     *   mesh in scene space (identity):   inverse(T(head) * A) = A^-1 * T(-head),
     *                                     linear part 100 * Rx(+90 deg), translation -head'. */
    mesh->mNumBones = JOINT_COUNT;
    mesh->mBones = xcalloc(JOINT_COUNT, sizeof *mesh->mBones);
    for (int j = 0; j < JOINT_COUNT; j++) {
        struct aiBone *bone = xcalloc(1, sizeof *bone);
        set_name(&bone->mName, JOINTS[j].name);
        float h[3];
        to_armature_point(JOINTS[j].head, h);
        bone->mOffsetMatrix = ai_translation((const float[3]){-h[0], -h[1], -h[2]});
        if (space == MESH_IN_SCENE_SPACE) {   /* rows of 100 * Rx(+90 deg): (x, -z, y) */
            const float k = ARMATURE_UNITS_PER_METRE;
            bone->mOffsetMatrix.a1 = k;
            bone->mOffsetMatrix.b2 = 0.0f;
            bone->mOffsetMatrix.b3 = -k;
            bone->mOffsetMatrix.c2 = k;
            bone->mOffsetMatrix.c3 = 0.0f;
        }
        int count = 0;
        for (int i = 0; i < g->vertex_count; i++)
            for (int k = 0; k < 4; k++)
                if (g->vertices[i].weight[k] > 0.0f && g->vertices[i].joint[k] == j) count++;
        bone->mWeights = xcalloc((size_t)count, sizeof *bone->mWeights);
        for (int i = 0; i < g->vertex_count; i++)
            for (int k = 0; k < 4; k++)
                if (g->vertices[i].weight[k] > 0.0f && g->vertices[i].joint[k] == j)
                    bone->mWeights[bone->mNumWeights++] = (struct aiVertexWeight){(unsigned)i, g->vertices[i].weight[k]};
        mesh->mBones[j] = bone;
    }
    return mesh;
}

static void free_mesh(struct aiMesh *mesh)
{
    for (unsigned b = 0; b < mesh->mNumBones; b++) {
        free(mesh->mBones[b]->mWeights);
        free(mesh->mBones[b]);
    }
    free(mesh->mBones);
    for (unsigned f = 0; f < mesh->mNumFaces; f++) free(mesh->mFaces[f].mIndices);
    free(mesh->mFaces);
    free(mesh->mNormals);
    free(mesh->mVertices);
    free(mesh);
}

/* One clip, sampled KEYS_PER_SECOND times a second, every joint keyed (T, R, S;
 * a component that stays constant gets a single key).
 * Times in seconds with mTicksPerSecond = 1. The last key repeats the first pose
 * exactly (phase 0), so the clip loops. Quaternion keys are kept in one hemisphere. */
static struct aiAnimation *new_animation(const ClipDef *clip)
{
    struct aiAnimation *anim = xcalloc(1, sizeof *anim);
    set_name(&anim->mName, clip->name);
    anim->mTicksPerSecond = 1.0;
    anim->mDuration = (double)clip->seconds;
    int intervals = clip->seconds * KEYS_PER_SECOND, keys = intervals + 1;
    anim->mNumChannels = JOINT_COUNT;
    anim->mChannels = xcalloc(JOINT_COUNT, sizeof *anim->mChannels);
    for (int j = 0; j < JOINT_COUNT; j++) {
        struct aiNodeAnim *ch = xcalloc(1, sizeof *ch);
        set_name(&ch->mNodeName, JOINTS[j].name);
        ch->mNumPositionKeys = ch->mNumRotationKeys = ch->mNumScalingKeys = (unsigned)keys;
        ch->mPositionKeys = xcalloc((size_t)keys, sizeof *ch->mPositionKeys);
        ch->mRotationKeys = xcalloc((size_t)keys, sizeof *ch->mRotationKeys);
        ch->mScalingKeys = xcalloc((size_t)keys, sizeof *ch->mScalingKeys);
        anim->mChannels[j] = ch;
    }
    versor previous[JOINT_COUNT];
    for (int k = 0; k < keys; k++) {
        double time = (double)k / KEYS_PER_SECOND;
        float phase = k == intervals ? 0.0f : (float)k / (float)intervals;
        LocalPose pose;
        rest_pose(&pose);
        clip->pose(phase, &pose);
        for (int j = 0; j < JOINT_COUNT; j++) {
            struct aiNodeAnim *ch = anim->mChannels[j];
            versor q;
            float t[3];
            glm_quat_normalize(pose.rotation[j]);
            to_armature_rotation(pose.rotation[j], q);
            to_armature_point(pose.translation[j], t);
            if (k > 0 && glm_vec4_dot(q, previous[j]) < 0.0f) glm_vec4_negate(q);
            glm_vec4_copy(q, previous[j]);
            ch->mPositionKeys[k].mTime = time;
            ch->mPositionKeys[k].mValue = (struct aiVector3D){t[0], t[1], t[2]};
            ch->mRotationKeys[k].mTime = time;
            ch->mRotationKeys[k].mValue = (struct aiQuaternion){q[3], q[0], q[1], q[2]};
            ch->mScalingKeys[k].mTime = time;
            ch->mScalingKeys[k].mValue = (struct aiVector3D){1.0f, 1.0f, 1.0f};
        }
    }
    /* A component that never changes needs one key (the file gets much smaller;
     * the joint holds that value for the whole clip). */
    for (int j = 0; j < JOINT_COUNT; j++) {
        struct aiNodeAnim *ch = anim->mChannels[j];
        bool constant_t = true, constant_r = true;
        for (int k = 1; k < keys; k++) {
            if (memcmp(&ch->mPositionKeys[k].mValue, &ch->mPositionKeys[0].mValue, sizeof(struct aiVector3D)) != 0)
                constant_t = false;
            if (memcmp(&ch->mRotationKeys[k].mValue, &ch->mRotationKeys[0].mValue, sizeof(struct aiQuaternion)) != 0)
                constant_r = false;
        }
        if (constant_t) ch->mNumPositionKeys = 1;
        if (constant_r) ch->mNumRotationKeys = 1;
        ch->mNumScalingKeys = 1;
    }
    return anim;
}

static void free_animation(struct aiAnimation *anim)
{
    for (unsigned c = 0; c < anim->mNumChannels; c++) {
        free(anim->mChannels[c]->mPositionKeys);
        free(anim->mChannels[c]->mRotationKeys);
        free(anim->mChannels[c]->mScalingKeys);
        free(anim->mChannels[c]);
    }
    free(anim->mChannels);
    free(anim);
}

/* The scene, allocated here with calloc (C has no aiScene constructor) and
 * freed by free_scene below, never by aiFreeScene. Assimp's exporter works on
 * its own deep copy (SceneCombiner::CopyScene), so it never frees ours.
 *   RootNode  (identity)
 *     body      (the mesh: A in the FBX, identity in the glTF, see MeshSpace)
 *     Armature  (A)
 *       root (identity) -> hips -> ...   (each joint: its rest-pose local transform, A-pose)
 */
static struct aiScene *build_scene(const Geometry *g, MeshSpace space)
{
    struct aiScene *scene = xcalloc(1, sizeof *scene);
    struct aiMatrix4x4 identity = ai_translation((const float[3]){0, 0, 0});
    scene->mRootNode = new_node("RootNode", NULL, identity);

    struct aiNode *body = new_node("body", scene->mRootNode, space == MESH_IN_ARMATURE_SPACE ? armature_matrix() : identity);
    body->mNumMeshes = 1;
    body->mMeshes = xcalloc(1, sizeof(unsigned));
    add_child(scene->mRootNode, body);
    struct aiNode *armature = new_node("Armature", scene->mRootNode, armature_matrix());
    add_child(scene->mRootNode, armature);

    LocalPose rest;
    file_rest_pose(&rest);
    struct aiNode *nodes[JOINT_COUNT];
    for (int j = 0; j < JOINT_COUNT; j++) {
        const JointDef *joint = &JOINTS[j];
        struct aiNode *parent = joint->parent < 0 ? armature : nodes[joint->parent];
        float t[3];
        versor q;
        glm_quat_normalize(rest.rotation[j]);
        to_armature_point(rest.translation[j], t);
        to_armature_rotation(rest.rotation[j], q);
        nodes[j] = new_node(joint->name, parent, ai_rigid(t, q));
        add_child(parent, nodes[j]);
    }

    scene->mNumMeshes = 1;
    scene->mMeshes = xcalloc(1, sizeof *scene->mMeshes);
    scene->mMeshes[0] = new_mesh(g, space);
    scene->mNumMaterials = 1;
    scene->mMaterials = xcalloc(1, sizeof *scene->mMaterials);
    scene->mMaterials[0] = new_material();
    scene->mNumAnimations = CLIP_COUNT;
    scene->mAnimations = xcalloc(CLIP_COUNT, sizeof *scene->mAnimations);
    for (int c = 0; c < CLIP_COUNT; c++) scene->mAnimations[c] = new_animation(&CLIPS[c]);
    return scene;
}

static void free_scene(struct aiScene *scene)
{
    for (unsigned c = 0; c < scene->mNumAnimations; c++) free_animation(scene->mAnimations[c]);
    free(scene->mAnimations);
    for (unsigned m = 0; m < scene->mNumMaterials; m++) free_material(scene->mMaterials[m]);
    free(scene->mMaterials);
    for (unsigned m = 0; m < scene->mNumMeshes; m++) free_mesh(scene->mMeshes[m]);
    free(scene->mMeshes);
    free_node(scene->mRootNode);
    free(scene);
}

/* ------------------------------------------------------------------ output */

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = xcalloc((size_t)n + 1, 1);
    *size = fread(data, 1, (size_t)n, f);
    fclose(f);
    return data;
}

/* Two rewrites of Assimp's ASCII FBX, neither changing what Assimp reads:
 *  - its exporter stamps the wall-clock time into the header (CreationTimeStamp
 *    {Year: .. Millisecond: ..} and CreationTime: "YYYY-MM-DD HH:MM:SS:mmm"): both are
 *    set to a fixed date, so the same source gives the same bytes;
 *  - property lines get the FBX SDK's spacing for numbers ("A",0,0.95,0 instead of
 *    "A", 0, 0.95, 0): three.js's FBXLoader misreads the spaced form (NaN rest poses). */
static bool normalize_fbx_text(const char *path)
{
    size_t size = 0;
    char *text = read_file(path, &size);
    if (!text) return false;
    static const struct {
        const char *field;
        int         value;
    } stamp[] = {{"Year: ", 2026}, {"Month: ", 1}, {"Day: ", 1}, {"Hour: ", 0},
                 {"Minute: ", 0},  {"Second: ", 0}, {"Millisecond: ", 0}};
    char *out = xcalloc(size + 256, 1);
    size_t o = 0;
    const char *block = strstr(text, "CreationTimeStamp:");
    const char *block_end = block ? strchr(block, '}') : NULL;
    bool line_start = true, property_line = false;
    for (size_t i = 0; i < size;) {
        if (text[i] == '\n') {
            line_start = true;
            property_line = false;
        } else if (line_start && text[i] != '\t' && text[i] != ' ') {
            line_start = false;
            property_line = strncmp(text + i, "P: \"", 4) == 0;
        }
        if (property_line && text[i] == ',' && i + 2 < size && text[i + 1] == ' ' &&
            ((text[i + 2] >= '0' && text[i + 2] <= '9') || text[i + 2] == '-')) {
            out[o++] = ',';
            i += 2;
            continue;
        }
        bool replaced = false;
        if (block && text + i > block && text + i < block_end)
            for (size_t s = 0; s < sizeof stamp / sizeof stamp[0]; s++) {
                size_t n = strlen(stamp[s].field);
                if (strncmp(text + i, stamp[s].field, n) == 0 && (i == 0 || text[i - 1] != ':')) {
                    o += (size_t)sprintf(out + o, "%s%d", stamp[s].field, stamp[s].value);
                    i += n;
                    while (i < size && text[i] >= '0' && text[i] <= '9') i++;
                    replaced = true;
                    break;
                }
            }
        if (!replaced && strncmp(text + i, "CreationTime: \"", 15) == 0) {
            const char *close = strchr(text + i + 15, '"');
            if (close) {
                o += (size_t)sprintf(out + o, "CreationTime: \"2026-01-01 00:00:00:000\"");
                i = (size_t)(close - text) + 1;
                replaced = true;
            }
        }
        if (!replaced) out[o++] = text[i++];
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(out, 1, o, f) == o;
    if (f && fclose(f) != 0) ok = false;
    free(out);
    free(text);
    return ok;
}

/* Assimp 5.2's FBX exporter writes each cluster's Transform (the offset matrix, as Assimp
 * writes it) and TransformLink (the bone's scene matrix at bind time) from the bone's REST
 * pose, not from the aiBone's offset matrix: a file whose rest pose is not its bind pose comes
 * back bound in the rest pose (measured on this demo: the A-pose arms moved every clip's
 * shoulders by 0.22 of the diagonal). So both are rewritten for every cluster with the true
 * bind values: TransformLink = T(head) * A, Transform = the offset T(-head') (see "the
 * armature's space"; FBX stores matrices column by column). Clusters are matched to their bone
 * through the file's connections (C: "OO", bone model, cluster). */
static int joint_by_name(const char *name, size_t length)
{
    for (int j = 0; j < JOINT_COUNT; j++)
        if (strlen(JOINTS[j].name) == length && strncmp(JOINTS[j].name, name, length) == 0) return j;
    return -1;
}

static bool write_fbx_bind_matrices(const char *path)
{
    size_t size = 0;
    char *text = read_file(path, &size);
    if (!text) return false;
    enum { MAX_LINKS = 4096 };   /* every C: "OO" line of the file (nodes, geometry, clusters, animation) */
    static long long model_uid[JOINT_COUNT], cluster_uid[MAX_LINKS], link_model[MAX_LINKS];
    static int model_joint[JOINT_COUNT];
    int models = 0, links = 0;
    /* pass 1: bone models (uid -> joint) and model -> cluster connections */
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        while (*line == '\t' || *line == ' ') line++;
        long long uid = 0, other = 0;
        int consumed = 0;
        if (sscanf(line, "Model: %lld, \"Model::%n", &uid, &consumed) == 1 && consumed > 0 && models < JOINT_COUNT) {
            const char *name = line + consumed, *end = strchr(name, '"');
            int joint = end ? joint_by_name(name, (size_t)(end - name)) : -1;
            if (joint >= 0) {
                model_uid[models] = uid;
                model_joint[models++] = joint;
            }
        } else if (sscanf(line, "C: \"OO\", %lld, %lld", &uid, &other) == 2) {
            if (links == MAX_LINKS) {
                free(text);
                errno = EOVERFLOW;
                return false;
            }
            link_model[links] = uid;
            cluster_uid[links++] = other;
        }
    }
    int rewritten = 0;
    /* pass 2: copy, replacing the "a:" line after each cluster's TransformLink */
    char *out = xcalloc(size + 4096, 1);
    size_t o = 0;
    int joint = -1;
    bool replace_next = false, link = false;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line + 1) : strlen(line);
        const char *content = line;
        while (*content == '\t' || *content == ' ') content++;
        long long uid = 0;
        if (sscanf(content, "Deformer: %lld, \"SubDeformer::\"", &uid) == 1) {
            joint = -1;
            for (int l = 0; l < links && joint < 0; l++)
                if (cluster_uid[l] == uid)
                    for (int m = 0; m < models; m++)
                        if (model_uid[m] == link_model[l]) joint = model_joint[m];
        } else if (strncmp(content, "Transform:", 10) == 0) {
            replace_next = joint >= 0;
            link = false;
        } else if (strncmp(content, "TransformLink:", 14) == 0) {
            replace_next = joint >= 0;
            link = true;
        } else if (replace_next && strncmp(content, "a: ", 3) == 0) {
            const float s = 1.0f / ARMATURE_UNITS_PER_METRE;
            const float *h = JOINTS[joint].head;
            float h_armature[3];
            to_armature_point(h, h_armature);
            const float bone_bind[16] = {s, 0, 0, 0, 0, 0, -s, 0, 0, s, 0, 0, h[0], h[1], h[2], 1};
            const float offset[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                      -h_armature[0], -h_armature[1], -h_armature[2], 1};
            const float *m = link ? bone_bind : offset;
            o += (size_t)sprintf(out + o, "%.*sa: ", (int)(content - line), line);
            for (int i = 0; i < 16; i++) o += (size_t)sprintf(out + o, i ? ",%.15g" : "%.15g", (double)m[i]);
            out[o++] = '\n';
            replace_next = false;
            rewritten++;
            line += length;
            continue;
        }
        memcpy(out + o, line, length);
        o += length;
        line += length;
    }
    if (rewritten != 2 * JOINT_COUNT) {   /* one cluster per joint, each matched: else the file is not what we think */
        free(out);
        free(text);
        errno = EPROTO;
        return false;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(out, 1, o, f) == o;
    if (f && fclose(f) != 0) ok = false;
    free(out);
    free(text);
    return ok;
}

/* Assimp 5.2's glTF 2 exporter leaves a gap in the binary buffer that no bufferView
 * uses (the size of the JOINTS_0 data) and does not clear it: the file would carry
 * whatever the heap held. Zero every byte of the BIN chunk outside the bufferViews. */
static bool clear_unused_glb_bytes(const char *path)
{
    size_t size = 0;
    unsigned char *glb = (unsigned char *)read_file(path, &size);
    if (!glb) return false;
    uint32_t json_length = 0, bin_length = 0;
    bool ok = size >= 28 && memcmp(glb, "glTF", 4) == 0;
    if (ok) memcpy(&json_length, glb + 12, 4);
    ok = ok && (size_t)json_length + 28 <= size && memcmp(glb + 16, "JSON", 4) == 0;
    size_t bin_start = 20 + (size_t)json_length + 8;
    if (ok) memcpy(&bin_length, glb + 20 + json_length, 4);
    ok = ok && bin_start + bin_length <= size && memcmp(glb + 24 + json_length, "BIN", 3) == 0;
    if (!ok) {
        free(glb);
        errno = EINVAL;
        return false;
    }
    /* used[] marks the bytes of every bufferView {"byteOffset": N, "byteLength": M} */
    unsigned char *used = xcalloc(bin_length, 1);
    char *json = xcalloc((size_t)json_length + 1, 1);
    memcpy(json, glb + 20, json_length);
    char *views = strstr(json, "\"bufferViews\"");
    char *views_end = views ? strchr(views, ']') : NULL;
    for (char *object = views ? strchr(views, '{') : NULL; object && object < views_end;
         object = strchr(object + 1, '{')) {
        char *object_end = strchr(object, '}');
        *object_end = '\0';
        char *offset_key = strstr(object, "\"byteOffset\""), *length_key = strstr(object, "\"byteLength\"");
        unsigned long offset = offset_key ? strtoul(strchr(offset_key, ':') + 1, NULL, 10) : 0;
        unsigned long length = length_key ? strtoul(strchr(length_key, ':') + 1, NULL, 10) : 0;
        for (unsigned long b = offset; b < offset + length && b < bin_length; b++) used[b] = 1;
        *object_end = '}';
        object = object_end;
    }
    for (uint32_t b = 0; b < bin_length; b++)
        if (!used[b]) glb[bin_start + b] = 0;
    FILE *f = fopen(path, "wb");
    ok = f && fwrite(glb, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = false;
    free(json);
    free(used);
    free(glb);
    return ok;
}

static bool export_as(const struct aiScene *scene, const char *format, const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (aiExportScene(scene, format, path, 0) != aiReturn_SUCCESS) {
        const char *cause = aiGetErrorString();
        fprintf(stderr, "make_demo_model: %s: export as %s failed: %s\n", path, format,
                cause && cause[0] ? cause : "cannot write the file");
        return false;
    }
    if (strcmp(format, "fbxa") == 0 && !(normalize_fbx_text(path) && write_fbx_bind_matrices(path))) {
        fprintf(stderr, "make_demo_model: %s: cannot rewrite: %s\n", path, strerror(errno));
        return false;
    }
    if (strcmp(format, "glb2") == 0 && !clear_unused_glb_bytes(path)) {
        fprintf(stderr, "make_demo_model: %s: cannot rewrite: %s\n", path, strerror(errno));
        return false;
    }
    printf("wrote %s\n", path);
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: make_demo_model OUTDIR   (writes OUTDIR/demo.fbx and OUTDIR/demo.glb)\n");
        return 2;
    }
    if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "make_demo_model: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    Geometry geometry = {0};
    build_body(&geometry);
    struct aiScene *fbx_scene = build_scene(&geometry, MESH_IN_ARMATURE_SPACE);
    struct aiScene *gltf_scene = build_scene(&geometry, MESH_IN_SCENE_SPACE);
    printf("demo character: %d joints, %d vertices, %d triangles, %d clips\n", JOINT_COUNT, geometry.vertex_count,
           geometry.index_count / 3, CLIP_COUNT);
    bool ok = export_as(fbx_scene, "fbxa", argv[1], "demo.fbx") && export_as(gltf_scene, "glb2", argv[1], "demo.glb");
    free_scene(fbx_scene);
    free_scene(gltf_scene);
    free(geometry.vertices);
    free(geometry.indices);
    return ok ? 0 : 1;
}
