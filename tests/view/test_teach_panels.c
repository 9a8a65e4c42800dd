/* test_teach_panels.c — two panels of the teaching aids, in a GL context on the demo.
 *
 * The HUD's method line names the path that evaluates the pose (Shift+R, --reference) and, with the
 * HUD shown and a clip playing, the other path's time as well: both are measured, both > 0.
 *
 * The vertex inspector panel never hides what it explains: the inspected
 * vertex and its lines to the joints that move it stay visible (src/teach/panels.c place_inspector).
 *
 * The demo's elbow vertex of docs/skinning.md section 11 (0:5648, Twist at 0.75 s; before the panel
 * was placed, it sat under the panel's top-right corner in the doc's own inspector.png) and the
 * demo's highest vertex (the top of the head) are inspected in framebuffers of 1280x720, 600x450 and
 * 600x338. Each frame is drawn twice, with the aids' text (the panel) and without, and read back:
 *   - the panel is there: at least 2000 pixels differ between the two;
 *   - the 9x9 pixels around the vertex's projection, and the 5x5 pixels around 7 points along each of
 *     its joint lines (from 15 % to 85 % of the way), are identical in both: nothing covers them. */
#include "testgl.h"
#include "testutil.h"
#include "anim/inspect.h"
#include "gfx/framebuffer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool project(const mat4 view, const mat4 projection, const float *p, int width, int height, float *x, float *y)
{
    mat4 vp;
    glm_mat4_mul((vec4 *)projection, (vec4 *)view, vp);
    vec4 point = {p[0], p[1], p[2], 1.0f}, clip;
    glm_mat4_mulv(vp, point, clip);
    if (clip[3] <= 0.0f) return false;
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)width;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * (float)height;
    return true;
}

/* Pixels of the square of half-size r around (x, y) (framebuffer_read_rgba: rows top to bottom) that
 * differ between a and b; -1 when the square leaves the image. */
static int square_differs(const unsigned char *a, const unsigned char *b, int width, int height, float x, float y, int r)
{
    int cx = (int)floorf(x), cy = (int)floorf(y), differ = 0;
    if (cx - r < 0 || cy - r < 0 || cx + r >= width || cy + r >= height) return -1;
    for (int j = cy - r; j <= cy + r; j++)
        for (int i = cx - r; i <= cx + r; i++) differ += memcmp(a + 4 * ((size_t)j * width + i), b + 4 * ((size_t)j * width + i), 3) != 0;
    return differ;
}

static void draw(TestScene *t, Framebuffer *fb, const mat4 view, const mat4 projection, int width, int height, bool text,
                 unsigned char *out)
{
    RenderLight light;
    render_light_default(&light);
    framebuffer_bind(fb);
    renderer_clear(0.18f, 0.2f, 0.23f);
    scene_draw(&t->scene, &t->animator, view, projection, &light, text ? &t->text : NULL, width, height);
    CHECK(framebuffer_read_rgba(fb, out), "read back");
}

