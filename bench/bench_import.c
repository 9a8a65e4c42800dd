/* bench_import.c — how long importing a glTF/GLB takes (src/io/import.c: import_model()).
 *
 *   bench_import [MODEL ...] [--runs N] [--vertices N] [--no-generated | --generated-only] [--json]
 *
 * Without MODEL it times the largest glTF/GLB files at hand: the bundled demo (assets/demo.glb)
 * and, when ../shared/models is there, Xbot, Fox, CesiumMan and RiggedFigure; then a GLB it
 * writes itself into $TMPDIR (default /tmp): one skinned grid of --vertices vertices (default
 * 1 000 000: 1000 x 1000, a gently waved sheet, float positions and normals, 4 joints and weights per vertex, 32-bit
 * indices), two joints and one 31-key rotation clip. Each file is imported --runs times (default
 * 7, the first run is not counted apart: the file is in the page cache after the bench's own
 * warm-up read) with import_model() and freed; the figure is the median wall time (CLOCK_MONOTONIC),
 * with the fastest and slowest run, the median CPU time of the process (all threads: less
 * disturbed than wall time on a loaded machine), the file's size and its vertex count beside it.
 * Not a test: numbers depend on the machine and its load (docs/performance.md). */
#include "io/import.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SKINVIEW_SOURCE_DIR
#define SKINVIEW_SOURCE_DIR "."
#endif

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }
/* CPU time of the whole process (every thread: the import runs on its own big-stack thread). */
static double cpu_seconds(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

static bool write_all(FILE *file, const void *data, size_t size) { return fwrite(data, 1, size, file) == size; }

/* Writes the generated GLB: a side x side grid of vertices in the XY plane (1 m wide), two joints
 * (root at the origin, "bend" at x = 0.5), weights blending from root to bend across the grid,
 * one clip turning "bend" 90 degrees about Y over 1 s (31 keys). Returns false if it cannot. */
static bool write_grid_glb(const char *path, int side)
{
    const size_t vertices = (size_t)side * side, triangles = (size_t)(side - 1) * (side - 1) * 2;
    const int keys = 31;
    /* BIN chunk layout: positions, normals, joints (u16 x4), weights (f32 x4), indices (u32),
     * inverse bind matrices (2 mat4), key times, key rotations. Every part is 4-byte aligned. */
    const size_t positions_size = vertices * 12, normals_size = vertices * 12, joints_size = vertices * 8,
                 weights_size = vertices * 16, indices_size = triangles * 3 * 4, ibm_size = 2 * 64, times_size = keys * 4,
                 rotations_size = keys * 16;
    size_t offsets[9] = {0};
    const size_t sizes[8] = {positions_size, normals_size, joints_size, weights_size, indices_size, ibm_size, times_size, rotations_size};
    for (int i = 0; i < 8; i++)
        offsets[i + 1] = offsets[i] + sizes[i];
    const size_t bin_size = offsets[8];
    unsigned char *bin = calloc(1, bin_size);
    if (!bin)
        return false;
    float *position = (float *)(bin + offsets[0]), *normal = (float *)(bin + offsets[1]), *weight = (float *)(bin + offsets[3]);
    uint16_t *joint = (uint16_t *)(bin + offsets[2]);
    uint32_t *index = (uint32_t *)(bin + offsets[4]);
    float *ibm = (float *)(bin + offsets[5]), *times = (float *)(bin + offsets[6]), *rotations = (float *)(bin + offsets[7]);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            size_t v = (size_t)y * side + x;
            float u = (float)x / (float)(side - 1);
            float w = (float)y / (float)(side - 1);
            /* A gentle wave in z, so that no two vertices share a position or a plane (importers
             * sort vertices by position: a flat grid would be their worst case, not a real mesh). */
            float phase = 7.0f * u + 5.0f * w, height = 0.05f * sinf(phase);
            position[v * 3 + 0] = u;
            position[v * 3 + 1] = w;
            position[v * 3 + 2] = height;
            /* normal of z = 0.05 sin(7u + 5w): (-dz/du, -dz/dw, 1) normalised */
            float du = 0.35f * cosf(phase), dw = 0.25f * cosf(phase), length = sqrtf(du * du + dw * dw + 1.0f);
            normal[v * 3 + 0] = -du / length;
            normal[v * 3 + 1] = -dw / length;
            normal[v * 3 + 2] = 1.0f / length;
            joint[v * 4 + 1] = 1;
            weight[v * 4 + 0] = 1.0f - u;   /* root's weight fades out across the grid, bend's fades in */
            weight[v * 4 + 1] = u;
        }
    size_t n = 0;
    for (int y = 0; y + 1 < side; y++)
        for (int x = 0; x + 1 < side; x++) {
            uint32_t a = (uint32_t)(y * side + x), b = a + 1, c = a + (uint32_t)side, d = c + 1;
            uint32_t quad[6] = {a, b, c, b, d, c};
            memcpy(&index[n], quad, sizeof quad);
            n += 6;
        }
    for (int j = 0; j < 2; j++) {   /* inverse bind matrices: the inverse of each joint's bind translation */
        float *m = &ibm[j * 16];
        m[0] = m[5] = m[10] = m[15] = 1.0f;
        m[12] = j == 1 ? -0.5f : 0.0f;
    }
    for (int k = 0; k < keys; k++) {   /* q = (0, sin(a/2), 0, cos(a/2)), a from 0 to 90 degrees */
        float t = (float)k / (float)(keys - 1), half = t * 0.78539816f;
        times[k] = t;
        rotations[k * 4 + 1] = sinf(half);
        rotations[k * 4 + 3] = cosf(half);
    }

    char json[4096];
    int json_length = snprintf(json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"skinview bench_import\"},\"scene\":0,"
        "\"scenes\":[{\"nodes\":[0,2]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"bend\",\"translation\":[0.5,0,0]},"
        "{\"name\":\"grid\",\"mesh\":0,\"skin\":0}],"
        "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":5}],"
        "\"meshes\":[{\"name\":\"grid\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"JOINTS_0\":2,\"WEIGHTS_0\":3},"
        "\"indices\":4}]}],"
        "\"animations\":[{\"name\":\"bend\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
        "\"samplers\":[{\"input\":6,\"output\":7}]}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\",\"min\":[0,0,-0.05],\"max\":[1,1,0.05]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5123,\"count\":%zu,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC4\"},"
        "{\"bufferView\":4,\"componentType\":5125,\"count\":%zu,\"type\":\"SCALAR\"},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":%d,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":7,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"}],"
        "\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
        "\"buffers\":[{\"byteLength\":%zu}]}",
        vertices, vertices, vertices, vertices, triangles * 3, keys, keys, offsets[0], sizes[0], offsets[1], sizes[1], offsets[2],
        sizes[2], offsets[3], sizes[3], offsets[4], sizes[4], offsets[5], sizes[5], offsets[6], sizes[6], offsets[7], sizes[7],
        bin_size);
    if (json_length <= 0 || (size_t)json_length >= sizeof json - 4) {
        free(bin);
        return false;
    }
    while (json_length % 4 != 0)   /* the JSON chunk is padded with spaces to 4 bytes */
        json[json_length++] = ' ';
    /* GLB: 12-byte header (magic "glTF", version 2, total length), then chunks (length, type, data). */
    uint32_t header[3] = {0x46546C67u, 2u, (uint32_t)(12 + 8 + (size_t)json_length + 8 + bin_size)};
    uint32_t json_chunk[2] = {(uint32_t)json_length, 0x4E4F534Au}, bin_chunk[2] = {(uint32_t)bin_size, 0x004E4942u};
    FILE *file = fopen(path, "wb");
    bool ok = file && write_all(file, header, sizeof header) && write_all(file, json_chunk, sizeof json_chunk) &&
              write_all(file, json, (size_t)json_length) && write_all(file, bin_chunk, sizeof bin_chunk) &&
              write_all(file, bin, bin_size);
    if (file && fclose(file) != 0)
        ok = false;
    free(bin);
    return ok;
}

