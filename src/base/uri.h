/* uri.h — URIs as files name them: glTF's buffer and image URIs, Assimp's texture paths.
 * Plain C, no other dependency. */
#ifndef SKINVIEW_URI_H
#define SKINVIEW_URI_H

#include <stdbool.h>
#include <stddef.h>

/* Decodes the %XX escapes (RFC 3986) of `in` into out (at most out_size bytes with the NUL); %00
 * stays as it is. Returns false if `in` has no valid escape (nothing to retry). */
bool uri_percent_decode(const char *in, char *out, size_t out_size);

#endif
