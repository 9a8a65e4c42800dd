/* test_fbx_doc_files.c — the mode `files` of test_fbx_doc: every FBX in ../shared/models (skipped when
 * absent) and in assets/ read, with sane object and connection counts, and the ufbx-dcc files whose
 * manifest row is an animated moment have curves with keys. */
#include "fbx_writer.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

/* ---------------------------------------------------------------- real files */

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *bytes = n > 0 ? malloc((size_t)n) : NULL;
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = bytes ? (size_t)n : 0;
    return bytes;
}

static int files_checked;

static bool is_animated_in_manifest(const char *manifest, const char *file)
{
    /* a row naming the file with a moment after 0 and a stack that is not "rest" */
    const char *at = manifest;
    size_t n = strlen(file);
    while ((at = strstr(at, file)) != NULL) {
        const char *line = at;
        while (line > manifest && line[-1] != '\n') line--;
        at += n;
        char row[4096];
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (length >= sizeof row) continue;
        memcpy(row, line, length);
        row[length] = '\0';
        char *fields[6] = {0};
        int k = 0;
        for (char *p = row; k < 6 && p; k++) {
            fields[k] = p;
            p = strchr(p, '\t');
            if (p) *p++ = '\0';
        }
        if (k >= 5 && atof(fields[3]) > 0 && strcmp(fields[4], "rest") != 0) return true;
    }
    return false;
}

static void check_file(const char *path, const char *manifest)
{
    size_t size;
    unsigned char *bytes = read_file(path, &size);
    CHECK(bytes != NULL, "%s: readable", path);
    if (!bytes) return;
    FbxScene s;
    char error[256];
    bool ok = fbx_scene_read(&s, bytes, size, error, sizeof error);
    CHECK(ok, "%s: read (%s)", path, error);
    free(bytes);
    if (!ok) return;
    files_checked++;
    int models = 0, bad = 0, keys = 0, curves = 0;
    for (int i = 0; i < s.object_count; i++) {
        if (strcmp(s.objects[i].kind, "Model") == 0) models++;
        if (strcmp(s.objects[i].kind, "AnimationCurve") == 0) curves++, keys += s.curves[i].key_count;
    }
    for (int i = 0; i < s.connection_count; i++)
        if (s.connections[i].src < 0 || s.connections[i].src >= s.object_count || s.connections[i].dst < -1 ||
            s.connections[i].dst >= s.object_count)
            bad++;
    CHECK(models > 0 && s.connection_count >= models && bad == 0, "%s: %d objects, %d models, %d connections (%d bad)", path,
          s.object_count, models, s.connection_count, bad);
    int roots = 0;
    for (int i = 0; i < s.connection_count; i++) roots += s.connections[i].dst == -1;
    CHECK(roots > 0, "%s: something hangs from the scene root", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (manifest && is_animated_in_manifest(manifest, base))
        CHECK(curves > 0 && keys > 0, "%s: animated in the manifest: %d curves, %d keys", path, curves, keys);
    fbx_scene_free(&s);
}

/* Every .fbx below a folder (test_walk_files' visitor; context: the manifest or NULL). */
static void check_if_fbx(const char *path, void *manifest)
{
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".fbx") == 0) check_file(path, manifest);
}

void files(void)
{
    size_t size;
    char *manifest = (char *)read_file(SKINVIEW_SHARED_MODELS_DIR "/ufbx-dcc/manifest.tsv", &size);
    if (manifest) {
        manifest = realloc(manifest, size + 1);
        manifest[size] = '\0';
    }
    test_walk_files(SKINVIEW_SOURCE_DIR "/assets", 6, check_if_fbx, NULL);
    int demo = files_checked;
    CHECK(demo > 0, "assets/*.fbx read");
    test_walk_files(SKINVIEW_SHARED_MODELS_DIR, 6, check_if_fbx, manifest);
    printf("%d FBX files read (%d from ../shared/models)\n", files_checked, files_checked - demo);
    free(manifest);
}
