/* layers_probe_gl.c — compiled with src/view's include folders by docs_layers_view_cannot_include_gl: it must
 * not compile, since only src/gfx may include GL (glad is linked to skinview_gfx alone). */
#include "gfx/gl.h"
