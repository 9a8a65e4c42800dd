/* test_viewer_live.c — the running viewer, driven from outside like a user (X server + xdotool):
 *   - --watch: the file replaced on disk is reloaded ("skinview: reloaded NAME" on stdout); a
 *     damaged replacement is refused with one line on stderr and the viewer keeps running; a
 *     replacement that holds another model (its bounds far from the old) is framed afresh;
 *   - Ctrl+R reloads the unchanged file;
 *   - F11 makes the window cover the whole screen (its geometry, read back with xdotool);
 *   - a file dropped on the window (the XDND protocol, spoken here with Xlib as a file manager
 *     would) is opened ("skinview: opened NAME");
 *   - S writes a numbered screenshot next to the model ("skinview: saved PATH"), a real PNG;
 *   - Shift+G turns the ground shadow on: the next S screenshot has the ground darker;
 *   - a drop with Shift held adds the file's clips (issue 28), a file without clips is refused in one line;
 *   - the mesh list (U, Enter) hides a mesh: a 19-mesh OBJ dropped on the window draws fewer
 *     pixels with its first mesh hidden (two S screenshots);
 *   - paused (Space), the viewer idles: its CPU time over 2 s is a small part of what playing costs;
 *   - L opens the clip browser with an empty filter, the help and the browser never show together,
 *     Shift+S records one loop of Walk as a playable MP4 (window grabs with Xlib, the file decoded);
 *   - Q quits with exit status 0.
 * Needs a display (scripts/test.sh runs CTest under xvfb-run) and xdotool (scripts/deps.sh
 * --test); skipped (77) without them. Keys go through XTEST to the window under the pointer. */
#define _DEFAULT_SOURCE   /* usleep, kill: POSIX/XSI beyond C11 */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "stb_image.h"   /* the implementation is in skinview_io (import_material.c) */
#include "video_decode.h"
#ifdef SKINVIEW_TEST_X11
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include "testx11.h"
#endif

static char folder[] = "/tmp/skinview_viewer_live_XXXXXX";

/* Sets the file's modification time `seconds` into the future: --watch compares whole seconds. */
static void bump_mtime(const char *path, int seconds)
{
    struct timeval now, times[2];
    gettimeofday(&now, NULL);
    times[0] = times[1] = (struct timeval){now.tv_sec + seconds, 0};
    utimes(path, times);
}

static int count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[2048];
    int count = 0;
    while (fgets(line, sizeof line, f)) count += strstr(line, needle) != NULL;
    fclose(f);
    return count;
}

static int count_lines(const char *path) { return count_in_file(path, "\n"); }

/* Pixels of a PNG that differ from its top-left pixel (the background); -1 if it cannot be read. */
static long foreground_pixels(const char *path)
{
    int width = 0, height = 0, channels = 0;
    unsigned char *rgba = stbi_load(path, &width, &height, &channels, 4);
    if (!rgba) return -1;
    long count = 0;
    for (long i = 0; i < (long)width * height; i++) {
        const unsigned char *p = rgba + 4 * i;
        count += abs(p[0] - rgba[0]) + abs(p[1] - rgba[1]) + abs(p[2] - rgba[2]) > 24;
    }
    stbi_image_free(rgba);
    return count;
}

/* Pixels of PNG b darker / brighter than in PNG a (by more than 6 in r + g + b); -1 if unreadable. */
static void darker_pixels(const char *a_path, const char *b_path, long *darker, long *brighter)
{
    int wa = 0, ha = 0, wb = 0, hb = 0, channels = 0;
    unsigned char *a = stbi_load(a_path, &wa, &ha, &channels, 4), *b = stbi_load(b_path, &wb, &hb, &channels, 4);
    *darker = *brighter = -1;
    if (a && b && wa == wb && ha == hb) {
        *darker = *brighter = 0;
        for (long i = 0; i < (long)wa * ha; i++) {
            int before = a[4 * i] + a[4 * i + 1] + a[4 * i + 2], after = b[4 * i] + b[4 * i + 1] + b[4 * i + 2];
            *darker += after < before - 6;
            *brighter += after > before + 6;
        }
    }
    stbi_image_free(a);
    stbi_image_free(b);
}

/* CPU seconds (user + system) process `pid` has used so far, from /proc/PID/stat; -1 if unknown. */
static double cpu_seconds(pid_t pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1.0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *after_name = strrchr(text, ')');   /* the name may hold spaces */
    unsigned long long user = 0, system_time = 0;
    if (!after_name || sscanf(after_name + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user,
                              &system_time) != 2)
        return -1.0;
    return (double)(user + system_time) / (double)sysconf(_SC_CLK_TCK);
}

