/* fbx_transform.c — the FBX node transform in double precision (see fbx_transform.h). */
#include "fbx_transform.h"

#include <math.h>
#include <string.h>

#define DEG_TO_RAD (3.14159265358979323846 / 180.0)

static void set3(double v[3], double x, double y, double z)
{
    v[0] = x;
    v[1] = y;
    v[2] = z;
}

void fbx_node_properties_default(FbxNodeProperties *node)
{
    memset(node, 0, sizeof *node);
    set3(node->scaling, 1, 1, 1);
    set3(node->geometric_scaling, 1, 1, 1);
    node->rotation_order = FBX_ORDER_XYZ;
    node->rotation_active = true;
    node->inherit_type = FBX_INHERIT_RSrs;
}

/* ---- quaternions ---- */

/* out = a · b (apply b first, then a) */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(out, r, sizeof r);
}

/* v' = q v q⁻¹, as v + w t + q.xyz × t with t = 2 q.xyz × v */
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    double t[3] = {2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]), 2 * (q[0] * v[1] - q[1] * v[0])};
    double r[3] = {v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]), v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
                   v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0])};
    memcpy(out, r, sizeof r);
}

void fbx_euler_to_quat(const double degrees[3], int order, double q[4])
{
    double axis[3][4];   /* the rotation about each axis alone */
    for (int k = 0; k < 3; k++) {
        double half = degrees[k] * DEG_TO_RAD * 0.5;
        axis[k][0] = axis[k][1] = axis[k][2] = 0.0;
        axis[k][k] = sin(half);
        axis[k][3] = cos(half);
    }
    /* the axes in the order they are applied: q = q_third · q_second · q_first */
    static const int applied[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    const int *a = applied[order >= 0 && order < 6 ? order : 0];
    double first_two[4];
    quat_mul(axis[a[1]], axis[a[0]], first_two);
    quat_mul(axis[a[2]], first_two, q);
}

/* ---- the local transform, built from the right: each step multiplies on the left ---- */

static void trs_identity(FbxTrs *t)
{
    memset(t, 0, sizeof *t);
    t->rotation[3] = 1.0;
    set3(t->scale, 1, 1, 1);
}

static void trs_translate(FbxTrs *t, const double v[3], double sign)
{
    for (int k = 0; k < 3; k++) t->translation[k] += sign * v[k];
}

/* scale(v) · t, valid while t has no rotation yet (the scale steps come first) */
static void trs_scale(FbxTrs *t, const double v[3])
{
    for (int k = 0; k < 3; k++) {
        t->translation[k] *= v[k];
        t->scale[k] *= v[k];
    }
}

static void trs_rotate(FbxTrs *t, const double q[4])
{
    quat_mul(q, t->rotation, t->rotation);
    quat_rotate(q, t->translation, t->translation);
}

void fbx_node_local(const FbxNodeProperties *node, FbxTrs *local)
{
    bool rotation_space = node->rotation_active && !node->rotation_space_for_limit_only;
    FbxTrs t;
    trs_identity(&t);
    trs_translate(&t, node->scaling_pivot, -1);   /* Sp⁻¹ */
    trs_scale(&t, node->scaling);                 /* S */
    trs_translate(&t, node->scaling_pivot, 1);    /* Sp */
    trs_translate(&t, node->scaling_offset, 1);   /* Soff */
    trs_translate(&t, node->rotation_pivot, -1);  /* Rp⁻¹ */
    double q[4];
    if (rotation_space) {
        fbx_euler_to_quat(node->post_rotation, FBX_ORDER_XYZ, q);
        q[0] = -q[0], q[1] = -q[1], q[2] = -q[2];  /* Rpost⁻¹ */
        trs_rotate(&t, q);
    }
    fbx_euler_to_quat(node->rotation, rotation_space ? node->rotation_order : FBX_ORDER_XYZ, q);
    trs_rotate(&t, q);                            /* R */
    if (rotation_space) {
        fbx_euler_to_quat(node->pre_rotation, FBX_ORDER_XYZ, q);
        trs_rotate(&t, q);                        /* Rpre */
    }
    trs_translate(&t, node->rotation_pivot, 1);   /* Rp */
    trs_translate(&t, node->rotation_offset, 1);  /* Roff */
    trs_translate(&t, node->translation, 1);      /* T */
    *local = t;
}

void fbx_node_geometric(const FbxNodeProperties *node, FbxTrs *geometric)
{
    FbxTrs t;
    trs_identity(&t);
    trs_scale(&t, node->geometric_scaling);
    double q[4];
    fbx_euler_to_quat(node->geometric_rotation, FBX_ORDER_XYZ, q);
    trs_rotate(&t, q);
    trs_translate(&t, node->geometric_translation, 1);
    *geometric = t;
}

/* ---- matrices ---- */

void fbx_matrix_identity(double m[16])
{
    memset(m, 0, sizeof(double) * 16);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

void fbx_trs_to_matrix(const FbxTrs *trs, double m[16])
{
    const double *q = trs->rotation;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                   2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) m[4 * c + row] = r[3 * c + row] * trs->scale[c];
        m[4 * c + 3] = 0.0;
    }
    for (int row = 0; row < 3; row++) m[12 + row] = trs->translation[row];
    m[15] = 1.0;
}

