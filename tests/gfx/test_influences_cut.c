/* test_influences_cut.c — the influence view marks vertices that lost influences at import
 * (Mesh.influences_in_file, src/io/import_assimp.c + import_mesh.c, shaders/skinned.frag).
 *
 * The test writes a glTF (JOINTS_0/1 + WEIGHTS_0/1: up to 8 influences a vertex): a flat grid
 * of COLUMNS x ROWS vertices facing +Z, nine bones, row r's vertices weighted to
 * row_influences[r] bones (1..6) starting at bone column / 3. Assimp's LimitBoneWeights keeps
 * 4 of them; the rows with 5 and 6 are the "cut" rows. Checked:
 *   - the import counts the cut vertices (ImportStats) and marks exactly those (by position),
 *     with the file's count (5 or 6), also when SplitByBoneCount renumbers the vertices;
 *   - rendered with the influence view (offscreen GL, the real shaders), the pixel under every
 *     vertex inside the cut rows shows the "cut" colour, and no vertex of rows 0..2 shows it;
 *   - the HUD line and --info report the count;
 *   - the real binary's --show-influences screenshot has those pixels, the plain one not. */
#include "view/framing.h"
#include "view/camera.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "teach/teaching_aids.h"
#include "gfx/framebuffer.h"
#include "io/import.h"
#include "testutil.h"

#include "stb_image.h"   /* the implementation is in skinview_io (import_material.c) */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COLUMNS 12
#define ROWS 8
#define VERTICES (COLUMNS * ROWS)
#define BONES 9
#define W 480
#define H 360

static const int row_influences[ROWS] = {1, 2, 3, 4, 5, 6, 6, 5};
static const int cut_rows_first = 4;   /* rows 4..7 have more than 4 influences */
static char folder[] = "/tmp/skinview-test-influences-XXXXXX";

/* ---- the glTF ------------------------------------------------------------------ */

