/* testmath.c — see testmath.h. */
#include "testmath.h"

#include <math.h>

M4 m4_identity(void)
{
    M4 r = {{{0}}};
    for (int i = 0; i < 4; i++) r.m[i][i] = 1.0;
    return r;
}

M4 m4_mul(M4 a, M4 b)
{
    M4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += a.m[k][row] * b.m[c][k];   /* (a b)[row][c] = sum_k a[row][k] b[k][c] */
            r.m[c][row] = s;
        }
    return r;
}

M4 m4_rows(const double rows[16])
{
    M4 r;
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++) r.m[c][row] = rows[4 * row + c];
    return r;
}

M4 m4_rows_float(const float rows[16])
{
    double d[16];
    for (int i = 0; i < 16; i++) d[i] = rows[i];
    return m4_rows(d);
}

M4 m4_from_mat4(const mat4 a)
{
    M4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) r.m[c][row] = a[c][row];
    return r;
}

M4 m4_translate(double x, double y, double z)
{
    M4 r = m4_identity();
    r.m[3][0] = x;
    r.m[3][1] = y;
    r.m[3][2] = z;
    return r;
}

M4 m4_rotate(int axis, double degrees)
{
    double a = degrees * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    M4 m = m4_identity();
    int i = (axis + 1) % 3, j = (axis + 2) % 3;   /* the plane turned: X: (y, z), Y: (z, x), Z: (x, y) */
    m.m[i][i] = c;
    m.m[i][j] = s;
    m.m[j][i] = -s;
    m.m[j][j] = c;
    return m;
}

M4 m4_scale(double s)
{
    M4 r = m4_identity();
    for (int i = 0; i < 3; i++) r.m[i][i] = s;
    return r;
}

M4 m4_rigid_inverse(M4 a)
{
    M4 r = m4_identity();
    for (int c = 0; c < 3; c++)   /* R^-1 = R^T */
        for (int row = 0; row < 3; row++) r.m[c][row] = a.m[row][c];
    for (int row = 0; row < 3; row++)   /* t' = -R^T t */
        r.m[3][row] = -(r.m[0][row] * a.m[3][0] + r.m[1][row] * a.m[3][1] + r.m[2][row] * a.m[3][2]);
    return r;
}

void m4_point(M4 m, const double p[3], double out[3])
{
    for (int row = 0; row < 3; row++)
        out[row] = m.m[0][row] * p[0] + m.m[1][row] * p[1] + m.m[2][row] * p[2] + m.m[3][row];
}

double m4_rotation_difference(M4 a, M4 b)
{
    double worst = 0.0;
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) worst = fmax(worst, fabs(a.m[c][row] - b.m[c][row]));
    return worst;
}

double m4_translation_difference(M4 a, M4 b)
{
    double worst = 0.0;
    for (int row = 0; row < 3; row++) worst = fmax(worst, fabs(a.m[3][row] - b.m[3][row]));
    return worst;
}
