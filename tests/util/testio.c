/* testio.c — the tests' import call (testio.h). */
#include "testio.h"

#include <string.h>

bool test_import(const char *path, const ImportOptions *options, Model *model)
{
    char error[512];
    ImportOptions defaults = {0};
    bool ok = import_model(path, options ? options : &defaults, model, error, sizeof error);
    CHECK(ok, "%s: import failed: %s", path, error);
    return ok;
}

bool test_fbx_scene_read(FbxScene *scene, const char *text)
{
    char error[256];
    bool ok = fbx_scene_read(scene, text, strlen(text), error, sizeof error);
    CHECK(ok, "scene read (%s)", error);
    return ok;
}
