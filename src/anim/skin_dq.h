/* skin_dq.h — dual quaternion skinning (DQS): the palette as unit dual quaternions, and the
 * CPU reference that shaders/skinned_dq.vert is checked against (`skinview --skinning dq --verify`).
 *
 * Plain C + cglm, no allocation (the caller owns every buffer), like the rest of src/anim.
 *
 *   skin_palette_to_dq()   palette (mat4 per bone) -> one unit dual quaternion per bone + a
 *                          uniform mesh scale, or "not rigid" (then the mesh falls back to LBS)
 *   skin_vertices_dq()     dual quaternions + bind mesh -> posed positions and normals
 *
 * A unit dual quaternion  q^ = r + eps * d  holds a rotation r (unit quaternion) and a
 * translation t:  d = 1/2 * (t, 0) * r.  Blending w_k-weighted dual quaternions and dividing by
 * |sum w_k r_k| gives again a rigid transform, so a twisted limb keeps its radius where linear
 * blend skinning (skin_vertices_lbs) averages matrices and pinches it ("candy wrapper").
 *
 * Scale: a unit dual quaternion cannot hold scale. skin_palette_to_dq() factors ONE uniform
 * scale s out of the whole mesh palette, palette_i = D_i * S(s) (D_i rigid), so a vertex is
 * scaled by s in mesh space first and then moved by the blended D (an FBX file's unit scale of
 * 0.01 or 100 lives there). When a bone's palette matrix has a non-uniform scale, shear or a
 * mirror, or the bones' uniform scales differ, no such factoring exists: the function says so
 * and the caller skins that mesh with LBS instead (the viewer prints a one-line notice).
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

/* Relative tolerance of "uniform": column lengths of mat3(palette_i) within 1e-3 of the
 * mesh scale, columns orthogonal to 1e-3 (cosine), determinant positive. */
#define SKIN_DQ_SCALE_TOLERANCE 1e-3f

/* One rigid transform as a unit dual quaternion, cglm quaternion order (x, y, z, w). */
typedef struct DualQuat {
    versor real;   /* rotation r, |r| = 1 */
    versor dual;   /* d = 1/2 * (t, 0) * r */
} DualQuat;

/* Why a mesh palette could not be converted (SKIN_DQ_OK: it was). */
typedef enum SkinDqStatus {
    SKIN_DQ_OK = 0,
    SKIN_DQ_NON_UNIFORM_SCALE,   /* a bone scales its axes differently (or shears) */
    SKIN_DQ_MIXED_SCALE,         /* uniform per bone, but not the same for every bone */
    SKIN_DQ_MIRROR               /* a bone's matrix has a negative determinant */
} SkinDqStatus;

/* One line naming the status, e.g. "non-uniform scale on a bone". */
const char *skin_dq_status_text(SkinDqStatus status);

/* Rigid matrix (rotation + translation, no scale) -> unit dual quaternion:
 *   r = quaternion of mat3(m),  d = 1/2 * (t, 0) * r,  t = m[3]. */
void dq_from_rigid_matrix(const mat4 m, DualQuat *out);

/* Moves point p (w = 1) by the unit dual quaternion q:  p' = r p r* + t,  t = 2 * d * r*. */
void dq_transform_point(const DualQuat *q, const vec3 p, vec3 out);

/* Converts the palette of `mesh` (bone_count matrices) to dual quaternions:
 *   s = mean column length of mat3(palette_i) over the bones,  D_i = palette_i * S(1/s),
 *   out[i] = dual quaternion of D_i.
 * Writes the scale s to *out_scale. Returns SKIN_DQ_OK, or why no uniform s exists (then out[]
 * holds garbage and the mesh must be skinned with LBS). A static mesh (bone_count 0) is OK
 * with s = 1. */
SkinDqStatus skin_palette_to_dq(const Mesh *mesh, const mat4 *palette, DualQuat *out, float *out_scale);

/* Dual quaternion skinning on the CPU — the reference shaders/skinned_dq.vert is checked against:
 *   b  = sum_k w_k * sign_k * q_k     sign_k = -1 when dot(r_k, r_0) < 0 (antipodality: q and -q
 *                                      are the same transform; align to the first influence)
 *   b /= |b.real|                      (normalise the blend)
 *   p' = b moves (s * p)               n' = rotation of b applied to n
 * `scale` is the mesh scale s from skin_palette_to_dq(). For a static mesh, `dq` is ignored and
 * `node_model` is applied instead (as skin_vertices_lbs does). out_normals may be NULL. */
void skin_vertices_dq(const Mesh *mesh, const DualQuat *dq, float scale, const mat4 node_model,
                      vec3 *out_positions, vec3 *out_normals);

/* ---- per model instance: the dual quaternion palettes of every mesh ---------------- */

/* What skinview keeps per model for DQS, allocated once (skin_dq_pose_init), refreshed each
 * frame after animator_evaluate() (skin_dq_pose_update; no allocation). */
typedef struct SkinDqPose {
    int           mesh_count;
    DualQuat    **dq;        /* [mesh_count][bone_count] */
    float        *scale;     /* [mesh_count] the factored-out uniform scale s */
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

/* Posed vertices of mesh m by the CPU reference of `method`: DQS (skin_dq_pose_skin_mesh, `pose`
 * updated), rigid (skin_vertices_rigid from the morphed vertices), else LBS (animator_skin_mesh).
 * pose may be NULL for the other methods. No allocation. */
void skin_mesh_by_method(SkinningMethod method, const SkinDqPose *pose, const Animator *animator, int mesh,
                         vec3 *out_positions, vec3 *out_normals);

/* The difference view (--compare A,B): distance[v] = |p_A(v) - p_B(v)| for every vertex of mesh m,
 * both by their CPU references (skin_mesh_by_method) into scratch_a / scratch_b (vertex_count
 * each). Returns the largest distance of the mesh. No allocation. */
float skin_compare_mesh(SkinningMethod a, SkinningMethod b, const SkinDqPose *pose, const Animator *animator, int mesh,
                        vec3 *scratch_a, vec3 *scratch_b, float *distance);

#endif
