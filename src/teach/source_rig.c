/* source_rig.c — the source rig beside the character (source_rig.h). */
#include "teach/source_rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const float source_rig_color[4] = {0.25f, 0.65f, 1.0f, 1.0f};
static const float halo[4] = {0.0f, 0.0f, 0.0f, 0.8f};

bool source_rig_view_init(SourceRigView *view, const Model *character, float side, char *error, size_t error_size)
{
    memset(view, 0, sizeof *view);
    view->rig = -1;
    view->side = side;
    if (character->source_rig_count == 0) return true;
    int most = 1;
    for (int r = 0; r < character->source_rig_count; r++)
        if (character->source_rigs[r].model->skeleton.joint_count > most)
            most = character->source_rigs[r].model->skeleton.joint_count;
    view->poses = calloc((size_t)character->source_rig_count, sizeof(Animator));
    view->capacity = 2 * most;
    view->vertices = malloc(sizeof(LineVertex) * (size_t)view->capacity);
    view->placed = malloc(sizeof(vec3) * (size_t)most);
    bool ok = view->poses && view->vertices && view->placed;
    for (int r = 0; ok && r < character->source_rig_count; r++) {
        ok = animator_init(&view->poses[r], character->source_rigs[r].model);
        if (ok) view->rig_count = r + 1;
    }
    if (!ok) {
        snprintf(error, error_size, "out of memory (source rigs)");
        source_rig_view_free(view);
        return false;
    }
    if (!lines_init(&view->lines, most, error, error_size)) {
        source_rig_view_free(view);
        return false;
    }
    view->lines_ready = true;
    return true;
}

void source_rig_view_free(SourceRigView *view)
{
    for (int r = 0; r < view->rig_count; r++) animator_free(&view->poses[r]);
    free(view->poses);
    free(view->vertices);
    free(view->placed);
    if (view->lines_ready) lines_free(&view->lines);
    memset(view, 0, sizeof *view);
    view->rig = -1;
}

void source_rig_view_evaluate(SourceRigView *view, const Model *character, int clip, float time)
{
    source_rig_view_evaluate_fade(view, character, clip, time, -1, 0.0f, 1.0f);
}

/* The rig (0-based) clip `clip` of the character was retargeted from, -1: none (its own clip). */
static int rig_of(const SourceRigView *view, const Model *character, int clip)
{
    if (clip < 0 || clip >= character->clip_count) return -1;
    int rig = character->clips[clip].source_rig - 1;
    return rig >= 0 && rig < view->rig_count ? rig : -1;
}

void source_rig_view_evaluate_fade(SourceRigView *view, const Model *character, int clip, float time, int from,
                                   float from_time, float weight)
{
    int to_rig = rig_of(view, character, clip), from_rig = from >= 0 && weight < 1.0f ? rig_of(view, character, from) : -1;
    view->rig = to_rig >= 0 ? to_rig : from_rig;
    if (to_rig >= 0 && to_rig == from_rig)   /* one rig: its pose fades as the character's does */
        animator_evaluate_blend(&view->poses[to_rig], character->clips[from].source_clip, from_time,
                                character->clips[clip].source_clip, time, weight);
    else if (to_rig >= 0)
        animator_evaluate(&view->poses[to_rig], character->clips[clip].source_clip, time);
    else if (from_rig >= 0)
        animator_evaluate(&view->poses[from_rig], character->clips[from].source_clip, from_time);
}

