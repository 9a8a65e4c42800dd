/* skin_dq.h — dual quaternion skinning (DQS): the palette as unit dual quaternions, and the
 * CPU reference that shaders/skinned_dq.vert is checked against (`skinview --skinning dq --verify`).
 *
 * Plain C + cglm, no allocation (the caller owns every buffer), like the rest of src/anim.
 *
 *   skin_palette_to_dq()   palette (mat4 per bone) -> one unit dual quaternion + one stretch
 *                          (scale/shear) per bone, or "no split" (then the mesh falls back to LBS)
 *   skin_vertices_dq()     dual quaternions + stretches + bind mesh -> posed positions and normals
 *
 * A unit dual quaternion  q^ = r + eps * d  holds a rotation r (unit quaternion) and a
 * translation t:  d = 1/2 * (t, 0) * r.  Blending w_k-weighted dual quaternions and dividing by
 * |sum w_k r_k| gives again a rigid transform, so a twisted limb keeps its radius where linear
 * blend skinning (skin_vertices_lbs) averages matrices and pinches it ("candy wrapper").
 *
 * Scale and shear: a unit dual quaternion cannot hold them. skin_palette_to_dq() splits every
 * bone's palette matrix by its polar decomposition, M_i = D_i * P_i: D_i rigid (the dual
 * quaternion), P_i symmetric (the bone's scale and shear, in mesh space: the "stretch"). A vertex
 * is stretched by the weighted mean of the P_i first and then moved by the blended D — rotations
 * and translations blend as dual quaternions, scale blends linearly, as Maya's and ufbx's DQ
 * with scaled joints do (a uniform FBX unit scale of 0.01 or 100 is P = s I). A mirrored bone
 * (negative determinant) or a degenerate one (scaled to zero) has no such split: the mesh then
 * falls back to LBS (the viewer prints a one-line notice).
 *
 * Per-vertex blend (FBX SkinningType "Blend", Mesh.dq_weight): vertex v takes dq_weight[v] of
 * the DQS position and 1 - dq_weight[v] of the LBS one; the LBS matrices are rebuilt exactly
 * from the same split (M_i = D_i P_i), so the GPU needs no second palette.
 */
#ifndef SKINVIEW_SKIN_DQ_H
#define SKINVIEW_SKIN_DQ_H

#include "animator.h"

/* How vertices are skinned (`--skinning gpu|cpu|dq|rigid`, the viewer's key K). */
typedef enum SkinningMethod {
    SKINNING_GPU_LBS = 0,   /* shaders/skinned.vert: linear blend skinning on the GPU */
    SKINNING_CPU_LBS,       /* skin_vertices_lbs() each frame, positions + normals uploaded */
    SKINNING_GPU_DQ,        /* shaders/skinned_dq.vert: dual quaternion skinning on the GPU */
    SKINNING_RIGID,         /* shaders/skinned.vert with rigidSkinning: each vertex follows its heaviest
                               joint only (CPU reference skin_vertices_rigid) */
    SKINNING_METHOD_COUNT
} SkinningMethod;

/* "GPU LBS", "CPU LBS", "GPU DQS", "GPU rigid". */
const char *skinning_method_label(SkinningMethod method);

/* One rigid transform as a unit dual quaternion, cglm quaternion order (x, y, z, w). */
typedef struct DualQuat {
    versor real;   /* rotation r, |r| = 1 */
    versor dual;   /* d = 1/2 * (t, 0) * r */
} DualQuat;

/* Why a mesh palette could not be converted (SKIN_DQ_OK: it was). */
typedef enum SkinDqStatus {
    SKIN_DQ_OK = 0,
    SKIN_DQ_DEGENERATE,          /* a bone's matrix is singular (scaled to zero) or not finite */
    SKIN_DQ_MIRROR               /* a bone's matrix has a negative determinant */
} SkinDqStatus;

/* The non-rigid part P of a bone's palette matrix M = D * P (polar decomposition): symmetric 3x3,
 * packed in two vec4 as the shader reads it: v[0] = (p00, p11, p22, p01), v[1] = (p02, p12, 0, 0). */
typedef struct DqStretch {
    vec4 v[2];
} DqStretch;

/* One line naming the status, e.g. "a mirrored bone (negative determinant)". */
const char *skin_dq_status_text(SkinDqStatus status);

/* Rigid matrix (rotation + translation, no scale) -> unit dual quaternion:
 *   r = quaternion of mat3(m),  d = 1/2 * (t, 0) * r,  t = m[3]. */
