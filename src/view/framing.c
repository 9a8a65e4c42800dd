/* framing.c — the model's box over its whole animation and its bind pose, and a front camera framing it
 * (framing.h), for both players. */
#include "view/framing.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOUNDS_SAMPLES_PER_CLIP 8

/* Grows [min, max] by the CPU-skinned vertices of the pose `animator` holds. */
static void grow_by_pose(const Model *model, const Animator *animator, vec3 *scratch, vec3 min, vec3 max)
{
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++) {
            if (!isfinite(scratch[v][0]) || !isfinite(scratch[v][1]) || !isfinite(scratch[v][2])) continue;
            glm_vec3_minv(min, scratch[v], min);
            glm_vec3_maxv(max, scratch[v], max);
        }
    }
}

/* Room for the posed vertices of the largest mesh (NULL when there are none). */
static vec3 *pose_scratch(const Model *model)
{
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    return max_vertices > 0 ? malloc(sizeof(vec3) * (size_t)max_vertices) : NULL;
}

/* min, max = the box grown to lo..hi; false when nothing grew it (every vertex was NaN / inf). */
static bool box_found(const vec3 lo, const vec3 hi, vec3 min, vec3 max)
{
    if (lo[0] > hi[0]) return false;
    glm_vec3_copy((float *)lo, min);
    glm_vec3_copy((float *)hi, max);
    return true;
}

/* Box over clip `first`..`last` (inclusive), or the pose `pose` when first > last. */
static bool bounds_over(const Model *model, Animator *animator, int first, int last, int pose, vec3 min, vec3 max)
{
    glm_vec3_zero(min);
    glm_vec3_zero(max);
    vec3 *scratch = pose_scratch(model);
    if (!scratch) return false;

    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    if (first > last) {
        animator_evaluate(animator, pose, 0.0f);
        grow_by_pose(model, animator, scratch, lo, hi);
    }
    for (int c = first; c <= last; c++)
        for (int i = 0; i < BOUNDS_SAMPLES_PER_CLIP; i++) {
            /* t_i = i * duration / 7: both ends included */
            float t = model->clips[c].duration * (float)i / (float)(BOUNDS_SAMPLES_PER_CLIP - 1);
            animator_evaluate(animator, c, t);
            grow_by_pose(model, animator, scratch, lo, hi);
        }
    /* the bind pose (key 0 / --clip bind) too: a glTF may store its mesh lying down (N = identity) */
    animator_evaluate(animator, ANIMATOR_BIND_POSE, 0.0f);
    grow_by_pose(model, animator, scratch, lo, hi);
    free(scratch);
    return box_found(lo, hi, min, max);
}

bool view_pose_bounds(const Model *model, const Animator *animator, vec3 min, vec3 max)
{
    glm_vec3_zero(min);
    glm_vec3_zero(max);
    vec3 *scratch = pose_scratch(model);
    if (!scratch) return false;
    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    grow_by_pose(model, animator, scratch, lo, hi);
    free(scratch);
    return box_found(lo, hi, min, max);
}

bool view_pose_screen_bounds(const Model *model, const Animator *animator, const mat4 view_projection, vec2 min,
                            vec2 max)
{
    glm_vec2_zero(min);
    glm_vec2_zero(max);
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    if (max_vertices == 0) return false;
    vec3 *scratch = malloc(sizeof(vec3) * (size_t)max_vertices);
    if (!scratch) return false;
    vec2 lo = {FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX};
    for (int m = 0; m < model->mesh_count; m++) {
        animator_skin_mesh(animator, m, scratch, NULL);
        for (int v = 0; v < model->meshes[m].vertex_count; v++) {
            /* clip = VP * (p, 1); ndc = clip.xy / clip.w */
            vec4 p = {scratch[v][0], scratch[v][1], scratch[v][2], 1.0f}, clip;
            glm_mat4_mulv((vec4 *)view_projection, p, clip);
            if (!(clip[3] > 1e-6f) || !isfinite(clip[0]) || !isfinite(clip[1])) continue;
            vec2 ndc = {clip[0] / clip[3], clip[1] / clip[3]};
            glm_vec2_minv(lo, ndc, lo);
            glm_vec2_maxv(hi, ndc, hi);
        }
    }
    free(scratch);
    if (lo[0] > hi[0]) return false;
    glm_vec2_copy(lo, min);
    glm_vec2_copy(hi, max);
    return true;
}

