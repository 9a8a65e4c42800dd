/* test_vat_bake.c — vertex animation textures through the real binary (docs/vat.md):
 *   - the demo and a real FBX with several clips bake; decoding positions.png with vat.json's
 *     bounds gives the CPU-skinned positions (animator_skin_mesh of the imported model) at every
 *     baked frame within range/65535 per axis, and the normals within the octahedral bound;
 *   - every clip's frames lie inside their page, no two share a slot (from vat.json);
 *   - --vat --verify: vat.vert (transform feedback) at baked frames and halfway equals the decoded
 *     frames and their mix; --max-texture 256 gives several pages that bake and play back;
 *   - a morph-target model bakes its morphs (AnimatedMorphCube, when ../shared is there);
 *   - --precision float writes an EXR holding the CPU positions exactly;
 *   - --vat --screenshot looks like the skinned viewer's screenshot of the same clip and time;
 *     --vat --export-pose writes the decoded pose; a crowd screenshot renders;
 *   - bad arguments: exit 2 / 1, one line, nothing written; a bake killed half-way leaves
 *     nothing --vat accepts; a damaged or mismatched OUTDIR is one line and exit 1.
 * Bakes run at low fps to keep the test short. */
#include "testutil.h"
#include "anim/animator.h"
#include "anim/vat.h"
#include "io/import.h"
#include "io/vat_io.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char temp_dir[256];
static char err_path[512];

/* Runs skinview with `args` (stdout to out_path when given, stderr to err_path); returns the
 * exit code, -1 when it did not exit. */
