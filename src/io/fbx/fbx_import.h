/* fbx_import.h — how a skinview Model built from an FBX file maps back to the file's objects.
 *
 * Both ways of reading an FBX fill the same map:
 *   - Assimp read the file (FBX 7.1 and later): the Assimp-reading stage matches Assimp's nodes and
 *     meshes to the scene graph's Model and Geometry objects (fbxanim's stage);
 *   - Assimp refuses it (FBX 5.0 … 6.1): fbx_build_model (fbx_legacy.c) builds the Model from the
 *     scene graph itself and fills the map as it goes.
 * The later FBX stages (node transforms, curves, skins, blend shapes) work from the map alone.
 */
#ifndef SKINVIEW_FBX_IMPORT_H
#define SKINVIEW_FBX_IMPORT_H

#include "anim/model.h"
#include "fbx_scene.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct FbxModelMap {
    int  *joint_object;          /* [joint_count] the FBX Model object of each joint, -1 none */
    int  *mesh_model_object;     /* [mesh_count] the Model object that holds each mesh, -1 none */
    int  *mesh_geometry_object;  /* [mesh_count] its Geometry object, -1 none */
    int **mesh_control_point;    /* [mesh][vertex] the FBX control point (Vertices index) of each
                                    vertex; a mesh's array NULL when unknown */
    int   joint_count, mesh_count;
    /* filled by fbx_build_model (NULL / 0 when the map comes from the Assimp path): */
    int **mesh_bone_cluster;     /* [mesh][bone] the Cluster object of each bone of the mesh, -1 for
                                    the extra bone unweighted vertices follow; a mesh's array NULL
                                    when the mesh is static */
    char **material_texture;     /* [material_count] the diffuse texture's file as the FBX names it,
                                    NULL none (the import loads it next to the model) */
    int   material_count;
} FbxModelMap;

/* Frees the map's arrays and zeroes it (safe on a zeroed map). */
void fbx_model_map_free(FbxModelMap *map);

/* Allocates a map for `joint_count` joints and `mesh_count` meshes, every entry -1 / NULL. False
 * when out of memory (the map is then zeroed). */
bool fbx_model_map_alloc(FbxModelMap *map, int joint_count, int mesh_count);

/* Builds `model` from the scene graph alone (the legacy path, fbx_legacy.c): every Model object a
 * joint (parents before children, rest transforms left identity for the FBX transform stage to
 * set), one Mesh per (Model, Geometry, material) with triangles, normals, UVs, skin and the
 * control point of each vertex in `map`, materials with their diffuse colour and texture file.
 * Clips are not made here. keep_more_influences (ImportOptions.max_influences 8): each vertex's
 * 5th..8th largest influences kept too, in Mesh.joint_indices_more / weights_more. False with a
 * one-line cause in error[]; `model` and `map` are then freed. */
bool fbx_build_model(const FbxScene *scene, Model *model, FbxModelMap *map, bool keep_more_influences, char *error,
                     size_t error_size);

#endif
