/* testio.h — the import as the tests call it (src/io/import.h): one call, one CHECK. Linked through
 * skinview_testio (tests/CMakeLists.txt), which brings skinview_io with it. */
#ifndef SKINVIEW_TESTIO_H
#define SKINVIEW_TESTIO_H

#include "io/fbx/fbx_scene.h"
#include "io/import.h"
#include "testutil.h"

/* Imports path into *model with `options` (NULL: the defaults); a failure is a failed CHECK
 * ("PATH: import failed: MESSAGE"). Returns whether it imported (then model_free() it). */
bool test_import(const char *path, const ImportOptions *options, Model *model);

/* Reads the FBX text into *scene (src/io/fbx/fbx_scene.h); a failure is a failed CHECK
 * ("scene read (MESSAGE)"). Returns whether it was read (then fbx_scene_free() it). */
bool test_fbx_scene_read(FbxScene *scene, const char *text);

#endif