/* Polls until `path` holds `count` lines containing `needle`, up to `seconds`. */
static bool wait_for(const char *path, const char *needle, int count, double seconds)
{
    for (double waited = 0.0; waited < seconds; waited += 0.1) {
        if (count_in_file(path, needle) >= count) return true;
        usleep(100000);
    }
    return false;
}

#ifdef SKINVIEW_TEST_X11
/* Drops `path` on window `target` as an XDND (version 5) source: Enter, Position, wait for the
 * Status that accepts, Drop, answer the target's selection request with a text/uri-list, wait
 * for Finished. Returns false if the target never accepts or never asks for the data. */
static bool xdnd_drop(const char *window_id, const char *path)
{
    Display *display = XOpenDisplay(NULL);
    if (!display) return false;
    Window target = (Window)strtoul(window_id, NULL, 10), root = DefaultRootWindow(display);
    Window source = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0);
    Atom aware = XInternAtom(display, "XdndAware", False), enter = XInternAtom(display, "XdndEnter", False);
    Atom position = XInternAtom(display, "XdndPosition", False), status = XInternAtom(display, "XdndStatus", False);
    Atom drop = XInternAtom(display, "XdndDrop", False), finished = XInternAtom(display, "XdndFinished", False);
    Atom selection = XInternAtom(display, "XdndSelection", False), copy = XInternAtom(display, "XdndActionCopy", False);
    Atom uri_list = XInternAtom(display, "text/uri-list", False);
    (void)aware;
    XSetSelectionOwner(display, selection, source, CurrentTime);
    char uri[1200];
    snprintf(uri, sizeof uri, "file://%s\r\n", path);

    XClientMessageEvent message = {.type = ClientMessage, .display = display, .window = target, .format = 32};
    message.message_type = enter;
    message.data.l[0] = (long)source;
    message.data.l[1] = 5L << 24;   /* version 5, types in l[2..4] */
    message.data.l[2] = (long)uri_list;
    XSendEvent(display, target, False, NoEventMask, (XEvent *)&message);
    memset(&message.data, 0, sizeof message.data);
    message.message_type = position;
    message.data.l[0] = (long)source;
    message.data.l[2] = (40L << 16) | 40L;   /* root coordinates; the window sits at (0, 0) */
    message.data.l[3] = CurrentTime;
    message.data.l[4] = (long)copy;
    XSendEvent(display, target, False, NoEventMask, (XEvent *)&message);
    XFlush(display);

    bool accepted = false, asked = false, done = false;
    for (int waited = 0; waited < 100 && !done; waited++) {   /* up to 10 s */
        while (XPending(display)) {
            XEvent event;
            XNextEvent(display, &event);
            if (event.type == ClientMessage && event.xclient.message_type == status && !accepted) {
                accepted = event.xclient.data.l[1] & 1;
                if (!accepted) {
                    done = true;
                    break;
                }
                memset(&message.data, 0, sizeof message.data);
                message.message_type = drop;
                message.data.l[0] = (long)source;
                message.data.l[2] = CurrentTime;
                XSendEvent(display, target, False, NoEventMask, (XEvent *)&message);
                XFlush(display);
            } else if (event.type == SelectionRequest) {
                XSelectionRequestEvent *request = &event.xselectionrequest;
                XChangeProperty(display, request->requestor, request->property, request->target, 8, PropModeReplace,
                                (const unsigned char *)uri, (int)strlen(uri));
                XSelectionEvent reply = {.type = SelectionNotify, .display = display, .requestor = request->requestor,
                                         .selection = request->selection, .target = request->target,
                                         .property = request->property, .time = request->time};
                XSendEvent(display, request->requestor, False, NoEventMask, (XEvent *)&reply);
                XFlush(display);
                asked = true;
            } else if (event.type == ClientMessage && event.xclient.message_type == finished) {
                done = true;
            }
        }
        if (!done) usleep(100000);
    }
    XDestroyWindow(display, source);
    XCloseDisplay(display);
    return accepted && asked;
}

/* Share of pixels that differ (by more than 30 in r + g + b) between two grabs, inside the
 * panels' band: x in [3 %, 40 %] of the width, y in [17 %, 50 %] of the height (below the status
 * line, whose frame rate changes, above the timeline). -1 when a grab failed. */
