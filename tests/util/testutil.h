/* testutil.h — tiny assertion helpers and the list of real test models.
 * Every test program ends with test_finish(), which prints "N passed, N failed"
 * and returns non-zero if any check failed. Exit code 77 = skipped (CTest SKIP_RETURN_CODE). */
#ifndef SKINVIEW_TESTUTIL_H
#define SKINVIEW_TESTUTIL_H

#include "anim/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TEST_SKIP_CODE 77

extern int test_passed, test_failed;

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (cond) {                                                               \
            test_passed++;                                                        \
        } else {                                                                  \
            test_failed++;                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
        }                                                                         \
    } while (0)

int test_finish(void);

/* out = a * b for column-major 4x4 matrices, written out longhand so expectations
 * computed with it do not rely on cglm (the library under test's own math). */
void test_naive_mat4_mul(const float a[4][4], const float b[4][4], float out[4][4]);

bool test_file_exists(const char *path);

/* Writes size bytes (write_text: a NUL-terminated text) to path, replacing it; false if it cannot. */
bool test_write_file(const char *path, const void *data, size_t size);
bool test_write_text(const char *path, const char *text);
/* Copies the file `from` to `to`; false if either cannot be read or written. */
bool test_copy_file(const char *from, const char *to);

/* A new folder /tmp/NAME-XXXXXX (mkdtemp) into folder (folder_size bytes); false, with a message,
 * if it cannot be made. test_remove_folder removes it and all in it, unless SKINVIEW_KEEP_TEST_FILES
 * is set (then it says where the files are). */
bool test_make_folder(char *folder, size_t folder_size, const char *name);
void test_remove_folder(const char *folder);

/* Calls visit(path, context) for every regular file in folder and in its subfolders down to
 * max_depth levels below it (names starting with '.' are passed over), in readdir order. */
void test_walk_files(const char *folder, int max_depth, void (*visit)(const char *path, void *context), void *context);

/* A part of a test program that its argument picks (CTest runs each as a test of its own). */
typedef struct TestMode {
    const char *name;
    void (*run)(void);
} TestMode;
/* Runs the mode named `mode` among modes[count]; for any other name it prints
 * "usage: PROGRAM a|b|..." and returns false (the program then exits with 2). */
bool test_run_mode(const char *program, const char *mode, const TestMode *modes, int count);

/* The positions of an OBJ's "v x y z" lines into out (at most capacity of them); their count, -1 if
 * the file cannot be read. */
int test_read_obj_positions(const char *path, float out[][3], int capacity);

/* For models built by hand: `count` zeroed clips on model (its clips replaced); one clip named, `duration`
 * long, with track_count zeroed joint tracks. Each returns the first of what it made. */
Clip *test_add_clips(Model *model, int count);
Clip *test_clip_init(Clip *clip, const char *name, float duration, int track_count);

/* calloc that never returns NULL (a count of 0 asks for one element); out of memory ends the test. */
void *test_calloc(size_t count, size_t size);

/* malloc / calloc / realloc calls so far, counted by util/alloc_count.c in the programs
 * skinview_test(... WRAP_MALLOC) links with -Wl,--wrap=malloc,... (TEST_WRAP_MALLOC is then
 * defined); it stays 0 in every other program. */
extern long test_allocations;

/* The file at `path` whole, NUL-terminated (malloc'd: free() it), *size = its byte count (size may
 * be NULL); NULL if it cannot be read (src/base/whole_file.c, no size limit). */
char *test_read_file(const char *path, size_t *size);

/* Whether `path` is an FBX older than 7.1 (its binary header or ASCII FBXVersion / banner says so):
 * Assimp 5.2.5 refuses those and skinview reads them with its own FBX reader (src/io/fbx/), so
 * tests that take Assimp as their reference skip them (test_fbx_*.c cover them). */
bool test_fbx_is_legacy(const char *path);
/* True for a .gltf / .glb path: skinview reads those itself (src/io/gltf/), so Assimp's reading of
 * them (trap 13 in docs/skinning.md) is no reference; tools/peer_check (three.js) and
 * the io_gltf_* tests are. */
bool test_is_gltf(const char *path);

/* N of a skinned mesh, worked out here without the importer's or the Animator's code: the
 * rest scene matrix of the mesh's node (rest_local multiplied from the root down, longhand),
 * the identity for glTF/GLB files (`path`'s extension), and for Collada files the root's rest
 * matrix times the skin's <bind_shape_matrix> (read from the file's text). */
void test_mesh_bind_matrix(const char *path, const Model *model, int mesh, float out[4][4]);

/* A real test model: path and whether it is required (assimp-testmodels) or optional (../shared). */
typedef struct TestModel {
    char path[1024];
    bool skinned;
} TestModel;

/* Fills models[] with the skinned models of assimp-testmodels (required: a missing one
 * is a test failure) and of ../shared/models (when that folder exists). Returns the count. */
int test_skinned_models(TestModel *models, int capacity);

/* test_skinned_models() without the files that are missing, each of which is a failed CHECK
 * ("required test model missing: PATH"). Returns the count of those present. */
int test_present_skinned_models(TestModel *models, int capacity);

/* Runs `command` through the shell (popen) and reads what it writes to stdout into out,
 * NUL-terminated, at most out_size - 1 bytes (redirect stderr in `command` to capture it).
 * test_run_status returns the raw wait status (-1 if the command could not be started);
 * test_run_capture returns the exit code (-1 if it could not be started or did not exit). */
