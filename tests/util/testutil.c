#define _DEFAULT_SOURCE   /* usleep: POSIX/XSI beyond C11 (test_find_window) */
#include "testutil.h"
#include "base/whole_file.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int test_passed, test_failed;
long test_allocations;

bool test_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

bool test_write_text(const char *path, const char *text) { return test_write_file(path, text, strlen(text)); }

bool test_copy_file(const char *from, const char *to)
{
    size_t size = 0;
    char *data = test_read_file(from, &size);
    bool ok = data && test_write_file(to, data, size);
    free(data);
    return ok;
}

bool test_make_folder(char *folder, size_t folder_size, const char *name)
{
    snprintf(folder, folder_size, "/tmp/%s-XXXXXX", name);
    if (mkdtemp(folder)) return true;
    fprintf(stderr, "cannot create a temporary folder %s\n", folder);
    return false;
}

void test_remove_folder(const char *folder)
{
    if (getenv("SKINVIEW_KEEP_TEST_FILES")) {
        printf("test files kept in %s\n", folder);
        return;
    }
    char command[1200];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
}

void test_walk_files(const char *folder, int max_depth, void (*visit)(const char *path, void *context), void *context)
{
    DIR *dir = opendir(folder);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        struct stat info;
        if (stat(path, &info) != 0) continue;
        if (S_ISDIR(info.st_mode)) {
            if (max_depth > 0) test_walk_files(path, max_depth - 1, visit, context);
        } else if (S_ISREG(info.st_mode)) {
            visit(path, context);
        }
    }
    closedir(dir);
}

bool test_run_mode(const char *program, const char *mode, const TestMode *modes, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(mode, modes[i].name) == 0) {
            modes[i].run();
            return true;
        }
    fprintf(stderr, "usage: %s ", program);
    for (int i = 0; i < count; i++) fprintf(stderr, "%s%s", i ? "|" : "", modes[i].name);
    fputc('\n', stderr);
    return false;
}

int test_read_obj_positions(const char *path, float out[][3], int capacity)
{
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    int count = 0;
    char line[256];
    while (fgets(line, sizeof line, file))
        if (line[0] == 'v' && line[1] == ' ' && count < capacity &&
            sscanf(line + 2, "%f %f %f", &out[count][0], &out[count][1], &out[count][2]) == 3)
            count++;
    fclose(file);
    return count;
}

Clip *test_add_clips(Model *model, int count)
{
    model->clip_count = count;
    model->clips = test_calloc((size_t)count, sizeof(Clip));
    return model->clips;
}

Clip *test_clip_init(Clip *clip, const char *name, float duration, int track_count)
{
    snprintf(clip->name, sizeof clip->name, "%s", name);
    clip->duration = duration;
    clip->track_count = track_count;
    clip->tracks = test_calloc((size_t)track_count, sizeof(JointTrack));
    return clip;
}

int test_skinview_status(const char *args, char *err, size_t err_size)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' %s 2>&1 >/dev/null", SKINVIEW_BINARY, args);
    return test_run_status(command, err, err_size);
}

