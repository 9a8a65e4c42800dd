/* camera.c — orbit camera: framing, orbit, pan, zoom, view and projection. */
#include "view/camera.h"

#include <math.h>

#define CAMERA_PITCH_LIMIT 1.55f   /* just under pi/2: the view never flips */

/* Unit vector from the target to the eye. */
static void camera_back(const Camera *camera, vec3 back)
{
    float cp = cosf(camera->pitch);
    back[0] = cp * sinf(camera->yaw);
    back[1] = sinf(camera->pitch);
    back[2] = cp * cosf(camera->yaw);
}

/* The camera's back (target -> eye), right and up unit vectors (+Y up, no roll). */
static void camera_axes(const Camera *camera, vec3 back, vec3 right, vec3 up)
{
    vec3 world_up = {0.0f, 1.0f, 0.0f};
    camera_back(camera, back);
    glm_vec3_cross(world_up, back, right);
    glm_vec3_normalize(right);
    glm_vec3_cross(back, right, up);
}

bool camera_bounds_changed(const vec3 old_min, const vec3 old_max, const vec3 new_min, const vec3 new_max)
{
    float old_diagonal = glm_vec3_distance((float *)old_min, (float *)old_max);
    float new_diagonal = glm_vec3_distance((float *)new_min, (float *)new_max);
    vec3 old_center, new_center;
    glm_vec3_center((float *)old_min, (float *)old_max, old_center);
    glm_vec3_center((float *)new_min, (float *)new_max, new_center);
    if (!(new_diagonal <= 2.0f * old_diagonal && old_diagonal <= 2.0f * new_diagonal)) return true;   /* NaN too */
    return !(glm_vec3_distance(old_center, new_center) <= old_diagonal);
}

void camera_frame(Camera *camera, const vec3 min, const vec3 max, float aspect, float fov_y)
{
    bool fresh = !(camera->fov_y > 0.0f);
    vec3 size = {max[0] - min[0], max[1] - min[1], max[2] - min[2]};
    bool valid = size[0] >= 0.0f && size[1] >= 0.0f && size[2] >= 0.0f && isfinite(size[0]) &&
                 isfinite(size[1]) && isfinite(size[2]);
    if (valid) {
        glm_vec3_lerp((float *)min, (float *)max, 0.5f, camera->target);
        camera->radius = 0.5f * glm_vec3_norm(size);
        if (!(camera->radius > 0.0f)) {  /* a single point: size it relative to where it is */
            float far_off = glm_vec3_norm(camera->target);
            camera->radius = far_off > 0.0f ? far_off * 1e-3f : 1.0f;
        }
    } else {
        glm_vec3_zero(camera->target);
        camera->radius = 1.0f;
    }

    camera->fov_y = (fov_y > 0.01f && fov_y < 3.0f) ? fov_y : glm_rad(45.0f);
    if (!(aspect > 0.0f) || !isfinite(aspect)) aspect = 1.0f;
    if (fresh) camera_reset_angle(camera);
    /* Fit the 8 corners for this view direction. With (x, y, z) a corner relative to the
     * centre in the camera's right / up / back axes, it is in view when
     *   |x| <= (d - z) tan(fov_x / 2)  and  |y| <= (d - z) tan(fov_y / 2):
     * take the largest d over the corners. */
    float tan_y = tanf(0.5f * camera->fov_y), tan_x = tan_y * aspect;
    vec3 back, right, up;
    camera_axes(camera, back, right, up);
    vec3 half = {0.5f * size[0], 0.5f * size[1], 0.5f * size[2]};
    if (!valid) glm_vec3_fill(half, camera->radius / sqrtf(3.0f));
    float distance = 0.0f;
    for (int c = 0; c < 8; c++) {
        vec3 corner = {(c & 1) ? half[0] : -half[0], (c & 2) ? half[1] : -half[1], (c & 4) ? half[2] : -half[2]};
        float x = glm_vec3_dot(corner, right), y = glm_vec3_dot(corner, up), z = glm_vec3_dot(corner, back);
        distance = fmaxf(distance, fmaxf(z + fabsf(x) / tan_x, z + fabsf(y) / tan_y));
    }
    /* never inside the bounding sphere: near/far and orbiting assume the eye is outside it */
    camera->distance = fmaxf(CAMERA_MARGIN * distance, 1.05f * camera->radius);
}

void camera_basis(const Camera *camera, vec3 back, vec3 right, vec3 up)
{
    camera_axes(camera, back, right, up);
}