void dq_from_rigid_matrix(const mat4 m, DualQuat *out);

/* Moves point p (w = 1) by the unit dual quaternion q:  p' = r p r* + t,  t = 2 * d * r*. */
void dq_transform_point(const DualQuat *q, const vec3 p, vec3 out);

/* Converts the palette of `mesh` (bone_count matrices) to dual quaternions and stretches:
 *   mat3(palette_i) = Q_i * P_i     (polar decomposition: Q_i the rotation nearest to it, P_i symmetric)
 *   out[i] = dual quaternion of (Q_i, t_i),  out_stretch[i] = P_i,  t_i = palette_i[3].
 * Returns SKIN_DQ_OK, or why a bone has no such split (then the outputs hold garbage and the mesh
 * must be skinned with LBS). A static mesh (bone_count 0) is OK. */
SkinDqStatus skin_palette_to_dq(const Mesh *mesh, const mat4 *palette, DualQuat *out, DqStretch *out_stretch);

/* Dual quaternion skinning on the CPU — the reference shaders/skinned_dq.vert is checked against:
 *   b  = sum_k w_k * sign_k * q_k     sign_k = -1 when dot(r_k, r_0) < 0 (antipodality: q and -q
 *                                      are the same transform; align to the first influence)
 *   b /= |b.real|                      (normalise the blend)
 *   P  = sum_k w_k P_k / sum_k w_k     (the stretch blends linearly)
 *   p_dq  = b moves (P p)              n_dq  = rotation of b applied to (P n)
 *   p_lbs = sum_k w_k D_k P_k p        (= the palette, rebuilt; only where the vertex needs it)
 *   p' = dq_weight * p_dq + (1 - dq_weight) * p_lbs     (dq_weight[v] of the mesh, 1 without one)
 * For a static mesh, `dq` is ignored and `node_model` is applied instead (as skin_vertices_lbs
 * does). out_normals may be NULL. */
void skin_vertices_dq(const Mesh *mesh, const DualQuat *dq, const DqStretch *stretch, const mat4 node_model,
                      vec3 *out_positions, vec3 *out_normals);

/* ---- per model instance: the dual quaternion palettes of every mesh ---------------- */

/* What skinview keeps per model for DQS, allocated once (skin_dq_pose_init), refreshed each
 * frame after animator_evaluate() (skin_dq_pose_update; no allocation). */
typedef struct SkinDqPose {
    int           mesh_count;
    DualQuat    **dq;        /* [mesh_count][bone_count] */
    DqStretch   **stretch;   /* [mesh_count][bone_count] the non-rigid part of each palette matrix */
    SkinDqStatus *status;    /* [mesh_count] SKIN_DQ_OK, or why that mesh falls back to LBS */
} SkinDqPose;

bool skin_dq_pose_init(SkinDqPose *pose, const Model *model);
void skin_dq_pose_free(SkinDqPose *pose);

/* Converts every skinned mesh's palette of `animator` (skin_palette_to_dq). Returns the number
 * of skinned meshes that fall back to LBS (status != SKIN_DQ_OK). */
int skin_dq_pose_update(SkinDqPose *pose, const Animator *animator);

/* Posed vertices of mesh m in scene space by DQS (the CPU reference), or by LBS
 * (animator_skin_mesh) when that mesh falls back. */
void skin_dq_pose_skin_mesh(const SkinDqPose *pose, const Animator *animator, int mesh, vec3 *out_positions,
                            vec3 *out_normals);

/* Posed vertices of mesh m skinned on the CPU by `method`: DQS (skin_dq_pose_skin_mesh, `pose`
 * updated), rigid (skin_vertices_rigid from the morphed vertices), else LBS (animator_skin_mesh).
 * pose may be NULL for the other methods. No allocation. */
void skin_mesh_by_method(SkinningMethod method, const SkinDqPose *pose, const Animator *animator, int mesh,
                         vec3 *out_positions, vec3 *out_normals);

/* The difference view (--compare A,B): distance[v] = |p_A(v) - p_B(v)| for every vertex of mesh m,
 * both skinned on the CPU (skin_mesh_by_method) into scratch_a / scratch_b (vertex_count
 * each). Returns the largest distance of the mesh. No allocation. */
float skin_compare_mesh(SkinningMethod a, SkinningMethod b, const SkinDqPose *pose, const Animator *animator, int mesh,
                        vec3 *scratch_a, vec3 *scratch_b, float *distance);

#endif