int test_skinview_code(const char *args, char *err, size_t err_size)
{
    int status = test_skinview_status(args, err, err_size);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void test_verify(const char *label, const char *path, const char *more, char *output, size_t output_size)
{
    char command[2048];
    snprintf(command, sizeof command, "'%s' '%s' %s --verify 2>&1", SKINVIEW_BINARY, path, more);
    int code = test_run_capture(command, output, output_size);
    if (code != 0 && strstr(output, "no OpenGL context")) {
        printf("%s: --verify skipped, no OpenGL here\n", label);
        return;
    }
    CHECK(code == 0 && strstr(output, "verify passed"), "%s: --verify (GPU vs CPU) exit %d:\n%s", label, code, output);
}

void *test_calloc(size_t count, size_t size)
{
    void *p = calloc(count > 0 ? count : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

int test_finish(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed > 0 ? 1 : 0;
}

void test_naive_mat4_mul(const float a[4][4], const float b[4][4], float out[4][4])
{
    float r[4][4];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) s += a[k][row] * b[c][k];
            r[c][row] = s;
        }
    memcpy(out, r, sizeof r);
}

/* A Collada skin's <bind_shape_matrix> (16 numbers, row by row) for the <node id="node_id"> holding
 * its <instance_controller>, found by scanning the file's text. False if there is none. */
static bool collada_bind_shape(const char *path, const char *node_id, float rows[16])
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    static char text[4 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char key[160];
    snprintf(key, sizeof key, "id=\"%s\"", node_id);
    const char *node = NULL;
    for (const char *p = strstr(text, "<node"); p && !node; p = strstr(p + 1, "<node")) {
        const char *close = strchr(p, '>');
        const char *id = strstr(p, key);
        if (close && id && id < close) node = close;
    }
    if (!node) return false;
    const char *instance = strstr(node, "<instance_controller");
    const char *next_node = strstr(node, "<node"), *end_node = strstr(node, "</node>");
    if (!instance || (next_node && next_node < instance) || (end_node && end_node < instance)) return false;
    const char *url = strstr(instance, "url=\"#");
    if (!url) return false;
    url += 6;
    const char *quote = strchr(url, '"');
    if (!quote || quote - url >= 120) return false;
    snprintf(key, sizeof key, "<controller id=\"%.*s\"", (int)(quote - url), url);
    const char *controller = strstr(text, key);
    if (!controller) return false;
    const char *bsm = strstr(controller, "<bind_shape_matrix>"), *end = strstr(controller, "</controller>");
    if (!bsm || (end && end < bsm)) {
        for (int i = 0; i < 16; i++) rows[i] = i % 5 == 0 ? 1.0f : 0.0f;   /* Collada's default: identity */
        return true;
    }
    const char *p = bsm + strlen("<bind_shape_matrix>");
    for (int i = 0; i < 16; i++) {
        char *next;
        rows[i] = strtof(p, &next);
        if (next == p) return false;
        p = next;
    }
    return true;
}

void test_mesh_bind_matrix(const char *path, const Model *model, int mesh, float out[4][4])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[c][r] = c == r ? 1.0f : 0.0f;
    const char *dot = strrchr(path, '.');
    if (dot && (strcasecmp(dot, ".gltf") == 0 || strcasecmp(dot, ".glb") == 0)) return;
    float rows[16];
    int node = model->meshes[mesh].node_joint;
    if (dot && strcasecmp(dot, ".dae") == 0 && node >= 0 && collada_bind_shape(path, model->skeleton.names[node], rows)) {
        /* Collada: R * BSM, R = the root's rest matrix (the Collada world: unit, up axis) */
        int root = node;
        while (model->skeleton.parent[root] >= 0) root = model->skeleton.parent[root];
        float bsm[4][4];
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) bsm[c][r] = rows[4 * r + c];
        test_naive_mat4_mul(model->skeleton.rest_local[root], (const float(*)[4])bsm, out);
        return;
    }
    for (int j = model->meshes[mesh].node_joint; j >= 0; j = model->skeleton.parent[j]) {
        float product[4][4];
        test_naive_mat4_mul(model->skeleton.rest_local[j], (const float(*)[4])out, product);
        memcpy(out, product, sizeof product);
    }
}

bool test_is_gltf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (strcasecmp(dot, ".gltf") == 0 || strcasecmp(dot, ".glb") == 0);
}

bool test_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

