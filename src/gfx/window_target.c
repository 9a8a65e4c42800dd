/* window_target.c — the window's framebuffer: bind, read back flipped (see window_target.h). */
#include "window_target.h"
#include "gl.h"

#include <stddef.h>

void window_target_bind(int width, int height)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
}

void window_target_read_rgba(int width, int height, unsigned char *pixels)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    size_t stride = (size_t)width * 4;
    for (int y = 0; y < height / 2; y++) {   /* GL rows go bottom-up, image rows top-down */
        unsigned char *top = pixels + (size_t)y * stride, *bottom = pixels + (size_t)(height - 1 - y) * stride;
        for (size_t i = 0; i < stride; i++) {
            unsigned char byte = top[i];
            top[i] = bottom[i];
            bottom[i] = byte;
        }
    }
    for (size_t i = 3; i < stride * (size_t)height; i += 4) pixels[i] = 255;
}