static int run_skinview(const char *args, const char *out_path)
{
    char command[8192];
    snprintf(command, sizeof command, "'%s' %s >'%s' 2>'%s'", SKINVIEW_BINARY, args,
             out_path ? out_path : "/dev/null", err_path);
    int status = system(command);
    return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

static int count_file_lines(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    int lines = 0, c;
    while ((c = fgetc(file)) != EOF)
        if (c == '\n') lines++;
    fclose(file);
    return lines;
}

static bool file_contains(const char *path, const char *text)
{
    FILE *file = fopen(path, "r");
    if (!file) return false;
    static char buffer[1 << 16];
    size_t n = fread(buffer, 1, sizeof buffer - 1, file);
    buffer[n] = '\0';
    fclose(file);
    return strstr(buffer, text) != NULL;
}

static bool path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Compares a bake with the CPU reference skinning of the model it came from. */
static void check_against_reference(const char *dir, const char *model_path, const char *label)
{
    char error[1024];
    VatManifest manifest;
    if (!vat_read_manifest(dir, &manifest, error, sizeof error)) {
        CHECK(false, "%s: %s", label, error);
        return;
    }
    Model model = {0};
    if (!import_model(model_path, &(ImportOptions){0}, &model, error, sizeof error)) {
        CHECK(false, "%s: %s", label, error);
        vat_manifest_free(&manifest);
        return;
    }
    const VatLayout *layout = &manifest.layout;
    CHECK(layout->vertex_count == model_total_vertices(&model), "%s: %d vertices baked, model has %d", label,
          layout->vertex_count, model_total_vertices(&model));

    /* layout from vat.json: every clip's frames inside a page, no slot twice */
    unsigned char *used = calloc((size_t)layout->slot_count, 1);
    for (int c = 0; c < manifest.clip_count; c++)
        for (int f = 0; f < manifest.clips[c].frame_count; f++) {
            int slot = manifest.clips[c].first_slot + f;
            CHECK(slot >= 0 && slot < layout->slot_count && !used[slot], "%s: clip %d frame %d slot %d", label, c, f,
                  slot);
            if (slot < 0 || slot >= layout->slot_count) continue;
            used[slot] = 1;
            int page, x, y, page_end, x_end, y_end;
            vat_texel(layout, slot, 0, &page, &x, &y);
            vat_texel(layout, slot, layout->vertex_count - 1, &page_end, &x_end, &y_end);
            CHECK(page == page_end && page < layout->page_count && y_end < vat_page_rows(layout, page) &&
                      layout->width <= layout->max_texture && layout->page_height <= layout->max_texture,
                  "%s: clip %d frame %d outside its page", label, c, f);
        }
    free(used);

    size_t page_texels = (size_t)layout->width * (size_t)layout->page_height;
    uint16_t *positions16 = calloc(page_texels * 4 * (size_t)layout->page_count, sizeof(uint16_t));
    float *positions32 = calloc(page_texels * 4 * (size_t)layout->page_count, sizeof(float));
    uint16_t *normals = calloc(page_texels * 2 * (size_t)layout->page_count, sizeof(uint16_t));
    bool read_ok = positions16 && positions32 && normals;
    for (int p = 0; read_ok && p < layout->page_count; p++) {
        char name[64], path[1200];
        int rows = vat_page_rows(layout, p);
        vat_positions_name(p, manifest.float_precision, name, sizeof name);
        vat_path(dir, name, path, sizeof path);
        read_ok = manifest.float_precision
                      ? vat_read_exr(path, layout->width, rows, positions32 + page_texels * 4 * (size_t)p, error, sizeof error)
                      : vat_read_png16(path, layout->width, rows, 4, positions16 + page_texels * 4 * (size_t)p, error,
                                       sizeof error);
        vat_normals_name(p, name, sizeof name);
        vat_path(dir, name, path, sizeof path);
        read_ok = read_ok &&
                  vat_read_png16(path, layout->width, rows, 2, normals + page_texels * 2 * (size_t)p, error, sizeof error);
    }
    CHECK(read_ok, "%s: %s", label, error);

    Animator animator;
    int total = model_total_vertices(&model);
    vec3 *cpu = malloc(sizeof(vec3) * (size_t)total), *cpu_normals = malloc(sizeof(vec3) * (size_t)total);
    double worst_axis_ratio = 0.0, worst_normal = 0.0, worst_abs = 0.0;
    if (read_ok && cpu && cpu_normals && animator_init(&animator, &model)) {
        vec3 range;
        glm_vec3_sub(manifest.bounds_max, manifest.bounds_min, range);
        for (int c = 0; c < manifest.clip_count; c++) {
            const VatClip *clip = &manifest.clips[c];
            int source = model.clip_count > 0 ? clip->source_index : ANIMATOR_REST_POSE;
            for (int f = 0; f < clip->frame_count; f++) {
                animator_evaluate(&animator, source, vat_frame_time(clip->duration, clip->frame_count, f));
                for (int m = 0, offset = 0; m < model.mesh_count; offset += model.meshes[m].vertex_count, m++)
                    animator_skin_mesh(&animator, m, cpu + offset, cpu_normals + offset);
                for (int v = 0; v < total; v++) {
                    int page, x, y;
                    vat_texel(layout, clip->first_slot + f, v, &page, &x, &y);
                    size_t texel = page_texels * (size_t)page + (size_t)y * (size_t)layout->width + (size_t)x;
                    for (int k = 0; k < 3; k++) {
                        double decoded = manifest.float_precision
                                             ? positions32[texel * 4 + (size_t)k]
                                             : vat_dequantize(positions16[texel * 4 + (size_t)k], manifest.bounds_min[k],
                                                              range[k]);
                        double e = fabs(decoded - cpu[v][k]);
                        if (e > worst_abs) worst_abs = e;
                        /* the bound of the issue: range / 65535 per axis */
                        double bound = manifest.float_precision ? 0.0 : range[k] / 65535.0;
                        double ratio = bound > 0.0 ? e / bound : (e == 0.0 ? 0.0 : INFINITY);
                        if (range[k] == 0.0f && e == 0.0) ratio = 0.0;
                        if (ratio > worst_axis_ratio) worst_axis_ratio = ratio;
                    }
                    vec3 n;
                    vat_normal_decode16(normals + texel * 2, n);
                    if (glm_vec3_norm(cpu_normals[v]) > 0.5f) {
                        vec3 cross;
                        glm_vec3_cross(n, cpu_normals[v], cross);
                        double angle = atan2(glm_vec3_norm(cross), glm_vec3_dot(n, cpu_normals[v])) * 180.0 / GLM_PI;
                        if (angle > worst_normal) worst_normal = angle;
                    }
                }
            }
        }
        animator_free(&animator);
        printf("%s: %d clips, %d pages of %dx%d, max position error %.3g (%.3f of range/65535), max normal angle "
               "%.5f deg\n",
               label, manifest.clip_count, layout->page_count, layout->width, layout->page_height, worst_abs,
               worst_axis_ratio, worst_normal);
        CHECK(worst_axis_ratio <= 1.0, "%s: position error %.3f x range/65535", label, worst_axis_ratio);
        /* the octahedral bound, plus float rounding of the CPU normal itself */
        CHECK(worst_normal <= VAT_NORMAL_MAX_ERROR_DEGREES + 0.001, "%s: normal error %g deg", label, worst_normal);
    } else {
        CHECK(false, "%s: could not compare (out of memory or unreadable)", label);
    }
    free(cpu);
    free(cpu_normals);
    free(positions16);
    free(positions32);
    free(normals);
    model_free(&model);
    vat_manifest_free(&manifest);
}

/* RGB pixels of a PNG (malloc'ed), or NULL. */
static unsigned char *read_rgb(const char *png_path, int *width, int *height)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, png_path)) return NULL;
    image.format = PNG_FORMAT_RGB;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        png_image_free(&image);
        return NULL;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return pixels;
}

