/* test_gltf_primitives — glTF POINTS, LINES, LINE_LOOP and LINE_STRIP primitives (modes 0-3), on a
 * file the test writes.
 *
 * The file: a square of four vertices, (0,0,0) (1,0,0) (1,1,0) (0,1,0), skinned to two joints: the
 * bottom two vertices to "base", the top two to "top" (a child of base, at its origin; no inverse
 * bind matrices, so identities). One morph target moves vertex 0 by +1 in X, default weight 0.25.
 * The clip "lift" translates "top" from (0,0,0) at t = 0 to (0,0,2) at t = 1. Four meshes use that
 * square, one per mode:
 *   POINTS      indices 0 1 2 3     -> 4 points
 *   LINES       no indices          -> segments (0,1) (2,3)
 *   LINE_LOOP   indices 0 1 2 3     -> (0,1) (1,2) (2,3) (3,0)
 *   LINE_STRIP  indices 0 1 2 3     -> (0,1) (1,2) (2,3)
 * Checked: each mesh's kind, vertex and element counts and its element list; the posed vertices at
 * t = 0 and t = 1 (the morph and the skin applied as to any mesh: vertex 0 at x = 0.25, the top
 * vertices 2 along Z at t = 1); through the binary, --info --json counts them and --export-pose
 * writes the OBJ `p` and `l` elements with every vertex's posed position, and --verify (GPU against
 * CPU) passes, and --screenshot draws them (GL_LINES, GL_POINTS) without a GL error.
 */
#include "anim/animator.h"
#include "io/import.h"
#include "testutil.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { UNSIGNED_SHORT = 5123, FLOAT = 5126 };

static char temp_dir[256];

/* The expected element list of each mode over the square's four vertices (pairs for lines). */
static const int expected_kind[4] = {MESH_POINTS, MESH_LINES, MESH_LINES, MESH_LINES};
static const int expected_indices[4][8] = {
    {0, 1, 2, 3},                   /* points */
    {0, 1, 2, 3},                   /* lines: (0,1) (2,3) */
    {0, 1, 1, 2, 2, 3, 3, 0},       /* loop: closed by (3,0) */
    {0, 1, 1, 2, 2, 3},             /* strip */
};
static const int expected_index_count[4] = {4, 4, 8, 6};

static bool write_square(const char *path)
{
    TestGltf g;
    test_gltf_init(&g);
    const float positions[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const uint16_t joints[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float weights[16] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float delta[12] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const uint16_t indices[4] = {0, 1, 2, 3};
    const float times[2] = {0, 1}, lift[6] = {0, 0, 0, 0, 0, 2};
    int p = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false, 4, "VEC3",
                               "\"min\":[0,0,0],\"max\":[1,1,0]");
    int j = test_gltf_accessor(&g, test_gltf_view(&g, joints, sizeof joints, 0), 0, UNSIGNED_SHORT, false, 4, "VEC4", NULL);
    int w = test_gltf_accessor(&g, test_gltf_view(&g, weights, sizeof weights, 0), 0, FLOAT, false, 4, "VEC4", NULL);
    int d = test_gltf_accessor(&g, test_gltf_view(&g, delta, sizeof delta, 0), 0, FLOAT, false, 4, "VEC3", NULL);
    int ix = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof indices, 0), 0, UNSIGNED_SHORT, false, 4, "SCALAR",
                                NULL);
    int ti = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, FLOAT, false, 2, "SCALAR",
                                "\"min\":[0],\"max\":[1]");
    int tr = test_gltf_accessor(&g, test_gltf_view(&g, lift, sizeof lift, 0), 0, FLOAT, false, 2, "VEC3", NULL);
    char members[4096], primitives[4][256];
    for (int mode = 0; mode < 4; mode++) {
        char index_member[32] = "";
        if (mode != 1) snprintf(index_member, sizeof index_member, ",\"indices\":%d", ix);   /* LINES: none */
        snprintf(primitives[mode], sizeof primitives[mode],
                 "{\"name\":\"mode%d\",\"weights\":[0.25],\"primitives\":[{\"mode\":%d,\"attributes\":{\"POSITION\":%d,"
                 "\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"targets\":[{\"POSITION\":%d}]%s}]}",
                 mode, mode, p, j, w, d, index_member);
    }
    snprintf(members, sizeof members,
             "\"scene\":0,\"scenes\":[{\"nodes\":[0,2,3,4,5]}],"
             "\"nodes\":[{\"name\":\"base\",\"children\":[1]},{\"name\":\"top\"},"
             "{\"name\":\"points\",\"mesh\":0,\"skin\":0},{\"name\":\"lines\",\"mesh\":1,\"skin\":0},"
             "{\"name\":\"loop\",\"mesh\":2,\"skin\":0},{\"name\":\"strip\",\"mesh\":3,\"skin\":0}],"
             "\"skins\":[{\"joints\":[0,1]}],\"meshes\":[%s,%s,%s,%s],"
             "\"animations\":[{\"name\":\"lift\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":%d,\"output\":%d}]}]",
             primitives[0], primitives[1], primitives[2], primitives[3], ti, tr);
    bool ok = test_gltf_write(&g, path, members, false);
    test_gltf_free(&g);
    return ok;
}

