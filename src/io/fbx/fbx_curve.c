/* fbx_curve.c — FBX curve evaluation (see fbx_curve.h for the rules). */
#include "fbx_curve.h"

#include <math.h>

static double key_seconds(const FbxCurveKey *key) { return (double)key->time / FBX_TICKS_PER_SECOND; }

/* The segment from key k to key k+1 at time t (t_k <= t <= t_k+1). */
static double segment_value(const FbxCurveKey *a, const FbxCurveKey *b, double t)
{
    double t0 = key_seconds(a), t1 = key_seconds(b), dt = t1 - t0;
    if (!(dt > 0)) return b->value;
    double x = (t - t0) / dt;   /* 0..1 across the segment */
    switch (a->interpolation) {
    case FBX_INTERPOLATION_CONSTANT:
        return a->constant_next ? b->value : a->value;
    case FBX_INTERPOLATION_LINEAR:
        return a->value + (b->value - a->value) * x;
    case FBX_INTERPOLATION_CUBIC:
    default: {
        /* control points in units of the segment: time 0, w_r, 1 − w_l, 1 */
        double wr = a->right_weight, wl = a->next_left_weight;
        if (!(wr >= 0 && wr <= 1)) wr = 1.0 / 3.0;
        if (!(wl >= 0 && wl <= 1)) wl = 1.0 / 3.0;
        double x1 = wr, x2 = 1.0 - wl;
        double y0 = a->value, y1 = a->value + wr * dt * a->right_slope;
        double y2 = b->value - wl * dt * a->next_left_slope, y3 = b->value;
        /* u with x(u) = x: Newton from u = x, safeguarded by bisection (x(u) is increasing for
         * weights in [0, 1]) */
        double u = x, lo = 0.0, hi = 1.0;
        for (int i = 0; i < 40; i++) {
            double v = 1.0 - u;
            double xu = 3 * v * v * u * x1 + 3 * v * u * u * x2 + u * u * u;
            double err = xu - x;
            if (fabs(err) < 1e-14) break;
            if (err > 0) hi = u;
            else lo = u;
            double dx = 3 * v * v * x1 + 6 * v * u * (x2 - x1) + 3 * u * u * (1 - x2);
            double next = dx > 1e-12 ? u - err / dx : 0.5 * (lo + hi);
            u = (next > lo && next < hi) ? next : 0.5 * (lo + hi);
        }
        double v = 1.0 - u;
        return v * v * v * y0 + 3 * v * v * u * y1 + 3 * v * u * u * y2 + u * u * u * y3;
    }
    }
}

