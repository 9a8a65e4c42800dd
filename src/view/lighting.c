/* lighting.c — the light of both players (lighting.h): --lighting's rig, --environment FILE.hdr into a
 * renderer. */
#include "view/lighting.h"
#include "io/hdr_image.h"

#include <stdio.h>
#include <stdlib.h>

void view_light(bool flat, RenderLight *light)
{
    if (flat) render_light_default(light);
    else render_light_pbr(light);
}

/* Reads `path` and hands the image to the skinned renderer or, when it is NULL, the VAT one. */
static bool apply(Renderer *renderer, VatRenderer *vat, const char *path, char *error, size_t error_size)
{
    float *rgb = NULL;
    int width = 0, height = 0;
    if (!hdr_image_load(path, &rgb, &width, &height, error, error_size)) return false;
    char why[512] = "memory or shaders";
    bool ok = renderer ? renderer_set_environment(renderer, rgb, width, height)
                       : vat_renderer_set_environment(vat, rgb, width, height, why, sizeof why);
    free(rgb);
    if (!ok) snprintf(error, error_size, "%s: the environment light could not be set up (%s)", path, why);
    return ok;
}

bool view_environment_apply(Renderer *renderer, const char *path, char *error, size_t error_size)
{
    return apply(renderer, NULL, path, error, error_size);
}

bool view_environment_apply_vat(VatRenderer *renderer, const char *path, char *error, size_t error_size)
{
    return apply(NULL, renderer, path, error, error_size);
}
