/* fbx_scene_curve.c — animation curves of the FBX object graph, decoded into fbx_scene.h FbxCurve.
 *
 * Rules of this step:
 * Curve keys (fbx_scene.h FbxCurve):
 *   7.x   KeyTime (int64 ticks), KeyValueFloat or KeyValueDouble, KeyAttrFlags, KeyAttrDataFloat
 *         (4 per attribute: right slope, next-left slope, packed weights, packed velocities),
 *         KeyAttrRefCount (attribute i applies to the next RefCount[i] keys). Flags: 0x2 constant,
 *         0x4 linear, 0x8 cubic; 0x100 with constant = constant-next; 0x01000000 right weighted,
 *         0x02000000 next-left weighted. Packed weights (the float's 32 bits as an integer): low 16
 *         bits = right weight x 9999, high 16 = next-left weight x 9999; an unweighted side is 1/3.
 *         ASCII files write KeyAttrDataFloat as those 32-bit patterns, as integers.
 *   FBX 6 `Key: time, value, mode…` per key, mode: L (linear); C then s (constant, standard) or
 *         n (constant-next); U (cubic) then a tangent letter (a auto, s user, b break: s and b are
 *         followed by two slopes, right and next-left, in value per second; t TCB; numbers of other
 *         letters are skipped) and a weight letter (a: right and next-left weights follow; r: right;
 *         l: next-left; n: none). The letters become the KeyAttrFlags a 7.x file would carry.
 *         Binary files store the letters as one-byte 'C' values.
 *   Keys are kept in strictly increasing time (a damaged file's repeats and reversals are dropped).
 *   Pre- / post-extrapolation: the Type letter R, M, K, A (repetition, mirror, keep slope, relative
 *   repetition), anything else constant; Repetition the count (-1: none given).
 */
#include "fbx_scene_builder.h"

/* ---------------------------------------------------------------- curves */

