/* fbx_legacy_internal.h — what the legacy FBX builder's files (fbx_legacy*.c) share.
 *
 *   fbx_legacy.c        the map, joints, materials and the builder itself (fbx_build_model)
 *   fbx_legacy_mesh.c   layer elements (normals, UVs, materials per polygon), skins, meshes
 */
#ifndef SKINVIEW_FBX_LEGACY_INTERNAL_H
#define SKINVIEW_FBX_LEGACY_INTERNAL_H

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
    char           *error;
    size_t          error_size;
} Legacy;

/* fbx_legacy.c */
bool fbx_legacy_fail(Legacy *l, const char *format, const char *detail);
bool fbx_legacy_is_kind(const FbxScene *s, int o, const char *kind);

/* fbx_legacy_mesh.c */
const char *fbx_legacy_record_string(const FbxRecord *r);
bool fbx_legacy_build_meshes(Legacy *l);

#endif
