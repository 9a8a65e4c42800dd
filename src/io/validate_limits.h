/* validate_limits.h — the limits model_validate() (validate.h) holds every imported model to:
 * counts, durations, texture sides, magnitudes. Readers that repair early use them as well. */
#ifndef SKINVIEW_VALIDATE_LIMITS_H
#define SKINVIEW_VALIDATE_LIMITS_H

#define VALIDATE_MAX_JOINTS       65536      /* more joints than any rig: rejected */
#define VALIDATE_MAX_BONES        65535      /* joint_indices are uint16_t */
#define VALIDATE_MAX_CLIP_SECONDS 86400.0f   /* a clip longer than a day is a unit error: dropped */
#define VALIDATE_MAX_TEXTURE_SIDE 16384      /* larger textures are dropped (GL limits, memory) */
/* Magnitudes: finite is not enough, 1e35 * 1e35 is infinite. These keep every product the
 * animation path forms (joint = parent * local, palette = joint * inverse bind, palette * vertex)
 * far inside float range (3.4e38): */
#define VALIDATE_MAX_COORDINATE   1e12f      /* |vertex position|, |morph delta|, inverse bind entries */
#define VALIDATE_MAX_EXTENT       1e12f      /* bound on how far any joint can get from the origin */
#define VALIDATE_MAX_SCALE        1e8f       /* bound on a joint's accumulated scale */
#define VALIDATE_MIN_BIND_SCALE   1e-6f      /* inverse bind axis lengths: 1e-6 .. 1e6 */
#define VALIDATE_MAX_MORPH_WEIGHT 1000.0f    /* morph weights beyond +-1000 are clamped */
#define VALIDATE_MAX_NORMAL_DELTA 1000.0f    /* |morph normal delta|: two unit normals differ by at most 2;
                                                beyond this a delta times a weight can overflow to Inf (fuzzer) */

#endif
