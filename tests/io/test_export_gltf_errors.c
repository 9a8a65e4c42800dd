/* test_export_gltf_errors — bad use of --export-gltf: one line on stderr, the documented exit code, and
 * nothing left behind (no output file, no temporary file beside it).
 *   - an unwritable path (a folder that does not exist; a folder that is not writable is the same error)
 *   - an output name that is neither .glb nor .gltf                         -> 2
 *   - a clip filter that matches nothing (--clips nosuchclip)               -> 2
 *   - --clips on a model without clips                                      -> 2
 *   - a model with nothing to read (a text file)                            -> 1
 *   - --check-export without --export-gltf, --compress / --max-influences with another mode (--info, --export-pose;
 *     the window takes them for Ctrl+E), --compress zstd,
 *     --max-influences 6                                                     -> 2
 *   - --export-gltf with another mode (--info)                              -> 2
 * and a good export: --quiet prints nothing; without it, off a terminal, one "wrote" line and no progress line. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

/* entries of dir, besides . and .. */
static int dir_entries(void)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

static void expect(const char *label, const char *arguments, int code, const char *says)
{
    char command[4096], output[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>&1 >/dev/null", dir, SKINVIEW_BINARY, arguments);
    int rc = test_run_capture(command, output, sizeof output);
    int lines = 0;
    for (const char *c = output; *c; c++) lines += *c == '\n';
    printf("  %-34s exit %d: %s", label, rc, output);
    CHECK(rc == code, "%s: exit %d, %d expected", label, rc, code);
    CHECK(lines == 1, "%s: %d lines on stderr, one expected", label, lines);
    CHECK(strstr(output, says) != NULL, "%s: stderr does not say '%s'", label, says);
    CHECK(dir_entries() == 1, "%s: %d files left in the folder (only the model expected)", label, dir_entries());
}

int main(void)
{
    char model[2048];
    snprintf(model, sizeof model, "%s/glTF2/simple_skin/simple_skin.gltf", SKINVIEW_TESTMODELS_DIR);
    snprintf(dir, sizeof dir, "/tmp/skinview_export_errors_%d", (int)getpid());
    mkdir(dir, 0700);
    /* a static model (no clips), copied into the folder so that the folder is the only place written */
    char copy[512], command[4096], out[512];
    snprintf(copy, sizeof copy, "%s/static.obj", dir);
    FILE *f = fopen(copy, "w");
    CHECK(f != NULL, "cannot write %s", copy);
    if (!f) return test_finish();
    fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", f);
    fclose(f);
    char args[4096];
    snprintf(args, sizeof args, "static.obj --export-gltf /nonexistent-folder/out.glb");
    expect("unwritable path", args, 1, "/nonexistent-folder/out.glb");
    expect("neither .glb nor .gltf", "static.obj --export-gltf out.obj", 2, ".glb or .gltf");
    expect("--clips on a model without clips", "static.obj --export-gltf out.glb --clips walk", 2, "no clips");
    snprintf(args, sizeof args, "'%s' --export-gltf out.glb --clips nosuchclip", model);
    expect("clip filter matching nothing", args, 2, "nosuchclip");
    snprintf(args, sizeof args, "'%s' --export-gltf out.glb --clips 7", model);
    expect("clip index out of range", args, 2, "7");
    f = fopen(copy, "w");
    fputs("this is not a model\n", f);
    fclose(f);
    expect("a file that is no model", "static.obj --export-gltf out.glb", 1, "static.obj");
    expect("--check-export alone", "static.obj --check-export", 2, "--check-export only goes with --export-gltf");
    /* --compress and --max-influences go with the window too (its Ctrl+E), not with another mode */
    expect("--compress with --info", "static.obj --info --compress meshopt", 2, "--compress only goes with --export-gltf or the window");
    expect("--max-influences with --export-pose", "static.obj --export-pose x.obj --max-influences 8", 2,
           "--max-influences only goes with --export-gltf or the window");
    expect("--max-influences 6", "static.obj --export-gltf out.glb --max-influences 6", 2, "4 or 8");
    expect("--compress zstd", "static.obj --export-gltf out.glb --compress zstd", 2, "zstd");
    expect("with another mode", "static.obj --export-gltf out.glb --info", 2, "mode of its own");
    /* and a good one writes exactly one file */
    snprintf(out, sizeof out, "%s/ok.glb", dir);
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' --quiet 2>&1", SKINVIEW_BINARY, model, out);
    char output[4096];
    int rc = test_run_capture(command, output, sizeof output);
    CHECK(rc == 0 && access(out, R_OK) == 0 && dir_entries() == 2, "a good export: exit %d, %d files: %s", rc,
          dir_entries(), output);
    CHECK(output[0] == '\0', "--quiet printed on success (nothing expected): %s", output);
    /* without --quiet and not on a terminal: the one "wrote" line on stdout, no progress line */
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' 2>&1 </dev/null | cat", SKINVIEW_BINARY, model, out);
    rc = test_run_capture(command, output, sizeof output);
    int lines = 0;
    for (const char *c = output; *c; c++) lines += *c == '\n';
    CHECK(rc == 0 && lines == 1 && strncmp(output, "wrote ", 6) == 0 && !strchr(output, '\r'),
          "an export off a terminal: exit %d, %d lines (one \"wrote\" line, no progress line expected): %s", rc, lines, output);
    unlink(out);
    unlink(copy);
    rmdir(dir);
    return test_finish();
}
