/* fbx_transform.h — the FBX node transform, in double precision (stage 2 of the FBX reader).
 *
 * One FBX Model's properties -> its local transform (fbx_node_local), its geometric transform
 * (fbx_node_geometric), and the node-to-world matrix with its InheritType (fbx_node_world).
 * Pure functions of plain numbers: no document, no Assimp. docs/skinning.md ("The FBX node
 * transform") tells the story; tests/io/test_fbx_transform.c checks every term.
 *
 * Conventions: column vectors (p' = M p), matrices column-major double[16] (m[4*column + row]),
 * quaternions (x, y, z, w), angles in degrees as the file stores them.
 */
#ifndef SKINVIEW_FBX_TRANSFORM_H
#define SKINVIEW_FBX_TRANSFORM_H

#include <stdbool.h>

/* FBX EFbxRotationOrder: the letters name the axes in the order they are APPLIED ("XYZ": first
 * about X, then Y, then Z: R = Rz · Ry · Rx with column vectors). 6 (spheric XYZ) reads as XYZ. */
enum { FBX_ORDER_XYZ, FBX_ORDER_XZY, FBX_ORDER_YZX, FBX_ORDER_YXZ, FBX_ORDER_ZXY, FBX_ORDER_ZYX };

/* FBX InheritType: how a parent's scale reaches the child (upper case: parent, lower: child). */
enum {
    FBX_INHERIT_RrSs = 0,   /* parent rotation, child rotation, parent scale, child scale: the parent's
                               scale applied per axis in the child's frame (no shear) */
    FBX_INHERIT_RSrs = 1,   /* the plain matrix product parent_world · local (Maya transforms) */
    FBX_INHERIT_Rrs = 2,    /* the parent's own scale not inherited (Maya "segment scale compensate") */
};

/* The transform properties of one Model (Properties70), as numbers. */
typedef struct FbxNodeProperties {
    double translation[3];          /* Lcl Translation */
    double rotation[3];             /* Lcl Rotation (degrees, in rotation_order) */
    double scaling[3];              /* Lcl Scaling */
    double pre_rotation[3];         /* PreRotation (degrees, always XYZ) */
    double post_rotation[3];        /* PostRotation (degrees, always XYZ; applied inverted) */
    double rotation_offset[3], rotation_pivot[3];
    double scaling_offset[3], scaling_pivot[3];
    double geometric_translation[3], geometric_rotation[3], geometric_scaling[3];
    int    rotation_order;          /* RotationOrder 0..5 */
    bool   rotation_active;         /* RotationActive (true when the file does not say) */
    bool   rotation_space_for_limit_only; /* RotationSpaceForLimitOnly */
    int    inherit_type;            /* InheritType 0..2 */
} FbxNodeProperties;

/* Every property at its FBX default (zeros, unit scales, XYZ, rotation active, RSrs). */
void fbx_node_properties_default(FbxNodeProperties *node);

/* translation · rotation · scale: what every FBX local transform comes down to. */
typedef struct FbxTrs {
    double translation[3];
    double rotation[4];             /* unit quaternion x, y, z, w */
    double scale[3];
} FbxTrs;

/* Euler angles (degrees) applied in `order` -> unit quaternion. */
void fbx_euler_to_quat(const double degrees[3], int order, double q[4]);

/* The local transform of a node:
 *   local = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
 * T = Lcl Translation, R = Lcl Rotation in the node's RotationOrder, Rpre / Rpost = PreRotation /
 * PostRotation (XYZ whatever the node's order), Roff / Rp = RotationOffset / RotationPivot, Soff /
 * Sp = ScalingOffset / ScalingPivot, S = Lcl Scaling. When RotationActive is 0 (or
 * RotationSpaceForLimitOnly is set) the rotation space is off: Rpre = Rpost = identity and R is
 * read as XYZ. Everything right of Sp·S·Sp⁻¹ is rigid and Sp·S·Sp⁻¹ = translate(Sp − S·Sp) · S,
 * so the product is always exactly translation · rotation · scale: that is what it returns. */
void fbx_node_local(const FbxNodeProperties *node, FbxTrs *local);

/* The geometric transform (3ds Max object offset): Gt · Gr · Gs, Gr in XYZ. It places the
 * node's geometry in the node and is never inherited by children. */
void fbx_node_geometric(const FbxNodeProperties *node, FbxTrs *geometric);

/* A node placed in the world. */
typedef struct FbxNodeWorld {
    double node_to_world[16];
    double unscaled_node_to_world[16]; /* the same without the node's own (accumulated) scale */
    double inherit_scale[3];           /* the scale a RrSs / Rrs child multiplies in */
    FbxTrs frame_local;                /* the node in its frame, as a TRS: RSrs (and roots) its local
                                          transform in the parent's world, RrSs / Rrs the TRS below in
                                          the parent's unscaled frame: node_to_world = frame · TRS, with
                                          no inversion (exact, and finite when a scale is 0) */
} FbxNodeWorld;

/* The node-to-world transform of a node with local transform `local` and InheritType
 * `inherit_type` under `parent` (NULL: a root). `scale_source` is the node whose inherit_scale
 * the child's scale takes (fbx_scale_source tells which; NULL: none):
 *   RSrs:        world = parent.world · local
 *   RrSs, Rrs:   world = parent.unscaled · TRS(t ∘ parent.inherit_scale, r, s ∘ scale_source.inherit_scale)
 * (∘: per axis). */
void fbx_node_world(const FbxNodeWorld *parent, const FbxNodeWorld *scale_source, int inherit_type,
                    const FbxTrs *local, FbxNodeWorld *out);

/* Index of the node whose scale a node inherits, given its parent's index and the parents'
 * own inherit types and scale sources (computed parents first): RrSs -> the parent; Rrs -> the
 * parent's scale source unless the parent is RSrs (whose matrix already carries the scale
 * above it): -1; RSrs -> -1 (the matrix product carries it). */
int fbx_scale_source(int inherit_type, int parent, int parent_inherit_type, int parent_scale_source);

/* ---- double matrices (column-major) ---- */
void fbx_trs_to_matrix(const FbxTrs *trs, double m[16]);
void fbx_matrix_mul(const double a[16], const double b[16], double out[16]);
/* False (and `out` unchanged) for a singular matrix. */
bool fbx_matrix_invert(const double m[16], double out[16]);
/* m = translation · rotation · scale (+ shear it cannot hold): column lengths for the scale,
 * one axis flipped when the determinant is negative, the rotation from the normalised columns.
 * Returns the largest |m - TRS(result)| entry over the matrix's largest entry (0: exact). */
double fbx_matrix_to_trs(const double m[16], FbxTrs *out);
void fbx_matrix_identity(double m[16]);

#endif
