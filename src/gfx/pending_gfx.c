/* TEMPORARY: placeholder translation unit until the renderer lands. */
#include "gl.h"
int gfx_pending_placeholder(void) { return 0; }