void fbx_matrix_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double sum = 0.0;
            for (int k = 0; k < 4; k++) sum += a[4 * k + row] * b[4 * c + k];
            r[4 * c + row] = sum;
        }
    memcpy(out, r, sizeof r);
}

/* The 3x3 determinant of m (column-major, m[4 * column + row]) without row `skip_row` and column
 * `skip_column`: the minor M(skip_row, skip_column). */
static double minor3(const double m[16], int skip_row, int skip_column)
{
    double a[9];
    int k = 0;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4 && c != skip_column; row++)
            if (row != skip_row) a[k++] = m[4 * c + row];
    /* a is column-major 3x3: det = a00 (a11 a22 - a12 a21) - a01 (a10 a22 - a12 a20) + a02 (a10 a21 - a11 a20) */
    return a[0] * (a[4] * a[8] - a[7] * a[5]) - a[3] * (a[1] * a[8] - a[7] * a[2]) + a[6] * (a[1] * a[5] - a[4] * a[2]);
}

bool fbx_matrix_invert(const double m[16], double out[16])
{
    /* inverse = adjugate / det, adjugate(row, column) = (-1)^(row + column) M(column, row) */
    double inv[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) inv[4 * c + row] = ((row + c) % 2 ? -1.0 : 1.0) * minor3(m, c, row);
    double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (!(fabs(det) > 1e-300) || !isfinite(det)) return false;
    for (int i = 0; i < 16; i++) out[i] = inv[i] / det;
    return true;
}

double fbx_matrix_to_trs(const double m[16], FbxTrs *out)
{
    trs_identity(out);
    double col[3][3];
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) col[c][row] = m[4 * c + row];
        out->scale[c] = sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1] + col[c][2] * col[c][2]);
    }
    for (int row = 0; row < 3; row++) out->translation[row] = m[12 + row];
    double det = col[0][0] * (col[1][1] * col[2][2] - col[2][1] * col[1][2]) -
                 col[1][0] * (col[0][1] * col[2][2] - col[2][1] * col[0][2]) +
                 col[2][0] * (col[0][1] * col[1][2] - col[1][1] * col[0][2]);
    if (det < 0) out->scale[0] = -out->scale[0];   /* a mirror: one axis flipped */
    double r[3][3];   /* r[c][row]: the rotation's columns */
    double largest_column = fmax(fabs(out->scale[0]), fmax(fabs(out->scale[1]), fabs(out->scale[2])));
    bool kept[3];
    int kept_count = 0;
    for (int c = 0; c < 3; c++) {
        kept[c] = fabs(out->scale[c]) > 1e-12 * largest_column && isfinite(out->scale[c]);
        kept_count += kept[c];
        for (int row = 0; row < 3; row++) r[c][row] = kept[c] ? col[c][row] / out->scale[c] : (c == row);
    }
    /* a scale of 0 on an axis leaves that column 0: the rotation's column is completed from the
     * others (their cross product, in cyclic order; with one left, any unit vector across it) so
     * that the degenerate matrix still decomposes into a rotation, the 0 sitting in the scale */
    if (kept_count == 1) {
        int a = kept[0] ? 0 : kept[1] ? 1 : 2, b = (a + 1) % 3;
        int axis = fabs(r[a][0]) <= fabs(r[a][1]) && fabs(r[a][0]) <= fabs(r[a][2]) ? 0 : fabs(r[a][1]) <= fabs(r[a][2]) ? 1 : 2;
        double e[3] = {axis == 0, axis == 1, axis == 2}, along = e[0] * r[a][0] + e[1] * r[a][1] + e[2] * r[a][2], length = 0;
        for (int row = 0; row < 3; row++) {
            r[b][row] = e[row] - along * r[a][row];
            length += r[b][row] * r[b][row];
        }
        for (int row = 0; row < 3; row++) r[b][row] /= sqrt(length);
        kept[b] = true;
        kept_count = 2;
    }
    if (kept_count == 2) {
        int c = !kept[0] ? 0 : !kept[1] ? 1 : 2, a = (c + 1) % 3, b = (c + 2) % 3;   /* r_c = r_a x r_b */
        double x[3] = {r[a][1] * r[b][2] - r[a][2] * r[b][1], r[a][2] * r[b][0] - r[a][0] * r[b][2], r[a][0] * r[b][1] - r[a][1] * r[b][0]};
        double length = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        for (int row = 0; row < 3; row++) r[c][row] = length > 0 ? x[row] / length : (c == row);
    }
    /* quaternion from a rotation matrix (Shepperd: from the largest of trace and diagonal) */
    double trace = r[0][0] + r[1][1] + r[2][2], *q = out->rotation;
    if (trace > 0) {
        double s = 2.0 * sqrt(trace + 1.0);
        q[3] = 0.25 * s;
        q[0] = (r[1][2] - r[2][1]) / s;
        q[1] = (r[2][0] - r[0][2]) / s;
        q[2] = (r[0][1] - r[1][0]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
        q[3] = (r[1][2] - r[2][1]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[1][0] + r[0][1]) / s;
        q[2] = (r[2][0] + r[0][2]) / s;
    } else if (r[1][1] > r[2][2]) {
        double s = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]);
        q[3] = (r[2][0] - r[0][2]) / s;
        q[0] = (r[1][0] + r[0][1]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[2][1] + r[1][2]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]);
        q[3] = (r[0][1] - r[1][0]) / s;
        q[0] = (r[2][0] + r[0][2]) / s;
        q[1] = (r[2][1] + r[1][2]) / s;
        q[2] = 0.25 * s;
    }
    double length = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (length > 0 && isfinite(length))
        for (int k = 0; k < 4; k++) q[k] /= length;
    else
        q[0] = q[1] = q[2] = 0.0, q[3] = 1.0;
    /* how much of m the TRS misses (shear) */
    double back[16], largest = 0.0, worst = 0.0;
    fbx_trs_to_matrix(out, back);
    for (int i = 0; i < 16; i++) {
        largest = fmax(largest, fabs(m[i]));
        worst = fmax(worst, fabs(m[i] - back[i]));
    }
    return largest > 0 ? worst / largest : 0.0;
}