int test_run_status(const char *command, char *out, size_t out_size);
int test_run_capture(const char *command, char *out, size_t out_size);

/* xdotool ARGUMENTS (its stderr dropped), its output into out (may be NULL); true when it exits 0. */
bool test_xdotool(const char *arguments, char *out, size_t out_size);

/* A display ($DISPLAY) and xdotool on it: true with the display's "WIDTH HEIGHT" in geometry[]. */
bool test_have_xdotool(char *geometry, size_t geometry_size);

/* The X window of process `pid` (GLFW sets _NET_WM_PID) as xdotool's decimal id into window[],
 * waiting up to `seconds` for it to appear; false ("" in window) when it did not. */
bool test_find_window(int pid, char *window, size_t window_size, double seconds);
/* The real skinview with `args` (already quoted), stdout dropped: its stderr into err (as test_run_status);
 * the raw wait status. test_skinview_code: its exit code (-1 if it did not exit). */
int test_skinview_status(const char *args, char *err, size_t err_size);
int test_skinview_code(const char *args, char *err, size_t err_size);
/* skinview 'PATH' MORE --verify (GPU against CPU; MORE may be ""): a failed CHECK ("LABEL: --verify exit N")
 * unless it says "verify passed"; without an OpenGL context here it only says so. Its text into output. */
void test_verify(const char *label, const char *path, const char *more, char *output, size_t output_size);

/* Bytes of a glTF buffer that a test writes by hand: each test_blob_add() appends at a 4-byte
 * aligned offset (what accessors need) and returns that offset; more than TEST_BLOB_BYTES in all
 * is a failed CHECK (the data is cut). */
#define TEST_BLOB_BYTES 16384
typedef struct TestBlob {
    unsigned char bytes[TEST_BLOB_BYTES];
    size_t        size;
} TestBlob;
size_t test_blob_add(TestBlob *blob, const void *data, size_t size);

/* Base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes): data: URIs of the glTF files tests write. */
void test_base64(const unsigned char *in, size_t n, char *out);

/* Writes a small skinned glTF (one triangle, joints "hip" -> "knee", the knee lifted by each clip)
 * with `clip_count` clips named clip_00, clip_01, ... Returns false if it cannot. */
bool test_write_clips_gltf(const char *path, int clip_count);
/* The same with one thing changed or broken at a time (the zero value of each field: as above). */
typedef struct TestClipsGltf {
    int         clip_count;
    float       knee_key;           /* y of the knee's second translation key (0: 1.5) */
    bool        zero_weights;       /* every weight 0 */
    bool        singular_bind;      /* joint 1's inverse bind squashed along y */
    bool        backwards_keys;     /* key times 1, 0 */
    bool        no_inverse_binds;   /* the skin without inverseBindMatrices (valid: identities) */
    const char *texture;            /* a material with this base colour image uri, or NULL */
    bool        glb;                /* a GLB (the buffer in its BIN chunk), not a .gltf */
} TestClipsGltf;
bool test_write_clips_gltf_with(const char *path, const TestClipsGltf *options);

/* A glTF under construction, for tests that write their own files: binary data goes into one
 * buffer (each view 4-byte aligned), bufferViews and accessors are collected as JSON text, and
 * test_gltf_write() puts them around the rest of the document.
 *     TestGltf g; test_gltf_init(&g);
 *     int view = test_gltf_view(&g, bytes, sizeof bytes, 0);
 *     int positions = test_gltf_accessor(&g, view, 0, 5126, false, 3, "VEC3", NULL);
 *     test_gltf_write(&g, "x.glb", "\"meshes\":[...],\"nodes\":[...]", true);
 *     test_gltf_free(&g); */
typedef struct TestGltf {
    unsigned char *bin;
    size_t         bin_size, bin_capacity;
    char          *views, *accessors;   /* comma-separated JSON objects */
    size_t         views_length, accessors_length;
    int            view_count, accessor_count;
} TestGltf;

void test_gltf_init(TestGltf *g);
void test_gltf_free(TestGltf *g);
/* Appends `size` bytes as a bufferView (byteStride when > 0); returns its index. */
int  test_gltf_view(TestGltf *g, const void *bytes, size_t size, int byte_stride);
/* Adds an accessor on `view` (-1: no bufferView) at byte_offset; `extra` is more JSON members
 * (e.g. "\"sparse\":{...}", "\"min\":[0]") or NULL. Returns its index. */
int  test_gltf_accessor(TestGltf *g, int view, size_t byte_offset, int component_type, bool normalized, int count,
                        const char *type, const char *extra);
/* Writes {"asset":..., <members>, "buffers", "bufferViews", "accessors"} to path: a .gltf with the
 * buffer as a base64 data: URI, or (glb) a GLB with JSON and BIN chunks. False if it cannot. */
bool test_gltf_write(const TestGltf *g, const char *path, const char *members, bool glb);
/* The bytes of a GLB: header, a JSON chunk of json_length bytes, a BIN chunk (bin may be NULL);
 * into out (malloc), its size returned (0 on failure). Chunks are padded as the spec says. */
size_t test_glb_bytes(const char *json, size_t json_length, const void *bin, size_t bin_size, unsigned char **out);

/* Relative paths of the required skinned assimp-testmodels. */
extern const char *const test_required_skinned[];
extern const int test_required_skinned_count;

#endif
