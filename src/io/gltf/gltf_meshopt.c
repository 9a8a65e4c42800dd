/* gltf_meshopt.c — EXT_meshopt_compression bufferViews, decoded with meshoptimizer (gltf_meshopt.h).
 *
 * Rules (EXT_meshopt_compression, "Decoding"):
 *   - ATTRIBUTES: vertex codec; byteStride a multiple of 4 and at most 256.
 *   - TRIANGLES:  index-buffer codec; count (indices) a multiple of 3; byteStride 2 or 4.
 *   - INDICES:    index-sequence codec; byteStride 2 or 4.
 *   - filters apply to ATTRIBUTES only, in place after decoding: OCTAHEDRAL (byteStride 4 or 8),
 *     QUATERNION (byteStride 8), EXPONENTIAL (byteStride a multiple of 4).
 *   - The first byte of a stream names its codec and version: 0xA0 | v vertex, 0xE0 | v index
 *     buffer, 0xD0 | v index sequence. The extension writes 0xA0, 0xE1 and 0xD1; Debian's
 *     meshoptimizer 0.18 reads vertex version 0 and index versions 0 and 1, so those are accepted
 *     (a newer version is refused by name, not decoded as garbage).
 * meshoptimizer asserts these rules instead of returning an error, so they are checked here first;
 * its decoders then check the stream against source_size themselves (they are written for
 * untrusted input) and write no more than count * byte_stride bytes.
 */
#include "io/gltf/gltf_meshopt.h"
#include "base/quote.h"

#include <meshoptimizer.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* One line into error (when there is room), printf-style; always returns false. */
static bool meshopt_fail(char *error, size_t error_size, const char *format, ...)
{
    if (error && error_size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, error_size, format, args);
        va_end(args);
        quote_message(error, error_size);
    }
    return false;
}

/* The stream's first byte must be `codec_tag` (high nibble) with a version <= max_version (low nibble). */
static bool meshopt_check_header(const unsigned char *bytes, size_t size, unsigned codec_tag, unsigned max_version,
                                 const char *mode, char *error, size_t error_size)
{
    if (size < 1)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: empty %s stream", mode);
    if ((bytes[0] & 0xF0u) != codec_tag)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: the stream is not a %s stream (header byte 0x%02X)",
                            mode, bytes[0]);
    if ((bytes[0] & 0x0Fu) > max_version)
        return meshopt_fail(error, error_size,
                            "EXT_meshopt_compression: %s stream version %u is not supported (meshoptimizer %d.%02d reads up to %u)",
                            mode, bytes[0] & 0x0Fu, MESHOPTIMIZER_VERSION / 1000, (MESHOPTIMIZER_VERSION % 1000) / 10,
                            max_version);
    return true;
}

bool gltf_meshopt_decode(void *out, size_t count, size_t byte_stride, const void *source, size_t source_size,
                         const char *mode, const char *filter, char *error, size_t error_size)
{
    if (!out || !source || !mode)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: no output, source or mode");
    if (count == 0)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: count is 0 (at least 1)");
    if (byte_stride == 0 || count > SIZE_MAX / byte_stride)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: count %zu x byteStride %zu is not a size", count,
                            byte_stride);
    if (filter && strcmp(filter, "NONE") == 0)
        filter = NULL;
    const unsigned char *bytes = source;

    if (strcmp(mode, "ATTRIBUTES") == 0) {
        if (byte_stride % 4 != 0 || byte_stride > 256)
            return meshopt_fail(error, error_size,
                                "EXT_meshopt_compression: ATTRIBUTES byteStride %zu (a multiple of 4, at most 256)", byte_stride);
        if (filter) {   /* each filter's stride rule, checked before any work */
            bool known = strcmp(filter, "OCTAHEDRAL") == 0 || strcmp(filter, "QUATERNION") == 0 ||
                         strcmp(filter, "EXPONENTIAL") == 0;
            if (!known)
                return meshopt_fail(error, error_size, "EXT_meshopt_compression: unknown filter '%s'", QUOTED(filter));
            bool stride_ok = strcmp(filter, "OCTAHEDRAL") == 0   ? (byte_stride == 4 || byte_stride == 8)
                             : strcmp(filter, "QUATERNION") == 0 ? byte_stride == 8
                                                                 : true;   /* EXPONENTIAL: any multiple of 4 */
            if (!stride_ok)
                return meshopt_fail(error, error_size, "EXT_meshopt_compression: filter %s does not take byteStride %zu (%s)",
                                    filter, byte_stride, strcmp(filter, "OCTAHEDRAL") == 0 ? "4 or 8" : "8");
        }
        if (!meshopt_check_header(bytes, source_size, 0xA0u, 0, mode, error, error_size))
            return false;
        if (meshopt_decodeVertexBuffer(out, count, byte_stride, bytes, source_size) != 0)
            return meshopt_fail(error, error_size,
                                "EXT_meshopt_compression: damaged or truncated ATTRIBUTES stream (%zu bytes for %zu x %zu)",
                                source_size, count, byte_stride);
        if (!filter)
            return true;
        /* The filters turn the decoded integers back into the accessor's values, in place
         * (formulas in meshoptimizer.h: octahedral -> unit vector, 3 smallest components + index
         * -> unit quaternion, 2^E * M -> float). */
        if (strcmp(filter, "OCTAHEDRAL") == 0)
            meshopt_decodeFilterOct(out, count, byte_stride);
        else if (strcmp(filter, "QUATERNION") == 0)
            meshopt_decodeFilterQuat(out, count, byte_stride);
        else
            meshopt_decodeFilterExp(out, count, byte_stride);
        return true;
    }

    if (strcmp(mode, "TRIANGLES") != 0 && strcmp(mode, "INDICES") != 0)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: unknown mode '%s'", QUOTED(mode));
    if (filter)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: filter '%s' with mode %s (ATTRIBUTES only)",
                            QUOTED(filter), mode);
    if (byte_stride != 2 && byte_stride != 4)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: %s byteStride %zu (2 or 4)", mode, byte_stride);
    bool triangles = strcmp(mode, "TRIANGLES") == 0;   /* else INDICES */
    if (triangles && count % 3 != 0)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: TRIANGLES count %zu is not a multiple of 3", count);
    /* header byte: 0xE0 an index buffer (triangles), 0xD0 an index sequence; version 1 */
    if (!meshopt_check_header(bytes, source_size, triangles ? 0xE0u : 0xD0u, 1, mode, error, error_size)) return false;
    int status = triangles ? meshopt_decodeIndexBuffer(out, count, byte_stride, bytes, source_size)
                           : meshopt_decodeIndexSequence(out, count, byte_stride, bytes, source_size);
    if (status != 0)
        return meshopt_fail(error, error_size, "EXT_meshopt_compression: damaged or truncated %s stream (%zu bytes for %zu indices)",
                            mode, source_size, count);
    return true;
}
