/* gl.h — the one include for OpenGL in skinview: the glad 3.3 core loader. */
#ifndef SKINVIEW_GL_H
#define SKINVIEW_GL_H
#include <glad/gl.h>
#endif
