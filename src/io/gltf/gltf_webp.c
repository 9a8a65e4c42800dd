/* gltf_webp.c — EXT_texture_webp images decoded with libwebp (gltf_webp.h).
 * Rules: WebPGetFeatures reads the header first (size, animation); an animated file is refused;
 * the pixels are decoded straight into a malloc'd buffer (WebPDecodeRGBAInto), so the caller
 * frees them with free() and libwebp's own allocator never leaks out. */
#include "io/gltf/gltf_webp.h"

#include <webp/decode.h>

#include <stdint.h>
#include <stdlib.h>

bool gltf_webp_decode(const void *data, size_t size, int *width, int *height, unsigned char **rgba)
{
    *width = *height = 0;
    *rgba = NULL;
    if (!data || size == 0)
        return false;
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK || features.has_animation || features.width <= 0 ||
        features.height <= 0)
        return false;
    /* RGBA8: 4 bytes per pixel, rows packed (stride = 4 * width); at most 16383^2 * 4 bytes (~1 GiB). */
    const size_t stride = (size_t)features.width * 4;
    const size_t bytes = stride * (size_t)features.height;
    unsigned char *pixels = malloc(bytes);
    if (!pixels)
        return false;
    if (!WebPDecodeRGBAInto(data, size, pixels, bytes, (int)stride)) {
        free(pixels);
        return false;
    }
    *width = features.width;
    *height = features.height;
    *rgba = pixels;
    return true;
}
