/* fbx_doc_read.c — reads an FBX file (binary or ASCII, any version) into the record tree of
 * fbx_doc.h: fbx_document_read picks the binary (fbx_doc_binary.c) or ASCII (fbx_doc_ascii.c)
 * reader; fbx_document_version reads the version alone.
 *
 * Limits: nesting depth FBX_MAX_DEPTH; every length is checked against the bytes; a zlib array may
 * claim at most FBX_MAX_INFLATE_RATIO times its stored bytes (deflate cannot do better) and all
 * arrays together at most FBX_MAX_ARRAY_BYTES; the document's memory at most FBX_MAX_ARENA_BYTES
 * (fbx_doc_arena.h).
 */
#include "fbx_doc.h"
#include "fbx_doc_arena.h"
#include "fbx_doc_ascii.h"
#include "fbx_doc_binary.h"

bool fbx_document_read(FbxDocument *doc, const void *bytes, size_t size, char *error, size_t error_size)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    memset(doc, 0, sizeof *doc);
    if (error && error_size) error[0] = '\0';
    Reader r = {.bytes = bytes, .size = size, .error = error, .error_size = error_size};
    r.arena = calloc(1, sizeof *r.arena);
    if (!r.arena) return fbx_doc_out_of_memory(&r);
    doc->arena = r.arena;
    bool ok;
    if (size >= sizeof magic - 1 && memcmp(bytes, magic, sizeof magic - 1) == 0) {
        ok = fbx_doc_read_binary(&r, doc);
    } else {
        /* ASCII: text only (a NUL or other control byte in the first KiB means it is not FBX text) */
        size_t probe = size < 1024 ? size : 1024;
        ok = size > 0;
        for (size_t i = 0; i < probe && ok; i++) {
            uint8_t c = r.bytes[i];
            if (c < 32 && c != '\n' && c != '\r' && c != '\t') ok = fbx_doc_fail(&r, "FBX: not an FBX file (neither the binary magic nor text)");
        }
        if (size == 0) fbx_doc_fail(&r, "FBX: empty file");
        if (ok) ok = fbx_doc_read_ascii(&r, doc);
    }
    if (!ok) {
        fbx_document_free(doc);
        if (error && error_size && !error[0]) snprintf(error, error_size, "FBX: damaged file");
        return false;
    }
    return true;
}

int fbx_document_version(const void *bytes, size_t size)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    const char *text = bytes;
    if (size >= 27 && memcmp(bytes, magic, sizeof magic - 1) == 0) return (int)fbx_doc_le_u32((const uint8_t *)bytes + 23);
    static const char key[] = "FBXVersion:";
    size_t n = sizeof key - 1;
    for (size_t i = 0; i + n < size; i++) {
        if (text[i] != 'F' || memcmp(text + i, key, n) != 0) continue;
        size_t at = i + n;
        while (at < size && (text[at] == ' ' || text[at] == '\t')) at++;
        int version = 0, digits = 0;
        while (at < size && text[at] >= '0' && text[at] <= '9' && digits < 6) version = version * 10 + (text[at++] - '0'), digits++;
        if (digits > 0) return version;
    }
    char banner[201];
    size_t b = size < 200 ? size : 200;
    memcpy(banner, text, b);
    banner[b] = '\0';
    for (size_t i = 0; i < b; i++)
        if (banner[i] == '\0') banner[i] = ' ';
    const char *at = strstr(banner, "; FBX ");
    int major = 0, minor = 0, patch = 0;
    if (at && sscanf(at, "; FBX %d.%d.%d", &major, &minor, &patch) >= 2 && major > 0 && major < 20)
        return major * 1000 + minor * 100 + patch * 10;
    return 0;
}