bool view_model_bounds(const Model *model, Animator *animator, vec3 min, vec3 max)
{
    return bounds_over(model, animator, 0, model->clip_count - 1, ANIMATOR_REST_POSE, min, max);
}

bool view_clip_bounds(const Model *model, Animator *animator, int clip, vec3 min, vec3 max)
{
    if (clip >= 0 && clip < model->clip_count) return bounds_over(model, animator, clip, clip, clip, min, max);
    return bounds_over(model, animator, 0, -1, clip, min, max);
}

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool view_mirror_joint_name(const char *name, char *out, size_t out_size, int *side)
{
    static const char *const words[][2] = {{"Left", "Right"}, {"left", "right"}, {"LEFT", "RIGHT"}};
    size_t n = strlen(name);
    if (n + 2 > out_size) return false;
    /* whole words first: the first Left/Right spelling found */
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (int s = 0; s < 2; s++) {
            const char *hit = strstr(name, words[w][s]);
            if (!hit) continue;
            size_t before = (size_t)(hit - name), word = strlen(words[w][s]);
            snprintf(out, out_size, "%.*s%s%s", (int)before, name, words[w][1 - s], hit + word);
            *side = s == 0 ? 1 : -1;
            return true;
        }
    /* a lone L / R letter token: "Arm.L", "arm_l", "L_Hand", "Hand L" */
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c != 'L' && c != 'l' && c != 'R' && c != 'r') continue;
        bool alone = (i == 0 || !is_letter(name[i - 1])) && (i + 1 == n || !is_letter(name[i + 1]));
        if (!alone) continue;
        memcpy(out, name, n + 1);
        out[i] = c == 'L' ? 'R' : c == 'l' ? 'r' : c == 'R' ? 'L' : 'l';
        *side = (c == 'L' || c == 'l') ? 1 : -1;
        return true;
    }
    return false;
}

/* Rule 1 of view_front_yaw: Left / Right joint pairs. */
static bool facing_from_names(const Model *model, const Animator *animator, float *yaw)
{
    const Skeleton *skeleton = &model->skeleton;
    vec3 left = {0.0f, 0.0f, 0.0f};   /* sum over pairs of (left joint - right joint) */
    char mirrored[SV_NAME_MAX + 8];
    int pairs = 0;
    for (int j = 0; j < skeleton->joint_count; j++) {
        int side = 0;
        if (!view_mirror_joint_name(skeleton->names[j], mirrored, sizeof mirrored, &side) || side != 1) continue;
        for (int k = 0; k < skeleton->joint_count; k++) {
            if (k == j || strcmp(skeleton->names[k], mirrored) != 0) continue;
            vec3 d;
            glm_vec3_sub(animator->joint_model[j][3], animator->joint_model[k][3], d);
            glm_vec3_add(left, d, left);
            pairs++;
            break;
        }
    }
    /* forward = left x up = (-left.z, 0, left.x) for up = +Y */
    float fx = -left[2], fz = left[0];
    if (pairs == 0 || !(fx * fx + fz * fz > 1e-12f) || !isfinite(fx) || !isfinite(fz)) return false;
    /* if the left side mostly points along +-Y, the file is not Y-up: no answer here */
    if (fabsf(left[1]) > sqrtf(fx * fx + fz * fz)) return false;
    *yaw = atan2f(fx, fz);
    return true;
}

