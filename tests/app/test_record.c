/* test_record.c — `skinview --record`, read back independently (video_decode.c: libavformat /
 * libavcodec / libswscale, not src/io/video.c):
 *   MP4:  H.264, yuv420p, the size and frame count asked, 24 fps, the index (moov) before the
 *         media data (mdat: +faststart); frames against `--screenshot` of the same time: PSNR;
 *   WebM: VP9, yuv420p, the same checks;
 *   GIF:  the frame count and size, the last frame's time, frames against --screenshot within a
 *         palette error bound;
 *   PNG frames: identical to --screenshot; a ping-pong recording comes back the same way (frame
 *         24 + k = frame 24 - k), a reverse one (--speed -1) runs from the end;
 *   bad use: an unknown extension, a folder that cannot be written, an odd size for yuv420p, a GIF
 *         faster than 50 fps: one line on stderr, a non-zero exit, nothing left in the folder.
 * The demo's Walk (1 s) at 160x120, 24 fps: 24 frames. Prints sizes, times and differences. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#include "testutil.h"
#include "video_decode.h"

#include "stb_image.h"   /* the implementation is in skinview_io (import_material.c) */

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define WIDTH 160
#define HEIGHT 120
#define FPS 24
#define FRAMES 24   /* Walk lasts 1 s */

static char folder[] = "/tmp/skinview-test-record-XXXXXX";
static char demo[1024];

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs skinview with `arguments`; returns the exit code, stdout + stderr in out. */
static int skinview(const char *arguments, char *out, size_t out_size)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' %s 2>&1", SKINVIEW_BINARY, arguments);
    return test_run_capture(command, out, out_size);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A --screenshot of the demo's Walk at `time`, as RGBA (free with stbi_image_free). */
static unsigned char *screenshot(double time, const char *name)
{
    char path[600], arguments[3000], out[4096];
    snprintf(path, sizeof path, "%s/%s.png", folder, name);
    snprintf(arguments, sizeof arguments, "'%s' --clip Walk --time %.9f --size %dx%d --screenshot '%s'", demo, time,
             WIDTH, HEIGHT, path);
    int code = skinview(arguments, out, sizeof out);
    CHECK(code == 0, "--screenshot at %g: exit %d: %s", time, code, out);
    int w = 0, h = 0, channels = 0;
    unsigned char *rgba = code == 0 ? stbi_load(path, &w, &h, &channels, 4) : NULL;
    CHECK(rgba && w == WIDTH && h == HEIGHT, "%s decodes at %dx%d", path, WIDTH, HEIGHT);
    return rgba;
}