/* Pixels where two screenshots differ by more than 24 (summed over R, G, B), -1 if unreadable
 * or of different sizes. */
static long differing_pixels(const char *a_path, const char *b_path)
{
    int wa = 0, ha = 0, wb = 0, hb = 0;
    unsigned char *a = read_rgb(a_path, &wa, &ha), *b = read_rgb(b_path, &wb, &hb);
    long count = -1;
    if (a && b && wa == wb && ha == hb) {
        count = 0;
        for (size_t i = 0; i < (size_t)wa * (size_t)ha; i++) {
            int d = 0;
            for (int k = 0; k < 3; k++) d += abs((int)a[i * 3 + (size_t)k] - (int)b[i * 3 + (size_t)k]);
            if (d > 24) count++;
        }
    }
    free(a);
    free(b);
    return count;
}

/* Pixels of a screenshot that differ from its background colour (the corner pixel) by more than 24 (summed
 * over R, G, B): their count (-1 if unreadable) and, when x and y are not NULL, their centre. */
static long foreground(const char *png_path, double *x, double *y)
{
    int width = 0, height = 0;
    unsigned char *pixels = read_rgb(png_path, &width, &height);
    if (!pixels) return -1;
    double sx = 0.0, sy = 0.0;
    long n = 0;
    for (size_t i = 0; i < (size_t)width * (size_t)height; i++) {
        int d = 0;
        for (int k = 0; k < 3; k++) d += abs((int)pixels[i * 3 + (size_t)k] - (int)pixels[(size_t)k]);
        if (d > 24) {
            sx += (double)(i % (size_t)width);
            sy += (double)(i / (size_t)width);
            n++;
        }
    }
    free(pixels);
    if (x && y && n > 0) *x = sx / (double)n, *y = sy / (double)n;
    return n;
}

static long foreground_pixels(const char *png_path) { return foreground(png_path, NULL, NULL); }

/* Centre of the pixels that differ from the top-left one (the background); false if none. */
static bool foreground_center(const char *png_path, double *x, double *y) { return foreground(png_path, x, y) > 0; }

static void check_bad_arguments(const char *demo)
{
    char dir[512], args[2048];
    snprintf(dir, sizeof dir, "%s/bad", temp_dir);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --clips NoSuchClip --quiet", demo, dir);
    CHECK(run_skinview(args, NULL) == 2 && count_file_lines(err_path) == 1 && !path_exists(dir),
          "unknown clip: exit 2, one line, nothing written");
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 0", demo, dir);
    CHECK(run_skinview(args, NULL) == 2 && count_file_lines(err_path) == 1 && !path_exists(dir), "--fps 0: exit 2");
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps -3", demo, dir);
    CHECK(run_skinview(args, NULL) == 2 && !path_exists(dir), "--fps -3: exit 2");
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --precision 8", demo, dir);
    CHECK(run_skinview(args, NULL) == 2 && !path_exists(dir), "--precision 8: exit 2");
    snprintf(args, sizeof args, "'%s' --bake-vat '%s/no/such/parent' --quiet", demo, temp_dir);
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "missing parent: exit 1, one line");
    /* a file where OUTDIR should be */
    char file_path[600];
    snprintf(file_path, sizeof file_path, "%s/plain_file", temp_dir);
    FILE *f = fopen(file_path, "w");
    if (f) fclose(f);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --quiet", demo, file_path);
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "OUTDIR is a file: exit 1");
    /* a read-only directory (root ignores modes: only checked when it applies) */
    char readonly[600];
    snprintf(readonly, sizeof readonly, "%s/readonly", temp_dir);
    mkdir(readonly, 0555);
    if (access(readonly, W_OK) != 0) {
        snprintf(args, sizeof args, "'%s' --bake-vat '%s' --quiet", demo, readonly);
        CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "read-only OUTDIR: exit 1");
    }
    CHECK(run_skinview("--fps 10", NULL) == 2, "--fps without --bake-vat: exit 2");
    CHECK(run_skinview("--vat x --instances 0", NULL) == 2, "--instances 0: exit 2");
    snprintf(args, sizeof args, "--vat '%s/nothing_here'", temp_dir);
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "--vat on a missing folder: exit 1");
}