/* Rule 2: the ground direction the clip carries its root-motion joint, start to end. */
static bool facing_from_travel(const Model *model, Animator *animator, int clip, float *yaw)
{
    if (clip < 0 || clip >= model->clip_count || model->clips[clip].duration <= 0.0f) return false;
    int root = clip_root_motion_joint(&model->clips[clip]);
    if (root < 0) return false;
    bool in_place = animator->root.in_place;
    animator->root.in_place = false;
    animator_evaluate(animator, clip, 0.0f);
    vec3 start, end;
    glm_vec3_copy(animator->joint_model[root][3], start);
    animator_evaluate(animator, clip, model->clips[clip].duration);
    glm_vec3_copy(animator->joint_model[root][3], end);
    animator->root.in_place = in_place;
    vec3 lo, hi;   /* the body's size: its joints' box at the start */
    animator_evaluate(animator, clip, 0.0f);
    glm_vec3_copy(animator->joint_model[0][3], lo);
    glm_vec3_copy(lo, hi);
    for (int j = 0; j < model->skeleton.joint_count; j++) {
        glm_vec3_minv(lo, animator->joint_model[j][3], lo);
        glm_vec3_maxv(hi, animator->joint_model[j][3], hi);
    }
    float dx = end[0] - start[0], dz = end[2] - start[2];
    float travel = sqrtf(dx * dx + dz * dz), size = glm_vec3_distance(lo, hi);
    if (!(travel > 0.25f * size) || !isfinite(travel)) return false;
    *yaw = atan2f(dx, dz);
    return true;
}

/* Rule 3: feet point forward. A leaf joint in the lowest FEET_HEIGHT_SHARE of the skeleton's
 * height (a toe, the tip of a foot) is taken with its parent: (leaf - parent) on the ground
 * plane (of the unit direction), summed over FEET_SAMPLES times of the clip (a walk lifts one
 * foot at a time) while the foot is within FEET_MAX_PITCH_DEGREES of flat. Two different leaves or more that agree (the sum at least half as long as
 * the sum of the parts' lengths) give the facing: unnamed skeletons that walk in place (Khronos' CesiumMan)
 * have no other clue. Not the bind pose: a glTF bind pose may lie in the skin's own Z-up space
 * (CesiumMan's does). */
#define FEET_HEIGHT_SHARE 0.15f
#define FEET_SAMPLES 8
#define FEET_MAX_PITCH_DEGREES 30.0f
static bool facing_from_feet(const Model *model, Animator *animator, int clip, float *yaw)
{
    const Skeleton *skeleton = &model->skeleton;
    int count = skeleton->joint_count;
    if (count < 3) return false;
    float duration = clip >= 0 && clip < model->clip_count ? model->clips[clip].duration : 0.0f;
    float fx = 0.0f, fz = 0.0f, ground_share = 0.0f;
    int contributions = 0, first_leaf = -1;
    bool two_leaves = false;
    for (int sample = 0; sample < FEET_SAMPLES; sample++) {
        animator_evaluate(animator, clip, duration * (float)sample / FEET_SAMPLES);
        float low = INFINITY, high = -INFINITY;
        for (int j = 0; j < count; j++) {
            low = fminf(low, animator->joint_model[j][3][1]);
            high = fmaxf(high, animator->joint_model[j][3][1]);
        }
        if (!(high - low > 0.0f)) return false;
        for (int j = 0; j < count; j++) {
            int parent = skeleton->parent[j];
            if (parent < 0 || animator->joint_model[j][3][1] > low + FEET_HEIGHT_SHARE * (high - low)) continue;
            bool leaf = true;
            for (int k = j + 1; k < count && leaf; k++) leaf = skeleton->parent[k] != j;   /* parents come first */
            if (!leaf) continue;
            vec3 d;
            glm_vec3_sub(animator->joint_model[j][3], animator->joint_model[parent][3], d);
            float length = glm_vec3_norm(d);
            /* only feet within FEET_MAX_PITCH of flat: past vertical (a toe-off) the ground part
             * of a foot points backwards */
            if (!(length > 1e-6f * (high - low)) || fabsf(d[1]) > sinf(glm_rad(FEET_MAX_PITCH_DEGREES)) * length) continue;
            fx += d[0] / length;
            fz += d[2] / length;
            ground_share += sqrtf(d[0] * d[0] + d[2] * d[2]) / length;
            contributions++;
            if (first_leaf < 0) first_leaf = j;
            else if (j != first_leaf) two_leaves = true;
        }
    }
    if (!two_leaves || contributions == 0 || !(sqrtf(fx * fx + fz * fz) >= 0.5f * ground_share)) return false;
    *yaw = atan2f(fx, fz);
    return true;
}

