/* tangents.c — generated tangent frames (tangents.h). */
#include "tangents.h"

#include <math.h>
#include <string.h>

/* v projected into the plane perpendicular to unit n, normalised; false if nothing is left. */
static bool project_unit(const vec3 v, const vec3 n, vec3 out)
{
    vec3 along;
    glm_vec3_scale((float *)n, glm_vec3_dot((float *)v, (float *)n), along);
    glm_vec3_sub((float *)v, along, out);
    float length = glm_vec3_norm(out);
    if (!(length > 1e-20f) || !isfinite(length)) return false;
    glm_vec3_scale(out, 1.0f / length, out);
    return true;
}

/* Any unit vector perpendicular to unit n. */
static void any_perpendicular(const vec3 n, vec3 out)
{
    vec3 axis = {1.0f, 0.0f, 0.0f};
    if (fabsf(n[0]) > 0.9f) glm_vec3_copy((vec3){0.0f, 1.0f, 0.0f}, axis);
    glm_vec3_cross((float *)n, axis, out);
    glm_vec3_normalize(out);
}

void mesh_generate_tangents(const Mesh *mesh, vec4 *out)
{
    int n = mesh->vertex_count;
    /* out[v].xyz sums the corners' unit tangents (angle-weighted), out[v].w their handedness votes */
    for (int v = 0; v < n; v++) glm_vec4_zero(out[v]);
    for (int t = 0; t + 2 < mesh->index_count; t += 3) {
        const uint32_t *corner = mesh->indices + t;
        if (corner[0] >= (uint32_t)n || corner[1] >= (uint32_t)n || corner[2] >= (uint32_t)n) continue;
        const float *p0 = mesh->positions[corner[0]], *p1 = mesh->positions[corner[1]], *p2 = mesh->positions[corner[2]];
        const float *t0 = mesh->uvs[corner[0]], *t1 = mesh->uvs[corner[1]], *t2 = mesh->uvs[corner[2]];
        vec3 e1, e2;
        glm_vec3_sub((float *)p1, (float *)p0, e1);
        glm_vec3_sub((float *)p2, (float *)p0, e2);
        /* v here is the stored one (1 - v_glTF, up in the image): glTF's bitangent w * N x T points
         * up in the image, so B = dp/dv of the stored v */
        float du1 = t1[0] - t0[0], dv1 = t1[1] - t0[1], du2 = t2[0] - t0[0], dv2 = t2[1] - t0[1];
        /* e1 = T du1 + B dv1, e2 = T du2 + B dv2  =>  T = (e1 dv2 - e2 dv1) / det, B = (e2 du1 - e1 du2) / det */
        float det = du1 * dv2 - du2 * dv1;
        if (!(fabsf(det) > 1e-20f) || !isfinite(det)) continue;
        vec3 tangent, bitangent, a, b;
        glm_vec3_scale(e1, dv2, a);
        glm_vec3_scale(e2, dv1, b);
        glm_vec3_sub(a, b, tangent);
        glm_vec3_scale(tangent, 1.0f / det, tangent);
        glm_vec3_scale(e2, du1, a);
        glm_vec3_scale(e1, du2, b);
        glm_vec3_sub(a, b, bitangent);
        glm_vec3_scale(bitangent, 1.0f / det, bitangent);
        for (int k = 0; k < 3; k++) {
            int v = (int)corner[k];
            const float *here = mesh->positions[corner[k]], *next = mesh->positions[corner[(k + 1) % 3]],
                        *prev = mesh->positions[corner[(k + 2) % 3]];
            vec3 to_next, to_prev;
            glm_vec3_sub((float *)next, (float *)here, to_next);
            glm_vec3_sub((float *)prev, (float *)here, to_prev);
            float ln = glm_vec3_norm(to_next), lp = glm_vec3_norm(to_prev);
            if (!(ln > 0.0f) || !(lp > 0.0f)) continue;
            float cosine = glm_vec3_dot(to_next, to_prev) / (ln * lp);
            float angle = acosf(fminf(1.0f, fmaxf(-1.0f, cosine)));   /* the corner's weight */
            const float *normal = mesh->normals[v];
            vec3 t_unit, b_unit, cross_nt;
            if (!project_unit(tangent, normal, t_unit)) continue;
            glm_vec3_muladds(t_unit, angle, out[v]);
            if (project_unit(bitangent, normal, b_unit)) {
                glm_vec3_cross((float *)normal, t_unit, cross_nt);
                out[v][3] += angle * (glm_vec3_dot(cross_nt, b_unit) < 0.0f ? -1.0f : 1.0f);
            }
        }
    }
    for (int v = 0; v < n; v++) {
        const float *normal = mesh->normals[v];
        vec3 sum = {out[v][0], out[v][1], out[v][2]}, unit;
        if (!project_unit(sum, normal, unit)) any_perpendicular(normal, unit);   /* Gram-Schmidt */
        float w = out[v][3] < 0.0f ? -1.0f : 1.0f;
        glm_vec3_copy(unit, out[v]);
        out[v][3] = w;
    }
}
