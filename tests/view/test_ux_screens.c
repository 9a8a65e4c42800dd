/* test_ux_screens.c — what the viewer shows, through `skinview --screenshot`:
 *   framing: at start (the first clip, its first frame, the three-quarter front view) every
 *            test model fills >= 60 % of the window along its limiting side (the height for
 *            anything taller than the window's shape);
 *   HUD:     --show-browser draws the clip list and the timeline (pixel statistics), and the
 *            status line stays inside small, tall and wide windows.
 * Prints the measured fill of every model. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char folder[] = "/tmp/skinview-test-ux-XXXXXX";
static const unsigned char background[3] = {46, 51, 59};   /* the viewer's clear colour, sRGB */
static const unsigned char progress[3] = {90, 160, 240};   /* the timeline's progress colour (hud.c) */

typedef struct Image {
    int width, height;
    unsigned char *rgba;
} Image;

static Image shoot(const char *model_path, const char *extra, const char *name, int width, int height)
{
    Image image = {0, 0, NULL};
    char path[512], command[4096], output[4096];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(command, sizeof command, "'%s' '%s' --screenshot '%s' --size %dx%d %s 2>&1", SKINVIEW_BINARY, model_path,
             path, width, height, extra);
    int code = test_run_capture(command, output, sizeof output);
    CHECK(code == 0, "%s: exit %d: %s", command, code, output);
    if (code != 0) return image;
    int channels = 0;
    image.rgba = stbi_load(path, &image.width, &image.height, &channels, 4);
    CHECK(image.rgba && image.width == width && image.height == height, "%s decodes at %dx%d", path, width, height);
    return image;
}

static bool near_color(const unsigned char *p, const unsigned char c[3], int tolerance)
{
    for (int i = 0; i < 3; i++)
        if (abs((int)p[i] - (int)c[i]) > tolerance) return false;
    return true;
}

/* Rows and columns that hold any pixel other than the background, grown into box[4] =
 * {top, bottom, left, right} (start it at {height, -1, width, -1}). */
static void grow_extent(const Image *image, int box[4])
{
    int top = box[0], bottom = box[1], left = box[2], right = box[3];
    for (int y = 0; y < image->height; y++)
        for (int x = 0; x < image->width; x++)
            if (!near_color(image->rgba + 4 * ((size_t)y * image->width + x), background, 6)) {
                if (y < top) top = y;
                if (y > bottom) bottom = y;
                if (x < left) left = x;
                if (x > right) right = x;
            }
    box[0] = top, box[1] = bottom, box[2] = left, box[3] = right;
}

/* Duration of clip 0 from --info --json ("duration": first number after it), or -1. */
static double first_clip_duration(const char *model_path)
{
    char command[2048], output[65536];
    snprintf(command, sizeof command, "'%s' '%s' --info --json 2>/dev/null", SKINVIEW_BINARY, model_path);
    if (test_run_capture(command, output, sizeof output) != 0) return -1.0;
    const char *clips = strstr(output, "\"clips\"");
    const char *at = clips ? strstr(clips, "\"duration\"") : NULL;
    return at ? atof(strchr(at, ':') + 1) : -1.0;
}

