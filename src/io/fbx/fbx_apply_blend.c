/* fbx_apply_blend.c — stage 8, the blend shape step: the file's morph targets and their weights.
 *
 * Rules of this step: as the section below says (a mesh whose geometry has a BlendShape deformer
 * gets its morph targets from the file, fbx_blend.c, and every clip the targets' weight tracks).
 */
#include "fbx_apply_common.h"

/* ---- blend shapes ---------------------------------------------------------------------------
 * Assimp 5.2.5 turns a channel's in-between targets into separate full targets driven by the
 * wrong channel and ignores FullWeights and the stored weight at rest (issue item 7). A mesh whose
 * Model's geometry has a BlendShape deformer gets its morph targets from the file instead
 * (fbx_blend.c: one target per Shape, deltas by control point, defaults from DeformPercent), and
 * every clip its weights: the channel's DeformPercent curve, sampled at the clip's times, mapped to
 * the targets' weights by fbx_blend_target_weights (piecewise linear: exact at the samples). */

static bool has_blend_shape(const FbxScene *scene, int geometry)
{
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, geometry, k);
        if (c < 0) return false;
        if (fbx_is_subclass(scene, scene->connections[c].src, "BlendShape")) return true;
    }
}

bool fbx_apply_blend_shapes(Apply *a)
{
    Model *model = a->im->model;
    a->blends = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof *a->blends);
    if (!a->blends) return false;
    for (int m = 0; m < model->mesh_count; m++) {
        Mesh *mesh = &model->meshes[m];
        int node = fbx_mesh_node(a, mesh);
        if (node < 0) continue;
        int geometry = fbx_geometry_of(a->scene, a->nodes[node].object);
        if (geometry < 0 || !has_blend_shape(a->scene, geometry)) continue;
        int *control_point = NULL;
        if (!fbx_mesh_control_points(a->scene, geometry, mesh, &control_point)) return false;
        free(mesh->morph_target_names), mesh->morph_target_names = NULL;
        free(mesh->morph_position_deltas), mesh->morph_position_deltas = NULL;
        free(mesh->morph_normal_deltas), mesh->morph_normal_deltas = NULL;
        free(mesh->morph_default_weights), mesh->morph_default_weights = NULL;
        mesh->morph_target_count = 0;
        char error[256];
        bool ok = fbx_blend_add_targets(a->scene, geometry, mesh, control_point, &a->blends[m], error, sizeof error);
        free(control_point);
        if (ok && a->blends[m].channel_count > 0) model->stats.blend_shapes_from_file++;
        if (!ok) {
            import_warn(a->im, "mesh '%s': blend shapes dropped (%s)", QUOTED(mesh->name), error);
            fbx_blend_mesh_free(&a->blends[m]);
            memset(&a->blends[m], 0, sizeof a->blends[m]);
        }
    }
    return true;
}

/* The clip's morph tracks from the stack's DeformPercent curves. */
bool fbx_build_morph_tracks(Apply *a, const Stack *stack, Clip *clip)
{
    Model *model = a->im->model;
    int wanted = 0;
    for (int c = 0; c < stack->morph_count; c++)
        for (int m = 0; m < model->mesh_count; m++)
            for (int k = 0; k < a->blends[m].channel_count; k++)
                if (a->blends[m].channels[k].channel_object == stack->morphs[c].channel_object)
                    wanted += a->blends[m].channels[k].target_count;
    if (wanted == 0 || stack->time_count == 0) return true;
    clip->morph_tracks = calloc((size_t)wanted, sizeof *clip->morph_tracks);
    float *weights = malloc(sizeof(float) * (size_t)wanted);
    if (!clip->morph_tracks || !weights) {
        free(weights);
        return false;
    }
    int n = 0;
    bool ok = true;
    for (int c = 0; ok && c < stack->morph_count; c++)
        for (int m = 0; ok && m < model->mesh_count; m++)
            for (int k = 0; ok && k < a->blends[m].channel_count; k++) {
                const FbxBlendChannel *channel = &a->blends[m].channels[k];
                if (channel->channel_object != stack->morphs[c].channel_object) continue;
                int first = n;
                for (int t = 0; ok && t < channel->target_count; t++) {
                    MorphTrack *track = &clip->morph_tracks[n++];
                    track->mesh = m;
                    track->target = channel->first_target + t;
                    track->key_count = stack->time_count;
                    track->interpolation = INTERPOLATION_LINEAR;
                    track->times = malloc(sizeof(float) * (size_t)stack->time_count);
                    track->weights = malloc(sizeof(float) * (size_t)stack->time_count);
                    ok = track->times && track->weights;
                }
                for (int s = 0; ok && s < stack->time_count; s++) {
                    double percent = fbx_curve_evaluate(stack->morphs[c].curve, stack->times[s]);
                    fbx_blend_target_weights(channel->full_weights, channel->target_count, isfinite(percent) ? percent : 0.0,
                                             weights);
                    for (int t = 0; t < channel->target_count; t++) {
                        clip->morph_tracks[first + t].times[s] = (float)stack->times[s];
                        clip->morph_tracks[first + t].weights[s] = weights[t];
                    }
                }
            }
    clip->morph_track_count = n;
    free(weights);
    return ok;
}
