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

#define CAMERA_DEFAULT_FOV_Y_DEGREES 45.0f   /* the viewer's and --screenshot's field of view */

typedef struct Camera {
    vec3  target;
    float yaw;        /* radians, around +Y */
    float pitch;      /* radians, clamped to (-pi/2, pi/2) */
    float distance;   /* eye to target */
    float radius;     /* scene size (bounding-sphere radius), > 0 */
    float fov_y;      /* vertical field of view, radians */
} Camera;

/* Frames the box [min, max] for this aspect (width / height) and vertical field of view:
 * target = box centre, radius = half the box diagonal, and the distance at which all
 * 8 corners fit the view from the current direction, with a small margin (so it is
 * as tight as the box allows; orbiting afterwards may push a corner out — F re-frames).
 * Keeps the current yaw/pitch if the camera was set up before (fov_y > 0), else starts
 * from a three-quarter front view. An empty box (max < min) frames a unit sphere at
 * the origin; a single point gets a tiny size relative to its position. */
void camera_frame(Camera *camera, const vec3 min, const vec3 max, float aspect, float fov_y);

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
