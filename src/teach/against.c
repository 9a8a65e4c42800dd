/* against.c — --against OTHER each frame (against.h): OTHER posed at MODEL's clip and time, skinned
 * the way skinview shows it, and the distances the difference view colours MODEL by (formula.c).
 * Set-up (import, clip and vertex pairing) and --report: app/against.c. */
#include "teach/against.h"

#include <math.h>

/* ---- every vertex of a pose, meshes concatenated in --export-pose order ---------------------- */

void against_skin_all(const Model *model, SkinningMethod method, const SkinDqPose *dq, const Animator *animator,
                      vec3 *out)
{
    for (int m = 0, offset = 0; m < model->mesh_count; m++) {
        skin_mesh_by_method(method, dq, animator, m, out + offset, NULL);
        offset += model->meshes[m].vertex_count;
    }
}

/* ---- per frame ----------------------------------------------------------------------------------- */

/* OTHER's clip for MODEL's `clip`: the same static pose, the paired clip, or -3 (none). */
static int other_clip(const Against *a, int clip)
{
    if (clip < 0) return clip;
    return clip < a->model->clip_count && a->clip_of[clip] >= 0 ? a->clip_of[clip] : -3;
}

static void skin_other(Against *a)
{
    if (a->other_method == SKINNING_GPU_DQ) skin_dq_pose_update(&a->other_dq, &a->other_animator);
    against_skin_all(&a->other, a->other_method, &a->other_dq, &a->other_animator, a->other_positions);
    a->posed = true;
}

void against_pose(Against *a, int clip, float time)
{
    int o = other_clip(a, clip);
    a->posed = false;
    if (o == -3) return;
    animator_evaluate(&a->other_animator, o, time);
    skin_other(a);
}

void against_pose_blend(Against *a, int from, float from_time, int to, float to_time, float weight)
{
    int o_from = other_clip(a, from), o_to = other_clip(a, to);
    a->posed = false;
    if (o_from == -3 || o_to == -3) return;
    animator_evaluate_blend(&a->other_animator, o_from, from_time, o_to, to_time, weight);
    skin_other(a);
}

float against_measure(const Against *a, int first, int count, const vec3 *model_positions, float *distances)
{
    float largest = 0.0f;
    for (int i = 0; i < count; i++) {   /* d(v) = |p_MODEL(v) - p_OTHER(partner(v))| */
        float d = glm_vec3_distance((float *)model_positions[i], a->other_positions[a->partner[first + i]]);
        distances[i] = d;
        if (d > largest || d != d) largest = d != d ? INFINITY : d;
    }
    return largest;
}