static bool write_model(const char *path)
{
    static float positions[VERTICES][3], normals[VERTICES][3];   /* normals given: one vertex per grid point */
    static uint16_t joints[2][VERTICES][4];
    static float weights[2][VERTICES][4];
    static uint16_t indices[(COLUMNS - 1) * (ROWS - 1) * 6];
    static float inverse_binds[BONES][16];   /* identity: every bone bound where it stands */
    memset(inverse_binds, 0, sizeof inverse_binds);
    for (int b = 0; b < BONES; b++) inverse_binds[b][0] = inverse_binds[b][5] = inverse_binds[b][10] = inverse_binds[b][15] = 1.0f;
    memset(joints, 0, sizeof joints);
    memset(weights, 0, sizeof weights);
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLUMNS; c++) {
            int v = r * COLUMNS + c, n = row_influences[r];
            positions[v][0] = (float)c;
            positions[v][1] = (float)r;
            positions[v][2] = 0.0f;
            normals[v][0] = normals[v][1] = 0.0f, normals[v][2] = 1.0f;
            /* weights n, n-1, ..., 1 over n consecutive bones, normalised: all distinct, so the
             * 4 that LimitBoneWeights keeps are the first 4 */
            float total = 0.5f * (float)(n * (n + 1));
            for (int k = 0; k < n; k++) {
                joints[k / 4][v][k % 4] = (uint16_t)(c / 3 + k);
                weights[k / 4][v][k % 4] = (float)(n - k) / total;
            }
        }
    int i = 0;
    for (int r = 0; r + 1 < ROWS; r++)
        for (int c = 0; c + 1 < COLUMNS; c++) {
            uint16_t a = (uint16_t)(r * COLUMNS + c), b = (uint16_t)(a + 1), d = (uint16_t)(a + COLUMNS),
                     e = (uint16_t)(d + 1);
            uint16_t quad[6] = {a, b, e, a, e, d};   /* counter-clockwise seen from +Z */
            memcpy(indices + i, quad, sizeof quad);
            i += 6;
        }
    TestBlob blob = {.size = 0};
    size_t off[8], len[8] = {sizeof positions, sizeof joints[0], sizeof joints[1], sizeof weights[0],
                             sizeof weights[1], sizeof indices, sizeof inverse_binds, sizeof normals};
    const void *data[8] = {positions, joints[0], joints[1], weights[0], weights[1], indices, inverse_binds, normals};
    for (int k = 0; k < 8; k++) off[k] = test_blob_add(&blob, data[k], len[k]);
    static char encoded[24000], json[40000];
    test_base64(blob.bytes, blob.size, encoded);
    int n = snprintf(json, sizeof json,
                     "{\"asset\": {\"version\": \"2.0\", \"generator\": \"skinview test_influences_cut\"},\n"
                     "\"buffers\": [{\"byteLength\": %zu, \"uri\": \"data:application/octet-stream;base64,%s\"}],\n"
                     "\"bufferViews\": [",
                     blob.size, encoded);
    for (int k = 0; k < 8; k++)
        n += snprintf(json + n, sizeof json - (size_t)n, "%s{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}",
                      k ? ", " : "", off[k], len[k]);
    n += snprintf(json + n, sizeof json - (size_t)n,
                  "],\n\"accessors\": [\n"
                  "{\"bufferView\": 0, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC3\", \"min\": [0, 0, 0], "
                  "\"max\": [%d, %d, 0]},\n"
                  "{\"bufferView\": 1, \"componentType\": 5123, \"count\": %d, \"type\": \"VEC4\"},\n"
                  "{\"bufferView\": 2, \"componentType\": 5123, \"count\": %d, \"type\": \"VEC4\"},\n"
                  "{\"bufferView\": 3, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC4\"},\n"
                  "{\"bufferView\": 4, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC4\"},\n"
                  "{\"bufferView\": 5, \"componentType\": 5123, \"count\": %d, \"type\": \"SCALAR\"},\n"
                  "{\"bufferView\": 6, \"componentType\": 5126, \"count\": %d, \"type\": \"MAT4\"},\n"
                  "{\"bufferView\": 7, \"componentType\": 5126, \"count\": %d, \"type\": \"VEC3\"}\n],\n"
                  "\"meshes\": [{\"name\": \"Sheet\", \"primitives\": [{\"attributes\": {\"POSITION\": 0, "
                  "\"NORMAL\": 7, \"JOINTS_0\": 1, \"JOINTS_1\": 2, \"WEIGHTS_0\": 3, \"WEIGHTS_1\": 4}, \"indices\": 5}]}],\n"
                  "\"skins\": [{\"joints\": [",
                  VERTICES, COLUMNS - 1, ROWS - 1, VERTICES, VERTICES, VERTICES, VERTICES, i, BONES, VERTICES);
    for (int b = 0; b < BONES; b++) n += snprintf(json + n, sizeof json - (size_t)n, "%s%d", b ? ", " : "", b + 1);
    n += snprintf(json + n, sizeof json - (size_t)n, "], \"inverseBindMatrices\": 6, \"skeleton\": 0}],\n\"nodes\": [{\"name\": \"Root\", \"children\": [");
    for (int b = 0; b <= BONES; b++) n += snprintf(json + n, sizeof json - (size_t)n, "%s%d", b ? ", " : "", b + 1);
    n += snprintf(json + n, sizeof json - (size_t)n, "]}");
    for (int b = 0; b < BONES; b++) n += snprintf(json + n, sizeof json - (size_t)n, ", {\"name\": \"bone%d\"}", b);
    n += snprintf(json + n, sizeof json - (size_t)n,
                  ", {\"name\": \"SheetNode\", \"mesh\": 0, \"skin\": 0}],\n\"scenes\": [{\"nodes\": [0]}], \"scene\": 0\n}\n");
    FILE *f = fopen(path, "w");
    if (!f) return false;
    bool ok = fputs(json, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* ---- checks on the import ------------------------------------------------------- */

/* Row of a vertex position (the grid's y), or -1 off the grid. */
static int row_of(const float p[3])
{
    int r = (int)lroundf(p[1]);
    return fabsf(p[1] - (float)r) < 1e-4f && r >= 0 && r < ROWS ? r : -1;
}

/* Every vertex in a cut row is marked with its row's count, no other vertex is; returns how
 * many vertices are marked. */
static int check_marks(const Model *model, const char *what)
{
    int marked = 0, wrong = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        for (int v = 0; v < mesh->vertex_count; v++) {
            int r = row_of(mesh->positions[v]);
            int expected = r >= cut_rows_first ? row_influences[r] : 0;
            int shown = mesh->influences_in_file ? mesh->influences_in_file[v] : 0;
            if (shown > SV_MAX_INFLUENCES) marked++;
            if ((expected > SV_MAX_INFLUENCES) != (shown > SV_MAX_INFLUENCES) ||
                (expected > SV_MAX_INFLUENCES && shown != expected))
                wrong++;
        }
    }
    CHECK(wrong == 0, "%s: %d vertices marked wrongly (file count vs influences_in_file)", what, wrong);
    return marked;
}