/* Copies a bake folder. */
/* vat.json lists `name` again with the size and CRC-32 of the file at `path` now, so a damaged or swapped
 * file passes the checksum and the reader's own checks must catch it. False if vat.json does not parse. */
static bool relist_file(const char *json_path, const char *name, const char *path)
{
    char *text = test_read_file(json_path, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!root) return false;
    long long bytes;
    uint32_t crc;
    char error[512];
    vat_file_checksum(path, &bytes, &crc, error, sizeof error);
    cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "files"))
    {
        if (strcmp(cJSON_GetObjectItem(item, "name")->valuestring, name) != 0) continue;
        cJSON_ReplaceItemInObject(item, "bytes", cJSON_CreateNumber((double)bytes));
        cJSON_ReplaceItemInObject(item, "crc32", cJSON_CreateNumber(crc));
    }
    char *printed = cJSON_Print(root);
    bool ok = printed && test_write_text(json_path, printed);
    cJSON_free(printed);
    cJSON_Delete(root);
    return ok;
}

static void copy_dir(const char *from, const char *to)
{
    char command[2048];
    snprintf(command, sizeof command, "rm -rf '%s' && cp -r '%s' '%s'", to, from, to);
    CHECK(system(command) == 0, "copy %s", from);
}

static void check_damaged(const char *good, const char *other)
{
    char dir[512], path[700], args[1024];
    snprintf(dir, sizeof dir, "%s/damaged", temp_dir);
    snprintf(args, sizeof args, "--vat '%s' --verify", dir);

    /* truncated positions.png */
    copy_dir(good, dir);
    snprintf(path, sizeof path, "%s/positions.png", dir);
    CHECK(truncate(path, 1000) == 0, "truncate");
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1 && file_contains(err_path, "positions.png"),
          "truncated positions.png: exit 1, one line naming it");

    /* truncated PNG whose listed size and checksum were updated too: libpng reports it */
    copy_dir(good, dir);
    snprintf(path, sizeof path, "%s/normals.png", dir);
    CHECK(truncate(path, 5000) == 0, "truncate");
    char json_path[700];
    snprintf(json_path, sizeof json_path, "%s/vat.json", dir);
    CHECK(relist_file(json_path, "normals.png", path), "vat.json parses");
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1 && file_contains(err_path, "normals.png"),
          "truncated PNG with matching checksum: exit 1, one line");

    /* vat.json says a different vertex count */
    copy_dir(good, dir);
    char command[2048];
    snprintf(command, sizeof command, "sed -i 's/\"vertex_count\":\\t7414/\"vertex_count\":\\t1000/' '%s'", json_path);
    CHECK(system(command) == 0, "edit vat.json");
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "edited vertex_count: exit 1, one line");

    /* mesh.glb of another bake (fewer vertices), listed with its own size and checksum */
    if (other) {
        copy_dir(good, dir);
        char other_mesh[700], mesh[700];
        snprintf(other_mesh, sizeof other_mesh, "%s/mesh.glb", other);
        snprintf(mesh, sizeof mesh, "%s/mesh.glb", dir);
        snprintf(command, sizeof command, "cp '%s' '%s'", other_mesh, mesh);
        CHECK(system(command) == 0, "swap mesh.glb");
        relist_file(json_path, "mesh.glb", mesh);
        CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1 && file_contains(err_path, "vertices"),
              "mesh.glb with another vertex count: exit 1, one line");
    }
    /* not JSON at all */
    copy_dir(good, dir);
    FILE *file = fopen(json_path, "w");
    if (file) {
        fputs("{ \"format\": \"skinview-vat\", \"version\": ", file);
        fclose(file);
    }
    CHECK(run_skinview(args, NULL) == 1 && count_file_lines(err_path) == 1, "cut vat.json: exit 1, one line");
}

