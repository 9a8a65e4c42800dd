/* fbx_legacy_common.h — what the legacy FBX builder's files (fbx_legacy*.c) share: the builder's
 * state and the small helpers both steps call (fbx_legacy_common.c, a leaf: it calls neither step).
 *
 *   fbx_legacy.c          the map, joints, materials and the builder itself (fbx_build_model)
 *   fbx_legacy_mesh.c     layer elements (normals, UVs, materials per polygon), skins, meshes
 *   fbx_legacy_common.c   one-line errors, an object's kind, a record's string
 */
#ifndef SKINVIEW_FBX_LEGACY_COMMON_H
#define SKINVIEW_FBX_LEGACY_COMMON_H

#include "fbx_import.h"
#include "io/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FBX_LEGACY_MAX_POLYGON_VERTICES (1 << 24)   /* corners of one geometry (16.7 M: memory stays bounded) */

typedef struct Legacy {
    const FbxScene *scene;
    Model          *model;
    FbxModelMap    *map;
    int            *joint_of_object;      /* [object] joint, -1 */
    int            *material_of_object;   /* [object] model material index, -1 */
    bool            keep_more_influences; /* ImportOptions.max_influences 8: the 5th..8th kept (Mesh.weights_more) */
    char           *error;
    size_t          error_size;
} Legacy;

/* False, with `format` (one %s: `detail`) as the one-line error. */
bool fbx_legacy_fail(Legacy *l, const char *format, const char *detail);
/* Whether object `o` of the scene is of `kind` ("Model", "Geometry", ...). */
bool fbx_legacy_is_kind(const FbxScene *s, int o, const char *kind);
/* The record's first value as a string; "" when it has none. */
const char *fbx_legacy_record_string(const FbxRecord *r);

#endif
