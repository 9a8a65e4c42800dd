/* gl_types.h — the GL scalar types that gfx's public headers name (GLuint handles and the like),
 * without the GL functions: a room that may not call GL (src/view, src/app, src/platform) can hold
 * a Renderer or a Framebuffer but cannot include gl.h (glad is linked to src/gfx alone). The same
 * typedefs as glad's <glad/gl.h>; C11 allows a typedef to be repeated with the same type. */
#ifndef SKINVIEW_GL_TYPES_H
#define SKINVIEW_GL_TYPES_H

typedef unsigned int GLenum;
typedef unsigned char GLboolean;
typedef int GLint;
typedef unsigned int GLuint;
typedef int GLsizei;
typedef float GLfloat;

#endif
