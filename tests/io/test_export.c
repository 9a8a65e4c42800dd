/* test_export.c — `skinview MODEL --export-pose OUT.obj` on real models:
 * one `v` line per vertex of every mesh (nothing welded or dropped), the bind pose
 * reproduces the imported vertices, an animated time moves them, and an
 * unwritable output path is exit 1 with one line on stderr. */
#include "testutil.h"
#include "anim/animator.h"
#include "io/import.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char temp_dir[256];

/* Runs skinview with the given arguments (stderr to err_path); returns its exit code, -1 if it did not exit. */
static int run_skinview(const char *args, const char *err_path)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' %s 2>'%s'", SKINVIEW_BINARY, args, err_path);
    int status = system(command);
    return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

/* Reads the `v x y z` lines of an OBJ. Returns the count (-1 if unreadable); *out is malloc'ed. */
static int read_obj_vertices(const char *path, vec3 **out)
{
    FILE *file = fopen(path, "r");
    *out = NULL;
    if (!file) return -1;
    int count = 0, capacity = 0;
    char line[512];
    while (fgets(line, sizeof line, file)) {
        if (line[0] != 'v' || line[1] != ' ') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 1024;
            *out = realloc(*out, (size_t)capacity * sizeof(vec3));
        }
        float *p = (*out)[count++];
        if (sscanf(line + 2, "%f %f %f", &p[0], &p[1], &p[2]) != 3) p[0] = p[1] = p[2] = NAN;
    }
    fclose(file);
    return count;
}

static int count_lines(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    int lines = 0, c, last = '\n';
    while ((c = fgetc(file)) != EOF) {
        if (c == '\n') lines++;
        last = c;
    }
    if (last != '\n') lines++;
    fclose(file);
    return lines;
}

/* Bind pose computed here without the Animator: skinned meshes as stored, placed by N
 * (test_mesh_bind_matrix), static meshes through their node's bind-pose model matrix
 * (pose_bind). Returns the bbox diagonal. */
static float expected_bind_positions(const char *path, const Model *model, vec3 *out)
{
    int joints = model->skeleton.joint_count > 0 ? model->skeleton.joint_count : 1;
    mat4 *local = calloc((size_t)joints, sizeof(mat4));
    mat4 *world = calloc((size_t)joints, sizeof(mat4));
    bool *bound = calloc((size_t)joints, sizeof(bool));
    pose_bind(model, bound, local, world);
    free(bound);
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    int offset = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        float n[4][4];
        test_mesh_bind_matrix(path, model, m, n);
        for (int v = 0; v < mesh->vertex_count; v++) {
            float *p = out[offset + v];
            if (mesh->skinned)
                glm_mat4_mulv3(n, mesh->positions[v], 1.0f, p);
            else if (mesh->node_joint < 0)
                glm_vec3_copy(mesh->positions[v], p);
            else
                glm_mat4_mulv3(world[mesh->node_joint], mesh->positions[v], 1.0f, p);
            glm_vec3_minv(lo, p, lo);
            glm_vec3_maxv(hi, p, hi);
        }
        offset += mesh->vertex_count;
    }
    free(local);
    free(world);
    return glm_vec3_distance(lo, hi);
}

static float max_distance(const vec3 *a, const vec3 *b, int count)
{
    float worst = 0.0f;
    for (int i = 0; i < count; i++) {
        float d = glm_vec3_distance((float *)a[i], (float *)b[i]);
        if (!(d <= worst)) worst = d;   /* NaN counts as worst */
    }
    return worst;
}

