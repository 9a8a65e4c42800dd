/* lighting.h — the light both players draw with (the skinned model's renderer and the VAT one):
 * --lighting's rig, and --environment: a Radiance .hdr image as the renderer's ambient light. */
#ifndef SKINVIEW_VIEW_LIGHTING_H
#define SKINVIEW_VIEW_LIGHTING_H

#include "gfx/renderer.h"
#include "gfx/vat_renderer.h"

#include <stdbool.h>
#include <stddef.h>

/* The light of --lighting: render_light_pbr (the default rig) or, when `flat`,
 * render_light_default (the old look). */
void view_light(bool flat, RenderLight *light);

/* Loads `path` (io/hdr_image.h) and hands it to renderer_set_environment; false with one line in
 * error ("PATH: cause"). */
bool view_environment_apply(Renderer *renderer, const char *path, char *error, size_t error_size);
/* The same for the VAT player (vat_renderer_set_environment). */
bool view_environment_apply_vat(VatRenderer *renderer, const char *path, char *error, size_t error_size);

#endif
