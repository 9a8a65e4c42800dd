/* testmath.h — 4x4 matrices in double precision for the tests' independent recomputations
 * (written out longhand, not cglm: a test that checks skinview's float math must not share it).
 * Column-major like cglm and GLSL: m[column][row], a point is p' = M · p (column vector). */
#ifndef SKINVIEW_TESTMATH_H
#define SKINVIEW_TESTMATH_H

#include <cglm/cglm.h>

typedef struct M4 {
    double m[4][4];   /* m[column][row] */
} M4;

M4 m4_identity(void);
M4 m4_mul(M4 a, M4 b);                               /* a · b: b applies first */
M4 m4_rows(const double rows[16]);                   /* from 16 numbers written row by row (Collada, Assimp) */
M4 m4_rows_float(const float rows[16]);
M4 m4_from_mat4(const mat4 a);
M4 m4_translate(double x, double y, double z);
M4 m4_rotate(int axis, double degrees);              /* about 0 = X, 1 = Y, 2 = Z, right-handed */
M4 m4_scale(double s);                               /* uniform */
M4 m4_rigid_inverse(M4 a);                           /* inverse of rotation + translation only */
void m4_point(M4 m, const double p[3], double out[3]);   /* out = M · (p, 1) */
double m4_rotation_difference(M4 a, M4 b);           /* largest difference of the upper 3x3 */
double m4_translation_difference(M4 a, M4 b);        /* largest difference of the translations */

#endif
