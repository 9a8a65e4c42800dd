/* environment.h — --environment: a Radiance .hdr image as the renderer's ambient light. */
#ifndef SKINVIEW_APP_ENVIRONMENT_H
#define SKINVIEW_APP_ENVIRONMENT_H

#include "gfx/renderer.h"
#include "gfx/vat_renderer.h"

#include <stdbool.h>
#include <stddef.h>

/* Loads `path` (io/hdr_image.h) and hands it to renderer_set_environment; false with one line in
 * error ("PATH: cause"). */
bool app_environment_apply(Renderer *renderer, const char *path, char *error, size_t error_size);
/* The same for the VAT player (vat_renderer_set_environment). */
bool app_environment_apply_vat(VatRenderer *renderer, const char *path, char *error, size_t error_size);

#endif
