/* test_camera.c — the orbit camera frames boxes of any scale; orbit and zoom. */
#include "view/camera.h"
#include "testutil.h"

#include <math.h>

/* True if every corner of [min, max] projects inside the clip volume. */
static bool box_in_view(const Camera *camera, const vec3 min, const vec3 max, float aspect, float *worst)
{
    mat4 view, projection, view_projection;
    camera_view(camera, view);
    camera_projection(camera, aspect, projection);
    glm_mat4_mul(projection, view, view_projection);
    bool inside = true;
    *worst = 0.0f;
    for (int c = 0; c < 8; c++) {
        vec4 p = {(c & 1) ? max[0] : min[0], (c & 2) ? max[1] : min[1], (c & 4) ? max[2] : min[2], 1.0f};
        vec4 clip;
        glm_mat4_mulv(view_projection, p, clip);
        if (!(clip[3] > 0.0f)) return false;
        float x = clip[0] / clip[3], y = clip[1] / clip[3], z = clip[2] / clip[3];
        *worst = fmaxf(*worst, fmaxf(fabsf(x), fabsf(y)));
        if (fabsf(x) > 1.0f || fabsf(y) > 1.0f || z < -1.0f || z > 1.0f) inside = false;
    }
    return inside;
}

static void test_framing(void)
{
    const float sizes[] = {0.02f, 2.0f, 500.0f};
    const float aspects[] = {16.0f / 9.0f, 1.0f, 0.5f, 3.0f, 0.25f};
    const float offsets[] = {0.0f, 1.0f, -40.0f};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t a = 0; a < sizeof aspects / sizeof aspects[0]; a++) {
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
                float size = sizes[s];
                /* a tall, thin box (a standing character) away from the origin */
                vec3 min = {offsets[o] * size, offsets[o] * size * 0.5f, -0.15f * size};
                vec3 max = {min[0] + 0.4f * size, min[1] + size, min[2] + 0.3f * size};
                Camera camera = {0};
                camera_frame(&camera, min, max, aspects[a], glm_rad(45.0f));
                float worst = 0.0f;
                CHECK(box_in_view(&camera, min, max, aspects[a], &worst),
                      "box of size %g (offset %g) in view at aspect %g", size, offsets[o], aspects[a]);
                /* framed, not lost in the distance: the box fills a good part of the view */
                CHECK(worst > 0.85f, "box of size %g at aspect %g fills the view (max |ndc| %g)", size, aspects[a],
                      worst);
                vec3 centre;
                glm_vec3_lerp(min, max, 0.5f, centre);
                CHECK(glm_vec3_distance(centre, camera.target) < 1e-4f * size, "target = box centre");

                /* from any orbit angle, re-framing (F) fits it again, and tightly */
                for (int k = 0; k < 12; k++) {
                    camera_orbit(&camera, 0.55f, (k % 2 ? -0.4f : 0.3f));
                    camera_frame(&camera, min, max, aspects[a], glm_rad(45.0f));
                    CHECK(box_in_view(&camera, min, max, aspects[a], &worst) && worst > 0.85f,
                          "size %g aspect %g: in view after orbit step %d and re-frame (max |ndc| %g)", size,
                          aspects[a], k, worst);
                }
            }
        }
    }

    /* a cube, framed at a wide and a tall aspect */
    vec3 min = {-1.0f, -1.0f, -1.0f}, max = {1.0f, 1.0f, 1.0f};
    Camera camera = {0};
    camera_frame(&camera, min, max, 1.0f, glm_rad(45.0f));
    float worst;
    CHECK(box_in_view(&camera, min, max, 1.0f, &worst), "unit cube");

    /* re-framing keeps the view direction */
    camera_orbit(&camera, 1.0f, 0.5f);
    float yaw = camera.yaw, pitch = camera.pitch;
    camera_frame(&camera, min, max, 1.0f, glm_rad(45.0f));
    CHECK(fabsf(camera.yaw - yaw) < 1e-6f && fabsf(camera.pitch - pitch) < 1e-6f, "re-frame keeps yaw and pitch");

    /* degenerate boxes do not produce NaNs */
    vec3 point = {3.0f, 4.0f, 5.0f};
    Camera dot = {0};
    camera_frame(&dot, point, point, 1.0f, glm_rad(45.0f));
    CHECK(dot.radius > 0.0f && isfinite(dot.distance), "a point box: radius %g distance %g", dot.radius,
          dot.distance);
    Camera empty = {0};
    vec3 inverted_min = {1.0f, 1.0f, 1.0f}, inverted_max = {-1.0f, -1.0f, -1.0f};
    camera_frame(&empty, inverted_min, inverted_max, 1.0f, glm_rad(45.0f));
    CHECK(empty.radius == 1.0f && isfinite(empty.distance), "an empty box: unit radius");
    mat4 projection;
    camera_projection(&empty, 0.0f, projection);
    CHECK(isfinite(projection[0][0]) && isfinite(projection[2][2]), "aspect 0 does not produce NaNs");
}

