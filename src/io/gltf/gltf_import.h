/* gltf_import.h — the door into skinview's own glTF 2.0 reader (src/io/gltf/), for import.c. */
#ifndef SKINVIEW_GLTF_IMPORT_H
#define SKINVIEW_GLTF_IMPORT_H

#include "io/import.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True for a path or format hint that names a glTF (".gltf", ".glb", "gltf", "glb"; any case). */
bool gltf_is_gltf_name(const char *path_or_hint);

/* Reads the .gltf / .glb at `path` (data == NULL), or `size` bytes at `data` (path == NULL: files
 * the model refers to are not read), into `model`: joints, meshes, skins, materials, textures,
 * clips, as model.h describes. Repairs are warned about on `warnings` (NULL: quiet). Returns false
 * with a one-line cause in error[] (model then holds what was built, for the caller to free).
 * model_validate() is the caller's (import.c), as for every format. */
/* A glTF 1.0 file is not read: false with *version_1 = true (Assimp's glTF 1 reader serves it). */
/* max_influences 8: the 5th..8th influences kept too (ImportOptions.max_influences); keep_image_bytes: textures keep
 * their PNG / JPEG bytes (ImportOptions.keep_image_bytes). */
bool gltf_import(const char *path, const void *data, size_t size, int max_bones, int max_influences, bool keep_image_bytes,
                 FILE *warnings, Model *model, bool *version_1, char *error, size_t error_size);

/* How many times gltf_import() has read a model file from disk since the program started (a test
 * checks that a .glb is read once). */
long gltf_file_reads(void);

#endif
