/* testimage.c — screenshots through the binary and their pixels (testimage.h). stb_image is compiled
 * here with static linkage, so it never meets the copy inside skinview_io. */
#include "testimage.h"
#include "testutil.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
/* stb_image 2.27 declares its *_thread setters static without defining them under STB_IMAGE_STATIC */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_image.h"

#include <stdlib.h>

TestImage test_image_load(const char *path)
{
    TestImage image = {0, 0, NULL};
    int channels;
    image.rgba = stbi_load(path, &image.width, &image.height, &channels, 4);
    return image;
}

TestImage test_screenshot(const char *model, const char *arguments, const char *png)
{
    char command[4096], output[4096];
    snprintf(command, sizeof command, "'%s' '%s' %s --screenshot '%s' 2>&1", SKINVIEW_BINARY, model, arguments, png);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "%s: exit %d: %s", arguments, code, output);
    if (code != 0) return (TestImage){0, 0, NULL};
    TestImage image = test_image_load(png);
    CHECK(image.rgba != NULL, "%s decodes", png);
    return image;
}

void test_image_free(TestImage *image)
{
    stbi_image_free(image->rgba);
    image->rgba = NULL;
}

int test_image_count(const TestImage *image, TestPixel test)
{
    int n = 0;
    for (int i = 0; image->rgba && i < image->width * image->height; i++) n += test(image->rgba + 4 * i);
    return n;
}

int test_image_differing(const TestImage *a, const TestImage *b)
{
    if (!a->rgba || !b->rgba || a->width != b->width || a->height != b->height) return -1;
    int n = 0;
    for (int i = 0; i < a->width * a->height; i++)
        for (int c = 0; c < 3; c++)
            if (abs((int)a->rgba[4 * i + c] - (int)b->rgba[4 * i + c]) > 24) {
                n++;
                break;
            }
    return n;
}
