/* simd.c — which vector kernels the fast paths run (skin_fast.c, pose_fast.c), chosen once at
 * run time from what the CPU has.
 *
 * The build targets the x86-64 baseline (SSE2), so the same binary runs everywhere; the AVX2 +
 * FMA kernels are compiled with GCC/Clang's per-function target attribute and only called when
 * cpuid says the CPU has both. SKINVIEW_SIMD=sse2 in the environment forces the baseline
 * kernels (so the tests cover both on an AVX2 machine); anim_simd_set() does it in code. */
#include "anim.h"

#include <stdlib.h>
#include <string.h>

static int detected_level(void)
{
    int level = ANIM_SIMD_BASELINE;
#if ANIM_HAVE_AVX2_KERNELS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) level = ANIM_SIMD_AVX2;
#endif
    return level;
}

/* -1: not chosen yet. Read and written with relaxed atomics: skinning threads may ask at once,
 * and every one of them computes the same answer. */
static int chosen_level = -1;

static int clamp_level(int level)
{
    int best = detected_level();
    if (level < ANIM_SIMD_BASELINE) level = ANIM_SIMD_BASELINE;
    return level > best ? best : level;
}

int anim_simd_level(void)
{
    int level = __atomic_load_n(&chosen_level, __ATOMIC_RELAXED);
    if (level >= 0) return level;
    const char *forced = getenv("SKINVIEW_SIMD");   /* once per process, never per frame */
    level = forced && (strcmp(forced, "sse2") == 0 || strcmp(forced, "baseline") == 0) ? ANIM_SIMD_BASELINE
                                                                                         : detected_level();
    __atomic_store_n(&chosen_level, level, __ATOMIC_RELAXED);
    return level;
}

int anim_simd_set(int level)
{
    level = clamp_level(level);
    __atomic_store_n(&chosen_level, level, __ATOMIC_RELAXED);
    return level;
}

const char *anim_simd_name(int level)
{
#if ANIM_HAVE_AVX2_KERNELS
    return level >= ANIM_SIMD_AVX2 ? "avx2+fma" : "sse2";
#elif defined(__SSE2__) && !defined(SKINVIEW_NO_SIMD)
    (void)level;
    return "sse2";
#else
    (void)level;
    return "scalar";
#endif
}
