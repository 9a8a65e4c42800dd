/* fbx_doc.c — the record tree of fbx_doc.h once read: records' children, numbers read as reals /
 * integers, the document's memory (its arena, fbx_doc_arena.c) and its release. Reading a file is
 * fbx_doc_read.c's (fbx_document_read picks the binary or ASCII reader).
 *
 * Limits: nesting depth FBX_MAX_DEPTH; every length is checked against the bytes; a zlib array may
 * claim at most FBX_MAX_INFLATE_RATIO times its stored bytes (deflate cannot do better) and all
 * arrays together at most FBX_MAX_ARRAY_BYTES; the document's memory at most FBX_MAX_ARENA_BYTES.
 */
#include "fbx_doc.h"
#include "fbx_doc_arena.h"

int64_t fbx_real_to_integer(double d)
{
    if (!(d > -9.2e18 && d < 9.2e18)) return 0;
    return (int64_t)d;
}

int fbx_real_to_int(double d)
{
    if (!(d > -2147483648.0 && d < 2147483648.0)) return 0;
    return (int)d;
}

/* ---------------------------------------------------------------- public */

void fbx_document_free(FbxDocument *doc)
{
    if (doc->arena) fbx_doc_arena_free(doc->arena);
    memset(doc, 0, sizeof *doc);
}

const FbxRecord *fbx_record_child(const FbxRecord *record, const char *name)
{
    if (!record) return NULL;
    for (int i = 0; i < record->child_count; i++)
        if (strcmp(record->children[i].name, name) == 0) return &record->children[i];
    return NULL;
}

void *fbx_document_alloc(FbxDocument *doc, size_t bytes)
{
    return fbx_doc_arena_alloc(doc->arena, bytes);
}

/* A record's numbers in order (integer and real values and arrays of them) as reals (integers
 * converted) or as integers (reals through fbx_real_to_integer): what fbx_record_reals /
 * _integers return. */
static const void *record_numbers(FbxDocument *doc, const FbxRecord *record, bool as_integers, size_t *count)
{
    *count = 0;
    if (!record || record->value_count == 0) return NULL;
    const FbxValue *v = record->values;
    if (record->value_count == 1 && v[0].type == (as_integers ? FBX_VALUE_INTEGER_ARRAY : FBX_VALUE_REAL_ARRAY)) {
        *count = v[0].length;   /* one array of the kind asked for: as stored */
        return as_integers ? (const void *)v[0].integers : (const void *)v[0].reals;
    }
    size_t n = 0;
    for (int i = 0; i < record->value_count; i++) {
        if (v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_REAL) n++;
        else if (v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY) n += v[i].length;
    }
    if (n == 0) return NULL;
    double *reals = as_integers ? NULL : fbx_doc_arena_alloc(doc->arena, n * sizeof *reals);
    int64_t *integers = as_integers ? fbx_doc_arena_alloc(doc->arena, n * sizeof *integers) : NULL;
    if (!reals && !integers) return NULL;
    size_t k = 0;
    for (int i = 0; i < record->value_count; i++) {
        bool array = v[i].type == FBX_VALUE_INTEGER_ARRAY || v[i].type == FBX_VALUE_REAL_ARRAY;
        bool integer = v[i].type == FBX_VALUE_INTEGER || v[i].type == FBX_VALUE_INTEGER_ARRAY;
        if (!array && v[i].type != FBX_VALUE_INTEGER && v[i].type != FBX_VALUE_REAL) continue;
        for (size_t j = 0; j < (array ? v[i].length : 1); j++, k++) {
            int64_t as_int = integer ? (array ? v[i].integers[j] : v[i].integer) : 0;
            double as_real = integer ? 0.0 : array ? v[i].reals[j] : v[i].real;
            if (integers) integers[k] = integer ? as_int : fbx_real_to_integer(as_real);
            else reals[k] = integer ? (double)as_int : as_real;
        }
    }
    *count = n;
    return integers ? (const void *)integers : (const void *)reals;
}

const double *fbx_record_reals(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    return record_numbers(doc, record, false, count);
}

const int64_t *fbx_record_integers(FbxDocument *doc, const FbxRecord *record, size_t *count)
{
    return record_numbers(doc, record, true, count);
}
