/* vat_io.h — the files of a vertex-animation-texture bake (docs/vat.md):
 *   positions.png / positions_N.png   16-bit RGBA, quantised positions (one per page)
 *   positions.exr / positions_N.exr   --precision float: 32-bit float RGBA (OpenEXR)
 *   normals.png / normals_N.png       16-bit gray+alpha = the two octahedral channels
 *   mesh.glb                          bind-pose mesh with TEXCOORD_1.x = vertex id (vat_mesh.c)
 *   vat.json                          the manifest below (cJSON)
 * Writing goes to temporary names first; vat_commit() renames them into place with
 * vat.json last, so a bake killed half-way leaves no vat.json that --vat would accept.
 * No Assimp here (that is vat_mesh.c), no GL.
 */
#ifndef SKINVIEW_VAT_IO_H
#define SKINVIEW_VAT_IO_H

#include "anim/model.h"
#include "anim/vat.h"

#include <stddef.h>
#include <stdint.h>

#define VAT_FORMAT_NAME "skinview-vat"
#define VAT_FORMAT_VERSION 1
#define VAT_MANIFEST_NAME "vat.json"
#define VAT_MESH_NAME "mesh.glb"
#define VAT_MAX_FILES 4096
#define VAT_MAX_PAGES 2048
#define VAT_FILE_NAME_MAX 64

#define VAT_FRAME_POINTS_MAX 208   /* = VIEW_FRAME_POINTS_MAX (src/view/framing.h) */

typedef struct VatClip {
    char  name[SV_NAME_MAX];
    int   source_index;   /* index of the clip in the baked model */
    float fps;            /* requested sampling rate */
    int   frame_count;
    float duration;       /* seconds */
    int   first_slot;
    bool  loop;           /* the last frame is the first again (src/app/vat_bake.c): wraps seamlessly */
    float front_yaw;      /* the skinned viewer's front (view_front_yaw, radians), so --vat frames the
                             same view; 0 when vat.json has no "front_yaw" */
    int   frame_point_count;                  /* the points the skinned viewer fits its first view to */
    vec3  frame_points[VAT_FRAME_POINTS_MAX]; /* (view_clip_frame_points); 0 = none stored */
} VatClip;

typedef struct VatMeshRange {
    char name[SV_NAME_MAX];
    int  first_vertex;    /* vertex id of the mesh's vertex 0 */
    int  vertex_count;
} VatMeshRange;

typedef struct VatFile {
    char     name[VAT_FILE_NAME_MAX];
    long long bytes;
    uint32_t crc32;       /* zlib crc32 of the whole file */
} VatFile;

typedef struct VatManifest {
    char         source[256];      /* file name of the baked model */
    bool         float_precision;  /* positions in EXR floats, bounds only informative */
    VatLayout    layout;
    vec3         bounds_min, bounds_max;   /* per axis, over every baked frame */
    vec3         view_min, view_max;       /* the skinned viewer's camera box (view_model_bounds: every
                                              clip and the bind pose), so --vat frames the same view;
                                              = bounds when vat.json has no "view_bounds" */
    int          clip_count;
    VatClip     *clips;
    int          mesh_count;
    VatMeshRange *meshes;
    int          file_count;
    VatFile     *files;            /* every file of the bake but vat.json */
} VatManifest;

void vat_manifest_free(VatManifest *manifest);

/* Page file names: "positions.png", "positions_1.png", ... (".exr" when float). */
void vat_positions_name(int page, bool float_precision, char *out, size_t out_size);
void vat_normals_name(int page, char *out, size_t out_size);

/* "DIR/NAME" and "DIR/.NAME.partial" (the temporary name a file is written under). */
void vat_path(const char *dir, const char *name, char *out, size_t out_size);
void vat_partial_path(const char *dir, const char *name, char *out, size_t out_size);

/* Writes width x height texels of `channels` (2 or 4) 16-bit values, rows top to bottom,
 * as a 16-bit PNG (gray+alpha or RGBA) with libpng. */
bool vat_write_png16(const char *path, int width, int height, int channels, const uint16_t *texels, char *error,
                     size_t error_size);

/* Reads a 16-bit PNG that must be exactly width x height with `channels` channels. */
bool vat_read_png16(const char *path, int width, int height, int channels, uint16_t *texels, char *error,
                    size_t error_size);

/* 32-bit float RGBA EXR (OpenEXRCore, uncompressed scanlines... ZIP compressed). */
bool vat_write_exr(const char *path, int width, int height, const float *rgba, char *error, size_t error_size);
bool vat_read_exr(const char *path, int width, int height, float *rgba, char *error, size_t error_size);

/* Size and crc32 of a file. */
bool vat_file_checksum(const char *path, long long *bytes, uint32_t *crc, char *error, size_t error_size);

/* Writes the manifest as JSON to `path`. */
bool vat_write_manifest(const char *path, const VatManifest *manifest, char *error, size_t error_size);

/* Reads and validates DIR/vat.json: format, version, layout consistent with the vertex count
 * and clips (recomputed with vat_layout_build), every clip inside the slots, file list.
 * Then checks every listed file's size and crc32. One-line cause on failure. */
bool vat_read_manifest(const char *dir, VatManifest *manifest, char *error, size_t error_size);

/* Renames every DIR/.NAME.partial to DIR/NAME: vat.json removed first, written last. */
bool vat_commit(const char *dir, const VatManifest *manifest, char *error, size_t error_size);

/* Removes the temporary files of an unfinished bake (best effort). */
void vat_remove_partials(const char *dir, const VatManifest *manifest);

#endif
