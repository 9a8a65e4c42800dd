/* inspect.h — one vertex taken through the skinning formula, with every number on the way
 * (the vertex inspector: `skinview --inspect-vertex MESH:INDEX [--json]`, a click in the viewer).
 *
 * Plain C + cglm, no GL, no allocation: the caller owns the VertexInspection (a few KiB).
 *
 * The formula, in the code's convention (cglm, column vectors: p' = M * p, right to left):
 *
 *   p        = p_stored + sum_t w_t * delta_t            morph targets first, in mesh space
 *   palette_k = M_j(k) * B_k^-1                          B_k^-1 = offset (inverse bind) matrix of bone k,
 *                                                        M_j(k) = model-space matrix of its joint now
 *   p_bone_k = B_k^-1 * p                                the vertex in bone k's space (fixed over time)
 *   p'       = sum_k w_k * (palette_k * p)               linear blend skinning: the weighted sum
 *
 * For a mesh whose FBX node moved after binding (Mesh.skin_follows_node) every palette entry is
 * premultiplied by F = M_node * inverse(M_node at bind) (skin_palette_follow_node); the
 * inspector shows the palette the renderer uses and says so (follows_node). In the bind pose
 * the palette is N (the mesh's bind matrix) for every bone, which equals M_j * B_k^-1 there.
 */
#ifndef SKINVIEW_INSPECT_H
#define SKINVIEW_INSPECT_H

#include "skin_dq.h"   /* Animator, SkinDqPose */

#define INSPECT_MAX_MORPHS 16   /* morph steps listed one by one; more are summed into `other` */

/* One (bone, weight) pair of the vertex: bone<k>info of the shader, with everything it moves. */
typedef struct InspectInfluence {
    int         slot;            /* 0..3: bone<slot>info */
    int         bone;            /* palette index (into Mesh.bone_joint / inverse_bind) */
    int         joint;           /* skeleton joint of that bone */
    const char *joint_name;      /* points into the model's skeleton */
    float       weight;          /* w_k */
    mat4        joint_model;     /* M_j: the joint's model-space (scene) matrix now */
    mat4        offset;          /* B_k^-1: mesh space -> bone space at bind time */
    mat4        palette;         /* the skin matrix the shader gets: M_j * B_k^-1 (F * ... when follows_node) */
    vec3        bone_space;      /* B_k^-1 * p: the vertex in the bone's space */
    vec3        moved;           /* palette_k * p: where bone k alone would put the vertex */
    vec3        term;            /* w_k * palette_k * p */
} InspectInfluence;

/* One active morph target's step: p += weight * delta. */
typedef struct InspectMorph {
    int         target;
    const char *name;            /* points into the mesh ("" for unnamed glTF targets) */
    float       weight;
    vec3        delta;           /* delta_t at this vertex */
    vec3        weighted;        /* weight * delta */
} InspectMorph;

typedef struct VertexInspection {
    int   mesh, vertex;
    const char *mesh_name;
    bool  skinned;
    bool  follows_node;          /* palette entries include F (see above) */
    vec3  stored_position;       /* as stored in the file, mesh space */
    vec3  stored_normal;
    int   morph_count;           /* active targets (non-zero weight) of the mesh */
    int   morph_listed;          /* of them, the first min(morph_count, INSPECT_MAX_MORPHS) in morphs[] */
    InspectMorph morphs[INSPECT_MAX_MORPHS];
    vec3  morph_other;           /* sum of weight * delta of the targets not listed */
    vec3  position;              /* p: the morphed mesh-space position skinning starts from */
    vec3  normal;                /* n: morphed normal (not normalised) */
    int   influence_count;       /* non-zero weights, listed in influences[] in slot order */
    InspectInfluence influences[SV_MAX_INFLUENCES];
    int   heaviest;              /* index into influences[] of the largest weight (rigid mode), -1 static */
    vec3  sum;                   /* sum_k w_k * palette_k * p: linear blend skinning, scene space */
    vec3  sum_normal;            /* normalize(sum_k w_k * mat3(palette_k) * n) */
    mat4  node_model;            /* static mesh: its node's model matrix (p' = node * p); identity if skinned */
    vec3  lbs;                   /* scene position by LBS (= sum; static: node_model * p) */
    vec3  rigid;                 /* by rigid mode: palette_heaviest * p */
    vec3  dq;                    /* by dual quaternion skinning (when a SkinDqPose was given; else = lbs) */
    bool  dq_valid;              /* dq was computed by DQS (not the LBS fallback of a non-rigid palette) */
} VertexInspection;

/* Index (0..3) of the slot with the largest weight; the first of equal weights (rigid mode). */
int skin_heaviest_slot(const float weights[SV_MAX_INFLUENCES]);

/* Fills `out` for vertex `vertex` of mesh `mesh` at the animator's current pose (evaluate it
 * first). `dq` (may be NULL): the pose's dual quaternions (skin_dq_pose_update done) for out->dq.
 * False when the mesh or vertex index is out of range. No allocation. */
bool vertex_inspect(const Animator *animator, const SkinDqPose *dq, int mesh, int vertex, VertexInspection *out);

/* "p' = sum_k w_k * (M_j(k) * B_k^-1) * p ..." — the formula block, several lines. */
const char *vertex_inspect_formula(void);

/* How vertex_inspect_format writes the matrices. */
typedef enum InspectTextLayout {
    INSPECT_TEXT_NO_MATRICES = 0,
    INSPECT_TEXT_STACKED = 1       /* M_j, B^-1, palette one under the other (--inspect-vertex); the viewer's
                                      panel draws them in aligned columns itself (teach/panels.c) */
} InspectTextLayout;

/* The same, short, for the viewer's panel. */
const char *vertex_inspect_formula_short(void);

/* The inspection as text (the viewer's panel, `--inspect-vertex` without --json): the formula,
 * then the numbers. Returns the length written (truncated to out_size). */
int vertex_inspect_format(const VertexInspection *info, InspectTextLayout layout, char *out, size_t out_size);

#endif
