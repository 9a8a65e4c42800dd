/* gltf_reader_fixture.h — what the three files of test_gltf_reader share: the temporary folder,
 * glTF component types and the spec's formulas for them, a quiet import. */
#ifndef SKINVIEW_TEST_GLTF_READER_FIXTURE_H
#define SKINVIEW_TEST_GLTF_READER_FIXTURE_H

#include "anim/animator.h"
#include "io/gltf/gltf_import.h"
#include "io/import.h"
#include "testutil.h"

extern char temp_dir[256];

enum { BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126 };
int component_size(int type);

/* The spec's normalized-integer formulas (glTF 2.0, 3.11), written out independently of the reader. */
double spec_normalized(double c, int type);

/* Stores integer (or float) value c as one component of `type` at p, little-endian. */
void store(unsigned char *p, int type, double c);
bool import_quiet(const char *path, Model *model, char *error, size_t error_size, int max_bones);

/* g written as TEMP/name (glb: a GLB) and freed, then imported quietly into *model; false, the cause
 * in error, if it cannot be read back (a failed write is a failed CHECK). */
bool write_and_import(TestGltf *g, const char *name, const char *members, bool glb, Model *model, char *error,
                      size_t error_size);

/* ---- what main runs from the other files of the program ---- */
void test_refusals(void);
void test_damaged(void);
void test_read_once(void);
void test_skins(void);
void test_conformance(void);

#endif