static double panel_change(const unsigned char *a, const unsigned char *b, int width, int height)
{
    if (!a || !b) return -1.0;
    long changed = 0, total = 0;
    for (int y = height / 6; y < height / 2; y++)   /* above the aids panel (its timings change while paused) */
        for (int x = width * 3 / 100; x < width * 40 / 100; x++, total++) {
            const unsigned char *p = a + 3 * ((size_t)y * (size_t)width + (size_t)x);
            const unsigned char *q = b + 3 * ((size_t)y * (size_t)width + (size_t)x);
            changed += abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) > 30;
        }
    return total ? (double)changed / (double)total : -1.0;
}

/* Sends `key` (xdotool's name) and waits for a frame or two. */
static void press_and_wait(const char *key)
{
    char arguments[128];
    snprintf(arguments, sizeof arguments, "key %s", key);
    test_xdotool(arguments, NULL, 0);
    usleep(700000);
}

/* Issue 29 in the running window: L opens the clip browser with an empty filter (one Esc closes
 * it; with an "l" typed, Esc would only clear it); the help (H) and the browser are never on screen
 * together (L closes the help); Shift+S records one loop of Walk as NAME-rec-001.mp4, a playable
 * H.264 file with the index first. */
static void check_panels_and_recording(const char *window, const char *out)
{
    char arguments[256];
    snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
    test_xdotool(arguments, NULL, 0);
    press_and_wait("space");   /* paused: only the panels change */
    int w = 0, h = 0;
    unsigned char *plain = test_grab_window(window, &w, &h);
    press_and_wait("l");
    unsigned char *browser = test_grab_window(window, &w, &h);
    press_and_wait("Escape");
    unsigned char *closed = test_grab_window(window, &w, &h);
    press_and_wait("h");
    unsigned char *help = test_grab_window(window, &w, &h);
    press_and_wait("l");
    unsigned char *browser_after_help = test_grab_window(window, &w, &h);
    press_and_wait("Escape");
    unsigned char *closed_again = test_grab_window(window, &w, &h);
    double opened = panel_change(plain, browser, w, h), after_esc = panel_change(plain, closed, w, h);
    double help_shown = panel_change(plain, help, w, h), help_gone = panel_change(browser, browser_after_help, w, h);
    double end = panel_change(plain, closed_again, w, h);
    printf("panels (%dx%d): L changes %.0f %% of the panel band, one Esc leaves %.1f %%; H %.0f %%; L over the help "
           "differs from L alone by %.1f %%; Esc then %.1f %%\n",
           w, h, 100.0 * opened, 100.0 * after_esc, 100.0 * help_shown, 100.0 * help_gone, 100.0 * end);
    CHECK(opened > 0.3, "L opens the clip browser (%.0f %% of the band changed)", 100.0 * opened);
    CHECK(after_esc >= 0.0 && after_esc < 0.02,
          "one Esc after L closes the browser: its filter was empty (%.1f %% still differs)", 100.0 * after_esc);
    CHECK(help_shown > 0.2, "H shows the help (%.0f %%)", 100.0 * help_shown);
    CHECK(help_gone >= 0.0 && help_gone < 0.02, "L over the help: the browser alone, the help closed (%.1f %% differs)",
          100.0 * help_gone);
    CHECK(end >= 0.0 && end < 0.02, "Esc closes the browser and the help stays closed (%.1f %%)", 100.0 * end);
    free(plain);
    free(browser);
    free(closed);
    free(help);
    free(browser_after_help);
    free(closed_again);

    /* Shift+S: Walk (key 2), one loop, from the window's view and size */
    press_and_wait("2");
    press_and_wait("shift+s");
    char saved[800], path[700];
    snprintf(path, sizeof path, "%s/model-rec-001.mp4", folder);
    snprintf(saved, sizeof saved, "skinview: saved %s", path);
    CHECK(wait_for(out, saved, 1, 90.0), "Shift+S: no \"%s\" on stdout", saved);
    DecodedVideo video;
    char error[256];
    if (video_decode(path, &video, error, sizeof error)) {
        long long moov, mdat;
        mp4_box_offsets(path, &moov, &mdat);
        printf("Shift+S: %s, %s %s %dx%d, %d frames at %.3f fps, moov at %lld, mdat at %lld\n", path, video.codec,
               video.pixel_format, video.width, video.height, video.frame_count, video.frame_rate, moov, mdat);
        CHECK(strcmp(video.codec, "h264") == 0 && strcmp(video.pixel_format, "yuv420p") == 0 && video.width == 320 &&
                  video.height == 240 && video.frame_count == (int)(video.frame_rate + 0.5) && moov >= 0 && moov < mdat,
              "Shift+S: an H.264 yuv420p 320x240 file of one second of Walk, the index first");
        video_decoded_free(&video);
    } else {
        CHECK(false, "Shift+S: %s does not decode: %s", path, error);
    }
    press_and_wait("space");
}
#endif

