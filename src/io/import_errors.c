/* import_errors.c — Assimp's failure messages in plain words (the original kept after a colon,
 * escaped and cut to QUOTE_SENTENCE_LIMIT bytes: it can quote the file, see base/quote.h). */
#include "import.h"
#include "base/quote.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* File extension with the dot, lower or upper case as given, or "". */
static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    return dot ? dot : "";
}

static bool has(const char *text, const char *part) { return strstr(text, part) != NULL; }

void import_explain_error(const char *path, const char *assimp_message, char *out, size_t out_size)
{
    const char *why = assimp_message && assimp_message[0] ? assimp_message : "unknown error";
    const char *ext = extension_of(path);
    bool glb = strcasecmp(ext, ".glb") == 0, gltf = strcasecmp(ext, ".gltf") == 0;
    bool fbx = strcasecmp(ext, ".fbx") == 0;
    const char *plain;
    if (has(why, "No suitable reader found"))
        plain = glb || gltf || fbx ? (glb ? "truncated or damaged glTF binary (not a file Assimp can read)"
                                         : gltf ? "damaged glTF file (not a file Assimp can read)"
                                                : "truncated or damaged FBX file (not a file Assimp can read)")
                                   : "not a file Assimp can read (unknown format, or a damaged file)";
    else if (has(why, "aiScene::mNumMeshes is 0"))
        plain = glb ? "truncated or damaged glTF binary (no meshes left)" : "the file holds no meshes (truncated or damaged?)";
    else if (has(why, "GLTF") || has(why, "glTF"))
        plain = glb ? "truncated or damaged glTF binary" : "damaged glTF file";
    else if (has(why, "FBX"))
        plain = "truncated or damaged FBX file";
    else if (has(why, "XML") || has(why, "Collada"))
        plain = "damaged XML (Collada) file";
    else if (has(why, "Validation failed"))
        plain = "the file's data is inconsistent (damaged?)";
    else if (has(why, "Unable to open file") || has(why, "Failed to open file"))
        plain = "cannot open it";
    else
        plain = "Assimp cannot read it";
    char quoted[QUOTE_SENTENCE_LIMIT + 1];
    size_t length = strlen(why);
    while (length > 0 && strchr(" \t\r\n", why[length - 1])) length--;   /* Assimp ends some with a newline */
    quote_bytes(quoted, sizeof quoted, why, length, QUOTE_SENTENCE_LIMIT);
    snprintf(out, out_size, "%s: %s", plain, quoted);
}
