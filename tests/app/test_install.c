/* test_install.c — `cmake --install` into a DESTDIR, then the installed tree is checked:
 *   - every file is there (binary, shaders, demo, man page, desktop entry, icons, MIME XML,
 *     thumbnailer, docs), each icon PNG as large as its folder says;
 *   - the installed binary, started from another folder, finds its shaders and demo
 *     (--info, --thumbnail) and prints the version;
 *   - desktop-file-validate accepts the desktop entry, xmllint parses the MIME XML and SVG;
 *   - update-mime-database on a copy of the system's MIME packages plus ours makes
 *     `gio info` (and `xdg-mime query filetype` through it) report our types for .fbx and .dae
 *     and glTF's for .glb, and knows every type the desktop entry and thumbnailer list;
 *   - with the desktop database built, gio names skinview.desktop the default application for
 *     FBX, GLB and Collada files (what a double-click in a file manager opens);
 *   - the thumbnailer's Exec line, run as a file manager would, writes the thumbnail.
 * Tools that are not installed are reported and their checks skipped (scripts/deps.sh --test
 * installs them all).
 * argv[1]: the cmake executable, argv[2]: the build folder. */
#include "testutil.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX "/opt/skinview-test"
/* thumbnails get the test's budget (tests/app.cmake), not the default 5 s: a loaded machine
 * or a sanitizer build is slower, and speed is measured elsewhere, never asserted */
#define BUDGET_FLAG " --thumbnail-budget " SKINVIEW_TEST_THUMBNAIL_BUDGET

static char destdir[1024], root[1200], work[1200];
static int skipped_tools;

static bool have_tool(const char *name)
{
    char command[256], out[256];
    snprintf(command, sizeof command, "command -v %s", name);
    if (test_run_capture(command, out, sizeof out) == 0) return true;
    printf("skipped: %s is not installed\n", name);
    skipped_tools++;
    return false;
}

static void expect_file(const char *relative)
{
    char path[1600];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    struct stat st;
    CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0, "installed file missing or empty: %s",
          path);
}

/* The value of `key=` in an installed desktop-style file (first occurrence), or "". */
static void read_key(const char *relative, const char *key, char *value, size_t value_size)
{
    char path[1600], line[2048];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    value[0] = '\0';
    FILE *file = fopen(path, "r");
    if (!file) return;
    size_t key_length = strlen(key);
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, key, key_length) == 0 && line[key_length] == '=') {
            snprintf(value, value_size, "%s", line + key_length + 1);
            value[strcspn(value, "\r\n")] = '\0';
            break;
        }
    }
    fclose(file);
}