int main(void)
{
    char probe[256];
    if (!test_have_xdotool(probe, sizeof probe)) {
        printf("skipped: needs a display and xdotool\n");
        return TEST_SKIP_CODE;
    }
    int screen_width = 0, screen_height = 0;
    CHECK(sscanf(probe, "%d %d", &screen_width, &screen_height) == 2, "display geometry: %s", probe);
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    char model[600], out[600], err[600], huesitos[600];
    snprintf(model, sizeof model, "%s/model.fbx", folder);
    snprintf(out, sizeof out, "%s/stdout.txt", folder);
    snprintf(err, sizeof err, "%s/stderr.txt", folder);
    snprintf(huesitos, sizeof huesitos, "%s/FBX/huesitos.fbx", SKINVIEW_TESTMODELS_DIR);
    CHECK(test_copy_file(SKINVIEW_SOURCE_DIR "/assets/demo.fbx", model), "copy the demo");

    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(126);
        execl(SKINVIEW_BINARY, SKINVIEW_BINARY, model, "--watch", "--size", "320x240", (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0, "fork: %s", strerror(errno));
    if (pid <= 0) return test_finish();

    /* the window, found by the viewer's process id (GLFW sets _NET_WM_PID) */
    char window[64] = "", arguments[256];
    test_find_window((int)pid, window, sizeof window, 30.0);
    CHECK(window[0] != '\0', "the viewer's window did not appear within 30 s");
    if (window[0]) {
        usleep(1500000);   /* a few frames drawn */
#ifdef SKINVIEW_TEST_X11
        check_panels_and_recording(window, out);
#endif

        /* --watch: another model written over the file */
        CHECK(test_copy_file(huesitos, model), "replace the model");
        bump_mtime(model, 10);
        CHECK(wait_for(out, "skinview: reloaded model.fbx", 1, 15.0), "--watch: no reload after the file changed");

        /* --watch: a damaged file is refused, the viewer keeps the old one and runs on */
        FILE *f = fopen(model, "wb");
        if (f) {
            fputs("Kaydara FBX Binary  \x00 this is not a model", f);
            fclose(f);
        }
        bump_mtime(model, 20);
        usleep(3000000);
        CHECK(kill(pid, 0) == 0, "the viewer survives a damaged file");
        CHECK(count_in_file(out, "reloaded") == 1, "a damaged file is not reported as reloaded");
        CHECK(count_lines(err) == 1 && count_in_file(err, "model.fbx") == 1,
              "the damaged file: one line on stderr naming it (%d lines)", count_lines(err));

        /* Ctrl+R: the file (good again, but with the same time stamp) reloaded on request */
        CHECK(test_copy_file(huesitos, model), "restore the model");
        bump_mtime(model, 20);
        snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
        test_xdotool(arguments, NULL, 0);
        usleep(300000);
        test_xdotool("key ctrl+r", NULL, 0);
        CHECK(wait_for(out, "skinview: reloaded model.fbx", 2, 10.0), "Ctrl+R: no reload");

        /* idle while paused: CPU time over 2 s, paused (once the reload notice, shown 4 s, is gone)
         * and then playing */
        test_xdotool("key space", NULL, 0);
        usleep(4500000);
        double before = cpu_seconds(pid);
        usleep(2000000);
        double paused = cpu_seconds(pid) - before;
        test_xdotool("key space", NULL, 0);
        usleep(500000);
        double resumed = cpu_seconds(pid);
        usleep(2000000);
        double playing = cpu_seconds(pid) - resumed;
        printf("CPU over 2 s: playing %.2f s, paused %.2f s\n", playing, paused);
        CHECK(before >= 0.0 && paused < 0.25 * playing && paused < 0.3,
              "paused, the viewer should idle: %.2f s of CPU in 2 s (playing: %.2f s)", paused, playing);

        /* S: a numbered screenshot next to the model */
        test_xdotool("key s", NULL, 0);
        char shot[700];
        snprintf(shot, sizeof shot, "skinview: saved %s/model-shot-001.png", folder);
        CHECK(wait_for(out, shot, 1, 10.0), "S: no \"%s\" on stdout", shot);
        FILE *png = fopen(shot + strlen("skinview: saved "), "rb");
        unsigned char magic[8] = {0};
        if (png) {
            CHECK(fread(magic, 1, 8, png) == 8, "S: the screenshot is empty");
            fclose(png);
        }
        CHECK(png && memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "S: the screenshot is not a PNG");

        /* Shift+G: the ground shadow on and off (paused, so that only the shadow differs; F first) */
        char unshadowed[700], shadowed[700];
        snprintf(unshadowed, sizeof unshadowed, "skinview: saved %s/model-shot-002.png", folder);
        snprintf(shadowed, sizeof shadowed, "skinview: saved %s/model-shot-003.png", folder);
        test_xdotool("key space", NULL, 0);
        test_xdotool("key f", NULL, 0);
        usleep(1000000);
        test_xdotool("key s", NULL, 0);
        CHECK(wait_for(out, unshadowed, 1, 10.0), "S before Shift+G");
        /* --watch put another model in the file: it was framed afresh (camera_bounds_changed), so
         * shot 001 (before F) shows about as much as shot 002 (after F) */
        long reloaded_view = foreground_pixels(shot + strlen("skinview: saved "));
        long framed_view = foreground_pixels(unshadowed + strlen("skinview: saved "));
        printf("after --watch brought another model: %ld foreground pixels, after F %ld\n", reloaded_view, framed_view);
        CHECK(framed_view > 0 && reloaded_view * 10 > framed_view * 7,
              "--watch with another model: framed afresh (%ld foreground pixels, F gives %ld)", reloaded_view, framed_view);
        test_xdotool("key shift+g", NULL, 0);
        usleep(500000);
        test_xdotool("key s", NULL, 0);
        CHECK(wait_for(out, shadowed, 1, 10.0), "S after Shift+G");
        test_xdotool("key shift+g", NULL, 0);
        test_xdotool("key space", NULL, 0);
        long darker = 0, brighter = 0;
        darker_pixels(unshadowed + strlen("skinview: saved "), shadowed + strlen("skinview: saved "), &darker, &brighter);
        printf("Shift+G: %ld pixels darker, %ld brighter\n", darker, brighter);
        CHECK(darker > 300 && brighter * 10 < darker, "Shift+G: the shadow darkens the ground (%ld darker, %ld brighter)",
              darker, brighter);

        /* F11: fullscreen, the window as large as the screen */
        test_xdotool("key F11", NULL, 0);
        usleep(1500000);
        char geometry[512] = "";
        snprintf(arguments, sizeof arguments, "getwindowgeometry %s", window);
        test_xdotool(arguments, geometry, sizeof geometry);
        const char *size = strstr(geometry, "Geometry: ");
        int width = 0, height = 0;
        if (size) sscanf(size, "Geometry: %dx%d", &width, &height);
        CHECK(width == screen_width && height == screen_height, "F11: window %dx%d, screen %dx%d", width, height,
              screen_width, screen_height);
        test_xdotool("key F11", NULL, 0);
        usleep(1000000);
        test_xdotool(arguments, geometry, sizeof geometry);
        size = strstr(geometry, "Geometry: ");
        if (size) sscanf(size, "Geometry: %dx%d", &width, &height);
        CHECK(width == 320 && height == 240, "F11 again: back to 320x240 (%dx%d)", width, height);

#ifdef SKINVIEW_TEST_X11
        /* a file dropped on the window is opened in place of the current one */
        CHECK(xdnd_drop(window, SKINVIEW_SOURCE_DIR "/assets/demo.glb"), "drag and drop: the window did not take the "
                                                                         "dropped file (XDND)");
        CHECK(wait_for(out, "skinview: opened demo.glb", 1, 15.0), "drag and drop: demo.glb was not opened");

        /* the mesh list: a copy of assimp-testmodels' 19-mesh spider, dropped, its first mesh hidden */
        char spider[700], spider_source[700], mtl[700], mtl_source[700], shot_a[800], shot_b[800];
        snprintf(spider, sizeof spider, "%s/spider.obj", folder);
        snprintf(spider_source, sizeof spider_source, "%s/OBJ/spider.obj", SKINVIEW_TESTMODELS_DIR);
        snprintf(mtl, sizeof mtl, "%s/spider.mtl", folder);
        snprintf(mtl_source, sizeof mtl_source, "%s/OBJ/spider.mtl", SKINVIEW_TESTMODELS_DIR);
        CHECK(test_copy_file(spider_source, spider) && test_copy_file(mtl_source, mtl), "copy the spider");
        CHECK(xdnd_drop(window, spider), "drop the spider");
        CHECK(wait_for(out, "skinview: opened spider.obj", 1, 15.0), "the spider was not opened");
        snprintf(shot_a, sizeof shot_a, "skinview: saved %s/spider-shot-001.png", folder);
        snprintf(shot_b, sizeof shot_b, "skinview: saved %s/spider-shot-002.png", folder);
        usleep(500000);
        test_xdotool("key s", NULL, 0);
        CHECK(wait_for(out, shot_a, 1, 10.0), "S on the spider");
        test_xdotool("key u", NULL, 0);
        usleep(300000);
        test_xdotool("key Return", NULL, 0);   /* the list opens on mesh 0: Enter hides it */
        usleep(500000);
        test_xdotool("key s", NULL, 0);
        CHECK(wait_for(out, shot_b, 1, 10.0), "S on the spider with a mesh hidden");
        test_xdotool("key u", NULL, 0);
        long all = foreground_pixels(shot_a + strlen("skinview: saved "));
        long fewer = foreground_pixels(shot_b + strlen("skinview: saved "));
        printf("spider: %ld figure pixels, %ld with its first mesh hidden\n", all, fewer);
        CHECK(all > 1000 && fewer >= 0 && fewer < all - 50, "U + Enter: hiding mesh 0 leaves fewer pixels (%ld -> %ld)",
              all, fewer);

        /* issue 28: a drop with Shift held adds the file's clips to the model instead of replacing it */
        CHECK(xdnd_drop(window, SKINVIEW_SOURCE_DIR "/assets/demo.fbx"), "drop the demo");
        CHECK(wait_for(out, "skinview: opened demo.fbx", 1, 15.0), "the demo was not opened");
        snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
        test_xdotool(arguments, NULL, 0);
        test_xdotool("keydown shift", NULL, 0);
        usleep(300000);
        CHECK(xdnd_drop(window, SKINVIEW_SOURCE_DIR "/assets/demo.glb"), "Shift-drop the demo as glTF");
        bool added = wait_for(out, "skinview: added the clips of demo.glb to demo.fbx", 1, 15.0);
        CHECK(added, "Shift + drop: the clips of demo.glb were not added to demo.fbx");
        int errors_before = count_lines(err);
        CHECK(xdnd_drop(window, spider), "Shift-drop the spider");   /* no clips: refused, the demo stays */
        CHECK(wait_for(err, "spider.obj: no clips to add", 1, 30.0), "the Shift-drop of spider.obj was not refused");
        usleep(1000000);   /* nothing more comes */
        test_xdotool("keyup shift", NULL, 0);
        CHECK(kill(pid, 0) == 0, "the viewer survives a refused Shift-drop");
        CHECK(count_in_file(out, "opened spider.obj") == 1 && count_in_file(out, "added the clips of spider") == 0,
              "a Shift-drop of a file without clips replaced the model or was reported added");
        CHECK(count_lines(err) == errors_before + 1 && count_in_file(err, "spider.obj: no clips to add") == 1,
              "the refused Shift-drop: one line on stderr (%d new)", count_lines(err) - errors_before);
        printf("Shift-drop: demo.glb's clips added to demo.fbx; spider.obj refused (%d line)\n",
               count_lines(err) - errors_before);
#else
        printf("drag and drop: not checked (built without Xlib headers, libx11-dev)\n");
#endif

        /* Q: quit */
        snprintf(arguments, sizeof arguments, "mousemove --window %s 40 40", window);
        test_xdotool(arguments, NULL, 0);
        test_xdotool("key q", NULL, 0);
    }
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 100 && !ended; i++) {
        ended = waitpid(pid, &status, WNOHANG) == pid;
        if (!ended) usleep(100000);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    CHECK(ended && WIFEXITED(status) && WEXITSTATUS(status) == 0, "Q: the viewer quits with status 0 (0x%x)", status);
    if (test_failed == 0) test_remove_folder(folder);
    return test_finish();
}