/* Inside [t_first, t_last]: the segment that holds t (binary search). */
static double inside_value(const FbxCurve *curve, double t)
{
    int n = curve->key_count;
    if (t >= key_seconds(&curve->keys[n - 1])) return curve->keys[n - 1].value;
    int lo = 0, hi = n - 1;   /* keys[lo] <= t < keys[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (key_seconds(&curve->keys[mid]) <= t) lo = mid;
        else hi = mid;
    }
    return segment_value(&curve->keys[lo], &curve->keys[lo + 1], t);
}

/* The slope of the curve where it leaves its end (at_start: the first key, going back). */
static double end_slope(const FbxCurve *curve, bool at_start)
{
    int n = curve->key_count;
    if (n < 2) return 0.0;
    const FbxCurveKey *a = at_start ? &curve->keys[0] : &curve->keys[n - 2];
    const FbxCurveKey *b = a + 1;
    double dt = key_seconds(b) - key_seconds(a);
    switch (a->interpolation) {
    case FBX_INTERPOLATION_CONSTANT: return 0.0;
    case FBX_INTERPOLATION_LINEAR: return dt > 0 ? (b->value - a->value) / dt : 0.0;
    default: return at_start ? a->right_slope : a->next_left_slope;
    }
}

double fbx_curve_evaluate(const FbxCurve *curve, double t)
{
    int n = curve->key_count;
    if (n <= 0 || !curve->keys) return curve->default_value;
    const FbxCurveKey *first = &curve->keys[0], *last = &curve->keys[n - 1];
    double t0 = key_seconds(first), t1 = key_seconds(last);
    if (t >= t0 && t <= t1) return inside_value(curve, t);
    bool before = t < t0;
    int mode = before ? (int)curve->pre : (int)curve->post;
    int repetitions = before ? curve->pre_repetitions : curve->post_repetitions;
    const FbxCurveKey *end = before ? first : last;
    double period = t1 - t0;
    switch (mode) {
    case FBX_EXTRAPOLATION_KEEP_SLOPE:
        /* a line through the end key with the slope the curve has there */
        return end->value + (t - (before ? t0 : t1)) * end_slope(curve, before);
    case FBX_EXTRAPOLATION_REPETITION:
    case FBX_EXTRAPOLATION_MIRROR_REPETITION:
    case FBX_EXTRAPOLATION_RELATIVE_REPETITION: {
        if (!(period > 0)) return end->value;
        double cycle = floor((t - t0) / period);   /* < 0 before, >= 1 after */
        double cycles_out = before ? -cycle : cycle;   /* periods away from the keyed one */
        if (repetitions >= 0 && cycles_out > repetitions) return end->value;
        double local = (t - t0) - cycle * period;   /* 0 .. period */
        bool odd = fmod(fabs(cycle), 2.0) >= 1.0;   /* NaN (a cycle out of range): false */
        if (mode == FBX_EXTRAPOLATION_MIRROR_REPETITION && odd) local = period - local;
        double value = inside_value(curve, t0 + local);
        if (mode == FBX_EXTRAPOLATION_RELATIVE_REPETITION) value += cycle * (last->value - first->value);
        return value;
    }
    case FBX_EXTRAPOLATION_CONSTANT:
    default:
        return end->value;
    }
}

unsigned fbx_curve_interpolations(const FbxCurve *curve)
{
    unsigned bits = 0;
    for (int k = 0; k + 1 < curve->key_count; k++) bits |= 1u << curve->keys[k].interpolation;
    return bits;
}

unsigned fbx_curve_extrapolations(const FbxCurve *curve)
{
    if (curve->key_count < 2) return 0;
    unsigned bits = 0;
    if (curve->pre != FBX_EXTRAPOLATION_CONSTANT) bits |= 1u << curve->pre;
    if (curve->post != FBX_EXTRAPOLATION_CONSTANT) bits |= 1u << curve->post;
    return bits;
}

const char *fbx_interpolation_name(int interpolation)
{
    switch (interpolation) {
    case FBX_INTERPOLATION_CONSTANT: return "constant";
    case FBX_INTERPOLATION_LINEAR: return "linear";
    case FBX_INTERPOLATION_CUBIC: return "cubic";
    default: return "?";
    }
}

const char *fbx_extrapolation_name(int extrapolation)
{
    switch (extrapolation) {
    case FBX_EXTRAPOLATION_CONSTANT: return "constant";
    case FBX_EXTRAPOLATION_REPETITION: return "repetition";
    case FBX_EXTRAPOLATION_MIRROR_REPETITION: return "mirror";
    case FBX_EXTRAPOLATION_KEEP_SLOPE: return "keep-slope";
    case FBX_EXTRAPOLATION_RELATIVE_REPETITION: return "relative-repetition";
    default: return "?";
    }
}

/* ---- auto tangents ---------------------------------------------------------------------- */

#define KEY_TANGENT_AUTO 0x100u
#define KEY_TANGENT_TCB 0x200u
#define KEY_TANGENT_USER 0x400u
#define KEY_CLAMP 0x1000u
#define KEY_TIME_INDEPENDENT 0x2000u
#define KEY_CLAMP_PROGRESSIVE 0x4000u

/* Maya's auto tangent at a key between two others (the rule ufbx reproduces, ufbxi_solve_auto_tangent):
 * the chord slope (v_next − v_prev) / (t_next − t_prev); unless time-independent, blended with the
 * two one-sided slopes and pulled by the stored bias; clamped (progressive) so that neither handle
 * overshoots its neighbour's value. */
static double auto_tangent(double t0, double t, double t2, double v0, double v, double v2, double weight_left,
                           double weight_right, double bias, unsigned flags)
{
    if ((flags & KEY_CLAMP) && fmin(fabs(v0 - v), fabs(v2 - v)) <= 0.0) return 0.0;
    double slope = (v2 - v0) / (t2 - t0);
    if (!(flags & KEY_TIME_INDEPENDENT)) {
        double left = (v - v0) / (t - t0), right = (v2 - v) / (t2 - t), delta = (t - t0) / (t2 - t0);
        slope = slope * 0.5 + (left * (1.0 - delta) + right * delta) * 0.5;
        double bias_weight = fabs(bias) / 100.0;
        if (bias_weight > 0.0001) {
            double target = bias > 0.0 ? right : left, bias_delta = target - slope;
            slope = slope * (1.0 - bias_weight) + target * bias_weight;
            double beyond = bias_weight - 5.0;   /* a bias past 500 adds ((bias − 500) / 100)² · 40 */
            if (beyond > 0.0) {
                double sign = (fabs(bias_delta) > 0.00001 ? bias_delta : bias) > 0.0 ? 1.0 : -1.0;
                slope += beyond * beyond * sign * 40.0;
            }
        }
    }
    if (flags & KEY_CLAMP_PROGRESSIVE) {
        double sign = slope >= 0.0 ? 1.0 : -1.0, magnitude = sign * slope;
        double range_left = weight_left * (t - t0), range_right = weight_right * (t2 - t);
        double max_left = range_left > 0.0 ? sign * (v - v0) / range_left : 0.0;
        double max_right = range_right > 0.0 ? sign * (v2 - v) / range_right : 0.0;
        if (!(max_left > 0.0)) max_left = 0.0;
        if (!(max_right > 0.0)) max_right = 0.0;
        magnitude = fmin(magnitude, fmin(max_left, max_right));
        slope = sign * magnitude;
    }
    return slope;
}

/* An end key's auto tangent: the one-sided slope (0 when clamped progressively). */
static double auto_tangent_end(double ta, double tb, double va, double vb, double bias, unsigned flags)
{
    if (flags & KEY_CLAMP_PROGRESSIVE) return 0.0;
    if ((flags & KEY_CLAMP) && fabs(vb - va) <= 0.0) return 0.0;
    double slope = (vb - va) / (tb - ta);
    if (!(flags & KEY_TIME_INDEPENDENT)) {
        double beyond = fabs(bias) / 100.0 - 5.0;
        if (beyond > 0.0) slope += beyond * beyond * (bias > 0.0 ? 1.0 : -1.0) * 40.0;
    }
    return slope;
}

void fbx_curve_solve_auto_tangents(FbxCurve *curve)
{
    int n = curve->key_count;
    double stored_left = 0.0, weight_left = 1.0 / 3.0;   /* key i's left slope as the file stores it */
    for (int i = 0; i < n; i++) {
        FbxCurveKey *k = &curve->keys[i];
        double stored_right = k->right_slope, stored_next_left = k->next_left_slope;
        unsigned flags = k->attr_flags;
        bool is_auto = k->interpolation == FBX_INTERPOLATION_CUBIC && !(flags & (KEY_TANGENT_TCB | KEY_TANGENT_USER));
        if (is_auto) {
            double t = key_seconds(k), v = k->value;
            bool has_prev = i > 0 && t > key_seconds(&k[-1]), has_next = i + 1 < n && key_seconds(&k[1]) > t;
            double left, right;
            if (has_prev && has_next) {
                double t0 = key_seconds(&k[-1]), t2 = key_seconds(&k[1]), v0 = k[-1].value, v2 = k[1].value;
                if (fabs(stored_left + stored_right) <= 0.0001) {
                    left = right = auto_tangent(t0, t, t2, v0, v, v2, weight_left, k->right_weight, stored_right, flags);
                } else {
                    left = auto_tangent(t0, t, t2, v0, v, v2, weight_left, k->right_weight, -stored_left, flags);
                    right = auto_tangent(t0, t, t2, v0, v, v2, weight_left, k->right_weight, stored_right, flags);
                }
            } else if (has_prev) {
                left = right = auto_tangent_end(key_seconds(&k[-1]), t, k[-1].value, v, -stored_left, flags);
            } else if (has_next) {
                left = right = auto_tangent_end(t, key_seconds(&k[1]), v, k[1].value, stored_right, flags);
            } else {
                left = right = 0.0;
            }
            if (i > 0) k[-1].next_left_slope = left;
            k->right_slope = right;
        } else if (k->interpolation == FBX_INTERPOLATION_LINEAR && i + 1 < n && key_seconds(&k[1]) > key_seconds(k)) {
            stored_next_left = (k[1].value - k->value) / (key_seconds(&k[1]) - key_seconds(k));
        } else if (k->interpolation == FBX_INTERPOLATION_CONSTANT) {
            stored_next_left = 0.0;
        }
        stored_left = stored_next_left;
        weight_left = k->next_left_weight;
    }
}
