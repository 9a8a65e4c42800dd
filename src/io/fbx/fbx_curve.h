/* fbx_curve.h — the value of one FBX animation curve at a time (stage 2 of the FBX reader).
 *
 * A curve (fbx_scene.h FbxCurve: keys decoded from the file) is evaluated the way the FBX SDK
 * and Maya do:
 *   - between keys k and k+1, by key k's interpolation:
 *       constant   v_k (or v_k+1 with constant_next),
 *       linear     v_k + (v_k+1 − v_k) · (t − t_k) / (t_k+1 − t_k),
 *       cubic      a Bézier curve in (time, value): P0 = (t_k, v_k),
 *                  P1 = P0 + w_r · Δt · (1, s_r), P2 = P3 − w_l · Δt · (1, s_l), P3 = (t_k+1, v_k+1),
 *                  s_r / s_l the right slope of key k and the left slope of key k+1 (value per
 *                  second), w_r / w_l their weights (1/3 unweighted), Δt = t_k+1 − t_k; the Bézier
 *                  parameter u is solved from the time first (x(u) = t), then the value is y(u);
 *   - before the first key / after the last, by the pre- / post-extrapolation: constant (hold the
 *     end key), repetition (the curve repeats with period t_last − t_first), mirror repetition
 *     (every other period runs backwards), relative repetition (Maya "cycle with offset": each
 *     period adds v_last − v_first), keep slope (a line with the end segment's slope). A
 *     repetition count >= 0 holds the end key after that many periods.
 * Time in seconds of the file's absolute time line (ticks / FBX_TICKS_PER_SECOND).
 */
#ifndef SKINVIEW_FBX_CURVE_H
#define SKINVIEW_FBX_CURVE_H

#include "fbx_scene.h"

double fbx_curve_evaluate(const FbxCurve *curve, double seconds);

/* Cubic keys with automatic tangents (KeyAttrFlags: cubic, neither TCB nor user tangents) store
 * an auto bias where the slopes go: this puts the slopes Maya computes there instead (the chord
 * through the neighbours, blended and clamped by the key's flags; 0 at a clamped end key).
 * Called once per curve before evaluation. */
void fbx_curve_solve_auto_tangents(FbxCurve *curve);

/* Bit (1 << FbxInterpolation) for each interpolation the curve's keys use (the last key's own
 * interpolation leads nowhere and is not counted). */
unsigned fbx_curve_interpolations(const FbxCurve *curve);
/* Bit (1 << extrapolation) for the pre and post extrapolation of a curve with keys, unless constant. */
unsigned fbx_curve_extrapolations(const FbxCurve *curve);
/* "constant", "linear", "cubic"; "constant", "repetition", "mirror", "keep-slope", "relative-repetition" */
const char *fbx_interpolation_name(int interpolation);
const char *fbx_extrapolation_name(int extrapolation);

#endif
