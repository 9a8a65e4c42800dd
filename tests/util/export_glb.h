/* export_glb.h — skinview --export-gltf as a converter in the ufbx-dcc check (dcc_common.h's DccRun.convert), shared
 * by io_export_gltf_dcc (skinview's glTF reader poses the GLB) and io_export_gltf_three (three.js does). */
#ifndef SKINVIEW_TEST_EXPORT_GLB_H
#define SKINVIEW_TEST_EXPORT_GLB_H

#include <stdbool.h>
#include <stddef.h>

/* skinview FBX [extra] --export-gltf /tmp/...glb --quiet; to_fbx: the inverse of the GLB's root node
 * "skinview_axes_and_unit" (the export's one axes-and-unit conversion, read from the file), identity when it has
 * none. False with a one-line cause (nothing left behind). */
bool export_glb(const char *fbx_path, const char *extra, char *out_path, size_t out_size, double to_fbx[16],
                char *error, size_t error_size);

#endif
