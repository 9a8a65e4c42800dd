/* assimp_reference.h — the tests' independent reference: a file imported straight through
 * Assimp with the flags and properties skinview's importer uses, without skinview's code. */
#ifndef SKINVIEW_ASSIMP_REFERENCE_H
#define SKINVIEW_ASSIMP_REFERENCE_H

#include <assimp/scene.h>

#include <stdbool.h>

/* Imports `path` with skinview's load flags (Triangulate, JoinIdenticalVertices, GenSmoothNormals,
 * SortByPType without points and lines, ValidateDataStructure; FBX pivots not preserved).
 * limit_weights: then LimitBoneWeights (4 per vertex). max_bones > 0: then SplitByBoneCount at
 * max_bones - 1 bones per mesh (the importer keeps one slot for the extra bone of unweighted
 * vertices) and JoinIdenticalVertices again. NULL when Assimp fails (aiGetErrorString()).
 * Release with aiReleaseImport(). */
const struct aiScene *assimp_reference_import(const char *path, bool limit_weights, int max_bones);

/* True when the mesh has vertices and at least one triangle (what skinview keeps of a mesh). */
bool assimp_reference_has_triangles(const struct aiMesh *mesh);

#endif
