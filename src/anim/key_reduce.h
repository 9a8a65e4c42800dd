/* key_reduce.h — the key-frame optimiser (key_reduce.c): drops the keys that interpolation from
 * the kept neighbours reproduces within a tolerance measured in scene units at the farthest
 * point each joint moves. Run once, at import, when asked (--optimize-keys). */
#ifndef SKINVIEW_KEY_REDUCE_H
#define SKINVIEW_KEY_REDUCE_H

#include "anim.h"

/* The default --optimize-keys tolerance, relative to the model's bind-pose bounding-box diagonal. */
#define KEY_REDUCE_DEFAULT_TOLERANCE 1e-5f

typedef struct KeyReduceStats {
    long  keys_before, keys_after;   /* translation + rotation + scale keys over every clip */
    float diagonal;                  /* the bind pose's bounding-box diagonal (scene units) */
    float tolerance;                 /* the per-channel tolerance used, scene units */
} KeyReduceStats;

/* Reduces the T/R/S keys of every clip in place (counts shrink; the arrays keep their size).
 * relative_tolerance: per-channel position error allowed, as a fraction of the diagonal.
 * First and last keys stay; STEP channels drop only repeated holds; CUBICSPLINE channels and
 * morph-weight tracks are not touched. False when out of memory (nothing changed). */
bool model_reduce_keys(Model *model, float relative_tolerance, KeyReduceStats *stats);

/* The bounding-box diagonal of the bind pose (every mesh placed as bound, and the joints): the
 * model size the tolerance is relative to (1 when empty). */
float model_bind_diagonal(const Model *model);

/* T/R/S keys over every clip. */
long model_key_count(const Model *model);

/* Largest distance (scene units) between the joint origins and skinned vertices of the model
 * posed by `original` and by `reduced` (same joints), sampled at samples_per_second over the
 * clip and at every original key time. -1 when out of memory. */
double key_reduce_measure(const Model *model, const Clip *original, const Clip *reduced, int samples_per_second);

#endif
