/* test_fbx_curve — FBX curve evaluation (src/io/fbx/fbx_curve.c) against values worked out by
 * hand: each interpolation (constant, constant-next, linear, cubic unweighted = the Hermite
 * cubic, cubic weighted = a Bézier solved in time) and each extrapolation (constant, repetition,
 * mirror, relative repetition, keep slope, a repetition count). */
#include "io/fbx/fbx_curve.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

#define TICKS ((int64_t)46186158000)

static FbxCurveKey keys[4];

static FbxCurve two_keys(double t0, double v0, double t1, double v1, FbxInterpolation kind)
{
    memset(keys, 0, sizeof keys);
    keys[0].time = (int64_t)(t0 * TICKS), keys[0].value = v0, keys[0].interpolation = kind;
    keys[1].time = (int64_t)(t1 * TICKS), keys[1].value = v1, keys[1].interpolation = kind;
    keys[0].right_weight = keys[0].next_left_weight = 1.0 / 3.0;
    keys[1].right_weight = keys[1].next_left_weight = 1.0 / 3.0;
    FbxCurve curve = {.key_count = 2, .keys = keys, .pre_repetitions = -1, .post_repetitions = -1};
    return curve;
}

static void expect(const FbxCurve *curve, double t, double value, const char *what)
{
    double got = fbx_curve_evaluate(curve, t);
    CHECK(fabs(got - value) < 1e-9, "%s at %g s: %.12g, expected %.12g", what, t, got, value);
}

int main(void)
{
    FbxCurve c = two_keys(0, 0, 1, 10, FBX_INTERPOLATION_LINEAR);
    expect(&c, 0.25, 2.5, "linear");
    expect(&c, 1.0, 10, "linear, last key");

    c = two_keys(0, 0, 1, 10, FBX_INTERPOLATION_CONSTANT);
    expect(&c, 0.5, 0, "constant");
    expect(&c, 1.0, 10, "constant, at the next key");
    keys[0].constant_next = true;
    expect(&c, 0.5, 10, "constant next");

    /* cubic, weights 1/3 (time linear in u), flat slopes: 3u² − 2u³ */
    c = two_keys(0, 0, 1, 1, FBX_INTERPOLATION_CUBIC);
    expect(&c, 0.25, 3 * 0.0625 - 2 * 0.015625, "cubic, flat tangents");
    /* the Hermite cubic with slope 3 leaving key 0: h10(0.5) · 3 + h01(0.5) · 1 = 0.375 + 0.5 */
    keys[0].right_slope = 3;
    expect(&c, 0.5, 0.875, "cubic, right slope 3");
    /* over 2 seconds the slope counts per second: h10 · Δt · m = 0.125 · 2 · 3 */
    c = two_keys(0, 0, 2, 1, FBX_INTERPOLATION_CUBIC);
    keys[0].right_slope = 3;
    expect(&c, 1.0, 0.75 + 0.5, "cubic over 2 s, right slope 3 per second");

    /* weighted: w_r = 0.6, w_l = 0.1, slopes 1 and 0: at u = 1/2 the Bézier is at
     * time 3/8·0.6 + 3/8·0.9 + 1/8 = 0.6875 and value 3/8·0.6 + 3/8·1 + 1/8 = 0.725 */
    c = two_keys(0, 0, 1, 1, FBX_INTERPOLATION_CUBIC);
    keys[0].right_weight = 0.6, keys[0].next_left_weight = 0.1, keys[0].right_slope = 1, keys[0].next_left_slope = 0;
    expect(&c, 0.6875, 0.725, "weighted cubic (time solved)");

    /* extrapolation: keys (1 s, 0) and (2 s, 10), linear */
    c = two_keys(1, 0, 2, 10, FBX_INTERPOLATION_LINEAR);
    expect(&c, 0.0, 0, "pre constant");
    expect(&c, 3.0, 10, "post constant");
    c.pre = c.post = FBX_EXTRAPOLATION_REPETITION;
    expect(&c, 2.25, 2.5, "post repetition");
    expect(&c, 0.75, 7.5, "pre repetition");
    c.pre = c.post = FBX_EXTRAPOLATION_MIRROR_REPETITION;
    expect(&c, 2.25, 7.5, "post mirror (backwards)");
    expect(&c, 3.25, 2.5, "post mirror, second period (forwards)");
    expect(&c, 0.75, 2.5, "pre mirror (backwards)");
    c.pre = c.post = FBX_EXTRAPOLATION_RELATIVE_REPETITION;
    expect(&c, 2.25, 12.5, "post relative repetition (+10 per period)");
    expect(&c, 0.75, -2.5, "pre relative repetition (-10 per period)");
    c.pre = c.post = FBX_EXTRAPOLATION_KEEP_SLOPE;
    expect(&c, 3.0, 20, "post keep slope");
    expect(&c, 0.0, -10, "pre keep slope");
    c.post = FBX_EXTRAPOLATION_REPETITION;
    c.post_repetitions = 1;
    expect(&c, 2.5, 5, "post repetition, first period");
    expect(&c, 3.5, 10, "post repetition past its count: held");

    CHECK(fbx_curve_interpolations(&c) == 1u << FBX_INTERPOLATION_LINEAR, "interpolations found");
    CHECK(fbx_curve_extrapolations(&c) == ((1u << FBX_EXTRAPOLATION_KEEP_SLOPE) | (1u << FBX_EXTRAPOLATION_REPETITION)),
          "extrapolations found");
    FbxCurve empty = {.key_count = 0, .default_value = 4.5};
    expect(&empty, 1.0, 4.5, "no keys: the default");
    return test_finish();
}
