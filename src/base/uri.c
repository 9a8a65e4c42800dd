/* uri.c — decoding the %XX escapes of a URI (uri.h). */
#include "uri.h"

/* glTF URIs are percent-encoded (RFC 3986): Blender writes "My%20Character.bin" and
 * "skin%20diffuse.png" for files with spaces, three.js decodes them, Assimp 5.2 does not.
 * Decodes %XX into out; returns false if `in` has no valid escape (nothing to retry). */
static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool uri_percent_decode(const char *in, char *out, size_t out_size)
{
    bool changed = false;
    size_t n = 0;
    for (const char *c = in; *c && n + 1 < out_size; c++) {
        int hi = c[0] == '%' && c[1] ? hex_value(c[1]) : -1;
        int lo = hi >= 0 && c[2] ? hex_value(c[2]) : -1;
        if (hi >= 0 && lo >= 0 && (hi | lo) != 0) {   /* %00 stays as it is */
            out[n++] = (char)(hi * 16 + lo);
            c += 2;
            changed = true;
        } else
            out[n++] = *c;
    }
    out[n] = '\0';
    return changed;
}
