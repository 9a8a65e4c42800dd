/* test_tangents.c — generated tangent frames (src/anim/tangents.c), on hand-built quads:
 *   - a quad in the XY plane, u along +X and the stored v along +Y: T = +X, w = +1 (B = N x T = +Y
 *     is dp/dv: "up" in the image, glTF's convention);
 *   - the same quad with u mirrored (u along -X): T = -X and w = -1, so B = w N x T is still +Y;
 *   - a quad whose normals tilt: T stays perpendicular to each vertex's normal, unit length;
 *   - zero-area UVs: any unit tangent perpendicular to the normal, w = +1, no NaN. */
#include "testutil.h"

#include "anim/tangents.h"

#include <math.h>
#include <string.h>

static void quad(Mesh *mesh, vec3 positions[4], vec3 normals[4], vec2 uvs[4], uint32_t indices[6])
{
    static const uint32_t order[6] = {0, 1, 2, 0, 2, 3};
    memcpy(indices, order, sizeof order);
    memset(mesh, 0, sizeof *mesh);
    mesh->vertex_count = 4;
    mesh->index_count = 6;
    mesh->positions = positions;
    mesh->normals = normals;
    mesh->uvs = uvs;
    mesh->indices = indices;
}

static bool near4(const vec4 a, float x, float y, float z, float w)
{
    return fabsf(a[0] - x) < 1e-5f && fabsf(a[1] - y) < 1e-5f && fabsf(a[2] - z) < 1e-5f && a[3] == w;
}

int main(void)
{
    vec3 positions[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    vec3 normals[4] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    vec2 uvs[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    uint32_t indices[6];
    Mesh mesh;
    vec4 tangents[4];
    quad(&mesh, positions, normals, uvs, indices);
    mesh_generate_tangents(&mesh, tangents);
    for (int v = 0; v < 4; v++)
        CHECK(near4(tangents[v], 1, 0, 0, 1.0f), "plain quad vertex %d: T = +X, w = +1 (got %g %g %g %g)", v, tangents[v][0],
              tangents[v][1], tangents[v][2], tangents[v][3]);

    vec2 mirrored[4] = {{1, 0}, {0, 0}, {0, 1}, {1, 1}};
    quad(&mesh, positions, normals, mirrored, indices);
    mesh_generate_tangents(&mesh, tangents);
    for (int v = 0; v < 4; v++)
        CHECK(near4(tangents[v], -1, 0, 0, -1.0f), "mirrored u, vertex %d: T = -X, w = -1 (got %g %g %g %g)", v,
              tangents[v][0], tangents[v][1], tangents[v][2], tangents[v][3]);

    vec3 tilted[4] = {{-0.6f, 0, 0.8f}, {0.6f, 0, 0.8f}, {0.6f, 0, 0.8f}, {-0.6f, 0, 0.8f}};
    quad(&mesh, positions, tilted, uvs, indices);
    mesh_generate_tangents(&mesh, tangents);
    for (int v = 0; v < 4; v++) {
        float dot = glm_vec3_dot(tangents[v], tilted[v]), length = glm_vec3_norm(tangents[v]);
        CHECK(fabsf(dot) < 1e-5f && fabsf(length - 1.0f) < 1e-5f && tangents[v][0] > 0.7f,
              "tilted normals, vertex %d: T unit, perpendicular to N, still along +X (dot %g, length %g)", v, dot, length);
    }

    vec2 degenerate[4] = {{0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}};
    quad(&mesh, positions, normals, degenerate, indices);
    mesh_generate_tangents(&mesh, tangents);
    for (int v = 0; v < 4; v++) {
        float dot = glm_vec3_dot(tangents[v], normals[v]), length = glm_vec3_norm(tangents[v]);
        CHECK(isfinite(length) && fabsf(length - 1.0f) < 1e-5f && fabsf(dot) < 1e-5f && tangents[v][3] == 1.0f,
              "zero-area UVs, vertex %d: a unit tangent perpendicular to N, w = +1", v);
    }
    return test_finish();
}
