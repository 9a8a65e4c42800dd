/* assimp_reference.c — Assimp imports with skinview's flags, for the tests (see assimp_reference.h). */
#include "assimp_reference.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>

const struct aiScene *assimp_reference_import(const char *path, bool limit_weights, int max_bones)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (max_bones > 0) aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBBC_MAX_BONES, max_bones > 1 ? max_bones - 1 : 1);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    if (limit_weights) aiSetImportPropertyInteger(props, AI_CONFIG_PP_LBW_MAX_WEIGHTS, 4);
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const struct aiScene *scene = aiImportFileExWithProperties(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
                  aiProcess_SortByPType | aiProcess_ValidateDataStructure,
        NULL, props);
    aiReleasePropertyStore(props);
    if (scene && limit_weights) scene = aiApplyPostProcessing(scene, aiProcess_LimitBoneWeights);
    if (scene && max_bones > 0) scene = aiApplyPostProcessing(scene, aiProcess_SplitByBoneCount);
    if (scene && max_bones > 0) scene = aiApplyPostProcessing(scene, aiProcess_JoinIdenticalVertices);
    return scene;
}

bool assimp_reference_has_triangles(const struct aiMesh *mesh)
{
    if (!mesh || mesh->mNumVertices == 0) return false;
    for (unsigned f = 0; f < mesh->mNumFaces; f++)
        if (mesh->mFaces[f].mNumIndices == 3) return true;
    return false;
}
