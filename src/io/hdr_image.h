/* hdr_image.h — Radiance .hdr images (RGBE) for --environment, decoded by stb_image (compiled in
 * src/io/import_material.c). */
#ifndef SKINVIEW_HDR_IMAGE_H
#define SKINVIEW_HDR_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* Is `path` a readable Radiance image of a usable size (2 x 1 .. 16384 a side)? Reads the header
 * only. False with the cause in error ("PATH: ..."). */
bool hdr_image_check(const char *path, char *error, size_t error_size);

/* Decodes `path` into *rgb (malloc'd, width * height * 3 linear floats, rows top to bottom;
 * negative or non-finite values become 0). False with the cause in error. */
bool hdr_image_load(const char *path, float **rgb, int *width, int *height, char *error, size_t error_size);

#endif
