/* test_deep_hierarchy.c — node trees tens of thousands deep (issue 12).
 *
 * Assimp's readers recurse once per node level; before the import ran on its own 1 GiB stack a
 * glTF of 20 000 nested nodes killed skinview with SIGSEGV and no message. Writes glTF files
 * with a chain of N nested nodes and a triangle on the deepest one, and runs the real binary:
 *   - 60 000 deep: --info and --export-pose succeed (exit 0);
 *   - 100 000 deep: refused with one line (more nodes than skinview accepts), exit 1;
 *   - 60 000 deep with the import stack shrunk to 8 MiB (SKINVIEW_IMPORT_STACK_MB): skinview's own
 *     glTF reader (src/io/gltf/) walks the tree without recursion, so it still succeeds (Assimp, which
 *     read glTF before, ran off its stack here; the guard that catches that still serves the
 *     formats Assimp reads).
 * Plus the in-memory path the fuzzer uses, on the 60 000-deep file.
 */
#include "io/import.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A chain root -> n1 -> ... -> n(depth-1), the last holding one triangle (base64 data URI). */
static bool write_chain(const char *path, int depth)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    /* 3 float positions (0,0,0) (1,0,0) (0,1,0), then uint16 indices 0 1 2 + 2 bytes padding */
    static const char buffer_base64[] =
        "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAA=";
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (int i = 0; i < depth; i++) {
        if (i + 1 < depth) fprintf(f, "{\"name\":\"n%d\",\"children\":[%d]},", i, i + 1);
        else fprintf(f, "{\"name\":\"n%d\",\"mesh\":0}", i);
    }
    fprintf(f, "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
               "\"buffers\":[{\"byteLength\":44,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
               "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
               "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":6}],"
               "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
               "\"min\":[0,0,0],\"max\":[1,1,0]},"
               "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}]}\n",
            buffer_base64);
    return fclose(f) == 0;
}

/* Runs `command` (stderr captured), expects exit code `expected` and at most one stderr line
 * containing `word` (when not NULL). */
static void expect_run(const char *what, const char *command, int expected, const char *word)
{
    char output[8192];
    char full[2048];
    snprintf(full, sizeof full, "%s 2>&1 >/dev/null", command);
    int status = test_run_status(full, output, sizeof output);
    bool exited = status != -1 && WIFEXITED(status);
    CHECK(exited, "%s: did not exit normally (status 0x%x, signal %d): %s", what, status,
          WIFSIGNALED(status) ? WTERMSIG(status) : 0, output);
    if (!exited) return;
    /* the shell reports a child killed by a signal as 128 + N */
    CHECK(WEXITSTATUS(status) == expected, "%s: exit %d, expected %d: %s", what, WEXITSTATUS(status), expected, output);
    if (word) {
        CHECK(strstr(output, word) != NULL, "%s: output does not say '%s': %s", what, word, output);
        size_t n = strlen(output);
        CHECK(n > 0 && strchr(output, '\n') == output + n - 1, "%s: not exactly one line: %s", what, output);
    }
}

int main(void)
{
    char folder[] = "/tmp/skinview_deep_XXXXXX";
    if (!mkdtemp(folder)) return 1;
    char deep[256], deeper[256], pose[256], command[2048];
    snprintf(deep, sizeof deep, "%s/chain60000.gltf", folder);
    snprintf(deeper, sizeof deeper, "%s/chain100000.gltf", folder);
    snprintf(pose, sizeof pose, "%s/pose.obj", folder);
    CHECK(write_chain(deep, 60000) && write_chain(deeper, 100000), "cannot write the test files");

    snprintf(command, sizeof command, "'%s' '%s' --info", SKINVIEW_BINARY, deep);
    expect_run("60 000 deep --info", command, 0, NULL);
    snprintf(command, sizeof command, "'%s' '%s' --export-pose '%s'", SKINVIEW_BINARY, deep, pose);
    expect_run("60 000 deep --export-pose", command, 0, NULL);
    CHECK(test_file_exists(pose), "no OBJ written");

    snprintf(command, sizeof command, "'%s' '%s' --info", SKINVIEW_BINARY, deeper);
    expect_run("100 000 deep", command, 1, "more than 65536 nodes");

    snprintf(command, sizeof command, "SKINVIEW_IMPORT_STACK_MB=8 '%s' '%s' --info", SKINVIEW_BINARY, deep);
    expect_run("8 MiB import stack: no recursion in the glTF reader", command, 0, NULL);

    /* the same file through the in-memory door */
    FILE *f = fopen(deep, "rb");
    char *bytes = NULL;
    long size = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)size);
        if (bytes && fread(bytes, 1, (size_t)size, f) != (size_t)size) size = 0;
    }
    if (f) fclose(f);
    Model model;
    char error[512];
    ImportOptions options = {.quiet = true};
    bool ok = bytes && size > 0 && import_model_from_memory(bytes, (size_t)size, "gltf", &options, &model, error, sizeof error);
    CHECK(ok, "in-memory import of the 60 000-deep chain failed: %s", error);
    if (ok) {
        CHECK(model.skeleton.joint_count == 60000, "%d joints, not 60000", model.skeleton.joint_count);
        CHECK(model.mesh_count == 1 && model.meshes[0].node_joint == 59999, "the triangle is not on the deepest node");
        model_free(&model);
    }
    free(bytes);

    unlink(deep);
    unlink(deeper);
    unlink(pose);
    rmdir(folder);
    return test_finish();
}
