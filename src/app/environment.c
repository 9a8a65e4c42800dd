/* environment.c — --environment FILE.hdr into a renderer (environment.h). */
#include "environment.h"
#include "io/hdr_image.h"

#include <stdio.h>
#include <stdlib.h>

bool app_environment_apply(Renderer *renderer, const char *path, char *error, size_t error_size)
{
    float *rgb = NULL;
    int width = 0, height = 0;
    if (!hdr_image_load(path, &rgb, &width, &height, error, error_size)) return false;
    bool ok = renderer_set_environment(renderer, rgb, width, height);
    free(rgb);
    if (!ok) snprintf(error, error_size, "%s: the environment light could not be set up (memory or shaders)", path);
    return ok;
}