static void test_orbit_zoom_pan(void)
{
    vec3 min = {-10.0f, 0.0f, -10.0f}, max = {10.0f, 180.0f, 10.0f}; /* a cm-scale character */
    Camera camera = {0};
    camera_frame(&camera, min, max, 16.0f / 9.0f, glm_rad(45.0f));
    float distance = camera.distance;
    vec3 eye;
    for (int k = 0; k < 20; k++) {
        camera_orbit(&camera, 0.37f, (k < 10 ? 0.3f : -0.3f));
        camera_eye(&camera, eye);
        CHECK(fabsf(glm_vec3_distance(eye, camera.target) - distance) < 1e-3f * distance,
              "orbit keeps the distance (step %d)", k);
    }
    CHECK(camera.pitch < 1.571f && camera.pitch > -1.571f, "pitch stays short of the poles: %g", camera.pitch);

    camera_zoom(&camera, 1.0f);
    CHECK(camera.distance < distance, "wheel up zooms in: %g -> %g", distance, camera.distance);
    camera_zoom(&camera, -2.0f);
    CHECK(camera.distance > distance, "wheel down zooms out: %g -> %g", distance, camera.distance);
    camera_zoom(&camera, 1.0f);
    CHECK(fabsf(camera.distance - distance) < 1e-3f * distance, "zoom in and out cancel");
    camera_zoom(&camera, 1000.0f);
    CHECK(camera.distance >= 0.01f * camera.radius * 0.999f, "zoom in stops: %g", camera.distance);
    float near_plane, far_plane;
    camera_depth_range(&camera, &near_plane, &far_plane);
    CHECK(near_plane > 0.0f && near_plane < camera.distance && far_plane > camera.distance + camera.radius,
          "depth range when close: %g..%g", near_plane, far_plane);
    camera_zoom(&camera, -1000.0f);
    CHECK(camera.distance <= 100.0f * camera.radius * 1.001f, "zoom out stops: %g", camera.distance);
    camera_depth_range(&camera, &near_plane, &far_plane);
    CHECK(near_plane < camera.distance - camera.radius && far_plane > camera.distance + camera.radius,
          "depth range when far: %g..%g", near_plane, far_plane);

    /* pan moves the target in the view plane; the distance stays */
    camera_frame(&camera, min, max, 1.0f, glm_rad(45.0f));
    vec3 before, eye_before;
    glm_vec3_copy(camera.target, before);
    camera_eye(&camera, eye_before);
    camera_pan(&camera, 100.0f, 0.0f, 720.0f);
    vec3 moved;
    glm_vec3_sub(camera.target, before, moved);
    CHECK(glm_vec3_norm(moved) > 0.0f, "pan moves the target");
    vec3 view_dir;
    glm_vec3_sub(before, eye_before, view_dir);
    CHECK(fabsf(glm_vec3_dot(moved, view_dir)) < 1e-3f * glm_vec3_norm(moved) * glm_vec3_norm(view_dir),
          "pan moves perpendicular to the view direction");
    CHECK(fabsf(moved[1]) < 1e-4f, "horizontal drag pans horizontally");
    /* dragging right by a full view height moves the scene by the view height at the target */
    float view_height = 2.0f * camera.distance * tanf(0.5f * camera.fov_y);
    CHECK(fabsf(glm_vec3_norm(moved) - view_height * 100.0f / 720.0f) < 1e-3f * view_height, "pan speed");
    camera_pan(&camera, 0.0f, 50.0f, 720.0f);
    CHECK(camera.target[1] > before[1], "dragging down moves the target up (the scene follows the cursor)");
}

/* A reload keeps the view for the same model edited, frames another model afresh. */
static void test_reload_bounds(void)
{
    const vec3 min = {-1.0f, 0.0f, -1.0f}, max = {1.0f, 2.0f, 1.0f};   /* diagonal 2.83 */
    CHECK(!camera_bounds_changed(min, max, min, max), "the same box: the same model");
    CHECK(!camera_bounds_changed(min, max, (vec3){-1.2f, 0.0f, -1.0f}, (vec3){1.0f, 2.5f, 1.3f}),
          "an edited model (a bit larger): keep the view");
    CHECK(camera_bounds_changed(min, max, (vec3){-10.0f, 0.0f, -10.0f}, (vec3){10.0f, 20.0f, 10.0f}),
          "ten times larger: another model");
    CHECK(camera_bounds_changed(min, max, (vec3){-0.1f, 0.0f, -0.1f}, (vec3){0.1f, 0.2f, 0.1f}),
          "ten times smaller: another model");
    CHECK(camera_bounds_changed(min, max, (vec3){9.0f, 0.0f, -1.0f}, (vec3){11.0f, 2.0f, 1.0f}),
          "the same size ten units away (more than the diagonal): another model");
    CHECK(camera_bounds_changed(min, max, (vec3){NAN, 0.0f, 0.0f}, max), "NaN bounds: frame afresh");
}

int main(void)
{
    test_reload_bounds();
    test_framing();
    test_orbit_zoom_pan();
    return test_finish();
}
