/* import.h — the only door from files into skinview. Only src/io/ sees Assimp. */
#ifndef SKINVIEW_IMPORT_H
#define SKINVIEW_IMPORT_H

#include "../anim/model.h"

#include <stddef.h>

typedef struct ImportOptions {
    int max_bones_per_mesh;   /* > 0: meshes with more bones are split (Assimp SplitByBoneCount); 0: no limit */
} ImportOptions;

/* Reads any file Assimp can read into `model`.
 * On failure returns false, leaves `model` zeroed and writes a one-line cause
 * (without the file name) into error[error_size]. */
bool import_model(const char *path, const ImportOptions *options, Model *model,
                  char *error, size_t error_size);

#endif