const char *const test_required_skinned[] = {
    "FBX/huesitos.fbx",
    "FBX/animation_with_skeleton.fbx",
    "X/BCN_Epileptic.X",
    "X/Testwuson.X",
    "X/anim_test.x",
    "glTF2/simple_skin/simple_skin.gltf",
    /* added by the import tests (skinned models Assimp 5.2 reads; found by scanning the package) */
    "Collada/box_nested_animation.dae",
    "Collada/lights.dae",
    "Collada/cameras.dae",
    "MD5/SimpleCube.md5mesh",
    "SMD/WusonSMD.smd",
    "SMD/holy_grailref.smd",
    "SMD/triangle.smd",
    "X/test_cube_text.x",
    "X/test_cube_binary.x",
    "X/test_cube_compressed.x",
    "MDL/MDL (HL1)/man.mdl",
    "MDL/MDL (HL1)/alpha_test.mdl",
    "MDL/MDL (HL1)/blend_additive.mdl",
    "MDL/MDL (HL1)/chrome_sphere.mdl",
    "MDL/MDL (HL1)/duplicate_bodyparts.mdl",
    "MDL/MDL (HL1)/duplicate_sequences.mdl",
    "MDL/MDL (HL1)/duplicate_submodels.mdl",
    "MDL/MDL (HL1)/sequence_transitions.mdl",
    "MDL/MDL (HL1)/unnamed_bodyparts.mdl",
    "MDL/MDL (HL1)/unnamed_bones.mdl",
    "MDL/MDL (HL1)/unnamed_sequences.mdl",
    "MDL/MDL (HL1)/duplicate_sequence_groups/duplicate_sequence_groups.mdl",
    "MDL/MDL (HL1)/unnamed_sequence_groups/unnamed_sequence_groups.mdl",
};
const int test_required_skinned_count = (int)(sizeof test_required_skinned / sizeof test_required_skinned[0]);

static bool has_model_extension(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot) return false;
    return strcasecmp(dot, ".fbx") == 0 || strcasecmp(dot, ".glb") == 0 || strcasecmp(dot, ".gltf") == 0 ||
           strcasecmp(dot, ".dae") == 0;
}

bool test_fbx_is_legacy(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strcasecmp(dot, ".fbx") != 0) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    static char head[65536 + 1];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    int version = 0;
    if (n >= 27 && memcmp(head, "Kaydara FBX Binary  ", 20) == 0) {
        const unsigned char *v = (const unsigned char *)head + 23;
        version = (int)(v[0] | v[1] << 8 | v[2] << 16 | (unsigned)v[3] << 24);
    } else {
        for (size_t i = 0; i < n; i++)
            if (head[i] == '\0') head[i] = ' ';
        const char *at = strstr(head, "FBXVersion:");
        int major = 0, minor = 0;
        if (at) version = atoi(at + 11);
        else if ((at = strstr(head, "; FBX ")) && sscanf(at, "; FBX %d.%d", &major, &minor) == 2) version = major * 1000 + minor * 100;
    }
    return version > 0 && version < 7100;
}

int test_skinned_models(TestModel *models, int capacity)
{
    int n = 0;
    for (int i = 0; i < test_required_skinned_count && n < capacity; i++) {
        snprintf(models[n].path, sizeof models[n].path, "%s/%s", SKINVIEW_TESTMODELS_DIR, test_required_skinned[i]);
        models[n].skinned = true;
        n++;
    }
    DIR *shared = opendir(SKINVIEW_SHARED_MODELS_DIR);
    if (!shared) return n;
    struct dirent *folder;
    while ((folder = readdir(shared)) && n < capacity) {
        if (folder->d_name[0] == '.') continue;
        char dir_path[512];
        snprintf(dir_path, sizeof dir_path, "%s/%s", SKINVIEW_SHARED_MODELS_DIR, folder->d_name);
        DIR *dir = opendir(dir_path);
        if (!dir) continue;
        struct dirent *file;
        while ((file = readdir(dir)) && n < capacity) {
            if (!has_model_extension(file->d_name)) continue;
            if (strlen(dir_path) + strlen(file->d_name) + 2 > sizeof models[n].path) continue;
            snprintf(models[n].path, sizeof models[n].path, "%.511s/%.255s", dir_path, file->d_name);
            models[n].skinned = true;
            n++;
        }
        closedir(dir);
    }
    closedir(shared);
    return n;
}

int test_present_skinned_models(TestModel *models, int capacity)
{
    int count = test_skinned_models(models, capacity), present = 0;
    for (int i = 0; i < count; i++) {
        if (!test_file_exists(models[i].path)) {
            CHECK(false, "required test model missing: %s", models[i].path);
            continue;
        }
        if (present != i) models[present] = models[i];
        present++;
    }
    return present;
}

