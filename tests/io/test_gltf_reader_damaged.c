/* test_gltf_reader_damaged.c — the refusals (unsupported extensionsRequired, by name), damaged GLB
 * chunks and JSON, and one read from disk per import. Part of the program test_gltf_reader
 * (gltf_reader_fixture.h; the modes refusals, damaged, once). */
#include "gltf_reader_fixture.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- refusals ------------------------------------------------------------------------------ */

/* A triangle that lists `required` as extensionsRequired (and used). */
static bool write_requiring(const char *path, const char *required)
{
    TestGltf g;
    test_gltf_init(&g);
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int p = test_gltf_accessor(&g, test_gltf_view(&g, positions, sizeof positions, 0), 0, FLOAT, false, 3, "VEC3", NULL);
    char members[512];
    snprintf(members, sizeof members,
             "\"extensionsUsed\":[\"%s\"],\"extensionsRequired\":[\"%s\"],\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d}}]}]",
             required, required, p);
    bool ok = test_gltf_write(&g, path, members, strstr(path, ".glb") != NULL);
    test_gltf_free(&g);
    return ok;
}

/* Runs the binary on path with --info; exit code, stderr into err. */
static int run_info(const char *path, char *err, size_t err_size)
{
    char args[1100];
    snprintf(args, sizeof args, "'%s' --info", path);
    return test_skinview_code(args, err, err_size);
}

static bool one_line(const char *text)
{
    size_t n = strlen(text);
    return n > 0 && strchr(text, '\n') == text + n - 1;
}

void test_refusals(void)
{
    const char *unsupported[] = {"KHR_texture_basisu", "KHR_materials_pbrSpecularGlossiness", "EXT_mesh_gpu_instancing",
                                 "KHR_technique_webgl", "KHR_materials_variants", "MSFT_lod", "ACME_made_up"};
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++) {
        char path[512], error[512], want[256], err[4096];
        snprintf(path, sizeof path, "%s/requires.%s", temp_dir, i % 2 ? "glb" : "gltf");
        CHECK(write_requiring(path, unsupported[i]), "write %s", path);
        Model model;
        bool ok = import_quiet(path, &model, error, sizeof error, 0);
        snprintf(want, sizeof want, "requires glTF extension '%s', which skinview does not support", unsupported[i]);
        CHECK(!ok && strstr(error, want) != NULL, "%s: import %s (error '%s')", unsupported[i], ok ? "succeeded" : "failed",
              error);
        if (ok) model_free(&model);
        int code = run_info(path, err, sizeof err);
        CHECK(code == 1 && one_line(err) && strstr(err, want), "%s: binary exit %d: %s", unsupported[i], code, err);
    }
    const char *supported[] = {"KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_emissive_strength"};
    for (size_t i = 0; i < sizeof supported / sizeof *supported; i++) {
        char path[512], error[512];
        snprintf(path, sizeof path, "%s/requires_ok.gltf", temp_dir);
        CHECK(write_requiring(path, supported[i]), "write %s", path);
        Model model;
        bool ok = import_quiet(path, &model, error, sizeof error, 0);
        CHECK(ok, "%s is supported, yet: %s", supported[i], error);
        if (ok) {
            CHECK(strcmp(model.extensions_required, supported[i]) == 0 && strcmp(model.extensions_used, supported[i]) == 0,
                  "extensions kept: used '%s', required '%s'", model.extensions_used, model.extensions_required);
            model_free(&model);
        }
    }
}

/* ---- damaged files ----------------------------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Writes `size` bytes, imports them (must fail with one line), and runs the binary (exit 1, one line). */
static void expect_damaged(const char *what, const char *name, const void *bytes, size_t size, const char *word)
{
    char path[512], error[512], err[4096];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, size, f) == size, "write %s", path);
    if (f) fclose(f);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(!ok && error[0] && !strchr(error, '\n'), "%s: import %s: '%s'", what, ok ? "succeeded" : "failed", error);
    if (word) CHECK(strstr(error, word) != NULL, "%s: the error '%s' does not say '%s'", what, error, word);
    if (ok) model_free(&model);
    int code = run_info(path, err, sizeof err);
    CHECK(code == 1 && one_line(err), "%s: binary exit %d, stderr: %s", what, code, err);
    printf("%-44s %s", what, err);
}

/* A valid triangle as GLB bytes (malloc) plus, for the JSON-level damage, a template. */
static size_t valid_glb(unsigned char **out, const char *accessor_patch)
{
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    char json[1024];
    int n = snprintf(json, sizeof json,
                     "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
                     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],\"buffers\":[{\"byteLength\":36}],"
                     "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36}],"
                     "\"accessors\":[%s]}",
                     accessor_patch ? accessor_patch : "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}");
    return test_glb_bytes(json, (size_t)n, positions, sizeof positions, out);
}

