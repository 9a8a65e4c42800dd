/* test_one_line_messages — a message that quotes text from a file stays one line (issue 32).
 *
 * Every reader copies names, types, URIs and extension names from the file into its refusals and
 * repair warnings; src/base/quote.h escapes them and src/io/report.c escapes the finished
 * message. Here each reader gets such text with newlines, tabs, escape sequences (ESC [ 2 J clears
 * a terminal), C1 controls and bytes that are not UTF-8, and every message must come out clean
 * (no control character, valid UTF-8: quote_is_clean) with the quoted text visible as escapes:
 *   quote        the helper itself: each escape, UTF-8 kept or escaped byte by byte, the bound
 *                (QUOTE_LIMIT bytes, "...", never cut inside a sequence), NULL, quote_message
 *                in place and idempotent
 *   gltf         accessor type "VEC3 \n  " (the fuzzer's find), .gltf and .glb, refused through
 *                gltf_import() and through the binary: one line holding "VEC3 \n  "; an
 *                unsupported required extension named with ESC and a tab; warnings (a texture
 *                URI, a mesh name, a clip name with newlines and ESC) through the binary: each
 *                line clean, the escapes shown
 *   fbx          an FBX 6.1 ASCII file (skinview's own reader) whose Model, texture and take
 *                names hold a tab, ESC and a newline: the warnings clean, the escapes shown; a
 *                binary FBX cut short: the refusal clean
 *   vat          vat.json with a clip name and a file name holding a newline and ESC
 *                (vat_read_manifest): the refusal clean and escaped
 *   assimp       an OBJ whose object name holds a tab and ESC and whose vertex is NaN, refused by
 *                skinview's Assimp stage quoting the mesh name; a Collada file whose
 *                instance_geometry names a missing geometry with a newline and ESC, refused by
 *                Assimp itself (its own message quotes the name): both clean
 */
#include "anim/vat.h"
#include "base/quote.h"
#include "io/gltf/gltf_import.h"
#include "io/import.h"
#include "io/vat_io.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char temp_dir[256];

/* Every line of `text` (lines end with '\n') is clean; returns how many lines are not warnings. */
static int check_lines(const char *label, const char *text)
{
    int errors = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        CHECK(quote_is_clean(line, length), "%s: a line holds a control character or invalid UTF-8: %.*s", label,
              (int)length, line);
        if (strncmp(line, "skinview: warning: ", 19) != 0) errors++;
        line += length + (end ? 1 : 0);
    }
    return errors;
}

/* `skinview --info PATH MORE`: its exit status (0 or 1 expected, `fails` says which) and stderr, every
 * line clean, one error line on failure, none on success; stderr into err. */
static void run_info(const char *label, const char *path, const char *more, bool fails, char *err, size_t err_size)
{
    char command[2048];
    snprintf(command, sizeof command, "'%s' --info '%s' %s 2>&1 >/dev/null", SKINVIEW_BINARY, path, more ? more : "");
    int status = test_run_status(command, err, err_size);
    bool exited = status != -1 && WIFEXITED(status);
    CHECK(exited && WEXITSTATUS(status) == (fails ? 1 : 0), "%s: status 0x%x (exit %d expected): %s", label, status,
          fails ? 1 : 0, err);
    int errors = check_lines(label, err);
    CHECK(errors == (fails ? 1 : 0), "%s: %d error lines (%d expected): %s", label, errors, fails ? 1 : 0, err);
}

/* ---- the helper ----------------------------------------------------------------------- */

static void expect_quote(const char *in, size_t length, size_t limit, const char *want)
{
    char out[256];
    size_t n = quote_bytes(out, sizeof out, in, length, limit);
    CHECK(strcmp(out, want) == 0 && n == strlen(want), "quote of %zu bytes: '%s', expected '%s'", length, out, want);
    CHECK(quote_is_clean(out, n), "quote output not clean: %s", out);
}

