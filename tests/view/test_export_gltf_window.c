/* test_export_gltf_window — --check-export from the window: Ctrl+E in the running viewer (X server + xdotool,
 * as view_live drives it) writes NAME-export-001.glb next to the model, reads it back and poses every clip
 * against the model; the worst distance per clip goes to stdout ("skinview: exported PATH: worst distance /
 * size: rest 0.0e+00, Idle 1.2e-07, ... (ok, within 1e-04)") and to the message line. Checked: the line, every
 * number in it <= 1e-4, one entry per clip of the demo, the file reads back (--info), the message line shows it
 * (the window's pixels at the bottom left change, grabbed with Xlib, paused); a second Ctrl+E writes -002.
 * Then a second viewer, started with --skinning dq --max-influences 8 --compress meshopt: its Ctrl+E export uses them
 * (the window's method as corrective morph targets, the command line's export options) and is byte for byte the
 * GLB the command line writes with the same options (skinview model.fbx --skinning dq --max-influences 8 --compress
 * meshopt --export-gltf), checked within 1e-4 against the demo skinned by DQS.
 * Skipped (77) without a display or xdotool. */
#define _DEFAULT_SOURCE   /* usleep, kill */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef SKINVIEW_TEST_X11
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include "testx11.h"
#endif

static char folder[] = "/tmp/skinview_export_window_XXXXXX";

/* the first line of `path` holding `needle` into line[], waiting up to `seconds` */
static bool wait_for_line(const char *path, const char *needle, char *line, size_t line_size, double seconds)
{
    for (double waited = 0.0; waited < seconds; waited += 0.1) {
        FILE *f = fopen(path, "r");
        while (f && fgets(line, (int)line_size, f))
            if (strstr(line, needle)) {
                fclose(f);
                return true;
            }
        if (f) fclose(f);
        usleep(100000);
    }
    return false;
}

#ifdef SKINVIEW_TEST_X11
/* the grab as a binary PPM (SKINVIEW_KEEP_TEST_FILES: to look at) */
static void write_ppm(const char *path, const unsigned char *rgb, int width, int height)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fprintf(f, "P6\n%d %d\n255\n", width, height);
    fwrite(rgb, 1, (size_t)width * (size_t)height * 3, f);
    fclose(f);
}

/* pixels that differ (> 30 in r+g+b) between two grabs */
/* Waits up to 10 s for the viewer `pid` to end after Q; kills it and fails when it does not. */
static void wait_for_quit(pid_t pid, const char *which)
{
    int status = 0;
    for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; i++) usleep(100000);
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        CHECK(false, "Q did not quit %s", which);
    }
}

/* The aids panel (K: method, CPU per frame; shown: ...) stands above the timeline: in the timeline's text row (just
 * above the first row of the bar's progress colour), right of the timeline's own text (x > 60 % of the width), no
 * white text. Before, the panel sat at the window's bottom and its first line ran through that row. Returns the
 * white pixels found there, -1 when no bar was found. */
static long white_in_timeline_row(const unsigned char *rgb, int width, int height)
{
    int bar = -1;
    for (int y = height / 2; y < height && bar < 0; y++) {
        int blue = 0;
        for (int x = 0; x < width; x++) {
            const unsigned char *p = rgb + 3 * ((size_t)y * (size_t)width + (size_t)x);
            blue += abs(p[0] - 90) + abs(p[1] - 160) + abs(p[2] - 240) < 40;
        }
        if (blue > 20) bar = y;
    }
    if (bar < 0) return -1;
    long white = 0;
    for (int y = bar - 18 > 0 ? bar - 18 : 0; y < bar - 1; y++)
        for (int x = width * 6 / 10; x < width; x++) {
            const unsigned char *p = rgb + 3 * ((size_t)y * (size_t)width + (size_t)x);
            white += p[0] > 200 && p[1] > 200 && p[2] > 200;
        }
    return white;
}

/* How many pixels differ between two grabs, and the rows the first and last of them in the window's lower three
 * quarters are on (the status line at the top changes with the frame rate it shows). */