/* A bake killed half-way (while its files are being written) leaves nothing --vat accepts. */
static void check_interrupted(const char *model)
{
    char dir[512], command[4096];
    snprintf(dir, sizeof dir, "%s/killed", temp_dir);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDERR_FILENO);
        execl(SKINVIEW_BINARY, "skinview", model, "--bake-vat", dir, "--fps", "120", "--quiet", (char *)NULL);
        _exit(127);
    }
    /* wait until the first temporary file appears, then kill */
    bool saw_partial = false;
    for (int i = 0; i < 60000 && !saw_partial; i++) {
        DIR *d = opendir(dir);
        if (d) {
            struct dirent *entry;
            while ((entry = readdir(d)))
                if (strstr(entry->d_name, ".partial")) saw_partial = true;
            closedir(d);
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            pid = -1;
            break;
        }
        if (!saw_partial) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    CHECK(saw_partial, "the bake was caught while writing (it finished first?)");
    snprintf(command, sizeof command, "--vat '%s' --verify", dir);
    CHECK(run_skinview(command, NULL) == 1 && count_file_lines(err_path) == 1,
          "--vat refuses a bake killed half-way, with one line");
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_vat")) return 1;
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", temp_dir);
    char demo[1024], out[600], dir[512], args[4096], demo_dir[512];
    snprintf(demo, sizeof demo, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    snprintf(out, sizeof out, "%s/stdout.txt", temp_dir);

    /* the demo, every clip, at 4 fps */
    snprintf(demo_dir, sizeof demo_dir, "%s/demo", temp_dir);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 4", demo, demo_dir);
    CHECK(run_skinview(args, out) == 0, "demo bake");
    CHECK(!file_contains(err_path, "frames/s") && !file_contains(err_path, "ETA"),
          "stderr to a file: no progress bar in it (before: 30 redraws of it in a log)");
    /* on a terminal (script(1) gives the bake one): the bar */
    char terminal[8192], transcript[600];
    snprintf(transcript, sizeof transcript, "%s/terminal.txt", temp_dir);
    snprintf(terminal, sizeof terminal, "script -qec \"'%s' '%s' --bake-vat '%s/tty' --fps 4\" '%s' >/dev/null 2>&1",
             SKINVIEW_BINARY, demo, temp_dir, transcript);
    if (system("command -v script >/dev/null 2>&1") == 0) {
        CHECK(system(terminal) == 0, "%s", terminal);
        CHECK(file_contains(transcript, "frames/s") && file_contains(transcript, "ETA"), "progress bar on a terminal");
    } else {
        printf("script(1) absent: the terminal's progress bar not checked\n");
    }
    CHECK(file_contains(out, "baked 4 clips"), "bake summary");
    check_against_reference(demo_dir, demo, "demo");
    snprintf(args, sizeof args, "--vat '%s' --verify", demo_dir);
    CHECK(run_skinview(args, out) == 0 && file_contains(out, "verify passed"), "demo --vat --verify");

    /* VAT screenshot next to the skinned one: the same figure in the same place */
    char vat_png[600], skin_png[600];
    snprintf(vat_png, sizeof vat_png, "%s/vat.png", temp_dir);
    snprintf(skin_png, sizeof skin_png, "%s/skin.png", temp_dir);
    /* both with --no-grid: the figures alone */
    snprintf(args, sizeof args, "--vat '%s' --clip Wave --time 1.25 --no-grid --screenshot '%s' --size 320x240",
             demo_dir, vat_png);
    CHECK(run_skinview(args, NULL) == 0, "--vat --screenshot");
    snprintf(args, sizeof args, "'%s' --clip Wave --time 1.25 --no-grid --screenshot '%s' --size 320x240", demo,
             skin_png);
    CHECK(run_skinview(args, NULL) == 0, "skinned --screenshot");
    long vat_pixels = foreground_pixels(vat_png), skin_pixels = foreground_pixels(skin_png);
    long differing = differing_pixels(vat_png, skin_png);
    printf("screenshot: VAT %ld, skinned %ld figure pixels, %ld pixels differ\n", vat_pixels, skin_pixels, differing);
    /* the same camera (vat.json's view_bounds) and the same pose: only a few edge pixels may differ */
    CHECK(vat_pixels > 1000 && differing >= 0 && differing < vat_pixels / 50,
          "VAT and skinned screenshots: %ld of %ld figure pixels differ", differing, vat_pixels);
    /* with the ground grid (the default in both, key G): the grid and world axes add the same
     * pixels around the same figure */
    snprintf(args, sizeof args, "--vat '%s' --clip Wave --time 1.25 --screenshot '%s' --size 320x240", demo_dir,
             vat_png);
    CHECK(run_skinview(args, NULL) == 0, "--vat --screenshot with the grid");
    snprintf(args, sizeof args, "'%s' --clip Wave --time 1.25 --screenshot '%s' --size 320x240", demo, skin_png);
    CHECK(run_skinview(args, NULL) == 0, "skinned --screenshot with the grid");
    long vat_grid = foreground_pixels(vat_png), skin_grid = foreground_pixels(skin_png);
    long grid_differing = differing_pixels(vat_png, skin_png);
    printf("with the grid: VAT %ld, skinned %ld non-background pixels, %ld differ\n", vat_grid, skin_grid,
           grid_differing);
    CHECK(vat_grid > vat_pixels + 1000 && grid_differing >= 0 && grid_differing < vat_grid / 10,
          "--vat draws the ground grid as the skinned view does (%ld vs %ld pixels, %ld differ)", vat_grid, skin_grid,
          grid_differing);

    /* the crowd: framed from the front, centred: its pixels' centre near the picture's */
    snprintf(args, sizeof args, "--vat '%s' --instances 25 --no-grid --screenshot '%s' --size 320x240", demo_dir,
             vat_png);
    CHECK(run_skinview(args, NULL) == 0 && foreground_pixels(vat_png) > 1000, "crowd screenshot");
    double center_x = 0.0, center_y = 0.0;
    CHECK(foreground_center(vat_png, &center_x, &center_y) && fabs(center_x - 160.0) < 0.15 * 320 &&
              fabs(center_y - 120.0) < 0.2 * 240,
          "the crowd is centred: its pixels' centre at (%.0f, %.0f) of 320x240", center_x, center_y);

    /* --export-pose in --vat mode: one v line per vertex, in the baked bounds */
    char obj[600];
    snprintf(obj, sizeof obj, "%s/pose.obj", temp_dir);
    snprintf(args, sizeof args, "--vat '%s' --clip 1 --time 0.5 --export-pose '%s'", demo_dir, obj);
    CHECK(run_skinview(args, NULL) == 0 && file_contains(obj, "7414 vertices"), "--vat --export-pose");

    /* float precision: EXR positions equal the CPU ones */
    snprintf(dir, sizeof dir, "%s/float", temp_dir);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 5 --clips Walk,3 --precision float --quiet", demo, dir);
    CHECK(run_skinview(args, out) == 0, "float bake");
    CHECK(count_file_lines(err_path) == 0, "--quiet: nothing on stderr");
    check_against_reference(dir, demo, "demo float");
    snprintf(args, sizeof args, "--vat '%s' --verify", dir);
    CHECK(run_skinview(args, out) == 0 && file_contains(out, "verify passed"), "float --vat --verify");

    /* morph targets are baked too (the same CPU path as --export-pose: morph, then skin) */
    char morph[1024];
    snprintf(morph, sizeof morph, "%s/khronos-animatedmorphcube/AnimatedMorphCube.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (test_file_exists(morph)) {
        snprintf(dir, sizeof dir, "%s/morph", temp_dir);
        snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 10 --quiet", morph, dir);
        CHECK(run_skinview(args, out) == 0, "morph-target model bake");
        check_against_reference(dir, morph, "morph cube");
    }

    /* a real FBX with several clips and meshes, forced onto 256x256 pages (without ../shared: the
     * demo's FBX, 4 clips and 7414 vertices; assimp-testmodels has no FBX with several clips) */
    char fbx[1024], fbx_dir[512];
    snprintf(fbx, sizeof fbx, "%s/quaternius-male-casual/Male_Casual.fbx", SKINVIEW_SHARED_MODELS_DIR);
    if (!test_file_exists(fbx)) snprintf(fbx, sizeof fbx, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    snprintf(fbx_dir, sizeof fbx_dir, "%s/fbx", temp_dir);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 5 --max-texture 256 --quiet", fbx, fbx_dir);
    CHECK(run_skinview(args, out) == 0, "FBX bake at --max-texture 256");
    VatManifest manifest;
    char error[512];
    if (vat_read_manifest(fbx_dir, &manifest, error, sizeof error)) {
        CHECK(manifest.layout.page_count > 1 && manifest.layout.width <= 256 && manifest.layout.page_height <= 256,
              "several pages of at most 256x256 (%d of %dx%d)", manifest.layout.page_count, manifest.layout.width,
              manifest.layout.page_height);
        CHECK(manifest.clip_count > 1, "several clips");
        vat_manifest_free(&manifest);
    } else {
        CHECK(false, "%s", error);
    }
    check_against_reference(fbx_dir, fbx, "FBX paged");
    snprintf(args, sizeof args, "--vat '%s' --verify", fbx_dir);
    CHECK(run_skinview(args, out) == 0 && file_contains(out, "verify passed"), "paged --vat --verify");
    snprintf(args, sizeof args, "--vat '%s' --clip 2 --time 0.3 --screenshot '%s' --size 200x200", fbx_dir, vat_png);
    CHECK(run_skinview(args, NULL) == 0 && foreground_pixels(vat_png) > 500, "paged --vat --screenshot");

    /* vat.json's "loop": the demo's four clips end where they start; a clip that lifts a joint
     * from one place to another (testutil's clip file) does not */
    VatManifest looped;
    char loop_error[512];
    if (vat_read_manifest(demo_dir, &looped, loop_error, sizeof loop_error)) {
        bool all_loop = looped.clip_count == 4;
        for (int c = 0; c < looped.clip_count; c++) all_loop = all_loop && looped.clips[c].loop;
        CHECK(all_loop, "the demo's clips are marked as loops");
        vat_manifest_free(&looped);
    } else {
        CHECK(false, "%s", loop_error);
    }
    char lift[600], lift_dir[600];
    snprintf(lift, sizeof lift, "%s/lift.gltf", temp_dir);
    snprintf(lift_dir, sizeof lift_dir, "%s/lift", temp_dir);
    CHECK(test_write_clips_gltf(lift, 1), "write %s", lift);
    snprintf(args, sizeof args, "'%s' --bake-vat '%s' --fps 10 --quiet", lift, lift_dir);
    CHECK(run_skinview(args, out) == 0, "bake a clip that does not loop");
    if (vat_read_manifest(lift_dir, &looped, loop_error, sizeof loop_error)) {
        CHECK(looped.clip_count == 1 && !looped.clips[0].loop, "a clip ending elsewhere is not marked as a loop");
        vat_manifest_free(&looped);
    } else {
        CHECK(false, "%s", loop_error);
    }

    check_bad_arguments(demo);
    /* check_damaged swaps in the mesh.glb of a bake with another vertex count: without ../shared
     * the paged bake above is the demo itself, so bake assimp-testmodels' huesitos for that */
    const char *other_dir = fbx_dir;
    char small_dir[512];
    if (strcmp(fbx, demo) == 0) {
        snprintf(small_dir, sizeof small_dir, "%s/small", temp_dir);
        snprintf(args, sizeof args, "'%s/FBX/huesitos.fbx' --bake-vat '%s' --fps 5 --quiet", SKINVIEW_TESTMODELS_DIR,
                 small_dir);
        CHECK(run_skinview(args, out) == 0, "huesitos bake (another vertex count)");
        other_dir = small_dir;
    }
    check_damaged(demo_dir, other_dir);
    check_interrupted(demo);

    char command[600];
    snprintf(command, sizeof command, "chmod -R u+w '%s'; rm -rf '%s'", temp_dir, temp_dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", temp_dir);
    return test_finish();
}