int test_run_status(const char *command, char *out, size_t out_size)
{
    if (out_size > 0) out[0] = '\0';
    FILE *pipe = popen(command, "r");
    if (!pipe) return -1;
    size_t n = fread(out, 1, out_size - 1, pipe);
    out[n] = '\0';
    return pclose(pipe);
}

int test_run_capture(const char *command, char *out, size_t out_size)
{
    int status = test_run_status(command, out, out_size);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool test_xdotool(const char *arguments, char *out, size_t out_size)
{
    char command[512], scratch[256];
    snprintf(command, sizeof command, "xdotool %s 2>/dev/null", arguments);
    if (!out) out = scratch, out_size = sizeof scratch;
    return test_run_capture(command, out, out_size) == 0;
}

bool test_have_xdotool(char *geometry, size_t geometry_size)
{
    return getenv("DISPLAY") && test_run_capture("command -v xdotool >/dev/null 2>&1", geometry, geometry_size) == 0 &&
           test_xdotool("getdisplaygeometry", geometry, geometry_size);
}

bool test_find_window(int pid, char *window, size_t window_size, double seconds)
{
    char arguments[64];
    snprintf(arguments, sizeof arguments, "search --pid %d", pid);
    window[0] = '\0';
    for (double waited = 0.0; waited < seconds && !window[0]; waited += 0.1) {
        if (test_xdotool(arguments, window, window_size)) window[strcspn(window, "\n")] = '\0';
        if (!window[0]) usleep(100000);
    }
    return window[0] != '\0';
}

size_t test_blob_add(TestBlob *blob, const void *data, size_t size)
{
    size_t offset = blob->size;
    CHECK(offset + size <= TEST_BLOB_BYTES, "test_blob_add: %zu bytes more than TEST_BLOB_BYTES", offset + size - TEST_BLOB_BYTES);
    if (offset + size > TEST_BLOB_BYTES) return offset;
    memcpy(blob->bytes + offset, data, size);
    blob->size += (size + 3) & ~(size_t)3;   /* the next piece 4-byte aligned */
    if (blob->size > TEST_BLOB_BYTES) blob->size = TEST_BLOB_BYTES;
    return offset;
}

void test_base64(const unsigned char *in, size_t n, char *out)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = table[(v >> 18) & 63];
        out[o++] = table[(v >> 12) & 63];
        out[o++] = i + 1 < n ? table[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? table[v & 63] : '=';
    }
    out[o] = '\0';
}

bool test_write_clips_gltf_with(const char *path, const TestClipsGltf *o)
{
    unsigned char buffer[512];
    size_t at = 0;
#define PUT(value) do { memcpy(buffer + at, &(value), sizeof(value)); at += sizeof(value); } while (0)
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    PUT(positions);                                   /* 0: 36 bytes */
    const uint16_t indices[4] = {0, 1, 2, 0};
    PUT(indices);                                     /* 36: 8 bytes */
    const uint8_t joints[12] = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
    PUT(joints);                                      /* 44: 12 bytes */
    float weights[12] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    if (o->zero_weights) memset(weights, 0, sizeof weights);
    PUT(weights);                                     /* 56: 48 bytes */
    float binds[32] = {0};
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 4; i++) binds[m * 16 + i * 5] = 1.0f;
    binds[16 + 13] = -1.0f;                           /* joint 1 one unit up: inverse translates down */
    if (o->singular_bind) binds[16 + 5] = 0.0f;       /* y axis of joint 1's inverse bind squashed */
    PUT(binds);                                       /* 104: 128 bytes */
    float times[2] = {0.0f, 1.0f};
    if (o->backwards_keys) times[0] = 1.0f, times[1] = 0.0f;
    PUT(times);                                       /* 232: 8 bytes */
    const float moves[6] = {0, 1, 0, 0, o->knee_key != 0.0f ? o->knee_key : 1.5f, 0};
    PUT(moves);                                       /* 240: 24 bytes -> 264 */
