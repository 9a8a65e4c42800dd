/* glcontext.c — the bones-per-mesh limit, the renderer with skinview's shaders found where they are
 * installed (see glcontext.h; the contexts themselves: src/platform/context.c). */
#include "glcontext.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

int glcontext_bones_per_mesh(int requested)
{
    int limit = renderer_max_bones();
    return requested > 0 && requested < limit ? requested : limit;
}

bool app_renderer_init(Renderer *renderer, const Model *model, int max_bones, char *error, size_t error_size)
{
    char vert[1024], frag[1024];
    if (!app_find_data("shaders/skinned.vert", vert, sizeof vert) ||
        !app_find_data("shaders/skinned.frag", frag, sizeof frag)) {
        snprintf(error, error_size, "shaders/skinned.vert or .frag not found next to the binary");
        memset(renderer, 0, sizeof *renderer);
        return false;
    }
    return renderer_init(renderer, model, vert, frag, max_bones, error, error_size);
}