/* The undamaged GLB written to the temporary folder as `name`; its bytes in *glb (free them), their count. */
static size_t write_valid_glb(const char *name, char path[512], unsigned char **glb)
{
    size_t size = valid_glb(glb, NULL);
    snprintf(path, 512, "%s/%s", temp_dir, name);
    CHECK(test_write_file(path, *glb, size), "write");
    return size;
}

void test_damaged(void)
{
    unsigned char *glb = NULL;
    char path[512], error[512];
    size_t size = write_valid_glb("valid.glb", path, &glb);
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "the undamaged GLB: %s", error);
    if (ok) model_free(&model);

    unsigned char *copy = malloc(size + 64);
    memcpy(copy, glb, size);
    put32(copy + 8, (uint32_t)size + 100);
    expect_damaged("GLB header length past the file", "long.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    put32(copy + 12, (uint32_t)size);
    expect_damaged("JSON chunk length past the end", "json_chunk.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    memcpy(copy + 16, "BIN", 4);
    expect_damaged("first chunk not JSON", "first_chunk.glb", copy, size, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    put32(copy + 4, 3);
    expect_damaged("GLB version 3", "version.glb", copy, size, "version");
    expect_damaged("GLB cut after 15 bytes", "cut15.glb", glb, 15, "truncated or damaged glTF binary");
    expect_damaged("GLB cut inside the BIN chunk", "cut_bin.glb", glb, size - 8, "truncated or damaged glTF binary");
    memcpy(copy, glb, size);
    uint32_t json_length = (uint32_t)copy[12] | (uint32_t)copy[13] << 8;
    copy[20] = '#';   /* the opening brace */
    expect_damaged("GLB with damaged JSON", "json.glb", copy, size, "JSON");
    /* BIN chunk shorter than the buffer's byteLength */
    memcpy(copy, glb, size);
    uint32_t bin_at = 20 + ((json_length + 3) & ~3u);
    put32(copy + bin_at, 24);
    put32(copy + 8, bin_at + 8 + 24);
    expect_damaged("BIN chunk shorter than the buffer", "short_bin.glb", copy, bin_at + 8 + 24, "fewer than its byteLength");
    free(copy);
    free(glb);

    const char *text = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0}";
    expect_damaged("truncated .gltf JSON", "cut.gltf", text, strlen(text), "JSON");
    const char *patches[][2] = {
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}", "accessor past its bufferView"},
        {"{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", "accessor offset past its view"},
        {"{\"bufferView\":7,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", "bufferView that does not exist"},
        {"{\"bufferView\":0,\"componentType\":5127,\"count\":3,\"type\":\"VEC3\"}", "unknown componentType"},
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC7\"}", "unknown type"},
        {"{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,\"indices\":"
         "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5125},\"values\":{\"bufferView\":0}}}",
         "sparse index past count"},   /* index = the bits of 1.0f */
        {"{\"componentType\":5126,\"count\":300000000,\"type\":\"VEC3\"}", "absurd count without a view"},
    };
    for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
        size = valid_glb(&glb, patches[i][0]);
        char name[64];
        snprintf(name, sizeof name, "patch%zu.glb", i);
        expect_damaged(patches[i][1], name, glb, size, NULL);
        free(glb);
    }
    const char *cycle = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[1]},"
                        "{\"children\":[0]}]}";
    expect_damaged("a node cycle", "cycle.gltf", cycle, strlen(cycle), "recursive reference");
    const char *child = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[5]}]}";
    expect_damaged("a child that does not exist", "child.gltf", child, strlen(child), "child");
}

/* ---- read once ------------------------------------------------------------------------------------- */

void test_read_once(void)
{
    unsigned char *glb = NULL;
    char path[512], error[512];
    write_valid_glb("once.glb", path, &glb);
    free(glb);
    long before = gltf_file_reads();
    Model model;
    bool ok = import_quiet(path, &model, error, sizeof error, 0);
    CHECK(ok, "import: %s", error);
    if (ok) model_free(&model);
    CHECK(gltf_file_reads() - before == 1, "the .glb was read %ld times", gltf_file_reads() - before);
    /* the demo (a real skinned, animated .glb) */
    before = gltf_file_reads();
    ok = import_quiet(SKINVIEW_SOURCE_DIR "/assets/demo.glb", &model, error, sizeof error, 0);
    CHECK(ok, "demo.glb: %s", error);
    if (ok) model_free(&model);
    CHECK(gltf_file_reads() - before == 1, "demo.glb was read %ld times", gltf_file_reads() - before);
}
