/* hdr_image.c — Radiance .hdr images for --environment (hdr_image.h). */
#include "hdr_image.h"
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_image.h"   /* the implementation is compiled in import_material.c */
#pragma GCC diagnostic pop

bool hdr_image_check(const char *path, char *error, size_t error_size)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, error_size, "%s: cannot open the environment image", path);
        return false;
    }
    int width = 0, height = 0, channels = 0;
    bool hdr = stbi_is_hdr_from_file(file) != 0;
    bool header = hdr && stbi_info_from_file(file, &width, &height, &channels) != 0;
    fclose(file);
    if (!hdr || !header) {
        snprintf(error, error_size, "%s: not a Radiance .hdr image (--environment takes an equirectangular .hdr)", path);
        return false;
    }
    if (width < 2 || height < 1 || width > VALIDATE_MAX_TEXTURE_SIDE || height > VALIDATE_MAX_TEXTURE_SIDE) {
        snprintf(error, error_size, "%s: an environment image of %d x %d pixels (2 x 1 to 16384 a side)", path, width,
                 height);
        return false;
    }
    return true;
}

bool hdr_image_load(const char *path, float **rgb, int *width, int *height, char *error, size_t error_size)
{
    *rgb = NULL;
    if (!hdr_image_check(path, error, error_size)) return false;
    int channels = 0;
    float *pixels = stbi_loadf(path, width, height, &channels, 3);
    if (!pixels) {
        snprintf(error, error_size, "%s: the environment image does not decode (%s)", path, stbi_failure_reason());
        return false;
    }
    size_t count = (size_t)*width * (size_t)*height * 3;
    for (size_t i = 0; i < count; i++)
        if (!(pixels[i] > 0.0f) || !isfinite(pixels[i])) pixels[i] = 0.0f;
    *rgb = pixels;   /* stb_image allocates with malloc: free() matches */
    return true;
}
