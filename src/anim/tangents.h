/* tangents.h — per-vertex tangent frames for normal mapping, when the file has none.
 *
 * What glTF asks for ("When tangents are not specified, client implementations SHOULD calculate
 * tangents using default MikkTSpace algorithms with the specified vertex positions, normals, and
 * texture coordinates"), computed the way MikkTSpace builds its per-vertex basis, in skinview's
 * own words (no MikkTSpace library exists as a Debian package):
 *   1. per triangle, the UV gradient directions: T_f = dp/du, B_f = dp/dv (v the stored one,
 *      1 - v_glTF: up in the image), solved from the edge vectors and UV deltas;
 *   2. at each corner, T_f and B_f projected into the plane of that vertex's normal, normalised,
 *      and weighted by the triangle's angle at the corner (MikkTSpace weights by angle, not area);
 *   3. per vertex, the sums orthonormalised against the normal (Gram-Schmidt); the handedness
 *      w = sign(dot(cross(N, T), B)) (glTF: bitangent = w * cross(N, T)).
 * Differences from MikkTSpace itself: it also splits a vertex whose corners disagree in
 * handedness (mirrored UVs meeting at one vertex) and merges corners by position / normal / UV
 * equality; here the mesh's own vertices are the groups (files split their vertices at UV seams,
 * so a mirrored seam already has two vertices). A degenerate triangle (zero UV area) adds nothing;
 * a vertex with no usable triangle gets any tangent perpendicular to its normal (w = 1).
 * Plain C, no allocation besides `out`, unit-tested (tests/anim/test_tangents.c). */
#ifndef SKINVIEW_TANGENTS_H
#define SKINVIEW_TANGENTS_H

#include "model.h"

/* Fills out[vertex_count] with the mesh's tangents (mesh space, unit xyz, w = +-1). Needs
 * positions, normals and uvs. */
void mesh_generate_tangents(const Mesh *mesh, vec4 *out);

#endif