static long changed_pixels(const unsigned char *a, const unsigned char *b, int width, int height, int *first_row,
                           int *last_row)
{
    long changed = 0;
    *first_row = height, *last_row = -1;
    for (long i = 0; a && b && i < (long)width * height; i++)
        if (abs(a[3 * i] - b[3 * i]) + abs(a[3 * i + 1] - b[3 * i + 1]) + abs(a[3 * i + 2] - b[3 * i + 2]) > 30) {
            changed++;
            int row = (int)(i / width);
            if (row < height / 4) continue;
            if (row < *first_row) *first_row = row;
            if (row > *last_row) *last_row = row;
        }
    return changed;
}
#endif

/* the whole file into a malloc'ed buffer (*size bytes), NULL when it cannot be read */
static unsigned char *read_all(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size + 1);
    if (bytes && fread(bytes, 1, (size_t)*size, f) != (size_t)*size) free(bytes), bytes = NULL;
    fclose(f);
    return bytes;
}

/* The second viewer: --skinning dq --max-influences 8 --compress meshopt, one Ctrl+E, its GLB against the command
 * line's with the same options. */
static void window_with_export_options(const char *model, const char *out, const char *err)
{
    const char *options[] = {"--skinning", "dq", "--max-influences", "8", "--compress", "meshopt"};
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(126);
        execl(SKINVIEW_BINARY, SKINVIEW_BINARY, model, "--size", "640x360", options[0], options[1], options[2], options[3],
              options[4], options[5], (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0, "fork: %s", strerror(errno));
    if (pid <= 0) return;
    char window[64] = "", arguments[256], line[4096] = "", expected[800], command[4096];
    test_find_window((int)pid, window, sizeof window, 30.0);
    CHECK(window[0] != '\0', "the second viewer's window did not appear within 30 s");
    if (window[0]) {
        usleep(1500000);
        snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
        test_xdotool(arguments, NULL, 0);
        test_xdotool("key ctrl+e", NULL, 0);
        snprintf(expected, sizeof expected, "skinview: exported %s/model-export-003.glb: ", folder);
        bool exported = wait_for_line(out, expected, line, sizeof line, 180.0);
        CHECK(exported, "Ctrl+E (dq): no \"%s\" on stdout", expected);
        if (exported) {
            printf("Ctrl+E with --skinning dq --max-influences 8 --compress meshopt: %s", line);
            CHECK(strstr(line, "(ok, within 1e-04)") != NULL, "the DQ export's check: %s", line);
            char window_glb[800], cli_glb[800];
            snprintf(window_glb, sizeof window_glb, "%s/model-export-003.glb", folder);
            snprintf(cli_glb, sizeof cli_glb, "%s/cli.glb", folder);
            snprintf(command, sizeof command, "'%s' '%s' %s %s %s %s %s %s --export-gltf '%s' --quiet 2>&1", SKINVIEW_BINARY,
                     model, options[0], options[1], options[2], options[3], options[4], options[5], cli_glb);
            CHECK(system(command) == 0, "the command line's export failed");
            long window_size = 0, cli_size = 0;
            unsigned char *a = read_all(window_glb, &window_size), *b = read_all(cli_glb, &cli_size);
            bool same = a && b && window_size == cli_size && memcmp(a, b, (size_t)cli_size) == 0;
            printf("window GLB %ld bytes, command line GLB %ld bytes: %s\n", window_size, cli_size,
                   same ? "the same bytes" : "different");
            CHECK(same, "the window's export (%ld bytes) is not the command line's (%ld bytes)", window_size, cli_size);
            CHECK(a && strstr((const char *)a + 20, "skinview_dq_") && strstr((const char *)a + 20, "EXT_meshopt_compression"),
                  "the window's GLB has no corrective targets or no meshopt");
            free(a), free(b);
        }
        test_xdotool("key q", NULL, 0);
    }
    wait_for_quit(pid, "the second viewer");
}

int main(void)
{
    char probe[256];
    if (!test_have_xdotool(probe, sizeof probe)) {
        printf("skipped: needs a display and xdotool\n");
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    char model[600], out[600], err[600], command[2048], copy[2048];
    snprintf(model, sizeof model, "%s/model.fbx", folder);
    snprintf(out, sizeof out, "%s/stdout.txt", folder);
    snprintf(err, sizeof err, "%s/stderr.txt", folder);
    snprintf(copy, sizeof copy, "cp '%s/assets/demo.fbx' '%s'", SKINVIEW_SOURCE_DIR, model);
    CHECK(system(copy) == 0, "copy the demo");
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(126);
        execl(SKINVIEW_BINARY, SKINVIEW_BINARY, model, "--size", "640x360", (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0, "fork: %s", strerror(errno));
    if (pid <= 0) return test_finish();
    char window[64] = "", arguments[256];
    test_find_window((int)pid, window, sizeof window, 30.0);
    CHECK(window[0] != '\0', "the viewer's window did not appear within 30 s");
    if (window[0]) {
        usleep(1500000);
        snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
        test_xdotool(arguments, NULL, 0);
        test_xdotool("key space", NULL, 0);   /* paused: only the message line changes */
        usleep(700000);
#ifdef SKINVIEW_TEST_X11
        int w = 0, h = 0;
        unsigned char *before = test_grab_window(window, &w, &h);
        long white = before ? white_in_timeline_row(before, w, h) : -1;
        printf("white pixels in the timeline's text row right of its text: %ld\n", white);
        CHECK(white == 0, "the aids panel runs through the timeline's text row (%ld white pixels; -1: no bar found)", white);
#endif
        test_xdotool("key ctrl+e", NULL, 0);
        char line[4096] = "", expected[800];
        snprintf(expected, sizeof expected, "skinview: exported %s/model-export-001.glb: ", folder);
        bool exported = wait_for_line(out, expected, line, sizeof line, 120.0);
        CHECK(exported, "Ctrl+E: no \"%s\" on stdout", expected);
        if (exported) {
            printf("Ctrl+E: %s", line);
            /* "worst distance / size: rest 0.0e+00, Idle 1.2e-07, Walk ..., Run ... (ok, within 1e-04)" */
            const char *list = strstr(line, "size: ");
            int entries = 0;
            double worst = 0;
            for (const char *c = list ? list + 6 : NULL; c && *c && *c != '(';) {
                const char *space = strchr(c, ' ');
                if (!space) break;
                char *end;
                double value = strtod(space + 1, &end);
                if (end == space + 1) break;
                entries++;
                if (!(value <= worst)) worst = value;
                c = end;
                while (*c == ',' || *c == ' ') c++;
            }
            CHECK(entries == 1 + 4, "the rest pose and the demo's 4 clips expected, %d entries", entries);
            CHECK(worst <= 1e-4 && strstr(line, "(ok, within 1e-04)"), "worst %.3g, verdict: %s", worst, line);
            snprintf(command, sizeof command, "'%s' '%s/model-export-001.glb' --info >/dev/null 2>&1", SKINVIEW_BINARY,
                     folder);
            CHECK(system(command) == 0, "the exported GLB does not read back");
        }
#ifdef SKINVIEW_TEST_X11
        usleep(700000);
        unsigned char *after = test_grab_window(window, &w, &h);
        int first_row = 0, last_row = 0;
        long changed = changed_pixels(before, after, w, h, &first_row, &last_row);
        printf("the message line: %ld of %d pixels changed (%dx%d), rows %d..%d\n", changed, w * h, w, h, first_row,
               last_row);
        CHECK(before && after && changed > 200, "Ctrl+E: the window shows no message (%ld pixels changed)", changed);
        /* the message (path, five numbers, verdict) is wider than 640 px: wrapped to two rows or more of the
         * window's text (a 360-px window's HUD type is 13 px a row or more), not one row cut with "..." */
        CHECK(last_row - first_row + 1 >= 2 * 13, "the message takes %d pixel rows: one line, cut", last_row - first_row + 1);
        if (getenv("SKINVIEW_KEEP_TEST_FILES") && after) {
            char ppm[700];
            snprintf(ppm, sizeof ppm, "%s/window-after-ctrl-e.ppm", folder);
            write_ppm(ppm, after, w, h);
            printf("kept %s\n", ppm);
        }
        free(before), free(after);
#endif
        test_xdotool("key ctrl+e", NULL, 0);   /* the next name */
        snprintf(expected, sizeof expected, "skinview: exported %s/model-export-002.glb: ", folder);
        CHECK(wait_for_line(out, expected, line, sizeof line, 120.0), "a second Ctrl+E: no \"%s\"", expected);
        test_xdotool("key q", NULL, 0);
    }
    wait_for_quit(pid, "the viewer");
    window_with_export_options(model, out, err);
    if (!getenv("SKINVIEW_KEEP_TEST_FILES")) {
        snprintf(command, sizeof command, "rm -rf '%s'", folder);
        if (system(command) != 0) printf("could not remove %s\n", folder);
    }
    return test_finish();
}
