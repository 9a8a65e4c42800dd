/* cli_check.h — which options go together (see cli_check.c). */
#ifndef SKINVIEW_CLI_CHECK_H
#define SKINVIEW_CLI_CHECK_H

#include "options.h"

/* Refuses options that do not go together (a flag without the mode it belongs to, two modes at
 * once) and settles what one option implies for another (--inspect-vertex with --screenshot: the
 * panel in the picture; --no-grid). Called by cli_parse after the last argument. False with one
 * line in `error`. */
bool cli_check(Options *options, char *error, size_t error_size);

/* True when `options` ask for the window (no mode that writes, prints or plays something and exits: --info,
 * --screenshot, --export-gltf, ...). */
bool app_opens_window(const Options *options);

#endif