float view_front_yaw(const Model *model, Animator *animator, int clip)
{
    float yaw = 0.0f;
    animator_evaluate(animator, clip, 0.0f);
    if (facing_from_names(model, animator, &yaw)) return yaw;
    if (!facing_from_travel(model, animator, clip, &yaw) && !facing_from_feet(model, animator, clip, &yaw)) yaw = 0.0f;
    animator_evaluate(animator, clip, 0.0f);
    return yaw;
}

/* What the fitting passes fold over the points: their extent across the view (pass 1, from
 * the target), the distance they need (pass 2), where they land on screen (pass 3, NDC). */
struct ViewFit {
    const Camera *camera;
    float aspect;
    vec3  back, right, up;
    float x_min, x_max, y_min, y_max;
    float distance;
    int   pass;
};

void view_fit_point(ViewFit *fit, const vec3 point)
{
    if (!isfinite(point[0]) || !isfinite(point[1]) || !isfinite(point[2])) return;
    vec3 r;
    glm_vec3_sub((float *)point, (float *)fit->camera->target, r);
    if (fit->pass == 1) {
        float x = glm_vec3_dot(r, fit->right), y = glm_vec3_dot(r, fit->up);
        fit->x_min = fminf(fit->x_min, x);
        fit->x_max = fmaxf(fit->x_max, x);
        fit->y_min = fminf(fit->y_min, y);
        fit->y_max = fmaxf(fit->y_max, y);
    } else if (fit->pass == 2) {
        fit->distance = fmaxf(fit->distance, camera_fit_distance(fit->camera, point, fit->aspect));
    } else {   /* where the point lands on screen (NDC) with the eye at `distance` */
        float depth = fit->distance - glm_vec3_dot(r, fit->back);
        if (!(depth > 0.0f)) return;
        float tan_y = tanf(0.5f * fit->camera->fov_y), tan_x = tan_y * fit->aspect;
        float x = glm_vec3_dot(r, fit->right) / (depth * tan_x), y = glm_vec3_dot(r, fit->up) / (depth * tan_y);
        fit->x_min = fminf(fit->x_min, x);
        fit->x_max = fmaxf(fit->x_max, x);
        fit->y_min = fminf(fit->y_min, y);
        fit->y_max = fmaxf(fit->y_max, y);
    }
}