/* The content type gio reports for path with the test's MIME database, via `tool`. */
static void content_type(const char *tool, const char *path, char *type, size_t type_size)
{
    char command[8192];
    const char *env = "env XDG_DATA_HOME=\"$W/share\" XDG_DATA_DIRS=\"$W/share\"";
    if (strcmp(tool, "gio") == 0)
        snprintf(command, sizeof command, "W='%s'; %s gio info -a standard::content-type '%s' 2>&1 | "
                 "sed -n 's/^ *standard::content-type: //p'", work, env, path);
    else   /* xdg-mime answers through gio when the desktop is GNOME */
        snprintf(command, sizeof command, "W='%s'; %s XDG_CURRENT_DESKTOP=GNOME xdg-mime query filetype '%s' 2>&1",
                 work, env, path);
    test_run_capture(command, type, type_size);
    type[strcspn(type, "\r\n")] = '\0';
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_install CMAKE BUILD_DIR\n");
        return 2;
    }
    const char *cmake = argv[1], *build = argv[2];
    static char command[16384], out[16384];
    snprintf(destdir, sizeof destdir, "%s/install-destdir", build);
    snprintf(root, sizeof root, "%s%s", destdir, PREFIX);
    snprintf(work, sizeof work, "%s/install-work", build);

    /* 1. install */
    snprintf(command, sizeof command,
             "rm -rf '%s' '%s' && mkdir -p '%s/elsewhere' && DESTDIR='%s' '%s' --install '%s' --prefix " PREFIX
             " 2>&1",
             destdir, work, work, destdir, cmake, build);
    int status = test_run_capture(command, out, sizeof out);
    CHECK(status == 0, "cmake --install failed (%d): %s", status, out);

    const char *files[] = {
        "bin/skinview",
        "share/skinview/shaders/skinned.vert",
        "share/skinview/shaders/skinned.frag",
        "share/skinview/assets/demo.fbx",
        "share/skinview/assets/demo.glb",
        "share/man/man1/skinview.1",
        "share/applications/skinview.desktop",
        "share/thumbnailers/skinview.thumbnailer",
        "share/mime/packages/skinview.xml",
        "share/icons/hicolor/scalable/apps/skinview.svg",
        "share/doc/skinview/README.md",
        "share/doc/skinview/CHANGELOG.md",
        "share/doc/skinview/LICENSE",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) expect_file(files[i]);
    char path[1600];
    snprintf(path, sizeof path, "%s/bin/skinview", root);
    CHECK(access(path, X_OK) == 0, "installed binary not executable: %s", path);
    const int icon_sizes[] = {16, 22, 24, 32, 48, 64, 128, 256, 512};
    for (size_t i = 0; i < sizeof icon_sizes / sizeof icon_sizes[0]; i++) {
        int size = icon_sizes[i], width = 0, height = 0, channels = 0;
        snprintf(path, sizeof path, "%s/share/icons/hicolor/%dx%d/apps/skinview.png", root, size, size);
        CHECK(stbi_info(path, &width, &height, &channels) && width == size && height == size && channels == 4,
              "icon %s: %dx%d with %d channels, expected %dx%d RGBA", path, width, height, channels, size, size);
    }

    /* 2. the installed binary, from another folder, finds its data */
    snprintf(command, sizeof command, "cd '%s/elsewhere' && '%s/bin/skinview' --info 2>&1", work, root);
    status = test_run_capture(command, out, sizeof out);
    CHECK(status == 0 && strstr(out, PREFIX "/bin/../share/skinview/assets/demo.fbx") != NULL,
          "installed skinview --info on the demo (exit %d): %.300s", status, out);
    snprintf(command, sizeof command,
             "cd '%s/elsewhere' && '%s/bin/skinview' --thumbnail '%s/share/skinview/assets/demo.fbx' demo.png 64"
             BUDGET_FLAG " 2>&1",
             work, root, root);
    status = test_run_capture(command, out, sizeof out);
    snprintf(path, sizeof path, "%s/elsewhere/demo.png", work);
    int width = 0, height = 0, channels = 0;
    CHECK(status == 0 && stbi_info(path, &width, &height, &channels) && width == 64 && height == 64,
          "installed skinview --thumbnail (exit %d, %dx%d): %s", status, width, height, out);
    snprintf(command, sizeof command, "'%s/bin/skinview' --version", root);
    status = test_run_capture(command, out, sizeof out);
    CHECK(status == 0 && strncmp(out, "skinview ", 9) == 0, "installed --version: %s", out);

    /* 3. validators */
    if (have_tool("desktop-file-validate")) {
        snprintf(command, sizeof command, "desktop-file-validate '%s/share/applications/skinview.desktop' 2>&1", root);
        status = test_run_capture(command, out, sizeof out);
        CHECK(status == 0 && out[0] == '\0', "desktop-file-validate (exit %d): %s", status, out);
    }
    if (have_tool("xmllint")) {
        snprintf(command, sizeof command,
                 "xmllint --noout '%s/share/mime/packages/skinview.xml' '%s/share/icons/hicolor/scalable/apps/skinview.svg' "
                 "2>&1",
                 root, root);
        status = test_run_capture(command, out, sizeof out);
        CHECK(status == 0, "xmllint (exit %d): %s", status, out);
    }
    char desktop_exec[512], desktop_types[1024], thumbnailer_exec[512], thumbnailer_types[1024];
    read_key("share/applications/skinview.desktop", "Exec", desktop_exec, sizeof desktop_exec);
    read_key("share/applications/skinview.desktop", "MimeType", desktop_types, sizeof desktop_types);
    read_key("share/thumbnailers/skinview.thumbnailer", "Exec", thumbnailer_exec, sizeof thumbnailer_exec);
    read_key("share/thumbnailers/skinview.thumbnailer", "MimeType", thumbnailer_types, sizeof thumbnailer_types);
    CHECK(strcmp(desktop_exec, "skinview %f") == 0, "desktop Exec: '%s'", desktop_exec);
    CHECK(strstr(desktop_types, "application/vnd.autodesk.fbx;") && strstr(desktop_types, "model/gltf-binary;"),
          "desktop MimeType lists FBX and GLB: %s", desktop_types);
    CHECK(strstr(thumbnailer_types, "application/vnd.autodesk.fbx;") && strstr(thumbnailer_types, "model/gltf-binary;"),
          "thumbnailer MimeType lists FBX and GLB: %s", thumbnailer_types);

    /* 4. the MIME database, in a copy: the system's packages plus ours */
    if (have_tool("update-mime-database")) {
        snprintf(command, sizeof command,
                 "W='%s' && mkdir -p \"$W/share/mime/packages\" \"$W/files\" && "
                 "cp /usr/share/mime/packages/*.xml \"$W/share/mime/packages/\" && "
                 "cp '%s/share/mime/packages/skinview.xml' \"$W/share/mime/packages/\" && "
                 "update-mime-database \"$W/share/mime\" >/dev/null 2>&1 && "
                 "cp '%s/assets/demo.fbx' \"$W/files/walk.fbx\" && cp '%s/assets/demo.glb' \"$W/files/walk.glb\" && "
                 "cp '%s/Collada/box_nested_animation.dae' \"$W/files/box.dae\" && "
                 "cp '%s/FBX/huesitos.fbx' \"$W/files/binary.fbx\" && cp '%s/assets/demo.fbx' \"$W/files/no-extension\"",
                 work, root, SKINVIEW_SOURCE_DIR, SKINVIEW_SOURCE_DIR, SKINVIEW_TESTMODELS_DIR, SKINVIEW_TESTMODELS_DIR,
                 SKINVIEW_SOURCE_DIR);
        status = test_run_capture(command, out, sizeof out);
        CHECK(status == 0, "update-mime-database on a copy (exit %d): %s", status, out);
        /* every type the desktop entry and thumbnailer name is known to the database */
        char types_path[1400];
        snprintf(types_path, sizeof types_path, "%s/share/mime/types", work);
        FILE *types_file = fopen(types_path, "r");
        static char known[1 << 20];
        size_t known_length = types_file ? fread(known, 1, sizeof known - 1, types_file) : 0;
        known[known_length] = '\0';
        if (types_file) fclose(types_file);
        char lists[2100];
        snprintf(lists, sizeof lists, "%s%s", desktop_types, thumbnailer_types);
        for (char *type = strtok(lists, ";"); type; type = strtok(NULL, ";")) {
            char line[300];
            snprintf(line, sizeof line, "\n%s\n", type);
            CHECK(strstr(known, line) != NULL || strncmp(known, line + 1, strlen(line + 1)) == 0,
                  "MIME type %s (desktop entry / thumbnailer) unknown to the database", type);
        }
        const struct {
            const char *file, *type;
        } expected[] = {
            {"walk.fbx", "application/vnd.autodesk.fbx"},     /* ASCII FBX */
            {"binary.fbx", "application/vnd.autodesk.fbx"},   /* binary FBX */
            {"no-extension", "application/vnd.autodesk.fbx"}, /* by its magic alone */
            {"walk.glb", "model/gltf-binary"},
            {"box.dae", "model/vnd.collada+xml"},
        };
        const char *tools[] = {"gio", "xdg-mime"};
        for (int t = 0; t < 2; t++) {
            if (!have_tool(tools[t])) continue;
            for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
                char file[1400], type[512];
                snprintf(file, sizeof file, "%s/files/%s", work, expected[i].file);
                content_type(tools[t], file, type, sizeof type);
                CHECK(strcmp(type, expected[i].type) == 0, "%s: %s is '%s', expected %s", tools[t], expected[i].file,
                      type, expected[i].type);
            }
        }
    }

    /* 5. double-click: with the desktop database built (update-desktop-database, what the
     *    install does without DESTDIR), skinview is the FBX and GLB handler gio opens (with
     *    skinview in PATH: TryExec hides the entry otherwise) */
    if (have_tool("update-desktop-database") && have_tool("gio")) {
        const char *types[] = {"application/vnd.autodesk.fbx", "model/gltf-binary", "model/vnd.collada+xml"};
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            snprintf(command, sizeof command,
                     "W='%s' && R='%s' && update-desktop-database \"$R/share/applications\" 2>&1 && "
                     "env XDG_DATA_HOME=\"$W/share\" XDG_DATA_DIRS=\"$R/share:$W/share\" XDG_CONFIG_HOME=\"$W/config\" "
                     "PATH=\"$R/bin:$PATH\" gio mime %s 2>&1",
                     work, root, types[i]);
            status = test_run_capture(command, out, sizeof out);
            CHECK(status == 0 && strstr(out, "Default application for") && strstr(out, "skinview.desktop"),
                  "gio mime %s does not name skinview.desktop as the default (exit %d): %s", types[i], status, out);
        }
    }

    /* 6. the thumbnailer entry, run as a file manager runs it: %i input, %o output, %s size */
    char exec[1024] = "", *w = exec;
    for (const char *p = thumbnailer_exec; *p && (size_t)(w - exec) < sizeof exec - 200; p++) {
        if (p[0] == '%' && (p[1] == 'i' || p[1] == 'o' || p[1] == 's')) {
            w += sprintf(w, "%s", p[1] == 'i'   ? "'" SKINVIEW_SOURCE_DIR "/assets/demo.glb'"
                                  : p[1] == 'o' ? "\"$W/elsewhere/thumbnailer out.png\""
                                                : "256");
            p++;
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
    snprintf(command, sizeof command, "W='%s' && cd \"$W/elsewhere\" && PATH='%s/bin':\"$PATH\" %s" BUDGET_FLAG " 2>&1",
             work, root, exec);
    status = test_run_capture(command, out, sizeof out);
    snprintf(path, sizeof path, "%s/elsewhere/thumbnailer out.png", work);
    width = height = 0;
    CHECK(status == 0 && stbi_info(path, &width, &height, &channels) && width == 256 && height == 256,
          "thumbnailer Exec '%s' (exit %d, %dx%d): %s", thumbnailer_exec, status, width, height, out);

    printf("installed into DESTDIR %s, prefix " PREFIX "; %d tools missing\n", destdir, skipped_tools);
    return test_finish();
}