/* A 32-bit pattern of KeyAttrDataFloat entry i (binary: the float's bits; ASCII: the integer). */
static uint32_t attr_bits(const FbxRecord *data, size_t i)
{
    const FbxValue *v = data && data->value_count == 1 ? &data->values[0] : NULL;
    if (!v || i >= v->length) return 0;
    if (v->type == FBX_VALUE_INTEGER_ARRAY) return (uint32_t)v->integers[i];
    if (v->type == FBX_VALUE_REAL_ARRAY) {
        float f = (float)v->reals[i];
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    return 0;
}

static float bits_to_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static FbxExtrapolation extrapolation_of(const FbxRecord *r, int *repetitions)
{
    *repetitions = -1;
    if (!r) return FBX_EXTRAPOLATION_CONSTANT;
    const FbxRecord *type = fbx_record_child(r, "Type"), *rep = fbx_record_child(r, "Repetition");
    if (rep && rep->value_count > 0 && rep->values[0].type == FBX_VALUE_INTEGER) *repetitions = (int)rep->values[0].integer;
    int letter = 0;
    if (type && type->value_count > 0) {
        const FbxValue *v = &type->values[0];
        if (v->type == FBX_VALUE_STRING && v->length > 0) letter = v->string[0];
        else if (v->type == FBX_VALUE_INTEGER) letter = (int)v->integer;
    }
    switch (letter) {
    case 'R': return FBX_EXTRAPOLATION_REPETITION;
    case 'M': return FBX_EXTRAPOLATION_MIRROR_REPETITION;
    case 'K': return FBX_EXTRAPOLATION_KEEP_SLOPE;
    case 'A': return FBX_EXTRAPOLATION_RELATIVE_REPETITION;
    default: return FBX_EXTRAPOLATION_CONSTANT;
    }
}

/* Keeps keys in strictly increasing time (a damaged file's repeats and reversals are dropped). */
static int keep_increasing(FbxCurveKey *keys, int count)
{
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (kept == 0 || keys[i].time > keys[kept - 1].time) keys[kept++] = keys[i];
    return kept;
}

bool fbx_scene_decode_curve_7x(Builder *b, const FbxRecord *r, FbxCurve *curve)
{
    size_t time_count, value_count;
    const int64_t *times = fbx_record_integers(b->doc, fbx_record_child(r, "KeyTime"), &time_count);
    const FbxRecord *value_record = fbx_record_child(r, "KeyValueFloat");
    if (!value_record) value_record = fbx_record_child(r, "KeyValueDouble");
    const double *values = fbx_record_reals(b->doc, value_record, &value_count);
    size_t flag_count, ref_count;
    const int64_t *flags = fbx_record_integers(b->doc, fbx_record_child(r, "KeyAttrFlags"), &flag_count);
    const int64_t *refs = fbx_record_integers(b->doc, fbx_record_child(r, "KeyAttrRefCount"), &ref_count);
    const FbxRecord *data = fbx_record_child(r, "KeyAttrDataFloat");
    const FbxRecord *def = fbx_record_child(r, "Default");
    if (def && def->value_count > 0) curve->default_value = def->values[0].type == FBX_VALUE_INTEGER ? (double)def->values[0].integer : def->values[0].real;
    curve->pre = extrapolation_of(fbx_record_child(r, "Pre-Extrapolation"), &curve->pre_repetitions);
    curve->post = extrapolation_of(fbx_record_child(r, "Post-Extrapolation"), &curve->post_repetitions);
    size_t n = time_count < value_count ? time_count : value_count;
    if (n == 0) return true;
    if (n > (size_t)1 << 28) return fbx_scene_build_fail(b, "FBX: curve with too many keys");
    FbxCurveKey *keys = fbx_document_alloc(b->doc, n * sizeof *keys);
    if (!keys) return fbx_scene_build_fail(b, "FBX: out of memory");
    size_t attr = 0;          /* the attribute entry of key i */
    int64_t left_in_run = ref_count > 0 ? refs[0] : (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        while (left_in_run <= 0 && attr + 1 < ref_count) left_in_run = refs[++attr];
        left_in_run--;
        FbxCurveKey *k = &keys[i];
        memset(k, 0, sizeof *k);
        k->time = times[i];
        k->value = values[i];
        uint32_t f = flag_count > 0 ? (uint32_t)flags[attr < flag_count ? attr : flag_count - 1] : 0x4;
        k->attr_flags = f;
        k->interpolation = (f & 0x2) ? FBX_INTERPOLATION_CONSTANT : (f & 0x8) ? FBX_INTERPOLATION_CUBIC : FBX_INTERPOLATION_LINEAR;
        k->constant_next = k->interpolation == FBX_INTERPOLATION_CONSTANT && (f & 0x100);
        size_t d = 4 * (attr < flag_count || flag_count == 0 ? attr : flag_count - 1);
        k->right_slope = bits_to_float(attr_bits(data, d));
        k->next_left_slope = bits_to_float(attr_bits(data, d + 1));
        uint32_t weights = attr_bits(data, d + 2);
        /* packed weights: low 16 bits right x 9999, high 16 next-left x 9999; 1/3 when not weighted */
        k->right_weight = (f & 0x01000000) ? (double)(weights & 0xffff) / 9999.0 : 1.0 / 3.0;
        k->next_left_weight = (f & 0x02000000) ? (double)(weights >> 16) / 9999.0 : 1.0 / 3.0;
        if (!isfinite(k->right_slope)) k->right_slope = 0;
        if (!isfinite(k->next_left_slope)) k->next_left_slope = 0;
    }
    curve->keys = keys;
    curve->key_count = keep_increasing(keys, (int)n);
    return true;
}

/* One token of an FBX 6 key list: a letter or a number. */
typedef struct KeyToken {
    int     letter;        /* 0 for a number */
    int64_t integer;
    double  number;
} KeyToken;

static size_t key_tokens(Builder *b, const FbxRecord *channel, KeyToken **out)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (int c = 0; c < channel->child_count; c++) {
            const FbxRecord *key = &channel->children[c];
            if (strcmp(key->name, "Key") != 0) continue;
            for (int i = 0; i < key->value_count; i++) {
                const FbxValue *v = &key->values[i];
                if (v->type == FBX_VALUE_INTEGER_ARRAY || v->type == FBX_VALUE_REAL_ARRAY) {
                    for (size_t j = 0; j < v->length; j++, k++)
                        if (pass) (*out)[k] = (KeyToken){0, v->type == FBX_VALUE_INTEGER_ARRAY ? v->integers[j] : fbx_real_to_integer(v->reals[j]),
                                                         v->type == FBX_VALUE_INTEGER_ARRAY ? (double)v->integers[j] : v->reals[j]};
                } else if (v->type == FBX_VALUE_STRING || v->code == 'C') {
                    if (pass) (*out)[k] = (KeyToken){v->type == FBX_VALUE_STRING ? (v->length ? v->string[0] : ' ') : (int)v->integer, 0, 0};
                    k++;
                } else if (v->type == FBX_VALUE_INTEGER || v->type == FBX_VALUE_REAL) {
                    if (pass) (*out)[k] = (KeyToken){0, v->type == FBX_VALUE_INTEGER ? v->integer : (int64_t)0,
                                                     v->type == FBX_VALUE_INTEGER ? (double)v->integer : v->real};
                    k++;
                }
            }
        }
        if (pass == 0) {
            n = k;
            if (n == 0) return 0;
            *out = fbx_document_alloc(b->doc, n * sizeof **out);
            if (!*out) return fbx_scene_build_fail(b, "FBX: out of memory"), 0;
        }
    }
    return n;
}

