/* import.h — the only door from files into skinview. Only src/io/ sees Assimp. */
#ifndef SKINVIEW_IMPORT_H
#define SKINVIEW_IMPORT_H

#include "anim/model.h"

#include <stddef.h>

typedef struct ImportOptions {
    int  max_bones_per_mesh;  /* > 0: meshes with more bones are split (Assimp SplitByBoneCount); 0: no limit */
    bool quiet;               /* no warning lines on stderr (repairs still count in stats.repairs) */
    float optimize_keys;      /* > 0: the key-frame optimiser (anim/key_reduce.h) drops keys within this
                                 position error, relative to the bind pose's bbox diagonal; 0: off */
    bool measure_key_error;   /* with optimize_keys: measure the worst pose change over every clip
                                 (stats.key_error; costs a dense resampling of every clip) */
    bool keep_vertex_order;   /* skinned meshes keep the file's vertex order (default: sorted by influence
                                 count for the skinning loop, mesh_layout.c; tests compare the two) */
    bool hold_end_keys;       /* FBX: every curve holds its first / last key outside its keys instead of
                                 the file's pre/post extrapolation (--no-extrapolation; what Assimp does) */
    int  max_influences;      /* 8 (SV_MAX_INFLUENCES_KEPT): each vertex's 5th..8th largest influences kept too,
                                 in Mesh.joint_indices_more / weights_more (--export-gltf --max-influences 8);
                                 else (0, 4) the renderer's four only */
    bool keep_image_bytes;    /* textures keep the file's PNG / JPEG bytes too (Texture.encoded), for
                                 --export-gltf to copy them byte for byte */
    bool guard;               /* the crash guard for a program (import_guard.h): a fatal signal or the
                                 watchdog during the import prints one line naming the file and exits 1;
                                 what the importer prints on stderr meanwhile is dropped */
} ImportOptions;

/* Every field off: no bone limit, warnings on stderr, keys as in the file, vertices sorted, no
 * guard. Callers start from these (or a designated initialiser) and set what they need. */
ImportOptions import_options_default(void);

/* Reads any file Assimp can read into `model`, then checks it (validate.h): what can be repaired
 * is, with one warning line each on stderr; what cannot makes the import fail. `options` is
 * required (import_options_default()). The file is read from disk once; every stage (the FBX
 * version probe, Assimp, skinview's FBX and Collada readers) works on those bytes, while files
 * the model refers to (textures, an OBJ's .mtl) are found next to `path` as before. Runs on a
 * thread with a large stack (Assimp recurses once per level of the node tree).
 * On failure returns false, leaves `model` zeroed and writes a one-line cause
 * (without the file name) into error[error_size]. */
bool import_model(const char *path, const ImportOptions *options, Model *model,
                  char *error, size_t error_size);

/* The same for a file already in memory (`size` bytes at `data`). `hint` is the file extension
 * Assimp picks its reader by ("glb", "fbx", "dae", ...); files the model refers to (external
 * buffers, textures) are not read. model->source_path is "(memory).HINT". */
bool import_model_from_memory(const void *data, size_t size, const char *hint, const ImportOptions *options,
                              Model *model, char *error, size_t error_size);

/* Only the Assimp part of import_model_from_memory(): the same pre-checks, read and
 * post-processing, then the scene is released. For the fuzzer, which runs this in a child
 * process first to tell a crash inside Assimp (skinview's guard catches those, see
 * docs/robustness.md) from one in skinview's own code. True if Assimp returned a scene. */
bool import_probe_assimp_from_memory(const void *data, size_t size, const char *hint);

/* One plain line for an Assimp failure message: what is wrong in the user's words
 * ("truncated or damaged glTF binary", "truncated or damaged FBX file", "not a file Assimp can
 * read ...") chosen from the message and the file's extension, then ": " and Assimp's own text.
 * (import_errors.c) */
void import_explain_error(const char *path, const char *assimp_message, char *out, size_t out_size);

#endif