#undef PUT
    char encoded[1024], buffer_json[1200];
    size_t json_size = 8192 + 200 * (size_t)(o->clip_count > 0 ? o->clip_count : 0);   /* ~150 bytes a clip */
    char *json = malloc(json_size);
    if (!json) return false;
    test_base64(buffer, at, encoded);
    if (o->glb) snprintf(buffer_json, sizeof buffer_json, "{\"byteLength\":%zu}", at);
    else snprintf(buffer_json, sizeof buffer_json, "{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}", at, encoded);
    size_t n = (size_t)snprintf(json, json_size,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1,2]},{\"name\":\"body\",\"mesh\":0,\"skin\":0},"
        "{\"name\":\"hip\",\"children\":[3]},{\"name\":\"knee\",\"translation\":[0,1,0]}],"
        "\"skins\":[{\"joints\":[2,3]%s}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":3},"
        "\"indices\":1%s}]}],",
        o->no_inverse_binds ? "" : ",\"inverseBindMatrices\":4", o->texture ? ",\"material\":0" : "");
    if (o->texture)
        n += (size_t)snprintf(json + n, json_size - n,
                              "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                              "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"%s\"}],", o->texture);
    n += (size_t)snprintf(json + n, json_size - n, "\"animations\":[");
    for (int c = 0; c < o->clip_count && n < json_size; c++)
        n += (size_t)snprintf(json + n, json_size - n,
                              "%s{\"name\":\"clip_%02d\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,"
                              "\"path\":\"translation\"}}],\"samplers\":[{\"input\":5,\"output\":6}]}", c ? "," : "", c);
    if (n < json_size)
        n += (size_t)snprintf(json + n, json_size - n,
            "],\"buffers\":[%s],"
            "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
            "\"byteLength\":6},{\"buffer\":0,\"byteOffset\":44,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":56,"
            "\"byteLength\":48},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":128},{\"buffer\":0,\"byteOffset\":232,"
            "\"byteLength\":8},{\"buffer\":0,\"byteOffset\":240,\"byteLength\":24}],"
            "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],"
            "\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
            "{\"bufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
            "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]}\n",
            buffer_json);
    bool ok = n < json_size;
    if (ok && !o->glb) {
        ok = test_write_text(path, json);
    } else if (ok) {
        unsigned char *glb = NULL;
        size_t glb_size = test_glb_bytes(json, n, buffer, at, &glb);
        ok = glb_size > 0 && test_write_file(path, glb, glb_size);
        free(glb);
    }
    free(json);
    return ok;
}

bool test_write_clips_gltf(const char *path, int clip_count)
{
    return test_write_clips_gltf_with(path, &(TestClipsGltf){.clip_count = clip_count});
}

/* ---- glTF writer ----------------------------------------------------------------------- */

void test_gltf_init(TestGltf *g)
{
    memset(g, 0, sizeof *g);
}

void test_gltf_free(TestGltf *g)
{
    free(g->bin);
    free(g->views);
    free(g->accessors);
    memset(g, 0, sizeof *g);
}

static void append_text(char **text, size_t *length, const char *piece)
{
    size_t n = strlen(piece);
    char *grown = realloc(*text, *length + n + 2);
    if (!grown) return;
    *text = grown;
    if (*length > 0) (*text)[(*length)++] = ',';
    memcpy(*text + *length, piece, n + 1);
    *length += n;
}