static void test_framing(void)
{
    TestModel models[64];
    int count = test_present_skinned_models(models, 63);   /* one slot left for the demo */
    /* the bundled demo, a character facing +Z */
    snprintf(models[count].path, sizeof models[count].path, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    count++;
    const int width = 1280, height = 720;   /* the window's default size */
    double worst = 1.0;
    for (int i = 0; i < count; i++) {
        /* ufbx-dcc holds transform test scenes (a cube on a path, pivoted boxes), not characters:
         * a small object travelling the whole clip need not fill the frame (io_fbx_dcc checks
         * their poses) */
        if (strstr(models[i].path, "/ufbx-dcc/")) continue;
        char name[32];
        snprintf(name, sizeof name, "frame%02d", i);
        Image image = shoot(models[i].path, "--no-grid", name, width, height);
        if (!image.rgba) continue;
        int box[4] = {height, -1, width, -1};
        grow_extent(&image, box);
        stbi_image_free(image.rgba);
        double fill_h = (double)(box[1] - box[0] + 1) / height, fill_w = (double)(box[3] - box[2] + 1) / width;
        const char *over = "first frame";
        /* The camera frames the clip's bounds (8 times over it): a clip that travels or
         * reaches out fills them only over its whole length. */
        double duration = fill_h < 0.6 && fill_w < 0.6 ? first_clip_duration(models[i].path) : -1.0;
        for (int k = 1; duration > 0.0 && k < 8; k++) {
            char extra[64];
            snprintf(extra, sizeof extra, "--no-grid --time %.6f", duration * k / 7.0);
            snprintf(name, sizeof name, "frame%02d-%d", i, k);
            Image more = shoot(models[i].path, extra, name, width, height);
            if (more.rgba) grow_extent(&more, box);
            stbi_image_free(more.rgba);
            fill_h = (double)(box[1] - box[0] + 1) / height;
            fill_w = (double)(box[3] - box[2] + 1) / width;
            over = "the clip's 8 times";
        }
        /* the limiting side: a model wider than the window's shape fills the width instead */
        double fill = fill_h > fill_w ? fill_h : fill_w;
        printf("framing %-70s height %5.1f %%  width %5.1f %%  (%s)\n", models[i].path, 100.0 * fill_h,
               100.0 * fill_w, over);
        CHECK(fill >= 0.6, "%s fills %.1f %% of the height, %.1f %% of the width (>= 60 %% wanted)", models[i].path,
              100.0 * fill_h, 100.0 * fill_w);
        CHECK(fill_h < 1.0 || fill_w < 1.0, "%s: the model is not cut off on both sides", models[i].path);
        if (fill < worst) worst = fill;
    }
    printf("framing: worst fill %.1f %% over %d models\n", 100.0 * worst, count);
}

/* Pixels of `color` inside the rectangle. */
static int count_color(const Image *image, int x0, int y0, int x1, int y1, const unsigned char color[3], int tolerance)
{
    int n = 0;
    for (int y = y0; y < y1 && y < image->height; y++)
        for (int x = x0; x < x1 && x < image->width; x++)
            n += near_color(image->rgba + 4 * ((size_t)y * image->width + x), color, tolerance);
    return n;
}

/* Share of pixels in the rectangle that differ between two images. */
static double changed(const Image *a, const Image *b, int x0, int y0, int x1, int y1)
{
    int n = 0, total = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++, total++)
            n += !near_color(a->rgba + 4 * ((size_t)y * a->width + x), b->rgba + 4 * ((size_t)y * b->width + x), 10);
    return total ? (double)n / total : 0.0;
}

