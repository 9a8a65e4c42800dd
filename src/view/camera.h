/* camera.h — orbit camera around a target point (no window, no GL; unit-tested).
 *
 * The eye sits on a sphere around `target`:
 *   eye = target + distance * (cos(pitch) sin(yaw), sin(pitch), cos(pitch) cos(yaw))
 * looking at the target with +Y up (yaw 0, pitch 0 looks down -Z, the glTF front view).
 * `radius` is the size of the framed scene (half the box diagonal): it sets the
 * near/far planes, the pan speed and the zoom limits, so a 0.02-unit model and a
 * 500-unit model (cm-scale FBX) behave the same.
 */
#ifndef SKINVIEW_CAMERA_H
#define SKINVIEW_CAMERA_H

#include <cglm/cglm.h>
#include <stdbool.h>

#define CAMERA_DEFAULT_FOV_Y_DEGREES 45.0f   /* the viewer's and --screenshot's field of view */
#define CAMERA_START_YAW_DEGREES 25.0f       /* first view: three-quarter from the front ... */
#define CAMERA_START_PITCH_DEGREES 10.0f     /* ... a little from above */

/* View presets (numeric keypad as in Blender: 1 front, 3 right, 7 top; Ctrl the opposite). */
typedef enum CameraView {
    CAMERA_VIEW_FRONT = 0,   /* looking at the character's face */
    CAMERA_VIEW_BACK,
    CAMERA_VIEW_RIGHT,       /* the eye to the right of the front view's eye */
    CAMERA_VIEW_LEFT,
    CAMERA_VIEW_TOP,
    CAMERA_VIEW_BOTTOM
} CameraView;

typedef struct Camera {
    vec3  target;
    float yaw;        /* radians, around +Y */
    float pitch;      /* radians, clamped to (-pi/2, pi/2) */
    float distance;   /* eye to target */
    float radius;     /* scene size (bounding-sphere radius), > 0 */
    float fov_y;      /* vertical field of view, radians */
    float front_yaw;  /* yaw that looks at the character's front (0: it faces +Z, the glTF front) */
} Camera;

/* Frames the box [min, max] for this aspect (width / height) and vertical field of view:
 * target = box centre, radius = half the box diagonal, and the distance at which all
 * 8 corners fit the view from the current direction, with a small margin (so it is
 * as tight as the box allows; orbiting afterwards may push a corner out — F re-frames).
 * Keeps the current yaw/pitch if the camera was set up before (fov_y > 0), else starts
 * from a three-quarter front view (camera_reset_angle). An empty box (max < min) frames a unit sphere at
 * the origin; a single point gets a tiny size relative to its position. */
void camera_frame(Camera *camera, const vec3 min, const vec3 max, float aspect, float fov_y);

/* Whether a reloaded file holds something else than the one the camera was set for: its box's
 * diagonal is more than twice or less than half the old one's, or its centre moved by more than
 * the old diagonal. A reload of the same model edited keeps the user's view; another model is
 * framed afresh. */
bool camera_bounds_changed(const vec3 old_min, const vec3 old_max, const vec3 new_min, const vec3 new_max);

/* The camera's unit vectors: back (target -> eye), right and up (+Y up, no roll). */
void camera_basis(const Camera *camera, vec3 back, vec3 right, vec3 up);

/* Fitting to points instead of a box (tighter: a character fills the view, not its box).
 * For the current yaw / pitch / fov: camera_fit_center() moves the target to the middle of the
 * points' extent across the view (extent in the right / up axes, from the target), and
 * camera_fit_distance() returns the distance at which a point p relative to the target, with
 * (x, y, z) its right / up / back coordinates, is in view:  d >= z + |x| / tan(fov_x / 2) and
 * d >= z + |y| / tan(fov_y / 2). Callers fold these over their points (framing.c does, over
 * every skinned vertex of a clip) and set distance = CAMERA_MARGIN * the largest d. */
#define CAMERA_MARGIN 1.08f        /* the framed points fill ~93 % of the view */
float camera_fit_distance(const Camera *camera, const vec3 point, float aspect);

/* The first view's angle: CAMERA_START_YAW_DEGREES to the right of front_yaw,
 * CAMERA_START_PITCH_DEGREES from above. */
void camera_reset_angle(Camera *camera);

/* Turns the camera to a preset view around front_yaw (the distance is unchanged: re-frame after). */
void camera_set_view(Camera *camera, CameraView view);

/* Rotates around the target by (dyaw, dpitch) radians; the distance is unchanged. */
void camera_orbit(Camera *camera, float dyaw, float dpitch);

/* Moves the target (and eye) in the view plane by a drag of (dx, dy) pixels in a
 * viewport `viewport_height` pixels high, so the point under the cursor follows it. */
void camera_pan(Camera *camera, float dx, float dy, float viewport_height);

/* Zooms by `steps` wheel notches (> 0: closer): distance *= 0.85^steps, kept in
 * [0.01, 100] * radius. */
void camera_zoom(Camera *camera, float steps);

/* Eye position in scene space. */
void camera_eye(const Camera *camera, vec3 eye);

/* View matrix (scene -> eye space). */
void camera_view(const Camera *camera, mat4 view);

/* Near and far planes for the current distance: the whole framed sphere (and
 * some room around it) lies between them, near never closer than 0.001 radius. */
void camera_depth_range(const Camera *camera, float *near_plane, float *far_plane);

/* Perspective projection (OpenGL clip space, depth -1..1) for this aspect. */
void camera_projection(const Camera *camera, float aspect, mat4 projection);

#endif
