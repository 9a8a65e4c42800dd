/* morph.c — morph targets (blend shapes): weight sampling and the morph pass before skinning.
 *
 * A morph target stores, per vertex, how far the vertex moves when the target's weight is 1.
 * With weights w_t, the mesh-space vertex is  p' = p + sum_t w_t * delta_t  (glTF "relative"
 * targets; Assimp's absolute anim meshes are turned into deltas at import). The morphed mesh
 * is then skinned like the stored one: morph first, in mesh space, then the palette
 * (docs/skinning.md, "Morph targets"). */
#include "anim.h"

#include <string.h>

void clip_sample_morph_weights(const Clip *clip, float time, int *cursors, float *const *weights)
{
    time = clip_key_time(clip->start, clip->duration, time);
    for (int i = 0; i < clip->morph_track_count; i++) {
        const MorphTrack *track = &clip->morph_tracks[i];
        /* linear: w_k + a (w_k+1 - w_k); STEP: w_k until key k+1; CUBICSPLINE: glTF's Hermite (sample.c) */
        float w = sample_float_channel(track->times, track->weights, track->tangents, track->key_count,
                                       track->interpolation, time, &cursors[i]);
        weights[track->mesh][track->target] = w;
    }
}

void morph_set_default_weights(const Model *model, float *const *weights, bool zero)
{
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->morph_target_count == 0) continue;
        if (zero || !mesh->morph_default_weights)
            memset(weights[m], 0, sizeof(float) * (size_t)mesh->morph_target_count);
        else
            memcpy(weights[m], mesh->morph_default_weights, sizeof(float) * (size_t)mesh->morph_target_count);
    }
}

int morph_active_targets(const float *weights, int target_count, int *active_targets, float *active_weights)
{
    int count = 0;
    for (int t = 0; t < target_count; t++) {
        if (weights[t] == 0.0f) continue;   /* a zero weight moves nothing: skip its whole delta array */
        active_targets[count] = t;
        active_weights[count] = weights[t];
        count++;
    }
    return count;
}

void morph_vertices(const Mesh *mesh, const int *active_targets, const float *active_weights, int active_count,
                    vec3 *out_positions, vec3 *out_normals)
{
    size_t vertex_count = (size_t)mesh->vertex_count;
    memcpy(out_positions, mesh->positions, sizeof(vec3) * vertex_count);
    if (out_normals) memcpy(out_normals, mesh->normals, sizeof(vec3) * vertex_count);
    /* target by target: each delta array is read once, front to back */
    for (int i = 0; i < active_count; i++) {
        float w = active_weights[i];
        const vec3 *position_delta = mesh->morph_position_deltas + (size_t)active_targets[i] * vertex_count;
        /* p' = p + w_t * delta_t */
        for (size_t v = 0; v < vertex_count; v++) glm_vec3_muladds((float *)position_delta[v], w, out_positions[v]);
        if (out_normals && mesh->morph_normal_deltas) {
            const vec3 *normal_delta = mesh->morph_normal_deltas + (size_t)active_targets[i] * vertex_count;
            for (size_t v = 0; v < vertex_count; v++) glm_vec3_muladds((float *)normal_delta[v], w, out_normals[v]);
        }
    }
}