void view_frame_points(ViewPointSource source, void *user, const vec3 box_min, const vec3 box_max, float front_yaw,
                      float aspect, bool reset_angle, float reserved_top, float reserved_bottom, Camera *camera)
{
    camera->front_yaw = front_yaw;
    if (reset_angle) camera_reset_angle(camera);
    /* the box sets the scene size (near / far, zoom limits) and a first distance ... */
    camera_frame(camera, box_min, box_max, aspect, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    /* ... then the points themselves: centred across the view, as close as they all fit */
    ViewFit fit = {.camera = camera, .aspect = aspect, .x_min = INFINITY, .x_max = -INFINITY,
                  .y_min = INFINITY, .y_max = -INFINITY, .distance = 0.0f, .pass = 1};
    camera_basis(camera, fit.back, fit.right, fit.up);
    source(user, &fit);
    if (!(fit.x_min <= fit.x_max && fit.y_min <= fit.y_max)) return;
    glm_vec3_muladds(fit.right, 0.5f * (fit.x_min + fit.x_max), camera->target);
    glm_vec3_muladds(fit.up, 0.5f * (fit.y_min + fit.y_max), camera->target);
    fit.pass = 2;
    source(user, &fit);
    /* Perspective makes near parts look bigger, so the middle of the extent across the view is
     * not the middle on screen: measure on screen (NDC) at that distance, move the target by the
     * offset (NDC x -> x d tan(fov_x / 2) at the target's depth), fit the distance again. */
    for (int round = 0; round < 2 && fit.distance > 0.0f; round++) {
        fit.x_min = fit.y_min = INFINITY;
        fit.x_max = fit.y_max = -INFINITY;
        fit.pass = 3;
        source(user, &fit);
        if (!(fit.x_min <= fit.x_max && fit.y_min <= fit.y_max)) break;
        float tan_y = tanf(0.5f * camera->fov_y), tan_x = tan_y * aspect;
        glm_vec3_muladds(fit.right, 0.5f * (fit.x_min + fit.x_max) * fit.distance * tan_x, camera->target);
        glm_vec3_muladds(fit.up, 0.5f * (fit.y_min + fit.y_max) * fit.distance * tan_y, camera->target);
        fit.distance = 0.0f;
        fit.pass = 2;
        source(user, &fit);
    }
    if (!(fit.distance > 0.0f)) return;
    camera->distance = CAMERA_MARGIN * fit.distance;
    /* The HUD's bands: fit into the free band (the picture shrinks as 1 / distance) and centre on
     * it: a point at `up` offset u shows at NDC y = u / (d tan(fov_y / 2)), and the band's middle
     * is at NDC y = reserved_bottom - reserved_top. */
    float free_band = 1.0f - reserved_top - reserved_bottom;
    if (free_band > 0.3f && free_band < 1.0f) {
        camera->distance /= free_band;
        float band_middle = reserved_bottom - reserved_top;
        glm_vec3_muladds(fit.up, -band_middle * camera->distance * tanf(0.5f * camera->fov_y), camera->target);
    }
}

/* The 26 directions of a cube's faces, edges and corners (not normalised: only signs matter
 * for "the farthest along"). */
static void frame_direction(int d, vec3 out)
{
    int code = d < 13 ? d : d + 1;   /* skip (0, 0, 0), the cube's centre */
    out[0] = (float)(code % 3 - 1);
    out[1] = (float)(code / 3 % 3 - 1);
    out[2] = (float)(code / 9 - 1);
}

int view_clip_frame_points(const Model *model, Animator *animator, int clip, vec3 *points)
{
    int max_vertices = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].vertex_count > max_vertices) max_vertices = model->meshes[m].vertex_count;
    vec3 *scratch = max_vertices > 0 ? malloc(sizeof(vec3) * (size_t)max_vertices) : NULL;
    if (!scratch) return 0;
    int samples = clip >= 0 && clip < model->clip_count ? BOUNDS_SAMPLES_PER_CLIP : 1, count = 0;
    for (int i = 0; i < samples; i++) {
        float t = samples > 1 ? model->clips[clip].duration * (float)i / (float)(samples - 1) : 0.0f;
        animator_evaluate(animator, clip, t);
        float best[VIEW_FRAME_DIRECTIONS];
        vec3 dirs[VIEW_FRAME_DIRECTIONS];
        int found = 0;
        for (int d = 0; d < VIEW_FRAME_DIRECTIONS; d++) {
            frame_direction(d, dirs[d]);
            best[d] = -INFINITY;
        }
        vec3 *mine = points + count;
        for (int m = 0; m < model->mesh_count; m++) {
            animator_skin_mesh(animator, m, scratch, NULL);
            for (int v = 0; v < model->meshes[m].vertex_count; v++) {
                if (!isfinite(scratch[v][0]) || !isfinite(scratch[v][1]) || !isfinite(scratch[v][2])) continue;
                for (int d = 0; d < VIEW_FRAME_DIRECTIONS; d++) {
                    float along = glm_vec3_dot(scratch[v], dirs[d]);
                    if (along > best[d]) {
                        best[d] = along;
                        glm_vec3_copy(scratch[v], mine[d]);
                    }
                }
                found = 1;
            }
        }
        if (found) count += VIEW_FRAME_DIRECTIONS;
    }
    free(scratch);
    return count;
}

/* An array of points as a point source. */
typedef struct PointArray {
    const vec3 *points;
    int         count;
} PointArray;

