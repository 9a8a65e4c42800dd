/* gltf_reader_fixture.c — the shared helpers of test_gltf_reader (gltf_reader_fixture.h). */
#include "gltf_reader_fixture.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char temp_dir[256];

int component_size(int type)
{
    return type == BYTE || type == UNSIGNED_BYTE ? 1 : type == SHORT || type == UNSIGNED_SHORT ? 2 : 4;
}

double spec_normalized(double c, int type)
{
    switch (type) {
    case BYTE: return c / 127.0 < -1.0 ? -1.0 : c / 127.0;
    case UNSIGNED_BYTE: return c / 255.0;
    case SHORT: return c / 32767.0 < -1.0 ? -1.0 : c / 32767.0;
    case UNSIGNED_SHORT: return c / 65535.0;
    default: return c;
    }
}

void store(unsigned char *p, int type, double c)
{
    if (type == FLOAT) {
        float f = (float)c;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        for (int i = 0; i < 4; i++) p[i] = (unsigned char)(bits >> (8 * i));
        return;
    }
    int64_t v = (int64_t)c;
    for (int i = 0; i < component_size(type); i++) p[i] = (unsigned char)((uint64_t)v >> (8 * i));
}

bool import_quiet(const char *path, Model *model, char *error, size_t error_size, int max_bones)
{
    ImportOptions options = {.quiet = true, .max_bones_per_mesh = max_bones};
    return import_model(path, &options, model, error, error_size);
}

bool write_and_import(TestGltf *g, const char *name, const char *members, bool glb, Model *model, char *error,
                      size_t error_size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    CHECK(test_gltf_write(g, path, members, glb), "write %s", path);
    test_gltf_free(g);
    return import_quiet(path, model, error, error_size, 0);
}