/* ---- node to world, with the inherit type ---- */

static void trs_to_unscaled_matrix(const FbxTrs *trs, double m[16])
{
    FbxTrs unscaled = *trs;
    set3(unscaled.scale, 1, 1, 1);
    fbx_trs_to_matrix(&unscaled, m);
}

void fbx_node_world(const FbxNodeWorld *parent, const FbxNodeWorld *scale_source, int inherit_type,
                    const FbxTrs *local, FbxNodeWorld *out)
{
    double node_to_parent[16], unscaled_to_parent[16];
    if (!parent) {
        out->frame_local = *local;
        fbx_trs_to_matrix(local, out->node_to_world);
        trs_to_unscaled_matrix(local, out->unscaled_node_to_world);
        memcpy(out->inherit_scale, local->scale, sizeof out->inherit_scale);
        return;
    }
    if (inherit_type == FBX_INHERIT_RSrs) {
        /* world = parent_world · local: the parent's scale (and any shear it makes) reaches the child */
        out->frame_local = *local;
        fbx_trs_to_matrix(local, node_to_parent);
        trs_to_unscaled_matrix(local, unscaled_to_parent);
        fbx_matrix_mul(parent->node_to_world, node_to_parent, out->node_to_world);
        fbx_matrix_mul(parent->node_to_world, unscaled_to_parent, out->unscaled_node_to_world);
        memcpy(out->inherit_scale, local->scale, sizeof out->inherit_scale);
        return;
    }
    /* RrSs / Rrs: the child sits in its parent's unscaled frame; the parent's accumulated scale
     * stretches only where the child is (its translation), and the child's own scale takes the
     * scale source's per axis (RrSs: the parent; Rrs: the parent's own scale left out):
     *   world = parent_unscaled · TRS(t ∘ parent.inherit_scale, r, s ∘ scale_source.inherit_scale) */
    FbxTrs placed = *local;
    for (int k = 0; k < 3; k++) {
        placed.translation[k] *= parent->inherit_scale[k];
        if (scale_source) placed.scale[k] *= scale_source->inherit_scale[k];
    }
    out->frame_local = placed;
    fbx_trs_to_matrix(&placed, node_to_parent);
    trs_to_unscaled_matrix(&placed, unscaled_to_parent);
    fbx_matrix_mul(parent->unscaled_node_to_world, node_to_parent, out->node_to_world);
    fbx_matrix_mul(parent->unscaled_node_to_world, unscaled_to_parent, out->unscaled_node_to_world);
    memcpy(out->inherit_scale, placed.scale, sizeof out->inherit_scale);
}

int fbx_scale_source(int inherit_type, int parent, int parent_inherit_type, int parent_scale_source)
{
    if (parent < 0) return -1;
    if (inherit_type == FBX_INHERIT_RrSs) return parent;
    if (inherit_type == FBX_INHERIT_Rrs) return parent_inherit_type == FBX_INHERIT_RSrs ? -1 : parent_scale_source;
    return -1;
}