static void check_vertex(TestScene *t, int clip, float time, int vertex, int width, int height)
{
    TeachingAids *scene = &t->scene;
    scene->inspect_mesh = 0;
    scene->inspect_vertex = vertex;
    scene->shown.inspector = true;
    scene_evaluate(scene, &t->animator, clip, time);
    mat4 view, projection;
    test_scene_camera(t, width, height, view, projection);
    Framebuffer fb;
    char error[512];
    if (!framebuffer_create(&fb, width, height, 0, error, sizeof error)) {
        CHECK(false, "framebuffer %dx%d: %s", width, height, error);
        return;
    }
    size_t bytes = (size_t)width * (size_t)height * 4;
    unsigned char *with = malloc(bytes), *without = malloc(bytes);
    draw(t, &fb, view, projection, width, height, true, with);
    draw(t, &fb, view, projection, width, height, false, without);
    int panel = 0;
    for (size_t i = 0; i < bytes; i += 4) panel += memcmp(with + i, without + i, 3) != 0;
    CHECK(panel >= 2000, "%dx%d vertex %d: the panel is drawn (%d pixels differ)", width, height, vertex, panel);

    vec3 *posed = malloc(sizeof(vec3) * (size_t)t->model.meshes[0].vertex_count);
    animator_skin_mesh(&t->animator, 0, posed, NULL);
    float vx, vy;
    bool seen = project(view, projection, posed[vertex], width, height, &vx, &vy);
    int covered = seen ? square_differs(with, without, width, height, vx, vy, 4) : -1;
    CHECK(covered == 0, "%dx%d: vertex %d at (%.0f, %.0f): %d of its 81 pixels covered by the panel", width, height,
          vertex, vx, vy, covered);
    const VertexInspection *info = scene->inspection;
    int line_pixels = 0, line_covered = 0;
    for (int k = 0; k < info->influence_count; k++) {
        float jx, jy;
        if (!project(view, projection, t->animator.joint_model[info->influences[k].joint][3], width, height, &jx, &jy)) continue;
        for (int s = 0; s < 7; s++) {
            float f = 0.15f + 0.7f * (float)s / 6.0f;
            int d = square_differs(with, without, width, height, vx + f * (jx - vx), vy + f * (jy - vy), 2);
            if (d < 0) continue;
            line_pixels += 25;
            line_covered += d;
        }
    }
    CHECK(line_pixels > 0 && line_covered == 0, "%dx%d: vertex %d's joint lines: %d of %d pixels covered", width, height,
          vertex, line_covered, line_pixels);
    printf("%dx%d, vertex %d at (%.0f, %.0f): panel %d pixels; vertex and %d line pixels uncovered\n", width, height,
           vertex, vx, vy, panel, line_pixels - line_covered);
    free(posed);
    free(with);
    free(without);
    framebuffer_free(&fb);
}

/* The HUD's line: "Shift+R: fast path" / "Shift+R: reference", and the other path's time. */
static void check_reference_hud(TestScene *t, int clip)
{
    TeachingAids *scene = &t->scene;
    char line[512];
    for (int reference = 0; reference < 2; reference++) {
        scene->shown.reference = reference;
        scene->hud = true;
        for (int frame = 0; frame < 3; frame++) scene_evaluate(scene, &t->animator, clip, 0.1f * (float)frame);
        scene_format_method(scene, line, sizeof line);
        const char *other = reference ? "(fast path " : "(reference ";
        CHECK(t->animator.reference == (bool)reference, "scene_evaluate sets Animator.reference from the aids");
        CHECK(strstr(line, reference ? "Shift+R: reference" : "Shift+R: fast path") && strstr(line, other) &&
                  scene->anim_us > 0.0 && scene->other_anim_us > 0.0,
              "the HUD names the path and times both: \"%s\"", line);
        printf("HUD: %s\n", line);
        scene->hud = false;
        scene_evaluate(scene, &t->animator, clip, 0.4f);
        CHECK(scene->other_anim_us < 0.0, "without the HUD the other path is not evaluated");
    }
    scene->shown.reference = false;
}

int main(void)
{
    GlContext context;
    if (!test_gl_open(&context)) return TEST_SKIP_CODE;
    static TestScene t;
    AidOptions aids = {.grid = true, .inspector = true, .inspect_vertex = "0:5648"};
    if (!test_scene_open(&t, SKINVIEW_SOURCE_DIR "/assets/demo.fbx", &aids, NULL)) return test_finish();
    int twist = model_find_clip(&t.model, "Twist");
    CHECK(twist >= 0, "the demo has Twist");
    /* the highest vertex at that pose: the top of the head, near the top of the picture */
    scene_evaluate(&t.scene, &t.animator, twist, 0.75f);
    const Mesh *mesh = &t.model.meshes[0];
    vec3 *posed = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    animator_skin_mesh(&t.animator, 0, posed, NULL);
    int top = 0;
    for (int v = 1; v < mesh->vertex_count; v++)
        if (posed[v][1] > posed[top][1]) top = v;
    free(posed);
    if (twist >= 0) check_reference_hud(&t, twist);
    static const int sizes[3][2] = {{1280, 720}, {600, 450}, {600, 338}};
    for (int s = 0; s < 3 && twist >= 0; s++) {
        check_vertex(&t, twist, 0.75f, 5648, sizes[s][0], sizes[s][1]);
        check_vertex(&t, twist, 0.75f, top, sizes[s][0], sizes[s][1]);
    }
    test_scene_close(&t);
    glcontext_destroy(&context);
    return test_finish();
}