static void test_import(const char *path)
{
    char error[512];
    Model model;
    ImportOptions options = {.max_bones_per_mesh = 0, .quiet = true};
    CHECK(import_model(path, &options, &model, error, sizeof error), "import: %s", error);
    int cut = (ROWS - cut_rows_first) * COLUMNS;
    CHECK(model.stats.vertices_influences_cut == cut, "ImportStats: %d vertices cut, the file has %d",
          model.stats.vertices_influences_cut, cut);
    int marked = check_marks(&model, "whole");
    CHECK(marked == cut, "whole mesh: %d vertices marked, %d cut", marked, cut);
    printf("whole: %d meshes, %d vertices cut at import, %d marked\n", model.mesh_count,
           model.stats.vertices_influences_cut, marked);
    model_free(&model);

    /* a bone limit of 6: the split renumbers the vertices (the glTF reader's split, src/io/gltf/gltf_split.c,
     * counts the bones the kept weights use: after the cut to 4 influences the sheet uses at most 7 of its 9) */
    options.max_bones_per_mesh = 6;
    CHECK(import_model(path, &options, &model, error, sizeof error), "import with 6 bones a mesh: %s", error);
    CHECK(model.stats.meshes_split_by_bones > 0, "the 6-bone limit splits the sheet (%d extra meshes)",
          model.stats.meshes_split_by_bones);
    marked = check_marks(&model, "split");
    CHECK(marked >= cut, "split: %d vertices marked, at least %d (boundary vertices are copied)", marked, cut);
    printf("split into %d meshes: %d vertices marked\n", model.mesh_count, marked);
    model_free(&model);
}

/* ---- the picture ------------------------------------------------------------------ */

/* The "cut" colour: the shader's countColors[5] = linear (0.8, 0.02, 0.8), sRGB (231, 39, 231),
 * shaded by the light (a scalar: red = blue, both well above green; no other count colour is). */
static bool is_cut_colour(const unsigned char *p)
{
    int low = p[0] < p[2] ? p[0] : p[2], high = p[0] > p[2] ? p[0] : p[2];
    return low > 110 && p[1] * 3 < low && high - low < high / 8 + 8;
}

static bool project(const mat4 view, const mat4 projection, const vec3 p, float *x, float *y)
{
    float vp[4][4], clip[4] = {0, 0, 0, 0};
    test_naive_mat4_mul((const float(*)[4])projection, (const float(*)[4])view, vp);
    for (int r = 0; r < 4; r++) clip[r] = vp[0][r] * p[0] + vp[1][r] * p[1] + vp[2][r] * p[2] + vp[3][r];
    if (clip[3] <= 0.0f) return false;
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * W;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * H;
    return *x >= 1 && *y >= 1 && *x < W - 1 && *y < H - 1;
}

static void test_render(const char *path)
{
    GlContext context;
    char error[1024];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        printf("no GL context (%s): render skipped\n", error);
        return;
    }
    static Model model;
    static Renderer renderer;
    static Animator animator;
    static TeachingAids scene;
    static Framebuffer framebuffer;
    int max_bones = glcontext_bones_per_mesh(0);
    if (!app_load_model(path, &(ImportOptions){.max_bones_per_mesh = max_bones}, &model) ||
        !renderer_init(&renderer, &model, SKINVIEW_SOURCE_DIR "/shaders/skinned.vert",
                       SKINVIEW_SOURCE_DIR "/shaders/skinned.frag", max_bones, error, sizeof error) ||
        !animator_init(&animator, &model) || !framebuffer_create(&framebuffer, W, H, 0, error, sizeof error)) {
        CHECK(false, "set-up: %s", error);
        glcontext_destroy(&context);
        return;
    }
    vec3 min, max;
    view_model_bounds(&model, &animator, min, max);
    Camera camera = {0};
    camera_frame(&camera, min, max, (float)W / H, glm_rad(CAMERA_DEFAULT_FOV_Y_DEGREES));
    camera_set_view(&camera, CAMERA_VIEW_FRONT);
    mat4 view, projection;
    camera_view(&camera, view);
    camera_projection(&camera, (float)W / H, projection);
    AidOptions aids = {.show_influences = true};
    CHECK(scene_init(&scene, &model, &renderer, &animator, &aids, min, max, error, sizeof error), "scene: %s", error);
    unsigned char *pixels = malloc((size_t)W * H * 4);
    const char *methods[3] = {"gpu", "cpu", "dq"};
    const SkinningMethod method_of[3] = {SKINNING_GPU_LBS, SKINNING_CPU_LBS, SKINNING_GPU_DQ};
    for (int m = 0; m < 3; m++) {
        scene.shown.skinning = method_of[m];
        RenderLight light;
        render_light_default(&light);
        scene_evaluate(&scene, &animator, ANIMATOR_BIND_POSE, 0.0f);
        framebuffer_bind(&framebuffer);
        renderer_clear(0.18f, 0.2f, 0.23f);
        scene_draw(&scene, &animator, view, projection, &light, NULL, W, H);
        CHECK(framebuffer_read_rgba(&framebuffer, pixels), "read back");
        /* every vertex of the cut rows but the border row 4 (its triangles reach row 3) shows
         * the cut colour; no vertex of rows 0..2 does */
        int inner = 0, inner_cut = 0, low = 0, low_cut = 0;
        const Mesh *mesh = &model.meshes[0];
        for (int v = 0; v < mesh->vertex_count; v++) {
            float x, y;
            int r = row_of(mesh->positions[v]);
            vec3 p;
            glm_mat4_mulv3((vec4 *)mesh->bind_matrix, mesh->positions[v], 1.0f, p);
            if (r < 0 || !project(view, projection, p, &x, &y)) continue;
            /* one pixel inwards from the sheet's edge: the vertex's own pixel may be background */
            int c = (int)lroundf(mesh->positions[v][0]);
            float dx = c == 0 ? 1.0f : c == COLUMNS - 1 ? -1.0f : 0.0f, dy = r == ROWS - 1 ? 1.0f : r == 0 ? -1.0f : 0.0f;
            const unsigned char *px = pixels + 4 * ((size_t)(int)(y + dy) * W + (int)(x + dx));
            if (r > cut_rows_first) inner++, inner_cut += is_cut_colour(px);
            if (r < cut_rows_first - 1) low++, low_cut += is_cut_colour(px);
        }
        CHECK(inner == (ROWS - cut_rows_first - 1) * COLUMNS && inner_cut == inner,
              "%s: %d of %d vertices inside the cut rows show the cut colour", methods[m], inner_cut, inner);
        CHECK(low == (cut_rows_first - 1) * COLUMNS && low_cut == 0,
              "%s: %d of %d vertices with 1..3 influences show the cut colour", methods[m], low_cut, low);
        printf("%s: cut colour on %d of %d inner cut vertices, on %d of %d vertices with 1..3 influences\n", methods[m],
               inner_cut, inner, low_cut, low);
    }
    char shown[512];
    scene_format_shown(&scene, shown, sizeof shown);
    char expected[64];
    snprintf(expected, sizeof expected, "(%d vertices had 5+, cut to 4)", (ROWS - cut_rows_first) * COLUMNS);
    CHECK(strstr(shown, expected) != NULL, "the HUD says '%s': '%s'", expected, shown);
    printf("HUD: %s\n", shown);
    free(pixels);
    scene_free(&scene);
    framebuffer_free(&framebuffer);
    animator_free(&animator);
    renderer_free(&renderer);
    model_free(&model);
    glcontext_destroy(&context);
}