/* Reads the whole file once (so every timed run finds it in the page cache). */
static long long warm_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return -1;
    static unsigned char block[1 << 16];
    long long total = 0;
    size_t got;
    while ((got = fread(block, 1, sizeof block, file)) > 0)
        total += (long long)got;
    fclose(file);
    return total;
}

/* Imports `path` `runs` times; prints one line (or one JSON object). False if it does not import. */
static bool bench_file(const char *label, const char *path, int runs, bool json, bool *first_json)
{
    long long bytes = warm_file(path);
    if (bytes < 0) {
        fprintf(stderr, "bench_import: %s: cannot read %s (skipped)\n", label, path);
        return false;
    }
    double *seconds = calloc((size_t)runs, sizeof *seconds), *cpu = calloc((size_t)runs, sizeof *cpu);
    int vertices = 0;
    ImportOptions options = {.quiet = true};
    for (int run = 0; run < runs; run++) {
        Model model;
        char error[512];
        double start = now_seconds(), cpu_start = cpu_seconds();
        bool ok = import_model(path, &options, &model, error, sizeof error);
        seconds[run] = now_seconds() - start;
        cpu[run] = cpu_seconds() - cpu_start;
        if (!ok) {
            fprintf(stderr, "bench_import: %s: %s\n", path, error);
            free(seconds);
            free(cpu);
            return false;
        }
        vertices = model_total_vertices(&model);
        model_free(&model);
    }
    double median = median_of(seconds, runs), cpu_median = median_of(cpu, runs);
    if (json) {
        printf("%s{\"model\":\"%s\",\"path\":\"%s\",\"bytes\":%lld,\"vertices\":%d,\"runs\":%d,\"median_ms\":%.3f,\"min_ms\":%.3f,"
               "\"max_ms\":%.3f,\"cpu_median_ms\":%.3f}",
               *first_json ? "" : ",\n", label, path, bytes, vertices, runs, median * 1e3, seconds[0] * 1e3,
               seconds[runs - 1] * 1e3, cpu_median * 1e3);
        *first_json = false;
    } else {
        printf("%-20s %7.2f MB %8d vertices  median %9.2f ms  min %9.2f ms  max %9.2f ms  cpu %9.2f ms  (%.1f MB/s)\n",
               label, (double)bytes / 1e6, vertices, median * 1e3, seconds[0] * 1e3, seconds[runs - 1] * 1e3,
               cpu_median * 1e3, (double)bytes / 1e6 / median);
    }
    fflush(stdout);
    free(seconds);
    free(cpu);
    return true;
}