static void check_model(const char *path)
{
    Model model = {0};
    char error[512];
    ImportOptions options = {0};
    bool imported = import_model(path, &options, &model, error, sizeof error);
    CHECK(imported, "%s: import failed: %s", path, error);
    if (!imported) return;

    int total = model_total_vertices(&model);
    vec3 *expected = calloc((size_t)total + 1, sizeof(vec3));
    float diagonal = expected_bind_positions(path, &model, expected);
    char obj[512], err[512], args[2048];
    snprintf(obj, sizeof obj, "%s/pose.obj", temp_dir);
    snprintf(err, sizeof err, "%s/stderr.txt", temp_dir);

    /* --clip bind: the imported vertices placed by N, one v line each */
    snprintf(args, sizeof args, "'%.1023s' --clip bind --export-pose '%.511s'", path, obj);
    int code = run_skinview(args, err);
    CHECK(code == 0, "%s: --clip bind --export-pose exit %d", path, code);
    vec3 *bind = NULL;
    int count = read_obj_vertices(obj, &bind);
    CHECK(count == total, "%s: %d v lines, the meshes have %d vertices", path, count, total);
    if (count == total) {
        float error_bind = max_distance(bind, expected, total);
        CHECK(error_bind <= 1e-5f * diagonal, "%s: bind pose off by %g (diagonal %g)", path, error_bind, diagonal);
        printf("%s: %d vertices, bind error %.3g of the diagonal\n", path, total, error_bind / diagonal);
    }

    /* an animated pose: the clip and time (of the first 8 clips, 4 times each) that move
     * the mesh most; the file moves clearly and agrees with the in-process CPU skinning.
     * Clips that are single poses (duration 0, e.g. SMD reference files) may not move. */
    if (model.clip_count > 0 && count == total) {
        Animator animator;
        animator_init(&animator, &model);
        vec3 *posed = calloc((size_t)total + 1, sizeof(vec3));
        float best = 0.0f, best_time = 0.0f;
        int best_clip = 0;
        bool any_motion = false;
        for (int c = 0; c < model.clip_count && c < 8; c++) {
            if (model.clips[c].duration > 0.0f) any_motion = true;
            for (int step = 1; step <= 4; step++) {
                float t = model.clips[c].duration * (float)step / 4.0f;
                animator_evaluate(&animator, c, t);
                for (int m = 0, offset = 0; m < model.mesh_count; offset += model.meshes[m].vertex_count, m++)
                    animator_skin_mesh(&animator, m, posed + offset, NULL);
                float moved = max_distance(posed, bind, total);
                if (moved > best) {
                    best = moved;
                    best_time = t;
                    best_clip = c;
                }
            }
        }
        snprintf(args, sizeof args, "'%.1023s' --clip %d --time %.9g --export-pose '%.511s'", path, best_clip,
                 best_time, obj);
        code = run_skinview(args, err);
        CHECK(code == 0, "%s: --clip %d --time %g exit %d", path, best_clip, best_time, code);
        vec3 *animated = NULL;
        int animated_count = read_obj_vertices(obj, &animated);
        CHECK(animated_count == total, "%s: animated pose has %d v lines, expected %d", path, animated_count, total);
        if (animated_count == total) {
            animator_evaluate(&animator, best_clip, best_time);
            for (int m = 0, offset = 0; m < model.mesh_count; offset += model.meshes[m].vertex_count, m++)
                animator_skin_mesh(&animator, m, posed + offset, NULL);
            float moved = max_distance(animated, bind, total);
            float off = max_distance(animated, posed, total);
            if (any_motion)
                CHECK(moved > 0.01f * diagonal, "%s: clip %d at %g s moves at most %g (diagonal %g)", path, best_clip,
                      best_time, moved, diagonal);
            CHECK(off <= 1e-5f * diagonal, "%s: OBJ differs from CPU skinning by %g", path, off);
            printf("%s: clip %d at %.3g s moves %.3g of the diagonal%s\n", path, best_clip, best_time, moved / diagonal,
                   any_motion ? "" : " (single-pose clips only)");
        }
        free(animated);
        free(posed);
        animator_free(&animator);
    }
    free(bind);
    free(expected);
    model_free(&model);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_test_export")) return 1;
    TestModel models[64];
    int model_count = test_skinned_models(models, 64);
    for (int i = 0; i < model_count; i++) {
        CHECK(test_file_exists(models[i].path), "missing test model %s", models[i].path);
        if (test_file_exists(models[i].path)) check_model(models[i].path);
    }

    /* an output path that cannot be written: exit 1, one line on stderr */
    if (model_count > 0) {
        char args[2048], err[512];
        snprintf(err, sizeof err, "%s/stderr.txt", temp_dir);
        snprintf(args, sizeof args, "'%s' --export-pose '%s/no/such/dir/pose.obj'", models[0].path, temp_dir);
        int code = run_skinview(args, err);
        CHECK(code == 1, "unwritable output: exit %d, expected 1", code);
        int lines = count_lines(err);
        CHECK(lines == 1, "unwritable output: %d stderr lines, expected 1", lines);
        remove(err);
    }
    char obj[512];
    snprintf(obj, sizeof obj, "%s/pose.obj", temp_dir);
    remove(obj);
    rmdir(temp_dir);
    return test_finish();
}