/* The real binary: --info --json reports the count, --show-influences draws the colour. */
static void test_binary(const char *path)
{
    char command[2048], output[16384];
    snprintf(command, sizeof command, "'%s' '%s' --info --json 2>&1", SKINVIEW_BINARY, path);
    CHECK(test_run_capture(command, output, sizeof output) == 0, "--info --json: %s", output);
    const char *found = strstr(output, "\"vertices_influences_cut\"");
    const char *colon = found ? strchr(found, ':') : NULL;
    int reported = colon ? atoi(colon + 1) : -1;
    CHECK(reported == (ROWS - cut_rows_first) * COLUMNS, "--info --json: vertices_influences_cut %d, the file has %d",
          reported, (ROWS - cut_rows_first) * COLUMNS);

    int counts[2] = {0, 0};
    for (int with = 0; with < 2; with++) {
        char png[600];
        snprintf(png, sizeof png, "%s/shot%d.png", folder, with);
        snprintf(command, sizeof command, "'%s' '%s' --size 320x240 --no-grid --view front %s --screenshot '%s' 2>&1",
                 SKINVIEW_BINARY, path, with ? "--show-influences" : "", png);
        int code = test_run_capture(command, output, sizeof output);
        if (code != 0) {
            CHECK(false, "screenshot: exit %d: %s", code, output);
            continue;
        }
        int w, h, channels;
        unsigned char *rgba = stbi_load(png, &w, &h, &channels, 4);
        CHECK(rgba != NULL, "%s decodes", png);
        /* below the legend (top right): the sheet only */
        for (int y = h / 3; rgba && y < h; y++)
            for (int x = 0; x < w; x++) counts[with] += is_cut_colour(rgba + 4 * ((size_t)y * w + x));
        stbi_image_free(rgba);
    }
    CHECK(counts[1] > 1500 && counts[0] == 0, "--show-influences: %d pixels of the cut colour (%d without the flag)",
          counts[1], counts[0]);
    printf("binary: --show-influences %d cut-colour pixels, plain %d\n", counts[1], counts[0]);
}

int main(void)
{
    if (!mkdtemp(folder)) return 1;
    char path[600];
    snprintf(path, sizeof path, "%s/sheet.gltf", folder);
    CHECK(write_model(path), "write %s", path);
    test_import(path);
    test_render(path);
    test_binary(path);
    test_remove_folder(folder);
    return test_finish();
}