int main(int argc, char **argv)
{
    int runs = 7, grid_vertices = 1000000;
    bool json = false, generated = true, models = true;
    const char *paths[64];
    int path_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--vertices") == 0 && i + 1 < argc)
            grid_vertices = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-generated") == 0)
            generated = false;
        else if (strcmp(argv[i], "--generated-only") == 0)
            models = false;
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_import [MODEL ...] [--runs N] [--vertices N] [--no-generated | --generated-only] [--json]\n");
            return 2;
        } else if (path_count < 64)
            paths[path_count++] = argv[i];
    }
    if (runs < 1 || runs > 1000 || grid_vertices < 4) {
        fprintf(stderr, "bench_import: --runs 1..1000, --vertices at least 4\n");
        return 2;
    }
    bool first_json = true;
    if (json)
        printf("[");
    else
        printf("import_model(), median of %d runs per file (page cache warm); cpu: the process's CPU time\n", runs);
    int failures = 0;
    if (path_count > 0) {
        for (int i = 0; i < path_count; i++)
            failures += !bench_file(paths[i], paths[i], runs, json, &first_json);
    } else if (models) {
        static const char *const defaults[][2] = {
            {"demo.glb", SKINVIEW_SOURCE_DIR "/assets/demo.glb"},
            {"Xbot.glb", SKINVIEW_SOURCE_DIR "/../shared/models/threejs-xbot/Xbot.glb"},
            {"Fox.glb", SKINVIEW_SOURCE_DIR "/../shared/models/khronos-fox/Fox.glb"},
            {"CesiumMan (.gltf)", SKINVIEW_SOURCE_DIR "/../shared/models/khronos-cesiumman/cesium_man.gltf"},
            {"RiggedFigure.glb", SKINVIEW_SOURCE_DIR "/../shared/models/khronos-riggedfigure/RiggedFigure.glb"},
        };
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
            struct stat info;
            if (stat(defaults[i][1], &info) != 0) {
                fprintf(stderr, "bench_import: %s not found (skipped)\n", defaults[i][1]);
                continue;
            }
            failures += !bench_file(defaults[i][0], defaults[i][1], runs, json, &first_json);
        }
    }
    if (generated) {
        int side = 2;
        while ((long long)(side + 1) * (side + 1) <= grid_vertices)
            side++;
        const char *tmp = getenv("TMPDIR");
        char path[1024], label[64];
        snprintf(path, sizeof path, "%s/skinview-bench-grid-%d.glb", tmp && *tmp ? tmp : "/tmp", side * side);
        snprintf(label, sizeof label, "generated %dx%d", side, side);
        if (!write_grid_glb(path, side)) {
            fprintf(stderr, "bench_import: cannot write %s\n", path);
            failures++;
        } else {
            failures += !bench_file(label, path, runs, json, &first_json);
            remove(path);
        }
    }
    if (json)
        printf("]\n");
    return failures ? 1 : 0;
}
