/* import_common.h — what every Assimp import stage shares (import_internal.h lists the stages):
 * the state one import carries from stage to stage (Importer), its reporting, and the conversions
 * (import_common.c). */
#ifndef SKINVIEW_IMPORT_COMMON_H
#define SKINVIEW_IMPORT_COMMON_H

#include "import.h"
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct aiScene;
struct aiNode;
struct aiString;
struct aiMatrix4x4;
struct aiQuaternion;

typedef struct NameEntry {
    const char *name;             /* points into the aiScene (full, untruncated name) */
    int         joint;
} NameEntry;

/* A vertex that had more than SV_MAX_INFLUENCES weights before LimitBoneWeights cut them
 * (stage 1). The post-processing after the cut (SplitByBoneCount, the weld after it) renumbers
 * vertices, so a vertex is found again by what those steps copy unchanged: its position and
 * normal, bit for bit (stage 3). */
typedef struct InfluenceCut {
    float key[6];                 /* position x, y, z, normal x, y, z (0 when the mesh has none) */
    int   influences;             /* non-zero weights in the file, > SV_MAX_INFLUENCES */
} InfluenceCut;

typedef struct InfluenceCuts {
    int           count;
    InfluenceCut *cuts;           /* sorted by key (memcmp order); NULL when count is 0 */
} InfluenceCuts;

/* The state one import carries from stage to stage. */
typedef struct Importer {
    const struct aiScene *scene;
    const char           *path;
    char                  directory[1024];   /* the model's folder, with a trailing '/' or "" */
    FILE                 *warnings;          /* one line per repair / missing texture; NULL: quiet */
    int                   channels_reordered; /* of the clip being read: key times sorted */
    int                   keys_repeated;      /* of the clip being read: keys dropped for a repeated time */
    Model                *model;
    char                 *error;
    size_t                error_size;
    const struct aiNode **nodes;             /* [joint_count] joint -> aiNode */
    NameEntry            *by_name;           /* [joint_count] sorted by name, then joint */
    int                  *depth;             /* [joint_count] 0 for the root */
    bool                 *channel_taken;     /* [joint_count] joints a channel of the current clip drives */
    char                **texture_keys;      /* [texture_count] full source string of each texture */
    char                **failed_textures;   /* sources already reported missing */
    int                   failed_count;
    InfluenceCuts         influence_cuts;    /* from stage 1, read by stage 3 */
    bool                  hold_end_keys;     /* ImportOptions.hold_end_keys (the FBX stage) */
    bool                  keep_more_influences; /* ImportOptions.max_influences 8: Mesh.joint_indices_more too */
    bool                  keep_image_bytes;  /* ImportOptions.keep_image_bytes: Texture.encoded too */
} Importer;

/* An error (one line into im->error; returns false) and a repair (one line "skinview: warning:
 * PATH: ..." unless quiet, counted in stats.repairs): report.h's two messages on the Importer. */
#define import_fail(im, ...) io_fail((im)->error, (im)->error_size, __VA_ARGS__)
#define import_warn(im, ...) io_warn((im)->warnings, (im)->path, &(im)->model->stats, __VA_ARGS__)
static inline bool import_finite3(float x, float y, float z) { return isfinite(x) && isfinite(y) && isfinite(z); }

/* Name as valid UTF-8, cut between characters to SV_NAME_MAX. */
void import_copy_name(char dst[SV_NAME_MAX], const struct aiString *src);
bool import_matrix_is_finite(const struct aiMatrix4x4 *m);
/* Row-major aiMatrix4x4 -> column-major cglm mat4. */
void import_matrix_from_assimp(const struct aiMatrix4x4 *m, mat4 out);
/* aiQuaternion (w, x, y, z) -> unit cglm versor (x, y, z, w). */
void import_quat_from_assimp(const struct aiQuaternion *q, versor out);
/* quote_message() (base/quote.h) on an error in text[size]: control characters and invalid UTF-8
 * escaped, trailing white space cut: every error is one line. */
void import_one_line(char *text, size_t size);
/* Whether `path` (or, path NULL, the format `hint`) names an FBX file ("x.fbx", "fbx"; any case). */
bool import_is_fbx_name(const char *path, const char *hint);

#endif