static void test_hud(const char *model_path, int width, int height, const char *label)
{
    char name[64];
    snprintf(name, sizeof name, "plain-%s", label);
    Image plain = shoot(model_path, "--time 0.3", name, width, height);
    snprintf(name, sizeof name, "browser-%s", label);
    Image browser = shoot(model_path, "--time 0.3 --show-browser", name, width, height);
    snprintf(name, sizeof name, "hud-%s", label);
    Image hud = shoot(model_path, "--time 0.3 --show-hud", name, width, height);
    if (!plain.rgba || !browser.rgba || !hud.rgba) goto done;

    /* the timeline: progress-coloured pixels in the bottom band, left of the middle (t = 0.3 s) */
    int band = height / 8;
    int blue = count_color(&browser, 0, height - band, width, height, progress, 12);
    int blue_plain = count_color(&plain, 0, height - band, width, height, progress, 12);
    printf("%s: timeline progress pixels %d (plain screenshot %d)\n", label, blue, blue_plain);
    CHECK(blue > width / 40 && blue_plain == 0, "%s: the timeline's progress bar shows (%d pixels)", label, blue);
    /* the bar spans the width: its grey track reaches past 90 % of it */
    int bar_right = 0;
    for (int y = height - band; y < height; y++)
        for (int x = 0; x < width; x++) {
            const unsigned char *p = browser.rgba + 4 * ((size_t)y * width + x);
            if (near_color(p, (const unsigned char[3]){70, 76, 86}, 20) && x > bar_right) bar_right = x;
        }
    CHECK(bar_right > width * 9 / 10, "%s: the timeline reaches x = %d of %d", label, bar_right, width);

    /* the clip list: the left panel differs from the plain picture over most of its area */
    double list_change = changed(&plain, &browser, width / 50, height / 6, width * 4 / 10, height * 6 / 10);
    double list_change_hud = changed(&plain, &hud, width / 50, height / 6, width * 4 / 10, height * 6 / 10);
    printf("%s: clip list area changed %.0f %% with --show-browser, %.0f %% with --show-hud\n", label,
           100.0 * list_change, 100.0 * list_change_hud);
    CHECK(list_change > 0.5, "%s: the clip list covers its area (%.0f %% changed)", label, 100.0 * list_change);
    CHECK(list_change_hud < list_change / 2, "%s: --show-hud alone shows no list", label);
    /* text in the list: bright pixels (near white) inside it, below the status line (a short list,
     * like the demo's 4 clips, sits at the top of the panel) */
    int bright = count_color(&browser, 0, height / 20 + 4, width * 4 / 10, height * 6 / 10,
                             (const unsigned char[3]){235, 238, 242}, 40);
    CHECK(bright > 20, "%s: clip names are written in the list (%d bright pixels)", label, bright);

    /* the status line stays inside the window: its panel ends before the right edge */
    int status_right = 0;
    for (int y = 0; y < height / 20 + 4; y++)
        for (int x = 0; x < width; x++)
            if (changed(&plain, &hud, x, y, x + 1, y + 1) > 0.0 && x > status_right) status_right = x;
    printf("%s: status line ends at x = %d of %d\n", label, status_right, width);
    CHECK(status_right > 0 && status_right < width - 2, "%s: the status line fits (ends at %d of %d)", label,
          status_right, width);
done:
    stbi_image_free(plain.rgba);
    stbi_image_free(browser.rgba);
    stbi_image_free(hud.rgba);
}

/* Issue 29: the help (--show-help, key H) fits the window: every changed pixel lies between the
 * status line and the timeline's text row (found from the --show-hud picture: its lowest band
 * that differs from the plain one), in columns when the rows need them; and it never covers the
 * clip browser (--show-browser --show-help draws the browser alone). */
static void test_help_fit(const char *model_path, int width, int height, bool with_browser)
{
    char name[64], extra[128];
    snprintf(name, sizeof name, "help-plain-%dx%d", width, height);
    Image plain = shoot(model_path, "--time 0.3", name, width, height);
    snprintf(name, sizeof name, "help-hud-%dx%d", width, height);
    Image hud = shoot(model_path, "--time 0.3 --show-hud", name, width, height);
    snprintf(name, sizeof name, "help-%dx%d", width, height);
    Image help = shoot(model_path, "--time 0.3 --show-help", name, width, height);
    Image both = {0, 0, NULL}, browser = {0, 0, NULL};   /* the overlap case at one size: shots take time */
    if (with_browser) {
        snprintf(name, sizeof name, "help-browser-%dx%d", width, height);
        snprintf(extra, sizeof extra, "--time 0.3 --show-browser --show-help");
        both = shoot(model_path, extra, name, width, height);
        snprintf(name, sizeof name, "browser-only-%dx%d", width, height);
        browser = shoot(model_path, "--time 0.3 --show-browser", name, width, height);
    }
    if (!plain.rgba || !hud.rgba || !help.rgba || (with_browser && (!both.rgba || !browser.rgba))) goto done;
    /* the timeline's text row: the top of the HUD's changes in the bottom fifth */
    int timeline_top = height;
    for (int y = height * 4 / 5; y < height && timeline_top == height; y++)
        if (changed(&plain, &hud, 0, y, width, y + 1) > 0.0) timeline_top = y;
    int help_top = height, help_bottom = -1, help_right = -1, columns = 0;
    for (int y = 0; y < height; y++)
        if (changed(&hud, &help, 0, y, width, y + 1) > 0.0) {
            if (y < help_top) help_top = y;
            help_bottom = y;
        }
    /* columns: runs of x with changes along the middle of the panel */
    bool in_run = false;
    for (int x = 0; x < width; x++) {
        bool any = help_bottom > help_top && changed(&hud, &help, x, help_top, x + 1, help_bottom + 1) > 0.0;
        if (any && !in_run) columns++;
        if (any) help_right = x;
        in_run = any;
    }
    double overlap = with_browser ? changed(&browser, &both, 0, 0, width, height) : 0.0;
    printf("help at %dx%d: rows %d..%d, timeline text from %d, %d column(s), right edge %d; with the browser %.2f %% "
           "differs from the browser alone\n",
           width, height, help_top, help_bottom, timeline_top, columns, help_right, 100.0 * overlap);
    CHECK(help_bottom > help_top && help_bottom < timeline_top,
          "%dx%d: the help (rows %d..%d) ends above the timeline (%d)", width, height, help_top, help_bottom, timeline_top);
    CHECK(help_right < width - 2, "%dx%d: the help ends inside the window (x %d)", width, height, help_right);
    CHECK(columns >= 2, "%dx%d: the rows need two columns at this height (%d)", width, height, columns);
    CHECK(!with_browser || overlap < 0.001, "%dx%d: the help is not drawn over the browser (%.2f %% differs)", width, height,
          100.0 * overlap);
done:
    stbi_image_free(plain.rgba);
    stbi_image_free(hud.rgba);
    stbi_image_free(help.rgba);
    stbi_image_free(both.rgba);
    stbi_image_free(browser.rgba);
}

