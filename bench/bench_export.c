/* bench_export — --export-gltf cost: per model, the import, the GLB export and the meshopt GLB export
 * (median of N runs, in-process, src/io/gltf_export.c) and the file sizes; with --fbx2gltf PATH also that
 * converter on the same file (wall time of the whole process, median of N; its GLB's size), for
 * docs/export.md. Not a test: prints numbers.
 *   build/bench_export MODEL... [--runs N] [--fbx2gltf PATH] [--json] */
#include "io/gltf_write.h"
#include "io/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    int runs = 5;
    const char *fbx2gltf = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--fbx2gltf") == 0 && i + 1 < argc) fbx2gltf = argv[++i];
        else if (strcmp(argv[i], "--json") == 0) json = true;
    }
    if (runs < 1 || runs > 100) runs = 5;
    double *t = malloc(sizeof(double) * (size_t)runs);
    char out[256], stem[256];
    snprintf(out, sizeof out, "/tmp/bench_export_%d.glb", (int)getpid());
    snprintf(stem, sizeof stem, "/tmp/bench_export_fbx2gltf_%d", (int)getpid());
    if (!json)
        printf("%-44s %9s %9s %9s %11s %11s %9s %11s\n", "model", "import s", "glb s", "meshopt s", "glb bytes",
               "meshopt B", "fbx2gltf s", "fbx2gltf B");
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (strcmp(argv[i], "--runs") == 0 || strcmp(argv[i], "--fbx2gltf") == 0) i++;
            continue;
        }
        const char *path = argv[i];
        Model model = {0};
        char error[512];
        ImportOptions options = {.quiet = true};
        for (int r = 0; r < runs; r++) {
            model_free(&model);
            double start = now();
            if (!import_model(path, &options, &model, error, sizeof error)) {
                fprintf(stderr, "bench_export: %s: %s\n", path, error);
                break;
            }
            t[r] = now() - start;
        }
        if (model.mesh_count == 0 && model.skeleton.joint_count == 0) continue;
        double import_s = median(t, runs), export_s[2];
        long bytes[2];
        for (int meshopt = 0; meshopt < 2; meshopt++) {
            GltfExportOptions export_options = {.meshopt = meshopt == 1};
            GltfExportReport report = {0};
            for (int r = 0; r < runs; r++) {
                double start = now();
                if (!gltf_export(&model, out, &export_options, &report, error, sizeof error)) {
                    fprintf(stderr, "bench_export: %s: %s\n", path, error);
                    t[r] = 0;
                } else
                    t[r] = now() - start;
            }
            export_s[meshopt] = median(t, runs);
            bytes[meshopt] = file_size(out);
            unlink(out);
        }
        double other_s = -1;
        long other_bytes = -1;
        if (fbx2gltf) {
            char command[4096], glb[300];
            snprintf(command, sizeof command, "'%s' -b --input '%s' --output '%s' >/dev/null 2>&1", fbx2gltf, path, stem);
            snprintf(glb, sizeof glb, "%s.glb", stem);
            for (int r = 0; r < runs; r++) {
                double start = now();
                int rc = system(command);
                t[r] = rc == 0 ? now() - start : -1;
            }
            other_s = median(t, runs);
            other_bytes = file_size(glb);
            unlink(glb);
        }
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (json)
            printf("{\"model\":\"%s\",\"import_s\":%.4f,\"glb_s\":%.4f,\"meshopt_s\":%.4f,\"glb_bytes\":%ld,\"meshopt_bytes\":%ld,"
                   "\"fbx2gltf_s\":%.4f,\"fbx2gltf_bytes\":%ld}\n",
                   name, import_s, export_s[0], export_s[1], bytes[0], bytes[1], other_s, other_bytes);
        else
            printf("%-44s %9.3f %9.3f %9.3f %11ld %11ld %9.3f %11ld\n", name, import_s, export_s[0], export_s[1], bytes[0],
                   bytes[1], other_s, other_bytes);
        model_free(&model);
    }
    free(t);
    return 0;
}
