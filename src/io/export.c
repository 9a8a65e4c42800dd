/* export.c — a plain Wavefront OBJ writer for posed meshes. */
#include "export.h"
#include "atomic_file.h"

#include <stdio.h>
#include <string.h>

/* OBJ group names end at white space: keep them to one printable token. */
static void write_group_name(FILE *file, const char *name, int index)
{
    if (!name || !name[0]) {
        fprintf(file, "g mesh_%d\n", index);
        return;
    }
    fputs("g ", file);
    for (const char *c = name; *c; c++) fputc((*c <= ' ' || *c == 127) ? '_' : *c, file);
    fputc('\n', file);
}

bool export_obj(const char *path, const ExportMesh *meshes, int mesh_count,
                char *error, size_t error_size)
{
    AtomicFile out;   /* a temporary file renamed onto `path` once complete: never half-written */
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    FILE *file = out.file;
    int total_vertices = 0, total_elements[3] = {0, 0, 0};   /* triangles, line segments, points */
    for (int m = 0; m < mesh_count; m++) {
        total_vertices += meshes[m].vertex_count;
        total_elements[meshes[m].primitive] += meshes[m].index_count / mesh_primitive_corners(meshes[m].primitive);
    }
    fprintf(file, "# skinview posed mesh: %d meshes, %d vertices, %d triangles", mesh_count, total_vertices,
            total_elements[MESH_TRIANGLES]);
    if (total_elements[MESH_LINES]) fprintf(file, ", %d line segments", total_elements[MESH_LINES]);
    if (total_elements[MESH_POINTS]) fprintf(file, ", %d points", total_elements[MESH_POINTS]);
    fputs(" (scene space)\n", file);

    long first_vertex = 1, first_normal = 1;   /* OBJ indices count from 1 over the whole file */
    for (int m = 0; m < mesh_count; m++) {
        const ExportMesh *mesh = &meshes[m];
        write_group_name(file, mesh->name, m);
        for (int v = 0; v < mesh->vertex_count; v++) {
            const float *p = mesh->positions[v];
            fprintf(file, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
        }
        if (mesh->normals)
            for (int v = 0; v < mesh->vertex_count; v++) {
                const float *n = mesh->normals[v];
                fprintf(file, "vn %.9g %.9g %.9g\n", n[0], n[1], n[2]);
            }
        if (mesh->primitive == MESH_LINES)   /* OBJ's line element: `l v1 v2` (no normals) */
            for (int i = 0; i + 1 < mesh->index_count; i += 2)
                fprintf(file, "l %ld %ld\n", first_vertex + mesh->indices[i], first_vertex + mesh->indices[i + 1]);
        else if (mesh->primitive == MESH_POINTS)   /* OBJ's point element: `p v1` */
            for (int i = 0; i < mesh->index_count; i++) fprintf(file, "p %ld\n", first_vertex + mesh->indices[i]);
        else
            for (int i = 0; i + 2 < mesh->index_count; i += 3) {
                long a = first_vertex + mesh->indices[i];
                long b = first_vertex + mesh->indices[i + 1];
                long c = first_vertex + mesh->indices[i + 2];
                if (mesh->normals) {
                    long d = first_normal - first_vertex;   /* vn lines run parallel to this mesh's v lines */
                    fprintf(file, "f %ld//%ld %ld//%ld %ld//%ld\n", a, a + d, b, b + d, c, c + d);
                } else
                    fprintf(file, "f %ld %ld %ld\n", a, b, c);
            }
        first_vertex += mesh->vertex_count;
        if (mesh->normals) first_normal += mesh->vertex_count;
    }

    return atomic_file_commit(&out, error, error_size);
}