void source_rig_place(const SourceRig *rig, const mat4 *source_pose, const mat4 *character_pose, const vec3 side, vec3 *out)
{
    const Skeleton *skeleton = &rig->model->skeleton;
    versor align;
    glm_quat_init(align, rig->align[0], rig->align[1], rig->align[2], rig->align[3]);
    /* k · A · p_j(t): the source joint in the character's axes, at the character's size */
    for (int j = 0; j < skeleton->joint_count; j++) {
        glm_quat_rotatev(align, (float *)source_pose[j][3], out[j]);
        glm_vec3_scale(out[j], rig->scale, out[j]);
    }
    /* d: beside the character's hips (x, z; y is up in the scene), `side` away */
    vec3 d = {side[0], 0.0f, side[2]};
    if (rig->hips >= 0 && rig->target_hips >= 0) {
        d[0] += character_pose[rig->target_hips][3][0] - out[rig->hips][0];
        d[2] += character_pose[rig->target_hips][3][2] - out[rig->hips][2];
    }
    for (int j = 0; j < skeleton->joint_count; j++) glm_vec3_add(out[j], d, out[j]);
}

/* Whether joint j hangs below the rig's hips (or is them): nothing above the hips is drawn (an
 * "Armature" node, the scene root). A rig without hips draws every joint. */
static bool below_hips(const Skeleton *skeleton, int hips, int j)
{
    if (hips < 0) return true;
    for (int a = j; a >= 0; a = skeleton->parent[a])
        if (a == hips) return true;
    return false;
}

void source_rig_view_draw(SourceRigView *view, const Model *character, const mat4 *character_pose, const mat4 view_matrix,
                          const mat4 projection, const LineStyle *style, float scale)
{
    if (view->rig < 0 || !view->lines_ready) return;
    const SourceRig *rig = &character->source_rigs[view->rig];
    const Skeleton *skeleton = &rig->model->skeleton;
    int n = skeleton->joint_count, segments = 0;
    vec3 *placed = view->placed;
    /* beside: `side` along the camera's right (the view matrix's first row), level with the ground,
     * so the rig stands to the right of the character on screen from every side */
    vec3 side = {view_matrix[0][0], 0.0f, view_matrix[2][0]};
    float length = glm_vec3_norm(side);
    if (length > 1e-6f) glm_vec3_scale(side, view->side / length, side);
    else glm_vec3_copy((vec3){view->side, 0.0f, 0.0f}, side);   /* looking straight down: +X */
    source_rig_place(rig, (const mat4 *)view->poses[view->rig].joint_model, character_pose, side, placed);
    for (int j = 0; j < n && 2 * (segments + 1) <= view->capacity; j++) {
        int p = skeleton->parent[j];
        if (p < 0 || !below_hips(skeleton, rig->hips, p)) continue;
        LineVertex *v = view->vertices + 2 * segments++;
        memcpy(v[0].position, placed[p], sizeof(vec3));
        memcpy(v[1].position, placed[j], sizeof(vec3));
        memcpy(v[0].color, source_rig_color, sizeof v[0].color);
        memcpy(v[1].color, source_rig_color, sizeof v[1].color);
    }
    LineStyle bones = *style;
    bones.width = 2.0f * scale + 2.5f * scale;   /* the halo, then the colour */
    for (int i = 0; i < 2 * segments; i++) memcpy(view->vertices[i].color, halo, sizeof halo);
    lines_draw(&view->lines, view->vertices, segments, view_matrix, projection, &bones);
    for (int i = 0; i < 2 * segments; i++) memcpy(view->vertices[i].color, source_rig_color, sizeof halo);
    bones.width = 2.0f * scale;
    lines_draw(&view->lines, view->vertices, segments, view_matrix, projection, &bones);
    for (int pass = 0; pass < 2; pass++) {
        int dots = 0;
        for (int j = 0; j < n && dots < view->capacity; j++) {
            if (!below_hips(skeleton, rig->hips, j)) continue;
            memcpy(view->vertices[dots].position, placed[j], sizeof(vec3));
            memcpy(view->vertices[dots++].color, pass == 0 ? halo : source_rig_color, sizeof halo);
        }
        lines_draw_points(&view->lines, view->vertices, dots, view_matrix, projection, style,
                          (pass == 0 ? 9.0f : 6.0f) * scale);
    }
}
