/* test_fbx_transform — the FBX node transform (src/io/fbx/fbx_transform.c) against matrices
 * worked out by hand: each term of
 *   local = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
 * alone, every rotation order, RotationActive = 0, the geometric transform, the three inherit
 * types (and a scale source two levels up), and the whole product against a longhand product of
 * the eleven matrices built here from sines and cosines. */
#include "io/fbx/fbx_transform.h"
#include "testutil.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define PI 3.14159265358979323846

/* p' = M p with the result of fbx_node_local */
static void apply_trs(const FbxTrs *trs, const double p[3], double out[3])
{
    double m[16];
    fbx_trs_to_matrix(trs, m);
    for (int r = 0; r < 3; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static void apply_matrix(const double m[16], const double p[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static bool near3(const double a[3], double x, double y, double z)
{
    return fabs(a[0] - x) < 1e-9 && fabs(a[1] - y) < 1e-9 && fabs(a[2] - z) < 1e-9;
}

static void check_point(const FbxNodeProperties *node, double px, double py, double pz, double x, double y, double z,
                        const char *what)
{
    FbxTrs local;
    fbx_node_local(node, &local);
    double p[3] = {px, py, pz}, q[3];
    apply_trs(&local, p, q);
    CHECK(near3(q, x, y, z), "%s: (%g %g %g) -> (%.9g %.9g %.9g), expected (%g %g %g)", what, px, py, pz, q[0], q[1],
          q[2], x, y, z);
}

/* quarter turns by hand: the axis rotations of +90 degrees as coordinate swaps */
static void turn(int axis, int quarters, double p[3])
{
    for (int i = 0; i < ((quarters % 4) + 4) % 4; i++) {
        double x = p[0], y = p[1], z = p[2];
        if (axis == 0) p[1] = -z, p[2] = y;        /* Rx(90): y -> z */
        else if (axis == 1) p[0] = z, p[2] = -x;   /* Ry(90): z -> x */
        else p[0] = -y, p[1] = x;                  /* Rz(90): x -> y */
    }
}

/* a rotation matrix about one axis, longhand */
static void axis_matrix(int axis, double degrees, double m[16])
{
    double c = cos(degrees * PI / 180), s = sin(degrees * PI / 180);
    fbx_matrix_identity(m);
    int a = (axis + 1) % 3, b = (axis + 2) % 3;   /* the plane it turns: a -> b */
    m[4 * a + a] = c;
    m[4 * a + b] = s;
    m[4 * b + a] = -s;
    m[4 * b + b] = c;
}

static void translate_matrix(const double v[3], double sign, double m[16])
{
    fbx_matrix_identity(m);
    for (int k = 0; k < 3; k++) m[12 + k] = sign * v[k];
}

static void mul_into(double acc[16], const double m[16]) { fbx_matrix_mul(acc, m, acc); }

/* XYZ Euler rotation as a matrix: Rz · Ry · Rx */
static void euler_xyz_matrix(const double d[3], bool inverse, double m[16])
{
    double rx[16], ry[16], rz[16];
    axis_matrix(0, inverse ? -d[0] : d[0], rx);
    axis_matrix(1, inverse ? -d[1] : d[1], ry);
    axis_matrix(2, inverse ? -d[2] : d[2], rz);
    if (!inverse) {
        fbx_matrix_mul(rz, ry, m);
        fbx_matrix_mul(m, rx, m);
    } else {   /* (Rz Ry Rx)⁻¹ = Rx⁻¹ Ry⁻¹ Rz⁻¹ */
        fbx_matrix_mul(rx, ry, m);
        fbx_matrix_mul(m, rz, m);
    }
}

static void test_terms(void)
{
    FbxNodeProperties n;
    fbx_node_properties_default(&n);
    check_point(&n, 1, 2, 3, 1, 2, 3, "defaults: identity");

    /* one term set on a default node: the point `in` lands at `out` */
    static const struct {
        size_t      term;   /* offsetof the double[3] member set */
        double      value[3], in[3], out[3];
        const char *what;
    } terms[] = {
        {offsetof(FbxNodeProperties, translation), {1, 2, 3}, {0, 0, 0}, {1, 2, 3}, "T"},
        {offsetof(FbxNodeProperties, rotation), {90, 0, 0}, {0, 1, 0}, {0, 0, 1}, "R x 90"},
        {offsetof(FbxNodeProperties, scaling), {2, 3, 4}, {1, 1, 1}, {2, 3, 4}, "S"},
        {offsetof(FbxNodeProperties, pre_rotation), {0, 0, 90}, {1, 0, 0}, {0, 1, 0}, "Rpre z 90"},
        {offsetof(FbxNodeProperties, post_rotation), {0, 0, 90}, {1, 0, 0}, {0, -1, 0}, "Rpost z 90 (inverted)"},
        {offsetof(FbxNodeProperties, rotation_offset), {0, 5, 0}, {0, 0, 0}, {0, 5, 0}, "Roff"},
        {offsetof(FbxNodeProperties, scaling_offset), {0, 0, -4}, {0, 0, 0}, {0, 0, -4}, "Soff"},
    };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        fbx_node_properties_default(&n);
        memcpy((char *)&n + terms[i].term, terms[i].value, sizeof terms[i].value);
        check_point(&n, terms[i].in[0], terms[i].in[1], terms[i].in[2], terms[i].out[0], terms[i].out[1],
                    terms[i].out[2], terms[i].what);
    }

    /* PreRotation is XYZ whatever the node's order: (90, 0, 90) turns z to x; ZYX would give -y */
    fbx_node_properties_default(&n);
    n.pre_rotation[0] = 90, n.pre_rotation[2] = 90;
    n.rotation_order = FBX_ORDER_ZYX;
    check_point(&n, 0, 0, 1, 1, 0, 0, "Rpre is XYZ under a ZYX node");

    fbx_node_properties_default(&n);
    n.post_rotation[0] = 90, n.post_rotation[2] = 90;   /* (Rz Rx)⁻¹ = Rx⁻¹ Rz⁻¹: x -> -y -> -y... */
    n.rotation_order = FBX_ORDER_ZYX;
    {   /* by hand: Rz(-90) first takes (1,0,0) to (0,-1,0), then Rx(-90) takes it to (0,0,1) */
        check_point(&n, 1, 0, 0, 0, 0, 1, "Rpost is XYZ under a ZYX node");
    }

    fbx_node_properties_default(&n);
    n.rotation[2] = 90;
    n.rotation_pivot[0] = 1;
    check_point(&n, 2, 0, 0, 1, 1, 0, "R about the rotation pivot");
    check_point(&n, 0, 0, 0, 1, -1, 0, "R about the rotation pivot (origin)");

    fbx_node_properties_default(&n);
    n.scaling[0] = n.scaling[1] = n.scaling[2] = 2;
    n.scaling_pivot[0] = 1;
    check_point(&n, 0, 0, 0, -1, 0, 0, "S about the scaling pivot");
    check_point(&n, 1, 0, 0, 1, 0, 0, "S about the scaling pivot (the pivot stays)");

    /* RotationActive 0: no pre/post rotation, and the order reads as XYZ */
    fbx_node_properties_default(&n);
    n.rotation_active = false;
    n.pre_rotation[2] = 90;
    n.rotation[0] = 90, n.rotation[2] = 90;
    n.rotation_order = FBX_ORDER_ZYX;
    check_point(&n, 0, 0, 1, 1, 0, 0, "RotationActive 0: XYZ, no PreRotation");
    n.rotation_active = true;
    n.rotation_space_for_limit_only = true;
    check_point(&n, 0, 0, 1, 1, 0, 0, "RotationSpaceForLimitOnly: as RotationActive 0");
    n.rotation_space_for_limit_only = false;
    /* active: ZYX (z first: (0,0,1) stays, x 90 -> (0,-1,0)), then PreRotation z 90 -> (1,0,0) */
    check_point(&n, 0, 0, 1, 1, 0, 0, "RotationActive 1: ZYX then PreRotation");
    n.pre_rotation[2] = 0;
    check_point(&n, 0, 0, 1, 0, -1, 0, "RotationActive 1: ZYX");
}

static void test_rotation_orders(void)
{
    /* (90, 180, 270) about x, y, z, applied in each order, against quarter turns by hand */
    static const int applied[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    static const char *names[6] = {"XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"};
    double angles[3] = {90, 180, 270};
    double points[2][3] = {{1, 2, 3}, {-3, 0.5, 2}};
    for (int order = 0; order < 6; order++)
        for (int i = 0; i < 2; i++) {
            double expected[3];
            memcpy(expected, points[i], sizeof expected);
            for (int step = 0; step < 3; step++) turn(applied[order][step], (int)angles[applied[order][step]] / 90, expected);
            FbxNodeProperties n;
            fbx_node_properties_default(&n);
            memcpy(n.rotation, angles, sizeof angles);
            n.rotation_order = order;
            char what[64];
            snprintf(what, sizeof what, "rotation order %s", names[order]);
            check_point(&n, points[i][0], points[i][1], points[i][2], expected[0], expected[1], expected[2], what);
        }
}

static void test_full_product(void)
{
    FbxNodeProperties n;
    fbx_node_properties_default(&n);
    double T[3] = {1, -2, 3}, R[3] = {20, -35, 50}, S[3] = {1.5, 0.5, 2}, pre[3] = {10, 20, 30}, post[3] = {-15, 5, 40};
    double roff[3] = {0.3, 0.1, -0.2}, rp[3] = {1, 2, -1}, soff[3] = {-0.5, 0.25, 0}, sp[3] = {0.2, -1, 0.7};
    memcpy(n.translation, T, sizeof T), memcpy(n.rotation, R, sizeof R), memcpy(n.scaling, S, sizeof S);
    memcpy(n.pre_rotation, pre, sizeof pre), memcpy(n.post_rotation, post, sizeof post);
    memcpy(n.rotation_offset, roff, sizeof roff), memcpy(n.rotation_pivot, rp, sizeof rp);
    memcpy(n.scaling_offset, soff, sizeof soff), memcpy(n.scaling_pivot, sp, sizeof sp);
    /* longhand: T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹ (R in XYZ) */
    double acc[16], m[16];
    translate_matrix(T, 1, acc);
    translate_matrix(roff, 1, m), mul_into(acc, m);
    translate_matrix(rp, 1, m), mul_into(acc, m);
    euler_xyz_matrix(pre, false, m), mul_into(acc, m);
    euler_xyz_matrix(R, false, m), mul_into(acc, m);
    euler_xyz_matrix(post, true, m), mul_into(acc, m);
    translate_matrix(rp, -1, m), mul_into(acc, m);
    translate_matrix(soff, 1, m), mul_into(acc, m);
    translate_matrix(sp, 1, m), mul_into(acc, m);
    fbx_matrix_identity(m);
    m[0] = S[0], m[5] = S[1], m[10] = S[2];
    mul_into(acc, m);
    translate_matrix(sp, -1, m), mul_into(acc, m);
    FbxTrs local;
    fbx_node_local(&n, &local);
    double got[16], worst = 0;
    fbx_trs_to_matrix(&local, got);
    for (int i = 0; i < 16; i++) worst = fmax(worst, fabs(got[i] - acc[i]));
    CHECK(worst < 1e-12, "the whole product: largest difference %.3g", worst);
    /* and it is exactly translation · rotation · scale: decomposing gives it back */
    FbxTrs back;
    double residual = fbx_matrix_to_trs(acc, &back);
    CHECK(residual < 1e-12, "the local matrix is TRS (residual %.3g)", residual);
}

static void test_geometric(void)
{
    FbxNodeProperties n;
    fbx_node_properties_default(&n);
    n.geometric_translation[0] = 5;
    n.geometric_rotation[2] = 90;
    n.geometric_scaling[0] = 2;
    FbxTrs g;
    fbx_node_geometric(&n, &g);
    double p[3] = {1, 0, 0}, q[3];
    apply_trs(&g, p, q);   /* scale 2 -> (2,0,0), z 90 -> (0,2,0), + (5,0,0) */
    CHECK(near3(q, 5, 2, 0), "geometric T·R·S: (%.9g %.9g %.9g)", q[0], q[1], q[2]);
    FbxTrs local;
    fbx_node_local(&n, &local);
    apply_trs(&local, p, q);
    CHECK(near3(q, 1, 0, 0), "the geometric transform is not part of the local transform");
}

static void world_of(const FbxNodeWorld *parent, const FbxNodeWorld *source, int inherit, const FbxNodeProperties *n,
                     FbxNodeWorld *out)
{
    FbxTrs local;
    fbx_node_local(n, &local);
    fbx_node_world(parent, source, inherit, &local, out);
}

static void test_inherit_types(void)
{
    /* parent: scale (2, 1, 1); child: translation (1, 0, 0), z 90; the point (1, 0, 0) of the child */
    FbxNodeProperties parent_props, child_props;
    fbx_node_properties_default(&parent_props);
    parent_props.scaling[0] = 2;
    fbx_node_properties_default(&child_props);
    child_props.translation[0] = 1;
    child_props.rotation[2] = 90;
    FbxNodeWorld parent, child;
    world_of(NULL, NULL, FBX_INHERIT_RSrs, &parent_props, &parent);
    double p[3] = {1, 0, 0}, q[3];

    world_of(&parent, NULL, FBX_INHERIT_RSrs, &child_props, &child);   /* P · C: (1,1,0) then x2 */
    apply_matrix(child.node_to_world, p, q);
    CHECK(near3(q, 2, 1, 0), "RSrs: (%.9g %.9g %.9g), expected (2 1 0)", q[0], q[1], q[2]);
    apply_matrix(child.node_to_world, (double[3]){0, 1, 0}, q);   /* -> (0,0,0) in the parent, x2 */
    CHECK(near3(q, 0, 0, 0), "RSrs: (0 1 0) -> (%.9g %.9g %.9g), expected (0 0 0)", q[0], q[1], q[2]);

    int source = fbx_scale_source(FBX_INHERIT_RrSs, 0, FBX_INHERIT_RSrs, -1);
    CHECK(source == 0, "RrSs takes its scale from the parent");
    world_of(&parent, &parent, FBX_INHERIT_RrSs, &child_props, &child);   /* scale (2,1,1) in the child frame */
    apply_matrix(child.node_to_world, p, q);
    CHECK(near3(q, 2, 2, 0), "RrSs: (%.9g %.9g %.9g), expected (2 2 0)", q[0], q[1], q[2]);

    source = fbx_scale_source(FBX_INHERIT_Rrs, 0, FBX_INHERIT_RSrs, -1);
    CHECK(source == -1, "Rrs under RSrs: no scale source");
    world_of(&parent, NULL, FBX_INHERIT_Rrs, &child_props, &child);   /* only the translation is stretched */
    apply_matrix(child.node_to_world, p, q);
    CHECK(near3(q, 2, 1, 0) && fabs(child.node_to_world[0]) < 1e-12 && fabs(child.node_to_world[1] - 1) < 1e-12,
          "Rrs: (%.9g %.9g %.9g), expected (2 1 0) with an unscaled x axis", q[0], q[1], q[2]);
    apply_matrix(child.node_to_world, (double[3]){0, 1, 0}, q);   /* child y axis -> -x, unscaled */
    CHECK(near3(q, 1, 0, 0), "Rrs: the parent's scale is not applied (%.9g %.9g %.9g)", q[0], q[1], q[2]);

    /* three levels: G scale (3,1,1) RSrs; P RrSs scale (1,2,1); C Rrs translation (0,1,0):
     * C keeps G's scale (through P's scale source) but not P's own */
    FbxNodeProperties g_props, p_props, c_props;
    fbx_node_properties_default(&g_props);
    g_props.scaling[0] = 3;
    fbx_node_properties_default(&p_props);
    p_props.scaling[1] = 2;
    fbx_node_properties_default(&c_props);
    c_props.translation[1] = 1;
    FbxNodeWorld g, pw, c;
    world_of(NULL, NULL, FBX_INHERIT_RSrs, &g_props, &g);
    int p_source = fbx_scale_source(FBX_INHERIT_RrSs, 0, FBX_INHERIT_RSrs, -1);
    world_of(&g, &g, FBX_INHERIT_RrSs, &p_props, &pw);
    int c_source = fbx_scale_source(FBX_INHERIT_Rrs, 1, FBX_INHERIT_RrSs, p_source);
    CHECK(c_source == 0, "Rrs under RrSs: the grandparent is the scale source (%d)", c_source);
    world_of(&pw, &g, FBX_INHERIT_Rrs, &c_props, &c);
    apply_matrix(c.node_to_world, p, q);   /* (1,0,0) x3 -> (3,0,0), + (0,1,0)∘(3,2,1) */
    CHECK(near3(q, 3, 2, 0), "Rrs under RrSs: (%.9g %.9g %.9g), expected (3 2 0)", q[0], q[1], q[2]);
}

static void test_decompose(void)
{
    FbxTrs trs = {{1, 2, 3}, {0, 0, sin(0.3), cos(0.3)}, {-2, 0.5, 1.5}}, back;
    double m[16], m2[16];
    fbx_trs_to_matrix(&trs, m);
    double residual = fbx_matrix_to_trs(m, &back);
    fbx_trs_to_matrix(&back, m2);
    double worst = 0;
    for (int i = 0; i < 16; i++) worst = fmax(worst, fabs(m[i] - m2[i]));
    CHECK(residual < 1e-12 && worst < 1e-12, "a mirrored TRS decomposes back (%.3g, %.3g)", residual, worst);
    /* a shear is reported */
    fbx_matrix_identity(m);
    m[4] = 0.5;
    residual = fbx_matrix_to_trs(m, &back);
    CHECK(residual > 0.05, "a shear shows in the residual (%.3g)", residual);
    double inverse[16], product[16];
    fbx_trs_to_matrix(&trs, m);
    CHECK(fbx_matrix_invert(m, inverse), "invertible");
    fbx_matrix_mul(m, inverse, product);
    worst = 0;
    for (int i = 0; i < 16; i++) worst = fmax(worst, fabs(product[i] - (i % 5 == 0 ? 1.0 : 0.0)));
    CHECK(worst < 1e-12, "M · M⁻¹ = I (%.3g)", worst);
    /* a scale of 0 on one, two or three axes (a parent scaled to nothing, issue 27): the matrix still
     * decomposes exactly, into a unit quaternion and the 0 in the scale, and the local TRS a node
     * hands its children (frame_local) is the one it was built from, not a decomposition */
    static const double zero_scales[3][3] = {{0, 0.5, 1.5}, {2, 0, 0}, {0, 0, 0}};
    for (int k = 0; k < 3; k++) {
        FbxTrs degenerate = {{1, 2, 3}, {sin(0.2), sin(0.3) * cos(0.2), 0.1, 0}, {0, 0, 0}};
        double *q = degenerate.rotation, length = 0;
        q[3] = 0.9;
        for (int i = 0; i < 4; i++) length += q[i] * q[i];
        for (int i = 0; i < 4; i++) q[i] /= sqrt(length);
        memcpy(degenerate.scale, zero_scales[k], sizeof degenerate.scale);
        fbx_trs_to_matrix(&degenerate, m);
        residual = fbx_matrix_to_trs(m, &back);
        fbx_trs_to_matrix(&back, m2);
        worst = 0;
        for (int i = 0; i < 16; i++) worst = fmax(worst, fabs(m[i] - m2[i]));
        double unit = back.rotation[0] * back.rotation[0] + back.rotation[1] * back.rotation[1] +
                      back.rotation[2] * back.rotation[2] + back.rotation[3] * back.rotation[3];
        CHECK(residual < 1e-12 && worst < 1e-12 && fabs(unit - 1) < 1e-12 && isfinite(residual),
              "scale (%g %g %g) decomposes back (%.3g, %.3g, |q|^2 %.17g)", zero_scales[k][0], zero_scales[k][1],
              zero_scales[k][2], residual, worst, unit);
        FbxNodeWorld world;
        fbx_node_world(NULL, NULL, FBX_INHERIT_RSrs, &degenerate, &world);
        CHECK(memcmp(&world.frame_local, &degenerate, sizeof degenerate) == 0, "frame_local is the TRS it was given");
        CHECK(!fbx_matrix_invert(world.node_to_world, inverse), "the scaled-to-0 world has no inverse (why frame_local exists)");
    }
}

int main(void)
{
    test_terms();
    test_rotation_orders();
    test_full_product();
    test_geometric();
    test_inherit_types();
    test_decompose();
    return test_finish();
}
