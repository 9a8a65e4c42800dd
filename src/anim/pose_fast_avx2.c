/* pose_fast_avx2.c — the per-frame functions of pose_fast.c compiled a second time for CPUs
 * with AVX2 + FMA (CMakeLists.txt gives this file -mavx2 -mfma -ffp-contract=fast on x86-64).
 * The same source, so the same formulas: the compiler's VEX encoding and fused multiply-adds
 * are the whole difference. pose_fast.c calls these only when simd.c found AVX2 and FMA. */
#include "anim.h"

#if ANIM_HAVE_AVX2_KERNELS
#define POSE_FAST_AVX2 1
#include "pose_fast.c"
#else
typedef int pose_fast_avx2_is_empty;   /* ISO C: a translation unit needs a declaration */
#endif
