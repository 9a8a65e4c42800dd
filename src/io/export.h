/* export.h — writing posed geometry out of skinview (no Assimp types here). */
#ifndef SKINVIEW_EXPORT_H
#define SKINVIEW_EXPORT_H

#include "anim/model.h"

#include <stddef.h>

/* One block of triangles (or line segments, or points) to write: positions and normals are already in the
 * space the file should be in (scene space for --export-pose). */
typedef struct ExportMesh {
    const char     *name;          /* "g NAME" line; may be NULL or "" */
    int             vertex_count;
    const vec3     *positions;
    const vec3     *normals;       /* may be NULL */
    int             index_count;   /* 3 per triangle, 2 per segment, 1 per point */
    const uint32_t *indices;       /* into this mesh's vertices */
    MeshPrimitive   primitive;     /* what the indices draw (0: triangles) */
} ExportMesh;

/* Writes a Wavefront OBJ: for every mesh in order its vertices (one `v` line
 * per vertex, nothing welded or dropped, so the file has exactly
 * sum(vertex_count) `v` lines), its normals (`vn`) and its triangles (`f a//a`,
 * 1-based, offset by the vertices of the meshes before it), line segments (`l a b`) or points
 * (`p a`). Floats are written
 * with 9 significant digits (float32 round-trips exactly).
 * NOTE: this is a plain writer, not Assimp's "obj" exporter: that one merges
 * vertices with equal position (and colour) and leaves out vertices no face
 * uses, so its vertex count is not the mesh's.
 * On failure returns false with a one-line cause in error[error_size]. */
bool export_obj(const char *path, const ExportMesh *meshes, int mesh_count,
                char *error, size_t error_size);

#endif