static void test_quote(void)
{
    expect_quote("VEC3 \n  ", 8, 64, "VEC3 \\n  ");
    expect_quote("a\tb\rc", 5, 64, "a\\tb\\rc");
    expect_quote("\x1b[2J\x7f\x01", 6, 64, "\\x1B[2J\\x7F\\x01");
    expect_quote("a\0b", 3, 64, "a\\x00b");
    expect_quote("\xc3\x28 \xff \xc0\xaf \xed\xa0\x80 \xe2\x82", 14, 64,
                 "\\xC3( \\xFF \\xC0\\xAF \\xED\\xA0\\x80 \\xE2\\x82");   /* bad byte, FF, overlong, surrogate, cut */
    expect_quote("\xc2\x9b" "31m \xe2\x80\xa8", 9, 64, "\\u009B31m \\u2028");   /* C1 CSI, line separator */
    static const char kept[] = "h\xc3\xbc" "fte \xe9\x96\xa2\xe7\xaf\x80 \xf0\x9f\xa6\xb4";   /* hüfte 関節 🦴 */
    expect_quote(kept, sizeof kept - 1, 64, kept);
    /* the bound: 64 bytes in all, "..." included; a sequence or an escape is never cut */
    char long_name[200];
    memset(long_name, 'x', sizeof long_name);
    expect_quote(long_name, sizeof long_name, 16, "xxxxxxxxxxxxx...");
    expect_quote("xxxxxxxxxxxx\xe9\x96\xa2yyyy", 19, 16, "xxxxxxxxxxxx...");
    expect_quote("xxxxxxxxxxx\nyyyy", 16, 16, "xxxxxxxxxxx\\n...");
    expect_quote("xxxxxxxxxxxx\nyyy", 16, 16, "xxxxxxxxxxxx...");
    expect_quote("exactly sixteen!", 16, 16, "exactly sixteen!");
    char *big = malloc(1 << 20);
    if (big) {
        memset(big, '\n', 1 << 20);
        char out[QUOTE_SIZE];
        size_t n = quote_bytes(out, sizeof out, big, 1 << 20, QUOTE_LIMIT);
        CHECK(n >= QUOTE_LIMIT - 2 && n <= QUOTE_LIMIT && strcmp(out + n - 3, "...") == 0,
              "a megabyte of newlines: %zu bytes '%s'", n, out);
        free(big);
    }
    CHECK(strcmp(QUOTED(NULL), "(none)") == 0 && strcmp(QUOTED("Hips"), "Hips") == 0, "QUOTED: %s / %s", QUOTED(NULL),
          QUOTED("Hips"));
    char tiny[4];
    quote_bytes(tiny, sizeof tiny, "abcdef", 6, 64);
    CHECK(strcmp(tiny, "...") == 0, "a 4-byte buffer: '%s'", tiny);
    /* quote_message: in place, trailing white space dropped, idempotent */
    char message[64] = "accessor 2 has type VEC3 \n  , componentType 5126\n";
    quote_message(message, sizeof message);
    CHECK(strcmp(message, "accessor 2 has type VEC3 \\n  , componentType 5126") == 0, "quote_message: %s", message);
    char again[64];
    memcpy(again, message, sizeof again);
    quote_message(again, sizeof again);
    CHECK(strcmp(again, message) == 0, "quote_message twice: %s", again);
    char full[16] = "\x1b\x1b\x1b\x1b\x1b\x1b\x1b";
    quote_message(full, sizeof full);
    CHECK(strcmp(full, "\\x1B\\x1B\\x1B...") == 0 && quote_is_clean(full, strlen(full)), "quote_message cut: %s", full);
}

/* ---- glTF (skinview's reader) ------------------------------------------------------------ */

