/* gltf_webp.h — EXT_texture_webp: a WebP image (a texture's source) decoded to RGBA8.
 * Decoding uses Debian's libwebp (libwebp-dev): lossy and lossless still images, with or without
 * alpha (no alpha: A = 255). Animated WebP is refused (a texture is one image). */
#ifndef SKINVIEW_GLTF_WEBP_H
#define SKINVIEW_GLTF_WEBP_H

#include <stdbool.h>
#include <stddef.h>

/* Decodes the WebP file `data` (size bytes). On success returns true with *width, *height and
 * *rgba = a malloc'd width * height * 4 bytes, rows top to bottom, R G B A per pixel (free() it).
 * Returns false (and sets *rgba = NULL, *width = *height = 0) when the data is not a still WebP
 * image, is damaged or truncated, or memory runs out; the caller writes the one-line error.
 * (WebP itself limits an image to 16383 x 16383 pixels.) */
bool gltf_webp_decode(const void *data, size_t size, int *width, int *height, unsigned char **rgba);

#endif
