/* testimage.h — screenshots the tests take through the real binary, decoded (stb_image, compiled
 * privately into util/testimage.c), and the pixel counts they compare. */
#ifndef SKINVIEW_TESTIMAGE_H
#define SKINVIEW_TESTIMAGE_H

#include <stdbool.h>

typedef struct TestImage {
    int            width, height;
    unsigned char *rgba;   /* NULL when the picture could not be taken or read */
} TestImage;

/* A test a pixel (4 bytes, RGBA) passes or fails. */
typedef bool (*TestPixel)(const unsigned char *p);

/* skinview 'MODEL' ARGUMENTS --screenshot 'PNG' (ARGUMENTS already quoted), then PNG decoded: a
 * failed CHECK when it exits non-zero ("ARGUMENTS: exit N: output") or the file does not decode. */
TestImage test_screenshot(const char *model, const char *arguments, const char *png);
/* The PNG (or other stb_image format) at path as RGBA; rgba is NULL if it cannot be read. */
TestImage test_image_load(const char *path);
void      test_image_free(TestImage *image);

/* Pixels passing `test`; pixels that differ by more than 24/255 in some channel (-1 when either
 * image is missing or the sizes differ). */
int test_image_count(const TestImage *image, TestPixel test);
int test_image_differing(const TestImage *a, const TestImage *b);

#endif