/* A triangle whose POSITION accessor has `type` (JSON text, escapes allowed); `members` more. */
static bool write_gltf(const char *path, const char *type, const char *mesh_name, const char *members, bool glb)
{
    static const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const unsigned short indices[6] = {0, 1, 2, 0, 1, 7};   /* the second triangle names vertex 7 */
    static const float times[2] = {1.0f, 0.0f};                      /* out of order: sorted, with a warning */
    static const float moves[6] = {0, 0, 0, 0, 1, 0};
    TestGltf g;
    test_gltf_init(&g);
    int pos = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, 5126, false, 3, type,
                                 "\"min\":[0,0,0],\"max\":[1,1,0]");
    int idx = test_gltf_accessor(&g, test_gltf_view(&g, indices, sizeof indices, 0), 0, 5123, false, 6, "SCALAR", NULL);
    int in = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, 5126, false, 2, "SCALAR",
                                "\"min\":[0],\"max\":[1]");
    int out = test_gltf_accessor(&g, test_gltf_view(&g, moves, sizeof moves, 0), 0, 5126, false, 2, "VEC3", NULL);
    char json[4096];
    snprintf(json, sizeof json,
             "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"Hips\\n\\u001b[2J\",\"mesh\":0}],"
             "\"meshes\":[{\"name\":\"%s\",\"primitives\":[{\"attributes\":{\"POSITION\":%d},\"indices\":%d,"
             "\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
             "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"missing\\n\\u001b[31m\\t.png\"}],"
             "\"animations\":[{\"name\":\"Walk\\r\\n\\u001b[0m\",\"samplers\":[{\"input\":%d,\"output\":%d}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]%s%s",
             mesh_name, pos, idx, in, out, members ? "," : "", members ? members : "");
    bool ok = test_gltf_write(&g, path, json, glb);
    test_gltf_free(&g);
    return ok;
}

static void test_gltf(void)
{
    char path[512], err[8192];
    for (int glb = 0; glb < 2; glb++) {
        const char *ext = glb ? "glb" : "gltf";
        /* the fuzzer's find: a newline inside the accessor type */
        snprintf(path, sizeof path, "%s/bad_type.%s", temp_dir, ext);
        CHECK(write_gltf(path, "VEC3 \\n  ", "Body", NULL, glb), "cannot write %s", path);
        size_t size = 0;
        char *bytes = test_read_file(path, &size);
        Model model;
        memset(&model, 0, sizeof model);
        char error[512] = "";
        bool version_1 = false;
        bool read = bytes && gltf_import(NULL, bytes, size, 0, 0, false, NULL, &model, &version_1, error, sizeof error);
        CHECK(!read && quote_is_clean(error, strlen(error)) && strstr(error, "type 'VEC3 \\n  '"),
              "%s: gltf_import's refusal: %s", ext, error);
        model_free(&model);   /* gltf_import leaves what it built to the caller, also on failure */
        ImportOptions quiet = {.quiet = true};
        read = bytes && import_model_from_memory(bytes, size, ext, &quiet, &model, error, sizeof error);
        CHECK(!read && quote_is_clean(error, strlen(error)) && strstr(error, "VEC3 \\n  "),
              "%s: import_model_from_memory's refusal: %s", ext, error);
        if (read) model_free(&model);
        free(bytes);
        run_info("glTF accessor type with a newline", path, NULL, true, err, sizeof err);
        CHECK(strstr(err, "type 'VEC3 \\n  '") != NULL, "%s: the refusal shows the newline escaped: %s", ext, err);

        /* an unsupported required extension named with ESC, a tab and a newline */
        snprintf(path, sizeof path, "%s/bad_extension.%s", temp_dir, ext);
        CHECK(write_gltf(path, "VEC3", "Body",
                         "\"extensionsUsed\":[\"KHR_\\u001b[2J\\tevil\\n\"],\"extensionsRequired\":[\"KHR_\\u001b[2J\\tevil\\n\"]",
                         glb),
              "cannot write %s", path);
        run_info("glTF required extension with ESC", path, NULL, true, err, sizeof err);
        CHECK(strstr(err, "extension 'KHR_\\x1B[2J\\tevil\\n'") != NULL, "%s: the extension name escaped: %s", ext, err);

        /* warnings: a texture URI, a mesh name and a clip name with newlines, ESC and bytes not UTF-8 */
        snprintf(path, sizeof path, "%s/warnings.%s", temp_dir, ext);
        CHECK(write_gltf(path, "VEC3", "Bo\\tdy\\u009b31m\\n\xff", NULL, glb), "cannot write %s", path);
        run_info("glTF warnings quoting names", path, NULL, false, err, sizeof err);
        CHECK(strstr(err, "texture 'missing\\n\\x1B[31m\\t.png'") != NULL, "%s: the texture URI escaped: %s", ext, err);
        CHECK(strstr(err, "mesh 'Bo\\tdy\\u009B31m\\n\\xFF'") != NULL, "%s: the mesh name escaped: %s", ext, err);
        CHECK(strstr(err, "clip 'Walk\\r\\n\\x1B[0m'") != NULL, "%s: the clip name escaped: %s", ext, err);
    }
}

/* ---- FBX (skinview's reader for FBX < 7.1) ---------------------------------------------------- */

static void test_fbx(void)
{
    /* the first KiB must be text (fbx_doc_read.c's probe): the names with ESC come after it */
    char padding[1100];
    memset(padding, ' ', sizeof padding);
    padding[0] = ';';
    padding[sizeof padding - 1] = '\0';
#define BODY "\"Model::Bo\tdy\x1b[2J\nnext\""
    char text[8192];
    snprintf(text, sizeof text,
             "; FBX 6.1.0 project file\n%s\n"
             "FBXHeaderExtension:  {\n    FBXVersion: 6100\n}\n"
             "Objects:  {\n"
             "    Model: " BODY ", \"Mesh\" {\n"
             "        Vertices: 0,0,0, 1,0,0, 1,1,0, 0,1,0\n"
             "        PolygonVertexIndex: 0,1,2,-4\n"
             "    }\n"
             "    Model: \"Model::Hip\x1b[31m\", \"Limb\" {\n    }\n"
             "    Model: \"Model::Knee\", \"Limb\" {\n    }\n"
             "    Material: \"Material::Red\", \"\" {\n    }\n"
             "    Texture: \"Texture::Skin\", \"TextureVideoClip\" {\n"
             "        RelativeFilename: \"missing\x1b[2J\n\t.png\"\n    }\n"
             "    Deformer: \"Deformer::Skin Body\", \"Skin\" {\n    }\n"
             "    Deformer: \"SubDeformer::Cluster Hip\", \"Cluster\" {\n        Indexes: 0,1\n        Weights: 1,1\n"
             "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n    }\n"
             "    Deformer: \"SubDeformer::Cluster Knee\", \"Cluster\" {\n        Indexes: 2,3\n        Weights: 1,1\n"
             "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n    }\n"
             "}\n"
             "Connections:  {\n"
             "    Connect: \"OO\", " BODY ", \"Model::Scene\"\n"
             "    Connect: \"OO\", \"Model::Hip\x1b[31m\", \"Model::Scene\"\n"
             "    Connect: \"OO\", \"Model::Knee\", \"Model::Scene\"\n"
             "    Connect: \"OO\", \"Material::Red\", " BODY "\n"
             "    Connect: \"OO\", \"Texture::Skin\", " BODY "\n"
             "    Connect: \"OO\", \"Deformer::Skin Body\", " BODY "\n"
             "    Connect: \"OO\", \"SubDeformer::Cluster Hip\", \"Deformer::Skin Body\"\n"
             "    Connect: \"OO\", \"SubDeformer::Cluster Knee\", \"Deformer::Skin Body\"\n"
             "    Connect: \"OO\", \"Model::Hip\x1b[31m\", \"SubDeformer::Cluster Hip\"\n"
             "    Connect: \"OO\", \"Model::Knee\", \"SubDeformer::Cluster Knee\"\n"
             "}\n",
             padding);
#undef BODY
    char path[512], err[8192];
    snprintf(path, sizeof path, "%s/names.fbx", temp_dir);
    CHECK(test_write_file(path, text, strlen(text)), "cannot write %s", path);
    /* a warning quoting the texture's file name */
    run_info("FBX 6.1 ASCII names with ESC", path, NULL, false, err, sizeof err);
    CHECK(strstr(err, "texture 'missing\\x1B[2J\\n\\t.png'") != NULL, "FBX: the texture file name escaped: %s", err);
    /* a refusal quoting the mesh's name: two bones, a limit of one (FBX 6 meshes are not split) */
    run_info("FBX 6.1 ASCII mesh name in a refusal", path, "--max-bones 1", true, err, sizeof err);
    CHECK(strstr(err, "mesh 'Bo\\tdy\\x1B[2J\\nnext'") != NULL, "FBX: the mesh name escaped: %s", err);

    /* a binary FBX cut short, the rest ESC bytes: the FBX reader's refusal, clean */
    static const char magic[] = "Kaydara FBX Binary  \0\x1a\0";
    unsigned char binary[64];
    memset(binary, 0x1b, sizeof binary);
    memcpy(binary, magic, sizeof magic - 1);
    binary[23] = 0xe8, binary[24] = 0x1c, binary[25] = 0, binary[26] = 0;   /* version 7400 */
    snprintf(path, sizeof path, "%s/cut.fbx", temp_dir);
    CHECK(test_write_file(path, binary, sizeof binary), "cannot write %s", path);
    run_info("FBX binary cut short", path, NULL, true, err, sizeof err);
}

/* ---- VAT manifest ------------------------------------------------------------------------ */

static void write_manifest(const char *dir, const char *clip_name, int slot_shift, const char *extra_file)
{
    VatClipLayout clip = {.frame_count = 2, .duration = 1.0f / 30.0f};
    VatLayout layout;
    char error[256];
    CHECK(vat_layout_build(3, VAT_DEFAULT_MAX_TEXTURE, VAT_MAX_PAGES, &clip, 1, &layout, error, sizeof error),
          "vat_layout_build: %s", error);
    char text[4096], path[600];
    snprintf(text, sizeof text,
             "{\"format\":\"%s\",\"version\":%d,\"precision\":\"16\",\"vertex_count\":3,"
             "\"layout\":{\"width\":%d,\"rows_per_frame\":%d,\"frames_per_page\":%d,\"page_height\":%d,"
             "\"page_count\":%d,\"slot_count\":%d,\"max_texture\":%d},"
             "\"bounds\":{\"min\":[0,0,0],\"max\":[1,1,1]},"
             "\"clips\":[{\"name\":\"%s\",\"first_slot\":%d,\"frame_count\":2,\"fps\":30,\"duration\":%.9g}],"
             "\"meshes\":[{\"name\":\"m\",\"first_vertex\":0,\"vertex_count\":3}],"
             "\"files\":[%s{\"name\":\"positions.png\",\"bytes\":1,\"crc32\":0},"
             "{\"name\":\"normals.png\",\"bytes\":1,\"crc32\":0},{\"name\":\"mesh.glb\",\"bytes\":1,\"crc32\":0}]}",
             VAT_FORMAT_NAME, VAT_FORMAT_VERSION, layout.width, layout.rows_per_frame, layout.frames_per_page,
             layout.page_height, layout.page_count, layout.slot_count, layout.max_texture, clip_name,
             clip.first_slot + slot_shift, (double)clip.duration, extra_file ? extra_file : "");
    snprintf(path, sizeof path, "%s/%s", dir, VAT_MANIFEST_NAME);
    CHECK(test_write_file(path, text, strlen(text)), "cannot write %s", path);
}

static void test_vat(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/vat", temp_dir);
    mkdir(dir, 0700);
    VatManifest manifest;
    char error[1024];
    /* a clip name with a newline and ESC, on a clip whose slot does not match the layout */
    write_manifest(dir, "Run\\n\\u001b[2J\\tfast", 1, NULL);
    bool ok = vat_read_manifest(dir, &manifest, error, sizeof error);
    CHECK(!ok && quote_is_clean(error, strlen(error)) && strstr(error, "\"Run\\n\\x1B[2J\\tfast\""),
          "VAT clip name: %s", error);
    if (ok) vat_manifest_free(&manifest);
    /* a listed file whose name holds a newline and ESC (it does not exist: "cannot open") */
    write_manifest(dir, "Run", 0, "{\"name\":\"po\\nsitions\\u001b[2J.png\",\"bytes\":1,\"crc32\":0},");
    ok = vat_read_manifest(dir, &manifest, error, sizeof error);
    CHECK(!ok && quote_is_clean(error, strlen(error)) && strstr(error, "po\\nsitions\\x1B[2J.png"), "VAT file name: %s",
          error);
    if (ok) vat_manifest_free(&manifest);
}

/* ---- Assimp ------------------------------------------------------------------------------ */

static void test_assimp(void)
{
    char path[512], err[8192];
    /* skinview's Assimp stage refuses a NaN vertex, quoting the mesh's name (the OBJ object) */
    static const char obj[] = "o Bo\x1b[2J\x1b]0;title\x07" "dy\nv nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    snprintf(path, sizeof path, "%s/names.obj", temp_dir);
    CHECK(test_write_file(path, obj, sizeof obj - 1), "cannot write %s", path);
    run_info("OBJ object name with ESC", path, NULL, true, err, sizeof err);
    CHECK(strstr(err, "mesh 'Bo\\x1B[2J\\x1B]0;title\\x07dy'") != NULL, "OBJ: the object name escaped: %s", err);

    /* Assimp's own message quotes the file: a visual scene reference that resolves to nothing (the
     * XML reader turns the newline and tab of an attribute into spaces; ESC stays) */
    static const char dae[] =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
        "<asset><up_axis>Y_UP</up_axis></asset>\n"
        "<library_visual_scenes><visual_scene id=\"Scene\"><node id=\"n\"></node></visual_scene>"
        "</library_visual_scenes>\n"
        "<scene><instance_visual_scene url=\"#Sc\x1b[2J\n\tene\"/></scene>\n"
        "</COLLADA>\n";
    snprintf(path, sizeof path, "%s/names.dae", temp_dir);
    CHECK(test_write_file(path, dae, sizeof dae - 1), "cannot write %s", path);
    run_info("Collada reference with ESC", path, NULL, true, err, sizeof err);
    CHECK(strstr(err, "\"#Sc\\x1B[2J") != NULL, "Collada: Assimp's message escaped: %s", err);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview_one_line")) return 1;
    test_quote();
    test_gltf();
    test_fbx();
    test_vat();
    test_assimp();
    test_remove_folder(temp_dir);
    return test_finish();
}
