/* testx11.c — the window's pixels as the X server has them (testx11.h). Compiled into the tests
 * that speak Xlib (SKINVIEW_TEST_X11, registered with SOURCES util/testx11.c). */
#include "testx11.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdlib.h>

unsigned char *test_grab_window(const char *window_id, int *width, int *height)
{
    Display *display = XOpenDisplay(NULL);
    if (!display) return NULL;
    Window target = (Window)strtoul(window_id, NULL, 10);
    XWindowAttributes attributes;
    unsigned char *rgb = NULL;
    if (XGetWindowAttributes(display, target, &attributes)) {
        XImage *image = XGetImage(display, target, 0, 0, (unsigned)attributes.width, (unsigned)attributes.height, AllPlanes,
                                  ZPixmap);
        if (image) {
            *width = attributes.width;
            *height = attributes.height;
            rgb = malloc((size_t)attributes.width * (size_t)attributes.height * 3);
            for (int y = 0; rgb && y < attributes.height; y++)
                for (int x = 0; x < attributes.width; x++) {
                    unsigned long pixel = XGetPixel(image, x, y);
                    unsigned char *p = rgb + 3 * ((size_t)y * (size_t)attributes.width + (size_t)x);
                    p[0] = (unsigned char)((pixel & image->red_mask) >> 16);
                    p[1] = (unsigned char)((pixel & image->green_mask) >> 8);
                    p[2] = (unsigned char)(pixel & image->blue_mask);
                }
            XDestroyImage(image);
        }
    }
    XCloseDisplay(display);
    return rgb;
}
