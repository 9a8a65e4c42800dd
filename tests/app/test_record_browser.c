/* test_record_browser.c — a browser plays what --record writes: Debian's Chromium, headless, loads
 * the demo's Walk as MP4 (H.264, yuv420p) and WebM (VP9) in <video> elements (their size and
 * duration read back) and starts playing both; the GIF loads as an image. Skipped (77) when
 * chromium is not installed (it is not in scripts/deps.sh: a large package for one check). */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char folder[] = "/tmp/skinview-test-browser-XXXXXX";

static const char page[] =
    "<!doctype html><html><body><pre id=\"out\"></pre><script>\n"
    "const out = document.getElementById('out');\n"
    "function log(s) { out.textContent += s + '\\n'; }\n"
    "for (const f of ['walk.mp4', 'walk.webm']) {\n"
    "  const v = document.createElement('video');\n"
    "  v.muted = true; v.src = f;\n"
    "  v.addEventListener('error', () => log(f + ' ERROR ' + (v.error && v.error.code)));\n"
    "  v.addEventListener('loadeddata', () => {\n"
    "    log(f + ' loaded ' + v.videoWidth + 'x' + v.videoHeight + ' ' + v.duration.toFixed(3) + ' s');\n"
    "    v.play().then(() => log(f + ' playing')).catch(e => log(f + ' play failed ' + e));\n"
    "  });\n"
    "  document.body.appendChild(v);\n"
    "}\n"
    "const img = new Image();\n"
    "img.onload = () => log('walk.gif image ' + img.naturalWidth + 'x' + img.naturalHeight);\n"
    "img.onerror = () => log('walk.gif ERROR');\n"
    "img.src = 'walk.gif'; document.body.appendChild(img);\n"
    "</script></body></html>\n";

int main(void)
{
    char probe[256];
    if (test_run_capture("command -v chromium 2>/dev/null", probe, sizeof probe) != 0 || !probe[0]) {
        printf("skipped: chromium is not installed\n");
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    const char *formats[] = {"mp4", "webm", "gif"};
    char command[4096], out[16384];
    for (int i = 0; i < 3; i++) {
        snprintf(command, sizeof command,
                 "'%s' '%s/assets/demo.fbx' --clip Walk --size 160x120 --fps 24 --record '%s/walk.%s' 2>&1",
                 SKINVIEW_BINARY, SKINVIEW_SOURCE_DIR, folder, formats[i]);
        CHECK(test_run_capture(command, out, sizeof out) == 0, "--record walk.%s: %s", formats[i], out);
    }
    char html[600];
    snprintf(html, sizeof html, "%s/play.html", folder);
    FILE *f = fopen(html, "w");
    CHECK(f != NULL, "write %s", html);
    if (f) {
        fputs(page, f);
        fclose(f);
    }
    /* virtual time: the page's events run without waiting on the wall clock */
    snprintf(command, sizeof command,
             "timeout 120 chromium --headless=new --no-sandbox --disable-gpu --allow-file-access-from-files "
             "--autoplay-policy=no-user-gesture-required --virtual-time-budget=8000 --dump-dom 'file://%s' 2>/dev/null",
             html);
    int code = test_run_capture(command, out, sizeof out);
    const char *pre = strstr(out, "<pre id=\"out\">");
    char report[2048] = "";
    if (pre) snprintf(report, sizeof report, "%.*s", (int)strcspn(pre + 14, "<"), pre + 14);
    printf("chromium (exit %d):\n%s", code, report);
    CHECK(strstr(report, "walk.mp4 loaded 160x120 1.000 s") && strstr(report, "walk.mp4 playing"),
          "Chromium loads and plays the MP4");
    CHECK(strstr(report, "walk.webm loaded 160x120 1.000 s") && strstr(report, "walk.webm playing"),
          "Chromium loads and plays the WebM");
    CHECK(strstr(report, "walk.gif image 160x120") != NULL, "Chromium shows the GIF");
    CHECK(!strstr(report, "ERROR"), "no media error");
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (test_failed == 0 && system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return test_finish();
}