/* A file with 76 clips (written here): --info lists them all from [0], and the clip list of a
 * --show-browser screenshot scrolls to the current clip, its row highlighted, at the top for
 * clip 0 and further down for clips 40 and 75 (without scrolling they would be off the list). */
static void test_many_clips(void)
{
    char path[600], command[1200], output[16384];
    snprintf(path, sizeof path, "%s/many_clips.gltf", folder);
    CHECK(test_write_clips_gltf(path, 76), "write %s", path);
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, path);
    CHECK(test_run_capture(command, output, sizeof output) == 0, "--info on 76 clips: %s", output);
    CHECK(strstr(output, "clips: 76") && strstr(output, "[0] clip_00") && strstr(output, "[40] clip_40") &&
              strstr(output, "[75] clip_75"),
          "--info lists the 76 clips from [0]");
    const unsigned char highlight[3] = {56, 101, 174};   /* the selected row's bar */
    const int width = 480, height = 400, clips[3] = {0, 40, 75};
    float row_y[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        char extra[64], name[32];
        snprintf(extra, sizeof extra, "--clip %d --show-browser", clips[i]);
        snprintf(name, sizeof name, "many-%d", clips[i]);
        Image image = shoot(path, extra, name, width, height);
        if (!image.rgba) continue;
        long sum_y = 0, count = 0;
        for (int y = height / 20 + 4; y < height * 9 / 10; y++)
            for (int x = 0; x < width * 6 / 10; x++)
                if (near_color(image.rgba + 4 * ((size_t)y * width + x), highlight, 12)) {
                    sum_y += y;
                    count++;
                }
        CHECK(count > 1000, "--clip %d: the selected row is highlighted in the list (%ld pixels)", clips[i], count);
        row_y[i] = count > 0 ? (float)sum_y / (float)count : 0.0f;
        stbi_image_free(image.rgba);
    }
    printf("76 clips: the highlighted row at y = %.0f, %.0f, %.0f for clips 0, 40, 75\n", row_y[0], row_y[1], row_y[2]);
    CHECK(row_y[0] > 0.0f && row_y[0] < row_y[1] && row_y[0] < row_y[2], "clip 0's row is at the top of the list");
}

int main(void)
{
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    test_framing();
    char demo[1024], wizard[1024];
    snprintf(demo, sizeof demo, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    snprintf(wizard, sizeof wizard, "%s/quaternius-wizard/Wizard.glb", SKINVIEW_SHARED_MODELS_DIR);
    const char *many = test_file_exists(wizard) ? wizard : demo;   /* 11 clips when the shared models exist */
    test_hud(many, 1280, 720, "1280x720");
    test_hud(many, 320, 900, "320x900");
    test_hud(many, 1600, 400, "1600x400");
    test_hud(demo, 640, 480, "demo-640x480");
    test_help_fit(demo, 1280, 720, true);
    test_help_fit(demo, 800, 600, false);
    test_many_clips();
    if (test_failed == 0) test_remove_folder(folder);
    return test_finish();
}
