/* framebuffer.h — an offscreen render target (sRGB colour + depth, optional MSAA)
 * that `--screenshot` and tests draw into and read RGBA pixels back from. */
#ifndef SKINVIEW_FRAMEBUFFER_H
#define SKINVIEW_FRAMEBUFFER_H

#include "gl_types.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct Framebuffer {
    int    width, height;
    int    samples;             /* 0 = single-sampled */
    GLuint fbo;                 /* draw target */
    GLuint color, depth;        /* renderbuffers (multisampled when samples > 0) */
    GLuint resolve_fbo;         /* single-sampled copy for reading back (samples > 0 only) */
    GLuint resolve_color;
} Framebuffer;

/* Creates a width x height target with GL_SRGB8_ALPHA8 colour and 24-bit depth.
 * samples > 0 asks for MSAA (clamped to GL_MAX_SAMPLES; 0 if unsupported). */
bool framebuffer_create(Framebuffer *framebuffer, int width, int height, int samples, char *error,
                        size_t error_size);
void framebuffer_free(Framebuffer *framebuffer);

/* Binds the target for drawing and sets the viewport to its size. */
void framebuffer_bind(const Framebuffer *framebuffer);

/* Resolves MSAA if needed and reads width*height RGBA8 pixels (sRGB-encoded) into
 * `pixels`, rows TOP to bottom (ready for an image file). Returns false on a GL error. */
bool framebuffer_read_rgba(const Framebuffer *framebuffer, unsigned char *pixels);

#endif