int test_gltf_view(TestGltf *g, const void *bytes, size_t size, int byte_stride)
{
    size_t offset = g->bin_size;
    size_t padded = (size + 3) & ~(size_t)3;
    if (offset + padded > g->bin_capacity) {
        size_t capacity = 2 * (offset + padded) + 64;
        unsigned char *grown = realloc(g->bin, capacity);
        if (!grown) return -1;
        g->bin = grown;
        g->bin_capacity = capacity;
    }
    memcpy(g->bin + offset, bytes, size);
    memset(g->bin + offset + size, 0, padded - size);
    g->bin_size += padded;
    char json[160];
    if (byte_stride > 0)
        snprintf(json, sizeof json, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"byteStride\":%d}", offset, size,
                 byte_stride);
    else snprintf(json, sizeof json, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", offset, size);
    append_text(&g->views, &g->views_length, json);
    return g->view_count++;
}

int test_gltf_accessor(TestGltf *g, int view, size_t byte_offset, int component_type, bool normalized, int count,
                       const char *type, const char *extra)
{
    char json[4096];
    int n = snprintf(json, sizeof json, "{");
    if (view >= 0) n += snprintf(json + n, sizeof json - (size_t)n, "\"bufferView\":%d,\"byteOffset\":%zu,", view, byte_offset);
    n += snprintf(json + n, sizeof json - (size_t)n, "\"componentType\":%d,\"count\":%d,\"type\":\"%s\"%s", component_type,
                  count, type, normalized ? ",\"normalized\":true" : "");
    if (extra) n += snprintf(json + n, sizeof json - (size_t)n, ",%s", extra);
    snprintf(json + n, sizeof json - (size_t)n, "}");
    append_text(&g->accessors, &g->accessors_length, json);
    return g->accessor_count++;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

size_t test_glb_bytes(const char *json, size_t json_length, const void *bin, size_t bin_size, unsigned char **out)
{
    size_t json_padded = (json_length + 3) & ~(size_t)3, bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    unsigned char *b = calloc(total, 1);
    if (!b) return 0;
    memcpy(b, "glTF", 4);
    put_le32(b + 4, 2);
    put_le32(b + 8, (uint32_t)total);
    put_le32(b + 12, (uint32_t)json_padded);
    memcpy(b + 16, "JSON", 4);
    memcpy(b + 20, json, json_length);
    memset(b + 20 + json_length, ' ', json_padded - json_length);   /* JSON chunks pad with spaces */
    if (bin) {
        put_le32(b + 20 + json_padded, (uint32_t)bin_padded);
        memcpy(b + 24 + json_padded, "BIN\0", 4);
        memcpy(b + 28 + json_padded, bin, bin_size);
    }
    *out = b;
    return total;
}

bool test_gltf_write(const TestGltf *g, const char *path, const char *members, bool glb)
{
    size_t encoded_size = glb ? 1 : 4 * (g->bin_size / 3 + 1) + 1;
    char *encoded = malloc(encoded_size);
    size_t json_size = strlen(members) + encoded_size + g->views_length + g->accessors_length + 512;
    char *json = malloc(json_size);
    if (!encoded || !json) {
        free(encoded);
        free(json);
        return false;
    }
    if (!glb) test_base64(g->bin, g->bin_size, encoded);
    int n = snprintf(json, json_size, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"skinview tests\"}%s%s", members[0] ? "," : "",
                     members);
    if (g->bin_size > 0) {
        if (glb) n += snprintf(json + n, json_size - (size_t)n, ",\"buffers\":[{\"byteLength\":%zu}]", g->bin_size);
        else
            n += snprintf(json + n, json_size - (size_t)n,
                          ",\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}]", g->bin_size,
                          encoded);
    }
    if (g->view_count > 0) n += snprintf(json + n, json_size - (size_t)n, ",\"bufferViews\":[%s]", g->views);
    if (g->accessor_count > 0) n += snprintf(json + n, json_size - (size_t)n, ",\"accessors\":[%s]", g->accessors);
    n += snprintf(json + n, json_size - (size_t)n, "}");
    free(encoded);
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL;
    if (ok && glb) {
        unsigned char *bytes = NULL;
        size_t size = test_glb_bytes(json, (size_t)n, g->bin_size > 0 ? g->bin : NULL, g->bin_size, &bytes);
        ok = size > 0 && fwrite(bytes, 1, size, f) == size;
        free(bytes);
    } else if (ok) {
        ok = fwrite(json, 1, (size_t)n, f) == (size_t)n;
    }
    if (f) ok = fclose(f) == 0 && ok;
    free(json);
    return ok;
}

char *test_read_file(const char *path, size_t *size)
{
    size_t length = 0;
    char *text = whole_file_read(path, (size_t)-1, &length, NULL);
    if (size) *size = length;
    return text;
}
