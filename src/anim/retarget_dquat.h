/* retarget_dquat.h — quaternions in double precision for the retargeting files (retarget_setup.c,
 * retarget.c): world rotations are products of many local ones, and a clip retargeted onto its own
 * skeleton must come back within float rounding. Internal to src/anim, header-only. */
#ifndef SKINVIEW_RETARGET_DQUAT_H
#define SKINVIEW_RETARGET_DQUAT_H

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

/* ---- double quaternions (x y z w, cglm's order) ------------------------------------------------- */

typedef double dquat[4];

static inline void dq_identity(dquat q) { q[0] = q[1] = q[2] = 0.0, q[3] = 1.0; }
static inline void dq_copy(const dquat a, dquat out) { memcpy(out, a, sizeof(dquat)); }
static inline void dq_from_versor(const versor v, dquat q) { for (int i = 0; i < 4; i++) q[i] = v[i]; }
static inline void dq_conjugate(const dquat q, dquat out) { out[0] = -q[0], out[1] = -q[1], out[2] = -q[2], out[3] = q[3]; }

/* out = a * b (Hamilton product: b first, then a); out may alias a or b */
static inline void dq_mul(const dquat a, const dquat b, dquat out)
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

static inline void dq_normalize(dquat q)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n > 0.0)
        for (int i = 0; i < 4; i++) q[i] /= n;
    else
        dq_identity(q);
}

/* v' = q v q^-1 */
static inline void dq_rotate(const dquat q, const double v[3], double out[3])
{
    double t[3] = {2.0 * (q[1] * v[2] - q[2] * v[1]), 2.0 * (q[2] * v[0] - q[0] * v[2]), 2.0 * (q[0] * v[1] - q[1] * v[0])};
    double r[3] = {v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]), v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
                   v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0])};
    memcpy(out, r, sizeof r);
}

/* The shortest rotation taking unit direction a onto unit direction b. */
static inline void dq_between(const double a[3], const double b[3], dquat q)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (d < -1.0 + 1e-12) {   /* opposite: half a turn about any axis perpendicular to a */
        double axis[3] = {0.0, -a[2], a[1]};
        if (fabs(a[0]) > 0.9) axis[0] = -a[2], axis[1] = 0.0, axis[2] = a[0];
        double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        q[0] = axis[0] / n, q[1] = axis[1] / n, q[2] = axis[2] / n, q[3] = 0.0;
        return;
    }
    q[0] = a[1] * b[2] - a[2] * b[1], q[1] = a[2] * b[0] - a[0] * b[2], q[2] = a[0] * b[1] - a[1] * b[0];
    q[3] = 1.0 + d;
    dq_normalize(q);
}

/* Quaternion of a rotation matrix given by its three columns (orthonormal). */
static inline void dq_from_columns(const double c0[3], const double c1[3], const double c2[3], dquat q)
{
    double m00 = c0[0], m11 = c1[1], m22 = c2[2], trace = m00 + m11 + m22;
    if (trace > 0.0) {
        double s = sqrt(trace + 1.0) * 2.0;
        q[3] = 0.25 * s, q[0] = (c1[2] - c2[1]) / s, q[1] = (c2[0] - c0[2]) / s, q[2] = (c0[1] - c1[0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        q[3] = (c1[2] - c2[1]) / s, q[0] = 0.25 * s, q[1] = (c1[0] + c0[1]) / s, q[2] = (c2[0] + c0[2]) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        q[3] = (c2[0] - c0[2]) / s, q[0] = (c1[0] + c0[1]) / s, q[1] = 0.25 * s, q[2] = (c2[1] + c1[2]) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        q[3] = (c0[1] - c1[0]) / s, q[0] = (c2[0] + c0[2]) / s, q[1] = (c2[1] + c1[2]) / s, q[2] = 0.25 * s;
    }
    dq_normalize(q);
}

#endif
