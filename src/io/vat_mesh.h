/* vat_mesh.h — mesh.glb of a VAT bake, written with Assimp's glTF 2 exporter.
 *
 * Every mesh of the model in the bind pose (scene space, the positions --clip bind shows),
 * its normals, UVs, vertex colours and material (base colour, metallic-roughness, normal,
 * occlusion and emissive textures embedded as PNG, their factors, alpha mode, double-sided; each
 * textureInfo's texCoord and KHR_texture_transform), the primitive mode (triangles, lines, points),
 * plus a second UV set that addresses the bake's textures: TEXCOORD_1 = (vertex id, 0), the vertex
 * id being the texel column/row index of vat.h (mesh order, vertices in order: id = first_vertex of
 * the mesh + index in the mesh), and the model's own second UV set (Mesh.uvs2) as TEXCOORD_2.
 * Importers may reorder or weld vertices; the id travels with each vertex.
 */
#ifndef SKINVIEW_VAT_MESH_H
#define SKINVIEW_VAT_MESH_H

#include "anim/model.h"
#include "vat_mesh_gltf.h"   /* the GLB's extras: written after the export, read back */

#include <stddef.h>

/* positions / normals: model_total_vertices(model) entries, mesh after mesh. */
bool vat_export_mesh(const char *path, const Model *model, const vec3 *positions, const vec3 *normals, char *error,
                     size_t error_size);

#endif