/* Records the demo's Walk into `name` with `extra` options; returns the seconds it took (-1 on failure). */
static double record(const char *name, const char *extra)
{
    char path[600], arguments[2000], out[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    snprintf(arguments, sizeof arguments, "'%s' --clip Walk --size %dx%d --fps %d --record '%s' %s", demo, WIDTH, HEIGHT,
             FPS, path, extra);
    double start = now_seconds();
    int code = skinview(arguments, out, sizeof out);
    double seconds = now_seconds() - start;
    CHECK(code == 0, "--record %s %s: exit %d: %s", name, extra, code, out);
    printf("%s", out);
    return code == 0 ? seconds : -1.0;
}

/* The three containers: decoded, counted, compared with screenshots at frames 0, 7 and 17. */
static void test_container(const char *name, const char *codec, double min_psnr, double max_mean)
{
    double seconds = record(name, "");
    if (seconds < 0.0) return;
    char path[600], error[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    DecodedVideo video;
    bool decoded = video_decode(path, &video, error, sizeof error);
    CHECK(decoded, "%s: %s", name, error);
    if (!decoded) return;
    printf("%s: %ld bytes, %s in %s, %s, %dx%d, %d frames, %.3f fps, last frame at %.3f s; whole run %.2f s "
           "(%.1f ms a frame with start-up)\n",
           name, file_size(path), video.codec, video.container, video.pixel_format, video.width, video.height,
           video.frame_count, video.frame_rate, video.last_time, seconds, 1000.0 * seconds / FRAMES);
    CHECK(strcmp(video.codec, codec) == 0, "%s: codec %s, %s expected", name, video.codec, codec);
    CHECK(video.width == WIDTH && video.height == HEIGHT, "%s: %dx%d", name, video.width, video.height);
    CHECK(video.frame_count == FRAMES, "%s: %d frames, %d expected", name, video.frame_count, FRAMES);
    CHECK(fabs(video.last_time - (FRAMES - 1.0) / FPS) < 0.006, "%s: the last frame at %.4f s, %.4f expected", name,
          video.last_time, (FRAMES - 1.0) / FPS);
    if (strcmp(codec, "gif") != 0) {
        CHECK(strcmp(video.pixel_format, "yuv420p") == 0, "%s: pixel format %s (yuv420p plays in browsers)", name,
              video.pixel_format);
        CHECK(fabs(video.frame_rate - FPS) < 1e-6, "%s: %.4f fps, %d expected", name, video.frame_rate, FPS);
    }
    if (strstr(name, ".mp4")) {
        long long moov, mdat;
        mp4_box_offsets(path, &moov, &mdat);
        printf("%s: moov at %lld, mdat at %lld\n", name, moov, mdat);
        CHECK(moov >= 0 && mdat >= 0 && moov < mdat, "%s: +faststart puts moov (%lld) before mdat (%lld)", name, moov, mdat);
    }
    const int frames[3] = {0, 7, 17};
    for (int i = 0; i < 3 && frames[i] < video.frame_count; i++) {
        char shot[64];
        snprintf(shot, sizeof shot, "shot-%s-%d", name, frames[i]);
        unsigned char *expected = screenshot(frames[i] / (double)FPS, shot);
        if (!expected) continue;
        double mean, psnr;
        image_difference(video.rgba[frames[i]], expected, WIDTH, HEIGHT, &mean, &psnr);
        printf("%s frame %2d vs --screenshot --time %.4f: mean |difference| %.2f, PSNR %.1f dB\n", name, frames[i],
               frames[i] / (double)FPS, mean, psnr);
        CHECK(psnr >= min_psnr && mean <= max_mean, "%s frame %d: PSNR %.1f dB (>= %g), mean difference %.2f (<= %g)", name,
              frames[i], psnr, min_psnr, mean, max_mean);
        stbi_image_free(expected);
    }
    video_decoded_free(&video);
}

static unsigned char *load_frame(const char *pattern, int number)
{
    char path[700];
    char name[64];
    snprintf(name, sizeof name, pattern, number);
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int w = 0, h = 0, channels = 0;
    unsigned char *rgba = stbi_load(path, &w, &h, &channels, 4);
    CHECK(rgba && w == WIDTH && h == HEIGHT, "%s decodes at %dx%d", path, WIDTH, HEIGHT);
    return rgba;
}

static int count_files(const char *prefix)
{
    DIR *dir = opendir(folder);
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (dir) closedir(dir);
    return n;
}

/* PNG frames: the same pixels as --screenshot; ping-pong and reverse in the right order. */
static void test_png_frames(void)
{
    if (record("walk-%04d.png", "") < 0.0) return;
    CHECK(count_files("walk-") == FRAMES, "%d PNG frames written, %d expected", count_files("walk-"), FRAMES);
    const int frames[2] = {0, 10};
    for (int i = 0; i < 2; i++) {
        unsigned char *frame = load_frame("walk-%04d.png", frames[i] + 1);   /* numbered from 1 */
        char shot[64];
        snprintf(shot, sizeof shot, "shot-png-%d", frames[i]);
        unsigned char *expected = screenshot(frames[i] / (double)FPS, shot);
        if (frame && expected) {
            double mean, psnr;
            image_difference(frame, expected, WIDTH, HEIGHT, &mean, &psnr);
            printf("PNG frame %d vs --screenshot: mean |difference| %.4f, PSNR %.1f dB\n", frames[i], mean, psnr);
            CHECK(mean < 0.05, "PNG frame %d is the screenshot's picture (mean difference %.4f)", frames[i], mean);
        }
        stbi_image_free(frame);
        stbi_image_free(expected);
    }

    /* ping-pong: there and back, 48 frames; frame 24 + k shows time 1 - k / 24 = frame 24 - k */
    if (record("pong-%04d.png", "--loop ping-pong") >= 0.0) {
        CHECK(count_files("pong-") == 2 * FRAMES, "ping-pong: %d frames, %d expected", count_files("pong-"), 2 * FRAMES);
        for (int k = 3; k <= 9; k += 6) {
            unsigned char *there = load_frame("pong-%04d.png", FRAMES - k + 1), *back = load_frame("pong-%04d.png", FRAMES + k + 1);
            if (there && back) {
                double mean, psnr;
                image_difference(there, back, WIDTH, HEIGHT, &mean, &psnr);
                printf("ping-pong: frame %d (way back) vs frame %d (way there): mean |difference| %.4f\n", FRAMES + k,
                       FRAMES - k, mean);
                CHECK(mean < 0.05, "ping-pong: frame %d is frame %d again (mean difference %.4f)", FRAMES + k, FRAMES - k, mean);
            }
            stbi_image_free(there);
            stbi_image_free(back);
        }
        /* and not a still picture: the way back differs from the way there's start */
        unsigned char *first = load_frame("pong-%04d.png", 1), *middle = load_frame("pong-%04d.png", FRAMES / 2 + 1);
        if (first && middle) {
            double mean, psnr;
            image_difference(first, middle, WIDTH, HEIGHT, &mean, &psnr);
            CHECK(mean > 0.05, "ping-pong: the clip moves (frames 0 and %d differ by %.3f)", FRAMES / 2, mean);
        }
        stbi_image_free(first);
        stbi_image_free(middle);
    }

    /* reverse: --speed -1 starts at the end; frame k shows time 1 - k / 24 */
    if (record("back-%04d.png", "--speed -1") >= 0.0) {
        CHECK(count_files("back-") == FRAMES, "reverse: %d frames, %d expected", count_files("back-"), FRAMES);
        unsigned char *frame = load_frame("back-%04d.png", 6 + 1);
        unsigned char *expected = screenshot(1.0 - 6.0 / FPS, "shot-back-6");
        unsigned char *forward = load_frame("walk-%04d.png", 6 + 1);
        if (frame && expected && forward) {
            double mean, psnr, mean_forward, psnr_forward;
            image_difference(frame, expected, WIDTH, HEIGHT, &mean, &psnr);
            image_difference(frame, forward, WIDTH, HEIGHT, &mean_forward, &psnr_forward);
            printf("reverse: frame 6 vs --screenshot --time %.4f: mean |difference| %.4f (vs forward frame 6: %.3f)\n",
                   1.0 - 6.0 / FPS, mean, mean_forward);
            CHECK(mean < 0.05 && mean_forward > 0.05, "reverse: frame 6 shows time 0.75 (%.4f), not 0.25 (%.3f)", mean,
                  mean_forward);
        }
        stbi_image_free(frame);
        stbi_image_free(expected);
        stbi_image_free(forward);
    }
}

/* Bad use: one line, a non-zero exit, nothing left behind. */
static void expect_refused(const char *label, const char *arguments, int expected_code)
{
    char out[4096];
    int before = count_files("");
    int code = skinview(arguments, out, sizeof out);
    int lines = 0;
    for (const char *p = out; *p; p++) lines += *p == '\n';
    printf("%s: exit %d: %s", label, code, out);
    CHECK(code == expected_code, "%s: exit %d, %d expected", label, code, expected_code);
    CHECK(lines == 1 && strncmp(out, "skinview: ", 10) == 0, "%s: one line on stderr, got %d: %s", label, lines, out);
    CHECK(count_files("") == before, "%s: nothing left in the folder (%d entries, %d before)", label, count_files(""),
          before);
}

static void test_bad_use(void)
{
    char arguments[2000], blocker[700];
    snprintf(arguments, sizeof arguments, "'%s' --clip Walk --size 160x120 --record '%s/walk.avi'", demo, folder);
    expect_refused("unknown extension", arguments, 2);
    snprintf(blocker, sizeof blocker, "%s/a-file", folder);   /* a file where the folder should be */
    FILE *f = fopen(blocker, "w");
    if (f) fclose(f);
    snprintf(arguments, sizeof arguments, "'%s' --clip Walk --size 160x120 --record '%s/out.mp4'", demo, blocker);
    expect_refused("a folder that cannot be written", arguments, 1);
    /* ARGUMENTS ('%s': the demo, then the folder), what is wrong, the exit code */
    static const struct {
        const char *arguments, *label;
        int         code;
    } refusals[] = {
        {"'%s' --clip Walk --size 161x120 --record '%s/odd.mp4'", "odd width for MP4", 2},
        {"'%s' --clip Walk --size 160x121 --record '%s/odd.webm'", "odd height for WebM", 2},
        {"'%s' --clip Walk --size 160x120 --fps 60 --record '%s/fast.gif'", "GIF at 60 fps", 2},
        {"'%s' --clip bind --size 160x120 --record '%s/pose.mp4'", "a pose without --duration", 2},
        {"'%s' --clip Walk --duration 1 --screenshot '%s/x.png'", "--duration without --record", 2},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        snprintf(arguments, sizeof arguments, refusals[i].arguments, demo, folder);
        expect_refused(refusals[i].label, arguments, refusals[i].code);
    }
}

int main(void)
{
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(demo, sizeof demo, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    test_bad_use();
    test_container("walk.mp4", "h264", 35.0, 3.0);
    test_container("walk.webm", "vp9", 35.0, 3.0);
    test_container("walk.gif", "gif", 30.0, 3.0);   /* 256 colours, dithered */
    test_png_frames();
    if (test_failed == 0) test_remove_folder(folder);
    return test_finish();
}