float camera_fit_distance(const Camera *camera, const vec3 point, float aspect)
{
    if (!(aspect > 0.0f) || !isfinite(aspect)) aspect = 1.0f;
    float tan_y = tanf(0.5f * camera->fov_y), tan_x = tan_y * aspect;
    vec3 back, right, up, r;
    camera_axes(camera, back, right, up);
    glm_vec3_sub((float *)point, (float *)camera->target, r);
    float x = glm_vec3_dot(r, right), y = glm_vec3_dot(r, up), z = glm_vec3_dot(r, back);
    return fmaxf(z + fabsf(x) / tan_x, z + fabsf(y) / tan_y);
}

void camera_reset_angle(Camera *camera)
{
    camera->yaw = camera->front_yaw + glm_rad(CAMERA_START_YAW_DEGREES);
    camera->pitch = glm_rad(CAMERA_START_PITCH_DEGREES);
}

void camera_set_view(Camera *camera, CameraView view)
{
    /* yaw y puts the eye at (sin y, 0, cos y) from the target: front_yaw faces the character */
    float yaw = camera->front_yaw, pitch = 0.0f;
    switch (view) {
    case CAMERA_VIEW_BACK: yaw += GLM_PIf; break;
    case CAMERA_VIEW_RIGHT: yaw += 0.5f * GLM_PIf; break;
    case CAMERA_VIEW_LEFT: yaw -= 0.5f * GLM_PIf; break;
    case CAMERA_VIEW_TOP: pitch = CAMERA_PITCH_LIMIT; break;
    case CAMERA_VIEW_BOTTOM: pitch = -CAMERA_PITCH_LIMIT; break;
    case CAMERA_VIEW_FRONT: default: break;
    }
    camera->yaw = fmodf(yaw, 2.0f * GLM_PIf);
    camera->pitch = pitch;
}

void camera_orbit(Camera *camera, float dyaw, float dpitch)
{
    camera->yaw = fmodf(camera->yaw + dyaw, 2.0f * GLM_PIf);
    camera->pitch = glm_clamp(camera->pitch + dpitch, -CAMERA_PITCH_LIMIT, CAMERA_PITCH_LIMIT);
}

void camera_pan(Camera *camera, float dx, float dy, float viewport_height)
{
    if (!(viewport_height > 0.0f)) return;
    /* Scene units per pixel at the target's depth: the view is 2 d tan(fov/2) high. */
    float per_pixel = 2.0f * camera->distance * tanf(0.5f * camera->fov_y) / viewport_height;
    vec3 back, right, up;
    camera_axes(camera, back, right, up);
    /* Dragging right moves the scene right: the target moves left (screen y grows downwards). */
    glm_vec3_muladds(right, -dx * per_pixel, camera->target);
    glm_vec3_muladds(up, dy * per_pixel, camera->target);
}

void camera_zoom(Camera *camera, float steps)
{
    float d = camera->distance * powf(0.85f, steps);
    camera->distance = glm_clamp(d, 0.01f * camera->radius, 100.0f * camera->radius);
}

void camera_eye(const Camera *camera, vec3 eye)
{
    vec3 back;
    camera_back(camera, back);
    glm_vec3_scale(back, camera->distance, eye);
    glm_vec3_add(eye, (float *)camera->target, eye);
}

void camera_view(const Camera *camera, mat4 view)
{
    vec3 eye, up = {0.0f, 1.0f, 0.0f};
    camera_eye(camera, eye);
    glm_lookat(eye, (float *)camera->target, up, view);
}

void camera_depth_range(const Camera *camera, float *near_plane, float *far_plane)
{
    /* The framed sphere spans depths [d - r, d + r]; leave room on both sides, and
     * when the eye is inside it keep near at a small fraction of the scene size. */
    float r = camera->radius, d = camera->distance;
    *near_plane = fmaxf(d - 2.0f * r, 0.001f * r);
    if (*near_plane > 0.5f * d) *near_plane = 0.5f * d;
    *far_plane = d + 3.0f * r;
}

void camera_projection(const Camera *camera, float aspect, mat4 projection)
{
    float near_plane, far_plane;
    camera_depth_range(camera, &near_plane, &far_plane);
    if (!(aspect > 0.0f) || !isfinite(aspect)) aspect = 1.0f;
    glm_perspective(camera->fov_y, aspect, near_plane, far_plane, projection);
}