static void array_points(void *user, ViewFit *fit)
{
    const PointArray *a = user;
    for (int i = 0; i < a->count; i++) view_fit_point(fit, a->points[i]);
}

void view_frame_point_array(const vec3 *points, int count, float front_yaw, float aspect, bool reset_angle,
                           float reserved_top, float reserved_bottom, Camera *camera)
{
    PointArray array = {points, count};
    vec3 box_min = {-1.0f, -1.0f, -1.0f}, box_max = {1.0f, 1.0f, 1.0f};   /* no points: the unit box */
    if (count > 0) {   /* the points' box: the clip's box (its extremes along x, y, z are among them) */
        glm_vec3_copy((float *)points[0], box_min);
        glm_vec3_copy((float *)points[0], box_max);
        for (int i = 1; i < count; i++) {
            glm_vec3_minv(box_min, (float *)points[i], box_min);
            glm_vec3_maxv(box_max, (float *)points[i], box_max);
        }
    }
    view_frame_points(array_points, &array, box_min, box_max, front_yaw, aspect, reset_angle, reserved_top,
                     reserved_bottom, camera);
}

/* The start pose's least share of the first frame, against framing it alone: with CAMERA_MARGIN and
 * the HUD's bands a pose framed alone spans ~76 % of a 720-pixel-high window, so 0.8 keeps it at
 * ~61 %. */
#define START_POSE_SHARE_MIN 0.8f

/* The box of one sample's VIEW_FRAME_DIRECTIONS points. */
static void sample_box(const vec3 *sample, vec3 lo, vec3 hi)
{
    glm_vec3_copy((float *)sample[0], lo);
    glm_vec3_copy((float *)sample[0], hi);
    for (int d = 1; d < VIEW_FRAME_DIRECTIONS; d++) {
        glm_vec3_minv(lo, (float *)sample[d], lo);
        glm_vec3_maxv(hi, (float *)sample[d], hi);
    }
}

/* Whether the clip carries the body away (view_frame_clip_points' points, `samples` of
 * VIEW_FRAME_DIRECTIONS): the start pose's centre on the ground plane (x, z) lies outside a later
 * sample's box. A walk with root motion leaves it behind; limbs or towers that only reach out
 * (RecursiveSkeletons' bending) keep it inside, for their feet or bases stay. */
static bool clip_points_travel(const vec3 *points, int samples)
{
    vec3 lo, hi;
    sample_box(points, lo, hi);
    float centre_x = 0.5f * (lo[0] + hi[0]), centre_z = 0.5f * (lo[2] + hi[2]);
    for (int s = 1; s < samples; s++) {
        sample_box(points + s * VIEW_FRAME_DIRECTIONS, lo, hi);
        if (centre_x < lo[0] || centre_x > hi[0] || centre_z < lo[2] || centre_z > hi[2]) return true;
    }
    return false;
}

/* The points' box on screen (NDC, -1..1) as `camera` shows them; false when none is in front. */
static bool points_screen_box(const Camera *camera, const vec3 *points, int count, float aspect, vec2 lo, vec2 hi)
{
    ViewFit fit = {.camera = camera, .aspect = aspect, .x_min = INFINITY, .x_max = -INFINITY,
                  .y_min = INFINITY, .y_max = -INFINITY, .distance = camera->distance, .pass = 3};
    camera_basis(camera, fit.back, fit.right, fit.up);
    for (int i = 0; i < count; i++) view_fit_point(&fit, points[i]);
    lo[0] = fit.x_min, lo[1] = fit.y_min, hi[0] = fit.x_max, hi[1] = fit.y_max;
    return fit.x_min <= fit.x_max && fit.y_min <= fit.y_max;
}

/* The share of the window the points span (NDC extent / 2, the larger of height and width: what
 * the first frame's fill is measured by); 0 when none is in front. */
static float points_screen_share(const Camera *camera, const vec3 *points, int count, float aspect)
{
    vec2 lo, hi;
    if (!points_screen_box(camera, points, count, aspect, lo, hi)) return 0.0f;
    return 0.5f * fmaxf(hi[0] - lo[0], hi[1] - lo[1]);
}

