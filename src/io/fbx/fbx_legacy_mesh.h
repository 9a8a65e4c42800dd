/* fbx_legacy_mesh.h — the mesh step of the legacy FBX builder (fbx_legacy_mesh.c; its rules at its top). */
#ifndef SKINVIEW_FBX_LEGACY_MESH_H
#define SKINVIEW_FBX_LEGACY_MESH_H

#include "fbx_legacy_common.h"

/* Every mesh of the scene's Models into l->model (and l->map): vertices, normals, UVs, skins. */
bool fbx_legacy_build_meshes(Legacy *l);

#endif