/* Whether a key starts at token i: time, value, then a letter (or the list's end). */
static bool key_starts(const KeyToken *t, size_t n, size_t i)
{
    return i + 1 < n && !t[i].letter && !t[i + 1].letter && (i + 2 >= n || t[i + 2].letter);
}

bool fbx_scene_decode_curve_legacy(Builder *b, const FbxRecord *channel, FbxCurve *curve)
{
    const FbxRecord *def = fbx_record_child(channel, "Default");
    if (def && def->value_count > 0) curve->default_value = def->values[0].type == FBX_VALUE_INTEGER ? (double)def->values[0].integer : def->values[0].real;
    curve->pre_repetitions = curve->post_repetitions = -1;
    KeyToken *t = NULL;
    size_t n = key_tokens(b, channel, &t);
    if (n < 2) return !b->failed;
    FbxCurveKey *keys = fbx_document_alloc(b->doc, (n / 2) * sizeof *keys);
    if (!keys) return fbx_scene_build_fail(b, "FBX: out of memory");
    int count = 0;
    size_t i = 0;
    while (i + 1 < n && !t[i].letter && !t[i + 1].letter) {
        FbxCurveKey *k = &keys[count++];
        memset(k, 0, sizeof *k);
        k->time = t[i].integer ? t[i].integer : fbx_real_to_integer(t[i].number);
        k->value = t[i + 1].number;
        k->interpolation = FBX_INTERPOLATION_LINEAR;
        k->right_weight = k->next_left_weight = 1.0 / 3.0;
        i += 2;
        if (i >= n || !t[i].letter) continue;
        int mode = t[i++].letter;
        if (mode == 'C') {
            k->interpolation = FBX_INTERPOLATION_CONSTANT;
            k->attr_flags = 0x2;
            if (i < n && t[i].letter) k->constant_next = t[i++].letter == 'n';   /* s: standard, n: next */
            if (k->constant_next) k->attr_flags |= 0x100;
        } else if (mode == 'L') {
            k->attr_flags = 0x4;
        } else {
            k->interpolation = FBX_INTERPOLATION_CUBIC;
            k->attr_flags = 0x8;
            int tangent = i < n && t[i].letter ? t[i++].letter : 0;
            /* the tangent letter as the KeyAttrFlags a 7.x file of the same scene carries: a auto
             * (with time-independent, clamp-progressive: 0x6100), s user (0x400), b break (0xC00),
             * t TCB (0x200) */
            k->attr_flags |= tangent == 'a' ? 0x6100u : tangent == 's' ? 0x400u : tangent == 'b' ? 0xC00u : tangent == 't' ? 0x200u : 0u;
            if (tangent == 's' || tangent == 'b') {   /* right slope, next-left slope */
                if (i < n && !t[i].letter) k->right_slope = t[i++].number;
                if (i < n && !t[i].letter) k->next_left_slope = t[i++].number;
            } else {
                while (i < n && !t[i].letter && !key_starts(t, n, i)) i++;
            }
            int weight = i < n && t[i].letter ? t[i++].letter : 0;
            if (weight == 'a' || weight == 'r') {
                if (i < n && !t[i].letter && !key_starts(t, n, i)) k->right_weight = t[i++].number, k->attr_flags |= 0x01000000;
            }
            if (weight == 'a' || weight == 'l') {
                if (i < n && !t[i].letter && !key_starts(t, n, i)) k->next_left_weight = t[i++].number, k->attr_flags |= 0x02000000;
            }
        }
        while (i < n && !key_starts(t, n, i)) i++;   /* anything else this key carries */
    }
    curve->keys = keys;
    curve->key_count = keep_increasing(keys, count);
    return true;
}
