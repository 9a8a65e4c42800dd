/* vat_mesh_gltf.h — what mesh.glb of a VAT bake (vat_mesh.h) carries beyond Assimp's glTF 2
 * exporter, written into the GLB after the export and read back after skinview's glTF reader
 * (vat_mesh_gltf.c). */
#ifndef SKINVIEW_VAT_MESH_GLTF_H
#define SKINVIEW_VAT_MESH_GLTF_H

#include "anim/model.h"

#include <stdbool.h>
#include <stddef.h>

/* After the export (vat_export_mesh calls it; vat_mesh_gltf.c): writes texCoord and
 * KHR_texture_transform into the textureInfos of the GLB at `path` where the model's maps have a
 * transform or sample the second UV set (texCoord 2 in the file), KHR_materials_unlit on the
 * unlit materials, and lists the extensions in extensionsUsed. Leaves the file as it is when
 * nothing needs them. */
bool vat_mesh_add_texture_infos(const char *path, const Model *model, char *error, size_t error_size);

/* The model's second UV set read back from mesh.glb's TEXCOORD_2, by vertex id: uv[id] (v up,
 * as Mesh.uvs2) where present[id]; both NULL when no primitive has one (a bake from before it, or
 * a model without one). */
typedef struct VatMeshUv1 {
    vec2          *uv;
    unsigned char *present;
} VatMeshUv1;

/* What mesh.glb carries beyond what skinview's glTF reader put into `mesh_model` (it read `path`
 * already): every material map's texCoord back to the Material convention (file 2 -> 1, 0 and
 * the vertex-id set 1 -> 0), and TEXCOORD_2 into *uv1 (vat_mesh_uv1_free). False with one line in
 * error for a damaged file or an id out of [0, vertex_count). */
bool vat_mesh_read_extras(const char *path, Model *mesh_model, int vertex_count, VatMeshUv1 *uv1, char *error,
                          size_t error_size);
void vat_mesh_uv1_free(VatMeshUv1 *uv1);

#endif
