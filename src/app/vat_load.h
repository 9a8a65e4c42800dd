/* vat_load.h — a VAT bake loaded for playback (vat_play.c): --vat and bench/bench_vat. */
#ifndef SKINVIEW_VAT_LOAD_H
#define SKINVIEW_VAT_LOAD_H

#include "gfx/vat_renderer.h"
#include "io/vat_io.h"

/* A bake in memory: manifest, textures (pages stacked, each padded to page_height rows),
 * mesh.glb and, per baked vertex id, where it lives in the mesh model. */
typedef struct LoadedBake {
    VatManifest manifest;
    Model       mesh_model;
    void       *positions;   /* uint16 RGBA, or float RGBA (float precision) */
    uint16_t   *normals;     /* two per texel */
    vec4       *clips;       /* first slot, frame count, duration, 0 */
    VatGpuData  gpu;
} LoadedBake;

/* Loads and checks OUTDIR: vat.json (layout, every file's size and crc32), the page images,
 * mesh.glb (each baked vertex id exactly once). On failure prints one line and returns false. */
bool app_vat_load(const char *dir, LoadedBake *bake);
void app_vat_unload(LoadedBake *bake);

/* N copies on a square grid on the ground (x, z), centred on the origin, 1.25 footprints apart.
 * Instance 0 plays `clip` at the playback time; the others cycle through the clips with
 * staggered times (golden-ratio fractions of the clip). grid_min/max: the crowd's bounds over
 * every baked frame. Returns a malloc'ed array, or NULL. */
VatInstance *app_vat_instances(const LoadedBake *bake, int count, int clip, vec3 grid_min, vec3 grid_max);

#endif
