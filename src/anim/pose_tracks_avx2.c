/* pose_tracks_avx2.c — pose_tracks.c compiled a second time for CPUs with AVX2 + FMA
 * (CMakeLists.txt gives this file the flags of pose_fast_avx2.c). */
#include "anim.h"

#if ANIM_HAVE_AVX2_KERNELS
#define POSE_FAST_AVX2 1
#include "pose_tracks.c"
#else
typedef int pose_tracks_avx2_is_empty;   /* ISO C: a translation unit needs a declaration */
#endif