void view_frame_clip_points(const vec3 *points, int count, float front_yaw, float aspect, bool reset_angle,
                           float reserved_top, float reserved_bottom, Camera *camera)
{
    Camera start_alone = *camera;   /* the same angle when reset_angle is false */
    view_frame_point_array(points, count, front_yaw, aspect, reset_angle, reserved_top, reserved_bottom, camera);
    int samples = count / VIEW_FRAME_DIRECTIONS;
    if (samples < 2 || count % VIEW_FRAME_DIRECTIONS != 0 || clip_points_travel(points, samples)) return;
    view_frame_point_array(points, VIEW_FRAME_DIRECTIONS, front_yaw, aspect, reset_angle, reserved_top, reserved_bottom,
                          &start_alone);
    float share_alone = points_screen_share(&start_alone, points, VIEW_FRAME_DIRECTIONS, aspect);
    float share_framed = points_screen_share(camera, points, VIEW_FRAME_DIRECTIONS, aspect);
    float wanted = START_POSE_SHARE_MIN * share_alone;
    if (!(share_framed < wanted)) return;
    /* from the start pose's own framing, back off until it spans `wanted`; a picture shrinks about
     * as 1 / distance, perspective makes it not quite: three corrections */
    vec3 clip_target;
    glm_vec3_copy(camera->target, clip_target);
    glm_vec3_copy(start_alone.target, camera->target);   /* the clip's box still sizes the scene (near, far) */
    camera->distance = start_alone.distance;
    for (int round = 0; round < 3; round++) {
        float share = round == 0 ? share_alone : points_screen_share(camera, points, VIEW_FRAME_DIRECTIONS, aspect);
        if (!(share > 0.0f)) break;
        camera->distance *= share / wanted;
    }
    /* Then slide the target from the start pose's centre towards the whole clip's, as far as the
     * start pose stays inside the free band with CAMERA_MARGIN (bisection, 10 halvings): a reach
     * to one side (a morph growing upwards) keeps more of itself in view. The band in NDC: y from
     * -1 + 2 reserved_bottom to 1 - 2 reserved_top. */
    float band_middle = reserved_bottom - reserved_top, band_half = 1.0f - reserved_top - reserved_bottom;
    float limit_x = 1.0f / CAMERA_MARGIN, limit_y = band_half / CAMERA_MARGIN;
    vec3 start_target, toward;
    glm_vec3_copy(camera->target, start_target);
    glm_vec3_sub(clip_target, start_target, toward);
    vec3 back, right, up;   /* across the view only: along it the eye would move and the pose shrink */
    camera_basis(camera, back, right, up);
    glm_vec3_muladds(back, -glm_vec3_dot(toward, back), toward);
    float inside = 0.0f, outside = 1.0f;
    for (int halving = 0; halving < 11; halving++) {
        float along = halving == 0 ? 1.0f : 0.5f * (inside + outside);
        glm_vec3_copy(start_target, camera->target);
        glm_vec3_muladds(toward, along, camera->target);
        vec2 lo, hi;
        bool fits = points_screen_box(camera, points, VIEW_FRAME_DIRECTIONS, aspect, lo, hi) && lo[0] >= -limit_x &&
                    hi[0] <= limit_x && lo[1] >= band_middle - limit_y && hi[1] <= band_middle + limit_y;
        if (fits) inside = along;
        else outside = along;
        if (fits && halving == 0) break;
    }
    glm_vec3_copy(start_target, camera->target);
    glm_vec3_muladds(toward, inside, camera->target);
}

void view_frame_clip(const Model *model, Animator *animator, int clip, float aspect, bool reset_angle,
                    float reserved_top, float reserved_bottom, Camera *camera)
{
    float front_yaw = view_front_yaw(model, animator, clip);
    vec3 points[VIEW_FRAME_POINTS_MAX];
    int count = view_clip_frame_points(model, animator, clip, points);
    view_frame_clip_points(points, count, front_yaw, aspect, reset_angle, reserved_top, reserved_bottom, camera);
}
