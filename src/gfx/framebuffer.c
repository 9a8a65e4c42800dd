/* framebuffer.c — offscreen sRGB render target with optional MSAA resolve (see framebuffer.h). */
#include "framebuffer.h"
#include "gl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GLuint make_renderbuffer(GLenum format, int width, int height, int samples)
{
    GLuint id = 0;
    glGenRenderbuffers(1, &id);
    glBindRenderbuffer(GL_RENDERBUFFER, id);
    if (samples > 0)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, width, height);
    else
        glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    return id;
}

bool framebuffer_create(Framebuffer *framebuffer, int width, int height, int samples, char *error,
                        size_t error_size)
{
    memset(framebuffer, 0, sizeof *framebuffer);
    GLint max_size = 0, max_samples = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    if (width < 1 || height < 1 || width > max_size || height > max_size) {
        snprintf(error, error_size, "image size %dx%d is outside 1..%d on this GL", width, height, (int)max_size);
        return false;
    }
    if (samples > max_samples) samples = max_samples;
    if (samples < 0) samples = 0;
    framebuffer->width = width;
    framebuffer->height = height;
    framebuffer->samples = samples;

    framebuffer->color = make_renderbuffer(GL_SRGB8_ALPHA8, width, height, samples);
    framebuffer->depth = make_renderbuffer(GL_DEPTH_COMPONENT24, width, height, samples);
    glGenFramebuffers(1, &framebuffer->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, framebuffer->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, framebuffer->depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status == GL_FRAMEBUFFER_COMPLETE && samples > 0) {
        framebuffer->resolve_color = make_renderbuffer(GL_SRGB8_ALPHA8, width, height, 0);
        glGenFramebuffers(1, &framebuffer->resolve_fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer->resolve_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, framebuffer->resolve_color);
        status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(error, error_size, "offscreen framebuffer %dx%d (%d samples) is incomplete (0x%04x)", width, height,
                 samples, status);
        framebuffer_free(framebuffer);
        return false;
    }
    return true;
}

void framebuffer_free(Framebuffer *framebuffer)
{
    if (framebuffer->fbo) glDeleteFramebuffers(1, &framebuffer->fbo);
    if (framebuffer->resolve_fbo) glDeleteFramebuffers(1, &framebuffer->resolve_fbo);
    GLuint renderbuffers[3] = {framebuffer->color, framebuffer->depth, framebuffer->resolve_color};
    for (int i = 0; i < 3; i++)
        if (renderbuffers[i]) glDeleteRenderbuffers(1, &renderbuffers[i]);
    memset(framebuffer, 0, sizeof *framebuffer);
}

void framebuffer_bind(const Framebuffer *framebuffer)
{
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer->fbo);
    glViewport(0, 0, framebuffer->width, framebuffer->height);
}

bool framebuffer_read_rgba(const Framebuffer *framebuffer, unsigned char *pixels)
{
    int width = framebuffer->width, height = framebuffer->height;
    GLuint source = framebuffer->fbo;
    if (framebuffer->samples > 0) {   /* MSAA: resolve into the single-sampled copy first */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer->fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer->resolve_fbo);
        glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        source = framebuffer->resolve_fbo;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (glGetError() != GL_NO_ERROR) return false;
    /* GL returns the bottom row first; image files want the top row first. */
    size_t row = (size_t)width * 4;
    unsigned char *swap = malloc(row);
    if (!swap) return false;
    for (int y = 0; y < height / 2; y++) {
        unsigned char *a = pixels + row * (size_t)y, *b = pixels + row * (size_t)(height - 1 - y);
        memcpy(swap, a, row);
        memcpy(a, b, row);
        memcpy(b, swap, row);
    }
    free(swap);
    return true;
}
