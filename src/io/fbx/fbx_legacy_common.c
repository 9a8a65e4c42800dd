/* fbx_legacy_common.c — the helpers both steps of the legacy FBX builder call (fbx_legacy_common.h):
 * a leaf, so that fbx_legacy.c (which runs the steps) and fbx_legacy_mesh.c (a step) do not call
 * each other back. */
#include "fbx_legacy_common.h"

bool fbx_legacy_fail(Legacy *l, const char *format, const char *detail)
{
    if (l->error && l->error_size) {
        snprintf(l->error, l->error_size, format, detail ? detail : "");
        quote_message(l->error, l->error_size);   /* one line, whatever a name holds (base/quote.h) */
    }
    return false;
}

bool fbx_legacy_is_kind(const FbxScene *s, int o, const char *kind)
{
    return o >= 0 && o < s->object_count && strcmp(s->objects[o].kind, kind) == 0;
}

const char *fbx_legacy_record_string(const FbxRecord *r)
{
    return r && r->value_count > 0 && r->values[0].type == FBX_VALUE_STRING ? r->values[0].string : "";
}
