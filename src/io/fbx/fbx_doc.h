/* fbx_doc.h — an FBX file as the tree of records it is made of (stage 0 of the FBX reader).
 *
 * An FBX file, binary or ASCII, of any version (5.0 … 7.7), is a tree of named records; each
 * record has a list of typed values ("properties" in the FBX SDK's file-format words) and child
 * records. This layer reads that tree and nothing more: it knows no Models, Geometry or curves
 * (fbx_scene.h gives those meaning).
 *
 *   binary: "Kaydara FBX Binary  \0" magic, version (uint32); records of 13-byte (< 7500) or
 *           25-byte (>= 7500) headers; value types C Y I L F D S R and arrays b i l f d
 *           (encoding 1 = zlib).
 *   ASCII:  `Name: v1, v2, … { children }`, `;` comments, 7.x arrays as `*N { a: … }`,
 *           FBX 6 arrays as plain value lists.
 *
 * An ASCII record with more than 64 plain numbers (FBX 6 `Vertices: 1,2,3,…`) holds them as one
 * array value, as a 7.x file would; read numbers with fbx_record_reals / _integers, which accept
 * both forms.
 * Values are normalised so that readers need not care where they came from: every integer
 * (C, Y, I, L, bool) is an FBX_VALUE_INTEGER, every real (F, D) an FBX_VALUE_REAL, and arrays
 * are decoded (decompressed) into int64_t or double. All memory belongs to the document.
 * Limits (a damaged file ends with a one-line error, never a crash or a hang): nesting depth,
 * record and value counts, and decompressed bytes are bounded (see fbx_doc_internal.h).
 */
#ifndef SKINVIEW_FBX_DOC_H
#define SKINVIEW_FBX_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum FbxValueType {
    FBX_VALUE_INTEGER,        /* binary C Y I L; ASCII integers; `integer`, also as `real` */
    FBX_VALUE_REAL,           /* binary F D; ASCII reals; `real` */
    FBX_VALUE_STRING,         /* binary S; ASCII "…"; `string` (NUL-terminated), `length` bytes */
    FBX_VALUE_RAW,            /* binary R; `string` points at `length` bytes (not NUL-terminated) */
    FBX_VALUE_INTEGER_ARRAY,  /* binary b i l; ASCII *N { a: … } of integers; `integers`, `length` */
    FBX_VALUE_REAL_ARRAY,     /* binary f d; ASCII *N { a: … } with a real; `reals`, `length` */
} FbxValueType;

typedef struct FbxValue {
    FbxValueType   type;
    int64_t        integer;
    double         real;
    const char    *string;
    size_t         length;    /* string / raw: bytes; arrays: elements */
    const int64_t *integers;
    const double  *reals;
    char           code;      /* binary: the type byte (C Y I L F D S R b i l f d; 'C' marks the
                                 letters of FBX 6 key lists); ASCII: 0 */
    size_t         offset;    /* binary: the byte offset of the value's payload in the file (after
                                 its type byte), so that a caller may patch a copy; ASCII: 0 */
} FbxValue;

typedef struct FbxRecord {
    const char        *name;
    int                value_count;
    const FbxValue    *values;
    int                child_count;
    const struct FbxRecord *children;  /* contiguous */
} FbxRecord;

typedef struct FbxDocument {
    int       version;        /* 7400, 6100, 5000 …: FBXHeaderExtension/FBXVersion, else the binary
                                 header's (FBX 5 binaries say 3000 there), else the ASCII banner */
    bool      binary;
    FbxRecord root;           /* nameless; the file's top-level records are its children */
    void     *arena;          /* owns every record, value and array */
} FbxDocument;

/* Reads `size` bytes of a binary or ASCII FBX. False with a one-line cause in error[] (no file
 * name) for a file that is not FBX or is damaged; `doc` is then zeroed. */
bool fbx_document_read(FbxDocument *doc, const void *bytes, size_t size, char *error, size_t error_size);
void fbx_document_free(FbxDocument *doc);

/* The FBX version of a file from its first bytes (a prefix is enough: 64 KiB covers every header):
 * the binary header's, or an ASCII file's FBXHeaderExtension FBXVersion, else its "; FBX 6.1.0"
 * banner. 0 when it says none (not FBX, or no version in the prefix). */
int fbx_document_version(const void *bytes, size_t size);

/* `bytes` of memory owned by the document (freed with it), 16-byte aligned; NULL when out of memory. */
void *fbx_document_alloc(FbxDocument *doc, size_t bytes);

/* The first child of `record` with this name, or NULL. */
const FbxRecord *fbx_record_child(const FbxRecord *record, const char *name);

/* A record's numbers as one array, whatever way the file stored them: its single array value,
 * or (FBX 6 ASCII, old binary writers) all its number values in order. NULL with *count = 0 if
 * it has none. The array lives in the document's arena. */
const double  *fbx_record_reals(FbxDocument *doc, const FbxRecord *record, size_t *count);
const int64_t *fbx_record_integers(FbxDocument *doc, const FbxRecord *record, size_t *count);

/* A number from the file as an integer, truncated toward zero; NaN, infinities and values outside
 * the type's range give 0 (a cast of those is undefined behaviour in C, and a damaged file has them). */
int64_t fbx_real_to_integer(double d);
int     fbx_real_to_int(double d);

#endif