/* Where vertex v of the square should be at clip time t: the morph (vertex 0: +0.25 X), then the
 * top joint's lift (2t along Z for vertices 2 and 3). */
static void expected_position(int v, float t, vec3 out)
{
    static const float square[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    out[0] = square[v][0] + (v == 0 ? 0.25f : 0.0f);
    out[1] = square[v][1];
    out[2] = v >= 2 ? 2.0f * t : 0.0f;
}

static void check_model(const Model *model)
{
    CHECK(model->mesh_count == 4, "%d meshes, 4 expected (one per mode)", model->mesh_count);
    if (model->mesh_count != 4) return;
    for (int m = 0; m < 4; m++) {
        const Mesh *mesh = &model->meshes[m];
        CHECK((int)mesh->primitive == expected_kind[m], "mode %d: kind %d, %d expected", m, (int)mesh->primitive,
              expected_kind[m]);
        CHECK(mesh->vertex_count == 4, "mode %d: %d vertices, 4 expected", m, mesh->vertex_count);
        CHECK(mesh->index_count == expected_index_count[m], "mode %d: %d indices, %d expected", m, mesh->index_count,
              expected_index_count[m]);
        CHECK(mesh->skinned && mesh->morph_target_count == 1, "mode %d: skinned %d, %d morph targets", m, mesh->skinned,
              mesh->morph_target_count);
        bool same = mesh->index_count == expected_index_count[m];
        for (int i = 0; same && i < mesh->index_count; i++) same = (int)mesh->indices[i] == expected_indices[m][i];
        CHECK(same, "mode %d: the element list is not the one the spec's mode makes", m);
    }
    Animator animator;
    CHECK(animator_init(&animator, model), "animator_init");
    const float times[2] = {0.0f, 1.0f};
    for (int k = 0; k < 2; k++) {
        animator_evaluate(&animator, 0, times[k]);
        for (int m = 0; m < model->mesh_count; m++) {
            vec3 posed[4];
            animator_skin_mesh(&animator, m, posed, NULL);
            float worst = 0.0f;
            for (int v = 0; v < 4; v++) {
                vec3 want;
                expected_position(v, times[k], want);
                worst = fmaxf(worst, glm_vec3_distance(posed[v], want));
            }
            CHECK(worst <= 1e-6f, "mode %d at t=%g: posed vertices %g from the expected ones", m, times[k], worst);
        }
    }
    animator_free(&animator);
}

/* --info --json: "lines" and "points" per mesh. */
static void check_info(const char *path)
{
    char command[1200], *out = malloc(65536);
    snprintf(command, sizeof command, "'%s' '%s' --info --json 2>/dev/null", SKINVIEW_BINARY, path);
    int status = test_run_capture(command, out, 65536);
    CHECK(status == 0, "--info --json exit %d", status);
    cJSON *root = cJSON_Parse(out);
    const cJSON *meshes = cJSON_GetObjectItem(root, "meshes");
    CHECK(cJSON_GetArraySize(meshes) == 4, "--info lists %d meshes", cJSON_GetArraySize(meshes));
    const char *key[4] = {"points", "lines", "lines", "lines"};
    const int count[4] = {4, 2, 4, 3};
    for (int m = 0; m < 4 && m < cJSON_GetArraySize(meshes); m++) {
        const cJSON *mesh = cJSON_GetArrayItem(meshes, m);
        const cJSON *n = cJSON_GetObjectItem(mesh, key[m]);
        CHECK(cJSON_IsNumber(n) && n->valueint == count[m], "--info mesh %d: %s %d, %d expected", m, key[m],
              cJSON_IsNumber(n) ? n->valueint : -1, count[m]);
        const cJSON *triangles = cJSON_GetObjectItem(mesh, "triangles");
        CHECK(cJSON_IsNumber(triangles) && triangles->valueint == 0, "--info mesh %d: triangles should be 0", m);
    }
    cJSON_Delete(root);
    free(out);
}

/* --export-pose at t = 1: 16 `v` lines at the expected places, 4 `p` and 2 + 4 + 3 `l` elements. */
static void check_export(const char *path)
{
    char obj[512], command[1400];
    snprintf(obj, sizeof obj, "%s/posed.obj", temp_dir);
    snprintf(command, sizeof command, "'%s' '%s' --clip lift --time 1 --export-pose '%s' 2>&1", SKINVIEW_BINARY, path, obj);
    char *out = malloc(65536);
    int status = test_run_capture(command, out, 65536);
    CHECK(status == 0, "--export-pose exit %d: %s", status, out);
    free(out);
    FILE *file = fopen(obj, "r");
    CHECK(file != NULL, "no %s", obj);
    if (!file) return;
    int vertices = 0, points = 0, segments = 0, faces = 0, bad_refs = 0;
    float worst = 0.0f;
    char line[256];
    while (fgets(line, sizeof line, file)) {
        if (line[0] == 'v' && line[1] == ' ') {
            vec3 got, want;
            if (sscanf(line + 2, "%f %f %f", &got[0], &got[1], &got[2]) != 3) continue;
            expected_position(vertices % 4, 1.0f, want);
            worst = fmaxf(worst, glm_vec3_distance(got, want));
            vertices++;
        } else if (line[0] == 'p' && line[1] == ' ') {
            long a;
            points++;
            if (sscanf(line + 2, "%ld", &a) != 1 || a < 1 || a > 16) bad_refs++;
        } else if (line[0] == 'l' && line[1] == ' ') {
            long a, b;
            segments++;
            if (sscanf(line + 2, "%ld %ld", &a, &b) != 2 || a < 1 || a > 16 || b < 1 || b > 16) bad_refs++;
        } else if (line[0] == 'f' && line[1] == ' ') {
            faces++;
        }
    }
    fclose(file);
    CHECK(vertices == 16 && worst <= 1e-5f, "OBJ: %d vertices, worst %g from the expected pose", vertices, worst);
    CHECK(points == 4 && segments == 9 && faces == 0, "OBJ: %d points, %d segments, %d faces (4, 9, 0 expected)", points,
          segments, faces);
    CHECK(bad_refs == 0, "OBJ: %d elements name a vertex outside the file", bad_refs);
}

/* --verify: the GPU skins the lines' and points' vertices as the CPU does (transform feedback draws
 * every vertex as a point, whatever the mesh's kind). Skipped without an OpenGL context. */
static void check_verify(const char *path)
{
    char command[1200], *out = malloc(65536);
    snprintf(command, sizeof command, "'%s' '%s' --verify 2>&1", SKINVIEW_BINARY, path);
    int status = test_run_capture(command, out, 65536);
    if (status != 0 && strstr(out, "no OpenGL context")) printf("--verify skipped, no OpenGL here\n");
    else CHECK(status == 0 && strstr(out, "verify passed"), "--verify exit %d:\n%s", status, out);
    free(out);
}

/* --screenshot: the lines and points are drawn (GL_LINES / GL_POINTS) without a GL error (the
 * tests run with SKINVIEW_GL_DEBUG=1: a GL error fails the test). Skipped without OpenGL. */
static void check_screenshot(const char *path)
{
    char png[512], command[1400], *out = malloc(65536);
    snprintf(png, sizeof png, "%s/square.png", temp_dir);
    snprintf(command, sizeof command, "'%s' '%s' --clip lift --time 1 --size 160x120 --screenshot '%s' 2>&1", SKINVIEW_BINARY,
             path, png);
    int status = test_run_capture(command, out, 65536);
    if (status != 0 && strstr(out, "no OpenGL context")) printf("--screenshot skipped, no OpenGL here\n");
    else CHECK(status == 0 && test_file_exists(png) && !strstr(out, "GL error"), "--screenshot exit %d:\n%s", status, out);
    free(out);
}

int main(void)
{
    snprintf(temp_dir, sizeof temp_dir, "/tmp/skinview_gltf_primitives_XXXXXX");
    if (!mkdtemp(temp_dir)) return 1;
    char path[512], error[512];
    snprintf(path, sizeof path, "%s/square.gltf", temp_dir);
    CHECK(write_square(path), "write %s", path);
    Model model;
    ImportOptions options = {.quiet = true};
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(ok, "import: %s", error);
    if (ok) {
        check_model(&model);
        model_free(&model);
    }
    check_info(path);
    check_export(path);
    check_verify(path);
    check_screenshot(path);
    test_remove_folder(temp_dir);
    return test_finish();
}
