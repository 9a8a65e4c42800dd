/* import_common.c — the conversions every Assimp import stage shares (import_common.h): names to
 * valid UTF-8, Assimp's row-major matrices and (w, x, y, z) quaternions to cglm's, one-line errors. */
#include "import_common.h"
#include "base/quote.h"

#include <assimp/types.h>

#include <math.h>
#include <string.h>
#include <strings.h>

/* Names are stored as valid UTF-8 (they reach JSON, the overlay and OBJ group names):
 * bytes that are not UTF-8 become U+FFFD and a long name is cut between characters.
 * Lookups by name (bones, channels) use the untouched aiScene strings. */
void import_copy_name(char dst[SV_NAME_MAX], const struct aiString *src)
{
    size_t length = src->length < MAXLEN ? src->length : MAXLEN;
    utf8_copy_valid(dst, SV_NAME_MAX, src->data, length);
}

bool import_matrix_is_finite(const struct aiMatrix4x4 *m)
{
    const float *f = &m->a1;
    for (int i = 0; i < 16; i++)
        if (!isfinite(f[i])) return false;
    return true;
}

/* Row-major aiMatrix4x4 -> column-major cglm mat4: out[column][row] = ai[row][column]. */
void import_matrix_from_assimp(const struct aiMatrix4x4 *m, mat4 out)
{
    out[0][0] = m->a1; out[0][1] = m->b1; out[0][2] = m->c1; out[0][3] = m->d1;
    out[1][0] = m->a2; out[1][1] = m->b2; out[1][2] = m->c2; out[1][3] = m->d2;
    out[2][0] = m->a3; out[2][1] = m->b3; out[2][2] = m->c3; out[2][3] = m->d3;
    out[3][0] = m->a4; out[3][1] = m->b4; out[3][2] = m->c4; out[3][3] = m->d4;
}

/* aiQuaternion (w, x, y, z) -> unit cglm versor (x, y, z, w); a zero quaternion becomes the identity. */
void import_quat_from_assimp(const struct aiQuaternion *q, versor out)
{
    float len = sqrtf(q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w);
    if (!(len > 1e-12f) || !isfinite(len)) {
        glm_quat_identity(out);
        return;
    }
    out[0] = q->x / len;
    out[1] = q->y / len;
    out[2] = q->z / len;
    out[3] = q->w / len;
}

bool import_is_fbx_name(const char *path, const char *hint)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    return path ? dot && strcasecmp(dot, ".fbx") == 0 : hint && strcasecmp(hint, "fbx") == 0;
}

void import_one_line(char *text, size_t size)
{
    quote_message(text, size);   /* base/quote.h: controls escaped, invalid UTF-8 escaped, trailing space dropped */
}
