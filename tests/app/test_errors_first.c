/* test_errors_first.c — every bad flag and bad file ends before a window exists: run with no
 * display at all (DISPLAY and WAYLAND_DISPLAY unset), the viewer command must report the real
 * problem (exit 2 bad usage / no such clip, 1 unusable file) in one line, never "cannot open a
 * window". And Assimp's messages arrive translated: a plain cause, the original after a colon. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char folder[] = "/tmp/skinview-test-errors-first-XXXXXX";

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    if (text[0] && text[strlen(text) - 1] != '\n') lines++;
    return lines;
}

/* Runs skinview with `arguments` and no display; checks exit code and one stderr line with `expect`. */
static void expect(const char *arguments, int code, const char *expect_text)
{
    char command[4096], output[8192];
    snprintf(command, sizeof command, "env -u DISPLAY -u WAYLAND_DISPLAY '%s' %s 2>&1 >/dev/null", SKINVIEW_BINARY,
             arguments);
    int got = test_run_capture(command, output, sizeof output);
    printf("exit %d: skinview %s\n    %s", got, arguments, output);
    CHECK(got == code, "skinview %s: exit %d, expected %d: %s", arguments, got, code, output);
    CHECK(count_lines(output) == 1, "skinview %s: %d lines on stderr, expected 1: %s", arguments, count_lines(output),
          output);
    CHECK(strstr(output, "window") == NULL, "skinview %s: reported the window, not the problem: %s", arguments, output);
    CHECK(strstr(output, expect_text) != NULL, "skinview %s: '%s' expected in: %s", arguments, expect_text, output);
}

static bool write_bytes(const char *path, const char *source, long keep)
{
    FILE *in = fopen(source, "rb");
    if (!in) return false;
    char *data = malloc((size_t)keep);
    size_t n = data ? fread(data, 1, (size_t)keep, in) : 0;
    fclose(in);
    FILE *out = fopen(path, "wb");
    bool ok = out && fwrite(data, 1, n, out) == n;
    if (out) ok = fclose(out) == 0 && ok;
    free(data);
    return ok;
}

int main(void)
{
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    char demo[1024], args[3000], truncated[600], garbage[600];
    snprintf(demo, sizeof demo, "'%s/assets/demo.fbx'", SKINVIEW_SOURCE_DIR);

    /* bad usage: exit 2; clips are checked against the file before any window. Each row: the
     * arguments after the demo model (%s: the temp folder), the line's expected words. */
    static const struct { const char *arguments, *expect; } usage[] = {
        {"--speed 1000", "--speed"},
        {"--speed 0", "--speed"},
        {"--loop sometimes", "--loop"},
        {"--blend -1", "--blend"},
        {"--show-browser", "--screenshot"},
        {"--view sideways --screenshot x.png", "--view"},
        {"--time -1", "--time"},
        {"--size 0x0", "--size"},
        {"--clip 999", "clip index 999 out of range (the model has 4 clips)"},
        {"--clip NoSuchClip", "no clip named 'NoSuchClip'"},
        {"--clip 999 --screenshot '%s/x.png'", "clip index 999"},
    };
    for (size_t u = 0; u < sizeof usage / sizeof usage[0]; u++) {
        char tail[512];
        snprintf(tail, sizeof tail, usage[u].arguments, folder);   /* rows without %s ignore it */
        snprintf(args, sizeof args, "%s %s", demo, tail);
        expect(args, 2, usage[u].expect);
    }

    /* unusable files: exit 1, named as such */
    snprintf(args, sizeof args, "'%s/no-such-file.glb'", folder);
    expect(args, 1, "no-such-file.glb: cannot open: No such file or directory");
    snprintf(args, sizeof args, "'%s/no-such-file.glb' --clip 2 --speed 2", folder);
    expect(args, 1, "cannot open");
    snprintf(truncated, sizeof truncated, "%s/truncated.glb", folder);
    char glb[1024];
    snprintf(glb, sizeof glb, "%s/assets/demo.glb", SKINVIEW_SOURCE_DIR);
    CHECK(write_bytes(truncated, glb, 30000), "write a truncated GLB");
    snprintf(args, sizeof args, "'%s'", truncated);
    expect(args, 1, "truncated or damaged glTF binary");
    expect(args, 1, ": ");   /* the original Assimp text follows after a colon */
    const char *garbage_names[2][2] = {{"garbage.fbx", "truncated or damaged FBX file: FBX-"},
                                       {"garbage.xyz", "not a file Assimp can read"}};
    for (int g = 0; g < 2; g++) {
        snprintf(garbage, sizeof garbage, "%s/%s", folder, garbage_names[g][0]);
        FILE *f = fopen(garbage, "wb");
        if (f) {
            fputs("this is not a model file at all\n", f);
            fclose(f);
        }
        snprintf(args, sizeof args, "'%s'", garbage);
        expect(args, 1, garbage_names[g][1]);
    }

    test_remove_folder(folder);
    return test_finish();
}
