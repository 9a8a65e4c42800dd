/* gltf_meshopt.h — EXT_meshopt_compression: one compressed bufferView decoded into its plain bytes.
 *
 * The extension stores a bufferView as a meshoptimizer stream (extensions.EXT_meshopt_compression
 * of the bufferView: buffer, byteOffset, byteLength = the compressed `source`; count, byteStride,
 * mode, filter = how to decode it). The decoded view is `count * byte_stride` bytes, read by the
 * view's accessors as if it had been stored plainly. Decoding uses Debian's meshoptimizer
 * (libmeshoptimizer-dev, 0.18): vertex codec version 0, index codecs versions 0 and 1 (the extension
 * writes 0 and 1); a newer stream is refused with one line.
 */
#ifndef SKINVIEW_GLTF_MESHOPT_H
#define SKINVIEW_GLTF_MESHOPT_H

#include <stdbool.h>
#include <stddef.h>

/* Decodes one EXT_meshopt_compression bufferView into `out`, which holds count * byte_stride bytes.
 *   mode:   "ATTRIBUTES" (vertex codec: byte_stride a multiple of 4, at most 256),
 *           "TRIANGLES"  (index-buffer codec: count a multiple of 3, byte_stride 2 or 4),
 *           "INDICES"    (index-sequence codec: byte_stride 2 or 4).
 *   filter: NULL or "NONE"; with ATTRIBUTES only, applied after decoding, in place:
 *           "OCTAHEDRAL"  (byte_stride 4 or 8: K-bit octahedral unit vectors -> normalized int8/int16),
 *           "QUATERNION"  (byte_stride 8: 3 components + the index of the largest -> normalized int16 x4),
 *           "EXPONENTIAL" (byte_stride a multiple of 4: 8-bit exponent, 24-bit mantissa -> float32).
 * count is at least 1 (the extension's schema). `source` is source_size bytes; nothing outside
 * `source` or `out` is read or written. Returns false with one line in `error` (no trailing
 * newline; error may be NULL when error_size is 0) when a rule is broken or the stream is damaged
 * (`out` is then unspecified). */
bool gltf_meshopt_decode(void *out, size_t count, size_t byte_stride, const void *source, size_t source_size,
                         const char *mode, const char *filter, char *error, size_t error_size);

#endif
